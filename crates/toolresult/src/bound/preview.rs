//! What a result says, as the text a person or a model reads first: the one
//! rule behind references (`toReference`, `prepareHistory`), the store's
//! listings and every other collapsed view (docs/guide/storage.md "Previews").
//!
//! Previews exist so that a model does not call the same tool again to see
//! what it got (docs/spec.md §12: the budget is 500 characters for that
//! reason), so they hold the content itself, as real lines, never JSON
//! punctuation or indentation:
//!
//! 0. Typed per-tool data (`tool_metadata`), when the result has it: a file
//!    read's lines, an edit's unified diff, grep matches as `path:line: text`,
//!    a command's stdout and stderr and exit code, a todo list as `[x] item`,
//!    … (see [`metadata_text`]).
//! 1. Content blocks (MCP `content`), when the result has any: each text
//!    block's text; images, audio and binary resources as
//!    `[image: image/png, 1.2 KB]`; resource links as `[resource: name <uri>]`.
//! 2. Otherwise the output. A string is itself. An object's main text comes
//!    first: `stdout` and `stderr` together (stderr after a `stderr:` line),
//!    else the first of [`MAIN_TEXT_FIELDS`] holding a string or a non-empty
//!    array (its items as lines, as below). Then, while room is left, every other
//!    field on a line of its own, `name: value` (single-line strings bare,
//!    anything else compact JSON). An array of strings or blocks is its
//!    lines; any other array is one compact JSON line per item; a number or
//!    boolean its JSON.
//! 3. A failure with neither: its error message.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{Map, Value};

use crate::bound::preview_text;
use crate::wire::tool_metadata::{DiffHunk, DiffLineType, TodoStatus, ToolMetadata};
use crate::wire::tool_result::ToolResult;

/// Where a preview that left text out says so.
pub const TRUNCATION_NOTE: &str = "\n… (truncated; call get_tool_result for the full result)";

/// The output fields that hold a result's main text, in the order they are
/// looked for. `stdout` / `stderr` are taken together.
pub const MAIN_TEXT_FIELDS: &[&str] = &[
    "content", "contents", "text", "output", "body", "result", "message", "data", "lines",
    "matches", "results", "items", "files", "entries",
];

/// What the result says, in full (see the module docs for the rule).
pub fn result_text(result: &ToolResult) -> String {
    if let Some(text) = result
        .tool_metadata
        .as_ref()
        .map(metadata_text)
        .filter(|t| !t.is_empty())
    {
        return text;
    }
    content_or_output_text(result)
}

/// Steps 1 to 3 of the rule: what the result says without its typed data.
pub fn content_or_output_text(result: &ToolResult) -> String {
    if let Some(blocks) = result.content.as_ref().filter(|b| !b.is_empty()) {
        return blocks.iter().map(block_text).collect::<Vec<_>>().join("\n");
    }
    match result.output.as_ref() {
        None | Some(Value::Null) => result.error_message.clone().unwrap_or_default(),
        Some(v) => value_text(v),
    }
}

/// The first whole lines of [`result_text`] within `max_chars` characters,
/// ending with [`TRUNCATION_NOTE`] when anything was left out. A first line
/// longer than the budget is cut and marked, so a result with content never
/// gets a preview without any of it.
pub fn preview_result(result: &ToolResult, max_chars: usize) -> String {
    let (mut shown, cut) = preview_text(&result_text(result), max_chars);
    if cut {
        shown.push_str(TRUNCATION_NOTE);
    }
    shown
}

