//! Keeping results: the bounded in-memory store, references that stand in for
//! a stored result in a conversation, and the one-line summaries both show.

pub(crate) mod reference;
pub(crate) mod store;
pub(crate) mod summarize;

pub use reference::*;
pub use store::*;
pub use summarize::*;
