// A producer process for the fault test: `node producer.mjs <job.json>`.
// Publishes results 0…count-1 of producer `p` (tests/redis/messages.mjs):
// AgentResults through AgentResultStream.publish (validated), legacy
// TaskResults and invalid messages with a raw XADD, as agents that do not use
// the package would. Prints `ack <i> <entry id>` once Redis acknowledged an
// entry; a publish that fails (the server went away) is sent again.
import { readFileSync } from 'node:fs';
import { createClient } from 'redis';
import { AgentResultStream } from 'toolresult/redis';
import { message } from './messages.mjs';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const client = createClient({ url: job.url, socket: { reconnectStrategy: (n) => Math.min(20 * 2 ** n, 500) } });
client.on('error', () => {});
await client.connect();
const stream = new AgentResultStream(client, { stream: job.stream });
const wait = (ms) => new Promise((r) => setTimeout(r, ms));

for (let i = 0; i < job.count; i++) {
  const m = message(job.p, i);
  for (let attempt = 1; ; attempt++) {
    try {
      const id = m.kind === 'valid' ? await stream.publish(m.text) : String(await client.sendCommand(['XADD', job.stream, '*', 'result', m.text]));
      process.stdout.write(`ack ${i} ${id}${attempt > 1 ? ` retried` : ''}\n`);
      break;
    } catch (e) {
      if (e?.code === 'invalid_agent_result') throw e;
      await wait(Math.min(20 * attempt, 200));
    }
  }
  if (job.pauseMs) await wait(job.pauseMs);
}
await client.close();
