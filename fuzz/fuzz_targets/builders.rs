//! Builders on arbitrary specs: never panic, and whatever they build validates.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolresult::json::{parse_str, ParseLimits};
use toolresult::{validate_tool_result, Stamp, ValidationOptions};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let limits = ParseLimits::new(1 << 20, 64);
    let Ok(spec) = parse_str(text, limits) else {
        return;
    };
    let stamp = Stamp {
        now_unix_ms: f64::from(first) * 1.0e10,
        random: [first; 16],
    };
    let failure = first & 1 == 1;
    if let Ok(built) = toolresult::build_value(spec, stamp, failure) {
        let text = serde_json::to_string(&built).unwrap();
        let issues = validate_tool_result(&text, &ValidationOptions::default());
        assert!(
            issues.is_empty(),
            "built an invalid result: {issues}\n{text}"
        );
    }
});
