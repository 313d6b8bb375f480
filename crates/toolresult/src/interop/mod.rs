//! Conversions between ToolResult v1 and the tool-result shapes of model APIs
//! and agent frameworks: MCP `CallToolResult`, Anthropic `tool_result`
//! blocks, OpenAI Responses `function_call_output` and Chat `tool` messages,
//! and Vercel AI SDK `tool-result` / `tool-error` parts (AI SDK 6 and 7),
//! with the images and files each can hold.
//!
//! Mapping (docs/guide/conversions.md "Supported shapes"): `output` is the machine-readable
//! result (MCP `structuredContent`), `content` the blocks shown to the model,
//! `meta` MCP's `_meta`. Structured output becomes text as compact JSON in its
//! own key order (deterministic); binary content is never inlined where the
//! target cannot hold it: it becomes a text note naming type and size.

mod anthropic;
mod common;
mod mcp;
pub(crate) mod migrate;
mod openai;
mod vercel;
mod vercel_content;

pub use anthropic::{
    from_anthropic, to_anthropic, ANTHROPIC_INLINE_URI, DOCUMENT_BLOCK, SEARCH_RESULT_BLOCK,
};
pub use common::{result_text, CallContext};
pub use mcp::{from_mcp, to_mcp, McpRevision};
pub use migrate::*;
pub use openai::{
    from_openai, to_openai_chat_tool_message, to_openai_function_call_output,
    to_openai_function_call_output_text, OPENAI_INLINE_URI,
};
pub use vercel::{from_vercel, to_vercel, to_vercel_for, VercelShape};
pub use vercel_content::{AiSdk, CUSTOM_BLOCK, FILE_REFERENCE_BLOCK, INLINE_URI};
