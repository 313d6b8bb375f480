//! An in-memory result store (docs/spec.md §11 storage and history, §12's
//! per-dialog listing): results are immutable once stored, looked up by
//! execution id or tool call id, listed newest first per tool, and bounded by
//! a retention policy whose evictions are reported, never silent.
//!
//! The core has no clock: operations that depend on age take `now_ms`.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::bound::preview::preview_result;
use crate::issue::{quote_text, Issue, IssueCode, Issues};
use crate::limits::DEFAULT_PREVIEW_CHARS;
use crate::storage::reference::{call_id, output_bytes};
use crate::storage::summarize::summarize;
use crate::validate::check::parse_timestamp;
use crate::wire::status::ToolStatus;
use crate::wire::tool_result::ToolResult;

/// How much the store keeps. Absent limits do not apply.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[non_exhaustive]
pub struct RetentionPolicy {
    /// Evict results that started longer ago than this (checked on every put and by `prune`).
    pub max_age_ms: Option<u64>,
    /// Keep at most this many results (the oldest stored go first).
    pub max_count: Option<usize>,
    /// Keep at most this many bytes of stored results (their JSON text).
    pub max_bytes: Option<u64>,
}

/// What `history` returns (docs/spec.md §11, with filters).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, default)]
pub struct HistoryQuery {
    /// At most this many, newest first (1..=10000, default 100).
    pub limit: usize,
    /// Only results with this status.
    pub status: Option<ToolStatus>,
    /// RFC 3339: only results that started at or after this time.
    pub since: Option<String>,
    /// RFC 3339: only results that started before this time.
    pub until: Option<String>,
}

impl Default for HistoryQuery {
    fn default() -> Self {
        HistoryQuery {
            limit: 100,
            status: None,
            since: None,
            until: None,
        }
    }
}

/// A stored result's metadata (what `listDialog` returns, without the output).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StoredMeta {
    /// The result's `metadata.execution_id`.
    pub execution_id: String,
    /// `input.tool_call_id`, or the execution_id when the call had none.
    pub tool_call_id: String,
    /// The tool that ran.
    pub tool_name: String,
    /// How it ended.
    pub status: ToolStatus,
    /// The conversation it was stored for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog_id: Option<String>,
    /// When the execution started (RFC 3339).
    pub started_at: String,
    /// Bytes of the output (compact JSON), before any truncation.
    pub size_bytes: u64,
    /// Bytes the stored result takes (its JSON text).
    pub stored_bytes: u64,
    /// The output was cut before storing.
    pub output_truncated: bool,
    /// The one-line summary.
    pub summary: String,
    /// The first whole lines of what the result says (docs/guide/storage.md "Previews").
    pub preview: String,
}

/// Which retention limit evicted a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum EvictionReason {
    /// It was older than `max_age_ms`.
    MaxAge,
    /// The store held more than `max_count` results.
    MaxCount,
    /// The store held more than `max_bytes`.
    MaxBytes,
}

/// A result the retention policy removed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Eviction {
    /// The evicted result's execution id.
    pub execution_id: String,
    /// Its tool call id (`""` when it had none).
    pub tool_call_id: String,
    /// The tool that ran.
    pub tool_name: String,
    /// The conversation it was stored for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog_id: Option<String>,
    /// Why it was evicted.
    pub reason: EvictionReason,
}

/// What `put` did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PutReport {
    /// False when the same result was already stored (put is idempotent).
    pub stored: bool,
    /// What the store holds about the result.
    pub meta: StoredMeta,
    /// Results the retention policy removed to make room (possibly this one, if too old).
    pub evicted: Vec<Eviction>,
}

impl StoredMeta {
    /// The metadata a store keeps next to `result`, whose stored JSON text
    /// takes `stored_bytes`. `summary` defaults to [`summarize`].
    pub fn describe(
        result: &ToolResult,
        dialog_id: Option<&str>,
        summary: Option<String>,
        stored_bytes: u64,
    ) -> StoredMeta {
        StoredMeta {
            execution_id: result.metadata.execution_id.clone(),
            tool_call_id: String::from(call_id(result)),
            tool_name: result.input.tool_name.clone(),
            status: result.status,
            dialog_id: dialog_id.map(String::from),
            started_at: result.metadata.started_at.clone(),
            size_bytes: output_bytes(result),
            stored_bytes,
            output_truncated: result.metadata.output_truncated,
            summary: summary.unwrap_or_else(|| summarize(result)),
            preview: preview_result(result, DEFAULT_PREVIEW_CHARS),
        }
    }
}

