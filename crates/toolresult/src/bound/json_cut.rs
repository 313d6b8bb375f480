//! JSON truncation over the text itself (docs/bounding.md §2): two passes over
//! the bytes, no `serde_json::Value`.
//!
//! 1. [`Skeleton::scan`] checks the text as strictly as [`crate::json`] does
//!    and records, for every array and object in document order, where it
//!    ends, how many members it has and its compact length.
//! 2. [`Cutter`] walks the text again and copies what fits, token by token:
//!    the size of any value is known from the skeleton without reading it, and
//!    a value that fits whole is one `memcpy` (or a whitespace-dropping copy).
//!
//! Tokens are copied as written: a number keeps its source form (`1e-7` as
//! JavaScript writes it), so the size reported is the size of the output as
//! the caller's own serializer writes it, with no re-measuring.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{kept_share, marker_len, MIN_JSON_LIMIT};
use crate::json::ParseLimits;
use crate::limits::MAX_DEPTH_CEILING;
use crate::limits::MAX_SAFE_INTEGER;

/// One array or object, found by the first pass.
#[derive(Clone, Copy)]
struct Container {
    /// Byte offset just past its closing bracket.
    end: usize,
    /// Members (items or keys).
    count: usize,
    /// Length of its compact form (whitespace outside strings dropped).
    len: usize,
    /// Index (in document order) of the first container after it.
    next: usize,
}

/// Why the first pass stopped: the caller asks the strict parser for the
/// issue, so messages and paths are those of every other entry point.
pub(super) struct Rejected;

type Scan<T> = Result<T, Rejected>;

/// The containers of a JSON text, in document order.
pub(super) struct Skeleton {
    containers: Vec<Container>,
    /// Compact length of the root value.
    root_len: usize,
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

struct Scanner<'a> {
    src: &'a [u8],
    pos: usize,
    depth: usize,
    max_depth: usize,
    containers: Vec<Container>,
    /// Key spans of the objects being scanned (a stack shared by all levels).
    keys: Vec<(usize, usize)>,
}

impl Skeleton {
    /// Scans `text`; `Err` when the strict parser would refuse it.
    pub(super) fn scan(text: &str, limits: ParseLimits) -> Scan<Skeleton> {
        let mut s = Scanner {
            src: text.as_bytes(),
            pos: 0,
            depth: 0,
            max_depth: limits.max_depth.min(MAX_DEPTH_CEILING),
            containers: Vec::new(),
            keys: Vec::new(),
        };
        s.ws();
        let root_len = s.value()?;
        s.ws();
        if s.pos != s.src.len() {
            return Err(Rejected);
        }
        Ok(Skeleton {
            containers: s.containers,
            root_len,
        })
    }
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while self.pos < self.src.len() && is_ws(self.src[self.pos]) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Scan<u8> {
        self.src.get(self.pos).copied().ok_or(Rejected)
    }

    fn expect(&mut self, b: u8) -> Scan<()> {
        if self.peek()? != b {
            return Err(Rejected);
        }
        self.pos += 1;
        Ok(())
    }

    /// One value; returns its compact length.
    fn value(&mut self) -> Scan<usize> {
        match self.peek()? {
            b'"' => self.string(),
            b'[' | b'{' => self.container(),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.number(),
        }
    }

    fn literal(&mut self, word: &[u8]) -> Scan<usize> {
        if !self.src[self.pos..].starts_with(word) {
            return Err(Rejected);
        }
        self.pos += word.len();
        Ok(word.len())
    }

    /// Moves past the string at `pos`; returns its length, quotes included.
    fn string(&mut self) -> Scan<usize> {
        // The recognizer's eight-bytes-at-a-time scan; the decoded length is
        // only needed for the one string a cut ends in (`string_token`).
        let (end, _) =
            crate::json::scan::string_body(self.src, self.pos + 1).map_err(|_| Rejected)?;
        let len = end + 1 - self.pos;
        self.pos = end + 1;
        Ok(len)
    }

