// Import cycles and layer order, for Rust and TypeScript (docs/internals/modules.md,
// "Layers"). `node scripts/check-layers.mjs` exits 1 and names each cycle.
//
// Rust: every file of every crate is a node; an edge is a `crate::…`,
// `super::…` or `self::…` path in it, or a path through a child module the
// file declares (inline `#[cfg(test)]` modules are left out: tests may reach
// anywhere). A file's use of its own ancestors is not an edge: a folder's
// `mod.rs` is its front door and holds what its rooms share. The core's
// top-level modules must also keep the order of the crate doc's "Layers"
// list: a module uses only the layers before its own.
// TypeScript: every file of the npm package is a node; an edge is a relative
// `import` / `export … from` (type-only imports included: a type cycle is
// still a knot a reader has to untie).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function walk(dir, ext, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, ext, out);
    else if (path.endsWith(ext)) out.push(path);
  }
  return out;
}

/** Strongly connected components with more than one node (or a self-edge): the cycles. */
export function findCycles(graph) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const cycles = [];
  const visit = (v) => {
    info.set(v, { index, low: index, onStack: true });
    index += 1;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!info.has(w)) {
        visit(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).onStack) {
        info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
      }
    }
    if (info.get(v).low === info.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? new Set()).has(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!info.has(v)) visit(v);
  return cycles;
}

// ---------------------------------------------------------------- Rust

/** The module path (['validate', 'text']) of a file under a crate's src/. */
function rustModulePath(srcDir, file) {
  const parts = relative(srcDir, file).replace(/\.rs$/, '').split('/');
  if (parts.at(-1) === 'mod' || parts.at(-1) === 'lib' || parts.at(-1) === 'main') parts.pop();
  return parts;
}

/** Rust source without inline test modules and comments. */
function rustCode(text) {
  const cut = text.search(/#\[cfg\([^\]]*\btest\b[^\]]*\)\]\s*mod\s+\w+\s*\{/);
  const code = cut === -1 ? text : text.slice(0, cut);
  return code.replace(/\/\/[^\n]*/g, '');
}

/** `a` is `b` or contains it ('' is the crate root). */
function isAncestor(a, b) {
  return a === b || a === '' || b.startsWith(`${a}::`);
}

/**
 * One crate's file graph. `files` maps a module path ('validate::text') to its
 * source text; an edge goes to the longest module path a reference names.
 */
export function rustGraph(files) {
  const modules = new Set(files.keys());
  const graph = new Map();
  const resolveModule = (segments) => {
    for (let n = segments.length; n >= 0; n -= 1) {
      const candidate = segments.slice(0, n).join('::');
      if (modules.has(candidate)) return candidate;
    }
    return null;
  };
  for (const [module, text] of files) {
    const here = module === '' ? [] : module.split('::');
    const edges = new Set();
    const code = rustCode(text);
    // `crate::a::b`, `super::super::a`, `self::a`, and the first name of a
    // grouped `use crate::{a::b, c}` / `use super::{x, y::z}`.
    const pathRe = /\b(crate|super|self)((?:::(?:super|[A-Za-z_]\w*))*)(::\{([^}]*)\})?/g;
    for (const m of code.matchAll(pathRe)) {
      let base;
      if (m[1] === 'crate') base = [];
      else if (m[1] === 'self') base = [...here];
      else base = here.slice(0, -1);
      const rest = m[2].split('::').filter(Boolean);
      while (rest[0] === 'super') {
        base = base.slice(0, -1);
        rest.shift();
      }
      const heads = m[4] !== undefined ? m[4].split(',').map((s) => s.trim().split('::')) : [[]];
      for (const head of heads) {
        const target = resolveModule([...base, ...rest, ...head.filter((s) => /^[a-z_]\w*$/.test(s))]);
        if (target !== null && !isAncestor(target, module)) edges.add(target);
      }
    }
    // Paths through the file's own child modules (`mod text;` … `text::collect`).
    for (const m of code.matchAll(/^\s*(?:pub(?:\([^)]*\))? )?mod (\w+);/gm)) {
      const child = [...here, m[1]].join('::');
      if (modules.has(child) && new RegExp(`(?<![:\\w])${m[1]}::`).test(code)) edges.add(child);
    }
    graph.set(module, edges);
  }
  return graph;
}

function rustCrates() {
  // crates/vendor holds patched third-party crates (crates/vendor/PATCHES.md), not ours.
  const crates = readdirSync(join(ROOT, 'crates')).filter((c) => c !== 'vendor' && statSync(join(ROOT, 'crates', c)).isDirectory());
  return crates.map((name) => {
    const src = join(ROOT, 'crates', name, 'src');
    const files = new Map();
    for (const file of walk(src, '.rs')) files.set(rustModulePath(src, file).join('::'), readFileSync(file, 'utf8'));
    return { name, src, files };
  });
}

/** The core's layers, lowest first: the crate doc's "Layers" list (`//! 1. [`limits`]: …`). */
export function declaredLayers(libText) {
  return [...libText.matchAll(/^\/\/! +\d+\. \[?`(\w+)`\]?/gm)].map((m) => m[1]);
}