/// What a store outside wasm memory (the PostgreSQL store) keeps next to a
/// result so that it answers `history`, `listDialog` and `metrics` with the
/// same meaning as [`ResultStore`]: the metadata, plus the columns it sorts
/// and counts by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StoreEntry {
    /// What the store holds about the result.
    pub meta: StoredMeta,
    /// `started_at` in milliseconds since the Unix epoch (what `history` sorts and filters by).
    pub started_ms: i64,
    /// How many side effects the result declares (`tools.results.side_effects`).
    pub side_effects: u64,
    /// Which output-size histogram bucket the result counts in (an index into `StoreMetrics.output_size`).
    pub size_bucket: usize,
}

impl StoreEntry {
    /// Describes `result` as [`ResultStore::put`] would store it.
    ///
    /// # Errors
    /// `internal_error` if the result cannot be serialized (it always can
    /// once parsed).
    pub fn of(
        result: &ToolResult,
        dialog_id: Option<&str>,
        summary: Option<String>,
    ) -> Result<StoreEntry, Issues> {
        let text = serde_json::to_string(result).map_err(|e| {
            Issues::from(Issue::new(
                "",
                IssueCode::InternalError,
                format!("cannot serialize: {e}"),
            ))
        })?;
        let meta = StoredMeta::describe(result, dialog_id, summary, text.len() as u64);
        Ok(StoreEntry {
            size_bucket: size_bucket(meta.size_bytes),
            meta,
            started_ms: clamp_ms(started_ms(result)),
            side_effects: result.side_effects.as_ref().map_or(0, |s| s.len() as u64),
        })
    }
}

/// A `HistoryQuery` checked and resolved: times as epoch milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HistoryBounds {
    /// At most this many results.
    pub limit: usize,
    /// Only results with this status.
    pub status: Option<ToolStatus>,
    /// Results that started at or after this (ms since the Unix epoch).
    pub since_ms: Option<i64>,
    /// Results that started before this (ms since the Unix epoch).
    pub until_ms: Option<i64>,
}

impl HistoryQuery {
    /// Checks the query (limit 1..=10000, RFC 3339 times) and resolves its times.
    ///
    /// # Errors
    /// `invalid_options` at `/limit`, `invalid_timestamp` at `/since` or `/until`.
    pub fn bounds(&self) -> Result<HistoryBounds, Issues> {
        if !(1..=10_000).contains(&self.limit) {
            return Err(Issues::from(Issue::new(
                "/limit",
                IssueCode::InvalidOptions,
                format!("limit must be 1..=10000, got {}", self.limit),
            )));
        }
        Ok(HistoryBounds {
            limit: self.limit,
            status: self.status,
            since_ms: self
                .since
                .as_deref()
                .map(|s| time_ms("since", s))
                .transpose()?,
            until_ms: self
                .until
                .as_deref()
                .map(|s| time_ms("until", s))
                .transpose()?,
        })
    }
}

/// The output-size histogram bucket `size_bytes` falls in.
fn size_bucket(size_bytes: u64) -> usize {
    SIZE_BUCKETS
        .iter()
        .position(|&le| size_bytes <= le)
        .unwrap_or(SIZE_BUCKETS.len())
}

/// Upper bounds (bytes) of the output-size histogram buckets; a last bucket
/// takes the rest.
pub const SIZE_BUCKETS: [u64; 5] = [1024, 10 * 1024, 100 * 1024, 1024 * 1024, 10 * 1024 * 1024];

/// One histogram bucket: outputs of at most `le` bytes (`null`: any size).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SizeBucket {
    /// Upper bound in bytes (inclusive); `None` for the last bucket.
    pub le: Option<u64>,
    /// Results in this bucket.
    pub count: u64,
}

/// The store's counters (docs/spec.md §7) and the output-size histogram, since the store was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StoreMetrics {
    /// `tools.results.stored`
    pub stored: u64,
    /// `tools.results.by_status`
    pub by_status: BTreeMap<String, u64>,
    /// `tools.results.truncated`
    pub truncated: u64,
    /// `tools.results.validation_failures` (status output_validation_failed or validation_error)
    pub validation_failures: u64,
    /// `tools.results.side_effects`
    pub side_effects: u64,
    /// Results evicted so far.
    pub evicted: u64,
    /// `tools.results.output_size`: counts per bucket (not cumulative).
    pub output_size: Vec<SizeBucket>,
    /// Sum of all output sizes, in bytes.
    pub output_size_sum: u64,
    /// Results held now, and their bytes.
    pub current_count: usize,
    /// Bytes of the results held now.
    pub current_bytes: u64,
}

