//! JSON text read as the strings it holds: a tool result is
//! often JSON on the wire and a parsed value in the SDK, and both must get
//! the same verdict. Raw, an escape hides what it stands for (`\n` glues
//! `n` to the next word, `\u200b` is six visible bytes, `\"` is no quote)
//! and one string runs into the next. So a text that is one JSON document is
//! screened string by string, each decoded exactly as a parser decodes it,
//! with its member name, as [`super::Screener::screen_value`] screens the
//! parsed value; offsets are mapped back into the text.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

/// One string literal of the document.
pub(crate) struct JsonString {
    /// Byte range of the literal's content (between the quotes) in the text.
    pub start: usize,
    pub end: usize,
    /// The member name this string is the value of (index into the list).
    pub key: Option<usize>,
}

/// The string literals of `text` when it is exactly one JSON document, in
/// order; `None` when it is not JSON (then it is screened as plain text).
pub(crate) fn strings(text: &str) -> Option<Vec<JsonString>> {
    let t = text.as_bytes();
    let first = *t.iter().find(|b| !b.is_ascii_whitespace())?;
    if !matches!(first, b'{' | b'[' | b'"') {
        return None;
    }
    // The parser validates (escapes, nesting depth, trailing bytes) without
    // building a value; the walk below only has to find the literals.
    serde_json::from_str::<serde::de::IgnoredAny>(text).ok()?;
    let mut out: Vec<JsonString> = Vec::new();
    let mut last_key: Option<usize> = None;
    let mut prev = 0u8; // the last structural byte before the current token
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while t[j] != b'"' {
                    j += if t[j] == b'\\' { 2 } else { 1 };
                }
                let mut k = j + 1;
                while k < t.len() && t[k].is_ascii_whitespace() {
                    k += 1;
                }
                let is_key = t.get(k) == Some(&b':');
                let key = if !is_key && prev == b':' {
                    last_key
                } else {
                    None
                };
                out.push(JsonString { start, end: j, key });
                if is_key {
                    last_key = Some(out.len() - 1);
                }
                prev = b'"';
                i = j + 1;
            }
            b if b.is_ascii_whitespace() => i += 1,
            b => {
                prev = b;
                i += 1;
            }
        }
    }
    Some(out)
}

/// A decoded string and where its escapes were in the text.
pub(crate) struct Decoded<'a> {
    pub text: Cow<'a, str>,
    /// Text offset of the literal's content.
    base: usize,
    /// Each escape: (decoded start, decoded end, text start, text end).
    escapes: Vec<(usize, usize, usize, usize)>,
}

fn hex4(b: &[u8]) -> u32 {
    b.iter().fold(0, |n, &c| {
        n * 16
            + match c {
                b'0'..=b'9' => u32::from(c - b'0'),
                b'a'..=b'f' => u32::from(c - b'a' + 10),
                _ => u32::from(c - b'A' + 10),
            }
    })
}

/// Decodes one literal as `serde_json` does (a lone surrogate becomes U+FFFD).
pub(crate) fn decode<'a>(text: &'a str, s: &JsonString) -> Decoded<'a> {
    let raw = &text[s.start..s.end];
    if !raw.contains('\\') {
        return Decoded {
            text: Cow::Borrowed(raw),
            base: s.start,
            escapes: Vec::new(),
        };
    }
    let b = raw.as_bytes();
    let mut out = String::with_capacity(raw.len());
    let mut escapes = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let run = b[i..]
            .iter()
            .position(|&c| c == b'\\')
            .map_or(b.len(), |p| i + p);
        out.push_str(&raw[i..run]);
        i = run;
        if i >= b.len() {
            break;
        }
        let at = out.len();
        let from = i;
        let c = match b[i + 1] {
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'u' => {
                let hi = hex4(&b[i + 2..i + 6]);
                i += 4;
                if (0xD800..0xDC00).contains(&hi)
                    && b.get(i + 2) == Some(&b'\\')
                    && b.get(i + 3) == Some(&b'u')
                {
                    let lo = hex4(&b[i + 4..(i + 8).min(b.len())]);
                    if (0xDC00..0xE000).contains(&lo) {
                        i += 6;
                        char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                            .unwrap_or('\u{FFFD}')
                    } else {
                        '\u{FFFD}'
                    }
                } else {
                    char::from_u32(hi).unwrap_or('\u{FFFD}')
                }
            }
            other => char::from(other), // `\"`, `\\`, `\/`
        };
        out.push(c);
        i += 2;
        escapes.push((at, out.len(), s.start + from, s.start + i));
    }
    Decoded {
        text: Cow::Owned(out),
        base: s.start,
        escapes,
    }
}

impl Decoded<'_> {
    /// The text offset of decoded offset `d` as the start of a span.
    pub fn start_in_text(&self, d: usize) -> usize {
        let k = self.escapes.partition_point(|e| e.0 <= d);
        match k.checked_sub(1).map(|k| self.escapes[k]) {
            Some((_, de, ts, te)) => {
                if d < de {
                    ts
                } else {
                    te + (d - de)
                }
            }
            None => self.base + d,
        }
    }

    /// The text offset of decoded offset `d` as the end of a span.
    pub fn end_in_text(&self, d: usize) -> usize {
        let k = self.escapes.partition_point(|e| e.0 < d);
        match k.checked_sub(1).map(|k| self.escapes[k]) {
            Some((_, de, _, te)) => {
                if d <= de {
                    te
                } else {
                    te + (d - de)
                }
            }
            None => self.base + d,
        }
    }
}
