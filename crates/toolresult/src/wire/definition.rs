//! Tool definitions (docs/spec.md §7; the MCP `Tool` shape is
//! accepted as well): a tool's name and the JSON Schemas of its input and
//! output.

use alloc::string::String;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A tool and the JSON Schemas its calls and results follow.
///
/// Both spellings are accepted: `input_schema` / `output_schema` (docs/spec.md §7)
/// and `inputSchema` / `outputSchema` (MCP `Tool`). Other MCP fields (`title`,
/// `annotations`, `icons`, `_meta`, ...) are kept in `extra` and not
/// interpreted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ToolDefinition {
    /// The tool's name.
    pub name: String,
    /// What the tool does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the call's `parameters`.
    #[serde(
        default,
        alias = "inputSchema",
        skip_serializing_if = "Option::is_none"
    )]
    pub input_schema: Option<Value>,
    /// JSON Schema of a successful call's `output` (MCP: `structuredContent`).
    #[serde(
        default,
        alias = "outputSchema",
        skip_serializing_if = "Option::is_none"
    )]
    pub output_schema: Option<Value>,
    /// JSON Schema of `tool_metadata.data` in this tool's results when their
    /// `tool_type` is `custom` (docs/spec.md §6).
    #[serde(
        default,
        alias = "metadataSchema",
        skip_serializing_if = "Option::is_none"
    )]
    pub metadata_schema: Option<Value>,
    /// Any other fields of the definition, unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
