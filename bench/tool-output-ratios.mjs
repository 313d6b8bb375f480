// Only the tool-output rows of bench/run.mjs (same rounds, same medians), for
// quick A/B runs of the engine: `node bench/tool-output-ratios.mjs`.
import { Bench } from 'tinybench';
import { outputs, outputTextValidators, outputValidators } from './tool-output.mjs';

const ROUNDS = 5;
async function measure(tasks) {
  const names = Object.keys(tasks);
  const perRound = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time: 300, warmupTime: 100, iterations: 20 });
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) bench.add(name, tasks[name]);
    await bench.run();
    for (const t of bench.tasks) perRound[t.name].push(t.result.latency.p50 * 1e6);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(names.map((n) => [n, median(perRound[n])]));
}

const modes = {
  value: { makers: outputValidators, input: (v) => v },
  text: { makers: outputTextValidators, input: (v) => JSON.stringify(v) },
};
for (const [mode, { makers, input }] of Object.entries(modes)) {
  const checks = Object.fromEntries(Object.entries(makers).map(([name, make]) => [name, make()]));
  const [ours] = Object.keys(checks);
  for (const [outputName, value] of Object.entries(outputs)) {
    const arg = input(value);
    for (const [name, check] of Object.entries(checks)) {
      if (check(arg) !== true) throw new Error(`${name} rejects the ${outputName} output (${mode})`);
    }
    const m = await measure(Object.fromEntries(Object.entries(checks).map(([n, c]) => [n, () => c(arg)])));
    const row = Object.entries(m)
      .map(([n, ns]) => `${n} ${(ns / 1000).toFixed(1)} µs`)
      .join(' | ');
    const ratios = Object.keys(m)
      .filter((n) => n !== ours)
      .map((n) => `÷ ${n} ${(m[ours] / m[n]).toFixed(2)}×`)
      .join(', ');
    console.log(`${mode} ${outputName}: ${row} — ours ${ratios}`);
  }
}
