//! MCP `CallToolResult` (revisions 2025-11-25 and 2026-07-28).

use alloc::format;
use alloc::string::String;
use serde_json::{json, Map, Value};

use super::common::{
    block_text, build, error_message, failed, issue, json_text, known_fields, object, str_of,
    tool_result_parts, CallContext,
};
use crate::builder::Stamp;
use crate::issue::{IssueCode, Issues};
use crate::validate::check::json_type;

/// The MCP revisions whose `CallToolResult` we read and write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpRevision {
    /// The 2025-11-25 revision.
    V2025_11_25,
    /// Adds the required `resultType` (`complete` for a finished call).
    V2026_07_28,
}

impl McpRevision {
    /// The revisions read and written, by name.
    pub const SUPPORTED: &'static [&'static str] = &["2025-11-25", "2026-07-28"];
    /// The revision named `s`, if supported.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "2025-11-25" => Some(McpRevision::V2025_11_25),
            "2026-07-28" => Some(McpRevision::V2026_07_28),
            _ => None,
        }
    }
}

/// MCP `CallToolResult` → ToolResult. `isError` makes a `failed` result
/// (error_code TOOL_ERROR, the text blocks as message). Every field is kept.
///
/// `revision` is the protocol revision the result was received under; `None`
/// accepts what either shipped revision allows. The revisions differ for tool
/// results in three ways (docs/guide/conversions.md "Supported shapes", MCP revisions):
/// - `structuredContent` is an object in 2025-11-25 and any JSON value in
///   2026-07-28 (`null` included: it is kept as `output: null`);
/// - `resultType` is required in 2026-07-28 (absent reads as `complete`, as
///   the revision tells clients to treat results of earlier servers); an
///   `input_required` result is not a finished call and is refused;
/// - a task-augmented call in 2025-11-25 answers with a `CreateTaskResult`
///   (`task`), which is not a result yet and is refused.
pub fn from_mcp(
    mcp: &Value,
    ctx: &CallContext,
    revision: Option<McpRevision>,
    stamp: Stamp,
) -> Result<Value, Issues> {
    let o = object(mcp, "a CallToolResult")?;
    if o.contains_key("task") && !o.contains_key("content") {
        return Err(issue(
            "/task",
            IssueCode::UnsupportedValue,
            String::from(
                "this is a CreateTaskResult (a task-augmented call, MCP 2025-11-25), not a tool result yet: \
                 poll the task (tasks/result) and convert the CallToolResult it returns",
            ),
        ));
    }
    if let Some(rt) = o.get("resultType") {
        match rt.as_str() {
            Some("complete") => {}
            Some("input_required") => {
                return Err(issue(
                    "/resultType",
                    IssueCode::UnsupportedValue,
                    String::from(
                        "resultType `input_required` (MCP 2026-07-28 InputRequiredResult): the call needs more input \
                         (inputRequests) before it has a result; answer them, retry the call, and convert the final result",
                    ),
                ))
            }
            _ => {
                return Err(issue(
                    "/resultType",
                    IssueCode::UnsupportedValue,
                    format!("resultType {rt} is not a completed tool call; only `complete` converts to a ToolResult"),
                ))
            }
        }
    }
    known_fields(
        o,
        &[
            "content",
            "structuredContent",
            "isError",
            "_meta",
            "resultType",
        ],
        "a CallToolResult",
    )?;
    let Some(Value::Array(blocks)) = o.get("content") else {
        return Err(issue(
            "/content",
            IssueCode::MissingField,
            String::from("a CallToolResult needs a `content` array"),
        ));
    };
    if let Some(meta) = o.get("_meta") {
        if !meta.is_object() {
            return Err(issue(
                "/_meta",
                IssueCode::InvalidType,
                format!("_meta must be an object, got {}", json_type(meta)),
            ));
        }
    }
    let structured = match (o.get("structuredContent"), revision) {
        (None, _) => None,
        (Some(v @ Value::Object(_)), _) => Some(v.clone()),
        (Some(v), Some(McpRevision::V2025_11_25)) => {
            return Err(issue(
                "/structuredContent",
                IssueCode::InvalidType,
                format!(
                    "structuredContent must be an object in MCP 2025-11-25, got {} (2026-07-28 allows any JSON value)",
                    json_type(v)
                ),
            ))
        }
        (Some(v), _) => Some(v.clone()),
    };
    let is_error = match o.get("isError") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(v) => {
            return Err(issue(
                "/isError",
                IssueCode::InvalidType,
                format!("isError must be a boolean, got {}", json_type(v)),
            ))
        }
    };
    let error = is_error.then(|| {
        let text = block_text(blocks);
        if text.is_empty() {
            String::from("the tool reported an error (isError)")
        } else {
            text
        }
    });
    build(
        ctx,
        (None, None),
        structured,
        Some(Value::Array(blocks.clone())),
        o.get("_meta").cloned(),
        error,
        stamp,
    )
}

