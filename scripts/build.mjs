// Builds the npm package: the wasm module (cargo + wasm-bindgen + wasm-opt)
// for Node and the web, then the TypeScript wrapper (CommonJS for Node, an ESM
// shim over it, and ESM for browsers).
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { binPath, pkgDir, root, run, runAll, step, wasmBindgenBin } from './lib.mjs';

// The core module (validation, builders, bounding, rendering) and three
// modules loaded by the code that needs them: the agent module, the JSON
// Schema engine and the screen (docs/internals/modules.md).
const MODULES = [
  { crate: 'toolresult-wasm', name: 'toolresult_wasm', profile: 'release' },
  // The result store, references, budgets, normalization, conversions and
  // diffs: loaded by code that keeps or converts results, so a page that
  // validates and renders downloads only the core.
  { crate: 'toolresult-agent-wasm', name: 'toolresult_agent_wasm', profile: 'release' },
  // A second -Oz pass takes ~1.8 KB gzip more off the engine (~25 s a pass).
  { crate: 'toolresult-schema-wasm', name: 'toolresult_schema_wasm', profile: 'release', optPasses: 2 },
  // The safety screen and the result document: loaded by code that screens.
  // Its own cargo profile compiles the shared crates for speed (Cargo.toml).
  { crate: 'toolresult-screen-wasm', name: 'toolresult_screen_wasm', profile: 'screen' },
];
const srcWasm = path.join(pkgDir, 'src', 'wasm');
const dist = path.join(pkgDir, 'dist');
// The .js files tsc wrote under `dir`, except the wasm-bindgen glue.
const listJs = (dir) =>
  readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.js') && !f.startsWith(`wasm${path.sep}`))
    .sort()
    .map((f) => path.join(dir, f));
const rawWasm = (name) => path.join(root, 'target', 'wasm32-unknown-unknown', MODULES.find((m) => m.name === name).profile, `${name}.wasm`);

// `--ts-only`: reuse the wasm in src/wasm (after TypeScript-only edits).
const tsOnly = process.argv.includes('--ts-only');

if (!tsOnly) {
  step('build: wasm (cargo)');
  for (const profile of new Set(MODULES.map((m) => m.profile))) {
    const crates = MODULES.filter((m) => m.profile === profile).flatMap((m) => ['-p', m.crate]);
    run('cargo', ['build', ...crates, '--profile', profile, '--target', 'wasm32-unknown-unknown']);
  }

  step('build: wasm-bindgen (every module and target at once)');
  const bindgen = [];
  for (const target of ['web', 'nodejs']) {
    const out = path.join(srcWasm, target === 'nodejs' ? 'node' : 'web');
    rmSync(out, { recursive: true, force: true });
    // The reset function lets the wrapper replace an instance that trapped.
    for (const { name } of MODULES) {
      bindgen.push([wasmBindgenBin(), ['--target', target, '--experimental-reset-state-function', '--out-dir', out, '--out-name', name, rawWasm(name)]]);
    }
  }
  await runAll(bindgen);
  step('build: wasm-opt (every module at once)');
  const optimize = [];
  for (const { name, optPasses = 1 } of MODULES) {
    // The two targets differ in their glue only: the package ships one copy of
    // each .wasm, beside the browser glue, and the Node glue reads that one.
    const wasm = path.join(srcWasm, 'web', `${name}_bg.wasm`);
    const nodeWasm = path.join(srcWasm, 'node', `${name}_bg.wasm`);
    if (!readFileSync(wasm).equals(readFileSync(nodeWasm))) throw new Error(`wasm-bindgen wrote different ${name}_bg.wasm files for Node and the web`);
    rmSync(nodeWasm);
    rmSync(`${nodeWasm}.d.ts`);
    // Debian's binaryen makes modules that fail to load; the npm one is current.
    const passes = Array.from({ length: optPasses }, () => '-Oz');
    optimize.push([binPath('wasm-opt'), [...passes, '--strip-debug', '--strip-producers', wasm, '-o', wasm]]);
  }
  await runAll(optimize);
  writeFileSync(path.join(srcWasm, 'web', 'package.json'), '{ "type": "module" }\n');
}

