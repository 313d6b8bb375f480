use std::cell::RefCell;

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
    /// 0 when valid, else the number of issues (then in `last_issues`).
    pub fn check_input(&self, len: usize) -> u32 {
        let issues = toolresult_wasm_io::with_input(len, |bytes| self.0.check_bytes(bytes));
        if !issues.is_empty() {
            set_issue_table(&issues);
        }
        issues.len() as u32
    }
}

thread_local! {
    static ISSUE_TABLE: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `issues` for JS to read in place ([`last_issues`]): no JSON to
/// write and parse, one text to decode. The table, in 32-bit words: the
/// number of issues n, the text's length in bytes, then for each issue the
/// UTF-16 lengths of its path, code and message; then the text (UTF-8, the
/// three fields of each issue in turn). `bindings/typescript/src/input.ts`
/// reads it.
fn set_issue_table(issues: &Issues) {
    let utf16 = |s: &str| {
        if s.is_ascii() {
            s.len()
        } else {
            s.encode_utf16().count()
        }
    };
    let mut text = Vec::new();
    ISSUE_TABLE.with_borrow_mut(|table| {
        table.clear();
        table.push(issues.len() as u32);
        table.push(0);
        for issue in issues {
            for field in [
                issue.path.as_str(),
                issue.code.as_str(),
                issue.message.as_str(),
            ] {
                table.push(utf16(field) as u32);
                text.extend_from_slice(field.as_bytes());
            }
        }
        table[1] = text.len() as u32;
        table.extend(text.chunks(4).map(|c| {
            let mut word = [0u8; 4];
            word[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(word)
        }));
    });
}

/// Where the issue table of the last check that found issues is (see
/// [`set_issue_table`]); valid until the next check.
#[wasm_bindgen]
pub fn last_issues() -> *const u32 {
    ISSUE_TABLE.with_borrow(Vec::as_ptr)
}
