use serde::Serialize;
use toolresult::{IssueCode, IssueLevel, ValidationOptions};
use wasm_bindgen::prelude::*;

use crate::to_json;

#[derive(Serialize)]
struct CodeInfo {
    code: IssueCode,
    level: IssueLevel,
    description: &'static str,
}

/// Every issue code with its level and description, as JSON.
#[wasm_bindgen]
pub fn issue_codes() -> String {
    let all: Vec<CodeInfo> = IssueCode::ALL
        .iter()
        .map(|&code| CodeInfo {
            code,
            level: code.level(),
            description: code.description(),
        })
        .collect();
    to_json(&all)
}

/// The default validation options (and so the documented limits), as JSON.
#[wasm_bindgen]
pub fn default_options() -> String {
    to_json(&ValidationOptions::default())
}
