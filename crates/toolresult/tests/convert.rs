//! Migration and conversions natively, on the shared fixtures in
//! tests/fixtures/convert (the npm package runs the same cases in
//! tests/node/convert.test.mjs).

use std::path::PathBuf;

use serde_json::{json, Value};
use toolresult::interop::migrate::{self, MigrationContext};
use toolresult::interop::{self, CallContext, McpRevision, VercelShape};
use toolresult::{validate_agent_result, validate_tool_result, Stamp, ValidationOptions};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/convert")
}

fn read(file: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir().join(file)).unwrap()).unwrap()
}

const STAMP: Stamp = Stamp {
    now_unix_ms: 1_795_341_600_000.0,
    random: [7; 16],
};

fn run(case: &Value) -> Result<Value, toolresult::Issues> {
    let input = read(case["file"].as_str().unwrap());
    let from = case["from"].as_str().unwrap();
    if matches!(from, "auto" | "task-result" | "agent-message") {
        let ctx: MigrationContext = serde_json::from_value(case["context"].clone()).unwrap();
        let n = if from == "task-result" {
            migrate::migrate_task_result(&input, &ctx)
        } else {
            migrate::normalize(&input, &ctx)
        }?;
        return Ok(n.value);
    }
    let ctx: CallContext = serde_json::from_value(case["context"].clone()).unwrap();
    match from {
        "mcp" => interop::from_mcp(&input, &ctx, revision(case), STAMP),
        "anthropic" => interop::from_anthropic(&input, &ctx, STAMP),
        "openai" => interop::from_openai(&input, &ctx, STAMP),
        "vercel" => interop::from_vercel(&input, &ctx, shape(case), STAMP),
        other => panic!("unknown source {other}"),
    }
}

fn revision(case: &Value) -> Option<McpRevision> {
    case["revision"]
        .as_str()
        .map(|r| McpRevision::parse(r).unwrap())
}

fn shape(case: &Value) -> Option<VercelShape> {
    case["as"].as_str().map(|s| match s {
        "tool-message" => VercelShape::ToolMessage,
        "step-content" => VercelShape::StepContent,
        other => panic!("unknown shape {other}"),
    })
}

#[test]
fn every_fixture_case_gives_its_expected_outcome() {
    let cases = read("cases.json");
    let opts = ValidationOptions::default();
    for case in cases.as_array().unwrap() {
        let name = format!("{} ({})", case["file"], case["from"]);
        match (run(case), case["expect"].as_str().unwrap()) {
            (Ok(v), "ok") => {
                let text = v.to_string();
                let agent = matches!(
                    case["from"].as_str(),
                    Some("auto" | "task-result" | "agent-message")
                );
                let issues = if agent {
                    validate_agent_result(&text, &opts)
                } else {
                    validate_tool_result(&text, &opts)
                };
                assert!(issues.is_empty(), "{name}: {issues:?}");
                assert_eq!(v["status"], case["status"], "{name}");
            }
            (Err(issues), code) if code != "ok" => {
                assert_eq!(issues.0[0].code.as_str(), code, "{name}: {issues:?}");
                assert_eq!(issues.0[0].path, case["path"].as_str().unwrap(), "{name}");
            }
            (other, expect) => panic!("{name}: expected {expect}, got {other:?}"),
        }
    }
}

#[test]
fn mcp_round_trips_are_lossless() {
    let cases = read("cases.json");
    let ctx = CallContext {
        tool_name: Some("t".into()),
        ..Default::default()
    };
    let mut n = 0;
    for case in cases.as_array().unwrap() {
        if case["from"] != "mcp" || case["expect"] != "ok" {
            continue;
        }
        let file = case["file"].as_str().unwrap();
        let mcp = read(file);
        let rev = revision(case).unwrap_or(McpRevision::V2025_11_25);
        let tr = interop::from_mcp(&mcp, &ctx, Some(rev), STAMP).unwrap();
        if mcp.get("structuredContent").is_some() {
            assert_eq!(tr["output"], mcp["structuredContent"], "{file}");
        }
        assert_eq!(interop::to_mcp(&tr, rev).unwrap(), mcp, "{file}");
        n += 1;
    }
    assert!(n >= 11, "{n} MCP cases");
}

