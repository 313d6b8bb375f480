//! The streaming diagnostic walk: one pass over the JSON text through
//! serde_json's parser that checks the shape tables while parsing, without
//! building a value. Every check first takes the one pass over the bytes
//! (`pass.rs`); this walk reports the text that pass hands on because it
//! breaks an input rule, with the rule's path and message as every reader
//! gives them. It runs in two modes:
//!
//! - **accept** answers "valid or not" and stops at the first problem;
//! - **collect** keeps going and records every issue with its JSON Pointer.
//!
//! Problems of the input itself (syntax, duplicate keys, unsafe integers,
//! depth) stop both modes: after them nothing else is trustworthy.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::issue::{push_pointer_token, Issue, IssueCode, IssueSink, Issues};
use crate::json;
use crate::json::strict::{self, Broken, KeySeed, KeySet};
use crate::validate::check;
use crate::validate::check::Checker;
use crate::validate::meaning::{self, Sink};
use crate::validate::options::ValidationOptions;
use crate::validate::shape::{
    self, Captures, Checked, Presence, Rule, Scalar, Shape, Slot, Tagged,
};
use crate::wire::EnvelopeKind;

fn root_rule(kind: EnvelopeKind) -> &'static Rule {
    match kind {
        EnvelopeKind::AgentResult => &crate::validate::envelope_shape::AGENT_RESULT_RULE,
        EnvelopeKind::ToolResult => &crate::validate::envelope_shape::TOOL_RESULT_RULE,
    }
}

/// True when `text` is a valid envelope of the given kind.
pub(crate) fn accepts(text: &str, kind: EnvelopeKind, opts: &ValidationOptions) -> bool {
    if text.len() > opts.max_bytes {
        return false;
    }
    let mut ctx = Ctx::new(opts, false);
    if run(text, kind, &mut ctx).is_err() {
        return false;
    }
    if !check_deferred(&mut ctx).0.is_empty() {
        return false;
    }
    let mut verdict = Verdict(true);
    meaning(kind, &ctx.caps, opts, &mut verdict);
    verdict.0
}

/// Every issue in `text`, in document order (meaning issues last).
pub(crate) fn collect(text: &str, kind: EnvelopeKind, opts: &ValidationOptions) -> Issues {
    let limits = opts.parse_limits();
    if let Err(issue) = json::precheck(text, limits) {
        return Issues::from(issue);
    }
    let mut ctx = Ctx::new(opts, true);
    if let Err(err) = run(text, kind, &mut ctx) {
        // An input-level problem: it alone is the report.
        if let Some(issue) = ctx.input_issue.take() {
            return Issues::from(issue);
        }
        // Otherwise the run stopped because `max_issues` were found, or at a
        // syntax error.
        if !ctx.full() {
            return Issues::from(json::syntax_issue(ctx.path.clone(), &err));
        }
    }
    if !ctx.full() {
        let (issues, overflowed) = check_deferred(&mut ctx);
        for issue in issues {
            ctx.sink.push(issue);
        }
        if overflowed {
            ctx.sink.mark_overflowed();
        }
    }
    if !ctx.full() {
        let caps = core::mem::take(&mut ctx.caps);
        meaning(kind, &caps, opts, &mut Report(&mut ctx));
    }
    ctx.finish()
}

fn run(text: &str, kind: EnvelopeKind, ctx: &mut Ctx<'_>) -> Result<(), serde_json::Error> {
    let seed = RuleSeed {
        rule: root_rule(kind),
        nullable: false,
        slot: None,
        depth: 0,
        ctx,
    };
    strict::read(text, seed)
}

fn meaning(kind: EnvelopeKind, caps: &Captures, opts: &ValidationOptions, out: &mut dyn Sink) {
    match kind {
        EnvelopeKind::AgentResult => meaning::agent_result(caps, out),
        EnvelopeKind::ToolResult => meaning::tool_result(caps, opts, out),
    }
}

struct Verdict(bool);

impl Sink for Verdict {
    fn meaning(&mut self, _: &str, _: IssueCode, _: &dyn Fn() -> String) {
        self.0 = false;
    }
}

struct Report<'c, 'o>(&'c mut Ctx<'o>);

impl Sink for Report<'_, '_> {
    fn meaning(&mut self, path: &str, code: IssueCode, message: &dyn Fn() -> String) {
        self.0.push(String::from(path), code, message());
    }
}

