//! Migration, normalization and every conversion on arbitrary JSON: never
//! panic; whatever they return validates; normalize is idempotent; an MCP
//! result that converts comes back the same; only blocks with no MCP form
//! keep a result from MCP.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolresult::interop::migrate::{self, MigrationContext};
use toolresult::interop::{self, CallContext, McpRevision};
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
    if let Ok(n) = migrate::normalize(&input, &mctx) {
        let text = n.value.to_string();
        assert!(
            validate_agent_result(&text, &opts).is_empty(),
            "normalize gave an invalid AgentResult: {text}"
        );
        let again = migrate::normalize(&n.value, &mctx).expect("normalizing an AgentResult works");
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
    for (i, r) in results.iter().enumerate() {
        let Ok(tr) = r else { continue };
        let text = tr.to_string();
        assert!(
            validate_tool_result(&text, &opts).is_empty(),
            "conversion {i} gave an invalid ToolResult: {text}"
        );
        let _ = interop::to_anthropic(tr);
        let _ = interop::to_openai_chat_tool_message(tr);
        let _ = interop::to_vercel(tr, interop::VercelShape::ToolMessage);
        let _ = interop::to_vercel(tr, interop::VercelShape::StepContent);
        let _ = interop::to_vercel_for(tr, interop::VercelShape::ToolMessage, interop::AiSdk::V6);
        let rev = if first & 1 == 0 {
            McpRevision::V2025_11_25
        } else {
            McpRevision::V2026_07_28
        };
        // Blocks with no MCP form (AI SDK provider references and custom
        // parts) are refused; everything else converts.
        let ai_sdk_only = tr["content"].as_array().is_some_and(|blocks| {
            blocks.iter().any(|b| {
                matches!(
                    b["type"].as_str(),
                    Some(interop::FILE_REFERENCE_BLOCK | interop::CUSTOM_BLOCK)
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
