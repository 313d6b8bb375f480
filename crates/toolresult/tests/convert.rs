//! Migration and conversions natively, on the shared fixtures in
//! tests/fixtures/convert (the npm package runs the same cases in
//! tests/node/convert.test.mjs).

use std::path::PathBuf;

use serde_json::{json, Value};
use toolresult::interop::{self, AiSdk, CallContext, McpRevision, MigrationContext, VercelShape};
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
            interop::migrate_task_result(&input, &ctx)
        } else {
            interop::normalize_agent_result(&input, &ctx)
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
        let once = interop::normalize_agent_result(&read(file), &ctx).unwrap();
        let twice = interop::normalize_agent_result(&once.value, &ctx).unwrap();
        assert_eq!(twice.value, once.value, "{file}");
        assert!(twice.changes.is_empty(), "{file}");
    }
    let unsupported =
        interop::normalize_agent_result(&json!({"version": "0.9"}), &ctx).unwrap_err();
    assert!(unsupported.0[0]
        .message
        .contains("supported versions: 1.0.0"));
}

/// The tool-message fixtures of each AI SDK major's `content` parts.
const AI_SDK_7_PARTS: &[&str] = &[
    "vercel7-message-file-data.json",
    "vercel7-message-file-url.json",
    "vercel7-message-file-reference.json",
    "vercel7-message-file-text.json",
    "vercel7-message-reference-legacy.json",
    "vercel-message-custom.json",
    "vercel-message-file-legacy.json",
    "vercel-message-content.json",
];
const AI_SDK_6_PARTS: &[&str] = &[
    "vercel-message-custom.json",
    "vercel-message-file-legacy.json",
    "vercel-message-content.json",
    "vercel-message-media-legacy.json",
];

fn from_part(file: &str) -> Value {
    interop::from_vercel(&read(file), &CallContext::default(), None, STAMP).unwrap()
}

#[test]
fn ai_sdk_content_parts_round_trip_for_their_major() {
    for (sdk, files) in [(AiSdk::V7, AI_SDK_7_PARTS), (AiSdk::V6, AI_SDK_6_PARTS)] {
        for file in files {
            let part = read(file);
            let tr = from_part(file);
            assert!(
                validate_tool_result(&tr.to_string(), &ValidationOptions::default()).is_empty(),
                "{file}"
            );
            let back = interop::to_vercel_for(&tr, VercelShape::ToolMessage, sdk).unwrap();
            assert_eq!(back, part, "{file} ({sdk:?})");
        }
    }
    // AI SDK 7 is the default.
    let tr = from_part("vercel7-message-file-url.json");
    assert_eq!(
        interop::to_vercel(&tr, VercelShape::ToolMessage).unwrap(),
        read("vercel7-message-file-url.json")
    );
}

