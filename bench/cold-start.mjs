// Cold start: a new Node process loads a validator, builds it and validates one
// AgentResult text. Each figure is the median wall time of such processes minus
// the median of a bare `node -e 0`, for `require` (CommonJS) and `import` (ESM).
// The spawns are interleaved (every round runs each case once, the order
// rotating), because this machine's speed drifts over seconds.
//   node bench/cold-start.mjs [--smoke] [--runs N] [--node PATH]   prints the table
//   (--node: the Node binary to start, e.g. another version's; default: this one)
// `npm run bench` puts the same table into bench/RESULTS.md (bench/run.mjs).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const fixture = path.join(here, '..', 'tests', 'fixtures', 'agent', 'valid-success.json');
const schemaFile = require.resolve('toolresult/schemas/agent-result.v1.json');

// Each library as a user loads it: its `require` form, its `import` form, and
// the work after it (build the validator, validate `text`; `schema` is
// AgentResult's JSON Schema), as in bench/run.mjs's timings.
const LIBRARIES = {
  toolresult: {
    cjs: `const { validateAgentResult } = require('toolresult');`,
    esm: `import { validateAgentResult } from 'toolresult';`,
    body: `if (!validateAgentResult(text).ok) throw new Error('invalid');`,
  },
  'ajv (compiled)': {
    cjs: `const Ajv = require('ajv/dist/2020.js'); const addFormats = require('ajv-formats');`,
    esm: `import Ajv from 'ajv/dist/2020.js'; import addFormats from 'ajv-formats';`,
    body: `const ajv = new Ajv({ allErrors: true }); addFormats(ajv); if (!ajv.compile(schema)(JSON.parse(text))) throw new Error('invalid');`,
  },
  'zod 4': {
    cjs: `const { z } = require('zod');`,
    esm: `import { z } from 'zod';`,
    body: `z.strictObject({ task_id: z.string(), status: z.enum(['success']) }).safeParse(JSON.parse(text));`,
  },
  valibot: {
    cjs: `const v = require('valibot');`,
    esm: `import * as v from 'valibot';`,
    body: `v.safeParse(v.looseObject({ task_id: v.string() }), JSON.parse(text));`,
  },
  '@cfworker/json-schema': {
    cjs: `const { Validator } = require('@cfworker/json-schema');`,
    esm: `import { Validator } from '@cfworker/json-schema';`,
    body: `if (!new Validator(schema, '2020-12', false).validate(JSON.parse(text)).valid) throw new Error('invalid');`,
  },
  // The floor of each module system: reading and parsing the same text, no library.
  '(none: read and parse the text)': { cjs: '', esm: '', body: 'JSON.parse(text);' },
};

/**
 * Runs the cases `runs` times each and returns, per library, the median
 * milliseconds over a bare `node -e 0` for CommonJS and ESM.
 */
export function coldStart({ runs = 31, node = process.execPath } = {}) {
  const read = (fs) => `const text = ${fs}(${JSON.stringify(fixture)}, 'utf8');\nconst schema = JSON.parse(${fs}(${JSON.stringify(schemaFile)}, 'utf8'));\n`;
  // `-e` scripts, as the bare `node -e 0` they are compared with, run from
  // bench/ so the packages resolve from this repository's node_modules.
  const cases = [['bare', ['-e', '0']]];
  for (const [name, lib] of Object.entries(LIBRARIES)) {
    cases.push(
      [`${name}\0cjs`, ['-e', `${lib.cjs}\n${read(`require('node:fs').readFileSync`)}${lib.body}`]],
      [`${name}\0esm`, ['--input-type=module', '-e', `import { readFileSync } from 'node:fs';\n${lib.esm}\n${read('readFileSync')}${lib.body}`]],
    );
  }
  const times = new Map(cases.map(([key]) => [key, []]));
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < cases.length; k++) {
      const [key, args] = cases[(k + round) % cases.length];
      const t0 = process.hrtime.bigint();
      const r = spawnSync(node, args, { cwd: here, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.status !== 0) throw new Error(`cold start, ${key.replace('\0', ' ')}: exit ${r.status}\n${r.stderr}`);
      times.get(key).push(ms);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const bare = median(times.get('bare'));
  const rows = Object.keys(LIBRARIES).map((library) => ({
    library,
    cjs: median(times.get(`${library}\0cjs`)) - bare,
    esm: median(times.get(`${library}\0esm`)) - bare,
  }));
  return { node: spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim(), runs, bare, rows };
}

/** The result as Markdown lines (bench/RESULTS.md's section). */
export function coldStartTable({ node, runs, bare, rows }) {
  return [
    `Node ${node}; median of ${runs} new processes per case, interleaved, minus a bare \`node -e 0\` (${bare.toFixed(1)} ms).`,
    '',
    '| library | `require` (CommonJS) | `import` (ESM) |',
    '|---|---:|---:|',
    ...rows.map((r) => `| ${r.library} | ${r.cjs.toFixed(1)} ms | ${r.esm.toFixed(1)} ms |`),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const smoke = process.argv.includes('--smoke');
  const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
  const runs = Number(arg('--runs') ?? (smoke ? 1 : 31));
  console.log(coldStartTable(coldStart({ runs, node: arg('--node') })).join('\n'));
}
