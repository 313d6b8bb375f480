//! One-line summaries of tool results (docs/spec.md §12): what ran, on what, and what
//! came back, using the tool's actual argument names so a model reading the
//! history does not call the same tool again to find out.

use alloc::format;
use alloc::string::{String, ToString};
use serde_json::{Map, Value};

use crate::wire::status::ToolStatus;
use crate::wire::tool_metadata::{DiffHunk, DiffLineType, ToolMetadata};
use crate::wire::tool_result::ToolResult;

/// Longest argument value quoted in a summary, in characters.
const ARG_CHARS: usize = 80;

/// A one-line summary: "Read file: src/main.py (342 lines)", "grep 'TODO' in
/// src: 12 matches in 4 files", "bash `make test`: exit 0, 120 lines", or a
/// generic line for tools it does not know.
pub fn summarize(result: &ToolResult) -> String {
    let base = match result.tool_metadata.as_ref().and_then(from_metadata) {
        Some(line) => line,
        None => from_output(result),
    };
    if result.status == ToolStatus::Success {
        base
    } else {
        let code = result
            .error_code
            .as_deref()
            .unwrap_or(result.status.as_str());
        format!("{base}: {} ({code})", result.status.as_str())
    }
}

/// The summary typed per-tool data gives, for the kinds that say more than
/// the output does.
fn from_metadata(m: &ToolMetadata) -> Option<String> {
    let files = |n: usize| plural(n as u64, "file", "files");
    Some(match m {
        ToolMetadata::FileRead(r) => {
            let n = r.total_lines.unwrap_or(r.lines.len() as u64);
            format!("Read file: {}{}", r.file_path, paren(Some(n), "line"))
        }
        ToolMetadata::FileWrite(w) => format!(
            "Wrote file: {}{}",
            w.file_path,
            paren(Some(line_count(&w.content)), "line")
        ),
        ToolMetadata::FileEdit(e) => edited(&e.file_path, &e.diff_hunks),
        ToolMetadata::FileMultiEdit(e) => edited(&e.file_path, &e.diff_hunks),
        ToolMetadata::Grep(g) => {
            let matches: usize = g.results.iter().map(|r| r.matches.len()).sum();
            let place = g
                .path
                .as_deref()
                .map(|p| format!(" in {p}"))
                .unwrap_or_default();
            format!(
                "grep '{}'{place}: {matches} {} in {} {}{}",
                g.pattern,
                plural(matches as u64, "match", "matches"),
                g.results.len(),
                files(g.results.len()),
                if g.truncated { " (truncated)" } else { "" }
            )
        }
        ToolMetadata::Glob(g) => format!(
            "glob '{}': {} {}{}",
            g.pattern,
            g.files.len(),
            files(g.files.len()),
            if g.truncated { " (truncated)" } else { "" }
        ),
        ToolMetadata::Bash(b) => {
            let outcome = match (b.timed_out, b.exit_code) {
                (true, _) => String::from("timed out"),
                (false, Some(code)) => format!("exit {code}"),
                (false, None) => String::from("no exit code"),
            };
            format!("bash `{}`: {outcome}", short_str(&b.command))
        }
        ToolMetadata::Todo(t) => format!(
            "Todo list: {} done, {} in progress, {} pending",
            t.statistics.completed, t.statistics.in_progress, t.statistics.pending
        ),
        ToolMetadata::WebFetch(w) => format!(
            "Fetched {}{}",
            short_str(&w.url),
            w.size.map(|n| format!(": {n} bytes")).unwrap_or_default()
        ),
        ToolMetadata::BrowserNavigate(n) => format!(
            "Opened {}{}",
            short_str(n.final_url.as_deref().unwrap_or(&n.url)),
            n.title
                .as_deref()
                .map(|t| format!(" ({})", short_str(t)))
                .unwrap_or_default()
        ),
        ToolMetadata::BrowserScreenshot(s) => format!(
            "Screenshot {} ({}x{})",
            short_str(&s.output_path),
            s.width,
            s.height
        ),
        ToolMetadata::Mcp(m) => format!(
            "MCP {}{}: {} content {}",
            m.server_name
                .as_deref()
                .map(|s| format!("{s}/"))
                .unwrap_or_default(),
            m.mcp_tool_name,
            m.content.len(),
            plural(m.content.len() as u64, "block", "blocks")
        ),
        ToolMetadata::Batch(b) => format!(
            "Batch of {}: {} succeeded, {} failed",
            b.sub_results.len(),
            b.success_count,
            b.failure_count
        ),
        _ => return None,
    })
}

