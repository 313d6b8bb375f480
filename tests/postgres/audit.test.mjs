// PostgresAuditLog against a real PostgreSQL server started for this file:
// writer processes, each with its own pool, appending at the same moment keep
// one chain (every seq from 1 to the total, no gap, the chain verifies);
// entries are append-only (triggers), and tampering by SQL once they are
// disabled is found; a checkpoint finds a cut tail that the head row was
// moved back to hide; PostgresResultStore appends `stored` and `evicted`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { POSTGRES_AUDIT_SCHEMA_VERSION, PostgresAuditLog, PostgresResultStore, canonicalJson } from 'toolresult/postgres';
import { createSuccess } from 'toolresult';
import { verifyAuditLog } from 'toolresult/audit';
import { startPostgres } from './server.mjs';

const require = createRequire(import.meta.url);
let server;
let admin;
let schemas = 0;
const scratch = mkdtempSync(path.join(tmpdir(), 'toolresult-pg-audit-'));
const freshSchema = () => `a${process.pid}_${++schemas}`;

before(async () => {
  server = await startPostgres();
  admin = new pg.Pool({ ...server.connection, max: 4 });
  admin.on('error', () => {});
});

after(async () => {
  await admin?.end();
  server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const collect = async (iterable) => {
  const out = [];
  for await (const e of iterable) out.push(e);
  return out;
};

test('migrations: own version table, idempotent, append-only triggers; options are checked', async () => {
  const schema = freshSchema();
  await assert.rejects(PostgresAuditLog.open({ connection: server.connection, schema, migrate: false }), { code: 'schema_outdated' });
  const log = await PostgresAuditLog.open({ connection: server.connection, schema });
  assert.equal(await log.schemaVersion(), POSTGRES_AUDIT_SCHEMA_VERSION);
  assert.deepEqual(await log.migrate(), [], 'a second run changes nothing');
  const { rows } = await admin.query(
    `SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 ORDER BY 1`,
    [schema],
  );
  assert.deepEqual(
    rows.map((r) => r.tgname),
    ['toolresult_audit_no_change', 'toolresult_audit_no_truncate'],
  );
  assert.equal(await log.head(), null);
  await log.close();
  await assert.rejects(PostgresAuditLog.open({ connection: server.connection, schema: 'bad-name' }), { code: 'invalid_options' });
  await assert.rejects(
    PostgresAuditLog.open({ connection: server.connection, scheme: 'x' }),
    (e) => e.code === 'invalid_options' && e.issues[0].path === '/scheme',
  );
  await assert.rejects(PostgresAuditLog.open({}), { code: 'invalid_options' });
});

test('concurrent writers in several processes, each with its own pool, keep one chain without gaps', async () => {
  const schema = freshSchema();
  // Migrated once up front, so the writers contend on appends, not on the migration.
  await (await PostgresAuditLog.open({ connection: server.connection, schema })).close();
  const script = path.join(scratch, 'audit-writer.mjs');
  writeFileSync(
    script,
    `import { PostgresAuditLog } from ${JSON.stringify(require.resolve('toolresult/postgres'))};
const [connection, schema, writer, n] = [JSON.parse(process.argv[2]), process.argv[3], process.argv[4], Number(process.argv[5])];
const log = await PostgresAuditLog.open({ connection: { ...connection, max: 8 }, schema, migrate: false });
process.stdout.write('READY\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
// Every append at once: eight connections of this pool contend with every other writer's.
await Promise.all(Array.from({ length: n }, async (_, i) => {
  const entry = await log.append({ action: 'stored', execution_id: writer + '-' + i, actor: writer });
  process.stdout.write('ACK ' + entry.seq + ' ' + entry.hash + ' ' + entry.execution_id + '\\n');
}));
await log.close();
`,
  );
  const writers = 4;
  const n = 60;
  const acked = new Map();
  const children = [];
  const ready = [];
  for (let w = 0; w < writers; w++) {
    const child = spawn(process.execPath, [script, JSON.stringify(server.connection), schema, `writer${w}`, String(n)], { stdio: ['pipe', 'pipe', 'inherit'] });
    let buffer = '';
    ready.push(
      new Promise((resolve) => {
        child.stdout.on('data', (chunk) => {
          buffer += chunk;
          let nl;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            if (line === 'READY') resolve();
            const [kind, seq, hash, id] = line.split(' ');
            if (kind === 'ACK') {
              assert.ok(!acked.has(Number(seq)), `seq ${seq} handed out twice`);
              acked.set(Number(seq), { hash, id });
            }
          }
        });
      }),
    );
    children.push(new Promise((resolve) => child.on('exit', (code) => resolve(code))));
    child.stdin.on('error', () => {});
    children[w].child = child;
  }
  await Promise.all(ready);
  for (const c of children) c.child.stdin.end('go\n');
  assert.deepEqual(await Promise.all(children), Array(writers).fill(0));

  const total = writers * n;
  assert.equal(acked.size, total);
  const { rows } = await admin.query(
    `SELECT count(*)::int AS n, min(seq)::int AS lo, max(seq)::int AS hi, count(DISTINCT seq)::int AS d FROM "${schema}".toolresult_audit`,
  );
  assert.deepEqual(rows[0], { n: total, lo: 1, hi: total, d: total }, 'seqs 1..total, each once');
  const log = await PostgresAuditLog.open({ connection: server.connection, schema });
  const entries = await collect(log.entries());
  assert.deepEqual(
    entries.map((e) => e.seq),
    Array.from({ length: total }, (_, i) => i + 1),
  );
  for (const e of entries) assert.deepEqual(acked.get(e.seq), { hash: e.hash, id: e.execution_id });
  for (let w = 0; w < writers; w++) assert.equal(entries.filter((e) => e.actor === `writer${w}`).length, n);
  assert.deepEqual(await verifyAuditLog(log), { ok: true, count: total, head: { seq: total, hash: entries[total - 1].hash } });
  await log.close();
});

test('entries cannot be changed through SQL; once the triggers are dropped, a change, a deletion and a cut tail are found', async () => {
  const schema = freshSchema();
  const log = await PostgresAuditLog.open({ connection: server.connection, schema });
  for (let i = 1; i <= 12; i++) await log.append({ action: i % 2 ? 'read' : 'listed', dialog_id: 'dialog_1', actor: `user${i}` });
  const t = `"${schema}".toolresult_audit`;
  await assert.rejects(admin.query(`UPDATE ${t} SET actor = 'mallory' WHERE seq = 7`), /append-only: UPDATE is refused/);
  await assert.rejects(admin.query(`DELETE FROM ${t} WHERE seq = 7`), /append-only: DELETE is refused/);
  await assert.rejects(admin.query(`TRUNCATE ${t}`), /append-only: TRUNCATE is refused/);
  assert.equal((await verifyAuditLog(log)).ok, true);
  const { privateKey, publicKey } = await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify']);
  const checkpoint = await log.checkpoint(privateKey);
  assert.equal(checkpoint.seq, 12);

  // Whoever owns the table can drop the guard: then the chain is what tells.
  await admin.query(`ALTER TABLE ${t} DISABLE TRIGGER USER`);
  await admin.query(`UPDATE ${t} SET actor = 'mallory' WHERE seq = 7`);
  let v = await verifyAuditLog(log);
  assert.deepEqual([v.ok, v.at], [false, 7]);
  assert.match(v.reason, /entry 7 was changed/);
  await admin.query(`UPDATE ${t} SET actor = 'user7' WHERE seq = 7`);
  assert.equal((await verifyAuditLog(log)).ok, true, 'put back as it was');

  await admin.query(`DELETE FROM ${t} WHERE seq = 5`);
  v = await verifyAuditLog(log);
  assert.deepEqual([v.ok, v.at], [false, 5]);
  assert.match(v.reason, /expected seq 5, found seq 6/);

  // Cut the tail and move the head row back to match: the chain and the head agree; only the checkpoint knows.
  const fresh = freshSchema();
  const other = await PostgresAuditLog.open({ connection: server.connection, schema: fresh });
  for (let i = 1; i <= 6; i++) await other.append({ action: 'read', actor: `user${i}` });
  const cp = await other.checkpoint(privateKey);
  const f = `"${fresh}".toolresult_audit`;
  await admin.query(`ALTER TABLE ${f} DISABLE TRIGGER USER`);
  await admin.query(`DELETE FROM ${f} WHERE seq > 4`);
  v = await verifyAuditLog(other);
  assert.deepEqual([v.ok, v.at], [false, 5], 'the head row still says 6');
  assert.match(v.reason, /head is seq 6/);
  await admin.query(`UPDATE "${fresh}".toolresult_audit_head SET seq = 4, hash = (SELECT hash FROM ${f} WHERE seq = 4)`);
  assert.equal((await verifyAuditLog(other)).ok, true);
  v = await verifyAuditLog(other, { checkpoint: cp, publicKey });
  assert.deepEqual([v.ok, v.at], [false, 5]);
  assert.match(v.reason, /checkpoint vouches for seq 6: entries were cut/);
  // Appending goes on from the (moved) head: the gap stays visible against the checkpoint.
  assert.equal((await other.append({ action: 'read' })).seq, 5);
  assert.equal((await verifyAuditLog(other, { checkpoint: cp, publicKey })).ok, false);
  assert.equal((await verifyAuditLog(log, { checkpoint, publicKey })).ok, false);
  await other.close();
  await log.close();
});

test('PostgresResultStore with audit: stored (with the row sha256) and evicted, after COMMIT', async () => {
  const schema = freshSchema();
  const log = await PostgresAuditLog.open({ connection: server.connection, schema });
  const store = await PostgresResultStore.open({ connection: server.connection, schema, listen: false, audit: log, retention: { maxCount: 2 } });
  const results = ['r1', 'r2', 'r3'].map((id) => createSuccess({ input: { tool_name: 'ls', parameters: { path: id }, tool_call_id: id }, output: [id] }));
  for (const r of results) await store.put(r, { dialogId: 'd1' });
  await store.put(results[2], { dialogId: 'd1' }); // a retry: nothing new
  const entries = await collect(log.entries());
  assert.deepEqual(
    entries.map((e) => `${e.seq} ${e.action} ${e.tool_call_id} ${e.dialog_id}`),
    ['1 stored r1 d1', '2 stored r2 d1', '3 stored r3 d1', '4 evicted r1 d1'],
  );
  const sha = createHash('sha256').update(canonicalJson(results[1])).digest('hex');
  assert.equal(entries[1].sha256, sha);
  const { rows } = await admin.query(`SELECT sha256 FROM "${schema}".toolresult_results WHERE tool_call_id = 'r2'`);
  assert.equal(rows[0].sha256, sha);
  assert.equal((await verifyAuditLog(log)).ok, true);
  await assert.rejects(PostgresResultStore.open({ connection: server.connection, schema, audit: 'log' }), { code: 'invalid_options' });
  await store.close();
  await log.close();
});

test("a PostgresAuditLog on the store's pool appends inside the write's transaction: a result and its entry commit together or not at all", async () => {
  const schema = freshSchema();
  const pool = new pg.Pool({ ...server.connection, max: 4 });
  pool.on('error', () => {});
  const log = await PostgresAuditLog.open({ pool, schema });
  const store = await PostgresResultStore.open({ pool, schema, listen: false, audit: log, retention: { maxCount: 3 } });
  const make = (id) => createSuccess({ input: { tool_name: 'ls', parameters: { path: id }, tool_call_id: id }, output: [id] });
  await store.put(make('s1'), { dialogId: 'd1' });
  await store.putMany(['s2', 's3', 's4'].map(make), { dialogId: 'd1' });
  assert.deepEqual(
    (await collect(log.entries())).map((e) => `${e.seq} ${e.action} ${e.tool_call_id}`),
    ['1 stored s1', '2 stored s2', '3 stored s3', '4 stored s4', '5 evicted s1'],
  );

  // The log cannot append (its head row is gone): the put fails and nothing of it is stored.
  await admin.query(`DELETE FROM "${schema}".toolresult_audit_head`);
  const lost = make('s5');
  await assert.rejects(store.put(lost, { dialogId: 'd1' }), { code: 'corrupt_audit_log' });
  assert.equal(await store.get(lost.metadata.execution_id), undefined, 'no result without its entry');
  assert.equal(await store.size(), 3, 'and retention evicted nothing for it');
  await admin.query(
    `INSERT INTO "${schema}".toolresult_audit_head (one, seq, hash) SELECT true, seq, hash FROM "${schema}".toolresult_audit ORDER BY seq DESC LIMIT 1`,
  );
  await store.put(lost, { dialogId: 'd1' });
  assert.equal((await verifyAuditLog(log)).ok, true);

  // Every stored execution id has its `stored` entry, and every evicted one its `evicted` entry.
  const entries = await collect(log.entries());
  const ids = async (table) => (await admin.query(`SELECT execution_id FROM "${schema}".${table} ORDER BY 1`)).rows.map((r) => r.execution_id);
  const stored = new Set(entries.filter((e) => e.action === 'stored').map((e) => e.execution_id));
  const evicted = new Set(entries.filter((e) => e.action === 'evicted').map((e) => e.execution_id));
  for (const id of await ids('toolresult_results')) assert.ok(stored.has(id), id);
  assert.deepEqual([...evicted].sort(), await ids('toolresult_evictions'));
  assert.equal(entries.at(-1).action, 'evicted');

  // A log on another pool (the same database, but the store cannot know it) appends after COMMIT, as before.
  const apart = await PostgresAuditLog.open({ connection: server.connection, schema });
  const other = await PostgresResultStore.open({ pool, schema, listen: false, audit: apart });
  await admin.query(`DELETE FROM "${schema}".toolresult_audit_head`);
  const late = make('s6');
  await assert.rejects(other.put(late, { dialogId: 'd1' }), { code: 'audit_failed' });
  assert.deepEqual(await other.get(late.metadata.execution_id), late, 'stored; its entry is what failed');
  await other.close();
  await apart.close();
  await store.close();
  await log.close();
  await pool.end();
});
