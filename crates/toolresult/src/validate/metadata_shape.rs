//! The shape tables of `tool_metadata` (the types in `tool_metadata.rs`):
//! what each `tool_type` holds. A test (`tests/tool_metadata.rs`) checks
//! these against the JSON Schema generated from the Rust types, so the two
//! cannot drift apart.

use crate::validate::shape::{field, Presence, Rule, Shape, Tagged};
use Presence::{Defaulted, Optional, Required};

const TAG: crate::validate::shape::Field = field("tool_type", Rule::NonEmpty, Required);
const LANGUAGE: crate::validate::shape::Field = field("language", Rule::Str, Optional);

static FILE_READ: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("file_path", Rule::Str, Required),
        field("offset", Rule::Count(u64::MAX), Required),
        field("lines", Rule::ArrayOf(&Rule::Str), Required),
        LANGUAGE,
        field("total_lines", Rule::Count(u64::MAX), Optional),
        field("truncated", Rule::Bool, Defaulted),
    ],
};

static FILE_WRITE: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("file_path", Rule::Str, Required),
        field("content", Rule::Str, Required),
        field("size", Rule::Count(u64::MAX), Required),
        LANGUAGE,
    ],
};

static DIFF_LINE: Shape = Shape {
    open: false,
    fields: &[
        field(
            "type",
            Rule::Enum(&["context", "added", "removed"]),
            Required,
        ),
        field("content", Rule::Str, Required),
        field("old_line", Rule::Count(u64::MAX), Optional),
        field("new_line", Rule::Count(u64::MAX), Optional),
    ],
};

static DIFF_HUNK: Shape = Shape {
    open: false,
    fields: &[
        field("old_start", Rule::Count(u64::MAX), Required),
        field("old_count", Rule::Count(u64::MAX), Required),
        field("new_start", Rule::Count(u64::MAX), Required),
        field("new_count", Rule::Count(u64::MAX), Required),
        field("lines", Rule::ArrayOf(&Rule::Struct(&DIFF_LINE)), Required),
    ],
};

static HUNK_RULE: Rule = Rule::Struct(&DIFF_HUNK);
const HUNKS: crate::validate::shape::Field =
    field("diff_hunks", Rule::ArrayOf(&HUNK_RULE), Required);

static FILE_EDIT: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("file_path", Rule::Str, Required),
        field("start_line", Rule::Count(u64::MAX), Optional),
        field("end_line", Rule::Count(u64::MAX), Optional),
        field("old_content", Rule::Str, Optional),
        field("new_content", Rule::Str, Optional),
        HUNKS,
        LANGUAGE,
    ],
};

static FILE_MULTI_EDIT: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("file_path", Rule::Str, Required),
        field("edit_count", Rule::Count(u64::MAX), Required),
        HUNKS,
        LANGUAGE,
    ],
};

static CONTEXT_LINE: Shape = Shape {
    open: false,
    fields: &[
        field("line_number", Rule::Count(u64::MAX), Required),
        field("content", Rule::Str, Required),
    ],
};

static SEARCH_MATCH: Shape = Shape {
    open: false,
    fields: &[
        field("line_number", Rule::Count(u64::MAX), Required),
        field("content", Rule::Str, Required),
        field("match_start", Rule::Count(u64::MAX), Required),
        field("match_end", Rule::Count(u64::MAX), Required),
        field(
            "context",
            Rule::ArrayOf(&Rule::Struct(&CONTEXT_LINE)),
            Optional,
        ),
    ],
};

static SEARCH_RESULT: Shape = Shape {
    open: false,
    fields: &[
        field("file_path", Rule::Str, Required),
        LANGUAGE,
        field(
            "matches",
            Rule::ArrayOf(&Rule::Struct(&SEARCH_MATCH)),
            Required,
        ),
    ],
};

static GREP: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("pattern", Rule::Str, Required),
        field("path", Rule::Str, Optional),
        field("include", Rule::Str, Optional),
        field(
            "results",
            Rule::ArrayOf(&Rule::Struct(&SEARCH_RESULT)),
            Required,
        ),
        field("truncated", Rule::Bool, Defaulted),
        field("truncated_reason", Rule::Str, Optional),
    ],
};

