//! Bounding outputs: sha256, truncation, line caps, previews. Text comes in
//! through the input buffer (see `input.rs`); results go out as JSON text.

use toolresult::bound;
use toolresult::bound::Keep;
use toolresult::json::ParseLimits;
use toolresult::limits::DEFAULT_MAX_DEPTH;
use wasm_bindgen::prelude::*;

use crate::{outcome, to_json};
use toolresult_wasm_io::with_input;

/// Lowercase hex sha256 of the first `len` bytes of the input buffer.
#[wasm_bindgen]
pub fn sha256_input(len: usize) -> String {
    with_input(len, bound::sha256_hex)
}

/// Where the UTF-8 text in the input buffer is cut to fit `max_bytes`; the
/// caller holds the text, so the output is described, not copied:
/// `{"ok":true,"value":{keep_utf16,note,output_truncated,original_size,size,sha256}}`
/// (`sha256` is `null` unless `hash`).
#[wasm_bindgen]
pub fn truncate_text_input(len: usize, max_bytes: usize, hash: bool) -> String {
    with_input(len, |bytes| match std::str::from_utf8(bytes) {
        Ok(text) => {
            let cut = bound::cut_text(text, max_bytes);
            outcome(Ok(serde_json::json!({
                "keep_utf16": bound::utf16_len(&bytes[..cut.keep]),
                "note": cut.note,
                "output_truncated": cut.truncated,
                "original_size": cut.original_size,
                "size": cut.size,
                "sha256": hash.then(|| bound::sha256_hex(bytes)),
            })))
        }
        Err(_) => outcome::<()>(Err(toolresult::Issues::from(toolresult::Issue::new(
            "",
            toolresult::IssueCode::InvalidUtf8,
            "text is not valid UTF-8",
        )))),
    })
}

/// The most bytes truncation keeps of a text over `max_bytes` (95 % of it):
/// a caller holding the text measures the prefix of whole characters within
/// it (`TextEncoder.encodeInto`) and hands it to [`text_cut`], so the text
/// itself never has to be copied in.
#[wasm_bindgen]
pub fn text_keep_budget(max_bytes: usize) -> usize {
    bound::text_keep_budget(max_bytes)
}

/// The cut of a text of `original_size` UTF-8 bytes whose first `keep` bytes
/// (measured by the caller within [`text_keep_budget`]) are kept:
/// `{"ok":true,"value":{note,output_truncated,original_size,size}}`.
#[wasm_bindgen]
pub fn text_cut(keep: usize, original_size: f64, max_bytes: usize) -> String {
    let cut = bound::text_cut(keep, original_size as u64, max_bytes);
    outcome(Ok(serde_json::json!({
        "note": cut.note,
        "output_truncated": cut.truncated,
        "original_size": cut.original_size,
        "size": cut.size,
    })))
}

/// Cuts the JSON text in the input buffer so that its compact form fits
/// `max_bytes`, keeping it valid JSON, in two passes over the bytes (no
/// value is built), and says where as steps for the caller to apply to the
/// value it holds (the output text is not sent back to be parsed):
/// `{"ok":true,"value":{"steps":[…],"output_truncated":…,"original_size":…,"size":…,"sha256":…}}`.
/// A step is `["a", keep, item|null]` (an array), `["o", keep, key|null,
/// value|null]` (an object), `["s", keep_utf16, marker]` (a string) or
/// `["r", marker]` (replaced whole); each after the first applies to the
/// last member the one before kept. `sha256` is `null` unless `hash` (the
/// Node build hashes with `node:crypto`).
#[wasm_bindgen]
pub fn truncate_json_steps(len: usize, max_bytes: usize, hash: bool) -> String {
    with_input(len, |bytes| {
        let limits = ParseLimits::new(usize::MAX, DEFAULT_MAX_DEPTH);
        let cut = toolresult::json::utf8_text(bytes, limits)
            .and_then(|text| bound::cut_json_steps(text, max_bytes, limits));
        match cut {
            Ok((cut, steps)) => {
                let steps: Vec<serde_json::Value> = steps
                    .into_iter()
                    .map(|step| match step {
                        bound::CutStep::Items { keep, marker } => {
                            serde_json::json!(["a", keep, marker])
                        }
                        bound::CutStep::Keys { keep, marker } => {
                            let (key, value) =
                                marker.map_or((None, None), |(k, v)| (Some(k), Some(v)));
                            serde_json::json!(["o", keep, key, value])
                        }
                        bound::CutStep::Text { keep_utf16, marker } => {
                            serde_json::json!(["s", keep_utf16, marker])
                        }
                        bound::CutStep::Replace { marker } => serde_json::json!(["r", marker]),
                    })
                    .collect();
                outcome(Ok(serde_json::json!({
                    "steps": steps,
                    "output_truncated": cut.truncated,
                    "original_size": cut.original_size,
                    "size": cut.size,
                    "sha256": hash.then(|| bound::sha256_hex(bytes)),
                })))
            }
            Err(issue) => outcome::<()>(Err(toolresult::Issues::from(issue))),
        }
    })
}

/// The first `max_lines` lines and a note: `{"text":...,"dropped_lines":N}`.
#[wasm_bindgen]
pub fn cap_lines(text: &str, max_lines: usize, head_only: bool) -> String {
    let keep = if head_only {
        Keep::Head
    } else {
        Keep::HeadTail
    };
    let (text, dropped_lines) = bound::cap_lines_keep(text, max_lines, keep);
    to_json(&serde_json::json!({ "text": text, "dropped_lines": dropped_lines }))
}

/// Complete lines within `max_chars`: `{"text":...,"truncated":bool}`.
#[wasm_bindgen]
pub fn preview_text(text: &str, max_chars: usize) -> String {
    let (text, truncated) = bound::preview_text(text, max_chars);
    to_json(&serde_json::json!({ "text": text, "truncated": truncated }))
}
