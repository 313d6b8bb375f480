//! The one strict JSON reader (docs/spec.md §8, §14): every reader of JSON
//! text in the core — the value parser ([`crate::json::parse_str`]), the tape
//! ([`crate::json::tape`]) and the envelope walk (`validate::text`) — runs
//! serde_json's parser through [`read`], checks the input rules here (depth,
//! integers JavaScript cannot hold, non-finite numbers, duplicate keys with
//! one [`KeySet`]) and reports them with these messages, so a fix to one
//! input rule lands everywhere.
//!
//! What a reader builds is a [`Build`]: the value parser builds a
//! `serde_json::Value`, the tape builds a [`crate::json::tape::Tape`]; both
//! share one visitor ([`Reader`]) and its path bookkeeping. The envelope walk
//! reads against the shape tables as it goes, so it keeps its own visitor and
//! calls the same checks.

use alloc::borrow::Cow;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::issue::{push_pointer_token, Issue, IssueCode};
use crate::json::{precheck, syntax_issue, ParseLimits};
use crate::limits::{MAX_DEPTH_CEILING, MAX_SAFE_INTEGER};

/// The message of a `duplicate_key` issue.
pub(crate) const DUPLICATE_KEY_MESSAGE: &str = "key appears more than once in the same object";

/// An input rule the text broke: the issue's code and message (the reader
/// adds the path).
pub(crate) struct Broken {
    pub(crate) code: IssueCode,
    pub(crate) message: String,
}

impl Broken {
    fn new(code: IssueCode, message: String) -> Self {
        Broken { code, message }
    }
}

/// Runs serde_json's parser over `text` with `seed`, then requires the end of
/// the input. Depth is the caller's to bound ([`check_depth`] before it
/// recurses), so serde_json's fixed recursion limit, which would cap
/// `maxDepth` below 128, is off.
pub(crate) fn read<'de, S: DeserializeSeed<'de>>(
    text: &'de str,
    seed: S,
) -> Result<S::Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value = seed.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Entering an array or object at `depth` (1 for the root container).
pub(crate) fn check_depth(depth: usize, max_depth: usize) -> Result<(), Broken> {
    if depth > max_depth {
        return Err(Broken::new(IssueCode::TooDeep, too_deep_message(max_depth)));
    }
    Ok(())
}

/// A non-negative integer. `exact`: accept one beyond 2^53 - 1 that a 64-bit
/// float holds exactly (text written from JavaScript numbers, which cannot
/// have changed); otherwise it is `unsafe_integer`.
pub(crate) fn check_u64(v: u64, exact: bool) -> Result<(), Broken> {
    let held = exact && (v as f64) as u128 == u128::from(v);
    if v > MAX_SAFE_INTEGER && !held {
        return Err(Broken::new(
            IssueCode::UnsafeInteger,
            unsafe_integer_message(&v),
        ));
    }
    Ok(())
}

/// A negative integer; `exact` as in [`check_u64`].
pub(crate) fn check_i64(v: i64, exact: bool) -> Result<(), Broken> {
    let held = exact && (v as f64) as i128 == i128::from(v);
    if v.unsigned_abs() > MAX_SAFE_INTEGER && !held {
        return Err(Broken::new(
            IssueCode::UnsafeInteger,
            unsafe_integer_message(&v),
        ));
    }
    Ok(())
}

/// A number with a fraction or an exponent.
pub(crate) fn check_f64(v: f64) -> Result<(), Broken> {
    if !v.is_finite() {
        return Err(Broken::new(
            IssueCode::NonFiniteNumber,
            String::from("number is not finite"),
        ));
    }
    Ok(())
}

/// A key seen twice in one object.
pub(crate) fn duplicate_key() -> Broken {
    Broken::new(IssueCode::DuplicateKey, String::from(DUPLICATE_KEY_MESSAGE))
}

pub(crate) fn unsafe_integer_message(shown: &dyn fmt::Display) -> String {
    format!(
        "integer {shown} is outside +/-(2^53-1) and cannot be held exactly by JavaScript; send it as a string"
    )
}

pub(crate) fn too_deep_message(max: usize) -> String {
    format!(
        "arrays and objects nest deeper than the maxDepth limit of {max} (raise it with the maxDepth option, up to {MAX_DEPTH_CEILING})"
    )
}

