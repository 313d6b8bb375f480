//! The result document parser on arbitrary text: never panics, every issue
//! has a line inside the document, and `ok` means no issues. A document the
//! renderer wrote from a fuzzed stdout parses back without issues.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolresult_screen::document::{
    parse_result_document, render_result_document, DocumentProvenance,
};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parsed = parse_result_document(&text);
    assert_eq!(parsed.ok, parsed.issues.is_empty());
    let lines = text.split('\n').count();
    for issue in &parsed.issues {
        assert!(issue.line <= lines + 1, "{issue:?} beyond {lines} lines");
    }
    // Whatever stdout holds (fences, headings, front matter markers), the
    // rendered document parses cleanly.
    let result = serde_json::json!({
        "input": { "tool_name": "bash", "parameters": {} },
        "status": "success",
        "metadata": {
            "execution_id": "00000000-0000-4000-8000-000000000000",
            "started_at": "2026-01-01T00:00:00Z",
            "completed_at": "2026-01-01T00:00:01Z",
            "duration_ms": 1000
        },
        "schema_version": "1.0.0"
    });
    let mut provenance = DocumentProvenance::default();
    provenance.request_id = "TR-1".into();
    provenance.backend = "ERA".into();
    provenance.stdout = Some(text.to_string());
    provenance.command = Some(text.chars().take(200).collect());
    let doc = render_result_document(&result, &provenance).expect("valid provenance renders");
    let back = parse_result_document(&doc.text);
    assert!(back.ok, "{:?}\n{}", back.issues, doc.text);
});
