//! What a model is given of a result: its output and content cut to a
//! budget, with markers naming `get_tool_result` (docs/bounding.md §7).

use toolresult::bound::{bound_for_model, Keep, Room};
use toolresult::json::ParseLimits;
use toolresult::limits::DEFAULT_MAX_DEPTH;
use wasm_bindgen::prelude::*;

use toolresult_wasm_io::reply::outcome;

/// What a model is given of a ToolResult (JSON text): its output and content
/// blocks cut to `max_chars` characters and `max_bytes` UTF-8 bytes (`0`:
/// no limit), head and tail kept unless `head_only`, markers naming
/// `get_tool_result(reference)` (docs/bounding.md §7). The output comes back
/// as JSON text, with the cuts and sizes:
/// `{"ok":true,"value":{output?,content?,truncated,cuts,before,after}}`.
#[wasm_bindgen(js_name = bound_for_model)]
pub fn bound_result_for_model(
    result_json: &str,
    max_chars: usize,
    max_bytes: usize,
    head_only: bool,
    reference: &str,
) -> String {
    let limits = ParseLimits::new(usize::MAX, DEFAULT_MAX_DEPTH);
    let parsed =
        toolresult::json::parse_str_exact(result_json, limits).map_err(toolresult::Issues::from);
    outcome(parsed.map(|value| {
        let room = Room::new(
            (max_chars > 0).then_some(max_chars),
            (max_bytes > 0).then_some(max_bytes),
        );
        let keep = if head_only {
            Keep::Head
        } else {
            Keep::HeadTail
        };
        let output = value.get("output").filter(|v| !v.is_null());
        let content = value
            .get("content")
            .and_then(serde_json::Value::as_array)
            .map(Vec::as_slice);
        bound_for_model(output, content, room, keep, reference)
    }))
}
