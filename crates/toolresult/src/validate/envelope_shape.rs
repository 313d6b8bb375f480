//! The envelope tables: AgentResult v1 and ToolResult v1 as shapes (field
//! order is the order issues are reported in).

use crate::validate::metadata_shape::TOOL_METADATA;
use crate::validate::shape::{field, slot, Presence, Rule, Shape, Slot, CONTENT_BLOCK};
use crate::wire::agent_result::AgentResultVersion;
use crate::wire::status::{AgentStatus, ToolStatus};
use crate::wire::tool_result::{SideEffectType, ToolResultVersion};

use Presence::{Defaulted, Optional, Required};

pub(crate) const AGENT_STATUSES: &[&str] = &AgentStatus::NAMES;
pub(crate) const TOOL_STATUSES: &[&str] = &ToolStatus::NAMES;

static ARTIFACT: Shape = Shape {
    open: true,
    fields: &[
        field("name", Rule::Str, Optional),
        field("path", Rule::Str, Optional),
        field("uri", Rule::Str, Optional),
        field("type", Rule::Str, Optional),
        field("mime_type", Rule::Str, Optional),
        field("size_bytes", Rule::Count(u64::MAX), Optional),
        field("sha256", Rule::Sha256, Optional),
    ],
};

static AGENT_METRICS: Shape = Shape {
    open: false,
    fields: &[
        field("duration_ms", Rule::NonNegative, Required),
        field("tokens_used", Rule::Count(u64::MAX), Optional),
        field("api_calls", Rule::Count(u64::MAX), Optional),
        field("memory_used_bytes", Rule::Count(u64::MAX), Optional),
    ],
};

static AGENT_ERROR: Shape = Shape {
    open: false,
    fields: &[
        field("code", Rule::NonEmpty, Required),
        field("message", Rule::Str, Required),
        field("details", Rule::AnyObject, Optional),
        field("stack", Rule::Str, Optional),
        field("retryable", Rule::Bool, Defaulted),
    ],
};

/// AgentResult v1 (docs/spec.md §1). Field order is the order issues are reported in.
pub(crate) static AGENT_RESULT: Shape = Shape {
    open: false,
    fields: &[
        field(
            "version",
            Rule::Version(AgentResultVersion::SUPPORTED),
            Required,
        ),
        field("task_id", Rule::NonEmpty, Required),
        field("workflow_id", Rule::NonEmpty, Required),
        field("agent_id", Rule::NonEmpty, Required),
        field("agent_type", Rule::AgentType, Required),
        slot("success", Rule::Bool, Required, Slot::Success),
        slot("status", Rule::Enum(AGENT_STATUSES), Required, Slot::Status),
        field("action", Rule::NonEmpty, Required),
        field("result", Rule::AnyObject, Required),
        field(
            "artifacts",
            Rule::ArrayOf(&Rule::Struct(&ARTIFACT)),
            Optional,
        ),
        field("metrics", Rule::Struct(&AGENT_METRICS), Required),
        slot("error", Rule::Struct(&AGENT_ERROR), Optional, Slot::Error),
        field("warnings", Rule::ArrayOf(&Rule::Str), Optional),
        field("timestamp", Rule::Timestamp, Required),
    ],
};

pub(crate) static TOOL_INPUT: Shape = Shape {
    open: false,
    fields: &[
        field("tool_name", Rule::NonEmpty, Required),
        field("parameters", Rule::AnyObject, Required),
        field("tool_call_id", Rule::Str, Optional),
    ],
};

static SIDE_EFFECT: Shape = Shape {
    open: false,
    fields: &[
        field("type", Rule::Enum(&SideEffectType::NAMES), Required),
        field("resource", Rule::NonEmpty, Required),
        field("description", Rule::Str, Optional),
        field("previous_value", Rule::Any, Optional),
        field("new_value", Rule::Any, Optional),
        field("timestamp", Rule::Timestamp, Required),
        field("is_reversible", Rule::Bool, Defaulted),
    ],
};

static METADATA: Shape = Shape {
    open: false,
    fields: &[
        field("execution_id", Rule::Uuid, Required),
        slot("started_at", Rule::Timestamp, Required, Slot::StartedAt),
        slot("completed_at", Rule::Timestamp, Required, Slot::CompletedAt),
        slot("duration_ms", Rule::NonNegative, Required, Slot::Duration),
        field("output_size", Rule::Count(u64::MAX), Optional),
        field("output_truncated", Rule::Bool, Defaulted),
        field("sandbox_id", Rule::Str, Optional),
        field("resource_metrics", Rule::AnyObject, Optional),
        field("execution_metrics", Rule::AnyObject, Optional),
        field("agent_id", Rule::Uuid, Optional),
        field("user_id", Rule::Uuid, Optional),
        slot("batch_id", Rule::Uuid, Optional, Slot::BatchId),
        slot(
            "batch_index",
            Rule::Count(u32::MAX as u64),
            Optional,
            Slot::BatchIndex,
        ),
        field("correlation_id", Rule::Str, Optional),
    ],
};

/// ToolResult v1 (docs/spec.md §2).
pub(crate) static TOOL_RESULT: Shape = Shape {
    open: false,
    fields: &[
        slot(
            "schema_version",
            Rule::Version(ToolResultVersion::SUPPORTED),
            Required,
            Slot::SchemaVersion,
        ),
        field("input", Rule::Struct(&TOOL_INPUT), Required),
        field("output", Rule::Any, Optional),
        slot("status", Rule::Enum(TOOL_STATUSES), Required, Slot::Status),
        slot("error_message", Rule::Str, Optional, Slot::ErrorMessage),
        slot("error_code", Rule::ErrorCode, Optional, Slot::ErrorCode),
        field(
            "content",
            Rule::ArrayOf(&Rule::Struct(&CONTENT_BLOCK)),
            Optional,
        ),
        field("meta", Rule::AnyObject, Optional),
        field(
            "side_effects",
            Rule::ArrayOf(&Rule::Struct(&SIDE_EFFECT)),
            Optional,
        ),
        field(
            "validation_issues",
            Rule::ArrayOf(&Rule::Struct(&SCHEMA_ISSUE)),
            Optional,
        ),
        slot(
            "tool_metadata",
            Rule::Tagged(&TOOL_METADATA),
            Optional,
            Slot::ToolMetadata,
        ),
        field("metadata", Rule::Struct(&METADATA), Required),
    ],
};

static SCHEMA_ISSUE: Shape = Shape {
    open: false,
    fields: &[
        field("path", Rule::Str, Required),
        field("schema_path", Rule::Str, Required),
        field("keyword", Rule::Str, Required),
        field("code", Rule::NonEmpty, Required),
        field("message", Rule::Str, Required),
    ],
};

pub(crate) static AGENT_RESULT_RULE: Rule = Rule::Struct(&AGENT_RESULT);
pub(crate) static TOOL_RESULT_RULE: Rule = Rule::Struct(&TOOL_RESULT);