    /// The number grammar of RFC 8259, then the value checks of
    /// `json::parse_str_exact`: finite, and an integer beyond 2^53 only when
    /// a float holds it exactly.
    fn number(&mut self) -> Scan<usize> {
        let start = self.pos;
        let src = self.src;
        let mut p = self.pos;
        let negative = src.get(p) == Some(&b'-');
        if negative {
            p += 1;
        }
        let int_start = p;
        match src.get(p) {
            Some(b'0') => p += 1,
            Some(b'1'..=b'9') => p = digits_end(src, p),
            _ => return Err(Rejected),
        }
        let int_digits = p - int_start;
        let mut integer = true;
        if src.get(p) == Some(&b'.') {
            integer = false;
            p = digits_after(src, p + 1)?;
        }
        let mut exponent = false;
        if matches!(src.get(p), Some(b'e' | b'E')) {
            integer = false;
            exponent = true;
            p += 1;
            if matches!(src.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            p = digits_after(src, p)?;
        }
        self.pos = p;
        // Most numbers are short and plainly finite and safe; the rest are
        // read by serde_json, as the strict parser reads them (core's own
        // float parser would add its tables to every module).
        if (integer && int_digits > 15) || exponent || int_digits > 300 {
            let n: serde_json::Number =
                serde_json::from_slice(&src[start..p]).map_err(|_| Rejected)?;
            if let Some(v) = n.as_u64() {
                if v > MAX_SAFE_INTEGER && (v as f64) as u128 != u128::from(v) {
                    return Err(Rejected);
                }
            } else if let Some(v) = n.as_i64() {
                if v.unsigned_abs() > MAX_SAFE_INTEGER && (v as f64) as i128 != i128::from(v) {
                    return Err(Rejected);
                }
            }
        }
        Ok(p - start)
    }

    fn container(&mut self) -> Scan<usize> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(Rejected);
        }
        let object = self.src[self.pos] == b'{';
        let close = if object { b'}' } else { b']' };
        self.pos += 1;
        let index = self.containers.len();
        self.containers.push(Container {
            end: 0,
            count: 0,
            len: 0,
            next: 0,
        });
        let keys_base = self.keys.len();
        let mut count = 0;
        let mut len = 2;
        self.ws();
        if self.peek()? == close {
            self.pos += 1;
        } else {
            loop {
                self.ws();
                if object {
                    if self.peek()? != b'"' {
                        return Err(Rejected);
                    }
                    let start = self.pos;
                    let key = self.string()?;
                    // The key's body, quotes left out, as the recognizer's check takes it.
                    self.keys.push((start + 1, start + key - 1));
                    len += key + 1;
                    self.ws();
                    self.expect(b':')?;
                    self.ws();
                }
                len += self.value()?;
                count += 1;
                self.ws();
                match self.peek()? {
                    b',' => {
                        self.pos += 1;
                        len += 1;
                    }
                    b if b == close => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(Rejected),
                }
            }
        }
        if object {
            crate::json::scan::unique_keys(self.src, &mut self.keys[keys_base..])
                .map_err(|_| Rejected)?;
            self.keys.truncate(keys_base);
        }
        self.depth -= 1;
        let next = self.containers.len();
        self.containers[index] = Container {
            end: self.pos,
            count,
            len,
            next,
        };
        Ok(len)
    }
}

/// Fails on a key that appears twice, comparing keys as decoded.
/// Where the run of ASCII digits starting at `p` ends.
fn digits_end(src: &[u8], mut p: usize) -> usize {
    while matches!(src.get(p), Some(b'0'..=b'9')) {
        p += 1;
    }
    p
}

/// The end of the one-or-more digits a fraction or an exponent needs at `p`.
fn digits_after(src: &[u8], p: usize) -> Scan<usize> {
    let end = digits_end(src, p);
    if end == p {
        return Err(Rejected);
    }
    Ok(end)
}

/// A string token found at `start` (its opening quote).
#[derive(Clone, Copy)]
struct StringToken {
    /// Bytes, quotes included.
    len: usize,
    /// Bytes of the string once unescaped (UTF-8).
    decoded: usize,
}

/// Scans the string starting at `start`; `None` when it is not valid JSON
/// (raw control characters, unknown escapes, lone surrogates, no end).
fn string_token(src: &[u8], start: usize) -> Option<StringToken> {
    let mut p = start + 1;
    let mut escapes_saved = 0;
    loop {
        // Plain bytes: the common case, one comparison each.
        while let Some(&b) = src.get(p) {
            if b == b'"' || b == b'\\' || b < 0x20 {
                break;
            }
            p += 1;
        }
        match *src.get(p)? {
            b'"' => {
                let len = p + 1 - start;
                return Some(StringToken {
                    len,
                    decoded: len - 2 - escapes_saved,
                });
            }
            b'\\' => {
                let (unit, decoded) = escape(src, p)?;
                escapes_saved += unit - decoded;
                p += unit;
            }
            _ => return None,
        }
    }
}

