//! Building results (docs/spec.md §8 `CreateSuccess` / `CreateFailure`). The core
//! has no clock and no randomness: the caller supplies both in a [`Stamp`].

use alloc::format;
use alloc::string::{String, ToString};
use serde_json::{Map, Value};
use time::{Duration, OffsetDateTime, UtcOffset};

use crate::issue::{quote_text, Issue, IssueCode, Issues, Num};
use crate::validate::check::{json_type, parse_timestamp};
use crate::validate::options::ValidationOptions;
use crate::validate::{convert_tool_result, EnvelopeKind, Validator};
use crate::wire::status::ToolStatus;
use crate::wire::tool_result::{ToolResult, ToolResultVersion};

/// What the environment supplies when a result is built.
#[derive(Debug, Clone, Copy)]
pub struct Stamp {
    /// The current time, in milliseconds since the Unix epoch.
    pub now_unix_ms: f64,
    /// 16 random bytes for the execution id (UUID v4).
    pub random: [u8; 16],
}

/// Fields a build spec may carry besides `input`, `output` and the error fields;
/// they go to `metadata` unchanged.
const METADATA_PASSTHROUGH: &[&str] = &[
    "execution_id",
    "output_truncated",
    "sandbox_id",
    "resource_metrics",
    "execution_metrics",
    "agent_id",
    "user_id",
    "batch_id",
    "batch_index",
    "correlation_id",
];
const TIMING: &[&str] = &["started_at", "completed_at", "duration_ms"];

/// Builds a `success` result from a spec object:
/// `{ input: { tool_name, parameters?, tool_call_id? }, output?, side_effects?,
///    started_at?, completed_at?, duration_ms?, ...metadata fields }`.
///
/// ```
/// use serde_json::json;
/// use toolresult::{create_success, Stamp, ToolStatus};
///
/// let stamp = Stamp { now_unix_ms: 1_767_225_600_000.0, random: [1; 16] };
/// let spec = json!({ "input": { "tool_name": "ls", "parameters": {} }, "output": ["a", "b"] });
/// let result = create_success(spec, stamp).unwrap();
/// assert_eq!(result.status, ToolStatus::Success);
/// assert_eq!(result.metadata.started_at, "2026-01-01T00:00:00.000Z");
///
/// // A spec without `input` is refused with an issue, never a panic.
/// assert!(create_success(json!({ "output": 1 }), stamp).is_err());
/// ```
pub fn create_success(spec: Value, stamp: Stamp) -> Result<ToolResult, Issues> {
    typed(build_value(spec, stamp, false)?)
}

/// Builds a failed result; the spec also needs `status` (any status but
/// `success`), `error_code` and `error_message`.
pub fn create_failure(spec: Value, stamp: Stamp) -> Result<ToolResult, Issues> {
    typed(build_value(spec, stamp, true)?)
}

/// `build_value` has validated the result already; only convert it.
fn typed(value: Value) -> Result<ToolResult, Issues> {
    convert_tool_result(value)
}

fn spec_issue(key: &str, code: IssueCode, message: String) -> Issues {
    Issues::from(Issue::new(format!("/{key}"), code, message))
}

