//! A schema checked against its dialect's meta-schema, on the tape.
//!
//! `jsonschema` runs this check on `serde_json::Value`s, which links every
//! keyword validator a second time next to the tape copy the tool outputs
//! use; its check is compiled out here (crates/vendor/PATCHES.md, patch 3)
//! and this module does the same check with the same rules (those of the
//! engine's `compiler::validate_schema`): each draft's meta-schema compiled
//! once, as a `Validator<TapeJson>`; an embedded resource that declares a
//! dialect of its own checked against that dialect's meta-schema, and seen
//! as `{}` by the enclosing one (2020-12 Core §9.3.3); issues point into the
//! schema.

use std::sync::{Arc, LazyLock, OnceLock};

use jsonschema::{Draft, Validator};
use serde_json::{Map, Value};
use toolresult::json::Tape;
use toolresult::{Issue, IssueCode};

use crate::tape::{TapeJson, TapeNode};

/// Checks `schema` against the meta-schema of `draft`, the draft the engine
/// compiles it under (`Draft::Unknown`, a custom meta-schema, is checked
/// against 2020-12, as the engine did).
pub(super) fn check(draft: Draft, schema: &Value) -> Result<(), Issue> {
    check_at(draft, schema, "")
}

/// [`check`] for the resource at `at` (a JSON Pointer into the root schema).
fn check_at(draft: Draft, schema: &Value, at: &str) -> Result<(), Issue> {
    // Every draft accepts a boolean schema and `{}`.
    if schema.is_boolean() || schema.as_object().is_some_and(Map::is_empty) {
        return Ok(());
    }
    let mut embedded = Vec::new();
    if declares_nested_schema(schema) {
        collect_embedded_resources(draft, draft, schema, &mut embedded);
    }
    if embedded.is_empty() {
        return validate(draft, schema, at);
    }
    let mut resources = Vec::with_capacity(embedded.len());
    let enclosing =
        without_embedded_resources(schema, &embedded, &mut at.to_owned(), &mut resources);
    validate(draft, &enclosing, at)?;
    for (location, draft, contents) in resources {
        check_at(draft, contents, &location)?;
    }
    Ok(())
}

/// The first way `schema` fails the meta-schema, as an `invalid_schema` issue
/// at `at` + the place in `schema`.
fn validate(draft: Draft, schema: &Value, at: &str) -> Result<(), Issue> {
    let validator = meta_validator(draft)?;
    let tape = Tape::from_value(schema);
    // The first of `iter_errors`, not `Validator::validate` (the engine's
    // call, which gives the same first error; tests/meta.rs compares them):
    // `validate` would link every keyword's `validate` for the tape, 73 KB
    // raw / 13 KB gzip that nothing else uses.
    let first = validator.iter_errors(TapeNode::root(&tape)).next();
    match first {
        None => Ok(()),
        Some(e) => {
            let mut issue = super::compile_issue(&e);
            issue.path.insert_str(0, at);
            Err(issue)
        }
    }
}

type Compiled = Result<Validator<TapeJson>, String>;

