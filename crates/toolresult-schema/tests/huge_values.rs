//! Issue #44: the engine's messages quote at most a short excerpt of a value,
//! with its length, however large the value (docs/spec.md §15).

use serde_json::{json, Value};
use toolresult::json::Tape;
use toolresult::quote_json;
use toolresult::{ToolResult, ToolStatus};
use toolresult_schema::{compile, Dialect, SchemaIssue, SchemaOptions, ToolRegistry};

/// A bound every message must keep: the quotes plus the message's own words.
const BOUND: usize = 1_000;
const BIG: usize = 3_000_000;

fn big() -> String {
    "a".repeat(BIG)
}

fn options(dialect: Dialect) -> SchemaOptions {
    let mut o = SchemaOptions::default();
    o.default_dialect = dialect;
    o
}

/// Validates on both representations; every message is short.
fn check(schema: &Value, value: &Value, dialect: Dialect) -> Vec<SchemaIssue> {
    let shown = quote_json(schema);
    let compiled = compile(schema, &options(dialect)).unwrap();
    let issues = compiled.validate(value);
    let on_tape = compiled.validate_tape(&Tape::from_value(value));
    assert_eq!(issues, on_tape);
    assert!(!issues.is_empty(), "{shown}: no issue");
    for issue in &issues {
        assert!(
            issue.message.chars().count() <= BOUND,
            "{shown}: a message of {} chars ({})",
            issue.message.chars().count(),
            issue.keyword
        );
    }
    issues
}

/// [`check`], and some message names a length.
fn check_named(schema: &Value, value: &Value, dialect: Dialect) -> Vec<SchemaIssue> {
    let issues = check(schema, value, dialect);
    assert!(
        issues
            .iter()
            .any(|i| i.message.contains(" chars)") || i.message.contains(" chars of JSON)")),
        "{}: no message names a length: {:?}",
        quote_json(schema),
        issues.iter().map(|i| &i.message).collect::<Vec<_>>()
    );
    issues
}

#[test]
fn a_huge_string_failing_each_keyword_is_quoted_briefly() {
    let s = Value::String(big());
    for schema in [
        json!({ "maxLength": 10 }),
        json!({ "enum": ["x", "y"] }),
        json!({ "pattern": "^b" }),
        json!({ "type": "number" }),
        json!({ "type": ["number", "null"] }),
        json!({ "format": "email" }),
        json!({ "not": { "type": "string" } }),
        json!({ "oneOf": [{ "type": "number" }, { "type": "null" }] }),
        json!({ "anyOf": [{ "type": "number" }, { "maxLength": 3 }] }),
        json!(false),
    ] {
        let issues = check_named(&schema, &s, Dialect::Draft202012);
        assert!(
            issues
                .iter()
                .any(|i| i.message.contains("(3,000,000 chars)")),
            "{schema}: {:?}",
            issues[0].message
        );
    }
}

#[test]
fn a_huge_const_or_enum_in_the_schema_is_quoted_briefly() {
    check_named(
        &json!({ "const": big() }),
        &json!("x"),
        Dialect::Draft202012,
    );
    check_named(
        &json!({ "enum": [big(), big(), "b", "c"] }),
        &json!("x"),
        Dialect::Draft202012,
    );
    check_named(
        &json!({ "not": { "const": big() } }),
        &Value::String(big()),
        Dialect::Draft202012,
    );
}

#[test]
fn an_any_of_failure_over_a_big_object_is_quoted_briefly() {
    let image = json!({ "type": "image", "mimeType": "image/png", "data": "iVBO".repeat(BIG / 4) });
    let text_block = json!({
        "type": "object",
        "properties": { "type": { "const": "text" }, "text": { "type": "string" } },
        "required": ["type", "text"]
    });
    let small_image = json!({
        "type": "object",
        "properties": { "type": { "const": "image" }, "data": { "maxLength": 1000 } },
        "required": ["type", "data"]
    });
    let schema = json!({ "anyOf": [text_block, small_image] });
    let issues = check_named(&schema, &image, Dialect::Draft202012);
    assert!(issues[0].message.contains("chars of JSON)"), "{issues:?}");
    // Inside an array of content blocks, as tools return them.
    let schema = json!({ "type": "array", "items": { "anyOf": [text_block, small_image] } });
    check_named(&schema, &json!([image]), Dialect::Draft202012);
    let schema = json!({ "type": "array", "items": { "oneOf": [text_block, small_image] } });
    check_named(&schema, &json!([image]), Dialect::Draft202012);
}