/// Builds and validates a result as a JSON value (what `create_success` /
/// `create_failure` return, before conversion to the typed form). Bindings
/// use it to hand the value on without a typed round trip.
pub fn build_value(spec: Value, stamp: Stamp, failure: bool) -> Result<Value, Issues> {
    let Value::Object(mut spec) = spec else {
        return Err(Issues::from(Issue::new(
            "",
            IssueCode::InvalidType,
            format!("expected a spec object, got {}", json_type(&spec)),
        )));
    };
    let mut allowed: alloc::vec::Vec<&str> = alloc::vec![
        "input",
        "output",
        "side_effects",
        "error_code",
        "error_message",
        "content",
        "meta",
        "tool_metadata"
    ];
    allowed.extend_from_slice(METADATA_PASSTHROUGH);
    allowed.extend_from_slice(TIMING);
    if failure {
        allowed.push("status");
    }
    if let Some(key) = spec.keys().find(|k| !allowed.contains(&k.as_str())) {
        let hint = if key == "status" {
            " (createSuccess always sets status `success`; use createFailure for other statuses)"
        } else {
            ""
        };
        return Err(spec_issue(
            key,
            IssueCode::UnknownField,
            format!("unknown field {} in build spec{hint}", quote_text(key, '`')),
        ));
    }

    let status = if failure {
        failure_status(spec.get("status"))?
    } else {
        ToolStatus::Success
    };

    let mut input = spec.remove("input").unwrap_or(Value::Null);
    if let Value::Object(o) = &mut input {
        // Parameters are optional when building; the wire form always has them.
        o.entry("parameters")
            .or_insert_with(|| Value::Object(Map::new()));
    }

    let (started_at, completed_at, duration_ms) = timing(&spec, stamp.now_unix_ms)?;

    let mut metadata = Map::new();
    metadata.insert(
        "execution_id".into(),
        Value::String(
            uuid::Builder::from_random_bytes(stamp.random)
                .into_uuid()
                .hyphenated()
                .to_string(),
        ),
    );
    metadata.insert("started_at".into(), Value::String(started_at));
    metadata.insert("completed_at".into(), Value::String(completed_at));
    metadata.insert("duration_ms".into(), duration_ms);
    let output = spec.remove("output").filter(|o| !o.is_null());
    if let Some(out) = &output {
        let size = serde_json::to_vec(out).map_or(0, |b| b.len());
        metadata.insert("output_size".into(), Value::from(size as u64));
    }
    metadata.insert("output_truncated".into(), Value::Bool(false));
    for key in METADATA_PASSTHROUGH {
        if let Some(v) = spec.remove(*key) {
            metadata.insert((*key).into(), v);
        }
    }

    let mut result = Map::new();
    result.insert("input".into(), input);
    if let Some(out) = output {
        result.insert("output".into(), out);
    }
    result.insert("status".into(), Value::String(status.as_str().into()));
    for key in [
        "error_message",
        "error_code",
        "content",
        "meta",
        "side_effects",
        "tool_metadata",
    ] {
        if let Some(v) = spec.remove(key) {
            result.insert(key.into(), v);
        }
    }
    result.insert("metadata".into(), Value::Object(metadata));
    // The oldest version that holds the result (docs/spec.md §5).
    let version = ToolResultVersion::FIELDS_SINCE
        .iter()
        .filter(|(field, _)| result.get(*field).is_some_and(|v| !v.is_null()))
        .map(|(_, since)| *since)
        .max()
        .unwrap_or(ToolResultVersion::SUPPORTED[0]);
    result.insert("schema_version".into(), Value::String(version.into()));

    let result = Value::Object(result);
    let issues = Validator::new(EnvelopeKind::ToolResult, ValidationOptions::default())?
        .check_value(&result);
    if issues.is_empty() {
        Ok(result)
    } else {
        Err(spec_paths(issues))
    }
}

/// Issues come from validating the built result; point them back at the spec,
/// where metadata fields sit at the top level.
fn spec_paths(issues: Issues) -> Issues {
    Issues(
        issues
            .into_iter()
            .map(|mut issue| {
                if let Some(rest) = issue.path.strip_prefix("/metadata") {
                    issue.path = String::from(rest);
                }
                issue
            })
            .collect(),
    )
}

fn failure_status(v: Option<&Value>) -> Result<ToolStatus, Issues> {
    let failures: alloc::vec::Vec<&str> = ToolStatus::ALL
        .iter()
        .filter(|s| !s.is_success())
        .map(|s| s.as_str())
        .collect();
    let name = match v {
        None => {
            return Err(spec_issue(
                "status",
                IssueCode::MissingField,
                format!(
                    "createFailure needs a `status`, one of: {}",
                    failures.join(", ")
                ),
            ))
        }
        Some(Value::String(s)) => s.as_str(),
        Some(other) => {
            return Err(spec_issue(
                "status",
                IssueCode::InvalidType,
                format!("expected string, got {}", json_type(other)),
            ))
        }
    };
    match ToolStatus::parse(name) {
        Some(s) if !s.is_success() => Ok(s),
        _ => Err(spec_issue(
            "status",
            IssueCode::InvalidEnum,
            format!(
                "{} is not a failure status; one of: {}",
                quote_text(name, '`'),
                failures.join(", ")
            ),
        )),
    }
}

