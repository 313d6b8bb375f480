// A scripted AI SDK ChatTransport: it plays a model's side of the
// conversation as the UI message stream chunks a server would send (no
// network). Turn 1 searches, runs the tests (they fail), and asks to edit a
// file and to deploy; turn 2 comes back with the user's approval answers and
// runs what was approved, denies the rest, then starts two more calls and
// pauses there (one still running, one still streaming its input) until
// `resume()`, so every state of a tool call can be seen at once.
import { SCRIPT_RESULTS } from './results.js';

const STEP_MS = 40;

/** Splits a JSON text into the deltas a model streams it in. */
const deltas = (text, size = 12) => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

export class ScriptedTransport {
  /** What the "server" received, one entry per request (shown on the page). */
  requests = [];
  paused = false;
  #listeners = new Set();
  #resume;

  /** For useSyncExternalStore: the page re-renders on every change. */
  subscribe = (listener) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
  snapshot = () => this.#version;
  #version = 0;
  #changed() {
    this.#version++;
    for (const l of this.#listeners) l();
  }

  /** Lets the paused script go on. */
  resume = () => {
    this.#resume?.();
  };

  async sendMessages({ messages, abortSignal }) {
    const last = messages.at(-1);
    // The approval answers the client sent back (the tool parts the user answered).
    const answers =
      last?.role === 'assistant' ? last.parts.filter((p) => p.state === 'approval-responded').map((p) => ({ toolCallId: p.toolCallId, ...p.approval })) : [];
    this.requests.push({ messages: messages.length, answers });
    this.#changed();
    const script = this.requests.length === 1 ? this.#turnOne() : this.#turnTwo(answers);
    return new ReadableStream({
      start: async (controller) => {
        try {
          for await (const chunk of script) {
            if (abortSignal?.aborted) break;
            controller.enqueue(chunk);
            await new Promise((r) => setTimeout(r, STEP_MS));
          }
          controller.close();
        } catch (e) {
          controller.error(e);
        }
      },
    });
  }

  async reconnectToStream() {
    return null;
  }

  /** A call whose input streams in, in pieces. */
  *#call(toolName, toolCallId, input) {
    yield { type: 'tool-input-start', toolCallId, toolName };
    for (const d of deltas(JSON.stringify(input))) yield { type: 'tool-input-delta', toolCallId, inputTextDelta: d };
    yield { type: 'tool-input-available', toolCallId, toolName, input };
  }

  *#text(id, text) {
    yield { type: 'text-start', id };
    yield { type: 'text-delta', id, delta: text };
    yield { type: 'text-end', id };
  }

  async *#turnOne() {
    yield { type: 'start' };
    yield { type: 'start-step' };
    yield* this.#text('t1', "I'll look for the greeting, run the tests, then fix it and deploy.");
    yield* this.#call('grep', 'call_grep', SCRIPT_RESULTS.grep.input.parameters);
    yield { type: 'tool-output-available', toolCallId: 'call_grep', output: SCRIPT_RESULTS.grep };
    yield* this.#call('run_tests', 'call_tests', { command: 'cargo test' });
    yield { type: 'tool-output-error', toolCallId: 'call_tests', errorText: '2 tests failed: greeting::says_hi, greeting::says_name' };
    yield* this.#call('edit_file', 'call_edit', SCRIPT_RESULTS.edit.input.parameters);
    yield { type: 'tool-approval-request', toolCallId: 'call_edit', approvalId: 'approval-edit' };
    yield* this.#call('deploy', 'call_deploy', { environment: 'production' });
    yield { type: 'tool-approval-request', toolCallId: 'call_deploy', approvalId: 'approval-deploy' };
    yield { type: 'finish-step' };
    yield { type: 'finish', finishReason: 'tool-calls' };
  }

  async *#turnTwo(answers) {
    yield { type: 'start' };
    for (const a of answers) {
      if (!a.approved) yield { type: 'tool-output-denied', toolCallId: a.toolCallId };
      else if (a.toolCallId === 'call_edit') yield { type: 'tool-output-available', toolCallId: a.toolCallId, output: SCRIPT_RESULTS.edit };
      else yield { type: 'tool-output-available', toolCallId: a.toolCallId, output: { ok: true } };
    }
    yield { type: 'start-step' };
    yield* this.#text('t2', 'Now the tests again, and a line in the changelog.');
    yield* this.#call('run_tests', 'call_retest', { command: 'cargo test' });
    // The changelog entry is still streaming its input when the script pauses.
    const notes = JSON.stringify({ path: 'CHANGELOG.md', line: '- Greet people by name.' });
    const cut = notes.indexOf('by');
    yield { type: 'tool-input-start', toolCallId: 'call_notes', toolName: 'append_line' };
    yield { type: 'tool-input-delta', toolCallId: 'call_notes', inputTextDelta: notes.slice(0, cut) };
    yield* this.#pause();
    yield { type: 'tool-input-delta', toolCallId: 'call_notes', inputTextDelta: notes.slice(cut) };
    yield { type: 'tool-input-available', toolCallId: 'call_notes', toolName: 'append_line', input: JSON.parse(notes) };
    yield { type: 'tool-output-available', toolCallId: 'call_retest', output: { passed: 12, failed: 0 } };
    yield { type: 'tool-output-available', toolCallId: 'call_notes', output: { appended: true } };
    yield { type: 'finish-step' };
    yield { type: 'start-step' };
    yield* this.#text('t3', 'All 12 tests pass.');
    yield { type: 'finish-step' };
    yield { type: 'finish', finishReason: 'stop' };
  }

  async *#pause() {
    this.paused = true;
    this.#changed();
    await new Promise((r) => {
      this.#resume = r;
    });
    this.#resume = undefined;
    this.paused = false;
    this.#changed();
  }
}