struct Ctx<'o> {
    opts: &'o ValidationOptions,
    caps: Captures,
    /// A tagged object (`tool_metadata`), parsed, to be checked after the
    /// envelope (its shape depends on its tag, which may come last).
    deferred: Option<(&'static Tagged, serde_json::Value)>,
    /// Collect mode: keep going after shape problems and record them.
    collect: bool,
    /// The JSON Pointer of the value being read (collect mode only).
    path: String,
    /// Where issues go; once full, a collecting run stops.
    sink: IssueSink,
    /// A problem with the input itself (duplicate key, unsafe integer,
    /// depth): it stops the run and is the whole report.
    input_issue: Option<Issue>,
}

impl<'o> Ctx<'o> {
    fn new(opts: &'o ValidationOptions, collect: bool) -> Self {
        Ctx {
            opts,
            caps: Captures::default(),
            deferred: None,
            collect,
            path: String::new(),
            sink: IssueSink::new(opts.max_issues),
            input_issue: None,
        }
    }

    fn full(&self) -> bool {
        self.sink.is_full()
    }

    fn push(&mut self, path: String, code: IssueCode, message: String) {
        self.sink.push(Issue::new(path, code, message));
    }

    /// A shape problem at the current path: fatal when accepting, recorded
    /// when collecting (then the caller skips the value and goes on).
    fn shape<E: de::Error>(
        &mut self,
        code: IssueCode,
        message: &dyn Fn() -> String,
    ) -> Result<(), E> {
        if !self.collect {
            return Err(reject());
        }
        self.push(self.path.clone(), code, message());
        if self.full() {
            return Err(reject());
        }
        Ok(())
    }

    /// An input-level problem at a given path: always fatal.
    fn input_at<E: de::Error>(&mut self, path: String, code: IssueCode, message: String) -> E {
        if self.collect {
            self.input_issue = Some(Issue::new(path, code, message));
        }
        reject()
    }

    /// An input rule broken at the current path (json::strict): always
    /// fatal.
    fn input<E: de::Error>(&mut self, broken: Broken) -> E {
        if self.collect {
            self.input_issue = Some(Issue::new(self.path.clone(), broken.code, broken.message));
        }
        reject()
    }

    fn enter(&mut self, token: &str) -> usize {
        let len = self.path.len();
        if self.collect {
            push_pointer_token(&mut self.path, token);
        }
        len
    }

    fn leave(&mut self, len: usize) {
        self.path.truncate(len);
    }

    fn finish(self) -> Issues {
        self.sink.finish()
    }
}

