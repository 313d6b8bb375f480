//! Strict JSON parsing: serde_json's parser, plus the checks that keep a value
//! from changing silently on its way to JavaScript (duplicate keys, integers
//! beyond 2^53, lone surrogates) and the size and depth limits.

pub(crate) mod locate;
pub(crate) mod scan;
pub(crate) mod strict;
pub(crate) mod tape;

pub use locate::*;
pub use tape::*;

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{Map, Number, Value};

use crate::issue::{Issue, IssueCode};
use crate::json::strict::Build;

/// Limits applied while parsing.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ParseLimits {
    /// Largest input, in bytes.
    pub max_bytes: usize,
    /// Deepest nesting of arrays and objects (capped at
    /// [`MAX_DEPTH_CEILING`](crate::limits::MAX_DEPTH_CEILING)).
    pub max_depth: usize,
}

impl ParseLimits {
    /// Limits of `max_bytes` bytes and `max_depth` levels.
    pub const fn new(max_bytes: usize, max_depth: usize) -> Self {
        ParseLimits {
            max_bytes,
            max_depth,
        }
    }
}

/// Parses UTF-8 bytes strictly. Invalid UTF-8 is an `invalid_utf8` issue.
pub fn parse_bytes(bytes: &[u8], limits: ParseLimits) -> Result<Value, Issue> {
    parse_str(utf8_text(bytes, limits)?, limits)
}

/// The bytes as text, or the `too_large` / `invalid_utf8` issue.
pub fn utf8_text(bytes: &[u8], limits: ParseLimits) -> Result<&str, Issue> {
    check_size(bytes.len(), limits)?;
    core::str::from_utf8(bytes).map_err(|e| {
        Issue::new(
            "",
            IssueCode::InvalidUtf8,
            format!(
                "input is not valid UTF-8: bad byte at offset {}",
                e.valid_up_to()
            ),
        )
    })
}

/// Parses JSON text strictly into a `serde_json::Value`.
pub fn parse_str(text: &str, limits: ParseLimits) -> Result<Value, Issue> {
    parse_str_with(text, limits, false)
}

/// Like [`parse_str`], but an integer beyond +/-(2^53-1) is accepted when a
/// 64-bit float holds it exactly (2^53, 1e20): for text written from
/// JavaScript numbers, which cannot have changed. An integer a float would
/// round (2^53 + 1) is still `unsafe_integer`.
pub fn parse_str_exact(text: &str, limits: ParseLimits) -> Result<Value, Issue> {
    parse_str_with(text, limits, true)
}

fn parse_str_with(text: &str, limits: ParseLimits, exact: bool) -> Result<Value, Issue> {
    strict::build(text, limits, exact, ValueBuilder).map(|(value, ValueBuilder)| value)
}

/// Builds a `serde_json::Value` for the strict reader.
pub(crate) struct ValueBuilder;

impl Build for ValueBuilder {
    type Value = Value;
    type Array = Vec<Value>;
    type Object = Map<String, Value>;

    fn null(&mut self) -> Value {
        Value::Null
    }

    fn bool(&mut self, v: bool) -> Value {
        Value::Bool(v)
    }

    fn pos_int(&mut self, v: u64) -> Value {
        Value::from(v)
    }

    fn neg_int(&mut self, v: i64) -> Value {
        Value::from(v)
    }

    fn float(&mut self, v: f64) -> Value {
        // Finite: the reader refused the others.
        Number::from_f64(v).map_or(Value::Null, Value::Number)
    }

    fn string(&mut self, v: &str) -> Value {
        Value::String(String::from(v))
    }

    fn begin_array(&mut self) -> Vec<Value> {
        Vec::new()
    }

    fn element(&mut self, array: &mut Vec<Value>, v: Value) {
        array.push(v);
    }

    fn end_array(&mut self, array: Vec<Value>) -> Value {
        Value::Array(array)
    }

    fn begin_object(&mut self) -> Map<String, Value> {
        Map::new()
    }

    fn key(&mut self, _: &mut Map<String, Value>, _: &str) {}

    fn member(&mut self, object: &mut Map<String, Value>, key: Cow<'_, str>, v: Value) {
        object.insert(key.into_owned(), v);
    }

    fn end_object(&mut self, object: Map<String, Value>) -> Value {
        Value::Object(object)
    }
}

/// What is wrong with the text as a whole, before parsing: size, BOM, empty.
pub(crate) fn precheck(text: &str, limits: ParseLimits) -> Result<(), Issue> {
    check_size(text.len(), limits)?;
    if text.starts_with('\u{feff}') {
        return Err(Issue::new(
            "",
            IssueCode::InvalidJson,
            "input starts with a byte order mark (U+FEFF); JSON text must not",
        ));
    }
    if text.trim_matches([' ', '\t', '\n', '\r']).is_empty() {
        return Err(Issue::new(
            "",
            IssueCode::InvalidJson,
            "input is empty: expected a JSON value",
        ));
    }
    Ok(())
}

fn check_size(len: usize, limits: ParseLimits) -> Result<(), Issue> {
    if len > limits.max_bytes {
        return Err(Issue::new(
            "",
            IssueCode::TooLarge,
            format!(
                "input is {len} bytes, over the maxBytes limit of {} (raise it with the maxBytes option)",
                limits.max_bytes
            ),
        ));
    }
    Ok(())
}

