//! Writes the JSON Schemas (2020-12) of the wire types, generated from the Rust
//! types, and the table of issue codes (docs/reference/issue-codes.md):
//! `toolresult-codegen <out-dir>`.

use std::path::PathBuf;

use schemars::generate::SchemaSettings;
use schemars::Schema;
use serde_json::Value;
use toolresult::interop::{Change, SourceShape};
use toolresult::json::SourceLocation;
use toolresult::ToolResultReference;
use toolresult::{
    AgentResult, Issue, IssueCode, IssueLevel, SchemaIssue, StatusInfo, ToolDefinition, ToolResult,
    ValidationOptions,
};
use toolresult::{
    Eviction, HistoryBounds, HistoryQuery, PutReport, RetentionPolicy, StoreEntry, StoreMetrics,
    StoredMeta,
};
use toolresult_schema::{RegistryStats, SchemaOptions, ValidationReport};
use toolresult_screen::document::{
    ArtifactInput, DocumentCheck, DocumentIssue, DocumentIssueCode, DocumentProvenance,
    ParsedDocument, ProvidedFile, RenderedDocument,
};
use toolresult_screen::{AllowRule, ScreenOptions, ScreenReport};

const BASE_ID: &str = "https://toolresult.dev/schemas/";

fn schema_for<T: schemars::JsonSchema>(file: &str) -> Value {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let schema: Schema = generator.into_root_schema_for::<T>();
    let mut value = schema.to_value();
    tidy(&mut value);
    // `$schema` and `$id` first, then what schemars produced.
    let mut out = serde_json::Map::new();
    out.insert(
        "$schema".into(),
        "https://json-schema.org/draft/2020-12/schema".into(),
    );
    out.insert("$id".into(), format!("{BASE_ID}{file}").into());
    if let Value::Object(map) = value {
        for (k, v) in map {
            if k != "$schema" {
                out.insert(k, v);
            }
        }
    }
    Value::Object(out)
}

/// Removes schemars' numeric `format` hints (uint64, double, ...), which are not
/// JSON Schema formats and make strict validators complain.
fn tidy(v: &mut Value) {
    match v {
        Value::Object(map) => {
            let numeric = matches!(
                map.get("format").and_then(Value::as_str),
                Some("uint64" | "uint32" | "uint8" | "int64" | "double" | "float" | "uint")
            );
            if numeric {
                map.remove("format");
            }
            string_enum(map);
            map.values_mut().for_each(tidy);
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// A `oneOf` of documented string constants (what schemars writes for an enum
/// whose variants have doc comments) becomes a plain string `enum`, with each
/// variant's doc appended to the description: the TypeScript generator then
/// names the union type (`AgentStatus`) instead of inlining it, and the schema
/// reads as it did before the variants were documented.
fn string_enum(map: &mut serde_json::Map<String, Value>) {
    let Some(Value::Array(variants)) = map.get("oneOf") else {
        return;
    };
    let mut names = Vec::new();
    let mut docs = Vec::new();
    for variant in variants {
        let Value::Object(v) = variant else { return };
        let Some(Value::String(name)) = v.get("const") else {
            return;
        };
        if v.keys()
            .any(|k| !matches!(k.as_str(), "type" | "const" | "description"))
        {
            return;
        }
        if let Some(Value::String(doc)) = v.get("description") {
            docs.push(format!("- `{name}`: {doc}"));
        }
        names.push(Value::String(name.clone()));
    }
    map.remove("oneOf");
    map.insert("type".into(), Value::String("string".into()));
    map.insert("enum".into(), Value::Array(names));
    if !docs.is_empty() {
        let head = map
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let text = if head.is_empty() {
            docs.join("\n")
        } else {
            format!("{head}\n\n{}", docs.join("\n"))
        };
        map.insert("description".into(), Value::String(text));
    }
}

/// The non-wire types the TypeScript API exposes (options, issues, status
/// info), as `$defs` of one schema; scripts/generate.mjs turns them into TS.
fn api_types() -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    generator.subschema_for::<ValidationOptions>();
    generator.subschema_for::<Issue>();
    generator.subschema_for::<IssueCode>();
    generator.subschema_for::<IssueLevel>();
    generator.subschema_for::<StatusInfo>();
    generator.subschema_for::<SchemaOptions>();
    generator.subschema_for::<SchemaIssue>();
    generator.subschema_for::<ValidationReport>();
    generator.subschema_for::<RegistryStats>();
    generator.subschema_for::<ToolDefinition>();
    generator.subschema_for::<ToolResultReference>();
    generator.subschema_for::<RetentionPolicy>();
    generator.subschema_for::<HistoryQuery>();
    generator.subschema_for::<StoredMeta>();
    generator.subschema_for::<PutReport>();
    generator.subschema_for::<Eviction>();
    generator.subschema_for::<StoreMetrics>();
    generator.subschema_for::<StoreEntry>();
    generator.subschema_for::<HistoryBounds>();
    generator.subschema_for::<SourceLocation>();
    generator.subschema_for::<Change>();
    generator.subschema_for::<SourceShape>();
    generator.subschema_for::<ScreenOptions>();
    generator.subschema_for::<AllowRule>();
    generator.subschema_for::<ScreenReport>();
    generator.subschema_for::<DocumentIssue>();
    generator.subschema_for::<DocumentIssueCode>();
    generator.subschema_for::<ParsedDocument>();
    generator.subschema_for::<DocumentCheck>();
    generator.subschema_for::<RenderedDocument>();
    generator.subschema_for::<DocumentProvenance>();
    generator.subschema_for::<ArtifactInput>();
    generator.subschema_for::<ProvidedFile>();
    let mut defs = Value::Object(generator.take_definitions(true));
    tidy(&mut defs);
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "ApiTypes",
        "$defs": defs,
    })
}