#[test]
fn ai_sdk_file_parts_become_mcp_blocks_and_references_stay_ai_sdk_blocks() {
    let data = from_part("vercel7-message-file-data.json");
    let kinds: Vec<&str> = data["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text", "image", "audio", "resource", "image"]);
    assert_eq!(
        data["content"][0]["_meta"],
        json!({"ai-sdk/providerOptions": {"anthropic": {"cacheControl": {"type": "ephemeral"}}}})
    );
    assert_eq!(
        data["content"][1],
        json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png",
               "_meta": {"ai-sdk/type": "file", "ai-sdk/filename": "chart.png"}})
    );
    assert_eq!(
        data["content"][3]["resource"],
        json!({"uri": interop::INLINE_URI, "mimeType": "application/pdf", "blob": "JVBERi0xLjcKJeLjz9M="})
    );
    let url = from_part("vercel7-message-file-url.json");
    assert_eq!(
        url["content"][0],
        json!({"type": "resource_link", "uri": "https://example.com/docs/guide.pdf", "name": "guide.pdf",
               "mimeType": "application/pdf", "_meta": {"ai-sdk/type": "file", "ai-sdk/filename": "guide.pdf"}})
    );
    assert_eq!(url["content"][1]["name"], "https://example.com/img/cat.png");
    assert_eq!(
        url["content"][2]["_meta"]["ai-sdk/originalUrl"],
        "s3://bucket/a b.txt"
    );
    let text = from_part("vercel7-message-file-text.json");
    assert_eq!(
        text["content"][0]["resource"],
        json!({"uri": interop::INLINE_URI, "mimeType": "text/markdown", "text": "# Notes\n- one\n"})
    );
    // Every block with an MCP form goes to MCP, in both revisions...
    for file in [
        "vercel7-message-file-data.json",
        "vercel7-message-file-url.json",
        "vercel7-message-file-text.json",
        "vercel-message-content.json",
    ] {
        let tr = from_part(file);
        for rev in [McpRevision::V2025_11_25, McpRevision::V2026_07_28] {
            let mcp = interop::to_mcp(&tr, rev).unwrap();
            assert_eq!(mcp["content"], tr["content"], "{file}");
        }
    }
    // ...and provider references and custom parts, which have none, are refused.
    let reference = from_part("vercel7-message-file-reference.json");
    assert_eq!(
        reference["content"][0],
        json!({"type": interop::FILE_REFERENCE_BLOCK,
               "reference": {"openai": "file-abc123", "anthropic": "file_011CNha8iCJcU1wXNR6q4V8w"},
               "mimeType": "application/pdf",
               "_meta": {"ai-sdk/type": "file", "ai-sdk/filename": "contract.pdf"}})
    );
    for (file, index, block) in [
        (
            "vercel7-message-file-reference.json",
            0,
            interop::FILE_REFERENCE_BLOCK,
        ),
        (
            "vercel-message-file-legacy.json",
            2,
            interop::FILE_REFERENCE_BLOCK,
        ),
        ("vercel-message-custom.json", 1, interop::CUSTOM_BLOCK),
    ] {
        let tr = from_part(file);
        let issues = interop::to_mcp(&tr, McpRevision::V2025_11_25).unwrap_err();
        assert_eq!(issues.0[0].code.as_str(), "unsupported_value", "{file}");
        assert_eq!(issues.0[0].path, format!("/content/{index}/type"), "{file}");
        assert!(issues.0[0].message.contains(block), "{file}");
    }
    // Other targets read them as text, like any block they cannot hold.
    let reference = from_part("vercel-message-file-legacy.json");
    let mut with_id = reference.clone();
    with_id["input"]["tool_call_id"] = json!("toolu_1");
    let text = interop::to_anthropic(&with_id).unwrap().to_string();
    assert!(text.contains("file-abc123"), "{text}");
}

fn parts(part: &Value) -> Vec<Value> {
    part["output"]["value"].as_array().unwrap().clone()
}

