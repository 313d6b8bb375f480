//! Screens the labelled development corpus natively (no wasm build) and
//! prints one tab-separated line per item, for quick iteration on the rules:
//!
//! `id  label  subset  group  verdict  categories  rules  json-verdict`
//!
//! `json-verdict` is the verdict of the parsed value when the text is JSON
//! (`-` otherwise): the text and its parsed value must agree.
//!
//! `cargo run --release -p toolresult --example screen_corpus -- ../shared/safety-dev/corpus.jsonl`
//! The corpus is read at run time and never copied into the project.

use std::io::Write as _;

use base64::Engine as _;
use serde_json::Value;
use toolresult_screen::{ScreenOptions, ScreenReport, ScreenVerdict, Screener};

fn rot13(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a'..='z' => (((c as u8 - b'a') + 13) % 26 + b'a') as char,
            'A'..='Z' => (((c as u8 - b'A') + 13) % 26 + b'A') as char,
            _ => c,
        })
        .collect()
}

fn text_of(item: &Value) -> String {
    if let Some(t) = item.get("text").and_then(Value::as_str) {
        return t.to_string();
    }
    let enc = item
        .get("text_rot13_b64")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(enc)
        .unwrap_or_default();
    rot13(&String::from_utf8_lossy(&bytes))
}

fn verdict(r: &ScreenReport) -> &'static str {
    match r.verdict {
        ScreenVerdict::Accept => "accept",
        ScreenVerdict::Reject => "reject",
    }
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/safety-dev/corpus.jsonl".to_string());
    let Ok(corpus) = std::fs::read_to_string(&path) else {
        eprintln!("corpus not found at {path}: nothing to do");
        return;
    };
    let screener = Screener::new(ScreenOptions::default());
    let out = std::io::stdout();
    let mut out = out.lock();
    for line in corpus.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(item) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let field = |k: &str| {
            item.get(k)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let text = text_of(&item);
        let report = screener.screen_text(&text);
        let mut cats: Vec<&str> = report
            .findings
            .iter()
            .map(|f| f.category.as_str())
            .collect();
        cats.sort_unstable();
        cats.dedup();
        let mut rules: Vec<String> = report
            .findings
            .iter()
            .map(|f| format!("{}:{}", f.category.as_str(), f.rule))
            .collect();
        rules.sort_unstable();
        rules.dedup();
        let json = serde_json::from_str::<Value>(&text)
            .ok()
            .filter(|v| v.is_object() || v.is_array())
            .map_or("-", |v| verdict(&screener.screen_value(&v)));
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            field("id"),
            field("label"),
            field("subset"),
            field("group"),
            verdict(&report),
            cats.join(","),
            rules.join(","),
            json
        );
    }
}
