//! Executable payloads embedded inline (docs/screen.md §3): download-and-run
//! pipelines, encoded executables (by their magic bytes after decoding), and
//! active web content.

use alloc::vec::Vec;

use super::text::{contains_ignore_case, is_word_byte, line_of, word_at};
use super::{Found, Hit, Kw, ScreenCategory};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trigger {
    Downloader,
    PsDownloader,
    Iex,
    Substitution,
    Powershell,
    Certutil,
    Mshta,
    Bitsadmin,
    Regsvr32,
    Rundll32,
    Base64Decode,
    Exec,
    Script,
    ScriptUrl,
    Handler,
    DataUrl,
}

use Trigger as T;

pub(crate) static TRIGGERS: &[(&str, Trigger)] = &[
    ("curl", T::Downloader),
    ("wget", T::Downloader),
    ("fetch ", T::Downloader),
    ("iwr", T::PsDownloader),
    ("invoke-webrequest", T::PsDownloader),
    ("irm", T::PsDownloader),
    ("invoke-restmethod", T::PsDownloader),
    ("downloadstring", T::PsDownloader),
    ("downloadfile", T::PsDownloader),
    ("net.webclient", T::PsDownloader),
    ("start-bitstransfer", T::PsDownloader),
    ("iex", T::Iex),
    ("invoke-expression", T::Iex),
    ("<(curl", T::Substitution),
    ("<(wget", T::Substitution),
    ("$(curl", T::Substitution),
    ("$(wget", T::Substitution),
    ("`curl", T::Substitution),
    ("`wget", T::Substitution),
    ("powershell", T::Powershell),
    ("pwsh", T::Powershell),
    ("certutil", T::Certutil),
    ("mshta", T::Mshta),
    ("bitsadmin", T::Bitsadmin),
    ("regsvr32", T::Regsvr32),
    ("rundll32", T::Rundll32),
    ("base64 -d", T::Base64Decode),
    ("base64 --decode", T::Base64Decode),
    ("base64 -D", T::Base64Decode),
    ("b64decode", T::Base64Decode),
    ("frombase64string", T::Base64Decode),
    ("exec(", T::Exec),
    ("eval(", T::Exec),
    ("<script", T::Script),
    ("javascript:", T::ScriptUrl),
    ("vbscript:", T::ScriptUrl),
    ("data:text/html", T::DataUrl),
    ("data:application/javascript", T::DataUrl),
    ("data:text/javascript", T::DataUrl),
    ("data:application/x-javascript", T::DataUrl),
    ("data:application/xhtml", T::DataUrl),
    ("data:text/ecmascript", T::DataUrl),
    ("data:text/vbscript", T::DataUrl),
    ("data:image/svg+xml", T::DataUrl),
    ("onerror", T::Handler),
    ("onload", T::Handler),
    ("onclick", T::Handler),
    ("onmouseover", T::Handler),
    ("onmouseenter", T::Handler),
    ("onmousemove", T::Handler),
    ("onmousedown", T::Handler),
    ("onmouseup", T::Handler),
    ("onmouseout", T::Handler),
    ("onfocus", T::Handler),
    ("onblur", T::Handler),
    ("onanimationstart", T::Handler),
    ("onanimationend", T::Handler),
    ("ontransitionend", T::Handler),
    ("ontoggle", T::Handler),
    ("onbegin", T::Handler),
    ("onpageshow", T::Handler),
    ("onsubmit", T::Handler),
    ("onchange", T::Handler),
    ("oninput", T::Handler),
    ("onkeydown", T::Handler),
    ("onkeyup", T::Handler),
    ("onkeypress", T::Handler),
    ("onwheel", T::Handler),
    ("onscroll", T::Handler),
    ("onresize", T::Handler),
    ("onunload", T::Handler),
    ("onbeforeunload", T::Handler),
    ("onhashchange", T::Handler),
    ("onmessage", T::Handler),
    ("onauxclick", T::Handler),
    ("ondblclick", T::Handler),
    ("oncontextmenu", T::Handler),
    ("oncopy", T::Handler),
    ("onpaste", T::Handler),
    ("ondrag", T::Handler),
    ("ondrop", T::Handler),
    ("onplay", T::Handler),
    ("onended", T::Handler),
    ("onpointerover", T::Handler),
    ("onpointerdown", T::Handler),
    ("onpointerenter", T::Handler),
    ("onselect", T::Handler),
    ("onstart", T::Handler),
    ("onfinish", T::Handler),
    ("onreadystatechange", T::Handler),
    ("onsearch", T::Handler),
    ("oninvalid", T::Handler),
];

