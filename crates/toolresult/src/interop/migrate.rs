//! From what orchestrators receive to AgentResult v1 (docs/spec.md §14): the legacy
//! `TaskResult`, the `AgentMessage` wrapper around it (Finding #2), or an
//! AgentResult already. Every mapping, derivation and assumption is listed
//! as a change with its path; nothing in the input is dropped.
//!
//! Rules:
//! - `output` → `result`; `task_id`, `workflow_id`, `metrics` are copied.
//! - `status`: `success` → success (success true); `failure` → failed
//!   (success false, `errors` become `error` {code TASK_FAILED, message: the
//!   errors joined, details.errors}); `partial` → success with
//!   `success: true` (the task finished; what failed is not fatal), its
//!   `errors` become `warnings` after a first warning saying the legacy
//!   status was `partial`.
//! - `agent_id`, `agent_type`, `action`, `timestamp` come from the context
//!   (an AgentMessage supplies `agent_id` and `timestamp`); `version` is 1.0.0.
//! - Fields with no home in AgentResult (`next_stage`, unknown fields, unknown
//!   metrics, the wrapper's `id`, `stage`, `trace_id`) go to `result._legacy`.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::issue::{quote_text, Issue, IssueCode, Issues};
use crate::validate::check::json_type;
use crate::validate::options::ValidationOptions;
use crate::validate::{EnvelopeKind, Validator};
use crate::wire::agent_result::AgentResultVersion;

/// What the legacy shapes lack.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MigrationContext {
    /// The agent id to use where the source has none.
    #[serde(default)]
    pub agent_id: Option<String>,
    /// The agent type to use where the source has none.
    #[serde(default)]
    pub agent_type: Option<String>,
    /// The action to use where the source has none.
    #[serde(default)]
    pub action: Option<String>,
    /// RFC 3339. When neither this nor an AgentMessage gives one, `now`.
    #[serde(default)]
    pub timestamp: Option<String>,
    /// The current time (RFC 3339), for results that carry none.
    #[serde(default)]
    pub now: Option<String>,
}

/// One thing normalization did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Change {
    /// JSON Pointer into the output.
    pub path: String,
    /// What kind of change.
    pub kind: ChangeKind,
    /// JSON Pointer into the input it came from, when it came from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// What was changed, for a person.
    pub message: String,
}

/// What migration did to a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ChangeKind {
    /// Copied or renamed from the input.
    Mapped,
    /// Computed from input values.
    Derived,
    /// Taken from the context or a default.
    Assumed,
    /// Kept under `result._legacy` because AgentResult has no field for it.
    Preserved,
    /// An AgentMessage wrapper was taken off.
    Unwrapped,
}

/// What `normalize` detected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum SourceShape {
    /// Already AgentResult v1.
    AgentResult,
    /// A legacy task result.
    TaskResult,
    /// An AgentMessage wrapper around either.
    AgentMessage,
}

/// An AgentResult v1 made from what was received, and how.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Normalized {
    /// The AgentResult v1, as JSON.
    pub value: Value,
    /// Every change made, in order.
    pub changes: Vec<Change>,
    /// What shape was received.
    pub source: SourceShape,
}

fn change(path: &str, kind: ChangeKind, from: Option<&str>, message: String) -> Change {
    Change {
        path: path.into(),
        kind,
        from: from.map(String::from),
        message,
    }
}

const TASK_FIELDS: &[&str] = &[
    "task_id",
    "workflow_id",
    "status",
    "output",
    "errors",
    "metrics",
    "next_stage",
];
const METRIC_FIELDS: &[&str] = &[
    "duration_ms",
    "tokens_used",
    "api_calls",
    "memory_used_bytes",
];

/// The legacy `TaskResult` → AgentResult v1 (see the module rules). The
/// output always passes AgentResult validation, or the issues say why not.
pub fn migrate_task_result(legacy: &Value, ctx: &MigrationContext) -> Result<Normalized, Issues> {
    migrate(legacy, ctx, "", Map::new(), Vec::new())
}

