//! Meaning checks of `tool_metadata`: values that each have the right shape
//! but contradict each other (docs/spec.md §6). They run on the
//! parsed value in both validators, after its shape was walked, and read it
//! defensively: a field with the wrong shape was already reported.

use alloc::format;
use alloc::vec::Vec;
use serde_json::Value;

use crate::issue::{quote_text, IssueCode};
use crate::validate::check::Checker;

fn count(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_f64).map(|n| n as u64)
}

fn array<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The checks that need only the metadata object.
pub(crate) fn check(c: &mut Checker, tool_type: &str, m: &Value) {
    match tool_type {
        "file_edit" | "file_multi_edit" => hunks(c, m),
        "grep" => matches(c, m),
        "todo" => todo(c, m),
        "batch" => batch(c, m),
        _ => {}
    }
}

fn hunks(c: &mut Checker, m: &Value) {
    for (i, h) in array(m, "diff_hunks").iter().enumerate() {
        let lines = array(h, "lines");
        let of = |kinds: &[&str]| {
            lines
                .iter()
                .filter(|l| {
                    l.get("type")
                        .and_then(Value::as_str)
                        .is_some_and(|t| kinds.contains(&t))
                })
                .count() as u64
        };
        let (old, new) = (of(&["context", "removed"]), of(&["context", "added"]));
        c.at("diff_hunks", |c| {
            c.at_index(i, |c| {
                for (key, want) in [("old_count", old), ("new_count", new)] {
                    if let Some(got) = count(h, key) {
                        if got != want {
                            c.at(key, |c| {
                                c.report(
                                    IssueCode::HunkCountMismatch,
                                    format!("{key} is {got} but the hunk's lines make {want}"),
                                );
                            });
                        }
                    }
                }
            });
        });
    }
}

fn matches(c: &mut Checker, m: &Value) {
    for (i, r) in array(m, "results").iter().enumerate() {
        for (j, hit) in array(r, "matches").iter().enumerate() {
            let Some(content) = hit.get("content").and_then(Value::as_str) else {
                continue;
            };
            let (Some(start), Some(end)) = (count(hit, "match_start"), count(hit, "match_end"))
            else {
                continue;
            };
            let len = content.encode_utf16().count() as u64;
            if start > end || end > len {
                c.at("results", |c| {
                    c.at_index(i, |c| {
                        c.at("matches", |c| {
                            c.at_index(j, |c| {
                                c.report(
                                    IssueCode::MatchOutOfLine,
                                    format!(
                                        "match_start..match_end is {start}..{end} but the line is {len} UTF-16 code units long"
                                    ),
                                );
                            });
                        });
                    });
                });
            }
        }
    }
}

fn todo(c: &mut Checker, m: &Value) {
    let items = array(m, "todo_list");
    let Some(stats) = m.get("statistics").filter(|s| s.is_object()) else {
        return;
    };
    let by = |status: &str| {
        items
            .iter()
            .filter(|t| t.get("status").and_then(Value::as_str) == Some(status))
            .count() as u64
    };
    let want = [
        ("total", items.len() as u64),
        ("completed", by("completed")),
        ("in_progress", by("in_progress")),
        ("pending", by("pending")),
    ];
    c.at("statistics", |c| {
        for (key, want) in want {
            if let Some(got) = count(stats, key) {
                if got != want {
                    c.at(key, |c| {
                        c.report(
                            IssueCode::StatisticsMismatch,
                            format!("{key} is {got} but todo_list has {want}"),
                        );
                    });
                }
            }
        }
    });
}

fn batch(c: &mut Checker, m: &Value) {
    let results = array(m, "sub_results");
    let ok = results
        .iter()
        .filter(|r| r.get("status").and_then(Value::as_str) == Some("success"))
        .count() as u64;
    let failed = results.len() as u64 - ok;
    for (key, want) in [("success_count", ok), ("failure_count", failed)] {
        if let Some(got) = count(m, key) {
            if got != want {
                c.at(key, |c| {
                    c.report(
                        IssueCode::BatchCountMismatch,
                        format!("{key} is {got} but sub_results has {want}"),
                    );
                });
            }
        }
    }
}

/// The checks that compare the metadata with its envelope.
pub(crate) fn with_envelope(c: &mut Checker, m: &Value, envelope: &Value) {
    // Only a status that passed its own check counts: the streaming
    // validator compares with what it captured, which is nothing otherwise.
    let status = envelope
        .get("status")
        .and_then(Value::as_str)
        .filter(|s| crate::wire::status::ToolStatus::parse(s).is_some());
    if m.get("tool_type").and_then(Value::as_str) == Some("bash")
        && m.get("timed_out") == Some(&Value::Bool(true))
        && status.is_some_and(|s| s != "timeout")
    {
        let status = status.unwrap_or_default();
        c.at("timed_out", |c| {
            c.report(
                IssueCode::TimeoutStatusMismatch,
                format!(
                    "the command timed out but the result's status is {}; use `timeout`",
                    quote_text(status, '`')
                ),
            );
        });
    }
    if envelope.get("schema_version").and_then(Value::as_str) == Some("1.0.0") {
        c.report(
            IssueCode::FieldNeedsNewerVersion,
            "tool_metadata is part of ToolResult 1.1.0, but this result says schema_version 1.0.0; set schema_version to 1.1.0",
        );
    }
}
