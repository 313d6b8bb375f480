//! Shapes as data: which fields exist, which are required, and the rule each
//! value follows, and the check of one scalar against a rule. Both validators
//! read the tables (`envelope_shape.rs`, `metadata_shape.rs`): the streaming
//! walk over the text (`text.rs`) and the diagnostic walk over a value
//! (`value.rs`), so the two cannot disagree about what a field may hold.

use alloc::format;
use alloc::string::String;
use time::OffsetDateTime;

use crate::issue::{quote_text, IssueCode, Num};
use crate::validate::check::{
    is_hyphenated_uuid, is_screaming_snake_case, is_whole, parse_timestamp,
};
use crate::validate::options::ValidationOptions;
use crate::wire::agent_result::AgentType;

/// What a value must be.
#[derive(Debug)]
pub(crate) enum Rule {
    /// Any JSON value (payloads such as `output`).
    Any,
    /// Any JSON object (payloads such as `result`, `parameters`).
    AnyObject,
    Str,
    NonEmpty,
    Bool,
    /// A duration: a number >= 0, fractions allowed.
    NonNegative,
    /// A count or size: a whole number in 0..=max.
    Count(u64),
    Uuid,
    Timestamp,
    ErrorCode,
    Sha256,
    Enum(&'static [&'static str]),
    /// The five agent types of the wire format, widened by options.
    AgentType,
    Version(&'static [&'static str]),
    ArrayOf(&'static Rule),
    Struct(&'static Shape),
    /// A whole number of either sign (exit codes).
    Int,
    /// An object whose shape its `tag` field picks (`tool_metadata`). Both
    /// validators check it on the parsed value, after the envelope.
    Tagged(&'static Tagged),
    /// A nested ToolResult (a batch's results), checked in full: shape,
    /// meaning and its own `tool_metadata`.
    NestedToolResult,
}

/// The variants of a tagged object.
#[derive(Debug)]
pub(crate) struct Tagged {
    pub tag: &'static str,
    pub variants: &'static [(&'static str, &'static Shape)],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Presence {
    Required,
    /// May be absent or `null`.
    Optional,
    /// Has a default: may be absent, but not `null`.
    Defaulted,
}

/// Values the meaning checks need, captured while the shape is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Success,
    Status,
    Error,
    ErrorCode,
    ErrorMessage,
    StartedAt,
    CompletedAt,
    Duration,
    BatchIndex,
    BatchId,
    SchemaVersion,
    ToolMetadata,
}
pub(crate) const SLOTS: usize = 12;

#[derive(Debug)]
pub(crate) struct Field {
    pub name: &'static str,
    pub rule: Rule,
    pub presence: Presence,
    pub slot: Option<Slot>,
}

#[derive(Debug)]
pub(crate) struct Shape {
    pub fields: &'static [Field],
    /// Other fields are allowed (and kept as they are).
    pub open: bool,
}

pub(crate) const fn field(name: &'static str, rule: Rule, presence: Presence) -> Field {
    Field {
        name,
        rule,
        presence,
        slot: None,
    }
}

pub(crate) const fn slot(name: &'static str, rule: Rule, presence: Presence, slot: Slot) -> Field {
    Field {
        name,
        rule,
        presence,
        slot: Some(slot),
    }
}

use Presence::Required;

/// A content block: any object with a `type` (MCP's five kinds and others).
pub(crate) static CONTENT_BLOCK: Shape = Shape {
    open: true,
    fields: &[field("type", Rule::NonEmpty, Required)],
};

/// A scalar as either validator sees it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Scalar<'a> {
    Null,
    Bool(bool),
    Number(f64),
    Str(&'a str),
    Array,
    Object,
}

impl Scalar<'_> {
    pub fn type_name(&self) -> &'static str {
        match self {
            Scalar::Null => "null",
            Scalar::Bool(_) => "boolean",
            Scalar::Number(_) => "number",
            Scalar::Str(_) => "string",
            Scalar::Array => "array",
            Scalar::Object => "object",
        }
    }
}

/// What a passed check yields for the meaning checks.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Checked {
    Other,
    Bool(bool),
    Number(f64),
    Time(OffsetDateTime),
    /// A member of an enum table.
    Name(&'static str),
}

