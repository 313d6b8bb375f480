// One verb per operation in Rust, wasm and TypeScript (CONTRIBUTING, "Names").
// Each row names an operation in the three layers; the test checks that the
// Rust function exists in the crate's sources, that the wasm glue exports it
// under the same name (or with `_input` when its text arrives through the
// input buffer, docs/internals/modules.md), that the built package exports the
// TypeScript function, and that the TypeScript name is the Rust one in
// camelCase. A rename in one layer only fails here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

// The main entry and the subpaths that split its API, as one object.
const require = createRequire(import.meta.url);
const toolresult = Object.assign({}, ...['', '/convert', '/render', '/screen', '/audit'].map((s) => require(`toolresult${s}`)));
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// [Rust function, wasm export (null: the TypeScript side does it, or a class method does), TypeScript export]
const NAMES = [
  ['validate_agent_result', null, 'validateAgentResult'],
  ['validate_tool_result', null, 'validateToolResult'],
  ['parse_agent_result', null, 'parseAgentResult'],
  ['parse_tool_result', null, 'parseToolResult'],
  ['create_success', null, 'createSuccess'],
  ['create_failure', null, 'createFailure'],
  ['status_info', 'status_info', 'statusInfo'],
  ['locate', 'locate', 'locate'],
  ['cap_lines', 'cap_lines', 'capLines'],
  ['preview_text', 'preview_text', 'previewText'],
  ['preview_result', 'preview_result', 'previewResult'],
  ['bound_for_model', 'bound_for_model', 'boundForModel'],
  ['sha256_hex', null, 'sha256Hex'],
  ['summarize', 'summarize', 'summarize'],
  ['to_reference', 'to_reference', 'toReference'],
  ['render_text', 'render_text', 'renderText'],
  ['detect_language', 'detect_language', 'detectLanguage'],
  ['diff_hunks', 'diff_hunks', 'diffHunks'],
  ['migrate_task_result', null, 'migrateTaskResult'],
  ['normalize_agent_result', 'normalize_agent_result', 'normalizeAgentResult'],
  ['render_result_document', 'render_result_document', 'renderResultDocument'],
  ['result_document_name', 'result_document_name', 'resultDocumentName'],
  ['parse_result_document', 'parse_result_document', 'parseResultDocument'],
  ['check_result_document', 'check_result_document', 'checkResultDocument'],
];

const camel = (snake) => snake.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

function rustSources(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.rs'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
}

const rust = ['toolresult', 'toolresult-screen'].map((c) => rustSources(path.join(root, 'crates', c, 'src'))).join('\n');
const glueDir = path.join(root, 'bindings', 'typescript', 'dist', 'node', 'wasm', 'node');
const glue = readdirSync(glueDir)
  .filter((f) => f.endsWith('.d.ts'))
  .map((f) => readFileSync(path.join(glueDir, f), 'utf8'))
  .join('\n');
const wasmExports = new Set([...glue.matchAll(/^export function ([a-z0-9_]+)\(/gm)].map((m) => m[1]));

for (const [rustName, wasmName, tsName] of NAMES) {
  test(`${tsName}: the same verb in Rust, wasm and TypeScript`, () => {
    assert.match(rust, new RegExp(`pub fn ${rustName}\\b`), `the toolresult crates have no pub fn ${rustName}`);
    assert.equal(tsName, camel(rustName), `TypeScript ${tsName} is not Rust ${rustName} in camelCase`);
    assert.equal(typeof toolresult[tsName], 'function', `the package does not export ${tsName}`);
    if (wasmName !== null) {
      assert.equal(wasmName, rustName, `wasm ${wasmName} is not named as Rust ${rustName}`);
      assert.ok(wasmExports.has(wasmName) || wasmExports.has(`${wasmName}_input`), `the wasm glue exports neither ${wasmName} nor ${wasmName}_input`);
    }
  });
}

test('the wasm glue has no export the table would call by another name', () => {
  // The old, drifting spellings: each maps to a row above.
  for (const old of ['diff_hunks_of', 'reference_for', 'summarize_result', 'language_of', 'render_result_text', 'bound_result_for_model', 'preview']) {
    assert.ok(!wasmExports.has(old), `the wasm glue still exports ${old}`);
  }
});