fn migrate(
    legacy: &Value,
    ctx: &MigrationContext,
    at: &str,
    mut legacy_extra: Map<String, Value>,
    mut changes: Vec<Change>,
) -> Result<Normalized, Issues> {
    let p = |s: &str| format!("{at}{s}");
    let Some(o) = legacy.as_object() else {
        return Err(Issues::from(Issue::new(
            at,
            IssueCode::InvalidType,
            format!("a TaskResult is an object, got {}", json_type(legacy)),
        )));
    };
    let mut issues = Vec::new();
    let mut out = Map::new();
    out.insert("version".into(), json!(AgentResultVersion::SUPPORTED[0]));
    changes.push(change(
        "/version",
        ChangeKind::Assumed,
        None,
        String::from("TaskResult has no version; AgentResult v1.0.0"),
    ));
    for key in ["task_id", "workflow_id"] {
        match o.get(key) {
            Some(v) => {
                out.insert(key.into(), v.clone());
                changes.push(change(
                    &format!("/{key}"),
                    ChangeKind::Mapped,
                    Some(&p(&format!("/{key}"))),
                    format!("copied {key}"),
                ));
            }
            None => issues.push(Issue::new(
                p(&format!("/{key}")),
                IssueCode::MissingField,
                format!("a TaskResult needs `{key}`"),
            )),
        }
    }
    for (key, value) in [
        ("agent_id", &ctx.agent_id),
        ("agent_type", &ctx.agent_type),
        ("action", &ctx.action),
    ] {
        match value {
            Some(v) => {
                out.insert(key.into(), Value::String(v.clone()));
                changes.push(change(
                    &format!("/{key}"),
                    ChangeKind::Assumed,
                    None,
                    format!("{key} from the context"),
                ));
            }
            None => issues.push(Issue::new(
                format!("/{key}"),
                IssueCode::MissingField,
                format!("TaskResult has no `{key}`: pass it in the context"),
            )),
        }
    }
    let errors: Vec<String> = match o.get("errors") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|e| e.as_str().map_or_else(|| e.to_string(), String::from))
            .collect(),
        Some(v) => {
            issues.push(Issue::new(
                p("/errors"),
                IssueCode::InvalidType,
                format!("errors must be an array of strings, got {}", json_type(v)),
            ));
            Vec::new()
        }
    };
    match o.get("status").and_then(Value::as_str) {
        Some("success") => {
            out.insert("success".into(), json!(true));
            out.insert("status".into(), json!("success"));
            changes.push(change(
                "/status",
                ChangeKind::Mapped,
                Some(&p("/status")),
                String::from("success → success"),
            ));
            if !errors.is_empty() {
                out.insert("warnings".into(), json!(errors));
                changes.push(change(
                    "/warnings",
                    ChangeKind::Mapped,
                    Some(&p("/errors")),
                    String::from("errors of a successful task become warnings"),
                ));
            }
        }
        Some("failure") => {
            out.insert("success".into(), json!(false));
            out.insert("status".into(), json!("failed"));
            changes.push(change(
                "/status",
                ChangeKind::Mapped,
                Some(&p("/status")),
                String::from("failure → failed"),
            ));
            let message = if errors.is_empty() {
                String::from("task failed (the TaskResult listed no errors)")
            } else {
                errors.join("; ")
            };
            out.insert("error".into(), json!({"code": "TASK_FAILED", "message": message, "details": {"errors": errors}, "retryable": false}));
            changes.push(change(
                "/error",
                ChangeKind::Derived,
                Some(&p("/errors")),
                String::from("error built from errors (code TASK_FAILED)"),
            ));
        }
        Some("partial") => {
            out.insert("success".into(), json!(true));
            out.insert("status".into(), json!("success"));
            let mut warnings = alloc::vec![String::from(
                "partial result: the legacy TaskResult status was `partial`"
            )];
            warnings.extend(errors);
            out.insert("warnings".into(), json!(warnings));
            changes.push(change(
                "/status",
                ChangeKind::Derived,
                Some(&p("/status")),
                String::from("partial → success (finished, failures not fatal); see warnings"),
            ));
        }
        other => issues.push(Issue::new(
            p("/status"),
            IssueCode::InvalidEnum,
            format!(
                "TaskResult status must be success, failure or partial, got {}",
                other.map_or_else(|| String::from("nothing"), |s| quote_text(s, '`'))
            ),
        )),
    }
    out.insert(
        "success".into(),
        out.get("success").cloned().unwrap_or(json!(false)),
    );
    changes.push(change(
        "/success",
        ChangeKind::Derived,
        Some(&p("/status")),
        String::from("derived from status"),
    ));
    // result
    let mut result = match o.get("output") {
        Some(Value::Object(m)) => {
            changes.push(change(
                "/result",
                ChangeKind::Mapped,
                Some(&p("/output")),
                String::from("output → result"),
            ));
            m.clone()
        }
        None | Some(Value::Null) => Map::new(),
        Some(v) => {
            // A non-object output still has a home.
            changes.push(change(
                "/result/value",
                ChangeKind::Mapped,
                Some(&p("/output")),
                String::from("a non-object output is kept as result.value"),
            ));
            let mut m = Map::new();
            m.insert("value".into(), v.clone());
            m
        }
    };
    // metrics
    let mut metrics = Map::new();
    match o.get("metrics") {
        Some(Value::Object(m)) => {
            for (k, v) in m {
                if METRIC_FIELDS.contains(&k.as_str()) {
                    metrics.insert(k.clone(), v.clone());
                } else {
                    legacy_extra.entry("metrics").or_insert_with(|| json!({}))[k] = v.clone();
                }
            }
            changes.push(change(
                "/metrics",
                ChangeKind::Mapped,
                Some(&p("/metrics")),
                String::from("copied metrics"),
            ));
        }
        None | Some(Value::Null) => {}
        Some(v) => issues.push(Issue::new(
            p("/metrics"),
            IssueCode::InvalidType,
            format!("metrics must be an object, got {}", json_type(v)),
        )),
    }
    if !metrics.contains_key("duration_ms") {
        metrics.insert("duration_ms".into(), json!(0));
        changes.push(change(
            "/metrics/duration_ms",
            ChangeKind::Assumed,
            None,
            String::from("TaskResult had no duration; 0 assumed"),
        ));
    }
    out.insert("metrics".into(), Value::Object(metrics));
    // everything without a home
    for (k, v) in o {
        if k == "next_stage" || !TASK_FIELDS.contains(&k.as_str()) {
            legacy_extra.insert(k.clone(), v.clone());
        }
    }
    if !legacy_extra.is_empty() {
        if result.contains_key("_legacy") {
            issues.push(Issue::new(p("/output/_legacy"), IssueCode::InvalidDefinition, String::from("output already has `_legacy`, where fields without a home in AgentResult would go")));
        }
        for k in legacy_extra.keys() {
            changes.push(change(
                &format!("/result/_legacy/{k}"),
                ChangeKind::Preserved,
                None,
                format!("{} has no AgentResult field; kept here", quote_text(k, '`')),
            ));
        }
        result.insert("_legacy".into(), Value::Object(legacy_extra));
    }
    out.insert("result".into(), Value::Object(result));
    let (timestamp, why) = match (&ctx.timestamp, &ctx.now) {
        (Some(t), _) => (Some(t), "timestamp from the context"),
        (None, Some(now)) => (Some(now), "no timestamp given: the time of normalization"),
        (None, None) => (None, ""),
    };
    match timestamp {
        Some(t) => {
            out.insert("timestamp".into(), Value::String(t.clone()));
            changes.push(change(
                "/timestamp",
                ChangeKind::Assumed,
                None,
                String::from(why),
            ));
        }
        None => issues.push(Issue::new(
            "/timestamp",
            IssueCode::MissingField,
            String::from("TaskResult has no timestamp: pass it in the context"),
        )),
    }
    if !issues.is_empty() {
        return Err(Issues(issues));
    }
    finish(Value::Object(out), changes, SourceShape::TaskResult)
}