/// Resolves started_at / completed_at / duration_ms from whatever the spec
/// gives, filling the rest from the clock:
/// completed_at defaults to now; started_at to completed_at - duration_ms (or
/// completed_at); duration_ms to completed_at - started_at.
fn timing(spec: &Map<String, Value>, now_unix_ms: f64) -> Result<(String, String, Value), Issues> {
    let time_field = |key: &str| -> Result<Option<(OffsetDateTime, String)>, Issues> {
        match spec.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => match parse_timestamp(s) {
                Some(t) => Ok(Some((t, s.clone()))),
                None => Err(spec_issue(
                    key,
                    IssueCode::InvalidTimestamp,
                    format!(
                        "{} is not an RFC 3339 timestamp like 2026-01-31T12:00:00Z",
                        quote_text(s, '`')
                    ),
                )),
            },
            Some(other) => Err(spec_issue(
                key,
                IssueCode::InvalidType,
                format!("expected an RFC 3339 string, got {}", json_type(other)),
            )),
        }
    };
    let duration = match spec.get("duration_ms") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_f64() {
            Some(d) if d >= 0.0 => Some((d, Value::Number(n.clone()))),
            _ => {
                return Err(spec_issue(
                    "duration_ms",
                    IssueCode::Negative,
                    String::from("duration_ms must be >= 0"),
                ))
            }
        },
        Some(other) => {
            return Err(spec_issue(
                "duration_ms",
                IssueCode::InvalidType,
                format!("expected number, got {}", json_type(other)),
            ))
        }
    };

    let completed = if let Some(c) = time_field("completed_at")? {
        c
    } else {
        let now = from_unix_ms(now_unix_ms).ok_or_else(|| {
            spec_issue(
                "completed_at",
                IssueCode::InvalidTimestamp,
                format!(
                    "the clock reading {} ms is not a usable time",
                    Num(now_unix_ms)
                ),
            )
        })?;
        (now, format_rfc3339_millis(now))
    };
    let started = if let Some(s) = time_field("started_at")? {
        s
    } else {
        let back = duration.as_ref().map_or(0.0, |(d, _)| *d);
        // A duration longer than the calendar reaches is refused, not a panic (fuzz: builders).
        let t = Duration::checked_seconds_f64(back / 1000.0)
            .and_then(|d| completed.0.checked_sub(d))
            .ok_or_else(|| {
                spec_issue(
                    "duration_ms",
                    IssueCode::NumberOutOfRange,
                    format!(
                        "duration_ms {} reaches before the earliest time a timestamp can name; give started_at",
                        Num(back)
                    ),
                )
            })?;
        (t, format_rfc3339_millis(t))
    };
    let duration = if let Some((_, v)) = duration {
        v
    } else {
        let ms = (completed.0 - started.0).whole_milliseconds();
        Value::from(ms.max(0) as u64)
    };
    Ok((started.1, completed.1, duration))
}

fn from_unix_ms(ms: f64) -> Option<OffsetDateTime> {
    if !ms.is_finite() {
        return None;
    }
    OffsetDateTime::from_unix_timestamp_nanos((ms as i128) * 1_000_000).ok()
}

