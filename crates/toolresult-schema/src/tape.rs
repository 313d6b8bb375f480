//! The engine validates values on a [`Tape`] (jsonschema's custom JSON
//! representation), not on `serde_json::Value`s: parsing text onto a tape
//! allocates nothing per node, which made parsing, not validating, the
//! larger cost of checking a tool output (bench/NOTES.md).

use std::borrow::Cow;

use jsonschema::json::{cmp, unique, Array, Json, Node, NodeIdentity, Object};
use jsonschema::JsonType;
use serde_json::{Number, Value};
use toolresult::json::{Tape, TapeEntry};

/// jsonschema's name for the tape representation.
pub struct TapeJson;

impl Json for TapeJson {
    type Node<'a> = TapeNode<'a>;
    type PreparedKey = String;
    type StringBuffer = Tape;

    // A lookup is a scan of the members, so a single pass over them is never
    // worse than lookups; large enough to always choose the pass, small
    // enough that the engine's `KEYS_PER_LOOKUP * count` cannot overflow.
    const KEYS_PER_LOOKUP: usize = 1 << 20;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>(
        buffer: &mut Tape,
        string: &str,
        f: impl FnOnce(TapeNode<'_>) -> T,
    ) -> T {
        buffer.set_string(string);
        f(TapeNode::root(buffer))
    }
}

/// One value on a tape: the tape and the value's index.
#[derive(Clone, Copy)]
pub struct TapeNode<'a> {
    tape: &'a Tape,
    index: usize,
}

impl<'a> TapeNode<'a> {
    /// The root value of a tape.
    pub fn root(tape: &'a Tape) -> Self {
        TapeNode { tape, index: 0 }
    }

    /// The value at `index` of a tape (an index the tape gave).
    pub(crate) fn at(tape: &'a Tape, index: usize) -> Self {
        TapeNode { tape, index }
    }

    fn entry(&self) -> TapeEntry {
        self.tape.entry(self.index)
    }

    fn str(&self) -> Option<&'a str> {
        match self.entry() {
            TapeEntry::String { start, len } => Some(self.tape.str(start, len)),
            _ => None,
        }
    }

    fn number(&self) -> Option<Number> {
        match self.entry() {
            TapeEntry::PosInt(n) => Some(n.into()),
            TapeEntry::NegInt(n) => Some(n.into()),
            TapeEntry::Float(f) => Number::from_f64(f),
            _ => None,
        }
    }

    /// JSON equality (numbers compared mathematically) without building the
    /// node's `Value`: `enum` and `const` run this on every instance.
    fn equals(&self, expected: &Value) -> bool {
        match (self.entry(), expected) {
            (TapeEntry::Null, Value::Null) => true,
            (TapeEntry::Bool(a), Value::Bool(b)) => a == *b,
            (TapeEntry::String { start, len }, Value::String(b)) => self.tape.str(start, len) == b,
            (
                TapeEntry::PosInt(_) | TapeEntry::NegInt(_) | TapeEntry::Float(_),
                Value::Number(b),
            ) => self.number().is_some_and(|a| cmp::equal_numbers(&a, b)),
            (TapeEntry::Array { len, .. }, Value::Array(items)) => {
                len as usize == items.len()
                    && TapeArray { node: *self, len }
                        .elements()
                        .zip(items)
                        .all(|(a, b)| a.equals(b))
            }
            (TapeEntry::Object { len, .. }, Value::Object(members)) => {
                len as usize == members.len()
                    && TapeObject { node: *self, len }
                        .members()
                        .all(|(k, v)| members.get(k).is_some_and(|b| v.equals(b)))
            }
            _ => false,
        }
    }
}

