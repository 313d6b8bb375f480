//! Counts arrive as JSON numbers; `3.0` is a whole number for JSON Schema's
//! `integer` (and for JavaScript), so the typed form accepts it too.

use serde::de::{Deserializer, Error};
use serde::Deserialize;

pub(crate) fn option<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<u64>,
{
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    let whole = match (n.as_u64(), n.as_f64()) {
        (Some(u), _) => Some(u),
        (None, Some(f)) if is_whole(f) => Some(f as u64),
        _ => None,
    };
    whole
        .and_then(|u| T::try_from(u).ok())
        .map(Some)
        .ok_or_else(|| D::Error::custom("expected a non-negative whole number in range"))
}

/// A required count (see [`option`]).
pub(crate) fn count<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<u64>,
{
    option(d)?.ok_or_else(|| D::Error::custom("expected a non-negative whole number"))
}

/// An optional whole number of either sign (exit codes), `-3.0` included.
pub(crate) fn option_int<'de, D>(d: D) -> Result<Option<i64>, D::Error>
where
    D: Deserializer<'de>,
{
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    match (n.as_i64(), n.as_f64()) {
        (Some(i), _) => Ok(Some(i)),
        (None, Some(f)) if is_whole(f.abs()) && f.abs() < 9.2e18 => Ok(Some(f as i64)),
        _ => Err(D::Error::custom("expected a whole number")),
    }
}

/// A non-negative whole number that fits u64 (`f64::fract` is not in `core`).
pub(crate) fn is_whole(n: f64) -> bool {
    (0.0..18_446_744_073_709_551_616.0).contains(&n) && (n as u64) as f64 == n
}
