//! Envelope validation: shape (what the generated JSON Schema says) and meaning
//! (the values agree with each other), every issue reported with its path.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::agent_result::{AgentResult, AgentResultVersion, AgentType};
use crate::check::Checker;
use crate::issue::{Issue, IssueCode, Issues};
use crate::json::{self, ParseLimits};
use crate::options::ValidationOptions;
use crate::status::{AgentStatus, ToolStatus};
use crate::tool_result::{SideEffectType, ToolResult, ToolResultVersion};

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
        ParseLimits {
            max_bytes: self.options.max_bytes,
            max_depth: self.options.max_depth,
        }
    }

    /// Parses JSON text strictly, without checking the envelope.
    pub fn parse_json(&self, text: &str) -> Result<Value, Issues> {
        json::parse_str(text, self.limits()).map_err(Issues::from)
    }

    /// Parses UTF-8 JSON bytes strictly, without checking the envelope.
    pub fn parse_json_bytes(&self, bytes: &[u8]) -> Result<Value, Issues> {
        json::parse_bytes(bytes, self.limits()).map_err(Issues::from)
    }

    /// Every issue in JSON text; empty when it is a valid envelope.
    pub fn check_str(&self, text: &str) -> Issues {
        match self.parse_json(text) {
            Ok(value) => self.check_value(&value),
            Err(issues) => issues,
        }
    }

    /// Every issue in UTF-8 JSON bytes; empty when they are a valid envelope.
    pub fn check_bytes(&self, bytes: &[u8]) -> Issues {
        match self.parse_json_bytes(bytes) {
            Ok(value) => self.check_value(&value),
            Err(issues) => issues,
        }
    }

    /// Every issue in an already parsed value.
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

/// Validates an already parsed ToolResult value and converts it.
pub fn tool_result_from_value(
    value: Value,
    options: &ValidationOptions,
) -> Result<ToolResult, Issues> {
    let v = Validator::new(EnvelopeKind::ToolResult, options.clone())?;
    into_typed(&v, value)
}

// ---------------------------------------------------------------- AgentResult

const AGENT_RESULT_FIELDS: &[&str] = &[
    "task_id",
    "workflow_id",
    "agent_id",
    "agent_type",
    "success",
    "status",
    "action",
    "result",
    "artifacts",
    "metrics",
    "error",
    "warnings",
    "timestamp",
    "version",
];
const AGENT_STATUS_NAMES: &[&str] = &[
    "pending",
    "queued",
    "running",
    "success",
    "failed",
    "timeout",
    "cancelled",
];

fn check_agent_result(c: &mut Checker, v: &Value) {
    let Some(o) = c.object(v) else { return };
    c.known_fields(o, AGENT_RESULT_FIELDS);
    c.required(o, "version", |c, v| {
        c.version(v, AgentResultVersion::SUPPORTED)
    });
    c.required(o, "task_id", |c, v| c.non_empty_string(v));
    c.required(o, "workflow_id", |c, v| c.non_empty_string(v));
    c.required(o, "agent_id", |c, v| c.non_empty_string(v));
    c.required(o, "agent_type", check_agent_type);
    let success = c.required(o, "success", |c, v| c.boolean(v));
    let status = c
        .required(o, "status", |c, v| c.one_of(v, AGENT_STATUS_NAMES))
        .and_then(AgentStatus::parse);
    c.required(o, "action", |c, v| c.non_empty_string(v));
    c.required(o, "result", |c, v| c.object(v));
    c.optional(o, "artifacts", |c, v| {
        let items = c.array(v)?;
        for (i, item) in items.iter().enumerate() {
            c.at_index(i, |c| check_artifact(c, item));
        }
        Some(())
    });
    c.required(o, "metrics", check_agent_metrics);
    let error = c.optional(o, "error", check_agent_error);
    c.optional(o, "warnings", |c, v| c.string_array(v));
    c.required(o, "timestamp", |c, v| c.timestamp(v));

    if let (Some(success), Some(status)) = (success, status) {
        if success != status.is_success() {
            c.at("success", |c| {
                c.report(
                    IssueCode::SuccessStatusMismatch,
                    format!(
                        "success is {success} but status is `{}`; success must be true exactly when status is `success`",
                        status.as_str()
                    ),
                )
            });
        }
    }
    let error_given = o.get("error").is_some_and(|e| !e.is_null());
    match status {
        Some(AgentStatus::Failed) if !error_given => c.at("error", |c| {
            c.report(
                IssueCode::MissingError,
                "status `failed` requires an `error` object with code and message",
            )
        }),
        Some(AgentStatus::Success) if error.is_some() => c.at("error", |c| {
            c.report(
                IssueCode::UnexpectedError,
                "status `success` must not carry an `error`; use `warnings` for non-fatal problems",
            )
        }),
        _ => {}
    }
}

