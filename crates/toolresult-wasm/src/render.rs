//! Text rendering of a typed ToolResult (the store, references and
//! conversions in this module read the same typed form).

use toolresult::render::detect_language;
use toolresult::render::{render_text, RenderOptions};
use toolresult::{parse_tool_result, ValidationOptions};
use wasm_bindgen::prelude::*;

use toolresult::options_from_json;
use toolresult_wasm_io::reply::outcome;

/// A ToolResult (JSON text) rendered as text; `options_json` is `""` for
/// the defaults. `{"ok":true,"value":"…"}` or the issues.
#[wasm_bindgen(js_name = render_text)]
pub fn render_result_text(result_json: &str, options_json: &str) -> String {
    outcome((|| {
        let opts: RenderOptions = options_from_json(options_json, "options")?;
        let r = parse_tool_result(result_json, &ValidationOptions::default())?;
        Ok(render_text(&r, &opts))
    })())
}

/// The language of a file by its name, or `""`.
#[wasm_bindgen(js_name = detect_language)]
pub fn language_of(path: &str) -> String {
    detect_language(path).unwrap_or_default().into()
}
