// Validation off the main thread: big pastes never freeze the page. The worker
// loads its own copy of the package's wasm modules and answers each request
// with the analysis (see analyze.js); a newer request supersedes older ones.
import * as toolresult from 'toolresult';
import { analyzeText } from './analyze.js';

const ready = Promise.all([toolresult.init(), toolresult.loadSchemaEngine()]);

self.onmessage = async (event) => {
  const { id, text } = event.data;
  try {
    await ready;
    self.postMessage({ id, ok: true, analysis: analyzeText(toolresult, text) });
  } catch (e) {
    self.postMessage({ id, ok: false, error: `${e?.name ?? 'Error'}: ${e?.message ?? e}` });
  }
};
