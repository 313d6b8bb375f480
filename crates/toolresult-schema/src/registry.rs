//! Tool definitions compiled once and cached by content hash.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use toolresult::json::Tape;
use toolresult::{brief_text, quote_text};

use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use toolresult::{Issue, IssueCode, Issues, SchemaIssue, ToolDefinition, ToolResult, ToolStatus};

use crate::compile::{compile, CompiledSchema};
use crate::options::SchemaOptions;

/// The error code (docs/spec.md §7) of results whose output fails the schema.
pub const OUTPUT_VALIDATION_FAILED: &str = "OUTPUT_VALIDATION_FAILED";

/// `{ ok, issues }`: whether a value passed a tool's schema, and why not.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValidationReport {
    /// No issue was found.
    pub ok: bool,
    /// Every issue, up to `max_issues`.
    pub issues: Vec<SchemaIssue>,
}

impl ValidationReport {
    fn of(issues: Vec<SchemaIssue>) -> Self {
        ValidationReport {
            ok: issues.is_empty(),
            issues,
        }
    }
}

/// Counts that show the cache at work.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct RegistryStats {
    /// Registered tools.
    pub tools: usize,
    /// Distinct compiled schemas held.
    pub schemas: usize,
    /// Schemas compiled since the registry was made.
    pub compiles: u64,
    /// Registrations that reused a compiled schema of the same content.
    pub cache_hits: u64,
}

#[derive(Debug)]
struct Tool {
    definition: ToolDefinition,
    input: Option<Arc<CompiledSchema>>,
    output: Option<Arc<CompiledSchema>>,
    metadata: Option<Arc<CompiledSchema>>,
}

/// Tools by name, their schemas compiled once. Registering the same schema
/// again (for any tool) reuses the compiled one; a changed schema replaces it.
#[derive(Debug, Default)]
pub struct ToolRegistry {
    options: SchemaOptions,
    tools: BTreeMap<String, Tool>,
    compiled: HashMap<[u8; 32], Arc<CompiledSchema>>,
    stats: RegistryStats,
}

impl ToolRegistry {
    /// An empty registry with these options.
    pub fn new(options: SchemaOptions) -> Self {
        ToolRegistry {
            options,
            ..ToolRegistry::default()
        }
    }

    /// Registers (or replaces) a tool. Schema errors carry paths into the
    /// definition (`/output_schema/properties/x/type`).
    pub fn register(&mut self, definition: ToolDefinition) -> Result<(), Issues> {
        if definition.name.is_empty() {
            return Err(Issues::from(Issue::new(
                "/name",
                IssueCode::InvalidDefinition,
                "a tool definition needs a non-empty name",
            )));
        }
        let input = self.compiled_for(definition.input_schema.as_ref(), "/input_schema")?;
        let output = self.compiled_for(definition.output_schema.as_ref(), "/output_schema")?;
        let metadata =
            self.compiled_for(definition.metadata_schema.as_ref(), "/metadata_schema")?;
        self.tools.insert(
            definition.name.clone(),
            Tool {
                definition,
                input,
                output,
                metadata,
            },
        );
        // Drop compiled schemas no tool uses any more (a replaced schema).
        self.compiled.retain(|_, c| Arc::strong_count(c) > 1);
        Ok(())
    }

    /// Reads a definition from a JSON value and registers it.
    pub fn register_value(&mut self, definition: Value) -> Result<(), Issues> {
        if let Some(name) = definition.get("name") {
            if !name.is_string() {
                return Err(Issues::from(Issue::new(
                    "/name",
                    IssueCode::InvalidDefinition,
                    format!(
                        "`name` must be a string, got {}",
                        toolresult::json_type(name)
                    ),
                )));
            }
        }
        let definition: ToolDefinition = serde_json::from_value(definition).map_err(|e| {
            Issues::from(Issue::new(
                "",
                IssueCode::InvalidDefinition,
                format!("invalid tool definition: {}", brief_text(&e.to_string())),
            ))
        })?;
        self.register(definition)
    }

