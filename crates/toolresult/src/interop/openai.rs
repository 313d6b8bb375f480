//! OpenAI Responses `function_call_output` items and Chat `tool` messages,
//! and back (docs/guide/conversions.md "Supported shapes", "OpenAI output parts").
//!
//! A `function_call_output` takes its output as a string or as a list of
//! parts: `input_text`, `input_image` (a URL, a data URL or a file id) and
//! `input_file` (data, a URL or a file id). Parts become content blocks as
//! the AI SDK's do (`vercel_content`): a base64 data URL an `image` block
//! (`input_image`) or an embedded `resource` with a `blob` (`input_file`),
//! another URL a `resource_link`, a file id an `ai-sdk/file-reference` block
//! holding `{ "openai": id }` (MCP has no form for it; `to_mcp` refuses it).
//! Every block read from a part names it in `_meta["openai/type"]`, with
//! `detail`, `filename` and `prompt_cache_breakpoint` in
//! `_meta["openai/<field>"]`, so the part written back is the part read.
//! An explicit `null` source field (`file_id: null` beside an `image_url`)
//! means absent and is not written back.
//!
//! Chat Completions `tool` messages take text only (a string or `text`
//! parts): every result is written as one string ([`super::result_text`]),
//! and parts of other types are refused when read.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{json, Map, Value};

use super::common::{
    block_as_text, build, call_id, data_url, failed, issue, known_fields, meta, meta_str,
    needed_str, object, optional_field, parse_data_url, result_text, str_of, tool_result_parts,
    with_meta_entries, CallContext,
};
use super::vercel_content::{Part, FILE_REFERENCE_BLOCK};
use crate::builder::Stamp;
use crate::issue::{quote_text, IssueCode, Issues};
use crate::validate::check::json_type;

/// The `uri` of an embedded resource made from `input_file` data (the part
/// has no URI; MCP requires one).
pub const OPENAI_INLINE_URI: &str = "openai:inline";
/// The provider name of OpenAI file ids in an `ai-sdk/file-reference`
/// block's `reference` (the AI SDK's name for OpenAI).
const PROVIDER: &str = "openai";

const TYPE_KEY: &str = "openai/type";
const DETAIL_KEY: &str = "openai/detail";
const FILENAME_KEY: &str = "openai/filename";
const CACHE_KEY: &str = "openai/prompt_cache_breakpoint";

/// OpenAI Responses API `function_call_output` item. The output is a list of
/// parts when the result holds a block a part can carry (an image, a file, a
/// file URL or id) or blocks read from OpenAI parts; otherwise, and for
/// failures, one string ([`super::result_text`]).
pub fn to_openai_function_call_output(tr: &Value) -> Result<Value, Issues> {
    let t = tool_result_parts(tr)?;
    let id = call_id(t)?;
    let parts = match t.get("content") {
        Some(Value::Array(blocks)) if !failed(t) => output_parts(blocks)?,
        _ => None,
    };
    let output = match parts {
        Some(parts) => Value::Array(parts),
        None => Value::String(result_text(tr)?),
    };
    Ok(json!({"type": "function_call_output", "call_id": id, "output": output}))
}

/// OpenAI Responses API `function_call_output` item whose output is always
/// one string ([`super::result_text`]: images and files as notes), for
/// models and gateways that take text outputs only.
pub fn to_openai_function_call_output_text(tr: &Value) -> Result<Value, Issues> {
    let id = call_id(tool_result_parts(tr)?)?;
    Ok(json!({"type": "function_call_output", "call_id": id, "output": result_text(tr)?}))
}

/// OpenAI Chat Completions `tool` message. Chat tool messages take text
/// only, so the content is one string ([`super::result_text`]).
pub fn to_openai_chat_tool_message(tr: &Value) -> Result<Value, Issues> {
    let id = call_id(tool_result_parts(tr)?)?;
    Ok(json!({"role": "tool", "tool_call_id": id, "content": result_text(tr)?}))
}

