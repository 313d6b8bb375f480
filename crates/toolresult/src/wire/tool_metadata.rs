//! Typed per-tool data (docs/spec.md §6): what a renderer can rely on instead of
//! parsing `output`. A ToolResult 1.1.0 may carry one `tool_metadata` object,
//! tagged by `tool_type`; each kind has the fields docs/spec.md §6 gives it, in
//! snake_case. Tools that fit no kind use `custom` with a `name` and free
//! `data` (checked against the tool's `metadata_schema` by `ToolRegistry`).
//!
//! Units, stated once: line numbers count from 1; `match_start` / `match_end`
//! are UTF-16 code-unit offsets into the match's `content` (what JavaScript's
//! `String.prototype.slice` takes), end exclusive; durations are
//! milliseconds; sizes are bytes.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::wire::tool_result::ToolResult;

/// Per-tool data, tagged by `tool_type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "tool_type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ToolMetadata {
    FileRead(FileReadMetadata),
    FileWrite(FileWriteMetadata),
    FileEdit(FileEditMetadata),
    FileMultiEdit(FileMultiEditMetadata),
    Grep(GrepMetadata),
    Glob(GlobMetadata),
    Bash(BashMetadata),
    BackgroundBash(BackgroundBashMetadata),
    WebFetch(WebFetchMetadata),
    ImageRecognition(ImageRecognitionMetadata),
    Thinking(ThinkingMetadata),
    Todo(TodoMetadata),
    Subagent(SubagentMetadata),
    Batch(BatchMetadata),
    BrowserNavigate(BrowserNavigateMetadata),
    BrowserScreenshot(BrowserScreenshotMetadata),
    Mcp(McpMetadata),
    Custom(CustomMetadata),
}

impl ToolMetadata {
    /// Every `tool_type`, in declaration order.
    pub const TOOL_TYPES: [&'static str; 18] = [
        "file_read",
        "file_write",
        "file_edit",
        "file_multi_edit",
        "grep",
        "glob",
        "bash",
        "background_bash",
        "web_fetch",
        "image_recognition",
        "thinking",
        "todo",
        "subagent",
        "batch",
        "browser_navigate",
        "browser_screenshot",
        "mcp",
        "custom",
    ];
}

/// A file's lines as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FileReadMetadata {
    pub file_path: String,
    /// Line number of the first line in `lines` (from 1).
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub offset: u64,
    /// The lines read, without their line endings.
    pub lines: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Lines in the whole file, when known.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub total_lines: Option<u64>,
    /// More lines exist than `lines` holds.
    #[serde(default)]
    pub truncated: bool,
}

/// A file written whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FileWriteMetadata {
    pub file_path: String,
    pub content: String,
    /// Bytes written.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// One edit of a file, with its unified-diff hunks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FileEditMetadata {
    pub file_path: String,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub start_line: Option<u64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub end_line: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_content: Option<String>,
    pub diff_hunks: Vec<DiffHunk>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// Several edits of one file; `diff_hunks` is the whole change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FileMultiEditMetadata {
    pub file_path: String,
    /// How many edits were applied.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub edit_count: u64,
    pub diff_hunks: Vec<DiffHunk>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// A unified-diff hunk. `old_count` / `new_count` agree with its lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DiffHunk {
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub old_start: u64,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub old_count: u64,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub new_start: u64,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub new_count: u64,
    pub lines: Vec<DiffLine>,
}

/// One line of a hunk. `old_line` is set for context and removed lines,
/// `new_line` for context and added lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DiffLine {
    #[serde(rename = "type")]
    pub kind: DiffLineType,
    /// The line without its line ending.
    pub content: String,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub old_line: Option<u64>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub new_line: Option<u64>,
}

/// What a diff line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DiffLineType {
    Context,
    Added,
    Removed,
}

impl DiffLineType {
    pub const NAMES: [&'static str; 3] = ["context", "added", "removed"];
}

/// A content search, grouped by file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GrepMetadata {
    pub pattern: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The file filter (glob), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include: Option<String>,
    pub results: Vec<SearchResult>,
    /// Not every match is listed.
    #[serde(default)]
    pub truncated: bool,
    /// Why not, when `truncated` (`max_matches`, `max_files`, `timeout`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated_reason: Option<String>,
}

/// The matches in one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SearchResult {
    pub file_path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    pub matches: Vec<SearchMatch>,
}

