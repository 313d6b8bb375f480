//! The wasm-bindgen layer. Every export takes JSON text (or bytes) and returns
//! JSON text: the TypeScript wrapper owns the conversion to and from JS values,
//! so no JS object is built on this side and nothing here can throw.

mod bound;
mod build;
mod catalog;
mod convert;
mod locate;
mod metadata;
mod reference;
mod render;
mod status;
mod store;
mod trap;
mod validator;

// The input buffer, exported from this module too.
pub use toolresult_wasm_io::{input_buffer, wasm_memory};

pub(crate) use toolresult_wasm_io::reply::{outcome, to_json};
