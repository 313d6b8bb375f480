//! Bounding outputs (docs/spec.md §10, docs/bounding.md): a size limit for whole outputs
//! that keeps JSON valid, a line cap for text streams, and sha256 provenance
//! so a cut output can never pass for the complete one.

mod json_cut;
pub(crate) mod model;
pub(crate) mod preview;

pub use model::*;
pub use preview::*;

use alloc::format;
use alloc::string::String;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::issue::{Issue, IssueCode};
use crate::json::{self, ParseLimits};

pub use json_cut::CutStep;

use crate::limits::{MAX_DEPTH_CEILING, MIN_JSON_LIMIT};

/// Lowercase hex sha256 of the bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        out.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    out
}

/// What truncation did, whichever kind of output it cut.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Truncation<T> {
    /// The output, cut to fit when it did not.
    pub output: T,
    /// True when the output was cut (the name matches ToolResultMetadata's).
    #[serde(rename = "output_truncated")]
    pub truncated: bool,
    /// Bytes of the full output (UTF-8 text, or compact JSON).
    pub original_size: u64,
    /// Bytes of `output` as returned.
    pub size: u64,
    /// sha256 of the full output's bytes, to prove what was cut from what.
    pub sha256: String,
}

/// 95 % of a limit, rounded down, without overflow: what a cut output keeps,
/// leaving room for the note or markers saying what is missing.
fn kept_share(max_bytes: usize) -> usize {
    max_bytes / 20 * 19 + (max_bytes % 20) * 19 / 20
}

/// The largest char boundary at or below `at`.
fn floor_boundary(s: &str, mut at: usize) -> usize {
    if at >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Where [`truncate_text`] cuts a text: what callers that hold the text
/// already (the JS layer) need, without a copy of it.
#[derive(Debug, Clone, PartialEq)]
pub struct TextCut {
    /// Bytes of the text kept (a char boundary; the whole text when not cut).
    pub keep: usize,
    /// Appended after the kept bytes: says how much is missing (may be empty).
    pub note: String,
    /// True when the text was cut.
    pub truncated: bool,
    /// Bytes of the full text.
    pub original_size: u64,
    /// Bytes of the output (kept bytes plus note).
    pub size: u64,
}

/// Text over `max_bytes` keeps its first 95 % of the limit (cut at a char
/// boundary) plus a note saying how much is missing, all within the limit.
pub fn cut_text(text: &str, max_bytes: usize) -> TextCut {
    let keep = if text.len() <= max_bytes {
        text.len()
    } else {
        floor_boundary(text, text_keep_budget(max_bytes))
    };
    text_cut(keep, text.len() as u64, max_bytes)
}

/// The most bytes of a text over `max_bytes` that truncation keeps: 95 % of
/// the limit. The kept part is the longest prefix of whole characters within
/// it (what a caller holding the text measures itself, e.g. with
/// `TextEncoder.encodeInto`; [`cut_text`] for the whole rule).
pub fn text_keep_budget(max_bytes: usize) -> usize {
    kept_share(max_bytes)
}

/// The cut of a text of `original_size` bytes that keeps its first `keep`
/// bytes: the whole text when it fits `max_bytes` (then `keep` is ignored),
/// else the kept prefix ([`text_keep_budget`]) and the note. For callers that
/// hold the text and measured the prefix themselves; [`cut_text`] is this
/// with the text.
pub fn text_cut(keep: usize, original_size: u64, max_bytes: usize) -> TextCut {
    if original_size <= max_bytes as u64 {
        return TextCut {
            keep: original_size as usize,
            note: String::new(),
            truncated: false,
            original_size,
            size: original_size,
        };
    }
    let keep = keep.min(text_keep_budget(max_bytes));
    // The note fits the 5 % headroom for any limit above ~700 bytes.
    let mut note = format!("\n…[truncated: {keep} of {original_size} bytes shown]");
    if keep + note.len() > max_bytes {
        note.clear();
    }
    TextCut {
        size: (keep + note.len()) as u64,
        keep,
        note,
        truncated: true,
        original_size,
    }
}

/// [`cut_text`] applied: the output text and the sha256 of the full text.
pub fn truncate_text(text: &str, max_bytes: usize) -> Truncation<String> {
    let cut = cut_text(text, max_bytes);
    let mut output = String::with_capacity(cut.keep + cut.note.len());
    output.push_str(&text[..cut.keep]);
    output.push_str(&cut.note);
    Truncation {
        output,
        truncated: cut.truncated,
        original_size: cut.original_size,
        size: cut.size,
        sha256: sha256_hex(text.as_bytes()),
    }
}

/// UTF-16 code units of UTF-8 `bytes` (for JS callers' string offsets).
pub fn utf16_len(bytes: &[u8]) -> usize {
    // Every char starts with a non-continuation byte; 4-byte chars are pairs.
    bytes
        .iter()
        .map(|&b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0))
        .sum()
}

