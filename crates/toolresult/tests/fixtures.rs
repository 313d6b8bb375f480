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

/// The `valid-*` fixtures of a kind (`agent`, `tool`): file name and text.
fn valid_fixtures(kind: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(fixtures_dir().join(kind)).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("valid-") {
            out.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    out
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
    for kind in ["agent", "tool"] {
        for (name, text) in valid_fixtures(kind) {
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

/// `ToolMetadata`'s `Deserialize` is written by hand (docs/internals/modules.md §1): every
/// valid fixture with `tool_metadata` reads into the typed form and writes back
/// the same JSON, so nothing is lost or changed on the way.
#[test]
fn valid_tool_metadata_round_trips_through_the_typed_form() {
    let mut kinds = std::collections::BTreeSet::new();
    for (name, text) in valid_fixtures("tool") {
        let given: serde_json::Value = serde_json::from_str(&text).unwrap();
        let Some(metadata) = given.get("tool_metadata") else {
            continue;
        };
        kinds.insert(metadata["tool_type"].as_str().unwrap().to_owned());
        let typed = toolresult::parse_tool_result(&text, &ValidationOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(
            as_floats(serde_json::to_value(&typed).unwrap()),
            as_floats(given),
            "{name}"
        );
    }
    assert!(kinds.len() >= 15, "kinds covered: {kinds:?}");
}

/// `parse_tool_result` reads the typed form with a reader of its own, not
/// serde's derived `Deserialize` (crates/toolresult/src/wire/read.rs): on
/// every valid fixture, and with every whole number written as a float
/// (`3.0`), the two give the same value.
#[test]
fn the_typed_reader_agrees_with_serde() {
    let mut read = 0;
    for (name, text) in valid_fixtures("tool") {
        let given: serde_json::Value = serde_json::from_str(&text).unwrap();
        for value in [given.clone(), as_floats(given)] {
            let text = serde_json::to_string(&value).unwrap();
            let Ok(typed) = toolresult::parse_tool_result(&text, &ValidationOptions::default())
            else {
                // A float where only an integer may be (a nested count the
                // shape tables check): refused by validation, not read.
                continue;
            };
            let serde: toolresult::ToolResult = serde_json::from_value(value).unwrap();
            assert_eq!(typed, serde, "{name}");
            read += 1;
        }
    }
    assert!(read >= 60, "only {read} values read");
}

/// Numbers as f64, as JavaScript reads them: durations are f64 in the typed
/// form, so `12` comes back as `12.0`, the same number.
fn as_floats(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Number(n) => serde_json::json!(n.as_f64().unwrap()),
        Value::Array(items) => Value::Array(items.into_iter().map(as_floats).collect()),
        Value::Object(members) => Value::Object(
            members
                .into_iter()
                .map(|(k, v)| (k, as_floats(v)))
                .collect(),
        ),
        other => other,
    }
}

/// What the hand-written `Deserialize` refuses, as errors (never a panic).
#[test]
fn tool_metadata_without_a_known_tool_type_is_an_error() {
    use toolresult::ToolMetadata;
    for (value, expected) in [
        (
            serde_json::json!({ "path": "a" }),
            "missing field `tool_type`",
        ),
        (
            serde_json::json!({ "tool_type": 7 }),
            "`tool_type` is not a string",
        ),
        (
            serde_json::json!({ "tool_type": "nope" }),
            "unknown variant `nope`",
        ),
        (serde_json::json!([]), "invalid type"),
        (
            serde_json::json!({ "tool_type": "thinking", "extra": 1 }),
            "unknown field `extra`",
        ),
    ] {
        let err = serde_json::from_value::<ToolMetadata>(value).unwrap_err();
        assert!(err.to_string().contains(expected), "{err} lacks {expected}");
    }
    let ok: ToolMetadata =
        serde_json::from_value(serde_json::json!({ "tool_type": "thinking", "thought": "t" }))
            .unwrap();
    assert!(matches!(ok, ToolMetadata::Thinking(_)));
}

/// Every `tool_type` in `ToolMetadata::TOOL_TYPES` has an arm in the
/// hand-written `Deserialize` (a new kind without one would be refused as an
/// unknown variant; CONTRIBUTING.md, "Add a tool-metadata kind").
#[test]
fn every_tool_type_has_a_deserializer_arm() {
    use toolresult::ToolMetadata;
    for tool_type in ToolMetadata::TOOL_TYPES {
        let err = serde_json::from_value::<ToolMetadata>(serde_json::json!({
            "tool_type": tool_type,
            "no_such_field": true,
        }))
        .unwrap_err()
        .to_string();
        assert!(!err.contains("unknown variant"), "{tool_type}: {err}");
        assert!(
            err.contains("no_such_field") || err.contains("missing field"),
            "{tool_type}: {err}"
        );
    }
}