/// The keys seen in one object, to catch duplicates: a few inline (most
/// objects are small, and this runs once per object of a payload), an ordered
/// set once there are more (no quadratic blow-up).
#[derive(Default)]
pub(crate) struct KeySet<'de> {
    few: [Option<Cow<'de, str>>; KeySet::FEW],
    len: usize,
    many: BTreeSet<Cow<'de, str>>,
}

impl<'de> KeySet<'de> {
    const FEW: usize = 12;

    /// False when the key was already there.
    pub(crate) fn insert(&mut self, key: Cow<'de, str>) -> bool {
        if self.len < Self::FEW {
            if self.few[..self.len].iter().flatten().any(|k| *k == key) {
                return false;
            }
            self.few[self.len] = Some(key);
            self.len += 1;
            return true;
        }
        if self.many.is_empty() {
            self.many
                .extend(self.few.iter_mut().filter_map(Option::take));
        }
        self.many.insert(key)
    }
}

/// Reads a key, borrowing it from the input when it has no escapes.
pub(crate) struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(String::from(v)))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}

/// What the strict reader builds from the text it accepts. Crate-private (so
/// sealed, as serde_json's `Read`): the value parser
/// ([`crate::json::ValueBuilder`]) and the tape
/// ([`crate::json::tape::TapeBuilder`]) are the two builders.
pub(crate) trait Build {
    /// A finished value.
    type Value;
    /// An array being read.
    type Array;
    /// An object being read.
    type Object;
    /// `null`.
    fn null(&mut self) -> Self::Value;
    /// `true` or `false`.
    fn bool(&mut self, v: bool) -> Self::Value;
    /// A non-negative integer.
    fn pos_int(&mut self, v: u64) -> Self::Value;
    /// A negative integer.
    fn neg_int(&mut self, v: i64) -> Self::Value;
    /// A finite number with a fraction or an exponent.
    fn float(&mut self, v: f64) -> Self::Value;
    /// A string.
    fn string(&mut self, v: &str) -> Self::Value;
    /// An array begins.
    fn begin_array(&mut self) -> Self::Array;
    /// Its next element.
    fn element(&mut self, array: &mut Self::Array, v: Self::Value);
    /// The array ends.
    fn end_array(&mut self, array: Self::Array) -> Self::Value;
    /// An object begins.
    fn begin_object(&mut self) -> Self::Object;
    /// A member's key, before its value is read.
    fn key(&mut self, object: &mut Self::Object, key: &str);
    /// The member's value, after its key.
    fn member(&mut self, object: &mut Self::Object, key: Cow<'_, str>, v: Self::Value);
    /// The object ends.
    fn end_object(&mut self, object: Self::Object) -> Self::Value;
}

/// Where the reader is.
enum Step<'de> {
    Index(usize),
    Key(Cow<'de, str>),
}

/// The state of one strict read: the builder, the path, the depth, the
/// first broken rule.
pub(crate) struct Walk<'de, B> {
    pub(crate) builder: B,
    path: Vec<Step<'de>>,
    depth: usize,
    max_depth: usize,
    exact: bool,
    broken: Option<Issue>,
}

impl<B: Build> Walk<'_, B> {
    fn pointer(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            match step {
                Step::Key(k) => push_pointer_token(&mut out, k),
                Step::Index(i) => push_pointer_token(&mut out, &i.to_string()),
            }
        }
        out
    }

    /// Records the broken rule at the current path and returns the error that
    /// stops serde_json (its message is never shown; the issue is).
    fn fail<E: de::Error>(&mut self, broken: Broken) -> E {
        if self.broken.is_none() {
            self.broken = Some(Issue::new(self.pointer(), broken.code, broken.message));
        }
        E::custom("stopped")
    }

    fn checked<E: de::Error>(&mut self, result: Result<(), Broken>) -> Result<(), E> {
        result.map_err(|broken| self.fail(broken))
    }

    /// One level deeper, within `max_depth` (checked before recursing).
    fn enter<E: de::Error>(&mut self) -> Result<(), E> {
        self.depth += 1;
        let result = check_depth(self.depth, self.max_depth);
        self.checked(result)
    }
}

