//! A parsed JSON value as one flat list of entries (a "tape"), for reading a
//! value many times without building a `serde_json::Value`: no allocation per
//! string, array or object, only two growing buffers. The JSON Schema engine
//! validates tool outputs on it (toolresult-schema's `tape` module).
//!
//! Parsing is exactly as strict as [`crate::json::parse_str_exact`] (same
//! limits, same issues at the same paths): duplicate keys, integers a float
//! would round, lone surrogates, non-finite numbers, depth and size.

use alloc::collections::BTreeSet;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::issue::{push_pointer_token, Issue, IssueCode};
use crate::json::{
    precheck, syntax_issue, too_deep_message, unsafe_integer_message, KeySeed, ParseLimits,
    DUPLICATE_KEY_MESSAGE, MAX_SAFE_INTEGER,
};
use crate::limits::MAX_DEPTH_CEILING;

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

    fn push_str(&mut self, s: &str) -> (u32, u32) {
        // The input is at most u32::MAX bytes (checked before parsing), and
        // the buffer never holds more than the input's strings.
        let start = self.strings.len() as u32;
        self.strings.push_str(s);
        self.entries.push(TapeEntry::String {
            start,
            len: s.len() as u32,
        });
        (start, s.len() as u32)
    }
}

/// Parses JSON text into a [`Tape`], as strictly as
/// [`crate::json::parse_str_exact`]: the same issues, at the same paths.
pub fn parse_tape(text: &str, limits: ParseLimits) -> Result<Tape, Issue> {
    precheck(text, limits)?;
    if u32::try_from(text.len()).is_err() {
        return Err(Issue::new(
            "",
            IssueCode::TooLarge,
            "input is over 4 GiB, more than a tape can address",
        ));
    }
    let mut builder = Builder {
        tape: Tape {
            entries: Vec::with_capacity(text.len() / 8),
            strings: String::with_capacity(text.len() / 2),
        },
        path: Vec::new(),
        depth: 0,
        max_depth: limits.max_depth.min(MAX_DEPTH_CEILING),
        issue: None,
    };
    let mut de = serde_json::Deserializer::from_str(text);
    // Depth is enforced by the builder before it recurses (see json.rs).
    de.disable_recursion_limit();
    let result = Entry(&mut builder).deserialize(&mut de);
    match result.and_then(|()| de.end()) {
        Ok(()) => Ok(builder.tape),
        Err(err) => Err(builder.issue.take().unwrap_or_else(|| {
            let path = builder.pointer();
            syntax_issue(path, &err)
        })),
    }
}

/// Where the parser is: array indexes and keys (as spans of the tape's string
/// buffer, so a key costs no allocation).
#[derive(Clone, Copy)]
enum Step {
    Index(u32),
    Key(u32, u32),
}

struct Builder {
    tape: Tape,
    path: Vec<Step>,
    depth: usize,
    max_depth: usize,
    issue: Option<Issue>,
}

impl Builder {
    fn pointer(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            match *step {
                Step::Index(i) => push_pointer_token(&mut out, &i.to_string()),
                Step::Key(start, len) => push_pointer_token(&mut out, self.tape.str(start, len)),
            }
        }
        out
    }

    fn fail<E: de::Error>(&mut self, code: IssueCode, message: String) -> E {
        if self.issue.is_none() {
            self.issue = Some(Issue::new(self.pointer(), code, message));
        }
        E::custom("stopped")
    }

    fn enter<E: de::Error>(&mut self) -> Result<(), E> {
        self.depth += 1;
        if self.depth > self.max_depth {
            let message = too_deep_message(self.max_depth);
            return Err(self.fail(IssueCode::TooDeep, message));
        }
        Ok(())
    }

    /// Pushes a container's placeholder; `close` fills it in.
    fn open(&mut self, entry: TapeEntry) -> usize {
        self.tape.entries.push(entry);
        self.tape.entries.len() - 1
    }

    fn close(&mut self, at: usize, object: bool, len: u32) {
        let end = self.tape.entries.len() as u32;
        self.tape.entries[at] = if object {
            TapeEntry::Object { len, end }
        } else {
            TapeEntry::Array { len, end }
        };
        self.depth -= 1;
    }
}

/// Reads one value onto the tape.
struct Entry<'b>(&'b mut Builder);

impl<'de> DeserializeSeed<'de> for Entry<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Entry<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.0.tape.entries.push(TapeEntry::Bool(v));
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        // Integers a float holds exactly are kept, as in `parse_str_exact`.
        if v.unsigned_abs() > MAX_SAFE_INTEGER && (v as f64) as i128 != i128::from(v) {
            return Err(self
                .0
                .fail(IssueCode::UnsafeInteger, unsafe_integer_message(&v)));
        }
        let entry = if v < 0 {
            TapeEntry::NegInt(v)
        } else {
            TapeEntry::PosInt(v as u64)
        };
        self.0.tape.entries.push(entry);
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        if v > MAX_SAFE_INTEGER && (v as f64) as u128 != u128::from(v) {
            return Err(self
                .0
                .fail(IssueCode::UnsafeInteger, unsafe_integer_message(&v)));
        }
        self.0.tape.entries.push(TapeEntry::PosInt(v));
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        if !v.is_finite() {
            return Err(self.0.fail(
                IssueCode::NonFiniteNumber,
                String::from("number is not finite"),
            ));
        }
        self.0.tape.entries.push(TapeEntry::Float(v));
        Ok(())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.0.tape.push_str(v);
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.tape.entries.push(TapeEntry::Null);
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let b = self.0;
        b.enter()?;
        let at = b.open(TapeEntry::Array { len: 0, end: 0 });
        let mut len = 0u32;
        loop {
            b.path.push(Step::Index(len));
            let more = seq.next_element_seed(Entry(&mut *b))?;
            b.path.pop();
            if more.is_none() {
                break;
            }
            len += 1;
        }
        b.close(at, false, len);
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let b = self.0;
        b.enter()?;
        let at = b.open(TapeEntry::Object { len: 0, end: 0 });
        // Keys seen so far, to catch duplicates: compared in place while the
        // object is small, a set once it is not (no quadratic blow-up).
        let mut spans: Vec<(u32, u32)> = Vec::new();
        let mut many: Option<BTreeSet<String>> = None;
        let mut len = 0u32;
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let duplicate = if let Some(set) = &mut many {
                !set.insert(key.to_string())
            } else {
                let seen = spans.iter().any(|&(s, l)| b.tape.str(s, l) == key);
                if spans.len() >= 32 {
                    let mut set: BTreeSet<String> = spans
                        .iter()
                        .map(|&(s, l)| b.tape.str(s, l).to_string())
                        .collect();
                    set.insert(key.to_string());
                    many = Some(set);
                }
                seen
            };
            let span = b.tape.push_str(&key);
            spans.push(span);
            b.path.push(Step::Key(span.0, span.1));
            if duplicate {
                return Err(b.fail(IssueCode::DuplicateKey, String::from(DUPLICATE_KEY_MESSAGE)));
            }
            map.next_value_seed(Entry(&mut *b))?;
            b.path.pop();
            len += 1;
        }
        b.close(at, true, len);
        Ok(())
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
