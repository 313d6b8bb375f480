//! Lines of a stored output that match a pattern, for `get_tool_result`'s
//! `pattern` (docs/spec.md §12, docs/guide/storage.md "Lazy loading"). The output and the
//! pattern may both come from untrusted sources, so patterns are the `regex`
//! crate's: no backreferences or lookaround, matching in time linear in the
//! text, and compilation bounded by size limits. A pattern that does not
//! compile, or is too large, is an issue, never a panic or a hang.

use toolresult::{Issue, IssueCode};

/// The longest pattern accepted, in bytes.
pub const MAX_PATTERN_BYTES: usize = 1024;

/// Which lines matched: their 1-based numbers (at most `max`, in order) and
/// how many matched in all.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LineMatches {
    /// 1-based line numbers of the first matches, in order.
    pub lines: Vec<usize>,
    /// Every matching line at or after the first line searched.
    pub total: usize,
}

/// The lines of `text` (split at `\n`) from line `from_line` (1-based) on
/// that match `pattern`; `ignore_case` folds case.
pub fn grep_lines(
    text: &str,
    pattern: &str,
    from_line: usize,
    max: usize,
    ignore_case: bool,
) -> Result<LineMatches, Issue> {
    if pattern.len() > MAX_PATTERN_BYTES {
        return Err(Issue::new(
            "/pattern",
            IssueCode::InvalidOptions,
            format!(
                "the pattern is {} bytes; at most {MAX_PATTERN_BYTES} are accepted",
                pattern.len()
            ),
        ));
    }
    let re = regex::RegexBuilder::new(pattern)
        .case_insensitive(ignore_case)
        .size_limit(1 << 20)
        .dfa_size_limit(1 << 20)
        .nest_limit(64)
        .build()
        .map_err(|e| {
            let why = match e {
                regex::Error::CompiledTooBig(_) => String::from("it compiles to more than 1 MiB"),
                other => other.to_string(),
            };
            Issue::new(
                "/pattern",
                IssueCode::InvalidOptions,
                format!("the pattern is not a regular expression this tool runs: {why}"),
            )
        })?;
    let mut out = LineMatches {
        lines: Vec::new(),
        total: 0,
    };
    for (i, line) in text.split('\n').enumerate() {
        if i + 1 < from_line {
            continue;
        }
        if re.is_match(line) {
            out.total += 1;
            if out.lines.len() < max {
                out.lines.push(i + 1);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_lines_and_refuses_bad_patterns() {
        let text = "ok 1\nFAILED test_a\nok 2\nfailed test_b\n";
        let m = grep_lines(text, "FAIL", 1, 10, false).unwrap();
        assert_eq!(
            m,
            LineMatches {
                lines: vec![2],
                total: 1
            }
        );
        let m = grep_lines(text, "fail", 3, 10, true).unwrap();
        assert_eq!(
            m,
            LineMatches {
                lines: vec![4],
                total: 1
            }
        );
        assert_eq!(
            grep_lines(text, "(", 1, 10, false).unwrap_err().code,
            IssueCode::InvalidOptions
        );
        assert_eq!(
            grep_lines(text, "(a)\\1", 1, 10, false).unwrap_err().path,
            "/pattern"
        );
        assert!(grep_lines(text, "\\w{1000}{1000}", 1, 10, false).is_err());
        // A pattern that backtracks exponentially elsewhere runs in linear time here.
        let hostile = "a".repeat(50_000);
        assert_eq!(
            grep_lines(&hostile, "(a+)+$", 1, 10, false).unwrap().total,
            1
        );
    }
}
