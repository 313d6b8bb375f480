//! The ways to validate must agree on every input: the one pass over the
//! bytes (`check_str`, the path every call takes), the streaming accept mode,
//! the streaming collect mode (every issue, the report for text that breaks
//! an input rule), and the walk over a parsed value (used for values built in
//! Rust). Checked on the shared fixtures and on random mutations of the valid
//! ones (proptest).

use proptest::prelude::*;
use serde_json::{Map, Value};
use toolresult::{EnvelopeKind, ValidationOptions, Validator};

fn fixture(path: &str) -> Value {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/");
    serde_json::from_str(&std::fs::read_to_string(format!("{dir}{path}")).unwrap()).unwrap()
}

fn assert_same_verdict(v: &Validator, text: &str) -> Result<(), TestCaseError> {
    let fast = v.is_valid_str(text);
    let slow = v.diagnose_str(text);
    // The one pass reports exactly what the diagnostic walk reports: the
    // same issues, paths and messages, in the same order.
    prop_assert_eq!(v.check_str(text), slow.clone(), "for {}", text);
    prop_assert_eq!(
        fast,
        slow.is_empty(),
        "fast={} slow={} for {}",
        fast,
        slow,
        text
    );
    if let Ok(value) = v.parse_json(text) {
        // The same issues in the same order (so the same first max_issues).
        let brief = |issues: toolresult::Issues| {
            issues
                .iter()
                .map(|i| format!("{} {}", i.path, i.code))
                .collect::<Vec<_>>()
        };
        prop_assert_eq!(brief(slow), brief(v.check_value(&value)), "for {}", text);
    }
    Ok(())
}

#[test]
fn fixtures_get_the_same_verdict_on_both_paths() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/");
    for kind in ["agent", "tool"] {
        let ek = if kind == "agent" {
            EnvelopeKind::AgentResult
        } else {
            EnvelopeKind::ToolResult
        };
        for entry in std::fs::read_dir(format!("{dir}{kind}")).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
            // Regression (found by the `envelope` fuzz target): with few
            // maxIssues, both collectors must stop at the same issues.
            for max_issues in [1, 2, 3, 4, 100] {
                let mut opts = ValidationOptions::default();
                opts.max_issues = max_issues;
                assert_same_verdict(&Validator::new(ek, opts).unwrap(), &text).unwrap();
            }
        }
    }
}

/// Values that hit interesting rules: statuses, ids, times, codes, numbers.
fn arb_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..5000).prop_map(Value::from),
        prop_oneof![Just(1.5f64), Just(-0.5), Just(2.0), Just(1e300)].prop_map(Value::from),
        Just(Value::from(9_007_199_254_740_993u64)),
        prop::sample::select(vec![
            "",
            "success",
            "failed",
            "running",
            "timeout",
            "scaffold",
            "e2e",
            "research",
            "1.0.0",
            "2.0.0",
            "FILE_NOT_FOUND",
            "bad-code",
            "created",
            "renamed",
            "2026-11-22T10:00:00Z",
            "2026-11-22T10:00:05Z",
            "2026-11-22T09:00:00+01:00",
            "2026-13-01T00:00:00Z",
            "0b5e4d3c-2a19-4f7e-9c1d-5a6b7c8d9e0f",
            "not-a-uuid",
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "x",
        ])
        .prop_map(|s| Value::String(s.into())),
    ]
}

fn arb_json() -> impl Strategy<Value = Value> {
    arb_leaf().prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec!["a", "status", "error", "code", "message", "x"]),
                    inner
                ),
                0..3
            )
            .prop_map(|kv| Value::Object(
                kv.into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect::<Map<_, _>>()
            )),
        ]
    })
}

