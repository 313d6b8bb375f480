use toolresult::{parse_tool_result, Issues, ValidationOptions};
use toolresult::{HistoryQuery, ResultStore, RetentionPolicy, StoreEntry};
use wasm_bindgen::prelude::*;

use toolresult::options_from_json;
use toolresult_wasm_io::reply::{outcome, to_json};

fn some(s: &str) -> Option<&str> {
    (!s.is_empty()).then_some(s)
}

/// An in-memory ResultStore. Construction never throws: read `error()`.
// In JS the class has the name of the Rust type it holds (docs/internals/modules.md).
#[wasm_bindgen(js_name = ResultStore)]
pub struct ResultStoreHandle(Result<ResultStore, Issues>);

#[wasm_bindgen(js_class = ResultStore)]
impl ResultStoreHandle {
    #[wasm_bindgen(constructor)]
    pub fn new(retention_json: &str) -> ResultStoreHandle {
        ResultStoreHandle(
            options_from_json::<RetentionPolicy>(retention_json, "retention policy")
                .map(ResultStore::new),
        )
    }

    pub fn error(&self) -> String {
        match &self.0 {
            Ok(_) => String::new(),
            Err(issues) => to_json(issues),
        }
    }

    /// Validates and stores a ToolResult (JSON text): `{ok, value: PutReport}`.
    /// `dialog_id` and `summary` are `""` when absent.
    pub fn put(
        &mut self,
        result_json: &str,
        dialog_id: &str,
        summary: &str,
        now_ms: f64,
    ) -> String {
        outcome(match &mut self.0 {
            Ok(store) => {
                parse_tool_result(result_json, &ValidationOptions::default()).and_then(|result| {
                    store.put(
                        result,
                        some(dialog_id),
                        some(summary).map(String::from),
                        now_ms as i64,
                    )
                })
            }
            Err(issues) => Err(issues.clone()),
        })
    }

    /// The stored JSON text, or `""`.
    pub fn get(&self, execution_id: &str) -> String {
        self.0
            .as_ref()
            .ok()
            .and_then(|s| s.get_text(execution_id))
            .unwrap_or_default()
            .to_owned()
    }

    pub fn get_by_tool_call_id(&self, tool_call_id: &str) -> String {
        let Ok(store) = &self.0 else {
            return String::new();
        };
        store
            .execution_for_call(tool_call_id)
            .and_then(|id| store.get_text(id))
            .unwrap_or_default()
            .to_owned()
    }

    /// `{ok, value: [ToolResult...]}`, newest first.
    pub fn history(&self, tool_name: &str, query_json: &str) -> String {
        let Ok(store) = &self.0 else {
            return outcome::<()>(Err(self.0.as_ref().err().cloned().unwrap_or_default()));
        };
        match options_from_json::<HistoryQuery>(query_json, "history query")
            .and_then(|q| store.history(tool_name, &q))
        {
            Ok(results) => {
                // The stored texts, joined: no re-serialization.
                let texts: Vec<&str> = results
                    .iter()
                    .filter_map(|r| store.get_text(&r.metadata.execution_id))
                    .collect();
                format!("{{\"ok\":true,\"value\":[{}]}}", texts.join(","))
            }
            Err(issues) => outcome::<()>(Err(issues)),
        }
    }

    pub fn list_dialog(&self, dialog_id: &str) -> String {
        match &self.0 {
            Ok(store) => to_json(&store.list_dialog(dialog_id)),
            Err(_) => "[]".into(),
        }
    }

    pub fn meta(&self, execution_id: &str) -> String {
        match &self.0 {
            Ok(store) => store.meta(execution_id).map(to_json).unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    /// Applies the retention policy: the evictions as a JSON array.
    pub fn prune(&mut self, now_ms: f64) -> String {
        match &mut self.0 {
            Ok(store) => to_json(&store.prune(now_ms as i64)),
            Err(_) => "[]".into(),
        }
    }

    pub fn metrics(&self) -> String {
        match &self.0 {
            Ok(store) => to_json(&store.metrics()),
            Err(_) => "{}".into(),
        }
    }

    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, ResultStore::len)
    }
}

/// What a store outside wasm memory keeps next to a result (ToolResult JSON
/// text): `{ok, value: StoreEntry}`. `dialog_id` and `summary` are `""` when
/// absent.
#[wasm_bindgen]
pub fn store_entry(result_json: &str, dialog_id: &str, summary: &str) -> String {
    outcome(
        parse_tool_result(result_json, &ValidationOptions::default()).and_then(|result| {
            StoreEntry::of(&result, some(dialog_id), some(summary).map(String::from))
        }),
    )
}

/// A history query checked and resolved: `{ok, value: HistoryBounds}`.
#[wasm_bindgen]
pub fn history_bounds(query_json: &str) -> String {
    outcome(options_from_json::<HistoryQuery>(query_json, "history query").and_then(|q| q.bounds()))
}

/// A retention policy checked: `{ok, value: RetentionPolicy}`.
#[wasm_bindgen]
pub fn retention_policy(policy_json: &str) -> String {
    outcome(options_from_json::<RetentionPolicy>(
        policy_json,
        "retention policy",
    ))
}

/// Metrics of an empty store (`StoreMetrics`): the histogram's bucket bounds
/// for stores that count in SQL.
#[wasm_bindgen]
pub fn empty_store_metrics() -> String {
    to_json(&toolresult::StoreMetrics::default())
}
