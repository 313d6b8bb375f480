//! Helpers that produce typed per-tool data.

use toolresult::render::diff_hunks;
use wasm_bindgen::prelude::*;

use toolresult_wasm_io::reply::to_json;

/// Unified-diff hunks (JSON array of `DiffHunk`) turning `old` into `new`.
#[wasm_bindgen(js_name = diff_hunks)]
pub fn diff_hunks_of(old: &str, new: &str, context: usize) -> String {
    to_json(&diff_hunks(old, new, context))
}