/// OpenAI `function_call_output` or Chat `tool` message → ToolResult. OpenAI
/// carries no error flag, so the result is `success`: a string output is the
/// output; output parts are content blocks; Chat `text` parts are joined
/// into the output, one per line.
pub fn from_openai(v: &Value, ctx: &CallContext, stamp: Stamp) -> Result<Value, Issues> {
    let o = object(v, "an OpenAI tool output")?;
    let (id, output, content) = if str_of(o, "type") == Some("function_call_output") {
        known_fields(
            o,
            &["type", "call_id", "output", "id", "status"],
            "a function_call_output",
        )?;
        match o.get("output") {
            Some(Value::String(s)) => (str_of(o, "call_id"), Some(Value::String(s.clone())), None),
            Some(Value::Array(parts)) => {
                let blocks = parts
                    .iter()
                    .enumerate()
                    .map(|(i, p)| block_from_part(p, i))
                    .collect::<Result<Vec<_>, _>>()?;
                (str_of(o, "call_id"), None, Some(Value::Array(blocks)))
            }
            _ => {
                return Err(issue(
                    "/output",
                    IssueCode::InvalidType,
                    String::from(
                        "the output must be a string or a list of input_text, input_image and input_file parts",
                    ),
                ))
            }
        }
    } else if str_of(o, "role") == Some("tool") {
        known_fields(o, &["role", "tool_call_id", "content"], "a tool message")?;
        let text = match o.get("content") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(parts)) => chat_text(parts)?,
            _ => {
                return Err(issue(
                    "/content",
                    IssueCode::InvalidType,
                    String::from("the content must be a string or text parts"),
                ))
            }
        };
        (str_of(o, "tool_call_id"), Some(Value::String(text)), None)
    } else {
        return Err(issue(
            "",
            IssueCode::InvalidEnum,
            String::from("expected a function_call_output item or a { role: \"tool\" } message"),
        ));
    };
    build(
        ctx,
        (id.map(String::from), None),
        output,
        content,
        None,
        None,
        stamp,
    )
}

/// The text of a Chat tool message's parts, which are `text` parts only.
fn chat_text(parts: &[Value]) -> Result<String, Issues> {
    let mut texts = Vec::with_capacity(parts.len());
    for (i, p) in parts.iter().enumerate() {
        let part = Part {
            o: object(p, "a content part").map_err(|_| {
                issue(
                    &format!("/content/{i}"),
                    IssueCode::InvalidType,
                    format!("a content part is an object, got {}", json_type(p)),
                )
            })?,
            path: format!("/content/{i}"),
        };
        let kind = part.string("type", "a content part")?;
        if kind != "text" {
            return Err(issue(
                &part.at("type"),
                IssueCode::UnsupportedValue,
                format!(
                    "a Chat Completions tool message takes `text` parts only, got {} \
                     (images and files go in a Responses function_call_output)",
                    quote_text(kind, '`')
                ),
            ));
        }
        part.fields(&["type", "text"], "a text part")?;
        texts.push(part.string("text", "a text part")?);
    }
    Ok(texts.join("\n"))
}

// ---------------------------------------------------------------------------
// output part → block

/// The one source field of a part that is set (not absent, not null).
fn source<'a>(part: &Part<'a>, keys: &[&'a str], what: &str) -> Result<(&'a str, &'a str), Issues> {
    let mut set = keys
        .iter()
        .filter(|k| part.o.get(**k).is_some_and(|v| !v.is_null()));
    let Some(&key) = set.next() else {
        return Err(issue(
            &part.at(keys[0]),
            IssueCode::MissingField,
            format!("{what} needs one of {}", keys.join(", ")),
        ));
    };
    if let Some(other) = set.next() {
        return Err(issue(
            &part.at(other),
            IssueCode::UnsupportedValue,
            format!("{what} has both `{key}` and `{other}`; it takes one source"),
        ));
    }
    Ok((key, part.string(key, what)?))
}

fn reference_block(id: &str) -> Map<String, Value> {
    let mut block = Map::new();
    block.insert("type".into(), json!(FILE_REFERENCE_BLOCK));
    block.insert("reference".into(), json!({ PROVIDER: id }));
    block
}

fn link_block(url: &str, name: &str) -> Map<String, Value> {
    let mut block = Map::new();
    block.insert("type".into(), json!("resource_link"));
    block.insert("uri".into(), json!(url));
    block.insert("name".into(), json!(name));
    block
}

