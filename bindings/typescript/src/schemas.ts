// The JSON Schemas as a value. A module of its own, read through getters: the
// Node build loads the generated schemas on first read of one, not with the
// envelope API nor with `import` of the package (docs/internals/performance.md).
import { agentResultSchema, toolResultSchema } from './generated/schemas.js';

/** The JSON Schemas (2020-12), generated from the Rust types. */
export const schemas = {
  get agentResult() {
    return agentResultSchema;
  },
  get toolResult() {
    return toolResultSchema;
  },
} as const;
