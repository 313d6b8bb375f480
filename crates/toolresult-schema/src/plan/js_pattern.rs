//! Which `pattern`s the evaluator may run as a JS `RegExp`, and the source
//! it runs (docs/internals/schema-plan.md §Patterns).
//!
//! A JS `RegExp` backtracks, so a pattern from an MCP server could make it
//! take exponential time; the engine's checks never do (linear engine, or a
//! backtrack limit). A pattern is handed to JS only when its match cannot
//! backtrack more than linearly: anchored at both ends (`^…$`, one start
//! position), no alternation or look-around, and every variable repetition
//! followed by something it cannot match (so each repetition's extent is
//! forced), with a repeated group allowed only when it starts with a
//! character nothing else in it matches (so its iterations are delimited).
//! The source is rewritten from the syntax tree with every character
//! escaped, `\d` and `\w` as the ASCII classes ECMA-262 gives them, so the
//! JS `RegExp` (flag `u`) means what the engine's pattern means; a property
//! test compares the two on random patterns and strings.

use core::fmt::Write;

use regex_syntax::ast::{
    parse::Parser, AssertionKind, Ast, ClassPerlKind, ClassSet, ClassSetItem, GroupKind,
    RepetitionKind, RepetitionRange,
};

/// A set of code points, as sorted, disjoint, inclusive ranges.
#[derive(Clone, Debug, PartialEq)]
struct Chars(Vec<(u32, u32)>);

const MAX: u32 = 0x10_FFFF;

impl Chars {
    fn one(c: char) -> Chars {
        Chars(vec![(c as u32, c as u32)])
    }

    fn normalized(mut ranges: Vec<(u32, u32)>) -> Chars {
        ranges.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (a, b) in ranges {
            match out.last_mut() {
                Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                _ => out.push((a, b)),
            }
        }
        Chars(out)
    }

    fn complement(&self) -> Chars {
        let mut out = Vec::new();
        let mut next = 0u32;
        for &(a, b) in &self.0 {
            if a > next {
                out.push((next, a - 1));
            }
            next = b + 1;
        }
        if next <= MAX {
            out.push((next, MAX));
        }
        Chars(out)
    }

    fn disjoint(&self, other: &Chars) -> bool {
        self.0
            .iter()
            .all(|&(a, b)| other.0.iter().all(|&(c, d)| b < c || d < a))
    }

    /// The JS class source (`[…]`, every bound escaped).
    fn source(&self) -> String {
        let mut s = String::from("[");
        for &(a, b) in &self.0 {
            let _ = write!(s, "\\u{{{a:x}}}");
            if b != a {
                let _ = write!(s, "-\\u{{{b:x}}}");
            }
        }
        s.push(']');
        s
    }
}

