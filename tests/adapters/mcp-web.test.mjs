// `toolresult/mcp` from the browser build (the `browser` condition of the
// export: dist/web/adapters/mcp.js, ESM), loaded the way a bundle does. Its
// JSON Schema engine is a wasm module of its own: McpSchemaValidator throws a
// clear, typed error until `loadSchemaEngine()` from "toolresult/web" has
// resolved, then validates. (Each test file runs in its own process, so
// nothing else has loaded the browser build here.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const pkgDir = path.dirname(require.resolve('toolresult/package.json'));
const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const wasm = (name) => readFileSync(path.join(pkgDir, 'dist', 'web', 'wasm', 'web', `${name}_bg.wasm`));

test('browser build: McpSchemaValidator throws not_initialized naming loadSchemaEngine() until the engine is loaded, then validates', async () => {
  const entry = pkg.exports['./mcp'].browser.default;
  assert.equal(entry, './dist/web/adapters/mcp.js');
  const mcp = await import(pathToFileURL(path.join(pkgDir, entry)).href);
  const web = await import(pathToFileURL(path.join(pkgDir, pkg.exports['./web'].browser.default)).href);
  const validator = new mcp.McpSchemaValidator();
  await web.init(wasm('toolresult_wasm'));
  assert.equal(web.schemaEngineLoaded(), false);
  assert.throws(
    () => validator.getValidator({ type: 'object' }),
    (e) => e instanceof web.ToolResultError && e.code === 'not_initialized' && /McpSchemaValidator/.test(e.message) && /loadSchemaEngine\(\)/.test(e.message),
  );
  // Not remembered as a failure: once the engine is in, the same validator works.
  await web.loadSchemaEngine(wasm('toolresult_schema_wasm'));
  const check = validator.getValidator({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
  assert.deepEqual(check({ n: 1 }), { valid: true, data: { n: 1 }, errorMessage: undefined });
  assert.equal(check({ n: 'x' }).errorMessage, '/n: "x" is not of type "number"');
  assert.deepEqual(validator.stats(), { compiles: 1, cacheHits: 0, cached: 1 });
  // The wrapper, too, works from the browser build (no store, no screen): its budget needs the agent module.
  await web.loadAgentModule(wasm('toolresult_agent_wasm'));
  const wrapped = mcp.wrapMcpToolHandler(async () => ({ content: [{ type: 'text', text: 'x'.repeat(5000) }] }), { toolName: 'w', budget: { maxBytes: 1000 } });
  const out = await wrapped({});
  assert.ok(new TextEncoder().encode(out.content[0].text).length <= 1000);
  assert.equal(out._meta[mcp.META.result].status, 'success');
});
