//! Text as the rules read it (docs/screen.md §6): invisible characters
//! removed, compatibility forms folded to ASCII (NFKC's mapping for every
//! character that becomes one ASCII character: full-width, mathematical and
//! enclosed letters, accented Latin; see `fold_table.rs`), combining marks
//! dropped, and look-alike Cyrillic and Greek letters folded to Latin.
//! Offsets map back to the original string. ASCII text is read as it is.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::fold_table::FOLD_RUNS;
use super::hidden::{is_invisible, is_tag};
use super::text::{next_non_ascii, non_ascii_chars};

/// The ASCII character NFKC (without marks) makes of `c`, if it makes one.
fn fold(c: char) -> Option<char> {
    let cp = c as u32;
    let i = FOLD_RUNS
        .partition_point(|&(start, _, _)| start <= cp)
        .checked_sub(1)?;
    let (start, len, ascii) = FOLD_RUNS[i];
    (cp < start + u32::from(len)).then(|| char::from(ascii + (cp - start) as u8))
}

pub(crate) struct TagText {
    pub text: String,
    pub start: usize,
    pub end: usize,
}

pub(crate) struct Normalized<'a> {
    original: &'a str,
    text: Cow<'a, str>,
    /// Checkpoints `(normalised offset, original offset, from one character)`:
    /// between checkpoints the two texts advance together (ASCII runs); the
    /// bytes a single character became all map to that character.
    map: Vec<(u32, u32, bool)>,
    tags: Option<TagText>,
}

fn confusable(c: char) -> Option<char> {
    Some(match c {
        'а' => 'a',
        'е' => 'e',
        'о' => 'o',
        'р' => 'p',
        'с' => 'c',
        'у' => 'y',
        'х' => 'x',
        'і' => 'i',
        'ј' => 'j',
        'ѕ' => 's',
        'ԁ' => 'd',
        'ɡ' => 'g',
        'һ' => 'h',
        'ԛ' => 'q',
        'ԝ' => 'w',
        'ӏ' => 'l',
        'А' => 'A',
        'В' => 'B',
        'Е' => 'E',
        'К' => 'K',
        'М' => 'M',
        'Н' => 'H',
        'О' => 'O',
        'Р' => 'P',
        'С' => 'C',
        'Т' => 'T',
        'Х' => 'X',
        'І' => 'I',
        'Ѕ' => 'S',
        'Ј' => 'J',
        'ο' => 'o',
        'α' => 'a',
        'ν' => 'v',
        'ι' => 'i',
        'κ' => 'k',
        'ρ' => 'p',
        'τ' => 't',
        'υ' => 'u',
        'Α' => 'A',
        'Β' => 'B',
        'Ε' => 'E',
        'Η' => 'H',
        'Ι' => 'I',
        'Κ' => 'K',
        'Μ' => 'M',
        'Ν' => 'N',
        'Ο' => 'O',
        'Ρ' => 'P',
        'Τ' => 'T',
        'Χ' => 'X',
        'Υ' => 'Y',
        'Ζ' => 'Z',
        'ı' => 'i',
        'ℓ' => 'l',
        '‐' | '‑' | '‒' | '–' | '—' => '-',
        '‘' | '’' | '′' => '\'',
        '“' | '”' | '″' => '"',
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
        _ => return None,
    })
}

fn is_combining_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// Whether any character would change: most non-ASCII text (emoji, CJK,
/// Arabic, most punctuation) reads as it is, and is then not copied.
fn needs_normalizing(s: &str) -> bool {
    non_ascii_chars(s).any(|(_, c)| {
        is_tag(c)
            || is_invisible(c)
            || is_combining_mark(c)
            || confusable(c).is_some()
            || fold(c).is_some()
    })
}

impl<'a> Normalized<'a> {
    pub fn new(s: &'a str) -> Self {
        if s.is_ascii() || !needs_normalizing(s) {
            return Normalized {
                original: s,
                text: Cow::Borrowed(s),
                map: Vec::new(),
                tags: None,
            };
        }
        let bytes = s.as_bytes();
        let mut text = String::with_capacity(s.len());
        let mut map: Vec<(u32, u32, bool)> = alloc::vec![(0, 0, false)];
        let mut tags: Option<TagText> = None;
        let mut i = 0;
        while i < bytes.len() {
            // ASCII runs are copied as they are.
            let run = next_non_ascii(bytes, i);
            if run > i {
                text.push_str(&s[i..run]);
                i = run;
                continue;
            }
            let Some(c) = s[i..].chars().next() else {
                break;
            };
            let len = c.len_utf8();
            let at = text.len();
            if is_tag(c) {
                let t = tags.get_or_insert_with(|| TagText {
                    text: String::new(),
                    start: i,
                    end: i,
                });
                t.end = i + len;
                let ascii = c as u32 - 0xE0000;
                if (0x20..0x7F).contains(&ascii) {
                    t.text.push(ascii as u8 as char);
                }
            } else if !is_invisible(c) {
                if let Some(folded) = confusable(c).or_else(|| fold(c)) {
                    text.push(folded);
                } else if !is_combining_mark(c) {
                    text.push(c);
                }
            }
            map.push((at as u32, i as u32, true));
            i += len;
            map.push((text.len() as u32, i as u32, false));
        }
        Normalized {
            original: s,
            text: Cow::Owned(text),
            map,
            tags,
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// True when the rules read the original string itself.
    pub fn is_identity(&self) -> bool {
        matches!(self.text, Cow::Borrowed(_))
    }

    /// The original offset of the character a normalised byte came from.
    fn original_at(&self, n: usize) -> usize {
        let n32 = n as u32;
        // The last checkpoint at or before `n` (a character's own checkpoint
        // wins over the run checkpoint at the same offset when it emitted bytes).
        let idx = self
            .map
            .partition_point(|&(at, _, _)| at <= n32)
            .saturating_sub(1);
        let mut k = idx;
        while k > 0
            && self.map[k].0 == n32
            && !self.map[k].2
            && self.map[k - 1].0 == n32
            && self.map[k - 1].2
        {
            k -= 1;
        }
        let (at, orig, one_char) = self.map[k];
        if one_char {
            orig as usize
        } else {
            (orig + (n32 - at)) as usize
        }
    }

    /// The original byte span of a span of the normalised text.
    pub fn original_span(&self, start: usize, end: usize) -> (usize, usize) {
        if self.is_identity() {
            return (start, end);
        }
        let s = self.original_at(start).min(self.original.len());
        let e = if end <= start {
            s
        } else {
            let last = self.original_at(end - 1).min(self.original.len());
            last + self.original[last..]
                .chars()
                .next()
                .map_or(0, char::len_utf8)
        };
        (s, e.max(s))
    }

    /// Moves hits found in the normalised text to the original string.
    pub fn map_hits(&self, hits: &mut [super::Hit]) {
        if self.is_identity() {
            return;
        }
        for hit in hits {
            (hit.start, hit.end) = self.original_span(hit.start, hit.end);
        }
    }

    pub fn tag_text(&self) -> Option<&TagText> {
        self.tags.as_ref().filter(|t| !t.text.is_empty())
    }
}
