//! The two status sets: the tool execution statuses (with their numeric
//! codes and categories) and the agent task statuses (docs/spec.md §3).

use serde::{Deserialize, Serialize};

/// Where a status belongs. Tool categories follow the code ranges of docs/spec.md §3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum StatusCategory {
    /// Code 0.
    Success,
    /// Codes 1-9: the run ended without a result (timeout, cancellation, confirmation).
    Termination,
    /// Codes 10-19.
    Authorization,
    /// Codes 20-29.
    Validation,
    /// Codes 30-39.
    Execution,
    /// Codes 40-49.
    Sandbox,
    /// Agent tasks that have not finished (pending, queued, running).
    InProgress,
}

/// What a status means, for both status sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StatusInfo {
    /// The numeric status code (docs/spec.md); agent statuses without a tool counterpart have none.
    pub code: Option<u8>,
    /// Where the status belongs (docs/spec.md §3).
    pub category: StatusCategory,
    /// The run produced its result.
    pub success: bool,
    /// The status will not change any more.
    pub terminal: bool,
    /// Trying the same call again may succeed.
    pub retryable: bool,
}

/// Outcome of one tool execution (docs/spec.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ToolStatus {
    /// Finished and did what was asked (code 0).
    Success,
    /// Ran and failed (30).
    Failed,
    /// Stopped at its time limit (1; retryable).
    Timeout,
    /// Stopped on request (2).
    Cancelled,
    /// Waiting for a person to confirm (3; not terminal).
    RequiresConfirmation,
    /// The sandbox failed (40; retryable).
    SandboxError,
    /// Not allowed (10).
    PermissionDenied,
    /// The input failed its schema (20).
    ValidationError,
    /// No such tool (31).
    ToolNotFound,
    /// Needs a license (11).
    LicenseRequired,
    /// The output failed its schema (21).
    OutputValidationFailed,
    /// Refused for now by a rate limit (32; retryable).
    RateLimited,
    /// Stopped by a security rule (41).
    SecurityViolation,
    /// Ran out of a resource (42).
    ResourceLimitExceeded,
}

impl ToolStatus {
    /// Every tool status.
    pub const ALL: [ToolStatus; 14] = [
        ToolStatus::Success,
        ToolStatus::Failed,
        ToolStatus::Timeout,
        ToolStatus::Cancelled,
        ToolStatus::RequiresConfirmation,
        ToolStatus::SandboxError,
        ToolStatus::PermissionDenied,
        ToolStatus::ValidationError,
        ToolStatus::ToolNotFound,
        ToolStatus::LicenseRequired,
        ToolStatus::OutputValidationFailed,
        ToolStatus::RateLimited,
        ToolStatus::SecurityViolation,
        ToolStatus::ResourceLimitExceeded,
    ];

    /// The wire names, in `ALL` order.
    pub const NAMES: [&'static str; 14] = {
        let mut names = [""; 14];
        let mut i = 0;
        while i < 14 {
            names[i] = Self::ALL[i].as_str();
            i += 1;
        }
        names
    };

    /// The wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            ToolStatus::Success => "success",
            ToolStatus::Failed => "failed",
            ToolStatus::Timeout => "timeout",
            ToolStatus::Cancelled => "cancelled",
            ToolStatus::RequiresConfirmation => "requires_confirmation",
            ToolStatus::SandboxError => "sandbox_error",
            ToolStatus::PermissionDenied => "permission_denied",
            ToolStatus::ValidationError => "validation_error",
            ToolStatus::ToolNotFound => "tool_not_found",
            ToolStatus::LicenseRequired => "license_required",
            ToolStatus::OutputValidationFailed => "output_validation_failed",
            ToolStatus::RateLimited => "rate_limited",
            ToolStatus::SecurityViolation => "security_violation",
            ToolStatus::ResourceLimitExceeded => "resource_limit_exceeded",
        }
    }

    /// The status named `s`.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// The numeric status code (docs/spec.md).
    pub fn code(self) -> u8 {
        match self {
            ToolStatus::Success => 0,
            ToolStatus::Timeout => 1,
            ToolStatus::Cancelled => 2,
            ToolStatus::RequiresConfirmation => 3,
            ToolStatus::PermissionDenied => 10,
            ToolStatus::LicenseRequired => 11,
            ToolStatus::ValidationError => 20,
            ToolStatus::OutputValidationFailed => 21,
            ToolStatus::Failed => 30,
            ToolStatus::ToolNotFound => 31,
            ToolStatus::RateLimited => 32,
            ToolStatus::SandboxError => 40,
            ToolStatus::SecurityViolation => 41,
            ToolStatus::ResourceLimitExceeded => 42,
        }
    }

    /// Where the status belongs.
    pub fn category(self) -> StatusCategory {
        match self.code() {
            0 => StatusCategory::Success,
            1..=9 => StatusCategory::Termination,
            10..=19 => StatusCategory::Authorization,
            20..=29 => StatusCategory::Validation,
            30..=39 => StatusCategory::Execution,
            _ => StatusCategory::Sandbox,
        }
    }

    /// The status is `success`.
    pub fn is_success(self) -> bool {
        self == ToolStatus::Success
    }

    /// Code, category, terminality and retryability.
    pub fn info(self) -> StatusInfo {
        StatusInfo {
            code: Some(self.code()),
            category: self.category(),
            success: self.is_success(),
            // Awaiting confirmation is a pause: the same call resumes once confirmed.
            terminal: self != ToolStatus::RequiresConfirmation,
            // Transient conditions only; a rejected input or permission stays rejected.
            retryable: matches!(
                self,
                ToolStatus::Timeout | ToolStatus::RateLimited | ToolStatus::SandboxError
            ),
        }
    }
}

