//! What every conversion shares: the call context, field access with typed
//! issues, and building the ToolResult.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use crate::builder::{build_value, Stamp};
use crate::issue::{Issue, IssueCode, Issues};
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
            format!("unknown field `{k}` in {what}; it would be lost in conversion"),
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

pub(super) fn block_as_text(b: &Value) -> String {
    match b.as_object() {
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
