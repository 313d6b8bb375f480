// The smoke suite in Node, Bun or Deno: run from the scratch project that has
// the packed package installed (runtimes.test.mjs), so `toolresult` resolves
// through its package.json exports as a user's import would. Prints one line:
// SMOKE-REPORT {runtime, version, passed, failed}.
import * as toolresult from 'toolresult';
import * as audit from 'toolresult/audit';
import * as convert from 'toolresult/convert';
import { createToolResultsHandler } from 'toolresult/http';
import * as render from 'toolresult/render';
import * as screen from 'toolresult/screen';
import { httpChecks, httpSeed, runChecks, smokeChecks } from './smoke.mjs';

const runtime = globalThis.Deno ? 'deno' : globalThis.Bun ? 'bun' : 'node';
const version = globalThis.Deno?.version.deno ?? globalThis.Bun?.version ?? globalThis.process?.versions.node;

// The endpoints as a plain Request → Response call, over the in-memory store.
const store = new toolresult.ResultStore();
for (const { dialog_id, result } of httpSeed(toolresult)) store.put(result, { dialogId: dialog_id });
const handler = createToolResultsHandler(store, { public: true });
const call = (url, init) => handler(new Request(url, init));

const report = await runChecks([
  ...smokeChecks(toolresult, { convert, render, screen, audit }),
  ...httpChecks(call, 'http://runtime.test/api').map(([name, check]) => [`http (Request → Response): ${name}`, check]),
]);
console.log(`SMOKE-REPORT ${JSON.stringify({ runtime, version, ...report })}`);
