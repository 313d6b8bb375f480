//! ResultStore: idempotent puts, conflicts, lookups, history order and
//! filters, dialog listing, retention with reported evictions, metrics; plus
//! summaries and references (docs/spec.md §12).

use proptest::prelude::*;
use serde_json::{json, Value};
use toolresult::{summarize, to_reference, IssueCode, ToolResult, ToolStatus};
use toolresult::{EvictionReason, HistoryQuery, ResultStore, RetentionPolicy};

/// A retention policy: the defaults, changed by `set` (the struct is
/// `#[non_exhaustive]`).
fn retention(set: impl FnOnce(&mut RetentionPolicy)) -> RetentionPolicy {
    let mut r = RetentionPolicy::default();
    set(&mut r);
    r
}

#[allow(clippy::needless_pass_by_value)] // called with json!(…) literals
fn result(i: u32, tool: &str, started: &str, output: Value) -> ToolResult {
    serde_json::from_value(json!({
        "input": {"tool_name": tool, "parameters": {"path": format!("f{i}.txt")}, "tool_call_id": format!("call_{i}")},
        "output": output,
        "status": "success",
        "metadata": {
            "execution_id": format!("00000000-0000-4000-8000-{i:012}"),
            "started_at": started,
            "completed_at": started,
            "duration_ms": 0
        },
        "schema_version": "1.0.0"
    }))
    .unwrap()
}

const T0: &str = "2026-11-22T10:00:00Z";
const NOW: i64 = 1_795_341_600_000; // 2026-11-22T10:00:00Z

#[test]
fn put_is_idempotent_and_never_overwrites() {
    let mut s = ResultStore::default();
    let r = result(1, "read_file", T0, json!("a\nb\n"));
    assert!(s.put(r.clone(), Some("d1"), None, NOW).unwrap().stored);
    assert!(!s.put(r.clone(), Some("d1"), None, NOW).unwrap().stored);
    assert_eq!(s.len(), 1);
    let mut changed = r.clone();
    changed.output = Some(json!("other"));
    let e = s.put(changed, Some("d1"), None, NOW).unwrap_err();
    assert_eq!(e.0[0].code, IssueCode::StoreConflict);
    assert_eq!(e.0[0].path, "/metadata/execution_id");
    assert_eq!(
        s.get(&r.metadata.execution_id),
        Some(&r),
        "the first one is kept"
    );
    // Another execution claiming the same tool call id is a conflict too.
    let mut same_call = result(2, "read_file", T0, json!(""));
    same_call.input.tool_call_id = Some("call_1".into());
    assert_eq!(
        s.put(same_call, None, None, NOW).unwrap_err().0[0].path,
        "/input/tool_call_id"
    );
    assert_eq!(s.get_by_tool_call_id("call_1"), Some(&r));
    assert_eq!(s.get_by_tool_call_id("call_9"), None);
}