/// "Edited src/main.rs: +12 −3 in 2 hunks".
fn edited(path: &str, hunks: &[DiffHunk]) -> String {
    let count = |kind: DiffLineType| {
        hunks
            .iter()
            .flat_map(|h| &h.lines)
            .filter(|l| l.kind == kind)
            .count()
    };
    format!(
        "Edited {path}: +{} \u{2212}{} in {} {}",
        count(DiffLineType::Added),
        count(DiffLineType::Removed),
        hunks.len(),
        plural(hunks.len() as u64, "hunk", "hunks")
    )
}

fn from_output(result: &ToolResult) -> String {
    let name = result.input.tool_name.as_str();
    let args = &result.input.parameters;
    let out = result.output.as_ref().filter(|o| !o.is_null());
    let base = match kind(name) {
        Kind::Read => {
            let path = arg(
                args,
                &["path", "file_path", "target_file", "filename", "file"],
            );
            let lines = out.and_then(|o| {
                count(o, &["lines", "line_count", "total_lines"])
                    .or_else(|| text_lines(o, &["content", "text"]))
            });
            format!(
                "Read file: {}{}",
                path.unwrap_or_else(|| "?".into()),
                paren(lines, "line")
            )
        }
        Kind::Write => {
            let path = arg(
                args,
                &["path", "file_path", "target_file", "filename", "file"],
            );
            let lines = args
                .get("content")
                .or_else(|| args.get("contents"))
                .and_then(|c| c.as_str())
                .map(line_count);
            format!(
                "Wrote file: {}{}",
                path.unwrap_or_else(|| "?".into()),
                paren(lines, "line")
            )
        }
        Kind::Edit => {
            let path = arg(
                args,
                &["path", "file_path", "target_file", "filename", "file"],
            );
            format!("Edited file: {}", path.unwrap_or_else(|| "?".into()))
        }
        Kind::Search => {
            let pattern = arg(args, &["pattern", "query", "regex", "search", "q"]);
            let place = arg(
                args,
                &[
                    "path",
                    "directory",
                    "dir",
                    "include",
                    "glob",
                    "target_directories",
                ],
            );
            let mut s = match pattern {
                Some(p) => format!(
                    "{} '{p}'",
                    if name.contains("grep") {
                        "grep"
                    } else {
                        "search"
                    }
                ),
                None => String::from("search"),
            };
            if let Some(place) = place {
                s.push_str(&format!(" in {place}"));
            }
            let matches = out.and_then(|o| {
                count(
                    o,
                    &["matches", "match_count", "total_matches", "count", "total"],
                )
                .or_else(|| array_len(o, &["matches", "results"]))
            });
            let files = out.and_then(|o| {
                count(o, &["files", "file_count", "files_matched"])
                    .or_else(|| array_len(o, &["files"]))
            });
            match (matches, files) {
                (Some(m), Some(f)) => s.push_str(&format!(
                    ": {m} {} in {f} {}",
                    plural(m, "match", "matches"),
                    plural(f, "file", "files")
                )),
                (Some(m), None) => s.push_str(&format!(": {m} {}", plural(m, "match", "matches"))),
                _ => {}
            }
            s
        }
        Kind::Shell => {
            let command = arg(args, &["command", "cmd", "script", "commandLine"]);
            let mut s = format!("{name} `{}`", command.unwrap_or_else(|| "?".into()));
            let exit = out.and_then(|o| {
                count_signed(
                    o,
                    &["exit_code", "exitCode", "code", "returncode", "status"],
                )
            });
            let lines = out.and_then(|o| text_lines(o, &["stdout", "output", "content"]));
            let mut parts = alloc::vec::Vec::new();
            if let Some(code) = exit {
                parts.push(format!("exit {code}"));
            }
            if let Some(n) = lines {
                parts.push(format!("{n} {}", plural(n, "line", "lines")));
            }
            if !parts.is_empty() {
                s.push_str(&format!(": {}", parts.join(", ")));
            }
            s
        }
        Kind::List => {
            let path = arg(
                args,
                &["path", "directory", "dir", "relative_workspace_path"],
            );
            let entries = out.and_then(|o| array_len(o, &["entries", "files", "items"]));
            format!(
                "Listed {}{}",
                path.unwrap_or_else(|| ".".into()),
                entries
                    .map(|n| format!(": {n} {}", plural(n, "entry", "entries")))
                    .unwrap_or_default()
            )
        }
        Kind::WebSearch => {
            let query = arg(args, &["query", "q", "search_term"]);
            let n = out.and_then(|o| array_len(o, &["results", "items"]));
            format!(
                "Web search '{}'{}",
                query.unwrap_or_else(|| "?".into()),
                n.map(|n| format!(": {n} {}", plural(n, "result", "results")))
                    .unwrap_or_default()
            )
        }
        Kind::Fetch => {
            let url = arg(args, &["url", "uri", "href"]);
            format!(
                "Fetched {}{}",
                url.unwrap_or_else(|| "?".into()),
                size(result)
            )
        }
        Kind::Other => {
            let shown = args
                .iter()
                .take(2)
                .map(|(k, v)| format!("{k}={}", short(v)))
                .collect::<alloc::vec::Vec<_>>()
                .join(", ");
            format!("{name}({shown}){}", size(result))
        }
    };
    base
}

