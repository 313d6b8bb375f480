// Shared test helpers: the fixture cases that the Rust tests read too.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const fixturesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const cases = JSON.parse(readFileSync(path.join(fixturesDir, 'cases.json'), 'utf8'));
export const readFixture = (file) => readFileSync(path.join(fixturesDir, file));

/** Issues reduced to sorted `path code` strings, for order-free comparison. */
export const brief = (issues) => issues.map((i) => `${i.path} ${i.code}`).sort();

export function tryParse(text) {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
