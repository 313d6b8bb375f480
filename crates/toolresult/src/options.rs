//! Validation options and the documented input limits.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Default `max_bytes`: 64 MiB of JSON text. Tool outputs are bounded at 10 MiB
/// (seed 000 §5.2); the rest is headroom for the envelope and escaping.
pub const DEFAULT_MAX_BYTES: usize = 64 * 1024 * 1024;
/// Default and ceiling for `max_depth`. The ceiling keeps every recursive walk
/// (ours and the JSON parser's) far from the wasm stack limit.
pub const DEFAULT_MAX_DEPTH: usize = 128;
pub const MAX_DEPTH_CEILING: usize = 128;
/// Default `max_issues`: enough to see every problem in a hand-written result
/// without letting a hostile input make the report itself huge.
pub const DEFAULT_MAX_ISSUES: usize = 100;
/// Default `duration_tolerance_ms`: RFC 3339 timestamps are often written with
/// whole seconds, so a duration can legitimately differ from their difference
/// by up to one second.
pub const DEFAULT_DURATION_TOLERANCE_MS: f64 = 1000.0;

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
    /// Accept any non-empty `agent_type`, not only the five of seed 004.
    pub allow_unknown_agent_types: bool,
    /// Further `agent_type` values to accept besides the five of seed 004.
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
