//! Reading a validated ToolResult value into the typed form without serde's
//! derived `Deserialize`: the derived code of the wire types (every field's
//! visitor, monomorphized for `serde_json::Value`) was the largest single part
//! of the core wasm module (docs/internals/performance.md, "Sizes"), and the
//! value has passed the shape tables already. The rules are serde's for
//! these types, field for field: an absent or `null` `Option` is `None`,
//! `#[serde(default)]` fields may be absent, counts accept whole floats
//! (`serde_count`), unknown fields are refused. A test reads every fixture
//! both ways (tests/fixtures.rs).

use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{Map, Value};

use crate::wire::serde_count::is_whole;
use crate::wire::status::ToolStatus;
use crate::wire::tool_metadata::{
    BackgroundBashMetadata, BashMetadata, BatchMetadata, BrowserNavigateMetadata,
    BrowserScreenshotMetadata, ContextLine, CustomMetadata, DiffHunk, DiffLine, DiffLineType,
    FileEditMetadata, FileInfo, FileKind, FileMultiEditMetadata, FileReadMetadata,
    FileWriteMetadata, GlobMetadata, GrepMetadata, ImageDimensions, ImageRecognitionMetadata,
    ImageSource, McpMetadata, ProcessStatus, ProcessedType, SearchMatch, SearchResult,
    SubagentMetadata, ThinkingMetadata, TodoAction, TodoItem, TodoMetadata, TodoPriority,
    TodoStats, TodoStatus, ToolMetadata, WebFetchMetadata,
};
use crate::wire::tool_result::{
    SchemaIssue, SideEffectType, ToolInput, ToolResult, ToolResultMetadata, ToolResultVersion,
    ToolSideEffect,
};

/// A wire type read from its JSON value; `None` when the value is not one.
pub(crate) trait FromJson: Sized {
    fn from_json(v: Value) -> Option<Self>;
}

/// A ToolResult from its (validated) JSON value.
pub(crate) fn tool_result(v: Value) -> Option<ToolResult> {
    ToolResult::from_json(v)
}

