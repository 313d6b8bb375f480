//! wasm-bindgen layer of the agent module: the result store, references,
//! context budgets, normalization, conversions and diffs
//! (docs/internals/modules.md). A module of its own so that a page that
//! validates and renders results downloads only the core module; like the
//! others it takes JSON text and returns JSON text, and nothing here throws.

mod budget;
mod convert;
mod diff;
mod reference;
mod store;
