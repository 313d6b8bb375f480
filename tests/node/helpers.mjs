// Shared test helpers: the fixture cases that the Rust tests read too.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

async function load() {
  if (build === 'node') return import('toolresult');
  const web = await import('toolresult/web');
  const require = createRequire(import.meta.url);
  const wasmDir = path.join(path.dirname(require.resolve('toolresult/package.json')), 'dist/web/wasm/web');
  await web.init(readFileSync(path.join(wasmDir, 'toolresult_wasm_bg.wasm')));
  await web.loadSchemaEngine(readFileSync(path.join(wasmDir, 'toolresult_schema_wasm_bg.wasm')));
  await web.loadScreen(readFileSync(path.join(wasmDir, 'toolresult_screen_wasm_bg.wasm')));
  return web;
}

export const toolresult = await load();