/// Why a check failed. Messages are only built when someone reads them.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Problem<'a> {
    Type {
        expected: &'static str,
        got: &'static str,
    },
    Empty,
    Negative(f64),
    NotWhole(f64),
    TooBig(u64),
    NotInEnum(&'a str, &'static [&'static str]),
    AgentType(&'a str),
    Version(&'a str, &'static [&'static str]),
    Uuid(&'a str),
    Timestamp(&'a str),
    ErrorCode(&'a str),
    Sha256,
}

impl Problem<'_> {
    pub fn code(&self) -> IssueCode {
        match self {
            Problem::Type { .. } | Problem::TooBig(_) => IssueCode::InvalidType,
            Problem::Empty => IssueCode::EmptyString,
            Problem::Negative(_) => IssueCode::Negative,
            Problem::NotWhole(_) => IssueCode::NotInteger,
            Problem::NotInEnum(..) | Problem::AgentType(_) => IssueCode::InvalidEnum,
            Problem::Version(..) => IssueCode::UnsupportedVersion,
            Problem::Uuid(_) => IssueCode::InvalidUuid,
            Problem::Timestamp(_) => IssueCode::InvalidTimestamp,
            Problem::ErrorCode(_) => IssueCode::InvalidErrorCode,
            Problem::Sha256 => IssueCode::InvalidSha256,
        }
    }

    pub fn message(&self, opts: &ValidationOptions) -> String {
        // Built with `push_str` rather than `format!`: this runs for every
        // issue of an invalid input, and the formatting machinery is the
        // slow part of it in wasm.
        let quoted = |s: &str, tail: &str| {
            let mut out = quote_text(s, '`');
            out.push_str(tail);
            out
        };
        let listed = |s: &str, between: &str, names: &[&str], tail: &str| {
            let mut out = quote_text(s, '`');
            out.push_str(between);
            push_joined(&mut out, names.iter().copied());
            out.push_str(tail);
            out
        };
        match *self {
            Problem::Type { expected, got } => concat(&["expected ", expected, ", got ", got]),
            Problem::Empty => String::from("must not be empty"),
            Problem::Negative(n) => format!("must be >= 0, got {}", Num(n)),
            Problem::NotWhole(n) => format!("must be a whole number, got {}", Num(n)),
            Problem::TooBig(max) => format!("must be at most {max}"),
            Problem::NotInEnum(s, allowed) => listed(s, " is not one of: ", allowed, ""),
            Problem::AgentType(s) => {
                let mut out = quote_text(s, '`');
                out.push_str(" is not one of: ");
                push_joined(
                    &mut out,
                    AgentType::KNOWN
                        .iter()
                        .copied()
                        .chain(opts.extra_agent_types.iter().map(String::as_str)),
                );
                out.push_str(" (pass allowUnknownAgentTypes or extraAgentTypes to accept others)");
                out
            }
            Problem::Version(s, supported) => {
                let mut out = String::from("version ");
                out.push_str(&listed(
                    s,
                    " is not supported; supported versions: ",
                    supported,
                    "",
                ));
                out
            }
            Problem::Uuid(s) => quoted(
                s,
                " is not a UUID like 0b5e4d3c-2a19-4f7e-9c1d-5a6b7c8d9e0f",
            ),
            Problem::Timestamp(s) => {
                quoted(s, " is not an RFC 3339 timestamp like 2026-01-31T12:00:00Z")
            }
            Problem::ErrorCode(s) => {
                quoted(s, " is not SCREAMING_SNAKE_CASE (like FILE_NOT_FOUND)")
            }
            Problem::Sha256 => String::from("must be 64 lowercase hex digits"),
        }
    }
}

fn concat(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        out.push_str(p);
    }
    out
}

/// `a, b, c`.
fn push_joined<'a>(out: &mut String, names: impl Iterator<Item = &'a str>) {
    for (i, name) in names.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(name);
    }
}

fn expected(rule: &Rule) -> &'static str {
    match rule {
        Rule::Any => "any value",
        Rule::AnyObject | Rule::Struct(_) | Rule::Tagged(_) | Rule::NestedToolResult => "object",
        Rule::ArrayOf(_) => "array",
        Rule::Bool => "boolean",
        Rule::NonNegative | Rule::Count(_) | Rule::Int => "number",
        _ => "string",
    }
}

/// Checks a scalar (or the type of a container) against a rule. Containers
/// that match their rule's type pass here; their contents are the caller's.
pub(crate) fn check<'a>(
    rule: &Rule,
    value: Scalar<'a>,
    opts: &ValidationOptions,
) -> Result<Checked, Problem<'a>> {
    let mismatch = || Problem::Type {
        expected: expected(rule),
        got: value.type_name(),
    };
    match (rule, value) {
        (Rule::Any, _) => Ok(Checked::Other),
        (
            Rule::AnyObject | Rule::Struct(_) | Rule::Tagged(_) | Rule::NestedToolResult,
            Scalar::Object,
        ) => Ok(Checked::Other),
        (Rule::Int, Scalar::Number(n)) => {
            if is_whole(n.abs()) {
                Ok(Checked::Number(n))
            } else {
                Err(Problem::NotWhole(n))
            }
        }
        (Rule::ArrayOf(_), Scalar::Array) => Ok(Checked::Other),
        (Rule::Bool, Scalar::Bool(b)) => Ok(Checked::Bool(b)),
        (Rule::NonNegative, Scalar::Number(n)) => {
            if n < 0.0 {
                Err(Problem::Negative(n))
            } else {
                Ok(Checked::Number(n))
            }
        }
        (Rule::Count(max), Scalar::Number(n)) => {
            if n < 0.0 {
                Err(Problem::Negative(n))
            } else if n > *max as f64 {
                Err(Problem::TooBig(*max))
            } else if !is_whole(n) {
                Err(Problem::NotWhole(n))
            } else {
                Ok(Checked::Number(n))
            }
        }
        (Rule::Str, Scalar::Str(_)) => Ok(Checked::Other),
        (Rule::NonEmpty, Scalar::Str(s)) => {
            if s.is_empty() {
                Err(Problem::Empty)
            } else {
                Ok(Checked::Other)
            }
        }
        (Rule::Uuid, Scalar::Str(s)) => {
            if is_hyphenated_uuid(s) {
                Ok(Checked::Other)
            } else {
                Err(Problem::Uuid(s))
            }
        }
        (Rule::Timestamp, Scalar::Str(s)) => match parse_timestamp(s) {
            Some(t) => Ok(Checked::Time(t)),
            None => Err(Problem::Timestamp(s)),
        },
        (Rule::ErrorCode, Scalar::Str(s)) => {
            if is_screaming_snake_case(s) {
                Ok(Checked::Other)
            } else {
                Err(Problem::ErrorCode(s))
            }
        }
        (Rule::Sha256, Scalar::Str(s)) => {
            let hex = s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
            if hex {
                Ok(Checked::Other)
            } else {
                Err(Problem::Sha256)
            }
        }
        (Rule::Enum(allowed), Scalar::Str(s)) => match allowed.iter().find(|a| **a == s) {
            Some(name) => Ok(Checked::Name(name)),
            None => Err(Problem::NotInEnum(s, allowed)),
        },
        (Rule::Version(supported), Scalar::Str(s)) => {
            if let Some(v) = supported.iter().find(|v| **v == s) {
                Ok(Checked::Name(v))
            } else {
                Err(Problem::Version(s, supported))
            }
        }
        (Rule::AgentType, Scalar::Str(s)) => {
            if s.is_empty() {
                Err(Problem::Empty)
            } else if AgentType::KNOWN.contains(&s)
                || opts.allow_unknown_agent_types
                || opts.extra_agent_types.iter().any(|t| t == s)
            {
                Ok(Checked::Other)
            } else {
                Err(Problem::AgentType(s))
            }
        }
        _ => Err(mismatch()),
    }
}

/// What the shape walk captured for the meaning checks.
#[derive(Debug, Default)]
pub(crate) struct Captures {
    /// The field was present and not null (whether or not it passed).
    pub given: [bool; SLOTS],
    /// The field passed its check.
    pub value: [Option<Checked>; SLOTS],
}

impl Captures {
    pub fn get(&self, slot: Slot) -> Option<Checked> {
        self.value[slot as usize]
    }
    pub fn given(&self, slot: Slot) -> bool {
        self.given[slot as usize]
    }
}
