//! Override markers written to slip past a reader of words:
//! leetspeak (`Ign0r3 4ll pr3v10u5 1n5truct10n5`), letters spaced or dotted
//! apart (`i g n o r e`, `i.g.n.o.r.e`), and the phrase reversed or in
//! ROT13. The text is read as its letters only, digits and symbols that
//! stand for letters mapped back (`0`→o, `1`→i, `3`→e, `4`→a, `5`→s,
//! `7`→t, `@`→a, `$`→s), and the letter stream is matched against the
//! marker phrases with their spaces removed. Streaming: one automaton step
//! per letter, no copy of the text.
//!
//! A phrase written plainly is left to the word rules (which know reports
//! and quotations); a skeleton match counts only when the phrase was
//! disguised: a leet character inside it, or its letters split into runs
//! too short to be words.

use aho_corasick::automaton::Automaton;
use aho_corasick::dfa::DFA;
use aho_corasick::{Anchored, MatchKind};
use alloc::string::String;
use alloc::vec::Vec;

use super::{Hit, ScreenCategory};

/// Marker phrases (label-policy rule 3) as the letter stream reads them.
static PHRASES: &[&str] = &[
    "ignore all previous instructions",
    "ignore previous instructions",
    "ignore all prior instructions",
    "ignore prior instructions",
    "ignore the previous instructions",
    "ignore your previous instructions",
    "ignore all your instructions",
    "ignore your instructions",
    "ignore the above instructions",
    "ignore all above instructions",
    "ignore all instructions",
    "ignore everything above",
    "ignore all previous rules",
    "disregard all previous instructions",
    "disregard previous instructions",
    "disregard prior instructions",
    "disregard the above instructions",
    "disregard your instructions",
    "disregard all instructions",
    "forget all previous instructions",
    "forget previous instructions",
    "forget your instructions",
    "forget all instructions",
    "forget everything above",
    "override all previous instructions",
    "override your instructions",
    "new instructions",
    "new system prompt",
    "system override",
    "you are now in developer mode",
    "developer mode enabled",
];

fn letters(phrase: &str) -> String {
    phrase.chars().filter(char::is_ascii_alphabetic).collect()
}

fn rot13(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a'..='z' => char::from(b'a' + (c as u8 - b'a' + 13) % 26),
            _ => c,
        })
        .collect()
}

/// How a pattern was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Plain,
    /// Reversed or ROT13: never written so by accident.
    Scrambled,
}

#[derive(Clone)]
pub(crate) struct Skeleton {
    automaton: DFA,
    forms: Vec<Form>,
}

impl core::fmt::Debug for Skeleton {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Skeleton({} patterns)", self.forms.len())
    }
}

/// The letter a byte stands for in the stream, if any.
fn letter(b: u8) -> Option<u8> {
    match b {
        b'a'..=b'z' => Some(b),
        b'A'..=b'Z' => Some(b.to_ascii_lowercase()),
        b'0' => Some(b'o'),
        b'1' => Some(b'i'),
        b'3' => Some(b'e'),
        b'4' | b'@' => Some(b'a'),
        b'5' | b'$' => Some(b's'),
        b'7' => Some(b't'),
        _ => None,
    }
}

impl Skeleton {
    pub fn new() -> Self {
        let mut patterns = Vec::new();
        let mut forms = Vec::new();
        for phrase in PHRASES {
            let plain = letters(phrase);
            let reversed: String = plain.chars().rev().collect();
            let scrambled = [rot13(&plain), reversed.clone(), rot13(&reversed)];
            patterns.push(plain);
            forms.push(Form::Plain);
            for s in scrambled {
                patterns.push(s);
                forms.push(Form::Scrambled);
            }
        }
        let automaton = DFA::builder()
            .match_kind(MatchKind::Standard)
            .build(&patterns)
            .expect("the phrase table is small and valid");
        Skeleton { automaton, forms }
    }

    /// Disguised markers in normalised text.
    pub fn scan(&self, text: &str, hits: &mut Vec<Hit>) {
        let t = text.as_bytes();
        let Ok(mut sid) = self.automaton.start_state(Anchored::No) else {
            return;
        };
        // The byte offset of each of the last letters fed, to find a match's start.
        let mut ring = [0usize; 64];
        let mut fed = 0usize;
        for (i, &b) in t.iter().enumerate() {
            let Some(l) = letter(b) else { continue };
            ring[fed % ring.len()] = i;
            fed += 1;
            sid = self.automaton.next_state(Anchored::No, sid, l);
            if !self.automaton.is_special(sid) || !self.automaton.is_match(sid) {
                continue;
            }
            for k in 0..self.automaton.match_len(sid) {
                let pid = self.automaton.match_pattern(sid, k);
                let len = self.automaton.pattern_len(pid);
                if len > ring.len() || len > fed {
                    continue;
                }
                let start = ring[(fed - len) % ring.len()];
                let end = i + 1;
                let form = self.forms[pid.as_usize()];
                if form == Form::Scrambled || disguised(&t[start..end]) {
                    hits.push(Hit {
                        category: ScreenCategory::PolicyChange,
                        rule: "obfuscated-marker",
                        start,
                        end,
                    });
                    return;
                }
            }
        }
    }
}

/// A leet character inside the span, or letter runs too short for words.
fn disguised(span: &[u8]) -> bool {
    if span
        .iter()
        .any(|&b| !b.is_ascii_alphabetic() && letter(b).is_some())
    {
        return true;
    }
    let letters = span.iter().filter(|b| b.is_ascii_alphabetic()).count();
    let mut runs = 0;
    let mut in_gap = false;
    for &b in span {
        if b.is_ascii_alphabetic() {
            in_gap = false;
        } else if !in_gap {
            in_gap = true;
            runs += 1;
        }
    }
    runs * 4 > letters
}
