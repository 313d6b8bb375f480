//! Anthropic `tool_result` content blocks (docs/guide/conversions.md "Supported shapes",
//! "Anthropic documents and search results").
//!
//! Text and images are MCP blocks both ways. A `document` whose source MCP
//! can hold becomes that MCP block: a base64 PDF an embedded `resource` with
//! a `blob`, plain text an embedded `resource` with `text`, a URL a
//! `resource_link`; the block names it in `_meta["anthropic/type"]` and
//! keeps `title`, `context`, `citations` and `cache_control` in
//! `_meta["anthropic/<field>"]`, so the block written back is the block
//! read. Blocks MCP has no form for (`search_result`, a `document` with
//! `content` or `file` source) are kept whole as `anthropic/search-result`
//! and `anthropic/document` blocks, which `to_mcp` refuses.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{json, Map, Value};

use super::common::{
    block_as_text, block_text, build, call_id, error_message, failed, issue, known_fields, meta,
    meta_str, object, optional_field, result_text, str_of, tool_result_parts, with_meta_entries,
    CallContext,
};
use super::vercel_content::Part;
use crate::builder::Stamp;
use crate::issue::{quote_text, IssueCode, Issues};
use crate::validate::check::json_type;

// The block types are defined in `common` (the lowest interop module), which
// renders a search result as text for every target.
pub use super::common::{DOCUMENT_BLOCK, SEARCH_RESULT_BLOCK};
/// The `uri` of an embedded resource made from a document's inline data
/// (the document has no URI; MCP requires one).
pub const ANTHROPIC_INLINE_URI: &str = "anthropic:inline";

const TYPE_KEY: &str = "anthropic/type";
/// The fields of a `document` kept in `_meta["anthropic/<field>"]`.
const DOCUMENT_FIELDS: [(&str, &str); 4] = [
    ("title", "string"),
    ("context", "string"),
    ("citations", "object"),
    ("cache_control", "object"),
];

/// Anthropic `tool_result` content block. Text, images (base64 PNG, JPEG,
/// GIF, WebP) and documents (embedded PDFs, blocks read from documents)
/// become blocks; search results and documents kept whole become
/// themselves again; anything else a text note.
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
    let Some(o) = b.as_object() else {
        return json!({"type": "text", "text": block_as_text(b)});
    };
    let kind = str_of(o, "type");
    let mime = str_of(o, "mimeType");
    let note = || json!({"type": "text", "text": block_as_text(b)});
    match (kind, mime) {
        (Some("text"), _) => note(),
        (Some("image"), Some(m @ ("image/png" | "image/jpeg" | "image/gif" | "image/webp"))) => {
            json!({
                "type": "image",
                "source": {"type": "base64", "media_type": m, "data": str_of(o, "data").unwrap_or("")}
            })
        }
        (Some(kind @ (SEARCH_RESULT_BLOCK | DOCUMENT_BLOCK)), _) => {
            let mut whole = o.clone();
            let anthropic = if kind == SEARCH_RESULT_BLOCK {
                "search_result"
            } else {
                "document"
            };
            whole.insert("type".into(), json!(anthropic));
            Value::Object(whole)
        }
        (Some("resource"), _) => {
            let Some(r) = o.get("resource").and_then(Value::as_object) else {
                return note();
            };
            let marked = meta_str(o, TYPE_KEY) == Some("document");
            let source = match (str_of(r, "blob"), str_of(r, "text"), str_of(r, "mimeType")) {
                (Some(data), _, Some("application/pdf")) => {
                    json!({"type": "base64", "media_type": "application/pdf", "data": data})
                }
                (None, Some(text), _) if marked => {
                    json!({"type": "text", "media_type": "text/plain", "data": text})
                }
                _ => return note(),
            };
            document(o, source)
        }
        (Some("resource_link"), _) => {
            // A link read from a document, or a PDF link read from a model
            // provider's part; other links are not fetched for the model.
            let from_provider =
                meta(o, "openai/type").is_some() || meta(o, "ai-sdk/type").is_some();
            let marked = meta_str(o, TYPE_KEY) == Some("document");
            match str_of(o, "uri") {
                Some(url) if marked || (from_provider && mime == Some("application/pdf")) => {
                    document(o, json!({"type": "url", "url": url}))
                }
                _ => note(),
            }
        }
        _ => note(),
    }
}

/// A `document` with `source` and the fields the block keeps in `_meta`.
fn document(o: &Map<String, Value>, source: Value) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), json!("document"));
    out.insert("source".into(), source);
    for (field, _) in DOCUMENT_FIELDS {
        if let Some(v) = meta(o, &format!("anthropic/{field}")) {
            out.insert(field.into(), v.clone());
        }
    }
    Value::Object(out)
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
            let mcp = blocks
                .iter()
                .enumerate()
                .map(|(i, b)| mcp_block_from_anthropic(b, i))
                .collect::<Result<Vec<_>, _>>()?;
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

fn mcp_block_from_anthropic(b: &Value, i: usize) -> Result<Value, Issues> {
    let source = b.get("source");
    Ok(
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
            (Some("document"), _) => document_block(b, i)?,
            (Some("search_result"), _) => search_result_block(b, i)?,
            // Text blocks (and anything else) keep their shape.
            _ => b.clone(),
        },
    )
}

