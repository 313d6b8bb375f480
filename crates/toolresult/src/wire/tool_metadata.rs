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
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "tool_type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ToolMetadata {
    /// A file was read: which lines came back.
    FileRead(FileReadMetadata),
    /// A file was written whole.
    FileWrite(FileWriteMetadata),
    /// A file was edited once: the change as diff hunks.
    FileEdit(FileEditMetadata),
    /// A file was edited several times in one call.
    FileMultiEdit(FileMultiEditMetadata),
    /// A content search: matches grouped by file.
    Grep(GrepMetadata),
    /// A file-name search: the files and folders found.
    Glob(GlobMetadata),
    /// A shell command that ran to its end (or timed out).
    Bash(BashMetadata),
    /// A shell command started in the background.
    BackgroundBash(BackgroundBashMetadata),
    /// A URL was fetched.
    WebFetch(WebFetchMetadata),
    /// An image was analysed by a model.
    ImageRecognition(ImageRecognitionMetadata),
    /// A thought the agent wrote down.
    Thinking(ThinkingMetadata),
    /// The todo list was read or written.
    Todo(TodoMetadata),
    /// A question answered by another agent.
    Subagent(SubagentMetadata),
    /// Several tool calls run as one; each result is nested whole.
    Batch(BatchMetadata),
    /// A browser went to a URL.
    BrowserNavigate(BrowserNavigateMetadata),
    /// A browser took a screenshot.
    BrowserScreenshot(BrowserScreenshotMetadata),
    /// A call to a tool of an MCP server.
    Mcp(McpMetadata),
    /// Any other tool: a name and free-form data.
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

// `Deserialize` is written out rather than derived: serde's derived internally
// tagged enums buffer every value through its private `Content` type, which
// monomorphizes every kind's deserializer a second time (about 145 KB of wasm;
// docs/internals/modules.md §1).
impl<'de> Deserialize<'de> for ToolMetadata {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        // The object, then its kind by `tool_type`; the rest of the object is
        // that kind's (with `deny_unknown_fields`), as with the derived form.
        let mut members = Map::<String, Value>::deserialize(d)?;
        let tool_type = match members.remove("tool_type") {
            Some(Value::String(name)) => name,
            Some(_) => return Err(D::Error::custom("`tool_type` is not a string")),
            None => return Err(D::Error::missing_field("tool_type")),
        };
        let body = Value::Object(members);
        fn kind<T: serde::de::DeserializeOwned, E: serde::de::Error>(body: Value) -> Result<T, E> {
            serde_json::from_value(body).map_err(E::custom)
        }
        Ok(match tool_type.as_str() {
            "file_read" => ToolMetadata::FileRead(kind(body)?),
            "file_write" => ToolMetadata::FileWrite(kind(body)?),
            "file_edit" => ToolMetadata::FileEdit(kind(body)?),
            "file_multi_edit" => ToolMetadata::FileMultiEdit(kind(body)?),
            "grep" => ToolMetadata::Grep(kind(body)?),
            "glob" => ToolMetadata::Glob(kind(body)?),
            "bash" => ToolMetadata::Bash(kind(body)?),
            "background_bash" => ToolMetadata::BackgroundBash(kind(body)?),
            "web_fetch" => ToolMetadata::WebFetch(kind(body)?),
            "image_recognition" => ToolMetadata::ImageRecognition(kind(body)?),
            "thinking" => ToolMetadata::Thinking(kind(body)?),
            "todo" => ToolMetadata::Todo(kind(body)?),
            "subagent" => ToolMetadata::Subagent(kind(body)?),
            "batch" => ToolMetadata::Batch(kind(body)?),
            "browser_navigate" => ToolMetadata::BrowserNavigate(kind(body)?),
            "browser_screenshot" => ToolMetadata::BrowserScreenshot(kind(body)?),
            "mcp" => ToolMetadata::Mcp(kind(body)?),
            "custom" => ToolMetadata::Custom(kind(body)?),
            other => return Err(D::Error::unknown_variant(other, &Self::TOOL_TYPES)),
        })
    }
}