step('build: TypeScript');
rmSync(dist, { recursive: true, force: true });
// The two builds are independent: one core each.
await runAll([
  [binPath('tsc'), ['-p', path.join(pkgDir, 'tsconfig.node.json')]],
  [binPath('tsc'), ['-p', path.join(pkgDir, 'tsconfig.web.json')]],
]);
// One copy of each .wasm file, in dist/web/wasm/web/: the browser glue finds it
// next to itself (`new URL`, which bundlers follow) and workerd imports it by
// that path; the Node glue (below) reads it there too.
cpSync(path.join(srcWasm, 'web'), path.join(dist, 'web', 'wasm', 'web'), { recursive: true });
writeFileSync(path.join(dist, 'web', 'package.json'), '{ "type": "module" }\n');
// `toolresult/style.css`: the default look of renderDom, from the one copy in
// src/style.ts (the element adopts the same rules).
writeFileSync(path.join(dist, 'style.css'), (await import(pathToFileURL(path.join(dist, 'web', 'style.js')).href)).TOOL_RESULT_CSS);
// Its types: none, but a declaration file all the same, so `import 'toolresult/style.css'`
// compiles under noUncheckedSideEffectImports and every entry point has types (attw).
writeFileSync(
  path.join(dist, 'style.css.d.ts'),
  '// Generated by scripts/build.mjs: a stylesheet, imported for its side effect; it exports nothing.\nexport {};\n',
);
// The package README is the repository README.
cpSync(path.join(root, 'README.md'), path.join(pkgDir, 'README.md'));

// The Node build as CommonJS bundles, each compiled only when a process uses
// it (docs/internals/modules.md §2). Node resolves, reads and compiles one file
// per bundle instead of one per module:
// - bundle.js: what `require('toolresult')` and its first validation run (the
//   entry, the runtime, the envelope API and what it imports, node-wasm.js);
// - bundle-main.js: the rest of the main entry, loaded on first use of one of
//   its exports (exports.js becomes getters that require on first use);
// - bundle-<subpath>.js: what only that entry reaches (`/node`, `/postgres`,
//   `require` of `/web`, the adapters, …; `cli` for the CLI), and
//   bundle-shared.js what several of them reach.
// Each tsc output file becomes a stub that returns its module from its bundle,
// so the entries and the tests that reach an inner module share one instance;
// a bundle reaches another bundle's module as that bundle's export. Modules stay
// lazy inside a bundle (esbuild keeps CommonJS input as `__commonJS` wrappers,
// run on first `require`), so `/postgres` needs `pg` only to connect and the
// wasm glue is required on first use.
const nodeDist = path.join(dist, 'node');
const posix = (f) => f.replaceAll(path.sep, '/');
const moduleFiles = listJs(nodeDist).map((f) => posix(path.relative(nodeDist, f)));
const require = createRequire(import.meta.url);
const esbuild = require('esbuild');

// The module graph (relative paths, `/`-separated), from esbuild's metafile.
const esbuildNode = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  // `pg`, `@opentelemetry/api`, … are the user's; the wasm-bindgen glue is required on first use.
  packages: 'external',
  external: ['./wasm/*'],
  absWorkingDir: nodeDist,
  logLevel: 'warning',
};
const { metafile } = await esbuild.build({ ...esbuildNode, entryPoints: moduleFiles, outdir: path.join(nodeDist, 'graph'), write: false, metafile: true });
const graph = new Map(Object.entries(metafile.inputs).map(([f, { imports }]) => [posix(f), imports.filter((i) => !i.external).map((i) => posix(i.path))]));
const reach = (roots, stopAt = new Set()) => {
  const seen = new Set();
  const todo = [...roots];
  while (todo.length) {
    const f = todo.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    if (!stopAt.has(f)) todo.push(...(graph.get(f) ?? []));
  }
  return seen;
};
// What the first validation after `require('toolresult')` runs: the entry (not
// the modules of exports.js, which load on first use), the envelope API and the
// Node glue's module loader.
const coreBundle = reach(['index.js', 'api.js', 'node-wasm.js'], new Set(['exports.js']));

