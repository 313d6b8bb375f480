//! Envelope validation in one pass over the bytes: the strict recognizer of
//! [`crate::json::scan`] reads the text while the shape tables are checked,
//! payloads are skipped as fast as they can be read, and shape problems are
//! recorded with their paths as they are met. Valid input costs one scan and
//! builds nothing; invalid input gets its issues from the same scan.
//!
//! Text that breaks an input rule (not JSON, a duplicate key, an unsafe
//! integer, too deep, …) is not judged here: the streaming diagnostic walk
//! (`text.rs`) reports it, with the path and message every reader gives.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::issue::{push_pointer_token, Issue, IssueCode, IssueSink, Issues};
use crate::json::scan::{self, Fatal, Scanner};
use crate::json::strict::KeySet;
use crate::json::{self, ParseLimits};
use crate::validate::check::{self, Checker};
use crate::validate::meaning::{self, Sink};
use crate::validate::options::ValidationOptions;
use crate::validate::shape::{
    self, Captures, Checked, Field, Presence, Rule, Scalar, Shape, Slot, Tagged,
};
use crate::wire::agent_result::AgentType;
use crate::wire::EnvelopeKind;

/// What one pass found.
pub(crate) enum Outcome {
    /// A valid envelope.
    Valid,
    /// Every issue (shape, `tool_metadata`, meaning), in the order the
    /// diagnostic walk reports them.
    Invalid(Issues),
    /// The text breaks an input rule: the diagnostic walk must report it.
    Input,
}

/// Why a pass stopped early.
enum Stop {
    Fatal,
    /// `max_issues` were found.
    Full,
}

impl From<Fatal> for Stop {
    fn from(_: Fatal) -> Self {
        Stop::Fatal
    }
}

type Pass<T> = Result<T, Stop>;

/// The path to the value being read, as a chain of steps on the stack
/// (nothing is allocated unless an issue needs its path).
struct At<'p> {
    step: Step,
    up: Option<&'p At<'p>>,
}

const ROOT: At<'static> = At {
    step: Step::Root,
    up: None,
};

/// One step of the path to the value being read.
#[derive(Clone, Copy)]
enum Step {
    Root,
    /// A key, as the span of its body in the text (maybe escaped).
    Key(usize, usize),
    /// An array index.
    Index(usize),
    /// A field name of a shape table.
    Name(&'static str),
}

struct Walk<'a, 'o> {
    s: Scanner<'a>,
    opts: &'o ValidationOptions,
    caps: Captures,
    deferred: Option<(&'static Tagged, serde_json::Value)>,
    sink: IssueSink,
}

/// Validates the UTF-8 JSON text in `bytes` in one pass.
pub(crate) fn check(bytes: &[u8], kind: EnvelopeKind, opts: &ValidationOptions) -> Outcome {
    if bytes.len() > opts.max_bytes {
        return Outcome::Input;
    }
    let mut w = Walk {
        s: Scanner::new(bytes, opts.max_depth),
        opts,
        caps: Captures::default(),
        deferred: None,
        sink: IssueSink::new(opts.max_issues),
    };
    let root = match kind {
        EnvelopeKind::AgentResult => &crate::validate::envelope_shape::AGENT_RESULT_RULE,
        EnvelopeKind::ToolResult => &crate::validate::envelope_shape::TOOL_RESULT_RULE,
    };
    match w.value(root, false, None, 0, &ROOT) {
        Ok(()) => {
            if !w.s.at_end() {
                return Outcome::Input;
            }
        }
        Err(Stop::Fatal) => return Outcome::Input,
        Err(Stop::Full) => return Outcome::Invalid(w.sink.finish()),
    }
    if let Some((tagged, value)) = w.deferred.take() {
        let (issues, overflowed) = check_deferred(&w.caps, opts, tagged, &value);
        for issue in issues {
            w.sink.push(issue);
        }
        if overflowed {
            w.sink.mark_overflowed();
        }
    }
    if !w.sink.is_full() {
        let caps = core::mem::take(&mut w.caps);
        let mut report = Report(&mut w.sink);
        match kind {
            EnvelopeKind::AgentResult => meaning::agent_result(&caps, &mut report),
            EnvelopeKind::ToolResult => meaning::tool_result(&caps, opts, &mut report),
        }
    }
    let issues = w.sink.finish();
    if issues.is_empty() {
        Outcome::Valid
    } else {
        Outcome::Invalid(issues)
    }
}

struct Report<'s>(&'s mut IssueSink);

impl Sink for Report<'_> {
    fn meaning(&mut self, path: &str, code: IssueCode, message: &dyn Fn() -> String) {
        self.0.push(Issue::new(path, code, message()));
    }
}

