//! Issue #44: a message quotes at most `MESSAGE_QUOTE_CHARS` characters of a
//! value, with its length, however large the value (docs/spec.md §15).

use serde_json::{json, Value};
use toolresult::limits::MESSAGE_QUOTE_CHARS;
use toolresult::{
    create_failure, validate_agent_result, validate_tool_result, Issues, Stamp, ValidationOptions,
    Validator,
};
use toolresult::{quote_json, quote_text};

/// A bound every message must keep: the quote plus the message's own words.
const BOUND: usize = 1_000;
const BIG: usize = 3_000_000;

fn big() -> String {
    "a".repeat(BIG)
}

/// Every message is short, and the one about the big value names its length.
fn assert_small(issues: &Issues, what: &str) {
    assert!(!issues.is_empty(), "{what}: no issue");
    for issue in issues {
        assert!(
            issue.message.chars().count() <= BOUND,
            "{what}: a message of {} chars at {}",
            issue.message.len(),
            issue.path
        );
    }
    assert!(
        issues
            .iter()
            .any(|i| i.message.contains("(3,000,000 chars)")),
        "{what}: no message names the length: {issues}"
    );
}

fn tool_result() -> Value {
    json!({
        "input": { "tool_name": "read_file", "parameters": { "path": "missing.txt" } },
        "status": "failed",
        "error_message": "File not found",
        "error_code": "FILE_NOT_FOUND",
        "metadata": {
            "execution_id": "1c6f5e4d-3b2a-4f8e-8d2e-6b7c8d9e0f1a",
            "started_at": "2026-11-22T10:00:00Z",
            "completed_at": "2026-11-22T10:00:01Z",
            "duration_ms": 1000
        },
        "schema_version": "1.0.0"
    })
}

fn agent_result() -> Value {
    json!({
        "task_id": "task-42",
        "agent_id": "deploy-1",
        "agent_type": "deployment",
        "success": false,
        "status": "failed",
        "action": "deploy_preview",
        "result": {},
        "error": { "code": "DEPLOY_TIMEOUT", "message": "provider did not answer" },
        "timestamp": "2026-11-22T10:15:30+01:00",
        "version": "1.0.0"
    })
}

/// Both walks (over the text and over the value) on a tool result.
fn check_tool(value: &Value, what: &str) {
    let options = ValidationOptions::default();
    assert_small(
        &validate_tool_result(&value.to_string(), &options),
        &format!("{what} (text)"),
    );
    let validator = Validator::new(toolresult::EnvelopeKind::ToolResult, options).unwrap();
    assert_small(&validator.check_value(value), &format!("{what} (value)"));
}

fn check_agent(value: &Value, what: &str) {
    let options = ValidationOptions::default();
    assert_small(
        &validate_agent_result(&value.to_string(), &options),
        &format!("{what} (text)"),
    );
    let validator = Validator::new(toolresult::EnvelopeKind::AgentResult, options).unwrap();
    assert_small(&validator.check_value(value), &format!("{what} (value)"));
}

#[test]
fn quotes_are_short_and_name_the_length() {
    let short = json!({ "a": [1, "b", null] });
    assert_eq!(quote_json(&short), short.to_string());
    assert_eq!(quote_text("FILE_NOT_FOUND", '`'), "`FILE_NOT_FOUND`");

    let quoted = quote_json(&Value::String(big()));
    assert_eq!(
        quoted,
        format!(
            "\"{}…\" (3,000,000 chars)",
            "a".repeat(MESSAGE_QUOTE_CHARS - 1)
        )
    );
    let quoted = quote_text(&big(), '`');
    assert_eq!(
        quoted,
        format!("`{}…` (3,000,000 chars)", "a".repeat(MESSAGE_QUOTE_CHARS))
    );
    // Exactly the limit is quoted whole; one more is cut.
    let at = "é".repeat(MESSAGE_QUOTE_CHARS);
    assert_eq!(quote_text(&at, '\''), format!("'{at}'"));
    assert!(quote_text(&format!("{at}é"), '\'').ends_with("…' (201 chars)"));

    let image = json!({ "type": "image", "mimeType": "image/png", "data": "iVBO".repeat(BIG / 4) });
    let quoted = quote_json(&image);
    assert!(
        quoted.chars().count() < MESSAGE_QUOTE_CHARS + 40,
        "{quoted}"
    );
    assert!(quoted.starts_with(r#"{"data":"iVBO"#) || quoted.starts_with(r#"{"type""#));
    assert!(quoted.ends_with(" chars of JSON)"), "{quoted}");
    // A cut never ends inside an escape.
    let quoted = quote_json(&Value::String("\n".repeat(300)));
    assert!(quoted.ends_with("\\n…\" (300 chars)"), "{quoted}");
    // Multi-byte characters are cut at a character, never inside one.
    let quoted = quote_json(&Value::String("€".repeat(BIG)));
    assert!(quoted.ends_with("…\" (3,000,000 chars)"), "{quoted}");
}

#[test]
fn wire_validation_quotes_huge_strings_briefly() {
    for (pointer, what) in [
        ("/status", "an unknown status"),
        ("/error_code", "an error code"),
        ("/schema_version", "a schema version"),
        ("/metadata/execution_id", "an execution id"),
        ("/metadata/started_at", "a timestamp"),
    ] {
        let mut value = tool_result();
        *value.pointer_mut(pointer).unwrap() = Value::String(big());
        check_tool(&value, what);
    }
    // An unknown field whose name is 3 MB.
    let mut value = tool_result();
    value
        .as_object_mut()
        .unwrap()
        .insert(big(), Value::Bool(true));
    check_tool(&value, "an unknown field");
    // An unknown tool_metadata kind.
    let mut value = tool_result();
    value["tool_metadata"] = json!({ "tool_type": big() });
    check_tool(&value, "an unknown tool_type");

    for (pointer, what) in [
        ("/status", "an unknown agent status"),
        ("/agent_type", "an unknown agent type"),
        ("/timestamp", "an agent timestamp"),
        ("/version", "an agent version"),
    ] {
        let mut value = agent_result();
        *value.pointer_mut(pointer).unwrap() = Value::String(big());
        check_agent(&value, what);
    }
    let mut value = agent_result();
    value
        .as_object_mut()
        .unwrap()
        .insert(big(), Value::Bool(true));
    check_agent(&value, "an unknown agent field");
}

#[test]
fn builders_quote_huge_strings_briefly() {
    let stamp = || Stamp {
        now_unix_ms: 1_790_000_000_000.0,
        random: [7; 16],
    };
    for spec in [
        json!({ "input": { "tool_name": "t" }, "status": big(), "error_message": "x", "error_code": "X" }),
        json!({ "input": { "tool_name": "t" }, "status": "failed", "error_message": "x", "error_code": "X", "started_at": big() }),
        json!({ "input": { "tool_name": "t" }, "status": "failed", "error_message": "x", "error_code": "X", big(): 1 }),
    ] {
        let issues = create_failure(spec, stamp()).unwrap_err();
        assert_small(&issues, "createFailure");
    }
}
