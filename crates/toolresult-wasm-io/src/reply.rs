//! The JSON replies the wasm layers hand to JavaScript: one serializer and one
//! outcome shape for every export of every module.

use serde::Serialize;

use toolresult::{Issue, IssueCode, Issues};

/// Serializes a reply; a failure becomes an `internal_error` outcome rather
/// than a panic.
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        let issue = Issue::new(
            "",
            IssueCode::InternalError,
            format!("serialization failed: {e}"),
        );
        format!(
            "{{\"ok\":false,\"issues\":{}}}",
            serde_json::to_string(&[issue]).unwrap_or_else(|_| "[]".into())
        )
    })
}

/// `{"ok":true,"value":...}` or `{"ok":false,"issues":[...]}`.
pub fn outcome<T: Serialize>(result: Result<T, Issues>) -> String {
    #[derive(Serialize)]
    #[serde(untagged)]
    enum Outcome<T> {
        Ok { ok: bool, value: T },
        Err { ok: bool, issues: Issues },
    }
    to_json(&match result {
        Ok(value) => Outcome::Ok { ok: true, value },
        Err(issues) => Outcome::Err { ok: false, issues },
    })
}
