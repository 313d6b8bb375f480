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

impl FromJson for ToolResult {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = ToolResult {
            input: m.req("input")?,
            output: m.opt("output")?,
            status: m.req("status")?,
            error_message: m.opt("error_message")?,
            error_code: m.opt("error_code")?,
            content: m.opt("content")?,
            meta: m.opt("meta")?,
            side_effects: m.opt("side_effects")?,
            validation_issues: m.opt("validation_issues")?,
            tool_metadata: m.opt("tool_metadata")?,
            metadata: m.req("metadata")?,
            schema_version: m.req("schema_version")?,
        };
        m.done(r)
    }
}

impl FromJson for ToolInput {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = ToolInput {
            tool_name: m.req("tool_name")?,
            parameters: m.req("parameters")?,
            tool_call_id: m.opt("tool_call_id")?,
        };
        m.done(r)
    }
}

impl FromJson for ToolResultMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = ToolResultMetadata {
            execution_id: m.req("execution_id")?,
            started_at: m.req("started_at")?,
            completed_at: m.req("completed_at")?,
            duration_ms: m.req("duration_ms")?,
            output_size: m.opt_count("output_size")?,
            output_truncated: m.def("output_truncated")?,
            sandbox_id: m.opt("sandbox_id")?,
            resource_metrics: m.opt("resource_metrics")?,
            execution_metrics: m.opt("execution_metrics")?,
            agent_id: m.opt("agent_id")?,
            user_id: m.opt("user_id")?,
            batch_id: m.opt("batch_id")?,
            batch_index: m.opt_count("batch_index")?,
            correlation_id: m.opt("correlation_id")?,
        };
        m.done(r)
    }
}

impl FromJson for ToolSideEffect {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = ToolSideEffect {
            kind: m.req("type")?,
            resource: m.req("resource")?,
            description: m.opt("description")?,
            previous_value: m.opt("previous_value")?,
            new_value: m.opt("new_value")?,
            timestamp: m.req("timestamp")?,
            is_reversible: m.def("is_reversible")?,
        };
        m.done(r)
    }
}

impl FromJson for SchemaIssue {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = SchemaIssue {
            path: m.req("path")?,
            schema_path: m.req("schema_path")?,
            keyword: m.req("keyword")?,
            code: m.req("code")?,
            message: m.req("message")?,
        };
        m.done(r)
    }
}

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

impl FromJson for FileReadMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = FileReadMetadata {
            file_path: m.req("file_path")?,
            offset: m.count("offset")?,
            lines: m.req("lines")?,
            language: m.opt("language")?,
            total_lines: m.opt_count("total_lines")?,
            truncated: m.def("truncated")?,
        };
        m.done(r)
    }
}

impl FromJson for FileWriteMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = FileWriteMetadata {
            file_path: m.req("file_path")?,
            content: m.req("content")?,
            size: m.count("size")?,
            language: m.opt("language")?,
        };
        m.done(r)
    }
}

impl FromJson for FileEditMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = FileEditMetadata {
            file_path: m.req("file_path")?,
            start_line: m.opt_count("start_line")?,
            end_line: m.opt_count("end_line")?,
            old_content: m.opt("old_content")?,
            new_content: m.opt("new_content")?,
            diff_hunks: m.req("diff_hunks")?,
            language: m.opt("language")?,
        };
        m.done(r)
    }
}

impl FromJson for FileMultiEditMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = FileMultiEditMetadata {
            file_path: m.req("file_path")?,
            edit_count: m.count("edit_count")?,
            diff_hunks: m.req("diff_hunks")?,
            language: m.opt("language")?,
        };
        m.done(r)
    }
}

impl FromJson for DiffHunk {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = DiffHunk {
            old_start: m.count("old_start")?,
            old_count: m.count("old_count")?,
            new_start: m.count("new_start")?,
            new_count: m.count("new_count")?,
            lines: m.req("lines")?,
        };
        m.done(r)
    }
}

impl FromJson for DiffLine {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = DiffLine {
            kind: m.req("type")?,
            content: m.req("content")?,
            old_line: m.opt_count("old_line")?,
            new_line: m.opt_count("new_line")?,
        };
        m.done(r)
    }
}

impl FromJson for GrepMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = GrepMetadata {
            pattern: m.req("pattern")?,
            path: m.opt("path")?,
            include: m.opt("include")?,
            results: m.req("results")?,
            truncated: m.def("truncated")?,
            truncated_reason: m.opt("truncated_reason")?,
        };
        m.done(r)
    }
}

impl FromJson for SearchResult {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = SearchResult {
            file_path: m.req("file_path")?,
            language: m.opt("language")?,
            matches: m.req("matches")?,
        };
        m.done(r)
    }
}

impl FromJson for SearchMatch {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = SearchMatch {
            line_number: m.count("line_number")?,
            content: m.req("content")?,
            match_start: m.count("match_start")?,
            match_end: m.count("match_end")?,
            context: m.opt("context")?,
        };
        m.done(r)
    }
}

