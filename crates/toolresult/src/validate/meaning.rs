//! Checks of meaning: values that each have the right shape but contradict
//! each other. They read what the shape walk captured, so both validators
//! share them.

use alloc::format;
use alloc::string::String;

use crate::issue::{IssueCode, Num};
use crate::validate::options::ValidationOptions;
use crate::validate::shape::{Captures, Checked, Slot};

/// Receives each meaning issue: path, code, and a message built on demand.
pub(crate) trait Sink {
    fn meaning(&mut self, path: &str, code: IssueCode, message: &dyn Fn() -> String);
}

pub(crate) fn agent_result(c: &Captures, out: &mut dyn Sink) {
    let status = match c.get(Slot::Status) {
        Some(Checked::Name(s)) => Some(s),
        _ => None,
    };
    if let (Some(Checked::Bool(success)), Some(status)) = (c.get(Slot::Success), status) {
        if success != (status == "success") {
            out.meaning("/success", IssueCode::SuccessStatusMismatch, &|| {
                format!(
                    "success is {success} but status is `{status}`; success must be true exactly when status is `success`"
                )
            });
        }
    }
    match status {
        Some("failed") if !c.given(Slot::Error) => {
            out.meaning("/error", IssueCode::MissingError, &|| {
                String::from("status `failed` requires an `error` object with code and message")
            });
        }
        Some("success") if c.given(Slot::Error) => {
            out.meaning("/error", IssueCode::UnexpectedError, &|| {
                String::from(
                    "status `success` must not carry an `error`; use `warnings` for non-fatal problems",
                )
            });
        }
        _ => {}
    }
}

pub(crate) fn tool_result(c: &Captures, opts: &ValidationOptions, out: &mut dyn Sink) {
    if let Some(Checked::Name(status)) = c.get(Slot::Status) {
        for (slot, key, path) in [
            (Slot::ErrorCode, "error_code", "/error_code"),
            (Slot::ErrorMessage, "error_message", "/error_message"),
        ] {
            if status == "success" && c.given(slot) {
                out.meaning(path, IssueCode::UnexpectedError, &|| {
                    format!("status `success` must not carry `{key}`")
                });
            } else if status != "success" && !c.given(slot) {
                out.meaning(path, IssueCode::MissingError, &|| {
                    format!(
                        "status `{status}` requires `{key}` (failed results say why they failed)"
                    )
                });
            }
        }
    }

    if let (Some(Checked::Time(started)), Some(Checked::Time(completed))) =
        (c.get(Slot::StartedAt), c.get(Slot::CompletedAt))
    {
        let elapsed_ms = (completed - started).as_seconds_f64() * 1000.0;
        if elapsed_ms < 0.0 {
            out.meaning("/metadata/completed_at", IssueCode::TimeOrder, &|| {
                format!("completed_at is {} ms before started_at", Num(-elapsed_ms))
            });
        } else if let Some(Checked::Number(duration)) = c.get(Slot::Duration) {
            let tolerance = opts.duration_tolerance_ms;
            if (duration - elapsed_ms).abs() > tolerance {
                out.meaning("/metadata/duration_ms", IssueCode::DurationMismatch, &|| {
                    format!(
                        "duration_ms is {} but completed_at - started_at is {} ms (tolerance {} ms)",
                        Num(duration),
                        Num(elapsed_ms),
                        Num(tolerance)
                    )
                });
            }
        }
    }

    if c.get(Slot::BatchIndex).is_some() && !c.given(Slot::BatchId) {
        out.meaning(
            "/metadata/batch_index",
            IssueCode::BatchIndexWithoutBatch,
            &|| String::from("batch_index is set but batch_id is not"),
        );
    }
}
