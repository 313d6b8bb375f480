//! The clock and randomness of a new result (its execution id), shared by the
//! modules that build results.

use toolresult::{Issue, IssueCode, Issues, Stamp};

/// The caller's clock and 16 random bytes for an execution id.
pub fn stamp(now_unix_ms: f64) -> Result<Stamp, Issues> {
    let mut random = [0u8; 16];
    getrandom::fill(&mut random).map_err(|e| {
        Issues::from(Issue::new(
            "",
            IssueCode::InternalError,
            format!("no random source for the execution id: {e}"),
        ))
    })?;
    Ok(Stamp {
        now_unix_ms,
        random,
    })
}
