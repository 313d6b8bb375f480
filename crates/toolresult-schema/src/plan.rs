//! A schema as a compact plan that the TypeScript layer evaluates over a live
//! JS value (docs/internals/schema-plan.md): the design of Sourcemeta's Blaze, compile
//! in native code and evaluate simple templates where the value lives, so a
//! value handed over as a JS object is never written out as JSON text just to
//! be checked.
//!
//! The plan covers the keywords whose meaning is plain structure and
//! arithmetic on JS values. What needs this engine's exact semantics on a
//! single string or number (`pattern`, `patternProperties`, `format`, a
//! non-integer `multipleOf`) becomes a *check*: a one-keyword validator
//! compiled here with the schema's own options, run in wasm on the values the
//! evaluator sends (in one batch when the check cannot change which other
//! keywords apply). Patterns therefore keep their bounded time. A schema
//! using anything the plan does not cover (dynamic or remote references,
//! `unevaluated*`, embedded resources, custom meta-schemas, content
//! keywords, numbers a JS number cannot hold exactly) has no plan: every
//! value then goes through the engine as JSON text, as before.

mod js_pattern;

use std::collections::BTreeMap;

use jsonschema::Validator;
use serde_json::{json, Map, Number, Value};
use toolresult::json::{Tape, TapeEntry};

use crate::dialect::Dialect;
use crate::tape::{TapeJson, TapeNode};

/// Type bits of the plan's `t` (the evaluator's `typeBits`).
const NULL: u32 = 1;
const BOOLEAN: u32 = 2;
const OBJECT: u32 = 4;
const ARRAY: u32 = 8;
const NUMBER: u32 = 16;
const STRING: u32 = 32;
const INTEGER: u32 = 64;

/// A plan and the checks its evaluator may ask for.
pub(crate) struct Plan {
    /// The plan as JSON text: `{"nodes":[…]}`, node 0 the root.
    pub(crate) json: String,
    /// Check `i` of the plan: a validator of one keyword.
    pub(crate) checks: Vec<Validator<TapeJson>>,
}

/// Why a schema has no plan (for docs and tests; the caller only needs `None`).
#[derive(Debug)]
pub(crate) struct Uncovered(#[allow(dead_code)] pub(crate) String);

type Built<T> = Result<T, Uncovered>;

fn uncovered<T>(why: impl Into<String>) -> Built<T> {
    Err(Uncovered(why.into()))
}

/// Builds one-keyword check validators with the schema's own options.
pub(crate) trait CheckCompiler {
    /// A validator of `schema` (one keyword), or `None` if it does not compile.
    fn compile_check(&self, schema: &Value) -> Option<Validator<TapeJson>>;
}

struct Builder<'a, C: CheckCompiler> {
    root: &'a Value,
    dialect: Dialect,
    assert_formats: bool,
    compiler: &'a C,
    nodes: Vec<Value>,
    /// Same-instance edges (applicators that do not descend into the value),
    /// to refuse schemas whose references loop without consuming the value.
    same_instance: Vec<Vec<usize>>,
    by_pointer: BTreeMap<String, usize>,
    checks: Vec<Validator<TapeJson>>,
    check_ids: BTreeMap<String, usize>,
}

/// The plan of `root`, or why it has none. `root` has compiled already, so
/// it is a valid schema of `dialect`.
pub(crate) fn build<C: CheckCompiler>(
    root: &Value,
    dialect: Dialect,
    assert_formats: bool,
    compiler: &C,
) -> Result<Plan, Uncovered> {
    let mut b = Builder {
        root,
        dialect,
        assert_formats,
        compiler,
        nodes: Vec::new(),
        same_instance: Vec::new(),
        by_pointer: BTreeMap::new(),
        checks: Vec::new(),
        check_ids: BTreeMap::new(),
    };
    b.node_at("", root, true)?;
    b.refuse_loops()?;
    let json = serde_json::to_string(&json!({ "nodes": b.nodes }))
        .map_err(|e| Uncovered(e.to_string()))?;
    Ok(Plan {
        json,
        checks: b.checks,
    })
}

/// Keywords whose meaning the plan does not carry (in any dialect).
const UNCOVERED: &[&str] = &[
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$vocabulary",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
];

/// Keywords that only mean something in some dialects: where they do not,
/// the plan declines rather than guess whether the engine ignores them.
fn foreign(dialect: Dialect, keyword: &str) -> bool {
    match dialect {
        Dialect::Draft202012 => matches!(keyword, "additionalItems" | "dependencies"),
        Dialect::Draft201909 => matches!(keyword, "prefixItems" | "dependencies"),
        Dialect::Draft7 => matches!(
            keyword,
            "prefixItems"
                | "dependentRequired"
                | "dependentSchemas"
                | "minContains"
                | "maxContains"
        ),
    }
}

