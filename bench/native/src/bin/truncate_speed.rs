//! Native timing of JSON truncation over text (docs/bounding.md §2):
//! `cargo run --release -p toolresult-bench-native --bin truncate_speed`.
use std::time::Instant;

use toolresult::json::ParseLimits;

fn main() {
    let rows: Vec<serde_json::Value> = (0..100_000)
        .map(|i| serde_json::json!({"id": i, "name": format!("row {i}"), "tags": ["a", "b"], "score": f64::from(i) / 3.0}))
        .collect();
    let text = serde_json::to_string(&serde_json::json!({ "rows": rows })).unwrap();
    let limits = ParseLimits::new(usize::MAX, 128);
    for _ in 0..5 {
        let t = Instant::now();
        let cut = toolresult::bound::cut_json_text(&text, 5 * 1024 * 1024, limits).unwrap();
        println!(
            "cut_json_text: {:?} ({} → {} bytes)",
            t.elapsed(),
            text.len(),
            cut.size
        );
    }
}
