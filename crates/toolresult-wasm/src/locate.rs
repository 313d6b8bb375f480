//! `locate`: where a JSON Pointer's value sits in JSON text (docs/guide/getting-started.md, "Validate").

use wasm_bindgen::prelude::wasm_bindgen;

use crate::outcome;

/// `{"ok":true,"value":SourceLocation}` or an `invalid_options` issue for an
/// ill-formed pointer.
#[wasm_bindgen]
pub fn locate(text: &str, pointer: &str) -> String {
    outcome(toolresult::json::locate(text, pointer).map_err(toolresult::Issues::from))
}
