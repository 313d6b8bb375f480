// A quick A/B timer for one build: medians of validateAgentResult(string) on
// the bench inputs. `node bench/quick.mjs` (used while tuning; see NOTES.md).
import { Bench } from 'tinybench';
import { validateAgentResult, parseAgentResult } from 'toolresult';
import { inputs } from './inputs.mjs';

const bench = new Bench({ time: 800, warmupTime: 200 });
for (const [name, text] of Object.entries(inputs)) {
  bench.add(`validate ${name}`, () => validateAgentResult(text).ok);
  if (!name.startsWith('invalid')) bench.add(`parse ${name}`, () => parseAgentResult(text));
  bench.add(`JSON.parse ${name}`, () => JSON.parse(text));
}
await bench.run();
for (const t of bench.tasks) console.log(`${t.name.padEnd(30)} ${(t.result.latency.p50 * 1000).toFixed(2)} µs`);