/// The escape at `p` (its backslash): (bytes in the source, bytes decoded).
fn escape(src: &[u8], p: usize) -> Option<(usize, usize)> {
    match *src.get(p + 1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some((2, 1)),
        b'u' => {
            let unit = crate::json::scan::hex4(src, p + 2).ok()?;
            match unit {
                0xD800..=0xDBFF => {
                    if src.get(p + 6) != Some(&b'\\') || src.get(p + 7) != Some(&b'u') {
                        return None;
                    }
                    let low = crate::json::scan::hex4(src, p + 8).ok()?;
                    (0xDC00..=0xDFFF).contains(&low).then_some((12, 4))
                }
                0xDC00..=0xDFFF => None,
                0..=0x7F => Some((6, 1)),
                0x80..=0x7FF => Some((6, 2)),
                _ => Some((6, 3)),
            }
        }
        _ => None,
    }
}

/// The bytes one unit of a string's body takes at `p`: a UTF-8 character or
/// an escape, as (source bytes, decoded bytes).
fn unit_at(src: &[u8], p: usize) -> (usize, usize) {
    match src[p] {
        b'\\' => escape(src, p).unwrap_or((2, 1)),
        b if b < 0x80 => (1, 1),
        b if b >= 0xF0 => (4, 4),
        b if b >= 0xE0 => (3, 3),
        _ => (2, 2),
    }
}

/// One step of a cut, from the root down the one path along which values
/// were cut: each step after the first applies to the last member its
/// container kept (docs/bounding.md §2). A caller that holds the value
/// applies these instead of parsing the output text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CutStep {
    /// An array keeps its first items.
    Items {
        /// How many items are kept.
        keep: usize,
        /// The item added after them (`"…[+N items]"`) when any was left out.
        marker: Option<String>,
    },
    /// An object keeps its first members.
    Keys {
        /// How many members are kept.
        keep: usize,
        /// The member added after them when any was left out: a key the
        /// object does not have (`…`, `……`, …) and `"[+N keys]"`.
        marker: Option<(String, String)>,
    },
    /// A string keeps its start.
    Text {
        /// How many UTF-16 units are kept (never half a character).
        keep_utf16: usize,
        /// Appended after them: `…[+N bytes]`.
        marker: String,
    },
    /// The value is replaced whole.
    Replace {
        /// The string that replaces it: `…[+N bytes]`.
        marker: String,
    },
}

/// The second pass: copies what fits into `out`.
struct Cutter<'a> {
    src: &'a [u8],
    pos: usize,
    containers: &'a [Container],
    /// The next container in document order.
    ci: usize,
    out: Vec<u8>,
    /// The cut so far, as steps (see [`CutStep`]).
    steps: Vec<CutStep>,
}

/// What fitting one value produced: its compact length and whether it is whole.
type Fitted = Option<(usize, bool)>;

