// Writing input into a wasm module's reusable input buffer (every module has
// one: crates/toolresult-wasm-io).
import { core, schemaEngine, screenModule, type WasmModule } from './runtime.js';

/** What a module exports for its input buffer. */
interface InputBuffer {
  input_buffer(capacity: number): number;
  wasm_memory(): unknown;
}

const encoder = new TextEncoder();

/** What a module exports for the issues of its last check (crates/toolresult-wasm-io). */
interface IssueTable {
  last_issues(): number;
  wasm_memory(): unknown;
}

/** An issue as the modules report it. */
export interface ModuleIssue {
  path: string;
  code: string;
  message: string;
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

// The input buffer is asked for at least this much, so that most inputs are
// written without a call to grow it.
const MIN_INPUT_CAPACITY = 64 * 1024;
// Past this, a module shrinks its buffer for a much smaller input (crates/toolresult-wasm-io).
const LARGE_INPUT = 64 * 1024 * 1024;

/**
 * Writes input into one module's input buffer. Strings go through
 * `encodeInto` straight into wasm memory: one pass, no intermediate copy. The
 * view of the buffer is kept between calls, so an input that fits is written
 * without a call into wasm; the first guess fits ASCII-heavy text, the rest is
 * encoded after growing the buffer to the UTF-8 worst case.
 */
class InputWriter {
  #memory: WebAssembly.Memory | undefined;
  // The input buffer as last returned by `input_buffer` (its address is
  // stable until it is grown; a grown memory detaches the view).
  #view: Uint8Array | undefined;
  #ptr = 0;

  constructor(module: WasmModule<unknown>) {
    // A replaced instance has a new memory.
    module.onInstall(() => {
      this.#memory = undefined;
      this.#view = undefined;
    });
  }

  /** A view of the input buffer with room for `capacity` bytes. */
  #room(w: InputBuffer, capacity: number): Uint8Array {
    const view = this.#view;
    // (A buffer grown past 64 MiB is asked for again, so that the module can shrink it.)
    if (view !== undefined && view.byteLength >= capacity && (view.byteLength <= LARGE_INPUT || capacity >= view.byteLength / 4)) {
      return view;
    }
    const mem = (this.#memory ??= w.wasm_memory() as WebAssembly.Memory);
    const size = Math.max(capacity, MIN_INPUT_CAPACITY);
    this.#ptr = w.input_buffer(size);
    // Taken after input_buffer(), which may have grown the memory.
    this.#view = new Uint8Array(mem.buffer, this.#ptr, size);
    return this.#view;
  }

  /** Writes `input` and returns its byte length. */
  write(w: InputBuffer, input: string | Uint8Array): number {
    if (typeof input !== 'string') {
      this.#room(w, input.length).set(input);
      return input.length;
    }
    const guess = input.length + (input.length >> 3) + 16;
    let { read, written } = encoder.encodeInto(input, this.#room(w, guess));
    if (read < input.length) {
      const capacity = written + (input.length - read) * 3;
      // Growing keeps the bytes written so far (the buffer is resized in place or copied).
      written += encoder.encodeInto(input.substring(read), this.#room(w, capacity).subarray(written)).written;
    }
    return written;
  }

  /** The issues of the module's last check, read from its issue table. */
  issues(w: IssueTable, count: number): ModuleIssue[] {
    const buffer = (this.#memory ??= w.wasm_memory() as WebAssembly.Memory).buffer;
    const ptr = w.last_issues();
    const words = new Uint32Array(buffer, ptr, 2 + 3 * count);
    const text = decoder.decode(new Uint8Array(buffer, ptr + 4 * words.length, words[1]));
    const issues: ModuleIssue[] = new Array(count);
    let at = 0;
    for (let i = 0; i < count; i++) {
      const path = at + words[2 + 3 * i];
      const code = path + words[3 + 3 * i];
      const end = code + words[4 + 3 * i];
      issues[i] = { path: text.slice(at, path), code: text.slice(path, code), message: text.slice(code, end) };
      at = end;
    }
    return issues;
  }
}

const coreInput = new InputWriter(core as WasmModule<unknown>);
const engineInput = new InputWriter(schemaEngine as WasmModule<unknown>);
const screenInput = new InputWriter(screenModule as WasmModule<unknown>);

/** Writes into the core module's input buffer; returns the byte length. */
export function writeInput(w: InputBuffer, input: string | Uint8Array): number {
  return coreInput.write(w, input);
}

/** The `count` issues of the core module's last check. */
export function readIssues(w: IssueTable, count: number): ModuleIssue[] {
  return coreInput.issues(w, count);
}

/** Writes into the JSON Schema engine module's input buffer; returns the byte length. */
export function writeEngineInput(w: InputBuffer, input: string | Uint8Array): number {
  return engineInput.write(w, input);
}

/** Writes into the screen module's input buffer; returns the byte length. */
export function writeScreenInput(w: InputBuffer, input: string | Uint8Array): number {
  return screenInput.write(w, input);
}
