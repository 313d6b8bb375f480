//! Bounding for a model (docs/bounding.md §7) on arbitrary text, JSON and
//! content blocks with arbitrary rooms: never panics, text and JSON within
//! the room, JSON still JSON, a marker exactly when something was cut, and
//! bounding twice changes nothing. Line caps keep head and tail.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolresult::bound::cap_lines_keep;
use toolresult::bound::{bound_for_model, json_size, Keep, Room, Size};

fuzz_target!(|data: &[u8]| {
    let Some((&seed, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let room = Room::new(
        Some(usize::from(seed) * 40),
        (seed & 1 == 1).then_some(usize::from(seed) * 60),
    );
    let keep = if seed & 2 == 2 {
        Keep::Head
    } else {
        Keep::HeadTail
    };

    let t = Value::String(text.to_string());
    let out = bound_for_model(Some(&t), None, room, keep, "call_fuzz");
    let o = out.output.clone().expect("an output");
    let s = o.as_str().expect("text stays text");
    assert!(room.fits(Size::of(s)), "{:?} over {room:?}", Size::of(s));
    assert_eq!(out.truncated, s != text.as_ref());
    let again = bound_for_model(out.output.as_ref(), None, room, keep, "call_fuzz");
    assert_eq!(again.output, out.output);

    let (capped, dropped) = cap_lines_keep(&text, usize::from(seed % 32), keep);
    // Untouched when nothing is dropped; else the kept lines and one note line
    // (a text may already hold such a note, so "changed" is not asserted).
    if dropped == 0 {
        assert_eq!(capped, text.as_ref());
    } else {
        let max = usize::from(seed % 32);
        assert!(
            capped.split_inclusive('\n').count() <= max + 1,
            "{capped:?}"
        );
    }

    if let Ok(value) = serde_json::from_str::<Value>(&text) {
        let out = bound_for_model(Some(&value), None, room, keep, "call_fuzz");
        let o = out.output.clone().expect("an output");
        let back: Value = serde_json::from_str(&serde_json::to_string(&o).unwrap()).unwrap();
        assert_eq!(back, o);
        // A string output is shown as its text; other values as compact JSON.
        let shown = match &o {
            Value::String(s) => Size::of(s),
            other => json_size(other),
        };
        if matches!(value, Value::String(_) | Value::Array(_) | Value::Object(_)) {
            assert!(room.fits(shown), "{shown:?} over {room:?}");
        }
        assert_eq!(out.truncated, o != value);
        let again = bound_for_model(out.output.as_ref(), None, room, keep, "call_fuzz");
        assert_eq!(again.output, out.output);
        // The same value as content blocks, when it is an array of objects.
        if let Value::Array(blocks) = &value {
            if blocks.iter().all(Value::is_object) {
                let out = bound_for_model(None, Some(blocks), room, keep, "call_fuzz");
                assert_eq!(out.content.as_ref().map(Vec::len), Some(blocks.len()));
                if room.fits(out.after) {
                    let again =
                        bound_for_model(None, out.content.as_deref(), room, keep, "call_fuzz");
                    assert_eq!(again.content, out.content);
                }
            }
        }
    }
});
