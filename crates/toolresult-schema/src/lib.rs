//! # toolresult-schema
//!
//! JSON Schema validation of tool inputs and outputs (docs/spec.md §7,
//! `ToolDefinition.OutputSchema`, status `output_validation_failed`), on top of
//! the `jsonschema` crate. A crate of its own, with its own wasm module, so
//! code that only checks envelopes never pays for a schema engine.
//!
//! - [`compile`] a schema once, then [`CompiledSchema::is_valid`] /
//!   [`CompiledSchema::validate`] many values.
//! - [`ToolRegistry`]: tool definitions compiled once and cached by content
//!   hash; `validate_output`, `validate_input`, `check_result`.
//!
//! ```
//! use serde_json::json;
//! use toolresult_schema::{compile, SchemaOptions};
//!
//! let schema = compile(&json!({"type": "integer", "minimum": 0}), &SchemaOptions::default()).unwrap();
//! assert!(schema.is_valid(&json!(3)));
//! assert_eq!(schema.validate(&json!(-1))[0].code, "minimum");
//! ```
//!
//! References resolve only against the schema itself and the documents passed
//! in [`SchemaOptions::documents`]: nothing is ever fetched.

#![deny(missing_docs)]

mod compile;
mod dialect;
pub mod grep;
mod options;
mod plan;
mod registry;
pub mod tape;

pub use compile::{compile, CompiledSchema};
pub use dialect::Dialect;
pub use options::{FormatMode, SchemaOptions};
pub use registry::{RegistryStats, ToolRegistry, ValidationReport};
pub use toolresult::{SchemaIssue, ToolDefinition};

// The README's examples run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
