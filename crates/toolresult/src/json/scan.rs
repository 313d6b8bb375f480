//! A strict JSON recognizer over UTF-8 bytes, for the hot paths: it answers
//! "does the text keep every input rule" (the grammar of RFC 8259, UTF-8,
//! no lone surrogate, no duplicate key, integers within +/-(2^53-1), finite
//! numbers, the depth limit) without building anything and without saying
//! why not. Whoever gets [`Fatal`] asks the diagnostic reader
//! ([`crate::json::parse_str`], `validate::text`), which names the first
//! broken rule and its path; this one never has to agree with it on
//! messages, only never accept what it refuses.
//!
//! It is stricter in two corners, on purpose (both are then judged by the
//! diagnostic reader): an integer beyond 64 bits, and a number whose decimal
//! exponent puts it within a factor of ten of `f64::MAX`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::limits::MAX_SAFE_INTEGER;

/// The text breaks an input rule (or is not JSON): ask the diagnostic reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fatal;

pub(crate) type Scan<T> = Result<T, Fatal>;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Bytes of `w` that are zero, flagged in their high bit. Only flags above
/// the lowest true one can be false, so the lowest flag is exact.
// At opt-level "s" these two are calls unless forced inline, and they run
// once per eight bytes of every string.
#[allow(clippy::inline_always)]
#[inline(always)]
fn zero_bytes(w: u64) -> u64 {
    w.wrapping_sub(ONES) & !w & HIGHS
}

/// Eight bytes as one little-endian word (one load).
#[allow(clippy::inline_always)]
#[inline(always)]
fn word(chunk: &[u8]) -> u64 {
    let bytes: &[u8; 8] = chunk.try_into().unwrap_or(&[0; 8]);
    u64::from_le_bytes(*bytes)
}

/// A string token: where its body ends (the closing quote) and whether it
/// holds an escape.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Str {
    /// Offset of the first byte after the opening quote.
    pub start: usize,
    /// Offset of the closing quote.
    pub end: usize,
    /// The body holds at least one backslash escape.
    pub escaped: bool,
}

/// A number token.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Num {
    pub start: usize,
    pub end: usize,
    /// No fraction and no exponent.
    pub integer: bool,
}