/// Every JSON Pointer-like path (as key lists) into a value.
fn paths(v: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(prefix.clone());
    match v {
        Value::Object(o) => {
            for (k, child) in o {
                prefix.push(k.clone());
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                prefix.push(i.to_string());
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn at_mut<'a>(v: &'a mut Value, path: &[String]) -> &'a mut Value {
    path.iter().fold(v, |v, seg| match v {
        Value::Object(o) => o.get_mut(seg).unwrap(),
        Value::Array(a) => &mut a[seg.parse::<usize>().unwrap()],
        _ => unreachable!(),
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    Replace(Value),
    Remove,
    Insert(String, Value),
}

fn arb_mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        arb_json().prop_map(Mutation::Replace),
        Just(Mutation::Remove),
        (
            prop::sample::select(vec![
                "error", "output", "extra", "batch_id", "details", "type"
            ]),
            arb_json()
        )
            .prop_map(|(k, v)| Mutation::Insert(k.to_string(), v)),
    ]
}

fn mutate(mut base: Value, pick: usize, m: Mutation) -> Value {
    let mut all = Vec::new();
    paths(&base, &mut Vec::new(), &mut all);
    let path = &all[pick % all.len()];
    match m {
        Mutation::Replace(v) => *at_mut(&mut base, path) = v,
        Mutation::Remove => {
            if let Some((last, parent)) = path.split_last() {
                match at_mut(&mut base, parent) {
                    Value::Object(o) => {
                        o.shift_remove(last);
                    }
                    Value::Array(a) => {
                        a.remove(last.parse::<usize>().unwrap());
                    }
                    _ => {}
                }
            }
        }
        Mutation::Insert(k, v) => {
            if let Value::Object(o) = at_mut(&mut base, path) {
                o.insert(k, v);
            }
        }
    }
    base
}

const BASES: &[(&str, EnvelopeKind)] = &[
    ("agent/valid-success.json", EnvelopeKind::AgentResult),
    ("agent/valid-failed.json", EnvelopeKind::AgentResult),
    ("tool/valid-success.json", EnvelopeKind::ToolResult),
    (
        "tool/valid-side-effects-batch.json",
        EnvelopeKind::ToolResult,
    ),
    (
        "tool/valid-requires-confirmation.json",
        EnvelopeKind::ToolResult,
    ),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn mutated_results_get_the_same_verdict(
        base in 0..BASES.len(),
        muts in prop::collection::vec((any::<usize>(), arb_mutation()), 1..3),
        depth in prop_oneof![Just(128usize), 2usize..6],
        allow_any_agent_type in any::<bool>(),
    ) {
        let (file, kind) = BASES[base];
        let mut value = fixture(file);
        for (pick, m) in muts {
            value = mutate(value, pick, m);
        }
        let mut opts = ValidationOptions::default();
        opts.max_depth = depth;
        opts.allow_unknown_agent_types = allow_any_agent_type;
        let v = Validator::new(kind, opts).unwrap();
        assert_same_verdict(&v, &serde_json::to_string(&value).unwrap())?;
        assert_same_verdict(&v, &serde_json::to_string_pretty(&value).unwrap())?;
    }

    #[test]
    fn duplicated_keys_are_rejected_by_both(base in 0..BASES.len(), pick in any::<usize>()) {
        let (file, kind) = BASES[base];
        let text = serde_json::to_string(&fixture(file)).unwrap();
        // Repeat one `"key":value` pair textually right after itself.
        let keys: Vec<usize> = text.match_indices("\":").map(|(i, _)| i).collect();
        let end = keys[pick % keys.len()];
        let start = text[..end].rfind('"').unwrap();
        let value_end = text[end..].find([',', '}']).map(|i| end + i).unwrap();
        let pair = &text[start..value_end];
        if pair.contains('{') || pair.contains('[') { return Ok(()); }
        let doubled = format!("{}{},{}", &text[..value_end], "", &text[start..]);
        let v = Validator::new(kind, ValidationOptions::default()).unwrap();
        prop_assert!(!v.is_valid_str(&doubled));
        assert_same_verdict(&v, &doubled)?;
    }
}
