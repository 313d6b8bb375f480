//! The meta-schema check `compile` runs on the tape (src/compile/meta.rs)
//! against the one `jsonschema` runs on `serde_json::Value`s, which the
//! engine no longer links (crates/vendor/PATCHES.md, patch 3): the same first
//! issue, path and message, for every object in the JSON Schema Test Suite
//! (its schemas and its instances, which include invalid schemas) and for
//! each with a top-level keyword given a value of the wrong kind; and the
//! embedded-resource rules checked case by case.

mod common;

use std::collections::BTreeSet;

use jsonschema::ValidationError;
use serde_json::{json, Value};
use toolresult::IssueCode;
use toolresult_schema::{compile, Dialect, SchemaOptions};

/// Every object in `value`, itself included.
fn objects<'a>(value: &'a Value, out: &mut Vec<&'a Value>) {
    match value {
        Value::Object(map) => {
            out.push(value);
            map.values().for_each(|v| objects(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| objects(v, out)),
        _ => {}
    }
}

fn has_schema_keyword(value: &Value) -> bool {
    match value {
        Value::Object(map) => map
            .iter()
            .any(|(k, v)| k == "$schema" || has_schema_keyword(v)),
        Value::Array(items) => items.iter().any(has_schema_keyword),
        _ => false,
    }
}

/// Schemas to check: the suite's objects without `$schema` anywhere (a
/// nested one is the embedded-resource case, tested below), and each with
/// every top-level keyword replaced by values of the wrong kind.
fn candidates() -> Vec<Value> {
    let files = common::suite_files("");
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for file in files {
        let groups: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let mut found = Vec::new();
        objects(&groups, &mut found);
        for object in found {
            if has_schema_keyword(object) {
                continue;
            }
            let mut variants = vec![object.clone()];
            for key in object.as_object().unwrap().keys() {
                for wrong in [
                    json!(-1),
                    json!("x"),
                    json!([{ "type": 12 }]),
                    json!({ "type": 12 }),
                ] {
                    let mut variant = object.clone();
                    variant[key] = wrong;
                    variants.push(variant);
                }
            }
            for variant in variants {
                if seen.insert(variant.to_string()) {
                    out.push(variant);
                }
            }
        }
    }
    out
}

fn options(dialect: Dialect) -> SchemaOptions {
    let mut options = SchemaOptions::default();
    options.default_dialect = dialect;
    options
}

#[test]
fn the_tape_check_reports_what_the_engine_reported() {
    let candidates = candidates();
    let mut invalid = 0;
    for (dialect, engine) in [
        (
            Dialect::Draft202012,
            jsonschema::draft202012::meta::validate
                as fn(&Value) -> Result<(), ValidationError<'_>>,
        ),
        (
            Dialect::Draft201909,
            jsonschema::draft201909::meta::validate,
        ),
        (Dialect::Draft7, jsonschema::draft7::meta::validate),
    ] {
        let options = options(dialect);
        for schema in &candidates {
            // The engine skipped `{}` and so does the tape check.
            let Err(expected) = engine(schema) else {
                continue;
            };
            invalid += 1;
            let issues = compile(schema, &options).expect_err(&format!("{dialect:?} {schema}"));
            let issues: Vec<_> = issues.0.iter().collect();
            assert_eq!(issues.len(), 1, "{dialect:?} {schema}");
            assert_eq!(
                issues[0].code,
                IssueCode::InvalidSchema,
                "{dialect:?} {schema}"
            );
            assert_eq!(
                issues[0].path,
                expected.instance_path().as_str(),
                "{dialect:?} {schema}"
            );
            assert_eq!(
                issues[0].message,
                format!("invalid schema: {expected}"),
                "{dialect:?} {schema}"
            );
        }
    }
    assert!(invalid > 10_000, "only {invalid} invalid schemas compared");
}

#[test]
fn draft_4_and_6_resources_are_checked_as_the_engine_checked_them() {
    // Not dialects of this crate, but a resource embedded in a schema may
    // declare them: the same check, its path below the resource's.
    let candidates = candidates();
    let mut invalid = 0;
    for (uri, id, engine) in [
        (
            "http://json-schema.org/draft-04/schema#",
            "id",
            jsonschema::draft4::meta::validate as fn(&Value) -> Result<(), ValidationError<'_>>,
        ),
        (
            "http://json-schema.org/draft-06/schema#",
            "$id",
            jsonschema::draft6::meta::validate,
        ),
    ] {
        for candidate in &candidates {
            let mut resource = candidate.clone();
            resource["$schema"] = json!(uri);
            resource[id] = json!("https://example.com/resource");
            let Err(expected) = engine(&resource) else {
                continue;
            };
            invalid += 1;
            let schema = json!({ "$defs": { "r": resource } });
            let issues =
                compile(&schema, &SchemaOptions::default()).expect_err(&schema.to_string());
            let issues: Vec<_> = issues.0.iter().collect();
            assert_eq!(issues.len(), 1, "{schema}");
            assert_eq!(issues[0].code, IssueCode::InvalidSchema, "{schema}");
            assert_eq!(
                issues[0].path,
                format!("/$defs/r{}", expected.instance_path().as_str()),
                "{schema}"
            );
            assert_eq!(
                issues[0].message,
                format!("invalid schema: {expected}"),
                "{schema}"
            );
        }
    }
    assert!(invalid > 5_000, "only {invalid} invalid resources compared");
}

fn issue(schema: &Value) -> (String, IssueCode, String) {
    let issues = compile(schema, &SchemaOptions::default()).expect_err(&schema.to_string());
    let first = issues.0.first().unwrap();
    (first.path.clone(), first.code, first.message.clone())
}

#[test]
fn an_embedded_resource_is_checked_against_its_own_dialect() {
    // Valid under draft 7 (`items` as an array), invalid under 2020-12:
    // checked against draft 7 and seen as `{}` by the enclosing 2020-12.
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "old": {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "$id": "https://example.com/old",
                "items": [{ "type": "string" }],
                "definitions": { "x": { "type": "integer" } }
            }
        },
        "$ref": "https://example.com/old"
    });
    assert!(compile(&schema, &SchemaOptions::default()).is_ok());

    // Invalid under its own draft: the path runs from the root of the
    // document, through the escaped key, into the resource.
    let schema = json!({
        "$defs": {
            "a/b~c": {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "$id": "https://example.com/old",
                "properties": { "n": { "minLength": -1 } }
            }
        }
    });
    let (path, code, message) = issue(&schema);
    assert_eq!(path, "/$defs/a~1b~0c/properties/n/minLength");
    assert_eq!(code, IssueCode::InvalidSchema);
    let expected = jsonschema::draft7::meta::validate(&schema["$defs"]["a/b~c"]).unwrap_err();
    assert_eq!(message, format!("invalid schema: {expected}"));

    // Nested twice, each with its own dialect.
    let schema = json!({
        "$defs": {
            "seven": {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "$id": "https://example.com/seven",
                "definitions": {
                    "new": {
                        "$schema": "https://json-schema.org/draft/2020-12/schema",
                        "$id": "https://example.com/new",
                        "prefixItems": [{ "type": 7 }]
                    }
                }
            }
        }
    });
    let (path, code, _) = issue(&schema);
    assert_eq!(path, "/$defs/seven/definitions/new/prefixItems/0/type");
    assert_eq!(code, IssueCode::InvalidSchema);

    // Without an identifier a subschema is no resource: its `$schema` does
    // not apply and the enclosing meta-schema checks it (2020-12 `items` is
    // a schema, not an array).
    let schema = json!({
        "$defs": {
            "old": {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "items": [{ "type": "string" }]
            }
        }
    });
    let (path, code, _) = issue(&schema);
    assert_eq!(path, "/$defs/old/items");
    assert_eq!(code, IssueCode::InvalidSchema);

    // An error in the enclosing resource is found with the embedded one
    // present.
    let schema = json!({
        "minimum": "zero",
        "$defs": {
            "old": {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "$id": "https://example.com/old"
            }
        }
    });
    assert_eq!(issue(&schema).0, "/minimum");
}