    fn compiled_for(
        &mut self,
        schema: Option<&Value>,
        at: &str,
    ) -> Result<Option<Arc<CompiledSchema>>, Issues> {
        let Some(schema) = schema else {
            return Ok(None);
        };
        let key: [u8; 32] = Sha256::digest(serde_json::to_vec(schema).unwrap_or_default()).into();
        if let Some(hit) = self.compiled.get(&key) {
            self.stats.cache_hits += 1;
            return Ok(Some(hit.clone()));
        }
        let compiled = compile(schema, &self.options).map_err(|issues| issues.prefixed(at))?;
        self.stats.compiles += 1;
        let compiled = Arc::new(compiled);
        self.compiled.insert(key, compiled.clone());
        Ok(Some(compiled))
    }

    /// Removes a tool; `false` when it was not registered.
    pub fn unregister(&mut self, name: &str) -> bool {
        let removed = self.tools.remove(name).is_some();
        self.compiled.retain(|_, c| Arc::strong_count(c) > 1);
        removed
    }

    /// The definition registered under `name`.
    pub fn get(&self, name: &str) -> Option<&ToolDefinition> {
        self.tools.get(name).map(|t| &t.definition)
    }

    /// The registered tool names.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    /// How many tools and compiled schemas the registry holds.
    pub fn stats(&self) -> RegistryStats {
        RegistryStats {
            tools: self.tools.len(),
            schemas: self.compiled.len(),
            ..self.stats
        }
    }

    fn tool(&self, name: &str) -> Result<&Tool, Issues> {
        self.tools.get(name).ok_or_else(|| {
            Issues::from(Issue::new(
                "",
                IssueCode::UnknownTool,
                format!("no tool named {} is registered", quote_text(name, '`')),
            ))
        })
    }

    /// The compiled input schema of a registered tool (`None`: no such tool,
    /// or it has none).
    pub fn input_schema(&self, name: &str) -> Option<&CompiledSchema> {
        self.tools.get(name)?.input.as_deref()
    }

    /// The compiled output schema of a registered tool (`None`: no such
    /// tool, or it has none).
    pub fn output_schema(&self, name: &str) -> Option<&CompiledSchema> {
        self.tools.get(name)?.output.as_deref()
    }

    /// Checks a tool's output against its output schema. `None` (no output)
    /// is an issue when the tool has an output schema.
    pub fn validate_output(
        &self,
        name: &str,
        output: Option<&Value>,
    ) -> Result<ValidationReport, Issues> {
        self.validate_output_tape(name, output.map(Tape::from_value).as_ref())
    }

    /// [`ToolRegistry::validate_output`] for an output parsed onto a tape.
    pub fn validate_output_tape(
        &self,
        name: &str,
        output: Option<&Tape>,
    ) -> Result<ValidationReport, Issues> {
        let tool = self.tool(name)?;
        Ok(ValidationReport::of(match (&tool.output, output) {
            (None, _) => Vec::new(),
            (Some(_), None) => vec![missing_output(name)],
            (Some(schema), Some(output)) => schema.validate_tape(output),
        }))
    }

    /// Checks a call's parameters against the tool's input schema.
    pub fn validate_input(
        &self,
        name: &str,
        parameters: &Value,
    ) -> Result<ValidationReport, Issues> {
        self.validate_input_tape(name, &Tape::from_value(parameters))
    }

    /// [`ToolRegistry::validate_input`] for parameters parsed onto a tape.
    pub fn validate_input_tape(
        &self,
        name: &str,
        parameters: &Tape,
    ) -> Result<ValidationReport, Issues> {
        let tool = self.tool(name)?;
        Ok(ValidationReport::of(match &tool.input {
            None => Vec::new(),
            Some(schema) => schema.validate_tape(parameters),
        }))
    }

    /// Checks the `data` of a `custom` tool_metadata against the tool's
    /// `metadata_schema` (none: always ok).
    pub fn validate_metadata(&self, name: &str, data: &Value) -> Result<ValidationReport, Issues> {
        let tool = self.tool(name)?;
        Ok(ValidationReport::of(match &tool.metadata {
            None => Vec::new(),
            Some(schema) => schema.validate_tape(&Tape::from_value(data)),
        }))
    }

