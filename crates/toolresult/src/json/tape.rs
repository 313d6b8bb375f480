//! A parsed JSON value as one flat list of entries (a "tape"), for reading a
//! value many times without building a `serde_json::Value`: no allocation per
//! string, array or object, only two growing buffers. The JSON Schema engine
//! validates tool outputs on it (toolresult-schema's `tape` module).
//!
//! Parsing is exactly as strict as [`crate::json::parse_str_exact`] (same
//! limits, same issues at the same paths): duplicate keys, integers a float
//! would round, lone surrogates, non-finite numbers, depth and size.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{Map, Number, Value};

use crate::issue::{Issue, IssueCode};
use crate::json::strict::{self, Build};
use crate::json::ParseLimits;

/// One entry of a [`Tape`]. Containers are followed by their contents:
/// an array by its elements, an object by (key, value) pairs whose keys are
/// `String` entries; `end` is the index just past the container's contents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TapeEntry {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A non-negative integer.
    PosInt(u64),
    /// A negative integer.
    NegInt(i64),
    /// A number with a fraction or an exponent.
    Float(f64),
    /// Bytes `start .. start + len` of the tape's string buffer.
    String {
        /// Offset in the string buffer.
        start: u32,
        /// Length in bytes (strings) or in members (arrays, objects).
        len: u32,
    },
    /// An array; its members follow it on the tape.
    Array {
        /// Length in bytes (strings) or in members (arrays, objects).
        len: u32,
        /// Index of the first entry after the container.
        end: u32,
    },
    /// An object; its keys and values follow it on the tape, alternating.
    Object {
        /// Length in bytes (strings) or in members (arrays, objects).
        len: u32,
        /// Index of the first entry after the container.
        end: u32,
    },
}

/// A JSON value as a flat list of entries; index 0 is the root.
#[derive(Debug, Clone, Default)]
pub struct Tape {
    entries: Vec<TapeEntry>,
    strings: String,
}

impl Tape {
    /// Makes this tape hold one string value, reusing its buffers.
    pub fn set_string(&mut self, value: &str) {
        self.entries.clear();
        self.strings.clear();
        self.push_str(value);
    }

    /// The tape of a `serde_json::Value` (for values already parsed; text
    /// goes through [`parse_tape`] directly).
    pub fn from_value(value: &Value) -> Tape {
        let mut tape = Tape::default();
        tape.push_value(value);
        tape
    }

    fn push_value(&mut self, value: &Value) {
        match value {
            Value::Null => self.entries.push(TapeEntry::Null),
            Value::Bool(b) => self.entries.push(TapeEntry::Bool(*b)),
            Value::Number(n) => self.entries.push(if let Some(u) = n.as_u64() {
                TapeEntry::PosInt(u)
            } else if let Some(i) = n.as_i64() {
                TapeEntry::NegInt(i)
            } else {
                TapeEntry::Float(n.as_f64().unwrap_or(0.0))
            }),
            Value::String(s) => {
                self.push_str(s);
            }
            Value::Array(items) => {
                let at = self.entries.len();
                self.entries.push(TapeEntry::Null);
                for item in items {
                    self.push_value(item);
                }
                self.entries[at] = TapeEntry::Array {
                    len: items.len() as u32,
                    end: self.entries.len() as u32,
                };
            }
            Value::Object(members) => {
                let at = self.entries.len();
                self.entries.push(TapeEntry::Null);
                for (key, item) in members {
                    self.push_str(key);
                    self.push_value(item);
                }
                self.entries[at] = TapeEntry::Object {
                    len: members.len() as u32,
                    end: self.entries.len() as u32,
                };
            }
        }
    }

    /// The entries; index 0 is the root.
    pub fn entries(&self) -> &[TapeEntry] {
        &self.entries
    }

    /// The entry at `index`. Indexes come from this tape; out of range is `Null`.
    pub fn entry(&self, index: usize) -> TapeEntry {
        self.entries.get(index).copied().unwrap_or(TapeEntry::Null)
    }

    /// The text of a `String` entry.
    pub fn str(&self, start: u32, len: u32) -> &str {
        let start = start as usize;
        self.strings.get(start..start + len as usize).unwrap_or("")
    }

    /// The index just past the value at `index` (its next sibling).
    pub fn skip(&self, index: usize) -> usize {
        match self.entry(index) {
            TapeEntry::Array { end, .. } | TapeEntry::Object { end, .. } => end as usize,
            _ => index + 1,
        }
    }

    /// The value at `index` as a `serde_json::Value` (for error reports and
    /// `enum`/`const` comparisons; the hot paths read the tape).
    pub fn to_value(&self, index: usize) -> Value {
        match self.entry(index) {
            TapeEntry::Null => Value::Null,
            TapeEntry::Bool(b) => Value::Bool(b),
            TapeEntry::PosInt(n) => Value::Number(n.into()),
            TapeEntry::NegInt(n) => Value::Number(n.into()),
            TapeEntry::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
            TapeEntry::String { start, len } => Value::String(self.str(start, len).to_string()),
            TapeEntry::Array { len, .. } => {
                let mut items = Vec::with_capacity(len as usize);
                let mut at = index + 1;
                for _ in 0..len {
                    items.push(self.to_value(at));
                    at = self.skip(at);
                }
                Value::Array(items)
            }
            TapeEntry::Object { len, .. } => {
                let mut members = Map::new();
                let mut at = index + 1;
                for _ in 0..len {
                    let key = match self.entry(at) {
                        TapeEntry::String { start, len } => self.str(start, len).to_string(),
                        _ => String::new(),
                    };
                    members.insert(key, self.to_value(at + 1));
                    at = self.skip(at + 1);
                }
                Value::Object(members)
            }
        }
    }

