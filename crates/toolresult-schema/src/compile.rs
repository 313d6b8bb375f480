//! Compiling a schema once and validating many values against it.

mod meta;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use jsonschema::error::ValidationErrorKind;
use jsonschema::{PatternOptions, Retrieve, Uri, ValidationError, Validator};
use serde_json::Value;
use toolresult::limits::MESSAGE_QUOTE_CHARS;
use toolresult::{quote_json, quote_text};
use toolresult::{Issue, IssueCode, Issues, SchemaIssue};

use toolresult::json::Tape;

use std::sync::OnceLock;

use crate::dialect::{self, Dialect};
use crate::options::{FormatMode, SchemaOptions};
use crate::plan::{self, CheckCompiler, Plan};
use crate::tape::{TapeJson, TapeNode};

/// Backtracking steps a `pattern` may take per match before the match fails
/// with `pattern_too_complex` (bounded time instead of a hang). Patterns
/// without look-around or back-references run on the linear-time engine and
/// never reach this.
const BACKTRACK_LIMIT: usize = 100_000;

/// A schema compiled once, for validating many values.
pub struct CompiledSchema {
    validator: Validator<TapeJson>,
    max_issues: usize,
    /// What the plan is built from, on first request (docs/internals/schema-plan.md).
    plan_source: Option<(Value, Dialect, bool)>,
    plan: OnceLock<Option<Plan>>,
}

/// One-keyword validators for a plan's checks, with the schema's options.
struct CheckOptions {
    draft: jsonschema::Draft,
    assert_formats: bool,
}

impl CheckCompiler for CheckOptions {
    fn compile_check(&self, schema: &Value) -> Option<Validator<TapeJson>> {
        engine_options(self.assert_formats)
            .with_draft(self.draft)
            .build(schema)
            .ok()
    }
}

/// The engine's options for schemas and for a plan's checks alike: bounded
/// pattern matching, and `format` asserted or not.
fn engine_options<'i>(
    assert_formats: bool,
) -> jsonschema::ValidationOptions<'i, Arc<dyn Retrieve>, TapeJson> {
    jsonschema::options_for::<TapeJson>()
        .with_pattern_options(PatternOptions::fancy_regex().backtrack_limit(BACKTRACK_LIMIT))
        .should_validate_formats(assert_formats)
}

impl core::fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CompiledSchema").finish_non_exhaustive()
    }
}

/// Serves `$ref`s from the registered documents and refuses everything else,
/// so compiling never reaches the network or the file system.
struct Documents(Arc<BTreeMap<String, Value>>);

#[derive(Debug)]
struct Refused(String);

impl core::fmt::Display for Refused {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} is not a registered document; remote and file references are never fetched (register it in `documents`)",
            quote_text(&self.0, '`')
        )
    }
}

impl std::error::Error for Refused {}

impl Retrieve for Documents {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let uri = uri.as_str();
        let key = uri.strip_suffix('#').unwrap_or(uri);
        match self.0.get(key) {
            Some(doc) => Ok(doc.clone()),
            None => Err(Box::new(Refused(key.to_owned()))),
        }
    }
}

