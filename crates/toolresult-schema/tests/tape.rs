//! The tape representation against jsonschema's own: the contract check the
//! crate ships for custom representations, and the same verdicts and the same
//! errors (instance path, evaluation path, message) as `serde_json::Value` on
//! every case of the official JSON Schema Test Suite (draft 2020-12 and
//! draft 7, required and optional).

mod common;

use jsonschema::{Draft, Validator};
use serde_json::Value;
use toolresult::json::Tape;
use toolresult_schema::tape::{TapeJson, TapeNode};

#[test]
fn tape_satisfies_the_representation_contract() {
    let tape = Tape::from_value(&jsonschema::json::conformance::document());
    jsonschema::json::conformance::assert_conformance::<TapeJson>(&TapeNode::root(&tape));
}

fn errors<'a>(list: impl Iterator<Item = jsonschema::ValidationError<'a>>) -> Vec<String> {
    list.map(|e| {
        format!(
            "{} | {} | {}",
            e.instance_path().as_str(),
            e.evaluation_path().as_str(),
            e
        )
    })
    .collect()
}

#[test]
fn tape_and_value_agree_on_the_json_schema_test_suite() {
    let mut compared = 0;
    for (dir, draft) in [
        ("draft2020-12", Draft::Draft202012),
        ("draft7", Draft::Draft7),
    ] {
        for file in common::suite_files(dir) {
            let groups: Vec<Value> =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            for group in groups {
                let schema = &group["schema"];
                // Cases whose remote references are not available build on neither side.
                let Ok(by_value): Result<Validator, _> = jsonschema::options()
                    .with_draft(draft)
                    .should_validate_formats(true)
                    .build(schema)
                else {
                    continue;
                };
                let by_tape = jsonschema::options_for::<TapeJson>()
                    .with_draft(draft)
                    .should_validate_formats(true)
                    .build(schema)
                    .unwrap();
                for case in group["tests"].as_array().unwrap() {
                    let data = &case["data"];
                    let tape = Tape::from_value(data);
                    let what = format!(
                        "{} / {} / {}",
                        file.display(),
                        group["description"],
                        case["description"]
                    );
                    assert_eq!(
                        by_tape.is_valid(TapeNode::root(&tape)),
                        by_value.is_valid(data),
                        "{what}"
                    );
                    assert_eq!(
                        errors(by_tape.iter_errors(TapeNode::root(&tape))),
                        errors(by_value.iter_errors(data)),
                        "{what}"
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 3000, "only {compared} cases compared");
}