impl<'a> Node<'a, TapeJson> for TapeNode<'a> {
    type Object = TapeObject<'a>;
    type Array = TapeArray<'a>;
    type Number = Number;

    fn as_object(&self) -> Option<TapeObject<'a>> {
        match self.entry() {
            TapeEntry::Object { len, .. } => Some(TapeObject { node: *self, len }),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<TapeArray<'a>> {
        match self.entry() {
            TapeEntry::Array { len, .. } => Some(TapeArray { node: *self, len }),
            _ => None,
        }
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        self.str().map(Cow::Borrowed)
    }

    fn as_number(&self) -> Option<Number> {
        self.number()
    }

    fn is_number(&self) -> bool {
        matches!(
            self.entry(),
            TapeEntry::PosInt(_) | TapeEntry::NegInt(_) | TapeEntry::Float(_)
        )
    }

    fn as_boolean(&self) -> Option<bool> {
        match self.entry() {
            TapeEntry::Bool(b) => Some(b),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.entry(), TapeEntry::Null)
    }

    fn json_type(&self) -> JsonType {
        match self.entry() {
            TapeEntry::Null => JsonType::Null,
            TapeEntry::Bool(_) => JsonType::Boolean,
            TapeEntry::PosInt(_) | TapeEntry::NegInt(_) | TapeEntry::Float(_) => JsonType::Number,
            TapeEntry::String { .. } => JsonType::String,
            TapeEntry::Array { .. } => JsonType::Array,
            TapeEntry::Object { .. } => JsonType::Object,
        }
    }

    fn string_length(&self) -> Option<u64> {
        // Code points: every byte that does not continue a UTF-8 sequence.
        self.str()
            .map(|s| s.bytes().filter(|b| b & 0xC0 != 0x80).count() as u64)
    }

    fn equals_value(&self, expected: &Value) -> bool {
        self.equals(expected)
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(self.tape.to_value(self.index))
    }

    fn identity(&self) -> Option<NodeIdentity> {
        let tag = u32::try_from(self.index).unwrap_or(u32::MAX);
        Some(NodeIdentity::tagged(
            std::ptr::from_ref(self.tape) as usize,
            tag,
        ))
    }
}

/// An object on a tape: (key, value) pairs follow its entry.
#[derive(Clone, Copy)]
pub struct TapeObject<'a> {
    node: TapeNode<'a>,
    len: u32,
}

impl<'a> Object<'a, TapeJson> for TapeObject<'a> {
    type Node = TapeNode<'a>;
    type MemberName = &'a str;
    type MembersIter = Members<'a>;

    fn len(&self) -> usize {
        self.len as usize
    }

    fn get(&self, key: &String) -> Option<TapeNode<'a>> {
        self.members()
            .find(|(k, _)| *k == key.as_str())
            .map(|(_, v)| v)
    }

    fn members(&self) -> Members<'a> {
        Members {
            tape: self.node.tape,
            at: self.node.index + 1,
            left: self.len,
        }
    }
}

/// The members of an object on the tape, in order.
pub struct Members<'a> {
    tape: &'a Tape,
    at: usize,
    left: u32,
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, TapeNode<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let key = match self.tape.entry(self.at) {
            TapeEntry::String { start, len } => self.tape.str(start, len),
            _ => "",
        };
        let value = TapeNode {
            tape: self.tape,
            index: self.at + 1,
        };
        self.at = self.tape.skip(self.at + 1);
        Some((key, value))
    }
}

/// An array on a tape: its elements follow its entry.
#[derive(Clone, Copy)]
pub struct TapeArray<'a> {
    node: TapeNode<'a>,
    len: u32,
}

impl<'a> Array<'a, TapeJson> for TapeArray<'a> {
    type Node = TapeNode<'a>;
    type ElementsIter = Elements<'a>;

    fn len(&self) -> usize {
        self.len as usize
    }

    fn elements(&self) -> Elements<'a> {
        Elements {
            tape: self.node.tape,
            at: self.node.index + 1,
            left: self.len,
        }
    }

    fn is_unique(&self) -> bool {
        // Arrays of strings (tags, names) are the common case: compare them
        // in place; anything else through values, as the engine does.
        let strings: Option<Vec<&str>> = self.elements().map(|e| e.str()).collect();
        if let Some(mut strings) = strings {
            strings.sort_unstable();
            strings.windows(2).all(|w| w[0] != w[1])
        } else {
            let values: Vec<Value> = self.elements().map(|e| e.tape.to_value(e.index)).collect();
            unique::is_unique(&values)
        }
    }
}

/// The elements of an array on the tape, in order.
pub struct Elements<'a> {
    tape: &'a Tape,
    at: usize,
    left: u32,
}

impl<'a> Iterator for Elements<'a> {
    type Item = TapeNode<'a>;

    fn next(&mut self) -> Option<TapeNode<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let node = TapeNode {
            tape: self.tape,
            index: self.at,
        };
        self.at = self.tape.skip(self.at);
        Some(node)
    }
}