static FILE_INFO: Shape = Shape {
    open: false,
    fields: &[
        field("path", Rule::Str, Required),
        field("type", Rule::Enum(&["file", "directory"]), Required),
        field("size", Rule::Count(u64::MAX), Optional),
        field("mod_time", Rule::Timestamp, Optional),
        LANGUAGE,
    ],
};

static GLOB: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("pattern", Rule::Str, Required),
        field("path", Rule::Str, Optional),
        field("files", Rule::ArrayOf(&Rule::Struct(&FILE_INFO)), Required),
        field("truncated", Rule::Bool, Defaulted),
    ],
};

static BASH: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("command", Rule::Str, Required),
        field("exit_code", Rule::Int, Optional),
        field("output", Rule::Str, Optional),
        field("stdout", Rule::Str, Optional),
        field("stderr", Rule::Str, Optional),
        field("working_dir", Rule::Str, Optional),
        field("duration_ms", Rule::NonNegative, Optional),
        field("timed_out", Rule::Bool, Defaulted),
    ],
};

static BACKGROUND_BASH: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("command", Rule::Str, Required),
        field("pid", Rule::Count(u64::MAX), Required),
        field("log_path", Rule::Str, Optional),
        field("status", Rule::Enum(&["running", "stopped"]), Required),
        field("start_time", Rule::Timestamp, Required),
    ],
};

static WEB_FETCH: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("url", Rule::Str, Required),
        field("content_type", Rule::Str, Optional),
        field("size", Rule::Count(u64::MAX), Optional),
        field("saved_path", Rule::Str, Optional),
        field("prompt", Rule::Str, Optional),
        field(
            "processed_type",
            Rule::Enum(&["saved", "markdown", "ai_extracted"]),
            Required,
        ),
    ],
};

static IMAGE_DIMENSIONS: Shape = Shape {
    open: false,
    fields: &[
        field("width", Rule::Count(u64::MAX), Required),
        field("height", Rule::Count(u64::MAX), Required),
    ],
};

static IMAGE_RECOGNITION: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("image_path", Rule::Str, Required),
        field("image_type", Rule::Enum(&["local", "remote"]), Required),
        field("prompt", Rule::Str, Required),
        field("analysis", Rule::Str, Required),
        field("image_size", Rule::Struct(&IMAGE_DIMENSIONS), Optional),
    ],
};

static THINKING: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("thought", Rule::Str, Required),
        field("category", Rule::Str, Optional),
    ],
};

static TODO_ITEM: Shape = Shape {
    open: false,
    fields: &[
        field("id", Rule::Str, Required),
        field("content", Rule::Str, Required),
        field(
            "status",
            Rule::Enum(&["pending", "in_progress", "completed"]),
            Required,
        ),
        field("priority", Rule::Enum(&["high", "medium", "low"]), Optional),
        field("created_at", Rule::Timestamp, Optional),
        field("updated_at", Rule::Timestamp, Optional),
    ],
};

static TODO_STATS: Shape = Shape {
    open: false,
    fields: &[
        field("total", Rule::Count(u64::MAX), Required),
        field("completed", Rule::Count(u64::MAX), Required),
        field("in_progress", Rule::Count(u64::MAX), Required),
        field("pending", Rule::Count(u64::MAX), Required),
    ],
};

static TODO: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("action", Rule::Enum(&["read", "write"]), Required),
        field(
            "todo_list",
            Rule::ArrayOf(&Rule::Struct(&TODO_ITEM)),
            Required,
        ),
        field("statistics", Rule::Struct(&TODO_STATS), Required),
    ],
};

static SUBAGENT: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("question", Rule::Str, Required),
        field("model_strength", Rule::Str, Optional),
        field("response", Rule::Str, Required),
    ],
};

