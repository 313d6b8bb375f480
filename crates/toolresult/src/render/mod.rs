//! Text rendering of a ToolResult for terminals and logs
//! (docs/guide/rendering.md "Text"): one built-in renderer per `tool_metadata` kind, a generic
//! one for results without it, all driven by the status.
//!
//! Tool output is hostile: every string that comes from the result passes
//! through [`sanitize`] before it is written, so nothing in a result can move
//! the cursor, clear the screen, set the title, open a link or reorder the
//! text (C0/C1 controls, ESC-introduced CSI/OSC sequences, bidi overrides and
//! isolates are replaced by visible marks). Colour, when asked for, is ANSI
//! SGR added by the renderer only, around already sanitized text.

#[cfg(feature = "std")]
pub(crate) mod diff;
pub(crate) mod language;

#[cfg(feature = "std")]
pub use diff::*;
pub use language::*;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::Deserialize;

use crate::bound::preview::{
    block_text, content_or_output_text, human_bytes, preview_result, result_text,
};
use crate::storage::summarize::summarize;
use crate::wire::status::ToolStatus;
use crate::wire::tool_metadata::{
    DiffHunk, DiffLineType, FileKind, ProcessStatus, TodoStatus, ToolMetadata,
};
use crate::wire::tool_result::ToolResult;

/// How to render.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct RenderOptions {
    /// Longest line, in characters; longer lines end with `…`. At least 20.
    pub width: usize,
    /// ANSI styles (diff green/red, errors red, dim context).
    pub color: bool,
    /// Most body lines shown; beyond, the first and last lines with a line
    /// naming how many were omitted. At least 4.
    pub max_lines: usize,
    /// Only the header, the error (failures are never collapsed away) and
    /// the preview (the rule of `previewResult`).
    pub collapsed: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            width: 120,
            color: false,
            max_lines: 200,
            collapsed: false,
        }
    }
}

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const CYAN: &str = "\x1b[36m";
const INVERSE: &str = "\x1b[7m";

/// Replaces what could drive a terminal or reorder text with visible marks:
/// C0 controls but `\n` and `\t` (ESC becomes `␛`, so CSI and OSC sequences
/// are inert text), DEL, C1 controls, bidi embeddings, overrides and
/// isolates, and the line and paragraph separators. Tabs become spaces.
pub fn sanitize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push('\n'),
            '\t' => out.push_str("    "),
            '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}')),
            '\u{7f}' => out.push('\u{2421}'),
            '\u{80}'..='\u{9f}' => out.push('\u{fffd}'),
            '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
            | '\u{61c}' => out.push('\u{fffd}'),
            '\u{2028}' | '\u{2029}' => out.push('\n'),
            _ => out.push(c),
        }
    }
    out
}

struct Out<'o> {
    opts: &'o RenderOptions,
    lines: Vec<String>,
}

impl Out<'_> {
    fn style(&self, style: &str, text: &str) -> String {
        if self.opts.color && !text.is_empty() {
            format!("{style}{text}{RESET}")
        } else {
            String::from(text)
        }
    }

    /// One line of our own making around sanitized text.
    fn raw(&mut self, line: String) {
        self.lines.push(line);
    }

    /// Untrusted text, possibly many lines, each with `prefix` and a style.
    fn text(&mut self, prefix: &str, style: Option<&str>, text: &str) {
        let clean = sanitize(text);
        let body = clean.strip_suffix('\n').unwrap_or(&clean);
        for line in body.split('\n') {
            let line = self.fit(prefix, line);
            let line = match style {
                Some(s) => self.style(s, &line),
                None => line,
            };
            self.lines.push(line);
        }
    }

    /// `prefix + line` cut to the width.
    fn fit(&self, prefix: &str, line: &str) -> String {
        let width = self.opts.width.max(20);
        let full = format!("{prefix}{line}");
        if full.chars().count() <= width {
            full
        } else {
            let mut cut: String = full.chars().take(width - 1).collect();
            cut.push('…');
            cut
        }
    }
}

