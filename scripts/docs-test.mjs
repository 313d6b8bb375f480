// `npm run docs:test`: every JavaScript and TypeScript example of README.md and
// docs/**/*.md runs against the built package, each block on its own.
//
//   node scripts/docs-test.mjs [file.md ...]      (default: README.md and docs/**/*.md)
//   DOCS_TEST_FILES=a.md:b.md node scripts/docs-test.mjs
//   DOCS_TEST_VERBOSE=1 prints what each passing block printed; DOCS_TEST_KEEP=1 keeps the temp folder.
//
// Blocks fenced as js, javascript, mjs, ts, typescript, jsx or tsx run as ES
// modules with Node, each in a temp folder of its own, where `toolresult` and
// its subpaths resolve to the workspace package (bindings/typescript, its
// dist/ as built) and every other import to the workspace's node_modules.
// TypeScript and JSX are turned into JavaScript with esbuild's `transform`
// (types stripped, JSX with React's automatic runtime). `require` is defined
// for blocks that use it (`createRequire`), so CommonJS examples run too.
//
// The line before a fence (blank lines aside) may hold one directive:
//   <!-- docs-test: skip — reason -->   the block does not run; the reason is required
//   <!-- docs-test: continue -->        the block runs appended to the previous one
// An unknown directive, or a skip without a reason, is a failure.
//
// Prints one line per block (file:line) and exits non-zero on any failure.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = path.join(root, 'bindings', 'typescript');
const TIMEOUT_MS = Number(process.env.DOCS_TEST_TIMEOUT_MS ?? 60_000);
const LANGS = new Map([
  ['js', 'js'],
  ['javascript', 'js'],
  ['mjs', 'js'],
  ['ts', 'ts'],
  ['typescript', 'ts'],
  ['jsx', 'jsx'],
  ['tsx', 'tsx'],
]);
const DIRECTIVE = /^<!--\s*docs-test:\s*(\S+)(.*?)-->\s*$/;

/** The markdown files to read: arguments, else DOCS_TEST_FILES, else README.md and docs/**. */
function inputFiles() {
  const args = process.argv.slice(2);
  if (args.length > 0) return args.map((f) => path.resolve(f));
  if (process.env.DOCS_TEST_FILES) {
    return process.env.DOCS_TEST_FILES.split(path.delimiter)
      .filter(Boolean)
      .map((f) => path.resolve(f));
  }
  const found = [path.join(root, 'README.md')];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) found.push(p);
    }
  };
  walk(path.join(root, 'docs'));
  return found;
}

/**
 * The code blocks of one markdown file: `{ file, line, lang, code, directive }`,
 * `line` the 1-based line of the opening fence. Fences may be indented (list
 * items); the indentation is taken off the block's lines.
 */
