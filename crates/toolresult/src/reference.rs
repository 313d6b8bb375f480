//! References to stored results (seed 003): what stays in the conversation
//! when the full result is stored aside — who ran, the status, the size, a
//! summary and a preview of whole lines — and where to get the rest.

use alloc::format;
use alloc::string::String;
use serde::{Deserialize, Serialize};

use crate::status::ToolStatus;
use crate::summarize::summarize;
use crate::tool_result::ToolResult;
use crate::truncate::preview;

/// Characters of output kept in a reference's preview (seed 003 raised it
/// from 200 to 500 so models stop re-running tools to see what they got).
pub const DEFAULT_PREVIEW_CHARS: usize = 500;

/// Where a preview that left text out says so.
pub const TRUNCATION_NOTE: &str = "\n… (truncated; call get_tool_result for the full result)";

/// Seed 003's tool message: a stored result's reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ToolResultReference {
    /// The call's id (`input.tool_call_id`, or the execution_id when the call had none).
    pub tool_call_id: String,
    pub tool_name: String,
    pub status: ToolStatus,
    pub metadata: ReferenceMetadata,
    pub result_ref: ResultRef,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ReferenceMetadata {
    /// Bytes of the full output (compact JSON), before any truncation.
    pub size_bytes: u64,
    /// One line: what ran, on what, with what outcome.
    pub summary: String,
    /// The first whole lines of the output (JSON outputs pretty-printed).
    pub truncated_preview: String,
}

/// Where the full result is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ResultRef {
    /// Always `tool_results`.
    pub storage_type: String,
    pub dialog_id: String,
    pub tool_call_id: String,
}

/// The id a result is stored and referenced under.
pub fn call_id(result: &ToolResult) -> &str {
    result
        .input
        .tool_call_id
        .as_deref()
        .unwrap_or(&result.metadata.execution_id)
}

/// The output as text for previews: strings as they are, other values as
/// pretty JSON (so they have lines), failures as their error message.
pub fn output_text(result: &ToolResult) -> String {
    match result.output.as_ref() {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Null) | None => result.error_message.clone().unwrap_or_default(),
        Some(v) => serde_json::to_string_pretty(v).unwrap_or_default(),
    }
}

/// Bytes of the output as compact JSON (`output_size` when the result has it).
pub fn output_bytes(result: &ToolResult) -> u64 {
    result.metadata.output_size.unwrap_or_else(|| {
        result
            .output
            .as_ref()
            .map(|v| {
                serde_json::to_string(v)
                    .map(|s| s.len() as u64)
                    .unwrap_or(0)
            })
            .unwrap_or(0)
    })
}

/// Builds the reference for `result` stored under `dialog_id`. `summary`
/// overrides the built-in one (a summarizer registered from JS).
pub fn to_reference(
    result: &ToolResult,
    dialog_id: &str,
    summary: Option<String>,
    preview_chars: usize,
) -> ToolResultReference {
    let id = String::from(call_id(result));
    let (mut shown, cut) = preview(&output_text(result), preview_chars);
    if cut {
        shown = format!("{shown}{TRUNCATION_NOTE}");
    }
    ToolResultReference {
        tool_call_id: id.clone(),
        tool_name: result.input.tool_name.clone(),
        status: result.status,
        metadata: ReferenceMetadata {
            size_bytes: output_bytes(result),
            summary: summary.unwrap_or_else(|| summarize(result)),
            truncated_preview: shown,
        },
        result_ref: ResultRef {
            storage_type: String::from("tool_results"),
            dialog_id: String::from(dialog_id),
            tool_call_id: id,
        },
    }
}
