// The Redis bus (`toolresult/redis`, AgentResultStream): agent results per
// second through publish → consume → acknowledge, and the latency from the
// publish call to the acknowledgement of the handled result (p50/p99), against
// a redis-server it starts itself (tests/redis/server.mjs) with AOF
// `appendfsync always` (every write on disk before Redis replies) and without
// persistence. The consumer is a child process, as in production; each result
// carries its send time, and the consumer takes the time at its `handled`
// event (after the acknowledgement). Prints markdown rows; asserts nothing
// about time.
//   --smoke   a small run that only proves this bench still works
import { spawn } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { normalizeAgentResult } from 'toolresult';
import { AgentResultStream } from 'toolresult/redis';
import { startRedis } from '../tests/redis/server.mjs';

const now = () => performance.timeOrigin + performance.now();
const base = {
  workflow_id: 'wf-bench',
  agent_id: 'bench-agent',
  agent_type: 'scaffold',
  success: true,
  status: 'success',
  action: 'scaffold_project',
  metrics: { duration_ms: 12, tokens_used: 300 },
  timestamp: '2026-01-01T00:00:00.000Z',
  version: '1.0.0',
};

if (process.argv[2] === '--consume') {
  // The consumer process: `--consume <url> <stream> <expected>`.
  const [url, name, expected] = process.argv.slice(3);
  const client = createClient({ url });
  await client.connect();
  const stream = new AgentResultStream(client, { stream: name });
  const sent = new Map();
  const latencies = [];
  let last = 0;
  let done;
  const finished = new Promise((r) => {
    done = r;
  });
  stream.on('handled', (e) => {
    const t = now();
    latencies.push(t - sent.get(e.detail.id));
    sent.delete(e.detail.id);
    last = t;
    if (latencies.length === Number(expected)) done();
  });
  // The engine compiles on first use: not part of what is measured.
  normalizeAgentResult({ ...base, task_id: 'warm-up', result: {} });
  const consumer = await stream.consume(
    (r, info) => {
      sent.set(info.id, r.result.sent_at);
    },
    { group: 'bench', consumer: 'c1', count: 64 },
  );
  process.stdout.write('ready\n');
  await finished;
  await consumer.close();
  process.stdout.write(`${JSON.stringify({ latencies, last })}\n`);
  await client.close();
  process.exit(0);
}

const smoke = process.argv.includes('--smoke');
const THROUGHPUT = smoke ? 300 : 5_000;
const LATENCY = smoke ? 100 : 1_000;
const WINDOW = 32;

function consumerProcess(url, name, expected) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--consume', url, name, String(expected)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  let ready;
  const isReady = new Promise((r) => {
    ready = r;
  });
  const report = new Promise((resolve, reject) => {
    lines.on('line', (l) => (l === 'ready' ? ready() : resolve(JSON.parse(l))));
    child.on('exit', (code) => code !== 0 && reject(new Error(`consumer exited with ${code}`)));
  });
  return { ready: isReady, report };
}

const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const fmt = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));

async function run(label, aof) {
  const server = await startRedis({ aof });
  const client = createClient({ url: server.url });
  await client.connect();
  // The producer validates with the engine too: compiled before the clock starts.
  normalizeAgentResult({ ...base, task_id: 'warm-up', result: {} });
  const version = /redis_version:(\S+)/.exec(await client.info('server'))?.[1] ?? '?';
  try {
    // Throughput: WINDOW publishes in flight, one consumer process draining.
    const t = new AgentResultStream(client, { stream: 'throughput' });
    const tc = consumerProcess(server.url, 'throughput', THROUGHPUT);
    await tc.ready;
    const start = now();
    let next = 0;
    await Promise.all(
      Array.from({ length: WINDOW }, async () => {
        while (next < THROUGHPUT) {
          const i = next++;
          await t.publish({ ...base, task_id: `t${i}`, result: { i, sent_at: now() } });
        }
      }),
    );
    const { last } = await tc.report;
    const perSecond = THROUGHPUT / ((last - start) / 1000);

    // Latency at half the throughput just measured, so results do not queue.
    const gapMs = Math.max(1, 2000 / perSecond);
    const l = new AgentResultStream(client, { stream: 'latency' });
    const lc = consumerProcess(server.url, 'latency', LATENCY);
    await lc.ready;
    for (let i = 0; i < LATENCY; i++) {
      await l.publish({ ...base, task_id: `l${i}`, result: { i, sent_at: now() } });
      await new Promise((r) => setTimeout(r, gapMs));
    }
    const { latencies } = await lc.report;
    const sorted = latencies.sort((a, b) => a - b);
    return `| AgentResultStream, Redis ${version} ${label} | ${Math.round(perSecond).toLocaleString('en-US')} | ${fmt(quantile(sorted, 0.5))} | ${fmt(quantile(sorted, 0.99))} | ${THROUGHPUT.toLocaleString('en-US')} results, ${WINDOW} publishes in flight; latency over ${LATENCY.toLocaleString('en-US')} results sent at half that rate |`;
  } finally {
    await client.close();
    await server.stop();
  }
}

const cpu = os.cpus()[0]?.model?.trim() ?? 'unknown CPU';
console.log(
  `Redis bus: publish → consume → ack${smoke ? ' (SMOKE RUN, numbers are not meaningful)' : ''}. ${cpu}, ${os.cpus().length} cores, Node ${process.version}.\n`,
);
console.log('| transport | results/s | p50 ms | p99 ms | how |');
console.log('|---|---:|---:|---:|---|');
console.log(await run('AOF appendfsync always', true));
console.log(await run('no persistence', false));