/// The documented limits (`toolresult::limits`), for the TypeScript layer's
/// `generated/limits.ts`: one definition, in Rust.
fn limits() -> Value {
    use toolresult::limits as l;
    serde_json::json!({
        "defaultMaxBytes": l::DEFAULT_MAX_BYTES,
        "defaultMaxDepth": l::DEFAULT_MAX_DEPTH,
        "maxDepthCeiling": l::MAX_DEPTH_CEILING,
        "defaultMaxIssues": l::DEFAULT_MAX_ISSUES,
        "defaultDurationToleranceMs": l::DEFAULT_DURATION_TOLERANCE_MS,
        "maxSafeInteger": l::MAX_SAFE_INTEGER,
        "defaultMaxOutputBytes": l::DEFAULT_MAX_OUTPUT_BYTES,
        "defaultMaxLines": l::DEFAULT_MAX_LINES,
        "minJsonLimit": l::MIN_JSON_LIMIT,
        "defaultPreviewChars": l::DEFAULT_PREVIEW_CHARS,
        "messageQuoteChars": l::MESSAGE_QUOTE_CHARS,
    })
}

/// Each variant of a unit enum whose variants have doc comments: its wire name
/// and its doc comment, as schemars reads them (a `oneOf` of string constants).
fn variant_docs<T: schemars::JsonSchema>() -> Vec<(String, String)> {
    let schema = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    let Some(Value::Array(variants)) = schema.get("oneOf") else {
        panic!(
            "{}: expected a oneOf of documented string constants",
            T::schema_name()
        );
    };
    variants
        .iter()
        .map(|v| {
            let name = v.get("const").and_then(Value::as_str);
            let doc = v.get("description").and_then(Value::as_str);
            match (name, doc) {
                (Some(name), Some(doc)) => (name.to_owned(), doc.to_owned()),
                _ => panic!(
                    "{}: a variant without a name or a doc comment: {v}",
                    T::schema_name()
                ),
            }
        })
        .collect()
}

/// A doc comment as one line of a Markdown table cell.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// docs/reference/issue-codes.md: every `IssueCode` (the `issue_codes!` table
/// of crates/toolresult/src/issue.rs) under its level, with the doc comment of
/// the variant, then the result document's codes (`DocumentIssueCode`).
fn issue_codes_md() -> String {
    use std::fmt::Write;
    let mut md = String::from(
        "<!-- Generated by scripts/generate.mjs (toolresult-codegen) from the Rust source. Do not edit. -->\n\n\
         # Issue codes\n\n\
         Every `code` an issue can carry (`Issue` in TypeScript and Rust) by its level, with what it\n\
         means: the `issue_codes!` table of `crates/toolresult/src/issue.rs`, which `issueCodes()`\n\
         and `IssueCode::ALL` list too. How issues are reported is in\n\
         [the specification, §15](../spec.md#15-issues). JSON Schema validation (`compileSchema`,\n\
         `ToolRegistry`) reports `SchemaIssue`s, whose codes are the failing keyword in snake_case.\n",
    );
    for (level, meaning) in variant_docs::<IssueLevel>() {
        let _ = write!(
            md,
            "\n## `{level}`\n\n{}\n\n| code | meaning |\n|---|---|\n",
            cell(&meaning)
        );
        for code in IssueCode::ALL {
            let code_level = serde_json::to_value(code.level()).expect("a level serializes");
            if code_level.as_str() == Some(level.as_str()) {
                let _ = writeln!(md, "| `{}` | {} |", code.as_str(), cell(code.description()));
            }
        }
    }
    md.push_str(
        "\n## Result document codes\n\n\
         The checks of the result document (`parseResultDocument`, `checkResultDocument`;\n\
         [the result document](../document.md)) report `DocumentIssue`s with these codes.\n\n\
         | code | meaning |\n|---|---|\n",
    );
    let documented = variant_docs::<DocumentIssueCode>();
    assert_eq!(documented.len(), DocumentIssueCode::ALL.len());
    for (code, doc) in documented {
        let _ = writeln!(md, "| `{code}` | {} |", cell(&doc));
    }
    md
}

fn main() {
    let out: PathBuf = std::env::args_os().nth(1).map_or_else(
        || {
            eprintln!("usage: toolresult-codegen <out-dir>");
            std::process::exit(2);
        },
        PathBuf::from,
    );
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("cannot create {}: {e}", out.display());
        std::process::exit(2);
    }
    for (file, schema) in [
        (
            "agent-result.v1.json",
            schema_for::<AgentResult>("agent-result.v1.json"),
        ),
        (
            "tool-result.v1.json",
            schema_for::<ToolResult>("tool-result.v1.json"),
        ),
        ("api-types.json", api_types()),
        ("limits.json", limits()),
    ] {
        let text = serde_json::to_string_pretty(&schema).expect("schemas serialize") + "\n";
        write(&out.join(file), &text);
    }
    write(&out.join("issue-codes.md"), &issue_codes_md());
}

fn write(path: &std::path::Path, text: &str) {
    if let Err(e) = std::fs::write(path, text) {
        eprintln!("cannot write {}: {e}", path.display());
        std::process::exit(2);
    }
}
