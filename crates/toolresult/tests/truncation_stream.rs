//! JSON truncation over text (`cut_json_text`) against the Value-based
//! algorithm it replaced (tests/support/value_truncation.rs): for the compact
//! text serde_json writes, both cut the same values to the same bytes; the
//! text path also accepts exactly what the strict parser accepts.

mod support;

use proptest::prelude::*;
use serde_json::Value;
use support::{arb_json, value_truncation};
use toolresult::bound::{
    cut_json_steps, cut_json_text, sha256_hex, truncate_json, truncate_json_text, CutStep,
};
use toolresult::json::{parse_str_exact, ParseLimits};

const LIMITS: ParseLimits = ParseLimits::new(usize::MAX, 128);

/// `value` cut as `steps[i..]` say: what the JS layer does to its copy of a
/// value (bindings/typescript/src/bound.ts, `applyCut`), written again here.
fn apply(value: &Value, steps: &[CutStep]) -> Value {
    let Some((step, deeper)) = steps.split_first() else {
        return value.clone();
    };
    match (step, value) {
        (CutStep::Replace { marker }, _) => Value::String(marker.clone()),
        (CutStep::Text { keep_utf16, marker }, Value::String(s)) => {
            let units: Vec<u16> = s.encode_utf16().take(*keep_utf16).collect();
            Value::String(String::from_utf16(&units).unwrap() + marker)
        }
        (CutStep::Items { keep, marker }, Value::Array(items)) => {
            let mut out: Vec<Value> = items[..*keep].to_vec();
            if !deeper.is_empty() {
                out[keep - 1] = apply(&out[keep - 1], deeper);
            }
            out.extend(marker.clone().map(Value::String));
            Value::Array(out)
        }
        (CutStep::Keys { keep, marker }, Value::Object(members)) => {
            let mut out: serde_json::Map<String, Value> = members
                .iter()
                .take(*keep)
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if !deeper.is_empty() {
                let last = out.keys().next_back().unwrap().clone();
                let cut = apply(&out[&last], deeper);
                out.insert(last, cut);
            }
            if let Some((key, note)) = marker {
                out.insert(key.clone(), Value::String(note.clone()));
            }
            Value::Object(out)
        }
        _ => panic!("step {step:?} does not apply to {value}"),
    }
}

/// `text` with whitespace added between every token.
fn spaced(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn text_cut_equals_the_value_cut(value in arb_json(), limit in 0usize..900) {
        let text = serde_json::to_string(&value).unwrap();
        let (expected, size, truncated) = value_truncation::truncate_json(&value, limit);
        let cut = cut_json_text(&text, limit, LIMITS).unwrap();
        let expected_text = serde_json::to_string(&expected).unwrap();
        prop_assert_eq!(&cut.text, &expected_text);
        prop_assert_eq!(cut.size as usize, size);
        prop_assert_eq!(cut.truncated, truncated);
        prop_assert_eq!(cut.original_size as usize, text.len());
        // The Value API goes through the text path.
        let t = truncate_json(&value, limit);
        prop_assert_eq!(&t.output, &expected);
        prop_assert_eq!(&t.sha256, &sha256_hex(text.as_bytes()));
    }

    #[test]
    fn the_steps_applied_to_the_value_give_the_output(value in arb_json(), limit in 0usize..900) {
        let text = serde_json::to_string(&value).unwrap();
        let (cut, steps) = cut_json_steps(&text, limit, LIMITS).unwrap();
        let output: Value = serde_json::from_str(&cut.text).unwrap();
        prop_assert_eq!(apply(&value, &steps), output);
        prop_assert_eq!(steps.is_empty(), !cut.truncated);
    }

    #[test]
    fn whitespace_is_dropped_and_not_counted_in_the_output(value in arb_json(), limit in 0usize..900) {
        let compact = serde_json::to_string(&value).unwrap();
        let pretty = spaced(&value);
        let from_pretty = cut_json_text(&pretty, limit, LIMITS).unwrap();
        prop_assert_eq!(from_pretty.original_size as usize, pretty.len());
        prop_assert_eq!(from_pretty.size as usize, from_pretty.text.len());
        let reparsed: Value = serde_json::from_str(&from_pretty.text).unwrap();
        let bound = if from_pretty.truncated { limit.max(64) } else { compact.len() };
        prop_assert!(from_pretty.text.len() <= bound);
        if !from_pretty.truncated {
            prop_assert_eq!(&from_pretty.text, &compact);
        }
        prop_assert_eq!(serde_json::to_string(&reparsed).unwrap(), from_pretty.text);
    }

    #[test]
    fn accepts_exactly_what_the_strict_parser_accepts(text in "[\\[\\]{}\",:0-9eE.+\\-tfnrul \\\\a-c]{0,24}") {
        let strict = parse_str_exact(&text, LIMITS);
        let cut = cut_json_text(&text, 64, LIMITS);
        prop_assert_eq!(strict.is_ok(), cut.is_ok(), "{:?}", text);
        if let (Err(a), Err(b)) = (strict, cut) {
            prop_assert_eq!(a, b);
        }
    }
}