/// The cursor over the bytes, and the scratch the key checks reuse.
pub(crate) struct Scanner<'a> {
    pub b: &'a [u8],
    pub pos: usize,
    pub max_depth: usize,
    /// Key spans of the objects being read (one stack for every level).
    keys: Vec<(usize, usize)>,
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(b: &'a [u8], max_depth: usize) -> Self {
        Scanner {
            b,
            pos: 0,
            max_depth,
            keys: Vec::new(),
        }
    }

    /// Skips JSON whitespace; returns the next byte (0 at the end, which no
    /// token starts with).
    #[inline]
    pub(crate) fn ws(&mut self) -> u8 {
        let b = self.b;
        let mut p = self.pos;
        while p < b.len() {
            let c = b[p];
            if !matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                self.pos = p;
                return c;
            }
            p += 1;
        }
        self.pos = p;
        0
    }

    /// Consumes `c` after optional whitespace.
    #[inline]
    pub(crate) fn expect(&mut self, c: u8) -> Scan<()> {
        if self.ws() != c {
            return Err(Fatal);
        }
        self.pos += 1;
        Ok(())
    }

    /// True at the end of the text (after whitespace).
    pub(crate) fn at_end(&mut self) -> bool {
        self.ws();
        self.pos == self.b.len()
    }

    /// `true`, `false` or `null` at the cursor.
    #[inline]
    pub(crate) fn literal(&mut self, word: &[u8]) -> Scan<()> {
        let end = self.pos + word.len();
        if self.b.get(self.pos..end) != Some(word) {
            return Err(Fatal);
        }
        self.pos = end;
        Ok(())
    }

    /// The string whose opening quote is at the cursor.
    #[inline]
    pub(crate) fn string(&mut self) -> Scan<Str> {
        let start = self.pos + 1;
        let (end, escaped) = string_body(self.b, start)?;
        self.pos = end + 1;
        Ok(Str {
            start,
            end,
            escaped,
        })
    }

    /// The number at the cursor: the grammar, integers within 2^53 - 1, and
    /// no decimal exponent near `f64::MAX`'s.
    pub(crate) fn number(&mut self) -> Scan<Num> {
        let b = self.b;
        let start = self.pos;
        let mut p = start;
        if b.get(p) == Some(&b'-') {
            p += 1;
        }
        let int_start = p;
        match b.get(p) {
            // A leading zero takes no digit after it (`01` is not a number:
            // refused here, before its value is looked at, as serde_json does).
            Some(b'0') if matches!(b.get(p + 1), Some(b'0'..=b'9')) => return Err(Fatal),
            Some(b'0') => p += 1,
            Some(b'1'..=b'9') => p = digits(b, p + 1),
            _ => return Err(Fatal),
        }
        let int_digits = p - int_start;
        let mut frac = (p, p);
        if b.get(p) == Some(&b'.') {
            let end = digits(b, p + 1);
            if end == p + 1 {
                return Err(Fatal);
            }
            frac = (p + 1, end);
            p = end;
        }
        let mut exp = None;
        if matches!(b.get(p), Some(b'e' | b'E')) {
            p += 1;
            let negative = b.get(p) == Some(&b'-');
            if matches!(b.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            let end = digits(b, p);
            if end == p {
                return Err(Fatal);
            }
            // Saturated: past a million the answer is the same.
            let mut e: i64 = 0;
            for &d in &b[p..end] {
                e = (e * 10 + i64::from(d - b'0')).min(1_000_000);
            }
            exp = Some(if negative { -e } else { e });
            p = end;
        }
        self.pos = p;
        let integer = frac.0 == frac.1 && exp.is_none();
        if integer {
            // 2^53 - 1 has 16 digits: only those need a look.
            if int_digits > 16
                || (int_digits == 16 && parse_digits(&b[int_start..p]) > MAX_SAFE_INTEGER)
            {
                return Err(Fatal);
            }
        } else if !plainly_finite(
            &b[int_start..int_start + int_digits],
            &b[frac.0..frac.1],
            exp.unwrap_or(0),
        ) {
            return Err(Fatal);
        }
        Ok(Num {
            start,
            end: p,
            integer,
        })
    }

    /// One value of any shape, checked and skipped; `depth` is that of the
    /// container holding it (0 at the root).
    pub(crate) fn skip_value(&mut self, depth: usize) -> Scan<()> {
        match self.ws() {
            b'"' => self.string().map(drop),
            b'{' => self.skip_object(depth + 1),
            b'[' => self.skip_array(depth + 1),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.number().map(drop),
            _ => Err(Fatal),
        }
    }

    /// Enters a container at `depth` (the cursor on its bracket).
    #[inline]
    pub(crate) fn enter(&mut self, depth: usize) -> Scan<()> {
        if depth > self.max_depth {
            return Err(Fatal);
        }
        self.pos += 1;
        Ok(())
    }

    fn skip_array(&mut self, depth: usize) -> Scan<()> {
        self.enter(depth)?;
        if self.ws() == b']' {
            self.pos += 1;
            return Ok(());
        }
        loop {
            self.skip_value(depth)?;
            match self.ws() {
                b',' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(Fatal),
            }
        }
    }

    fn skip_object(&mut self, depth: usize) -> Scan<()> {
        self.enter(depth)?;
        if self.ws() == b'}' {
            self.pos += 1;
            return Ok(());
        }
        let base = self.keys.len();
        loop {
            if self.ws() != b'"' {
                return Err(Fatal);
            }
            let key = self.string()?;
            self.keys.push((key.start, key.end));
            self.expect(b':')?;
            self.skip_value(depth)?;
            match self.ws() {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(Fatal),
            }
        }
        let unique = unique_keys(self.b, &mut self.keys[base..]);
        self.keys.truncate(base);
        unique
    }
}

/// Where the run of digits from `p` ends.
#[inline]
fn digits(b: &[u8], mut p: usize) -> usize {
    while p < b.len() && b[p].is_ascii_digit() {
        p += 1;
    }
    p
}

