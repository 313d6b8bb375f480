//! References to stored results (docs/spec.md §12): what stays in the conversation
//! when the full result is stored aside — who ran, the status, the size, a
//! summary and a preview of whole lines — and where to get the rest.

use alloc::string::String;
use serde::{Deserialize, Serialize};

use crate::bound::preview::preview_result;
use crate::storage::summarize::summarize;
use crate::wire::status::ToolStatus;
use crate::wire::tool_result::ToolResult;

pub use crate::bound::preview::TRUNCATION_NOTE;

/// The reference message: a stored result's reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ToolResultReference {
    /// The call's id (`input.tool_call_id`, or the execution_id when the call had none).
    pub tool_call_id: String,
    /// The tool that ran.
    pub tool_name: String,
    /// How it ended.
    pub status: ToolStatus,
    /// Size, summary and preview.
    pub metadata: ReferenceMetadata,
    /// Where the whole result is stored.
    pub result_ref: ResultRef,
}

/// What a reference says about the result it stands for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ReferenceMetadata {
    /// Bytes of the full output (compact JSON), before any truncation.
    pub size_bytes: u64,
    /// One line: what ran, on what, with what outcome.
    pub summary: String,
    /// The first whole lines of what the result says (docs/guide/storage.md "Previews").
    pub truncated_preview: String,
}

/// Where the full result is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ResultRef {
    /// Always `tool_results`.
    pub storage_type: String,
    /// The conversation the result belongs to.
    pub dialog_id: String,
    /// The call the result answers.
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

/// Bytes of the output as compact JSON (`output_size` when the result has it).
pub fn output_bytes(result: &ToolResult) -> u64 {
    result.metadata.output_size.unwrap_or_else(|| {
        result.output.as_ref().map_or(0, |v| {
            serde_json::to_string(v).map_or(0, |s| s.len() as u64)
        })
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
    let shown = preview_result(result, preview_chars);
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
