// The generated JSON Schemas and our validator agree on shape: for every
// fixture that is plain JSON, ajv (2020-12, with formats) accepts it exactly
// when we report no input- or shape-level issue. Meaning-level issues
// (success vs status, durations, ...) are beyond what a schema says.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { cases, readFixture, tryParse, toolresult } from './helpers.mjs';

const { issueCodes, schemas, validateAgentResult, validateToolResult } = toolresult;

const require = createRequire(import.meta.url);
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const check = { agent: ajv.compile(schemas.agentResult), tool: ajv.compile(schemas.toolResult) };
const ours = { agent: validateAgentResult, tool: validateToolResult };
const level = Object.fromEntries(issueCodes().map((c) => [c.code, c.level]));

test('the schemas exported in JS equal the shipped schema files', () => {
  const shipped = (f) => JSON.parse(readFileSync(require.resolve(`toolresult/schemas/${f}`), 'utf8'));
  assert.deepEqual(schemas.agentResult, shipped('agent-result.v1.json'));
  assert.deepEqual(schemas.toolResult, shipped('tool-result.v1.json'));
  assert.equal(schemas.agentResult.$schema, 'https://json-schema.org/draft/2020-12/schema');
});

test('every issue code has a level', () => {
  assert.ok(Object.keys(level).length >= 30);
  for (const l of Object.values(level)) assert.ok(['input', 'shape', 'meaning'].includes(l));
});

let compared = 0;
for (const c of cases) {
  const text = readFixture(c.file).toString('utf8');
  const parsed = tryParse(text);
  if (!parsed.ok || c.issues.some((i) => level[i.code] === 'input')) continue;
  compared++;
  test(`ajv and toolresult agree on the shape of ${c.file}`, () => {
    const r = ours[c.kind](text);
    const shapeIssues = r.ok ? [] : r.issues.filter((i) => level[i.code] !== 'meaning');
    const ajvValid = check[c.kind](parsed.value);
    assert.equal(ajvValid, shapeIssues.length === 0, `ajv: ${JSON.stringify(check[c.kind].errors)}\nours: ${JSON.stringify(shapeIssues)}`);
  });
}

test('the agreement covers valid and invalid fixtures of both kinds', () => {
  assert.ok(compared >= 20, `only ${compared} fixtures compared`);
});