const INTERPRETERS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "ksh",
    "dash",
    "fish",
    "csh",
    "tcsh",
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "php",
    "iex",
    "invoke-expression",
    "powershell",
    "pwsh",
    "cmd",
    "source",
    "/bin/sh",
    "/bin/bash",
    "/usr/bin/bash",
    "/usr/bin/sh",
    "/bin/zsh",
    "/usr/bin/python",
    "/usr/bin/python3",
    "/usr/bin/perl",
    "/usr/bin/env",
];

/// After a `|`: `[sudo [-flags]] [env …] interpreter`, and not reading data
/// (`python -m json.tool`).
fn pipes_into_interpreter(after: &[u8]) -> bool {
    let mut words = after.split(|&b| b == b'|').skip(1);
    words.any(|segment| {
        let mut tokens = segment
            .split(u8::is_ascii_whitespace)
            .filter(|t| !t.is_empty())
            .peekable();
        while let Some(t) = tokens.peek() {
            let lower: Vec<u8> = t.iter().map(u8::to_ascii_lowercase).collect();
            if lower == b"sudo"
                || lower == b"env"
                || lower.starts_with(b"-")
                || lower.contains(&b'=')
                || lower == b"exec"
            {
                tokens.next();
                continue;
            }
            break;
        }
        let Some(first) = tokens.next() else {
            return false;
        };
        // `sh"}` at the end of a JSON string, `bash)`, `sh;`: the word itself.
        let lower: Vec<u8> = first
            .iter()
            .map(u8::to_ascii_lowercase)
            .filter(|&b| {
                !matches!(
                    b,
                    b'(' | b')' | b'"' | b'\'' | b'}' | b']' | b';' | b'`' | b'\\'
                )
            })
            .collect();
        let interp = INTERPRETERS.iter().any(|i| lower == i.as_bytes());
        let reads_data = tokens
            .next()
            .is_some_and(|n| n == b"-m" || n == b"-c" || n == b"-e");
        interp && !reads_data
    })
}

/// `… && chmod +x f && ./f`, `-o f; sh f`: the download is made executable and run.
fn runs_download(after: &[u8]) -> bool {
    (contains_ignore_case(after, "chmod +x")
        || contains_ignore_case(after, "chmod 7")
        || contains_ignore_case(after, "chmod 755"))
        && (after.windows(2).any(|w| w == b"./")
            || contains_ignore_case(after, "&& /tmp/")
            || contains_ignore_case(after, "; /tmp/"))
        || [
            "&& sh ",
            "&& bash ",
            "; sh ",
            "; bash ",
            "&& ./",
            "; ./",
            "&& start ",
            "& start ",
        ]
        .iter()
        .any(|p| contains_ignore_case(after, p))
}

fn has_url(b: &[u8]) -> bool {
    contains_ignore_case(b, "http://")
        || contains_ignore_case(b, "https://")
        || contains_ignore_case(b, "ftp://")
        || contains_ignore_case(b, "\\\\")
}

fn push(hits: &mut Vec<Hit>, rule: &'static str, start: usize, end: usize) {
    hits.push(Hit {
        category: ScreenCategory::ExecutablePayload,
        rule,
        start,
        end,
    });
}