/// Part `i` of a `function_call_output`'s output as a content block.
fn block_from_part(p: &Value, i: usize) -> Result<Value, Issues> {
    let path = format!("/output/{i}");
    let o = p.as_object().ok_or_else(|| {
        issue(
            &path,
            IssueCode::InvalidType,
            format!("an output part is an object, got {}", json_type(p)),
        )
    })?;
    let part = Part { o, path };
    let kind = part.string("type", "an output part")?;
    let what = format!("an {} part", quote_text(kind, '`'));
    let what = what.as_str();
    let mut carried: Vec<(String, Value)> = Vec::new();
    let mut carry = |key: &str, v: Option<&Value>| {
        if let Some(v) = v {
            carried.push((key.into(), v.clone()));
        }
    };
    carry(TYPE_KEY, Some(&json!(kind)));
    carry(
        CACHE_KEY,
        optional_field(o, &part.path, "prompt_cache_breakpoint", "object", true)?,
    );
    let block = match kind {
        "input_text" => {
            part.fields(&["type", "text", "prompt_cache_breakpoint"], what)?;
            let mut block = Map::new();
            block.insert("type".into(), json!("text"));
            block.insert("text".into(), json!(part.string("text", what)?));
            block
        }
        "input_image" => {
            part.fields(
                &[
                    "type",
                    "image_url",
                    "file_id",
                    "detail",
                    "prompt_cache_breakpoint",
                ],
                what,
            )?;
            carry(
                DETAIL_KEY,
                optional_field(o, &part.path, "detail", "string", true)?,
            );
            match source(&part, &["image_url", "file_id"], what)? {
                ("file_id", id) => reference_block(id),
                (_, url) => match parse_data_url(url) {
                    Some((media_type, data)) => {
                        let mut block = Map::new();
                        block.insert("type".into(), json!("image"));
                        block.insert("data".into(), json!(data));
                        block.insert("mimeType".into(), json!(media_type));
                        block
                    }
                    None => link_block(url, url),
                },
            }
        }
        "input_file" => {
            part.fields(
                &[
                    "type",
                    "file_data",
                    "file_id",
                    "file_url",
                    "filename",
                    "detail",
                    "prompt_cache_breakpoint",
                ],
                what,
            )?;
            let filename = optional_field(o, &part.path, "filename", "string", true)?;
            carry(FILENAME_KEY, filename);
            carry(
                DETAIL_KEY,
                optional_field(o, &part.path, "detail", "string", true)?,
            );
            match source(&part, &["file_data", "file_url", "file_id"], what)? {
                ("file_id", id) => reference_block(id),
                ("file_url", url) => {
                    link_block(url, filename.and_then(Value::as_str).unwrap_or(url))
                }
                (_, data) => {
                    // A data URL gives the media type; bare data has none.
                    let resource = match parse_data_url(data) {
                        Some((media_type, blob)) => {
                            json!({"uri": OPENAI_INLINE_URI, "mimeType": media_type, "blob": blob})
                        }
                        None => json!({"uri": OPENAI_INLINE_URI, "blob": data}),
                    };
                    let mut block = Map::new();
                    block.insert("type".into(), json!("resource"));
                    block.insert("resource".into(), resource);
                    block
                }
            }
        }
        other => {
            return Err(issue(
                &part.at("type"),
                IssueCode::InvalidEnum,
                format!(
                    "unknown output part type {}; expected input_text, input_image or input_file",
                    quote_text(other, '`')
                ),
            ))
        }
    };
    Ok(with_meta_entries(block, carried))
}

// ---------------------------------------------------------------------------
// block → output part

/// The blocks as output parts, or `None` when one string says the same
/// (text blocks only, none read from an OpenAI part).
fn output_parts(blocks: &[Value]) -> Result<Option<Vec<Value>>, Issues> {
    let mut parts = Vec::with_capacity(blocks.len());
    let mut needed = false;
    for (i, b) in blocks.iter().enumerate() {
        let part = part_from_block(b, i)?;
        let marked = b
            .as_object()
            .is_some_and(|o| meta_str(o, TYPE_KEY).is_some());
        needed |= marked || part["type"] != "input_text";
        parts.push(part);
    }
    Ok(needed.then_some(parts))
}

fn note(b: &Value) -> Value {
    json!({"type": "input_text", "text": block_as_text(b)})
}

/// The last segment of a URI's path, for an `input_file` filename.
fn uri_filename(uri: &str) -> Option<&str> {
    let path = uri.split(['?', '#']).next().unwrap_or("");
    let (_, name) = path.rsplit_once('/')?;
    (!name.is_empty()).then_some(name)
}