fn part_at<'a>(b: &'a Value, i: usize, what: &str) -> Result<Part<'a>, Issues> {
    let path = format!("/content/{i}");
    let o = b.as_object().ok_or_else(|| {
        issue(
            &path,
            IssueCode::InvalidType,
            format!("{what} is an object, got {}", json_type(b)),
        )
    })?;
    Ok(Part { o, path })
}

/// A `document` block: an MCP block for a base64 PDF, plain text or a URL,
/// else (`content`, `file` sources) the block kept whole.
fn document_block(b: &Value, i: usize) -> Result<Value, Issues> {
    let what = "a document block";
    let part = part_at(b, i, what)?;
    part.fields(
        &[
            "type",
            "source",
            "title",
            "context",
            "citations",
            "cache_control",
        ],
        what,
    )?;
    let mut carried: Vec<(String, Value)> = Vec::from([(TYPE_KEY.into(), json!("document"))]);
    for (field, expected) in DOCUMENT_FIELDS {
        if let Some(v) = optional_field(part.o, &part.path, field, expected, true)? {
            carried.push((format!("anthropic/{field}"), v.clone()));
        }
    }
    let source = Part {
        o: part.object("source", what)?,
        path: part.at("source"),
    };
    let kind = source.string("type", "a document source")?;
    let source_what = format!("a document's {} source", quote_text(kind, '`'));
    let source_what = source_what.as_str();
    let media_type = |expected: &str| -> Result<(), Issues> {
        let m = source.string("media_type", source_what)?;
        if m == expected {
            Ok(())
        } else {
            Err(issue(
                &source.at("media_type"),
                IssueCode::InvalidEnum,
                format!(
                    "the media_type of {source_what} is `{expected}`, got {}",
                    quote_text(m, '`')
                ),
            ))
        }
    };
    let mut block = Map::new();
    match kind {
        "base64" => {
            source.fields(&["type", "media_type", "data"], source_what)?;
            media_type("application/pdf")?;
            block.insert("type".into(), json!("resource"));
            block.insert(
                "resource".into(),
                json!({"uri": ANTHROPIC_INLINE_URI, "mimeType": "application/pdf",
                       "blob": source.string("data", source_what)?}),
            );
        }
        "text" => {
            source.fields(&["type", "media_type", "data"], source_what)?;
            media_type("text/plain")?;
            block.insert("type".into(), json!("resource"));
            block.insert(
                "resource".into(),
                json!({"uri": ANTHROPIC_INLINE_URI, "mimeType": "text/plain",
                       "text": source.string("data", source_what)?}),
            );
        }
        "url" => {
            source.fields(&["type", "url"], source_what)?;
            let url = source.string("url", source_what)?;
            block.insert("type".into(), json!("resource_link"));
            block.insert("uri".into(), json!(url));
            block.insert("name".into(), json!(url));
            block.insert("mimeType".into(), json!("application/pdf"));
        }
        // Sources MCP has no form for: the document as it is.
        "content" | "file" => {
            let mut whole = part.o.clone();
            whole.insert("type".into(), json!(DOCUMENT_BLOCK));
            return Ok(Value::Object(whole));
        }
        other => {
            return Err(issue(
                &source.at("type"),
                IssueCode::InvalidEnum,
                format!(
                    "unknown document source type {}; expected base64, text, url, content or file",
                    quote_text(other, '`')
                ),
            ))
        }
    }
    Ok(with_meta_entries(block, carried))
}

/// A `search_result` block, kept whole as an `anthropic/search-result`
/// block once its fields are checked.
fn search_result_block(b: &Value, i: usize) -> Result<Value, Issues> {
    let what = "a search_result block";
    let part = part_at(b, i, what)?;
    part.fields(
        &[
            "type",
            "source",
            "title",
            "content",
            "citations",
            "cache_control",
        ],
        what,
    )?;
    part.string("source", what)?;
    part.string("title", what)?;
    for field in ["citations", "cache_control"] {
        optional_field(part.o, &part.path, field, "object", true)?;
    }
    let Some(Value::Array(texts)) = part.o.get("content") else {
        return Err(issue(
            &part.at("content"),
            if part.o.contains_key("content") {
                IssueCode::InvalidType
            } else {
                IssueCode::MissingField
            },
            String::from("a search_result block needs `content` (a list of text blocks)"),
        ));
    };
    for (j, t) in texts.iter().enumerate() {
        let at = format!("{}/{j}", part.at("content"));
        let text = Part {
            o: t.as_object().ok_or_else(|| {
                issue(
                    &at,
                    IssueCode::InvalidType,
                    format!(
                        "a search result's content is text blocks, got {}",
                        json_type(t)
                    ),
                )
            })?,
            path: at,
        };
        if text.string("type", "a search result's text block")? != "text" {
            return Err(issue(
                &text.at("type"),
                IssueCode::InvalidEnum,
                String::from("a search result's content is `text` blocks only"),
            ));
        }
        text.fields(
            &["type", "text", "cache_control", "citations"],
            "a search result's text block",
        )?;
        text.string("text", "a search result's text block")?;
    }
    let mut whole = part.o.clone();
    whole.insert("type".into(), json!(SEARCH_RESULT_BLOCK));
    Ok(Value::Object(whole))
}
