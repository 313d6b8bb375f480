// TEMPORARY (issue #49 tuning): per-item verdicts of rules and model.
use std::io::Write;
use toolresult::screen::{ScreenOptions, ScreenTier, Screener};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let out = std::env::args().nth(2).unwrap();
    let rules = Screener::new({ let mut o = ScreenOptions::default(); o.tiers = vec![ScreenTier::Rules]; o });
    let model = Screener::new({ let mut o = ScreenOptions::default(); o.tiers = vec![ScreenTier::Model]; o });
    let mut f = std::fs::File::create(out).unwrap();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let text = v["text"].as_str().unwrap();
        let r = rules.screen_text(text);
        let m = model.screen_text(text);
        let cats: Vec<_> = r.rejected_categories.iter().map(|c| c.as_str()).collect();
        writeln!(f, "{}", serde_json::json!({"id": v["id"], "rules": cats, "model": m.findings.len(), "excerpt": m.findings.first().map(|f| f.excerpt.clone())})).unwrap();
    }
}
