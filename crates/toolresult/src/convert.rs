//! Conversions between ToolResult v1 and the tool-result shapes of model APIs
//! and agent frameworks: MCP `CallToolResult`, Anthropic `tool_result`
//! blocks, OpenAI Responses `function_call_output` and Chat `tool` messages,
//! and Vercel AI SDK `tool-result` / `tool-error` parts.
//!
//! Mapping (README "Supported shapes"): `output` is the machine-readable
//! result (MCP `structuredContent`), `content` the blocks shown to the model,
//! `meta` MCP's `_meta`. Structured output becomes text as compact JSON in its
//! own key order (deterministic); binary content is never inlined where the
//! target cannot hold it: it becomes a text note naming type and size.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::builder::{build_value, Stamp};
use crate::check::json_type;
use crate::issue::{Issue, IssueCode, Issues};

/// What a converted result needs that the source shape may lack.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallContext {
    /// The tool's name (MCP, Anthropic and OpenAI results do not carry it).
    #[serde(default)]
    pub tool_name: Option<String>,
    /// The call's arguments.
    #[serde(default)]
    pub arguments: Option<Map<String, Value>>,
    #[serde(default)]
    pub tool_call_id: Option<String>,
    #[serde(default)]
    pub started_at: Option<String>,
    #[serde(default)]
    pub completed_at: Option<String>,
}

/// The MCP revisions whose `CallToolResult` we read and write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpRevision {
    V2025_11_25,
    /// Adds the required `resultType` (`complete` for a finished call).
    V2026_07_28,
}

impl McpRevision {
    pub const SUPPORTED: &'static [&'static str] = &["2025-11-25", "2026-07-28"];
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "2025-11-25" => Some(McpRevision::V2025_11_25),
            "2026-07-28" => Some(McpRevision::V2026_07_28),
            _ => None,
        }
    }
}

fn issue(path: &str, code: IssueCode, message: String) -> Issues {
    Issues::from(Issue::new(path, code, message))
}

fn object<'a>(v: &'a Value, what: &str) -> Result<&'a Map<String, Value>, Issues> {
    v.as_object().ok_or_else(|| {
        issue(
            "",
            IssueCode::InvalidType,
            format!("{what} must be an object, got {}", json_type(v)),
        )
    })
}

/// Refuses fields the conversion would drop.
fn known_fields(o: &Map<String, Value>, allowed: &[&str], what: &str) -> Result<(), Issues> {
    match o.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(issue(
            &format!("/{k}"),
            IssueCode::UnknownField,
            format!("unknown field `{k}` in {what}; it would be lost in conversion"),
        )),
        None => Ok(()),
    }
}

/// A spec for `build_value` from what the source shape had. An `output` of
/// `Some(null)` stays in the result as an explicit `output: null`: a value in
/// MCP 2026-07-28 and the AI SDK, while `build_value` (createSuccess) reads
/// null as "no output".
fn build(
    ctx: &CallContext,
    (call_id, tool_name): (Option<String>, Option<String>),
    output: Option<Value>,
    content: Option<Value>,
    meta: Option<Value>,
    error: Option<String>,
    stamp: Stamp,
) -> Result<Value, Issues> {
    let Some(tool_name) = tool_name.or_else(|| ctx.tool_name.clone()) else {
        return Err(issue(
            "",
            IssueCode::MissingField,
            String::from(
                "this shape does not carry the tool's name: pass { tool_name } in the context",
            ),
        ));
    };
    let mut input = Map::new();
    input.insert("tool_name".into(), Value::String(tool_name));
    input.insert(
        "parameters".into(),
        Value::Object(ctx.arguments.clone().unwrap_or_default()),
    );
    if let Some(id) = call_id.or_else(|| ctx.tool_call_id.clone()) {
        input.insert("tool_call_id".into(), Value::String(id));
    }
    let null_output = output.as_ref().is_some_and(Value::is_null);
    let mut spec = Map::new();
    spec.insert("input".into(), Value::Object(input));
    for (k, v) in [("output", output), ("content", content), ("meta", meta)] {
        if let Some(v) = v {
            spec.insert(k.into(), v);
        }
    }
    for (k, v) in [
        ("started_at", &ctx.started_at),
        ("completed_at", &ctx.completed_at),
    ] {
        if let Some(v) = v {
            spec.insert(k.into(), Value::String(v.clone()));
        }
    }
    let failed = error.is_some();
    if let Some(message) = error {
        spec.insert("status".into(), json!("failed"));
        spec.insert("error_code".into(), json!("TOOL_ERROR"));
        spec.insert("error_message".into(), Value::String(message));
    }
    let mut tr = build_value(Value::Object(spec), stamp, failed)?;
    if null_output {
        insert_null_output(&mut tr);
    }
    Ok(tr)
}

