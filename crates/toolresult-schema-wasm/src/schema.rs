use toolresult::reply::{outcome, to_json};
use toolresult::Issues;
use toolresult_schema::{compile, CompiledSchema, SchemaOptions};
use wasm_bindgen::prelude::*;

use crate::parse;

/// A compiled JSON Schema. Construction never throws: read `error()` first.
#[wasm_bindgen]
pub struct SchemaValidator(Result<CompiledSchema, Issues>);

#[wasm_bindgen]
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
        match (&self.0, parse(value_json)) {
            (Ok(schema), Ok(value)) => u32::from(!schema.is_valid(&value)),
            _ => 2,
        }
    }

    /// `{"ok":true,"value":[schema issues]}` or `{"ok":false,"issues":[...]}`
    /// when the value itself is not acceptable JSON.
    pub fn validate(&self, value_json: &str) -> String {
        outcome(match &self.0 {
            Ok(schema) => parse(value_json).map(|value| schema.validate(&value)),
            Err(issues) => Err(issues.clone()),
        })
    }
}
