// The wasm modules' sizes and what they are made of. For each module: the
// shipped file (after wasm-opt) raw and gzip -9, and an attribution of the
// cargo output it was made from (names kept): the bytes of each function's
// code, summed by the crate its name starts with, and the data segments (what
// `twiggy top` reports as shallow sizes, read here without twiggy). bench/run.mjs
// writes the result to docs/internals/sizes.md; `node bench/wasm-sizes.mjs`
// prints it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The modules: the shipped file, and the cargo output it was built from. */
export const MODULES = [
  { name: 'core', file: 'toolresult_wasm', profile: 'release', holds: 'validation, builders, bounding, locate, renderers' },
  { name: 'agent', file: 'toolresult_agent_wasm', profile: 'release', holds: 'store, references, context budgets, normalization, conversions, `diffHunks`' },
  { name: 'schema engine', file: 'toolresult_schema_wasm', profile: 'release', holds: '`compileSchema`, `ToolRegistry`' },
  { name: 'screen', file: 'toolresult_screen_wasm', profile: 'screen', holds: 'the safety screen, the result document' },
];

/** Reads an unsigned LEB128 at `p`: [value, next offset]. */
function leb(b, p) {
  let v = 0;
  let shift = 0;
  for (;;) {
    const byte = b[p++];
    v += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [v, p];
    shift += 7;
  }
}

/**
 * Code bytes per function name and the data segments' bytes of a wasm
 * binary with a name section.
 */
export function attribution(bytes) {
  const decoder = new TextDecoder();
  let p = 8;
  let imported = 0;
  const bodies = [];
  const names = new Map();
  let data = 0;
  while (p < bytes.length) {
    const id = bytes[p];
    let size;
    [size, p] = leb(bytes, p + 1);
    const end = p + size;
    if (id === 2) {
      // Imports: functions among them take the first function indices.
      let n;
      let q;
      [n, q] = leb(bytes, p);
      for (let i = 0; i < n; i++) {
        for (let s = 0; s < 2; s++) {
          let len;
          [len, q] = leb(bytes, q);
          q += len;
        }
        const kind = bytes[q++];
        if (kind === 0) {
          imported++;
          [, q] = leb(bytes, q);
        } else if (kind === 1) {
          q += 1;
          const flags = bytes[q++];
          [, q] = leb(bytes, q);
          if (flags & 1) [, q] = leb(bytes, q);
        } else if (kind === 2) {
          const flags = bytes[q++];
          [, q] = leb(bytes, q);
          if (flags & 1) [, q] = leb(bytes, q);
        } else {
          q += 2;
        }
      }
    } else if (id === 10) {
      let n;
      let q;
      [n, q] = leb(bytes, p);
      for (let i = 0; i < n; i++) {
        let len;
        [len, q] = leb(bytes, q);
        bodies.push(len);
        q += len;
      }
    } else if (id === 11) {
      data += size;
    } else if (id === 0) {
      let [len, q] = leb(bytes, p);
      const name = decoder.decode(bytes.subarray(q, q + len));
      q += len;
      if (name === 'name') {
        while (q < end) {
          const sub = bytes[q];
          let subSize;
          [subSize, q] = leb(bytes, q + 1);
          if (sub === 1) {
            let n;
            let r;
            [n, r] = leb(bytes, q);
            for (let i = 0; i < n; i++) {
              let index;
              let nameLen;
              [index, r] = leb(bytes, r);
              [nameLen, r] = leb(bytes, r);
              names.set(index, decoder.decode(bytes.subarray(r, r + nameLen)));
              r += nameLen;
            }
          }
          q += subSize;
        }
      }
    }
    p = end;
  }
  const functions = bodies.map((size, i) => ({ name: names.get(imported + i) ?? `function ${imported + i}`, size }));
  return { functions, data };
}

/**
 * The crate a function belongs to, from its symbol name: Rust's legacy
 * mangling (`_ZN10toolresult…`, `_ZN…_$LT$serde_json..de..Deserializer…`, an
 * impl by the crate of its type), v0 (`_RNv…C…4core…`), or a plain name
 * (`serde_json::de::…`).
 */