/// The result as text: a header (status and summary), the error when it
/// failed, then the body its kind renders.
pub fn render_text(result: &ToolResult, opts: &RenderOptions) -> String {
    let mut out = Out {
        opts,
        lines: Vec::new(),
    };
    header(&mut out, result);
    let mut body = Out {
        opts,
        lines: Vec::new(),
    };
    if opts.collapsed {
        let preview = preview_result(result, crate::limits::DEFAULT_PREVIEW_CHARS);
        if !preview.is_empty() {
            body.text("  ", Some(DIM), &preview);
        }
    } else {
        render_body(&mut body, result);
    }
    let mut lines = out.lines;
    lines.extend(cap(body.lines, opts));
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

fn header(out: &mut Out, r: &ToolResult) {
    let info = r.status.info();
    let (mark, style) = match r.status {
        ToolStatus::Success => ("✓", GREEN),
        ToolStatus::RequiresConfirmation => ("?", YELLOW),
        ToolStatus::Timeout | ToolStatus::Cancelled | ToolStatus::RateLimited => ("!", YELLOW),
        _ => ("✗", RED),
    };
    let status = format!("{mark} {}", r.status.as_str());
    let summary = out.fit("", &sanitize(&summarize(r)).replace('\n', " "));
    let head = format!(
        "{} {}",
        out.style(style, &status),
        out.style(BOLD, &summary)
    );
    out.raw(head);
    if r.status != ToolStatus::Success {
        let code = r.error_code.as_deref().unwrap_or(r.status.as_str());
        let what = if r.status == ToolStatus::RequiresConfirmation {
            "needs confirmation"
        } else {
            "error"
        };
        let line = format!("  {what} [{}]: ", sanitize(code));
        let message = r.error_message.as_deref().unwrap_or("");
        let mut first = true;
        for l in sanitize(message).split('\n') {
            let prefix = if first { line.as_str() } else { "    " };
            first = false;
            let fitted = out.fit(prefix, l);
            let styled = out.style(style, &fitted);
            out.raw(styled);
        }
        if info.retryable {
            let note = out.style(DIM, "  (retryable)");
            out.raw(note);
        }
    }
}

/// Head and tail of the body, naming what was left out.
fn cap(lines: Vec<String>, opts: &RenderOptions) -> Vec<String> {
    let max = opts.max_lines.max(4);
    if lines.len() <= max {
        return lines;
    }
    let head = max / 2;
    let tail = max - head - 1;
    let omitted = lines.len() - head - tail;
    let mut out: Vec<String> = lines[..head].to_vec();
    let note = format!("  … {omitted} lines omitted …");
    out.push(if opts.color {
        format!("{DIM}{note}{RESET}")
    } else {
        note
    });
    out.extend_from_slice(&lines[lines.len() - tail..]);
    out
}

fn render_body(out: &mut Out, r: &ToolResult) {
    if let Some(m) = r.tool_metadata.as_ref() {
        render_metadata(out, m, r);
    } else {
        let text = result_text(r);
        let error = r.error_message.as_deref().unwrap_or("");
        if !text.is_empty() && text != error {
            out.text("  ", None, &text);
        }
    }
}

fn numbered(out: &mut Out, first: u64, lines: &[String]) {
    let last = first + lines.len() as u64;
    let w = last.to_string().len();
    for (i, line) in lines.iter().enumerate() {
        let n = format!("{:>w$} │ ", first + i as u64);
        let n = out.style(DIM, &n);
        let prefix = format!("  {n}");
        out.text(&prefix, None, line);
    }
}

fn diff(out: &mut Out, path: &str, hunks: &[DiffHunk]) {
    let a = format!("--- a/{}", sanitize(path));
    let b = format!("+++ b/{}", sanitize(path));
    let (a, b) = (out.style(BOLD, &a), out.style(BOLD, &b));
    out.raw(format!("  {a}"));
    out.raw(format!("  {b}"));
    for h in hunks {
        let at = format!(
            "@@ -{},{} +{},{} @@",
            h.old_start, h.old_count, h.new_start, h.new_count
        );
        let at = out.style(CYAN, &at);
        out.raw(format!("  {at}"));
        for l in &h.lines {
            let (sign, style) = match l.kind {
                DiffLineType::Context => (" ", None),
                DiffLineType::Added => ("+", Some(GREEN)),
                DiffLineType::Removed => ("-", Some(RED)),
            };
            out.text(&format!("  {sign}"), style, &l.content);
        }
    }
}

/// A match line with the match marked — inverse video in colour, `[[…]]`
/// otherwise — cut to the width without ever cutting inside a style.
/// Offsets are UTF-16 code units; out-of-range ones mark nothing.
fn marked(out: &Out, prefix: &str, content: &str, start: u64, end: u64) -> String {
    let mut utf16 = 0u64;
    let (mut a, mut b) = (None, None);
    for (i, c) in content.char_indices() {
        if utf16 == start {
            a = Some(i);
        }
        if utf16 == end {
            b = Some(i);
        }
        utf16 += c.len_utf16() as u64;
    }
    if utf16 == end {
        b = Some(content.len());
    }
    if utf16 == start && a.is_none() {
        a = Some(content.len());
    }
    let (pre, hit, post) = match (a, b) {
        (Some(a), Some(b)) if a < b => (
            sanitize(&content[..a]),
            sanitize(&content[a..b]),
            sanitize(&content[b..]),
        ),
        _ => return out.fit(prefix, &sanitize(content)),
    };
    let (open, close) = if out.opts.color {
        (INVERSE, RESET)
    } else {
        ("[[", "]]")
    };
    let width = out.opts.width.max(20);
    let visible = |s: &str| s.chars().count();
    let total = visible(prefix) + visible(&pre) + visible(&hit) + visible(&post);
    let extra = if out.opts.color { 0 } else { 4 };
    if total + extra <= width {
        return format!("{prefix}{pre}{open}{hit}{close}{post}");
    }
    // Keep width - 1 visible characters, then `…`; a style opened is closed.
    let mut budget = width - 1;
    let mut line = String::new();
    for (part, styled) in [
        (prefix, false),
        (pre.as_str(), false),
        (hit.as_str(), true),
        (post.as_str(), false),
    ] {
        if budget == 0 {
            break;
        }
        let kept: String = part.chars().take(budget).collect();
        budget -= visible(&kept);
        if styled && !kept.is_empty() {
            line.push_str(open);
            line.push_str(&kept);
            line.push_str(close);
        } else {
            line.push_str(&kept);
        }
    }
    line.push('…');
    line
}

fn render_metadata(out: &mut Out, m: &ToolMetadata, r: &ToolResult) {
    match m {
        ToolMetadata::FileRead(f) => {
            numbered(out, f.offset.max(1), &f.lines);
            if f.truncated {
                let more = match f.total_lines {
                    Some(t) => format!("  … file has {t} lines"),
                    None => String::from("  … more lines not shown"),
                };
                let more = out.style(DIM, &more);
                out.raw(more);
            }
        }
        ToolMetadata::FileWrite(f) => {
            let lines: Vec<String> = f.content.lines().map(String::from).collect();
            let head = format!(
                "  {} ({})",
                sanitize(&f.file_path),
                human_bytes(f.size as usize)
            );
            out.raw(head);
            numbered(out, 1, &lines);
        }
        ToolMetadata::FileEdit(e) => diff(out, &e.file_path, &e.diff_hunks),
        ToolMetadata::FileMultiEdit(e) => diff(out, &e.file_path, &e.diff_hunks),
        ToolMetadata::Grep(g) => {
            for file in &g.results {
                let name = out.style(BOLD, &sanitize(&file.file_path));
                out.raw(format!("  {name}"));
                for hit in &file.matches {
                    for c in hit
                        .context
                        .iter()
                        .flatten()
                        .filter(|c| c.line_number < hit.line_number)
                    {
                        let line = out.fit(
                            &format!("    {:>5}- ", c.line_number),
                            &sanitize(&c.content),
                        );
                        let line = out.style(DIM, &line);
                        out.raw(line);
                    }
                    let prefix = format!("    {:>5}: ", hit.line_number);
                    let line = marked(out, &prefix, &hit.content, hit.match_start, hit.match_end);
                    out.raw(line);
                    for c in hit
                        .context
                        .iter()
                        .flatten()
                        .filter(|c| c.line_number > hit.line_number)
                    {
                        let line = out.fit(
                            &format!("    {:>5}- ", c.line_number),
                            &sanitize(&c.content),
                        );
                        let line = out.style(DIM, &line);
                        out.raw(line);
                    }
                }
            }
            if g.truncated {
                let why = g
                    .truncated_reason
                    .as_deref()
                    .map_or_else(|| String::from("limit reached"), sanitize);
                let note = out.style(DIM, &format!("  … more matches not shown ({why})"));
                out.raw(note);
            }
        }
        ToolMetadata::Glob(g) => {
            for f in &g.files {
                let slash = if f.kind == FileKind::Directory {
                    "/"
                } else {
                    ""
                };
                out.text("  ", None, &format!("{}{slash}", f.path));
            }
            if g.truncated {
                let note = out.style(DIM, "  … more files not shown");
                out.raw(note);
            }
        }
        ToolMetadata::Bash(b) => {
            out.text("  $ ", Some(BOLD), &b.command);
            for text in [&b.output, &b.stdout].into_iter().flatten() {
                if !text.is_empty() {
                    out.text("  ", None, text);
                }
            }
            if let Some(err) = b.stderr.as_ref().filter(|e| !e.is_empty()) {
                out.text("  ", Some(RED), err);
            }
            let end = match (b.timed_out, b.exit_code) {
                (true, _) => String::from("timed out"),
                (false, Some(0)) => String::from("exit code 0"),
                (false, Some(c)) => format!("exit code {c}"),
                (false, None) => String::from("no exit code"),
            };
            let end = match b.duration_ms {
                Some(ms) => format!("  {end} after {} ms", crate::issue::Num(ms)),
                None => format!("  {end}"),
            };
            let style = if b.exit_code == Some(0) && !b.timed_out {
                DIM
            } else {
                RED
            };
            let end = out.style(style, &end);
            out.raw(end);
        }
        ToolMetadata::BackgroundBash(b) => {
            let state = if b.status == ProcessStatus::Running {
                "running"
            } else {
                "stopped"
            };
            out.text("  ", None, &format!("pid {} {state}: {}", b.pid, b.command));
            if let Some(log) = &b.log_path {
                out.text("  log: ", Some(DIM), log);
            }
        }
        ToolMetadata::WebFetch(w) => {
            let mut what = String::new();
            if let Some(t) = &w.content_type {
                what.push_str(t);
            }
            if let Some(n) = w.size {
                what.push_str(&format!(", {}", human_bytes(n as usize)));
            }
            out.text("  ", Some(BOLD), &format!("{} ({what})", w.url));
            if let Some(p) = &w.saved_path {
                out.text("  saved to ", None, p);
            }
            if let Some(p) = &w.prompt {
                out.text("  prompt: ", Some(DIM), p);
            }
            render_output(out, r);
        }
        ToolMetadata::ImageRecognition(i) => {
            let size = i
                .image_size
                .as_ref()
                .map(|s| format!(" ({}x{})", s.width, s.height))
                .unwrap_or_default();
            out.text("  image: ", Some(BOLD), &format!("{}{size}", i.image_path));
            out.text("  prompt: ", Some(DIM), &i.prompt);
            out.text("  ", None, &i.analysis);
        }
        ToolMetadata::Thinking(t) => out.text("  ", Some(DIM), &t.thought),
        ToolMetadata::Todo(t) => {
            for item in &t.todo_list {
                let mark = match item.status {
                    TodoStatus::Completed => "[x]",
                    TodoStatus::InProgress => "[~]",
                    TodoStatus::Pending => "[ ]",
                };
                let priority = item.priority.map_or("", |p| match p {
                    crate::wire::tool_metadata::TodoPriority::High => " (high)",
                    crate::wire::tool_metadata::TodoPriority::Medium => " (medium)",
                    crate::wire::tool_metadata::TodoPriority::Low => " (low)",
                });
                out.text(
                    &format!("  {mark} "),
                    None,
                    &format!("{}{priority}", item.content),
                );
            }
            let s = &t.statistics;
            let stats = format!(
                "  {} total: {} done, {} in progress, {} pending",
                s.total, s.completed, s.in_progress, s.pending
            );
            let stats = out.style(DIM, &stats);
            out.raw(stats);
        }
        ToolMetadata::Subagent(s) => {
            out.text("  Q: ", Some(BOLD), &s.question);
            out.text("  A: ", None, &s.response);
        }
        ToolMetadata::Batch(b) => {
            if let Some(d) = &b.description {
                out.text("  ", Some(BOLD), d);
            }
            // Nested results get the width less their indent.
            let inner = RenderOptions {
                width: out.opts.width.saturating_sub(4).max(20),
                ..out.opts.clone()
            };
            for sub in &b.sub_results {
                let nested = render_text(sub, &inner);
                for line in nested.trim_end_matches('\n').split('\n') {
                    out.raw(format!("  │ {line}"));
                }
            }
        }
        ToolMetadata::BrowserNavigate(n) => {
            let title = n.title.as_deref().unwrap_or("(no title)");
            out.text("  ", Some(BOLD), title);
            out.text("  ", None, n.final_url.as_deref().unwrap_or(&n.url));
            if let Some(ms) = n.load_time_ms {
                let line = out.style(DIM, &format!("  loaded in {} ms", crate::issue::Num(ms)));
                out.raw(line);
            }
        }
        ToolMetadata::BrowserScreenshot(s) => {
            let size = s
                .file_size
                .map(|n| format!(", {}", human_bytes(n as usize)))
                .unwrap_or_default();
            let full = if s.full_page { ", full page" } else { "" };
            out.text(
                "  ",
                None,
                &format!(
                    "{} ({}x{} {}{full}{size})",
                    s.output_path, s.width, s.height, s.format
                ),
            );
        }
        ToolMetadata::Mcp(m) => {
            let server = m
                .server_name
                .as_deref()
                .map(|s| format!("{s} / "))
                .unwrap_or_default();
            out.text(
                "  MCP ",
                Some(BOLD),
                &format!("{server}{}", m.mcp_tool_name),
            );
            for (k, v) in m.parameters.iter().flatten() {
                let v = match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                out.text("    ", Some(DIM), &format!("{k}: {v}"));
            }
            for block in &m.content {
                out.text("  ", None, &block_text(block));
            }
        }
        ToolMetadata::Custom(c) => {
            out.text("  ", Some(BOLD), &c.name);
            out.text("  ", None, &crate::bound::preview::value_text(&c.data));
        }
    }
}

/// The output or content text, for kinds whose metadata does not hold it.
fn render_output(out: &mut Out, r: &ToolResult) {
    let text = content_or_output_text(r);
    if !text.is_empty() && Some(text.as_str()) != r.error_message.as_deref() {
        out.text("  ", None, &text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_neutralises_terminal_control() {
        let hostile = "a\x1b[2J\x1b]0;pwned\x07\x1b]8;;http://x\x1b\\link\u{202e}cba\r\u{9b}31m";
        let clean = sanitize(hostile);
        assert!(!clean.contains('\x1b') && !clean.contains('\x07') && !clean.contains('\r'));
        assert!(!clean.contains('\u{202e}') && !clean.contains('\u{9b}'));
        assert!(clean.starts_with("a␛[2J␛]0;pwned␇"));
    }
}