// The package's export list (exports.ts), each module required on first use of
// one of its exports, instead of tsc's `__exportStar(require(…))`, which runs
// every module at `require('toolresult')`. Each name is looked up in the
// modules the file requires, by identity. `import` binds every name at once
// (dist/node/index.mjs), so what a name costs to bind is what `import` costs:
// - a module of the core bundle: a getter (it is loaded already);
// - a function: a forwarder that requires its module on first call (the same
//   object for `require` and `import`; its name and length are the function's);
// - a number or string: its value;
// - a class or an object: a getter. Only the modules that own one go into
//   bundle-main.js, which `import` loads (returned, for the bundling below).
function lazyExports(file) {
  const source = readFileSync(path.join(nodeDist, file), 'utf8');
  const from = [...new Set([...source.matchAll(/require\("(\.\.?\/[^"]+)"\)/g)].map((m) => m[1]))];
  const all = require(path.join(nodeDist, file));
  const modules = from.map((f) => [f, require(path.join(nodeDist, path.dirname(file), f))]);
  const byModule = new Map(from.map((f) => [f, []]));
  for (const name of Object.keys(all)) {
    const owner = modules.find(([, m]) => Object.hasOwn(m, name) && m[name] === all[name]);
    if (!owner)
      throw new Error(
        `${file}: export ${name} is not an export of that name of a module it requires (a rename?); lazyExports in scripts/build.mjs expects none`,
      );
    byModule.get(owner[0]).push(name);
  }
  const isClass = (v) => typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v));
  const bindOnImport = new Set();
  const code = [...byModule]
    .filter(([, names]) => names.length)
    .map(([f, names], i) => {
      const load = `(m${i} ??= require(${JSON.stringify(f)}))`;
      const inCore = coreBundle.has(posix(path.join(path.dirname(file), f)));
      const lines = [`let m${i};`];
      const getters = [];
      for (const name of names) {
        const value = all[name];
        if (inCore || isClass(value) || (typeof value === 'object' && value !== null)) getters.push(name);
        else if (typeof value === 'function') {
          const own = Reflect.ownKeys(value).filter((k) => !['length', 'name', 'prototype'].includes(k));
          if (own.length)
            throw new Error(`${file}: export ${name} is a function with properties (${own.map(String).join(', ')}), which a forwarder would not carry`);
          lines.push(
            `function ${name}(...args) {\n  return ${load}.${name}(...args);\n}`,
            `Object.defineProperty(${name}, 'length', { value: ${value.length} });`,
            `Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, value: ${name} });`,
          );
        } else if (typeof value === 'number' || typeof value === 'string')
          lines.push(`Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, value: ${JSON.stringify(value)} });`);
        else throw new Error(`${file}: export ${name} is a ${typeof value}; lazyExports in scripts/build.mjs does not know how to bind it`);
      }
      if (getters.length) {
        lines.push(`for (const name of ${JSON.stringify(getters)}) Object.defineProperty(exports, name, { enumerable: true, get: () => ${load}[name] });`);
        if (!inCore) bindOnImport.add(posix(path.join(path.dirname(file), f)));
      }
      return `${lines.join('\n')}\n`;
    });
  writeFileSync(
    path.join(nodeDist, file),
    `'use strict';\n// Generated by scripts/build.mjs from ${file.replace(/\.js$/, '.ts')}: each module is required on first use of one of its exports.\n` +
      `Object.defineProperty(exports, '__esModule', { value: true });\n${code.join('')}`,
  );
  return bindOnImport;
}
const bindOnImport = lazyExports('exports.js');

// Which bundle each module goes to.
const bundleOf = new Map();
for (const f of coreBundle) bundleOf.set(f, 'bundle.js');
// The modules that own a class or an object of the main entry's exports:
// `import` binds every name, so it loads this bundle and nothing else of the
// main entry (their own requires are lazy, below). The rest of the main entry
// is bundle-main-rest.js, loaded on first use.
for (const f of bindOnImport) bundleOf.set(f, 'bundle-main.js');
for (const f of reach(['index.js'])) if (!bundleOf.has(f)) bundleOf.set(f, 'bundle-main-rest.js');
// The other entries: package.json's exports that point into dist/node, and the CLI (bin/toolresult.cjs).
const entries = new Map([['cli.js', 'cli']]);
const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const addEntry = (subpath, target) => {
  if (typeof target !== 'string') for (const t of Object.values(target)) addEntry(subpath, t);
  else if (subpath !== '.' && target.startsWith('./dist/node/') && target.endsWith('.js') && !entries.has(target.slice(12)))
    entries.set(target.slice(12), subpath.slice(2).replaceAll('/', '-'));
};
for (const [subpath, target] of Object.entries(pkg.exports)) addEntry(subpath, target);
const reachedBy = new Map();
for (const [entry, name] of entries) {
  for (const f of reach([entry])) if (!bundleOf.has(f)) reachedBy.set(f, [...(reachedBy.get(f) ?? []), name]);
}
for (const f of moduleFiles) {
  const by = [...new Set(reachedBy.get(f) ?? [])];
  if (!bundleOf.has(f)) bundleOf.set(f, by.length === 1 ? `bundle-${by[0]}.js` : 'bundle-shared.js');
}
const bundles = new Map();
for (const [f, b] of bundleOf) bundles.set(b, [...(bundles.get(b) ?? []), f]);
// A module's requires of the package's other modules run on first use of what
// they import, not when the module runs (as Babel's `lazy` CommonJS option):
// tsc writes `const x_js_1 = require("./x.js");` and reads `x_js_1.name` where
// it uses an import, so the binding becomes a function that requires once.
// Defining a class or a constant then costs no module it does not touch, which
// is what `import` of the main entry pays for (docs/internals/modules.md §2).
// The entries are the modules that run code at load (they install the wasm
// loaders): a require of one stays as it is, since the importer may need that
// code run before it uses anything the entry exports (the CLI imports the main
// entry that way).
const loadsAtOnce = new Set(['index.js', ...entries.keys()]);
function lazyRequires(source, file) {
  const names = [];
  let out = source.replace(/^(?:const|var|let) (\w+_1) = require\(("\.\.?\/[^"]+")\);$/gm, (line, name, rel) => {
    if (loadsAtOnce.has(posix(path.join(path.dirname(file), JSON.parse(rel))))) return line;
    names.push(name);
    return `let ${name}$m;\nconst ${name}$ = () => (${name}$m ??= require(${rel}));`;
  });
  for (const name of names) {
    const uses = new RegExp(`\\b${name}\\b(?!\\$)`, 'g');
    out = out.replace(uses, (m, at) => {
      if (out[at + m.length] !== '.')
        throw new Error(`${file}: ${name} is used other than as \`${name}.x\`; lazyRequires in scripts/build.mjs expects tsc's form`);
      return `(${name}$())`;
    });
  }
  return out;
}
for (const [bundle, files] of bundles) {
  const inBundle = new Set(files);
  await esbuild.build({
    ...esbuildNode,
    stdin: {
      contents: files
        .map((f) => `Object.defineProperty(exports, ${JSON.stringify(f)}, { enumerable: true, get: () => require(${JSON.stringify(`./${f}`)}) });`)
        .join('\n'),
      resolveDir: nodeDist,
      sourcefile: `${bundle}-entry.js`,
    },
    outfile: path.join(nodeDist, bundle),
    plugins: [
      {
        // A module of another bundle is that bundle's export: no file of its own
        // to resolve and read (the stubs are for code outside the package).
        name: 'other-bundles',
        setup(build) {
          build.onResolve({ filter: /^\.\.?\// }, (args) => {
            const file = posix(path.relative(nodeDist, path.resolve(args.resolveDir, args.path)));
            return bundleOf.has(file) && !inBundle.has(file) ? { path: file, namespace: 'other-bundle' } : undefined;
          });
          build.onLoad({ filter: /.*/, namespace: 'other-bundle' }, (args) => ({
            contents: `module.exports = require(${JSON.stringify(`./${bundleOf.get(args.path)}`)})[${JSON.stringify(args.path)}];`,
            loader: 'js',
          }));
          build.onResolve({ filter: /^\.\/bundle[\w-]*\.js$/, namespace: 'other-bundle' }, (args) => ({ path: args.path, external: true }));
        },
      },
      {
        name: 'lazy-requires',
        setup(build) {
          build.onLoad({ filter: /\.js$/, namespace: 'file' }, (args) => {
            const file = posix(path.relative(nodeDist, args.path));
            if (!bundleOf.has(file)) return undefined;
            return { contents: lazyRequires(readFileSync(args.path, 'utf8'), file), loader: 'js' };
          });
        },
      },
    ],
  });
}
// Export names first: the stubs replace the files the bundles were made from.
const exportNames = new Map(moduleFiles.map((f) => [f, Object.keys(require(path.join(nodeDist, bundleOf.get(f)))[f]).filter((n) => n !== 'default')]));
for (const f of moduleFiles) {
  const names = exportNames.get(f);
  const toBundle = `${'../'.repeat(f.split('/').length - 1) || './'}${bundleOf.get(f)}`;
  writeFileSync(
    path.join(nodeDist, f),
    `'use strict';\n// Generated by scripts/build.mjs: this module lives in ${toBundle}.\n` +
      `const m = require(${JSON.stringify(toBundle)})[${JSON.stringify(f)}];\nmodule.exports = m;\n` +
      // The export names, in the form Node's cjs-module-lexer reads, so
      // `import { x } from 'toolresult/node'` keeps working.
      (names.length ? `0 && (module.exports = { ${names.join(', ')} });\n` : ''),
  );
}

// The Node glue of each module, which would read a .wasm file next to itself,
// asks node-wasm.js (in bundle.js) for the compiled module instead.
for (const { name } of MODULES) {
  const glue = readFileSync(path.join(srcWasm, 'node', `${name}.js`), 'utf8');
  const load = `const wasmPath = \`\${__dirname}/${name}_bg.wasm\`;\nconst wasmBytes = require('fs').readFileSync(wasmPath);\nconst wasmModule = new WebAssembly.Module(wasmBytes);\n`;
  if (glue.split(load).length !== 2) throw new Error(`the Node glue of ${name} no longer loads its module as scripts/build.mjs expects: update the rewrite`);
  const out = path.join(nodeDist, 'wasm', 'node');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    path.join(out, `${name}.js`),
    glue.replace(
      load,
      `// Rewritten by scripts/build.mjs: the package's one copy of the module (dist/web/wasm/web/), compiled once.\n` +
        `const wasmModule = require('../../${bundleOf.get('node-wasm.js')}')['node-wasm.js'].wasmModule(${JSON.stringify(name)});\n`,
    ),
  );
  cpSync(path.join(srcWasm, 'node', `${name}.d.ts`), path.join(out, `${name}.d.ts`));
}

