//! The wasm-bindgen layer of the core module (validation, builders,
//! bounding, rendering; the rest is in the agent, screen and schema engine
//! modules: docs/internals/modules.md). Every export takes JSON text (or bytes) and returns
//! JSON text: the TypeScript wrapper owns the conversion to and from JS values,
//! so no JS object is built on this side and nothing here can throw.

mod bound;
mod build;
mod catalog;
mod locate;
mod render;
mod status;
mod trap;
mod validator;

// The input buffer, exported from this module too.
pub use toolresult_wasm_io::{input_buffer, wasm_memory};

pub(crate) use toolresult_wasm_io::reply::{outcome, to_json};
