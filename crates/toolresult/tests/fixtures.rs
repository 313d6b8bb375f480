//! The shared fixtures in `tests/fixtures/` (also run through the npm package by
//! the Node tests): each case lists the issues (path + code) it must produce.

use std::path::PathBuf;

use serde::Deserialize;
use toolresult::{EnvelopeKind, ValidationOptions, Validator};

#[derive(Deserialize)]
struct Case {
    file: String,
    kind: String,
    issues: Vec<Expected>,
}

#[derive(Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord, Clone)]
struct Expected {
    path: String,
    code: String,
}

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

#[test]
fn every_fixture_produces_exactly_its_expected_issues() {
    let dir = fixtures_dir();
    let cases: Vec<Case> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("cases.json")).unwrap()).unwrap();
    assert!(cases.len() >= 30, "fixtures went missing: {}", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let kind = match case.kind.as_str() {
            "agent" => EnvelopeKind::AgentResult,
            "tool" => EnvelopeKind::ToolResult,
            other => panic!("unknown kind {other}"),
        };
        let bytes = std::fs::read(dir.join(&case.file)).unwrap();
        let validator = Validator::new(kind, ValidationOptions::default()).unwrap();
        let mut got: Vec<Expected> = validator
            .check_bytes(&bytes)
            .iter()
            .map(|i| Expected {
                path: i.path.clone(),
                code: i.code.as_str().to_string(),
            })
            .collect();
        let mut want = case.issues.clone();
        got.sort();
        want.sort();
        if got != want {
            failures.push(format!(
                "{}:\n  want {:?}\n  got  {:?}",
                case.file, want, got
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn valid_fixtures_convert_to_typed_values_and_back() {
    let dir = fixtures_dir();
    for kind in ["agent", "tool"] {
        for entry in std::fs::read_dir(dir.join(kind)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !name.starts_with("valid-") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let opts = ValidationOptions::default();
            let reserialized = if kind == "agent" {
                let typed = toolresult::parse_agent_result(&text, &opts).unwrap();
                serde_json::to_string(&typed).unwrap()
            } else {
                let typed = toolresult::parse_tool_result(&text, &opts).unwrap();
                serde_json::to_string(&typed).unwrap()
            };
            // The typed form validates again, and a second trip is the identity.
            let issues = if kind == "agent" {
                toolresult::validate_agent_result(&reserialized, &opts)
            } else {
                toolresult::validate_tool_result(&reserialized, &opts)
            };
            assert!(issues.is_empty(), "{name}: {issues}");
            let again = if kind == "agent" {
                serde_json::to_string(
                    &toolresult::parse_agent_result(&reserialized, &opts).unwrap(),
                )
                .unwrap()
            } else {
                serde_json::to_string(&toolresult::parse_tool_result(&reserialized, &opts).unwrap())
                    .unwrap()
            };
            assert_eq!(reserialized, again, "{name}");
        }
    }
}
