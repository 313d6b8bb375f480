use toolresult::json::{parse_str, ParseLimits};
use toolresult::limits::{DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH};
use toolresult::Issues;
use wasm_bindgen::prelude::*;

use crate::outcome;
use toolresult_wasm_io::stamp;

/// Builds a ToolResult from a JSON spec. `failure` picks createFailure.
/// `now_unix_ms` is the caller's clock; randomness comes from getrandom.
#[wasm_bindgen]
pub fn create_tool_result(failure: bool, spec_json: &str, now_unix_ms: f64) -> String {
    outcome(build(failure, spec_json, now_unix_ms))
}

fn build(failure: bool, spec_json: &str, now_unix_ms: f64) -> Result<serde_json::Value, Issues> {
    let limits = ParseLimits::new(DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH);
    let spec = parse_str(spec_json, limits)?;
    toolresult::build_value(spec, stamp(now_unix_ms)?, failure)
}
