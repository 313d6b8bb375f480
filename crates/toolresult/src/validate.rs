//! Envelope validation: shape (what the generated JSON Schema says) and meaning
//! (the values agree with each other), every issue reported with its path.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::agent_result::AgentResult;
use crate::check::Checker;
use crate::issue::{Issue, IssueCode, Issues};
use crate::json::{self, ParseLimits};
use crate::meaning;
use crate::metadata_meaning;
use crate::options::ValidationOptions;
use crate::shape::{self, Captures, Presence, Rule, Scalar, Shape, Slot, Tagged};
use crate::stream;
use crate::tool_result::ToolResult;

/// Which envelope a validator checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvelopeKind {
    AgentResult,
    ToolResult,
}

/// A validator for one envelope kind with fixed options: build once, use many
/// times.
#[derive(Debug, Clone)]
pub struct Validator {
    kind: EnvelopeKind,
    options: ValidationOptions,
}

impl Validator {
    /// Fails with `invalid_options` issues when an option value is out of range.
    pub fn new(kind: EnvelopeKind, options: ValidationOptions) -> Result<Self, Issues> {
        let problems = options.problems();
        if !problems.is_empty() {
            return Err(Issues(
                problems
                    .into_iter()
                    .map(|(path, msg)| Issue::new(path, IssueCode::InvalidOptions, msg))
                    .collect(),
            ));
        }
        Ok(Validator { kind, options })
    }

    pub fn kind(&self) -> EnvelopeKind {
        self.kind
    }

    pub fn options(&self) -> &ValidationOptions {
        &self.options
    }

    fn limits(&self) -> ParseLimits {
        self.options.parse_limits()
    }

    /// Parses JSON text strictly, without checking the envelope.
    pub fn parse_json(&self, text: &str) -> Result<Value, Issues> {
        json::parse_str(text, self.limits()).map_err(Issues::from)
    }

    /// Whether JSON text is a valid envelope: the streaming fast path alone.
    pub fn is_valid_str(&self, text: &str) -> bool {
        stream::accepts(text, self.kind, &self.options)
    }

    /// Every issue in JSON text; empty when it is a valid envelope. Valid input
    /// is accepted in one streaming pass; only invalid input is parsed into a
    /// value and walked to find every issue.
    pub fn check_str(&self, text: &str) -> Issues {
        if self.is_valid_str(text) {
            return Issues::default();
        }
        self.diagnose_str(text)
    }

    /// The diagnostic path alone: every issue, in one streaming pass.
    pub fn diagnose_str(&self, text: &str) -> Issues {
        stream::collect(text, self.kind, &self.options)
    }

    /// Every issue in UTF-8 JSON bytes; empty when they are a valid envelope.
    pub fn check_bytes(&self, bytes: &[u8]) -> Issues {
        match json::utf8_text(bytes, self.limits()) {
            Ok(text) => self.check_str(text),
            Err(issue) => Issues::from(issue),
        }
    }

    /// Every issue in an already parsed value (the same tables and checks as
    /// the streaming path, walked over the value).
    pub fn check_value(&self, value: &Value) -> Issues {
        let mut c = Checker::new(&self.options);
        match self.kind {
            EnvelopeKind::AgentResult => check_agent_result(&mut c, value),
            EnvelopeKind::ToolResult => check_tool_result(&mut c, value),
        }
        c.finish()
    }
}

/// Validates and converts a value into a wire type. Conversion cannot fail
/// after validation passed; if it ever did, it is reported, never panicked.
fn into_typed<T: DeserializeOwned>(validator: &Validator, value: Value) -> Result<T, Issues> {
    let issues = validator.check_value(&value);
    if !issues.is_empty() {
        return Err(issues);
    }
    convert(value)
}

/// Converts an already validated value into its wire type.
pub(crate) fn convert<T: DeserializeOwned>(value: Value) -> Result<T, Issues> {
    serde_json::from_value(value).map_err(|e| {
        Issues::from(Issue::new(
            "",
            IssueCode::InvalidType,
            format!("internal: validated value did not convert: {e}"),
        ))
    })
}

/// Every issue in an AgentResult given as JSON text.
pub fn validate_agent_result(text: &str, options: &ValidationOptions) -> Issues {
    match Validator::new(EnvelopeKind::AgentResult, options.clone()) {
        Ok(v) => v.check_str(text),
        Err(issues) => issues,
    }
}

/// Every issue in a ToolResult given as JSON text.
pub fn validate_tool_result(text: &str, options: &ValidationOptions) -> Issues {
    match Validator::new(EnvelopeKind::ToolResult, options.clone()) {
        Ok(v) => v.check_str(text),
        Err(issues) => issues,
    }
}

/// Parses and validates an AgentResult.
pub fn parse_agent_result(text: &str, options: &ValidationOptions) -> Result<AgentResult, Issues> {
    let v = Validator::new(EnvelopeKind::AgentResult, options.clone())?;
    let value = v.parse_json(text)?;
    into_typed(&v, value)
}

/// Parses and validates a ToolResult.
pub fn parse_tool_result(text: &str, options: &ValidationOptions) -> Result<ToolResult, Issues> {
    let v = Validator::new(EnvelopeKind::ToolResult, options.clone())?;
    let value = v.parse_json(text)?;
    into_typed(&v, value)
}

// ------------------------------------------------------- the diagnostic walk

