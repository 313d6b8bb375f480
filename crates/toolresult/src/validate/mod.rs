//! Envelope validation: shape (what the generated JSON Schema says) and meaning
//! (the values agree with each other), every issue reported with its path.

pub(crate) mod check;
mod envelope_shape;
mod meaning;
mod metadata_meaning;
mod metadata_shape;
pub(crate) mod options;
mod pass;
mod shape;
mod text;
mod value;

use alloc::format;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::issue::{Issue, IssueCode, Issues};
use crate::json::{self, ParseLimits};
use crate::validate::check::Checker;

use crate::wire::agent_result::AgentResult;
use crate::wire::tool_result::ToolResult;
pub use crate::wire::EnvelopeKind;
pub use check::{is_hyphenated_uuid, is_screaming_snake_case, json_type, parse_timestamp};
pub use options::{options_from_json, ValidationOptions};

/// A validator for one envelope kind with fixed options: build once, use many
/// times.
///
/// ```
/// use toolresult::{EnvelopeKind, IssueCode, ValidationOptions, Validator};
///
/// let validator = Validator::new(EnvelopeKind::ToolResult, ValidationOptions::default()).unwrap();
/// assert!(!validator.is_valid_str(r#"{"status": "success"}"#));
/// let issues = validator.check_str(r#"{"status": "success"}"#);
/// assert!(issues.has(IssueCode::MissingField));
/// assert!(issues.iter().any(|issue| issue.path == "/input"));
/// ```
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

    /// Which envelope it checks.
    pub fn kind(&self) -> EnvelopeKind {
        self.kind
    }

    /// The options it checks with.
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

    /// Whether JSON text is a valid envelope.
    pub fn is_valid_str(&self, text: &str) -> bool {
        match pass::check(text.as_bytes(), self.kind, &self.options) {
            pass::Outcome::Valid => true,
            pass::Outcome::Invalid(_) => false,
            pass::Outcome::Input => text::accepts(text, self.kind, &self.options),
        }
    }

    /// Every issue in JSON text; empty when it is a valid envelope.
    pub fn check_str(&self, text: &str) -> Issues {
        self.check_bytes(text.as_bytes())
    }

    /// The diagnostic path alone: every issue, in one streaming pass.
    pub fn diagnose_str(&self, text: &str) -> Issues {
        text::collect(text, self.kind, &self.options)
    }

    /// Every issue in UTF-8 JSON bytes; empty when they are a valid envelope.
    /// One pass over the bytes checks the text and the shape and records
    /// every shape and meaning issue; text that breaks an input rule (not
    /// JSON, a duplicate key, …) is then read by the diagnostic walk, which
    /// names the rule and where.
    pub fn check_bytes(&self, bytes: &[u8]) -> Issues {
        match pass::check(bytes, self.kind, &self.options) {
            pass::Outcome::Valid => return Issues::default(),
            pass::Outcome::Invalid(issues) => return issues,
            pass::Outcome::Input => {}
        }
        match json::utf8_text(bytes, self.limits()) {
            Ok(text) => self.diagnose_str(text),
            Err(issue) => Issues::from(issue),
        }
    }

    /// Every issue in an already parsed value (the same tables and checks as
    /// the streaming path, walked over the value).
    pub fn check_value(&self, value: &Value) -> Issues {
        let mut c = Checker::new(&self.options);
        match self.kind {
            EnvelopeKind::AgentResult => value::check_agent_result(&mut c, value),
            EnvelopeKind::ToolResult => value::check_tool_result(&mut c, value),
        }
        c.finish()
    }

    /// Parses JSON text strictly and checks the envelope: the value, or every
    /// issue. The typed `parse_*` functions convert what this returns; callers
    /// that pass the result on as JSON use it as it is.
    pub fn parse_checked(&self, text: &str) -> Result<Value, Issues> {
        let value = self.parse_json(text)?;
        let issues = self.check_value(&value);
        if !issues.is_empty() {
            return Err(issues);
        }
        Ok(value)
    }
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
    convert(Validator::new(EnvelopeKind::AgentResult, options.clone())?.parse_checked(text)?)
}

/// Parses and validates a ToolResult.
pub fn parse_tool_result(text: &str, options: &ValidationOptions) -> Result<ToolResult, Issues> {
    convert_tool_result(
        Validator::new(EnvelopeKind::ToolResult, options.clone())?.parse_checked(text)?,
    )
}

/// Converts an already validated ToolResult value into its wire type, with
/// the reader of `wire::read` rather than serde's derived code (which the
/// wasm modules would otherwise carry).
pub(crate) fn convert_tool_result(value: Value) -> Result<ToolResult, Issues> {
    crate::wire::read::tool_result(value).ok_or_else(|| {
        Issues::from(Issue::new(
            "",
            IssueCode::InvalidType,
            "internal: validated value did not convert",
        ))
    })
}
