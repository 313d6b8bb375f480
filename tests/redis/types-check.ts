// Type-checked by types.test.mjs (never run): node-redis 5's own client
// satisfies toolresult/redis's structural types, with no cast.
import { createClient } from 'redis';
import type { AgentResult } from 'toolresult';
import { AgentResultStream, instrumentAgentResultStream, publishAgentResult, type StreamConsumer, subscribeAgentResults } from 'toolresult/redis';

const client = createClient({ url: 'redis://127.0.0.1:1' });
const stream = new AgentResultStream(client, { stream: 'agent-results', maxLen: 100_000 });
const published: Promise<string> = stream.publish({} as AgentResult);
const consumer: Promise<StreamConsumer> = stream.consume(
  async (r, info) => {
    info.withAck(['HSET', 'stages', r.workflow_id, r.status]);
  },
  { group: 'orchestrator', consumer: 'node-1', connection: client.duplicate() },
);
const report = publishAgentResult(client, 'orchestrator:results', {} as AgentResult, { wrap: { stage: 'scaffolding' } });
const subscription = subscribeAgentResults(client.duplicate(), 'orchestrator:results', (r) => r.task_id, { onInvalid: (m) => m.issues });
stream.on('dead_lettered', (e) => e.detail.reason satisfies 'invalid' | 'max_deliveries');
declare const meter: import('@opentelemetry/api').Meter;
const off: () => void = instrumentAgentResultStream(stream, { meter });
export { published, consumer, report, subscription, off };
