// The package's modules import each other without cycles (a cycle makes
// load order decide what is initialized). Type-only imports are erased by
// TypeScript and do not count.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bindings', 'typescript', 'src');

/** Runtime imports of each module: `import … from './x.js'`, `import './x.js'`, `export … from './x.js'`. */
export function runtimeImports(dir) {
  const graph = new Map();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const deps = new Set();
    const re = /^\s*(import|export)\s+(type\s+)?([^'";]*?from\s+)?['"](\.\/[^'"]+)['"]/gm;
    for (const m of text.matchAll(re)) {
      if (m[2]) continue; // `import type` / `export type`
      // `import { type A, type B } from` is erased too when every name is a type.
      const names = m[3]?.match(/\{([^}]*)\}/)?.[1];
      if (names?.split(',').every((n) => !n.trim() || n.trim().startsWith('type '))) continue;
      const target = m[4].replace(/\.js$/, '.ts');
      if (!target.startsWith('./wasm/') && !target.startsWith('./generated/')) deps.add(path.basename(target));
    }
    graph.set(file, deps);
  }
  return graph;
}

function findCycle(graph) {
  const state = new Map();
  const stack = [];
  const visit = (node) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const found = visit(node);
      if (found) return found;
    }
  }
  return undefined;
}

test('the TypeScript modules have no import cycle', () => {
  const graph = runtimeImports(src);
  assert.ok(graph.size > 10 && graph.get('index.ts').has('exports.ts'), 'the graph was read');
  assert.equal(findCycle(graph)?.join(' → '), undefined);
});

test('the cycle check finds a cycle when there is one', () => {
  const graph = new Map([
    ['a.ts', new Set(['b.ts'])],
    ['b.ts', new Set(['c.ts'])],
    ['c.ts', new Set(['a.ts'])],
    ['d.ts', new Set()],
  ]);
  assert.deepEqual(findCycle(graph), ['a.ts', 'b.ts', 'c.ts', 'a.ts']);
});