impl<'a> Walk<'a, '_> {
    /// The JSON Pointer of `at`.
    fn pointer(&self, at: &At<'_>) -> String {
        let mut out = String::new();
        self.push_pointer(&mut out, at);
        out
    }

    fn push_pointer(&self, out: &mut String, at: &At<'_>) {
        if let Some(up) = at.up {
            self.push_pointer(out, up);
        }
        match at.step {
            Step::Root => {}
            Step::Key(start, end) => push_pointer_token(out, &self.key_text(start, end)),
            Step::Index(i) => push_pointer_token(out, itoa::Buffer::new().format(i)),
            Step::Name(name) => push_pointer_token(out, name),
        }
    }

    /// A key's text, decoded.
    fn key_text(&self, start: usize, end: usize) -> alloc::borrow::Cow<'a, str> {
        let body = &self.s.b[start..end];
        if body.contains(&b'\\') {
            alloc::borrow::Cow::Owned(scan::unescape(body).unwrap_or_default())
        } else {
            alloc::borrow::Cow::Borrowed(core::str::from_utf8(body).unwrap_or_default())
        }
    }

    /// Records a shape problem at `at`; stops once the report is full.
    fn shape(&mut self, at: &At<'_>, code: IssueCode, message: String) -> Pass<()> {
        let issue = Issue::new(self.pointer(at), code, message);
        self.sink.push(issue);
        if self.sink.is_full() {
            return Err(Stop::Full);
        }
        Ok(())
    }

    /// The value at the cursor, against `rule`; `depth` is that of the
    /// container holding it.
    fn value(
        &mut self,
        rule: &'static Rule,
        nullable: bool,
        slot: Option<Slot>,
        depth: usize,
        at: &At<'_>,
    ) -> Pass<()> {
        if matches!(rule, Rule::Any) && slot.is_none() {
            return Ok(self.s.skip_value(depth)?);
        }
        let scalar = match self.s.ws() {
            b'{' | b'[' => return self.container(rule, slot, depth, at),
            b'"' => {
                let token = self.s.string()?;
                let body = &self.s.b[token.start..token.end];
                let decoded;
                let bytes = if token.escaped {
                    decoded = scan::unescape(body).ok_or(Fatal)?;
                    decoded.as_bytes()
                } else {
                    body
                };
                if let Some(checked) = quick_str(rule, slot, bytes, self.opts) {
                    if let Some(slot) = slot {
                        self.caps.given[slot as usize] = true;
                        self.caps.value[slot as usize] = Some(checked);
                    }
                    return Ok(());
                }
                let text = core::str::from_utf8(bytes).map_err(|_| Fatal)?;
                return self.scalar(rule, slot, Scalar::Str(text), at);
            }
            b't' => {
                self.s.literal(b"true")?;
                Scalar::Bool(true)
            }
            b'f' => {
                self.s.literal(b"false")?;
                Scalar::Bool(false)
            }
            b'n' => {
                self.s.literal(b"null")?;
                if nullable || matches!(rule, Rule::Any) {
                    return Ok(());
                }
                Scalar::Null
            }
            b'-' | b'0'..=b'9' => {
                let num = self.s.number()?;
                Scalar::Number(scan::number_value(self.s.b, num).ok_or(Fatal)?)
            }
            _ => return Err(Stop::Fatal),
        };
        self.scalar(rule, slot, scalar, at)
    }

    fn scalar(
        &mut self,
        rule: &'static Rule,
        slot: Option<Slot>,
        value: Scalar<'_>,
        at: &At<'_>,
    ) -> Pass<()> {
        if matches!(rule, Rule::Any) && slot.is_none() {
            return Ok(());
        }
        if let Some(slot) = slot {
            self.caps.given[slot as usize] = !matches!(value, Scalar::Null);
        }
        match shape::check(rule, value, self.opts) {
            Ok(checked) => {
                if let Some(slot) = slot {
                    self.caps.value[slot as usize] = Some(checked);
                }
                Ok(())
            }
            Err(problem) => {
                let message = problem.message(self.opts);
                self.shape(at, problem.code(), message)
            }
        }
    }

    /// An array or object at the cursor.
    fn container(
        &mut self,
        rule: &'static Rule,
        slot: Option<Slot>,
        depth: usize,
        at: &At<'_>,
    ) -> Pass<()> {
        if matches!(rule, Rule::Any) {
            return Ok(self.s.skip_value(depth)?);
        }
        let object = self.s.b[self.s.pos] == b'{';
        if let Some(slot) = slot {
            self.caps.given[slot as usize] = true;
        }
        let kind = if object {
            Scalar::Object
        } else {
            Scalar::Array
        };
        let fits = match shape::check(rule, kind, self.opts) {
            Ok(checked) => {
                if let Some(slot) = slot {
                    self.caps.value[slot as usize] = Some(checked);
                }
                true
            }
            Err(problem) => {
                let message = problem.message(self.opts);
                self.shape(at, problem.code(), message)?;
                false
            }
        };
        match (rule, fits, object) {
            (Rule::Struct(shape), true, true) => self.structure(shape, depth + 1, at),
            (Rule::ArrayOf(item), true, false) => self.array(item, depth + 1, at),
            // Free-form, or reported above and then read as free-form.
            _ => Ok(self.s.skip_value(depth)?),
        }
    }

    fn array(&mut self, item: &'static Rule, depth: usize, at: &At<'_>) -> Pass<()> {
        self.s.enter(depth)?;
        if self.s.ws() == b']' {
            self.s.pos += 1;
            return Ok(());
        }
        let mut index = 0;
        loop {
            let here = At {
                step: Step::Index(index),
                up: Some(at),
            };
            self.value(item, false, None, depth, &here)?;
            match self.s.ws() {
                b',' => self.s.pos += 1,
                b']' => {
                    self.s.pos += 1;
                    return Ok(());
                }
                _ => return Err(Stop::Fatal),
            }
            index += 1;
        }
    }

    /// An object read against a struct shape.
    fn structure(&mut self, shape: &'static Shape, depth: usize, at: &At<'_>) -> Pass<()> {
        self.s.enter(depth)?;
        let mut seen: u32 = 0;
        // Keys that are not fields, for the duplicate check.
        let mut extra = KeySet::default();
        // Fields mostly come in table order: look from after the last one.
        let mut next = 0;
        if self.s.ws() == b'}' {
            self.s.pos += 1;
        } else {
            loop {
                if self.s.ws() != b'"' {
                    return Err(Stop::Fatal);
                }
                let key = self.s.string()?;
                let found = if key.escaped {
                    let name = scan::unescape(&self.s.b[key.start..key.end]).ok_or(Fatal)?;
                    find_field(shape, name.as_bytes(), next)
                } else {
                    find_field(shape, &self.s.b[key.start..key.end], next)
                };
                self.s.expect(b':')?;
                let here = At {
                    step: Step::Key(key.start, key.end),
                    up: Some(at),
                };
                if let Some(i) = found {
                    if seen & (1 << i) != 0 {
                        return Err(Stop::Fatal);
                    }
                    seen |= 1 << i;
                    next = i + 1;
                    let field = &shape.fields[i];
                    if let Rule::Tagged(tagged) = &field.rule {
                        self.tagged(tagged, field.slot, depth, &here)?;
                    } else {
                        let nullable = field.presence == Presence::Optional;
                        self.value(&field.rule, nullable, field.slot, depth, &here)?;
                    }
                } else {
                    // A repeated key is an input problem, found where the
                    // diagnostic walk finds it: before this key's issue, and
                    // before the issues of the fields after it, one of
                    // which could be the one that fills the report.
                    if !extra.insert(self.key_text(key.start, key.end)) {
                        return Err(Stop::Fatal);
                    }
                    if !shape.open {
                        let name = self.key_text(key.start, key.end);
                        let names: Vec<&str> = shape.fields.iter().map(|f| f.name).collect();
                        let message = check::unknown_field_message(&name, &names);
                        self.shape(&here, IssueCode::UnknownField, message)?;
                    }
                    self.s.skip_value(depth)?;
                }
                match self.s.ws() {
                    b',' => self.s.pos += 1,
                    b'}' => {
                        self.s.pos += 1;
                        break;
                    }
                    _ => return Err(Stop::Fatal),
                }
            }
        }
        for (i, field) in shape.fields.iter().enumerate() {
            if field.presence == Presence::Required && seen & (1 << i) == 0 {
                let here = At {
                    step: Step::Name(field.name),
                    up: Some(at),
                };
                let message = format!("required field `{}` is missing", field.name);
                self.shape(&here, IssueCode::MissingField, message)?;
            }
        }
        Ok(())
    }

    /// A tagged object (`tool_metadata`): parsed, and checked after the
    /// envelope (its shape depends on its tag, which may come last).
    fn tagged(
        &mut self,
        tagged: &'static Tagged,
        slot: Option<Slot>,
        depth: usize,
        at: &At<'_>,
    ) -> Pass<()> {
        self.s.ws();
        let start = self.s.pos;
        self.s.skip_value(depth)?;
        let text = core::str::from_utf8(&self.s.b[start..self.s.pos]).map_err(|_| Fatal)?;
        let limits = ParseLimits::new(
            self.opts.max_bytes,
            self.opts.max_depth.saturating_sub(depth),
        );
        let value = json::parse_str(text, limits).map_err(|_| Fatal)?;
        if value.is_null() {
            return Ok(());
        }
        if let Some(slot) = slot {
            self.caps.given[slot as usize] = true;
            self.caps.value[slot as usize] = Some(Checked::Other);
        }
        if !value.is_object() {
            let got = check::json_type(&value);
            return self.shape(
                at,
                IssueCode::InvalidType,
                format!("expected object, got {got}"),
            );
        }
        self.deferred = Some((tagged, value));
        Ok(())
    }
}