#[test]
fn ai_sdk_6_gets_its_nearest_part_for_what_only_ai_sdk_7_has() {
    let to6 = |file: &str| {
        parts(
            &interop::to_vercel_for(&from_part(file), VercelShape::ToolMessage, AiSdk::V6).unwrap(),
        )
    };
    let po = json!({"anthropic": {"cacheControl": {"type": "ephemeral"}}});
    assert_eq!(
        to6("vercel7-message-file-data.json"),
        [
            json!({"type": "text", "text": "the report and its chart", "providerOptions": po}),
            json!({"type": "image-data", "data": "iVBORw0KGgo=", "mediaType": "image/png"}),
            json!({"type": "file-data", "data": "UklGRiQAAABXQVZF", "mediaType": "audio/wav"}),
            json!({"type": "file-data", "data": "JVBERi0xLjcKJeLjz9M=", "mediaType": "application/pdf",
                   "filename": "report.pdf", "providerOptions": po}),
            json!({"type": "image-data", "data": "iVBORw0KGgo=", "mediaType": "image"}),
        ]
    );
    assert_eq!(
        to6("vercel7-message-file-url.json"),
        [
            json!({"type": "file-url", "url": "https://example.com/docs/guide.pdf", "mediaType": "application/pdf"}),
            json!({"type": "file-url", "url": "https://example.com/img/cat.png", "mediaType": "image/png", "providerOptions": po}),
            json!({"type": "file-url", "url": "s3://bucket/a%20b.txt", "mediaType": "text/plain"}),
        ]
    );
    assert_eq!(
        to6("vercel7-message-file-reference.json"),
        [
            json!({"type": "file-id", "fileId": {"openai": "file-abc123", "anthropic": "file_011CNha8iCJcU1wXNR6q4V8w"}}),
            json!({"type": "file-id", "fileId": {"google": "files/xyz"}}),
        ]
    );
    assert_eq!(
        to6("vercel7-message-reference-legacy.json"),
        [
            json!({"type": "file-id", "fileId": {"openai": "file-abc123"}}),
            json!({"type": "image-file-id", "fileId": {"openai": "file-img1"}, "providerOptions": po}),
        ]
    );
    assert_eq!(
        to6("vercel7-message-file-text.json"),
        [json!({"type": "text", "text": "# Notes\n- one\n"})]
    );
    // AI SDK 6's `media` part is a `file` part for AI SDK 7.
    let media = from_part("vercel-message-media-legacy.json");
    assert_eq!(
        parts(&interop::to_vercel(&media, VercelShape::ToolMessage).unwrap()),
        [
            json!({"type": "file", "data": {"type": "data", "data": "iVBORw0KGgo="}, "mediaType": "image/png"})
        ]
    );
}

