use serde::{Deserialize, Serialize};
use serde_json::Value;
use toolresult::quote_text;
use toolresult::{Issue, IssueCode};

/// The JSON Schema dialects this crate implements.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Dialect {
    /// JSON Schema 2020-12.
    #[default]
    #[serde(rename = "2020-12")]
    Draft202012,
    /// JSON Schema 2019-09.
    #[serde(rename = "2019-09")]
    Draft201909,
    /// JSON Schema draft 7.
    #[serde(rename = "draft-07")]
    Draft7,
}

pub(crate) const SUPPORTED: &str = "https://json-schema.org/draft/2020-12/schema, \
https://json-schema.org/draft/2019-09/schema, http://json-schema.org/draft-07/schema#";

impl Dialect {
    pub(crate) fn draft(self) -> jsonschema::Draft {
        match self {
            Dialect::Draft202012 => jsonschema::Draft::Draft202012,
            Dialect::Draft201909 => jsonschema::Draft::Draft201909,
            Dialect::Draft7 => jsonschema::Draft::Draft7,
        }
    }

    /// The dialect a meta-schema URI names (http or https, with or without
    /// an empty fragment).
    pub fn from_uri(uri: &str) -> Option<Dialect> {
        let uri = uri.strip_suffix('#').unwrap_or(uri);
        let rest = uri
            .strip_prefix("https://")
            .or_else(|| uri.strip_prefix("http://"))?;
        match rest {
            "json-schema.org/draft/2020-12/schema" => Some(Dialect::Draft202012),
            "json-schema.org/draft/2019-09/schema" => Some(Dialect::Draft201909),
            "json-schema.org/draft-07/schema" => Some(Dialect::Draft7),
            _ => None,
        }
    }
}

/// What `$schema` at the root says. `Ok(None)`: no `$schema`, or a custom
/// meta-schema registered in `documents` (the engine reads its vocabulary).
pub(crate) fn detect(
    schema: &Value,
    is_registered: impl Fn(&str) -> bool,
) -> Result<Option<Dialect>, Issue> {
    let Some(declared) = schema.as_object().and_then(|o| o.get("$schema")) else {
        return Ok(None);
    };
    let Some(uri) = declared.as_str() else {
        return Err(Issue::new(
            "/$schema",
            IssueCode::InvalidSchema,
            "`$schema` must be a string (a meta-schema URI)",
        ));
    };
    if let Some(dialect) = Dialect::from_uri(uri) {
        return Ok(Some(dialect));
    }
    if is_registered(uri.strip_suffix('#').unwrap_or(uri)) {
        return Ok(None);
    }
    Err(Issue::new(
        "/$schema",
        IssueCode::UnknownDialect,
        format!(
            "unknown dialect {}; supported: {SUPPORTED} (or register a custom meta-schema in `documents`)",
            quote_text(uri, '`')
        ),
    ))
}