pub(crate) fn scan(text: &str, found: &[Found], hits: &mut Vec<Hit>) {
    let t = text.as_bytes();
    for f in found {
        let Kw::Payload(trigger) = f.kw else { continue };
        let word_trigger = !matches!(
            trigger,
            T::Substitution | T::Script | T::ScriptUrl | T::DataUrl | T::Exec | T::Base64Decode
        );
        if word_trigger && !word_at(t, f.start, f.end) {
            continue;
        }
        let (ls, le) = line_of(t, f.start);
        let line = &t[ls..le];
        let after = &t[f.end..le];
        let before = &t[ls..f.start];
        match trigger {
            T::Downloader => {
                if pipes_into_interpreter(after) || (has_url(after) && runs_download(after)) {
                    push(hits, "download-and-run", f.start, le);
                }
            }
            T::PsDownloader => {
                if pipes_into_interpreter(after)
                    || contains_ignore_case(before, "iex")
                    || contains_ignore_case(before, "invoke-expression")
                    || (has_url(after) && runs_download(after))
                    || contains_ignore_case(after, "start-process") && has_url(line)
                {
                    push(
                        hits,
                        "download-and-run",
                        ls.max(f.start.saturating_sub(64)),
                        le,
                    );
                }
            }
            T::Iex => {
                let downloads = [
                    "iwr",
                    "invoke-webrequest",
                    "irm",
                    "invoke-restmethod",
                    "downloadstring",
                    "net.webclient",
                    "frombase64string",
                    "http://",
                    "https://",
                ];
                if downloads.iter().any(|d| contains_ignore_case(line, d)) {
                    push(hits, "download-and-run", ls, le);
                }
            }
            T::Substitution => {
                let b: Vec<u8> = before.iter().map(u8::to_ascii_lowercase).collect();
                let runs = [
                    "sh", "bash", "zsh", "eval", "source", ". ", "python", "perl",
                ]
                .iter()
                .any(|w| contains_ignore_case(&b, w));
                if runs {
                    push(hits, "download-and-run", ls, le);
                }
            }
            T::Powershell => {
                if encoded_command(after) {
                    push(hits, "powershell-encoded-command", f.start, le);
                } else if (contains_ignore_case(after, "downloadstring")
                    || contains_ignore_case(after, "iwr ")
                    || contains_ignore_case(after, "invoke-webrequest"))
                    && (contains_ignore_case(after, "iex")
                        || contains_ignore_case(after, "invoke-expression"))
                {
                    push(hits, "download-and-run", f.start, le);
                }
            }
            T::Certutil => {
                if contains_ignore_case(after, "urlcache")
                    || contains_ignore_case(after, "verifyctl") && has_url(after)
                {
                    push(hits, "certutil-download", f.start, le);
                }
            }
            T::Mshta => {
                if has_url(after)
                    || contains_ignore_case(after, "javascript:")
                    || contains_ignore_case(after, "vbscript:")
                    || contains_ignore_case(after, ".hta")
                {
                    push(hits, "mshta", f.start, le);
                }
            }
            T::Bitsadmin => {
                if contains_ignore_case(after, "/transfer")
                    || contains_ignore_case(after, "/addfile")
                {
                    push(hits, "bitsadmin-transfer", f.start, le);
                }
            }
            T::Regsvr32 => {
                if contains_ignore_case(after, "/i:http") || contains_ignore_case(after, "scrobj") {
                    push(hits, "regsvr32-scriptlet", f.start, le);
                }
            }
            T::Rundll32 => {
                if contains_ignore_case(after, "javascript:")
                    || (has_url(after) && contains_ignore_case(after, ".dll,"))
                {
                    push(hits, "rundll32-script", f.start, le);
                }
            }
            T::Base64Decode => {
                if pipes_into_interpreter(after)
                    || runs_download(after)
                    || contains_ignore_case(before, "iex")
                    || contains_ignore_case(before, "invoke-expression")
                {
                    push(hits, "decode-and-run", ls, le);
                }
            }
            T::Exec => {
                let fetches = [
                    "urlopen",
                    "requests.get",
                    "urllib",
                    "http://",
                    "https://",
                    "wget",
                    "curl",
                ];
                if fetches.iter().any(|d| contains_ignore_case(line, d))
                    && (f.start == 0 || !is_word_byte(t[f.start - 1]))
                {
                    push(hits, "download-and-run", ls, le);
                }
            }
            T::Script => {
                if t.get(f.end)
                    .is_some_and(|&b| b.is_ascii_whitespace() || b == b'>' || b == b'/')
                {
                    push(hits, "script-tag", f.start, (f.end + 1).min(t.len()));
                }
            }
            T::ScriptUrl => {
                let next = t.get(f.end);
                let prev_ok = super::text::boundary_before(t, f.start);
                if prev_ok
                    && next.is_some_and(|&b| {
                        !b.is_ascii_whitespace() && !b.is_ascii_digit() && b != b'"' && b != b'\''
                    })
                {
                    push(hits, "script-url", f.start, (f.end + 1).min(t.len()));
                }
            }
            T::DataUrl => {
                if f.start == 0 || !t[f.start - 1].is_ascii_alphanumeric() {
                    let svg = t[f.start..f.end].eq_ignore_ascii_case(b"data:image/svg+xml");
                    let end = (f.end + 512).min(t.len());
                    // An SVG data URL is an image unless it carries script.
                    if !svg
                        || contains_ignore_case(&t[f.end..end], "script")
                        || contains_ignore_case(&t[f.end..end], "onload")
                    {
                        push(hits, "data-url-script", f.start, f.end);
                    }
                }
            }
            T::Handler => handler(t, f, hits),
        }
    }
}

