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
        (None, Some(f)) if crate::check::is_whole(f) => Some(f as u64),
        _ => None,
    };
    whole
        .and_then(|u| T::try_from(u).ok())
        .map(Some)
        .ok_or_else(|| D::Error::custom("expected a non-negative whole number in range"))
}