impl FromJson for String {
    fn from_json(v: Value) -> Option<Self> {
        match v {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
}

impl FromJson for bool {
    fn from_json(v: Value) -> Option<Self> {
        v.as_bool()
    }
}

impl FromJson for f64 {
    fn from_json(v: Value) -> Option<Self> {
        v.as_f64()
    }
}

impl FromJson for Value {
    fn from_json(v: Value) -> Option<Self> {
        Some(v)
    }
}

impl FromJson for Map<String, Value> {
    fn from_json(v: Value) -> Option<Self> {
        match v {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(v: Value) -> Option<Self> {
        match v {
            Value::Array(items) => items.into_iter().map(T::from_json).collect(),
            _ => None,
        }
    }
}

/// The members of an object, taken one by one; what is left at the end is
/// an unknown field (`deny_unknown_fields`).
struct Members(Map<String, Value>);

// `Option<Option<T>>`: the outer `None` is a value that is not of the type,
// the inner one an `Option` field that is absent or null.
#[allow(clippy::option_option)]
impl Members {
    fn of(v: Value) -> Option<Self> {
        Map::from_json(v).map(Members)
    }

    /// A required field.
    fn req<T: FromJson>(&mut self, key: &str) -> Option<T> {
        T::from_json(self.0.remove(key)?)
    }

    /// An `Option` field: absent or `null` is `None`.
    fn opt<T: FromJson>(&mut self, key: &str) -> Option<Option<T>> {
        match self.0.remove(key) {
            None | Some(Value::Null) => Some(None),
            Some(v) => T::from_json(v).map(Some),
        }
    }

    /// A `#[serde(default)]` field: absent is the default.
    fn def<T: FromJson + Default>(&mut self, key: &str) -> Option<T> {
        self.0.remove(key).map_or(Some(T::default()), T::from_json)
    }

    /// An optional count (`serde_count::option`): a whole number in range.
    fn opt_count<T: TryFrom<u64>>(&mut self, key: &str) -> Option<Option<T>> {
        match self.0.remove(key) {
            None | Some(Value::Null) => Some(None),
            Some(Value::Number(n)) => {
                let whole = match (n.as_u64(), n.as_f64()) {
                    (Some(u), _) => u,
                    (None, Some(f)) if is_whole(f) => f as u64,
                    _ => return None,
                };
                T::try_from(whole).ok().map(Some)
            }
            Some(_) => None,
        }
    }

    /// A required count (`serde_count::count`).
    fn count<T: TryFrom<u64>>(&mut self, key: &str) -> Option<T> {
        self.opt_count(key)?
    }

    /// An optional whole number of either sign (`serde_count::option_int`).
    fn opt_int(&mut self, key: &str) -> Option<Option<i64>> {
        match self.0.remove(key) {
            None | Some(Value::Null) => Some(None),
            Some(Value::Number(n)) => match (n.as_i64(), n.as_f64()) {
                (Some(i), _) => Some(Some(i)),
                (None, Some(f)) if is_whole(f.abs()) && f.abs() < 9.2e18 => Some(Some(f as i64)),
                _ => None,
            },
            Some(_) => None,
        }
    }

    /// `value` when every member was read.
    fn done<T>(self, value: T) -> Option<T> {
        self.0.is_empty().then_some(value)
    }
}

/// A struct read member by member: each field with how it is read (the
/// `Members` method: `req`, `opt`, `def`, `count`, `opt_count`) and its JSON
/// name when that is not the field's.
macro_rules! members {
    (@key $field:ident) => { stringify!($field) };
    (@key $field:ident $key:literal) => { $key };
    ($ty:ident { $($field:ident $(as $key:literal)?: $how:ident,)* }) => {
        impl FromJson for $ty {
            fn from_json(v: Value) -> Option<Self> {
                let mut m = Members::of(v)?;
                let r = $ty { $($field: m.$how(members!(@key $field $($key)?))?,)* };
                m.done(r)
            }
        }
    };
}

/// A unit enum read from its snake_case name.
macro_rules! named {
    ($ty:ty { $($name:literal => $variant:expr,)* }) => {
        impl FromJson for $ty {
            fn from_json(v: Value) -> Option<Self> {
                match v.as_str()? {
                    $($name => Some($variant),)*
                    _ => None,
                }
            }
        }
    };
}

named!(ToolResultVersion { "1.0.0" => ToolResultVersion::V1_0_0, "1.1.0" => ToolResultVersion::V1_1_0, });
named!(SideEffectType {
    "created" => SideEffectType::Created,
    "modified" => SideEffectType::Modified,
    "deleted" => SideEffectType::Deleted,
    "message_sent" => SideEffectType::MessageSent,
    "external_api_called" => SideEffectType::ExternalApiCalled,
    "data_exported" => SideEffectType::DataExported,
});
named!(DiffLineType { "context" => DiffLineType::Context, "added" => DiffLineType::Added, "removed" => DiffLineType::Removed, });
named!(FileKind { "file" => FileKind::File, "directory" => FileKind::Directory, });
named!(ProcessStatus { "running" => ProcessStatus::Running, "stopped" => ProcessStatus::Stopped, });
named!(ProcessedType {
    "saved" => ProcessedType::Saved,
    "markdown" => ProcessedType::Markdown,
    "ai_extracted" => ProcessedType::AiExtracted,
});
named!(ImageSource { "local" => ImageSource::Local, "remote" => ImageSource::Remote, });
named!(TodoAction { "read" => TodoAction::Read, "write" => TodoAction::Write, });
named!(TodoStatus {
    "pending" => TodoStatus::Pending,
    "in_progress" => TodoStatus::InProgress,
    "completed" => TodoStatus::Completed,
});
named!(TodoPriority { "high" => TodoPriority::High, "medium" => TodoPriority::Medium, "low" => TodoPriority::Low, });

impl FromJson for ToolStatus {
    fn from_json(v: Value) -> Option<Self> {
        ToolStatus::parse(v.as_str()?)
    }
}

members!(ToolResult {
    input: req,
    output: opt,
    status: req,
    error_message: opt,
    error_code: opt,
    content: opt,
    meta: opt,
    side_effects: opt,
    validation_issues: opt,
    tool_metadata: opt,
    metadata: req,
    schema_version: req,
});

members!(ToolInput {
    tool_name: req,
    parameters: req,
    tool_call_id: opt,
});

members!(ToolResultMetadata {
    execution_id: req,
    started_at: req,
    completed_at: req,
    duration_ms: req,
    output_size: opt_count,
    output_truncated: def,
    sandbox_id: opt,
    resource_metrics: opt,
    execution_metrics: opt,
    agent_id: opt,
    user_id: opt,
    batch_id: opt,
    batch_index: opt_count,
    correlation_id: opt,
});

members!(ToolSideEffect {
    kind as "type": req,
    resource: req,
    description: opt,
    previous_value: opt,
    new_value: opt,
    timestamp: req,
    is_reversible: def,
});

members!(SchemaIssue {
    path: req,
    schema_path: req,
    keyword: req,
    code: req,
    message: req,
});

impl FromJson for ToolMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let Value::Object(mut members) = v else {
            return None;
        };
        let Value::String(tool_type) = members.remove("tool_type")? else {
            return None;
        };
        let body = Value::Object(members);
        Some(match tool_type.as_str() {
            "file_read" => ToolMetadata::FileRead(FromJson::from_json(body)?),
            "file_write" => ToolMetadata::FileWrite(FromJson::from_json(body)?),
            "file_edit" => ToolMetadata::FileEdit(FromJson::from_json(body)?),
            "file_multi_edit" => ToolMetadata::FileMultiEdit(FromJson::from_json(body)?),
            "grep" => ToolMetadata::Grep(FromJson::from_json(body)?),
            "glob" => ToolMetadata::Glob(FromJson::from_json(body)?),
            "bash" => ToolMetadata::Bash(FromJson::from_json(body)?),
            "background_bash" => ToolMetadata::BackgroundBash(FromJson::from_json(body)?),
            "web_fetch" => ToolMetadata::WebFetch(FromJson::from_json(body)?),
            "image_recognition" => ToolMetadata::ImageRecognition(FromJson::from_json(body)?),
            "thinking" => ToolMetadata::Thinking(FromJson::from_json(body)?),
            "todo" => ToolMetadata::Todo(FromJson::from_json(body)?),
            "subagent" => ToolMetadata::Subagent(FromJson::from_json(body)?),
            "batch" => ToolMetadata::Batch(FromJson::from_json(body)?),
            "browser_navigate" => ToolMetadata::BrowserNavigate(FromJson::from_json(body)?),
            "browser_screenshot" => ToolMetadata::BrowserScreenshot(FromJson::from_json(body)?),
            "mcp" => ToolMetadata::Mcp(FromJson::from_json(body)?),
            "custom" => ToolMetadata::Custom(FromJson::from_json(body)?),
            _ => return None,
        })
    }
}

members!(FileReadMetadata {
    file_path: req,
    offset: count,
    lines: req,
    language: opt,
    total_lines: opt_count,
    truncated: def,
});

members!(FileWriteMetadata {
    file_path: req,
    content: req,
    size: count,
    language: opt,
});

members!(FileEditMetadata {
    file_path: req,
    start_line: opt_count,
    end_line: opt_count,
    old_content: opt,
    new_content: opt,
    diff_hunks: req,
    language: opt,
});

members!(FileMultiEditMetadata {
    file_path: req,
    edit_count: count,
    diff_hunks: req,
    language: opt,
});

members!(DiffHunk {
    old_start: count,
    old_count: count,
    new_start: count,
    new_count: count,
    lines: req,
});

members!(DiffLine {
    kind as "type": req,
    content: req,
    old_line: opt_count,
    new_line: opt_count,
});

members!(GrepMetadata {
    pattern: req,
    path: opt,
    include: opt,
    results: req,
    truncated: def,
    truncated_reason: opt,
});

members!(SearchResult {
    file_path: req,
    language: opt,
    matches: req,
});

members!(SearchMatch {
    line_number: count,
    content: req,
    match_start: count,
    match_end: count,
    context: opt,
});

members!(ContextLine {
    line_number: count,
    content: req,
});

members!(GlobMetadata {
    pattern: req,
    path: opt,
    files: req,
    truncated: def,
});

members!(FileInfo {
    path: req,
    kind as "type": req,
    size: opt_count,
    mod_time: opt,
    language: opt,
});

members!(BashMetadata {
    command: req,
    exit_code: opt_int,
    output: opt,
    stdout: opt,
    stderr: opt,
    working_dir: opt,
    duration_ms: opt,
    timed_out: def,
});

members!(BackgroundBashMetadata {
    command: req,
    pid: count,
    log_path: opt,
    status: req,
    start_time: req,
});

members!(WebFetchMetadata {
    url: req,
    content_type: opt,
    size: opt_count,
    saved_path: opt,
    prompt: opt,
    processed_type: req,
});

members!(ImageRecognitionMetadata {
    image_path: req,
    image_type: req,
    prompt: req,
    analysis: req,
    image_size: opt,
});

members!(ImageDimensions {
    width: count,
    height: count,
});

members!(ThinkingMetadata {
    thought: req,
    category: opt,
});

members!(TodoMetadata {
    action: req,
    todo_list: req,
    statistics: req,
});

members!(TodoItem {
    id: req,
    content: req,
    status: req,
    priority: opt,
    created_at: opt,
    updated_at: opt,
});

members!(TodoStats {
    total: count,
    completed: count,
    in_progress: count,
    pending: count,
});

members!(SubagentMetadata {
    question: req,
    model_strength: opt,
    response: req,
});

members!(BatchMetadata {
    description: opt,
    sub_results: req,
    duration_ms: opt,
    success_count: count,
    failure_count: count,
});

members!(BrowserNavigateMetadata {
    url: req,
    final_url: opt,
    title: opt,
    load_time_ms: opt,
});

members!(BrowserScreenshotMetadata {
    output_path: req,
    width: count,
    height: count,
    format: req,
    full_page: def,
    file_size: opt_count,
});

members!(McpMetadata {
    mcp_tool_name: req,
    server_name: opt,
    parameters: opt,
    content: req,
    duration_ms: opt,
});

members!(CustomMetadata {
    name: req,
    data: req,
});
