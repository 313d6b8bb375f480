use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use toolresult::{Issue, IssueCode, Issues};

use crate::dialect::Dialect;

/// How `format` is treated.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FormatMode {
    /// `format` is checked (date-time, email, uuid, ipv4, ...), as users of
    /// ajv-formats expect. Unknown formats are ignored.
    #[default]
    Assert,
    /// `format` is an annotation only (the 2020-12 default vocabulary).
    Annotate,
}

/// Options for [`crate::compile`] and [`crate::ToolRegistry`].
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[non_exhaustive]
pub struct SchemaOptions {
    /// Documents a `$ref` may point at, by absolute URI. Any other remote or
    /// file reference is refused (`unresolvable_ref`); nothing is fetched.
    pub documents: BTreeMap<String, Value>,
    /// The dialect of a schema without `$schema` (default 2020-12).
    pub default_dialect: Dialect,
    /// Whether `format` is asserted or only annotates.
    pub formats: FormatMode,
    /// At most this many issues per validation (1..=10000, default 100).
    pub max_issues: usize,
}

impl Default for SchemaOptions {
    fn default() -> Self {
        SchemaOptions {
            documents: BTreeMap::new(),
            default_dialect: Dialect::default(),
            formats: FormatMode::default(),
            max_issues: 100,
        }
    }
}

impl SchemaOptions {
    /// Reads options from JSON text (`""` gives the defaults).
    pub fn from_json(text: &str) -> Result<SchemaOptions, Issues> {
        let options: SchemaOptions = toolresult::options_from_json(text, "schema options")?;
        if !(1..=10_000).contains(&options.max_issues) {
            return Err(Issues::from(Issue::new(
                "/maxIssues",
                IssueCode::InvalidOptions,
                format!("maxIssues must be 1..=10000, got {}", options.max_issues),
            )));
        }
        Ok(options)
    }
}
