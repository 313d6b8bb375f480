use toolresult::Issues;
use toolresult_schema::{compile, CompiledSchema, SchemaOptions};
use toolresult_wasm_io::reply::{outcome, to_json};
use wasm_bindgen::prelude::*;

use toolresult::json::Tape;
use toolresult_wasm_io::with_input;

use crate::{parse, parse_tape_bytes};

/// A compiled JSON Schema. Construction never throws: read `error()` first.
// In JS the class has the name of the Rust type it holds (docs/internals/modules.md).
#[wasm_bindgen(js_name = CompiledSchema)]
pub struct SchemaValidator(Result<CompiledSchema, Issues>);

#[wasm_bindgen(js_class = CompiledSchema)]
impl SchemaValidator {
    #[wasm_bindgen(constructor)]
    pub fn new(schema_json: &str, options_json: &str) -> SchemaValidator {
        SchemaValidator(
            SchemaOptions::from_json(options_json)
                .and_then(|options| compile(&parse(schema_json)?, &options)),
        )
    }

    /// `""` when the schema compiled, else a JSON array of issues.
    pub fn error(&self) -> String {
        match &self.0 {
            Ok(_) => String::new(),
            Err(issues) => to_json(issues),
        }
    }

    /// 0 valid, 1 invalid, 2 the value is not acceptable JSON (or the schema
    /// did not compile): call `validate` for the issues.
    pub fn is_valid(&self, value_json: &str) -> u32 {
        self.verdict(parse_tape_bytes(value_json.as_bytes()))
    }

    /// `is_valid` for the first `len` bytes of the input buffer, which JS
    /// fills with `encodeInto`: the value never crosses as a wasm-bindgen
    /// string (a per-character copy in JS).
    pub fn is_valid_input(&self, len: usize) -> u32 {
        with_input(len, |bytes| self.verdict(parse_tape_bytes(bytes)))
    }

    /// `{"ok":true,"value":[schema issues]}` or `{"ok":false,"issues":[...]}`
    /// when the value itself is not acceptable JSON.
    pub fn validate(&self, value_json: &str) -> String {
        self.report(parse_tape_bytes(value_json.as_bytes()))
    }

    /// The schema's evaluation plan as JSON text for the TypeScript evaluator
    /// (docs/internals/schema-plan.md); `""` when the schema has none (or did not
    /// compile), so every value goes through `is_valid_input`.
    pub fn plan(&self) -> String {
        match &self.0 {
            Ok(schema) => schema.plan_json().unwrap_or_default().to_owned(),
            Err(_) => String::new(),
        }
    }

    /// Runs a batch of the plan's checks from the first `len` bytes of the
    /// input buffer (JSON `[check, value, …]`): 0 all passed, 1 one failed,
    /// 2 the batch or the schema is not usable.
    pub fn run_plan_checks_input(&self, len: usize) -> u32 {
        with_input(len, |bytes| match (&self.0, parse_tape_bytes(bytes)) {
            (Ok(schema), Ok(batch)) => schema.run_plan_checks(&batch),
            _ => 2,
        })
    }

    /// `validate` for the first `len` bytes of the input buffer.
    pub fn validate_input(&self, len: usize) -> String {
        with_input(len, |bytes| self.report(parse_tape_bytes(bytes)))
    }
}

impl SchemaValidator {
    fn verdict(&self, value: Result<Tape, Issues>) -> u32 {
        match (&self.0, value) {
            (Ok(schema), Ok(value)) => u32::from(!schema.is_valid_tape(&value)),
            _ => 2,
        }
    }

    fn report(&self, value: Result<Tape, Issues>) -> String {
        outcome(match &self.0 {
            Ok(schema) => value.map(|value| schema.validate_tape(&value)),
            Err(issues) => Err(issues.clone()),
        })
    }
}