/// The value of at most 19 ASCII digits.
fn parse_digits(d: &[u8]) -> u64 {
    d.iter().fold(0u64, |v, &c| {
        v.wrapping_mul(10).wrapping_add(u64::from(c - b'0'))
    })
}

/// Whether a number with these integer and fraction digits and this
/// exponent is certainly below `f64::MAX` (1.8e308) in magnitude.
fn plainly_finite(int: &[u8], frac: &[u8], exp: i64) -> bool {
    // The decimal exponent k of the first non-zero digit: the value is
    // below 10^(k + exp).
    let k = match int.iter().position(|&d| d != b'0') {
        Some(i) => (int.len() - i) as i64,
        None => match frac.iter().position(|&d| d != b'0') {
            Some(i) => -(i as i64),
            // Zero, whatever the exponent.
            None => return true,
        },
    };
    k + exp <= 308
}

/// Scans a string body from `p` (after the opening quote) to its closing
/// quote: no raw control character, valid escapes, no lone surrogate, valid
/// UTF-8. Returns the closing quote's offset and whether there was an escape.
#[inline]
pub(crate) fn string_body(b: &[u8], mut p: usize) -> Scan<(usize, bool)> {
    let mut escaped = false;
    loop {
        // Eight plain ASCII bytes at a time: the common case.
        while let Some(chunk) = b.get(p..p + 8) {
            let w = word(chunk);
            let special = zero_bytes(w ^ (ONES * u64::from(b'"')))
                | zero_bytes(w ^ (ONES * u64::from(b'\\')))
                | (w.wrapping_sub(ONES * 0x20) & !w & HIGHS)
                | (w & HIGHS);
            if special != 0 {
                p += (special.trailing_zeros() / 8) as usize;
                break;
            }
            p += 8;
        }
        let Some(&c) = b.get(p) else {
            return Err(Fatal);
        };
        match c {
            b'"' => return Ok((p, escaped)),
            b'\\' => {
                escaped = true;
                p = escape(b, p)?;
            }
            0..=0x1F => return Err(Fatal),
            0x80..=0xFF => p = utf8_char(b, p)?,
            _ => p += 1,
        }
    }
}

/// The escape whose backslash is at `p`; returns the offset after it.
fn escape(b: &[u8], p: usize) -> Scan<usize> {
    match b.get(p + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(p + 2),
        Some(b'u') => match hex4(b, p + 2)? {
            0xD800..=0xDBFF => {
                if b.get(p + 6) != Some(&b'\\') || b.get(p + 7) != Some(&b'u') {
                    return Err(Fatal);
                }
                match hex4(b, p + 8)? {
                    0xDC00..=0xDFFF => Ok(p + 12),
                    _ => Err(Fatal),
                }
            }
            0xDC00..=0xDFFF => Err(Fatal),
            _ => Ok(p + 6),
        },
        _ => Err(Fatal),
    }
}

/// The four hex digits at `p` as a number.
pub(crate) fn hex4(b: &[u8], p: usize) -> Scan<u32> {
    let digits = b.get(p..p + 4).ok_or(Fatal)?;
    let mut v = 0;
    for &d in digits {
        v = v * 16 + char::from(d).to_digit(16).ok_or(Fatal)?;
    }
    Ok(v)
}

/// The UTF-8 character whose first byte (not ASCII) is at `p` (the ranges
/// of the Unicode standard's table 3-7: no overlong form, no surrogate,
/// nothing past U+10FFFF). Returns the offset after it.
fn utf8_char(b: &[u8], p: usize) -> Scan<usize> {
    let (len, lo, hi) = match b[p] {
        0xC2..=0xDF => (2, 0x80, 0xBF),
        0xE0 => (3, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80, 0xBF),
        0xED => (3, 0x80, 0x9F),
        0xF0 => (4, 0x90, 0xBF),
        0xF1..=0xF3 => (4, 0x80, 0xBF),
        0xF4 => (4, 0x80, 0x8F),
        _ => return Err(Fatal),
    };
    let second = *b.get(p + 1).ok_or(Fatal)?;
    if second < lo || second > hi {
        return Err(Fatal);
    }
    for k in 2..len {
        if !matches!(b.get(p + k), Some(0x80..=0xBF)) {
            return Err(Fatal);
        }
    }
    Ok(p + len)
}

