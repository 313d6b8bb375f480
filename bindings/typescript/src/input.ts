// Writing input into a wasm module's reusable input buffer (every module has
// one: crates/toolresult-wasm-io).
import { core, schemaEngine, screenModule, type WasmModule } from './runtime.js';

/** What a module exports for its input buffer. */
interface InputBuffer {
  input_buffer(capacity: number): number;
  wasm_memory(): unknown;
}

const encoder = new TextEncoder();

/**
 * Writes input into one module's input buffer. Strings go through
 * `encodeInto` straight into wasm memory: one pass, no intermediate copy. The
 * first guess fits ASCII-heavy text; the rest is encoded after growing the
 * buffer to the UTF-8 worst case.
 */
class InputWriter {
  #memory: WebAssembly.Memory | undefined;

  constructor(module: WasmModule<unknown>) {
    // A replaced instance has a new memory.
    module.onInstall(() => {
      this.#memory = undefined;
    });
  }

  /** Writes `input` and returns its byte length. */
  write(w: InputBuffer, input: string | Uint8Array): number {
    // The Memory object is stable; its buffer is replaced whenever memory grows,
    // so views are taken after input_buffer() has made room.
    const mem = (this.#memory ??= w.wasm_memory() as WebAssembly.Memory);
    if (typeof input !== 'string') {
      const ptr = w.input_buffer(input.length);
      new Uint8Array(mem.buffer, ptr, input.length).set(input);
      return input.length;
    }
    let capacity = input.length + (input.length >> 3) + 16;
    let ptr = w.input_buffer(capacity);
    let { read, written } = encoder.encodeInto(input, new Uint8Array(mem.buffer, ptr, capacity));
    if (read < input.length) {
      const rest = input.substring(read);
      capacity = written + rest.length * 3;
      ptr = w.input_buffer(capacity);
      written += encoder.encodeInto(rest, new Uint8Array(mem.buffer, ptr + written, capacity - written)).written;
    }
    return written;
  }
}

const coreInput = new InputWriter(core as WasmModule<unknown>);
const engineInput = new InputWriter(schemaEngine as WasmModule<unknown>);
const screenInput = new InputWriter(screenModule as WasmModule<unknown>);

/** Writes into the core module's input buffer; returns the byte length. */
export function writeInput(w: InputBuffer, input: string | Uint8Array): number {
  return coreInput.write(w, input);
}

/** Writes into the JSON Schema engine module's input buffer; returns the byte length. */
export function writeEngineInput(w: InputBuffer, input: string | Uint8Array): number {
  return engineInput.write(w, input);
}

/** Writes into the screen module's input buffer; returns the byte length. */
export function writeScreenInput(w: InputBuffer, input: string | Uint8Array): number {
  return screenInput.write(w, input);
}
