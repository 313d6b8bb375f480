// A writer process for the multi-node tests: `node writer.mjs <job.json>`.
// Modes: `contend` puts its share of the results one by one and prints one
// JSON line per put (`stored`, `same` or `conflict`); `batches` puts batches
// with putMany and prints `ack <n>` after each commit, until it is killed.
import { readFileSync } from 'node:fs';
import { PostgresResultStore } from 'toolresult/postgres';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const store = await PostgresResultStore.open({ connection: job.connection, schema: job.schema, listen: false });
const out = (line) => process.stdout.write(`${line}\n`);

if (job.mode === 'contend') {
  for (const r of job.results) {
    try {
      const report = await store.put(r, { dialogId: 'fleet' });
      out(JSON.stringify({ id: r.metadata.execution_id, outcome: report.stored ? 'stored' : 'same', output: r.output }));
    } catch (e) {
      out(
        JSON.stringify({ id: r.metadata.execution_id, outcome: e.code === 'store_conflict' ? 'conflict' : `error:${e.code ?? e.message}`, output: r.output }),
      );
    }
  }
  await store.close();
} else if (job.mode === 'batches') {
  for (let b = 0; ; b++) {
    const batch = job.results.slice(b * job.batch, (b + 1) * job.batch);
    if (!batch.length) break;
    const report = await store.putMany(batch, { dialogId: 'crash' });
    if (!report.results.every((r) => r.ok && r.value.stored)) throw new Error('unexpected outcome');
    out(`ack ${(b + 1) * job.batch}`);
  }
  await store.close();
}