    fn push_str(&mut self, s: &str) {
        // The input is at most u32::MAX bytes (checked before parsing), and
        // the buffer never holds more than the input's strings.
        let start = self.strings.len() as u32;
        self.strings.push_str(s);
        self.entries.push(TapeEntry::String {
            start,
            len: s.len() as u32,
        });
    }
}

/// Parses JSON text into a [`Tape`], as strictly as
/// [`crate::json::parse_str_exact`]: the same reader, so the same issues at
/// the same paths.
pub fn parse_tape(text: &str, limits: ParseLimits) -> Result<Tape, Issue> {
    if u32::try_from(text.len()).is_err() {
        return Err(Issue::new(
            "",
            IssueCode::TooLarge,
            "input is over 4 GiB, more than a tape can address",
        ));
    }
    let builder = TapeBuilder(Tape {
        entries: Vec::with_capacity(text.len() / 8),
        strings: String::with_capacity(text.len() / 2),
    });
    strict::build(text, limits, true, builder).map(|((), TapeBuilder(tape))| tape)
}

/// Builds a [`Tape`] for the strict reader. A container's entry is a
/// placeholder until it ends (its length and end are known then).
pub(crate) struct TapeBuilder(Tape);

impl Build for TapeBuilder {
    type Value = ();
    /// The container's index on the tape and its length so far.
    type Array = (usize, u32);
    type Object = (usize, u32);

    fn null(&mut self) {
        self.0.entries.push(TapeEntry::Null);
    }

    fn bool(&mut self, v: bool) {
        self.0.entries.push(TapeEntry::Bool(v));
    }

    fn pos_int(&mut self, v: u64) {
        self.0.entries.push(TapeEntry::PosInt(v));
    }

    fn neg_int(&mut self, v: i64) {
        self.0.entries.push(TapeEntry::NegInt(v));
    }

    fn float(&mut self, v: f64) {
        self.0.entries.push(TapeEntry::Float(v));
    }

    fn string(&mut self, v: &str) {
        self.0.push_str(v);
    }

    fn begin_array(&mut self) -> (usize, u32) {
        self.0.entries.push(TapeEntry::Array { len: 0, end: 0 });
        (self.0.entries.len() - 1, 0)
    }

    fn element(&mut self, array: &mut (usize, u32), (): ()) {
        array.1 += 1;
    }

    fn end_array(&mut self, (at, len): (usize, u32)) {
        let end = self.0.entries.len() as u32;
        self.0.entries[at] = TapeEntry::Array { len, end };
    }

    fn begin_object(&mut self) -> (usize, u32) {
        self.0.entries.push(TapeEntry::Object { len: 0, end: 0 });
        (self.0.entries.len() - 1, 0)
    }

    fn key(&mut self, _: &mut (usize, u32), key: &str) {
        self.0.push_str(key);
    }

    fn member(&mut self, object: &mut (usize, u32), _: Cow<'_, str>, (): ()) {
        object.1 += 1;
    }

    fn end_object(&mut self, (at, len): (usize, u32)) {
        let end = self.0.entries.len() as u32;
        self.0.entries[at] = TapeEntry::Object { len, end };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_str_exact;

    const LIMITS: ParseLimits = ParseLimits {
        max_bytes: 1 << 20,
        max_depth: 128,
    };

    #[test]
    fn round_trips_through_value() {
        for text in [
            r#"{"a":[1,-2,3.5,"x\"y",true,null,{}],"b":{"c":[]},"é":"\ud83d\ude00"}"#,
            "[]",
            "0",
            r#""s""#,
            "9007199254740992",
            "[[[[1]]],[2]]",
        ] {
            let tape = parse_tape(text, LIMITS).unwrap();
            assert_eq!(
                tape.to_value(0),
                parse_str_exact(text, LIMITS).unwrap(),
                "{text}"
            );
            assert_eq!(tape.skip(0), tape.entries().len(), "{text}");
            let again = Tape::from_value(&tape.to_value(0));
            assert_eq!(again.entries(), tape.entries(), "{text}");
        }
    }

    #[test]
    fn issues_match_the_value_parser() {
        let many_keys = {
            let members: Vec<String> = (0..40).map(|i| alloc::format!("\"k{i}\":{i}")).collect();
            alloc::format!("{{\"o\":{{{},\"k7\":1}}}}", members.join(","))
        };
        let deep = "[".repeat(129) + &"]".repeat(129);
        for text in [
            r#"{"a":{"x/y":1,"x/y":2}}"#,
            r#"{"a":{"x":1,"\u0078":2}}"#,
            r#"{"n":[1, 9007199254740993]}"#,
            r#"{"s":"a\ud800b"}"#,
            "[1e400]",
            "{} x",
            r#"{"a":[1,"#,
            "",
            "\u{feff}{}",
            many_keys.as_str(),
            deep.as_str(),
        ] {
            let want = parse_str_exact(text, LIMITS).unwrap_err();
            let got = parse_tape(text, LIMITS).unwrap_err();
            assert_eq!(
                (got.code, &got.path, &got.message),
                (want.code, &want.path, &want.message),
                "{text}"
            );
        }
    }
}
