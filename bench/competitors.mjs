// The validators users would pick instead, each on the schema equivalent to
// AgentResult v1's shape, each given the JSON string and doing its own
// JSON.parse. (Cross-field rules such as success-vs-status are ours alone.)
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import { Validator as CfValidator } from '@cfworker/json-schema';
import { Type, FormatRegistry } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import * as v from 'valibot';
import { schemas } from 'toolresult';

const require = createRequire(import.meta.url);
const schema = schemas.agentResult;
const AGENT_TYPES = ['scaffold', 'validation', 'e2e', 'integration', 'deployment'];
const STATUSES = ['pending', 'queued', 'running', 'success', 'failed', 'timeout', 'cancelled'];
const SHA = /^[0-9a-f]{64}$/;

/** ajv's compiled validator itself: after a call, `errors` holds what it found. */
export function ajvValidate() {
  const ajv = new Ajv2020({ allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

export function ajvCompiled() {
  const check = ajvValidate();
  return (text) => check(JSON.parse(text));
}

export function ajvStandalone() {
  const ajv = new Ajv2020({ allErrors: true, code: { source: true } });
  addFormats(ajv);
  const code = standaloneCode(ajv, ajv.compile(schema));
  const dir = mkdtempSync(path.join(tmpdir(), 'ajv-standalone-'));
  const file = path.join(dir, 'validate.cjs');
  // Standalone code requires ajv-formats' runtime; resolve it from here.
  writeFileSync(
    file,
    code
      .replaceAll('require("ajv-formats/dist/formats")', `require(${JSON.stringify(require.resolve('ajv-formats/dist/formats'))})`)
      .replaceAll('require("ajv/dist/runtime/', `require(${JSON.stringify(`${path.dirname(require.resolve('ajv/dist/runtime/ucs2length'))}/`)}+"`),
  );
  const check = require(file);
  return (text) => check(JSON.parse(text));
}

export function cfworker() {
  const validator = new CfValidator(schema, '2020-12', false);
  return (text) => validator.validate(JSON.parse(text)).valid;
}

export async function zod({ jitless }) {
  const { z } = await import('zod');
  z.config({ jitless });
  const count = z.number().int().nonnegative();
  const artifact = z.looseObject({
    name: z.string().nullish(),
    path: z.string().nullish(),
    uri: z.string().nullish(),
    type: z.string().nullish(),
    mime_type: z.string().nullish(),
    size_bytes: count.nullish(),
    sha256: z.string().regex(SHA).nullish(),
  });
  const s = z.strictObject({
    task_id: z.string().min(1),
    workflow_id: z.string().min(1),
    agent_id: z.string().min(1),
    agent_type: z.enum(AGENT_TYPES),
    success: z.boolean(),
    status: z.enum(STATUSES),
    action: z.string().min(1),
    result: z.record(z.string(), z.unknown()),
    artifacts: z.array(artifact).nullish(),
    metrics: z.strictObject({
      duration_ms: z.number().nonnegative(),
      tokens_used: count.nullish(),
      api_calls: count.nullish(),
      memory_used_bytes: count.nullish(),
    }),
    error: z
      .strictObject({
        code: z.string().min(1),
        message: z.string(),
        details: z.record(z.string(), z.unknown()).nullish(),
        stack: z.string().nullish(),
        retryable: z.boolean().default(false),
      })
      .nullish(),
    warnings: z.array(z.string()).nullish(),
    timestamp: z.iso.datetime({ offset: true }),
    version: z.literal('1.0.0'),
  });
  return (text) => s.safeParse(JSON.parse(text)).success;
}

export function valibot() {
  const count = v.pipe(v.number(), v.integer(), v.minValue(0));
  const artifact = v.looseObject({
    name: v.nullish(v.string()),
    path: v.nullish(v.string()),
    uri: v.nullish(v.string()),
    type: v.nullish(v.string()),
    mime_type: v.nullish(v.string()),
    size_bytes: v.nullish(count),
    sha256: v.nullish(v.pipe(v.string(), v.regex(SHA))),
  });
  const s = v.strictObject({
    task_id: v.pipe(v.string(), v.minLength(1)),
    workflow_id: v.pipe(v.string(), v.minLength(1)),
    agent_id: v.pipe(v.string(), v.minLength(1)),
    agent_type: v.picklist(AGENT_TYPES),
    success: v.boolean(),
    status: v.picklist(STATUSES),
    action: v.pipe(v.string(), v.minLength(1)),
    result: v.record(v.string(), v.unknown()),
    artifacts: v.nullish(v.array(artifact)),
    metrics: v.strictObject({
      duration_ms: v.pipe(v.number(), v.minValue(0)),
      tokens_used: v.nullish(count),
      api_calls: v.nullish(count),
      memory_used_bytes: v.nullish(count),
    }),
    error: v.nullish(
      v.strictObject({
        code: v.pipe(v.string(), v.minLength(1)),
        message: v.string(),
        details: v.nullish(v.record(v.string(), v.unknown())),
        stack: v.nullish(v.string()),
        retryable: v.optional(v.boolean(), false),
      }),
    ),
    warnings: v.nullish(v.array(v.string())),
    timestamp: v.pipe(v.string(), v.isoTimestamp()),
    version: v.literal('1.0.0'),
  });
  return (text) => v.safeParse(s, JSON.parse(text), { abortEarly: false }).success;
}

export function typebox() {
  FormatRegistry.Set('date-time', (s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.test(s));
  const count = Type.Integer({ minimum: 0 });
  const nullish = (t) => Type.Optional(Type.Union([t, Type.Null()]));
  const artifact = Type.Object({
    name: nullish(Type.String()),
    path: nullish(Type.String()),
    uri: nullish(Type.String()),
    type: nullish(Type.String()),
    mime_type: nullish(Type.String()),
    size_bytes: nullish(count),
    sha256: nullish(Type.String({ pattern: SHA.source })),
  });
  const s = Type.Object(
    {
      task_id: Type.String({ minLength: 1 }),
      workflow_id: Type.String({ minLength: 1 }),
      agent_id: Type.String({ minLength: 1 }),
      agent_type: Type.Union(AGENT_TYPES.map((t) => Type.Literal(t))),
      success: Type.Boolean(),
      status: Type.Union(STATUSES.map((t) => Type.Literal(t))),
      action: Type.String({ minLength: 1 }),
      result: Type.Record(Type.String(), Type.Unknown()),
      artifacts: nullish(Type.Array(artifact)),
      metrics: Type.Object(
        { duration_ms: Type.Number({ minimum: 0 }), tokens_used: nullish(count), api_calls: nullish(count), memory_used_bytes: nullish(count) },
        { additionalProperties: false },
      ),
      error: nullish(
        Type.Object(
          {
            code: Type.String({ minLength: 1 }),
            message: Type.String(),
            details: nullish(Type.Record(Type.String(), Type.Unknown())),
            stack: nullish(Type.String()),
            retryable: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
      ),
      warnings: nullish(Type.Array(Type.String())),
      timestamp: Type.String({ format: 'date-time' }),
      version: Type.Literal('1.0.0'),
    },
    { additionalProperties: false },
  );
  const check = TypeCompiler.Compile(s);
  // Check() stops at the first error; collect them all, as the others do.
  return (text) => {
    const value = JSON.parse(text);
    return check.Check(value) || [...check.Errors(value)].length === 0;
  };
}
