//! AgentResult v1: docs/spec.md §1, the one contract every agent
//! publishes and every orchestrator consumes.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::wire::status::AgentStatus;

/// The result of one agent task (docs/spec.md §1, version 1.0.0).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        title = "AgentResult",
        description = "The result of one agent task (AgentResult v1, docs/spec.md §1)."
    )
)]
#[serde(deny_unknown_fields)]
pub struct AgentResult {
    /// The task this result answers.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub task_id: String,
    /// The workflow the task belongs to.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub workflow_id: String,
    /// The agent that produced the result.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub agent_id: String,
    /// The kind of agent.
    pub agent_type: AgentType,
    /// True exactly when `status` is `success`.
    pub success: bool,
    /// Where the task stands.
    pub status: AgentStatus,
    /// What the agent did, e.g. `scaffold_project`.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub action: String,
    /// The task's payload (wrapped: never spread over the top level).
    pub result: Map<String, Value>,
    /// Files and other outputs the task produced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifacts: Option<Vec<Artifact>>,
    /// What the task cost.
    pub metrics: AgentMetrics,
    /// Present when the task failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<AgentError>,
    /// Non-fatal problems.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<String>>,
    /// When the result was produced (RFC 3339).
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub timestamp: String,
    /// The contract's version.
    pub version: AgentResultVersion,
}

/// The AgentResult schema version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum AgentResultVersion {
    /// 1.0.0.
    #[default]
    #[serde(rename = "1.0.0")]
    V1_0_0,
}

impl AgentResultVersion {
    /// The versions this library reads.
    pub const SUPPORTED: &'static [&'static str] = &["1.0.0"];
}

/// Execution telemetry of an agent task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct AgentMetrics {
    /// Wall time of the task in milliseconds (fractions allowed).
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub duration_ms: f64,
    /// Model tokens used.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub tokens_used: Option<u64>,
    /// API calls made.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub api_calls: Option<u64>,
    /// Peak memory, in bytes.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub memory_used_bytes: Option<u64>,
}

/// Why an agent task failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct AgentError {
    /// A machine-readable code.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub code: String,
    /// A human-readable description.
    pub message: String,
    /// Anything more that explains the error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Map<String, Value>>,
    /// A stack trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<String>,
    /// Whether retrying the task may succeed (absent means false).
    #[serde(default)]
    pub retryable: bool,
}

/// A file or other output of a task. The listed fields are checked when
/// present; any other field is kept as it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Artifact {
    /// A name for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A file path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// A URI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
    /// What kind of artifact (free text).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Its media type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its size in bytes.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub size_bytes: Option<u64>,
    /// sha256 of the content, 64 lowercase hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("pattern" = "^[0-9a-f]{64}$")))]
    pub sha256: Option<String>,
    /// Any other fields, kept as they are.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The kind of agent. Five are named; validation accepts others only when
/// asked to (`allowUnknownAgentTypes` / `extraAgentTypes`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AgentType {
    /// Creates a project's skeleton.
    Scaffold,
    /// Checks work.
    Validation,
    /// Runs end-to-end tests.
    E2e,
    /// Runs integration tests.
    Integration,
    /// Deploys.
    Deployment,
    /// Another type, accepted only with an option.
    Other(String),
}

impl AgentType {
    /// The five known type names.
    pub const KNOWN: [&'static str; 5] =
        ["scaffold", "validation", "e2e", "integration", "deployment"];

    /// The wire name.
    pub fn as_str(&self) -> &str {
        match self {
            AgentType::Scaffold => "scaffold",
            AgentType::Validation => "validation",
            AgentType::E2e => "e2e",
            AgentType::Integration => "integration",
            AgentType::Deployment => "deployment",
            AgentType::Other(s) => s,
        }
    }

    /// The type named `name` (`Other` when unknown).
    pub fn from_name(name: &str) -> Self {
        match name {
            "scaffold" => AgentType::Scaffold,
            "validation" => AgentType::Validation,
            "e2e" => AgentType::E2e,
            "integration" => AgentType::Integration,
            "deployment" => AgentType::Deployment,
            other => AgentType::Other(String::from(other)),
        }
    }
}

impl Serialize for AgentType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for AgentType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Ok(AgentType::from_name(&name))
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for AgentType {
    fn schema_name() -> alloc::borrow::Cow<'static, str> {
        "AgentType".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "The kind of agent (docs/spec.md §1). Other names validate only with the allowUnknownAgentTypes or extraAgentTypes option.",
            "type": "string",
            "enum": AgentType::KNOWN,
        })
    }
}
