//! The strict YAML subset of the front matter (docs/document.md §2): block
//! mappings of `key: scalar`, flow sequences of scalars (`[]`, `["a", "b"]`),
//! block sequences of scalars or of one-level mappings, `#` comments. No
//! anchors, aliases, tags, block scalars, flow mappings, multiple documents or
//! duplicate keys; nothing is ever evaluated. Values come out as JSON.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::{Map, Number, Value};

use super::{DocumentIssue, DocumentIssueCode as Code};
use toolresult::quote_text;

struct Line<'a> {
    number: usize,
    indent: usize,
    text: &'a str,
}

fn issue(code: Code, line: usize, path: &str, message: impl Into<String>) -> DocumentIssue {
    DocumentIssue {
        code,
        line,
        path: path.to_string(),
        message: message.into(),
    }
}

/// Removes a trailing `# comment` that sits outside quotes.
fn strip_comment(s: &str) -> &str {
    let bytes = s.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) => {
                if b == b'\\' && q == b'"' {
                    i += 1;
                } else if b == q {
                    quote = None;
                }
            }
            None => {
                if b == b'"' || b == b'\'' {
                    quote = Some(b);
                } else if b == b'#' && (i == 0 || bytes[i - 1] == b' ' || bytes[i - 1] == b'\t') {
                    return s[..i].trim_end();
                }
            }
        }
        i += 1;
    }
    s.trim_end()
}

/// Parses the front matter lines (between the `---` markers). `first_line`
/// is the 1-based line number of the first of them.
/// Returns the mapping and the line of every key and item, by JSON Pointer.
pub(crate) fn parse(
    source: &str,
    first_line: usize,
    issues: &mut Vec<DocumentIssue>,
) -> (Map<String, Value>, Vec<(String, usize)>) {
    let mut at: Vec<(String, usize)> = Vec::new();
    let mut lines = Vec::new();
    for (i, raw) in source.split('\n').enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let number = first_line + i;
        if raw.contains('\t') && raw.trim_start_matches(' ').starts_with('\t') {
            issues.push(issue(
                Code::YamlSyntax,
                number,
                "",
                "indentation must use spaces, not tabs",
            ));
            continue;
        }
        let text = strip_comment(raw);
        if text.trim().is_empty() {
            continue;
        }
        if text == "---" || text == "..." {
            issues.push(issue(
                Code::MultipleDocuments,
                number,
                "",
                "only one YAML document is allowed in the front matter",
            ));
            continue;
        }
        let indent = text.len() - text.trim_start_matches(' ').len();
        lines.push(Line {
            number,
            indent,
            text: text.trim_start_matches(' '),
        });
    }
    let mut map = Map::new();
    let mut i = 0;
    while i < lines.len() {
        let line = &lines[i];
        if line.indent != 0 {
            issues.push(issue(
                Code::YamlSyntax,
                line.number,
                "",
                "unexpected indentation",
            ));
            i += 1;
            continue;
        }
        let Some((key, rest)) = split_key(line.text) else {
            issues.push(issue(
                Code::YamlSyntax,
                line.number,
                "",
                format!("expected `key: value`, found `{}`", clip(line.text)),
            ));
            i += 1;
            continue;
        };
        let path = format!("/{key}");
        at.push((path.clone(), line.number));
        if map.contains_key(key) {
            issues.push(issue(
                Code::DuplicateKey,
                line.number,
                &path,
                format!("{} appears more than once", quote_text(key, '`')),
            ));
        }
        i += 1;
        let value = if rest.is_empty() {
            // A block sequence follows (or nothing: null).
            let mut items = Vec::new();
            while i < lines.len() && lines[i].indent > 0 {
                let item_line = &lines[i];
                let Some(item) = item_line
                    .text
                    .strip_prefix('-')
                    .filter(|r| r.is_empty() || r.starts_with(' '))
                else {
                    issues.push(issue(
                        Code::YamlSyntax,
                        item_line.number,
                        &path,
                        "expected a `- item` line",
                    ));
                    i += 1;
                    continue;
                };
                let item = item.trim_start();
                let item_path = format!("{path}/{}", items.len());
                at.push((item_path.clone(), item_line.number));
                i += 1;
                if let Some((k, v)) =
                    split_key(item).filter(|_| !item.starts_with('"') && !item.starts_with('\''))
                {
                    // A mapping item: this key plus more indented `key: value` lines.
                    let mut entry = Map::new();
                    let field_indent = item_line.indent + 2;
                    entry.insert(
                        k.to_string(),
                        scalar_or_flow(v, item_line.number, &format!("{item_path}/{k}"), issues),
                    );
                    while i < lines.len()
                        && lines[i].indent >= field_indent
                        && !lines[i].text.starts_with("- ")
                    {
                        let l = &lines[i];
                        match split_key(l.text) {
                            Some((k2, v2)) => {
                                let p = format!("{item_path}/{k2}");
                                at.push((p.clone(), l.number));
                                if entry.contains_key(k2) {
                                    issues.push(issue(
                                        Code::DuplicateKey,
                                        l.number,
                                        &p,
                                        format!("`{k2}` appears more than once"),
                                    ));
                                }
                                let value = scalar_or_flow(v2, l.number, &p, issues);
                                entry.insert(k2.to_string(), value);
                            }
                            None => issues.push(issue(
                                Code::YamlSyntax,
                                l.number,
                                &item_path,
                                "expected `key: value`",
                            )),
                        }
                        i += 1;
                    }
                    items.push(Value::Object(entry));
                } else {
                    items.push(scalar_or_flow(item, item_line.number, &item_path, issues));
                }
            }
            if items.is_empty() {
                Value::Null
            } else {
                Value::Array(items)
            }
        } else {
            scalar_or_flow(rest, line.number, &path, issues)
        };
        map.insert(key.to_string(), value);
    }
    (map, at)
}