enum Kind {
    Read,
    Write,
    Edit,
    Search,
    Shell,
    List,
    WebSearch,
    Fetch,
    Other,
}

/// Tool kinds by the names agent frameworks give their tools.
fn kind(name: &str) -> Kind {
    let n = name.to_ascii_lowercase();
    let is = |names: &[&str]| names.iter().any(|x| n == *x);
    if is(&[
        "read_file",
        "read",
        "view",
        "cat",
        "open_file",
        "readfile",
        "view_file",
    ]) {
        Kind::Read
    } else if is(&["write_file", "write", "create_file", "writefile"]) {
        Kind::Write
    } else if is(&[
        "edit_file",
        "edit",
        "str_replace",
        "replace_in_file",
        "apply_patch",
        "search_replace",
    ]) {
        Kind::Edit
    } else if n.contains("grep")
        || is(&[
            "search",
            "search_files",
            "codebase_search",
            "file_search",
            "find",
        ])
    {
        Kind::Search
    } else if is(&[
        "bash",
        "shell",
        "run_terminal_cmd",
        "run_command",
        "execute_command",
        "terminal",
        "exec",
        "sh",
    ]) {
        Kind::Shell
    } else if is(&["list_dir", "list_directory", "ls", "list_files"]) {
        Kind::List
    } else if is(&["web_search", "websearch", "search_web", "google_search"]) {
        Kind::WebSearch
    } else if is(&[
        "fetch",
        "web_fetch",
        "fetch_url",
        "http_get",
        "browse",
        "open_url",
    ]) {
        Kind::Fetch
    } else {
        Kind::Other
    }
}

fn arg(args: &Map<String, Value>, names: &[&str]) -> Option<String> {
    names.iter().find_map(|n| args.get(*n)).map(short)
}

/// A value as it reads in a summary: strings bare, the rest as compact JSON,
/// cut to `ARG_CHARS` characters on one line.
fn short(v: &Value) -> String {
    match v {
        Value::String(s) => short_str(s),
        other => short_str(&other.to_string()),
    }
}

/// A string as it reads in a summary: on one line, cut to `ARG_CHARS`.
fn short_str(s: &str) -> String {
    let one_line: String = s
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    if one_line.chars().count() > ARG_CHARS {
        let mut cut: String = one_line.chars().take(ARG_CHARS - 1).collect();
        cut.push('…');
        cut
    } else {
        one_line
    }
}

fn line_count(text: &str) -> u64 {
    if text.is_empty() {
        0
    } else {
        text.lines().count() as u64
    }
}

/// Lines of the output text: the output itself when it is a string, else the
/// first of `fields` that holds one.
fn text_lines(out: &Value, fields: &[&str]) -> Option<u64> {
    match out {
        Value::String(s) => Some(line_count(s)),
        Value::Object(o) => fields
            .iter()
            .find_map(|f| o.get(*f)?.as_str())
            .map(line_count),
        _ => None,
    }
}

fn count(out: &Value, fields: &[&str]) -> Option<u64> {
    let o = out.as_object()?;
    fields.iter().find_map(|f| o.get(*f)?.as_u64())
}

fn count_signed(out: &Value, fields: &[&str]) -> Option<i64> {
    let o = out.as_object()?;
    fields.iter().find_map(|f| o.get(*f)?.as_i64())
}

fn array_len(out: &Value, fields: &[&str]) -> Option<u64> {
    match out {
        Value::Array(a) => Some(a.len() as u64),
        Value::Object(o) => fields
            .iter()
            .find_map(|f| o.get(*f)?.as_array())
            .map(|a| a.len() as u64),
        _ => None,
    }
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

fn paren(n: Option<u64>, unit: &str) -> String {
    match n {
        Some(n) => format!(" ({n} {unit}{})", if n == 1 { "" } else { "s" }),
        None => String::new(),
    }
}

fn size(result: &ToolResult) -> String {
    match result.metadata.output_size {
        Some(n) => format!(": {n} bytes"),
        None => String::new(),
    }
}
