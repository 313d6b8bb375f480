//! The core in one sitting: validate what an agent returned, build a tool
//! result, bound its output, store it, put a reference in the conversation
//! and convert the result for MCP. `npm test` runs it
//! (`cargo run -p toolresult --example quickstart`); every step asserts.

use serde_json::json;
use toolresult::bound::truncate_json_text;
use toolresult::interop::{to_mcp, McpRevision};
use toolresult::json::ParseLimits;
use toolresult::limits::{DEFAULT_MAX_DEPTH, DEFAULT_PREVIEW_CHARS};
use toolresult::{
    create_success, to_reference, validate_agent_result, validate_tool_result, IssueCode,
    ResultStore, RetentionPolicy, Stamp, ValidationOptions,
};

fn main() {
    let options = ValidationOptions::default();

    // 1. An agent's result, as text: every issue, each with a JSON Pointer.
    let issues = validate_agent_result(r#"{"task_id": "t1", "success": "yes"}"#, &options);
    assert!(issues.has(IssueCode::MissingField));
    for issue in issues.iter().take(3) {
        println!(
            "{} at {:?}: {}",
            issue.code.as_str(),
            issue.path,
            issue.message
        );
    }

    // 2. A tool result, built: the caller supplies the clock and randomness.
    let stamp = Stamp {
        now_unix_ms: 1_767_225_600_000.0,
        random: [7; 16],
    };
    let spec = json!({
        "input": { "tool_name": "read_file", "parameters": { "path": "src/main.py" }, "tool_call_id": "call_1" },
        "output": { "content": "import os\nimport sys\n", "lines": 2 },
        "duration_ms": 12
    });
    let result = create_success(spec, stamp).expect("a valid spec builds");
    let text = serde_json::to_string(&result).expect("serializes");
    assert!(validate_tool_result(&text, &options).is_empty());

    // 3. Bound an output before storing it: still valid JSON, with the
    //    sha256 of the whole.
    let big = serde_json::to_string(&json!({ "rows": vec!["x".repeat(100); 1000] })).unwrap();
    let cut = truncate_json_text(&big, 4096, ParseLimits::new(big.len(), DEFAULT_MAX_DEPTH))
        .expect("valid JSON");
    assert!(cut.truncated && cut.output.len() <= 4096);
    serde_json::from_str::<serde_json::Value>(&cut.output).expect("the cut is JSON");
    println!(
        "bounded {} → {} bytes, sha256 {}",
        cut.original_size,
        cut.size,
        &cut.sha256[..12]
    );

    // 4. Store it, and keep only a reference in the conversation.
    let mut store = ResultStore::new(RetentionPolicy::default());
    let report = store
        .put(result.clone(), Some("dialog_1"), None, 1_767_225_600_000)
        .expect("stored");
    assert!(report.stored);
    let reference = to_reference(&result, "dialog_1", None, DEFAULT_PREVIEW_CHARS);
    println!("summary: {}", reference.metadata.summary);

    // 5. The same result as an MCP CallToolResult.
    let value = serde_json::to_value(&result).unwrap();
    let mcp = to_mcp(&value, McpRevision::V2026_07_28).expect("converts");
    assert_eq!(mcp["structuredContent"], value["output"]);
    assert!(mcp.get("isError").is_none(), "a success carries no isError");
    println!("MCP: {mcp}");
}