fn clip(s: &str) -> String {
    s.chars().take(60).collect()
}

/// `key: rest` with a plain key.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let colon = text.find(':')?;
    let key = &text[..colon];
    let valid = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let rest = &text[colon + 1..];
    (valid && (rest.is_empty() || rest.starts_with(' '))).then(|| (key, rest.trim()))
}

fn scalar_or_flow(text: &str, line: usize, path: &str, issues: &mut Vec<DocumentIssue>) -> Value {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('[') {
        let Some(inner) = inner.strip_suffix(']') else {
            issues.push(issue(
                Code::YamlSyntax,
                line,
                path,
                "a flow sequence must close on its line",
            ));
            return Value::Null;
        };
        let mut items = Vec::new();
        for (n, part) in split_flow(inner, line, path, issues)
            .into_iter()
            .enumerate()
        {
            items.push(scalar(part, line, &format!("{path}/{n}"), issues));
        }
        return Value::Array(items);
    }
    scalar(t, line, path, issues)
}

/// Splits `a, "b, c", d` at commas outside quotes.
fn split_flow<'a>(
    s: &'a str,
    line: usize,
    path: &str,
    issues: &mut Vec<DocumentIssue>,
) -> Vec<&'a str> {
    let mut parts = Vec::new();
    let bytes = s.as_bytes();
    let (mut start, mut quote) = (0, None::<u8>);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) if b == b'\\' && q == b'"' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b',' => {
                parts.push(s[start..i].trim());
                start = i + 1;
            }
            None if b == b'[' || b == b'{' => {
                issues.push(issue(
                    Code::YamlUnsupported,
                    line,
                    path,
                    "nested flow collections are not supported",
                ));
            }
            None => {}
        }
        i += 1;
    }
    let last = s[start..].trim();
    if !last.is_empty() || !parts.is_empty() {
        parts.push(last);
    }
    parts
}

fn scalar(t: &str, line: usize, path: &str, issues: &mut Vec<DocumentIssue>) -> Value {
    if t.is_empty() {
        return Value::Null;
    }
    let first = t.as_bytes()[0];
    match first {
        // A YAML double-quoted string with JSON's escapes (the subset we write).
        b'"' => {
            if let Ok(s) = serde_json::from_str::<String>(t) {
                Value::String(s)
            } else {
                issues.push(issue(
                    Code::YamlSyntax,
                    line,
                    path,
                    "invalid double-quoted string",
                ));
                Value::Null
            }
        }
        b'\'' => match t.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
            Some(inner) if !inner.replace("''", "").contains('\'') => {
                Value::String(inner.replace("''", "'"))
            }
            _ => {
                issues.push(issue(
                    Code::YamlSyntax,
                    line,
                    path,
                    "invalid single-quoted string",
                ));
                Value::Null
            }
        },
        b'&' | b'*' => {
            issues.push(issue(
                Code::YamlUnsupported,
                line,
                path,
                "anchors and aliases are not allowed",
            ));
            Value::Null
        }
        b'!' => {
            issues.push(issue(
                Code::YamlUnsupported,
                line,
                path,
                "tags are not allowed",
            ));
            Value::Null
        }
        b'|' | b'>' => {
            issues.push(issue(
                Code::YamlUnsupported,
                line,
                path,
                "block scalars are not allowed",
            ));
            Value::Null
        }
        b'{' => {
            issues.push(issue(
                Code::YamlUnsupported,
                line,
                path,
                "flow mappings are not allowed",
            ));
            Value::Null
        }
        b'@' | b'`' | b'%' => {
            issues.push(issue(
                Code::YamlSyntax,
                line,
                path,
                "a plain scalar cannot start with this character",
            ));
            Value::Null
        }
        _ => plain(t),
    }
}

/// A plain scalar: YAML 1.2 core schema for null, booleans and numbers; a
/// string otherwise.
fn plain(t: &str) -> Value {
    match t {
        "null" | "Null" | "NULL" | "~" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let numeric = t
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'))
        && t.bytes().any(|b| b.is_ascii_digit());
    if numeric {
        let body = t.strip_prefix('+').unwrap_or(t);
        if let Ok(i) = body.parse::<i64>() {
            return Value::Number(i.into());
        }
        // serde_json's number parser (already linked) rather than core's.
        if let Ok(n) = serde_json::from_str::<Number>(body) {
            return Value::Number(n);
        }
    }
    Value::String(t.to_string())
}

/// A string as a YAML double-quoted scalar (JSON's escapes are valid YAML).
pub(crate) fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| String::from("\"\""))
}
