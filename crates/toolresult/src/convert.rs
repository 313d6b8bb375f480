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

/// A spec for `build_value` from what the source shape had.
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
    build_value(Value::Object(spec), stamp, failed)
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
pub fn from_mcp(mcp: &Value, ctx: &CallContext, stamp: Stamp) -> Result<Value, Issues> {
    let o = object(mcp, "a CallToolResult")?;
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
    if let Some(rt) = o.get("resultType") {
        if rt.as_str() != Some("complete") {
            return Err(issue(
                "/resultType",
                IssueCode::UnsupportedValue,
                format!("resultType {rt} is not a completed tool call; only `complete` converts to a ToolResult"),
            ));
        }
    }
    let structured = match o.get("structuredContent") {
        None | Some(Value::Null) => None,
        Some(v @ Value::Object(_)) => Some(v.clone()),
        Some(v) => {
            return Err(issue(
                "/structuredContent",
                IssueCode::InvalidType,
                format!("structuredContent must be an object, got {}", json_type(v)),
            ))
        }
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
pub fn to_mcp(tr: &Value, revision: McpRevision) -> Result<Value, Issues> {
    let tr = tool_result_parts(tr)?;
    let mut out = Map::new();
    let output = tr.get("output").filter(|v| !v.is_null());
    let content = match tr.get("content") {
        Some(Value::Array(blocks)) => Value::Array(blocks.clone()),
        _ => {
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
        }
    };
    out.insert("content".into(), content);
    if let Some(v @ Value::Object(_)) = output {
        out.insert("structuredContent".into(), v.clone());
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
/// as "Error [CODE]: message".
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
    let Some(o) = b.as_object() else {
        return json_text(b);
    };
    match str_of(o, "type") {
        Some("text") => str_of(o, "text").unwrap_or_default().to_string(),
        Some("image") => binary_note("image", str_of(o, "mimeType"), str_of(o, "data")),
        Some("audio") => binary_note("audio", str_of(o, "mimeType"), str_of(o, "data")),
        Some("resource_link") => format!(
            "[resource] {} <{}>",
            str_of(o, "name").unwrap_or(""),
            str_of(o, "uri").unwrap_or("")
        ),
        Some("resource") => {
            let r = o.get("resource").and_then(Value::as_object);
            match r.and_then(|r| str_of(r, "text")) {
                Some(text) => text.to_string(),
                None => binary_note(
                    "resource",
                    r.and_then(|r| str_of(r, "mimeType")),
                    r.and_then(|r| str_of(r, "blob")),
                ),
            }
        }
        _ => json_text(b),
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

/// Vercel AI SDK tool part: `tool-result` with a typed `output` (`text`,
/// `json`, or `content` with text and media parts), or `tool-error`.
pub fn to_vercel(tr: &Value) -> Result<Value, Issues> {
    let t = tool_result_parts(tr)?;
    let id = call_id(t)?;
    let input = t.get("input").cloned().unwrap_or(Value::Null);
    let name = input.get("tool_name").cloned().unwrap_or(Value::Null);
    let args = input.get("parameters").cloned().unwrap_or(json!({}));
    if failed(t) {
        return Ok(
            json!({"type": "tool-error", "toolCallId": id, "toolName": name, "input": args, "error": error_message(t)}),
        );
    }
    let output = match (t.get("content"), t.get("output").filter(|v| !v.is_null())) {
        (Some(Value::Array(blocks)), _) => {
            json!({"type": "content", "value": blocks.iter().map(vercel_part).collect::<Vec<_>>()})
        }
        (None, Some(Value::String(s))) => json!({"type": "text", "value": s}),
        (None, Some(v)) => json!({"type": "json", "value": v}),
        _ => json!({"type": "text", "value": ""}),
    };
    Ok(
        json!({"type": "tool-result", "toolCallId": id, "toolName": name, "input": args, "output": output}),
    )
}

fn vercel_part(b: &Value) -> Value {
    let o = b.as_object();
    match o.and_then(|o| str_of(o, "type")) {
        Some("image" | "audio") => json!({
            "type": "media",
            "data": o.and_then(|o| o.get("data")).cloned().unwrap_or(Value::Null),
            "mediaType": o.and_then(|o| o.get("mimeType")).cloned().unwrap_or(Value::Null),
        }),
        _ => json!({"type": "text", "text": block_as_text(b)}),
    }
}

/// Vercel AI SDK `tool-result` / `tool-error` part → ToolResult.
pub fn from_vercel(v: &Value, ctx: &CallContext, stamp: Stamp) -> Result<Value, Issues> {
    let o = object(v, "a tool part")?;
    let kind = str_of(o, "type");
    let allowed: &[&str] = &[
        "type",
        "toolCallId",
        "toolName",
        "input",
        "output",
        "error",
        "providerOptions",
        "providerExecuted",
    ];
    known_fields(o, allowed, "a tool part")?;
    let mut ctx = ctx.clone();
    if let Some(Value::Object(args)) = o.get("input") {
        ctx.arguments = Some(args.clone());
    }
    let id = str_of(o, "toolCallId").map(String::from);
    let name = str_of(o, "toolName").map(String::from);
    match kind {
        Some("tool-error") => {
            let message = match o.get("error") {
                Some(Value::String(s)) => s.clone(),
                Some(v) => json_text(v),
                None => String::from("the tool failed"),
            };
            build(&ctx, (id, name), None, None, None, Some(message), stamp)
        }
        Some("tool-result") => {
            let out = o.get("output").and_then(Value::as_object).ok_or_else(|| {
                issue(
                    "/output",
                    IssueCode::MissingField,
                    String::from("a tool-result part needs an output object"),
                )
            })?;
            let value = out.get("value").cloned().unwrap_or(Value::Null);
            match str_of(out, "type") {
                Some("text" | "json") => build(&ctx, (id, name), Some(value), None, None, None, stamp),
                Some("error-text" | "error-json") => {
                    let message = value.as_str().map(String::from).unwrap_or_else(|| json_text(&value));
                    build(&ctx, (id, name), None, None, None, Some(message), stamp)
                }
                Some("content") => {
                    let parts = value.as_array().cloned().unwrap_or_default();
                    let blocks: Vec<Value> = parts
                        .iter()
                        .map(|p| match p.get("type").and_then(Value::as_str) {
                            Some("media") => {
                                let mime = p.get("mediaType").and_then(Value::as_str).unwrap_or("");
                                let kind = if mime.starts_with("audio/") { "audio" } else { "image" };
                                json!({"type": kind, "data": p.get("data").cloned().unwrap_or(Value::Null), "mimeType": mime})
                            }
                            _ => p.clone(),
                        })
                        .collect();
                    build(&ctx, (id, name), None, Some(Value::Array(blocks)), None, None, stamp)
                }
                other => Err(issue("/output/type", IssueCode::InvalidEnum, format!("unknown output type {other:?}; expected text, json, error-text, error-json or content"))),
            }
        }
        _ => Err(issue(
            "/type",
            IssueCode::InvalidEnum,
            String::from("expected type \"tool-result\" or \"tool-error\""),
        )),
    }
}
