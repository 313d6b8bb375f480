//! OpenAI Responses `function_call_output` and Chat `tool` messages, which take
//! the result as one string ([`super::result_text`]), and back.

use alloc::string::String;
use alloc::vec::Vec;
use serde_json::{json, Value};

use super::common::{
    build, call_id, issue, known_fields, object, result_text, str_of, tool_result_parts,
    CallContext,
};
use crate::builder::Stamp;
use crate::issue::{IssueCode, Issues};

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
