//! The documented input limits, in one place: the validators, the parsers,
//! the bounding functions and the TypeScript layer (through the generated
//! `limits` table) all read them from here.

/// Default `max_bytes`: 64 MiB of JSON text. Tool outputs are bounded at 10 MiB
/// (docs/spec.md §10); the rest is headroom for the envelope and escaping.
pub const DEFAULT_MAX_BYTES: usize = 64 * 1024 * 1024;
/// Default and ceiling for `max_depth`. The ceiling keeps every recursive walk
/// (ours and the JSON parser's) far from the wasm stack limit.
pub const DEFAULT_MAX_DEPTH: usize = 128;
/// Ceiling for `max_depth`.
pub const MAX_DEPTH_CEILING: usize = 128;
/// Default `max_issues`: enough to see every problem in a hand-written result
/// without letting a hostile input make the report itself huge.
pub const DEFAULT_MAX_ISSUES: usize = 100;
/// Default `duration_tolerance_ms`: RFC 3339 timestamps are often written with
/// whole seconds, so a duration can legitimately differ from their difference
/// by up to one second.
pub const DEFAULT_DURATION_TOLERANCE_MS: f64 = 1000.0;

/// Largest integer JavaScript numbers hold exactly.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Default output limit: 10 MiB (docs/spec.md §10).
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 10 * 1024 * 1024;
/// Default line cap for stdout/stderr (docs/bounding.md).
pub const DEFAULT_MAX_LINES: usize = 200;
/// The smallest limit a JSON output can be cut to: room for a marker.
pub const MIN_JSON_LIMIT: usize = 64;

/// Characters kept in a preview (docs/spec.md §12: raised from 200 to 500 so models
/// stop re-running tools to see what they got).
pub const DEFAULT_PREVIEW_CHARS: usize = 500;

/// Characters of a value a message quotes (docs/spec.md, "Issues"): a value
/// whose text is longer is quoted by its first this many characters, `…` and
/// its length (`"aaaa…" (3,000,000 chars)`), so an issue about a 3 MB string
/// is a few hundred bytes, not 3 MB.
pub const MESSAGE_QUOTE_CHARS: usize = 200;
