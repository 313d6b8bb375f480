//! Bounding outputs (seed 000 §5.2, seed 002): a size limit for whole outputs
//! that keeps JSON valid, a line cap for text streams, and sha256 provenance
//! so a cut output can never pass for the complete one.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// Default output limit: 10 MiB (seed 000 §5.2).
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 10 * 1024 * 1024;
/// Default line cap for stdout/stderr (seed 002).
pub const DEFAULT_MAX_LINES: usize = 200;
/// The smallest limit a JSON output can be cut to: room for a marker.
pub const MIN_JSON_LIMIT: usize = 64;

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

/// Text over `max_bytes` keeps its first 95 % of the limit (cut at a char
/// boundary) plus a note saying how much is missing, all within the limit.
pub fn truncate_text(text: &str, max_bytes: usize) -> Truncation<String> {
    let original_size = text.len() as u64;
    let sha256 = sha256_hex(text.as_bytes());
    if text.len() <= max_bytes {
        return Truncation {
            output: String::from(text),
            truncated: false,
            original_size,
            size: original_size,
            sha256,
        };
    }
    let keep = floor_boundary(text, max_bytes / 20 * 19 + (max_bytes % 20) * 19 / 20);
    let mut output = String::from(&text[..keep]);
    // The note fits the 5 % headroom for any limit above ~700 bytes.
    let note = format!("\n…[truncated: {} of {} bytes shown]", keep, text.len());
    if output.len() + note.len() <= max_bytes {
        output.push_str(&note);
    }
    let size = output.len() as u64;
    Truncation {
        output,
        truncated: true,
        original_size,
        size,
        sha256,
    }
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

fn encoded_len<T: Serialize + ?Sized>(v: &T) -> usize {
    serde_json::to_vec(v).map(|b| b.len()).unwrap_or(usize::MAX)
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
/// Limits below [`MIN_JSON_LIMIT`] are raised to it.
pub fn truncate_json(value: &Value, max_bytes: usize) -> Truncation<Value> {
    let bytes = serde_json::to_vec(value).unwrap_or_default();
    truncate_json_with_source(value, &bytes, max_bytes)
}

/// [`truncate_json`] for a value parsed from `source`: the original size and
/// sha256 are those of the source bytes as given (for JS callers, the
/// `JSON.stringify` form), not of a re-serialization.
pub fn truncate_json_with_source(
    value: &Value,
    source: &[u8],
    max_bytes: usize,
) -> Truncation<Value> {
    let bytes = source;
    let original_size = bytes.len() as u64;
    let sha256 = sha256_hex(bytes);
    let max_bytes = max_bytes.max(MIN_JSON_LIMIT);
    if bytes.len() <= max_bytes {
        return Truncation {
            output: value.clone(),
            truncated: false,
            original_size,
            size: original_size,
            sha256,
        };
    }
    let budget = max_bytes / 20 * 19 + (max_bytes % 20) * 19 / 20;
    let output = fit(value, budget)
        .map(|(v, _, _)| v)
        .unwrap_or_else(|| Value::String(format!("…[+{} bytes]", bytes.len())));
    let size = json_len(&output) as u64;
    Truncation {
        output,
        truncated: true,
        original_size,
        size,
        sha256,
    }
}

/// The value cut to at most `budget` bytes: (value, its exact encoded size,
/// whether it is whole). None when not even a marker fits.
///
/// Containers are measured from their children as they are rebuilt, so every
/// node is measured once (no re-serializing of subtrees).
fn fit(v: &Value, budget: usize) -> Option<(Value, usize, bool)> {
    if let Value::Array(_) | Value::Object(_) = v {
        // Measuring allocates nothing; most subtrees fit whole and are cloned.
        let full = json_len(v);
        if full <= budget {
            return Some((v.clone(), full, true));
        }
    }
    match v {
        Value::Array(items) => fit_array(items, budget),
        Value::Object(map) => fit_object(map, budget),
        Value::String(s) => {
            let len = string_len(s);
            if len <= budget {
                Some((v.clone(), len, true))
            } else {
                fit_string(s, budget)
            }
        }
        _ => {
            let len = encoded_len(v);
            (len <= budget).then(|| (v.clone(), len, true))
        }
    }
}

/// Counts the bytes written through `fmt::Write`, without storing them.
struct Counter(usize);

impl core::fmt::Write for Counter {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// The compact JSON length of a value, as serde_json writes it, measured
/// without allocating.
fn json_len(v: &Value) -> usize {
    use core::fmt::Write;
    match v {
        Value::Null => 4,
        Value::Bool(b) => 4 + usize::from(!b),
        Value::Number(n) => {
            let mut c = Counter(0);
            let _ = write!(c, "{n}");
            c.0
        }
        Value::String(s) => string_len(s),
        Value::Array(items) => {
            2 + items.len().saturating_sub(1) + items.iter().map(json_len).sum::<usize>()
        }
        Value::Object(map) => {
            2 + map.len().saturating_sub(1)
                + map
                    .iter()
                    .map(|(k, v)| string_len(k) + 1 + json_len(v))
                    .sum::<usize>()
        }
    }
}

/// Encoded length of a JSON string, quotes included.
fn string_len(s: &str) -> usize {
    2 + s.chars().map(escaped_len).sum::<usize>()
}

/// Bytes a char takes inside a JSON string (serde_json's escaping).
fn escaped_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{08}' | '\u{0c}' => 2,
        c if (c as u32) < 0x20 => 6,
        c => c.len_utf8(),
    }
}

/// One pass: the longest prefix that fits with its marker.
fn fit_string(s: &str, budget: usize) -> Option<(Value, usize, bool)> {
    // The marker's digit count is bounded by the whole string's.
    let marker_max = format!("…[+{} bytes]", s.len()).len();
    let room = budget.checked_sub(2 + marker_max)?;
    let mut used = 0;
    let mut keep = 0;
    for (i, c) in s.char_indices() {
        let n = escaped_len(c);
        if used + n > room {
            break;
        }
        used += n;
        keep = i + c.len_utf8();
    }
    let mut out = String::from(&s[..keep]);
    out.push_str(&format!("…[+{} bytes]", s.len() - keep));
    let len = encoded_len(&out);
    Some((Value::String(out), len, false))
}

fn marker_len(n: usize, what: &str) -> usize {
    // `"…[+N what]"` as JSON: quotes, the 3-byte ellipsis, brackets, digits.
    let digits = n.checked_ilog10().map_or(1, |d| d as usize + 1);
    digits + what.len() + 9
}

fn fit_array(items: &[Value], budget: usize) -> Option<(Value, usize, bool)> {
    let mut out = Vec::new();
    let mut lens = Vec::new();
    let mut used = 2; // []
    let mut complete = true;
    for (i, item) in items.iter().enumerate() {
        let rest = items.len() - i - 1;
        let comma = usize::from(!out.is_empty());
        // Room for this item and, if anything follows, the marker after it.
        let reserve = if rest > 0 {
            1 + marker_len(rest + 1, "items")
        } else {
            0
        };
        let Some(room) = budget.checked_sub(used + comma + reserve) else {
            break;
        };
        let Some((v, len, whole)) = fit(item, room) else {
            break;
        };
        out.push(v);
        lens.push(comma + len);
        used += comma + len;
        if !whole {
            complete = false;
            break;
        }
    }
    loop {
        let dropped = items.len() - out.len();
        if dropped == 0 {
            return Some((Value::Array(out), used, complete));
        }
        let len = marker_len(dropped, "items") + usize::from(!out.is_empty());
        if used + len <= budget {
            out.push(Value::String(format!("…[+{dropped} items]")));
            return Some((Value::Array(out), used + len, false));
        }
        // Make room for the marker by giving back the last item.
        out.pop()?;
        used -= lens.pop()?;
    }
}

fn fit_object(map: &Map<String, Value>, budget: usize) -> Option<(Value, usize, bool)> {
    let mut marker_key = String::from("…");
    while map.contains_key(&marker_key) {
        marker_key.push('…');
    }
    let marker_key_len = string_len(&marker_key);
    // `,"…":"[+N keys]"` without its comma.
    let entry_len = |n: usize| marker_key_len + 1 + marker_len(n, "keys") - 3;
    let mut out = Map::new();
    let mut lens = Vec::new();
    let mut keys: Vec<&String> = Vec::new();
    let mut used = 2; // {}
    let mut complete = true;
    for (i, (key, item)) in map.iter().enumerate() {
        let rest = map.len() - i - 1;
        let comma = usize::from(!out.is_empty());
        let key_len = string_len(key) + 1;
        let reserve = if rest > 0 { 1 + entry_len(rest + 1) } else { 0 };
        let Some(room) = budget.checked_sub(used + comma + key_len + reserve) else {
            break;
        };
        let Some((v, len, whole)) = fit(item, room) else {
            break;
        };
        out.insert(key.clone(), v);
        keys.push(key);
        lens.push(comma + key_len + len);
        used += comma + key_len + len;
        if !whole {
            complete = false;
            break;
        }
    }
    loop {
        let dropped = map.len() - out.len();
        if dropped == 0 {
            return Some((Value::Object(out), used, complete));
        }
        let len = entry_len(dropped) + usize::from(!out.is_empty());
        if used + len <= budget {
            out.insert(marker_key, Value::String(format!("[+{dropped} keys]")));
            return Some((Value::Object(out), used + len, false));
        }
        out.shift_remove(keys.pop()?);
        used -= lens.pop()?;
    }
}

/// The first complete lines of `text` within `max_chars` characters, never a
/// line cut in the middle; a single first line longer than that is cut at a
/// char boundary and marked. Returns the preview and whether text was left out.
pub fn preview(text: &str, max_chars: usize) -> (String, bool) {
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
            preview(text, 25),
            (String::from("first line\nsecond line\n"), true)
        );
        assert_eq!(preview(text, 100), (String::from(text), false));
        let (p, cut) = preview(&"x".repeat(1000), 50);
        assert!(cut && p.chars().count() == 50 && p.ends_with("(line truncated)"));
    }
}

#[cfg(test)]
mod length_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_len_matches_serde_json() {
        let v = json!({"a\n\"": [null, true, false, 0, -1, 1.5, 1e300, 5e-324, "é€😀\u{1}\t"], "": {}, "x": []});
        assert_eq!(json_len(&v), serde_json::to_vec(&v).unwrap().len());
        for n in [0usize, 9, 10, 99, 100, 12345] {
            assert_eq!(
                marker_len(n, "items"),
                encoded_len(&format!("…[+{n} items]"))
            );
        }
    }
}