/// A number the evaluator holds exactly as a JS number.
fn exact(n: &Number) -> bool {
    if let Some(u) = n.as_u64() {
        return u <= (1 << 53) || (u as f64) as u64 == u;
    }
    if let Some(i) = n.as_i64() {
        return i >= -(1 << 53) || (i as f64) as i64 == i;
    }
    n.as_f64().is_some_and(f64::is_finite)
}

/// Every number in `value` is [`exact`].
fn all_exact(value: &Value) -> bool {
    match value {
        Value::Number(n) => exact(n),
        Value::Array(items) => items.iter().all(all_exact),
        Value::Object(members) => members.values().all(all_exact),
        _ => true,
    }
}

fn number(value: &Value) -> Built<f64> {
    match value {
        Value::Number(n) if exact(n) => Ok(n.as_f64().unwrap_or(f64::NAN)),
        _ => uncovered("a limit the evaluator cannot hold exactly"),
    }
}

fn type_bits(value: &Value) -> Built<u32> {
    let one = |name: &str| -> Built<u32> {
        Ok(match name {
            "null" => NULL,
            "boolean" => BOOLEAN,
            "object" => OBJECT,
            "array" => ARRAY,
            "number" => NUMBER,
            "string" => STRING,
            "integer" => INTEGER,
            _ => return uncovered("an unknown type name"),
        })
    };
    match value {
        Value::String(s) => one(s),
        Value::Array(names) => names.iter().try_fold(0, |bits, name| match name {
            Value::String(s) => Ok(bits | one(s)?),
            _ => uncovered("a type that is not a name"),
        }),
        _ => uncovered("a type that is not a name"),
    }
}

/// A JSON Pointer in a `$ref` (`#` or `#/…`), unescaped, or `None`.
fn local_pointer(reference: &str) -> Option<String> {
    let pointer = reference.strip_prefix('#')?;
    if !(pointer.is_empty() || pointer.starts_with('/')) || pointer.contains('%') {
        return None;
    }
    Some(pointer.to_owned())
}

