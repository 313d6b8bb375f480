//! Validation options (the limits themselves are in [`crate::limits`]).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::issue::{brief_text, Issue, IssueCode, Issues};

use crate::limits::{
    DEFAULT_DURATION_TOLERANCE_MS, DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_ISSUES,
    MAX_DEPTH_CEILING,
};

/// Options for validating envelopes. JSON field names are camelCase because
/// they come from JavaScript option objects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[non_exhaustive]
pub struct ValidationOptions {
    /// Largest accepted input, in bytes of UTF-8 JSON text.
    pub max_bytes: usize,
    /// Deepest accepted nesting of arrays and objects (1..=128).
    pub max_depth: usize,
    /// Most issues reported for one input; one `too_many_issues` issue follows.
    pub max_issues: usize,
    /// Accept any non-empty `agent_type`, not only the five of docs/spec.md §1.
    pub allow_unknown_agent_types: bool,
    /// Further `agent_type` values to accept besides the five of docs/spec.md §1.
    pub extra_agent_types: Vec<String>,
    /// How far `duration_ms` may differ from `completed_at - started_at`.
    pub duration_tolerance_ms: f64,
}

impl Default for ValidationOptions {
    fn default() -> Self {
        ValidationOptions {
            max_bytes: DEFAULT_MAX_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            max_issues: DEFAULT_MAX_ISSUES,
            allow_unknown_agent_types: false,
            extra_agent_types: Vec::new(),
            duration_tolerance_ms: DEFAULT_DURATION_TOLERANCE_MS,
        }
    }
}

impl ValidationOptions {
    /// The size and depth limits the JSON parsers apply.
    pub fn parse_limits(&self) -> crate::json::ParseLimits {
        crate::json::ParseLimits {
            max_bytes: self.max_bytes,
            max_depth: self.max_depth,
        }
    }

    /// Checks the option values themselves; returns a message per problem.
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if self.max_depth == 0 || self.max_depth > MAX_DEPTH_CEILING {
            out.push((
                "/maxDepth",
                alloc::format!(
                    "maxDepth must be between 1 and {MAX_DEPTH_CEILING}, got {}",
                    self.max_depth
                ),
            ));
        }
        if self.max_bytes == 0 {
            out.push(("/maxBytes", String::from("maxBytes must be at least 1")));
        }
        if self.max_issues == 0 {
            out.push(("/maxIssues", String::from("maxIssues must be at least 1")));
        }
        if !(self.duration_tolerance_ms >= 0.0 && self.duration_tolerance_ms.is_finite()) {
            out.push((
                "/durationToleranceMs",
                String::from("durationToleranceMs must be a finite number >= 0"),
            ));
        }
        out
    }
}

/// Options or context objects from JSON text (`""` gives the defaults); a
/// bad one is an `invalid_options` issue naming `what`.
pub fn options_from_json<T: DeserializeOwned + Default>(
    json: &str,
    what: &str,
) -> Result<T, Issues> {
    if json.is_empty() {
        return Ok(T::default());
    }
    serde_json::from_str(json).map_err(|e| {
        Issues::from(Issue::new(
            "",
            IssueCode::InvalidOptions,
            format!("invalid {what}: {}", brief_text(&format!("{e}"))),
        ))
    })
}
