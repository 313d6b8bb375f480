// The browser test page for <tool-result-view> and renderDom
// (tests/browser/tool-result-view.test.mjs): loads the built browser package,
// defines the element and hands the package (the main entry and
// toolresult/render) to the test through a global.
// Served with the strict CSP and Trusted Types (scripts/serve.mjs).
import * as render from '/bindings/typescript/dist/web/entries/render.js';
import * as toolresult from '/bindings/typescript/dist/web/web.js';

await toolresult.init();
render.defineToolResultView();
globalThis.toolresult = { ...toolresult, ...render };
document.body.dataset.ready = 'true';