/**
 * Cycles kept on purpose, each with its reason. A ToolResult holds
 * tool_metadata, and the orchestration kind holds whole ToolResults: the data
 * is recursive, so the two files name each other.
 */
const ALLOWED_CYCLES = [['wire::tool_metadata', 'wire::tool_result']];

/** Edges that go from a layer to one declared after it. */
export function layerViolations(graph, layers) {
  const rank = new Map(layers.map((name, i) => [name, i]));
  const top = (module) => module.split('::')[0];
  const out = [];
  for (const [from, edges] of graph) {
    for (const to of edges) {
      const a = rank.get(top(from));
      const b = rank.get(top(to));
      if (a !== undefined && b !== undefined && b > a) out.push(`${from} -> ${to}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------- TypeScript

export function tsGraph(dir) {
  const graph = new Map();
  for (const file of walk(dir, '.ts')) {
    if (file.includes('/generated/') || file.includes('/wasm/')) continue;
    const from = relative(dir, file);
    const edges = new Set();
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) {
      const to = relative(dir, resolve(dirname(file), m[1])).replace(/\.js$/, '.ts');
      if (!to.startsWith('generated/') && !to.startsWith('wasm/')) edges.add(to);
    }
    graph.set(from, edges);
  }
  return graph;
}

// ---------------------------------------------------------------- adapters

/**
 * The adapters' rules (docs/internals/layout.md): the package core never
 * imports a framework adapter (`adapters/`), an adapter imports no other
 * framework's adapter (its own entry files, e.g. `ai-node.ts` → `ai.ts`, and
 * the shared module `adapters/shared/` only), and the shared module imports
 * no adapter.
 */
export function adapterViolations(graph) {
  const framework = (file) => file.slice('adapters/'.length).replace(/\.ts$/, '');
  const sameFramework = (a, b) => a === b || a.startsWith(`${b}-`) || b.startsWith(`${a}-`);
  const out = [];
  for (const [from, edges] of graph) {
    for (const to of edges) {
      if (!to.startsWith('adapters/')) continue;
      const shared = to.startsWith('adapters/shared/');
      if (!from.startsWith('adapters/')) out.push(`the core imports an adapter: ${from} -> ${to}`);
      else if (from.startsWith('adapters/shared/')) {
        if (!shared) out.push(`the adapters' shared module imports an adapter: ${from} -> ${to}`);
      } else if (!shared && !sameFramework(framework(from), framework(to))) out.push(`an adapter imports another framework's adapter: ${from} -> ${to}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------- entries

/**
 * The subpath entries' rule (docs/internals/layout.md): `entries/` holds the
 * export lists of `toolresult/convert`, `/render`, … and their per-host
 * variants (`render-node.ts` → `render.ts`). They are leaves: no module of the
 * package imports one, and a variant imports only its own list, so an export
 * list never grows by way of another subpath.
 */
export function entryViolations(graph) {
  const base = (file) =>
    file
      .slice('entries/'.length)
      .replace(/\.ts$/, '')
      .replace(/-(node|workerd)$/, '');
  const out = [];
  for (const [from, edges] of graph) {
    for (const to of edges) {
      if (!to.startsWith('entries/')) continue;
      if (!from.startsWith('entries/')) out.push(`a module imports a subpath entry: ${from} -> ${to}`);
      else if (base(from) !== base(to)) out.push(`a subpath entry imports another one: ${from} -> ${to}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------- main

export function checkTree() {
  const problems = [];
  for (const { name, files } of rustCrates()) {
    const graph = rustGraph(files);
    for (const cycle of findCycles(graph)) {
      const allowed = name === 'toolresult' && ALLOWED_CYCLES.some((c) => c.join() === cycle.join());
      if (!allowed) problems.push(`Rust ${name}: import cycle ${cycle.join(' <-> ')}`);
    }
    if (name === 'toolresult') {
      const layers = declaredLayers(files.get(''));
      const declared = [...files.get('').matchAll(/^(?:pub(?:\(crate\))? )?mod (\w+);/gm)].map((m) => m[1]).sort();
      if (layers.slice().sort().join() !== declared.join()) {
        problems.push(`Rust ${name}: the crate doc's "Layers" list (${layers.join(', ')}) does not name every top-level module (${declared.join(', ')})`);
      }
      for (const v of layerViolations(graph, layers)) problems.push(`Rust ${name}: uses a later layer: ${v}`);
    }
  }
  const ts = tsGraph(join(ROOT, 'bindings/typescript/src'));
  for (const cycle of findCycles(ts)) problems.push(`TypeScript: import cycle ${cycle.join(' <-> ')}`);
  for (const v of adapterViolations(ts)) problems.push(`TypeScript: ${v}`);
  for (const v of entryViolations(ts)) problems.push(`TypeScript: ${v}`);
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkTree();
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log(
    'layers: no import cycles in Rust or TypeScript; the core uses only earlier layers and no adapter; adapters import only their own files and the shared module; subpath entries are leaves',
  );
}