/// A file's lines as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FileReadMetadata {
    /// Path of the file, as the tool was given it.
    pub file_path: String,
    /// Line number of the first line in `lines` (from 1).
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub offset: u64,
    /// The lines read, without their line endings.
    pub lines: Vec<String>,
    /// Language of the content (`detect_language` names), for highlighting.
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
    /// Path of the file, as the tool was given it.
    pub file_path: String,
    /// The content written.
    pub content: String,
    /// Bytes written.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub size: u64,
    /// Language of the content (`detect_language` names), for highlighting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// One edit of a file, with its unified-diff hunks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FileEditMetadata {
    /// Path of the file, as the tool was given it.
    pub file_path: String,
    /// First line the edit touched (from 1).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub start_line: Option<u64>,
    /// Last line the edit touched (from 1).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub end_line: Option<u64>,
    /// The text replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_content: Option<String>,
    /// The text put in its place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_content: Option<String>,
    /// The change, as unified-diff hunks.
    pub diff_hunks: Vec<DiffHunk>,
    /// Language of the content (`detect_language` names), for highlighting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// Several edits of one file; `diff_hunks` is the whole change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FileMultiEditMetadata {
    /// Path of the file, as the tool was given it.
    pub file_path: String,
    /// How many edits were applied.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub edit_count: u64,
    /// The change, as unified-diff hunks.
    pub diff_hunks: Vec<DiffHunk>,
    /// Language of the content (`detect_language` names), for highlighting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// A unified-diff hunk. `old_count` / `new_count` agree with its lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DiffHunk {
    /// First line of the hunk in the old text (from 1).
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub old_start: u64,
    /// Lines of the old text the hunk covers (context and removed).
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub old_count: u64,
    /// First line of the hunk in the new text (from 1).
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub new_start: u64,
    /// Lines of the new text the hunk covers (context and added).
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub new_count: u64,
    /// The hunk's lines, in order.
    pub lines: Vec<DiffLine>,
}

/// One line of a hunk. `old_line` is set for context and removed lines,
/// `new_line` for context and added lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DiffLine {
    /// Whether the line is unchanged, added or removed.
    #[serde(rename = "type")]
    pub kind: DiffLineType,
    /// The line without its line ending.
    pub content: String,
    /// Its number in the old text (absent for added lines).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub old_line: Option<u64>,
    /// Its number in the new text (absent for removed lines).
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
    /// Unchanged, shown for context.
    Context,
    /// Only in the new text.
    Added,
    /// Only in the old text.
    Removed,
}

impl DiffLineType {
    /// The wire names, in declaration order.
    pub const NAMES: [&'static str; 3] = ["context", "added", "removed"];
}

/// A content search, grouped by file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GrepMetadata {
    /// The pattern searched for.
    pub pattern: String,
    /// Where the search ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The file filter (glob), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include: Option<String>,
    /// Matches grouped by file.
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
    /// The file the matches are in.
    pub file_path: String,
    /// Language of the content (`detect_language` names), for highlighting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Its matching lines.
    pub matches: Vec<SearchMatch>,
}

/// One matching line. `match_start..match_end` is the match within
/// `content`, in UTF-16 code units (JavaScript string offsets).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SearchMatch {
    /// Line number of the match (from 1).
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub line_number: u64,
    /// The whole line.
    pub content: String,
    /// Where the match starts in `content`, in UTF-16 code units.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub match_start: u64,
    /// Where the match ends in `content` (exclusive), in UTF-16 code units.
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
    /// Line number (from 1).
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub line_number: u64,
    /// The line.
    pub content: String,
}

/// Files matching a glob.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GlobMetadata {
    /// The glob pattern.
    pub pattern: String,
    /// Where the search ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// What was found.
    pub files: Vec<FileInfo>,
    /// More was found than is listed.
    #[serde(default)]
    pub truncated: bool,
}

/// A file or directory found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FileInfo {
    /// Path of the entry.
    pub path: String,
    /// File or directory.
    #[serde(rename = "type")]
    pub kind: FileKind,
    /// Size in bytes.
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
    /// Language of the content (`detect_language` names), for highlighting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// File or directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    /// A file.
    File,
    /// A directory.
    Directory,
}

/// A shell command that ran to its end (or its timeout).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BashMetadata {
    /// The command line.
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
    /// Standard output, when kept apart from stderr.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdout: Option<String>,
    /// Standard error, when kept apart from stdout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// The directory it ran in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_dir: Option<String>,
    /// How long it ran, in milliseconds.
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
    /// The command line.
    pub command: String,
    /// Process id.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub pid: u64,
    /// Where its output is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_path: Option<String>,
    /// Whether it is still running.
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
    /// Still running.
    Running,
    /// No longer running.
    Stopped,
}

/// A fetched web page or file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WebFetchMetadata {
    /// The URL fetched.
    pub url: String,
    /// The response's media type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// Size of the response body in bytes.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::wire::serde_count::option"
    )]
    pub size: Option<u64>,
    /// Where the body was saved, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_path: Option<String>,
    /// What the model was asked to extract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// What was done with the body.
    pub processed_type: ProcessedType,
}