export function crateOf(name) {
  if (name.startsWith('_ZN')) {
    const m = name.slice(3).match(/^(\d+)/);
    if (!m) return '(other)';
    const first = name.slice(3 + m[1].length, 3 + m[1].length + Number(m[1]));
    if (!/^_?\$LT\$/.test(first)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(first)) return '(other)';
      // This project's crates by their top-level module (`toolresult::interop`).
      if (!first.startsWith('toolresult')) return first;
      const rest = name.slice(3 + m[1].length + first.length);
      const second = rest.match(/^(\d+)/);
      return second ? `${first}::${rest.slice(second[1].length, second[1].length + Number(second[1]))}` : first;
    }
    // An impl (`<serde_json::de::Deserializer as …>`): by the crate of its
    // type, or of its trait for a generic or primitive type (`<T as …>`).
    const seg = first.replace(/^_?\$LT\$/, '').replace(/^(?:\$RF\$|\$BP\$|mut\$u20\$|dyn\$u20\$|const\$u20\$|impl\$u20\$)+/, '');
    const crate = seg.match(/^([A-Za-z_][A-Za-z0-9_]*)\.\.([A-Za-z_][A-Za-z0-9_]*)?/);
    if (crate) return crate[1].startsWith('toolresult') && crate[2] ? `${crate[1]}::${crate[2]}` : crate[1];
    const trait = seg.match(/\$u20\$(?:as|for)\$u20\$([A-Za-z_][A-Za-z0-9_]*)\.\./);
    return trait ? trait[1] : '(other)';
  }
  if (name.startsWith('_R')) {
    const m = name.match(/C(?:s[0-9A-Za-z]*_)?(\d+)([A-Za-z_][A-Za-z0-9_]*)/);
    return m ? m[2].slice(0, Number(m[1])) : '(other)';
  }
  // Demangled: the first path, past `<`, `&`, `mut ` and the like; a
  // generic or primitive type (`<T as core::…>`, `<f64 as …>`) by its trait.
  const plain = name.replace(/^(?:<|&|\*(?:const|mut) |mut |dyn |\(|\[)+/, '');
  const m = plain.match(/^([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::/);
  if (m) return m[1];
  const trait = plain.match(/ as (?:<|&|dyn |mut )*([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::/);
  if (trait) return trait[1];
  // wasm-bindgen's export shims (`name_<hash>`, `__wbg_…`).
  return /^__wb|_[0-9a-f]{16}$/.test(name) ? 'wasm_bindgen' : '(other)';
}

/** Sizes and attribution of every module built under `root`; `null` for a module not built. */
export function wasmSizes(pkgDist = path.join(root, 'bindings/typescript/dist/web/wasm/web')) {
  return MODULES.map((m) => {
    const shipped = path.join(pkgDist, `${m.file}_bg.wasm`);
    const cargo = path.join(root, 'target/wasm32-unknown-unknown', m.profile, `${m.file}.wasm`);
    if (!existsSync(shipped)) return { ...m, built: false };
    const bytes = readFileSync(shipped);
    const out = { ...m, built: true, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    if (existsSync(cargo)) {
      const { functions, data } = attribution(readFileSync(cargo));
      const byCrate = new Map();
      for (const f of functions) byCrate.set(crateOf(f.name), (byCrate.get(crateOf(f.name)) ?? 0) + f.size);
      const code = functions.reduce((a, f) => a + f.size, 0);
      out.attribution = { code, data, crates: [...byCrate].sort((a, b) => b[1] - a[1]) };
    }
    return out;
  });
}

const kb = (n) => `${(n / 1000).toLocaleString('en', { maximumFractionDigits: 1, minimumFractionDigits: 1 })} KB`;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

/** The sizes page (docs/internals/sizes.md). */
export function sizesPage(sizes, { top = 12, when = new Date().toISOString().slice(0, 10) } = {}) {
  const lines = [
    '# Sizes of the wasm modules',
    '',
    `Written by \`npm run bench\` (bench/run.mjs, bench/wasm-sizes.mjs) on ${when}; this page is the one place for these numbers. `,
    'The shipped files are after `wasm-bindgen` and `wasm-opt`, gzip -9 (KiB = 1,024 bytes). What each is made of is read from the cargo ',
    "output the file was built from (names kept, before `wasm-opt`): the bytes of each function's code, by the crate its name starts ",
    'with (generic code by the crate that defines it: `core`, `alloc`), and the data segments (string constants and tables). ',
    'The shares are of that output; `wasm-opt` shrinks code more than data. [The wasm modules](modules.md) says what each module holds and how the split came to be; [sizes and performance](performance.md) what was tried.',
    '',
    '| module | holds | raw | gzip -9 |',
    '|---|---|---:|---:|',
  ];
  for (const s of sizes) {
    if (!s.built) continue;
    lines.push(`| ${s.name} (\`${s.file}_bg.wasm\`) | ${s.holds} | ${kb(s.raw)} | **${kib(s.gzip)}** |`);
  }
  for (const s of sizes) {
    if (!s.attribution) continue;
    const { code, data, crates } = s.attribution;
    const total = code + data;
    lines.push('', `## ${s.name}`, '', `Cargo output: ${kb(code)} of code, ${kb(data)} of data.`, '');
    lines.push('| part | bytes | share |', '|---|---:|---:|');
    const shown = crates.slice(0, top);
    const rest = crates.slice(top).reduce((a, [, n]) => a + n, 0);
    lines.push(`| data segments | ${kb(data)} | ${((100 * data) / total).toFixed(1)} % |`);
    for (const [crate, n] of shown) lines.push(`| \`${crate}\` | ${kb(n)} | ${((100 * n) / total).toFixed(1)} % |`);
    if (rest > 0) lines.push(`| ${crates.length - top} more | ${kb(rest)} | ${((100 * rest) / total).toFixed(1)} % |`);
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  process.stdout.write(sizesPage(wasmSizes()));
}