/// The text a person reads first in typed per-tool data; empty when the
/// kind holds none (the content or output is used then).
pub fn metadata_text(m: &ToolMetadata) -> String {
    let mut lines: Vec<String> = Vec::new();
    match m {
        ToolMetadata::FileRead(r) => lines.extend(r.lines.iter().cloned()),
        ToolMetadata::FileWrite(w) => lines.push(trim_newline(w.content.clone())),
        ToolMetadata::FileEdit(e) => lines.push(unified_diff(&e.diff_hunks)),
        ToolMetadata::FileMultiEdit(e) => lines.push(unified_diff(&e.diff_hunks)),
        ToolMetadata::Grep(g) => {
            for r in &g.results {
                for hit in &r.matches {
                    lines.push(format!(
                        "{}:{}: {}",
                        r.file_path, hit.line_number, hit.content
                    ));
                }
            }
        }
        ToolMetadata::Glob(g) => lines.extend(g.files.iter().map(|f| f.path.clone())),
        ToolMetadata::Bash(b) => {
            for text in [&b.output, &b.stdout].into_iter().flatten() {
                if !text.is_empty() {
                    lines.push(trim_newline(text.clone()));
                }
            }
            if let Some(err) = b.stderr.as_ref().filter(|e| !e.is_empty()) {
                lines.push(String::from("stderr:"));
                lines.push(trim_newline(err.clone()));
            }
            match (b.exit_code, b.timed_out) {
                (_, true) => lines.push(String::from("timed out")),
                (Some(code), _) => lines.push(format!("exit_code: {code}")),
                _ => {}
            }
        }
        ToolMetadata::BackgroundBash(b) => lines.push(format!(
            "pid {}: {} ({})",
            b.pid,
            b.command,
            if b.status == crate::wire::tool_metadata::ProcessStatus::Running {
                "running"
            } else {
                "stopped"
            }
        )),
        ToolMetadata::ImageRecognition(i) => lines.push(i.analysis.clone()),
        ToolMetadata::Thinking(t) => lines.push(t.thought.clone()),
        ToolMetadata::Todo(t) => lines.extend(t.todo_list.iter().map(|item| {
            let mark = match item.status {
                TodoStatus::Completed => "[x]",
                TodoStatus::InProgress => "[~]",
                TodoStatus::Pending => "[ ]",
            };
            format!("{mark} {}", item.content)
        })),
        ToolMetadata::Subagent(s) => lines.push(s.response.clone()),
        ToolMetadata::Batch(b) => lines.extend(
            b.sub_results
                .iter()
                .map(|r| format!("{}: {}", r.input.tool_name, r.status.as_str())),
        ),
        ToolMetadata::BrowserNavigate(n) => lines.push(format!(
            "{}{}",
            n.title
                .as_deref()
                .map(|t| format!("{t} "))
                .unwrap_or_default(),
            n.final_url.as_deref().unwrap_or(&n.url)
        )),
        ToolMetadata::BrowserScreenshot(s) => lines.push(format!(
            "{} ({}x{} {})",
            s.output_path, s.width, s.height, s.format
        )),
        ToolMetadata::Mcp(m) => lines.extend(m.content.iter().map(block_text)),
        ToolMetadata::Custom(c) => lines.push(value_text(&c.data)),
        ToolMetadata::WebFetch(_) => {}
    }
    lines.join("\n")
}

/// Hunks as unified-diff text: `@@ -3,3 +3,4 @@`, then ` `, `-`, `+` lines.
pub fn unified_diff(hunks: &[DiffHunk]) -> String {
    let mut out: Vec<String> = Vec::new();
    for h in hunks {
        out.push(format!(
            "@@ -{},{} +{},{} @@",
            h.old_start, h.old_count, h.new_start, h.new_count
        ));
        for l in &h.lines {
            let sign = match l.kind {
                DiffLineType::Context => ' ',
                DiffLineType::Added => '+',
                DiffLineType::Removed => '-',
            };
            out.push(format!("{sign}{}", l.content));
        }
    }
    out.join("\n")
}

/// Any output value as preview text.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Object(o) => object_text(o),
        Value::Array(items) => array_text(items)
            .unwrap_or_else(|| items.iter().map(compact).collect::<Vec<_>>().join("\n")),
        other => compact(other),
    }
}

fn object_text(o: &Map<String, Value>) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut used: Vec<&str> = Vec::new();
    let stdout = o.get("stdout").and_then(text_of);
    let stderr = o.get("stderr").and_then(text_of);
    if stdout.is_some() || stderr.is_some() {
        if let Some(out) = stdout.filter(|s| !s.is_empty()) {
            lines.push(trim_newline(out));
        }
        if let Some(err) = stderr.filter(|s| !s.is_empty()) {
            lines.push(String::from("stderr:"));
            lines.push(trim_newline(err));
        }
        used.extend(["stdout", "stderr"]);
    } else if let Some((field, text)) = MAIN_TEXT_FIELDS
        .iter()
        .find_map(|f| o.get(*f).and_then(text_of).map(|t| (*f, t)))
    {
        if !text.is_empty() {
            lines.push(trim_newline(text));
        }
        used.push(field);
    }
    for (k, v) in o {
        if used.contains(&k.as_str()) {
            continue;
        }
        let value = match v {
            Value::String(s) if !s.contains(['\n', '\r']) => s.clone(),
            other => compact(other),
        };
        lines.push(format!("{k}: {value}"));
    }
    lines.join("\n")
}

