//! wasm-bindgen layer of the screen module: the safety screen
//! (docs/screen.md) and the result document (docs/document.md). A module of
//! its own (about as large as the core module), loaded by code that
//! screens; like the others it takes JSON text and returns JSON text, and
//! nothing here throws.

mod screen;

// Text and JSON to screen arrive through the input buffer (see toolresult-wasm-io).
pub use toolresult_wasm_io::{input_buffer, wasm_memory};

pub(crate) use toolresult_wasm_io::reply::{outcome, to_json};
