//! Vercel AI SDK `tool-result` / `tool-error` parts (AI SDK 6 and 7; the
//! parts of a `content` output are in `vercel_content.rs`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{json, Map, Value};

use super::common::{
    build, call_id, error_message, failed, issue, json_text, known_fields, object, str_of,
    tool_result_parts, CallContext,
};
use super::vercel_content::{block_from_part, part_from_block, AiSdk};
use crate::builder::Stamp;
use crate::issue::{quote_text, IssueCode, Issues};
use crate::validate::check::json_type;

/// The two places a tool result appears in the Vercel AI SDK (6 and 7).
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
/// Content blocks are written with AI SDK 7's part names; see
/// [`to_vercel_for`] for AI SDK 6's.
pub fn to_vercel(tr: &Value, shape: VercelShape) -> Result<Value, Issues> {
    to_vercel_for(tr, shape, AiSdk::V7)
}

/// [`to_vercel`] for the AI SDK major `sdk`: the parts of a `content` output
/// are that major's (docs/guide/conversions.md "AI SDK content parts"). A block read from a
/// part (`meta["ai-sdk/type"]`) becomes that part again when `sdk` has it.
pub fn to_vercel_for(tr: &Value, shape: VercelShape, sdk: AiSdk) -> Result<Value, Issues> {
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
            part.insert("output".into(), vercel_output(t, sdk)?);
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
fn vercel_output(t: &Map<String, Value>, sdk: AiSdk) -> Result<Value, Issues> {
    if failed(t) {
        let message = error_message(t);
        if str_of(t, "status") == Some("permission_denied")
            && str_of(t, "error_code") == Some(EXECUTION_DENIED)
        {
            return Ok(if message == DENIED_WITHOUT_REASON {
                json!({"type": "execution-denied"})
            } else {
                json!({"type": "execution-denied", "reason": message})
            });
        }
        return Ok(match t.get("output") {
            // A failure read from `error-json` keeps the value as its output
            // and that value's JSON text as its message.
            Some(v) if json_text(v) == message => {
                json!({"type": "error-json", "value": v})
            }
            _ => json!({"type": "error-text", "value": message}),
        });
    }
    Ok(match (t.get("content"), t.get("output")) {
        (Some(Value::Array(blocks)), _) => {
            let parts = blocks
                .iter()
                .enumerate()
                .map(|(i, b)| part_from_block(b, i, sdk))
                .collect::<Result<Vec<_>, _>>()?;
            json!({"type": "content", "value": parts})
        }
        (_, Some(Value::String(s))) => json!({"type": "text", "value": s}),
        // An explicit `output: null` is the JSON value null.
        (_, Some(v)) => json!({"type": "json", "value": v}),
        _ => json!({"type": "text", "value": ""}),
    })
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
            format!(
                "unknown field {} in the output; it would be lost in conversion",
                quote_text(k, '`')
            ),
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
                blocks.push(block_from_part(p, i)?);
            }
            build(ctx, ids, None, Some(Value::Array(blocks)), meta, None, stamp)
        }
        other => Err(issue(
            "/output/type",
            IssueCode::InvalidEnum,
            format!(
                "unknown output type {}; expected text, json, content, error-text, error-json or execution-denied",
                other.map_or_else(|| String::from("(none)"), |s| quote_text(s, '"'))
            ),
        )),
    }
}
