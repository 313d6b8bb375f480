//! The wire types: serde types only, the single source of the wire format
//! (the JSON Schemas and the TypeScript declarations are generated from them).

pub(crate) mod agent_result;
pub(crate) mod definition;
pub(crate) mod read;
pub(crate) mod serde_count;
pub(crate) mod status;
pub(crate) mod tool_metadata;
pub(crate) mod tool_result;

pub use agent_result::*;
pub use definition::*;
pub use status::*;
pub use tool_metadata::*;
pub use tool_result::*;

/// Which envelope: an agent's task result or a tool execution's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvelopeKind {
    /// AgentResult v1 (docs/spec.md §1).
    AgentResult,
    /// ToolResult v1 (docs/spec.md §2).
    ToolResult,
}
