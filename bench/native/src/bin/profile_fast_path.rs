//! A fixed workload for profilers (callgrind counts instructions):
//! `cargo run --release -p toolresult-bench-native --bin profile_fast_path -- FILE [N]`.
use toolresult::{EnvelopeKind, ValidationOptions, Validator};

fn main() {
    let mut args = std::env::args().skip(1);
    let text = std::fs::read_to_string(args.next().expect("FILE")).unwrap();
    let n: usize = args.next().map_or(10, |s| s.parse().unwrap());
    let val = Validator::new(EnvelopeKind::AgentResult, ValidationOptions::default()).unwrap();
    let valid = (0..n).filter(|_| val.is_valid_str(&text)).count();
    println!("{valid}/{n} valid");
}
