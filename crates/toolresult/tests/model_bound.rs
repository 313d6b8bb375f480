//! Bounding for a model (docs/bounding.md §7), as properties over random
//! texts, JSON values and content blocks: within the room, head and tail
//! kept when cut, a marker exactly when something was cut, JSON still JSON,
//! and bounding twice changes nothing.

use proptest::prelude::*;
use serde_json::{json, Value};
use toolresult::bound::{bound_for_model, json_size, Keep, Room, Size};

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec("[a-zé😀 .:=/0-9]{0,120}", 0..400).prop_map(|lines| lines.join("\n"))
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        "[a-z\"\\\\\n é]{0,300}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 2000, 60, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..120).prop_map(Value::Array),
            prop::collection::btree_map("[a-z…]{1,8}", inner, 0..30)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn room() -> impl Strategy<Value = (Option<usize>, Option<usize>)> {
    (
        prop::option::of(1usize..6000),
        prop::option::of(1usize..9000),
    )
}

fn shown(v: &Value) -> Size {
    match v {
        Value::String(s) => Size::of(s),
        other => json_size(other),
    }
}

const MARK: &str = "cut; get_tool_result(\"call_7\")";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn text_within_room_head_tail_kept_marker_iff_cut((chars, bytes) in room(), t in text(), head_only in any::<bool>()) {
        let keep = if head_only { Keep::Head } else { Keep::HeadTail };
        let room = Room::new(chars, bytes);
        let out = bound_for_model(Some(&Value::String(t.clone())), None, room, keep, "call_7");
        let o = out.output.clone().unwrap();
        let s = o.as_str().unwrap();
        prop_assert!(room.fits(Size::of(s)), "{:?} over {:?}", Size::of(s), room);
        prop_assert_eq!(out.truncated, s != t);
        prop_assert_eq!(out.truncated, !out.cuts.is_empty());
        if out.truncated {
            prop_assert!(s.contains("cut"), "{}", s);
            let first: String = t.chars().take(1).collect();
            let last: String = t.chars().last().into_iter().collect();
            // Each end is kept unless the room held none of it.
            if !s.starts_with("…[") { prop_assert!(s.starts_with(&first)); }
            if keep == Keep::HeadTail && !s.ends_with("]…") && !s.ends_with("]…\n") {
                prop_assert!(s.ends_with(&last), "{:?}", s);
            }
            if room.chars > 500 && room.bytes > 500 { prop_assert!(s.contains(MARK), "{}", s); }
        }
        // Bounding what was bounded changes nothing.
        let again = bound_for_model(out.output.as_ref(), None, room, keep, "call_7");
        prop_assert_eq!(again.output, out.output);
        prop_assert!(!again.truncated);
    }

    #[test]
    fn json_within_room_stays_json_and_is_idempotent((chars, bytes) in room(), v in json_value()) {
        let room = Room::new(chars, bytes);
        let out = bound_for_model(Some(&v), None, room, Keep::HeadTail, "call_7");
        let o = out.output.clone().unwrap();
        let text = serde_json::to_string(&o).unwrap();
        let back: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&back, &o);
        if !matches!(v, Value::Null | Value::Bool(_) | Value::Number(_)) {
            prop_assert!(room.fits(shown(&o)), "{:?} over {:?}: {}", shown(&o), room, text);
        }
        prop_assert_eq!(out.truncated, o != v);
        // An array that was cut keeps its first and last items when each is
        // small beside the room.
        if let (Value::Array(a), Value::Array(b)) = (&v, &o) {
            let small = |x: &Value| { let z = json_size(x); z.chars * 8 < room.chars && z.bytes * 8 < room.bytes };
            if out.truncated && a.len() > 2 && small(&a[0]) && small(&a[a.len() - 1]) {
                prop_assert_eq!(&a[0], &b[0]);
                prop_assert_eq!(&a[a.len() - 1], &b[b.len() - 1]);
            }
        }
        let again = bound_for_model(out.output.as_ref(), None, room, Keep::HeadTail, "call_7");
        prop_assert_eq!(again.output, out.output);
    }

    #[test]
    fn blocks_within_room_media_whole_or_placeholder((chars, bytes) in room(), texts in prop::collection::vec(text(), 0..4), media in prop::collection::vec(0usize..20_000, 0..4)) {
        let mut blocks: Vec<Value> = texts.iter().map(|t| json!({ "type": "text", "text": t })).collect();
        for (i, n) in media.iter().enumerate() {
            blocks.insert(i.min(blocks.len()), json!({ "type": "image", "mimeType": "image/png", "data": "QUJD".repeat(n / 4) }));
        }
        let room = Room::new(chars, bytes);
        let out = bound_for_model(None, Some(&blocks), room, Keep::HeadTail, "call_7");
        let content = out.content.clone().unwrap();
        prop_assert_eq!(content.len(), blocks.len());
        // Each block needs room for its marker or placeholder (~64 characters).
        if room.chars >= 80 * blocks.len() && room.bytes >= 80 * blocks.len() {
            prop_assert!(room.fits(out.after), "{:?} over {:?}", out.after, room);
        }
        for (a, b) in blocks.iter().zip(&content) {
            if a["type"] == "image" {
                // Never cut mid-data: the same block, or a text placeholder naming it.
                prop_assert!(b == a || (b["type"] == "text" && b["text"].as_str().unwrap().starts_with("[image")), "{}", b);
            }
        }
        // Bounding twice changes nothing, once the blocks fit (below ~80
        // characters a block, the placeholders alone are over the room).
        if room.fits(out.after) {
            let again = bound_for_model(None, out.content.as_deref(), room, Keep::HeadTail, "call_7");
            prop_assert_eq!(again.content, out.content);
        }
    }
}
