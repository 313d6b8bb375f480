//! wasm-bindgen layer of the schema engine module: compiled JSON Schemas and
//! the tool registry (docs/internals/modules.md). A module of its own, loaded only by
//! code that checks JSON Schemas, so nothing else pays for the engine. Like
//! the core module it takes JSON text and returns JSON text, and nothing here
//! throws.

mod registry;
mod schema;

// Values to validate arrive through the input buffer (see toolresult-wasm-io).
pub use toolresult_wasm_io::{input_buffer, wasm_memory};

use toolresult::json;
use toolresult::json::Tape;
use toolresult::{Issues, ValidationOptions};

/// Values and schemas arrive as JSON text written from JS values: parsed as
/// strictly as envelopes (no duplicate keys, bounded depth, so deep schemas
/// cannot exhaust the stack), except that an integer beyond 2^53 that a JS
/// number holds exactly is kept (`const: 9007199254740992`).
pub(crate) fn parse(text: &str) -> Result<serde_json::Value, Issues> {
    json::parse_str_exact(text, ValidationOptions::default().parse_limits()).map_err(Issues::from)
}

/// UTF-8 bytes (the input buffer) parsed onto a tape, as strictly as
/// [`parse`]: what the engine validates (no allocation per node).
pub(crate) fn parse_tape_bytes(bytes: &[u8]) -> Result<Tape, Issues> {
    let limits = ValidationOptions::default().parse_limits();
    json::utf8_text(bytes, limits)
        .and_then(|text| json::parse_tape(text, limits))
        .map_err(Issues::from)
}

/// Executes `unreachable`, so tests can prove the wrapper recovers from a
/// trap of this module too. Nothing else here traps on any input.
#[doc(hidden)]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn trap_for_tests() {
    #[cfg(target_arch = "wasm32")]
    core::arch::wasm32::unreachable();
}

/// The lines of `text` from `from_line` (1-based) on that match `pattern`
/// (the `regex` crate: linear time, bounded compilation; see
/// `toolresult_schema::grep`): `{"ok":true,"value":{"lines":[…],"total":n}}`,
/// or the issue of a pattern it refuses.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn grep_lines(
    text: &str,
    pattern: &str,
    from_line: usize,
    max: usize,
    ignore_case: bool,
) -> String {
    toolresult_wasm_io::reply::outcome(
        toolresult_schema::grep::grep_lines(text, pattern, from_line, max, ignore_case)
            .map_err(Issues::from),
    )
}