impl Cutter<'_> {
    fn ws(&mut self) {
        while self.pos < self.src.len() && is_ws(self.src[self.pos]) {
            self.pos += 1;
        }
    }

    /// Skips whitespace and one byte (a comma, colon or bracket).
    fn punct(&mut self) {
        self.ws();
        self.pos += 1;
    }

    /// Copies the value at `pos` (its compact form) and moves past it.
    fn copy_whole(&mut self, len: usize, end: usize) {
        let span = &self.src[self.pos..end];
        if span.len() == len {
            self.out.extend_from_slice(span);
        } else {
            copy_compact(span, &mut self.out);
        }
        self.pos = end;
    }

    /// Skips the rest of the container `c` after cutting it.
    fn leave(&mut self, c: Container) {
        self.pos = c.end;
        self.ci = c.next;
    }

    /// The value at `pos` cut to `budget` bytes, written to `out`; `None` (and
    /// nothing written) when not even a marker fits. Always moves past it.
    fn fit(&mut self, budget: usize) -> Fitted {
        self.ws();
        let mark = self.out.len();
        let steps = self.steps.len();
        let fitted = match self.src[self.pos] {
            b'[' | b'{' => {
                let c = self.containers[self.ci];
                if c.len <= budget {
                    self.copy_whole(c.len, c.end);
                    self.ci = c.next;
                    return Some((c.len, true));
                }
                self.ci += 1;
                let fitted = self.fit_members(c, budget);
                self.leave(c);
                fitted
            }
            b'"' => {
                let token = string_token(self.src, self.pos)?;
                if token.len <= budget {
                    let end = self.pos + token.len;
                    self.copy_whole(token.len, end);
                    return Some((token.len, true));
                }
                let fitted = self.fit_string(token, budget);
                self.pos += token.len;
                fitted
            }
            _ => {
                let start = self.pos;
                self.skip_scalar();
                let len = self.pos - start;
                if len <= budget {
                    self.out.extend_from_slice(&self.src[start..self.pos]);
                    return Some((len, true));
                }
                None
            }
        };
        if fitted.is_none() {
            self.out.truncate(mark);
            self.steps.truncate(steps);
        }
        fitted
    }

    /// One pass: the longest prefix of the string that fits with its marker.
    fn fit_string(&mut self, token: StringToken, budget: usize) -> Fitted {
        // The marker's digit count is bounded by the whole string's.
        let marker_max = format!("…[+{} bytes]", token.decoded).len();
        let room = budget.checked_sub(2 + marker_max)?;
        let body = self.pos + 1;
        let end = self.pos + token.len - 1;
        let (mut used, mut kept, mut kept_utf16) = (0, 0, 0);
        while body + used < end {
            let (unit, decoded) = unit_at(self.src, body + used);
            if used + unit > room {
                break;
            }
            used += unit;
            kept += decoded;
            // A character beyond U+FFFF is two UTF-16 units (four UTF-8 bytes, or a pair of escapes).
            kept_utf16 += if decoded == 4 { 2 } else { 1 };
        }
        let marker = format!("…[+{} bytes]", token.decoded - kept);
        self.steps.push(CutStep::Text {
            keep_utf16: kept_utf16,
            marker: marker.clone(),
        });
        self.out.push(b'"');
        self.out.extend_from_slice(&self.src[body..body + used]);
        self.out.extend_from_slice(marker.as_bytes());
        self.out.push(b'"');
        Some((2 + used + marker.len(), false))
    }

    /// An array or object (at `pos`) that does not fit whole: its first
    /// members, the last of them cut if need be, then a marker counting the
    /// members left out (`"…[+N items]"`, or `"…": "[+N keys]"` under a key
    /// the object does not have). Members are given back until the marker fits.
    fn fit_members(&mut self, c: Container, budget: usize) -> Fitted {
        let object = self.src[self.pos] == b'{';
        let marker_key = if object {
            self.marker_key(c)
        } else {
            String::new()
        };
        // The marker for `n` members, without its comma. In an object: the
        // key written raw (quotes and 3 bytes per ellipsis), a colon and
        // `"[+N keys]"` (no ellipsis in the value).
        let marker = |n: usize| {
            if object {
                2 + marker_key.len() + 1 + marker_len(n, "keys") - 3
            } else {
                marker_len(n, "items")
            }
        };
        self.pos += 1; // [ or {
        self.out.push(if object { b'{' } else { b'[' });
        // This container's step; its members' come after it.
        let step = self.steps.len();
        self.steps.push(CutStep::Replace {
            marker: String::new(),
        });
        // Where each kept member starts in `out` (its comma included), its
        // length, and where its steps start.
        let mut kept: Vec<(usize, usize, usize)> = Vec::new();
        let mut used = 2;
        let mut complete = true;
        for i in 0..c.count {
            if i > 0 {
                self.punct(); // ,
            }
            // An object member's key, copied as written, and its colon.
            let key = if object { Some(self.key()) } else { None };
            let key_len = key.map_or(0, |(_, len)| len + 1);
            let rest = c.count - i - 1;
            let comma = usize::from(!kept.is_empty());
            // Room for this member and, if anything follows, the marker after it.
            let reserve = if rest > 0 { 1 + marker(rest + 1) } else { 0 };
            let Some(room) = budget.checked_sub(used + comma + key_len + reserve) else {
                break;
            };
            let at = self.out.len();
            let steps = self.steps.len();
            if comma == 1 {
                self.out.push(b',');
            }
            if let Some((start, len)) = key {
                self.out.extend_from_slice(&self.src[start..start + len]);
                self.out.push(b':');
            }
            let Some((len, whole)) = self.fit(room) else {
                self.out.truncate(at);
                break;
            };
            kept.push((at, comma + key_len + len, steps));
            used += comma + key_len + len;
            if !whole {
                complete = false;
                break;
            }
        }
        let close = if object { b'}' } else { b']' };
        loop {
            let dropped = c.count - kept.len();
            if dropped == 0 {
                self.out.push(close);
                self.steps[step] = members_step(object, kept.len(), None);
                return Some((used, complete));
            }
            let len = marker(dropped) + usize::from(!kept.is_empty());
            if used + len <= budget {
                if !kept.is_empty() {
                    self.out.push(b',');
                }
                let text = if object {
                    format!("\"{marker_key}\":\"[+{dropped} keys]\"")
                } else {
                    format!("\"…[+{dropped} items]\"")
                };
                self.out.extend_from_slice(text.as_bytes());
                self.out.push(close);
                let marker = if object {
                    (marker_key.clone(), format!("[+{dropped} keys]"))
                } else {
                    (String::new(), format!("…[+{dropped} items]"))
                };
                self.steps[step] = members_step(object, kept.len(), Some(marker));
                return Some((used + len, false));
            }
            // Make room for the marker by giving back the last member.
            let (at, len, steps) = kept.pop()?;
            self.out.truncate(at);
            self.steps.truncate(steps);
            used -= len;
        }
    }

    /// Reads an object member's key and its colon: (where the key's token
    /// starts, its length).
    fn key(&mut self) -> (usize, usize) {
        self.ws();
        let start = self.pos;
        let len = string_token(self.src, start).map_or(2, |t| t.len);
        self.pos += len;
        self.punct(); // :
        (start, len)
    }

    /// `…`, or as many ellipses as it takes not to be one of the object's keys.
    fn marker_key(&self, c: Container) -> String {
        let mut keys = Vec::new();
        // A look ahead over the object's keys only (values are skipped by
        // their extent): this runs for the few objects that are cut.
        let mut probe = Cutter {
            src: self.src,
            pos: self.pos + 1,
            containers: self.containers,
            ci: self.ci,
            out: Vec::new(),
            steps: Vec::new(),
        };
        for i in 0..c.count {
            if i > 0 {
                probe.punct();
            }
            let (start, len) = probe.key();
            keys.push(
                crate::json::scan::unescape(&probe.src[start + 1..start + len - 1])
                    .unwrap_or_default(),
            );
            probe.skip_value();
        }
        let mut marker = String::from("…");
        while keys.contains(&marker) {
            marker.push('…');
        }
        marker
    }

    /// Moves past one value without copying it.
    fn skip_value(&mut self) {
        self.ws();
        match self.src[self.pos] {
            b'[' | b'{' => {
                let c = self.containers[self.ci];
                self.leave(c);
            }
            b'"' => self.pos += string_token(self.src, self.pos).map_or(1, |t| t.len),
            _ => self.skip_scalar(),
        }
    }

    /// Moves past a number or literal (the skeleton checked its grammar).
    fn skip_scalar(&mut self) {
        while self.pos < self.src.len()
            && !matches!(self.src[self.pos], b',' | b']' | b'}')
            && !is_ws(self.src[self.pos])
        {
            self.pos += 1;
        }
    }
}

