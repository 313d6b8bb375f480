//! Keeping results: the bounded in-memory store, references that stand in for
//! a stored result in a conversation, and the one-line summaries both show.

pub mod reference;
pub mod store;
pub mod summarize;
