//! The safety screen and the result document (docs/screen.md,
//! docs/document.md). Text and JSON come in through the input buffer; replies
//! are JSON outcomes.

use std::cell::RefCell;

use toolresult::brief_text;
use toolresult::json::ParseLimits;
use toolresult::limits::DEFAULT_MAX_DEPTH;
use toolresult::options_from_json;
use toolresult::{Issue, IssueCode, Issues};
use toolresult_screen::document::{self, DocumentProvenance, ProvidedFile};
use toolresult_screen::{ScreenOptions, Screener};
use toolresult_wasm_io::with_input;
use wasm_bindgen::prelude::*;

use crate::{outcome, to_json};

thread_local! {
    /// The last compiled screener and the options it was built from: compile
    /// once, screen many (the keyword automaton is the costly part).
    static SCREENER: RefCell<Option<(String, Screener)>> = const { RefCell::new(None) };
}

fn with_screener<R>(options_json: &str, f: impl FnOnce(&Screener) -> R) -> Result<R, Issues> {
    SCREENER.with_borrow_mut(|cached| {
        if cached.as_ref().is_none_or(|(json, _)| json != options_json) {
            let options: ScreenOptions = options_from_json(options_json, "screen options")?;
            *cached = Some((options_json.to_string(), Screener::new(options)));
        }
        Ok(f(&cached.as_ref().expect("set above").1))
    })
}

fn utf8(bytes: &[u8]) -> Result<&str, Issues> {
    std::str::from_utf8(bytes).map_err(|e| {
        Issues::from(Issue::new(
            "",
            IssueCode::InvalidUtf8,
            format!("the input is not valid UTF-8 (at byte {})", e.valid_up_to()),
        ))
    })
}

fn parse_json(bytes: &[u8]) -> Result<serde_json::Value, Issues> {
    let limits = ParseLimits::new(usize::MAX, DEFAULT_MAX_DEPTH);
    toolresult::json::parse_bytes(bytes, limits).map_err(Issues::from)
}

/// Screens the UTF-8 text in the input buffer (path `""`).
#[wasm_bindgen]
pub fn screen_text_input(len: usize, options_json: &str) -> String {
    with_input(len, |bytes| {
        outcome(utf8(bytes).and_then(|text| with_screener(options_json, |s| s.screen_text(text))))
    })
}

/// Screens every string of the JSON document in the input buffer.
#[wasm_bindgen]
pub fn screen_json_input(len: usize, options_json: &str) -> String {
    with_input(len, |bytes| {
        outcome(
            parse_json(bytes)
                .and_then(|value| with_screener(options_json, |s| s.screen_value(&value))),
        )
    })
}

/// The text in the input buffer with every secret replaced by `[REDACTED:<rule>]`.
#[wasm_bindgen]
pub fn redact_text_input(len: usize) -> String {
    with_input(len, |bytes| {
        outcome(utf8(bytes).and_then(|text| with_screener("", |s| s.redact_text(text))))
    })
}

/// The JSON document in the input buffer with secrets redacted in every string.
#[wasm_bindgen]
pub fn redact_json_input(len: usize) -> String {
    with_input(len, |bytes| {
        outcome(parse_json(bytes).and_then(|value| with_screener("", |s| s.redact_value(&value))))
    })
}

fn document_issues(issues: &[document::DocumentIssue]) -> String {
    to_json(&serde_json::json!({ "ok": false, "issues": issues }))
}

/// Renders the result document: `{ok, value: {name, text, artifacts}}` or
/// `{ok: false, issues}`. The ToolResult is validated by the caller with the
/// core module (this module does not carry the validator).
#[wasm_bindgen]
pub fn render_result_document(result_json: &str, provenance_json: &str) -> String {
    let result = match parse_json(result_json.as_bytes()) {
        Ok(value) => value,
        Err(issues) => return outcome::<()>(Err(issues)),
    };
    let provenance: DocumentProvenance = match serde_json::from_str(provenance_json) {
        Ok(p) => p,
        Err(e) => {
            return document_issues(&[document::DocumentIssue {
                code: document::DocumentIssueCode::InvalidProvenance,
                line: 0,
                path: String::new(),
                message: format!("invalid provenance: {}", brief_text(&e.to_string())),
            }])
        }
    };
    render(&result, &provenance)
}

fn render(result: &serde_json::Value, provenance: &DocumentProvenance) -> String {
    match document::render_result_document(result, provenance) {
        Ok(doc) => outcome::<_>(Ok(doc)),
        Err(issues) => document_issues(&issues),
    }
}

/// Parses the document text in the input buffer: `{ok, value, issues}`.
#[wasm_bindgen]
pub fn parse_result_document_input(len: usize) -> String {
    with_input(len, |bytes| match utf8(bytes) {
        Ok(text) => to_json(&document::parse_result_document(text)),
        Err(issues) => outcome::<()>(Err(issues)),
    })
}

/// Checks the document text in the input buffer against the files given
/// (`[{path, sha256}]`) and the screen options.
#[wasm_bindgen]
pub fn check_result_document_input(len: usize, files_json: &str, options_json: &str) -> String {
    with_input(len, |bytes| {
        let files: Vec<ProvidedFile> =
            match options_from_json::<Vec<ProvidedFile>>(files_json, "files") {
                Ok(f) => f,
                Err(issues) => return outcome::<()>(Err(issues)),
            };
        outcome(utf8(bytes).and_then(|text| {
            with_screener(options_json, |s| {
                document::check_result_document(text, &files, s)
            })
        }))
    })
}

/// `TS-YYYYMMDD-HHMMSSZ-<request_id>.md`
#[wasm_bindgen]
pub fn result_document_name(created_utc: &str, request_id: &str) -> String {
    match document::result_document_name(created_utc, request_id) {
        Ok(name) => outcome::<_>(Ok(name)),
        Err(issue) => document_issues(&[issue]),
    }
}