/// Puts `output: null` right after `input`, where the builder writes outputs.
fn insert_null_output(tr: &mut Value) {
    if let Value::Object(o) = tr {
        let rest: Vec<(String, Value)> = core::mem::take(o).into_iter().collect();
        for (k, v) in rest {
            let after_input = k == "input";
            o.insert(k, v);
            if after_input {
                o.insert("output".into(), Value::Null);
            }
        }
    }
}

/// Text of the text blocks, one per line.
fn block_text(blocks: &[Value]) -> String {
    blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Compact JSON in the value's own key order: the same value, the same text.
fn json_text(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn str_of<'a>(o: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str)
}

fn binary_note(kind: &str, mime: Option<&str>, data: Option<&str>) -> String {
    let bytes = data.map_or(0, |d| d.len() / 4 * 3);
    format!(
        "[{kind} omitted: {}, about {bytes} bytes; this target cannot hold it]",
        mime.unwrap_or("unknown type")
    )
}

fn tool_result_parts(tr: &Value) -> Result<&Map<String, Value>, Issues> {
    object(tr, "a ToolResult")
}

fn failed(tr: &Map<String, Value>) -> bool {
    str_of(tr, "status") != Some("success")
}

fn error_message(tr: &Map<String, Value>) -> String {
    str_of(tr, "error_message")
        .unwrap_or("the tool failed")
        .to_string()
}

// ---------------------------------------------------------------- MCP

/// MCP `CallToolResult` → ToolResult. `isError` makes a `failed` result
/// (error_code TOOL_ERROR, the text blocks as message). Every field is kept.
///
/// `revision` is the protocol revision the result was received under; `None`
/// accepts what either shipped revision allows. The revisions differ for tool
/// results in three ways (README "Supported shapes", MCP revisions):
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
pub fn to_mcp(tr: &Value, revision: McpRevision) -> Result<Value, Issues> {
    let tr = tool_result_parts(tr)?;
    let mut out = Map::new();
    let output = tr.get("output").filter(|v| !v.is_null());
    let content = if let Some(Value::Array(blocks)) = tr.get("content") {
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

// ---------------------------------------------------------------- text targets

/// The result as one text, for targets that take a string: the output text,
/// else the text blocks (binary ones as notes), else compact JSON; failures
/// as "Error \[CODE\]: message".
pub fn result_text(tr: &Value) -> Result<String, Issues> {
    let tr = tool_result_parts(tr)?;
    if failed(tr) {
        let code = str_of(tr, "error_code").unwrap_or("ERROR");
        return Ok(format!("Error [{code}]: {}", error_message(tr)));
    }
    if let Some(Value::Array(blocks)) = tr.get("content") {
        return Ok(blocks
            .iter()
            .map(block_as_text)
            .collect::<Vec<_>>()
            .join("\n"));
    }
    Ok(match tr.get("output") {
        Some(Value::String(s)) => s.clone(),
        None | Some(Value::Null) => String::new(),
        Some(v) => json_text(v),
    })
}

fn block_as_text(b: &Value) -> String {
    match b.as_object() {
        Some(o) => crate::preview::block_text_with(o, binary_note),
        None => json_text(b),
    }
}

fn call_id(tr: &Map<String, Value>) -> Result<String, Issues> {
    tr.get("input")
        .and_then(|i| i.get("tool_call_id"))
        .and_then(Value::as_str)
        .map(String::from)
        .ok_or_else(|| {
            issue(
                "/input/tool_call_id",
                IssueCode::MissingField,
                String::from("this target needs the call's id: set input.tool_call_id"),
            )
        })
}

/// OpenAI Responses API `function_call_output` item.
pub fn to_openai_function_call_output(tr: &Value) -> Result<Value, Issues> {
    let id = call_id(tool_result_parts(tr)?)?;
    Ok(json!({"type": "function_call_output", "call_id": id, "output": result_text(tr)?}))
}

/// OpenAI Chat Completions `tool` message.
pub fn to_openai_chat_tool_message(tr: &Value) -> Result<Value, Issues> {
    let id = call_id(tool_result_parts(tr)?)?;
    Ok(json!({"role": "tool", "tool_call_id": id, "content": result_text(tr)?}))
}

/// OpenAI `function_call_output` or Chat `tool` message → ToolResult. OpenAI
/// carries no error flag, so the result is `success` with the text as output.
pub fn from_openai(v: &Value, ctx: &CallContext, stamp: Stamp) -> Result<Value, Issues> {
    let o = object(v, "an OpenAI tool output")?;
    let (id, text) = if str_of(o, "type") == Some("function_call_output") {
        known_fields(
            o,
            &["type", "call_id", "output", "id", "status"],
            "a function_call_output",
        )?;
        (str_of(o, "call_id"), o.get("output"))
    } else if str_of(o, "role") == Some("tool") {
        known_fields(o, &["role", "tool_call_id", "content"], "a tool message")?;
        (str_of(o, "tool_call_id"), o.get("content"))
    } else {
        return Err(issue(
            "",
            IssueCode::InvalidEnum,
            String::from("expected a function_call_output item or a { role: \"tool\" } message"),
        ));
    };
    let output = match text {
        Some(Value::String(s)) => Value::String(s.clone()),
        // Content parts ([{type: "text", text}]) join into one text.
        Some(Value::Array(parts)) => Value::String(
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => {
            return Err(issue(
                "/output",
                IssueCode::InvalidType,
                String::from("the output must be a string or text parts"),
            ))
        }
    };
    build(
        ctx,
        (id.map(String::from), None),
        Some(output),
        None,
        None,
        None,
        stamp,
    )
}

// ---------------------------------------------------------------- Anthropic

/// Anthropic `tool_result` content block. Text and images (base64 PNG, JPEG,
/// GIF, WebP) become blocks; anything else a text note.
pub fn to_anthropic(tr: &Value) -> Result<Value, Issues> {
    let t = tool_result_parts(tr)?;
    let id = call_id(t)?;
    let content = match (t.get("content"), t.get("output")) {
        (Some(Value::Array(blocks)), _) => {
            Value::Array(blocks.iter().map(anthropic_block).collect())
        }
        // `is_error` says it failed; the content is the tool's own words.
        (_, Some(Value::String(s))) if failed(t) => Value::String(s.clone()),
        _ if failed(t) => Value::String(error_message(t)),
        _ => Value::String(result_text(tr)?),
    };
    let mut out = json!({"type": "tool_result", "tool_use_id": id, "content": content});
    if failed(t) {
        out["is_error"] = Value::Bool(true);
    }
    Ok(out)
}

fn anthropic_block(b: &Value) -> Value {
    let o = b.as_object();
    let kind = o.and_then(|o| str_of(o, "type"));
    let mime = o.and_then(|o| str_of(o, "mimeType"));
    match (kind, mime) {
        (Some("text"), _) => json!({"type": "text", "text": block_as_text(b)}),
        (Some("image"), Some(m @ ("image/png" | "image/jpeg" | "image/gif" | "image/webp"))) => {
            json!({
                "type": "image",
                "source": {"type": "base64", "media_type": m, "data": o.and_then(|o| str_of(o, "data")).unwrap_or("")}
            })
        }
        _ => json!({"type": "text", "text": block_as_text(b)}),
    }
}

/// Anthropic `tool_result` block → ToolResult (`is_error` → failed).
pub fn from_anthropic(v: &Value, ctx: &CallContext, stamp: Stamp) -> Result<Value, Issues> {
    let o = object(v, "a tool_result block")?;
    known_fields(
        o,
        &[
            "type",
            "tool_use_id",
            "content",
            "is_error",
            "cache_control",
        ],
        "a tool_result block",
    )?;
    if str_of(o, "type") != Some("tool_result") {
        return Err(issue(
            "/type",
            IssueCode::InvalidEnum,
            String::from("expected type \"tool_result\""),
        ));
    }
    let is_error = o.get("is_error").and_then(Value::as_bool).unwrap_or(false);
    let (output, content, text) = match o.get("content") {
        None | Some(Value::Null) => (None, None, String::new()),
        Some(Value::String(s)) => (Some(Value::String(s.clone())), None, s.clone()),
        Some(Value::Array(blocks)) => {
            let mcp: Vec<Value> = blocks.iter().map(mcp_block_from_anthropic).collect();
            let text = block_text(&mcp);
            (None, Some(Value::Array(mcp)), text)
        }
        Some(other) => {
            return Err(issue(
                "/content",
                IssueCode::InvalidType,
                format!(
                    "content must be a string or blocks, got {}",
                    json_type(other)
                ),
            ))
        }
    };
    let error = is_error.then(|| {
        if text.is_empty() {
            String::from("the tool reported an error (is_error)")
        } else {
            text
        }
    });
    build(
        ctx,
        (str_of(o, "tool_use_id").map(String::from), None),
        output,
        content,
        None,
        error,
        stamp,
    )
}

fn mcp_block_from_anthropic(b: &Value) -> Value {
    let source = b.get("source");
    match (
        b.get("type").and_then(Value::as_str),
        source.and_then(|s| s.get("type")).and_then(Value::as_str),
    ) {
        (Some("image"), Some("base64")) => json!({
            "type": "image",
            "data": source.and_then(|s| s.get("data")).cloned().unwrap_or(Value::Null),
            "mimeType": source.and_then(|s| s.get("media_type")).cloned().unwrap_or(Value::Null),
        }),
        (Some("image"), Some("url")) => json!({
            "type": "resource_link",
            "name": "image",
            "uri": source.and_then(|s| s.get("url")).cloned().unwrap_or(Value::Null),
        }),
        // Text blocks (and anything else) keep their shape.
        _ => b.clone(),
    }
}

// ---------------------------------------------------------------- Vercel AI SDK

/// The two places a tool result appears in the Vercel AI SDK (v5, v6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum VercelShape {
    /// A `tool-result` part of a `{ role: "tool" }` model message
    /// (`ToolResultPart`): what goes back to the model in the conversation.
    /// `output` is typed: `text`, `json`, `content`, `error-text`,
    /// `error-json` or `execution-denied`. No `input`.
    ToolMessage,
    /// A `tool-result` / `tool-error` part of a generation step's `content`
    /// (`TypedToolResult` / `TypedToolError`): `input` and the tool's raw
    /// `output`, or its `error`.
    StepContent,
}

/// Optional fields of the SDK's parts that ToolResult has no field for; they
/// travel in `meta` under `ai-sdk/<field>` and come back out unchanged.
const VERCEL_CARRIED: &[&str] = &[
    "providerOptions",
    "providerExecuted",
    "providerMetadata",
    "dynamic",
    "title",
    "toolMetadata",
];
const VERCEL_META_PREFIX: &str = "ai-sdk/";

/// `error_message` of a denied call whose `execution-denied` output had no reason.
const DENIED_WITHOUT_REASON: &str = "the tool call was denied (execution-denied)";
/// `error_code` of a denied call.
const EXECUTION_DENIED: &str = "EXECUTION_DENIED";

/// ToolResult → a Vercel AI SDK part, in the shape asked for (see
/// [`VercelShape`]). In a tool message a failure is a `tool-result` part with
/// output `error-text` (or `error-json`, for a failure that came from one), a
/// denied call (`permission_denied` + `EXECUTION_DENIED`) is
/// `execution-denied`; in step content a failure is a `tool-error` part.
pub fn to_vercel(tr: &Value, shape: VercelShape) -> Result<Value, Issues> {
    let t = tool_result_parts(tr)?;
    let id = call_id(t)?;
    let input = t.get("input").cloned().unwrap_or(Value::Null);
    let name = input.get("tool_name").cloned().unwrap_or(Value::Null);
    let args = input.get("parameters").cloned().unwrap_or(json!({}));
    let mut part = Map::new();
    match shape {
        VercelShape::StepContent => {
            let kind = if failed(t) {
                "tool-error"
            } else {
                "tool-result"
            };
            part.insert("type".into(), json!(kind));
            part.insert("toolCallId".into(), Value::String(id));
            part.insert("toolName".into(), name);
            part.insert("input".into(), args);
            if failed(t) {
                part.insert("error".into(), Value::String(error_message(t)));
            } else {
                let output = t.get("output").cloned().unwrap_or(Value::Null);
                part.insert("output".into(), output);
            }
        }
        VercelShape::ToolMessage => {
            part.insert("type".into(), json!("tool-result"));
            part.insert("toolCallId".into(), Value::String(id));
            part.insert("toolName".into(), name);
            part.insert("output".into(), vercel_output(t));
        }
    }
    if let Some(Value::Object(meta)) = t.get("meta") {
        for (k, v) in meta {
            if let Some(field) = k.strip_prefix(VERCEL_META_PREFIX) {
                if VERCEL_CARRIED.contains(&field) {
                    part.insert(field.into(), v.clone());
                }
            }
        }
    }
    Ok(Value::Object(part))
}

/// The typed `output` of a tool-message part.
fn vercel_output(t: &Map<String, Value>) -> Value {
    if failed(t) {
        let message = error_message(t);
        if str_of(t, "status") == Some("permission_denied")
            && str_of(t, "error_code") == Some(EXECUTION_DENIED)
        {
            return if message == DENIED_WITHOUT_REASON {
                json!({"type": "execution-denied"})
            } else {
                json!({"type": "execution-denied", "reason": message})
            };
        }
        return match t.get("output") {
            // A failure read from `error-json` keeps the value as its output
            // and that value's JSON text as its message.
            Some(v) if json_text(v) == message => {
                json!({"type": "error-json", "value": v})
            }
            _ => json!({"type": "error-text", "value": message}),
        };
    }
    match (t.get("content"), t.get("output")) {
        (Some(Value::Array(blocks)), _) => {
            json!({"type": "content", "value": blocks.iter().map(vercel_part).collect::<Vec<_>>()})
        }
        (_, Some(Value::String(s))) => json!({"type": "text", "value": s}),
        // An explicit `output: null` is the JSON value null.
        (_, Some(v)) => json!({"type": "json", "value": v}),
        _ => json!({"type": "text", "value": ""}),
    }
}

fn vercel_part(b: &Value) -> Value {
    let o = b.as_object();
    match o.and_then(|o| str_of(o, "type")) {
        Some("image") => json!({
            "type": "image-data",
            "data": o.and_then(|o| o.get("data")).cloned().unwrap_or(Value::Null),
            "mediaType": o.and_then(|o| o.get("mimeType")).cloned().unwrap_or(Value::Null),
        }),
        Some("audio") => json!({
            "type": "file-data",
            "data": o.and_then(|o| o.get("data")).cloned().unwrap_or(Value::Null),
            "mediaType": o.and_then(|o| o.get("mimeType")).cloned().unwrap_or(Value::Null),
        }),
        _ => json!({"type": "text", "text": block_as_text(b)}),
    }
}

/// Vercel AI SDK part → ToolResult. `shape` `None` decides by the part:
/// step-content parts always carry `input` (and a `tool-error` is only step
/// content); tool-message parts never do.
pub fn from_vercel(
    v: &Value,
    ctx: &CallContext,
    shape: Option<VercelShape>,
    stamp: Stamp,
) -> Result<Value, Issues> {
    let o = object(v, "a tool part")?;
    let kind = str_of(o, "type");
    let shape = shape.unwrap_or(if o.contains_key("input") || kind == Some("tool-error") {
        VercelShape::StepContent
    } else {
        VercelShape::ToolMessage
    });
    let mut allowed = alloc::vec!["type", "toolCallId", "toolName"];
    allowed.extend_from_slice(VERCEL_CARRIED);
    match shape {
        VercelShape::ToolMessage => allowed.push("output"),
        VercelShape::StepContent => {
            allowed.extend_from_slice(&["input", "output", "error", "preliminary"]);
        }
    }
    let what = match shape {
        VercelShape::ToolMessage => "a tool-message part (ToolResultPart)",
        VercelShape::StepContent => "a step-content tool part",
    };
    if shape == VercelShape::ToolMessage && kind == Some("tool-error") {
        return Err(issue(
            "/type",
            IssueCode::InvalidEnum,
            String::from("a tool message has no tool-error parts; failures there are tool-result parts with output error-text or error-json"),
        ));
    }
    known_fields(o, &allowed, what)?;
    if o.get("preliminary") == Some(&Value::Bool(true)) {
        return Err(issue(
            "/preliminary",
            IssueCode::UnsupportedValue,
            String::from(
                "a preliminary tool result is a streamed partial value; convert the final one",
            ),
        ));
    }
    let mut ctx = ctx.clone();
    if let Some(Value::Object(args)) = o.get("input") {
        ctx.arguments = Some(args.clone());
    }
    let id = str_of(o, "toolCallId").map(String::from);
    let name = str_of(o, "toolName").map(String::from);
    let mut meta = Map::new();
    for field in VERCEL_CARRIED {
        if let Some(v) = o.get(*field) {
            meta.insert(format!("{VERCEL_META_PREFIX}{field}"), v.clone());
        }
    }
    let meta = (!meta.is_empty()).then_some(Value::Object(meta));
    let built = match (shape, kind) {
        (VercelShape::StepContent, Some("tool-error")) => {
            let message = match o.get("error") {
                Some(Value::String(s)) => s.clone(),
                Some(v) => json_text(v),
                None => String::from("the tool failed"),
            };
            build(&ctx, (id, name), None, None, meta, Some(message), stamp)
        }
        (VercelShape::StepContent, Some("tool-result")) => {
            let output = o.get("output").cloned();
            build(&ctx, (id, name), output, None, meta, None, stamp)
        }
        (VercelShape::ToolMessage, Some("tool-result")) => {
            from_vercel_output(o, &ctx, (id, name), meta, stamp)
        }
        _ => Err(issue(
            "/type",
            IssueCode::InvalidEnum,
            String::from("expected type \"tool-result\" or \"tool-error\""),
        )),
    }?;
    Ok(built)
}

fn from_vercel_output(
    o: &Map<String, Value>,
    ctx: &CallContext,
    ids: (Option<String>, Option<String>),
    meta: Option<Value>,
    stamp: Stamp,
) -> Result<Value, Issues> {
    let out = o.get("output").and_then(Value::as_object).ok_or_else(|| {
        issue(
            "/output",
            IssueCode::MissingField,
            String::from("a tool-result part needs an output object"),
        )
    })?;
    let kind = str_of(out, "type");
    let allowed: &[&str] = match kind {
        Some("execution-denied") => &["type", "reason", "providerOptions"],
        Some("content") => &["type", "value"],
        _ => &["type", "value", "providerOptions"],
    };
    if let Some(k) = out.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(issue(
            &format!("/output/{k}"),
            IssueCode::UnknownField,
            format!("unknown field `{k}` in the output; it would be lost in conversion"),
        ));
    }
    if out.contains_key("providerOptions") {
        return Err(issue(
            "/output/providerOptions",
            IssueCode::UnsupportedValue,
            String::from(
                "providerOptions on the output has no place in a ToolResult; put it on the part",
            ),
        ));
    }
    let value = out.get("value").cloned().unwrap_or(Value::Null);
    match kind {
        Some("text") => match value {
            Value::String(_) => build(ctx, ids, Some(value), None, meta, None, stamp),
            other => Err(issue(
                "/output/value",
                IssueCode::InvalidType,
                format!("a text output's value is a string, got {}", json_type(&other)),
            )),
        },
        Some("json") => build(ctx, ids, Some(value), None, meta, None, stamp),
        Some("error-text") => match value {
            Value::String(message) => build(ctx, ids, None, None, meta, Some(message), stamp),
            other => Err(issue(
                "/output/value",
                IssueCode::InvalidType,
                format!("an error-text output's value is a string, got {}", json_type(&other)),
            )),
        },
        Some("error-json") => {
            // The value stays as the output; its JSON text is the message.
            let message = json_text(&value);
            build(ctx, ids, Some(value), None, meta, Some(message), stamp)
        }
        Some("execution-denied") => {
            let reason = match out.get("reason") {
                None => String::from(DENIED_WITHOUT_REASON),
                Some(Value::String(s)) => s.clone(),
                Some(other) => {
                    return Err(issue(
                        "/output/reason",
                        IssueCode::InvalidType,
                        format!("reason is a string, got {}", json_type(other)),
                    ))
                }
            };
            let mut tr = build(ctx, ids, None, None, meta, Some(reason), stamp)?;
            tr["status"] = json!("permission_denied");
            tr["error_code"] = json!(EXECUTION_DENIED);
            Ok(tr)
        }
        Some("content") => {
            let Value::Array(parts) = value else {
                return Err(issue(
                    "/output/value",
                    IssueCode::InvalidType,
                    String::from("a content output's value is an array of parts"),
                ));
            };
            let mut blocks = Vec::with_capacity(parts.len());
            for (i, p) in parts.iter().enumerate() {
                blocks.push(mcp_block_from_vercel(p, i)?);
            }
            build(ctx, ids, None, Some(Value::Array(blocks)), meta, None, stamp)
        }
        other => Err(issue(
            "/output/type",
            IssueCode::InvalidEnum,
            format!("unknown output type {other:?}; expected text, json, content, error-text, error-json or execution-denied"),
        )),
    }
}

/// A content part of a tool-message output as an MCP content block. Parts
/// that name a file or image by URL or provider id have no MCP block and are
/// refused rather than dropped.
fn mcp_block_from_vercel(p: &Value, i: usize) -> Result<Value, Issues> {
    let path = format!("/output/value/{i}");
    let o = p.as_object().ok_or_else(|| {
        issue(
            &path,
            IssueCode::InvalidType,
            String::from("a content part is an object"),
        )
    })?;
    let data = || o.get("data").cloned().unwrap_or(Value::Null);
    let mime = str_of(o, "mediaType").unwrap_or("");
    let media_kind = if mime.starts_with("audio/") {
        "audio"
    } else {
        "image"
    };
    let (allowed, block): (&[&str], Value) = match str_of(o, "type") {
        Some("text") => (&["type", "text"], json!({"type": "text", "text": o.get("text").cloned().unwrap_or(Value::Null)})),
        Some("media") => (&["type", "data", "mediaType"], json!({"type": media_kind, "data": data(), "mimeType": mime})),
        Some("image-data") => (&["type", "data", "mediaType"], json!({"type": "image", "data": data(), "mimeType": mime})),
        Some("file-data") if media_kind == "audio" || mime.starts_with("image/") => {
            (&["type", "data", "mediaType"], json!({"type": media_kind, "data": data(), "mimeType": mime}))
        }
        other => {
            return Err(issue(
                &format!("{path}/type"),
                IssueCode::UnsupportedValue,
                format!("content part type {other:?} has no MCP content block (text, image-data, media, and image or audio file-data convert)"),
            ))
        }
    };
    if let Some(k) = o.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(issue(
            &format!("{path}/{k}"),
            IssueCode::UnknownField,
            format!("unknown field `{k}` in a content part; it would be lost in conversion"),
        ));
    }
    Ok(block)
}
