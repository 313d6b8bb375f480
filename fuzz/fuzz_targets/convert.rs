//! Migration, normalization and every conversion on arbitrary JSON: never
//! panic; whatever they return validates; normalize is idempotent; an MCP
//! result that converts comes back the same; only blocks with no MCP form
//! keep a result from MCP; an OpenAI function_call_output or Anthropic
//! tool_result read with parts or documents is written back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolresult::interop::{self, CallContext, McpRevision, MigrationContext};
use toolresult::json::{parse_str, ParseLimits};
use toolresult::{validate_agent_result, validate_tool_result, Stamp, ValidationOptions};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let limits = ParseLimits::new(1 << 20, 64);
    let Ok(input) = parse_str(text, limits) else {
        return;
    };
    let opts = ValidationOptions::default();
    let stamp = Stamp {
        now_unix_ms: 1.7e12,
        random: [first; 16],
    };

    let mctx = MigrationContext {
        agent_id: Some("a".into()),
        agent_type: Some("scaffold".into()),
        action: Some("x".into()),
        timestamp: None,
        now: Some("2026-11-22T10:00:00Z".into()),
    };
    if let Ok(n) = interop::normalize_agent_result(&input, &mctx) {
        let text = n.value.to_string();
        assert!(
            validate_agent_result(&text, &opts).is_empty(),
            "normalize gave an invalid AgentResult: {text}"
        );
        let again = interop::normalize_agent_result(&n.value, &mctx)
            .expect("normalizing an AgentResult works");
        assert_eq!(again.value, n.value, "normalize is idempotent");
    }

    let ctx = CallContext {
        tool_name: Some("t".into()),
        tool_call_id: Some("c".into()),
        ..Default::default()
    };
    let results = [
        interop::from_mcp(&input, &ctx, None, stamp),
        interop::from_anthropic(&input, &ctx, stamp),
        interop::from_openai(&input, &ctx, stamp),
        interop::from_vercel(&input, &ctx, None, stamp),
    ];
    // Provider shapes read with parts, documents or search results come back
    // the same (the item's own `id` and `status` aside).
    if let Ok(tr) = &results[2] {
        let parts = input["output"].as_array().is_some_and(|p| !p.is_empty());
        if parts && input["call_id"].is_string() {
            let mut back = interop::to_openai_function_call_output(tr)
                .expect("a function_call_output read converts back");
            for k in ["id", "status"] {
                if let Some(v) = input.get(k) {
                    back[k] = v.clone();
                }
            }
            assert_eq!(
                without_null_sources(&back),
                without_null_sources(&input),
                "function_call_output round trip"
            );
        }
    }
    if let Ok(tr) = &results[1] {
        if input["content"].is_array()
            && input["tool_use_id"].is_string()
            && input.get("is_error").is_none()
        {
            let back = interop::to_anthropic(tr).expect("a tool_result read converts back");
            if documents_only(&input) {
                assert_eq!(back, input, "tool_result round trip");
            }
        }
    }
    for (i, r) in results.iter().enumerate() {
        let Ok(tr) = r else { continue };
        let text = tr.to_string();
        assert!(
            validate_tool_result(&text, &opts).is_empty(),
            "conversion {i} gave an invalid ToolResult: {text}"
        );
        let _ = interop::to_anthropic(tr);
        let _ = interop::to_openai_chat_tool_message(tr);
        // The text form always converts a result with a call id; the parts
        // form refuses only blocks a part cannot be made from.
        let text_form = interop::to_openai_function_call_output_text(tr);
        assert!(
            text_form.as_ref().map_or(true, |o| o["output"].is_string()),
            "the text form is one string: {text_form:?}"
        );
        if let Ok(item) = interop::to_openai_function_call_output(tr) {
            assert!(item["output"].is_string() || item["output"].is_array());
        }
        let _ = interop::to_vercel(tr, interop::VercelShape::ToolMessage);
        let _ = interop::to_vercel(tr, interop::VercelShape::StepContent);
        let _ = interop::to_vercel_for(tr, interop::VercelShape::ToolMessage, interop::AiSdk::V6);
        let rev = if first & 1 == 0 {
            McpRevision::V2025_11_25
        } else {
            McpRevision::V2026_07_28
        };
        // Blocks with no MCP form (provider file references, AI SDK custom
        // parts, Anthropic search results and documents kept whole) are
        // refused; everything else converts.
        let ai_sdk_only = tr["content"].as_array().is_some_and(|blocks| {
            blocks.iter().any(|b| {
                matches!(
                    b["type"].as_str(),
                    Some(
                        interop::FILE_REFERENCE_BLOCK
                            | interop::CUSTOM_BLOCK
                            | interop::SEARCH_RESULT_BLOCK
                            | interop::DOCUMENT_BLOCK
                    )
                )
            })
        });
        let mcp = match interop::to_mcp(tr, rev) {
            Ok(mcp) => {
                assert!(!ai_sdk_only, "an AI SDK-only block went to MCP: {text}");
                mcp
            }
            Err(issues) => {
                assert!(
                    ai_sdk_only,
                    "a valid ToolResult converts to MCP: {issues:?}"
                );
                assert_eq!(issues.0[0].code.as_str(), "unsupported_value");
                continue;
            }
        };
        if i == 0 {
            let back = interop::from_mcp(&mcp, &ctx, Some(rev), stamp)
                .expect("our MCP output converts back");
            // 2025-11-25 holds object outputs only; 2026-07-28 holds any value.
            if rev == McpRevision::V2026_07_28 || !tr.get("output").is_some_and(|o| !o.is_object())
            {
                assert_eq!(back.get("output"), tr.get("output"));
            }
            assert_eq!(back["content"], tr["content"]);
            assert_eq!(back["status"], tr["status"]);
        }
    }
});

/// An OpenAI item without the `null` source fields of its parts, which mean
/// absent and are not written back.
fn without_null_sources(v: &serde_json::Value) -> serde_json::Value {
    let mut v = v.clone();
    if let Some(parts) = v["output"].as_array_mut() {
        for p in parts.iter_mut().filter_map(|p| p.as_object_mut()) {
            p.retain(|k, v| {
                !(v.is_null()
                    && matches!(
                        k.as_str(),
                        "image_url" | "file_id" | "file_data" | "file_url"
                    ))
            });
        }
    }
    v
}

/// Whether every block of an Anthropic tool_result is a document or a
/// search result (the blocks this conversion writes back whole or from
/// `_meta`; text and image blocks are written in their plain form).
fn documents_only(input: &serde_json::Value) -> bool {
    input.get("cache_control").is_none()
        && input["content"].as_array().is_some_and(|blocks| {
            blocks
                .iter()
                .all(|b| matches!(b["type"].as_str(), Some("document" | "search_result")))
        })
}