fn perl(kind: &ClassPerlKind, negated: bool) -> Option<Chars> {
    // ECMA-262's \d and \w are ASCII (and the engine rewrites them so);
    // \s is not, and is left to the engine.
    let set = match kind {
        ClassPerlKind::Digit => Chars(vec![(0x30, 0x39)]),
        ClassPerlKind::Word => {
            Chars::normalized(vec![(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
        }
        ClassPerlKind::Space => return None,
    };
    Some(if negated { set.complement() } else { set })
}

fn class_item(item: &ClassSetItem, out: &mut Vec<(u32, u32)>) -> Option<()> {
    match item {
        ClassSetItem::Literal(l) => out.push((l.c as u32, l.c as u32)),
        ClassSetItem::Range(r) => out.push((r.start.c as u32, r.end.c as u32)),
        ClassSetItem::Perl(p) => out.extend(perl(&p.kind, p.negated)?.0),
        ClassSetItem::Union(u) => {
            for item in &u.items {
                class_item(item, out)?;
            }
        }
        _ => return None,
    }
    Some(())
}

/// The characters a single-character matcher matches.
fn single(ast: &Ast) -> Option<Chars> {
    match ast {
        Ast::Literal(l) => Some(Chars::one(l.c)),
        Ast::ClassPerl(p) => perl(&p.kind, p.negated),
        Ast::ClassBracketed(b) => {
            let ClassSet::Item(item) = &b.kind else {
                return None;
            };
            let mut ranges = Vec::new();
            class_item(item, &mut ranges)?;
            let set = Chars::normalized(ranges);
            Some(if b.negated { set.complement() } else { set })
        }
        _ => None,
    }
}

/// One step of an anchored sequence.
enum Step {
    /// A character matcher repeated `min..=max` times (`max` `None`: unbounded).
    Chars {
        set: Chars,
        min: u32,
        max: Option<u32>,
    },
    /// A group repeated `min..` times whose body starts with a delimiter.
    Group {
        delimiter: Chars,
        body: Vec<Step>,
        min: u32,
        max: Option<u32>,
    },
}

fn range(kind: &RepetitionKind) -> (u32, Option<u32>) {
    match kind {
        RepetitionKind::ZeroOrOne => (0, Some(1)),
        RepetitionKind::ZeroOrMore => (0, None),
        RepetitionKind::OneOrMore => (1, None),
        RepetitionKind::Range(RepetitionRange::Exactly(n)) => (*n, Some(*n)),
        RepetitionKind::Range(RepetitionRange::AtLeast(n)) => (*n, None),
        RepetitionKind::Range(RepetitionRange::Bounded(a, b)) => (*a, Some(*b)),
    }
}

fn items(ast: &Ast) -> Vec<&Ast> {
    match ast {
        Ast::Concat(c) => c.asts.iter().collect(),
        Ast::Empty(_) => Vec::new(),
        other => vec![other],
    }
}

fn steps(asts: &[&Ast]) -> Option<Vec<Step>> {
    let mut out = Vec::with_capacity(asts.len());
    for ast in asts {
        let (inner, min, max) = match ast {
            Ast::Repetition(r) => {
                let (min, max) = range(&r.op.kind);
                (&*r.ast, min, max)
            }
            other => (*other, 1, Some(1)),
        };
        if max.is_some_and(|m| m < min) || min > 1000 || max.is_some_and(|m| m > 1000) {
            return None;
        }
        if let Some(set) = single(inner) {
            out.push(Step::Chars { set, min, max });
            continue;
        }
        let Ast::Group(g) = inner else {
            return None;
        };
        if matches!(g.kind, GroupKind::NonCapturing(ref flags) if !flags.items.is_empty()) {
            return None;
        }
        let body = steps(&items(&g.ast))?;
        if min == 1 && max == Some(1) {
            out.extend(body); // a plain group: its steps inline
            continue;
        }
        // A repeated group: its first step is one character, unrepeated, that
        // nothing else in the body matches, so each iteration is delimited.
        let Some(Step::Chars {
            set: delimiter,
            min: 1,
            max: Some(1),
        }) = body.first()
        else {
            return None;
        };
        let delimiter = delimiter.clone();
        if !body[1..]
            .iter()
            .all(|s| first_chars_disjoint(s, &delimiter))
        {
            return None;
        }
        out.push(Step::Group {
            delimiter,
            body,
            min,
            max,
        });
    }
    Some(out)
}

fn first_chars_disjoint(step: &Step, set: &Chars) -> bool {
    match step {
        Step::Chars { set: s, .. } => s.disjoint(set),
        Step::Group { body, .. } => body.iter().all(|s| first_chars_disjoint(s, set)),
    }
}

/// Whether every variable repetition in `steps` is followed by a character
/// it cannot match; `follow` is what may come after the sequence (`None`:
/// the end of the string, which `$` pins).
fn forced(steps: &[Step], follow: Option<&Chars>) -> bool {
    for (i, step) in steps.iter().enumerate() {
        // What must come next: the next step's first character if it
        // consumes at least one, else give up (an optional next step makes
        // the boundary ambiguous).
        let next: Option<Option<&Chars>> = match steps.get(i + 1) {
            None => Some(follow),
            Some(Step::Chars { set, min, .. }) if *min >= 1 => Some(Some(set)),
            Some(Step::Group { delimiter, min, .. }) if *min >= 1 => Some(Some(delimiter)),
            Some(_) => None,
        };
        let variable = match step {
            Step::Chars { min, max, .. } | Step::Group { min, max, .. } => *max != Some(*min),
        };
        match step {
            Step::Chars { set, .. } if variable => match next {
                Some(None) => {}
                Some(Some(n)) if set.disjoint(n) => {}
                _ => return false,
            },
            Step::Chars { .. } => {}
            Step::Group {
                delimiter, body, ..
            } => {
                // Inside, the body is followed by the next iteration's
                // delimiter or by what follows the group.
                let mut after = delimiter.0.clone();
                match next {
                    Some(None) if variable => {
                        // End of string: only the delimiter can follow.
                        if !forced(body, Some(delimiter)) {
                            return false;
                        }
                        continue;
                    }
                    Some(Some(n)) => {
                        if variable && !delimiter.disjoint(n) {
                            return false;
                        }
                        after.extend(n.0.iter().copied());
                    }
                    Some(None) => {}
                    None => return false,
                }
                let after = Chars::normalized(after);
                if !forced(body, Some(&after)) {
                    return false;
                }
            }
        }
    }
    true
}

fn write_steps(steps: &[Step], out: &mut String) {
    for step in steps {
        let (min, max) = match step {
            Step::Chars { set, min, max } => {
                out.push_str(&set.source());
                (*min, *max)
            }
            Step::Group { body, min, max, .. } => {
                out.push_str("(?:");
                write_steps(body, out);
                out.push(')');
                (*min, *max)
            }
        };
        match (min, max) {
            (1, Some(1)) => {}
            (a, Some(b)) if a == b => {
                let _ = write!(out, "{{{a}}}");
            }
            (a, Some(b)) => {
                let _ = write!(out, "{{{a},{b}}}");
            }
            (a, None) => {
                let _ = write!(out, "{{{a},}}");
            }
        }
    }
}

/// The JS `RegExp` source (flag `u`) that means what `pattern` means, if
/// the pattern is one whose JS match time is linear; else `None`.
pub(crate) fn js_source(pattern: &str) -> Option<String> {
    if pattern.len() > 1000 {
        return None;
    }
    let ast = Parser::new().parse(pattern).ok()?;
    let all = items(&ast);
    let (first, rest) = all.split_first()?;
    let (last, middle) = rest.split_last()?;
    if !matches!(first, Ast::Assertion(a) if a.kind == AssertionKind::StartLine)
        || !matches!(last, Ast::Assertion(a) if a.kind == AssertionKind::EndLine)
    {
        return None;
    }
    let steps = steps(middle)?;
    if !forced(&steps, None) {
        return None;
    }
    let mut out = String::from("^");
    write_steps(&steps, &mut out);
    out.push('$');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::js_source;

    #[test]
    fn linear_patterns_are_rewritten_and_others_are_not() {
        assert_eq!(
            js_source("^[a-z][a-z0-9-]*$").as_deref(),
            Some("^[\\u{61}-\\u{7a}][\\u{2d}\\u{30}-\\u{39}\\u{61}-\\u{7a}]{0,}$")
        );
        assert!(js_source("^(/[^/]+)+$").is_some());
        assert!(js_source("^\\d{4}-\\d{2}-\\d{2}$").is_some());
        assert!(js_source("^[A-Z]+_[A-Z]+$").is_some());
        // Catastrophic or ambiguous: left to the engine.
        for p in [
            "^(a+)+$",
            "^(a|a)*$",
            "^a*a*$",
            "^\\d+\\d+$",
            "^(ab|a)+$",
            "^(a*)*$",
            "^[a-z]+[a-z0-9]*$",
        ] {
            assert_eq!(js_source(p), None, "{p}");
        }
        // Unanchored, `.`, `\s`, look-around, back-references: left to the engine.
        for p in [
            "[a-z]+", "^a.b$", "^\\s+$", "^(?=a)a$", "^(a)\\1$", "^a$|^b$", "^(?i)a$",
        ] {
            assert_eq!(js_source(p), None, "{p}");
        }
    }
}