/// `2026-01-31T12:00:00.123Z`, the shape of JavaScript's `toISOString()`.
pub fn format_rfc3339_millis(t: OffsetDateTime) -> String {
    let t = t.to_offset(UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.millisecond()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::validate_tool_result;
    use serde_json::json;

    const STAMP: Stamp = Stamp {
        now_unix_ms: 1_795_000_000_123.0,
        random: [7; 16],
    };

    #[test]
    fn success_stamps_id_times_and_size() {
        let r = create_success(
            json!({"input": {"tool_name": "read_file", "parameters": {"path": "a"}},
                   "output": {"content": "héllo"}, "duration_ms": 250}),
            STAMP,
        )
        .unwrap();
        assert_eq!(r.status, ToolStatus::Success);
        let id = uuid::Uuid::parse_str(&r.metadata.execution_id).unwrap();
        assert_eq!(id.get_version_num(), 4);
        assert_eq!(r.metadata.completed_at, "2026-11-18T11:06:40.123Z");
        assert_eq!(r.metadata.started_at, "2026-11-18T11:06:39.873Z");
        assert_eq!(r.metadata.duration_ms, 250.0);
        // {"content":"héllo"} is 20 bytes: é is two bytes in UTF-8.
        assert_eq!(r.metadata.output_size, Some(20));
        let text = serde_json::to_string(&r).unwrap();
        assert!(validate_tool_result(&text, &ValidationOptions::default()).is_empty());
    }

    #[test]
    fn numbers_in_the_output_survive_exactly() {
        // Found by a property test: without serde_json's `float_roundtrip`
        // this came back as -3.74239088018063e-261.
        let spec = r#"{"input": {"tool_name": "t"}, "output": [-3.7423908801806307e-261, 0.1, 1e300, 5e-324]}"#;
        let spec = crate::json::parse_str(
            spec,
            crate::json::ParseLimits {
                max_bytes: 1 << 20,
                max_depth: 8,
            },
        )
        .unwrap();
        let built = build_value(spec, STAMP, false).unwrap();
        assert_eq!(
            serde_json::to_string(&built["output"]).unwrap(),
            "[-3.7423908801806307e-261,0.1,1e+300,5e-324]"
        );
    }

    #[test]
    fn duration_is_derived_from_given_times() {
        let r = create_success(
            json!({"input": {"tool_name": "t"}, "started_at": "2026-01-01T00:00:00Z",
                   "completed_at": "2026-01-01T00:00:02.5Z"}),
            STAMP,
        )
        .unwrap();
        assert_eq!(r.metadata.duration_ms, 2500.0);
        assert_eq!(r.metadata.output_size, None);
        assert!(r.input.parameters.is_empty());
    }

    #[test]
    fn failure_needs_failure_status_and_error_fields() {
        let input = json!({"tool_name": "t"});
        let e = create_failure(json!({"input": input, "status": "success"}), STAMP).unwrap_err();
        assert_eq!(
            (e.0[0].path.as_str(), e.0[0].code),
            ("/status", IssueCode::InvalidEnum)
        );
        let e = create_failure(json!({"input": input, "status": "timeout"}), STAMP).unwrap_err();
        let codes: alloc::vec::Vec<_> = e.iter().map(|i| (i.path.as_str(), i.code)).collect();
        assert_eq!(
            codes,
            [
                ("/error_code", IssueCode::MissingError),
                ("/error_message", IssueCode::MissingError)
            ]
        );
        let r = create_failure(
            json!({"input": input, "status": "rate_limited", "error_code": "RATE_LIMITED",
                   "error_message": "slow down", "batch_id": "5a0d9c8b-7f6e-4d2c-8b6c-0f1a2b3c4d5e",
                   "batch_index": 3}),
            STAMP,
        )
        .unwrap();
        assert_eq!(r.status, ToolStatus::RateLimited);
        assert_eq!(r.metadata.batch_index, Some(3));
    }

    #[test]
    fn spec_errors_point_at_spec_fields() {
        let e = create_success(
            json!({"input": {"tool_name": "t"}, "agent_id": "nope"}),
            STAMP,
        )
        .unwrap_err();
        assert_eq!(
            (e.0[0].path.as_str(), e.0[0].code),
            ("/agent_id", IssueCode::InvalidUuid)
        );
        let e = create_success(
            json!({"input": {"tool_name": "t"}, "status": "failed"}),
            STAMP,
        )
        .unwrap_err();
        assert_eq!(e.0[0].code, IssueCode::UnknownField);
        assert!(e.0[0].message.contains("createFailure"));
        let e = create_success(json!({"input": {"tool_name": ""}}), STAMP).unwrap_err();
        assert_eq!(
            (e.0[0].path.as_str(), e.0[0].code),
            ("/input/tool_name", IssueCode::EmptyString)
        );
        let e = create_success(json!([]), STAMP).unwrap_err();
        assert_eq!(e.0[0].code, IssueCode::InvalidType);
        let bad_clock = Stamp {
            now_unix_ms: f64::NAN,
            ..STAMP
        };
        let e = create_success(json!({"input": {"tool_name": "t"}}), bad_clock).unwrap_err();
        assert_eq!(e.0[0].code, IssueCode::InvalidTimestamp);
    }
}
