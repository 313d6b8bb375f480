//! Validation issues: what is wrong, where (a JSON Pointer) and a stable code.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use serde::{Deserialize, Serialize};

use crate::limits::MESSAGE_QUOTE_CHARS;

/// One problem found in an input. `path` is a JSON Pointer (RFC 6901) into the
/// input: `""` is the root, `/metrics/duration_ms` a nested field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Issue {
    /// JSON Pointer (RFC 6901) of the offending value; `""` is the whole input.
    pub path: String,
    /// What is wrong (stable; see `IssueCode::description`).
    pub code: IssueCode,
    /// What is wrong and what to do, for a person.
    pub message: String,
}

impl Issue {
    /// An issue at `path` (a JSON Pointer).
    pub fn new(path: impl Into<String>, code: IssueCode, message: impl Into<String>) -> Self {
        Issue {
            path: path.into(),
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            String::from("(root)")
        } else {
            brief_text(&self.path)
        };
        write!(f, "{path}: {} [{}]", self.message, self.code.as_str())
    }
}

/// What kind of check an issue code comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum IssueLevel {
    /// The input is not acceptable JSON text or data (before any schema applies).
    Input,
    /// The data does not have the shape the JSON Schema describes.
    Shape,
    /// The shape is right but the values contradict each other.
    Meaning,
}

macro_rules! issue_codes {
    ($($variant:ident = $name:literal, $level:ident, $doc:literal;)*) => {
        /// Stable, snake_case identifiers for every issue this library reports.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(rename_all = "snake_case")]
        #[non_exhaustive]
        pub enum IssueCode {
            $(#[doc = $doc] $variant,)*
        }

        impl IssueCode {
            /// Every code, in table order.
            pub const ALL: &'static [IssueCode] = &[$(IssueCode::$variant,)*];

            /// The wire name (snake_case).
            pub fn as_str(self) -> &'static str {
                match self { $(IssueCode::$variant => $name,)* }
            }

            /// Whether the code is about the input, the shape or the meaning.
            pub fn level(self) -> IssueLevel {
                match self { $(IssueCode::$variant => IssueLevel::$level,)* }
            }

            /// What the code means, for documentation.
            pub fn description(self) -> &'static str {
                match self { $(IssueCode::$variant => $doc,)* }
            }
        }
    };
}