impl Default for StoreMetrics {
    fn default() -> Self {
        StoreMetrics {
            stored: 0,
            by_status: BTreeMap::new(),
            truncated: 0,
            validation_failures: 0,
            side_effects: 0,
            evicted: 0,
            output_size: SIZE_BUCKETS
                .iter()
                .map(|&le| SizeBucket {
                    le: Some(le),
                    count: 0,
                })
                .chain(core::iter::once(SizeBucket { le: None, count: 0 }))
                .collect(),
            output_size_sum: 0,
            current_count: 0,
            current_bytes: 0,
        }
    }
}

#[derive(Debug)]
struct Entry {
    result: ToolResult,
    text: String,
    meta: StoredMeta,
    seq: u64,
    started_ms: i128,
}

/// Results in memory, by execution id.
#[derive(Debug, Default)]
pub struct ResultStore {
    retention: RetentionPolicy,
    entries: BTreeMap<String, Entry>,
    by_call: BTreeMap<String, String>,
    next_seq: u64,
    bytes: u64,
    metrics: StoreMetrics,
}

fn started_ms(result: &ToolResult) -> i128 {
    parse_timestamp(&result.metadata.started_at).map_or(0, |t| t.unix_timestamp_nanos() / 1_000_000)
}

/// Milliseconds since the Unix epoch, clamped to what an `i64` (and a JS
/// number's safe range, for any RFC 3339 year) holds.
fn clamp_ms(ms: i128) -> i64 {
    i64::try_from(ms).unwrap_or(if ms < 0 { i64::MIN } else { i64::MAX })
}

fn time_ms(field: &str, s: &str) -> Result<i64, Issues> {
    parse_timestamp(s)
        .map(|t| clamp_ms(t.unix_timestamp_nanos() / 1_000_000))
        .ok_or_else(|| {
            Issues::from(Issue::new(
                format!("/{field}"),
                IssueCode::InvalidTimestamp,
                format!(
                    "{} is not an RFC 3339 timestamp like 2026-01-31T12:00:00Z",
                    quote_text(s, '`')
                ),
            ))
        })
}

impl ResultStore {
    /// An empty store with this retention.
    pub fn new(retention: RetentionPolicy) -> Self {
        ResultStore {
            retention,
            ..ResultStore::default()
        }
    }

    /// Stores a result. The same result again is a no-op (`stored: false`);
    /// a different result under a stored execution_id or tool_call_id is a
    /// `store_conflict` error: stored results are never overwritten.
    pub fn put(
        &mut self,
        result: ToolResult,
        dialog_id: Option<&str>,
        summary: Option<String>,
        now_ms: i64,
    ) -> Result<PutReport, Issues> {
        let text = serde_json::to_string(&result).map_err(|e| {
            Issues::from(Issue::new(
                "",
                IssueCode::InternalError,
                format!("cannot serialize: {e}"),
            ))
        })?;
        let id = result.metadata.execution_id.clone();
        let call = String::from(call_id(&result));
        if let Some(existing) = self.entries.get(&id) {
            if existing.text == text && existing.meta.dialog_id.as_deref() == dialog_id {
                return Ok(PutReport {
                    stored: false,
                    meta: existing.meta.clone(),
                    evicted: Vec::new(),
                });
            }
            return Err(Issues::from(Issue::new(
                "/metadata/execution_id",
                IssueCode::StoreConflict,
                format!("a different result is already stored under execution_id {id}; stored results are never overwritten"),
            )));
        }
        if let Some(other) = self.by_call.get(&call) {
            return Err(Issues::from(Issue::new(
                "/input/tool_call_id",
                IssueCode::StoreConflict,
                format!("tool_call_id {call} already belongs to execution {other}"),
            )));
        }
        let meta = StoredMeta::describe(&result, dialog_id, summary, text.len() as u64);
        self.count(&result, &meta);
        self.bytes += meta.stored_bytes;
        let seq = self.next_seq;
        self.next_seq += 1;
        self.by_call.insert(call, id.clone());
        let started = started_ms(&result);
        self.entries.insert(
            id,
            Entry {
                result,
                text,
                meta: meta.clone(),
                seq,
                started_ms: started,
            },
        );
        let evicted = self.enforce(now_ms);
        Ok(PutReport {
            stored: true,
            meta,
            evicted,
        })
    }

    fn count(&mut self, result: &ToolResult, meta: &StoredMeta) {
        let m = &mut self.metrics;
        m.stored += 1;
        *m.by_status
            .entry(String::from(result.status.as_str()))
            .or_default() += 1;
        if meta.output_truncated {
            m.truncated += 1;
        }
        if matches!(
            result.status,
            ToolStatus::OutputValidationFailed | ToolStatus::ValidationError
        ) {
            m.validation_failures += 1;
        }
        m.side_effects += result.side_effects.as_ref().map_or(0, |s| s.len() as u64);
        m.output_size[size_bucket(meta.size_bytes)].count += 1;
        m.output_size_sum += meta.size_bytes;
    }