/// Reads `text` strictly into what `builder` builds. `exact` as in
/// [`check_u64`]. The issue of the first broken rule, or of the syntax
/// error, with the path the reader had reached.
pub(crate) fn build<B: Build>(
    text: &str,
    limits: ParseLimits,
    exact: bool,
    builder: B,
) -> Result<(B::Value, B), Issue> {
    precheck(text, limits)?;
    let mut walk = Walk {
        builder,
        path: Vec::new(),
        depth: 0,
        max_depth: limits.max_depth.min(MAX_DEPTH_CEILING),
        exact,
        broken: None,
    };
    match read(text, Reader(&mut walk)) {
        Ok(value) => Ok((value, walk.builder)),
        Err(err) => Err(walk.broken.take().unwrap_or_else(|| {
            let path = walk.pointer();
            syntax_issue(path, &err)
        })),
    }
}

/// Reads one value of the text into the walk's builder.
struct Reader<'w, 'de, B>(&'w mut Walk<'de, B>);

impl<'de, B: Build> DeserializeSeed<'de> for Reader<'_, 'de, B> {
    type Value = B::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<B::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, B: Build> Visitor<'de> for Reader<'_, 'de, B> {
    type Value = B::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<B::Value, E> {
        Ok(self.0.builder.bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<B::Value, E> {
        let exact = self.0.exact;
        self.0.checked(check_i64(v, exact))?;
        // serde_json gives non-negative integers to `visit_u64`; kept apart
        // anyway, as the tape does.
        Ok(match u64::try_from(v) {
            Ok(u) => self.0.builder.pos_int(u),
            Err(_) => self.0.builder.neg_int(v),
        })
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<B::Value, E> {
        let exact = self.0.exact;
        self.0.checked(check_u64(v, exact))?;
        Ok(self.0.builder.pos_int(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<B::Value, E> {
        self.0.checked(check_f64(v))?;
        Ok(self.0.builder.float(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<B::Value, E> {
        Ok(self.0.builder.string(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<B::Value, E> {
        Ok(self.0.builder.null())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<B::Value, A::Error> {
        let w = self.0;
        w.enter()?;
        let mut array = w.builder.begin_array();
        let mut index = 0;
        loop {
            w.path.push(Step::Index(index));
            let next = seq.next_element_seed(Reader(&mut *w))?;
            w.path.pop();
            match next {
                Some(v) => w.builder.element(&mut array, v),
                None => break,
            }
            index += 1;
        }
        w.depth -= 1;
        Ok(w.builder.end_array(array))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<B::Value, A::Error> {
        let w = self.0;
        w.enter()?;
        let mut object = w.builder.begin_object();
        let mut keys = KeySet::default();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let fresh = keys.insert(key.clone());
            w.builder.key(&mut object, &key);
            w.path.push(Step::Key(key));
            if !fresh {
                return Err(w.fail(duplicate_key()));
            }
            let value = map.next_value_seed(Reader(&mut *w))?;
            // The stack is balanced: what we pop is the key pushed above.
            let key = match w.path.pop() {
                Some(Step::Key(key)) => key,
                _ => Cow::Borrowed(""),
            };
            w.builder.member(&mut object, key, value);
        }
        w.depth -= 1;
        Ok(w.builder.end_object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_are_found_in_large_objects() {
        let mut keys = KeySet::default();
        for i in 0..40 {
            assert!(keys.insert(Cow::Owned(format!("k{i}"))), "k{i} is new");
        }
        for i in [0, 5, 11, 12, 39] {
            assert!(
                !keys.insert(Cow::Owned(format!("k{i}"))),
                "k{i} is a duplicate"
            );
        }
        let mut small = KeySet::default();
        assert!(small.insert(Cow::Borrowed("a")));
        assert!(!small.insert(Cow::Owned(String::from("a"))));
    }

    #[test]
    fn the_checks_agree_with_javascript_numbers() {
        assert!(check_u64(MAX_SAFE_INTEGER, false).is_ok());
        assert!(check_u64(MAX_SAFE_INTEGER + 1, false).is_err());
        assert!(check_u64(MAX_SAFE_INTEGER + 1, true).is_ok());
        assert!(check_u64(MAX_SAFE_INTEGER + 2, true).is_err());
        assert!(check_i64(-(MAX_SAFE_INTEGER as i64), false).is_ok());
        assert!(check_i64(-(MAX_SAFE_INTEGER as i64) - 1, false).is_err());
        assert!(check_i64(i64::MIN, true).is_ok());
        assert!(check_f64(f64::INFINITY).is_err());
        assert!(check_depth(128, 128).is_ok());
        assert_eq!(check_depth(129, 128).unwrap_err().code, IssueCode::TooDeep);
    }
}
