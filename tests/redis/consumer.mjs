// A consumer process for the fault test: `node consumer.mjs <job.json>`.
// Consumes with AgentResultStream.consume. The handler appends each call to
// `<dir>/calls-<name>.log` (appendFileSync: in the page cache before the
// handler returns, so it survives SIGKILL) and records the result with
// `withAck` commands, which run in the same script as the acknowledgement:
// HINCRBY of `<stream>:test:handled` by workflow_id/task_id and an RPUSH to a
// log. SIGTERM closes the consumer (finishing the entry in hand) and prints
// its counters as one JSON line.
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from 'redis';
import { AgentResultStream } from 'toolresult/redis';
import { LEGACY_CONTEXT, keyOf } from './messages.mjs';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const client = createClient({ url: job.url, socket: { reconnectStrategy: (n) => Math.min(20 * 2 ** n, 500) } });
client.on('error', () => {});
await client.connect();
const stream = new AgentResultStream(client, { stream: job.stream, context: LEGACY_CONTEXT });
const calls = path.join(job.dir, `calls-${job.consumer}.log`);
const wait = (ms) => new Promise((r) => setTimeout(r, ms));

const consumer = await stream.consume(
  async (r, info) => {
    const key = keyOf(r.workflow_id, r.task_id);
    appendFileSync(calls, `${key} ${info.id} ${info.deliveries}\n`);
    // A little work, so a kill can land inside a handler.
    if (job.workMs) await wait(Math.random() * job.workMs);
    info.withAck(
      ['HINCRBY', `${job.stream}:test:handled`, key, '1'],
      ['RPUSH', `${job.stream}:test:log`, JSON.stringify({ key, id: info.id, consumer: job.consumer, source: info.source, agent_id: r.agent_id })],
    );
  },
  { group: job.group, consumer: job.consumer, idleMs: job.idleMs, claimIntervalMs: 250, blockMs: 200, count: 8 },
);
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await consumer.close();
  process.stdout.write(`${JSON.stringify(stream.counters())}\n`);
  await client.close();
  process.exit(0);
});