#[test]
fn history_is_newest_first_with_filters() {
    let mut s = ResultStore::default();
    for (i, t) in [
        "2026-11-22T10:00:01Z",
        "2026-11-22T10:00:03Z",
        "2026-11-22T10:00:02Z",
    ]
    .iter()
    .enumerate()
    {
        s.put(
            result(i as u32, "grep", t, json!({"matches": i})),
            None,
            None,
            NOW,
        )
        .unwrap();
    }
    let mut failed = result(10, "grep", "2026-11-22T10:00:04Z", Value::Null);
    failed.status = ToolStatus::Timeout;
    failed.error_code = Some("TIMEOUT".into());
    failed.error_message = Some("slow".into());
    s.put(failed, None, None, NOW).unwrap();
    s.put(result(20, "bash", T0, json!({})), None, None, NOW)
        .unwrap();

    let order: Vec<&str> = s
        .history("grep", &HistoryQuery::default())
        .unwrap()
        .iter()
        .map(|r| r.metadata.started_at.as_str())
        .collect();
    assert_eq!(
        order,
        [
            "2026-11-22T10:00:04Z",
            "2026-11-22T10:00:03Z",
            "2026-11-22T10:00:02Z",
            "2026-11-22T10:00:01Z"
        ]
    );
    let q = HistoryQuery {
        limit: 2,
        status: Some(ToolStatus::Success),
        ..Default::default()
    };
    assert_eq!(s.history("grep", &q).unwrap().len(), 2);
    assert!(s
        .history("grep", &q)
        .unwrap()
        .iter()
        .all(|r| r.status == ToolStatus::Success));
    let q = HistoryQuery {
        since: Some("2026-11-22T10:00:02Z".into()),
        until: Some("2026-11-22T10:00:04Z".into()),
        ..Default::default()
    };
    assert_eq!(s.history("grep", &q).unwrap().len(), 2);
    let bad = HistoryQuery {
        since: Some("yesterday".into()),
        ..Default::default()
    };
    assert_eq!(s.history("grep", &bad).unwrap_err().0[0].path, "/since");
    assert_eq!(
        s.history(
            "grep",
            &HistoryQuery {
                limit: 0,
                ..Default::default()
            }
        )
        .unwrap_err()
        .0[0]
            .code,
        IssueCode::InvalidOptions
    );
    assert!(s
        .history("nope", &HistoryQuery::default())
        .unwrap()
        .is_empty());
}

#[test]
fn retention_evicts_oldest_and_reports_it() {
    let mut s = ResultStore::new(retention(|r| r.max_count = Some(2)));
    s.put(result(1, "t", T0, json!(1)), Some("d"), None, NOW)
        .unwrap();
    s.put(result(2, "t", T0, json!(2)), Some("d"), None, NOW)
        .unwrap();
    let r = s
        .put(result(3, "t", T0, json!(3)), Some("d"), None, NOW)
        .unwrap();
    assert_eq!(r.evicted.len(), 1);
    assert_eq!(r.evicted[0].tool_call_id, "call_1");
    assert_eq!(r.evicted[0].reason, EvictionReason::MaxCount);
    assert_eq!(
        s.list_dialog("d")
            .iter()
            .map(|m| m.tool_call_id.as_str())
            .collect::<Vec<_>>(),
        ["call_2", "call_3"]
    );

    let mut s = ResultStore::new(retention(|r| r.max_bytes = Some(700)));
    let big = json!("x".repeat(300));
    s.put(result(1, "t", T0, big.clone()), None, None, NOW)
        .unwrap();
    let r = s.put(result(2, "t", T0, big), None, None, NOW).unwrap();
    assert_eq!(
        r.evicted.iter().map(|e| e.reason).collect::<Vec<_>>(),
        [EvictionReason::MaxBytes]
    );
    assert!(s.metrics().current_bytes <= 700);

    let mut s = ResultStore::new(retention(|r| r.max_age_ms = Some(60_000)));
    s.put(
        result(1, "t", "2026-11-22T09:58:00Z", json!(1)),
        None,
        None,
        NOW,
    )
    .unwrap_err_or_evicted();
    s.put(
        result(2, "t", "2026-11-22T09:59:30Z", json!(2)),
        None,
        None,
        NOW,
    )
    .unwrap();
    assert_eq!(s.len(), 1);
    let later = s.prune(NOW + 60_000);
    assert_eq!(later.len(), 1);
    assert_eq!(later[0].reason, EvictionReason::MaxAge);
    assert!(s.is_empty());
}

trait EvictedCheck {
    fn unwrap_err_or_evicted(self);
}
impl EvictedCheck for Result<toolresult::PutReport, toolresult::Issues> {
    /// A result already too old is stored and evicted at once: reported, not silent.
    fn unwrap_err_or_evicted(self) {
        let r = self.unwrap();
        assert!(r.stored);
        assert_eq!(r.evicted.len(), 1);
        assert_eq!(r.evicted[0].reason, EvictionReason::MaxAge);
    }
}

