//! The registry and compile paths natively (the npm package runs the same
//! behaviour through wasm in tests/node/schema.test.mjs).

use serde_json::json;
use toolresult::{IssueCode, ToolResult, ToolStatus};
use toolresult_schema::{compile, Dialect, SchemaOptions, ToolRegistry};

#[allow(clippy::needless_pass_by_value)] // called with json!(…) literals
fn result(output: serde_json::Value) -> ToolResult {
    serde_json::from_value(json!({
        "input": {"tool_name": "add", "parameters": {"a": 1}},
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
}

#[test]
fn compile_errors_are_issues_with_paths() {
    let opts = SchemaOptions::default();
    let e = compile(&json!({"properties": {"a": {"type": 5}}}), &opts).unwrap_err();
    assert_eq!(e.0[0].code, IssueCode::InvalidSchema);
    assert_eq!(e.0[0].path, "/properties/a/type");
    let e = compile(&json!({"$schema": "https://example.com/s"}), &opts).unwrap_err();
    assert_eq!(e.0[0].code, IssueCode::UnknownDialect);
    let e = compile(&json!({"$ref": "https://example.com/s.json"}), &opts).unwrap_err();
    assert_eq!(e.0[0].code, IssueCode::UnresolvableRef);
    assert!(e.0[0].message.contains("https://example.com/s.json"));
    let e = compile(&json!([1]), &opts).unwrap_err();
    assert_eq!(e.0[0].code, IssueCode::InvalidSchema);
}

#[test]
fn documents_and_dialects() {
    let mut opts = SchemaOptions::default();
    opts.documents.insert(
        "https://example.com/n.json".into(),
        json!({"type": "integer"}),
    );
    let s = compile(
        &json!({"items": {"$ref": "https://example.com/n.json"}}),
        &opts,
    )
    .unwrap();
    assert!(s.is_valid(&json!([1, 2])));
    let issues = s.validate(&json!([1, "x"]));
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].path, "/1");
    assert_eq!(issues[0].code, "type");

    opts.default_dialect = Dialect::Draft7;
    let tuple = compile(
        &json!({"items": [{"type": "string"}], "additionalItems": false}),
        &opts,
    )
    .unwrap();
    assert!(!tuple.is_valid(&json!(["a", "b"])));
    assert_eq!(
        Dialect::from_uri("http://json-schema.org/draft-07/schema#"),
        Some(Dialect::Draft7)
    );
    assert_eq!(
        Dialect::from_uri("https://json-schema.org/draft/2019-09/schema"),
        Some(Dialect::Draft201909)
    );
    assert_eq!(
        Dialect::from_uri("https://json-schema.org/draft-04/schema"),
        None
    );
}

#[test]
fn options_are_checked() {
    assert!(SchemaOptions::from_json("").is_ok());
    let e = SchemaOptions::from_json(r#"{"maxIssues": 0}"#).unwrap_err();
    assert_eq!(e.0[0].code, IssueCode::InvalidOptions);
    let e = SchemaOptions::from_json(r#"{"formats": "sometimes"}"#).unwrap_err();
    assert!(e.0[0].message.contains("sometimes"), "{}", e.0[0].message);
}

#[test]
fn registry_caches_by_content_and_checks_results() {
    let mut r = ToolRegistry::new(SchemaOptions::default());
    let def = json!({
        "name": "add",
        "inputSchema": {"type": "object", "required": ["a"]},
        "outputSchema": {"type": "object", "required": ["sum"]}
    });
    r.register_value(def.clone()).unwrap();
    r.register_value(def).unwrap();
    let stats = r.stats();
    assert_eq!(
        (stats.tools, stats.schemas, stats.compiles, stats.cache_hits),
        (1, 2, 2, 2)
    );

    let ok = result(json!({"sum": 2}));
    assert_eq!(r.check_result(ok.clone()).unwrap(), ok);

    let checked = r.check_result(result(json!({"total": 2}))).unwrap();
    assert_eq!(checked.status, ToolStatus::OutputValidationFailed);
    assert_eq!(
        checked.error_code.as_deref(),
        Some("OUTPUT_VALIDATION_FAILED")
    );
    assert_eq!(checked.output, Some(json!({"total": 2})));
    let issues = checked.validation_issues.as_ref().unwrap();
    assert_eq!(issues[0].code, "required");
    // The checked result is still a valid envelope.
    let text = serde_json::to_string(&checked).unwrap();
    assert!(
        toolresult::validate_tool_result(&text, &toolresult::ValidationOptions::default())
            .is_empty()
    );

    let missing = r.check_result(result(serde_json::Value::Null)).unwrap();
    assert_eq!(missing.validation_issues.unwrap()[0].code, "missing_output");

    let mut failed = result(json!({"total": 2}));
    failed.status = ToolStatus::Timeout;
    assert_eq!(r.check_result(failed.clone()).unwrap(), failed);

    assert!(!r.validate_input("add", &json!({})).unwrap().ok);
    let e = r.validate_output("nope", None).unwrap_err();
    assert_eq!(e.0[0].code, IssueCode::UnknownTool);
    let e = r
        .register_value(json!({"name": "x", "output_schema": {"minimum": "a"}}))
        .unwrap_err();
    assert_eq!(e.0[0].path, "/output_schema/minimum");
}

#[test]
fn custom_tool_metadata_is_checked_against_the_metadata_schema() {
    let mut reg = ToolRegistry::new(SchemaOptions::default());
    reg.register_value(json!({
        "name": "add",
        "metadataSchema": {"type": "object", "required": ["key"], "properties": {"key": {"type": "string"}}}
    }))
    .unwrap();
    let with = |data: serde_json::Value| {
        let mut r = result(json!(3));
        r.schema_version = toolresult::ToolResultVersion::V1_1_0;
        r.tool_metadata =
            serde_json::from_value(json!({"tool_type": "custom", "name": "sum", "data": data}))
                .unwrap();
        r
    };
    let ok = reg.check_result(with(json!({"key": "AB-1"}))).unwrap();
    assert_eq!(ok.status, ToolStatus::Success);
    // The JSON form (what the wasm layer uses) makes exactly the same result.
    let as_json = reg
        .check_result_value(serde_json::to_value(with(json!({"key": 7}))).unwrap())
        .unwrap();
    let bad = reg.check_result(with(json!({"key": 7}))).unwrap();
    assert_eq!(as_json, serde_json::to_value(&bad).unwrap());
    assert_eq!(
        as_json["validation_issues"][0]["path"],
        "/tool_metadata/data/key"
    );
    assert_eq!(bad.status, ToolStatus::OutputValidationFailed);
    let issues = bad.validation_issues.unwrap();
    assert_eq!(issues[0].path, "/tool_metadata/data/key");
    assert!(bad
        .error_message
        .unwrap()
        .contains("/tool_metadata/data/key"));
    assert!(
        reg.validate_metadata("add", &json!({}))
            .unwrap()
            .issues
            .len()
            == 1
    );
    let e = reg
        .register_value(json!({"name": "x", "metadata_schema": {"type": 5}}))
        .unwrap_err();
    assert!(e.0[0].path.starts_with("/metadata_schema"));
}
