//! `pattern` with the vendored `jsonschema`'s smaller regex features
//! (crates/vendor/PATCHES.md): the Unicode properties ECMA-262 has still
//! compile and match, the ones it lacks are schema errors, and patterns still
//! run in bounded time.

use serde_json::json;
use toolresult_schema::{compile, SchemaOptions};

fn pattern_schema(pattern: &str) -> toolresult_schema::CompiledSchema {
    compile(
        &json!({ "type": "string", "pattern": pattern }),
        &SchemaOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{pattern} should compile: {e}"))
}

#[test]
fn ecma_262_unicode_properties_still_match() {
    // General_Category, long and short names.
    let letters = pattern_schema("^\\p{Letter}+$");
    assert!(letters.is_valid(&json!("Ωmega")));
    assert!(!letters.is_valid(&json!("a1")));
    assert!(pattern_schema("^\\p{Lu}$").is_valid(&json!("Ä")));
    assert!(!pattern_schema("^\\p{Lu}$").is_valid(&json!("ä")));
    // Script and Script_Extensions.
    let greek = pattern_schema("^\\p{Script=Greek}+$");
    assert!(greek.is_valid(&json!("αβγ")));
    assert!(!greek.is_valid(&json!("abc")));
    assert!(pattern_schema("^\\p{scx=Hira}$").is_valid(&json!("ー")));
    // Binary properties, and the negated form.
    assert!(pattern_schema("^\\p{Alphabetic}+$").is_valid(&json!("Zürich")));
    assert!(pattern_schema("^\\P{White_Space}+$").is_valid(&json!("no-space")));
    assert!(!pattern_schema("^\\P{White_Space}+$").is_valid(&json!("a\u{3000}b")));
}

#[test]
fn ecma_262_classes_stay_ascii_and_word_boundaries_work() {
    // ECMA-262's \d and \w are ASCII (jsonschema-regex rewrites them).
    assert!(!pattern_schema("^\\d$").is_valid(&json!("٣")));
    assert!(!pattern_schema("^\\w$").is_valid(&json!("é")));
    // \s is ECMA-262's WhiteSpace + LineTerminator, which includes U+3000.
    assert!(pattern_schema("^\\s$").is_valid(&json!("\u{3000}")));
    let word = pattern_schema("\\bcat\\b");
    assert!(word.is_valid(&json!("a cat here")));
    assert!(!word.is_valid(&json!("concatenate")));
}

// That the properties ECMA-262 lacks (Age, gcb, wb, sb) are schema errors is
// a property of the shipped build, not of this crate: in `cargo test
// --workspace` another package's dev-dependency may unify `regex-syntax`'s
// Unicode tables back in. tests/node/schema.test.mjs checks it through the
// wasm builds (crates/vendor/PATCHES.md).

#[test]
fn catastrophic_patterns_stop_with_an_issue() {
    let schema = pattern_schema("^(a|a)*\\1c");
    let issues = schema.validate(&json!("a".repeat(40)));
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].code, "pattern_too_complex");
    assert!(!schema.is_valid(&json!("a".repeat(40))));
    assert!(schema.is_valid(&json!("aac")));
    // Without look-around or back-references the engine is linear.
    assert!(!pattern_schema("^(a+)+$").is_valid(&json!(format!("{}b", "a".repeat(5000)))));
}
