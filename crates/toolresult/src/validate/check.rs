//! A small toolkit for walking a parsed JSON value and collecting every issue
//! with its JSON Pointer. The envelope validators are written with it.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::Value;
use time::OffsetDateTime;

use crate::issue::{push_pointer_token, quote_text, Issue, IssueCode, IssueSink, Issues};
use crate::validate::options::ValidationOptions;
pub(crate) use crate::wire::serde_count::is_whole;

pub(crate) struct Checker<'o> {
    pub opts: &'o ValidationOptions,
    path: String,
    sink: IssueSink,
}

/// The JSON type name of a value (`object`, `array`, `string`, ...).
pub fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

impl<'o> Checker<'o> {
    pub fn new(opts: &'o ValidationOptions) -> Self {
        Checker {
            opts,
            path: String::new(),
            sink: IssueSink::new(opts.max_issues),
        }
    }

    pub fn finish(self) -> Issues {
        self.sink.finish()
    }

    /// Records an issue at the current path.
    pub fn report(&mut self, code: IssueCode, message: impl Into<String>) {
        self.sink.push(Issue::new(self.path.clone(), code, message));
    }

    /// Records an issue at an absolute path.
    pub fn report_at(&mut self, path: &str, code: IssueCode, message: String) {
        self.sink.push(Issue::new(path, code, message));
    }

    /// The JSON Pointer of the value being checked.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Takes the issues found so far (and whether more were dropped).
    pub fn take_issues(&mut self) -> (Vec<Issue>, bool) {
        self.sink.take()
    }

    /// Runs `f` with `key` appended to the current path.
    pub fn at<R>(&mut self, key: &str, f: impl FnOnce(&mut Self) -> R) -> R {
        let len = self.path.len();
        push_pointer_token(&mut self.path, key);
        let out = f(self);
        self.path.truncate(len);
        out
    }

    pub fn at_index<R>(&mut self, index: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        let key = format!("{index}");
        self.at(&key, f)
    }

    /// Reports `key` as not part of the schema, suggesting a close name.
    pub fn unknown_field(&mut self, key: &str, allowed: &[&str]) {
        let msg = unknown_field_message(key, allowed);
        self.at(key, |c| c.report(IssueCode::UnknownField, msg));
    }
}

/// A canonical, hyphenated UUID (8-4-4-4-12 hex digits, any case).
pub fn is_hyphenated_uuid(s: &str) -> bool {
    s.len() == 36 && s.as_bytes()[8] == b'-' && uuid::Uuid::try_parse(s).is_ok()
}

/// RFC 3339 date-time with a time zone (`Z` or `+hh:mm`).
pub fn parse_timestamp(s: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).ok()
}

/// `FILE_NOT_FOUND`: upper-case letters and digits in words joined by `_`.
pub fn is_screaming_snake_case(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_uppercase()
        && b[b.len() - 1] != b'_'
        && !s.contains("__")
        && b.iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
}

pub(crate) fn unknown_field_message(key: &str, allowed: &[&str]) -> String {
    match suggest(key, allowed) {
        Some(s) => format!(
            "unknown field {} (did you mean `{s}`?)",
            quote_text(key, '`')
        ),
        None => format!("unknown field {}", quote_text(key, '`')),
    }
}

/// The allowed name closest to a misspelt one, if any is close.
pub(crate) fn suggest<'a>(key: &str, allowed: &[&'a str]) -> Option<&'a str> {
    let chars = key.chars().count();
    allowed
        .iter()
        // The distance is at least the difference in length: a key far
        // longer than every name (a 3 MB one) is no misspelling of any.
        .filter(|a| chars.abs_diff(a.chars().count()) <= 2.max(a.len() / 4))
        .map(|a| (edit_distance(key, a), *a))
        .filter(|(d, a)| *d <= 2.max(a.len() / 4))
        .min_by_key(|(d, _)| *d)
        .map(|(_, a)| a)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = Vec::with_capacity(b.len() + 1);
        cur.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert!(is_hyphenated_uuid("0b5e4d3c-2a19-4f7e-9c1d-5a6b7c8d9e0f"));
        assert!(is_hyphenated_uuid("0B5E4D3C-2A19-4F7E-9C1D-5A6B7C8D9E0F"));
        assert!(!is_hyphenated_uuid("0b5e4d3c2a194f7e9c1d5a6b7c8d9e0f"));
        assert!(!is_hyphenated_uuid(
            "urn:uuid:0b5e4d3c-2a19-4f7e-9c1d-5a6b7c8d9e0f"
        ));
        assert!(parse_timestamp("2026-01-31T12:00:00Z").is_some());
        assert!(parse_timestamp("2026-01-31T12:00:00.123+05:30").is_some());
        assert!(parse_timestamp("2026-01-31 12:00:00").is_none());
        assert!(parse_timestamp("2026-02-30T12:00:00Z").is_none());
        assert!(is_screaming_snake_case("FILE_NOT_FOUND"));
        assert!(is_screaming_snake_case("E404"));
        assert!(!is_screaming_snake_case("file_not_found"));
        assert!(!is_screaming_snake_case("FILE__X"));
        assert!(!is_screaming_snake_case("_X"));
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("reslt", &["result", "status"]), Some("result"));
        assert_eq!(suggest("output", &["result", "status"]), None);
    }
}
