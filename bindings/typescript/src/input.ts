// Writing input into the wasm module's reusable input buffer.
import { onInstall, type Wasm } from './runtime.js';

const encoder = new TextEncoder();
let memory: WebAssembly.Memory | undefined;
onInstall(() => {
  memory = undefined;
});

/**
 * Writes the input into the wasm input buffer and returns its byte length.
 * Strings go through `encodeInto` straight into wasm memory: one pass, no
 * intermediate copy. The first guess fits ASCII-heavy text; the rest is
 * encoded after growing the buffer to the UTF-8 worst case.
 */
export function writeInput(w: Wasm, input: string | Uint8Array): number {
  // The Memory object is stable; its buffer is replaced whenever memory grows,
  // so views are taken after input_buffer() has made room.
  const mem = (memory ??= w.wasm_memory() as WebAssembly.Memory);
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
