// Validation off the main thread: big pastes never freeze the page. The worker
// loads its own copy of the package's wasm modules — the envelope module at
// once, the tools module only when a document needs it (normalising a legacy
// shape, converting a foreign one) — and answers each request with the
// analysis (see analyze.js).
import * as toolresult from 'toolresult';
import { analyzeText } from './analyze.js';

const ready = toolresult.init();

self.onmessage = async (event) => {
  const { id, text } = event.data;
  try {
    await ready;
    let analysis;
    try {
      analysis = analyzeText(toolresult, text);
    } catch (e) {
      if (!(e instanceof toolresult.ToolResultError && e.code === 'not_initialized')) throw e;
      await toolresult.loadSchemaEngine();
      analysis = analyzeText(toolresult, text);
    }
    self.postMessage({ id, ok: true, analysis });
  } catch (e) {
    self.postMessage({ id, ok: false, error: `${e?.name ?? 'Error'}: ${e?.message ?? e}` });
  }
};
