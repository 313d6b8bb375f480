use toolresult::options_from_json;
use toolresult::{EnvelopeKind, Issues, ValidationOptions, Validator};
use toolresult_schema::{SchemaOptions, ToolRegistry};
use toolresult_wasm_io::reply::{outcome, to_json};
use wasm_bindgen::prelude::*;

use toolresult_wasm_io::with_input;

use crate::{parse, parse_tape_bytes};

/// A registry of tool definitions. Construction never throws: read `error()`.
// In JS the class has the name of the Rust type it holds (docs/internals/modules.md).
#[wasm_bindgen(js_name = ToolRegistry)]
pub struct SchemaToolRegistry(Result<ToolRegistry, Issues>);

#[wasm_bindgen(js_class = ToolRegistry)]
impl SchemaToolRegistry {
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: &str) -> SchemaToolRegistry {
        SchemaToolRegistry(SchemaOptions::from_json(options_json).map(ToolRegistry::new))
    }

    pub fn error(&self) -> String {
        match &self.0 {
            Ok(_) => String::new(),
            Err(issues) => to_json(issues),
        }
    }

    fn with<T: serde::Serialize>(
        &mut self,
        f: impl FnOnce(&mut ToolRegistry) -> Result<T, Issues>,
    ) -> String {
        outcome(match &mut self.0 {
            Ok(registry) => f(registry),
            Err(issues) => Err(issues.clone()),
        })
    }

    pub fn register(&mut self, definition_json: &str) -> String {
        self.with(|r| r.register_value(parse(definition_json)?))
    }

    pub fn unregister(&mut self, name: &str) -> bool {
        self.0.as_mut().is_ok_and(|r| r.unregister(name))
    }

    /// The definition as registered, or `""`.
    pub fn definition(&self, name: &str) -> String {
        match &self.0 {
            Ok(r) => r.get(name).map(to_json).unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    pub fn names(&self) -> String {
        match &self.0 {
            Ok(r) => to_json(&r.names().collect::<Vec<_>>()),
            Err(_) => "[]".into(),
        }
    }

    pub fn stats(&self) -> String {
        match &self.0 {
            Ok(r) => to_json(&r.stats()),
            Err(_) => "{}".into(),
        }
    }

    /// Validates the first `output_len` bytes of the input buffer (JSON text
    /// written by JS with `encodeInto`); a negative length means no output.
    pub fn validate_output(&mut self, name: &str, output_len: i32) -> String {
        self.with(|r| {
            let output = match usize::try_from(output_len) {
                Ok(len) => Some(with_input(len, parse_tape_bytes)?),
                Err(_) => None,
            };
            r.validate_output_tape(name, output.as_ref())
        })
    }

    /// The evaluation plan of a tool's output schema (`output`) or input
    /// schema (docs/internals/schema-plan.md); `""` when there is none.
    pub fn plan(&self, name: &str, output: bool) -> String {
        self.schema(name, output)
            .and_then(|s| s.plan_json())
            .unwrap_or_default()
            .to_owned()
    }

    /// Runs a batch of that plan's checks from the first `len` bytes of the
    /// input buffer: 0 all passed, 1 one failed, 2 not usable.
    pub fn run_plan_checks_input(&self, name: &str, output: bool, len: usize) -> u32 {
        let Some(schema) = self.schema(name, output) else {
            return 2;
        };
        with_input(len, |bytes| match parse_tape_bytes(bytes) {
            Ok(batch) => schema.run_plan_checks(&batch),
            Err(_) => 2,
        })
    }

    /// Validates the first `parameters_len` bytes of the input buffer.
    pub fn validate_input(&mut self, name: &str, parameters_len: usize) -> String {
        self.with(|r| r.validate_input_tape(name, &with_input(parameters_len, parse_tape_bytes)?))
    }

    /// The result (a valid ToolResult) after the output check (docs/spec.md §7).
    pub fn check_result(&mut self, result_json: &str, options_json: &str) -> String {
        self.with(|r| {
            let options: ValidationOptions = options_from_json(options_json, "options")?;
            let result =
                Validator::new(EnvelopeKind::ToolResult, options)?.parse_checked(result_json)?;
            r.check_result_value(result)
        })
    }
}

impl SchemaToolRegistry {
    fn schema(&self, name: &str, output: bool) -> Option<&toolresult_schema::CompiledSchema> {
        let registry = self.0.as_ref().ok()?;
        if output {
            registry.output_schema(name)
        } else {
            registry.input_schema(name)
        }
    }
}
