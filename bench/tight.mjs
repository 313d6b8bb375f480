// Tight-loop timing: each validator called N times in a row, ROUNDS rounds
// with the validators interleaved (their order rotating), the median of each
// validator's per-round mean. tinybench times every sample on its own, and at
// a few microseconds per call that timer overhead compresses the ratios
// between fast validators; a loop of N calls divides it away. bench/run.mjs
// reports both; `node bench/tight.mjs` prints the envelope rows alone.

/**
 * @param {Record<string, () => unknown>} tasks
 * @param {{ calls?: number, rounds?: number }} [options]
 * @returns {Record<string, number>} nanoseconds per call
 */
export function tightLoop(tasks, { calls = 20_000, rounds = 9 } = {}) {
  const names = Object.keys(tasks);
  const perRound = Object.fromEntries(names.map((n) => [n, []]));
  // Warm every task up first, so the first round does not time the JIT.
  for (const name of names) for (let i = 0; i < Math.min(calls, 2000); i++) tasks[name]();
  let sink = 0;
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(j + round) % names.length];
      const f = tasks[name];
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) if (f()) sink++;
      perRound[name].push(Number(process.hrtime.bigint() - t0) / calls);
    }
  }
  if (sink < 0) console.log(sink); // keeps the results alive
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(names.map((n) => [n, median(perRound[n])]));
}

/** How many calls make a round of about `ms` milliseconds for a task of `ns` per call. */
export function callsFor(ns, ms = 40) {
  return Math.max(20, Math.min(20_000, Math.round((ms * 1e6) / ns)));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  const { validateAgentResult } = await import('toolresult');
  const competitors = await import('./competitors.mjs');
  const { inputs } = await import('./inputs.mjs');
  const ajv = competitors.ajvCompiled();
  for (const [name, text] of Object.entries(inputs)) {
    const big = text.length > 100_000;
    const m = tightLoop({ ours: () => validateAgentResult(text).ok, ajv: () => ajv(text) }, { calls: big ? 200 : 20_000 });
    console.log(`${name.padEnd(20)} ours ${(m.ours / 1000).toFixed(2)} µs  ajv ${(m.ajv / 1000).toFixed(2)} µs  ratio ${(m.ours / m.ajv).toFixed(2)}×`);
  }
}