fn check_agent_type(c: &mut Checker, v: &Value) -> Option<()> {
    let name = c.non_empty_string(v)?;
    let opts = c.opts;
    let known = !matches!(AgentType::from_name(name), AgentType::Other(_));
    if known || opts.allow_unknown_agent_types || opts.extra_agent_types.iter().any(|t| t == name) {
        return Some(());
    }
    let mut allowed: Vec<&str> = AgentType::KNOWN.to_vec();
    allowed.extend(opts.extra_agent_types.iter().map(String::as_str));
    c.report(
        IssueCode::InvalidEnum,
        format!(
            "`{name}` is not one of: {} (pass allowUnknownAgentTypes or extraAgentTypes to accept others)",
            allowed.join(", ")
        ),
    );
    None
}

fn check_agent_metrics(c: &mut Checker, v: &Value) -> Option<()> {
    let o = c.object(v)?;
    c.known_fields(
        o,
        &[
            "duration_ms",
            "tokens_used",
            "api_calls",
            "memory_used_bytes",
        ],
    );
    c.required(o, "duration_ms", |c, v| c.non_negative_number(v));
    for key in ["tokens_used", "api_calls", "memory_used_bytes"] {
        c.optional(o, key, |c, v| c.count(v, u64::MAX));
    }
    Some(())
}

fn check_agent_error(c: &mut Checker, v: &Value) -> Option<()> {
    let o = c.object(v)?;
    c.known_fields(o, &["code", "message", "details", "stack", "retryable"]);
    c.required(o, "code", |c, v| c.non_empty_string(v));
    c.required(o, "message", |c, v| c.string(v));
    c.optional(o, "details", |c, v| c.object(v));
    c.optional(o, "stack", |c, v| c.string(v));
    defaulted(c, o, "retryable", |c, v| c.boolean(v));
    Some(())
}

fn check_artifact(c: &mut Checker, v: &Value) -> Option<()> {
    let o = c.object(v)?;
    for key in ["name", "path", "uri", "type", "mime_type"] {
        c.optional(o, key, |c, v| c.string(v));
    }
    c.optional(o, "size_bytes", |c, v| c.count(v, u64::MAX));
    c.optional(o, "sha256", |c, v| c.sha256(v));
    Some(())
}

/// A field with a default value: absent is fine, `null` is not (the schema
/// gives it a type and a default, not a null).
fn defaulted<'v, R>(
    c: &mut Checker,
    o: &'v Map<String, Value>,
    key: &str,
    f: impl FnOnce(&mut Checker, &'v Value) -> Option<R>,
) -> Option<R> {
    match o.get(key) {
        None => None,
        Some(v) => c.at(key, |c| f(c, v)),
    }
}

// ----------------------------------------------------------------- ToolResult

const TOOL_RESULT_FIELDS: &[&str] = &[
    "input",
    "output",
    "status",
    "error_message",
    "error_code",
    "side_effects",
    "metadata",
    "schema_version",
];
const METADATA_FIELDS: &[&str] = &[
    "execution_id",
    "started_at",
    "completed_at",
    "duration_ms",
    "output_size",
    "output_truncated",
    "sandbox_id",
    "resource_metrics",
    "execution_metrics",
    "agent_id",
    "user_id",
    "batch_id",
    "batch_index",
    "correlation_id",
];

fn tool_status_names() -> [&'static str; 14] {
    ToolStatus::ALL.map(ToolStatus::as_str)
}

