//! What every conversion shares: the call context, field access with typed
//! issues, and building the ToolResult.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::builder::{build_value, Stamp};
use crate::issue::{quote_text, Issue, IssueCode, Issues};
use crate::validate::check::json_type;

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
    /// The id of the call the result answers.
    #[serde(default)]
    pub tool_call_id: Option<String>,
    /// When the call started (RFC 3339).
    #[serde(default)]
    pub started_at: Option<String>,
    /// When the call ended (RFC 3339).
    #[serde(default)]
    pub completed_at: Option<String>,
}

pub(super) fn issue(path: &str, code: IssueCode, message: String) -> Issues {
    Issues::from(Issue::new(path, code, message))
}

pub(super) fn object<'a>(v: &'a Value, what: &str) -> Result<&'a Map<String, Value>, Issues> {
    v.as_object().ok_or_else(|| {
        issue(
            "",
            IssueCode::InvalidType,
            format!("{what} must be an object, got {}", json_type(v)),
        )
    })
}

/// Refuses fields the conversion would drop.
pub(super) fn known_fields(
    o: &Map<String, Value>,
    allowed: &[&str],
    what: &str,
) -> Result<(), Issues> {
    match o.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(issue(
            &format!("/{k}"),
            IssueCode::UnknownField,
            format!(
                "unknown field {} in {what}; it would be lost in conversion",
                quote_text(k, '`')
            ),
        )),
        None => Ok(()),
    }
}

/// A spec for `build_value` from what the source shape had. An `output` of
/// `Some(null)` stays in the result as an explicit `output: null`: a value in
/// MCP 2026-07-28 and the AI SDK, while `build_value` (createSuccess) reads
/// null as "no output".
pub(super) fn build(
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
pub(super) fn insert_null_output(tr: &mut Value) {
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
pub(super) fn block_text(blocks: &[Value]) -> String {
    blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Compact JSON in the value's own key order: the same value, the same text.
pub(super) fn json_text(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

pub(super) fn str_of<'a>(o: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str)
}

pub(super) fn binary_note(kind: &str, mime: Option<&str>, data: Option<&str>) -> String {
    let bytes = data.map_or(0, |d| d.len() / 4 * 3);
    format!(
        "[{kind} omitted: {}, about {bytes} bytes; this target cannot hold it]",
        mime.unwrap_or("unknown type")
    )
}

pub(super) fn tool_result_parts(tr: &Value) -> Result<&Map<String, Value>, Issues> {
    object(tr, "a ToolResult")
}

pub(super) fn failed(tr: &Map<String, Value>) -> bool {
    str_of(tr, "status") != Some("success")
}

pub(super) fn error_message(tr: &Map<String, Value>) -> String {
    str_of(tr, "error_message")
        .unwrap_or("the tool failed")
        .to_string()
}

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

/// The block type of an Anthropic `search_result` block (kept whole).
pub const SEARCH_RESULT_BLOCK: &str = "anthropic/search-result";
/// The block type of an Anthropic `document` whose source has no MCP form
/// (`content`, `file`), kept whole.
pub const DOCUMENT_BLOCK: &str = "anthropic/document";

pub(super) fn block_as_text(b: &Value) -> String {
    match b.as_object() {
        // A search result reads as its title, source and text.
        Some(o) if str_of(o, "type") == Some(SEARCH_RESULT_BLOCK) => {
            let texts = match o.get("content") {
                Some(Value::Array(blocks)) => block_text(blocks),
                _ => String::new(),
            };
            format!(
                "[search result: {} <{}>]\n{texts}",
                str_of(o, "title").unwrap_or(""),
                str_of(o, "source").unwrap_or("")
            )
        }
        Some(o) => crate::bound::preview::block_text_with(o, binary_note),
        None => json_text(b),
    }
}

pub(super) fn call_id(tr: &Map<String, Value>) -> Result<String, Issues> {
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

/// A block's `_meta[key]`.
pub(super) fn meta<'a>(o: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    o.get("_meta")?.as_object()?.get(key)
}

pub(super) fn meta_str<'a>(o: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    meta(o, key).and_then(Value::as_str)
}

/// `block` with the given `_meta` entries (none: no `_meta`).
pub(super) fn with_meta_entries(
    mut block: Map<String, Value>,
    entries: impl IntoIterator<Item = (String, Value)>,
) -> Value {
    let meta: Map<String, Value> = entries.into_iter().collect();
    if !meta.is_empty() {
        block.insert("_meta".into(), Value::Object(meta));
    }
    Value::Object(block)
}

/// A `data:<media type>;base64,<data>` URL as (media type, data); other
/// URLs (other parameters, percent-encoded data) are not inline base64.
pub(super) fn parse_data_url(url: &str) -> Option<(&str, &str)> {
    let (media_type, data) = url.strip_prefix("data:")?.split_once(";base64,")?;
    let plain = !media_type.is_empty() && !media_type.contains([';', ',']);
    plain.then_some((media_type, data))
}

/// `data:<media type>;base64,<data>`.
pub(super) fn data_url(media_type: &str, data: &str) -> String {
    format!("data:{media_type};base64,{data}")
}

/// A block's string field `key` (in `o`, at `path`) that a part of `target`
/// needs.
pub(super) fn needed_str<'a>(
    o: &'a Map<String, Value>,
    path: &str,
    key: &str,
    target: &str,
) -> Result<&'a str, Issues> {
    match o.get(key) {
        Some(Value::String(s)) => Ok(s),
        None => Err(issue(
            &format!("{path}/{key}"),
            IssueCode::MissingField,
            format!("this content block needs `{key}` (a string) to become {target}"),
        )),
        Some(v) => Err(issue(
            &format!("{path}/{key}"),
            IssueCode::InvalidType,
            format!(
                "`{key}` of this content block is a string, got {}",
                json_type(v)
            ),
        )),
    }
}

/// The part's field `key` when it is present and of an allowed JSON type
/// (`null` included when `nullable`), for keeping in a block's `_meta`.
pub(super) fn optional_field<'a>(
    o: &'a Map<String, Value>,
    path: &str,
    key: &str,
    expected: &str,
    nullable: bool,
) -> Result<Option<&'a Value>, Issues> {
    let Some(v) = o.get(key) else {
        return Ok(None);
    };
    let article = if expected == "object" { "an" } else { "a" };
    let fits = match v {
        Value::Null => nullable,
        Value::String(_) => expected == "string",
        Value::Object(_) => expected == "object",
        Value::Bool(_) => expected == "boolean",
        _ => false,
    };
    if fits {
        Ok(Some(v))
    } else {
        let or_null = if nullable { " or null" } else { "" };
        Err(issue(
            &format!("{path}/{key}"),
            IssueCode::InvalidType,
            format!(
                "`{key}` is {article} {expected}{or_null}, got {}",
                json_type(v)
            ),
        ))
    }
}