/// Content block `i` as a `function_call_output` part. Blocks read from a
/// part become it again; images an `input_image` with a data URL; embedded
/// PDFs, and embedded files read from a model provider's part (not audio
/// or video), an `input_file` with a data URL; links read from a model
/// provider's part (OpenAI's, the AI SDK's, Anthropic's) and file
/// references holding an OpenAI file id the file they name; anything else
/// the text every target gets.
fn part_from_block(b: &Value, i: usize) -> Result<Value, Issues> {
    let Some(o) = b.as_object() else {
        return Ok(note(b));
    };
    let path = format!("/content/{i}");
    let target = "an OpenAI output part";
    let mark = meta_str(o, TYPE_KEY);
    let ai_sdk_mark = meta_str(o, "ai-sdk/type");
    let from_provider =
        mark.is_some() || ai_sdk_mark.is_some() || meta(o, "anthropic/type").is_some();
    let mime = str_of(o, "mimeType");
    let image_like = |mime: Option<&str>| {
        mark == Some("input_image")
            || (mark.is_none()
                && (matches!(
                    ai_sdk_mark,
                    Some("image-url" | "image-file-id" | "image-file-reference")
                ) || mime.is_some_and(|m| m.starts_with("image/"))))
    };
    let mut out = Map::new();
    match str_of(o, "type") {
        Some("text") => {
            out.insert("type".into(), json!("input_text"));
            out.insert("text".into(), json!(needed_str(o, &path, "text", target)?));
        }
        Some("image") => {
            let data = needed_str(o, &path, "data", target)?;
            let media_type = needed_str(o, &path, "mimeType", target)?;
            out.insert("type".into(), json!("input_image"));
            out.insert("image_url".into(), json!(data_url(media_type, data)));
        }
        Some("resource_link") if from_provider => {
            let url = needed_str(o, &path, "uri", target)?;
            if image_like(mime) {
                out.insert("type".into(), json!("input_image"));
                out.insert("image_url".into(), json!(url));
            } else {
                out.insert("type".into(), json!("input_file"));
                out.insert("file_url".into(), json!(url));
            }
        }
        Some("resource") => {
            let Some(Value::Object(resource)) = o.get("resource") else {
                return Ok(note(b));
            };
            let r_path = format!("{path}/resource");
            // PDFs, and files read from a model provider's part; other
            // files (audio, video, arbitrary binaries) an OpenAI function
            // output may refuse, which would fail the whole request.
            let mime = str_of(resource, "mimeType");
            let playable = mime.is_some_and(|m| m.starts_with("audio/") || m.starts_with("video/"));
            let sendable = mark == Some("input_file")
                || (!playable && (from_provider || mime == Some("application/pdf")));
            if resource.get("text").is_some() || !sendable {
                return Ok(note(b));
            }
            let blob = needed_str(resource, &r_path, "blob", target)?;
            out.insert("type".into(), json!("input_file"));
            out.insert(
                "file_data".into(),
                json!(match mime {
                    Some(media_type) => data_url(media_type, blob),
                    None => String::from(blob),
                }),
            );
            // A name for the file from its URI, unless the URI is a
            // placeholder for inline data (`openai:inline`, `ai-sdk:inline`).
            if let Some(name) = str_of(resource, "uri")
                .filter(|u| !u.ends_with(":inline"))
                .and_then(uri_filename)
            {
                out.insert("filename".into(), json!(name));
            }
        }
        Some(FILE_REFERENCE_BLOCK) => {
            let Some(id) = o
                .get("reference")
                .and_then(Value::as_object)
                .and_then(|r| str_of(r, PROVIDER))
            else {
                return Ok(note(b));
            };
            if image_like(mime) {
                out.insert("type".into(), json!("input_image"));
            } else {
                out.insert("type".into(), json!("input_file"));
            }
            out.insert("file_id".into(), json!(id));
        }
        _ => return Ok(note(b)),
    }
    // What the part had that the block keeps in `_meta`.
    let kind = String::from(out.get("type").and_then(Value::as_str).unwrap_or(""));
    if kind == "input_file" {
        if let Some(name) = meta(o, FILENAME_KEY) {
            out.insert("filename".into(), name.clone());
        } else if let Some(name) = meta_str(o, "ai-sdk/filename") {
            out.insert("filename".into(), json!(name));
        }
    }
    if let Some(cache) = meta(o, CACHE_KEY).filter(|c| c.is_object() || c.is_null()) {
        out.insert("prompt_cache_breakpoint".into(), cache.clone());
    }
    if kind != "input_text" {
        if let Some(detail) = meta(o, DETAIL_KEY).filter(|d| d.is_string() || d.is_null()) {
            out.insert("detail".into(), detail.clone());
        }
    }
    Ok(Value::Object(out))
}