/// Compiles `schema`: checks it against its dialect's meta-schema and resolves
/// its references. Errors are issues (`invalid_schema`, `unknown_dialect`,
/// `unresolvable_ref`) with a JSON Pointer into the schema; never a panic.
///
/// ```
/// use serde_json::json;
/// use toolresult_schema::{compile, SchemaOptions};
///
/// let schema = compile(&json!({ "type": "string", "maxLength": 3 }), &SchemaOptions::default()).unwrap();
/// assert!(schema.is_valid(&json!("abc")));
/// assert!(!schema.is_valid(&json!("abcd")));
///
/// // A schema that is not one is an issue with a path into it.
/// let bad = compile(&json!({ "type": 12 }), &SchemaOptions::default()).unwrap_err();
/// assert!(!bad.is_empty());
/// ```
pub fn compile(schema: &Value, options: &SchemaOptions) -> Result<CompiledSchema, Issues> {
    if !matches!(schema, Value::Object(_) | Value::Bool(_)) {
        return Err(Issues::from(Issue::new(
            "",
            IssueCode::InvalidSchema,
            format!(
                "a JSON Schema is an object or a boolean, got {}",
                toolresult::json_type(schema)
            ),
        )));
    }
    let documents: BTreeMap<String, Value> = options
        .documents
        .iter()
        .map(|(k, v)| (k.strip_suffix('#').unwrap_or(k).to_owned(), v.clone()))
        .collect();
    let declared =
        dialect::detect(schema, |uri| documents.contains_key(uri)).map_err(Issues::from)?;
    let has_schema_keyword = schema
        .as_object()
        .is_some_and(|o| o.contains_key("$schema"));
    let assert_formats = options.formats == FormatMode::Assert;
    let mut builder = engine_options(assert_formats).with_retriever(Documents(Arc::new(documents)));
    // The dialect: the declared one, else (no `$schema`) the configured
    // default; `None` for a registered custom meta-schema, whose dialect the
    // engine reads from it (its own detection, `Draft::Unknown`), and which
    // gets no plan (the plan does not read vocabularies; docs/internals/schema-plan.md).
    let dialect = match declared {
        Some(d) => Some(d),
        None if !has_schema_keyword => Some(options.default_dialect),
        None => None,
    };
    let draft = match dialect {
        Some(d) => {
            builder = builder.with_draft(d.draft());
            d.draft()
        }
        None => jsonschema::Draft::default().detect(schema),
    };
    // The engine leaves this check to us (crates/vendor/PATCHES.md, patch 3).
    meta::check(draft, schema).map_err(Issues::from)?;
    let validator = builder
        .build(schema)
        .map_err(|e| Issues::from(compile_issue(&e)))?;
    Ok(CompiledSchema {
        validator,
        max_issues: options.max_issues,
        plan_source: dialect.map(|d| (schema.clone(), d, assert_formats)),
        plan: OnceLock::new(),
    })
}

fn compile_issue(e: &ValidationError<'_>) -> Issue {
    let code = match e.kind() {
        ValidationErrorKind::Referencing(_) => IssueCode::UnresolvableRef,
        _ => IssueCode::InvalidSchema,
    };
    let message = match e.kind() {
        ValidationErrorKind::Referencing(_) => e.to_string(),
        _ => format!("invalid schema: {}", message(e)),
    };
    Issue::new(e.instance_path().as_str(), code, message)
}

impl CompiledSchema {
    fn plan(&self) -> Option<&Plan> {
        self.plan
            .get_or_init(|| {
                let (schema, dialect, assert_formats) = self.plan_source.as_ref()?;
                let checks = CheckOptions {
                    draft: dialect.draft(),
                    assert_formats: *assert_formats,
                };
                plan::build(schema, *dialect, *assert_formats, &checks).ok()
            })
            .as_ref()
    }

    /// The schema's evaluation plan as JSON text, for the TypeScript
    /// evaluator (docs/internals/schema-plan.md), or `None` when the schema uses what a
    /// plan does not cover. Built on the first call.
    pub fn plan_json(&self) -> Option<&str> {
        self.plan().map(|p| p.json.as_str())
    }

    /// Runs a batch of the plan's checks: `batch` is the tape of a JSON array
    /// `[check, value, check, value, …]`. 0 every check passed, 1 one failed,
    /// 2 the batch is not one (or there is no plan).
    pub fn run_plan_checks(&self, batch: &Tape) -> u32 {
        self.plan()
            .map_or(2, |p| plan::run_checks(&p.checks, batch))
    }

    /// Whether `value` satisfies the schema (stops at the first failure).
    pub fn is_valid(&self, value: &Value) -> bool {
        self.is_valid_tape(&Tape::from_value(value))
    }

    /// [`CompiledSchema::is_valid`] for a value parsed onto a tape
    /// (`toolresult::json::parse_tape`): the fast path for JSON text.
    pub fn is_valid_tape(&self, value: &Tape) -> bool {
        self.validator.is_valid(TapeNode::root(value))
    }