/// Walks a parsed value against a rule, reporting every issue at its path and
/// capturing what the meaning checks need.
fn walk(c: &mut Checker, caps: &mut Captures, rule: &Rule, slot: Option<Slot>, v: &Value) {
    let scalar = match v {
        Value::Null => Scalar::Null,
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Number(n) => Scalar::Number(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => Scalar::Str(s),
        Value::Array(_) => Scalar::Array,
        Value::Object(_) => Scalar::Object,
    };
    if let Some(slot) = slot {
        caps.given[slot as usize] = !v.is_null();
    }
    match shape::check(rule, scalar, c.opts) {
        Err(problem) => {
            let message = problem.message(c.opts);
            c.report(problem.code(), message);
            return;
        }
        Ok(checked) => {
            if let Some(slot) = slot {
                caps.value[slot as usize] = Some(checked);
            }
        }
    }
    match (rule, v) {
        (Rule::Struct(shape), Value::Object(obj)) => walk_struct(c, caps, shape, obj),
        // Checked after the envelope (see check_tool_result), as the
        // streaming validator does.
        (Rule::Tagged(_), _) => {}
        (Rule::NestedToolResult, Value::Object(_)) => check_tool_result(c, v),
        (Rule::ArrayOf(item), Value::Array(items)) => {
            for (i, v) in items.iter().enumerate() {
                c.at_index(i, |c| walk(c, caps, item, None, v));
            }
        }
        _ => {}
    }
}

/// Fields are checked in document order, then missing ones are reported: the
/// same order as the streaming validator, so both report the same first
/// `max_issues` issues.
fn walk_struct(c: &mut Checker, caps: &mut Captures, shape: &Shape, obj: &Map<String, Value>) {
    for (key, v) in obj {
        match shape.fields.iter().find(|f| f.name == key) {
            Some(field) => {
                if v.is_null() && field.presence == Presence::Optional {
                    continue;
                }
                c.at(key, |c| walk(c, caps, &field.rule, field.slot, v));
            }
            None if shape.open => {}
            None => {
                let names: Vec<&str> = shape.fields.iter().map(|f| f.name).collect();
                c.unknown_field(key, &names);
            }
        }
    }
    for field in shape.fields {
        if field.presence == Presence::Required && !obj.contains_key(field.name) {
            c.at(field.name, |c| {
                c.report(
                    IssueCode::MissingField,
                    format!("required field `{}` is missing", field.name),
                );
            });
        }
    }
}

/// A tagged object: its tag picks the shape it is walked against.
pub(crate) fn walk_tagged(c: &mut Checker, tagged: &Tagged, v: &Value) {
    let Value::Object(obj) = v else {
        c.report(
            IssueCode::InvalidType,
            format!("expected object, got {}", crate::check::json_type(v)),
        );
        return;
    };
    let names = || {
        tagged
            .variants
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let tag = tagged.tag;
    match obj.get(tag) {
        None => c.at(tag, |c| {
            c.report(
                IssueCode::MissingField,
                format!("required field `{tag}` is missing; one of: {}", names()),
            );
        }),
        Some(Value::String(name)) => match tagged.variants.iter().find(|(n, _)| n == name) {
            Some((_, shape)) => {
                let mut caps = Captures::default();
                walk_struct(c, &mut caps, shape, obj);
                metadata_meaning::check(c, name, v);
            }
            None => c.at(tag, |c| {
                c.report(
                    IssueCode::InvalidEnum,
                    format!("`{name}` is not one of: {}", names()),
                );
            }),
        },
        Some(other) => c.at(tag, |c| {
            c.report(
                IssueCode::InvalidType,
                format!("expected string, got {}", crate::check::json_type(other)),
            );
        }),
    }
}

/// Meaning issues carry paths from the envelope's root; a nested envelope
/// (a batch's results) puts its own path in front.
struct Report<'a, 'o>(&'a mut Checker<'o>, String);

impl meaning::Sink for Report<'_, '_> {
    fn meaning(&mut self, path: &str, code: IssueCode, message: &dyn Fn() -> String) {
        let full = format!("{}{path}", self.1);
        self.0.report_at(&full, code, message());
    }
}

fn check_agent_result(c: &mut Checker, v: &Value) {
    let mut caps = Captures::default();
    walk(c, &mut caps, &shape::AGENT_RESULT_RULE, None, v);
    let prefix = String::from(c.path());
    meaning::agent_result(&caps, &mut Report(c, prefix));
}

fn check_tool_result(c: &mut Checker, v: &Value) {
    let mut caps = Captures::default();
    walk(c, &mut caps, &shape::TOOL_RESULT_RULE, None, v);
    if let Some(m) = v.get("tool_metadata").filter(|m| m.is_object()) {
        check_tool_metadata(c, &crate::tool_metadata_shape::TOOL_METADATA, m, v);
    }
    let opts = c.opts;
    let prefix = String::from(c.path());
    meaning::tool_result(&caps, opts, &mut Report(c, prefix));
}

/// `tool_metadata`, checked after its envelope by both validators (the
/// streaming one on the value it deferred). `envelope` holds the fields it is
/// compared with (`status`, `schema_version`).
pub(crate) fn check_tool_metadata(c: &mut Checker, tagged: &Tagged, m: &Value, envelope: &Value) {
    c.at("tool_metadata", |c| {
        walk_tagged(c, tagged, m);
        metadata_meaning::with_envelope(c, m, envelope);
    });
}
