// Import cycles and layer order in Rust and TypeScript (scripts/check-layers.mjs,
// also run as its own step of `npm test`): the tree passes, and the checker
// finds what it is meant to find.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adapterViolations, checkTree, entryViolations, declaredLayers, findCycles, layerViolations, rustGraph } from '../../scripts/check-layers.mjs';

test('the Rust crates and the TypeScript package have no import cycle, and the core keeps its layer order', () => {
  assert.deepEqual(checkTree(), []);
});

test('a cycle among files is found, a self-edge too, and a chain is not one', () => {
  const graph = new Map([
    ['a.ts', new Set(['b.ts'])],
    ['b.ts', new Set(['c.ts'])],
    ['c.ts', new Set(['a.ts'])],
    ['d.ts', new Set(['a.ts'])],
    ['e.ts', new Set(['e.ts'])],
  ]);
  assert.deepEqual(findCycles(graph).sort(), [['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  assert.deepEqual(
    findCycles(
      new Map([
        ['x', new Set(['y'])],
        ['y', new Set()],
      ]),
    ),
    [],
  );
});

test('Rust paths become edges: crate::, super::, grouped uses and child modules; ancestors do not count', () => {
  const files = new Map([
    ['', 'pub mod json;\npub mod validate;'],
    ['json', 'use crate::validate::text::collect;'],
    ['validate', 'mod text;\npub fn f() { text::collect() }'],
    ['validate::text', 'use super::{Shared};\nuse crate::{json::parse};\n#[cfg(test)]\nmod tests { use crate::validate::*; }'],
  ]);
  const graph = rustGraph(files);
  assert.deepEqual([...graph.get('json')], ['validate::text']);
  assert.deepEqual([...graph.get('validate')], ['validate::text']);
  assert.deepEqual([...graph.get('validate::text')], ['json']);
  assert.deepEqual(findCycles(graph), [['json', 'validate::text']]);
});

test('the layer list comes from the crate doc, and a use of a later layer is reported', () => {
  const layers = declaredLayers('//! 1. [`issue`]: issues.\n//! 2. [`json`]: JSON.\n//! 10. [`wire`]: types.\n');
  assert.deepEqual(layers, ['issue', 'json', 'wire']);
  const graph = new Map([
    ['issue', new Set(['json'])],
    ['json', new Set(['issue'])],
    ['wire::status', new Set(['json'])],
  ]);
  assert.deepEqual(layerViolations(graph, layers), ['issue -> json']);
});

test('the core importing an adapter, an adapter importing another framework, and the shared module importing an adapter are found', () => {
  const graph = new Map([
    ['dom.ts', new Set(['adapters/ai.ts'])],
    ['adapters/langchain.ts', new Set(['adapters/ai.ts', 'adapters/shared/run.ts', 'api.ts'])],
    ['adapters/shared/run.ts', new Set(['adapters/mcp.ts'])],
    ['adapters/openai-agents-node.ts', new Set(['adapters/openai-agents.ts', 'index.ts'])],
    ['adapters/react-web.ts', new Set(['adapters/react.ts'])],
    ['adapters/mastra.ts', new Set(['adapters/shared/model-output.ts'])],
  ]);
  assert.deepEqual(adapterViolations(graph), [
    'the core imports an adapter: dom.ts -> adapters/ai.ts',
    "an adapter imports another framework's adapter: adapters/langchain.ts -> adapters/ai.ts",
    "the adapters' shared module imports an adapter: adapters/shared/run.ts -> adapters/mcp.ts",
  ]);
});

test('a module that imports a subpath entry, or an entry that imports another subpath, is reported', () => {
  const graph = new Map([
    ['entries/render.ts', new Set(['render.ts', 'dom.ts'])],
    ['entries/render-node.ts', new Set(['index.ts', 'entries/render.ts'])],
    ['entries/screen-node.ts', new Set(['entries/render.ts'])],
    ['cli.ts', new Set(['entries/convert.ts'])],
  ]);
  assert.deepEqual(entryViolations(graph), [
    'a subpath entry imports another one: entries/screen-node.ts -> entries/render.ts',
    'a module imports a subpath entry: cli.ts -> entries/convert.ts',
  ]);
});
