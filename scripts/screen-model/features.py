"""The screen model's text features, exactly as crates/toolresult-screen/src/model.rs
computes them (the shared vectors in tests/fixtures/screen-model/vectors.json hold
both to it).

A string is normalised as the screen normalises it (invisible characters removed,
compatibility and look-alike letters folded to ASCII, combining marks dropped),
cut into segments (lines and sentences), and each segment becomes a bag of hashed
features: character 3-5-grams of each word padded with a space on both sides, the
word itself and the pair of it and the word before (hashed from the two words' hashes). Words are runs of ASCII
letters and digits and of non-ASCII bytes, lower-cased, digits written as 0. A
window is one segment or two adjacent ones; its vector is the feature counts
divided by the square root of how many features it has.
"""
import unicodedata

BITS = 17
SLOTS = 1 << BITS
SEED_WORD = 0x050C5D1F
FNV_PRIME = 0x01000193
MIX = 0x9E3779B1
MASK = 0xFFFFFFFF
# Character n-grams (at most 5 bytes) are packed into an integer with their
# length and hashed by one 64-bit multiplication; word pairs from the two
# words' hashes the same way.
NGRAM_MIX = 0x9E3779B97F4A7C15
PAIR_MIX = 0xD6E8FEB86659FD93
MASK64 = (1 << 64) - 1
# A segment ends at a space or tab once it is this long (minified text).
MAX_SEGMENT = 256
# A word among the last RECENT words of its segment adds nothing.
RECENT = 8
# A longer word (base64, a hash, CJK without spaces) is one token, no n-grams.
MAX_WORD = 64
LONG_WORD = b"\x01"
# A window's vector is divided by sqrt(max(features, MIN_FEATURES)): a window
# of a few words cannot score on one or two strong features.
MIN_FEATURES = int(__import__("os").environ.get("SCREEN_MODEL_MIN", "48"))


def fnv(h, data):
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK
    return h


def slot(h):
    return ((h * MIX) & MASK) >> (32 - BITS)


def slot64(key, mix):
    return ((key * mix) & MASK64) >> (64 - BITS)


# --- normalisation (crates/toolresult-screen/src/normalize.rs) ---------------

CONFUSABLE = {
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i",
    "ј": "j", "ѕ": "s", "ԁ": "d", "ɡ": "g", "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
    "С": "C", "Т": "T", "Х": "X", "І": "I", "Ѕ": "S", "Ј": "J", "ο": "o", "α": "a",
    "ν": "v", "ι": "i", "κ": "k", "ρ": "p", "τ": "t", "υ": "u", "Α": "A", "Β": "B",
    "Ε": "E", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Χ": "X", "Υ": "Y", "Ζ": "Z", "ı": "i", "ℓ": "l",
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "‘": "'", "’": "'", "′": "'",
    "“": '"', "”": '"', "″": '"',
}
for _cp in [0x00A0, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000]:
    CONFUSABLE[chr(_cp)] = " "


def _invisible(cp):
    return (
        0xE0000 <= cp <= 0xE007F
        or 0x202A <= cp <= 0x202E
        or 0x2066 <= cp <= 0x2069
        or cp in (0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x180E, 0x200E, 0x200F, 0x061C, 0x00AD)
        or 0x2061 <= cp <= 0x2064
    )


def _combining(cp):
    return (
        0x0300 <= cp <= 0x036F
        or 0x1AB0 <= cp <= 0x1AFF
        or 0x1DC0 <= cp <= 0x1DFF
        or 0x20D0 <= cp <= 0x20FF
        or 0xFE20 <= cp <= 0xFE2F
    )


_fold_cache = {}


def _fold(ch):
    """scripts/gen-fold-table.py: the one printable ASCII character NFKC (without marks) makes."""
    if ch in _fold_cache:
        return _fold_cache[ch]
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    base = unicodedata.normalize("NFC", base)
    out = base if len(base) == 1 and 0x21 <= ord(base) <= 0x7E else None
    _fold_cache[ch] = out
    return out


def normalize(s):
    if s.isascii():
        return s
    out = []
    for ch in s:
        cp = ord(ch)
        if cp < 0x80:
            out.append(ch)
        elif _invisible(cp):
            continue
        elif ch in CONFUSABLE:
            out.append(CONFUSABLE[ch])
        elif (f := _fold(ch)) is not None:
            out.append(f)
        elif not _combining(cp):
            out.append(ch)
    return "".join(out)


# --- segments and features ----------------------------------------------------

_SPACE = b" \t\r\n"


def segments(b):
    """Byte spans (start, end) of the segments of normalised UTF-8 text `b`."""
    out = []
    start = 0
    i = 0
    n = len(b)
    while i < n:
        c = b[i]
        if c == 10 or c == 13:
            end, nxt = i, i + 1
        elif c in b".!?" and (i + 1 == n or b[i + 1] in _SPACE):
            end, nxt = i + 1, i + 1
        elif c == 92 and i + 1 < n and b[i + 1] == 110:  # a written "\n"
            end, nxt = i, i + 2
        elif (c == 32 or c == 9) and i - start >= MAX_SEGMENT:
            end, nxt = i, i + 1
        else:
            i += 1
            continue
        out.append((start, end))
        start = nxt
        i = nxt
    out.append((start, n))
    return out


def _word_byte(c):
    return c >= 0x80 or 48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122


_LOWER = bytes(
    (48 if 48 <= c <= 57 else c + 32 if 65 <= c <= 90 else c) for c in range(256)
)

_word_cache = {}


def _word_slots(w):
    """(slots of the char n-grams and the word, the word's hash state)."""
    got = _word_cache.get(w)
    if got is not None:
        return got
    slots = []
    if w != LONG_WORD:
        p = b" " + w + b" "
        packed = 0
        for j, c in enumerate(p):
            packed = ((packed << 8) | c) & 0xFF_FFFF_FFFF
            for n in (3, 4, 5):
                if j + 1 >= n:
                    slots.append(slot64((packed & ((1 << (8 * n)) - 1)) | (n << 40), NGRAM_MIX))
    u = fnv(SEED_WORD, w)
    slots.append(slot(u))
    got = (slots, u)
    _word_cache[w] = got
    return got


def words(b):
    """The words of a segment, lower-cased with digits as 0 (long ones as LONG_WORD)."""
    out = []
    i = 0
    n = len(b)
    while i < n:
        if not _word_byte(b[i]):
            i += 1
            continue
        j = i
        while j < n and _word_byte(b[j]):
            j += 1
        w = b[i:j].translate(_LOWER)
        out.append(LONG_WORD if len(w) > MAX_WORD else w)
        i = j
    return out


def segment_features(b):
    """The hashed features of one segment (a list of slots). A word among the
    last RECENT words of the segment adds nothing (its n-grams, itself, its pair)."""
    feats = []
    prev = None
    recent = []
    for w in words(b):
        slots, u = _word_slots(w)
        if u not in recent:
            feats.extend(slots)
            if prev is not None:
                feats.append(slot64((prev << 32) | u, PAIR_MIX))
        recent.append(u)
        if len(recent) > RECENT:
            recent.pop(0)
        prev = u
    return feats


def string_segments(s):
    """(text of the segment, its features) for each segment of a string with features."""
    b = normalize(s).encode("utf-8")
    out = []
    for a, e in segments(b):
        f = segment_features(b[a:e])
        if f:
            out.append((b[a:e], f))
    return out