export function extractBlocks(file, text) {
  const lines = text.split(/\r?\n/);
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^(\s*)(`{3,}|~{3,})\s*([^`\s]*)/);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const body = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = lines[j].match(/^(\s*)(`{3,}|~{3,})\s*$/);
      if (close && close[2][0] === fence[0] && close[2].length >= fence.length) break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    const lang = LANGS.get(info.toLowerCase());
    if (lang) {
      let k = i - 1;
      while (k >= 0 && lines[k].trim() === '') k--;
      const m = k >= 0 ? lines[k].trim().match(DIRECTIVE) : null;
      const directive = m ? { name: m[1], rest: m[2] } : null;
      blocks.push({ file, line: i + 1, lang, code: body.join('\n'), directive });
    }
    i = j;
  }
  return blocks;
}

/** A skip's reason: what follows the directive's name after a dash or colon. */
function skipReason(rest) {
  return rest
    .trim()
    .replace(/^[—–:-]+/, '')
    .trim();
}

/** Groups blocks into runs (a `continue` joins the previous run); directive errors and skips are reported. */
export function plan(blocks) {
  const runs = [];
  let last = null;
  let lastFile = null;
  for (const b of blocks) {
    const where = `${rel(b.file)}:${b.line}`;
    if (b.file !== lastFile) {
      last = null;
      lastFile = b.file;
    }
    const d = b.directive;
    if (d && d.name === 'skip') {
      const reason = skipReason(d.rest);
      if (!reason) runs.push({ where, error: 'docs-test: skip needs a reason (<!-- docs-test: skip — why -->)' });
      else runs.push({ where, skip: reason });
      last = runs.at(-1);
      continue;
    }
    if (d && d.name === 'continue') {
      if (!last) {
        runs.push({ where, error: 'docs-test: continue with no earlier block in this file' });
        last = null;
        continue;
      }
      if (last.skip || last.error) {
        runs.push({ where, skip: `continues a block that does not run (${last.where})` });
        continue;
      }
      last.parts.push(b);
      last.also.push(b.line);
      continue;
    }
    if (d) {
      runs.push({ where, error: `unknown directive docs-test: ${d.name} (use skip — reason, or continue)` });
      last = runs.at(-1);
      continue;
    }
    last = { where, parts: [b], also: [] };
    runs.push(last);
  }
  return runs;
}

function rel(file) {
  const r = path.relative(root, file);
  return r.startsWith('..') ? file : r;
}

let esbuild;
/** One block as JavaScript: TypeScript and JSX through esbuild. */
async function toJs(block) {
  if (block.lang === 'js') return block.code;
  esbuild ??= await import('esbuild');
  const loader = block.lang === 'ts' ? 'ts' : block.lang;
  const out = await esbuild.transform(block.code, {
    loader,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    sourcefile: `${rel(block.file)}:${block.line}`,
  });
  return out.code;
}

/** The temp root: node_modules with `toolresult` → the workspace package and everything else the workspace installed. */
function makeRoot() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'toolresult-docs-test-'));
  const nm = path.join(dir, 'node_modules');
  mkdirSync(nm);
  symlinkSync(pkgDir, path.join(nm, 'toolresult'), 'dir');
  const wsModules = path.join(root, 'node_modules');
  if (existsSync(wsModules)) {
    for (const name of readdirSync(wsModules)) {
      if (name === 'toolresult' || name === '.bin' || name.startsWith('.')) continue;
      symlinkSync(path.join(wsModules, name), path.join(nm, name), 'dir');
    }
  }
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'docs-test', private: true, type: 'module' }));
  return dir;
}

function runNode(file, cwd) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { cwd, env: { ...process.env, NODE_NO_WARNINGS: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const timer = setTimeout(() => {
      out += `\n(timed out after ${TIMEOUT_MS} ms: a block must finish by itself; close servers and connections)`;
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, signal, out });
    });
  });
}

const PRELUDE_REQUIRE = "import { createRequire as __docsTestCreateRequire } from 'node:module'; const require = __docsTestCreateRequire(import.meta.url);";

async function runOne(run, tmpRoot, n) {
  const dir = path.join(tmpRoot, `block-${String(n).padStart(3, '0')}`);
  mkdirSync(dir);
  let code;
  try {
    code = (await Promise.all(run.parts.map(toJs))).join('\n');
  } catch (e) {
    return { ok: false, out: `transform failed: ${e.message}` };
  }
  // `require` for CommonJS-style examples, unless the block makes its own.
  if (/\brequire\s*\(/.test(code) && !/\b(const|let|var)\s+require\b/.test(code)) code = `${PRELUDE_REQUIRE}\n${code}`;
  const file = path.join(dir, 'block.mjs');
  writeFileSync(file, code);
  const r = await runNode(file, dir);
  return { ok: r.code === 0 && !r.signal, out: r.out };
}

/** Output lines under a block's line, at most `max` of them. */
function indent(out, max = Number.POSITIVE_INFINITY) {
  const lines = out.trim().split('\n');
  const shown = lines.slice(0, max).map((l) => `     | ${l}`);
  if (lines.length > max) shown.push(`     | … ${lines.length - max} more lines`);
  return out.trim() ? shown.join('\n') : '     | (no output)';
}

async function main() {
  const files = inputFiles();
  const dist = path.join(pkgDir, 'dist', 'node', 'index.js');
  if (!existsSync(dist)) {
    console.error(`docs-test: ${rel(dist)} is missing: build the package first (npm run build)`);
    process.exit(2);
  }
  const blocks = [];
  for (const f of files) {
    if (!existsSync(f)) {
      console.error(`docs-test: no such file: ${f}`);
      process.exit(2);
    }
    blocks.push(...extractBlocks(f, readFileSync(f, 'utf8')));
  }
  const runs = plan(blocks);
  const tmpRoot = makeRoot();
  const results = new Array(runs.length);
  const jobs = runs.map((r, i) => [r, i]).filter(([r]) => r.parts);
  let next = 0;
  const width = Math.max(1, Math.min(Number(process.env.DOCS_TEST_JOBS ?? os.availableParallelism?.() ?? 2), 4));
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const [r, i] = jobs[next++];
        results[i] = await runOne(r, tmpRoot, i);
      }
    }),
  );
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const [i, r] of runs.entries()) {
    const also = r.also?.length ? ` (+ continued at line ${r.also.join(', ')})` : '';
    if (r.error) {
      failed++;
      console.log(`FAIL ${r.where}: ${r.error}`);
    } else if (r.skip) {
      skipped++;
      console.log(`skip ${r.where}: ${r.skip}`);
    } else if (results[i].ok) {
      passed++;
      console.log(`ok   ${r.where}${also}`);
      if (process.env.DOCS_TEST_VERBOSE) console.log(indent(results[i].out));
    } else {
      failed++;
      console.log(`FAIL ${r.where}${also}`);
      console.log(indent(results[i].out, 30));
    }
  }
  console.log(`\ndocs-test: ${passed} passed, ${failed} failed, ${skipped} skipped (${files.length} files)`);
  if (!process.env.DOCS_TEST_KEEP) rmSync(tmpRoot, { recursive: true, force: true });
  else console.log(`kept: ${tmpRoot}`);
  process.exit(failed > 0 ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