#[test]
fn huge_keys_and_long_lists_of_them_are_quoted_briefly() {
    let mut huge_key = serde_json::Map::new();
    huge_key.insert(big(), json!(1));
    let huge_key = Value::Object(huge_key);
    check(
        &json!({ "additionalProperties": false }),
        &huge_key,
        Dialect::Draft202012,
    );
    check_named(
        &json!({ "unevaluatedProperties": false }),
        &huge_key,
        Dialect::Draft202012,
    );
    check_named(
        &json!({ "propertyNames": { "maxLength": 5 } }),
        &huge_key,
        Dialect::Draft202012,
    );
    check_named(
        &json!({ "maxProperties": 0 }),
        &huge_key,
        Dialect::Draft202012,
    );

    // 100,000 unexpected keys: a few are named, then how many more.
    let many: serde_json::Map<String, Value> =
        (0..100_000).map(|i| (format!("k{i}"), json!(i))).collect();
    let many = Value::Object(many);
    // (`additionalProperties: false` is one `false_schema` issue per key.)
    check(
        &json!({ "additionalProperties": false }),
        &many,
        Dialect::Draft202012,
    );
    let issues = check(
        &json!({ "unevaluatedProperties": false }),
        &many,
        Dialect::Draft202012,
    );
    assert!(
        issues[0].message.contains("and 99"),
        "{:?}",
        issues[0].message
    );
}

#[test]
fn huge_items_are_quoted_briefly() {
    let items = json!([1, big(), big()]);
    check_named(
        &json!({ "prefixItems": [{}], "unevaluatedItems": false }),
        &items,
        Dialect::Draft202012,
    );
    check_named(
        &json!({ "items": [{}], "additionalItems": false }),
        &items,
        Dialect::Draft7,
    );
    check_named(
        &json!({ "uniqueItems": true, "items": {} }),
        &json!([big(), big()]),
        Dialect::Draft202012,
    );
    check_named(&json!({ "maxItems": 1 }), &items, Dialect::Draft202012);
    check_named(
        &json!({ "contains": { "type": "null" } }),
        &items,
        Dialect::Draft202012,
    );
    // Many small unexpected items.
    let many = Value::Array((0..100_000).map(|i| json!(i)).collect());
    check(
        &json!({ "prefixItems": [{}], "unevaluatedItems": false }),
        &many,
        Dialect::Draft202012,
    );
    check(
        &json!({ "items": [{}], "additionalItems": false }),
        &many,
        Dialect::Draft7,
    );
}

#[test]
fn a_huge_value_in_a_schema_that_does_not_compile_is_quoted_briefly() {
    let issues = compile(&json!({ "type": big() }), &SchemaOptions::default()).unwrap_err();
    for issue in &issues {
        assert!(
            issue.message.chars().count() <= BOUND,
            "{} chars",
            issue.message.len()
        );
    }
}

#[test]
fn an_output_check_names_a_huge_value_briefly() {
    let mut reg = ToolRegistry::new(SchemaOptions::default());
    reg.register_value(json!({
        "name": "shot",
        "output_schema": {
            "type": "object",
            "properties": { "content": { "type": "array", "items": { "anyOf": [
                { "properties": { "type": { "const": "text" } }, "required": ["text"] },
                { "properties": { "type": { "const": "image" }, "data": { "maxLength": 100 } } }
            ] } } }
        }
    }))
    .unwrap();
    let image = json!({ "type": "image", "mimeType": "image/png", "data": "iVBO".repeat(BIG / 4) });
    let result = |name: &str, output: Value| -> ToolResult {
        serde_json::from_value(json!({
            "input": { "tool_name": name, "parameters": {} },
            "output": output,
            "status": "success",
            "metadata": {
                "execution_id": "0b5e4d3c-2a19-4f7e-9c1d-5a6b7c8d9e0f",
                "started_at": "2026-11-22T10:00:00Z",
                "completed_at": "2026-11-22T10:00:01Z",
                "duration_ms": 1000
            },
            "schema_version": "1.0.0"
        }))
        .unwrap()
    };
    let checked = reg
        .check_result(result(
            "shot",
            json!({ "content": [image, Value::String(big())] }),
        ))
        .unwrap();
    assert_eq!(checked.status, ToolStatus::OutputValidationFailed);
    let message = checked.error_message.unwrap();
    assert!(
        message.chars().count() <= 3 * BOUND,
        "{} chars",
        message.len()
    );
    for issue in checked.validation_issues.unwrap() {
        assert!(
            issue.message.chars().count() <= BOUND,
            "{} chars",
            issue.message.len()
        );
    }
    let report = reg.validate_input("shot", &json!({ "x": big() })).unwrap();
    assert!(report.ok);

    // A 3 MB key: the issue's `path` holds it whole, `error_message` a cut of it.
    reg.register_value(json!({ "name": "strict", "output_schema": { "additionalProperties": { "type": "string" } } }))
        .unwrap();
    let mut output = serde_json::Map::new();
    output.insert(big(), json!(1));
    let checked = reg
        .check_result(result("strict", Value::Object(output)))
        .unwrap();
    let message = checked.error_message.unwrap();
    assert!(message.chars().count() <= BOUND, "{} chars", message.len());
    assert!(message.contains(" chars left out) "), "{message}");
    assert_eq!(checked.validation_issues.unwrap()[0].path.len(), BIG + 1);
}
