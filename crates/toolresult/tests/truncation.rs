//! Properties of bounding (proptest): truncation never exceeds the limit,
//! always yields valid UTF-8 and, for JSON input, valid JSON; what fits is
//! untouched; previews end at line boundaries; sha256 covers the full output.

mod support;

use proptest::prelude::*;
use serde_json::Value;
use support::arb_json;
use toolresult::bound::{cap_lines, preview_text, sha256_hex, truncate_json, truncate_text};
use toolresult::limits::MIN_JSON_LIMIT;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn text_truncation_is_bounded_and_a_prefix(text in "\\PC{0,400}", limit in 0usize..600) {
        let t = truncate_text(&text, limit);
        let bound = if t.truncated { limit } else { text.len() };
        prop_assert!(t.output.len() <= bound);
        prop_assert_eq!(t.truncated, text.len() > limit);
        prop_assert_eq!(t.original_size as usize, text.len());
        prop_assert_eq!(t.size as usize, t.output.len());
        prop_assert_eq!(&t.sha256, &sha256_hex(text.as_bytes()));
        if t.truncated {
            // The kept part is the text's start, at most 95 % of the limit.
            let kept = t.output.split("\n…[truncated").next().unwrap();
            prop_assert!(text.starts_with(kept));
            prop_assert!(kept.len() * 20 <= limit * 19);
        } else {
            prop_assert_eq!(&t.output, &text);
        }
    }

    #[test]
    fn json_truncation_is_bounded_and_valid(value in arb_json(), limit in 0usize..800) {
        let t = truncate_json(&value, limit);
        let text = serde_json::to_string(&t.output).unwrap();
        let full = serde_json::to_string(&value).unwrap();
        let effective = limit.max(MIN_JSON_LIMIT);
        prop_assert!(text.len() <= effective, "{} > {}: {}", text.len(), effective, text);
        prop_assert_eq!(t.size as usize, text.len());
        prop_assert_eq!(t.original_size as usize, full.len());
        prop_assert_eq!(&t.sha256, &sha256_hex(full.as_bytes()));
        let reparsed: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&reparsed, &t.output);
        prop_assert_eq!(t.truncated, full.len() > effective);
        if t.truncated {
            prop_assert!(text.len() * 20 <= effective * 19);
        } else {
            prop_assert_eq!(&t.output, &value);
        }
    }

    #[test]
    fn previews_end_at_line_boundaries(lines in prop::collection::vec("[^\\n]{0,30}", 0..20), max in 1usize..200) {
        let text = lines.join("\n");
        let (p, cut) = preview_text(&text, max);
        prop_assert!(p.chars().count() <= max);
        let first_line = text.split('\n').next().unwrap();
        if !cut {
            prop_assert_eq!(&p, &text);
        } else if first_line.chars().count() > max {
            // A first line alone too long: cut at a char, marked when the mark fits.
            let kept = p.strip_suffix("… (line truncated)").unwrap_or(&p);
            prop_assert!(first_line.starts_with(kept));
        } else {
            // Whole lines: it ends at a newline, or right before one.
            prop_assert!(text.starts_with(&p));
            prop_assert!(p.ends_with('\n') || text[p.len()..].starts_with('\n'), "{:?}", p);
        }
    }

    #[test]
    fn line_caps_keep_the_first_lines(n in 0usize..60, max in 0usize..40) {
        let text: String = (0..n).map(|i| format!("line {i}\n")).collect();
        let (out, dropped) = cap_lines(&text, max);
        prop_assert_eq!(dropped, n.saturating_sub(max));
        let kept: Vec<&str> = out.lines().filter(|l| l.starts_with("line ")).collect();
        prop_assert_eq!(kept.len(), n.min(max));
        if dropped > 0 {
            let note = format!("[{dropped} more line");
            prop_assert!(out.contains(&note));
        }
    }
}
