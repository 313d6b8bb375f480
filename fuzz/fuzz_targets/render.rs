//! Text rendering and previews of arbitrary ToolResults: never panic, and
//! nothing from the result reaches the output as a terminal control (only the
//! renderer's own SGR colour codes contain ESC).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolresult::bound::preview_result;
use toolresult::render::{render_text, RenderOptions};
use toolresult::{parse_tool_result, ValidationOptions};

fn inert(text: &str) {
    let mut rest = text;
    while let Some(i) = rest.find('\x1b') {
        let after = &rest[i + 1..];
        let digits = after
            .strip_prefix('[')
            .map(|a| a.bytes().take_while(u8::is_ascii_digit).count());
        match digits {
            Some(n) if n > 0 && after[1 + n..].starts_with('m') => rest = &after[2 + n..],
            _ => panic!("raw ESC in {text:?}"),
        }
    }
    for c in text.chars() {
        let bad = matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1a}' | '\u{1c}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
            | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{61c}');
        assert!(!bad, "control {c:?} in {text:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(result) = parse_tool_result(text, &ValidationOptions::default()) else {
        return;
    };
    let mut opts = RenderOptions::default();
    opts.width = 20 + usize::from(flags >> 2);
    opts.color = flags & 1 == 1;
    opts.max_lines = 4 + usize::from(flags & 0x0f);
    opts.collapsed = flags & 2 == 2;
    let out = render_text(&result, &opts);
    inert(&out);
    let _ = preview_result(&result, 1 + usize::from(flags));
});