/// `-e`, `-enc`, `-EncodedCommand` (any prefix of it) then base64.
fn encoded_command(after: &[u8]) -> bool {
    let mut i = 0;
    while i + 2 < after.len() {
        if after[i].is_ascii_whitespace() && (after[i + 1] == b'-' || after[i + 1] == b'/') {
            let mut j = i + 2;
            while j < after.len() && after[j].is_ascii_alphabetic() {
                j += 1;
            }
            let flag: Vec<u8> = after[i + 2..j].iter().map(u8::to_ascii_lowercase).collect();
            let is_enc = !flag.is_empty()
                && (b"encodedcommand".starts_with(&flag) || flag == b"ec")
                && flag[0] == b'e';
            if is_enc {
                let mut k = j;
                while k < after.len() && (after[k] == b' ' || after[k] == b'"' || after[k] == b'\'')
                {
                    k += 1;
                }
                let run = after[k..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
                    .count();
                if run >= 16 {
                    return true;
                }
            }
            i = j;
            continue;
        }
        i += 1;
    }
    false
}

/// `on*=` inside a tag: `<img src=x onerror=…>`.
fn handler(t: &[u8], f: &Found, hits: &mut Vec<Hit>) {
    if f.start == 0 || !matches!(t[f.start - 1], b' ' | b'\t' | b'\n' | b'"' | b'\'' | b'/') {
        return;
    }
    let mut i = f.end;
    if t.get(i).is_some_and(u8::is_ascii_alphabetic) {
        return;
    }
    while i < t.len() && t[i].is_ascii_whitespace() {
        i += 1;
    }
    if t.get(i) != Some(&b'=') {
        return;
    }
    // Inside a tag: a `<letter` before us with no `>` in between.
    let from = f.start.saturating_sub(2048);
    let Some(open) = t[from..f.start]
        .iter()
        .rposition(|&b| b == b'<' || b == b'>')
    else {
        return;
    };
    let open = from + open;
    if t[open] == b'<' && t.get(open + 1).is_some_and(u8::is_ascii_alphabetic) {
        push(hits, "event-handler-attribute", f.start, i + 1);
    }
}

/// Decoded bytes that begin like an executable.
pub(crate) fn executable_magic(bytes: &[u8]) -> Option<Hit> {
    let kind = if bytes.len() >= 48 && bytes.starts_with(b"MZ") {
        Some("encoded-pe-executable")
    } else if bytes.len() >= 16 && bytes.starts_with(b"\x7fELF") {
        Some("encoded-elf-executable")
    } else if bytes.len() >= 16
        && [
            &[0xFE, 0xED, 0xFA, 0xCE][..],
            &[0xFE, 0xED, 0xFA, 0xCF],
            &[0xCE, 0xFA, 0xED, 0xFE],
            &[0xCF, 0xFA, 0xED, 0xFE],
        ]
        .iter()
        .any(|m| bytes.starts_with(m))
    {
        Some("encoded-macho-executable")
    } else if bytes.len() >= 16 && bytes.starts_with(&[0xCA, 0xFE, 0xBA, 0xBE]) {
        Some("encoded-java-class")
    } else if bytes.len() >= 8 && bytes.starts_with(b"\0asm") && bytes[4..8] == [1, 0, 0, 0] {
        Some("encoded-wasm-module")
    } else {
        None
    };
    kind.map(|rule| Hit {
        category: ScreenCategory::ExecutablePayload,
        rule,
        start: 0,
        end: 0,
    })
}