#[test]
fn mcp_structured_content_of_every_json_type_per_revision() {
    let ctx = CallContext {
        tool_name: Some("t".into()),
        ..Default::default()
    };
    for value in [
        json!([1, 2]),
        json!("text"),
        json!(3.5),
        json!(true),
        json!(null),
        json!({"a": 1}),
    ] {
        let mcp = json!({"content": [], "structuredContent": value, "resultType": "complete"});
        let tr = interop::from_mcp(&mcp, &ctx, None, STAMP).unwrap();
        assert_eq!(tr.get("output"), Some(&value));
        assert!(validate_tool_result(&tr.to_string(), &ValidationOptions::default()).is_empty());
        assert_eq!(interop::to_mcp(&tr, McpRevision::V2026_07_28).unwrap(), mcp);
        let old = interop::to_mcp(&tr, McpRevision::V2025_11_25).unwrap();
        assert_eq!(old.get("structuredContent").is_some(), value.is_object());
        assert_eq!(old.get("resultType"), None);
        let refused = interop::from_mcp(&mcp, &ctx, Some(McpRevision::V2025_11_25), STAMP);
        assert_eq!(refused.is_err(), !value.is_object(), "{value}");
    }
    // A result of an earlier server (no resultType) reads as complete under 2026-07-28.
    let legacy = read("mcp-text.json");
    assert!(interop::from_mcp(&legacy, &ctx, Some(McpRevision::V2026_07_28), STAMP).is_ok());
}

#[test]
fn anthropic_and_vercel_round_trips() {
    let ctx = CallContext {
        tool_name: Some("t".into()),
        ..Default::default()
    };
    for file in [
        "anthropic-text.json",
        "anthropic-blocks.json",
        "anthropic-error.json",
    ] {
        let block = read(file);
        let tr = interop::from_anthropic(&block, &ctx, STAMP).unwrap();
        assert_eq!(interop::to_anthropic(&tr).unwrap(), block, "{file}");
    }
    for (file, shape) in [
        ("vercel-message-json.json", VercelShape::ToolMessage),
        ("vercel-message-text.json", VercelShape::ToolMessage),
        ("vercel-message-content.json", VercelShape::ToolMessage),
        ("vercel-message-error-text.json", VercelShape::ToolMessage),
        ("vercel-message-error-json.json", VercelShape::ToolMessage),
        ("vercel-message-denied.json", VercelShape::ToolMessage),
        (
            "vercel-message-provider-options.json",
            VercelShape::ToolMessage,
        ),
        ("vercel-step-result.json", VercelShape::StepContent),
        ("vercel-step-error.json", VercelShape::StepContent),
    ] {
        let part = read(file);
        let tr = interop::from_vercel(&part, &CallContext::default(), None, STAMP).unwrap();
        assert_eq!(interop::to_vercel(&tr, shape).unwrap(), part, "{file}");
    }
    // A failure in a tool message is a tool-result part with an error output;
    // in step content it is a tool-error part.
    let failed = interop::from_vercel(&read("vercel-step-error.json"), &ctx, None, STAMP).unwrap();
    let message_part = interop::to_vercel(&failed, VercelShape::ToolMessage).unwrap();
    assert_eq!(message_part["type"], "tool-result");
    assert_eq!(
        message_part["output"],
        json!({"type": "error-text", "value": "City not found"})
    );
    assert_eq!(message_part.get("input"), None);
    let chat = read("openai-chat-tool.json");
    let tr = interop::from_openai(&chat, &ctx, STAMP).unwrap();
    assert_eq!(interop::to_openai_chat_tool_message(&tr).unwrap(), chat);
}

#[test]
fn normalize_is_idempotent_on_the_fixtures() {
    let ctx = MigrationContext {
        agent_id: Some("a".into()),
        agent_type: Some("scaffold".into()),
        action: Some("x".into()),
        timestamp: Some("2026-11-22T10:00:00Z".into()),
        now: None,
    };
    for file in [
        "task-result-success.json",
        "task-result-failure.json",
        "task-result-partial.json",
        "task-result-extra-fields.json",
        "agent-message-task-result.json",
    ] {
        let once = migrate::normalize(&read(file), &ctx).unwrap();
        let twice = migrate::normalize(&once.value, &ctx).unwrap();
        assert_eq!(twice.value, once.value, "{file}");
        assert!(twice.changes.is_empty(), "{file}");
    }
    let unsupported = migrate::normalize(&json!({"version": "0.9"}), &ctx).unwrap_err();
    assert!(unsupported.0[0]
        .message
        .contains("supported versions: 1.0.0"));
}