// ESM entry for Node: named re-exports of the CommonJS build, so `import` and
// `require` share one wasm instance.
const names = exportNames.get('index.js');
writeFileSync(
  path.join(dist, 'node', 'index.mjs'),
  `// Generated by scripts/build.mjs: ESM face of the CommonJS build.\n` +
    // Loaded with require, not `import`: importing CommonJS makes Node lex
    // every re-exported file for export names (cjs-module-lexer), which was
    // over a third of the cold start.
    `import { createRequire } from 'node:module';\n` +
    `const cjs = createRequire(import.meta.url)('./${bundleOf.get('index.js')}')['index.js'];\n` +
    `export const { ${names.join(', ')} } = cjs;\nexport default cjs;\n`,
);

// Its types, as ESM declarations (the CommonJS ones would make TypeScript
// treat `import` of the package as CommonJS: "masquerading as CJS").
writeFileSync(
  path.join(dist, 'node', 'index.d.mts'),
  `// Generated by scripts/build.mjs: ESM face of the CommonJS types.\n` +
    `export * from './index.js';\ndeclare const cjs: typeof import('./index.js');\nexport default cjs;\n`,
);

// ESM faces of the entries that extend a class of their optional peer
// (`toolresult/adk`: ADK's BasePlugin). The CommonJS entry `require`s the peer,
// which loads the peer's CommonJS build: beside a user's `import` of the peer, a
// second copy. The ESM face (the `import` condition) imports the peer's ES-module
// build when it is installed and gives it to the entry's internal `withPeer`.
for (const [file, peer] of [['adapters/adk.js', '@google/adk']]) {
  const base = `./${path.posix.basename(file)}`;
  const faceNames = exportNames.get(file).filter((n) => n !== 'withPeer');
  writeFileSync(
    path.join(nodeDist, file.replace(/\.js$/, '.mjs')),
    `// Generated by scripts/build.mjs: ESM face of ${base}, over the ES-module build of ${peer}.\n` +
      `import { createRequire } from 'node:module';\n` +
      `const cjs = createRequire(import.meta.url)(${JSON.stringify(base)});\n` +
      `// The peer is optional: without it this entry loads, and what needs it says so.\n` +
      `let peer;\nlet failure;\ntry {\n  peer = await import(${JSON.stringify(peer)});\n} catch (e) {\n  failure = e;\n}\n` +
      `const face = { ...cjs, ...cjs.withPeer(() => {\n  if (failure) throw failure;\n  return peer;\n}) };\n` +
      `export const { ${faceNames.join(', ')} } = face;\n`,
  );
  writeFileSync(
    path.join(nodeDist, file.replace(/\.js$/, '.d.mts')),
    `// Generated by scripts/build.mjs: ESM face of the CommonJS types.\nexport * from ${JSON.stringify(base)};\n`,
  );
}

console.log('');
for (const { name } of MODULES) {
  const bytes = readFileSync(path.join(dist, 'web', 'wasm', 'web', `${name}_bg.wasm`));
  console.log(
    `${name}: ${bytes.length} bytes raw, ${gzipSync(bytes, { level: 9 }).length} bytes gzip ` + `(cargo output ${statSync(rawWasm(name)).size} bytes)`,
  );
}

// The web demo, built from the package as a user imports it (workspace
// dependency `toolresult`); web-demo/dist is static files.
step('build: web-demo (Vite)');
const demo = path.join(root, 'web-demo');
run(process.execPath, [path.join(demo, 'scripts', 'catalog.mjs')]);
run(binPath('vite'), ['build', '--logLevel', 'warn'], { cwd: demo });
const assets = path.join(demo, 'dist', 'assets');
for (const file of readdirSync(assets).sort()) {
  const bytes = readFileSync(path.join(assets, file));
  console.log(`web-demo/dist/assets/${file}: ${bytes.length} bytes raw, ${gzipSync(bytes, { level: 9 }).length} bytes gzip`);
}
