//! Bounding outputs: sha256, truncation, line caps, previews. Text comes in
//! through the input buffer (see `input.rs`); results go out as JSON text.

use toolresult::json::ParseLimits;
use toolresult::options::DEFAULT_MAX_DEPTH;
use toolresult::truncate;
use wasm_bindgen::prelude::*;

use crate::{outcome, to_json};
use toolresult_wasm_io::with_input;

/// Lowercase hex sha256 of the first `len` bytes of the input buffer.
#[wasm_bindgen]
pub fn sha256_input(len: usize) -> String {
    with_input(len, truncate::sha256_hex)
}

/// Truncates the UTF-8 text in the input buffer to `max_bytes`:
/// `{"ok":true,"value":{output,truncated,original_size,size,sha256}}`.
#[wasm_bindgen]
pub fn truncate_text_input(len: usize, max_bytes: usize) -> String {
    with_input(len, |bytes| match std::str::from_utf8(bytes) {
        Ok(text) => outcome(Ok(truncate::truncate_text(text, max_bytes))),
        Err(_) => outcome::<()>(Err(toolresult::Issues::from(toolresult::Issue::new(
            "",
            toolresult::IssueCode::InvalidUtf8,
            "text is not valid UTF-8",
        )))),
    })
}

/// Truncates the JSON document in the input buffer so that its compact form
/// fits `max_bytes`, keeping it valid JSON.
#[wasm_bindgen]
pub fn truncate_json_input(len: usize, max_bytes: usize) -> String {
    with_input(len, |bytes| {
        let limits = ParseLimits {
            max_bytes: usize::MAX,
            max_depth: DEFAULT_MAX_DEPTH,
        };
        let parsed = toolresult::json::parse_bytes(bytes, limits).map_err(toolresult::Issues::from);
        outcome(parsed.map(|value| truncate::truncate_json_with_source(&value, bytes, max_bytes)))
    })
}

/// The first `max_lines` lines and a note: `{"text":...,"dropped_lines":N}`.
#[wasm_bindgen]
pub fn cap_lines(text: &str, max_lines: usize) -> String {
    let (text, dropped_lines) = truncate::cap_lines(text, max_lines);
    to_json(&serde_json::json!({ "text": text, "dropped_lines": dropped_lines }))
}

/// Complete lines within `max_chars`: `{"text":...,"truncated":bool}`.
#[wasm_bindgen]
pub fn preview(text: &str, max_chars: usize) -> String {
    let (text, truncated) = truncate::preview(text, max_chars);
    to_json(&serde_json::json!({ "text": text, "truncated": truncated }))
}