/// Fails on a key that appears twice among `keys` (body spans), comparing
/// keys as decoded.
pub(crate) fn unique_keys(b: &[u8], keys: &mut [(usize, usize)]) -> Scan<()> {
    if keys.len() < 2 {
        return Ok(());
    }
    if keys.iter().any(|&(s, e)| b[s..e].contains(&b'\\')) {
        let mut decoded = Vec::with_capacity(keys.len());
        for &(s, e) in keys.iter() {
            decoded.push(unescape(&b[s..e]).ok_or(Fatal)?);
        }
        decoded.sort_unstable();
        return if decoded.windows(2).any(|w| w[0] == w[1]) {
            Err(Fatal)
        } else {
            Ok(())
        };
    }
    if keys.len() <= 8 {
        for i in 1..keys.len() {
            let (s, e) = keys[i];
            if keys[..i].iter().any(|&(a, z)| b[a..z] == b[s..e]) {
                return Err(Fatal);
            }
        }
        return Ok(());
    }
    keys.sort_unstable_by(|&(a, z), &(c, d)| b[a..z].cmp(&b[c..d]));
    if keys
        .windows(2)
        .any(|w| b[w[0].0..w[0].1] == b[w[1].0..w[1].1])
    {
        return Err(Fatal);
    }
    Ok(())
}

/// A string body that [`string_body`] accepted, decoded.
pub(crate) fn unescape(body: &[u8]) -> Option<String> {
    let mut out = Vec::with_capacity(body.len());
    let mut p = 0;
    while p < body.len() {
        let c = body[p];
        if c != b'\\' {
            out.push(c);
            p += 1;
            continue;
        }
        let simple = match body.get(p + 1)? {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let unit = hex4(body, p + 2).ok()?;
                let (scalar, len) = if (0xD800..0xDC00).contains(&unit) {
                    let low = hex4(body, p + 8).ok()?;
                    (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), 12)
                } else {
                    (unit, 6)
                };
                let ch = char::from_u32(scalar)?;
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                p += len;
                continue;
            }
            _ => return None,
        };
        out.push(simple);
        p += 2;
    }
    String::from_utf8(out).ok()
}

/// Exact powers of ten a double holds (10^0 ..= 10^22).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The value of a number token [`Scanner::number`] accepted, exactly as
/// serde_json reads it: the common short forms directly (an integer, or at
/// most 15 significant digits with a power of ten a double holds: one
/// correctly rounded operation), the rest through serde_json.
pub(crate) fn number_value(b: &[u8], num: Num) -> Option<f64> {
    let tok = &b[num.start..num.end];
    let (negative, body) = match tok.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, tok),
    };
    let sign = |v: f64| if negative { -v } else { v };
    if num.integer {
        // Within 2^53 - 1 (the scanner checked): exact.
        return Some(sign(parse_digits(body) as f64));
    }
    let mut mantissa: u64 = 0;
    let mut significant = 0;
    let mut scale: i64 = 0;
    let mut seen_point = false;
    let mut p = 0;
    while p < body.len() {
        match body[p] {
            b'.' => seen_point = true,
            d @ b'0'..=b'9' => {
                if mantissa != 0 || d != b'0' {
                    significant += 1;
                }
                if significant > 15 {
                    return serde_number(tok);
                }
                mantissa = mantissa * 10 + u64::from(d - b'0');
                if seen_point {
                    scale -= 1;
                }
            }
            _ => break,
        }
        p += 1;
    }
    if p < body.len() {
        // The exponent.
        let rest = &body[p + 1..];
        let (neg, digits) = match rest.split_first() {
            Some((b'-', d)) => (true, d),
            Some((b'+', d)) => (false, d),
            _ => (false, rest),
        };
        if digits.len() > 4 {
            return serde_number(tok);
        }
        let e = parse_digits(digits) as i64;
        scale += if neg { -e } else { e };
    }
    let m = mantissa as f64;
    let v = match scale {
        0 => m,
        1..=22 => m * POW10[scale as usize],
        -22..=-1 => m / POW10[(-scale) as usize],
        _ if mantissa == 0 => 0.0,
        _ => return serde_number(tok),
    };
    Some(sign(v))
}

