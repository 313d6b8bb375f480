//! Rough native timings of the validation paths: `cargo run --release
//! -p toolresult-bench-native --bin envelope_speed -- FILE [agent|tool]`.
use std::time::Instant;
use toolresult::{EnvelopeKind, ValidationOptions, Validator};

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .unwrap_or_else(|| "tests/fixtures/agent/valid-success.json".into());
    let kind = match args.next().as_deref() {
        Some("tool") => EnvelopeKind::ToolResult,
        _ => EnvelopeKind::AgentResult,
    };
    let text = std::fs::read_to_string(file).unwrap();
    let val = Validator::new(kind, ValidationOptions::default()).unwrap();
    let runs: [(&str, &dyn Fn()); 4] = [
        ("check_str", &|| drop(val.check_str(&text))),
        ("diagnose_str (the diagnostic walk)", &|| {
            drop(val.diagnose_str(&text));
        }),
        ("is_valid_str", &|| {
            let _ = val.is_valid_str(&text);
        }),
        ("serde_json IgnoredAny", &|| {
            drop(serde_json::from_str::<serde::de::IgnoredAny>(&text));
        }),
    ];
    for (name, f) in runs {
        let n = (20_000_000 / text.len().max(1)).clamp(20, 200_000) as u32;
        for _ in 0..n / 10 {
            f();
        }
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        println!("{name}: {:?} per call", t.elapsed() / n);
    }
}