/// Stops the parser; the reason, if wanted, is in the context.
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
        // Payload values (most of a large input) need no rule check.
        if matches!(self.rule, Rule::Any) && self.slot.is_none() {
            return Ok(());
        }
        if let Some(slot) = self.slot {
            self.ctx.caps.given[slot as usize] = !matches!(value, Scalar::Null);
        }
        match shape::check(self.rule, value, self.ctx.opts) {
            Ok(checked) => {
                if let Some(slot) = self.slot {
                    self.ctx.caps.value[slot as usize] = Some(checked);
                }
                Ok(())
            }
            Err(problem) => {
                let opts = self.ctx.opts;
                self.ctx.shape(problem.code(), &|| problem.message(opts))
            }
        }
    }

    /// Enters an array or object; checks the depth limit first.
    fn nest<E: de::Error>(&mut self) -> Result<usize, E> {
        let depth = self.depth + 1;
        strict::check_depth(depth, self.ctx.opts.max_depth).map_err(|b| self.ctx.input(b))?;
        Ok(depth)
    }

    /// Checks that the rule takes a container of this kind; when it does not,
    /// the container is reported and then read as free-form data.
    fn container<E: de::Error>(&mut self, kind: Scalar<'_>) -> Result<bool, E> {
        if let Some(slot) = self.slot {
            self.ctx.caps.given[slot as usize] = true;
        }
        match shape::check(self.rule, kind, self.ctx.opts) {
            Ok(checked) => {
                if let Some(slot) = self.slot {
                    self.ctx.caps.value[slot as usize] = Some(checked);
                }
                Ok(true)
            }
            Err(problem) => {
                let opts = self.ctx.opts;
                self.ctx.shape(problem.code(), &|| problem.message(opts))?;
                Ok(false)
            }
        }
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
        self.scalar(Scalar::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.scalar(Scalar::Bool(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        strict::check_u64(v, false).map_err(|b| self.ctx.input(b))?;
        self.scalar(Scalar::Number(v as f64))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        strict::check_i64(v, false).map_err(|b| self.ctx.input(b))?;
        self.scalar(Scalar::Number(v as f64))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        strict::check_f64(v).map_err(|b| self.ctx.input(b))?;
        self.scalar(Scalar::Number(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.scalar(Scalar::Str(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let depth = self.nest()?;
        let rule: &'static Rule = self.rule;
        let item: &'static Rule = match rule {
            Rule::Any => &Rule::Any,
            _ => match (rule, self.container(Scalar::Array)?) {
                (Rule::ArrayOf(item), true) => item,
                _ => &Rule::Any,
            },
        };
        let mut index = 0usize;
        loop {
            let mark = if self.ctx.collect {
                let mut buf = itoa::Buffer::new();
                self.ctx.enter(buf.format(index))
            } else {
                self.ctx.path.len()
            };
            let more = seq.next_element_seed(RuleSeed {
                rule: item,
                nullable: false,
                slot: None,
                depth,
                ctx: &mut *self.ctx,
            })?;
            self.ctx.leave(mark);
            if more.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let depth = self.nest()?;
        let rule: &'static Rule = self.rule;
        let shape = match rule {
            Rule::Any => None,
            _ => match (rule, self.container(Scalar::Object)?) {
                (Rule::Struct(shape), true) => Some(*shape),
                _ => None,
            },
        };
        match shape {
            Some(shape) => read_struct(&mut map, shape, depth, self.ctx),
            None => free_form(&mut map, depth, self.ctx),
        }
    }
}

/// An object read against a struct shape.
fn read_struct<'de, A: MapAccess<'de>>(
    map: &mut A,
    shape: &'static Shape,
    depth: usize,
    ctx: &mut Ctx<'_>,
) -> Result<(), A::Error> {
    let mut seen: u32 = 0;
    let mut extra = KeySet::default();
    while let Some(key) = map.next_key_seed(KeySeed)? {
        let mark = ctx.enter(&key);
        let found = shape.fields.iter().position(|f| f.name == &*key);
        let (rule, nullable, slot): (&'static Rule, bool, Option<Slot>) = if let Some(i) = found {
            if seen & (1 << i) != 0 {
                return Err(ctx.input(strict::duplicate_key()));
            }
            seen |= 1 << i;
            let field = &shape.fields[i];
            (
                &field.rule,
                field.presence == Presence::Optional,
                field.slot,
            )
        } else {
            if !extra.insert(key.clone()) {
                return Err(ctx.input(strict::duplicate_key()));
            }
            if !shape.open {
                ctx.shape(IssueCode::UnknownField, &|| {
                    unknown_field_message(&key, shape)
                })?;
            }
            (&Rule::Any, true, None)
        };
        if let Rule::Tagged(tagged) = rule {
            let raw: &'de serde_json::value::RawValue = map.next_value()?;
            defer(raw.get(), tagged, slot, depth, ctx)?;
        } else {
            map.next_value_seed(RuleSeed {
                rule,
                nullable,
                slot,
                depth,
                ctx: &mut *ctx,
            })?;
        }
        ctx.leave(mark);
    }
    for (i, field) in shape.fields.iter().enumerate() {
        if field.presence == Presence::Required && seen & (1 << i) == 0 {
            let mark = ctx.enter(field.name);
            ctx.shape(IssueCode::MissingField, &|| {
                format!("required field `{}` is missing", field.name)
            })?;
            ctx.leave(mark);
        }
    }
    Ok(())
}

/// Parses a tagged object's text as strictly as the rest (its input problems
/// are reported at their full path) and keeps it for the check after the
/// envelope.
fn defer<E: de::Error>(
    text: &str,
    tagged: &'static Tagged,
    slot: Option<Slot>,
    depth: usize,
    ctx: &mut Ctx<'_>,
) -> Result<(), E> {
    let limits = json::ParseLimits {
        max_bytes: ctx.opts.max_bytes,
        max_depth: ctx.opts.max_depth.saturating_sub(depth),
    };
    let value = match json::parse_str(text, limits) {
        Ok(v) => v,
        Err(mut issue) => {
            let path = format!("{}{}", ctx.path, issue.path);
            let (code, message) = (issue.code, core::mem::take(&mut issue.message));
            return Err(ctx.input_at(path, code, message));
        }
    };
    if value.is_null() {
        return Ok(());
    }
    if let Some(slot) = slot {
        ctx.caps.given[slot as usize] = true;
        ctx.caps.value[slot as usize] = Some(Checked::Other);
    }
    if !value.is_object() {
        let got = check::json_type(&value);
        return ctx.shape(IssueCode::InvalidType, &|| {
            format!("expected object, got {got}")
        });
    }
    ctx.deferred = Some((tagged, value));
    Ok(())
}

/// The deferred check of `tool_metadata`, compared with the envelope's
/// status and schema_version as captured.
fn check_deferred(ctx: &mut Ctx<'_>) -> (Vec<Issue>, bool) {
    let Some((tagged, value)) = ctx.deferred.take() else {
        return (Vec::new(), false);
    };
    let mut envelope = serde_json::Map::new();
    for (slot, key) in [
        (Slot::Status, "status"),
        (Slot::SchemaVersion, "schema_version"),
    ] {
        if let Some(Checked::Name(name)) = ctx.caps.get(slot) {
            envelope.insert(key.into(), serde_json::Value::String(name.into()));
        }
    }
    let mut c = Checker::new(ctx.opts);
    crate::validate::value::check_tool_metadata(
        &mut c,
        tagged,
        &value,
        &serde_json::Value::Object(envelope),
    );
    c.take_issues()
}

fn unknown_field_message(key: &str, shape: &Shape) -> String {
    let names: Vec<&str> = shape.fields.iter().map(|f| f.name).collect();
    check::unknown_field_message(key, &names)
}

/// A free-form object: any keys (each once), any values.
fn free_form<'de, A: MapAccess<'de>>(
    map: &mut A,
    depth: usize,
    ctx: &mut Ctx<'_>,
) -> Result<(), A::Error> {
    let mut keys = KeySet::default();
    while let Some(key) = map.next_key_seed(KeySeed)? {
        let mark = ctx.enter(&key);
        if !keys.insert(key) {
            return Err(ctx.input(strict::duplicate_key()));
        }
        map.next_value_seed(RuleSeed {
            rule: &Rule::Any,
            nullable: true,
            slot: None,
            depth,
            ctx: &mut *ctx,
        })?;
        ctx.leave(mark);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::vec::Vec;

    #[test]
    fn payload_with_many_keys() {
        let base = include_str!("../../../../tests/fixtures/agent/valid-success.json");
        let fields: Vec<String> = (0..30).map(|i| format!("\"f{i}\": {i}")).collect();
        let ok = base.replacen("\"framework\": \"next\"", &fields.join(","), 1);
        let opts = ValidationOptions::default();
        assert!(accepts(&ok, EnvelopeKind::AgentResult, &opts));
        let dup = base.replacen(
            "\"framework\": \"next\"",
            &(fields.join(",") + ", \"f3\": 1"),
            1,
        );
        assert!(!accepts(&dup, EnvelopeKind::AgentResult, &opts));
    }
}

#[cfg(test)]
mod collect_tests {
    use super::*;

    #[test]
    fn max_issues_stops_early_and_says_so() {
        let opts = ValidationOptions {
            max_issues: 3,
            ..ValidationOptions::default()
        };
        let issues = collect(
            r#"{"a":1,"b":2,"c":3,"d":4,"e":5}"#,
            EnvelopeKind::AgentResult,
            &opts,
        );
        let codes: Vec<IssueCode> = issues.iter().map(|i| i.code).collect();
        assert_eq!(
            codes,
            [
                IssueCode::UnknownField,
                IssueCode::UnknownField,
                IssueCode::UnknownField,
                IssueCode::TooManyIssues
            ]
        );
    }

    #[test]
    fn input_problems_replace_shape_issues() {
        let issues = collect(
            r#"{"a":1,"b":[1,9007199254740993]}"#,
            EnvelopeKind::ToolResult,
            &ValidationOptions::default(),
        );
        assert_eq!(issues.len(), 1);
        assert_eq!(
            (issues.0[0].path.as_str(), issues.0[0].code),
            ("/b/1", IssueCode::UnsafeInteger)
        );
    }
}
