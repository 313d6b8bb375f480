//! A reusable input buffer in wasm memory, shared by the wasm modules (each
//! links its own copy). JS writes UTF-8 straight into it with
//! `TextEncoder.encodeInto` (no intermediate copy, none of wasm-bindgen's
//! per-character string passing), then a validator reads it; the verdict comes
//! back as a number, so the common, valid case builds no string at all.

pub mod reply;
mod stamp;

pub use stamp::stamp;

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Makes the input buffer at least `capacity` bytes and returns its address.
/// Any view of wasm memory taken before this call may be stale afterwards.
#[wasm_bindgen]
pub fn input_buffer(capacity: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|buf| {
        if buf.len() < capacity {
            buf.resize(capacity, 0);
        }
        // Keep a large one-off input from pinning memory forever.
        if buf.len() > 64 * 1024 * 1024 && capacity < buf.len() / 4 {
            buf.truncate(capacity.max(1024));
            buf.shrink_to_fit();
        }
        buf.as_mut_ptr()
    })
}

/// Runs `f` on the first `len` bytes of the input buffer (clamped to its size).
pub fn with_input<R>(len: usize, f: impl FnOnce(&[u8]) -> R) -> R {
    INPUT.with_borrow(|buf| f(&buf[..len.min(buf.len())]))
}

/// The wasm linear memory, for JS to write into the input buffer.
#[wasm_bindgen]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}