impl<C: CheckCompiler> Builder<'_, C> {
    fn check(&mut self, keyword: &str, value: &Value) -> Built<usize> {
        let schema = json!({ keyword: value });
        let key = schema.to_string();
        if let Some(&id) = self.check_ids.get(&key) {
            return Ok(id);
        }
        let Some(validator) = self.compiler.compile_check(&schema) else {
            return uncovered(format!("`{keyword}` does not compile on its own"));
        };
        self.checks.push(validator);
        let id = self.checks.len() - 1;
        self.check_ids.insert(key, id);
        Ok(id)
    }

    /// The node of the subschema at `pointer` (memoized: `$ref`s to the same
    /// place share it, and a reference loop ends).
    fn node_at(&mut self, pointer: &str, schema: &Value, is_root: bool) -> Built<usize> {
        if let Some(&index) = self.by_pointer.get(pointer) {
            return Ok(index);
        }
        let index = self.nodes.len();
        self.nodes.push(Value::Null);
        self.same_instance.push(Vec::new());
        self.by_pointer.insert(pointer.to_owned(), index);
        let node = self.compile_node(index, pointer, schema, is_root)?;
        self.nodes[index] = node;
        Ok(index)
    }

    fn child(&mut self, pointer: &str, part: &str, schema: &Value) -> Built<usize> {
        let escaped = part.replace('~', "~0").replace('/', "~1");
        self.node_at(&format!("{pointer}/{escaped}"), schema, false)
    }

    fn same(&mut self, from: usize, to: usize) {
        self.same_instance[from].push(to);
    }

    /// The nodes of an object of subschemas (`properties`, …), with their
    /// names; `same_instance` as for [`Builder::children`].
    fn named_children(
        &mut self,
        index: usize,
        pointer: &str,
        keyword: &str,
        map: &Value,
        same_instance: bool,
    ) -> Built<Vec<(String, usize)>> {
        let Value::Object(members) = map else {
            return uncovered(format!("`{keyword}` is not an object"));
        };
        let mut out = Vec::with_capacity(members.len());
        for (name, sub) in members {
            let n = self.child(&format!("{pointer}/{keyword}"), name, sub)?;
            if same_instance {
                self.same(index, n);
            }
            out.push((name.clone(), n));
        }
        Ok(out)
    }

    /// The nodes of an array of subschemas; `same_instance` when each applies
    /// to the value itself (`allOf`, …) rather than to one item of it.
    fn children(
        &mut self,
        index: usize,
        pointer: &str,
        keyword: &str,
        list: &Value,
        same_instance: bool,
    ) -> Built<Value> {
        let Value::Array(items) = list else {
            return uncovered(format!("`{keyword}` is not an array"));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let n = self.child(&format!("{pointer}/{keyword}"), &i.to_string(), item)?;
            if same_instance {
                self.same(index, n);
            }
            out.push(Value::from(n));
        }
        Ok(Value::Array(out))
    }

    #[allow(clippy::too_many_lines)]
    fn compile_node(
        &mut self,
        index: usize,
        pointer: &str,
        schema: &Value,
        is_root: bool,
    ) -> Built<Value> {
        let members = match schema {
            Value::Bool(b) => return Ok(json!({ "b": b })),
            Value::Object(members) => members,
            _ => return uncovered("a subschema that is neither an object nor a boolean"),
        };
        let mut out = Map::new();
        // Draft 7: `$ref` alone counts; its siblings are ignored.
        if self.dialect == Dialect::Draft7 {
            if let Some(reference) = members.get("$ref") {
                let target = self.reference(reference)?;
                self.same(index, target);
                out.insert("ref".into(), target.into());
                return Ok(Value::Object(out));
            }
        }
        for (keyword, value) in members {
            let k = keyword.as_str();
            if UNCOVERED.contains(&k) || foreign(self.dialect, k) {
                return uncovered(format!("`{k}`"));
            }
            match k {
                "$schema" | "$id" if !is_root => return uncovered("an embedded resource"),
                "$schema" | "$id" | "$comment" | "$anchor" | "$defs" | "definitions" | "title"
                | "description" | "default" | "examples" | "readOnly" | "writeOnly"
                | "deprecated" => {}
                "$ref" => {
                    let target = self.reference(value)?;
                    self.same(index, target);
                    out.insert("ref".into(), target.into());
                }
                "type" => {
                    out.insert("t".into(), type_bits(value)?.into());
                }
                "enum" => {
                    if !all_exact(value) || !value.is_array() {
                        return uncovered("an enum the evaluator cannot hold exactly");
                    }
                    out.insert("enum".into(), value.clone());
                }
                "const" => {
                    if !all_exact(value) {
                        return uncovered("a const the evaluator cannot hold exactly");
                    }
                    out.insert("c".into(), json!([value]));
                }
                "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
                | "maxProperties" | "minimum" | "maximum" | "exclusiveMinimum"
                | "exclusiveMaximum" | "minContains" | "maxContains" => {
                    out.insert(k.into(), number(value)?.into());
                }
                "multipleOf" => {
                    let d = number(value)?;
                    if d.fract() == 0.0 && d.abs() <= 9_007_199_254_740_991.0 && d > 0.0 {
                        out.insert("multipleOf".into(), d.into());
                    } else {
                        out.insert("multipleOfCheck".into(), self.check(k, value)?.into());
                    }
                }
                "uniqueItems" if value.as_bool() == Some(true) => {
                    out.insert("uniqueItems".into(), true.into());
                }
                "pattern" => {
                    out.insert("pattern".into(), self.check(k, value)?.into());
                    if let Some(source) = value.as_str().and_then(js_pattern::js_source) {
                        out.insert("patternJs".into(), source.into());
                    }
                }
                // Annotation-only formats fall through to the ignored keywords.
                "format" if self.assert_formats => {
                    out.insert("format".into(), self.check(k, value)?.into());
                    // The evaluator accepts the plainest forms of a few formats
                    // itself and asks the check for the rest.
                    out.insert("formatName".into(), value.clone());
                }
                "required" => {
                    out.insert("required".into(), value.clone());
                }
                "properties" => {
                    let list = self.named_children(index, pointer, k, value, false)?;
                    let list = list.into_iter().map(|(name, n)| json!([name, n])).collect();
                    out.insert(k.into(), Value::Array(list));
                }
                "patternProperties" => {
                    let mut list = Vec::new();
                    for (pattern, n) in self.named_children(index, pointer, k, value, false)? {
                        let check = self.check("pattern", &Value::String(pattern.clone()))?;
                        // A key the evaluator can test itself, as for `pattern`.
                        list.push(match js_pattern::js_source(&pattern) {
                            Some(source) => json!([check, n, source]),
                            None => json!([check, n]),
                        });
                    }
                    out.insert(k.into(), Value::Array(list));
                }
                "additionalProperties" | "propertyNames" | "contains" => {
                    let n = self.child(pointer, k, value)?;
                    out.insert(k.into(), n.into());
                }
                "items" => match value {
                    // Draft 7 and 2019-09: an array of items is a tuple.
                    Value::Array(_) if self.dialect != Dialect::Draft202012 => {
                        let list = self.children(index, pointer, "items", value, false)?;
                        out.insert("prefix".into(), list);
                        if let Some(rest) = members.get("additionalItems") {
                            let n = self.child(pointer, "additionalItems", rest)?;
                            out.insert("items".into(), n.into());
                        }
                    }
                    _ => {
                        let n = self.child(pointer, "items", value)?;
                        out.insert("items".into(), n.into());
                    }
                },
                // Applies only beside an array `items` (above).
                "additionalItems" => {}
                "prefixItems" => {
                    let list = self.children(index, pointer, "prefixItems", value, false)?;
                    out.insert("prefix".into(), list);
                }
                "allOf" | "anyOf" | "oneOf" => {
                    let list = self.children(index, pointer, k, value, true)?;
                    out.insert(k.into(), list);
                }
                "not" | "if" | "then" | "else" => {
                    let n = self.child(pointer, k, value)?;
                    self.same(index, n);
                    out.insert(k.into(), n.into());
                }
                "dependentRequired" => {
                    out.insert("dependentRequired".into(), value.clone());
                }
                "dependentSchemas" => {
                    let list = self.named_children(index, pointer, k, value, true)?;
                    let list = list.into_iter().map(|(name, n)| json!([name, n])).collect();
                    out.insert(k.into(), Value::Array(list));
                }
                "dependencies" => {
                    let Value::Object(deps) = value else {
                        return uncovered("`dependencies` is not an object");
                    };
                    let mut required = Map::new();
                    let mut schemas = Vec::new();
                    for (name, dep) in deps {
                        if dep.is_array() {
                            required.insert(name.clone(), dep.clone());
                        } else {
                            let n = self.child(&format!("{pointer}/dependencies"), name, dep)?;
                            self.same(index, n);
                            schemas.push(json!([name, n]));
                        }
                    }
                    out.insert("dependentRequired".into(), Value::Object(required));
                    out.insert("dependentSchemas".into(), Value::Array(schemas));
                }
                // Unknown keywords are annotations; the engine ignores them.
                _ => {}
            }
        }
        // `then` / `else` only apply beside `if`.
        if !out.contains_key("if") {
            out.remove("then");
            out.remove("else");
        }
        Ok(Value::Object(out))
    }

    fn reference(&mut self, reference: &Value) -> Built<usize> {
        let Some(pointer) = reference.as_str().and_then(local_pointer) else {
            return uncovered("a `$ref` that is not a JSON Pointer into this schema");
        };
        let Some(target) = self.root.pointer(&pointer) else {
            return uncovered("a `$ref` to a place this schema does not have");
        };
        let is_root = pointer.is_empty();
        self.node_at(&pointer, target, is_root)
    }

    /// Refuses a schema whose applicators loop at one place in the value
    /// (`{"$ref": "#"}`): the evaluator would never finish.
    fn refuse_loops(&self) -> Built<()> {
        // 0 unvisited, 1 on the stack, 2 done.
        let mut state = vec![0u8; self.nodes.len()];
        for start in 0..self.nodes.len() {
            if state[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            state[start] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                if let Some(&to) = self.same_instance[node].get(*next) {
                    *next += 1;
                    match state[to] {
                        1 => return uncovered("references that loop at one place in the value"),
                        0 => {
                            state[to] = 1;
                            stack.push((to, 0));
                        }
                        _ => {}
                    }
                } else {
                    state[node] = 2;
                    stack.pop();
                }
            }
        }
        Ok(())
    }
}

/// Runs a batch of checks: `text` is a JSON array `[id, value, id, value, …]`.
/// 0: every check passed; 1: one failed; 2: the batch is not one.
pub(crate) fn run_checks(checks: &[Validator<TapeJson>], tape: &Tape) -> u32 {
    let TapeEntry::Array { len, .. } = tape.entry(0) else {
        return 2;
    };
    if len % 2 != 0 {
        return 2;
    }
    let mut at = 1;
    for _ in 0..len / 2 {
        let TapeEntry::PosInt(id) = tape.entry(at) else {
            return 2;
        };
        let Some(check) = usize::try_from(id).ok().and_then(|id| checks.get(id)) else {
            return 2;
        };
        if !check.is_valid(TapeNode::at(tape, at + 1)) {
            return 1;
        }
        at = tape.skip(at + 1);
    }
    0
}