/// The meta-schema validator of `draft`, compiled on first use.
fn meta_validator(draft: Draft) -> Result<&'static Validator<TapeJson>, Issue> {
    static DRAFT4: OnceLock<Compiled> = OnceLock::new();
    static DRAFT6: OnceLock<Compiled> = OnceLock::new();
    static DRAFT7: OnceLock<Compiled> = OnceLock::new();
    static DRAFT201909: OnceLock<Compiled> = OnceLock::new();
    static DRAFT202012: OnceLock<Compiled> = OnceLock::new();
    let (cell, meta): (_, &LazyLock<Arc<Value>>) = match draft {
        Draft::Draft4 => (&DRAFT4, &referencing::meta::DRAFT4),
        Draft::Draft6 => (&DRAFT6, &referencing::meta::DRAFT6),
        Draft::Draft7 => (&DRAFT7, &referencing::meta::DRAFT7),
        Draft::Draft201909 => (&DRAFT201909, &referencing::meta::DRAFT201909),
        // 2020-12, and whatever `Draft::Unknown` (a custom meta-schema) and
        // later drafts are: the engine's choice.
        _ => (&DRAFT202012, &referencing::meta::DRAFT202012),
    };
    cell.get_or_init(|| {
        // The engine's defaults, as for its own meta-schema validators
        // (which also skip checking the meta-schema against itself:
        // without `validate-schema`, `build` checks nothing).
        jsonschema::options_for::<TapeJson>()
            .build(meta)
            .map_err(|e| e.to_string())
    })
    .as_ref()
    // The bundled meta-schemas compile (a test checks each); an issue, not
    // a panic, all the same.
    .map_err(|e| {
        Issue::new(
            "",
            IssueCode::InvalidSchema,
            format!("the meta-schema to check the schema against did not compile: {e}"),
        )
    })
}

/// Whether `$schema` appears anywhere below the root (a cheap scan that a
/// single-dialect schema, the usual case, stops at).
fn declares_nested_schema(schema: &Value) -> bool {
    fn contains_schema_keyword(value: &Value) -> bool {
        match value {
            Value::Object(map) => map
                .iter()
                .any(|(key, child)| key == "$schema" || contains_schema_keyword(child)),
            Value::Array(items) => items.iter().any(contains_schema_keyword),
            _ => false,
        }
    }
    schema
        .as_object()
        .is_some_and(|map| map.values().any(contains_schema_keyword))
}

/// Embedded resources below `schema` whose `$schema` names a draft other than
/// `meta_draft`, the draft whose meta-schema the enclosing resource is checked
/// against. Only a resource root (a subschema with an identifier) may declare
/// `$schema` (2019-09 and 2020-12 Core §8.1.1).
fn collect_embedded_resources<'a>(
    draft: Draft,
    meta_draft: Draft,
    schema: &'a Value,
    embedded: &mut Vec<(&'a Value, Draft)>,
) {
    for subresource in draft.subresources_of(schema) {
        let subresource_draft = draft.detect(subresource);
        let own_dialect = subresource_draft != meta_draft && subresource_draft != Draft::Unknown;
        // A resource written against an older draft may name itself with
        // that draft's `id`.
        if own_dialect
            && (draft.create_resource_ref(subresource).id().is_some()
                || subresource_draft
                    .create_resource_ref(subresource)
                    .id()
                    .is_some())
        {
            embedded.push((subresource, subresource_draft));
        } else {
            collect_embedded_resources(subresource_draft, meta_draft, subresource, embedded);
        }
    }
}

/// A copy of `value` with every `embedded` resource replaced by `{}`; the
/// replaced ones are recorded with their JSON Pointer (`location`, which is
/// `value`'s and is restored before returning).
fn without_embedded_resources<'a>(
    value: &'a Value,
    embedded: &[(&'a Value, Draft)],
    location: &mut String,
    replaced: &mut Vec<(String, Draft, &'a Value)>,
) -> Value {
    if let Some((_, draft)) = embedded
        .iter()
        .find(|(resource, _)| core::ptr::eq(*resource, value))
    {
        replaced.push((location.clone(), *draft, value));
        return Value::Object(Map::new());
    }
    let len = location.len();
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, child)| {
                    location.push('/');
                    for c in key.chars() {
                        match c {
                            '~' => location.push_str("~0"),
                            '/' => location.push_str("~1"),
                            c => location.push(c),
                        }
                    }
                    let child = without_embedded_resources(child, embedded, location, replaced);
                    location.truncate(len);
                    (key.clone(), child)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(idx, child)| {
                    location.push('/');
                    location.push_str(&idx.to_string());
                    let child = without_embedded_resources(child, embedded, location, replaced);
                    location.truncate(len);
                    child
                })
                .collect(),
        ),
        _ => value.clone(),
    }
}
