//! Small byte-level helpers the rules share: words, lines, sentences.

pub(crate) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Tool outputs often hold JSON text, where a line break is the two bytes
/// `\n`: the `n` of that escape is not part of the next word.
pub(crate) fn escape_before(t: &[u8], i: usize) -> bool {
    i >= 2 && t[i - 2] == b'\\' && matches!(t[i - 1], b'n' | b'r' | b't')
}

/// No word byte just before `i` (an escaped line break counts as a boundary).
pub(crate) fn boundary_before(t: &[u8], i: usize) -> bool {
    i == 0 || !is_word_byte(t[i - 1]) || escape_before(t, i)
}

/// True when `start..end` is a whole word (no letter or digit on either side).
pub(crate) fn word_at(t: &[u8], start: usize, end: usize) -> bool {
    boundary_before(t, start) && t.get(end).is_none_or(|&b| !is_word_byte(b))
}

/// The line around `at`, at most 2 KB either side.
pub(crate) fn line_of(t: &[u8], at: usize) -> (usize, usize) {
    let from = at.saturating_sub(2048);
    let start = t[from..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(from, |p| from + p + 1);
    let to = (at + 2048).min(t.len());
    let end = t[at..to]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(to, |p| at + p);
    (start, end)
}

/// The end of the sentence that contains `at`: `.`, `!` or `?` before
/// whitespace, or a line break; at most `max` bytes on.
pub(crate) fn sentence_end(t: &[u8], at: usize, max: usize) -> usize {
    let to = (at + max).min(t.len());
    let mut i = at;
    while i < to {
        match t[i] {
            b'\n' => return i,
            // JSON text inside a string: an escaped line break ends a sentence too.
            b'\\' if matches!(t.get(i + 1), Some(b'n' | b'r')) => return i,
            b'.' | b'!' | b'?' if t.get(i + 1).is_none_or(u8::is_ascii_whitespace) => return i,
            _ => {}
        }
        i += 1;
    }
    to
}

/// The start of the sentence that contains `at`, at most `max` bytes back.
pub(crate) fn sentence_start(t: &[u8], at: usize, max: usize) -> usize {
    let from = at.saturating_sub(max);
    let mut i = at;
    while i > from {
        match t[i - 1] {
            b'\n' => return i,
            b'n' | b'r' if i >= 2 && t[i - 2] == b'\\' => return i,
            b'.' | b'!' | b'?' if t.get(i).is_some_and(u8::is_ascii_whitespace) => return i,
            _ => {}
        }
        i -= 1;
    }
    from
}

/// The word that ends just before `at` (skipping spaces), lowercased, with its start.
pub(crate) fn word_before(t: &[u8], at: usize) -> Option<(usize, alloc::vec::Vec<u8>)> {
    let mut i = at;
    while i > 0 && matches!(t[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    let end = i;
    while i > 0 && (t[i - 1].is_ascii_alphabetic() || t[i - 1] == b'\'') && !escape_before(t, i) {
        i -= 1;
    }
    // A quote before a word is not part of it: `'Withdraw` starts a word.
    while i < end && t[i] == b'\'' {
        i += 1;
    }
    (i < end).then(|| (i, t[i..end].iter().map(u8::to_ascii_lowercase).collect()))
}

/// The words after `at` (letters, digits and apostrophes), lowercased, up to `n`.
pub(crate) fn words_after(
    t: &[u8],
    at: usize,
    n: usize,
    max_bytes: usize,
) -> alloc::vec::Vec<(usize, alloc::vec::Vec<u8>)> {
    let to = (at + max_bytes).min(t.len());
    let mut out = alloc::vec::Vec::new();
    let mut i = at;
    while i < to && out.len() < n {
        while i < to && !(t[i].is_ascii_alphanumeric()) {
            if matches!(t[i], b'.' | b'!' | b'?' | b'\n' | b';') {
                return out;
            }
            if t[i] == b'\\' && matches!(t.get(i + 1), Some(b'n' | b'r')) {
                return out;
            }
            if t[i] == b'\\' && t.get(i + 1) == Some(&b't') {
                i += 1;
            }
            i += 1;
        }
        let s = i;
        while i < to && (t[i].is_ascii_alphanumeric() || t[i] == b'\'' || t[i] == b'-') {
            i += 1;
        }
        if s < i {
            out.push((s, t[s..i].iter().map(u8::to_ascii_lowercase).collect()));
        }
    }
    out
}

/// The first position of `needle` in `hay`: a scan for the first byte, then
/// a comparison (needles here are short words).
pub(crate) fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    if needle.len() > hay.len() {
        return None;
    }
    let last = hay.len() - needle.len();
    let mut i = 0;
    while i <= last {
        if hay[i] == first && &hay[i + 1..i + needle.len()] == rest {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// [`find_bytes`] ignoring ASCII case (`needle` given in lowercase).
pub(crate) fn contains_ignore_case(hay: &[u8], needle: &str) -> bool {
    let needle = needle.as_bytes();
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    if needle.len() > hay.len() {
        return false;
    }
    let upper = first.to_ascii_uppercase();
    let last = hay.len() - needle.len();
    (0..=last).any(|i| {
        (hay[i] == first || hay[i] == upper)
            && hay[i + 1..i + needle.len()].eq_ignore_ascii_case(rest)
    })
}

/// Where the next non-ASCII byte at or after `from` is (`bytes.len()` if
/// none). Eight bytes at a time: the screen reads every byte of every result,
/// and most of them are ASCII.
pub(crate) fn next_non_ascii(bytes: &[u8], from: usize) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut i = from;
    while i + 8 <= bytes.len() {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[i..i + 8]);
        let high = u64::from_le_bytes(word) & HIGH;
        if high != 0 {
            return i + (high.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < bytes.len() && bytes[i].is_ascii() {
        i += 1;
    }
    i
}

/// The characters outside ASCII, with their byte offsets: what the hidden-text
/// scan and normalisation look at.
pub(crate) fn non_ascii_chars(s: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let bytes = s.as_bytes();
    let mut i = 0;
    core::iter::from_fn(move || {
        i = next_non_ascii(bytes, i);
        let c = s[i..].chars().next()?;
        let at = i;
        i += c.len_utf8();
        Some((at, c))
    })
}

/// The largest character boundary of `s` at or before `i` (`s.len()` past
/// the end). `str::floor_char_boundary` is newer than the MSRV.
pub(crate) fn floor_char_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest character boundary of `s` at or after `i` (`s.len()` past
/// the end).
pub(crate) fn ceil_char_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod ascii_tests {
    use super::*;

    #[test]
    fn next_non_ascii_finds_every_position() {
        let text = "abcdefghijklmnopqrstuvwxyzé0123456789—x😀";
        let expected: alloc::vec::Vec<usize> = text
            .char_indices()
            .filter(|(_, c)| !c.is_ascii())
            .map(|(i, _)| i)
            .collect();
        let got: alloc::vec::Vec<usize> = non_ascii_chars(text).map(|(i, _)| i).collect();
        assert_eq!(got, expected);
        for from in 0..=text.len() {
            let slow = (from..text.len())
                .find(|&i| !text.as_bytes()[i].is_ascii())
                .unwrap_or(text.len());
            assert_eq!(next_non_ascii(text.as_bytes(), from), slow, "from {from}");
        }
    }
}