static BATCH: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("description", Rule::Str, Optional),
        field(
            "sub_results",
            Rule::ArrayOf(&Rule::NestedToolResult),
            Required,
        ),
        field("duration_ms", Rule::NonNegative, Optional),
        field("success_count", Rule::Count(u64::MAX), Required),
        field("failure_count", Rule::Count(u64::MAX), Required),
    ],
};

static BROWSER_NAVIGATE: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("url", Rule::Str, Required),
        field("final_url", Rule::Str, Optional),
        field("title", Rule::Str, Optional),
        field("load_time_ms", Rule::NonNegative, Optional),
    ],
};

static BROWSER_SCREENSHOT: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("output_path", Rule::Str, Required),
        field("width", Rule::Count(u64::MAX), Required),
        field("height", Rule::Count(u64::MAX), Required),
        field("format", Rule::Str, Required),
        field("full_page", Rule::Bool, Defaulted),
        field("file_size", Rule::Count(u64::MAX), Optional),
    ],
};

static MCP: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("mcp_tool_name", Rule::Str, Required),
        field("server_name", Rule::Str, Optional),
        field("parameters", Rule::AnyObject, Optional),
        field(
            "content",
            Rule::ArrayOf(&Rule::Struct(&crate::validate::shape::CONTENT_BLOCK)),
            Required,
        ),
        field("duration_ms", Rule::NonNegative, Optional),
    ],
};

static CUSTOM: Shape = Shape {
    open: false,
    fields: &[
        TAG,
        field("name", Rule::NonEmpty, Required),
        field("data", Rule::Any, Required),
    ],
};

/// `tool_metadata`: its `tool_type` picks the shape.
pub(crate) static TOOL_METADATA: Tagged = Tagged {
    tag: "tool_type",
    variants: &[
        ("file_read", &FILE_READ),
        ("file_write", &FILE_WRITE),
        ("file_edit", &FILE_EDIT),
        ("file_multi_edit", &FILE_MULTI_EDIT),
        ("grep", &GREP),
        ("glob", &GLOB),
        ("bash", &BASH),
        ("background_bash", &BACKGROUND_BASH),
        ("web_fetch", &WEB_FETCH),
        ("image_recognition", &IMAGE_RECOGNITION),
        ("thinking", &THINKING),
        ("todo", &TODO),
        ("subagent", &SUBAGENT),
        ("batch", &BATCH),
        ("browser_navigate", &BROWSER_NAVIGATE),
        ("browser_screenshot", &BROWSER_SCREENSHOT),
        ("mcp", &MCP),
        ("custom", &CUSTOM),
    ],
};

#[cfg(all(test, feature = "std"))]
mod tests {
    //! The shape tables against the JSON Schema generated from the Rust
    //! types (bindings/typescript/schemas, kept fresh by `npm run generate
    //! -- --check`): the same fields, the same required ones, all the way
    //! down. A field added to a type but not to its table fails here.
    extern crate std;
    use super::*;
    use crate::validate::envelope_shape::{AGENT_RESULT, TOOL_RESULT};
    use crate::validate::shape::{Presence, Rule, Shape};
    use alloc::collections::BTreeSet;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;
    use serde_json::Value;