/// What became of fetched content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ProcessedType {
    /// Saved to a file as it came.
    Saved,
    /// Converted to markdown.
    Markdown,
    /// Read by a model, which answered `prompt`.
    AiExtracted,
}

/// An image described by a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ImageRecognitionMetadata {
    /// Path or URL of the image.
    pub image_path: String,
    /// Whether the image is local or remote.
    pub image_type: ImageSource,
    /// What the model was asked.
    pub prompt: String,
    /// What the model answered.
    pub analysis: String,
    /// The image's size in pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_size: Option<ImageDimensions>,
}

/// Where an image came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ImageSource {
    /// A local file.
    Local,
    /// A URL.
    Remote,
}

/// Pixels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ImageDimensions {
    /// Width in pixels.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub width: u64,
    /// Height in pixels.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub height: u64,
}

/// A thought the agent wrote down.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ThinkingMetadata {
    /// The thought.
    pub thought: String,
    /// What kind of thought (free text, e.g. `planning`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

/// A todo list read or written; `statistics` agree with `todo_list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TodoMetadata {
    /// Whether the list was read or written.
    pub action: TodoAction,
    /// The list after the call.
    pub todo_list: Vec<TodoItem>,
    /// Counts by status (checked against `todo_list`).
    pub statistics: TodoStats,
}

/// Read or write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TodoAction {
    /// The list was read.
    Read,
    /// The list was written.
    Write,
}

/// One todo.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TodoItem {
    /// The item's id.
    pub id: String,
    /// What is to be done.
    pub content: String,
    /// Where it stands.
    pub status: TodoStatus,
    /// How urgent it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<TodoPriority>,
    /// When it was created (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub created_at: Option<String>,
    /// When it last changed (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(extend("format" = "date-time")))]
    pub updated_at: Option<String>,
}

/// A todo's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    /// Not started.
    Pending,
    /// Being worked on.
    InProgress,
    /// Done.
    Completed,
}

/// A todo's priority.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TodoPriority {
    /// High priority.
    High,
    /// Medium priority.
    Medium,
    /// Low priority.
    Low,
}

/// Counts of `todo_list` by status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TodoStats {
    /// Items in the list.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub total: u64,
    /// Items completed.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub completed: u64,
    /// Items in progress.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub in_progress: u64,
    /// Items pending.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub pending: u64,
}

/// A question handed to another agent, and its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SubagentMetadata {
    /// What the other agent was asked.
    pub question: String,
    /// Which class of model answered (free text, e.g. `fast`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_strength: Option<String>,
    /// Its answer.
    pub response: String,
}

/// Tool calls run as one batch; the counts agree with the nested statuses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BatchMetadata {
    /// What the batch was for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The nested results, each a whole ToolResult.
    pub sub_results: Vec<ToolResult>,
    /// How long the batch took, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub duration_ms: Option<f64>,
    /// Nested results with status `success` (checked).
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub success_count: u64,
    /// Nested results with any other status (checked).
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub failure_count: u64,
}

/// A page opened in a browser.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BrowserNavigateMetadata {
    /// The URL asked for.
    pub url: String,
    /// Where the browser ended up, after redirects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_url: Option<String>,
    /// The page's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// How long the page took to load, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub load_time_ms: Option<f64>,
}

/// A screenshot saved to a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BrowserScreenshotMetadata {
    /// Where the image was saved.
    pub output_path: String,
    /// Width in pixels.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub width: u64,
    /// Height in pixels.
    #[serde(deserialize_with = "crate::wire::serde_count::count")]
    pub height: u64,
    /// `png`, `jpeg`, `webp`.
    pub format: String,
    /// The whole page, not only the viewport.
    #[serde(default)]
    pub full_page: bool,
    /// Size of the image file in bytes.
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
    /// The MCP server's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_name: Option<String>,
    /// The arguments the tool was called with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Map<String, Value>>,
    /// The MCP content blocks the tool returned.
    #[cfg_attr(
        feature = "schema",
        schemars(extend("items" = {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"type": "string", "minLength": 1}}
        }))
    )]
    pub content: Vec<Map<String, Value>>,
    /// How long the call took, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub duration_ms: Option<f64>,
}

/// Any other tool: a name for the kind and free data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CustomMetadata {
    /// A name for the kind of data (renderers may be registered for it).
    #[cfg_attr(feature = "schema", schemars(length(min = 1)))]
    pub name: String,
    /// The data, any JSON.
    pub data: Value,
}