issue_codes! {
    InvalidJson = "invalid_json", Input, "The input is not well-formed JSON text.";
    InvalidUtf8 = "invalid_utf8", Input, "The input bytes are not valid UTF-8.";
    LoneSurrogate = "lone_surrogate", Input, "A string contains an unpaired UTF-16 surrogate, which has no UTF-8 form.";
    DuplicateKey = "duplicate_key", Input, "An object has the same key twice; which one wins is undefined, so it is rejected.";
    TooLarge = "too_large", Input, "The input is larger than the maxBytes limit.";
    TooDeep = "too_deep", Input, "Arrays and objects nest deeper than the maxDepth limit.";
    UnsafeInteger = "unsafe_integer", Input, "An integer is outside +/-(2^53-1) and would silently change in JavaScript.";
    NumberOutOfRange = "number_out_of_range", Input, "A number does not fit a 64-bit float (for example 1e400).";
    NonFiniteNumber = "non_finite_number", Input, "A number is NaN or +/-Infinity, which JSON cannot carry.";
    UnsupportedValue = "unsupported_value", Input, "A value has no JSON form (undefined, function, symbol, BigInt, Map, Date, class instance, ...).";
    CyclicValue = "cyclic_value", Input, "A JavaScript object refers to itself.";
    InvalidOptions = "invalid_options", Input, "An options object has an unknown key or a wrong value.";
    InternalError = "internal_error", Input, "The environment failed to provide something needed (for example random bytes).";
    InvalidType = "invalid_type", Shape, "A value has the wrong JSON type.";
    MissingField = "missing_field", Shape, "A required field is absent.";
    UnknownField = "unknown_field", Shape, "A field is not part of the schema (often a misspelling).";
    InvalidEnum = "invalid_enum", Shape, "A value is not one of the allowed values.";
    EmptyString = "empty_string", Shape, "A string that must carry a value is empty.";
    NotInteger = "not_integer", Shape, "A count or size is not a whole number.";
    Negative = "negative", Shape, "A count, size or duration is below zero.";
    InvalidUuid = "invalid_uuid", Shape, "An id is not a hyphenated UUID.";
    InvalidTimestamp = "invalid_timestamp", Shape, "A timestamp is not RFC 3339 (for example 2026-01-31T12:00:00Z).";
    InvalidErrorCode = "invalid_error_code", Shape, "An error code is not SCREAMING_SNAKE_CASE.";
    InvalidSha256 = "invalid_sha256", Shape, "A sha256 digest is not 64 lowercase hex digits.";
    UnsupportedVersion = "unsupported_version", Shape, "The version / schema_version is not one this library supports.";
    HunkCountMismatch = "hunk_count_mismatch", Meaning, "A diff hunk's old_count or new_count disagrees with its lines.";
    MatchOutOfLine = "match_out_of_line", Meaning, "A search match's match_start..match_end (UTF-16 offsets) does not lie inside its line.";
    StatisticsMismatch = "statistics_mismatch", Meaning, "A todo list's statistics disagree with its items.";
    BatchCountMismatch = "batch_count_mismatch", Meaning, "A batch's success_count or failure_count disagrees with the statuses of its sub_results.";
    TimeoutStatusMismatch = "timeout_status_mismatch", Meaning, "A command that timed out (timed_out: true) is in a result whose status is not `timeout`.";
    FieldNeedsNewerVersion = "field_needs_newer_version", Meaning, "A field is used that the result's schema_version does not have (tool_metadata needs 1.1.0).";
    SuccessStatusMismatch = "success_status_mismatch", Meaning, "`success` is true exactly when `status` is success, and here it is not.";
    MissingError = "missing_error", Meaning, "A failed status comes without the error that explains it.";
    UnexpectedError = "unexpected_error", Meaning, "A successful result carries an error.";
    TimeOrder = "time_order", Meaning, "completed_at is earlier than started_at.";
    DurationMismatch = "duration_mismatch", Meaning, "duration_ms disagrees with completed_at - started_at.";
    BatchIndexWithoutBatch = "batch_index_without_batch", Meaning, "batch_index is set but batch_id is not.";
    InvalidSchema = "invalid_schema", Input, "A JSON Schema is not valid for its dialect (it fails the meta-schema, or a keyword value is unusable).";
    UnknownDialect = "unknown_dialect", Input, "`$schema` names a dialect this library does not implement (2020-12, 2019-09 and draft-07 are supported).";
    UnresolvableRef = "unresolvable_ref", Input, "A `$ref` points at a document that was not registered in `documents`; remote and file references are never fetched.";
    InvalidDefinition = "invalid_definition", Input, "A tool definition lacks a name or has a field of the wrong type.";
    UnknownTool = "unknown_tool", Input, "No tool of that name is registered.";
    AmbiguousShape = "ambiguous_shape", Input, "The input is none of the shapes normalize knows (AgentResult, TaskResult, AgentMessage; or the conversion's source shape).";
    StoreConflict = "store_conflict", Input, "A different result is already stored under this execution_id or tool_call_id; stored results are never overwritten.";
    ChecksumMismatch = "checksum_mismatch", Input, "A stored result no longer matches the sha256 it was stored with (the store's data was changed outside the store).";
    KeyUnavailable = "key_unavailable", Input, "A record is encrypted under a key id that is not among the keys given; it is left as it is.";
    DecryptionFailed = "decryption_failed", Input, "An encrypted record failed authentication (AES-256-GCM): it was changed, moved from another record, or the key given under its id is not the one it was written with.";
    EncryptionRequired = "encryption_required", Input, "A record is encrypted and the store or consumer reading it was opened without the `encryption` option.";
    UnsafeOutput = "unsafe_output", Meaning, "The safety screen rejected the result: it carries a secret, an executable payload, a policy-change claim, a fetch/execute instruction or hidden text (docs/screen.md).";
    TooManyIssues = "too_many_issues", Meaning, "More issues were found than maxIssues; the rest are not listed.";
}

impl fmt::Display for IssueCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a validator puts what it finds: keeps the first `max` issues and
/// remembers that more were found; [`IssueSink::finish`] then adds the one
/// `too_many_issues`. Every envelope validator caps through it, so the rule
/// and its message are in one place.
#[derive(Debug)]
pub(crate) struct IssueSink {
    max: usize,
    issues: Vec<Issue>,
    overflowed: bool,
}

impl IssueSink {
    pub(crate) fn new(max: usize) -> Self {
        IssueSink {
            max,
            issues: Vec::new(),
            overflowed: false,
        }
    }

    /// Keeps `issue`, or notes that the cap was reached.
    pub(crate) fn push(&mut self, issue: Issue) {
        if self.issues.len() >= self.max {
            self.overflowed = true;
        } else {
            self.issues.push(issue);
        }
    }

