// Validation off the main thread: big pastes never freeze the page. The worker
// loads its own copy of the core module (validation) and, on the first legacy or
// foreign shape, of the agent module (normalising, converting;
// docs/internals/modules.md), and answers each request with them (see analyze.js).
import * as toolresult from 'toolresult';
import * as convert from 'toolresult/convert';
import { analyzeText } from './analyze.js';

const ready = toolresult.init();

self.onmessage = async (event) => {
  const { id, text } = event.data;
  try {
    await ready;
    const t = { ...toolresult, ...convert };
    let analysis;
    try {
      analysis = analyzeText(t, text);
    } catch (e) {
      // A shape that needs the agent module: load it, then analyse the text again.
      if (!(e instanceof toolresult.ToolResultError && e.code === 'not_initialized')) throw e;
      await toolresult.loadAgentModule();
      analysis = analyzeText(t, text);
    }
    self.postMessage({ id, ok: true, analysis });
  } catch (e) {
    self.postMessage({ id, ok: false, error: `${e?.name ?? 'Error'}: ${e?.message ?? e}` });
  }
};
