use toolresult::{EnvelopeKind, ValidationOptions, Validator};
fn main() {
    let text = std::fs::read_to_string("tests/fixtures/agent/valid-success.json").unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let text = serde_json::to_string(&v).unwrap();
    let val = Validator::new(EnvelopeKind::AgentResult, ValidationOptions::default()).unwrap();
    let mut n = 0;
    for _ in 0..20000 {
        if val.is_valid_str(&text) {
            n += 1
        }
    }
    println!("{n}");
}
