//! The fast path: decides "valid or not" in one streaming pass over the JSON
//! text, checking the shape tables while parsing, without building a value and
//! without allocating for strings that need no unescaping. Anything it does not
//! accept goes to the diagnostic path (`validate.rs`), which finds every issue;
//! the two share the shape tables and the meaning checks, and tests hold them
//! to the same verdict.

use alloc::borrow::Cow;
use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::issue::IssueCode;
use crate::json::MAX_SAFE_INTEGER;
use crate::meaning::{self, Sink};
use crate::options::ValidationOptions;
use crate::shape::{self, Captures, Presence, Rule, Scalar, Slot};
use crate::validate::EnvelopeKind;

/// True when `text` is a valid envelope of the given shape. False means "not
/// shown valid here"; the diagnostic path gives the reasons.
pub(crate) fn accepts(text: &str, kind: EnvelopeKind, opts: &ValidationOptions) -> bool {
    if text.len() > opts.max_bytes {
        return false;
    }
    let mut ctx = Ctx {
        opts,
        caps: Captures::default(),
    };
    let mut de = serde_json::Deserializer::from_str(text);
    // Depth is bounded by `max_depth` below, before any recursion.
    de.disable_recursion_limit();
    let seed = RuleSeed {
        rule: match kind {
            EnvelopeKind::AgentResult => &shape::AGENT_RESULT_RULE,
            EnvelopeKind::ToolResult => &shape::TOOL_RESULT_RULE,
        },
        nullable: false,
        slot: None,
        depth: 0,
        ctx: &mut ctx,
    };
    if seed.deserialize(&mut de).is_err() || de.end().is_err() {
        return false;
    }
    let mut verdict = Verdict(true);
    match kind {
        EnvelopeKind::AgentResult => meaning::agent_result(&ctx.caps, &mut verdict),
        EnvelopeKind::ToolResult => meaning::tool_result(&ctx.caps, opts, &mut verdict),
    }
    verdict.0
}

struct Verdict(bool);

impl Sink for Verdict {
    fn meaning(&mut self, _: &str, _: IssueCode, _: &dyn Fn() -> String) {
        self.0 = false;
    }
}

struct Ctx<'o> {
    opts: &'o ValidationOptions,
    caps: Captures,
}

/// Any failure: the reason does not matter here.
fn reject<E: de::Error>() -> E {
    E::custom("rejected")
}

struct RuleSeed<'c, 'o> {
    rule: &'static Rule,
    nullable: bool,
    slot: Option<Slot>,
    depth: usize,
    ctx: &'c mut Ctx<'o>,
}

impl RuleSeed<'_, '_> {
    fn scalar<E: de::Error>(self, value: Scalar<'_>) -> Result<(), E> {
        if let Some(slot) = self.slot {
            self.ctx.caps.given[slot as usize] = true;
        }
        match shape::check(self.rule, value, self.ctx.opts) {
            Ok(checked) => {
                if let Some(slot) = self.slot {
                    self.ctx.caps.value[slot as usize] = Some(checked);
                }
                Ok(())
            }
            Err(_) => Err(reject()),
        }
    }

    fn enter<E: de::Error>(&mut self) -> Result<usize, E> {
        let depth = self.depth + 1;
        if depth > self.ctx.opts.max_depth {
            return Err(reject());
        }
        Ok(depth)
    }
}

impl<'de> DeserializeSeed<'de> for RuleSeed<'_, '_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for RuleSeed<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        if self.nullable || matches!(self.rule, Rule::Any) {
            return Ok(());
        }
        Err(reject())
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.scalar(Scalar::Bool(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        if v > MAX_SAFE_INTEGER {
            return Err(reject());
        }
        self.scalar(Scalar::Number(v as f64))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        if v.unsigned_abs() > MAX_SAFE_INTEGER {
            return Err(reject());
        }
        self.scalar(Scalar::Number(v as f64))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        self.scalar(Scalar::Number(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.scalar(Scalar::Str(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let depth = self.enter()?;
        let item: &'static Rule = match self.rule {
            Rule::Any => &Rule::Any,
            Rule::ArrayOf(item) => item,
            _ => return Err(reject()),
        };
        if let Some(slot) = self.slot {
            self.ctx.caps.given[slot as usize] = true;
        }
        while seq
            .next_element_seed(RuleSeed {
                rule: item,
                nullable: false,
                slot: None,
                depth,
                ctx: &mut *self.ctx,
            })?
            .is_some()
        {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let depth = self.enter()?;
        if let Some(slot) = self.slot {
            self.ctx.caps.given[slot as usize] = true;
            self.ctx.caps.value[slot as usize] = Some(shape::Checked::Other);
        }
        let shape = match self.rule {
            Rule::Any | Rule::AnyObject => return free_form(&mut map, depth, self.ctx),
            Rule::Struct(shape) => *shape,
            _ => return Err(reject()),
        };
        let mut seen: u32 = 0;
        let mut extra = Keys::default();
        while let Some(key) = map.next_key_seed(KeySeed)? {
            match shape.fields.iter().position(|f| f.name == &*key) {
                Some(i) => {
                    if seen & (1 << i) != 0 {
                        return Err(reject());
                    }
                    seen |= 1 << i;
                    let field = &shape.fields[i];
                    map.next_value_seed(RuleSeed {
                        rule: &field.rule,
                        nullable: field.presence == Presence::Optional,
                        slot: field.slot,
                        depth,
                        ctx: &mut *self.ctx,
                    })?;
                }
                None if shape.open => {
                    if !extra.insert(key) {
                        return Err(reject());
                    }
                    map.next_value_seed(RuleSeed {
                        rule: &Rule::Any,
                        nullable: true,
                        slot: None,
                        depth,
                        ctx: &mut *self.ctx,
                    })?;
                }
                None => return Err(reject()),
            }
        }
        let missing = shape
            .fields
            .iter()
            .enumerate()
            .any(|(i, f)| f.presence == Presence::Required && seen & (1 << i) == 0);
        if missing {
            return Err(reject());
        }
        Ok(())
    }
}

/// A free-form object: any keys (each once), any values.
fn free_form<'de, A: MapAccess<'de>>(
    map: &mut A,
    depth: usize,
    ctx: &mut Ctx<'_>,
) -> Result<(), A::Error> {
    let mut keys = Keys::default();
    while let Some(key) = map.next_key_seed(KeySeed)? {
        if !keys.insert(key) {
            return Err(reject());
        }
        map.next_value_seed(RuleSeed {
            rule: &Rule::Any,
            nullable: true,
            slot: None,
            depth,
            ctx: &mut *ctx,
        })?;
    }
    Ok(())
}

/// The keys seen in one object, to catch duplicates: a short list first (most
/// objects are small), an ordered set once it grows.
#[derive(Default)]
struct Keys<'de> {
    few: Vec<Cow<'de, str>>,
    many: BTreeSet<Cow<'de, str>>,
}

impl<'de> Keys<'de> {
    const FEW: usize = 16;

    /// False when the key was already there.
    fn insert(&mut self, key: Cow<'de, str>) -> bool {
        if self.many.is_empty() {
            if self.few.contains(&key) {
                return false;
            }
            if self.few.len() < Self::FEW {
                self.few.push(key);
                return true;
            }
            self.many.extend(self.few.drain(..));
        }
        self.many.insert(key)
    }
}

/// Reads a key, borrowing it from the input when it has no escapes.
struct KeySeed;

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