fn serde_number(tok: &[u8]) -> Option<f64> {
    serde_json::from_slice::<f64>(tok).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    fn accepts(text: &str) -> bool {
        let mut s = Scanner::new(text.as_bytes(), 128);
        s.skip_value(0).is_ok() && s.at_end()
    }

    #[test]
    fn the_grammar() {
        for ok in [
            "0",
            "-0",
            "1.5",
            "-1.5e10",
            "1E+2",
            "0.0e-0",
            "true",
            "null",
            "\"\"",
            "[]",
            "{}",
            " [ 1 , { \"a\" : [ ] } ] ",
            "\"\\u00e9\\ud83d\\ude00\\n\"",
            "\"é😀\"",
            "9007199254740991",
            "-9007199254740991",
            "1e307",
            "0e99999999999",
        ] {
            assert!(accepts(ok), "{ok}");
        }
        for bad in [
            "",
            " ",
            "01",
            "-",
            "1.",
            ".5",
            "+1",
            "1e",
            "1e+",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\"}",
            "[1 2]",
            "tru",
            "nul",
            "\"\\x\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"a\u{1}\"",
            "{} x",
            "\u{feff}{}",
            "9007199254740992",
            "-9007199254740992",
            "99999999999999999999",
            "1e309",
            "{\"a\":1,\"a\":2}",
            "{\"a\":1,\"\\u0061\":2}",
            "\"abc",
        ] {
            assert!(!accepts(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_leading_zero_is_refused_before_the_number_is_taken() {
        for bad in ["01", "-01", "00.5"] {
            let mut s = Scanner::new(bad.as_bytes(), 128);
            assert!(s.number().is_err(), "{bad}");
        }
        let mut s = Scanner::new(b"0,", 128);
        assert_eq!(s.number().map(|n| n.end), Ok(1));
    }

    #[test]
    fn utf8_is_checked_in_strings() {
        for bad in [
            &b"\"\xff\""[..],
            b"\"\xc0\x80\"",
            b"\"\xed\xa0\x80\"",
            b"\"\xf4\x90\x80\x80\"",
            b"\"\xe2\x82\"",
        ] {
            let mut s = Scanner::new(bad, 128);
            assert!(s.skip_value(0).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn depth() {
        let ok = "[".repeat(128) + &"]".repeat(128);
        assert!(accepts(&ok));
        let deep = "[".repeat(129) + &"]".repeat(129);
        assert!(!accepts(&deep));
    }

    #[test]
    fn many_keys() {
        let keys: Vec<String> = (0..40).map(|i| format!("\"k{i}\":{i}")).collect();
        assert!(accepts(&format!("{{{}}}", keys.join(","))));
        assert!(!accepts(&format!("{{{},\"k7\":0}}", keys.join(","))));
    }

    #[test]
    fn numbers_read_as_serde_json_reads_them() {
        for tok in [
            "0",
            "-0",
            "1",
            "-1",
            "0.1",
            "1.5",
            "-2.25",
            "1e3",
            "1E-3",
            "123456.789",
            "0.000123",
            "1.7976931348623157e308",
            "2.2250738585072014e-308",
            "5e-324",
            "1.0000000000000002",
            "3.141592653589793238",
            "9007199254740991",
            "12345678901234567e-5",
            "1e-400",
            "0.1e23",
            "4.35",
            "1e22",
            "1e23",
        ] {
            let mut s = Scanner::new(tok.as_bytes(), 128);
            let Ok(num) = s.number() else { continue };
            let expected: f64 = serde_json::from_str(tok).unwrap();
            let got = number_value(tok.as_bytes(), num).unwrap();
            assert_eq!(got.to_bits(), expected.to_bits(), "{tok}");
        }
    }

    #[test]
    fn unescaping() {
        assert_eq!(
            unescape(br#"a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"#).unwrap(),
            "a\"\\/\u{8}\u{c}\n\r\té😀"
        );
    }
}