    /// Some issue was dropped: nothing more will be kept.
    pub(crate) fn is_full(&self) -> bool {
        self.overflowed
    }

    /// Notes that a part checked elsewhere was cut short too.
    pub(crate) fn mark_overflowed(&mut self) {
        self.overflowed = true;
    }

    /// The issues kept so far, and whether any was dropped; the sink is empty after.
    pub(crate) fn take(&mut self) -> (Vec<Issue>, bool) {
        (core::mem::take(&mut self.issues), self.overflowed)
    }

    /// The report: the issues kept, then `too_many_issues` when some were dropped.
    pub(crate) fn finish(mut self) -> Issues {
        if self.overflowed {
            let max = self.max;
            self.issues.push(Issue::new(
                "",
                IssueCode::TooManyIssues,
                format!("more than {max} issues; only the first {max} are listed (raise maxIssues to see more)"),
            ));
        }
        Issues(self.issues)
    }
}

/// All issues found in one input, in document order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Issues(pub Vec<Issue>);

impl<'a> IntoIterator for &'a Issues {
    type Item = &'a Issue;
    type IntoIter = core::slice::Iter<'a, Issue>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl Issues {
    /// No issue.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// How many issues.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// The issues, in the order found.
    pub fn iter(&self) -> core::slice::Iter<'_, Issue> {
        self.0.iter()
    }
    /// Some issue has `code`.
    pub fn has(&self, code: IssueCode) -> bool {
        self.0.iter().any(|i| i.code == code)
    }
    /// The same issues with `at` put in front of every path (issues found in
    /// a part, reported against the whole).
    #[must_use]
    pub fn prefixed(self, at: &str) -> Issues {
        Issues(
            self.0
                .into_iter()
                .map(|mut i| {
                    i.path = alloc::format!("{at}{}", i.path);
                    i
                })
                .collect(),
        )
    }
}

impl From<Issue> for Issues {
    fn from(issue: Issue) -> Self {
        Issues(alloc::vec![issue])
    }
}

impl IntoIterator for Issues {
    type Item = Issue;
    type IntoIter = alloc::vec::IntoIter<Issue>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl fmt::Display for Issues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, issue) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{issue}")?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Issues {}

