//! Strict parse → serialize → strict parse is the identity, and whatever the
//! strict parser accepts, serde_json accepts as the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolresult::json::{parse_str, ParseLimits};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let limits = ParseLimits::new(1 << 20, 128);
    let Ok(value) = parse_str(text, limits) else {
        return;
    };
    let again = serde_json::to_string(&value).unwrap();
    let reparsed = parse_str(&again, limits).expect("our own output parses");
    assert_eq!(value, reparsed);
    let plain: serde_json::Value = serde_json::from_str(text).expect("serde_json accepts it too");
    assert_eq!(value, plain);
});