/// Maps a serde_json error that our visitor did not raise itself.
pub(crate) fn syntax_issue(path: String, err: &serde_json::Error) -> Issue {
    let text = err.to_string();
    // serde_json does not expose its error codes; its messages are stable.
    // A high surrogate escape not followed by `\u` is "end of hex escape".
    let code = if text.contains("surrogate") || text.contains("end of hex escape") {
        IssueCode::LoneSurrogate
    } else if text.contains("number out of range") {
        IssueCode::NumberOutOfRange
    } else {
        IssueCode::InvalidJson
    };
    let at = format!("line {} column {}", err.line(), err.column());
    let message = match code {
        IssueCode::LoneSurrogate => {
            format!("string holds an unpaired UTF-16 surrogate, which has no UTF-8 form (at {at})")
        }
        IssueCode::NumberOutOfRange => {
            format!("number does not fit a 64-bit float (at {at})")
        }
        _ => format!("invalid JSON: {text}"),
    };
    Issue::new(path, code, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: ParseLimits = ParseLimits {
        max_bytes: 1 << 20,
        max_depth: 128,
    };

    fn err(text: &str) -> Issue {
        parse_str(text, LIMITS).unwrap_err()
    }

    #[test]
    fn parses_plain_json_and_keeps_key_order() {
        let v = parse_str(r#"{"b":1,"a":[true,null,"x",-2.5]}"#, LIMITS).unwrap();
        let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["b", "a"]);
    }

    #[test]
    fn duplicate_key_reports_its_path() {
        let e = err(r#"{"a":{"x/y":1,"x/y":2}}"#);
        assert_eq!(e.code, IssueCode::DuplicateKey);
        assert_eq!(e.path, "/a/x~1y");
    }

    #[test]
    fn exact_parsing_accepts_only_integers_a_float_holds() {
        for held in [
            "9007199254740992",
            "-9007199254740992",
            "18014398509481984",
            "9223372036854775808",
        ] {
            let v = parse_str_exact(held, LIMITS).unwrap();
            assert!(v.is_number(), "{held}");
            assert!(
                parse_str(held, LIMITS).is_err(),
                "{held} is unsafe in strict mode"
            );
        }
        for rounded in [
            "9007199254740993",
            "-9007199254740993",
            "18446744073709551615",
        ] {
            let err = parse_str_exact(rounded, LIMITS).unwrap_err();
            assert_eq!(err.code, IssueCode::UnsafeInteger, "{rounded}");
        }
    }

    #[test]
    fn unsafe_integers_are_rejected_at_their_path() {
        let e = err(r#"{"n":[1, 9007199254740993]}"#);
        assert_eq!(e.code, IssueCode::UnsafeInteger);
        assert_eq!(e.path, "/n/1");
        assert!(parse_str("9007199254740991", LIMITS).is_ok());
        assert_eq!(err("-9007199254740992").code, IssueCode::UnsafeInteger);
    }

    #[test]
    fn out_of_range_number() {
        assert_eq!(err("[1e400]").code, IssueCode::NumberOutOfRange);
    }

    #[test]
    fn lone_surrogate_escape_is_rejected() {
        let e = err(r#"{"s":"a\ud800b"}"#);
        assert_eq!(e.code, IssueCode::LoneSurrogate);
        assert_eq!(e.path, "/s");
        assert!(parse_str(r#""\ud83d\ude00""#, LIMITS).is_ok());
    }

    #[test]
    fn depth_limit_is_enforced() {
        let deep = "[".repeat(129) + &"]".repeat(129);
        assert_eq!(err(&deep).code, IssueCode::TooDeep);
        let ok = "[".repeat(128) + &"]".repeat(128);
        assert!(parse_str(&ok, LIMITS).is_ok());
        let limits = ParseLimits {
            max_depth: 3,
            ..LIMITS
        };
        let e = parse_str(r#"{"a":{"b":{"c":{}}}}"#, limits).unwrap_err();
        assert_eq!((e.code, e.path.as_str()), (IssueCode::TooDeep, "/a/b/c"));
    }

    #[test]
    fn extremely_deep_input_does_not_overflow() {
        let deep = "[".repeat(100_000);
        assert_eq!(err(&deep).code, IssueCode::TooDeep);
    }

    #[test]
    fn size_empty_bom_trailing_and_utf8() {
        let small = ParseLimits {
            max_bytes: 4,
            ..LIMITS
        };
        assert_eq!(
            parse_str("[1,2,3]", small).unwrap_err().code,
            IssueCode::TooLarge
        );
        assert_eq!(err("  \n").code, IssueCode::InvalidJson);
        assert_eq!(err("\u{feff}{}").code, IssueCode::InvalidJson);
        assert_eq!(err("{} x").code, IssueCode::InvalidJson);
        assert_eq!(
            parse_bytes(b"{\"a\":\"\xff\"}", LIMITS).unwrap_err().code,
            IssueCode::InvalidUtf8
        );
    }

    #[test]
    fn syntax_error_carries_the_path_it_reached() {
        let e = err(r#"{"a":[1,2,}"#);
        assert_eq!(e.code, IssueCode::InvalidJson);
        assert_eq!(e.path, "/a/2");
        assert!(e.message.contains("line 1"), "{}", e.message);
    }
}
