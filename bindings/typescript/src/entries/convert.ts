// `toolresult/convert`: results to and from other frameworks' shapes (MCP,
// Anthropic, OpenAI, the AI SDK). docs/guide/conversions.md. The Node and
// workerd variants install the wasm loaders first; browsers `await init()`.
export {
  type AiSdkMajor,
  type CallContext,
  type McpRevision,
  type OpenAIFunctionCallOutput,
  type OpenAIFunctionCallOutputOptions,
  type OpenAIOutputPart,
  type VercelPartOptions,
  type VercelPartShape,
  fromAnthropicToolResult,
  fromMcpCallToolResult,
  fromOpenAIToolOutput,
  fromVercelToolMessage,
  fromVercelToolPart,
  toAnthropicToolResult,
  toMcpCallToolResult,
  toOpenAIChatToolMessage,
  toOpenAIFunctionCallOutput,
  toVercelToolMessage,
  toVercelToolPart,
} from '../convert.js';