/// Appends one reference token to a JSON Pointer, escaping `~` and `/`.
pub(crate) fn push_pointer_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        pointer.push_str(token);
        return;
    }
    for ch in token.chars() {
        match ch {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// `value` for a message: its compact JSON text when that is at most
/// [`MESSAGE_QUOTE_CHARS`] characters, else the first ones, `…` and the
/// length: `"aaaa…" (3,000,000 chars)` for a string (its length in
/// characters, as `maxLength` counts), `{"data":"iVBO… (3,000,042 chars of
/// JSON)` for anything else. Every message that shows a value of the input
/// (or of a schema) shows it through this or [`quote_text`] (docs/spec.md
/// §15): an issue about a 3 MB value stays a few hundred bytes. The value's
/// text is written out once but never held.
///
/// ```
/// use toolresult::quote_json;
/// use serde_json::json;
///
/// assert_eq!(quote_json(&json!({"a": [1, "b"]})), r#"{"a":[1,"b"]}"#);
/// let big = quote_json(&json!("a".repeat(3_000_000)));
/// assert!(big.len() < 250 && big.ends_with(r#"…" (3,000,000 chars)"#), "{big}");
/// ```
pub fn quote_json(value: &serde_json::Value) -> String {
    let mut head = Head::default();
    // Writing to a `Head` never fails.
    let _ = fmt::Write::write_fmt(&mut head, format_args!("{value}"));
    if head.total <= MESSAGE_QUOTE_CHARS {
        return head.kept;
    }
    head.kept.truncate(whole_escapes(&head.kept));
    match value {
        serde_json::Value::String(s) => {
            format!("{}…\" ({} chars)", head.kept, Thousands(s.chars().count()))
        }
        _ => format!("{}… ({} chars of JSON)", head.kept, Thousands(head.total)),
    }
}

/// `text` between two `mark`s for a message (`` `name` ``, `'key'`): whole
/// when it is at most [`MESSAGE_QUOTE_CHARS`] characters, else the first
/// ones, `…` and its length: `` `aaaa…` (3,000,000 chars) ``. See
/// [`quote_json`].
///
/// ```
/// use toolresult::quote_text;
///
/// assert_eq!(quote_text("FILE_NOT_FOUND", '`'), "`FILE_NOT_FOUND`");
/// let big = quote_text(&"k".repeat(300), '\'');
/// assert!(big.starts_with("'kkk") && big.ends_with("…' (300 chars)"), "{big}");
/// ```
pub fn quote_text(text: &str, mark: char) -> String {
    // At most as many characters as bytes: short text is quoted whole.
    if text.len() <= MESSAGE_QUOTE_CHARS {
        let mut out = String::with_capacity(text.len() + 2 * mark.len_utf8());
        out.push(mark);
        out.push_str(text);
        out.push(mark);
        return out;
    }
    let mut head = Head::default();
    // Writing to a `Head` never fails.
    let _ = fmt::Write::write_str(&mut head, text);
    if head.total <= MESSAGE_QUOTE_CHARS {
        format!("{mark}{text}{mark}")
    } else {
        format!(
            "{mark}{}…{mark} ({} chars)",
            head.kept,
            Thousands(head.total)
        )
    }
}

/// Text that is not a value of its own but may hold one, for a message: a
/// parser's error (serde's `invalid type: string "…"` quotes the input), a
/// JSON Pointer (its tokens are the input's keys). Whole when it is at most
/// [`MESSAGE_QUOTE_CHARS`] characters, else its first and last halves of
/// that around how much was left out, so both ends stay: what was found and
/// what was expected (and where); the start and the last tokens of a path.
///
/// ```
/// use toolresult::brief_text;
///
/// assert_eq!(brief_text("/a/b"), "/a/b");
/// let path = format!("/{}/x", "k".repeat(3_000_000));
/// let brief = brief_text(&path);
/// assert!(brief.ends_with("kkk/x") && brief.contains("… (2,999,803 chars left out) …"), "{brief}");
/// ```
pub fn brief_text(text: &str) -> String {
    let total = text.chars().count();
    if total <= MESSAGE_QUOTE_CHARS {
        return String::from(text);
    }
    let half = MESSAGE_QUOTE_CHARS / 2;
    let at = |n: usize| text.char_indices().nth(n).map_or(text.len(), |(i, _)| i);
    format!(
        "{}… ({} chars left out) …{}",
        &text[..at(half)],
        Thousands(total - 2 * half),
        &text[at(total - half)..]
    )
}

/// How much of a cut JSON text to keep so that it does not end inside an
/// escape (`\n`, `\u00e9`).
fn whole_escapes(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            let len = if bytes.get(i + 1) == Some(&b'u') {
                6
            } else {
                2
            };
            if i + len > bytes.len() {
                return i;
            }
            i += len;
        } else {
            i += 1;
        }
    }
    bytes.len()
}

/// The first [`MESSAGE_QUOTE_CHARS`] characters written to it, and how many
/// were written in all.
#[derive(Default)]
struct Head {
    kept: String,
    kept_chars: usize,
    total: usize,
}

impl fmt::Write for Head {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.kept_chars < MESSAGE_QUOTE_CHARS {
            for c in s.chars() {
                if self.kept_chars == MESSAGE_QUOTE_CHARS {
                    break;
                }
                self.kept.push(c);
                self.kept_chars += 1;
            }
        }
        self.total += s.chars().count();
        Ok(())
    }
}

/// A count with thousands separators: `3,000,000`.
pub(crate) struct Thousands(pub usize);

impl fmt::Display for Thousands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = itoa::Buffer::new();
        let digits = buf.format(self.0).as_bytes();
        for (i, d) in digits.iter().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                f.write_str(",")?;
            }
            fmt::Write::write_char(f, char::from(*d))?;
        }
        Ok(())
    }
}

/// A number as JSON writes it. Messages use this rather than `{}` on `f64`,
/// which would pull core's float formatter into the wasm module (~15 KB) next
/// to the one serde_json already has.
pub(crate) struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Whole numbers as the input wrote them: -1, not -1.0.
        let whole = self.0 as i64;
        if whole as f64 == self.0 && whole.unsigned_abs() <= crate::limits::MAX_SAFE_INTEGER {
            return write!(f, "{whole}");
        }
        match serde_json::Number::from_f64(self.0) {
            Some(n) => fmt::Display::fmt(&n, f),
            None => f.write_str("NaN"),
        }
    }
}

#[cfg(test)]
mod num_tests {
    use super::Num;
    use alloc::format;

    #[test]
    fn numbers_read_as_written() {
        assert_eq!(format!("{}", Num(-1.0)), "-1");
        assert_eq!(format!("{}", Num(1.5)), "1.5");
        assert_eq!(format!("{}", Num(1e300)), "1e+300");
        assert_eq!(format!("{}", Num(f64::NAN)), "NaN");
    }
}
