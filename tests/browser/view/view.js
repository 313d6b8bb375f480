// The browser test page for <tool-result-view> and renderDom
// (tests/browser/tool-result-view.test.mjs): loads the built browser package,
// defines the element and hands the package to the test through a global.
// Served with the strict CSP and Trusted Types (scripts/serve.mjs).
import * as toolresult from '/bindings/typescript/dist/web/web.js';

await toolresult.init();
toolresult.defineToolResultView();
globalThis.toolresult = toolresult;
document.body.dataset.ready = 'true';