#[test]
fn metrics_count_statuses_sizes_and_evictions() {
    let mut s = ResultStore::new(retention(|r| r.max_count = Some(1)));
    s.put(result(1, "t", T0, json!("x".repeat(2000))), None, None, NOW)
        .unwrap();
    let mut bad = result(2, "t", T0, json!(1));
    bad.status = ToolStatus::OutputValidationFailed;
    bad.error_code = Some("OUTPUT_VALIDATION_FAILED".into());
    bad.error_message = Some("no".into());
    bad.metadata.output_truncated = true;
    s.put(bad, None, None, NOW).unwrap();
    let m = s.metrics();
    assert_eq!(m.stored, 2);
    assert_eq!(m.by_status.get("success"), Some(&1));
    assert_eq!(m.by_status.get("output_validation_failed"), Some(&1));
    assert_eq!(
        (
            m.truncated,
            m.validation_failures,
            m.evicted,
            m.current_count
        ),
        (1, 1, 1, 1)
    );
    assert_eq!(m.output_size.iter().map(|b| b.count).sum::<u64>(), 2);
    assert_eq!(
        m.output_size[0].count, 1,
        "1-byte output in the ≤1 KiB bucket"
    );
    assert_eq!(
        m.output_size[1].count, 1,
        "2 KB output in the ≤10 KiB bucket"
    );
}

#[test]
fn summaries_use_the_tools_argument_names() {
    let read: ToolResult = serde_json::from_value(json!({
        "input": {"tool_name": "read_file", "parameters": {"target_file": "src/main.py"}},
        "output": {"content": "a\nb\nc\n"},
        "status": "success",
        "metadata": {"execution_id": "00000000-0000-4000-8000-000000000001", "started_at": T0, "completed_at": T0, "duration_ms": 0},
        "schema_version": "1.0.0"
    }))
    .unwrap();
    assert_eq!(summarize(&read), "Read file: src/main.py (3 lines)");
    let mut grep = read.clone();
    grep.input.tool_name = "grep".into();
    grep.input.parameters =
        serde_json::from_value(json!({"pattern": "TODO", "path": "src"})).unwrap();
    grep.output = Some(json!({"matches": 12, "files": 4}));
    assert_eq!(
        summarize(&grep),
        "grep 'TODO' in src: 12 matches in 4 files"
    );
    let mut bash = read.clone();
    bash.input.tool_name = "bash".into();
    bash.input.parameters = serde_json::from_value(json!({"command": "make test"})).unwrap();
    bash.output = Some(json!({"exit_code": 0, "stdout": "ok\n".repeat(120)}));
    assert_eq!(summarize(&bash), "bash `make test`: exit 0, 120 lines");
    let mut other = read.clone();
    other.input.tool_name = "translate".into();
    other.input.parameters = serde_json::from_value(json!({"text": "hola", "to": "en"})).unwrap();
    other.metadata.output_size = Some(7);
    other.status = ToolStatus::RateLimited;
    other.error_code = Some("RATE_LIMITED".into());
    assert_eq!(
        summarize(&other),
        "translate(text=hola, to=en): 7 bytes: rate_limited (RATE_LIMITED)"
    );
}

#[test]
fn references_carry_summary_preview_and_where_to_find_the_rest() {
    let text: String = (0..100).map(|i| format!("line {i}\n")).collect();
    let r = result(7, "read_file", T0, json!(text));
    let reference = to_reference(&r, "dialog_123", None, 500);
    assert_eq!(reference.tool_call_id, "call_7");
    assert_eq!(reference.result_ref.dialog_id, "dialog_123");
    assert_eq!(reference.result_ref.storage_type, "tool_results");
    assert_eq!(reference.metadata.summary, "Read file: f7.txt (100 lines)");
    assert_eq!(
        reference.metadata.size_bytes,
        serde_json::to_string(&json!(text)).unwrap().len() as u64
    );
    let (shown, note) = reference
        .metadata
        .truncated_preview
        .split_once("\n…")
        .unwrap();
    assert!(
        text.starts_with(shown) && shown.ends_with('\n') && shown.chars().count() <= 500,
        "whole lines"
    );
    assert!(note.contains("get_tool_result"));
}

