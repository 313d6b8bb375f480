//! The wasm-bindgen layer. Every export takes JSON text (or bytes) and returns
//! JSON text: the TypeScript wrapper owns the conversion to and from JS values,
//! so no JS object is built on this side and nothing here can throw.

mod bound;
mod build;
mod catalog;
mod input;
mod status;
mod trap;
mod validator;

use serde::Serialize;
use toolresult::{Issue, IssueCode, Issues};

/// The one serializer for everything returned to JS.
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
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
pub(crate) fn outcome<T: Serialize>(result: Result<T, Issues>) -> String {
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