    /// Every way `value` fails the schema, up to `max_issues` (a last
    /// `too_many_issues` entry says when more were found), in document order.
    pub fn validate(&self, value: &Value) -> Vec<SchemaIssue> {
        self.validate_tape(&Tape::from_value(value))
    }

    /// [`CompiledSchema::validate`] for a value parsed onto a tape.
    pub fn validate_tape(&self, value: &Tape) -> Vec<SchemaIssue> {
        let mut issues = Vec::new();
        // The engine can report one failure from several evaluation paths
        // (`$ref` chains); one entry per place and keyword is enough.
        let mut seen = BTreeSet::new();
        for error in self.validator.iter_errors(TapeNode::root(value)) {
            let issue = schema_issue(&error);
            if !seen.insert((
                issue.path.clone(),
                issue.schema_path.clone(),
                issue.code.clone(),
            )) {
                continue;
            }
            if issues.len() == self.max_issues {
                issues.push(SchemaIssue {
                    path: String::new(),
                    schema_path: String::new(),
                    keyword: String::new(),
                    code: IssueCode::TooManyIssues.as_str().into(),
                    message: format!(
                        "more than {} issues; the rest are not listed (raise maxIssues to see them)",
                        self.max_issues
                    ),
                });
                break;
            }
            issues.push(issue);
        }
        issues
    }
}

fn schema_issue(e: &ValidationError<'_>) -> SchemaIssue {
    let kind = e.kind();
    let message = match kind {
        ValidationErrorKind::BacktrackLimitExceeded { .. } => format!(
            "the pattern needs more than {BACKTRACK_LIMIT} backtracking steps on this value, so the match was stopped and counts as a failure (simplify the pattern)"
        ),
        _ => message(e),
    };
    SchemaIssue {
        path: e.instance_path().as_str().to_owned(),
        schema_path: e.evaluation_path().as_str().to_owned(),
        keyword: kind.keyword().to_owned(),
        code: code_for(kind),
        message,
    }
}

/// The engine's message for `e`, with every value in it (of the instance or
/// of the schema) quoted by `quote_json` / `quote_text`, and lists of names
/// or items cut to what fits in `MESSAGE_QUOTE_CHARS` (docs/spec.md §15): the
/// engine's own text quotes the whole instance, so a 3 MB string failing
/// `maxLength` made a 3 MB message. Short values read exactly as
/// the engine writes them. The instance is only read for messages that show
/// it (it is built from the tape on first use).
fn message(e: &ValidationError<'_>) -> String {
    use ValidationErrorKind as K;
    let instance = || quote_json(e.instance());
    match e.kind() {
        K::Format { .. }
        | K::AnyOf { .. }
        | K::OneOfNotValid { .. }
        | K::OneOfMultipleValid { .. }
        | K::Contains
        | K::ContentEncoding { .. }
        | K::ContentMediaType { .. }
        | K::ExclusiveMaximum { .. }
        | K::ExclusiveMinimum { .. }
        | K::FalseSchema
        | K::Maximum { .. }
        | K::Minimum { .. }
        | K::MaxLength { .. }
        | K::MinLength { .. }
        | K::MaxItems { .. }
        | K::MinItems { .. }
        | K::MaxProperties { .. }
        | K::MinProperties { .. }
        | K::MultipleOf { .. }
        | K::Type { .. }
        | K::UniqueItems => e.masked_with(instance()).to_string(),
        K::Enum { options } => enum_message(&instance(), options),
        K::Pattern { pattern } => {
            format!("{} does not match {}", instance(), quote_text(pattern, '"'))
        }
        K::Not { schema } => format!("{} is not allowed for {}", quote_json(schema), instance()),
        K::Constant { expected_value } => format!("{} was expected", quote_json(expected_value)),
        K::Required { property } => format!("{} is a required property", quote_json(property)),
        K::AdditionalProperties { unexpected } => unexpected_message(
            "Additional properties",
            unexpected.len(),
            unexpected.iter().map(|k| quote_text(k, '\'')),
        ),
        K::UnevaluatedProperties { unexpected } => unexpected_message(
            "Unevaluated properties",
            unexpected.len(),
            unexpected.iter().map(|k| quote_text(k, '\'')),
        ),
        // The engine's texts of the items (JSON), quoted as it quotes them.
        K::UnevaluatedItems { unexpected } => unexpected_message(
            "Unevaluated items",
            unexpected.len(),
            unexpected.iter().map(|item| quote_text(item, '\'')),
        ),
        K::AdditionalItems { limit } => {
            let extra = e
                .instance()
                .as_array()
                .map_or(&[][..], |items| items.get(*limit..).unwrap_or_default());
            unexpected_message(
                "Additional items",
                extra.len(),
                extra.iter().map(quote_json),
            )
        }
        K::PropertyNames { error } => message(error),
        // No value in these (or only the engine's own words).
        K::Referencing(_)
        | K::BacktrackLimitExceeded { .. }
        | K::RegexEngineFailure { .. }
        | K::FromUtf8 { .. }
        | K::Custom { .. } => e.to_string(),
    }
}

