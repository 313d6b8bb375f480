//! `contentEncoding` (asserted in draft 7): the engine's RFC 4648 decoders
//! (crates/vendor/PATCHES.md, patch 9) against `data-encoding`, which the
//! engine used before: the same inputs accepted, the same bytes and the same
//! UTF-8 verdict out, for pseudo-random strings over each alphabet with
//! padding and strays, and base16's case folding for every character.

use data_encoding::{Encoding, BASE32, BASE32HEX, BASE64, BASE64URL, HEXUPPER};
use jsonschema::content_encoding as engine;

type Check = fn(&str) -> bool;
type Convert = fn(&str) -> Result<Option<String>, jsonschema::ValidationError<'static>>;

/// `data-encoding`'s verdict and text, as the engine's functions read them.
fn reference(encoding: &Encoding, text: &str) -> Option<Result<String, ()>> {
    encoding
        .decode(text.as_bytes())
        .ok()
        .map(|bytes| String::from_utf8(bytes).map_err(|_| ()))
}

fn base16_reference(text: &str) -> Option<Result<String, ()>> {
    reference(&HEXUPPER, text).or_else(|| reference(&HEXUPPER, &text.to_uppercase()))
}

fn compare(
    name: &str,
    check: Check,
    convert: Convert,
    expected: Option<&Result<String, ()>>,
    text: &str,
) {
    assert_eq!(check(text), expected.is_some(), "{name} check of {text:?}");
    let got = match convert(text) {
        Ok(Some(decoded)) => Some(Ok(decoded)),
        Ok(None) => None,
        Err(_) => Some(Err(())),
    };
    assert_eq!(got.as_ref(), expected, "{name} conversion of {text:?}");
}

mod rng;
use rng::Rng;

fn pick<'a>(rng: &mut Rng, items: &'a [&'a str]) -> &'a str {
    items[(rng.next() % items.len() as u64) as usize]
}

/// Strings of `symbols`, mostly of whole blocks, with `=` runs at block ends
/// and now and then a stray character anywhere.
fn strings(rng: &mut Rng, symbols: &str, block: usize, count: usize) -> Vec<String> {
    let symbols: Vec<char> = symbols.chars().collect();
    let strays = [
        "=", "!", " ", "\n", "a", "z", "-", "_", "+", "/", "0", "9", "é", "\u{fb00}", "ß",
    ];
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let blocks = (rng.next() % 5) as usize;
        let mut text = String::new();
        for b in 0..blocks {
            let pad = if b + 1 == blocks || rng.next().is_multiple_of(6) {
                (rng.next() % block as u64) as usize
            } else {
                0
            };
            for _ in 0..block - pad {
                text.push(symbols[(rng.next() % symbols.len() as u64) as usize]);
            }
            text.push_str(&"=".repeat(pad));
        }
        if rng.next().is_multiple_of(4) {
            // A length off by a few symbols.
            for _ in 0..rng.next() % 3 {
                text.push(symbols[(rng.next() % symbols.len() as u64) as usize]);
            }
        }
        if rng.next().is_multiple_of(5) && !text.is_empty() {
            let at = text
                .char_indices()
                .map(|(i, _)| i)
                .nth((rng.next() % text.chars().count() as u64) as usize)
                .unwrap();
            text.insert_str(at, pick(rng, &strays));
        }
        out.push(text);
    }
    out
}

#[test]
fn same_verdicts_and_bytes_as_data_encoding() {
    let b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let b64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let b32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let b32hex = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
    let cases: [(&str, &Encoding, Check, Convert, &str, usize); 4] = [
        (
            "base64",
            &BASE64,
            engine::is_base64,
            engine::from_base64,
            b64,
            4,
        ),
        (
            "base64url",
            &BASE64URL,
            engine::is_base64url,
            engine::from_base64url,
            b64url,
            4,
        ),
        (
            "base32",
            &BASE32,
            engine::is_base32,
            engine::from_base32,
            b32,
            8,
        ),
        (
            "base32hex",
            &BASE32HEX,
            engine::is_base32hex,
            engine::from_base32hex,
            b32hex,
            8,
        ),
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (name, encoding, check, convert, symbols, block) in cases {
        let same = |text: &str| {
            compare(
                name,
                check,
                convert,
                reference(encoding, text).as_ref(),
                text,
            );
        };
        // Short inputs over a small alphabet, every one of them.
        let small = [&symbols[..2], "=", "!"].concat();
        let small: Vec<char> = small.chars().collect();
        for len in 0..=block + 2 {
            let mut index = vec![0; len];
            loop {
                let text: String = index.iter().map(|&i| small[i]).collect();
                same(&text);
                let Some(at) = index.iter().position(|&i| i + 1 < small.len()) else {
                    break;
                };
                index[at] += 1;
                index[..at].iter_mut().for_each(|i| *i = 0);
            }
        }
        for text in strings(&mut rng, symbols, block, 40_000) {
            same(&text);
        }
        // Encodings of pseudo-random bytes (valid by construction, UTF-8 or not).
        for _ in 0..5_000 {
            let bytes: Vec<u8> = (0..rng.next() % 24).map(|_| rng.next() as u8).collect();
            let text = encoding.encode(&bytes);
            same(&text);
        }
    }
    for text in strings(&mut rng, "0123456789ABCDEFabcdef", 2, 40_000) {
        compare(
            "base16",
            engine::is_base16,
            engine::from_base16,
            base16_reference(&text).as_ref(),
            &text,
        );
    }
}

#[test]
fn base16_folds_case_as_to_uppercase_does() {
    for c in (0..=0x10_ffff).filter_map(char::from_u32) {
        for text in [
            format!("{c}{c}"),
            format!("{c}"),
            format!("A{c}"),
            format!("{c}0"),
        ] {
            assert_eq!(
                engine::is_base16(&text),
                base16_reference(&text).is_some(),
                "{text:?}"
            );
        }
    }
}
