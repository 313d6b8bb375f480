//! Anthropic `tool_result` content blocks.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{json, Value};

use super::common::{
    block_as_text, block_text, build, call_id, error_message, failed, issue, known_fields, object,
    result_text, str_of, tool_result_parts, CallContext,
};
use crate::builder::Stamp;
use crate::issue::{IssueCode, Issues};
use crate::validate::check::json_type;

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
