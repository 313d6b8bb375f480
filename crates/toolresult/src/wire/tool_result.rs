//! ToolResult v1 (docs/spec.md §2): `ToolResult`, `ToolResultMetadata` and
//! `ToolSideEffect`, in snake_case JSON.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::wire::status::ToolStatus;
use crate::wire::tool_metadata::ToolMetadata;

/// The complete result of one tool execution (ToolResult v1, docs/spec.md §2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        title = "ToolResult",
        description = "The complete result of one tool execution (ToolResult v1, docs/spec.md §2)."
    )
)]
#[serde(deny_unknown_fields)]
pub struct ToolResult {
    /// The call that produced this result.
    pub input: ToolInput,
    /// What the tool returned: any JSON value; absent or null when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// How the execution ended.
    pub status: ToolStatus,
    /// Human-readable reason; required unless `status` is `success`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_message: Option<String>,
    /// Machine-readable reason in SCREAMING_SNAKE_CASE; required unless `status` is `success`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "schema",
        schemars(extend("pattern" = "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$"))
    )]
    pub error_code: Option<String>,
    /// What the tool showed the model, as content blocks (MCP `ContentBlock`:
    /// `text`, `image`, `audio`, `resource_link`, `resource`; for provider
    /// content MCP has no block for, `ai-sdk/file-reference` (AI SDK
    /// provider references, OpenAI file ids), `ai-sdk/custom`,
    /// `anthropic/search-result` and `anthropic/document`), each kept as
    /// given. `output` is the machine-readable result (MCP
    /// `structuredContent`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "schema",
        schemars(extend("items" = {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"type": "string", "minLength": 1}}
        }))
    )]
    pub content: Option<Vec<Map<String, Value>>>,
    /// Protocol metadata carried with the result, verbatim (MCP `_meta`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Resources the execution created, changed or deleted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_effects: Option<Vec<ToolSideEffect>>,
    /// Why the input or output failed the tool's JSON Schema (status
    /// `validation_error` or `output_validation_failed`); the output itself is
    /// kept unchanged. Paths point into `output` (or `input.parameters`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validation_issues: Option<Vec<SchemaIssue>>,
    /// Typed per-tool data a renderer can rely on (docs/spec.md §6), tagged by
    /// `tool_type`. Since schema_version 1.1.0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_metadata: Option<ToolMetadata>,
    /// Timing, resources and context.
    pub metadata: ToolResultMetadata,
    /// The version the result was written for.
    pub schema_version: ToolResultVersion,
}

/// The ToolResult schema version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum ToolResultVersion {
    /// 1.0.0.
    #[default]
    #[serde(rename = "1.0.0")]
    V1_0_0,
    /// Adds `tool_metadata`.
    #[serde(rename = "1.1.0")]
    V1_1_0,
}

impl ToolResultVersion {
    /// Every version read, oldest first. A minor version only adds optional
    /// fields (docs/spec.md §5): builders write the oldest version
    /// that holds the result, so readers of 1.0.0 keep reading what they can.
    pub const SUPPORTED: &'static [&'static str] = &["1.0.0", "1.1.0"];
    /// The version that introduced each field after 1.0.0.
    pub const FIELDS_SINCE: &'static [(&'static str, &'static str)] = &[("tool_metadata", "1.1.0")];
}

/// The tool call a result answers (docs/spec.md §2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ToolInput {
    /// The tool called.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub tool_name: String,
    /// The arguments the tool was called with.
    pub parameters: Map<String, Value>,
    /// The model API's id for the call (MCP, Anthropic `tool_use_id`, OpenAI `call_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

/// Timing, resource use and context of one execution (docs/spec.md §2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ToolResultMetadata {
    /// Unique id of this execution (UUID).
    #[cfg_attr(feature = "schema", schemars(extend("format" = "uuid")))]
    pub execution_id: String,
    /// RFC 3339.
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub started_at: String,
    /// RFC 3339; not earlier than `started_at`.
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub completed_at: String,
    /// Milliseconds; agrees with `completed_at - started_at`.
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub duration_ms: f64,
    /// Bytes of the serialized output (compact UTF-8 JSON), before any truncation.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub output_size: Option<u64>,
    /// True when the output was cut to fit a size limit (absent means false).
    #[serde(default)]
    pub output_truncated: bool,
    /// The sandbox it ran in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox_id: Option<String>,
    /// Memory, CPU and I/O figures from the sandbox.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_metrics: Option<Map<String, Value>>,
    /// Tool-specific figures such as rows processed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution_metrics: Option<Map<String, Value>>,
    /// The agent that called the tool (UUID).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("format" = "uuid")))]
    pub agent_id: Option<String>,
    /// The user it ran for (UUID).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("format" = "uuid")))]
    pub user_id: Option<String>,
    /// The batch the call was part of (UUID).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("format" = "uuid")))]
    pub batch_id: Option<String>,
    /// Position in the batch, from 0; requires `batch_id`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub batch_index: Option<u32>,
    /// Trace id across services.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correlation_id: Option<String>,
}

/// A resource the execution affected (docs/spec.md §2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ToolSideEffect {
    /// What happened to the resource.
    #[serde(rename = "type")]
    pub kind: SideEffectType,
    /// File path, entity id or URL.
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub resource: String,
    /// What happened, for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The value before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_value: Option<Value>,
    /// The value after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_value: Option<Value>,
    /// RFC 3339.
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub timestamp: String,
    /// Whether the change can be undone (absent means false).
    #[serde(default)]
    pub is_reversible: bool,
}

/// What kind of change a side effect is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SideEffectType {
    /// A resource was created.
    Created,
    /// A resource was changed.
    Modified,
    /// A resource was deleted.
    Deleted,
    /// A message was sent.
    MessageSent,
    /// An external API was called.
    ExternalApiCalled,
    /// Data left the system.
    DataExported,
}

impl SideEffectType {
    /// The wire names, in declaration order.
    pub const NAMES: [&'static str; 6] = [
        "created",
        "modified",
        "deleted",
        "message_sent",
        "external_api_called",
        "data_exported",
    ];
}

/// One way a value fails a JSON Schema (a tool's input or output schema).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SchemaIssue {
    /// JSON Pointer into the validated value (`""` is the value itself).
    pub path: String,
    /// JSON Pointer to the failing keyword, following `$ref`s as evaluated.
    pub schema_path: String,
    /// The failing keyword (`type`, `required`, `pattern`, ...); empty when
    /// no keyword applies (`missing_output`).
    pub keyword: String,
    /// Stable snake_case code: the keyword in snake_case (`min_length`,
    /// `additional_properties`), or a more precise one (`false_schema`,
    /// `one_of_multiple_valid`, `pattern_too_complex`, `missing_output`).
    pub code: String,
    /// What is wrong, for a person.
    pub message: String,
}