/// The text a main field holds: a string, or a non-empty array as lines
/// (strings bare, content blocks as blocks, anything else compact JSON, one
/// item a line). `None` for anything else.
fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) if !items.is_empty() => Some(value_text(v)),
        _ => None,
    }
}

/// An array of strings or of content blocks as lines; `None` otherwise.
fn array_text(items: &[Value]) -> Option<String> {
    if items.iter().all(Value::is_string) {
        return Some(
            items
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    let blocks: Option<Vec<&Map<String, Value>>> = items
        .iter()
        .map(|i| i.as_object().filter(|o| is_block(o)))
        .collect();
    blocks.map(|b| b.into_iter().map(block_text).collect::<Vec<_>>().join("\n"))
}

fn is_block(o: &Map<String, Value>) -> bool {
    match o.get("type").and_then(Value::as_str) {
        Some("text") => o.get("text").is_some_and(Value::is_string),
        Some("image" | "audio") => o.contains_key("data"),
        Some("resource_link") => o.contains_key("uri"),
        Some("resource") => o.get("resource").is_some_and(Value::is_object),
        _ => false,
    }
}

fn str_of<'a>(o: &'a Map<String, Value>, k: &str) -> Option<&'a str> {
    o.get(k).and_then(Value::as_str)
}

/// One content block as preview text.
pub fn block_text(o: &Map<String, Value>) -> String {
    block_text_with(o, binary)
}

/// One content block as text, binary content (images, audio, blobs)
/// described by `binary(kind, mime, base64)`: the one rule for every text
/// target, which only differ in how they name what they cannot show.
pub fn block_text_with(
    o: &Map<String, Value>,
    binary: fn(&str, Option<&str>, Option<&str>) -> String,
) -> String {
    match str_of(o, "type") {
        Some("text") => str_of(o, "text").unwrap_or_default().to_string(),
        Some(kind @ ("image" | "audio")) => binary(kind, str_of(o, "mimeType"), str_of(o, "data")),
        Some("resource_link") => format!(
            "[resource: {} <{}>]",
            str_of(o, "name").unwrap_or(""),
            str_of(o, "uri").unwrap_or("")
        ),
        Some("resource") => {
            let r = o.get("resource").and_then(Value::as_object);
            match r.and_then(|r| str_of(r, "text")) {
                Some(text) => text.to_string(),
                None => binary(
                    "resource",
                    r.and_then(|r| str_of(r, "mimeType")),
                    r.and_then(|r| str_of(r, "blob")),
                ),
            }
        }
        _ => compact(&Value::Object(o.clone())),
    }
}

/// `[image: image/png, 1.2 KB]`: the type and the decoded size of base64 data.
fn binary(kind: &str, mime: Option<&str>, data: Option<&str>) -> String {
    let data = data.unwrap_or("");
    let padding = data.bytes().rev().take_while(|b| *b == b'=').count();
    let bytes = (data.len() / 4 * 3).saturating_sub(padding.min(2));
    format!(
        "[{kind}: {}, {}]",
        mime.unwrap_or("unknown type"),
        human_bytes(bytes)
    )
}

/// `512 bytes`, `1.2 KB`, `3.4 MB`.
pub fn human_bytes(n: usize) -> String {
    const KB: usize = 1024;
    const MB: usize = 1024 * 1024;
    let tenths = |unit: usize| (n * 10 + unit / 2) / unit;
    if n < KB {
        format!("{n} {}", if n == 1 { "byte" } else { "bytes" })
    } else if n < MB {
        let t = tenths(KB);
        format!("{}.{} KB", t / 10, t % 10)
    } else {
        let t = tenths(MB);
        format!("{}.{} MB", t / 10, t % 10)
    }
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn trim_newline(mut s: String) -> String {
    while s.ends_with('\n') || s.ends_with('\r') {
        s.pop();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bytes_read_as_people_write_them() {
        assert_eq!(human_bytes(1), "1 byte");
        assert_eq!(human_bytes(1023), "1023 bytes");
        assert_eq!(human_bytes(1229), "1.2 KB");
        assert_eq!(human_bytes(5 * 1024 * 1024), "5.0 MB");
    }

    #[test]
    fn base64_sizes_are_decoded_sizes() {
        let o = json!({"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="});
        assert_eq!(
            block_text(o.as_object().unwrap()),
            "[image: image/png, 8 bytes]"
        );
    }

    #[test]
    fn objects_without_main_text_are_one_line_per_field() {
        let v = json!({"count": 3, "path": "src", "nested": {"a": [1, 2]}});
        assert_eq!(value_text(&v), "count: 3\npath: src\nnested: {\"a\":[1,2]}");
    }
}