/// Keeps `max_lines` lines of a text stream (stdout, stderr): the first ones
/// ([`model::Keep::Head`]), or the first [`model::HEAD_SHARE_PERCENT`] % and
/// the last ones with the note between them ([`model::Keep::HeadTail`]).
pub fn cap_lines_keep(text: &str, max_lines: usize, keep: model::Keep) -> (String, usize) {
    if keep == model::Keep::Head {
        return cap_lines(text, max_lines);
    }
    let lines: alloc::vec::Vec<&str> = text.split_inclusive('\n').collect();
    let total = lines.len();
    if total <= max_lines {
        return (String::from(text), 0);
    }
    let head = max_lines * model::HEAD_SHARE_PERCENT / 100;
    let tail = max_lines - head;
    let dropped = total - max_lines;
    let mut out: String = lines[..head].concat();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "… [{dropped} more line{} not shown]\n",
        if dropped == 1 { "" } else { "s" }
    ));
    for line in &lines[total - tail..] {
        out.push_str(line);
    }
    (out, dropped)
}

/// Keeps the first `max_lines` lines of a text stream (stdout, stderr) and
/// appends a note naming how many lines were dropped.
pub fn cap_lines(text: &str, max_lines: usize) -> (String, usize) {
    let total = text.split_inclusive('\n').count();
    if total <= max_lines {
        return (String::from(text), 0);
    }
    let kept: String = text.split_inclusive('\n').take(max_lines).collect();
    let dropped = total - max_lines;
    let mut out = kept;
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "… [{dropped} more line{} not shown]",
        if dropped == 1 { "" } else { "s" }
    ));
    (out, dropped)
}

/// A JSON output over `max_bytes` (compact serialization) is cut to a value
/// that is still valid JSON and at most 95 % of the limit:
///
/// - a string keeps its start and ends with `…[+N bytes]`;
/// - an array keeps its first items and ends with a `"…[+N items]"` string;
/// - an object keeps its first keys and gains a `"…"` key saying
///   `"[+N keys]"`;
/// - nested values are cut the same way, from the start of the document.
///
/// Limits below [`MIN_JSON_LIMIT`] are raised to it. This serializes the
/// value and cuts the text ([`cut_json_text`]); for JSON text, call that.
pub fn truncate_json(value: &Value, max_bytes: usize) -> Truncation<Value> {
    let text = serde_json::to_string(value).unwrap_or_default();
    let sha256 = sha256_hex(text.as_bytes());
    let limits = ParseLimits::new(usize::MAX, MAX_DEPTH_CEILING);
    match cut_json_text(&text, max_bytes, limits) {
        Ok(cut) if cut.truncated => Truncation {
            // Our own output is JSON by construction.
            output: serde_json::from_str(&cut.text).unwrap_or(Value::Null),
            truncated: true,
            original_size: cut.original_size,
            size: cut.size,
            sha256,
        },
        // Over the limit and nested deeper than the text layer reads
        // (MAX_DEPTH_CEILING, only for values built in Rust): cut whole.
        Err(_) if text.len() > max_bytes.max(MIN_JSON_LIMIT) => {
            let output = Value::String(format!("…[+{} bytes]", text.len()));
            Truncation {
                size: serde_json::to_string(&output).map_or(0, |t| t.len() as u64),
                output,
                truncated: true,
                original_size: text.len() as u64,
                sha256,
            }
        }
        _ => Truncation {
            output: value.clone(),
            truncated: false,
            original_size: text.len() as u64,
            size: text.len() as u64,
            sha256,
        },
    }
}

/// JSON text cut to fit: [`Truncation`] without the hash, for callers that
/// hash the bytes themselves (the Node build uses `node:crypto`).
#[derive(Debug, Clone, PartialEq)]
pub struct JsonCut {
    /// The output's compact JSON text.
    pub text: String,
    /// True when the output was cut.
    pub truncated: bool,
    /// Bytes of the text as given.
    pub original_size: u64,
    /// Bytes of `text`.
    pub size: u64,
}