#[test]
fn mcp_blocks_become_each_majors_parts() {
    let ctx = CallContext {
        tool_name: Some("report".into()),
        tool_call_id: Some("c".into()),
        ..Default::default()
    };
    let tr = interop::from_mcp(&read("mcp-all-blocks.json"), &ctx, None, STAMP).unwrap();
    let kinds = |sdk| {
        parts(&interop::to_vercel_for(&tr, VercelShape::ToolMessage, sdk).unwrap())
            .iter()
            .map(|p| p["type"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    // Images and audio are files; MCP's links and embedded resources are
    // what they say, as text (a link is not fetched for the model).
    assert_eq!(
        kinds(AiSdk::V7),
        ["text", "file", "file", "text", "text", "text"]
    );
    assert_eq!(
        kinds(AiSdk::V6),
        ["text", "image-data", "file-data", "text", "text", "text"]
    );
    let v7 = parts(&interop::to_vercel(&tr, VercelShape::ToolMessage).unwrap());
    assert_eq!(v7[1]["mediaType"], "image/png");
    assert_eq!(v7[1]["data"]["type"], "data");
    assert!(v7[3]["text"]
        .as_str()
        .unwrap()
        .contains("file:///project/report.pdf"));
    assert_eq!(v7[4]["text"], "# Notes\n- one");
}

#[test]
fn hand_made_ai_sdk_blocks_and_bad_blocks() {
    let result = |content: Value| {
        json!({
            "schema_version": "1.0.0",
            "input": {"tool_name": "t", "parameters": {}, "tool_call_id": "c"},
            "status": "success",
            "content": content,
            "metadata": {"execution_id": "0b5e4d3c-2a19-4f7e-9c1d-5a6b7c8d9e0f",
                          "started_at": "2026-11-22T10:00:00Z", "completed_at": "2026-11-22T10:00:00Z",
                          "duration_ms": 0, "output_size": 0, "output_truncated": false}
        })
    };
    let out = |content: Value, sdk| {
        interop::to_vercel_for(&result(content), VercelShape::ToolMessage, sdk).map(|p| parts(&p))
    };
    // A reference block without a mark: AI SDK 7's `file` when it has a
    // media type, else `file-reference`; a bare id is a `file-id`.
    let blocks = json!([
        {"type": "ai-sdk/file-reference", "reference": {"openai": "f1"}, "mimeType": "application/pdf"},
        {"type": "ai-sdk/file-reference", "reference": {"openai": "f1"}},
        {"type": "ai-sdk/file-reference", "reference": "f1"},
        {"type": "ai-sdk/custom"},
    ]);
    assert_eq!(
        out(blocks.clone(), AiSdk::V7).unwrap(),
        [
            json!({"type": "file", "data": {"type": "reference", "reference": {"openai": "f1"}}, "mediaType": "application/pdf"}),
            json!({"type": "file-reference", "providerReference": {"openai": "f1"}}),
            json!({"type": "file-id", "fileId": "f1"}),
            json!({"type": "custom"}),
        ]
    );
    assert_eq!(
        out(blocks, AiSdk::V6).unwrap(),
        [
            json!({"type": "file-id", "fileId": {"openai": "f1"}}),
            json!({"type": "file-id", "fileId": {"openai": "f1"}}),
            json!({"type": "file-id", "fileId": "f1"}),
            json!({"type": "custom"}),
        ]
    );
    // A mark that does not fit the block is not followed.
    assert_eq!(
        out(json!([{"type": "image", "data": "AA==", "mimeType": "image/png", "_meta": {"ai-sdk/type": "file-url"}}]), AiSdk::V7).unwrap()[0]["type"],
        "file"
    );
    // Blocks that cannot make a valid part are refused, naming the field.
    for (block, path, code) in [
        (
            json!({"type": "image", "mimeType": "image/png"}),
            "/content/0/data",
            "missing_field",
        ),
        (
            json!({"type": "text", "text": 3}),
            "/content/0/text",
            "invalid_type",
        ),
        (
            json!({"type": "ai-sdk/file-reference"}),
            "/content/0/reference",
            "missing_field",
        ),
        (
            json!({"type": "ai-sdk/file-reference", "reference": 7}),
            "/content/0/reference",
            "invalid_type",
        ),
        (
            json!({"type": "resource_link", "uri": "https://x.test/a", "name": "a", "_meta": {"ai-sdk/type": "file"}}),
            "/content/0/mimeType",
            "missing_field",
        ),
        (
            json!({"type": "resource", "resource": {"uri": "ai-sdk:inline", "blob": "AA=="}, "_meta": {"ai-sdk/type": "file"}}),
            "/content/0/resource/mimeType",
            "missing_field",
        ),
    ] {
        let issues = out(json!([block]), AiSdk::V7).unwrap_err();
        assert_eq!(issues.0[0].path, path, "{block}");
        assert_eq!(issues.0[0].code.as_str(), code, "{block}");
    }
}

// ---------------------------------------------------------------------------
// OpenAI function_call_output parts and Anthropic documents and search results

const OPENAI_OUTPUT_PARTS: &[&str] = &[
    "openai-output-image.json",
    "openai-output-file.json",
    "openai-output-edge.json",
    "openai-output-text-parts.json",
];
const ANTHROPIC_DOCUMENTS: &[&str] = &[
    "anthropic-document-pdf.json",
    "anthropic-document-text-url.json",
    "anthropic-search-result.json",
    "anthropic-document-edge.json",
];

fn ctx(tool: &str) -> CallContext {
    CallContext {
        tool_name: Some(tool.into()),
        ..Default::default()
    }
}

fn from_openai(file: &str) -> Value {
    interop::from_openai(&read(file), &ctx("render_report"), STAMP).unwrap()
}

fn from_anthropic(file: &str) -> Value {
    interop::from_anthropic(&read(file), &ctx("read_documents"), STAMP).unwrap()
}

fn with_call_id(mut tr: Value, id: &str) -> Value {
    tr["input"]["tool_call_id"] = json!(id);
    tr
}

#[test]
fn openai_output_parts_round_trip_and_text_only_results_stay_strings() {
    for file in OPENAI_OUTPUT_PARTS {
        let item = read(file);
        let tr = from_openai(file);
        assert!(
            validate_tool_result(&tr.to_string(), &ValidationOptions::default()).is_empty(),
            "{file}"
        );
        assert_eq!(
            tr.get("output"),
            None,
            "{file}: parts are content, not output"
        );
        let mut back = interop::to_openai_function_call_output(&tr).unwrap();
        // The item's own `id` and `status` are the request's, not the result's.
        for k in ["id", "status"] {
            if let Some(v) = item.get(k) {
                back[k] = v.clone();
            }
        }
        assert_eq!(back, item, "{file}");
        // The text form is one string, images and files as notes.
        let text = interop::to_openai_function_call_output_text(&tr).unwrap();
        assert!(text["output"].is_string(), "{file}");
    }
    // A string output, text-only results and failures stay strings.
    let fco = read("openai-function-call-output.json");
    let tr = from_openai("openai-function-call-output.json");
    assert_eq!(interop::to_openai_function_call_output(&tr).unwrap(), fco);
    let mcp = interop::from_mcp(&read("mcp-text.json"), &ctx("w"), None, STAMP).unwrap();
    let out = interop::to_openai_function_call_output(&with_call_id(mcp, "c")).unwrap();
    assert!(out["output"].is_string(), "{out}");
    let mut failed = from_openai("openai-output-image.json");
    failed["status"] = json!("failed");
    failed["error_code"] = json!("RENDER_FAILED");
    failed["error_message"] = json!("no chart");
    assert_eq!(
        interop::to_openai_function_call_output(&failed).unwrap()["output"],
        "Error [RENDER_FAILED]: no chart"
    );
}

#[test]
fn openai_parts_become_mcp_blocks_and_file_ids_provider_references() {
    let image = from_openai("openai-output-image.json");
    assert_eq!(
        image["content"],
        json!([
            {"type": "text", "text": "the chart and the photo", "_meta": {"openai/type": "input_text"}},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png",
             "_meta": {"openai/type": "input_image", "openai/detail": "high"}},
            {"type": "resource_link", "uri": "https://example.com/img/cat.jpg", "name": "https://example.com/img/cat.jpg",
             "_meta": {"openai/type": "input_image", "openai/detail": "auto"}},
            {"type": interop::FILE_REFERENCE_BLOCK, "reference": {"openai": "file-img123"},
             "_meta": {"openai/type": "input_image", "openai/detail": "low"}},
        ])
    );
    let file = from_openai("openai-output-file.json");
    assert_eq!(
        file["content"][1],
        json!({"type": "resource", "resource": {"uri": interop::OPENAI_INLINE_URI, "mimeType": "application/pdf",
               "blob": "JVBERi0xLjcKJeLjz9M="}, "_meta": {"openai/type": "input_file", "openai/filename": "contract.pdf"}})
    );
    assert_eq!(file["content"][2]["type"], "resource_link");
    assert_eq!(
        file["content"][3]["reference"],
        json!({"openai": "file-abc123"})
    );
    let edge = from_openai("openai-output-edge.json");
    // A data URL that is not base64 is a link; bare data has no media type.
    assert_eq!(edge["content"][2]["type"], "resource_link");
    assert_eq!(
        edge["content"][3]["resource"],
        json!({"uri": interop::OPENAI_INLINE_URI, "blob": "JVBERi0xLjcKJeLjz9M="})
    );
    assert_eq!(edge["content"][3]["_meta"]["openai/filename"], Value::Null);
    // Blocks with an MCP form go to MCP and come back the same; file ids are refused.
    for (file, refused) in [
        ("openai-output-image.json", Some(3)),
        ("openai-output-file.json", Some(3)),
        ("openai-output-edge.json", None),
        ("openai-output-text-parts.json", None),
    ] {
        let tr = from_openai(file);
        match (interop::to_mcp(&tr, McpRevision::V2026_07_28), refused) {
            (Ok(mcp), None) => {
                assert_eq!(mcp["content"], tr["content"], "{file}");
                let back = interop::from_mcp(&mcp, &ctx("render_report"), None, STAMP).unwrap();
                let item = interop::to_openai_function_call_output(&with_call_id(back, "call_m1"))
                    .unwrap();
                assert_eq!(item["output"], read(file)["output"], "{file} through MCP");
            }
            (Err(issues), Some(i)) => {
                assert_eq!(issues.0[0].code.as_str(), "unsupported_value", "{file}");
                assert_eq!(issues.0[0].path, format!("/content/{i}/type"), "{file}");
                assert!(issues.0[0].message.contains("OpenAI file id"), "{file}");
            }
            (other, _) => panic!("{file}: {other:?}"),
        }
    }
    // An explicit null beside the source means absent.
    let nulls = json!({"type": "function_call_output", "call_id": "c", "output": [
        {"type": "input_image", "image_url": "https://example.com/a.png", "file_id": null}]});
    let tr = interop::from_openai(&nulls, &ctx("t"), STAMP).unwrap();
    assert_eq!(
        interop::to_openai_function_call_output(&tr).unwrap()["output"],
        json!([{"type": "input_image", "image_url": "https://example.com/a.png"}])
    );
}

#[test]
fn other_sources_blocks_become_openai_parts_where_openai_can_hold_them() {
    let kinds = |tr: &Value| -> Vec<String> {
        interop::to_openai_function_call_output(tr).unwrap()["output"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["type"].as_str().unwrap().to_string())
            .collect()
    };
    // MCP: the image and nothing else; audio, links, text resources and
    // arbitrary binaries are notes.
    let mcp = interop::from_mcp(&read("mcp-all-blocks.json"), &ctx("r"), None, STAMP).unwrap();
    let mcp = with_call_id(mcp, "c");
    assert_eq!(
        kinds(&mcp),
        [
            "input_text",
            "input_image",
            "input_text",
            "input_text",
            "input_text",
            "input_text"
        ]
    );
    let parts = interop::to_openai_function_call_output(&mcp).unwrap()["output"].clone();
    assert!(parts[1]["image_url"]
        .as_str()
        .unwrap()
        .starts_with("data:image/png;base64,iVBORw0KGgo"));
    assert!(parts[2]["text"]
        .as_str()
        .unwrap()
        .starts_with("[audio omitted: audio/wav"));
    // An embedded PDF is a file, named by its URI.
    let pdf = json!({"content": [{"type": "resource", "resource": {"uri": "file:///p/report.pdf?v=2",
        "mimeType": "application/pdf", "blob": "JVBERi0xLjcKJeLjz9M="}}]});
    let tr = with_call_id(
        interop::from_mcp(&pdf, &ctx("r"), None, STAMP).unwrap(),
        "c",
    );
    assert_eq!(
        interop::to_openai_function_call_output(&tr).unwrap()["output"],
        json!([{"type": "input_file", "file_data": "data:application/pdf;base64,JVBERi0xLjcKJeLjz9M=", "filename": "report.pdf"}])
    );
    // AI SDK files: data, URLs and OpenAI references are OpenAI's parts.
    let data = with_call_id(from_part("vercel7-message-file-data.json"), "c");
    assert_eq!(
        kinds(&data),
        [
            "input_text",
            "input_image",
            "input_text",
            "input_file",
            "input_image"
        ]
    );
    assert_eq!(
        interop::to_openai_function_call_output(&data).unwrap()["output"][3]["filename"],
        "report.pdf"
    );
    let url = with_call_id(from_part("vercel7-message-file-url.json"), "c");
    assert_eq!(kinds(&url), ["input_file", "input_image", "input_file"]);
    let reference = with_call_id(from_part("vercel7-message-file-reference.json"), "c");
    let parts = interop::to_openai_function_call_output(&reference).unwrap()["output"].clone();
    assert_eq!(
        parts[0],
        json!({"type": "input_file", "file_id": "file-abc123", "filename": "contract.pdf"})
    );
    assert_eq!(parts[1]["type"], "input_text", "a Google file is a note");
    // Anthropic documents: the PDF is a file; a search result is its text.
    let doc = with_call_id(from_anthropic("anthropic-document-pdf.json"), "c");
    assert_eq!(kinds(&doc), ["input_text", "input_file"]);
    let search = with_call_id(from_anthropic("anthropic-search-result.json"), "c");
    let out = interop::to_openai_function_call_output(&search).unwrap();
    assert_eq!(
        out["output"],
        "[search result: Billing FAQ <https://docs.example.com/billing>]\nInvoices are sent on the 1st.\nRefunds take 5 days.\n\
         [search result: Refund policy <kb://articles/42>]\n30 days."
    );
}

#[test]
fn chat_tool_messages_take_text_parts_only() {
    let tr = from_openai("openai-chat-text-parts.json");
    assert_eq!(tr["output"], "21 degrees\nsunny");
    assert_eq!(
        interop::to_openai_chat_tool_message(&tr).unwrap(),
        json!({"role": "tool", "tool_call_id": "call_c2", "content": "21 degrees\nsunny"})
    );
    // Images and files are notes in a Chat tool message.
    let image = with_call_id(from_openai("openai-output-image.json"), "c");
    let chat = interop::to_openai_chat_tool_message(&image).unwrap();
    let text = chat["content"].as_str().unwrap();
    assert!(
        text.starts_with("the chart and the photo\n[image omitted: image/png"),
        "{text}"
    );
    assert!(!text.contains("iVBORw0KGgo"), "{text}");
}

#[test]
fn anthropic_documents_and_search_results_round_trip() {
    for file in ANTHROPIC_DOCUMENTS {
        let block = read(file);
        let tr = from_anthropic(file);
        assert!(
            validate_tool_result(&tr.to_string(), &ValidationOptions::default()).is_empty(),
            "{file}"
        );
        assert_eq!(interop::to_anthropic(&tr).unwrap(), block, "{file}");
    }
    let pdf = from_anthropic("anthropic-document-pdf.json");
    assert_eq!(
        pdf["content"][1],
        json!({"type": "resource", "resource": {"uri": interop::ANTHROPIC_INLINE_URI,
               "mimeType": "application/pdf", "blob": "JVBERi0xLjcKJeLjz9M="},
               "_meta": {"anthropic/type": "document", "anthropic/title": "Contract 2026-114",
                         "anthropic/context": "Signed by both parties on 2026-11-02",
                         "anthropic/citations": {"enabled": true},
                         "anthropic/cache_control": {"type": "ephemeral", "ttl": "1h"}}})
    );
    let text_url = from_anthropic("anthropic-document-text-url.json");
    assert_eq!(
        text_url["content"][0]["resource"],
        json!({"uri": interop::ANTHROPIC_INLINE_URI, "mimeType": "text/plain", "text": "Line one.\nLine two."})
    );
    assert_eq!(
        text_url["content"][1],
        json!({"type": "resource_link", "uri": "https://example.com/docs/annex.pdf",
               "name": "https://example.com/docs/annex.pdf", "mimeType": "application/pdf",
               "_meta": {"anthropic/type": "document"}})
    );
    let search = from_anthropic("anthropic-search-result.json");
    assert_eq!(search["content"][0]["type"], interop::SEARCH_RESULT_BLOCK);
    let edge = from_anthropic("anthropic-document-edge.json");
    let kinds: Vec<&str> = edge["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            interop::DOCUMENT_BLOCK,
            interop::DOCUMENT_BLOCK,
            interop::DOCUMENT_BLOCK,
            "resource",
            "text"
        ]
    );
    // Documents with an MCP form go to MCP and come back the same; blocks
    // with none are refused, naming the block.
    for (file, refused) in [
        ("anthropic-document-pdf.json", None),
        ("anthropic-document-text-url.json", None),
        (
            "anthropic-search-result.json",
            Some((0, interop::SEARCH_RESULT_BLOCK)),
        ),
        (
            "anthropic-document-edge.json",
            Some((0, interop::DOCUMENT_BLOCK)),
        ),
    ] {
        let tr = from_anthropic(file);
        match (interop::to_mcp(&tr, McpRevision::V2025_11_25), refused) {
            (Ok(mcp), None) => {
                let back = interop::from_mcp(&mcp, &ctx("d"), None, STAMP).unwrap();
                let block = interop::to_anthropic(&with_call_id(back, "toolu_d1")).unwrap();
                assert_eq!(block, read(file), "{file} through MCP");
            }
            (Err(issues), Some((i, kind))) => {
                assert_eq!(issues.0[0].code.as_str(), "unsupported_value", "{file}");
                assert_eq!(issues.0[0].path, format!("/content/{i}/type"), "{file}");
                assert!(issues.0[0].message.contains(kind), "{file}");
                assert!(issues.0[0].message.contains("Anthropic"), "{file}");
            }
            (other, _) => panic!("{file}: {other:?}"),
        }
    }
}

#[test]
fn other_sources_pdfs_become_anthropic_documents() {
    // An embedded PDF from MCP, OpenAI or the AI SDK is a document; other
    // binaries, text resources and plain links stay notes and text.
    let openai = with_call_id(from_openai("openai-output-file.json"), "toolu_1");
    let block = interop::to_anthropic(&openai).unwrap();
    assert_eq!(
        block["content"][1],
        json!({"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0xLjcKJeLjz9M="}})
    );
    // An OpenAI file URL says no media type: not known to be a PDF.
    assert_eq!(block["content"][2]["type"], "text");
    assert_eq!(block["content"][3]["type"], "text", "an OpenAI file id");
    let ai = with_call_id(from_part("vercel7-message-file-data.json"), "toolu_1");
    assert_eq!(
        interop::to_anthropic(&ai).unwrap()["content"][3]["type"],
        "document"
    );
    // A PDF link read from an AI SDK file part is a URL document.
    let ai = with_call_id(from_part("vercel7-message-file-url.json"), "toolu_1");
    let content = interop::to_anthropic(&ai).unwrap()["content"].clone();
    assert_eq!(
        content[0],
        json!({"type": "document", "source": {"type": "url", "url": "https://example.com/docs/guide.pdf"}})
    );
    assert_eq!(
        content[1]["type"], "text",
        "an image link is not a document"
    );
    let mcp = with_call_id(
        interop::from_mcp(&read("mcp-all-blocks.json"), &ctx("r"), None, STAMP).unwrap(),
        "toolu_1",
    );
    let kinds: Vec<String> = interop::to_anthropic(&mcp).unwrap()["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["type"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["text", "image", "text", "text", "text", "text"]);
}

#[test]
fn bad_blocks_for_openai_parts_are_refused_naming_the_field() {
    let result = |content: Value| {
        json!({
            "schema_version": "1.0.0",
            "input": {"tool_name": "t", "parameters": {}, "tool_call_id": "c"},
            "status": "success",
            "content": content,
            "metadata": {"execution_id": "0b5e4d3c-2a19-4f7e-9c1d-5a6b7c8d9e0f",
                          "started_at": "2026-11-22T10:00:00Z", "completed_at": "2026-11-22T10:00:00Z",
                          "duration_ms": 0, "output_size": 0, "output_truncated": false}
        })
    };
    for (block, path, code) in [
        (
            json!({"type": "image", "mimeType": "image/png"}),
            "/content/0/data",
            "missing_field",
        ),
        (
            json!({"type": "image", "data": "AA==", "mimeType": 7}),
            "/content/0/mimeType",
            "invalid_type",
        ),
        (
            json!({"type": "resource", "resource": {"uri": "openai:inline", "mimeType": "application/pdf"}}),
            "/content/0/resource/blob",
            "missing_field",
        ),
        (
            json!({"type": "resource_link", "name": "a", "_meta": {"openai/type": "input_file"}}),
            "/content/0/uri",
            "missing_field",
        ),
    ] {
        let issues = interop::to_openai_function_call_output(&result(json!([block]))).unwrap_err();
        assert_eq!(issues.0[0].path, path, "{block}");
        assert_eq!(issues.0[0].code.as_str(), code, "{block}");
    }
    // The text form never refuses a block.
    let out = interop::to_openai_function_call_output_text(&result(
        json!([{"type": "image", "mimeType": "image/png"}]),
    ))
    .unwrap();
    assert!(out["output"]
        .as_str()
        .unwrap()
        .starts_with("[image omitted"));
}
