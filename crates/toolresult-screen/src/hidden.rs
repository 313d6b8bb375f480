//! Hidden text (docs/screen.md §3): Unicode tag characters, zero-width
//! characters inside words, and bidi embedding, override and isolate controls.

use alloc::vec::Vec;

use super::text::non_ascii_chars;
use super::{Hit, ScreenCategory};

/// Tag characters U+E0000–E007F spell ASCII invisibly.
pub(crate) fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

pub(crate) fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

pub(crate) fn is_zero_width(c: char) -> bool {
    matches!(
        c,
        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\u{180E}' | '\u{2061}'
            ..='\u{2064}'
    )
}

/// Characters a reader does not see (written escaped in excerpts).
pub(crate) fn is_invisible(c: char) -> bool {
    is_tag(c)
        || is_bidi_control(c)
        || is_zero_width(c)
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{00AD}')
}

/// Emoji and pictographs: a ZWJ between two of them builds a sequence (👩‍💻).
fn is_pictographic(c: char) -> bool {
    matches!(c as u32, 0x2300..=0x23FF | 0x2600..=0x27BF | 0x2B00..=0x2BFF | 0x1F000..=0x1FAFF | 0xFE0F | 0x20E3)
        || ('\u{1F3FB}'..='\u{1F3FF}').contains(&c)
}

/// Scripts that join with ZWJ / ZWNJ as part of ordinary spelling.
fn joins_with_zwj(c: char) -> bool {
    matches!(c as u32, 0x0600..=0x06FF | 0x0750..=0x077F | 0x0900..=0x0DFF | 0x0F00..=0x0FFF | 0x1000..=0x109F | 0x1780..=0x17FF | 0xA8E0..=0xA8FF)
}

pub(crate) fn scan(s: &str, hits: &mut Vec<Hit>) {
    // Every hidden character is outside ASCII.
    let mut skip_until = 0;
    for (pos, c) in non_ascii_chars(s) {
        if pos < skip_until {
            continue; // inside a tag run already reported
        }
        let i = pos + c.len_utf8();
        if is_tag(c) {
            let mut end = i;
            let mut last = c;
            while let Some(n) = s[end..].chars().next().filter(|&n| is_tag(n)) {
                end += n.len_utf8();
                last = n;
            }
            // 🏴 + tag letters + cancel tag is a subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿), not hidden text.
            let prev = s[..pos].chars().next_back();
            let flag = prev == Some('\u{1F3F4}') && last == '\u{E007F}' && end - pos <= 8 * 4;
            if !flag {
                hits.push(Hit {
                    category: ScreenCategory::HiddenText,
                    rule: "unicode-tag-characters",
                    start: pos,
                    end,
                });
            }
            skip_until = end;
        } else if is_bidi_control(c) {
            push_merged(hits, "bidi-control", pos, i);
        } else if is_zero_width(c) {
            let prev = s[..pos].chars().next_back();
            let next = s[i..].chars().next();
            let benign = match c {
                // A byte order mark at the very start is an encoding artefact.
                '\u{FEFF}' if pos == 0 => true,
                '\u{200D}' | '\u{200C}' => {
                    prev.is_some_and(|p| is_pictographic(p) || joins_with_zwj(p))
                        || next.is_some_and(|n| is_pictographic(n) || joins_with_zwj(n))
                }
                _ => false,
            };
            let inside_word = prev.is_some_and(|p| !p.is_whitespace())
                && next.is_some_and(|n| !n.is_whitespace());
            if !benign && inside_word {
                push_merged(hits, "zero-width-character", pos, i);
            }
        }
    }
}

/// Nearby controls of one kind are one finding (a word spelled with a
/// zero-width space between every letter is one reason, not twenty).
fn push_merged(hits: &mut Vec<Hit>, rule: &'static str, start: usize, end: usize) {
    if let Some(last) = hits.last_mut() {
        if last.rule == rule
            && last.category == ScreenCategory::HiddenText
            && last.end + 64 >= start
        {
            last.end = end;
            return;
        }
    }
    hits.push(Hit {
        category: ScreenCategory::HiddenText,
        rule,
        start,
        end,
    });
}
