// Benchmark inputs: AgentResult envelopes of the sizes users send.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const base = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/agent/valid-success.json'), 'utf8'));

const sha = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';

function medium() {
  const lines = Array.from({ length: 200 }, (_, i) => `${String(i + 1).padStart(4)}  const value${i} = compute(input, ${i}); // line ${i}`);
  return {
    ...base,
    action: 'read_file',
    result: { path: 'src/engine/compute.ts', content: lines.join('\n'), lines: 200, encoding: 'utf-8' },
    artifacts: Array.from({ length: 20 }, (_, i) => ({
      name: `file${i}.ts`,
      path: `/workspace/app/src/file${i}.ts`,
      type: 'file',
      mime_type: 'text/typescript',
      size_bytes: 1000 + i,
      sha256: sha,
    })),
  };
}

function large() {
  const rows = Array.from({ length: 4200 }, (_, i) => ({
    id: i,
    name: `record-${i}`,
    tags: ['alpha', 'beta', 'gamma'],
    score: i / 7,
    active: i % 2 === 0,
    note: 'lorem ipsum dolor sit amet',
  }));
  return { ...base, result: { rows, total: rows.length } };
}

function invalid() {
  // Three independent errors; every validator is asked for all of them.
  return { ...base, agent_type: 'research', metrics: { ...base.metrics, duration_ms: -1 }, timestamp: 'yesterday' };
}

export const inputs = {
  small: JSON.stringify(base),
  medium: JSON.stringify(medium()),
  large: JSON.stringify(large()),
  'invalid (3 errors)': JSON.stringify(invalid()),
};
