// The JSON Schemas as a value. A module of its own: the Node build loads it on
// first use of `schemas`, not with the envelope API (docs/internals/performance.md).
import { agentResultSchema, toolResultSchema } from './generated/schemas.js';

/** The JSON Schemas (2020-12), generated from the Rust types. */
export const schemas = {
  agentResult: agentResultSchema,
  toolResult: toolResultSchema,
} as const;
