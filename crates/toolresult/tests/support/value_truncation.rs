//! The Value-based JSON truncation that `truncate_json_text` replaced, kept
//! as the oracle of the differential property test: for compact text written
//! by serde_json the two must agree byte for byte.
#![allow(dead_code)]

use serde::Serialize;
use serde_json::{Map, Value};

pub const MIN_JSON_LIMIT: usize = 64;

/// (output, size, truncated) as the old `truncate_json` computed them.
pub fn truncate_json(value: &Value, max_bytes: usize) -> (Value, usize, bool) {
    let bytes = serde_json::to_vec(value).unwrap();
    let max_bytes = max_bytes.max(MIN_JSON_LIMIT);
    if bytes.len() <= max_bytes {
        return (value.clone(), bytes.len(), false);
    }
    let budget = max_bytes / 20 * 19 + (max_bytes % 20) * 19 / 20;
    let output = fit(value, budget).map_or_else(
        || Value::String(format!("…[+{} bytes]", bytes.len())),
        |(v, _, _)| v,
    );
    let size = json_len(&output);
    (output, size, true)
}

fn marker_len(n: usize, what: &str) -> usize {
    let digits = n.checked_ilog10().map_or(1, |d| d as usize + 1);
    digits + what.len() + 9
}

fn encoded_len<T: Serialize + ?Sized>(v: &T) -> usize {
    serde_json::to_vec(v).map_or(usize::MAX, |b| b.len())
}

/// The value cut to at most `budget` bytes: (value, its exact encoded size,
/// whether it is whole). None when not even a marker fits.
///
/// Containers are measured from their children as they are rebuilt, so every
/// node is measured once (no re-serializing of subtrees).
fn fit(v: &Value, budget: usize) -> Option<(Value, usize, bool)> {
    if let Value::Array(_) | Value::Object(_) = v {
        // Measuring allocates nothing; most subtrees fit whole and are cloned.
        let full = json_len(v);
        if full <= budget {
            return Some((v.clone(), full, true));
        }
    }
    match v {
        Value::Array(items) => fit_array(items, budget),
        Value::Object(map) => fit_object(map, budget),
        Value::String(s) => {
            let len = string_len(s);
            if len <= budget {
                Some((v.clone(), len, true))
            } else {
                fit_string(s, budget)
            }
        }
        _ => {
            let len = encoded_len(v);
            (len <= budget).then(|| (v.clone(), len, true))
        }
    }
}

/// Counts the bytes written through `fmt::Write`, without storing them.
struct Counter(usize);

impl core::fmt::Write for Counter {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// The compact JSON length of a value, as serde_json writes it, measured
/// without allocating.
fn json_len(v: &Value) -> usize {
    use core::fmt::Write;
    match v {
        Value::Null => 4,
        Value::Bool(b) => 4 + usize::from(!b),
        Value::Number(n) => {
            let mut c = Counter(0);
            let _ = write!(c, "{n}");
            c.0
        }
        Value::String(s) => string_len(s),
        Value::Array(items) => {
            2 + items.len().saturating_sub(1) + items.iter().map(json_len).sum::<usize>()
        }
        Value::Object(map) => {
            2 + map.len().saturating_sub(1)
                + map
                    .iter()
                    .map(|(k, v)| string_len(k) + 1 + json_len(v))
                    .sum::<usize>()
        }
    }
}

/// Encoded length of a JSON string, quotes included.
fn string_len(s: &str) -> usize {
    2 + s.chars().map(escaped_len).sum::<usize>()
}

/// Bytes a char takes inside a JSON string (serde_json's escaping).
fn escaped_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{08}' | '\u{0c}' => 2,
        c if (c as u32) < 0x20 => 6,
        c => c.len_utf8(),
    }
}

/// One pass: the longest prefix that fits with its marker.
fn fit_string(s: &str, budget: usize) -> Option<(Value, usize, bool)> {
    // The marker's digit count is bounded by the whole string's.
    let marker_max = format!("…[+{} bytes]", s.len()).len();
    let room = budget.checked_sub(2 + marker_max)?;
    let mut used = 0;
    let mut keep = 0;
    for (i, c) in s.char_indices() {
        let n = escaped_len(c);
        if used + n > room {
            break;
        }
        used += n;
        keep = i + c.len_utf8();
    }
    let mut out = String::from(&s[..keep]);
    out.push_str(&format!("…[+{} bytes]", s.len() - keep));
    let len = encoded_len(&out);
    Some((Value::String(out), len, false))
}

fn fit_array(items: &[Value], budget: usize) -> Option<(Value, usize, bool)> {
    let mut out = Vec::new();
    let mut lens = Vec::new();
    let mut used = 2; // []
    let mut complete = true;
    for (i, item) in items.iter().enumerate() {
        let rest = items.len() - i - 1;
        let comma = usize::from(!out.is_empty());
        // Room for this item and, if anything follows, the marker after it.
        let reserve = if rest > 0 {
            1 + marker_len(rest + 1, "items")
        } else {
            0
        };
        let Some(room) = budget.checked_sub(used + comma + reserve) else {
            break;
        };
        let Some((v, len, whole)) = fit(item, room) else {
            break;
        };
        out.push(v);
        lens.push(comma + len);
        used += comma + len;
        if !whole {
            complete = false;
            break;
        }
    }
    loop {
        let dropped = items.len() - out.len();
        if dropped == 0 {
            return Some((Value::Array(out), used, complete));
        }
        let len = marker_len(dropped, "items") + usize::from(!out.is_empty());
        if used + len <= budget {
            out.push(Value::String(format!("…[+{dropped} items]")));
            return Some((Value::Array(out), used + len, false));
        }
        // Make room for the marker by giving back the last item.
        out.pop()?;
        used -= lens.pop()?;
    }
}

fn fit_object(map: &Map<String, Value>, budget: usize) -> Option<(Value, usize, bool)> {
    let mut marker_key = String::from("…");
    while map.contains_key(&marker_key) {
        marker_key.push('…');
    }
    let marker_key_len = string_len(&marker_key);
    // `,"…":"[+N keys]"` without its comma.
    let entry_len = |n: usize| marker_key_len + 1 + marker_len(n, "keys") - 3;
    let mut out = Map::new();
    let mut lens = Vec::new();
    let mut keys: Vec<&String> = Vec::new();
    let mut used = 2; // {}
    let mut complete = true;
    for (i, (key, item)) in map.iter().enumerate() {
        let rest = map.len() - i - 1;
        let comma = usize::from(!out.is_empty());
        let key_len = string_len(key) + 1;
        let reserve = if rest > 0 { 1 + entry_len(rest + 1) } else { 0 };
        let Some(room) = budget.checked_sub(used + comma + key_len + reserve) else {
            break;
        };
        let Some((v, len, whole)) = fit(item, room) else {
            break;
        };
        out.insert(key.clone(), v);
        keys.push(key);
        lens.push(comma + key_len + len);
        used += comma + key_len + len;
        if !whole {
            complete = false;
            break;
        }
    }
    loop {
        let dropped = map.len() - out.len();
        if dropped == 0 {
            return Some((Value::Object(out), used, complete));
        }
        let len = entry_len(dropped) + usize::from(!out.is_empty());
        if used + len <= budget {
            out.insert(marker_key, Value::String(format!("[+{dropped} keys]")));
            return Some((Value::Object(out), used + len, false));
        }
        out.shift_remove(keys.pop()?);
        used -= lens.pop()?;
    }
}
