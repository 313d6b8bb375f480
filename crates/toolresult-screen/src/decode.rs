//! Encoded layers (docs/screen.md §6): base64, hex and percent-encoded runs,
//! decoded so that what they hide is screened too. Bounded: at most
//! `MAX_LAYERS` runs per string, and a long run is decoded in part (enough
//! for executable magic bytes and a text check).

use alloc::vec::Vec;
use base64::Engine as _;

pub(crate) struct Layer {
    pub start: usize,
    pub end: usize,
    pub bytes: Vec<u8>,
}

const MIN_BASE64: usize = 20;
const MIN_HEX: usize = 24;
const MAX_LAYERS: usize = 64;
/// Decoded bytes kept per layer: executables need their first bytes, text a few pages.
const MAX_DECODED: usize = 16 * 1024;

static B64: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        table[i] = b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_');
        i += 1;
    }
    table
};

fn b64_byte(b: u8) -> bool {
    B64[b as usize]
}

pub(crate) fn layers(text: &str) -> Vec<Layer> {
    let t = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() && out.len() < MAX_LAYERS {
        let b = t[i];
        if b == b'%' {
            if let Some(layer) = percent_run(t, i) {
                i = layer.end;
                out.push(layer);
                continue;
            }
        } else if b == b'\\' && t.get(i + 1) == Some(&b'x') {
            if let Some(layer) = escaped_hex_run(t, i) {
                i = layer.end;
                out.push(layer);
                continue;
            }
        }
        if matches!(b, b'0' | b'1') && (i == 0 || !t[i - 1].is_ascii_alphanumeric()) {
            if let Some(layer) = binary_run(t, i) {
                i = layer.end;
                out.push(layer);
                continue;
            }
        }
        if !b64_byte(b) {
            i += 1;
            continue;
        }
        let start = i;
        while i < t.len() && b64_byte(t[i]) {
            i += 1;
        }
        let mut end = i;
        while end < t.len() && t[end] == b'=' && end - i < 2 {
            end += 1;
        }
        let run = &t[start..i];
        if start > 0 && matches!(t[start - 1], b'%' | b'\\') {
            continue;
        }
        if run.len() >= MIN_HEX
            && run.len().is_multiple_of(2)
            && run.iter().all(u8::is_ascii_hexdigit)
        {
            if !matches!(run.len(), 32 | 40 | 56 | 64 | 96 | 128) {
                let bytes = hex_decode(&run[..run.len().min(2 * MAX_DECODED)]);
                out.push(Layer {
                    start,
                    end: i,
                    bytes,
                });
            }
            continue;
        }
        if run.len() >= MIN_BASE64 && looks_base64(run) {
            if let Some(bytes) = base64_decode(&t[start..end]) {
                out.push(Layer { start, end, bytes });
            }
        }
    }
    out
}

/// Mixed case and digits, or `+`/`/`: words and identifiers rarely are.
fn looks_base64(run: &[u8]) -> bool {
    let upper = run.iter().filter(|b| b.is_ascii_uppercase()).count();
    let lower = run.iter().filter(|b| b.is_ascii_lowercase()).count();
    let digits = run.iter().filter(|b| b.is_ascii_digit()).count();
    upper > 0
        && lower > 0
        && (digits > 0 || run.len() >= 32)
        && !run.iter().all(u8::is_ascii_hexdigit)
}

fn base64_decode(run: &[u8]) -> Option<Vec<u8>> {
    let unpadded: &[u8] = match run.iter().position(|&b| b == b'=') {
        Some(p) => &run[..p],
        None => run,
    };
    // Decode a prefix of whole quanta: enough for magic bytes and a text check.
    let take = unpadded.len().min(MAX_DECODED / 3 * 4);
    let cut = if take < unpadded.len() {
        take - take % 4
    } else {
        take
    };
    let part = &unpadded[..cut];
    let url = part.iter().any(|&b| b == b'-' || b == b'_');
    let engine = if url {
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
    } else {
        &base64::engine::general_purpose::STANDARD_NO_PAD
    };
    engine.decode(part).ok().or_else(|| {
        // A trailing partial quantum (cut text): drop it.
        let whole = part.len() - part.len() % 4;
        engine.decode(&part[..whole]).ok()
    })
}

fn hex_val(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0,
    }
}

fn hex_decode(run: &[u8]) -> Vec<u8> {
    run.chunks_exact(2)
        .map(|p| hex_val(p[0]) << 4 | hex_val(p[1]))
        .collect()
}

/// `%XX` sequences with at least three escapes.
fn percent_run(t: &[u8], start: usize) -> Option<Layer> {
    let mut i = start;
    let mut escapes = 0;
    let mut bytes = Vec::new();
    while i < t.len() && bytes.len() < MAX_DECODED {
        let b = t[i];
        if b == b'%'
            && t.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && t.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
        {
            bytes.push(hex_val(t[i + 1]) << 4 | hex_val(t[i + 2]));
            escapes += 1;
            i += 3;
        } else if b.is_ascii_graphic() && b != b'"' && b != b'\'' && b != b'<' && b != b'>' {
            bytes.push(if b == b'+' { b' ' } else { b });
            i += 1;
        } else {
            break;
        }
    }
    (escapes >= 3).then_some(Layer {
        start,
        end: i,
        bytes,
    })
}

/// Bytes written as groups of eight binary digits (`01001001 01100111 …`),
/// at least six: a way of smuggling text past a reader of words.
fn binary_run(t: &[u8], start: usize) -> Option<Layer> {
    let mut i = start;
    let mut bytes = Vec::new();
    let mut end = start;
    while i + 8 <= t.len()
        && t[i..i + 8].iter().all(|b| matches!(b, b'0' | b'1'))
        && t.get(i + 8).is_none_or(|b| !b.is_ascii_alphanumeric())
        && bytes.len() < MAX_DECODED
    {
        bytes.push(t[i..i + 8].iter().fold(0u8, |n, b| n << 1 | (b - b'0')));
        end = i + 8;
        i += 8;
        if t.get(i) == Some(&b' ') {
            i += 1;
        } else {
            break;
        }
    }
    (bytes.len() >= 6).then_some(Layer { start, end, bytes })
}

/// `\x41\x42…` escapes, at least eight.
fn escaped_hex_run(t: &[u8], start: usize) -> Option<Layer> {
    let mut i = start;
    let mut bytes = Vec::new();
    while i + 3 < t.len()
        && t[i] == b'\\'
        && t[i + 1] == b'x'
        && t[i + 2].is_ascii_hexdigit()
        && t[i + 3].is_ascii_hexdigit()
    {
        bytes.push(hex_val(t[i + 2]) << 4 | hex_val(t[i + 3]));
        i += 4;
        if bytes.len() >= MAX_DECODED {
            break;
        }
    }
    (bytes.len() >= 8).then_some(Layer {
        start,
        end: i,
        bytes,
    })
}

/// Decoded bytes that read as text (valid UTF-8, few control characters).
pub(crate) fn as_text(bytes: &[u8]) -> Option<&str> {
    let valid = match core::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => core::str::from_utf8(&bytes[..e.valid_up_to()]).ok()?,
    };
    if valid.len() < 8 || valid.len() * 10 < bytes.len() * 9 {
        return None;
    }
    let controls = valid
        .bytes()
        .filter(|&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t'))
        .count();
    (controls * 20 <= valid.len()).then_some(valid)
}
