// `toolresult/react` in Node (server rendering, tests under jsdom): the main
// entry instantiates the wasm as it loads, so the component is ready at once.
import '../index.js';
import { createToolResultView } from './react.js';

export type { ToolApprovalHandler, ToolResultViewComponent, ToolResultViewElement, ToolResultViewProps } from './react.js';

/**
 * `<ToolResultView result={…} />` or `<ToolResultView toolPart={part} onApprove={…} onDeny={…} />`:
 * renders `<tool-result-view>`, defines it (once) and sets its value in an
 * effect, after the package is ready (the browser build loads its wasm on
 * first use). A new value re-renders in place, keeping what the user
 * expanded and where the focus was. The ref is the element. Server
 * rendering gives the empty element, which the client fills after
 * hydration. A failure to load the package is thrown from the component (to
 * an error boundary); `result` and `toolPart` together are a
 * `ToolResultError` (`invalid_options`).
 */
export const ToolResultView = createToolResultView(() => undefined);