/// `enum`'s message as the engine words it (at most three options, else two
/// and how many others), each option quoted.
fn enum_message(instance: &str, options: &Value) -> String {
    let options = options.as_array().map_or(&[][..], Vec::as_slice);
    let mut out = format!("{instance} is not one of ");
    if options.len() <= 3 {
        for (i, option) in options.iter().enumerate() {
            if i > 0 {
                out.push_str(if i == options.len() - 1 { " or " } else { ", " });
            }
            out.push_str(&quote_json(option));
        }
    } else {
        out.push_str(&quote_json(&options[0]));
        out.push_str(", ");
        out.push_str(&quote_json(&options[1]));
        out.push_str(&format!(" or {} other candidates", options.len() - 2));
    }
    out
}

/// "`what` are not allowed ('a', 'b' were unexpected)": as many quoted
/// entries as fit in `MESSAGE_QUOTE_CHARS` (at least one), then how many
/// more there are.
fn unexpected_message(what: &str, count: usize, quoted: impl Iterator<Item = String>) -> String {
    let mut out = format!("{what} are not allowed (");
    let (mut shown, mut chars) = (0, 0);
    for entry in quoted {
        let len = entry.chars().count();
        if shown > 0 {
            if chars + 2 + len > MESSAGE_QUOTE_CHARS {
                break;
            }
            out.push_str(", ");
            chars += 2;
        }
        out.push_str(&entry);
        chars += len;
        shown += 1;
    }
    if shown < count {
        out.push_str(&format!(", … and {} more", count - shown));
    }
    out.push_str(if count == 1 {
        " was unexpected)"
    } else {
        " were unexpected)"
    });
    out
}

/// A stable snake_case code: the keyword in snake_case, or a more precise
/// name where one keyword fails in more than one way.
fn code_for(kind: &ValidationErrorKind) -> String {
    let special = match kind {
        ValidationErrorKind::FalseSchema => "false_schema",
        ValidationErrorKind::OneOfMultipleValid { .. } => "one_of_multiple_valid",
        ValidationErrorKind::OneOfNotValid { .. } => "one_of_none_valid",
        ValidationErrorKind::BacktrackLimitExceeded { .. } => "pattern_too_complex",
        ValidationErrorKind::RegexEngineFailure { .. } => "pattern_engine_failure",
        ValidationErrorKind::FromUtf8 { .. } => "content_encoding",
        ValidationErrorKind::Referencing(_) => "unresolvable_ref",
        ValidationErrorKind::Custom { .. } => "custom",
        _ => "",
    };
    if !special.is_empty() {
        return special.to_owned();
    }
    let mut code = String::new();
    for c in kind.keyword().trim_start_matches('$').chars() {
        if c.is_ascii_uppercase() {
            code.push('_');
            code.push(c.to_ascii_lowercase());
        } else {
            code.push(c);
        }
    }
    code
}
