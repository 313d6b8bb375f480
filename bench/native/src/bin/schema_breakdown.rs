//! Where tool-output validation spends its time, natively: the strict parse
//! into a `serde_json::Value` versus the compiled validator (bench/NOTES.md).
//! `cargo run --release -p toolresult-bench-native --bin schema_breakdown -- SCHEMA INSTANCE [N]`
//! (`node bench/tool-output.mjs --write DIR` writes the bench's schema and outputs).
use std::time::Instant;

use toolresult::json::{parse_str_exact, ParseLimits};

fn main() {
    let mut args = std::env::args().skip(1);
    let read =
        |path: Option<String>| std::fs::read_to_string(path.expect("SCHEMA INSTANCE [N]")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&read(args.next())).unwrap();
    let text = read(args.next());
    let n: u32 = args.next().map_or(200, |s| s.parse().unwrap());
    let limits = ParseLimits::new(1 << 30, 128);
    let compiled =
        toolresult_schema::compile(&schema, &toolresult_schema::SchemaOptions::default()).unwrap();

    let start = Instant::now();
    let mut value = None;
    for _ in 0..n {
        value = Some(parse_str_exact(&text, limits).unwrap());
    }
    println!("strict parse: {:?} per call", start.elapsed() / n);

    let start = Instant::now();
    let mut tape = None;
    for _ in 0..n {
        tape = Some(toolresult::json::parse_tape(&text, limits).unwrap());
    }
    println!("tape parse:   {:?} per call", start.elapsed() / n);
    let tape = tape.unwrap();
    let start = Instant::now();
    let valid = (0..n).filter(|_| compiled.is_valid_tape(&tape)).count();
    println!(
        "is_valid_tape:{:?} per call ({valid}/{n} valid)",
        start.elapsed() / n
    );

    let value = value.unwrap();
    let start = Instant::now();
    let valid = (0..n).filter(|_| compiled.is_valid(&value)).count();
    println!(
        "is_valid:     {:?} per call ({valid}/{n} valid)",
        start.elapsed() / n
    );
}