/// One matching line. `match_start..match_end` is the match within
/// `content`, in UTF-16 code units (JavaScript string offsets).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SearchMatch {
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub line_number: u64,
    pub content: String,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub match_start: u64,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub match_end: u64,
    /// Lines around the match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Vec<ContextLine>>,
}

/// A line shown around a match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ContextLine {
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub line_number: u64,
    pub content: String,
}

/// Files matching a glob.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GlobMetadata {
    pub pattern: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    pub files: Vec<FileInfo>,
    #[serde(default)]
    pub truncated: bool,
}

/// A file or directory found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FileInfo {
    pub path: String,
    #[serde(rename = "type")]
    pub kind: FileKind,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub size: Option<u64>,
    /// RFC 3339.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub mod_time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// File or directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    File,
    Directory,
}

/// A shell command that ran to its end (or its timeout).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BashMetadata {
    pub command: String,
    /// Absent when the command never exited (timed out, killed).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option_int"
    )]
    pub exit_code: Option<i64>,
    /// Interleaved output, when the streams were not kept apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdout: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_dir: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub duration_ms: Option<f64>,
    /// The command hit its time limit; the result's status is then `timeout`.
    #[serde(default)]
    pub timed_out: bool,
}

/// A command started in the background.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BackgroundBashMetadata {
    pub command: String,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub pid: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_path: Option<String>,
    pub status: ProcessStatus,
    /// RFC 3339.
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub start_time: String,
}

/// A background process's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ProcessStatus {
    Running,
    Stopped,
}

/// A fetched web page or file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WebFetchMetadata {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub size: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    pub processed_type: ProcessedType,
}

/// What became of fetched content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ProcessedType {
    Saved,
    Markdown,
    AiExtracted,
}

/// An image described by a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ImageRecognitionMetadata {
    pub image_path: String,
    pub image_type: ImageSource,
    pub prompt: String,
    pub analysis: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_size: Option<ImageDimensions>,
}

/// Where an image came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ImageSource {
    Local,
    Remote,
}

/// Pixels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ImageDimensions {
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub width: u64,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub height: u64,
}

/// A thought the agent wrote down.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ThinkingMetadata {
    pub thought: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

/// A todo list read or written; `statistics` agree with `todo_list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TodoMetadata {
    pub action: TodoAction,
    pub todo_list: Vec<TodoItem>,
    pub statistics: TodoStats,
}

/// Read or write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TodoAction {
    Read,
    Write,
}

/// One todo.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TodoItem {
    pub id: String,
    pub content: String,
    pub status: TodoStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<TodoPriority>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub created_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub updated_at: Option<String>,
}

/// A todo's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    Pending,
    InProgress,
    Completed,
}

/// A todo's priority.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TodoPriority {
    High,
    Medium,
    Low,
}

/// Counts of `todo_list` by status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TodoStats {
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub total: u64,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub completed: u64,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub in_progress: u64,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub pending: u64,
}

/// A question handed to another agent, and its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SubagentMetadata {
    pub question: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_strength: Option<String>,
    pub response: String,
}

/// Tool calls run as one batch; the counts agree with the nested statuses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BatchMetadata {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The nested results, each a whole ToolResult.
    pub sub_results: Vec<ToolResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub duration_ms: Option<f64>,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub success_count: u64,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub failure_count: u64,
}

/// A page opened in a browser.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BrowserNavigateMetadata {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub load_time_ms: Option<f64>,
}

/// A screenshot saved to a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BrowserScreenshotMetadata {
    pub output_path: String,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub width: u64,
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub height: u64,
    /// `png`, `jpeg`, `webp`.
    pub format: String,
    #[serde(default)]
    pub full_page: bool,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub file_size: Option<u64>,
}

/// A tool of an MCP server; `content` is MCP content blocks as given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct McpMetadata {
    /// The tool's name on its server.
    pub mcp_tool_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Map<String, Value>>,
    #[cfg_attr(
        feature = "schema",
        schemars(extend("items" = {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"type": "string", "minLength": 1}}
        }))
    )]
    pub content: Vec<Map<String, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub duration_ms: Option<f64>,
}

/// Any other tool: a name for the kind and free data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CustomMetadata {
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub name: String,
    pub data: Value,
}
