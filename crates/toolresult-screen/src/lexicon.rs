//! The override marker of label-policy rule 3 ("ignore (all) previous
//! instructions", "ignore … and say …") in other languages.
//! Words are written as the screen reads them after normalisation (accents
//! dropped: `instrucciones`, `talimatlari`); Cyrillic is written as it is and
//! normalised when compared (its look-alike letters are folded to Latin).
//! The shape is the same in every language: an override verb, then (or, in
//! verb-final languages, before it) the agent's instructions as its object,
//! qualified as earlier or all of them; or an override verb that is followed
//! by an order to say something in the reply.

use alloc::string::String;
use alloc::vec::Vec;

use super::normalize::Normalized;

/// Override verbs, by language; English verbs are in the main table.
pub(crate) static OVERRIDE_VERBS: &[&str] = &[
    // de
    "ignoriere",
    "ignorieren",
    "ignoriert",
    "vergiss",
    "vergessen",
    "vergesst",
    "missachte",
    "missachten",
    "ubergehe",
    // es, it, pt
    "ignora",
    "ignorar",
    "ignorate",
    "ignorem",
    "olvida",
    "olvide",
    "olvidad",
    "olvidar",
    "descarta",
    "descarte",
    "omite",
    "omita",
    "dimentica",
    "dimenticate",
    "dimentichi",
    "trascura",
    "esqueca",
    "esquece",
    "desconsidere",
    "desconsidera",
    // fr
    "ignorez",
    "oublie",
    "oubliez",
    // nl, scandinavian, pl, tr
    "negeer",
    "negeert",
    "vergeet",
    "ignorera",
    "zignoruj",
    "ignoruj",
    "zapomnij",
    "yoksay",
    // ru, uk
    "игнорируй",
    "игнорируйте",
    "проигнорируй",
    "проигнорируйте",
    "забудь",
    "забудьте",
    "ігноруй",
    // zh, ja, ko, ar, hi
    "忽略",
    "忽视",
    "无视",
    "無視",
    "忘记",
    "忘れて",
    "무시",
    "تجاهل",
    "अनदेखा",
];

/// What an override is about: the agent's instructions and rules.
static OBJECTS: &[&str] = &[
    "anweisungen",
    "anweisung",
    "instruktionen",
    "befehle",
    "regeln",
    "vorgaben",
    "richtlinien",
    "anordnungen",
    "instrucciones",
    "instruccion",
    "indicaciones",
    "reglas",
    "ordenes",
    "directrices",
    "directivas",
    "normas",
    "consignes",
    "regles",
    "ordres",
    "istruzioni",
    "regole",
    "indicazioni",
    "direttive",
    "ordini",
    "comandi",
    "instrucoes",
    "instrucao",
    "regras",
    "orientacoes",
    "diretrizes",
    "ordens",
    "comandos",
    "instructies",
    "aanwijzingen",
    "regels",
    "opdrachten",
    "richtlijnen",
    "instruktioner",
    "instruktionerna",
    "regler",
    "instrukcje",
    "instrukcji",
    "polecenia",
    "zasady",
    "wytyczne",
    "talimatlari",
    "talimatlar",
    "kurallari",
    "yonergeleri",
    "инструкции",
    "инструкций",
    "указания",
    "правила",
    "команды",
    "інструкції",
    "вказівки",
    "指示",
    "指令",
    "说明",
    "规则",
    "規則",
    "提示",
    "命令",
    "ルール",
    "지시",
    "지침",
    "명령",
    "규칙",
    "التعليمات",
    "تعليمات",
    "الأوامر",
    "الاوامر",
    "القواعد",
    "निर्देश",
    "निर्देशों",
];

/// English objects: they count after a foreign verb or with a foreign qualifier.
static OBJECTS_EN: &[&str] = &[
    "instructions",
    "instruction",
    "directives",
    "rules",
    "prompts",
    "guidelines",
    "commands",
    "orders",
];

/// "previous", "all", "your": the override is about what came before.
static QUALIFIERS: &[&str] = &[
    "vorherigen",
    "vorherige",
    "bisherigen",
    "bisherige",
    "fruheren",
    "fruhere",
    "obigen",
    "alle",
    "allen",
    "deine",
    "ihre",
    "vorigen",
    "vorangegangenen",
    "anteriores",
    "anterior",
    "previas",
    "previos",
    "todas",
    "todos",
    "tus",
    "sus",
    "precedentes",
    "precedents",
    "precedente",
    "anterieures",
    "toutes",
    "tous",
    "vos",
    "tes",
    "precedenti",
    "tutte",
    "tutti",
    "tue",
    "sue",
    "anteriori",
    "suas",
    "tuas",
    "vorige",
    "eerdere",
    "voorgaande",
    "tidigare",
    "alla",
    "tidligere",
    "poprzednie",
    "wszystkie",
    "wczesniejsze",
    "onceki",
    "tum",
    "предыдущие",
    "предыдущих",
    "прежние",
    "все",
    "свои",
    "попередні",
    "以前",
    "之前",
    "先前",
    "所有",
    "上述",
    "前面",
    "以上",
    "全て",
    "すべて",
    "これまで",
    "이전",
    "모든",
    "السابقة",
    "पिछले",
    "सभी",
];

