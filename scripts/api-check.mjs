// `npm run api:check`: the public API, as users see it, against the reports
// committed in api/ (reviewed like code: a change to the surface shows up as a
// diff of those files).
//
//   node scripts/api-check.mjs            compare; exit 1 naming each entry that changed, with the diff
//   node scripts/api-check.mjs --update   rewrite the reports from what is built
//   --only npm | --only rust              one half
//
// npm: every subpath export of bindings/typescript/package.json that has code,
// each condition's built declaration file (dist/, so `npm run build` first)
// read by Microsoft's API Extractor: one report per subpath, api/toolresult.api.md,
// api/toolresult-mcp.api.md, ...: the surface TypeScript takes for Node in full,
// and where other conditions (workerd, browser, import) give another, its
// difference. API Extractor's configs are generated in a temporary directory,
// one per declaration file.
//
// Rust: `cargo public-api` (pinned, in the tools cache; a pinned nightly builds the
// rustdoc JSON it reads) for the published crates, all features on:
// api/rust/toolresult.txt, api/rust/toolresult-schema.txt and api/rust/toolresult-screen.txt.
//
// TOOLRESULT_API_PACKAGE (a package directory with package.json and dist/) and
// TOOLRESULT_API_REPORTS (a reports directory) override the two places, for
// tests/node/api-check.test.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CARGO_PUBLIC_API_VERSION, cargoPublicApiBin, PUBLIC_API_NIGHTLY, pkgDir, root } from './lib.mjs';

const args = process.argv.slice(2);
const update = args.includes('--update');
const at = args.indexOf('--only');
const only = at >= 0 ? args[at + 1] : undefined;
if (args.some((a, i) => !['--update', '--only'].includes(a) && args[i - 1] !== '--only') || (at >= 0 && !['npm', 'rust'].includes(only))) {
  console.error('usage: node scripts/api-check.mjs [--update] [--only npm|rust]');
  process.exit(2);
}
const pkgRoot = path.resolve(process.env.TOOLRESULT_API_PACKAGE ?? pkgDir);
const reportDir = path.resolve(process.env.TOOLRESULT_API_REPORTS ?? path.join(root, 'api'));
const CRATES = ['toolresult', 'toolresult-schema', 'toolresult-screen'];

/** A line diff (longest common subsequence of what lies between the common head and tail), with `context` lines around each change. */
function diff(expected, actual, { context = 3, prefix = (op) => `${op} ` } = {}) {
  const a = expected.split('\n');
  const b = actual.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const lcs = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--) lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops = a.slice(0, head).map((l) => [' ', l]);
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) ops.push([' ', x[i++], j++]);
    else if (i < x.length && (j === y.length || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push(['-', x[i++]]);
    else ops.push(['+', y[j++]]);
  }
  for (const l of a.slice(a.length - tail)) ops.push([' ', l]);
  const changed = ops.map(([op]) => op !== ' ');
  const near = ops.map((_, k) => changed.slice(Math.max(0, k - context), k + context + 1).some(Boolean));
  const out = [];
  ops.forEach(([op, line], k) => {
    if (near[k]) out.push(`${prefix(op)}${line}`.trimEnd());
    else if (near[k - 1]) out.push('...');
  });
  return out.join('\n');
}

/** Compares (or, with --update, writes) one report; returns whether it matched. */
function settle(file, actual, what) {
  const shown = path.relative(root, file) || file;
  const expected = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (expected === actual) {
    console.log(`unchanged: ${what} (${shown})`);
    return true;
  }
  if (update) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
    console.log(`${expected === undefined ? 'written' : 'updated'}: ${what} (${shown})`);
    return true;
  }
  if (expected === undefined) console.error(`\nAPI CHANGED: ${what}: no committed report ${shown}`);
  else console.error(`\nAPI CHANGED: ${what} differs from ${shown} (- committed, + built):\n${diff(expected, actual)}`);
  return false;
}

// ---- npm ----------------------------------------------------------------

/** Each subpath export with code: its conditions' declaration files, e.g. ['.', [['workerd', 'dist/web/workerd.d.ts'], ...]]. */
function entryPoints(pkg) {
  const out = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const types = [];
    let code = false;
    const walk = (t, conditions) => {
      if (typeof t === 'string') {
        if (conditions.at(-1) === 'types') types.push([conditions.slice(0, -1).join('.') || 'types', t]);
        else if (/\.[cm]?js$/.test(t)) code = true;
        return;
      }
      for (const [condition, inner] of Object.entries(t)) walk(inner, [...conditions, condition]);
    };
    walk(target, []);
    // Stylesheets, schemas and package.json have no code, so no API to report.
    if (code) out.push([subpath, types]);
  }
  return out;
}

/** `.` → toolresult, `./openai-agents` → toolresult-openai-agents. */
const reportName = (name, subpath) =>
  [
    name,
    ...subpath
      .replace(/^\.\/?/, '')
      .split('/')
      .filter(Boolean),
  ].join('-');