impl FromJson for ContextLine {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = ContextLine {
            line_number: m.count("line_number")?,
            content: m.req("content")?,
        };
        m.done(r)
    }
}

impl FromJson for GlobMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = GlobMetadata {
            pattern: m.req("pattern")?,
            path: m.opt("path")?,
            files: m.req("files")?,
            truncated: m.def("truncated")?,
        };
        m.done(r)
    }
}

impl FromJson for FileInfo {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = FileInfo {
            path: m.req("path")?,
            kind: m.req("type")?,
            size: m.opt_count("size")?,
            mod_time: m.opt("mod_time")?,
            language: m.opt("language")?,
        };
        m.done(r)
    }
}

impl FromJson for BashMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = BashMetadata {
            command: m.req("command")?,
            exit_code: m.opt_int("exit_code")?,
            output: m.opt("output")?,
            stdout: m.opt("stdout")?,
            stderr: m.opt("stderr")?,
            working_dir: m.opt("working_dir")?,
            duration_ms: m.opt("duration_ms")?,
            timed_out: m.def("timed_out")?,
        };
        m.done(r)
    }
}

impl FromJson for BackgroundBashMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = BackgroundBashMetadata {
            command: m.req("command")?,
            pid: m.count("pid")?,
            log_path: m.opt("log_path")?,
            status: m.req("status")?,
            start_time: m.req("start_time")?,
        };
        m.done(r)
    }
}

impl FromJson for WebFetchMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = WebFetchMetadata {
            url: m.req("url")?,
            content_type: m.opt("content_type")?,
            size: m.opt_count("size")?,
            saved_path: m.opt("saved_path")?,
            prompt: m.opt("prompt")?,
            processed_type: m.req("processed_type")?,
        };
        m.done(r)
    }
}

impl FromJson for ImageRecognitionMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = ImageRecognitionMetadata {
            image_path: m.req("image_path")?,
            image_type: m.req("image_type")?,
            prompt: m.req("prompt")?,
            analysis: m.req("analysis")?,
            image_size: m.opt("image_size")?,
        };
        m.done(r)
    }
}

impl FromJson for ImageDimensions {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = ImageDimensions {
            width: m.count("width")?,
            height: m.count("height")?,
        };
        m.done(r)
    }
}

impl FromJson for ThinkingMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = ThinkingMetadata {
            thought: m.req("thought")?,
            category: m.opt("category")?,
        };
        m.done(r)
    }
}

impl FromJson for TodoMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = TodoMetadata {
            action: m.req("action")?,
            todo_list: m.req("todo_list")?,
            statistics: m.req("statistics")?,
        };
        m.done(r)
    }
}

impl FromJson for TodoItem {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = TodoItem {
            id: m.req("id")?,
            content: m.req("content")?,
            status: m.req("status")?,
            priority: m.opt("priority")?,
            created_at: m.opt("created_at")?,
            updated_at: m.opt("updated_at")?,
        };
        m.done(r)
    }
}

impl FromJson for TodoStats {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = TodoStats {
            total: m.count("total")?,
            completed: m.count("completed")?,
            in_progress: m.count("in_progress")?,
            pending: m.count("pending")?,
        };
        m.done(r)
    }
}

impl FromJson for SubagentMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = SubagentMetadata {
            question: m.req("question")?,
            model_strength: m.opt("model_strength")?,
            response: m.req("response")?,
        };
        m.done(r)
    }
}

impl FromJson for BatchMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = BatchMetadata {
            description: m.opt("description")?,
            sub_results: m.req("sub_results")?,
            duration_ms: m.opt("duration_ms")?,
            success_count: m.count("success_count")?,
            failure_count: m.count("failure_count")?,
        };
        m.done(r)
    }
}

impl FromJson for BrowserNavigateMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = BrowserNavigateMetadata {
            url: m.req("url")?,
            final_url: m.opt("final_url")?,
            title: m.opt("title")?,
            load_time_ms: m.opt("load_time_ms")?,
        };
        m.done(r)
    }
}

impl FromJson for BrowserScreenshotMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = BrowserScreenshotMetadata {
            output_path: m.req("output_path")?,
            width: m.count("width")?,
            height: m.count("height")?,
            format: m.req("format")?,
            full_page: m.def("full_page")?,
            file_size: m.opt_count("file_size")?,
        };
        m.done(r)
    }
}

impl FromJson for McpMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = McpMetadata {
            mcp_tool_name: m.req("mcp_tool_name")?,
            server_name: m.opt("server_name")?,
            parameters: m.opt("parameters")?,
            content: m.req("content")?,
            duration_ms: m.opt("duration_ms")?,
        };
        m.done(r)
    }
}

impl FromJson for CustomMetadata {
    fn from_json(v: Value) -> Option<Self> {
        let mut m = Members::of(v)?;
        let r = CustomMetadata {
            name: m.req("name")?,
            data: m.req("data")?,
        };
        m.done(r)
    }
}