fn finish(value: Value, changes: Vec<Change>, source: SourceShape) -> Result<Normalized, Issues> {
    let found = Validator::new(EnvelopeKind::AgentResult, ValidationOptions::default())?
        .check_value(&value);
    if found.is_empty() {
        Ok(Normalized {
            value,
            changes,
            source,
        })
    } else {
        Err(found)
    }
}

/// Detects the shape — AgentResult v1, TaskResult, or an AgentMessage around
/// either — and returns an AgentResult v1 with the changes made.
pub fn normalize_agent_result(input: &Value, ctx: &MigrationContext) -> Result<Normalized, Issues> {
    let Some(o) = input.as_object() else {
        return Err(Issues::from(Issue::new(
            "",
            IssueCode::InvalidType,
            format!("expected an object, got {}", json_type(input)),
        )));
    };
    if o.get("type").and_then(Value::as_str) == Some("result") && o.contains_key("payload") {
        return unwrap_message(o, ctx);
    }
    if let Some(version) = o.get("version") {
        if version.as_str() != Some(AgentResultVersion::SUPPORTED[0]) {
            return Err(Issues::from(Issue::new(
                "/version",
                IssueCode::UnsupportedVersion,
                format!(
                    "version {version} is not supported; supported versions: {}",
                    AgentResultVersion::SUPPORTED.join(", ")
                ),
            )));
        }
        return finish(input.clone(), Vec::new(), SourceShape::AgentResult);
    }
    let legacy_status = matches!(
        o.get("status").and_then(Value::as_str),
        Some("success" | "failure" | "partial")
    );
    if o.contains_key("task_id")
        && (o.contains_key("output") || legacy_status)
        && !o.contains_key("agent_type")
    {
        return migrate_task_result(input, ctx);
    }
    Err(Issues::from(Issue::new(
        "",
        IssueCode::AmbiguousShape,
        String::from("not an AgentResult (no `version`), a TaskResult (task_id with output and a success|failure|partial status) or an AgentMessage (type \"result\" with a payload)"),
    )))
}