/**
 * The declaration files of the package, copied to `dir` with its package.json files; its
 * dependencies' types resolve through a link to the workspace's node_modules. One construct
 * API Extractor cannot read (rushstack#5671), `declare const m: typeof import('./x.js')`
 * (build.mjs's ESM face of the CommonJS types), becomes its equivalent `import * as m from './x.js'`.
 */
function copyDeclarations(dir) {
  const copy = path.join(dir, 'package');
  const walk = (from, to) => {
    for (const e of readdirSync(from, { withFileTypes: true })) {
      const src = path.join(from, e.name);
      const dst = path.join(to, e.name);
      if (e.isDirectory()) walk(src, dst);
      else if (/\.d\.[cm]?ts$/.test(e.name) || e.name === 'package.json') {
        mkdirSync(to, { recursive: true });
        writeFileSync(dst, readFileSync(src, 'utf8').replace(/^declare const (\w+): typeof import\((['"][^'"]+['"])\);$/gm, 'import * as $1 from $2;'));
      }
    }
  };
  walk(path.join(pkgRoot, 'dist'), path.join(copy, 'dist'));
  writeFileSync(path.join(copy, 'package.json'), readFileSync(path.join(pkgRoot, 'package.json')));
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  if (existsSync(path.join(pkgRoot, 'node_modules'))) symlinkSync(path.join(pkgRoot, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  return copy;
}

/**
 * API Extractor's report, less what is not names and signatures: the header, the `@public`
 * tags (everything is), "(undocumented)" notes and where warnings were found (which moves
 * with any edit). Warnings about types used but not exported stay, for the review.
 */
function normalize(report) {
  const lines = report
    .replace(/^[\s\S]*?```ts\n/, '')
    .replace(/```\s*$/, '')
    .replace(/ by the entry point [\w.-]+\.d\.[cm]?ts/g, ' by the entry point')
    .replace(/^\/\/ [\w./-]+?:\d+:\d+ - /gm, '// ')
    .split('\n')
    .filter((l) => !/^\s*\/\/ (\(undocumented\)|@public|\(No @packageDocumentation comment for this package\))$/.test(l));
  // A comment separator left with nothing after it.
  return lines
    .filter((l, k) => !(/^\s*\/\/$/.test(l) && !/^\s*\/\/ /.test(lines[k + 1] ?? '')))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function checkNpm() {
  const require = createRequire(path.join(root, 'package.json'));
  const { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel } = require('@microsoft/api-extractor');
  const pkg = JSON.parse(readFileSync(path.join(pkgRoot, 'package.json'), 'utf8'));
  const entries = entryPoints(pkg);
  const declared = [...new Set(entries.flatMap(([, types]) => types.map(([, f]) => f)))];
  const absent = declared.filter((f) => !existsSync(path.join(pkgRoot, f)));
  if (absent.length) throw new Error(`not built: ${absent.join(', ')} in ${pkgRoot} (run \`npm run build\` first)`);

  const work = mkdtempSync(path.join(tmpdir(), 'toolresult-api-'));
  try {
    const copy = copyDeclarations(work);
    const pkgJson = path.join(copy, 'package.json');
    const files = declared.map((f) => path.join(copy, f));
    // One API Extractor config per declaration file; one TypeScript program for all of them.
    const configFor = (file, k) => {
      const dir = path.join(work, 'configs', String(k));
      mkdirSync(dir, { recursive: true });
      const configPath = path.join(dir, 'api-extractor.json');
      writeFileSync(
        configPath,
        JSON.stringify({
          projectFolder: copy,
          mainEntryPointFilePath: file,
          compiler: {
            // The published declarations as a consumer's compiler reads them:
            // the package's lib, Node's types, and bundler resolution, which
            // takes both the CommonJS build's and the ESM build's specifiers.
            overrideTsconfig: {
              compilerOptions: {
                target: 'es2022',
                lib: ['es2022', 'dom', 'esnext.disposable'],
                module: 'esnext',
                moduleResolution: 'bundler',
                strict: true,
                types: ['node'],
                typeRoots: [path.join(root, 'node_modules', '@types')],
              },
              files: [file],
            },
          },
          apiReport: { enabled: true, reportFileName: 'entry.api.md', reportFolder: dir, reportTempFolder: dir },
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          newlineKind: 'lf',
          messages: {
            // Compiler errors in the declarations fail the check; release tags
            // and TSDoc syntax are not this package's conventions.
            compilerMessageReporting: { default: { logLevel: 'error' } },
            extractorMessageReporting: {
              default: { logLevel: 'none' },
              // A type that is used but not exported: kept in the report, for the review.
              'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
              'ae-wrong-input-file-type': { logLevel: 'error' },
            },
            tsdocMessageReporting: { default: { logLevel: 'none' } },
          },
        }),
      );
      return {
        dir,
        config: ExtractorConfig.prepare({ configObject: ExtractorConfig.loadFile(configPath), configObjectFullPath: configPath, packageJsonFullPath: pkgJson }),
      };
    };
    const configs = new Map(declared.map((f, k) => [f, configFor(files[k], k)]));
    const compilerState = CompilerState.create(configs.get(declared[0]).config, { additionalEntryPoints: files });
    const reports = new Map();
    for (const [f, { dir, config }] of configs) {
      const errors = [];
      let result;
      try {
        result = Extractor.invoke(config, {
          localBuild: true,
          compilerState,
          messageCallback: (m) => {
            if (m.logLevel === ExtractorLogLevel.Error) errors.push(m.formatMessageWithLocation(copy));
            m.handled = m.logLevel !== ExtractorLogLevel.Error;
          },
        });
      } catch (e) {
        throw new Error(`API Extractor cannot read ${f}: ${e.message}`);
      }
      if (!result.succeeded || errors.length) throw new Error(`API Extractor failed on ${f}:\n${errors.join('\n')}`);
      reports.set(f, normalize(readFileSync(path.join(dir, 'entry.api.md'), 'utf8')));
    }

    let ok = true;
    const expectedFiles = new Set();
    for (const [subpath, types] of entries) {
      const specifier = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
      // Conditions whose declarations give the same report share a section.
      const sections = new Map();
      for (const [condition, f] of types) {
        const body = reports.get(f);
        if (!sections.has(body)) sections.set(body, []);
        sections.get(body).push(`\`${condition}\`: ${f.replace(/^\.\//, '')}`);
      }
      // The surface a Node consumer's TypeScript takes in full; the others as their difference from it.
      const [base, ...others] = [...sections].sort(([, a], [, b]) => baseRank(b) - baseRank(a));
      const list = (conds) => conds.map((c) => `- ${c}\n`).join('');
      const text =
        `# ${specifier}: public API\n\n` +
        'Generated by `npm run api:check -- --update` (scripts/api-check.mjs) from the built declarations\n' +
        'with API Extractor; reviewed like code, not edited by hand.\n\n' +
        `${list(base[1])}\n\`\`\`ts\n${base[0]}\n\`\`\`\n` +
        others
          .map(
            ([body, conds]) => `\n## Where it differs from the above\n\n${list(conds)}\n\`\`\`diff\n${diff(base[0], body, { prefix: (op) => op })}\n\`\`\`\n`,
          )
          .join('');
      const file = path.join(reportDir, `${reportName(pkg.name, subpath)}.api.md`);
      expectedFiles.add(path.basename(file));
      ok = settle(file, text, specifier) && ok;
    }
    // A report left over from an export that is gone is a change too.
    for (const f of existsSync(reportDir) ? readdirSync(reportDir).filter((f) => f.endsWith('.api.md') && !expectedFiles.has(f)) : []) {
      if (update) {
        rmSync(path.join(reportDir, f));
        console.log(`removed: ${f} (no such export any more)`);
      } else {
        console.error(`\nAPI CHANGED: ${path.relative(root, path.join(reportDir, f))} reports an export the package no longer has`);
        ok = false;
      }
    }
    return ok;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** How surely a section's conditions hold the one TypeScript takes for Node: `default` or a lone `types`, else `require`. */
const baseRank = (conds) => Math.max(...conds.map((c) => (/^`(default|types)`/.test(c) ? 2 : /^`require`/.test(c) ? 1 : 0)));

// ---- Rust ---------------------------------------------------------------

function checkRust() {
  const bin = cargoPublicApiBin();
  if (!existsSync(bin))
    throw new Error(`${bin} is missing: run \`node scripts/setup.mjs --for test\` (cargo-public-api ${CARGO_PUBLIC_API_VERSION}, Rust ${PUBLIC_API_NIGHTLY})`);
  let ok = true;
  for (const crate of CRATES) {
    console.log(`$ cargo-public-api public-api -p ${crate} (Rust ${PUBLIC_API_NIGHTLY})`);
    const r = spawnSync(
      bin,
      ['public-api', '--manifest-path', path.join(root, 'Cargo.toml'), '-p', crate, '--all-features', '--omit', 'blanket-impls', '--color', 'never'],
      { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, RUSTUP_TOOLCHAIN: PUBLIC_API_NIGHTLY }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    if (r.status !== 0) throw new Error(`cargo public-api -p ${crate}: exit code ${r.status}`);
    const text =
      `# The public API of the ${crate} crate (all features), by cargo-public-api ${CARGO_PUBLIC_API_VERSION} on Rust ${PUBLIC_API_NIGHTLY}.\n` +
      '# Generated by `npm run api:check -- --update` (scripts/api-check.mjs); reviewed like code, not edited by hand.\n' +
      r.stdout;
    ok = settle(path.join(reportDir, 'rust', `${crate}.txt`), text, `crate ${crate}`) && ok;
  }
  return ok;
}

let ok = true;
if (only !== 'rust') ok = checkNpm() && ok;
if (only !== 'npm') ok = checkRust() && ok;
if (!ok) {
  console.error(
    '\nThe public API differs from the reports in api/. If the change is meant, run `npm run api:check -- --update` and commit the reports with it, for review.',
  );
  process.exit(1);
}