/// The field named `name`, looked for from `from` on and then from the start.
#[inline]
fn find_field(shape: &Shape, name: &[u8], from: usize) -> Option<usize> {
    let fields = shape.fields;
    let first = *name.first()?;
    let matches = |f: &Field| {
        let n = f.name.as_bytes();
        n.len() == name.len() && n[0] == first && n == name
    };
    let from = from.min(fields.len());
    fields[from..]
        .iter()
        .position(matches)
        .map(|i| i + from)
        .or_else(|| fields[..from].iter().position(matches))
}

/// What `shape::check` would say of a string, when the bytes alone tell
/// that it passes: no text is made and no parser runs for the common forms.
/// `None` leaves it to `shape::check` (which then says why not, or passes
/// it all the same).
#[inline]
fn quick_str(
    rule: &Rule,
    slot: Option<Slot>,
    s: &[u8],
    opts: &ValidationOptions,
) -> Option<Checked> {
    let pass = match rule {
        Rule::Any | Rule::Str => true,
        Rule::NonEmpty => !s.is_empty(),
        Rule::Enum(names) | Rule::Version(names) => {
            return names
                .iter()
                .find(|n| n.as_bytes() == s)
                .map(|n| Checked::Name(n));
        }
        Rule::Uuid => is_uuid(s),
        Rule::Sha256 => s.len() == 64 && s.iter().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
        Rule::ErrorCode => core::str::from_utf8(s).is_ok_and(check::is_screaming_snake_case),
        Rule::AgentType => {
            !s.is_empty()
                && (AgentType::KNOWN.iter().any(|k| k.as_bytes() == s)
                    || opts.allow_unknown_agent_types
                    || opts.extra_agent_types.iter().any(|t| t.as_bytes() == s))
        }
        // The meaning checks need the time of a captured timestamp.
        Rule::Timestamp => slot.is_none() && plain_timestamp(s),
        _ => false,
    };
    pass.then_some(Checked::Other)
}

