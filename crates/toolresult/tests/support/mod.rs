//! Shared by the truncation tests: the JSON values they generate, and the
//! value-based truncation the text path replaced (the differential oracle).
#![allow(dead_code)]

pub mod value_truncation;

use proptest::prelude::*;
use serde_json::Value;

/// Any JSON value JavaScript can hold exactly: safe integers, finite floats,
/// strings with escapes, non-ASCII and ellipses (the marker key), nested.
pub fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-(1i64 << 53) + 1..(1i64 << 53)).prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "\\PC{0,40}".prop_map(Value::String),
        "[\"\\\\\\n\\t\\u{0}-\\u{1f}é€😀a-z…]{0,60}".prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 96, 10, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..14).prop_map(Value::Array),
            prop::collection::btree_map("[…a-c\"\\\\]{0,3}|\\PC{0,8}", inner, 0..9)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}