/// Cuts JSON text as [`truncate_json`] cuts a value, in two passes over the
/// bytes without building a value (docs/bounding.md §2). The text is checked
/// as strictly as [`crate::json::parse_str_exact`] checks it (same issues).
///
/// Sizes are those of the text's own tokens: a number keeps the form it was
/// written in, so for text from `JSON.stringify` the size is what JavaScript
/// measures. Whitespace outside strings is dropped from the output.
pub fn cut_json_text(text: &str, max_bytes: usize, limits: ParseLimits) -> Result<JsonCut, Issue> {
    cut_json_steps(text, max_bytes, limits).map(|(cut, _)| cut)
}

/// [`cut_json_text`], and where it cut as [`CutStep`]s: what a caller that
/// holds the value (the JS layer) applies to its own copy of it, instead of
/// parsing the output text back into a value.
pub fn cut_json_steps(
    text: &str,
    max_bytes: usize,
    limits: ParseLimits,
) -> Result<(JsonCut, alloc::vec::Vec<CutStep>), Issue> {
    if text.len() > limits.max_bytes {
        return Err(json::parse_str_exact(text, limits)
            .err()
            .unwrap_or_else(|| {
                Issue::new("", IssueCode::TooLarge, "input is over the maxBytes limit")
            }));
    }
    let skeleton = match json_cut::Skeleton::scan(text, limits) {
        Ok(skeleton) => skeleton,
        // The strict parser names the problem, with its path.
        Err(json_cut::Rejected) => {
            return Err(json::parse_str_exact(text, limits)
                .err()
                .unwrap_or_else(|| Issue::new("", IssueCode::InvalidJson, "invalid JSON text")))
        }
    };
    let (out, truncated, steps) = json_cut::cut(text, &skeleton, max_bytes.max(MIN_JSON_LIMIT));
    let size = out.len() as u64;
    // Copied from `text` at token boundaries plus ASCII and `…` markers.
    let text_out = String::from_utf8(out).unwrap_or_default();
    let cut = JsonCut {
        text: text_out,
        truncated,
        original_size: text.len() as u64,
        size,
    };
    Ok((cut, steps))
}

/// [`cut_json_text`] with the sha256 of the text as given: JSON text cut to
/// at most `max_bytes`, still valid JSON.
///
/// ```
/// use toolresult::bound::truncate_json_text;
/// use toolresult::json::ParseLimits;
///
/// let text = format!("[{}1]", "1234567890,".repeat(100));
/// let cut = truncate_json_text(&text, 100, ParseLimits::new(1 << 20, 128)).unwrap();
/// assert!(cut.truncated && cut.output.len() <= 100);
/// assert!(serde_json::from_str::<serde_json::Value>(&cut.output).is_ok());
/// assert_eq!(cut.sha256.len(), 64); // of the whole text
/// ```
pub fn truncate_json_text(
    text: &str,
    max_bytes: usize,
    limits: ParseLimits,
) -> Result<Truncation<String>, Issue> {
    let cut = cut_json_text(text, max_bytes, limits)?;
    Ok(Truncation {
        output: cut.text,
        truncated: cut.truncated,
        original_size: cut.original_size,
        size: cut.size,
        sha256: sha256_hex(text.as_bytes()),
    })
}

fn marker_len(n: usize, what: &str) -> usize {
    // `"…[+N what]"` as JSON: quotes, the 3-byte ellipsis, brackets, digits.
    let digits = n.checked_ilog10().map_or(1, |d| d as usize + 1);
    digits + what.len() + 9
}

