// The cargo-fuzz targets (fuzz/fuzz_targets/) and the seed folders each
// starts from; shared by `npm run fuzz` and the replay in `npm test`.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { root } from './lib.mjs';

export const TARGETS = ['envelope', 'builders', 'json_roundtrip', 'truncate', 'convert', 'tape', 'render', 'screen', 'document', 'model_bound'];

/** A target's own seeds; the screen and the document also start from JSON-shaped text (the envelope and conversion seeds). */
export function seedDirsOf(target) {
  const dir = (name) => path.join(root, 'fuzz', 'seeds', name);
  const own = existsSync(dir(target)) ? [dir(target)] : [dir('envelope')];
  return target === 'screen' || target === 'document' ? [...own, dir('envelope'), dir('convert')] : own;
}
