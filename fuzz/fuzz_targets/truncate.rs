//! Truncation on arbitrary text and JSON with arbitrary limits: never above
//! the limit, always valid UTF-8 / valid JSON, untouched when it fits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolresult::bound::{cap_lines, cut_json_text, preview_text, truncate_json, truncate_text};
use toolresult::json::{parse_str, parse_str_exact, ParseLimits};
use toolresult::limits::MIN_JSON_LIMIT;

fuzz_target!(|data: &[u8]| {
    let Some((&seed, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let limit = usize::from(seed) * 7;

    let t = truncate_text(text, limit);
    assert_eq!(t.truncated, text.len() > limit);
    if t.truncated {
        assert!(t.output.len() <= limit);
    } else {
        assert_eq!(t.output, text);
    }

    let (p, _) = preview_text(text, usize::from(seed));
    assert!(p.chars().count() <= usize::from(seed).max(0));

    let (capped, dropped) = cap_lines(text, usize::from(seed % 16));
    assert!(dropped == 0 || capped.len() <= text.len() + 40);

    let limits = ParseLimits::new(1 << 20, 64);
    // The text path accepts exactly what the strict parser accepts, with the
    // same issue, and its output is bounded, valid and measured exactly.
    match (
        cut_json_text(text, limit, limits),
        parse_str_exact(text, limits),
    ) {
        (Ok(cut), Ok(value)) => {
            assert_eq!(cut.size as usize, cut.text.len());
            let back: serde_json::Value = serde_json::from_str(&cut.text).unwrap();
            if cut.truncated {
                assert!(
                    cut.text.len() <= limit.max(MIN_JSON_LIMIT),
                    "{} > {limit}",
                    cut.text.len()
                );
            } else {
                assert_eq!(back, value);
            }
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        (a, b) => panic!(
            "text path {:?} but strict parser {:?}",
            a.is_ok(),
            b.is_ok()
        ),
    }
    if let Ok(value) = parse_str(text, limits) {
        let t = truncate_json(&value, limit);
        let out = serde_json::to_string(&t.output).unwrap();
        assert!(
            out.len() <= limit.max(MIN_JSON_LIMIT),
            "{} > {limit}: {out}",
            out.len()
        );
        let back: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(back, t.output);
        if !t.truncated {
            assert_eq!(t.output, value);
        }
    }
});