fn check_tool_result(c: &mut Checker, v: &Value) {
    let Some(o) = c.object(v) else { return };
    c.known_fields(o, TOOL_RESULT_FIELDS);
    c.required(o, "schema_version", |c, v| {
        c.version(v, ToolResultVersion::SUPPORTED)
    });
    c.required(o, "input", check_tool_input);
    let status = c
        .required(o, "status", |c, v| c.one_of(v, &tool_status_names()))
        .and_then(ToolStatus::parse);
    let message = c.optional(o, "error_message", |c, v| c.string(v));
    let code = c.optional(o, "error_code", |c, v| c.error_code(v));
    c.optional(o, "side_effects", |c, v| {
        let items = c.array(v)?;
        for (i, item) in items.iter().enumerate() {
            c.at_index(i, |c| check_side_effect(c, item));
        }
        Some(())
    });
    c.required(o, "metadata", check_metadata);

    let Some(status) = status else { return };
    let given = |key: &str| o.get(key).is_some_and(|v| !v.is_null());
    if status.is_success() {
        for key in ["error_code", "error_message"] {
            if given(key) {
                c.at(key, |c| {
                    c.report(
                        IssueCode::UnexpectedError,
                        format!("status `success` must not carry `{key}`"),
                    )
                });
            }
        }
    } else {
        for (key, ok) in [
            ("error_code", code.is_some() || given("error_code")),
            ("error_message", message.is_some() || given("error_message")),
        ] {
            if !ok {
                c.at(key, |c| {
                    c.report(
                        IssueCode::MissingError,
                        format!(
                            "status `{}` requires `{key}` (failed results say why they failed)",
                            status.as_str()
                        ),
                    )
                });
            }
        }
    }
}

fn check_tool_input(c: &mut Checker, v: &Value) -> Option<()> {
    let o = c.object(v)?;
    c.known_fields(o, &["tool_name", "parameters", "tool_call_id"]);
    c.required(o, "tool_name", |c, v| c.non_empty_string(v));
    c.required(o, "parameters", |c, v| c.object(v));
    c.optional(o, "tool_call_id", |c, v| c.string(v));
    Some(())
}

fn check_metadata(c: &mut Checker, v: &Value) -> Option<()> {
    let o = c.object(v)?;
    c.known_fields(o, METADATA_FIELDS);
    c.required(o, "execution_id", |c, v| c.uuid(v));
    let started = c.required(o, "started_at", |c, v| c.timestamp(v));
    let completed = c.required(o, "completed_at", |c, v| c.timestamp(v));
    let duration = c.required(o, "duration_ms", |c, v| c.non_negative_number(v));
    c.optional(o, "output_size", |c, v| c.count(v, u64::MAX));
    defaulted(c, o, "output_truncated", |c, v| c.boolean(v));
    c.optional(o, "sandbox_id", |c, v| c.string(v));
    c.optional(o, "resource_metrics", |c, v| c.object(v));
    c.optional(o, "execution_metrics", |c, v| c.object(v));
    for key in ["agent_id", "user_id", "batch_id"] {
        c.optional(o, key, |c, v| c.uuid(v));
    }
    let batch_index = c.optional(o, "batch_index", |c, v| c.count(v, u64::from(u32::MAX)));
    c.optional(o, "correlation_id", |c, v| c.string(v));

    if let (Some(started), Some(completed)) = (started, completed) {
        let elapsed_ms = (completed - started).as_seconds_f64() * 1000.0;
        if elapsed_ms < 0.0 {
            c.at("completed_at", |c| {
                c.report(
                    IssueCode::TimeOrder,
                    format!("completed_at is {} ms before started_at", -elapsed_ms),
                )
            });
        } else if let Some(duration) = duration {
            let tolerance = c.opts.duration_tolerance_ms;
            if (duration - elapsed_ms).abs() > tolerance {
                c.at("duration_ms", |c| {
                    c.report(
                        IssueCode::DurationMismatch,
                        format!(
                            "duration_ms is {duration} but completed_at - started_at is {elapsed_ms} ms (tolerance {tolerance} ms)"
                        ),
                    )
                });
            }
        }
    }
    if batch_index.is_some() && o.get("batch_id").is_none_or(Value::is_null) {
        c.at("batch_index", |c| {
            c.report(
                IssueCode::BatchIndexWithoutBatch,
                "batch_index is set but batch_id is not",
            )
        });
    }
    Some(())
}

fn check_side_effect(c: &mut Checker, v: &Value) -> Option<()> {
    let o = c.object(v)?;
    c.known_fields(
        o,
        &[
            "type",
            "resource",
            "description",
            "previous_value",
            "new_value",
            "timestamp",
            "is_reversible",
        ],
    );
    c.required(o, "type", |c, v| c.one_of(v, &SideEffectType::NAMES));
    c.required(o, "resource", |c, v| c.non_empty_string(v));
    c.optional(o, "description", |c, v| c.string(v));
    c.required(o, "timestamp", |c, v| c.timestamp(v));
    defaulted(c, o, "is_reversible", |c, v| c.boolean(v));
    Some(())
}
