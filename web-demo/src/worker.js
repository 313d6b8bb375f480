// Validation off the main thread: big pastes never freeze the page. The worker
// loads its own copy of the core module, which holds everything the
// analysis needs (validation, normalising a legacy shape, converting a foreign
// one; docs/internals/modules.md), and answers each request with it (see analyze.js).
import * as toolresult from 'toolresult';
import * as convert from 'toolresult/convert';
import { analyzeText } from './analyze.js';

const ready = toolresult.init();

self.onmessage = async (event) => {
  const { id, text } = event.data;
  try {
    await ready;
    const analysis = analyzeText({ ...toolresult, ...convert }, text);
    self.postMessage({ id, ok: true, analysis });
  } catch (e) {
    self.postMessage({ id, ok: false, error: `${e?.name ?? 'Error'}: ${e?.message ?? e}` });
  }
};
