//! Text rendering: golden snapshots per kind and status (tests/fixtures/render,
//! written with `UPDATE_SNAPSHOTS=1 cargo test --test render`), and the
//! hostile set: nothing in a result reaches the terminal as a control.

use std::path::PathBuf;

use serde_json::{json, Value};
use toolresult::render::{render_text, RenderOptions};
use toolresult::ToolResult;

/// Render options: the defaults, changed by `set` (the struct is
/// `#[non_exhaustive]`, so there is no struct literal outside the crate).
fn options(set: impl FnOnce(&mut RenderOptions)) -> RenderOptions {
    let mut o = RenderOptions::default();
    set(&mut o);
    o
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn load(path: &str) -> ToolResult {
    serde_json::from_str(&std::fs::read_to_string(fixtures().join(path)).unwrap()).unwrap()
}

/// Every snapshot: (name, result, options).
fn cases() -> Vec<(String, ToolResult, RenderOptions)> {
    let mut cases = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(fixtures().join("tool"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("valid-"))
        .collect();
    names.sort();
    for name in names {
        let r = load(&format!("tool/{name}"));
        let stem = name.trim_end_matches(".json").to_string();
        // Each kind also as a failure and as a timeout: the header, the error
        // line and the retryable note come from the status.
        if stem.starts_with("valid-metadata-") && !stem.contains("-edge-") {
            for (status, code) in [
                (toolresult::ToolStatus::Failed, "TOOL_ERROR"),
                (toolresult::ToolStatus::Timeout, "TIMEOUT"),
            ] {
                let mut failed = r.clone();
                failed.status = status;
                failed.error_code = Some(code.into());
                failed.error_message = Some(format!("the tool ended with {}", status.as_str()));
                let kind = stem.trim_start_matches("valid-metadata-");
                cases.push((
                    format!("{}-{kind}", status.as_str()),
                    failed,
                    RenderOptions::default(),
                ));
            }
        }
        cases.push((stem, r, RenderOptions::default()));
    }
    let edit = load("tool/valid-metadata-file-edit.json");
    cases.push((
        "ansi-file-edit".into(),
        edit.clone(),
        options(|o| o.color = true),
    ));
    cases.push((
        "collapsed-file-read".into(),
        load("tool/valid-metadata-file-read.json"),
        options(|o| o.collapsed = true),
    ));
    let mut failed = edit;
    failed.status = toolresult::ToolStatus::PermissionDenied;
    failed.error_code = Some("EACCES".into());
    failed.error_message = Some("src/main.rs is read-only".into());
    cases.push((
        "permission-denied-file-edit".into(),
        failed.clone(),
        RenderOptions::default(),
    ));
    cases.push((
        "failed-collapsed-keeps-the-error".into(),
        failed,
        options(|o| o.collapsed = true),
    ));
    let mut confirm = load("tool/valid-metadata-bash.json");
    confirm.status = toolresult::ToolStatus::RequiresConfirmation;
    confirm.error_code = Some("CONFIRM".into());
    confirm.error_message = Some("rm -rf build/ deletes 1,204 files; confirm?".into());
    cases.push((
        "requires-confirmation-bash".into(),
        confirm,
        RenderOptions::default(),
    ));
    let long: Vec<String> = (1..=500).map(|i| format!("line {i}")).collect();
    let mut many = load("tool/valid-metadata-bash.json");
    if let Some(toolresult::ToolMetadata::Bash(b)) = many.tool_metadata.as_mut() {
        b.stdout = Some(long.join("\n"));
    }
    cases.push((
        "bash-head-and-tail".into(),
        many,
        options(|o| o.max_lines = 12),
    ));
    cases
}

#[test]
fn snapshots() {
    let dir = fixtures().join("render");
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut failures = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 25, "{} cases", cases.len());
    // No snapshot without its case (a renamed case leaves none behind).
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().file_name().to_string_lossy().into_owned();
        let stem = file.trim_end_matches(".txt");
        assert!(
            update || cases.iter().any(|(name, _, _)| name == stem),
            "snapshot {file} has no case"
        );
    }
    for (name, r, opts) in cases {
        let got = render_text(&r, &opts);
        let file = dir.join(format!("{name}.txt"));
        if update {
            std::fs::write(&file, &got).unwrap();
            continue;
        }
        match std::fs::read_to_string(&file) {
            Ok(want) if want == got => {}
            Ok(want) => failures.push(format!("{name}:\n--- want\n{want}\n--- got\n{got}")),
            Err(_) => failures.push(format!("{name}: no snapshot {}", file.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Only the renderer's own SGR sequences (`ESC [ digits m`) may contain ESC.
fn inert(text: &str) -> Result<(), String> {
    let mut rest = text;
    while let Some(i) = rest.find('\x1b') {
        let after = &rest[i + 1..];
        let sgr = after.strip_prefix('[').and_then(|a| {
            let digits = a.bytes().take_while(u8::is_ascii_digit).count();
            (digits > 0 && a[digits..].starts_with('m')).then_some(&a[digits + 1..])
        });
        match sgr {
            Some(next) => rest = next,
            None => {
                return Err(format!(
                    "a raw ESC: {:?}",
                    &rest[i..(i + 12).min(rest.len())]
                ))
            }
        }
    }
    for c in text.chars() {
        let bad = matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1a}' | '\u{1c}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
            | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{61c}');
        if bad {
            return Err(format!("control {c:?}"));
        }
    }
    Ok(())
}

#[test]
fn hostile_output_renders_inert() {
    let base: Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("tool/valid-metadata-bash.json")).unwrap(),
    )
    .unwrap();
    let huge = "A".repeat(10 * 1024 * 1024);
    let payloads = [
        "clear\x1b[2J\x1b[H and title\x1b]0;owned\x07 and link \x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
        "bidi \u{202e}txt.exe\u{202c} and isolate \u{2066}x\u{2069}",
        "carriage\roverwrite and C1 \u{9b}31m and bell \x07",
        "</script><script>alert(1)</script> [x](javascript:alert(1)) ```\n```html\n<img src=x onerror=alert(1)>",
        huge.as_str(),
    ];
    for p in payloads {
        let mut v = base.clone();
        v["tool_metadata"]["stdout"] = json!(p);
        v["tool_metadata"]["command"] = json!(p);
        v["output"] = json!({ "stdout": p });
        let r: ToolResult = serde_json::from_value(v.clone()).unwrap();
        let mut plain = r.clone();
        plain.tool_metadata = None;
        for (result, color) in [(&r, false), (&r, true), (&plain, false), (&plain, true)] {
            let opts = options(|o| {
                o.color = color;
                o.width = 80;
            });
            let text = render_text(result, &opts);
            inert(&text)
                .unwrap_or_else(|e| panic!("{e} in rendering of {:?}", &p[..p.len().min(30)]));
            for line in text.lines() {
                let visible: String = line.replace('\x1b', "");
                assert!(
                    visible.chars().count() <= 80 + 40,
                    "a line is cut to the width"
                );
            }
            assert!(text.len() < 100_000, "a 10 MB line does not come through");
        }
        let collapsed = render_text(&r, &options(|o| o.collapsed = true));
        inert(&collapsed).unwrap();
    }
}

/// Regression (found by the `render` fuzz target): a narrow width must not
/// cut a line inside the renderer's own styles.
#[test]
fn narrow_widths_never_cut_inside_a_style() {
    for (name, r, _) in cases() {
        for width in [20, 27, 33] {
            for collapsed in [false, true] {
                let opts = options(|o| {
                    o.width = width;
                    o.color = true;
                    o.collapsed = collapsed;
                    o.max_lines = 6;
                });
                let text = render_text(&r, &opts);
                inert(&text).unwrap_or_else(|e| panic!("{name} at width {width}: {e}"));
                let opens = text.matches("\x1b[7m").count() + text.matches("\x1b[1m").count();
                assert!(
                    text.matches("\x1b[0m").count() >= opens,
                    "{name}: every style is closed"
                );
            }
        }
    }
}