    /// The result flow (docs/spec.md): a successful result whose output fails the
    /// tool's output schema becomes `output_validation_failed` with
    /// `error_code` OUTPUT_VALIDATION_FAILED, an error message and the issues in
    /// `validation_issues`; the output is kept as it was. Results that did not
    /// succeed are returned unchanged (as MCP skips `isError` results), as are
    /// results of tools without an output schema.
    pub fn check_result(&self, result: ToolResult) -> Result<ToolResult, Issues> {
        if result.status != ToolStatus::Success {
            return Ok(result);
        }
        let value = serde_json::to_value(&result).map_err(|e| internal(&e))?;
        let checked = self.check_result_value(value)?;
        serde_json::from_value(checked).map_err(|e| internal(&e))
    }

    /// [`ToolRegistry::check_result`] on a ToolResult that passed validation,
    /// as a JSON value: the same checks and the same changes (the one
    /// implementation), without the typed form, which the wasm layer does
    /// not need and whose deserializers would weigh on the engine's module
    /// (docs/internals/modules.md §1).
    pub fn check_result_value(&self, mut result: Value) -> Result<Value, Issues> {
        let success = ToolStatus::Success.as_str();
        if result.get("status").and_then(Value::as_str) != Some(success) {
            return Ok(result);
        }
        let name = result
            .pointer("/input/tool_name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let output = result.get("output").filter(|o| !o.is_null());
        let mut issues = self.validate_output(&name, output)?.issues;
        let metadata = result.get("tool_metadata");
        if metadata
            .and_then(|m| m.get("tool_type"))
            .and_then(Value::as_str)
            == Some("custom")
        {
            let data = metadata.and_then(|m| m.get("data")).unwrap_or(&Value::Null);
            // Paths into the metadata say so; output paths stay as they are.
            issues.extend(
                self.validate_metadata(&name, data)?
                    .issues
                    .into_iter()
                    .map(|mut i| {
                        i.path = format!("/tool_metadata/data{}", i.path);
                        i
                    }),
            );
        }
        if issues.is_empty() {
            return Ok(result);
        }
        let message = failure_message(&issues);
        let issues = serde_json::to_value(&issues).map_err(|e| internal(&e))?;
        if let Some(members) = result.as_object_mut() {
            members.insert(
                "status".into(),
                ToolStatus::OutputValidationFailed.as_str().into(),
            );
            members.insert("error_code".into(), OUTPUT_VALIDATION_FAILED.into());
            members.insert("error_message".into(), message.into());
            members.insert("validation_issues".into(), issues);
        }
        Ok(result)
    }
}

/// A conversion between the typed and the JSON form failed: never for a
/// validated result, reported rather than panicked if it ever did.
fn internal(e: &serde_json::Error) -> Issues {
    Issues::from(Issue::new(
        "",
        IssueCode::InternalError,
        format!("internal: a validated result did not convert: {e}"),
    ))
}

fn missing_output(name: &str) -> SchemaIssue {
    SchemaIssue {
        path: String::new(),
        schema_path: String::new(),
        keyword: String::new(),
        code: "missing_output".into(),
        message: format!(
            "tool {} has an output schema but the result has no output",
            quote_text(name, '`')
        ),
    }
}

/// "Output validation failed: /a: ...; /b: ... (and 3 more)".
fn failure_message(issues: &[SchemaIssue]) -> String {
    const SHOWN: usize = 3;
    let mut message = String::from("Output validation failed: ");
    for (i, issue) in issues.iter().take(SHOWN).enumerate() {
        if i > 0 {
            message.push_str("; ");
        }
        let path = if issue.path.is_empty() {
            "(root)"
        } else {
            &issue.path
        };
        message.push_str(&format!("{}: {}", brief_text(path), issue.message));
    }
    if issues.len() > SHOWN {
        message.push_str(&format!(" (and {} more)", issues.len() - SHOWN));
    }
    message
}