    /// Applies the retention policy now; returns what it removed.
    pub fn prune(&mut self, now_ms: i64) -> Vec<Eviction> {
        self.enforce(now_ms)
    }

    fn enforce(&mut self, now_ms: i64) -> Vec<Eviction> {
        let mut evicted = Vec::new();
        if let Some(max_age) = self.retention.max_age_ms {
            let cutoff = i128::from(now_ms) - i128::from(max_age);
            let old: Vec<String> = self
                .entries
                .values()
                .filter(|e| e.started_ms < cutoff)
                .map(|e| e.meta.execution_id.clone())
                .collect();
            for id in old {
                evicted.push(self.evict(&id, EvictionReason::MaxAge));
            }
        }
        while self
            .retention
            .max_count
            .is_some_and(|max| self.entries.len() > max)
        {
            let Some(id) = self.oldest() else { break };
            evicted.push(self.evict(&id, EvictionReason::MaxCount));
        }
        while self.retention.max_bytes.is_some_and(|max| self.bytes > max) {
            let Some(id) = self.oldest() else { break };
            evicted.push(self.evict(&id, EvictionReason::MaxBytes));
        }
        evicted
    }

    fn oldest(&self) -> Option<String> {
        self.entries
            .values()
            .min_by_key(|e| e.seq)
            .map(|e| e.meta.execution_id.clone())
    }

    fn evict(&mut self, id: &str, reason: EvictionReason) -> Eviction {
        let entry = self.entries.remove(id).expect("evicting a stored id");
        self.by_call.remove(&entry.meta.tool_call_id);
        self.bytes -= entry.meta.stored_bytes;
        self.metrics.evicted += 1;
        Eviction {
            execution_id: entry.meta.execution_id,
            tool_call_id: entry.meta.tool_call_id,
            tool_name: entry.meta.tool_name,
            dialog_id: entry.meta.dialog_id,
            reason,
        }
    }

    /// The result with this execution id.
    pub fn get(&self, execution_id: &str) -> Option<&ToolResult> {
        self.entries.get(execution_id).map(|e| &e.result)
    }

    /// The stored JSON text of a result.
    pub fn get_text(&self, execution_id: &str) -> Option<&str> {
        self.entries.get(execution_id).map(|e| e.text.as_str())
    }

    /// The execution id stored under a tool call id.
    pub fn execution_for_call(&self, tool_call_id: &str) -> Option<&str> {
        self.by_call.get(tool_call_id).map(String::as_str)
    }

    /// The result answering this tool call.
    pub fn get_by_tool_call_id(&self, tool_call_id: &str) -> Option<&ToolResult> {
        self.get(self.execution_for_call(tool_call_id)?)
    }

    /// What the store holds about a result.
    pub fn meta(&self, execution_id: &str) -> Option<&StoredMeta> {
        self.entries.get(execution_id).map(|e| &e.meta)
    }

    /// A tool's results, newest first by `started_at` (then by storing order).
    pub fn history(
        &self,
        tool_name: &str,
        query: &HistoryQuery,
    ) -> Result<Vec<&ToolResult>, Issues> {
        let bounds = query.bounds()?;
        let mut found: Vec<&Entry> = self
            .entries
            .values()
            .filter(|e| e.meta.tool_name == tool_name)
            .filter(|e| bounds.status.is_none_or(|s| e.result.status == s))
            .filter(|e| {
                bounds
                    .since_ms
                    .is_none_or(|t| e.started_ms >= i128::from(t))
            })
            .filter(|e| bounds.until_ms.is_none_or(|t| e.started_ms < i128::from(t)))
            .collect();
        found.sort_by(|a, b| b.started_ms.cmp(&a.started_ms).then(b.seq.cmp(&a.seq)));
        Ok(found
            .into_iter()
            .take(bounds.limit)
            .map(|e| &e.result)
            .collect())
    }

    /// The metadata of a dialog's results, in the order they were stored.
    pub fn list_dialog(&self, dialog_id: &str) -> Vec<&StoredMeta> {
        let mut found: Vec<&Entry> = self
            .entries
            .values()
            .filter(|e| e.meta.dialog_id.as_deref() == Some(dialog_id))
            .collect();
        found.sort_by_key(|e| e.seq);
        found.into_iter().map(|e| &e.meta).collect()
    }

    /// Results held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No result held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Counters since the store was made, and what it holds now.
    pub fn metrics(&self) -> StoreMetrics {
        StoreMetrics {
            current_count: self.entries.len(),
            current_bytes: self.bytes,
            ..self.metrics.clone()
        }
    }
}