/// The step of an array or object that kept `keep` members.
fn members_step(object: bool, keep: usize, marker: Option<(String, String)>) -> CutStep {
    if object {
        CutStep::Keys { keep, marker }
    } else {
        CutStep::Items {
            keep,
            marker: marker.map(|(_, item)| item),
        }
    }
}

/// Copies a value's text without the whitespace outside its strings.
fn copy_compact(span: &[u8], out: &mut Vec<u8>) {
    let mut p = 0;
    while p < span.len() {
        let b = span[p];
        if b == b'"' {
            let len = string_token(span, p).map_or(span.len() - p, |t| t.len);
            out.extend_from_slice(&span[p..p + len]);
            p += len;
        } else {
            if !is_ws(b) {
                out.push(b);
            }
            p += 1;
        }
    }
}

/// The truncated text and its length, for a text the skeleton was scanned
/// from; `max_bytes` is already raised to [`MIN_JSON_LIMIT`].
pub(super) fn cut(
    text: &str,
    skeleton: &Skeleton,
    max_bytes: usize,
) -> (Vec<u8>, bool, Vec<CutStep>) {
    let src = text.as_bytes();
    debug_assert!(max_bytes >= MIN_JSON_LIMIT);
    let mut cutter = Cutter {
        src,
        pos: 0,
        containers: &skeleton.containers,
        ci: 0,
        out: Vec::with_capacity(skeleton.root_len.min(max_bytes)),
        steps: Vec::new(),
    };
    if src.len() <= max_bytes {
        cutter.ws();
        let end = src.len() - src.iter().rev().take_while(|&&b| is_ws(b)).count();
        cutter.copy_whole(skeleton.root_len, end);
        return (cutter.out, false, Vec::new());
    }
    let budget = kept_share(max_bytes);
    if cutter.fit(budget).is_none() {
        let marker = format!("…[+{} bytes]", src.len());
        cutter.out.clear();
        cutter
            .out
            .extend_from_slice(format!("\"{marker}\"").as_bytes());
        cutter.steps = alloc::vec![CutStep::Replace { marker }];
    }
    (cutter.out, true, cutter.steps)
}
