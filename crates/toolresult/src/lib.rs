//! # toolresult
//!
//! One schema for the results of tool executions and agent tasks, and one
//! implementation that builds and validates them.
//!
//! - [`AgentResult`]: docs/spec.md §1.
//! - [`ToolResult`]: the result of one tool execution, with its metadata and side effects
//!   (schema_version 1.0.0).
//!
//! Validation reports every issue with a JSON Pointer and a stable code, and
//! checks meaning as well as shape (`success` agrees with `status`, failures
//! carry errors, timestamps are ordered and agree with durations).
//!
//! ```
//! use toolresult::{validate_agent_result, ValidationOptions, IssueCode};
//!
//! let issues = validate_agent_result(r#"{"task_id": "t1"}"#, &ValidationOptions::default());
//! assert!(issues.has(IssueCode::MissingField));
//! ```
//!
//! The crate is `#![no_std]` with `alloc`; the default `std` feature only adds
//! `std::error::Error` impls. It has no clock and no random source: builders
//! take them in a [`Stamp`].
//!
//! ## Layers
//!
//! One folder per concern, lowest first. A module uses only the layers listed
//! before its own (`scripts/check-layers.mjs`, run by `npm test`, fails
//! otherwise, and on any import cycle):
//!
//! 1. [`limits`]: the documented input limits.
//! 2. `issue` (private; its items are at the root): issues (code, JSON Pointer path, message) and their codes.
//! 3. [`json`]: strict JSON text (duplicate keys, 2^53, lone surrogates, depth
//!    and size limits), the tape, locating a pointer in text. Knows nothing of
//!    envelopes.
//! 4. `wire` (private; its items are at the root): the serde types of the wire format.
//! 5. `validate` (private; its items are at the root): options, formats, shape tables, meaning checks, and the
//!    two walks (over text and over a value).
//! 6. `builder` (private; its items are at the root): building results.
//! 7. [`bound`]: truncation of text and JSON, line caps, previews, sha256.
//! 8. `storage` (private; its items are at the root): the in-memory store, references, summaries.
//! 9. [`render`]: text renderers, language detection, diffs.
//! 10. [`interop`]: migration and conversions, one file per foreign shape.
//!
//! The safety screen and the result document are the `toolresult-screen`
//! crate, built on this one.

#![no_std]
#![forbid(unsafe_code)]
// Every public item is documented (the published crates; the wasm crates
// are internal). `npm test` builds the docs with warnings denied.
#![deny(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// The layer order is the crate doc's "Layers" list, not this (rustfmt sorts it).
// Each public item has one path: the root, or its topic module (`bound`,
// `interop`, `json`, `limits`, `render`); the files inside are private.
pub mod bound;
pub(crate) mod builder;
pub mod interop;
pub(crate) mod issue;
pub mod json;
pub mod limits;
pub mod render;
pub(crate) mod storage;
pub(crate) mod validate;
pub(crate) mod wire;

pub use builder::*;
pub use issue::*;
pub use storage::*;
pub use validate::*;
pub use wire::*;

/// Status information for a status name. `kind` picks the status set when a
/// name is in both (`success`, `failed`, `timeout`, `cancelled`).
pub fn status_info(name: &str, kind: EnvelopeKind) -> Option<StatusInfo> {
    match kind {
        EnvelopeKind::ToolResult => ToolStatus::parse(name).map(ToolStatus::info),
        EnvelopeKind::AgentResult => AgentStatus::parse(name).map(AgentStatus::info),
    }
}

// The README's examples run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
