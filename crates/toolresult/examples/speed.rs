use std::time::Instant;
use toolresult::{EnvelopeKind, ValidationOptions, Validator};
fn main() {
    let text = std::fs::read_to_string("tests/fixtures/agent/valid-success.json").unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let text = serde_json::to_string(&v).unwrap();
    let val = Validator::new(EnvelopeKind::AgentResult, ValidationOptions::default()).unwrap();
    for (name, f) in [
        ("fast", &(|| assert!(val.is_valid_str(&text))) as &dyn Fn()),
        ("diagnose", &|| assert!(val.diagnose_str(&text).is_empty())),
        ("parse_json", &|| {
            val.parse_json(&text).unwrap();
        }),
        ("ignored_any", &|| {
            serde_json::from_str::<serde::de::IgnoredAny>(&text).unwrap();
        }),
        ("value", &|| {
            serde_json::from_str::<serde_json::Value>(&text).unwrap();
        }),
        ("ts", &|| {
            toolresult::parse_timestamp("2026-11-22T10:15:30.250Z").unwrap();
        }),
    ] {
        for _ in 0..10000 {
            f()
        }
        let t = Instant::now();
        let n = 200000;
        for _ in 0..n {
            f()
        }
        println!("{name}: {} ns", t.elapsed().as_nanos() / n);
    }
}
