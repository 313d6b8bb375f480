// `toolresult/http`: the lazy-loading endpoints (docs/guide/storage.md) as a Fetch handler
// (`createToolResultsHandler`) and its adapter to node:http and Express
// (`toNodeListener`). In browsers and Service Workers it needs `init()` from
// "toolresult/web" first, as the rest of the package does.
export { createToolResultsHandler } from './handler.js';
export type { AuthorizeDecision, ToolResultsHandlerOptions, ToolResultsPage, ToolResultsSkipped, ToolResultsSource, ToolResultsTarget } from './handler.js';
export { toNodeListener } from './node.js';
export type { NodeRequestLike, NodeResponseLike } from './node.js';
