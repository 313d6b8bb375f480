// `toolresult/react` in browsers: the component waits for `init()` (the wasm,
// fetched from next to the package) before it renders its first value; once
// loaded, values are set at once.
import { init } from '../web.js';
import { createToolResultView } from './react.js';

export type { ToolApprovalHandler, ToolResultViewComponent, ToolResultViewElement, ToolResultViewProps } from './react.js';

let loaded = false;

/**
 * `<ToolResultView result={…} />` or `<ToolResultView toolPart={part} onApprove={…} onDeny={…} />`:
 * renders `<tool-result-view>`, defines it (once) and sets its value in an
 * effect, after `init()` (the wasm, loaded on first use). A new value
 * re-renders in place, keeping what the user expanded and where the focus
 * was. The ref is the element. Server rendering gives the empty element,
 * which the client fills after hydration. A failure to load the package is
 * thrown from the component (to an error boundary); `result` and `toolPart`
 * together are a `ToolResultError` (`invalid_options`).
 */
export const ToolResultView = createToolResultView(() =>
  loaded
    ? undefined
    : init().then(() => {
        loaded = true;
      }),
);
