use toolresult::{parse_tool_result, summarize, to_reference, ValidationOptions};
use wasm_bindgen::prelude::*;

use toolresult_wasm_io::reply::outcome;

/// The built-in one-line summary of a ToolResult (JSON text).
#[wasm_bindgen(js_name = summarize)]
pub fn summarize_result(result_json: &str) -> String {
    outcome(parse_tool_result(result_json, &ValidationOptions::default()).map(|r| summarize(&r)))
}

/// The reference for a ToolResult. `summary` is `""` for the built-in one.
#[wasm_bindgen(js_name = to_reference)]
pub fn reference_for(
    result_json: &str,
    dialog_id: &str,
    summary: &str,
    preview_chars: usize,
) -> String {
    outcome(
        parse_tool_result(result_json, &ValidationOptions::default()).map(|r| {
            let summary = (!summary.is_empty()).then(|| summary.to_owned());
            to_reference(&r, dialog_id, summary, preview_chars)
        }),
    )
}

/// What a ToolResult says, in whole lines within `max_chars` (docs/guide/storage.md "Previews").
#[wasm_bindgen]
pub fn preview_result(result_json: &str, max_chars: usize) -> String {
    outcome(
        parse_tool_result(result_json, &ValidationOptions::default())
            .map(|r| toolresult::bound::preview_result(&r, max_chars)),
    )
}
