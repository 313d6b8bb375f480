// Builds the npm package: the wasm module (cargo + wasm-bindgen + wasm-opt)
// for Node and the web, then the TypeScript wrapper (CommonJS for Node, an ESM
// shim over it, and ESM for browsers).
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { binPath, pkgDir, root, run, step, wasmBindgenBin } from './lib.mjs';

// The core module (everything but the JSON Schema engine and the screen), and
// the engine in a module of its own so only code that checks JSON Schemas
// downloads or instantiates it (docs/modules.md).
const MODULES = [
  { crate: 'toolresult-wasm', name: 'toolresult_wasm', profile: 'release' },
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

  step('build: wasm-bindgen');
  for (const target of ['nodejs', 'web']) {
    const out = path.join(srcWasm, target === 'nodejs' ? 'node' : 'web');
    rmSync(out, { recursive: true, force: true });
    for (const { name, optPasses = 1 } of MODULES) {
      // The reset function lets the wrapper replace an instance that trapped.
      run(wasmBindgenBin(), ['--target', target, '--experimental-reset-state-function', '--out-dir', out, '--out-name', name, rawWasm(name)]);
      // Debian's binaryen makes modules that fail to load; the npm one is current.
      const wasm = path.join(out, `${name}_bg.wasm`);
      const passes = Array.from({ length: optPasses }, () => '-Oz');
      run(binPath('wasm-opt'), [...passes, '--strip-debug', '--strip-producers', wasm, '-o', wasm]);
    }
  }
  writeFileSync(path.join(srcWasm, 'web', 'package.json'), '{ "type": "module" }\n');
}

step('build: TypeScript');
rmSync(dist, { recursive: true, force: true });
run(binPath('tsc'), ['-p', path.join(pkgDir, 'tsconfig.node.json')]);
run(binPath('tsc'), ['-p', path.join(pkgDir, 'tsconfig.web.json')]);
cpSync(path.join(srcWasm, 'node'), path.join(dist, 'node', 'wasm', 'node'), { recursive: true });
cpSync(path.join(srcWasm, 'web'), path.join(dist, 'web', 'wasm', 'web'), { recursive: true });
writeFileSync(path.join(dist, 'web', 'package.json'), '{ "type": "module" }\n');
// `toolresult/style.css`: the default look of renderDom, from the one copy in
// src/style.ts (the element adopts the same rules).
writeFileSync(path.join(dist, 'style.css'), (await import(pathToFileURL(path.join(dist, 'web', 'style.js')).href)).TOOL_RESULT_CSS);
// The package README is the repository README.
cpSync(path.join(root, 'README.md'), path.join(pkgDir, 'README.md'));

// The Node build as two CommonJS files (docs/modules.md §2): Node resolves,
// reads and compiles one file for `import 'toolresult'` instead of ~25, which
// was a third of the cold start. `bundle.js` holds what the main entry needs;
// `bundle-entries.js` the other entries (`/node`, `/postgres`, `/otel`,
// `require` of `/web`, the CLI), which reach the main bundle's modules through
// their stubs. Every module stays lazy (esbuild keeps CommonJS input as
// `__commonJS` wrappers, run on first `require`), so `/postgres` still needs
// `pg` only when used and the engine's glue is still required on first use.
// Each tsc output file becomes a stub that returns its module from its
// bundle, so the entries and the tests that reach the runtime share one
// instance.
const nodeDist = path.join(dist, 'node');
const moduleFiles = listJs(nodeDist).map((f) => path.relative(nodeDist, f).replaceAll(path.sep, '/'));
const require = createRequire(import.meta.url);
const esbuild = require('esbuild');
const nodeBundle = (files, outName, { plugins = [], write = true } = {}) =>
  esbuild.build({
    stdin: {
      contents: files
        .map((f) => `Object.defineProperty(exports, ${JSON.stringify(f)}, { enumerable: true, get: () => require(${JSON.stringify(`./${f}`)}) });`)
        .join('\n'),
      resolveDir: nodeDist,
      sourcefile: `${outName}-entry.js`,
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    // `pg` and `@opentelemetry/api` are the user's; the wasm-bindgen glue
    // reads its .wasm next to itself.
    packages: 'external',
    external: ['./wasm/*'],
    plugins,
    write,
    metafile: true,
    outfile: path.join(nodeDist, `${outName}.js`),
    logLevel: 'warning',
  });
// The main bundle: index.js and what it requires. A first pass, not written,
// finds those files; the bundle then exposes each of them to its stub.
const mainInputs = (await nodeBundle(['index.js'], 'bundle', { write: false })).metafile.inputs;
const inMain = new Set(
  Object.keys(mainInputs)
    .map((f) => path.relative(nodeDist, path.resolve(f)).replaceAll(path.sep, '/'))
    .filter((f) => moduleFiles.includes(f)),
);
await nodeBundle([...inMain], 'bundle');
const rest = moduleFiles.filter((f) => !inMain.has(f));
await nodeBundle(rest, 'bundle-entries', {
  plugins: [
    {
      name: 'main-bundle-through-stubs',
      setup(build) {
        build.onResolve({ filter: /^\.\.?\// }, (args) => {
          const file = path.relative(nodeDist, path.resolve(args.resolveDir, args.path)).replaceAll(path.sep, '/');
          return inMain.has(file) ? { path: `./${file}`, external: true } : undefined;
        });
      },
    },
  ],
});
const bundleOf = (f) => (inMain.has(f) ? 'bundle.js' : 'bundle-entries.js');
// Export names first: the stubs replace the files the bundles were made from.
const exportNames = new Map(moduleFiles.map((f) => [f, Object.keys(require(path.join(nodeDist, bundleOf(f)))[f]).filter((n) => n !== 'default')]));
for (const f of moduleFiles) {
  const bundleName = bundleOf(f);
  const names = exportNames.get(f);
  const toBundle = `${'../'.repeat(f.split('/').length - 1) || './'}${bundleName}`;
  writeFileSync(
    path.join(nodeDist, f),
    `'use strict';\n// Generated by scripts/build.mjs: this module lives in ${toBundle}.\n` +
      `const m = require(${JSON.stringify(toBundle)})[${JSON.stringify(f)}];\nmodule.exports = m;\n` +
      // The export names, in the form Node's cjs-module-lexer reads, so
      // `import { x } from 'toolresult/node'` keeps working.
      (names.length ? `0 && (module.exports = { ${names.join(', ')} });\n` : ''),
  );
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
    `const cjs = createRequire(import.meta.url)('./bundle.js')['index.js'];\n` +
    `export const { ${names.join(', ')} } = cjs;\nexport default cjs;\n`,
);

// Its types, as ESM declarations (the CommonJS ones would make TypeScript
// treat `import` of the package as CommonJS: "masquerading as CJS").
writeFileSync(
  path.join(dist, 'node', 'index.d.mts'),
  `// Generated by scripts/build.mjs: ESM face of the CommonJS types.\n` +
    `export * from './index.js';\ndeclare const cjs: typeof import('./index.js');\nexport default cjs;\n`,
);

console.log('');
for (const { name } of MODULES) {
  const bytes = readFileSync(path.join(dist, 'node', 'wasm', 'node', `${name}_bg.wasm`));
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
