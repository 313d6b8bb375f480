//! Previews on the shared fixtures in tests/fixtures/preview (the npm package
//! runs the same cases in tests/node/preview.test.mjs): what a result says,
//! as real lines, within the budget, through every caller of the rule.

use std::path::PathBuf;

use serde_json::Value;
use toolresult::bound::preview_result;
use toolresult::ResultStore;
use toolresult::TRUNCATION_NOTE;
use toolresult::{to_reference, ToolResult};

fn cases() -> Vec<Value> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/preview/cases.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn result(case: &Value) -> ToolResult {
    serde_json::from_value(case["result"].clone()).unwrap()
}

#[test]
fn every_fixture_gives_its_expected_preview() {
    let cases = cases();
    assert!(cases.len() >= 12);
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let max = usize::try_from(case["max_chars"].as_u64().unwrap()).unwrap();
        let r = result(case);
        assert!(
            toolresult::validate_tool_result(
                &case["result"].to_string(),
                &toolresult::ValidationOptions::default()
            )
            .is_empty(),
            "{name}: the fixture is a valid ToolResult"
        );
        let preview = preview_result(&r, max);
        assert_eq!(preview, case["preview"].as_str().unwrap(), "{name}");
        let shown = preview.strip_suffix(TRUNCATION_NOTE).unwrap_or(&preview);
        assert!(shown.chars().count() <= max, "{name}: within the budget");
        assert!(
            !shown.is_empty(),
            "{name}: never empty when the result has content"
        );
        assert!(
            !shown.starts_with('{') || shown.starts_with("{\""),
            "{name}: no lone brace"
        );
        assert!(!shown.contains("\n  \""), "{name}: no JSON indentation");
    }
}

#[test]
fn references_and_store_listings_use_the_same_preview() {
    let mut store = ResultStore::default();
    for case in cases() {
        let r = result(&case);
        let expected = preview_result(&r, 500);
        assert_eq!(
            to_reference(&r, "d1", None, 500).metadata.truncated_preview,
            expected
        );
        let put = store.put(r, Some("d1"), None, 1_795_341_600_000).unwrap();
        assert_eq!(put.meta.preview, expected);
    }
    assert!(store
        .list_dialog("d1")
        .iter()
        .all(|m| !m.preview.is_empty()));
}
