// The view tool_execution_results (docs/integrations/postgres.md): a query
// written against the ToolResult specification's table runs over
// PostgresResultStore's schema and returns the stored values, status as its
// integer code; an encrypted row shows only its clear columns.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { PostgresResultStore } from 'toolresult/postgres';
import { createFailure, createSuccess, statusInfo } from 'toolresult';
import { startPostgres } from './server.mjs';

let server;
let schemas = 0;
const freshSchema = () => `v${process.pid}_${++schemas}`;

before(async () => {
  server = await startPostgres();
});

after(() => {
  server?.stop();
});

/** The specification's 19 columns, in its order. */
const COLUMNS = [
  'execution_id',
  'tool_name',
  'input_json',
  'output_json',
  'output_truncated',
  'status',
  'error_message',
  'error_code',
  'side_effects_json',
  'started_at',
  'completed_at',
  'duration_ms',
  'output_size_bytes',
  'sandbox_id',
  'resource_metrics_json',
  'agent_id',
  'user_id',
  'batch_id',
  'correlation_id',
];

/** `sql` with the store's schema as the search path, as a client of the specification's table would run it. */
async function inSchema(schema, sql, params) {
  const client = new pg.Client({ ...server.connection, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/** The query as written for the specification's table. */
function specQuery(schema, toolName) {
  return inSchema(
    schema,
    `SELECT execution_id, tool_name, input_json, output_json, output_truncated, status, error_message, error_code,
            side_effects_json, started_at, completed_at, duration_ms, output_size_bytes, sandbox_id,
            resource_metrics_json, agent_id, user_id, batch_id, correlation_id
       FROM tool_execution_results WHERE tool_name = $1 ORDER BY completed_at DESC`,
    [toolName],
  );
}

test('the specification query runs against the view and returns the stored values, status as an integer', async () => {
  const schema = freshSchema();
  const store = await PostgresResultStore.open({ connection: server.connection, schema, listen: false });
  try {
    const full = createSuccess({
      input: { tool_name: 'read_file', parameters: { path: 'src/main.py' }, tool_call_id: 'call_1' },
      output: { content: 'import os\n', lines: 1 },
      side_effects: [{ type: 'modified', resource: 'cache/index', description: 'refreshed', timestamp: '2026-03-01T12:00:00.500Z', is_reversible: true }],
      started_at: '2026-03-01T12:00:00.000Z',
      completed_at: '2026-03-01T12:00:00.750Z',
      output_truncated: true,
      sandbox_id: 'sbx-42',
      resource_metrics: { memory_peak_bytes: 1048576, cpu_time_ms: 12 },
      agent_id: '6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b',
      user_id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      batch_id: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
      batch_index: 0,
      correlation_id: 'trace-7',
    });
    const denied = createFailure({
      input: { tool_name: 'read_file', parameters: { path: '/etc/shadow' } },
      status: 'permission_denied',
      error_code: 'PERMISSION_DENIED',
      error_message: 'not allowed to read /etc/shadow',
      started_at: '2026-03-01T12:00:01.000Z',
      completed_at: '2026-03-01T12:00:01.020Z',
    });
    const other = createSuccess({ input: { tool_name: 'bash', parameters: { command: 'ls' } }, output: 'a\nb\n' });
    for (const r of [full, denied, other]) await store.put(r, { dialogId: 'd1' });

    const { rows, fields } = await specQuery(schema, 'read_file');
    assert.deepEqual(
      fields.map((f) => f.name),
      COLUMNS,
    );
    assert.equal(rows.length, 2, 'only the tool asked for');
    const [first, second] = rows;
    // Newest completion first.
    assert.equal(first.execution_id, denied.metadata.execution_id);
    assert.equal(second.execution_id, full.metadata.execution_id);

    assert.equal(first.status, statusInfo('permission_denied').code);
    assert.equal(first.status, 10);
    assert.equal(typeof first.status, 'number', 'an integer column');
    assert.equal(first.error_code, 'PERMISSION_DENIED');
    assert.equal(first.error_message, 'not allowed to read /etc/shadow');
    assert.equal(first.output_json, null, 'no output');
    assert.equal(first.side_effects_json, null);
    assert.equal(first.output_size_bytes, null);
    assert.equal(first.output_truncated, false);

    assert.equal(second.status, 0);
    assert.equal(second.tool_name, 'read_file');
    assert.deepEqual(JSON.parse(second.input_json), full.input);
    assert.deepEqual(JSON.parse(second.output_json), full.output);
    assert.deepEqual(JSON.parse(second.side_effects_json), full.side_effects);
    assert.deepEqual(JSON.parse(second.resource_metrics_json), full.metadata.resource_metrics);
    assert.equal(second.output_truncated, true);
    assert.equal(second.error_message, null);
    assert.equal(second.error_code, null);
    assert.equal(second.started_at.toISOString(), '2026-03-01T12:00:00.000Z');
    assert.equal(second.completed_at.toISOString(), '2026-03-01T12:00:00.750Z');
    assert.equal(Number(second.duration_ms), 750);
    assert.equal(Number(second.output_size_bytes), full.metadata.output_size);
    assert.equal(second.sandbox_id, 'sbx-42');
    assert.equal(second.agent_id, full.metadata.agent_id);
    assert.equal(second.user_id, full.metadata.user_id);
    assert.equal(second.batch_id, full.metadata.batch_id);
    assert.equal(second.correlation_id, 'trace-7');

    // By execution id, in any case (a uuid column).
    const byId = await inSchema(schema, 'SELECT tool_name, status FROM tool_execution_results WHERE execution_id = $1', [
      denied.metadata.execution_id.toUpperCase(),
    ]);
    assert.deepEqual(byId.rows, [{ tool_name: 'read_file', status: 10 }]);

    // The spec's column types: uuid, integer status, timestamptz, bigint.
    const pool = new pg.Pool(server.connection);
    const { rows: columns } = await pool
      .query(
        `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'tool_execution_results' ORDER BY ordinal_position`,
        [schema],
      )
      .finally(() => pool.end());
    const types = Object.fromEntries(columns.map((c) => [c.column_name, c.data_type]));
    assert.deepEqual(Object.keys(types), COLUMNS);
    assert.equal(types.execution_id, 'uuid');
    assert.equal(types.status, 'integer');
    assert.equal(types.started_at, 'timestamp with time zone');
    assert.equal(types.completed_at, 'timestamp with time zone');
    assert.equal(types.duration_ms, 'bigint');
    assert.equal(types.agent_id, 'uuid');
  } finally {
    await store.close();
  }
});

test('every tool status reads as its code (docs/spec.md §3)', async () => {
  const schema = freshSchema();
  const store = await PostgresResultStore.open({ connection: server.connection, schema, listen: false });
  try {
    const statuses = [
      'success',
      'failed',
      'timeout',
      'cancelled',
      'requires_confirmation',
      'sandbox_error',
      'permission_denied',
      'validation_error',
      'tool_not_found',
      'license_required',
      'output_validation_failed',
      'rate_limited',
      'security_violation',
      'resource_limit_exceeded',
    ];
    const byId = new Map();
    for (const [i, status] of statuses.entries()) {
      const spec = { input: { tool_name: 'codes', parameters: { i } }, completed_at: Date.parse('2026-03-01T12:00:00Z') + i * 1000 };
      const r =
        status === 'success'
          ? createSuccess({ ...spec, output: i })
          : createFailure({ ...spec, status, error_code: status.toUpperCase(), error_message: `status ${status}` });
      await store.put(r);
      byId.set(r.metadata.execution_id, status);
    }
    const { rows } = await specQuery(schema, 'codes');
    assert.equal(rows.length, statuses.length);
    for (const row of rows) assert.equal(row.status, statusInfo(byId.get(row.execution_id)).code, byId.get(row.execution_id));
    assert.deepEqual(
      rows.map((r) => byId.get(r.execution_id)),
      [...statuses].reverse(),
      'ORDER BY completed_at DESC',
    );
  } finally {
    await store.close();
  }
});

test('an encrypted row: its clear columns are shown, everything from the sealed result reads NULL', async () => {
  const schema = freshSchema();
  const key = globalThis.crypto.getRandomValues(new Uint8Array(32));
  const store = await PostgresResultStore.open({ connection: server.connection, schema, listen: false, encryption: { keys: { k1: key }, current: 'k1' } });
  try {
    const secret = createSuccess({
      input: { tool_name: 'read_file', parameters: { path: 'secret.txt' } },
      output: 'canary-7f3a',
      side_effects: [{ type: 'created', resource: 'x', timestamp: '2026-03-01T12:00:00Z' }],
      started_at: '2026-03-01T12:00:00.000Z',
      completed_at: '2026-03-01T12:00:00.100Z',
      correlation_id: 'trace-secret',
    });
    await store.put(secret, { dialogId: 'd' });
    assert.equal((await store.get(secret.metadata.execution_id)).output, 'canary-7f3a', 'the store reads it back');
    const { rows } = await specQuery(schema, 'read_file');
    assert.equal(rows.length, 1);
    const [row] = rows;
    assert.equal(row.execution_id, secret.metadata.execution_id);
    assert.equal(row.tool_name, 'read_file');
    assert.equal(row.status, 0);
    assert.equal(row.output_truncated, false);
    assert.equal(row.started_at.toISOString(), '2026-03-01T12:00:00.000Z');
    for (const column of [
      'input_json',
      'output_json',
      'error_message',
      'error_code',
      'side_effects_json',
      'completed_at',
      'duration_ms',
      'output_size_bytes',
      'sandbox_id',
      'resource_metrics_json',
      'agent_id',
      'user_id',
      'batch_id',
      'correlation_id',
    ]) {
      assert.equal(row[column], null, column);
    }
    assert.ok(!JSON.stringify(row).includes('canary-7f3a'));
  } finally {
    await store.close();
  }
});
