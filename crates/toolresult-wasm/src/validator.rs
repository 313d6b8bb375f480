use toolresult::{EnvelopeKind, Issues, ValidationOptions, Validator};
use wasm_bindgen::prelude::*;

use crate::to_json;
use toolresult::options_from_json;

fn kind(code: u8) -> EnvelopeKind {
    if code == 1 {
        EnvelopeKind::ToolResult
    } else {
        EnvelopeKind::AgentResult
    }
}

fn parse_options(kind: EnvelopeKind, options_json: &str) -> Result<Validator, Issues> {
    let options: ValidationOptions = options_from_json(options_json, "options")?;
    Validator::new(kind, options)
}

/// `""` when the options are usable, else a JSON array of issues.
#[wasm_bindgen]
pub fn check_options(kind_code: u8, options_json: &str) -> String {
    match parse_options(kind(kind_code), options_json) {
        Ok(_) => String::new(),
        Err(issues) => to_json(&issues),
    }
}

/// A compiled envelope validator (kind 0 = AgentResult, 1 = ToolResult).
// In JS the class has the name of the Rust type it holds (docs/internals/modules.md).
#[wasm_bindgen(js_name = Validator)]
pub struct EnvelopeValidator(Validator);

#[wasm_bindgen(js_class = Validator)]
impl EnvelopeValidator {
    /// Call `check_options` first: this throws only for options it rejected.
    #[wasm_bindgen(constructor)]
    pub fn new(kind_code: u8, options_json: &str) -> Result<EnvelopeValidator, JsError> {
        parse_options(kind(kind_code), options_json)
            .map(EnvelopeValidator)
            .map_err(|issues| JsError::new(&issues.to_string()))
    }

    /// Checks the first `len` bytes of the input buffer (see `input_buffer`):
    /// 0 when valid, 1 when not (the issues are then in `take_last_issues`).
    pub fn check_input(&self, len: usize) -> u32 {
        let issues = toolresult_wasm_io::with_input(len, |bytes| self.0.check_bytes(bytes));
        if issues.is_empty() {
            0
        } else {
            toolresult_wasm_io::set_last_issues(to_json(&issues));
            1
        }
    }
}