/// State of one agent task (docs/spec.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AgentStatus {
    /// Not started.
    Pending,
    /// Waiting to run.
    Queued,
    /// Running.
    Running,
    /// Finished and did what was asked.
    Success,
    /// Finished and failed.
    Failed,
    /// Stopped at its time limit.
    Timeout,
    /// Stopped on request.
    Cancelled,
}

impl AgentStatus {
    /// Every agent status.
    pub const ALL: [AgentStatus; 7] = [
        AgentStatus::Pending,
        AgentStatus::Queued,
        AgentStatus::Running,
        AgentStatus::Success,
        AgentStatus::Failed,
        AgentStatus::Timeout,
        AgentStatus::Cancelled,
    ];

    /// The wire names, in `ALL` order.
    pub const NAMES: [&'static str; 7] = {
        let mut names = [""; 7];
        let mut i = 0;
        while i < 7 {
            names[i] = Self::ALL[i].as_str();
            i += 1;
        }
        names
    };

    /// The wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            AgentStatus::Pending => "pending",
            AgentStatus::Queued => "queued",
            AgentStatus::Running => "running",
            AgentStatus::Success => "success",
            AgentStatus::Failed => "failed",
            AgentStatus::Timeout => "timeout",
            AgentStatus::Cancelled => "cancelled",
        }
    }

    /// The status named `s`.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// The tool status with the same meaning, where there is one.
    pub fn tool_counterpart(self) -> Option<ToolStatus> {
        match self {
            AgentStatus::Success => Some(ToolStatus::Success),
            AgentStatus::Failed => Some(ToolStatus::Failed),
            AgentStatus::Timeout => Some(ToolStatus::Timeout),
            AgentStatus::Cancelled => Some(ToolStatus::Cancelled),
            _ => None,
        }
    }

    /// The status is `success`.
    pub fn is_success(self) -> bool {
        self == AgentStatus::Success
    }

    /// Code, category, terminality and retryability.
    pub fn info(self) -> StatusInfo {
        match self.tool_counterpart() {
            Some(tool) => tool.info(),
            None => StatusInfo {
                code: None,
                category: StatusCategory::InProgress,
                success: false,
                terminal: false,
                retryable: false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_codes_match_the_spec() {
        let codes: alloc::vec::Vec<(&str, u8)> = ToolStatus::ALL
            .iter()
            .map(|s| (s.as_str(), s.code()))
            .collect();
        assert_eq!(
            codes,
            [
                ("success", 0),
                ("failed", 30),
                ("timeout", 1),
                ("cancelled", 2),
                ("requires_confirmation", 3),
                ("sandbox_error", 40),
                ("permission_denied", 10),
                ("validation_error", 20),
                ("tool_not_found", 31),
                ("license_required", 11),
                ("output_validation_failed", 21),
                ("rate_limited", 32),
                ("security_violation", 41),
                ("resource_limit_exceeded", 42),
            ]
        );
    }

    #[test]
    fn names_round_trip_through_serde() {
        for s in ToolStatus::ALL {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, alloc::format!("\"{}\"", s.as_str()));
            assert_eq!(ToolStatus::parse(s.as_str()), Some(s));
        }
        for s in AgentStatus::ALL {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, alloc::format!("\"{}\"", s.as_str()));
        }
    }

    #[test]
    fn categories_follow_code_ranges() {
        assert_eq!(
            ToolStatus::PermissionDenied.category(),
            StatusCategory::Authorization
        );
        assert_eq!(
            ToolStatus::ResourceLimitExceeded.category(),
            StatusCategory::Sandbox
        );
        assert_eq!(ToolStatus::Timeout.category(), StatusCategory::Termination);
        assert!(!AgentStatus::Running.info().terminal);
        assert_eq!(AgentStatus::Failed.info().code, Some(30));
    }
}
