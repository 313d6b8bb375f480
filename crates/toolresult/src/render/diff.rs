//! Diff hunks from two texts (docs/spec.md §6): what a
//! `file_edit` result carries, computed with the `similar` crate (Myers'
//! algorithm on lines), never by hand. Needs the `std` feature.

use alloc::string::String;
use alloc::vec::Vec;
use similar::{ChangeTag, TextDiff};

use crate::wire::tool_metadata::{DiffHunk, DiffLine, DiffLineType};

/// Unified-diff hunks turning `old` into `new`, with `context` unchanged
/// lines around each change (3 is `diff -u`'s). Identical texts give no
/// hunks. Line endings are not part of the lines' content.
pub fn diff_hunks(old: &str, new: &str, context: usize) -> Vec<DiffHunk> {
    let diff = TextDiff::from_lines(old, new);
    let mut hunks = Vec::new();
    for group in diff.grouped_ops(context) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_range = first.old_range().start..last.old_range().end;
        let new_range = first.new_range().start..last.new_range().end;
        let mut lines = Vec::new();
        for op in &group {
            for change in diff.iter_changes(op) {
                let content: String = change.value().trim_end_matches(['\n', '\r']).into();
                let line = |n: Option<usize>| n.map(|i| i as u64 + 1);
                let (kind, old_line, new_line) = match change.tag() {
                    ChangeTag::Equal => (
                        DiffLineType::Context,
                        line(change.old_index()),
                        line(change.new_index()),
                    ),
                    ChangeTag::Delete => (DiffLineType::Removed, line(change.old_index()), None),
                    ChangeTag::Insert => (DiffLineType::Added, None, line(change.new_index())),
                };
                lines.push(DiffLine {
                    kind,
                    content,
                    old_line,
                    new_line,
                });
            }
        }
        let count = |r: &core::ops::Range<usize>| (r.end - r.start) as u64;
        // `diff -u` numbers an empty side from the line before it.
        let start = |r: &core::ops::Range<usize>| {
            if r.is_empty() {
                r.start as u64
            } else {
                r.start as u64 + 1
            }
        };
        hunks.push(DiffHunk {
            old_start: start(&old_range),
            old_count: count(&old_range),
            new_start: start(&new_range),
            new_count: count(&new_range),
            lines,
        });
    }
    hunks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bound::preview::unified_diff;

    #[test]
    fn hunks_match_diff_u() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nc\nD\ne\nf\ng\nh\ni\n";
        let hunks = diff_hunks(old, new, 1);
        assert_eq!(
            unified_diff(&hunks),
            "@@ -3,3 +3,3 @@\n c\n-d\n+D\n e\n@@ -8,1 +8,2 @@\n h\n+i"
        );
        assert!(diff_hunks(old, old, 3).is_empty());
        let all_new = diff_hunks("", "x\n", 3);
        assert_eq!(
            (
                all_new[0].old_start,
                all_new[0].old_count,
                all_new[0].new_start
            ),
            (0, 0, 1)
        );
    }
}
