//! One Aho-Corasick automaton over every rule's keywords (ASCII, case
//! insensitive), so a string is read once whatever the number of rules; each
//! hit names the matcher that confirms it.

use aho_corasick::automaton::{Automaton, OverlappingState};
use aho_corasick::dfa::DFA;
use aho_corasick::{Input, MatchKind};
use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::normalize::Normalized;
use super::{instructions, lexicon, payload, secrets, Found, Kw};

#[derive(Clone)]
pub(crate) struct Keywords {
    /// A DFA: one table lookup per byte (the screen reads every byte of every
    /// result). Built directly, so the other automaton kinds are not linked.
    automaton: DFA,
    kinds: Vec<Kw>,
}

impl core::fmt::Debug for Keywords {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Keywords({} patterns)", self.kinds.len())
    }
}

impl Keywords {
    pub fn new() -> Self {
        let mut patterns: Vec<Cow<'static, str>> = Vec::new();
        let mut kinds = Vec::new();
        for (i, rule) in secrets::PREFIX_RULES.iter().enumerate() {
            patterns.push(Cow::Borrowed(rule.prefix));
            kinds.push(Kw::SecretPrefix(i as u16));
        }
        for word in secrets::KEY_WORDS {
            patterns.push(Cow::Borrowed(word));
            kinds.push(Kw::SecretWord);
        }
        for &(word, special) in secrets::SPECIAL {
            patterns.push(Cow::Borrowed(word));
            kinds.push(Kw::SecretSpecial(special));
        }
        for &(word, trigger) in payload::TRIGGERS {
            patterns.push(Cow::Borrowed(word));
            kinds.push(Kw::Payload(trigger));
        }
        for &(word, trigger) in instructions::TRIGGERS {
            patterns.push(Cow::Borrowed(word));
            kinds.push(Kw::Instruction(trigger));
        }
        // Override verbs of other languages, as normalised text reads them
        // (Cyrillic look-alikes folded), lower case and capitalised: the
        // automaton folds ASCII case only.
        for word in lexicon::OVERRIDE_VERBS {
            let lower = String::from(Normalized::new(word).text());
            let mut chars = word.chars();
            let capital: String = chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect())
                .unwrap_or_default();
            let capital = String::from(Normalized::new(&capital).text());
            if capital != lower {
                patterns.push(Cow::Owned(capital));
                kinds.push(Kw::Instruction(instructions::Trigger::ForeignOverride));
            }
            patterns.push(Cow::Owned(lower));
            kinds.push(Kw::Instruction(instructions::Trigger::ForeignOverride));
        }
        let automaton = DFA::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(patterns.iter().map(|p| p.as_bytes()))
            .expect("the keyword table is small and valid");
        Keywords { automaton, kinds }
    }

    /// Every keyword occurrence, overlapping ones included, in order of end.
    pub fn find(&self, text: &str) -> Vec<Found> {
        let input = Input::new(text);
        let mut state = OverlappingState::start();
        let mut out = Vec::new();
        // A DFA built from a valid table never fails an unanchored search.
        while self
            .automaton
            .try_find_overlapping(&input, &mut state)
            .is_ok()
        {
            let Some(m) = state.get_match() else { break };
            out.push(Found {
                kw: self.kinds[m.pattern().as_usize()],
                start: m.start(),
                end: m.end(),
            });
        }
        out
    }
}