    fn resolve<'a>(root: &'a Value, mut s: &'a Value) -> &'a Value {
        loop {
            if let Some(r) = s.get("$ref").and_then(Value::as_str) {
                s = match r.strip_prefix("#/$defs/") {
                    Some(name) => &root["$defs"][name],
                    None => root,
                };
            } else if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
                // `Option<T>` is `anyOf [T, null]`.
                match any
                    .iter()
                    .find(|a| a.get("type") != Some(&Value::from("null")))
                {
                    Some(t) => s = t,
                    None => return s,
                }
            } else {
                return s;
            }
        }
    }

    fn compare(
        root: &Value,
        shape: &Shape,
        schema: &Value,
        path: &str,
        seen: &mut BTreeSet<String>,
        out: &mut Vec<String>,
    ) {
        if !seen.insert(String::from(path)) || path.len() > 200 {
            return;
        }
        let schema = resolve(root, schema);
        let props: BTreeSet<&str> = schema["properties"]
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        let fields: BTreeSet<&str> = shape.fields.iter().map(|f| f.name).collect();
        if !shape.open && props != fields {
            out.push(format!(
                "{path}: schema has {props:?}, table has {fields:?}"
            ));
        }
        let required: BTreeSet<&str> = schema["required"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let table_required: BTreeSet<&str> = shape
            .fields
            .iter()
            .filter(|f| f.presence == Presence::Required)
            .map(|f| f.name)
            .collect();
        if required != table_required {
            out.push(format!(
                "{path}: schema requires {required:?}, table {table_required:?}"
            ));
        }
        for f in shape.fields {
            let Some(sub) = schema["properties"].get(f.name) else {
                continue;
            };
            compare_rule(root, &f.rule, sub, &format!("{path}/{}", f.name), seen, out);
        }
    }

    fn compare_rule(
        root: &Value,
        rule: &Rule,
        schema: &Value,
        path: &str,
        seen: &mut BTreeSet<String>,
        out: &mut Vec<String>,
    ) {
        let schema = resolve(root, schema);
        match rule {
            Rule::Struct(shape) => compare(root, shape, schema, path, seen, out),
            Rule::ArrayOf(item) => compare_rule(
                root,
                item,
                &schema["items"],
                &format!("{path}/*"),
                seen,
                out,
            ),
            Rule::Tagged(tagged) => {
                let variants = schema["oneOf"].as_array().cloned().unwrap_or_default();
                let names: BTreeSet<&str> = variants
                    .iter()
                    .filter_map(|v| v["properties"][tagged.tag]["const"].as_str())
                    .collect();
                let table: BTreeSet<&str> = tagged.variants.iter().map(|(n, _)| *n).collect();
                if names != table {
                    out.push(format!(
                        "{path}: schema variants {names:?}, table {table:?}"
                    ));
                }
                for (name, shape) in tagged.variants {
                    if let Some(v) = variants
                        .iter()
                        .find(|v| v["properties"][tagged.tag]["const"] == *name)
                    {
                        compare(root, shape, v, &format!("{path}({name})"), seen, out);
                    }
                }
            }
            Rule::NestedToolResult => compare(root, &TOOL_RESULT, root, "", seen, out),
            Rule::Enum(names) => {
                let schema_names: BTreeSet<&str> = schema["enum"]
                    .as_array()
                    .or_else(|| schema["oneOf"].as_array())
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str().or_else(|| v["const"].as_str()))
                            .collect()
                    })
                    .unwrap_or_default();
                let table: BTreeSet<&str> = names.iter().copied().collect();
                if !schema_names.is_empty() && schema_names != table {
                    out.push(format!(
                        "{path}: schema enum {schema_names:?}, table {table:?}"
                    ));
                }
            }
            _ => {}
        }
    }

    #[test]
    fn shape_tables_agree_with_the_generated_schema() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../bindings/typescript/schemas/tool-result.v1.json"
        ))
        .unwrap();
        let root: Value = serde_json::from_str(&text).unwrap();
        let mut out = Vec::new();
        compare(
            &root,
            &TOOL_RESULT,
            &root,
            "",
            &mut BTreeSet::new(),
            &mut out,
        );
        assert!(out.is_empty(), "{}", out.join("\n"));
        // The comparison reached every kind.
        assert_eq!(
            TOOL_METADATA.variants.len(),
            crate::ToolMetadata::TOOL_TYPES.len()
        );
    }

    #[test]
    fn agent_result_table_agrees_with_the_generated_schema() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../bindings/typescript/schemas/agent-result.v1.json"
        ))
        .unwrap();
        let root: Value = serde_json::from_str(&text).unwrap();
        let mut out = Vec::new();
        compare(
            &root,
            &AGENT_RESULT,
            &root,
            "",
            &mut BTreeSet::new(),
            &mut out,
        );
        assert!(out.is_empty(), "{}", out.join("\n"));
    }
}