#[test]
fn strictness_and_issues_match_the_strict_parser() {
    for text in [
        r#"{"a":1,"a":2}"#,
        r#"{"a":1,"\u0061":2}"#,
        r#"["\ud800"]"#,
        r#"["\udc00x"]"#,
        "[9007199254740993]",
        "[-9007199254740993]",
        "[1e400]",
        "[01]",
        "[1.]",
        "\u{feff}[]",
        "",
        "  ",
        "[1] x",
        "[\"\u{1}\"]",
        r#"["\x"]"#,
        "[tru]",
        "{\"k\" 1}",
        &"[".repeat(129),
    ] {
        let strict = parse_str_exact(text, LIMITS).unwrap_err();
        let cut = cut_json_text(text, 64, LIMITS).unwrap_err();
        assert_eq!(strict, cut, "{text:?}");
    }
    // A float holds 2^53 exactly: JavaScript writes it, so it is accepted.
    assert!(cut_json_text(
        "[9007199254740992, 1e20, 100000000000000000000]",
        64,
        LIMITS
    )
    .is_ok());
    let many_keys: String = format!(
        "{{{}}}",
        (0..40)
            .map(|i| format!("\"k{}\":{i}", i % 39))
            .collect::<Vec<_>>()
            .join(",")
    );
    assert_eq!(
        cut_json_text(&many_keys, 64, LIMITS).unwrap_err(),
        parse_str_exact(&many_keys, LIMITS).unwrap_err()
    );
    let small = ParseLimits::new(4, 128);
    assert_eq!(
        cut_json_text("[1,2,3]", 64, small).unwrap_err(),
        parse_str_exact("[1,2,3]", small).unwrap_err()
    );
}

#[test]
fn numbers_keep_their_source_form() {
    // JavaScript writes 1e21 as 1e+21 and 1e-7 as 1e-7; serde_json would
    // write 1e21: the size is the text's own.
    let text = format!("[{}]", ["1e+21"; 40].join(","));
    let t = truncate_json_text(&text, 100, LIMITS).unwrap();
    assert!(t.truncated);
    assert!(t.output.starts_with("[1e+21,1e+21"), "{}", t.output);
    assert_eq!(t.size as usize, t.output.len());
    assert!(t.output.len() <= 95);
    assert_eq!(t.sha256, sha256_hex(text.as_bytes()));
}

#[test]
fn marker_key_avoids_the_objects_own_keys() {
    let text = format!(
        r#"{{"…":1,"\u2026\u2026":2,"big":"{}","z":1}}"#,
        "x".repeat(300)
    );
    let t = cut_json_text(&text, 120, LIMITS).unwrap();
    let v: Value = serde_json::from_str(&t.text).unwrap();
    assert!(v.get("………").is_some(), "{}", t.text);
}

#[test]
fn values_deeper_than_the_text_layer_reads_are_cut_whole() {
    let mut v = Value::from(1);
    for _ in 0..200 {
        v = Value::Array(vec![v, Value::String("x".repeat(10))]);
    }
    let t = truncate_json(&v, 100);
    assert!(t.truncated);
    assert!(t.output.as_str().unwrap().starts_with("…[+"));
    assert!(t.size <= 100);
}