/// A hyphenated UUID: what `check::is_hyphenated_uuid` accepts.
fn is_uuid(s: &[u8]) -> bool {
    s.len() == 36
        && s.iter().enumerate().all(|(i, &b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with every field in range: a
/// subset of what `check::parse_timestamp` (the `time` crate's RFC 3339)
/// accepts, without building a time. Anything else (a leap second, another
/// separator, …) is left to it.
fn plain_timestamp(s: &[u8]) -> bool {
    fn two(s: &[u8], at: usize) -> Option<u32> {
        match (s.get(at)?, s.get(at + 1)?) {
            (a @ b'0'..=b'9', b @ b'0'..=b'9') => {
                Some(u32::from(a - b'0') * 10 + u32::from(b - b'0'))
            }
            _ => None,
        }
    }
    if s.len() < 20 {
        return false;
    }
    let date = (|| {
        let year = two(s, 0)? * 100 + two(s, 2)?;
        let (month, day) = (two(s, 5)?, two(s, 8)?);
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => return None,
        };
        let fields =
            s[4] == b'-' && s[7] == b'-' && s[10] == b'T' && s[13] == b':' && s[16] == b':';
        let time = two(s, 11)? <= 23 && two(s, 14)? <= 59 && two(s, 17)? <= 59;
        Some(fields && time && (1..=days).contains(&day))
    })();
    if date != Some(true) {
        return false;
    }
    let mut p = 19;
    if s.get(p) == Some(&b'.') {
        let digits = s[p + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        p += 1 + digits;
    }
    match s.get(p) {
        Some(b'Z' | b'z') => p + 1 == s.len(),
        Some(b'+' | b'-') => {
            p + 6 == s.len()
                && s[p + 3] == b':'
                && two(s, p + 1).is_some_and(|h| h <= 23)
                && two(s, p + 4).is_some_and(|m| m <= 59)
        }
        _ => false,
    }
}

/// The deferred check of `tool_metadata`, compared with the envelope's
/// status and schema_version as captured.
pub(crate) fn check_deferred(
    caps: &Captures,
    opts: &ValidationOptions,
    tagged: &Tagged,
    value: &serde_json::Value,
) -> (Vec<Issue>, bool) {
    let mut envelope = serde_json::Map::new();
    for (slot, key) in [
        (Slot::Status, "status"),
        (Slot::SchemaVersion, "schema_version"),
    ] {
        if let Some(Checked::Name(name)) = caps.get(slot) {
            envelope.insert(key.into(), serde_json::Value::String(name.into()));
        }
    }
    let mut c = Checker::new(opts);
    crate::validate::value::check_tool_metadata(
        &mut c,
        tagged,
        value,
        &serde_json::Value::Object(envelope),
    );
    c.take_issues()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn plain_timestamps_are_ones_the_time_crate_accepts() {
        for ok in [
            "2026-11-22T10:15:30Z",
            "2026-11-22T10:15:30.250Z",
            "2024-02-29T00:00:00+05:30",
            "0000-01-01T00:00:00-23:59",
            "2026-12-31T23:59:59.123456789123z",
        ] {
            assert!(plain_timestamp(ok.as_bytes()), "{ok}");
            assert!(check::parse_timestamp(ok).is_some(), "{ok}");
        }
        for left in [
            "2026-11-22 10:15:30Z",
            "2026-06-30T23:59:60Z",
            "2025-02-29T00:00:00Z",
            "2026-11-22T10:15:30",
            "2026-11-22T10:15:30.Z",
            "2026-11-22T24:00:00Z",
            "2026-11-22T10:15:30+24:00",
            "2026-1",
            "2026-11-22T1",
        ] {
            assert!(!plain_timestamp(left.as_bytes()), "{left}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn plain_timestamp_is_a_subset(s in "[0-9]{4}-[0-1][0-9]-[0-3][0-9][Tt ][0-2][0-9]:[0-6][0-9]:[0-6][0-9](\\.[0-9]{0,3})?([Zz]|[+-][0-2][0-9]:[0-6][0-9])?") {
            if plain_timestamp(s.as_bytes()) {
                prop_assert!(check::parse_timestamp(&s).is_some(), "{}", s);
            }
        }

        #[test]
        fn quick_uuid_agrees(s in "[0-9a-fA-Fg-]{30,38}") {
            prop_assert_eq!(is_uuid(s.as_bytes()), check::is_hyphenated_uuid(&s));
        }

        #[test]
        fn quick_checks_never_pass_what_shape_check_refuses(s in "[A-Z_a-z0-9 .:-]{0,12}") {
            let opts = ValidationOptions::default();
            for rule in [&Rule::NonEmpty, &Rule::ErrorCode, &Rule::AgentType, &Rule::Sha256, &Rule::Uuid, &Rule::Timestamp] {
                if quick_str(rule, None, s.as_bytes(), &opts).is_some() {
                    prop_assert!(shape::check(rule, Scalar::Str(&s), &opts).is_ok(), "{:?} {}", rule, s);
                }
            }
        }
    }
}