fn unwrap_message(o: &Map<String, Value>, ctx: &MigrationContext) -> Result<Normalized, Issues> {
    let payload = &o["payload"];
    let mut changes = alloc::vec![change(
        "",
        ChangeKind::Unwrapped,
        Some("/payload"),
        String::from("AgentMessage wrapper taken off")
    )];
    let mut extra = Map::new();
    let mut ctx = ctx.clone();
    for (k, v) in o {
        match k.as_str() {
            "payload" | "type" => {}
            "agent_id" if ctx.agent_id.is_none() => ctx.agent_id = v.as_str().map(String::from),
            "timestamp" if ctx.timestamp.is_none() => ctx.timestamp = v.as_str().map(String::from),
            _ => {
                extra.entry("message").or_insert_with(|| json!({}))[k.as_str()] = v.clone();
            }
        }
    }
    if payload.get("version").is_some() {
        // An AgentResult already: the wrapper adds nothing it lacks.
        let mut n =
            normalize_agent_result(payload, &ctx).map_err(|issues| issues.prefixed("/payload"))?;
        for (k, v) in &extra {
            changes.push(change(
                "",
                ChangeKind::Unwrapped,
                Some(&format!("/{k}")),
                format!("wrapper field {k} = {v} not carried (the AgentResult is complete)"),
            ));
        }
        changes.append(&mut n.changes);
        n.changes = changes;
        n.source = SourceShape::AgentMessage;
        return Ok(n);
    }
    let mut n = migrate(payload, &ctx, "/payload", extra, changes)?;
    n.source = SourceShape::AgentMessage;
    Ok(n)
}
