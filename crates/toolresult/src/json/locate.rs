//! Where a JSON Pointer's value sits in JSON text: the offset, line and column
//! an editor needs to highlight an issue's `path` (docs/guide/getting-started.md, "Validate").
//!
//! The scan reads only along the pointer: siblings are skipped by counting
//! brackets outside strings, nothing is built, and it never recurses, so any
//! depth and any size are fine. It also works on text that is not valid JSON,
//! as far as the text lets it: the deepest value it reaches is reported with
//! `found: false`, which is what an editor wants while the user types.

use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

use crate::issue::{Issue, IssueCode};

/// A value's place in the source text. Offsets and columns count UTF-16 code
/// units (JavaScript string indices); lines and columns start at 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[non_exhaustive]
pub struct SourceLocation {
    /// Where the value starts (its first character).
    pub offset: usize,
    /// Where the value ends (one past its last character; the end of the text
    /// when the value is not closed).
    pub end: usize,
    /// The line of `offset`, from 1 (lines end at `\n`).
    pub line: usize,
    /// The column of `offset` within its line, from 1.
    pub column: usize,
    /// Whether the whole pointer was found; when false, the location is that
    /// of the deepest value on the way (for a missing field, its object).
    pub found: bool,
    /// The part of the pointer that was found (equal to the pointer when
    /// `found`).
    pub pointer: String,
}

/// Locates the value `pointer` (RFC 6901; `""` is the whole document) in
/// `text`. An ill-formed pointer is an `invalid_options` issue; text that
/// holds no value at all gives offset 0 with `found: false`.
///
/// ```
/// use toolresult::json::locate;
///
/// let text = "{\n  \"metadata\": {\n    \"status\": \"sucess\"\n  }\n}";
/// let at = locate(text, "/metadata/status").unwrap();
/// assert_eq!((at.line, at.column, at.found), (3, 15, true));
/// assert_eq!(&text[at.offset..at.end], "\"sucess\"");
/// ```
pub fn locate(text: &str, pointer: &str) -> Result<SourceLocation, Issue> {
    let tokens = pointer_tokens(pointer)?;
    let mut scan = Scan {
        b: text.as_bytes(),
        i: 0,
    };
    scan.ws();
    if scan.peek().is_none() {
        return Ok(SourceLocation {
            offset: 0,
            end: 0,
            line: 1,
            column: 1,
            found: false,
            pointer: String::new(),
        });
    }
    let mut at = scan.i;
    let mut located = String::new();
    let mut found = true;
    for (raw, token) in &tokens {
        scan.i = at;
        let next = match scan.peek() {
            Some(b'{') => scan.member(token),
            Some(b'[') => index(token).and_then(|n| scan.element(n)),
            _ => None,
        };
        let Some(next) = next else {
            found = false;
            break;
        };
        at = next;
        located.push('/');
        located.push_str(raw);
    }
    scan.i = at;
    let end = if scan.skip_value().is_some() {
        scan.i
    } else {
        text.len()
    };
    Ok(place(text, at, end, found, located))
}

fn place(text: &str, at: usize, end: usize, found: bool, pointer: String) -> SourceLocation {
    // `at` and `end` sit on ASCII structural bytes or the text's end, so they
    // are char boundaries; `get` keeps that from ever panicking regardless.
    let before = text.get(..at).unwrap_or("");
    let line_start = before.rfind('\n').map_or(0, |n| n + 1);
    let offset = utf16_len(before);
    SourceLocation {
        offset,
        end: offset + utf16_len(text.get(at..end).unwrap_or("")),
        line: 1 + before.bytes().filter(|&b| b == b'\n').count(),
        column: 1 + utf16_len(&before[line_start..]),
        found,
        pointer,
    }
}

fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// The pointer's tokens, raw (as written) and unescaped (`~1` → `/`, `~0` → `~`).
fn pointer_tokens(pointer: &str) -> Result<Vec<(&str, String)>, Issue> {
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err(Issue::new(
            "",
            IssueCode::InvalidOptions,
            "a JSON Pointer is empty or starts with `/`",
        ));
    };
    rest.split('/')
        .map(|raw| {
            let mut out = String::with_capacity(raw.len());
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c != '~' {
                    out.push(c);
                    continue;
                }
                match chars.next() {
                    Some('0') => out.push('~'),
                    Some('1') => out.push('/'),
                    _ => {
                        return Err(Issue::new(
                            "",
                            IssueCode::InvalidOptions,
                            "a JSON Pointer has `~` not followed by `0` or `1`",
                        ))
                    }
                }
            }
            Ok((raw, out))
        })
        .collect()
}

/// An array index token: `0` or digits without a leading zero.
fn index(token: &str) -> Option<usize> {
    let ok = token == "0"
        || (!token.starts_with('0')
            && !token.is_empty()
            && token.bytes().all(|b| b.is_ascii_digit()));
    if ok {
        token.parse().ok()
    } else {
        None
    }
}

struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.ws();
        (self.peek() == Some(byte)).then(|| self.i += 1)
    }

    /// At `{`: the start of the value of the member named `key`; of the last
    /// one when the key repeats, as `JSON.parse` reads it (and where a
    /// `duplicate_key` issue points).
    fn member(&mut self, key: &str) -> Option<usize> {
        self.i += 1;
        self.ws();
        let mut found = None;
        if self.peek() == Some(b'}') {
            return None;
        }
        loop {
            self.ws();
            let Some(name) = self.string() else {
                return found;
            };
            if self.eat(b':').is_none() {
                return found;
            }
            self.ws();
            if name == key {
                found = Some(self.i);
            }
            if self.skip_value().is_none() || self.eat(b',').is_none() {
                return found;
            }
        }
    }

    /// At `[`: the start of element `n`.
    fn element(&mut self, n: usize) -> Option<usize> {
        self.i += 1;
        self.ws();
        if self.peek() == Some(b']') {
            return None;
        }
        for _ in 0..n {
            self.ws();
            self.skip_value()?;
            self.eat(b',')?;
        }
        self.ws();
        self.peek().filter(|&b| b != b']').map(|_| self.i)
    }

    /// At `"`: the decoded string (serde_json decodes the escapes); `None`
    /// when it is not closed or not a valid JSON string.
    fn string(&mut self) -> Option<String> {
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.i;
        self.skip_string()?;
        serde_json::from_slice(&self.b[start..self.i]).ok()
    }

    /// Moves past one value; `None` when the text ends inside it.
    fn skip_value(&mut self) -> Option<()> {
        self.ws();
        match self.peek()? {
            b'"' => self.skip_string(),
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.skip_string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.i += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
            }
            b'}' | b']' | b',' | b':' => None,
            _ => {
                let start = self.i;
                while !matches!(
                    self.peek(),
                    None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r' | b':' | b'"')
                ) {
                    self.i += 1;
                }
                (self.i > start).then_some(())
            }
        }
    }

    fn skip_string(&mut self) -> Option<()> {
        self.i += 1;
        loop {
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    return Some(());
                }
                b'\\' => self.i += 2,
                _ => self.i += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_members_and_elements() {
        let text = "{\"a\": [1, {\"b~/c\": \"x\"}], \"é\": \"😀\", \"z\": 2}";
        let at = locate(text, "/a/1/b~0~1c").unwrap();
        assert!(at.found);
        assert_eq!(&text[at.offset..at.end], "\"x\"");
        let z = locate(text, "/z").unwrap();
        // "é" and "😀" are 1 and 2 UTF-16 units but 2 and 4 bytes.
        assert_eq!(z.offset, text.find("2}").unwrap() - 1 - 2);
        assert_eq!(z.end, z.offset + 1);
    }

    #[test]
    fn a_missing_member_reports_its_parent() {
        let at = locate("{\"m\": {\"x\": 1}}", "/m/status").unwrap();
        assert!(!at.found);
        assert_eq!(at.pointer, "/m");
        assert_eq!((at.offset, at.end), (6, 14));
    }

    #[test]
    fn a_repeated_key_is_located_at_its_last_value() {
        let text = r#"{"a": 1, "b": {"a": 0}, "a": 2}"#;
        let at = locate(text, "/a").unwrap();
        assert_eq!(&text[at.offset..at.end], "2");
    }

    #[test]
    fn escaped_keys_match_their_decoded_form() {
        let at = locate(r#"{"\u00e9\ud83d\ude00": true}"#, "/é😀").unwrap();
        assert!(at.found);
    }

    #[test]
    fn broken_text_and_bad_pointers_never_panic() {
        for text in [
            "",
            "   ",
            "{",
            "{\"a\"",
            "{\"a\": [",
            "[1, 2",
            "\"\\",
            "{\"a\": \"\\u12",
            "}",
            "[,]",
            "{\"a\":1,,}",
        ] {
            for pointer in ["", "/a", "/0", "/a/0/b", "/1"] {
                let at = locate(text, pointer).unwrap();
                assert!(at.end <= text.len() && at.offset <= at.end);
            }
        }
        assert_eq!(
            locate("{}", "a").unwrap_err().code,
            IssueCode::InvalidOptions
        );
        assert_eq!(
            locate("{}", "/~2").unwrap_err().code,
            IssueCode::InvalidOptions
        );
        assert!(!locate("[1]", "/01").unwrap().found);
        assert!(!locate("[1]", "/-").unwrap().found);
    }

    #[test]
    fn deep_nesting_is_fine() {
        let text = alloc::format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
        let at = locate(&text, "/0/0/0").unwrap();
        assert_eq!((at.offset, at.found), (3, true));
    }
}