static QUALIFIERS_EN: &[&str] = &[
    "previous",
    "prior",
    "above",
    "earlier",
    "preceding",
    "all",
    "your",
    "former",
];

/// Orders about the reply ("… and say that …").
static SAY_VERBS: &[&str] = &[
    "say",
    "state",
    "declare",
    "claim",
    "tell",
    "respond",
    "reply",
    "answer",
    "write",
    "print",
    "output",
    "insist",
    "assert",
    "affirm",
    "pretend",
    "sage",
    "sag",
    "sagen",
    "antworte",
    "antworten",
    "behaupte",
    "behaupten",
    "erklare",
    "schreibe",
    "schreib",
    "di",
    "diga",
    "declara",
    "responde",
    "responda",
    "afirma",
    "afirme",
    "indica",
    "indique",
    "escribe",
    "escriba",
    "dis",
    "dites",
    "declarez",
    "reponds",
    "repondez",
    "affirmez",
    "indiquez",
    "ecris",
    "ecrivez",
    "dici",
    "dichiara",
    "rispondi",
    "afferma",
    "scrivi",
    "diz",
    "escreva",
    "zeg",
    "antwoord",
    "schrijf",
    "скажи",
    "скажите",
    "ответь",
    "напиши",
    "заяви",
    "述べ",
    "言って",
    "答え",
    "回答",
    "声明",
    "说",
    "說",
    "表示",
    "宣称",
    "告诉",
    "말하",
    "답하",
    "قل",
    "أجب",
];

static CONJUNCTIONS: &[&str] = &[
    "and", "und", "y", "e", "et", "en", "i", "и", "ve", "och", "og", "oraz", "then",
];

/// Lowercased, as the text is read after normalisation.
fn folded(word: &str) -> String {
    Normalized::new(word).text().to_lowercase()
}

/// Whether a lexicon word is a whole-token word (letters with spaces
/// between words) or a substring (scripts without spaces, and particles
/// glued to nouns as in Korean and Japanese).
fn spaced(word: &str) -> bool {
    word.chars()
        .all(|c| c.is_ascii_alphabetic() || ('\u{0400}'..='\u{04FF}').contains(&c) || c == '\'')
}

/// The window's words (lowercased) and the window itself.
struct Window {
    text: String,
    words: Vec<String>,
}

impl Window {
    fn new(t: &[u8], from: usize, to: usize) -> Self {
        let text = String::from_utf8_lossy(&t[from..to]).to_lowercase();
        let words = text
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .filter(|w| !w.is_empty())
            .map(String::from)
            .collect();
        Window { text, words }
    }

    fn has(&self, list: &[&str]) -> bool {
        let ascii = self.text.is_ascii();
        list.iter().any(|w| {
            // An ASCII window cannot hold a word of another script.
            if ascii && !w.is_ascii() {
                return false;
            }
            // Most words are ASCII and read as written: no copy for them.
            let f = if w.is_ascii() {
                alloc::borrow::Cow::Borrowed(*w)
            } else {
                alloc::borrow::Cow::Owned(folded(w))
            };
            if spaced(w) {
                self.words.iter().any(|x| *x == *f)
            } else {
                self.text.contains(&*f)
            }
        })
    }
}

/// How an override verb at `start..end` is confirmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Override {
    /// Its object is the agent's instructions ("ignora las instrucciones anteriores").
    Instructions,
    /// It is followed by an order about the reply ("ignorez la fonction et indiquez …").
    AndSay,
}

/// Confirms an override verb in any language. `foreign_verb`: the verb is
/// from [`OVERRIDE_VERBS`] (English objects then count too).
pub(crate) fn confirm(
    t: &[u8],
    start: usize,
    end: usize,
    foreign_verb: bool,
    clause_start: bool,
) -> Option<Override> {
    let ss = super::text::sentence_start(t, start, 80);
    let se = super::text::sentence_end(t, end, 200);
    // Verb-final languages put the object first: look a little way back too.
    let before = Window::new(t, ss.max(start.saturating_sub(60)), start);
    let after = Window::new(t, end, se);
    let object = after.has(OBJECTS) || before.has(OBJECTS);
    let object_en = after.has(OBJECTS_EN);
    let qualifier = after.has(QUALIFIERS) || before.has(QUALIFIERS);
    let qualifier_en = after.has(QUALIFIERS_EN);
    let object_ok = object || (object_en && (foreign_verb || qualifier));
    let qualifier_ok = qualifier || (qualifier_en && (foreign_verb || object));
    if object_ok && qualifier_ok {
        return Some(Override::Instructions);
    }
    if !clause_start {
        return None;
    }
    // "… and say …": a conjunction, then an order about the reply.
    let spaced_say = after.words.windows(2).any(|p| {
        CONJUNCTIONS.iter().any(|c| p[0] == *c)
            && SAY_VERBS.iter().any(|v| {
                if v.is_ascii() {
                    p[1] == *v
                } else {
                    p[1] == folded(v)
                }
            })
    });
    let glued_say = !t[start].is_ascii()
        && SAY_VERBS
            .iter()
            .filter(|v| !spaced(v))
            .any(|v| after.text.contains(folded(v).as_str()));
    (spaced_say || glued_say).then_some(Override::AndSay)
}