/// ToolResult → MCP `CallToolResult`. Without content blocks, the output is
/// mirrored into one TextContent block (as the spec recommends for structured
/// results); `isError` is written only when true (absent means false).
/// `structuredContent` is the output: any value under 2026-07-28 (an explicit
/// `output: null` too), objects only under 2025-11-25 (others are in the
/// text mirror only).
///
/// Content blocks are written as given, except the blocks MCP has no form
/// for that the provider conversions make (`ai-sdk/file-reference`,
/// `ai-sdk/custom`, `anthropic/search-result`, `anthropic/document`): a
/// result holding one is refused (`unsupported_value` at the block's `type`)
/// rather than written as an invalid `CallToolResult`.
///
/// ```
/// use serde_json::json;
/// use toolresult::interop::{from_mcp, to_mcp, CallContext, McpRevision};
/// use toolresult::Stamp;
///
/// let call = json!({ "content": [{ "type": "text", "text": "42" }], "isError": true });
/// let context = CallContext { tool_name: Some("answer".into()), ..CallContext::default() };
/// let stamp = Stamp { now_unix_ms: 1_767_225_600_000.0, random: [1; 16] };
/// let result = from_mcp(&call, &context, Some(McpRevision::V2025_11_25), stamp).unwrap();
/// assert_eq!(result["status"], "failed");
/// assert_eq!(to_mcp(&result, McpRevision::V2025_11_25).unwrap()["isError"], true);
/// ```
pub fn to_mcp(tr: &Value, revision: McpRevision) -> Result<Value, Issues> {
    let tr = tool_result_parts(tr)?;
    let mut out = Map::new();
    let output = tr.get("output").filter(|v| !v.is_null());
    let content = if let Some(Value::Array(blocks)) = tr.get("content") {
        refuse_ai_sdk_only(blocks)?;
        Value::Array(blocks.clone())
    } else {
        let text = match output {
            Some(Value::String(s)) => Some(s.clone()),
            Some(v) => Some(json_text(v)),
            None if failed(tr) => Some(error_message(tr)),
            None => None,
        };
        Value::Array(
            text.map(|t| json!({"type": "text", "text": t}))
                .into_iter()
                .collect(),
        )
    };
    out.insert("content".into(), content);
    match (tr.get("output"), revision) {
        (Some(v @ Value::Object(_)), _) => {
            out.insert("structuredContent".into(), v.clone());
        }
        (Some(v), McpRevision::V2026_07_28) => {
            out.insert("structuredContent".into(), v.clone());
        }
        _ => {}
    }
    if failed(tr) {
        out.insert("isError".into(), Value::Bool(true));
    }
    if let Some(meta) = tr.get("meta") {
        out.insert("_meta".into(), meta.clone());
    }
    if revision == McpRevision::V2026_07_28 {
        out.insert("resultType".into(), json!("complete"));
    }
    Ok(Value::Object(out))
}

/// Refuses the blocks of provider parts that have no MCP content block.
fn refuse_ai_sdk_only(blocks: &[Value]) -> Result<(), Issues> {
    for (i, b) in blocks.iter().enumerate() {
        let Some(kind) = b.as_object().and_then(|o| str_of(o, "type")) else {
            continue;
        };
        if let Some((what, target)) = no_mcp_form(kind) {
            return Err(issue(
                &format!("/content/{i}/type"),
                IssueCode::UnsupportedValue,
                format!(
                    "content block `{kind}` is {what}, which has no MCP content block; \
                     remove it, or send the result to {target} instead"
                ),
            ));
        }
    }
    Ok(())
}

/// What a block type with no MCP form holds, and the targets that take it.
pub(super) fn no_mcp_form(kind: &str) -> Option<(&'static str, &'static str)> {
    match kind {
        super::vercel_content::CUSTOM_BLOCK => Some((
            "an AI SDK `custom` part (provider-specific content)",
            "the AI SDK (toVercelToolPart)",
        )),
        super::vercel_content::FILE_REFERENCE_BLOCK => Some((
            "a provider file reference (a file uploaded to a model provider: an AI SDK \
             provider reference or an OpenAI file id)",
            "the AI SDK (toVercelToolPart) or OpenAI (toOpenAIFunctionCallOutput)",
        )),
        super::anthropic::SEARCH_RESULT_BLOCK => Some((
            "an Anthropic `search_result` block",
            "Anthropic (toAnthropicToolResult)",
        )),
        super::anthropic::DOCUMENT_BLOCK => Some((
            "an Anthropic `document` with a `content` or `file` source",
            "Anthropic (toAnthropicToolResult)",
        )),
        _ => None,
    }
}
