use toolresult::interop::{self, AiSdk, CallContext, McpRevision, MigrationContext, VercelShape};
use toolresult::json::{parse_str, ParseLimits};
use toolresult::limits::{DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH};
use toolresult::quote_text;
use toolresult::{EnvelopeKind, Issue, IssueCode, Issues, ValidationOptions, Validator};
use wasm_bindgen::prelude::*;

use toolresult::options_from_json;
use toolresult_wasm_io::reply::outcome;

use toolresult_wasm_io::stamp;

const LIMITS: ParseLimits = ParseLimits::new(DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH);

/// `mode`: `auto`, `task-result` or `agent-message`. `{ok, value: {value, changes, source}}`.
#[wasm_bindgen]
pub fn normalize_agent_result(input_json: &str, context_json: &str, mode: &str) -> String {
    outcome((|| {
        let input = parse_str(input_json, LIMITS)?;
        let ctx: MigrationContext = options_from_json(context_json, "context")?;
        match mode {
            "task-result" => interop::migrate_task_result(&input, &ctx),
            "agent-message" if input.get("type").and_then(|t| t.as_str()) != Some("result") => {
                Err(Issues::from(Issue::new(
                    "/type",
                    IssueCode::AmbiguousShape,
                    "an AgentMessage has type \"result\" and a payload",
                )))
            }
            _ => interop::normalize_agent_result(&input, &ctx),
        }
    })())
}

/// An MCP revision by name; `""` is `default`.
fn mcp_revision(
    revision: &str,
    default: Option<McpRevision>,
) -> Result<Option<McpRevision>, Issues> {
    if revision.is_empty() {
        return Ok(default);
    }
    McpRevision::parse(revision).map(Some).ok_or_else(|| {
        Issues::from(Issue::new(
            "/revision",
            IssueCode::UnsupportedVersion,
            format!(
                "MCP revision {} is not supported; supported: {}",
                quote_text(revision, '`'),
                McpRevision::SUPPORTED.join(", ")
            ),
        ))
    })
}

/// A Vercel AI SDK part shape by name (`tool-message`, `step-content`); `""` is `None`.
fn vercel_shape(shape: &str) -> Result<Option<VercelShape>, Issues> {
    match shape {
        "" => Ok(None),
        "tool-message" => Ok(Some(VercelShape::ToolMessage)),
        "step-content" => Ok(Some(VercelShape::StepContent)),
        other => Err(Issues::from(Issue::new(
            "/as",
            IssueCode::InvalidOptions,
            format!(
                "unknown Vercel AI SDK part shape {}; expected tool-message or step-content",
                quote_text(other, '`')
            ),
        ))),
    }
}

/// A Vercel variant `<shape>` or `<shape>@<major>` (`tool-message@6`, `@6`):
/// the part shape (`""`: `None`) and the AI SDK major (`""`: 7).
fn vercel_variant(variant: &str) -> Result<(Option<VercelShape>, AiSdk), Issues> {
    let (shape, sdk) = variant.split_once('@').unwrap_or((variant, ""));
    let sdk = if sdk.is_empty() {
        AiSdk::V7
    } else {
        AiSdk::parse(sdk).ok_or_else(|| {
            Issues::from(Issue::new(
                "/sdk",
                IssueCode::InvalidOptions,
                format!(
                    "unknown AI SDK major {}; supported: {}",
                    quote_text(sdk, '`'),
                    AiSdk::SUPPORTED.join(", ")
                ),
            ))
        })?
    };
    Ok((vercel_shape(shape)?, sdk))
}

/// `from`: `mcp`, `anthropic`, `openai` or `vercel` → a ToolResult.
/// `variant`: the MCP revision (`""`: either) or the Vercel part shape (`""`: by the part).
#[wasm_bindgen]
pub fn tool_result_from(
    from: &str,
    input_json: &str,
    context_json: &str,
    variant: &str,
    now_unix_ms: f64,
) -> String {
    outcome((|| {
        let input = parse_str(input_json, LIMITS)?;
        let ctx: CallContext = options_from_json(context_json, "context")?;
        let stamp = stamp(now_unix_ms)?;
        match from {
            "mcp" => interop::from_mcp(&input, &ctx, mcp_revision(variant, None)?, stamp),
            "anthropic" => interop::from_anthropic(&input, &ctx, stamp),
            "openai" => interop::from_openai(&input, &ctx, stamp),
            "vercel" => interop::from_vercel(&input, &ctx, vercel_shape(variant)?, stamp),
            other => Err(Issues::from(Issue::new(
                "",
                IssueCode::InvalidOptions,
                format!("unknown source shape {}", quote_text(other, '`')),
            ))),
        }
    })())
}

/// `to`: `mcp`, `anthropic`, `openai-function-call-output`, `openai-chat` or
/// `vercel`; `variant`: the MCP revision (`2025-11-25` by default), the
/// function_call_output form (`text`: always one string; `""`: parts when
/// the result holds images or files), or the Vercel part shape
/// (`tool-message` by default) with an optional AI SDK major
/// (`tool-message@6`; 7 by default).
#[wasm_bindgen]
pub fn tool_result_to(to: &str, tool_result_json: &str, variant: &str) -> String {
    outcome((|| {
        let tr = parse_str(tool_result_json, LIMITS)?;
        let found = Validator::new(EnvelopeKind::ToolResult, ValidationOptions::default())?
            .check_value(&tr);
        if !found.is_empty() {
            return Err(found);
        }
        match to {
            "mcp" => {
                let rev = mcp_revision(variant, Some(McpRevision::V2025_11_25))?
                    .unwrap_or(McpRevision::V2025_11_25);
                interop::to_mcp(&tr, rev)
            }
            "anthropic" => interop::to_anthropic(&tr),
            // `text`: one string whatever the blocks; `""`: parts when needed.
            "openai-function-call-output" => match variant {
                "" => interop::to_openai_function_call_output(&tr),
                "text" => interop::to_openai_function_call_output_text(&tr),
                other => Err(Issues::from(Issue::new(
                    "/multimodal",
                    IssueCode::InvalidOptions,
                    format!(
                        "unknown function_call_output form {}; expected text or none",
                        quote_text(other, '`')
                    ),
                ))),
            },
            "openai-chat" => interop::to_openai_chat_tool_message(&tr),
            "vercel" => {
                let (shape, sdk) = vercel_variant(variant)?;
                interop::to_vercel_for(&tr, shape.unwrap_or(VercelShape::ToolMessage), sdk)
            }
            other => Err(Issues::from(Issue::new(
                "",
                IssueCode::InvalidOptions,
                format!("unknown target shape {}", quote_text(other, '`')),
            ))),
        }
    })())
}