/// The first complete lines of `text` within `max_chars` characters, never a
/// line cut in the middle; a single first line longer than that is cut at a
/// char boundary and marked. Returns the preview and whether text was left out.
pub fn preview_text(text: &str, max_chars: usize) -> (String, bool) {
    if text.chars().count() <= max_chars {
        return (String::from(text), false);
    }
    let mut out = String::new();
    let mut chars = 0;
    for line in text.split_inclusive('\n') {
        let n = line.chars().count();
        if chars + n > max_chars {
            // A line that fits without its newline is still complete.
            if let Some(body) = line.strip_suffix('\n') {
                if chars + n - 1 == max_chars {
                    out.push_str(body);
                }
            }
            break;
        }
        out.push_str(line);
        chars += n;
    }
    if out.is_empty() {
        // One overlong first line: cut it, and say so.
        // (A limit too small for the mark gets the bare cut; `true` says so.)
        const MARK: &str = "… (line truncated)";
        let mark = MARK.chars().count();
        if max_chars > mark {
            out = text.chars().take(max_chars - mark).collect();
            out.push_str(MARK);
        } else {
            out = text.chars().take(max_chars).collect();
        }
    }
    (out, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use serde_json::json;

    #[test]
    fn sha256_known_vectors() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"test"),
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        );
    }

    #[test]
    fn text_under_the_limit_is_untouched() {
        let t = truncate_text("héllo", 6);
        assert!(!t.truncated);
        assert_eq!(t.output, "héllo");
    }

    #[test]
    fn text_is_cut_at_95_percent_on_a_char_boundary() {
        let text = "é".repeat(2000); // 4000 bytes
        let t = truncate_text(&text, 2001);
        assert!(t.truncated);
        assert_eq!(t.original_size, 4000);
        assert_eq!(t.sha256, sha256_hex(text.as_bytes()));
        assert!(t.output.len() <= 2001);
        // 95 % of 2001 is 1900.95: 1900 bytes, an even number of 2-byte chars.
        assert!(t.output.starts_with(&"é".repeat(950)));
        assert!(
            t.output
                .ends_with("\n…[truncated: 1900 of 4000 bytes shown]"),
            "{}",
            &t.output[1890..]
        );
        let odd = truncate_text(&text, 2003);
        // 95 % of 2003 is 1902.85: cut back to the char boundary at 1902.
        assert!(odd.output.starts_with(&"é".repeat(951)));
        assert!(!odd.output[1902..].starts_with('é'));
        let t = truncate_text(&"€".repeat(10), 7);
        assert!(t.output.len() <= 7 && t.truncated);
    }

    #[test]
    fn text_cut_describes_the_output() {
        let text = "é".repeat(2000);
        let cut = cut_text(&text, 2001);
        let t = truncate_text(&text, 2001);
        assert_eq!(t.output, format!("{}{}", &text[..cut.keep], cut.note));
        assert_eq!(cut.size as usize, t.output.len());
        assert_eq!(utf16_len(&text.as_bytes()[..cut.keep]), 950);
        assert_eq!(utf16_len("a😀é€".as_bytes()), 5);
    }

    #[test]
    fn lines_are_capped_with_a_note() {
        let text: String = (0..250).map(|i| format!("line {i}\n")).collect();
        let (out, dropped) = cap_lines(&text, 200);
        assert_eq!(dropped, 50);
        assert!(out.starts_with("line 0\n"));
        assert!(out.contains("line 199\n… [50 more lines not shown]"));
        assert_eq!(cap_lines("a\nb", 5), (String::from("a\nb"), 0));
    }

    #[test]
    fn json_stays_valid_and_bounded() {
        let v =
            json!({"a": "x".repeat(500), "b": (0..100).collect::<Vec<_>>(), "c": {"d": [1, 2, 3]}});
        let full = serde_json::to_string(&v).unwrap().len();
        for limit in [64, 100, 200, 400, 700, 2000] {
            let t = truncate_json(&v, limit);
            let text = serde_json::to_string(&t.output).unwrap();
            assert!(text.len() <= limit, "{limit}: {} {text}", text.len());
            assert_eq!(t.size as usize, text.len());
            assert_eq!(t.truncated, full > limit);
            assert_eq!(t.original_size as usize, full);
        }
        let t = truncate_json(&v, 200);
        let a = t.output["a"].as_str().unwrap();
        assert!(a.starts_with("xxx") && a.ends_with("bytes]"), "{a}");
    }

    #[test]
    fn arrays_end_with_a_count_marker() {
        let v = json!((0..1000).collect::<Vec<_>>());
        let t = truncate_json(&v, 200);
        let items = t.output.as_array().unwrap();
        assert_eq!(items[0], json!(0));
        let marker = items.last().unwrap().as_str().unwrap();
        let shown = items.len() - 1;
        assert_eq!(marker, format!("…[+{} items]", 1000 - shown));
    }

    #[test]
    fn preview_keeps_whole_lines() {
        let text = "first line\nsecond line\nthird line\n";
        assert_eq!(
            preview_text(text, 25),
            (String::from("first line\nsecond line\n"), true)
        );
        assert_eq!(preview_text(text, 100), (String::from(text), false));
        let (p, cut) = preview_text(&"x".repeat(1000), 50);
        assert!(cut && p.chars().count() == 50 && p.ends_with("(line truncated)"));
    }
}
