// Tool output validation: a realistic output schema (nested objects, arrays,
// enums, patterns, formats) and outputs of ~1 KB and ~100 KB, validated as
// the values a tool returned. Ours vs ajv vs @cfworker/json-schema.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { Validator as CfValidator } from '@cfworker/json-schema';
import { compileSchema, ToolRegistry } from 'toolresult';

export const outputSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['query', 'total', 'generated_at', 'results'],
  additionalProperties: false,
  properties: {
    query: { type: 'string', minLength: 1 },
    total: { type: 'integer', minimum: 0 },
    generated_at: { type: 'string', format: 'date-time' },
    results: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'title', 'url', 'score', 'kind'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', format: 'uuid' },
          title: { type: 'string', maxLength: 200 },
          url: { type: 'string', format: 'uri' },
          score: { type: 'number', minimum: 0, maximum: 1 },
          kind: { enum: ['file', 'web', 'doc'] },
          path: { type: 'string', pattern: '^(/[^/]+)+$' },
          tags: { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' }, uniqueItems: true },
          author: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } },
          },
        },
      },
    },
  },
};

function output(n) {
  const kinds = ['file', 'web', 'doc'];
  return {
    query: 'TODO in src',
    total: n,
    generated_at: '2026-11-22T10:00:00Z',
    results: Array.from({ length: n }, (_, i) => ({
      id: `0b5e4d3c-2a19-4f7e-9c1d-${String(i).padStart(12, '0')}`,
      title: `Result number ${i}`,
      url: `https://example.com/docs/${i}`,
      score: (i % 100) / 100,
      kind: kinds[i % 3],
      path: `/src/module${i}/file.ts`,
      tags: ['todo', `tag-${i % 7}`],
      author: { name: 'Ada', email: 'ada@example.com' },
    })),
  };
}

export const outputs = { '~1 KB': output(3), '~100 KB': output(330) };

export const outputValidators = {
  'toolresult compileSchema().isValid': () => {
    const s = compileSchema(outputSchema);
    return (value) => s.isValid(value);
  },
  // The adapters' paths: Standard Schema (the AI SDK's tool({ inputSchema }),
  // MCP v2's registerTool, OpenAI Agents' tool({ parameters })) and the
  // registry the MCP adapter checks outputs with.
  "toolresult '~standard'.validate (AI SDK, MCP v2, OpenAI Agents)": () => {
    const s = compileSchema(outputSchema);
    return (value) => !('issues' in s['~standard'].validate(value));
  },
  'toolresult ToolRegistry.validateOutput (MCP adapter)': () => {
    const registry = new ToolRegistry().register({ name: 'search', outputSchema });
    return (value) => registry.validateOutput('search', value).ok;
  },
  'ajv (compiled)': () => {
    const ajv = new Ajv2020({ allErrors: true });
    addFormats(ajv);
    const check = ajv.compile(outputSchema);
    return (value) => check(value);
  },
  '@cfworker/json-schema': () => {
    const v = new CfValidator(outputSchema, '2020-12', false);
    return (value) => v.validate(value).valid;
  },
};

// The same outputs as JSON text, as they often arrive (a subprocess, HTTP, an
// MCP transport): ours validates the text in wasm, the others JSON.parse it
// first, as they must.
export const outputTextValidators = {
  'toolresult compileSchema().isValidJson(text)': () => {
    const s = compileSchema(outputSchema);
    return (text) => s.isValidJson(text);
  },
  'ajv (compiled)': () => {
    const check = outputValidators['ajv (compiled)']();
    return (text) => check(JSON.parse(text));
  },
  '@cfworker/json-schema': () => {
    const check = outputValidators['@cfworker/json-schema']();
    return (text) => check(JSON.parse(text));
  },
};

// `node bench/tool-output.mjs --write DIR`: the schema and outputs as files,
// for the native breakdown example (bench/native/src/bin/schema_breakdown.rs).
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()) && process.argv[2] === '--write') {
  const { writeFileSync } = await import('node:fs');
  const dir = process.argv[3] ?? '.';
  writeFileSync(`${dir}/tool-output-schema.json`, JSON.stringify(outputSchema));
  for (const [name, value] of Object.entries(outputs)) writeFileSync(`${dir}/tool-output-${name.replace(/\W/g, '')}.json`, JSON.stringify(value));
}
