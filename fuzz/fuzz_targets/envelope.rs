//! Envelope parse + validate on arbitrary bytes, for both kinds and two option
//! sets. Beyond "never panics", the validation paths must agree: the one pass
//! over the bytes, the streaming accept mode, the streaming collect mode, and
//! the walk over a parsed value. Any disagreement aborts, so libFuzzer reports it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolresult::{EnvelopeKind, ValidationOptions, Validator};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        for kind in [EnvelopeKind::AgentResult, EnvelopeKind::ToolResult] {
            let v = Validator::new(kind, ValidationOptions::default()).unwrap();
            assert!(!v.check_bytes(data).is_empty(), "invalid UTF-8 accepted");
        }
        return;
    };
    let mut small = ValidationOptions::default();
    small.max_depth = 4;
    small.max_issues = 3;
    small.allow_unknown_agent_types = true;
    for kind in [EnvelopeKind::AgentResult, EnvelopeKind::ToolResult] {
        for opts in [ValidationOptions::default(), small.clone()] {
            let v = Validator::new(kind, opts).unwrap();
            let accepted = v.is_valid_str(text);
            let issues = v.diagnose_str(text);
            // The one pass over the bytes reports what the diagnostic walk does.
            assert_eq!(v.check_str(text), issues, "one pass vs collect on {text:?}");
            assert_eq!(
                accepted,
                issues.is_empty(),
                "accept vs collect on {text:?}: {issues}"
            );
            for issue in issues.iter() {
                assert!(issue.path.is_empty() || issue.path.starts_with('/'));
                assert!(!issue.message.is_empty());
            }
            if let Ok(value) = v.parse_json(text) {
                let walked = v.check_value(&value);
                // Same issues, same order: the same first max_issues.
                let brief = |i: &toolresult::Issues| {
                    i.iter()
                        .map(|i| format!("{} {}", i.path, i.code))
                        .collect::<Vec<_>>()
                };
                assert_eq!(
                    brief(&issues),
                    brief(&walked),
                    "collect vs walk on {text:?}"
                );
            }
        }
    }
});