#[test]
fn a_custom_meta_schema_is_checked_against_2020_12() {
    let mut options = SchemaOptions::default();
    options.documents.insert(
        "https://example.com/meta".into(),
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://example.com/meta",
            "$vocabulary": {
                "https://json-schema.org/draft/2020-12/vocab/core": true,
                "https://json-schema.org/draft/2020-12/vocab/validation": true
            },
            "$dynamicAnchor": "meta"
        }),
    );
    let good = json!({ "$schema": "https://example.com/meta", "maxLength": 2 });
    let compiled = compile(&good, &options).unwrap();
    assert!(compiled.is_valid(&json!("ab")));
    assert!(!compiled.is_valid(&json!("abc")));

    let bad = json!({ "$schema": "https://example.com/meta", "maxLength": -2 });
    let issues = compile(&bad, &options).unwrap_err();
    let first = issues.0.first().unwrap();
    assert_eq!(first.path, "/maxLength");
    assert_eq!(first.code, IssueCode::InvalidSchema);
}

#[test]
fn every_bundled_meta_schema_compiles_on_the_tape_and_accepts_itself() {
    // Each draft's meta-schema is a schema of that draft; compiling it runs
    // the tape check with that draft's meta-schema validator.
    for meta in [
        &*referencing::meta::DRAFT4,
        &*referencing::meta::DRAFT6,
        &*referencing::meta::DRAFT7,
        &*referencing::meta::DRAFT201909,
        &*referencing::meta::DRAFT202012,
    ] {
        let mut schema = (**meta).clone();
        // Draft 4 and 6 are not dialects of this crate: their meta-schemas
        // are reached as embedded resources.
        if matches!(
            schema["$schema"].as_str(),
            Some(
                "http://json-schema.org/draft-04/schema#"
                    | "http://json-schema.org/draft-06/schema#"
            )
        ) {
            schema = json!({ "$defs": { "old": schema } });
        }
        compile(&schema, &SchemaOptions::default()).unwrap_or_else(|e| panic!("{e:?}"));
    }
    // Draft 4 and 6 resources are checked against their own meta-schemas.
    let schema = json!({
        "$defs": {
            "four": {
                "$schema": "http://json-schema.org/draft-04/schema#",
                "id": "https://example.com/four",
                "exclusiveMinimum": 3
            }
        }
    });
    assert_eq!(issue(&schema).0, "/$defs/four/exclusiveMinimum");
}
