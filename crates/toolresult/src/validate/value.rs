//! The diagnostic walk over a parsed `Value`: every issue at its path, and
//! the captures the meaning checks need.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use crate::issue::{quote_text, IssueCode};
use crate::validate::check::{json_type, Checker};
use crate::validate::meaning;
use crate::validate::metadata_meaning;
use crate::validate::metadata_shape::TOOL_METADATA;
use crate::validate::shape::{self, Captures, Presence, Rule, Scalar, Shape, Slot, Tagged};

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
            format!("expected object, got {}", json_type(v)),
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
                    format!("{} is not one of: {}", quote_text(name, '`'), names()),
                );
            }),
        },
        Some(other) => c.at(tag, |c| {
            c.report(
                IssueCode::InvalidType,
                format!("expected string, got {}", json_type(other)),
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

pub(super) fn check_agent_result(c: &mut Checker, v: &Value) {
    let mut caps = Captures::default();
    walk(
        c,
        &mut caps,
        &crate::validate::envelope_shape::AGENT_RESULT_RULE,
        None,
        v,
    );
    let prefix = String::from(c.path());
    meaning::agent_result(&caps, &mut Report(c, prefix));
}

pub(super) fn check_tool_result(c: &mut Checker, v: &Value) {
    let mut caps = Captures::default();
    walk(
        c,
        &mut caps,
        &crate::validate::envelope_shape::TOOL_RESULT_RULE,
        None,
        v,
    );
    if let Some(m) = v.get("tool_metadata").filter(|m| m.is_object()) {
        check_tool_metadata(c, &TOOL_METADATA, m, v);
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
