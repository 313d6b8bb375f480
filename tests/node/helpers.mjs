// Shared test helpers: the fixture cases that the Rust tests read too.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const fixturesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const cases = JSON.parse(readFileSync(path.join(fixturesDir, 'cases.json'), 'utf8'));
export const readFixture = (file) => readFileSync(path.join(fixturesDir, file));

/** Issues reduced to sorted `path code` strings, for order-free comparison. */
export const brief = (issues) => issues.map((i) => `${i.path} ${i.code}`).sort();

export function tryParse(text) {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The package under test. TOOLRESULT_BUILD=web runs the same suites against the
 * browser build (ESM, async init with the wasm bytes) instead of the Node one.
 */
export const build = process.env.TOOLRESULT_BUILD === 'web' ? 'web' : 'node';

// The main entry and the subpaths that split its API (toolresult/convert,
// /render, /screen, /audit), as one object: the suites test behaviour; which
// entry exports which name is api/*.api.md's and tests/packaging's concern.
const SUBPATHS = ['convert', 'render', 'screen', 'audit'];

async function load() {
  if (build === 'node') {
    const parts = await Promise.all(['toolresult', ...SUBPATHS.map((s) => `toolresult/${s}`)].map((s) => import(s)));
    return Object.assign({}, ...parts);
  }
  const web = await import('toolresult/web');
  const require = createRequire(import.meta.url);
  const pkgDir = path.dirname(require.resolve('toolresult/package.json'));
  const wasmDir = path.join(pkgDir, 'dist/web/wasm/web');
  await web.init(readFileSync(path.join(wasmDir, 'toolresult_wasm_bg.wasm')));
  await web.loadAgentModule(readFileSync(path.join(wasmDir, 'toolresult_agent_wasm_bg.wasm')));
  await web.loadSchemaEngine(readFileSync(path.join(wasmDir, 'toolresult_schema_wasm_bg.wasm')));
  await web.loadScreen(readFileSync(path.join(wasmDir, 'toolresult_screen_wasm_bg.wasm')));
  // The browser build's subpath files (their `browser` condition), beside web.js.
  const parts = await Promise.all(SUBPATHS.map((s) => import(pathToFileURL(path.join(pkgDir, 'dist/web/entries', `${s}.js`)).href)));
  return Object.assign({}, web, ...parts);
}

export const toolresult = await load();
