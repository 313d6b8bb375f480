//! Native timing of JSON truncation: `cargo run --release --example truncate_speed`.
use std::time::Instant;

fn main() {
    let rows: Vec<serde_json::Value> = (0..100_000)
        .map(|i| serde_json::json!({"id": i, "name": format!("row {i}"), "tags": ["a", "b"], "score": i as f64 / 3.0}))
        .collect();
    let v = serde_json::json!({ "rows": rows });
    let source = serde_json::to_vec(&v).unwrap();
    let t = Instant::now();
    let r = toolresult::truncate::truncate_json_with_source(&v, &source, 5 * 1024 * 1024);
    println!(
        "truncate_json_with_source: {:?} (size {})",
        t.elapsed(),
        r.size
    );
}
