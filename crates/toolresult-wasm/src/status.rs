use toolresult::EnvelopeKind;
use wasm_bindgen::prelude::*;

use crate::to_json;

/// Status information as JSON, or `""` for an unknown name.
/// `kind_code`: 0 = agent status set, 1 = tool status set.
#[wasm_bindgen]
pub fn status_info(name: &str, kind_code: u8) -> String {
    let kind = if kind_code == 1 {
        EnvelopeKind::ToolResult
    } else {
        EnvelopeKind::AgentResult
    };
    toolresult::status_info(name, kind)
        .map(|info| to_json(&info))
        .unwrap_or_default()
}
