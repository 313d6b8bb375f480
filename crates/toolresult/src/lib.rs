//! # toolresult
//!
//! One schema for the results of tool executions and agent tasks, and one
//! implementation that builds and validates them.
//!
//! - [`AgentResult`]: seed 004's `AgentResultSchema` (version 1.0.0).
//! - [`ToolResult`]: seed 000's `ToolResult` with its metadata and side effects
//!   (schema_version 1.0.0).
//!
//! Validation reports every issue with a JSON Pointer and a stable code, and
//! checks meaning as well as shape (`success` agrees with `status`, failures
//! carry errors, timestamps are ordered and agree with durations).
//!
//! ```
//! use toolresult::{validate_agent_result, ValidationOptions, IssueCode};
//!
//! let issues = validate_agent_result(r#"{"task_id": "t1"}"#, &ValidationOptions::default());
//! assert!(issues.has(IssueCode::MissingField));
//! ```
//!
//! The crate is `#![no_std]` with `alloc`; the default `std` feature only adds
//! `std::error::Error` impls. It has no clock and no random source: builders
//! take them in a [`Stamp`].

#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod agent_result;
pub mod builder;
mod check;
pub mod convert;
pub mod definition;
#[cfg(feature = "std")]
pub mod diff;
pub mod document;
pub mod issue;
pub mod json;
pub mod language;
pub mod locate;
mod meaning;
mod metadata_meaning;
pub mod migrate;
pub mod options;
pub mod preview;
pub mod reference;
pub mod render;
pub mod reply;
pub mod screen;
mod serde_count;
mod shape;
pub mod status;
pub mod store;
mod stream;
pub mod summarize;
pub mod tape;
pub mod tool_metadata;
mod tool_metadata_shape;
pub mod tool_result;
pub mod truncate;
pub mod validate;

pub use agent_result::{
    AgentError, AgentMetrics, AgentResult, AgentResultVersion, AgentType, Artifact,
};
pub use builder::{create_failure, create_success, Stamp};
pub use check::{is_hyphenated_uuid, is_screaming_snake_case, json_type, parse_timestamp};
pub use definition::ToolDefinition;
pub use issue::{Issue, IssueCode, IssueLevel, Issues};
pub use language::detect_language;
pub use options::ValidationOptions;
pub use preview::{result_preview, result_text};
pub use reference::{to_reference, ToolResultReference};
pub use status::{AgentStatus, StatusCategory, StatusInfo, ToolStatus};
pub use store::{HistoryQuery, ResultStore, RetentionPolicy};
pub use summarize::summarize;
pub use tool_metadata::ToolMetadata;
pub use tool_result::{
    SchemaIssue, SideEffectType, ToolInput, ToolResult, ToolResultMetadata, ToolResultVersion,
    ToolSideEffect,
};
pub use validate::{
    parse_agent_result, parse_tool_result, validate_agent_result, validate_tool_result,
    EnvelopeKind, Validator,
};

/// Status information for a status name. `kind` picks the status set when a
/// name is in both (`success`, `failed`, `timeout`, `cancelled`).
pub fn status_info(name: &str, kind: EnvelopeKind) -> Option<StatusInfo> {
    match kind {
        EnvelopeKind::ToolResult => ToolStatus::parse(name).map(ToolStatus::info),
        EnvelopeKind::AgentResult => AgentStatus::parse(name).map(AgentStatus::info),
    }
}