proptest! {
    #[test]
    fn history_is_always_sorted_and_bounded(starts in prop::collection::vec(0u32..100_000, 1..40), limit in 1usize..50) {
        let mut s = ResultStore::default();
        for (i, secs) in starts.iter().enumerate() {
            let t = time::OffsetDateTime::from_unix_timestamp(1_795_000_000 + i64::from(*secs)).unwrap()
                .format(&time::format_description::well_known::Rfc3339).unwrap();
            s.put(result(i as u32, "t", &t, json!(i)), None, None, NOW).unwrap();
        }
        let q = HistoryQuery { limit, ..Default::default() };
        let h = s.history("t", &q).unwrap();
        prop_assert_eq!(h.len(), limit.min(starts.len()));
        for pair in h.windows(2) {
            let a = toolresult::parse_timestamp(&pair[0].metadata.started_at).unwrap();
            let b = toolresult::parse_timestamp(&pair[1].metadata.started_at).unwrap();
            prop_assert!(a >= b);
        }
    }

    #[test]
    fn retention_limits_always_hold(sizes in prop::collection::vec(0usize..400, 1..30), max_count in 1usize..10, max_bytes in 300u64..3000) {
        let mut s = ResultStore::new(retention(|r| {
            r.max_count = Some(max_count);
            r.max_bytes = Some(max_bytes);
        }));
        let mut evicted = 0;
        for (i, n) in sizes.iter().enumerate() {
            let r = s.put(result(i as u32, "t", T0, json!("y".repeat(*n))), None, None, NOW).unwrap();
            evicted += r.evicted.len();
            prop_assert!(s.len() <= max_count);
            prop_assert!(s.metrics().current_bytes <= max_bytes);
        }
        prop_assert_eq!(s.len() + evicted, sizes.len(), "every result is held or reported evicted");
    }
}

/// What a store outside wasm memory keeps (`StoreEntry`) agrees with what
/// `ResultStore` keeps and counts for the same result.
#[test]
fn store_entry_agrees_with_the_in_memory_store() {
    use toolresult::{StoreEntry, SIZE_BUCKETS};
    let mut s = ResultStore::default();
    let r = result(
        7,
        "grep",
        "2026-11-22T10:00:01.5Z",
        json!({"m": "x".repeat(2000)}),
    );
    let report = s.put(r.clone(), Some("d"), None, NOW).unwrap();
    let entry = StoreEntry::of(&r, Some("d"), None).unwrap();
    assert_eq!(entry.meta, report.meta);
    assert_eq!(entry.started_ms, NOW + 1500);
    assert_eq!(entry.side_effects, 0);
    let metrics = s.metrics();
    assert_eq!(metrics.output_size[entry.size_bucket].count, 1);
    assert!(entry.meta.size_bytes > SIZE_BUCKETS[0] && entry.meta.size_bytes <= SIZE_BUCKETS[1]);
}

#[test]
fn history_bounds_check_and_resolve_queries() {
    let q = HistoryQuery {
        limit: 5,
        status: Some(ToolStatus::Timeout),
        since: Some(T0.into()),
        until: Some("2026-11-22T10:00:01Z".into()),
    };
    let b = q.bounds().unwrap();
    assert_eq!(
        (b.limit, b.status, b.since_ms, b.until_ms),
        (5, Some(ToolStatus::Timeout), Some(NOW), Some(NOW + 1000))
    );
    let bad = HistoryQuery {
        limit: 0,
        ..HistoryQuery::default()
    };
    assert_eq!(bad.bounds().unwrap_err().0[0].path, "/limit");
    let bad = HistoryQuery {
        until: Some("soon".into()),
        ..HistoryQuery::default()
    };
    let e = bad.bounds().unwrap_err();
    assert_eq!(
        (e.0[0].path.as_str(), e.0[0].code),
        ("/until", IssueCode::InvalidTimestamp)
    );
}
