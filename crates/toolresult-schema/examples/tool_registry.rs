//! Tool definitions with JSON Schemas: register once, check many outputs.
//! `npm test` runs it (`cargo run -p toolresult-schema --example
//! tool_registry`); every step asserts.

use serde_json::json;
use toolresult_schema::{compile, SchemaOptions, ToolRegistry};

fn main() {
    // A schema compiled once, checked against many values.
    let schema = compile(
        &json!({ "type": "array", "items": { "type": "integer" } }),
        &SchemaOptions::default(),
    )
    .expect("a valid schema compiles");
    assert!(schema.is_valid(&json!([1, 2, 3])));
    assert!(!schema.is_valid(&json!([1, "two"])));

    // A registry of tools; `output_schema` is what the tool promises.
    let mut registry = ToolRegistry::new(SchemaOptions::default());
    registry
        .register_value(json!({
            "name": "count_lines",
            "input_schema": { "type": "object", "properties": { "path": { "type": "string" } }, "required": ["path"] },
            "output_schema": { "type": "object", "properties": { "lines": { "type": "integer", "minimum": 0 } }, "required": ["lines"] }
        }))
        .expect("the definition registers");

    let good = registry
        .validate_output("count_lines", Some(&json!({ "lines": 42 })))
        .expect("known tool");
    assert!(good.ok);
    let bad = registry
        .validate_output("count_lines", Some(&json!({ "lines": -1 })))
        .expect("known tool");
    assert!(!bad.ok);
    for issue in &bad.issues {
        println!(
            "{} at {:?} ({}): {}",
            issue.code, issue.path, issue.schema_path, issue.message
        );
    }
}
