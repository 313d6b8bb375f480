// The Worker workerd serves (runtimes.test.mjs bundles it from the packed
// package with the `workerd` condition, the .wasm files as modules):
// GET /smoke runs the smoke suite in the isolate; everything else goes to the
// endpoints over an in-memory store holding the HTTP checks' results.
import * as toolresult from 'toolresult';
import * as audit from 'toolresult/audit';
import * as convert from 'toolresult/convert';
import { createToolResultsHandler } from 'toolresult/http';
import * as render from 'toolresult/render';
import * as screen from 'toolresult/screen';
import { equal, httpSeed, ok, runChecks, smokeChecks } from './smoke.mjs';
// A Worker's own import of a module, as a user would give one to init().
import coreModule from './node_modules/toolresult/dist/web/wasm/web/toolresult_wasm_bg.wasm';
import agentModule from './node_modules/toolresult/dist/web/wasm/web/toolresult_agent_wasm_bg.wasm';
import screenModule from './node_modules/toolresult/dist/web/wasm/web/toolresult_screen_wasm_bg.wasm';

const moduleChecks = [
  [
    'init(), loadAgentModule() and loadScreen() take a WebAssembly.Module',
    async () => {
      ok(
        coreModule instanceof WebAssembly.Module && agentModule instanceof WebAssembly.Module && screenModule instanceof WebAssembly.Module,
        'workerd imports .wasm as modules',
      );
      await toolresult.init(coreModule);
      await toolresult.loadAgentModule(agentModule);
      await toolresult.loadScreen(screenModule);
      ok(toolresult.validateAgentResult('{}').ok === false, 'validation works on the new instance');
      ok(new toolresult.ResultStore().size === 0, 'the store works on the new instance');
      equal(screen.screen('ok').verdict, 'accept', 'the screen works on the new instance');
    },
  ],
  [
    'init() refuses a URL: a Worker cannot compile fetched bytes',
    async () => {
      let error;
      await toolresult.init('https://example.com/toolresult_wasm_bg.wasm').catch((e) => {
        error = e;
      });
      ok(error instanceof TypeError, `a TypeError (${error})`);
    },
  ],
];

let handler;

export default {
  async fetch(request) {
    if (new URL(request.url).pathname === '/smoke') {
      return Response.json({
        runtime: 'workerd',
        version: navigator.userAgent,
        ...(await runChecks([...smokeChecks(toolresult, { convert, render, screen, audit }), ...moduleChecks])),
      });
    }
    if (!handler) {
      const store = new toolresult.ResultStore();
      for (const { dialog_id, result } of httpSeed(toolresult)) store.put(result, { dialogId: dialog_id });
      handler = createToolResultsHandler(store, { public: true });
    }
    return handler(request);
  },
};
