pub(crate) mod maximum_draft_4;
pub(crate) mod minimum_draft_4;
pub(crate) mod type_draft_4;
