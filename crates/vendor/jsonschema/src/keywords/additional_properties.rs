//! # Description
//! This module contains various validators for the `additionalProperties` keyword.
//!
//! The goal here is to compute intersections with another keywords affecting properties validation:
//!   - `properties`
//!   - `patternProperties`
//!
//! Each valid combination of these keywords has a validator here.
#[cfg(feature = "regex-engine")] // PATCH 4
use crate::properties::compile_regex_patterns;
use crate::{
    compiler,
    error::ValidationError,
    evaluation::{Annotations, ChildList, ErrorDescription, EvaluationNode},
    keywords::CompilationResult,
    node::SchemaNode,
    options::PatternEngineOptions,
    paths::{LazyLocation, Location, RefTracker},
    properties::{
        are_properties_valid, compile_dynamic_prop_map_validator, compile_fancy_regex_patterns,
        compile_map, CompiledPattern, PropertiesMap, PropertiesValidatorsMap,
        PropertyPattern, // PATCH 7
    },
    regex::RegexEngine,
    types::JsonType,
    unfinished_matches::MatchSite,
    validator::{EvaluationResult, Validate, ValidationContext},
    Json, LazyInstance, Node, Object, SerdeJson,
};
use ahash::AHashMap;
use referencing::{Uri, Vocabulary};
use serde_json::{Map, Value};
use std::{borrow::Cow, sync::Arc};

/// # Schema example
///
/// ```json
/// {
///     "additionalProperties": {"type": "integer"},
/// }
/// ```
///
/// # Valid value
///
/// ```json
/// {
///     "bar": 6
/// }
/// ```
pub(crate) struct AdditionalPropertiesValidator<F: Json = SerdeJson> {
    node: SchemaNode<F>,
}
impl AdditionalPropertiesValidator {
    #[inline]
    pub(crate) fn compile<'a, F: Json>(
        schema: &'a Value,
        ctx: &compiler::Context<F>,
    ) -> CompilationResult<'a, F> {
        let ctx = ctx.new_at_location("additionalProperties");
        Ok(Box::new(AdditionalPropertiesValidator {
            node: compiler::compile(&ctx, ctx.as_resource_ref(schema))?,
        }))
    }
}
impl<F: Json> Validate<F> for AdditionalPropertiesValidator<F> {
    fn is_valid(&self, instance: &F::Node<'_>, ctx: &mut ValidationContext) -> bool {
        if let Some(object) = instance.as_object() {
            let mut values = object.members();
            if let Some(validator) = self.node.single_validator() {
                values.all(|(_, value)| validator.is_valid(&value, ctx))
            } else {
                values.all(|(_, value)| self.node.is_valid(&value, ctx))
            }
        } else {
            true
        }
    }

    fn validate<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> Result<(), ValidationError<'i>> {
        if let Some(object) = instance.as_object() {
            for (name, value) in object.members() {
                self.node
                    .validate(&value, &location.push(name.as_ref()), tracker, ctx)?;
            }
        }
        Ok(())
    }

    fn collect_errors<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
        errors: &mut Vec<ValidationError<'i>>,
    ) {
        let Some(object) = instance.as_object() else {
            return;
        };
        for (name, value) in object.members() {
            self.node
                .collect_errors(&value, &location.push(name.as_ref()), tracker, ctx, errors);
        }
    }

    #[cfg(feature = "evaluate")] // PATCH 6
    fn evaluate(
        &self,
        instance: &F::Node<'_>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> EvaluationResult {
        if let Some(object) = instance.as_object() {
            let mut children = ChildList::default();
            for (name, value) in object.members() {
                let child = self.node.evaluate_instance_below(
                    &value,
                    &location.push(name.as_ref()),
                    tracker,
                    ctx,
                );
                children.push(&mut ctx.arena, child);
            }
            let mut result = EvaluationResult::from_children(children);
            let annotated_props = object
                .members()
                .map(|(name, _)| serde_json::Value::String(name.as_ref().to_owned()))
                .collect();
            result.annotate(Annotations::new(serde_json::Value::Array(annotated_props)));
            result
        } else {
            EvaluationResult::valid_empty()
        }
    }
}

/// # Schema example
///
/// ```json
/// {
///     "additionalProperties": false
/// }
/// ```
///
/// # Valid value
///
/// ```json
/// {}
/// ```
pub(crate) struct AdditionalPropertiesFalseValidator {
    location: Location,
}
impl AdditionalPropertiesFalseValidator {
    #[inline]
    pub(crate) fn compile<'a, F: Json>(location: Location) -> CompilationResult<'a, F> {
        Ok(Box::new(AdditionalPropertiesFalseValidator { location }))
    }
}
impl<F: Json> Validate<F> for AdditionalPropertiesFalseValidator {
    fn is_valid(&self, instance: &F::Node<'_>, _ctx: &mut ValidationContext) -> bool {
        if let Some(object) = instance.as_object() {
            object.members().next().is_none()
        } else {
            true
        }
    }

    fn validate<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        _ctx: &mut ValidationContext,
    ) -> Result<(), ValidationError<'i>> {
        if let Some(object) = instance.as_object() {
            if let Some((_, value)) = object.members().next() {
                return Err(ValidationError::false_schema(
                    self.location.clone(),
                    crate::paths::capture_evaluation_path(tracker, &self.location),
                    location.into(),
                    value.lazy_value(),
                ));
            }
        }
        Ok(())
    }
}

/// # Schema example
///
/// ```json
/// {
///     "additionalProperties": false,
///     "properties": {
///         "foo": {"type": "string"}
///     },
/// }
/// ```
///
/// # Valid value
///
/// ```json
/// {
///     "foo": "bar",
/// }
/// ```
pub(crate) struct AdditionalPropertiesNotEmptyFalseValidator<M> {
    properties: M,
    location: Location,
}
// PATCH 7: one `compile` for `PropertiesMap` instead of one per map type.
impl<F: Json> AdditionalPropertiesNotEmptyFalseValidator<PropertiesMap<F>> {
    #[inline]
    pub(crate) fn compile<'a>(
        map: &'a Map<String, Value>,
        ctx: &compiler::Context<F>,
    ) -> CompilationResult<'a, F> {
        Ok(Box::new(AdditionalPropertiesNotEmptyFalseValidator {
            properties: compile_map(ctx, map)?,
            location: ctx.location().join("additionalProperties"),
        }))
    }
}
impl<F: Json, M: PropertiesValidatorsMap<F>> Validate<F>
    for AdditionalPropertiesNotEmptyFalseValidator<M>
{
    fn is_valid(&self, instance: &F::Node<'_>, ctx: &mut ValidationContext) -> bool {
        if let Some(object) = instance.as_object() {
            are_properties_valid(&self.properties, &object, ctx, |_, _| false)
        } else {
            true
        }
    }

    fn validate<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> Result<(), ValidationError<'i>> {
        if let Some(object) = instance.as_object() {
            for (property, value) in object.members() {
                if let Some((name, node)) = self.properties.get_key_validator(property.as_ref()) {
                    node.validate(&value, &location.push(name), tracker, ctx)?;
                } else {
                    return Err(ValidationError::additional_properties(
                        self.location.clone(),
                        crate::paths::capture_evaluation_path(tracker, &self.location),
                        location.into(),
                        instance.lazy_value(),
                        vec![property.as_ref().to_owned()],
                    ));
                }
            }
        }
        Ok(())
    }

    fn collect_errors<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
        errors: &mut Vec<ValidationError<'i>>,
    ) {
        let Some(object) = instance.as_object() else {
            return;
        };
        let mut unexpected = vec![];
        for (property, value) in object.members() {
            if let Some((name, node)) = self.properties.get_key_validator(property.as_ref()) {
                node.collect_errors(&value, &location.push(name), tracker, ctx, errors);
            } else {
                unexpected.push(property.as_ref().to_owned());
            }
        }
        if !unexpected.is_empty() {
            errors.push(ValidationError::additional_properties(
                self.location.clone(),
                crate::paths::capture_evaluation_path(tracker, &self.location),
                location.into(),
                instance.lazy_value(),
                unexpected,
            ));
        }
    }

    #[cfg(feature = "evaluate")] // PATCH 6
    fn evaluate(
        &self,
        instance: &F::Node<'_>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> EvaluationResult {
        if let Some(object) = instance.as_object() {
            let mut unexpected = Vec::with_capacity(object.len());
            let mut children = ChildList::default();
            for (property, value) in object.members() {
                if let Some((_name, node)) = self.properties.get_key_validator(property.as_ref()) {
                    let child = node.evaluate_instance_below(
                        &value,
                        &location.push(property.as_ref()),
                        tracker,
                        ctx,
                    );
                    children.push(&mut ctx.arena, child);
                } else {
                    unexpected.push(property.as_ref().to_owned());
                }
            }
            let mut result = EvaluationResult::from_children(children);
            if !unexpected.is_empty() {
                let eval_path = crate::paths::capture_evaluation_path(tracker, &self.location);
                result.mark_errored(ErrorDescription::from_validation_error(
                    &ValidationError::additional_properties(
                        self.location.clone(),
                        eval_path,
                        location.into(),
                        instance.lazy_value(),
                        unexpected,
                    ),
                ));
            }
            result
        } else {
            EvaluationResult::valid_empty()
        }
    }
}

// Container members `is_valid` holds back; past this many they are validated as they come.
const DEFERRED_MEMBERS: usize = 4;

/// Fused validator for properties + additionalProperties: false + required
/// Eliminates separate required validation pass by tracking the required property during iteration.
pub(crate) struct AdditionalPropertiesNotEmptyFalseWithRequired1Validator<M> {
    properties: M,
    required: String,
    location: Location,
    required_location: Location,
    required_absolute_location: Option<Arc<Uri<String>>>,
}
impl<M> AdditionalPropertiesNotEmptyFalseWithRequired1Validator<M> {
    fn new<F: Json>(properties: M, ctx: &compiler::Context<F>, required: String) -> Self {
        let required_location = ctx.location().join("required");
        AdditionalPropertiesNotEmptyFalseWithRequired1Validator {
            properties,
            required,
            location: ctx.location().join("additionalProperties"),
            required_absolute_location: ctx.absolute_location(&required_location),
            required_location,
        }
    }

    #[cold]
    #[inline(never)]
    fn missing_required<'i, F: Json>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
    ) -> ValidationError<'i> {
        ValidationError::required(
            self.required_location.clone(),
            crate::paths::capture_evaluation_path(tracker, &self.required_location),
            location.into(),
            instance.lazy_value(),
            Value::String(self.required.clone()),
        )
        .with_absolute_keyword_location(self.required_absolute_location.clone())
    }
}
// PATCH 7: one `compile` for `PropertiesMap` instead of one per map type.
impl<F: Json> AdditionalPropertiesNotEmptyFalseWithRequired1Validator<PropertiesMap<F>> {
    #[inline]
    pub(crate) fn compile<'a>(
        map: &'a Map<String, Value>,
        ctx: &compiler::Context<F>,
        required: String,
    ) -> CompilationResult<'a, F> {
        Ok(Box::new(
            AdditionalPropertiesNotEmptyFalseWithRequired1Validator::new(
                compile_map(ctx, map)?,
                ctx,
                required,
            ),
        ))
    }
}
impl<F: Json, M: PropertiesValidatorsMap<F>> Validate<F>
    for AdditionalPropertiesNotEmptyFalseWithRequired1Validator<M>
{
    fn is_valid(&self, instance: &F::Node<'_>, ctx: &mut ValidationContext) -> bool {
        if let Some(object) = instance.as_object() {
            // Scalars are checked as they come; containers wait until every member is known to be
            // declared. An undeclared member then rejects before any deep validation, and a cheap
            // discriminator (a `const` scalar) rejects early, whatever order members arrive in.
            let mut deferred: [Option<(&SchemaNode<F>, F::Node<'_>)>; DEFERRED_MEMBERS] =
                [const { None }; DEFERRED_MEMBERS];
            let mut count = 0;
            let mut found_required = false;
            for (property, value) in object.members() {
                let Some(node) = self.properties.get_validator(property.as_ref()) else {
                    return false;
                };
                found_required |= property.as_ref() == self.required.as_str();
                if count < DEFERRED_MEMBERS
                    && matches!(value.json_type(), JsonType::Array | JsonType::Object)
                {
                    deferred[count] = Some((node, value));
                    count += 1;
                } else if !node.is_valid(&value, ctx) {
                    return false;
                }
            }
            found_required
                && deferred[..count]
                    .iter()
                    .flatten()
                    .all(|(node, value)| node.is_valid(value, ctx))
        } else {
            true
        }
    }

    fn validate<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> Result<(), ValidationError<'i>> {
        if let Some(object) = instance.as_object() {
            let mut found_required = false;
            for (property, value) in object.members() {
                if let Some((name, node)) = self.properties.get_key_validator(property.as_ref()) {
                    node.validate(&value, &location.push(name), tracker, ctx)?;
                    if property.as_ref() == self.required.as_str() {
                        found_required = true;
                    }
                } else {
                    return Err(ValidationError::additional_properties(
                        self.location.clone(),
                        crate::paths::capture_evaluation_path(tracker, &self.location),
                        location.into(),
                        instance.lazy_value(),
                        vec![property.as_ref().to_owned()],
                    ));
                }
            }
            if !found_required {
                return Err(self.missing_required::<F>(instance, location, tracker));
            }
        }
        Ok(())
    }

    fn collect_errors<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
        errors: &mut Vec<ValidationError<'i>>,
    ) {
        let Some(object) = instance.as_object() else {
            return;
        };
        let mut unexpected = vec![];
        let mut found_required = false;
        for (property, value) in object.members() {
            if let Some((name, node)) = self.properties.get_key_validator(property.as_ref()) {
                node.collect_errors(&value, &location.push(name), tracker, ctx, errors);
                if property.as_ref() == self.required.as_str() {
                    found_required = true;
                }
            } else {
                unexpected.push(property.as_ref().to_owned());
            }
        }
        if !unexpected.is_empty() {
            errors.push(ValidationError::additional_properties(
                self.location.clone(),
                crate::paths::capture_evaluation_path(tracker, &self.location),
                location.into(),
                instance.lazy_value(),
                unexpected,
            ));
        }
        if !found_required {
            errors.push(self.missing_required::<F>(instance, location, tracker));
        }
    }

    #[cfg(feature = "evaluate")] // PATCH 6
    fn evaluate(
        &self,
        instance: &F::Node<'_>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> EvaluationResult {
        if let Some(object) = instance.as_object() {
            let mut unexpected = Vec::with_capacity(object.len());
            let mut children = ChildList::default();
            let mut found_required = false;
            for (property, value) in object.members() {
                if let Some((_name, node)) = self.properties.get_key_validator(property.as_ref()) {
                    let child = node.evaluate_instance_below(
                        &value,
                        &location.push(property.as_ref()),
                        tracker,
                        ctx,
                    );
                    children.push(&mut ctx.arena, child);
                    if property.as_ref() == self.required.as_str() {
                        found_required = true;
                    }
                } else {
                    unexpected.push(property.as_ref().to_owned());
                }
            }
            let mut result = EvaluationResult::from_children(children);
            if !unexpected.is_empty() {
                let eval_path = crate::paths::capture_evaluation_path(tracker, &self.location);
                result.mark_errored(ErrorDescription::from_validation_error(
                    &ValidationError::additional_properties(
                        self.location.clone(),
                        eval_path,
                        location.into(),
                        instance.lazy_value(),
                        unexpected,
                    ),
                ));
            }
            if !found_required {
                let eval_path =
                    crate::paths::capture_evaluation_path(tracker, &self.required_location);
                result.mark_errored(ErrorDescription::from_validation_error(
                    &ValidationError::required(
                        self.required_location.clone(),
                        eval_path,
                        location.into(),
                        instance.lazy_value(),
                        Value::String(self.required.clone()),
                    ),
                ));
            }
            result
        } else {
            EvaluationResult::valid_empty()
        }
    }
}

/// # Schema example
///
/// ```json
/// {
///     "additionalProperties": {"type": "integer"},
///     "properties": {
///         "foo": {"type": "string"}
///     }
/// }
/// ```
///
/// # Valid value
///
/// ```json
/// {
///     "foo": "bar",
///     "bar": 6
/// }
/// ```
pub(crate) struct AdditionalPropertiesNotEmptyValidator<M, F: Json = SerdeJson> {
    node: SchemaNode<F>,
    properties: M,
}
// PATCH 7: one `compile` for `PropertiesMap` instead of one per map type.
impl<F: Json> AdditionalPropertiesNotEmptyValidator<PropertiesMap<F>> {
    #[inline]
    pub(crate) fn compile<'a>(
        map: &'a Map<String, Value>,
        ctx: &compiler::Context<F>,
        schema: &'a Value,
    ) -> CompilationResult<'a, F> {
        let kctx = ctx.new_at_location("additionalProperties");
        Ok(Box::new(AdditionalPropertiesNotEmptyValidator {
            properties: compile_map(ctx, map)?,
            node: compiler::compile(&kctx, kctx.as_resource_ref(schema))?,
        }))
    }
}
impl<F: Json, M: PropertiesValidatorsMap<F>> Validate<F>
    for AdditionalPropertiesNotEmptyValidator<M, F>
{
    fn is_valid(&self, instance: &F::Node<'_>, ctx: &mut ValidationContext) -> bool {
        if let Some(object) = instance.as_object() {
            if let Some(validator) = self.node.single_validator() {
                are_properties_valid(&self.properties, &object, ctx, |instance, ctx| {
                    validator.is_valid(instance, ctx)
                })
            } else {
                are_properties_valid(&self.properties, &object, ctx, |instance, ctx| {
                    self.node.is_valid(instance, ctx)
                })
            }
        } else {
            true
        }
    }

    fn validate<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> Result<(), ValidationError<'i>> {
        if let Some(object) = instance.as_object() {
            for (property, value) in object.members() {
                let property_location = location.push(property.as_ref());
                if let Some(validator) = self.properties.get_validator(property.as_ref()) {
                    validator.validate(&value, &property_location, tracker, ctx)?;
                } else {
                    self.node
                        .validate(&value, &property_location, tracker, ctx)?;
                }
            }
        }
        Ok(())
    }

    fn collect_errors<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
        errors: &mut Vec<ValidationError<'i>>,
    ) {
        let Some(object) = instance.as_object() else {
            return;
        };
        for (property, value) in object.members() {
            if let Some((name, property_validators)) =
                self.properties.get_key_validator(property.as_ref())
            {
                property_validators.collect_errors(
                    &value,
                    &location.push(name),
                    tracker,
                    ctx,
                    errors,
                );
            } else {
                self.node.collect_errors(
                    &value,
                    &location.push(property.as_ref()),
                    tracker,
                    ctx,
                    errors,
                );
            }
        }
    }

    #[cfg(feature = "evaluate")] // PATCH 6
    fn evaluate(
        &self,
        instance: &F::Node<'_>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> EvaluationResult {
        if let Some(object) = instance.as_object() {
            let mut matched_propnames = Vec::with_capacity(object.len());
            let mut children = ChildList::default();
            for (property, value) in object.members() {
                let path = location.push(property.as_ref());
                if let Some((_name, property_validators)) =
                    self.properties.get_key_validator(property.as_ref())
                {
                    let child =
                        property_validators.evaluate_instance_below(&value, &path, tracker, ctx);
                    children.push(&mut ctx.arena, child);
                } else {
                    let child = self
                        .node
                        .evaluate_instance_below(&value, &path, tracker, ctx);
                    children.push(&mut ctx.arena, child);
                    matched_propnames.push(property.as_ref().to_owned());
                }
            }
            let mut result = EvaluationResult::from_children(children);
            if !matched_propnames.is_empty() {
                result.annotate(Annotations::new(Value::from(matched_propnames)));
            }
            result
        } else {
            EvaluationResult::valid_empty()
        }
    }
}

/// # Schema example
///
/// ```json
/// {
///     "additionalProperties": {"type": "integer"},
///     "patternProperties": {
///         "^x-": {"type": "integer", "minimum": 5},
///         "-x$": {"type": "integer", "maximum": 10}
///     }
/// }
/// ```
///
/// # Valid value
///
/// ```json
/// {
///     "x-foo": 6,
///     "foo-x": 7,
///     "bar": 8
/// }
/// ```
pub(crate) struct AdditionalPropertiesWithPatternsValidator<R, F: Json = SerdeJson> {
    node: SchemaNode<F>,
    patterns: Vec<(R, SchemaNode<F>)>,
    /// We need this because `compiler::compile` uses the additionalProperties keyword to compile
    /// this validator. That means that the schema node which contains this validator has
    /// "additionalProperties" as it's path. However, we need to produce annotations which have the
    /// patternProperties keyword as their path so we store the paths here.
    pattern_keyword_path: Location,
    pattern_keyword_absolute_location: Option<Arc<Uri<String>>>,
}

impl<F: Json, R: PropertyPattern> Validate<F> for AdditionalPropertiesWithPatternsValidator<R, F> {
    fn is_valid(&self, instance: &F::Node<'_>, ctx: &mut ValidationContext) -> bool {
        if let Some(object) = instance.as_object() {
            for (property, value) in object.members() {
                let mut has_match = false;
                for (re, node) in &self.patterns {
                    if re.is_match_in(property.as_ref(), ctx, || {
                        MatchSite::schema(node.location())
                    }) {
                        has_match = true;
                        if !node.is_valid(&value, ctx) {
                            return false;
                        }
                    }
                }
                if !has_match && !self.node.is_valid(&value, ctx) {
                    return false;
                }
            }
        }
        true
    }

    fn validate<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> Result<(), ValidationError<'i>> {
        if let Some(object) = instance.as_object() {
            for (property, value) in object.members() {
                let property_location = location.push(property.as_ref());
                let mut has_match = false;
                for (re, node) in &self.patterns {
                    if re.is_match_in(property.as_ref(), ctx, || {
                        MatchSite::located(node.location(), tracker, location)
                    }) {
                        has_match = true;
                        node.validate(&value, &property_location, tracker, ctx)?;
                    }
                }
                if !has_match {
                    self.node
                        .validate(&value, &property_location, tracker, ctx)?;
                }
            }
        }
        Ok(())
    }

    fn collect_errors<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
        errors: &mut Vec<ValidationError<'i>>,
    ) {
        let Some(object) = instance.as_object() else {
            return;
        };
        for (property, value) in object.members() {
            let mut has_match = false;
            for (re, node) in &self.patterns {
                if re.is_match_in(property.as_ref(), ctx, || {
                    MatchSite::located(node.location(), tracker, location)
                }) {
                    has_match = true;
                    node.collect_errors(
                        &value,
                        &location.push(property.as_ref()),
                        tracker,
                        ctx,
                        errors,
                    );
                }
            }
            if !has_match {
                self.node.collect_errors(
                    &value,
                    &location.push(property.as_ref()),
                    tracker,
                    ctx,
                    errors,
                );
            }
        }
    }

    #[cfg(feature = "evaluate")] // PATCH 6
    fn evaluate(
        &self,
        instance: &F::Node<'_>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> EvaluationResult {
        if let Some(object) = instance.as_object() {
            let mut pattern_matched_propnames = Vec::with_capacity(object.len());
            let mut additional_matched_propnames = Vec::with_capacity(object.len());
            let mut children = ChildList::default();
            for (property, value) in object.members() {
                let path = location.push(property.as_ref());
                let mut has_match = false;
                for (pattern, node) in &self.patterns {
                    if pattern.is_match_in(property.as_ref(), ctx, || {
                        MatchSite::located(node.location(), tracker, location)
                    }) {
                        has_match = true;
                        pattern_matched_propnames.push(property.as_ref().to_owned());
                        let child = node.evaluate_instance_below(&value, &path, tracker, ctx);
                        children.push(&mut ctx.arena, child);
                    }
                }
                if !has_match {
                    additional_matched_propnames.push(property.as_ref().to_owned());
                    let child = self
                        .node
                        .evaluate_instance_below(&value, &path, tracker, ctx);
                    children.push(&mut ctx.arena, child);
                }
            }
            if !pattern_matched_propnames.is_empty() {
                let annotation = Annotations::new(Value::from(pattern_matched_propnames));
                let schema_location = crate::evaluation::format_keyword_location(
                    &self.pattern_keyword_path,
                    self.pattern_keyword_absolute_location.as_ref(),
                );
                let child = EvaluationNode::valid(
                    self.pattern_keyword_path.clone(),
                    self.pattern_keyword_absolute_location.clone(),
                    schema_location,
                    location.into(),
                    Some(annotation),
                    ChildList::default(),
                );
                children.push(&mut ctx.arena, child);
            }
            let mut result = EvaluationResult::from_children(children);
            if !additional_matched_propnames.is_empty() {
                result.annotate(Annotations::new(Value::from(additional_matched_propnames)));
            }
            result
        } else {
            EvaluationResult::valid_empty()
        }
    }
}

/// # Schema example
///
/// ```json
/// {
///     "additionalProperties": false,
///     "patternProperties": {
///         "^x-": {"type": "integer", "minimum": 5},
///         "-x$": {"type": "integer", "maximum": 10}
///     }
/// }
/// ```
///
/// # Valid value
///
/// ```json
/// {
///     "x-bar": 6,
///     "spam-x": 7,
///     "x-baz-x": 8,
/// }
/// ```
pub(crate) struct AdditionalPropertiesWithPatternsFalseValidator<R, F: Json = SerdeJson> {
    patterns: Vec<(R, SchemaNode<F>)>,
    location: Location,
    pattern_keyword_path: Location,
    pattern_keyword_absolute_location: Option<Arc<Uri<String>>>,
}

impl<F: Json, R: PropertyPattern> Validate<F>
    for AdditionalPropertiesWithPatternsFalseValidator<R, F>
{
    fn is_valid(&self, instance: &F::Node<'_>, ctx: &mut ValidationContext) -> bool {
        if let Some(object) = instance.as_object() {
            for (property, value) in object.members() {
                let mut has_match = false;
                for (re, node) in &self.patterns {
                    if re.is_match_in(property.as_ref(), ctx, || {
                        MatchSite::schema(node.location())
                    }) {
                        has_match = true;
                        if !node.is_valid(&value, ctx) {
                            return false;
                        }
                    }
                }
                if !has_match {
                    return false;
                }
            }
        }
        true
    }

    fn validate<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> Result<(), ValidationError<'i>> {
        if let Some(object) = instance.as_object() {
            for (property, value) in object.members() {
                let property_location = location.push(property.as_ref());
                let mut has_match = false;
                for (re, node) in &self.patterns {
                    if re.is_match_in(property.as_ref(), ctx, || {
                        MatchSite::located(node.location(), tracker, location)
                    }) {
                        has_match = true;
                        node.validate(&value, &property_location, tracker, ctx)?;
                    }
                }
                if !has_match {
                    return Err(ValidationError::additional_properties(
                        self.location.clone(),
                        crate::paths::capture_evaluation_path(tracker, &self.location),
                        location.into(),
                        instance.lazy_value(),
                        vec![property.as_ref().to_owned()],
                    ));
                }
            }
        }
        Ok(())
    }

    fn collect_errors<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
        errors: &mut Vec<ValidationError<'i>>,
    ) {
        let Some(object) = instance.as_object() else {
            return;
        };
        let mut unexpected = vec![];
        for (property, value) in object.members() {
            let mut has_match = false;
            for (re, node) in &self.patterns {
                if re.is_match_in(property.as_ref(), ctx, || {
                    MatchSite::located(node.location(), tracker, location)
                }) {
                    has_match = true;
                    node.collect_errors(
                        &value,
                        &location.push(property.as_ref()),
                        tracker,
                        ctx,
                        errors,
                    );
                }
            }
            if !has_match {
                unexpected.push(property.as_ref().to_owned());
            }
        }
        if !unexpected.is_empty() {
            errors.push(ValidationError::additional_properties(
                self.location.clone(),
                crate::paths::capture_evaluation_path(tracker, &self.location),
                location.into(),
                instance.lazy_value(),
                unexpected,
            ));
        }
    }

    #[cfg(feature = "evaluate")] // PATCH 6
    fn evaluate(
        &self,
        instance: &F::Node<'_>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> EvaluationResult {
        if let Some(object) = instance.as_object() {
            let mut unexpected = Vec::with_capacity(object.len());
            let mut pattern_matched_props = Vec::with_capacity(object.len());
            let mut children = ChildList::default();
            for (property, value) in object.members() {
                let path = location.push(property.as_ref());
                let mut has_match = false;
                for (pattern, node) in &self.patterns {
                    if pattern.is_match_in(property.as_ref(), ctx, || {
                        MatchSite::located(node.location(), tracker, location)
                    }) {
                        has_match = true;
                        pattern_matched_props.push(property.as_ref().to_owned());
                        let child = node.evaluate_instance_below(&value, &path, tracker, ctx);
                        children.push(&mut ctx.arena, child);
                    }
                }
                if !has_match {
                    unexpected.push(property.as_ref().to_owned());
                }
            }
            if !pattern_matched_props.is_empty() {
                let annotation = Annotations::new(Value::from(pattern_matched_props));
                let schema_location = crate::evaluation::format_keyword_location(
                    &self.pattern_keyword_path,
                    self.pattern_keyword_absolute_location.as_ref(),
                );
                let child = EvaluationNode::valid(
                    self.pattern_keyword_path.clone(),
                    self.pattern_keyword_absolute_location.clone(),
                    schema_location,
                    location.into(),
                    Some(annotation),
                    ChildList::default(),
                );
                children.push(&mut ctx.arena, child);
            }
            let mut result = EvaluationResult::from_children(children);
            if !unexpected.is_empty() {
                let eval_path = crate::paths::capture_evaluation_path(tracker, &self.location);
                result.mark_errored(ErrorDescription::from_validation_error(
                    &ValidationError::additional_properties(
                        self.location.clone(),
                        eval_path,
                        location.into(),
                        instance.lazy_value(),
                        unexpected,
                    ),
                ));
            }
            result
        } else {
            EvaluationResult::valid_empty()
        }
    }
}

/// # Schema example
///
/// ```json
/// {
///     "additionalProperties": {"type": "integer"},
///     "properties": {
///         "foo": {"type": "string"}
///     },
///     "patternProperties": {
///         "^x-": {"type": "integer", "minimum": 5},
///         "-x$": {"type": "integer", "maximum": 10}
///     }
/// }
/// ```
///
/// # Valid value
///
/// ```json
/// {
///     "foo": "a",
///     "x-spam": 6,
///     "spam-x": 7,
///     "x-spam-x": 8,
///     "bar": 42
/// }
/// ```
pub(crate) struct AdditionalPropertiesWithPatternsNotEmptyValidator<M, R, F: Json = SerdeJson> {
    node: SchemaNode<F>,
    properties: M,
    patterns: Vec<(R, SchemaNode<F>)>,
    /// Pre-computed pattern indices for properties defined in `properties`.
    /// Maps property name -> indices into `patterns` Vec for patterns that match.
    /// Eliminates regex matching at validation time for known properties.
    property_pattern_indices: AHashMap<String, Box<[PatternIndex]>>,
}

impl<F: Json, M: PropertiesValidatorsMap<F>, R: PropertyPattern> Validate<F>
    for AdditionalPropertiesWithPatternsNotEmptyValidator<M, R, F>
{
    fn is_valid(&self, instance: &F::Node<'_>, ctx: &mut ValidationContext) -> bool {
        if let Some(object) = instance.as_object() {
            for (property, value) in object.members() {
                if let Some(node) = self.properties.get_validator(property.as_ref()) {
                    if !node.is_valid(&value, ctx) {
                        return false;
                    }
                    // Use pre-computed pattern indices - no regex at runtime
                    if let Some(pattern_indices) =
                        self.property_pattern_indices.get(property.as_ref())
                    {
                        for &PatternIndex {
                            index: idx,
                            finished,
                        } in pattern_indices
                        {
                            if !finished
                                && !self.patterns[idx]
                                    .0
                                    .is_match_in(property.as_ref(), ctx, || {
                                        MatchSite::schema(self.patterns[idx].1.location())
                                    })
                            {
                                continue;
                            }
                            if !self.patterns[idx].1.is_valid(&value, ctx) {
                                return false;
                            }
                        }
                    }
                } else {
                    // Unknown property - need runtime regex matching
                    let mut has_match = false;
                    for (re, node) in &self.patterns {
                        if re.is_match_in(property.as_ref(), ctx, || {
                            MatchSite::schema(node.location())
                        }) {
                            has_match = true;
                            if !node.is_valid(&value, ctx) {
                                return false;
                            }
                        }
                    }
                    if !has_match && !self.node.is_valid(&value, ctx) {
                        return false;
                    }
                }
            }
            true
        } else {
            true
        }
    }

    fn validate<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> Result<(), ValidationError<'i>> {
        if let Some(object) = instance.as_object() {
            for (property, value) in object.members() {
                if let Some((name, node)) = self.properties.get_key_validator(property.as_ref()) {
                    let name_location = location.push(name);
                    node.validate(&value, &name_location, tracker, ctx)?;
                    // Use pre-computed pattern indices - no regex at runtime
                    if let Some(pattern_indices) =
                        self.property_pattern_indices.get(property.as_ref())
                    {
                        for &PatternIndex {
                            index: idx,
                            finished,
                        } in pattern_indices
                        {
                            if !finished
                                && !self.patterns[idx]
                                    .0
                                    .is_match_in(property.as_ref(), ctx, || {
                                        MatchSite::located(
                                            self.patterns[idx].1.location(),
                                            tracker,
                                            location,
                                        )
                                    })
                            {
                                continue;
                            }
                            self.patterns[idx]
                                .1
                                .validate(&value, &name_location, tracker, ctx)?;
                        }
                    }
                } else {
                    // Unknown property - need runtime regex matching
                    let property_location = location.push(property.as_ref());
                    let mut has_match = false;
                    for (re, node) in &self.patterns {
                        if re.is_match_in(property.as_ref(), ctx, || {
                            MatchSite::located(node.location(), tracker, location)
                        }) {
                            has_match = true;
                            node.validate(&value, &property_location, tracker, ctx)?;
                        }
                    }
                    if !has_match {
                        self.node
                            .validate(&value, &property_location, tracker, ctx)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn collect_errors<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
        errors: &mut Vec<ValidationError<'i>>,
    ) {
        let Some(object) = instance.as_object() else {
            return;
        };
        for (property, value) in object.members() {
            if let Some((name, node)) = self.properties.get_key_validator(property.as_ref()) {
                let name_location = location.push(name);
                node.collect_errors(&value, &name_location, tracker, ctx, errors);
                // Use pre-computed pattern indices - no regex at runtime
                if let Some(pattern_indices) = self.property_pattern_indices.get(property.as_ref())
                {
                    for &PatternIndex {
                        index: idx,
                        finished,
                    } in pattern_indices
                    {
                        if !finished
                            && !self.patterns[idx]
                                .0
                                .is_match_in(property.as_ref(), ctx, || {
                                    MatchSite::located(
                                        self.patterns[idx].1.location(),
                                        tracker,
                                        location,
                                    )
                                })
                        {
                            continue;
                        }
                        self.patterns[idx].1.collect_errors(
                            &value,
                            &name_location,
                            tracker,
                            ctx,
                            errors,
                        );
                    }
                }
            } else {
                // Unknown property - need runtime regex matching
                let mut has_match = false;
                for (re, node) in &self.patterns {
                    if re.is_match_in(property.as_ref(), ctx, || {
                        MatchSite::located(node.location(), tracker, location)
                    }) {
                        has_match = true;
                        node.collect_errors(
                            &value,
                            &location.push(property.as_ref()),
                            tracker,
                            ctx,
                            errors,
                        );
                    }
                }
                if !has_match {
                    self.node.collect_errors(
                        &value,
                        &location.push(property.as_ref()),
                        tracker,
                        ctx,
                        errors,
                    );
                }
            }
        }
    }

    #[cfg(feature = "evaluate")] // PATCH 6
    fn evaluate(
        &self,
        instance: &F::Node<'_>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> EvaluationResult {
        if let Some(object) = instance.as_object() {
            let mut additional_matches = Vec::with_capacity(object.len());
            let mut children = ChildList::default();
            for (property, value) in object.members() {
                let path = location.push(property.as_ref());
                if let Some((_name, node)) = self.properties.get_key_validator(property.as_ref()) {
                    let child = node.evaluate_instance_below(&value, &path, tracker, ctx);
                    children.push(&mut ctx.arena, child);
                    // Use pre-computed pattern indices - no regex at runtime
                    if let Some(pattern_indices) =
                        self.property_pattern_indices.get(property.as_ref())
                    {
                        for &PatternIndex {
                            index: idx,
                            finished,
                        } in pattern_indices
                        {
                            if !finished
                                && !self.patterns[idx]
                                    .0
                                    .is_match_in(property.as_ref(), ctx, || {
                                        MatchSite::located(
                                            self.patterns[idx].1.location(),
                                            tracker,
                                            location,
                                        )
                                    })
                            {
                                continue;
                            }
                            let child = self.patterns[idx]
                                .1
                                .evaluate_instance_below(&value, &path, tracker, ctx);
                            children.push(&mut ctx.arena, child);
                        }
                    }
                } else {
                    // Unknown property - need runtime regex matching
                    let mut has_match = false;
                    for (pattern, node) in &self.patterns {
                        if pattern.is_match_in(property.as_ref(), ctx, || {
                            MatchSite::located(node.location(), tracker, location)
                        }) {
                            has_match = true;
                            let child = node.evaluate_instance_below(&value, &path, tracker, ctx);
                            children.push(&mut ctx.arena, child);
                        }
                    }
                    if !has_match {
                        additional_matches.push(property.as_ref().to_owned());
                        let child = self
                            .node
                            .evaluate_instance_below(&value, &path, tracker, ctx);
                        children.push(&mut ctx.arena, child);
                    }
                }
            }
            let mut result = EvaluationResult::from_children(children);
            result.annotate(Annotations::new(Value::from(additional_matches)));
            result
        } else {
            EvaluationResult::valid_empty()
        }
    }
}

/// # Schema example
///
/// ```json
/// {
///     "additionalProperties": false,
///     "properties": {
///         "foo": {"type": "string"}
///     },
///     "patternProperties": {
///         "^x-": {"type": "integer", "minimum": 5},
///         "-x$": {"type": "integer", "maximum": 10}
///     }
/// }
/// ```
///
/// # Valid value
///
/// ```json
/// {
///     "foo": "bar",
///     "x-bar": 6,
///     "spam-x": 7,
///     "x-baz-x": 8,
/// }
/// ```
pub(crate) struct AdditionalPropertiesWithPatternsNotEmptyFalseValidator<M, R, F: Json = SerdeJson>
{
    properties: M,
    patterns: Vec<(R, SchemaNode<F>)>,
    /// Pre-computed pattern indices for properties defined in `properties`.
    /// Maps property name -> indices into `patterns` Vec for patterns that match.
    /// Eliminates regex matching at validation time for known properties.
    property_pattern_indices: AHashMap<String, Box<[PatternIndex]>>,
    location: Location,
}

impl<F: Json, M: PropertiesValidatorsMap<F>, R: PropertyPattern> Validate<F>
    for AdditionalPropertiesWithPatternsNotEmptyFalseValidator<M, R, F>
{
    fn is_valid(&self, instance: &F::Node<'_>, ctx: &mut ValidationContext) -> bool {
        if let Some(object) = instance.as_object() {
            for (property, value) in object.members() {
                if let Some(node) = self.properties.get_validator(property.as_ref()) {
                    if !node.is_valid(&value, ctx) {
                        return false;
                    }
                    // Use pre-computed pattern indices - no regex at runtime for known properties
                    if let Some(pattern_indices) =
                        self.property_pattern_indices.get(property.as_ref())
                    {
                        for &PatternIndex {
                            index: idx,
                            finished,
                        } in pattern_indices
                        {
                            if !finished
                                && !self.patterns[idx]
                                    .0
                                    .is_match_in(property.as_ref(), ctx, || {
                                        MatchSite::schema(self.patterns[idx].1.location())
                                    })
                            {
                                continue;
                            }
                            if !self.patterns[idx].1.is_valid(&value, ctx) {
                                return false;
                            }
                        }
                    }
                } else {
                    // Unknown property - need runtime regex matching
                    let mut has_match = false;
                    for (re, node) in &self.patterns {
                        if re.is_match_in(property.as_ref(), ctx, || {
                            MatchSite::schema(node.location())
                        }) {
                            has_match = true;
                            if !node.is_valid(&value, ctx) {
                                return false;
                            }
                        }
                    }
                    if !has_match {
                        return false;
                    }
                }
            }
        }
        true
    }

    fn validate<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> Result<(), ValidationError<'i>> {
        if let Some(object) = instance.as_object() {
            for (property, value) in object.members() {
                if let Some((name, node)) = self.properties.get_key_validator(property.as_ref()) {
                    let name_location = location.push(name);
                    node.validate(&value, &name_location, tracker, ctx)?;
                    // Use pre-computed pattern indices - no regex at runtime
                    if let Some(pattern_indices) =
                        self.property_pattern_indices.get(property.as_ref())
                    {
                        for &PatternIndex {
                            index: idx,
                            finished,
                        } in pattern_indices
                        {
                            if !finished
                                && !self.patterns[idx]
                                    .0
                                    .is_match_in(property.as_ref(), ctx, || {
                                        MatchSite::located(
                                            self.patterns[idx].1.location(),
                                            tracker,
                                            location,
                                        )
                                    })
                            {
                                continue;
                            }
                            self.patterns[idx]
                                .1
                                .validate(&value, &name_location, tracker, ctx)?;
                        }
                    }
                } else {
                    // Unknown property - need runtime regex matching
                    let property_location = location.push(property.as_ref());
                    let mut has_match = false;
                    for (re, node) in &self.patterns {
                        if re.is_match_in(property.as_ref(), ctx, || {
                            MatchSite::located(node.location(), tracker, location)
                        }) {
                            has_match = true;
                            node.validate(&value, &property_location, tracker, ctx)?;
                        }
                    }
                    if !has_match {
                        return Err(ValidationError::additional_properties(
                            self.location.clone(),
                            crate::paths::capture_evaluation_path(tracker, &self.location),
                            location.into(),
                            instance.lazy_value(),
                            vec![property.as_ref().to_owned()],
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn collect_errors<'i>(
        &self,
        instance: &F::Node<'i>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
        errors: &mut Vec<ValidationError<'i>>,
    ) {
        let Some(object) = instance.as_object() else {
            return;
        };
        let mut unexpected = vec![];
        for (property, value) in object.members() {
            if let Some((name, node)) = self.properties.get_key_validator(property.as_ref()) {
                let name_location = location.push(name);
                node.collect_errors(&value, &name_location, tracker, ctx, errors);
                // Use pre-computed pattern indices - no regex at runtime
                if let Some(pattern_indices) = self.property_pattern_indices.get(property.as_ref())
                {
                    for &PatternIndex {
                        index: idx,
                        finished,
                    } in pattern_indices
                    {
                        if !finished
                            && !self.patterns[idx]
                                .0
                                .is_match_in(property.as_ref(), ctx, || {
                                    MatchSite::located(
                                        self.patterns[idx].1.location(),
                                        tracker,
                                        location,
                                    )
                                })
                        {
                            continue;
                        }
                        self.patterns[idx].1.collect_errors(
                            &value,
                            &name_location,
                            tracker,
                            ctx,
                            errors,
                        );
                    }
                }
            } else {
                // Unknown property - need runtime regex matching
                let mut has_match = false;
                for (re, node) in &self.patterns {
                    if re.is_match_in(property.as_ref(), ctx, || {
                        MatchSite::located(node.location(), tracker, location)
                    }) {
                        has_match = true;
                        node.collect_errors(
                            &value,
                            &location.push(property.as_ref()),
                            tracker,
                            ctx,
                            errors,
                        );
                    }
                }
                if !has_match {
                    unexpected.push(property.as_ref().to_owned());
                }
            }
        }
        if !unexpected.is_empty() {
            errors.push(ValidationError::additional_properties(
                self.location.clone(),
                crate::paths::capture_evaluation_path(tracker, &self.location),
                location.into(),
                instance.lazy_value(),
                unexpected,
            ));
        }
    }

    #[cfg(feature = "evaluate")] // PATCH 6
    fn evaluate(
        &self,
        instance: &F::Node<'_>,
        location: &LazyLocation,
        tracker: Option<&RefTracker>,
        ctx: &mut ValidationContext,
    ) -> EvaluationResult {
        if let Some(object) = instance.as_object() {
            let mut unexpected = vec![];
            let mut children = ChildList::default();
            for (property, value) in object.members() {
                let path = location.push(property.as_ref());
                if let Some((_name, node)) = self.properties.get_key_validator(property.as_ref()) {
                    let child = node.evaluate_instance_below(&value, &path, tracker, ctx);
                    children.push(&mut ctx.arena, child);
                    // Use pre-computed pattern indices - no regex at runtime
                    if let Some(pattern_indices) =
                        self.property_pattern_indices.get(property.as_ref())
                    {
                        for &PatternIndex {
                            index: idx,
                            finished,
                        } in pattern_indices
                        {
                            if !finished
                                && !self.patterns[idx]
                                    .0
                                    .is_match_in(property.as_ref(), ctx, || {
                                        MatchSite::located(
                                            self.patterns[idx].1.location(),
                                            tracker,
                                            location,
                                        )
                                    })
                            {
                                continue;
                            }
                            let child = self.patterns[idx]
                                .1
                                .evaluate_instance_below(&value, &path, tracker, ctx);
                            children.push(&mut ctx.arena, child);
                        }
                    }
                } else {
                    // Unknown property - need runtime regex matching
                    let mut has_match = false;
                    for (pattern, node) in &self.patterns {
                        if pattern.is_match_in(property.as_ref(), ctx, || {
                            MatchSite::located(node.location(), tracker, location)
                        }) {
                            has_match = true;
                            let child = node.evaluate_instance_below(&value, &path, tracker, ctx);
                            children.push(&mut ctx.arena, child);
                        }
                    }
                    if !has_match {
                        unexpected.push(property.as_ref().to_owned());
                    }
                }
            }
            let mut result = EvaluationResult::from_children(children);
            if !unexpected.is_empty() {
                let eval_path = crate::paths::capture_evaluation_path(tracker, &self.location);
                result.mark_errored(ErrorDescription::from_validation_error(
                    &ValidationError::additional_properties(
                        self.location.clone(),
                        eval_path,
                        location.into(),
                        instance.lazy_value(),
                        unexpected,
                    ),
                ));
            }
            result
        } else {
            EvaluationResult::valid_empty()
        }
    }
}

macro_rules! try_compile {
    ($expr:expr) => {
        match $expr {
            Ok(result) => result,
            Err(error) => return Some(Err(error)),
        }
    };
}

/// A `patternProperties` pattern matched against a name from `properties` at build time.
#[derive(Clone, Copy)]
struct PatternIndex {
    index: usize,
    /// `false` when the engine could not finish the match, so validation matches again.
    finished: bool,
}

/// Pre-compute which `patternProperties` patterns match each property name from `properties`.
/// This eliminates regex matching at validation time for known properties.
fn precompute_property_pattern_indices<R: RegexEngine, F: Json>(
    property_names: impl Iterator<Item = impl AsRef<str> + Clone + Into<String>>,
    patterns: &[(R, SchemaNode<F>)],
) -> AHashMap<String, Box<[PatternIndex]>> {
    let mut result = AHashMap::new();
    for prop_name in property_names {
        let matching_indices: Vec<PatternIndex> = patterns
            .iter()
            .enumerate()
            .filter_map(|(index, (re, _))| match re.is_match(prop_name.as_ref()) {
                Ok(true) => Some(PatternIndex {
                    index,
                    finished: true,
                }),
                Ok(false) => None,
                Err(_) => Some(PatternIndex {
                    index,
                    finished: false,
                }),
            })
            .collect();
        if !matching_indices.is_empty() {
            result.insert(prop_name.into(), matching_indices.into_boxed_slice());
        }
    }
    result
}

fn compile_pattern_non_empty<'a, R, F: Json>(
    ctx: &compiler::Context<F>,
    map: &'a Map<String, Value>,
    patterns: Vec<(R, SchemaNode<F>)>,
    schema: &'a Value,
) -> Option<CompilationResult<'a, F>>
where
    R: PropertyPattern + 'static,
{
    let kctx = ctx.new_at_location("additionalProperties");
    let property_pattern_indices = precompute_property_pattern_indices(map.keys(), &patterns);

    // PATCH 7: one instantiation, `PropertiesMap` picks by size.
    Some(Ok(Box::new(
        AdditionalPropertiesWithPatternsNotEmptyValidator::<PropertiesMap<F>, R, F> {
            node: try_compile!(compiler::compile(&kctx, kctx.as_resource_ref(schema))),
            properties: try_compile!(compile_map(ctx, map)),
            patterns,
            property_pattern_indices,
        },
    )))
}

fn compile_pattern_non_empty_false<'a, R, F: Json>(
    ctx: &compiler::Context<F>,
    map: &'a Map<String, Value>,
    patterns: Vec<(R, SchemaNode<F>)>,
) -> Option<CompilationResult<'a, F>>
where
    R: PropertyPattern + 'static,
{
    let kctx = ctx.new_at_location("additionalProperties");
    let property_pattern_indices = precompute_property_pattern_indices(map.keys(), &patterns);

    // PATCH 7: one instantiation, `PropertiesMap` picks by size.
    Some(Ok(Box::new(
        AdditionalPropertiesWithPatternsNotEmptyFalseValidator::<PropertiesMap<F>, R, F> {
            properties: try_compile!(compile_map(ctx, map)),
            patterns,
            property_pattern_indices,
            location: kctx.location().clone(),
        },
    )))
}

#[inline]
pub(crate) fn compile<'a, F: Json>(
    ctx: &compiler::Context<F>,
    parent: &'a Map<String, Value>,
    schema: &'a Value,
) -> Option<CompilationResult<'a, F>> {
    let properties = parent.get("properties");
    if let Some(patterns) = parent.get("patternProperties") {
        if let Value::Object(obj) = patterns {
            // Compile all patterns & their validators to avoid doing work in the `patternProperties` validator
            match ctx.config().pattern_options() {
                PatternEngineOptions::FancyRegex { .. } => {
                    let patterns = match compile_fancy_regex_patterns(ctx, obj) {
                        Ok(patterns) => patterns,
                        Err(error) => return Some(Err(error)),
                    };
                    match schema {
                        Value::Bool(true) => None, // "additionalProperties" are "true" by default
                        Value::Bool(false) => {
                            if let Some(properties) = properties {
                                if let Value::Object(map) = properties {
                                    compile_pattern_non_empty_false::<
                                        CompiledPattern<fancy_regex::Regex>,
                                        F,
                                    >(ctx, map, patterns)
                                } else {
                                    let location = ctx.location().join("properties");
                                    Some(Err(ValidationError::compile_error(
                                        location.clone(),
                                        location,
                                        Location::new(),
                                        LazyInstance::Ready(Cow::Borrowed(properties)),
                                        "Unexpected type",
                                    )))
                                }
                            } else {
                                Some(Ok(Box::new(
                                    AdditionalPropertiesWithPatternsFalseValidator {
                                        patterns,
                                        location: ctx.location().join("additionalProperties"),
                                        pattern_keyword_path: ctx
                                            .location()
                                            .join("patternProperties"),
                                        pattern_keyword_absolute_location: ctx.absolute_location(
                                            &ctx.location().join("patternProperties"),
                                        ),
                                    },
                                )))
                            }
                        }
                        _ => {
                            if let Some(properties) = properties {
                                if let Value::Object(map) = properties {
                                    compile_pattern_non_empty::<
                                        CompiledPattern<fancy_regex::Regex>,
                                        F,
                                    >(ctx, map, patterns, schema)
                                } else {
                                    let location = ctx.location().join("properties");
                                    Some(Err(ValidationError::compile_error(
                                        location.clone(),
                                        location,
                                        Location::new(),
                                        LazyInstance::Ready(Cow::Borrowed(properties)),
                                        "Unexpected type",
                                    )))
                                }
                            } else {
                                let kctx = ctx.new_at_location("additionalProperties");
                                Some(Ok(Box::new(AdditionalPropertiesWithPatternsValidator {
                                    node: try_compile!(compiler::compile(
                                        &kctx,
                                        kctx.as_resource_ref(schema),
                                    )),
                                    patterns,
                                    pattern_keyword_path: ctx.location().join("patternProperties"),
                                    pattern_keyword_absolute_location: ctx.absolute_location(
                                        &ctx.location().join("patternProperties"),
                                    ),
                                })))
                            }
                        }
                    }
                }
                #[cfg(feature = "regex-engine")] // PATCH 4
                PatternEngineOptions::Regex { .. } => {
                    let patterns = match compile_regex_patterns(ctx, obj) {
                        Ok(patterns) => patterns,
                        Err(error) => return Some(Err(error)),
                    };
                    match schema {
                        Value::Bool(true) => None, // "additionalProperties" are "true" by default
                        Value::Bool(false) => {
                            if let Some(properties) = properties {
                                if let Value::Object(map) = properties {
                                    compile_pattern_non_empty_false::<
                                        CompiledPattern<regex::Regex>,
                                        F,
                                    >(ctx, map, patterns)
                                } else {
                                    let location = ctx.location().join("properties");
                                    Some(Err(ValidationError::compile_error(
                                        location.clone(),
                                        location,
                                        Location::new(),
                                        LazyInstance::Ready(Cow::Borrowed(properties)),
                                        "Unexpected type",
                                    )))
                                }
                            } else {
                                Some(Ok(Box::new(
                                    AdditionalPropertiesWithPatternsFalseValidator {
                                        patterns,
                                        location: ctx.location().join("additionalProperties"),
                                        pattern_keyword_path: ctx
                                            .location()
                                            .join("patternProperties"),
                                        pattern_keyword_absolute_location: ctx.absolute_location(
                                            &ctx.location().join("patternProperties"),
                                        ),
                                    },
                                )))
                            }
                        }
                        _ => {
                            if let Some(properties) = properties {
                                if let Value::Object(map) = properties {
                                    compile_pattern_non_empty::<CompiledPattern<regex::Regex>, F>(
                                        ctx, map, patterns, schema,
                                    )
                                } else {
                                    let location = ctx.location().join("properties");
                                    Some(Err(ValidationError::compile_error(
                                        location.clone(),
                                        location,
                                        Location::new(),
                                        LazyInstance::Ready(Cow::Borrowed(properties)),
                                        "Unexpected type",
                                    )))
                                }
                            } else {
                                let kctx = ctx.new_at_location("additionalProperties");
                                Some(Ok(Box::new(AdditionalPropertiesWithPatternsValidator {
                                    node: try_compile!(compiler::compile(
                                        &kctx,
                                        kctx.as_resource_ref(schema),
                                    )),
                                    patterns,
                                    pattern_keyword_path: ctx.location().join("patternProperties"),
                                    pattern_keyword_absolute_location: ctx.absolute_location(
                                        &ctx.location().join("patternProperties"),
                                    ),
                                })))
                            }
                        }
                    }
                }
            }
        } else {
            let location = ctx.location().join("patternProperties");
            Some(Err(ValidationError::single_type_error(
                location.clone(),
                location,
                Location::new(),
                LazyInstance::Ready(Cow::Borrowed(patterns)),
                JsonType::Object,
            )))
        }
    } else {
        match schema {
            Value::Bool(true) => None, // "additionalProperties" are "true" by default
            Value::Bool(false) => {
                if let Some(properties) = properties {
                    // Fuse `required`, which compiles under the validation vocabulary only
                    if let Some(Value::Array(required)) = parent.get("required").filter(|_| {
                        ctx.has_vocabulary(&Vocabulary::Validation)
                            && !ctx.is_keyword_overridden("required")
                    }) {
                        if required.len() == 1 {
                            if let Some(Value::String(req)) = required.first() {
                                if let Value::Object(map) = properties {
                                    // PATCH 7: one instantiation, `PropertiesMap` picks by size.
                                    return Some(
                                        AdditionalPropertiesNotEmptyFalseWithRequired1Validator::<
                                            PropertiesMap<F>,
                                        >::compile(
                                            map, ctx, req.clone()
                                        ),
                                    );
                                }
                            }
                        }
                    }
                    compile_dynamic_prop_map_validator!(
                        AdditionalPropertiesNotEmptyFalseValidator,
                        properties,
                        ctx,
                    )
                } else {
                    let location = ctx.location().join("additionalProperties");
                    Some(AdditionalPropertiesFalseValidator::compile(location))
                }
            }
            _ => {
                if let Some(properties) = properties {
                    compile_dynamic_prop_map_validator!(
                        AdditionalPropertiesNotEmptyValidator,
                        properties,
                        ctx,
                        schema,
                    )
                } else {
                    Some(AdditionalPropertiesValidator::compile(schema, ctx))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{properties::HASHMAP_THRESHOLD, tests_util, PatternOptions};
    use serde_json::{json, Map, Value};
    use test_case::test_case;

    #[test_case(&json!({"ab": 1}), true ; "covered key")]
    #[test_case(&json!({"a b": 1}), false ; "key with whitespace")]
    #[test_case(&json!({"ab": "x"}), false ; "covered key with invalid value")]
    fn no_whitespace_pattern_beside_additional_properties_false(instance: &Value, expected: bool) {
        let schema = json!({
            "patternProperties": {"^\\S*$": {"type": "integer"}},
            "additionalProperties": false
        });
        assert_eq!(
            crate::validator_for(&schema)
                .expect("schema compiles")
                .is_valid(instance),
            expected
        );
    }

    // `properties` + `additionalProperties: false` + one `required` name. `a`..`e` are five
    // container members, one more than `is_valid` holds back.
    fn fused_required_schema() -> Value {
        json!({
            "additionalProperties": false,
            "required": ["id"],
            "properties": {
                "id": {"type": "integer"},
                "a": {"type": "array"},
                "b": {"type": "array"},
                "c": {"type": "array"},
                "d": {"type": "array"},
                "e": {"type": "array"},
            }
        })
    }

    #[test_case(&json!({"a": [], "b": [], "c": [], "d": [], "e": [], "id": 1}); "five containers")]
    #[test_case(&json!({"a": [], "id": 1}); "one container")]
    #[test_case(&json!({"id": 1}); "only the required member")]
    fn fused_required_valid(instance: &Value) {
        tests_util::is_valid(&fused_required_schema(), instance);
    }

    #[test_case(&json!({"a": [], "b": [], "c": [], "d": [], "e": {}, "id": 1}); "invalid container past the held-back ones")]
    #[test_case(&json!({"a": {}, "id": 1}); "invalid held-back container")]
    #[test_case(&json!({"a": [], "id": "x"}); "invalid scalar")]
    #[test_case(&json!({"a": [], "id": 1, "zzz": 1}); "undeclared member after a container")]
    #[test_case(&json!({"a": []}); "required member missing")]
    fn fused_required_invalid(instance: &Value) {
        tests_util::is_not_valid(&fused_required_schema(), instance);
    }

    fn schema_1() -> Value {
        // For `AdditionalPropertiesWithPatternsNotEmptyFalseValidator`
        json!({
            "additionalProperties": false,
            "properties": {
                "foo": {"type": "string"},
                "barbaz": {"type": "integer", "multipleOf": 3},
            },
            "patternProperties": {
                "^bar": {"type": "integer", "minimum": 5},
                "spam$": {"type": "integer", "maximum": 10},
            }
        })
    }

    // Another type
    #[test_case(&json!([1]))]
    // The right type
    #[test_case(&json!({}))]
    // Match `properties.foo`
    #[test_case(&json!({"foo": "a"}))]
    // Match `properties.barbaz` & `patternProperties.^bar`
    #[test_case(&json!({"barbaz": 6}))]
    // Match `patternProperties.^bar`
    #[test_case(&json!({"bar": 6}))]
    // Match `patternProperties.spam$`
    #[test_case(&json!({"spam": 7}))]
    // All `patternProperties` rules match on different values
    #[test_case(&json!({"bar": 6, "spam": 7}))]
    // All `patternProperties` rules match on the same value
    #[test_case(&json!({"barspam": 7}))]
    // All combined
    #[test_case(&json!({"barspam": 7, "bar": 6, "spam": 7, "foo": "a", "barbaz": 6}))]
    fn schema_1_valid(instance: &Value) {
        let schema = schema_1();
        tests_util::is_valid(&schema, instance);
    }

    // `properties.foo` - should be a string
    #[test_case(&json!({"foo": 3}), &["3 is not of type \"string\""], &["/properties/foo/type"])]
    // `additionalProperties` - extra keyword & not in `properties` / `patternProperties`
    #[test_case(&json!({"faz": 1}), &["Additional properties are not allowed (\'faz\' was unexpected)"], &["/additionalProperties"])]
    #[test_case(&json!({"faz": 1, "haz": 1}), &["Additional properties are not allowed (\'faz\', \'haz\' were unexpected)"], &["/additionalProperties"])]
    // `properties.foo` - should be a string & `patternProperties.^bar` - invalid
    #[test_case(&json!({"foo": 3, "bar": 4}), &["3 is not of type \"string\"","4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum","/properties/foo/type"])]
    // `properties.barbaz` - valid; `patternProperties.^bar` - invalid
    #[test_case(&json!({"barbaz": 3}), &["3 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.^bar` (should be >=5)
    #[test_case(&json!({"bar": 4}), &["4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.spam$` (should be <=10)
    #[test_case(&json!({"spam": 11}), &["11 is greater than the maximum of 10"], &["/patternProperties/spam$/maximum"])]
    // `patternProperties` - both values are invalid
    #[test_case(&json!({"bar": 4, "spam": 11}), &["11 is greater than the maximum of 10","4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum", "/patternProperties/spam$/maximum"])]
    // `patternProperties` - `bar` is valid, `spam` is invalid
    #[test_case(&json!({"bar": 6, "spam": 11}), &["11 is greater than the maximum of 10"], &["/patternProperties/spam$/maximum"])]
    // `patternProperties` - `bar` is invalid, `spam` is valid
    #[test_case(&json!({"bar": 4, "spam": 8}), &["4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.^bar` - (should be >=5), but valid for `patternProperties.spam$`
    #[test_case(&json!({"barspam": 4}), &["4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.spam$` - (should be <=10), but valid for `patternProperties.^bar`
    #[test_case(&json!({"barspam": 11}), &["11 is greater than the maximum of 10"], &["/patternProperties/spam$/maximum"])]
    // All combined
    #[test_case(
      &json!({"bar": 4, "spam": 11, "foo": 3, "faz": 1}),
      &[
          "11 is greater than the maximum of 10",
          "3 is not of type \"string\"",
          "4 is less than the minimum of 5",
          "Additional properties are not allowed (\'faz\' was unexpected)",
      ],
      &[
          "/additionalProperties",
          "/patternProperties/^bar/minimum",
          "/patternProperties/spam$/maximum",
          "/properties/foo/type",
      ]
    )]
    fn schema_1_invalid(instance: &Value, expected: &[&str], locations: &[&str]) {
        let schema = schema_1();
        tests_util::is_not_valid(&schema, instance);
        tests_util::expect_errors(&schema, instance, expected);
        tests_util::assert_locations(&schema, instance, locations);
    }

    fn schema_2() -> Value {
        // For `AdditionalPropertiesWithPatternsFalseValidator`
        json!({
            "additionalProperties": false,
            "patternProperties": {
                "^bar": {"type": "integer", "minimum": 5},
                "spam$": {"type": "integer", "maximum": 10},
            }
        })
    }

    // Another type
    #[test_case(&json!([1]))]
    // The right type
    #[test_case(&json!({}))]
    // Match `patternProperties.^bar`
    #[test_case(&json!({"bar": 6}))]
    // Match `patternProperties.spam$`
    #[test_case(&json!({"spam": 7}))]
    // All `patternProperties` rules match on different values
    #[test_case(&json!({"bar": 6, "spam": 7}))]
    // All `patternProperties` rules match on the same value
    #[test_case(&json!({"barspam": 7}))]
    // All combined
    #[test_case(&json!({"barspam": 7, "bar": 6, "spam": 7}))]
    fn schema_2_valid(instance: &Value) {
        let schema = schema_2();
        tests_util::is_valid(&schema, instance);
    }

    // `additionalProperties` - extra keyword & not in `patternProperties`
    #[test_case(&json!({"faz": "a"}), &["Additional properties are not allowed (\'faz\' was unexpected)"], &["/additionalProperties"])]
    // `patternProperties.^bar` (should be >=5)
    #[test_case(&json!({"bar": 4}), &["4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.spam$` (should be <=10)
    #[test_case(&json!({"spam": 11}), &["11 is greater than the maximum of 10"], &["/patternProperties/spam$/maximum"])]
    // `patternProperties` - both values are invalid
    #[test_case(&json!({"bar": 4, "spam": 11}), &["11 is greater than the maximum of 10","4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum", "/patternProperties/spam$/maximum"])]
    // `patternProperties` - `bar` is valid, `spam` is invalid
    #[test_case(&json!({"bar": 6, "spam": 11}), &["11 is greater than the maximum of 10"], &["/patternProperties/spam$/maximum"])]
    // `patternProperties` - `bar` is invalid, `spam` is valid
    #[test_case(&json!({"bar": 4, "spam": 8}), &["4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.^bar` - (should be >=5), but valid for `patternProperties.spam$`
    #[test_case(&json!({"barspam": 4}), &["4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.spam$` - (should be <=10), but valid for `patternProperties.^bar`
    #[test_case(&json!({"barspam": 11}), &["11 is greater than the maximum of 10"], &["/patternProperties/spam$/maximum"])]
    // All combined
    #[test_case(
      &json!({"bar": 4, "spam": 11, "faz": 1}),
      &[
          "11 is greater than the maximum of 10",
          "4 is less than the minimum of 5",
          "Additional properties are not allowed (\'faz\' was unexpected)",
      ],
      &[
          "/additionalProperties",
          "/patternProperties/^bar/minimum",
          "/patternProperties/spam$/maximum",
      ]
    )]
    fn schema_2_invalid(instance: &Value, expected: &[&str], locations: &[&str]) {
        let schema = schema_2();
        tests_util::is_not_valid(&schema, instance);
        tests_util::expect_errors(&schema, instance, expected);
        tests_util::assert_locations(&schema, instance, locations);
    }

    fn schema_3() -> Value {
        // For `AdditionalPropertiesNotEmptyFalseValidator`
        json!({
            "additionalProperties": false,
            "properties": {
                "foo": {"type": "string"}
            }
        })
    }

    // Another type
    #[test_case(&json!([1]))]
    // The right type
    #[test_case(&json!({}))]
    // Match `properties`
    #[test_case(&json!({"foo": "a"}))]
    fn schema_3_valid(instance: &Value) {
        let schema = schema_3();
        tests_util::is_valid(&schema, instance);
    }

    // `properties` - should be a string
    #[test_case(&json!({"foo": 3}), &["3 is not of type \"string\""], &["/properties/foo/type"])]
    // `additionalProperties` - extra keyword & not in `properties`
    #[test_case(&json!({"faz": "a"}), &["Additional properties are not allowed (\'faz\' was unexpected)"], &["/additionalProperties"])]
    // All combined
    #[test_case(
      &json!(
        {"foo": 3, "faz": "a"}),
        &[
            "3 is not of type \"string\"",
            "Additional properties are not allowed (\'faz\' was unexpected)",
        ],
        &[
            "/additionalProperties",
            "/properties/foo/type",
        ]
    )]
    fn schema_3_invalid(instance: &Value, expected: &[&str], locations: &[&str]) {
        let schema = schema_3();
        tests_util::is_not_valid(&schema, instance);
        tests_util::expect_errors(&schema, instance, expected);
        tests_util::assert_locations(&schema, instance, locations);
    }

    fn schema_4() -> Value {
        // For `AdditionalPropertiesNotEmptyValidator`
        json!({
            "additionalProperties": {"type": "integer"},
            "properties": {
                "foo": {"type": "string"}
            }
        })
    }

    // Another type
    #[test_case(&json!([1]))]
    // The right type
    #[test_case(&json!({}))]
    // Match `properties`
    #[test_case(&json!({"foo": "a"}))]
    // Match `additionalProperties`
    #[test_case(&json!({"bar": 4}))]
    // All combined
    #[test_case(&json!({"foo": "a", "bar": 4}))]
    fn schema_4_valid(instance: &Value) {
        let schema = schema_4();
        tests_util::is_valid(&schema, instance);
    }

    // `properties` - should be a string
    #[test_case(&json!({"foo": 3}), &["3 is not of type \"string\""], &["/properties/foo/type"])]
    // `additionalProperties` - should be an integer
    #[test_case(&json!({"bar": "a"}), &["\"a\" is not of type \"integer\""], &["/additionalProperties/type"])]
    // All combined
    #[test_case(
      &json!(
        {"foo": 3, "bar": "a"}),
        &[
            "\"a\" is not of type \"integer\"",
            "3 is not of type \"string\"",
        ],
        &[
            "/additionalProperties/type",
            "/properties/foo/type",
        ]
    )]
    fn schema_4_invalid(instance: &Value, expected: &[&str], locations: &[&str]) {
        let schema = schema_4();
        tests_util::is_not_valid(&schema, instance);
        tests_util::expect_errors(&schema, instance, expected);
        tests_util::assert_locations(&schema, instance, locations);
    }

    fn schema_5() -> Value {
        // For `AdditionalPropertiesWithPatternsNotEmptyValidator`
        json!({
            "additionalProperties": {"type": "integer"},
            "properties": {
                "foo": {"type": "string"},
                "barbaz": {"type": "integer", "multipleOf": 3},
            },
            "patternProperties": {
                "^bar": {"type": "integer", "minimum": 5},
                "spam$": {"type": "integer", "maximum": 10},
            }
        })
    }

    // Another type
    #[test_case(&json!([1]))]
    // The right type
    #[test_case(&json!({}))]
    // Match `properties.foo`
    #[test_case(&json!({"foo": "a"}))]
    // Match `additionalProperties`
    #[test_case(&json!({"faz": 42}))]
    // Match `properties.barbaz` & `patternProperties.^bar`
    #[test_case(&json!({"barbaz": 6}))]
    // Match `patternProperties.^bar`
    #[test_case(&json!({"bar": 6}))]
    // Match `patternProperties.spam$`
    #[test_case(&json!({"spam": 7}))]
    // All `patternProperties` rules match on different values
    #[test_case(&json!({"bar": 6, "spam": 7}))]
    // All `patternProperties` rules match on the same value
    #[test_case(&json!({"barspam": 7}))]
    // All combined
    #[test_case(&json!({"barspam": 7, "bar": 6, "spam": 7, "foo": "a", "barbaz": 6, "faz": 42}))]
    fn schema_5_valid(instance: &Value) {
        let schema = schema_5();
        tests_util::is_valid(&schema, instance);
    }

    // `properties.bar` - should be a string
    #[test_case(&json!({"foo": 3}), &["3 is not of type \"string\""], &["/properties/foo/type"])]
    // `additionalProperties` - extra keyword that doesn't match `additionalProperties`
    #[test_case(&json!({"faz": "a"}), &["\"a\" is not of type \"integer\""], &["/additionalProperties/type"])]
    #[test_case(&json!({"faz": "a", "haz": "a"}), &["\"a\" is not of type \"integer\"", "\"a\" is not of type \"integer\""], &["/additionalProperties/type", "/additionalProperties/type"])]
    // `properties.foo` - should be a string & `patternProperties.^bar` - invalid
    #[test_case(&json!({"foo": 3, "bar": 4}), &["3 is not of type \"string\"","4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum","/properties/foo/type"])]
    // `properties.barbaz` - valid; `patternProperties.^bar` - invalid
    #[test_case(&json!({"barbaz": 3}), &["3 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.^bar` (should be >=5)
    #[test_case(&json!({"bar": 4}), &["4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.spam$` (should be <=10)
    #[test_case(&json!({"spam": 11}), &["11 is greater than the maximum of 10"], &["/patternProperties/spam$/maximum"])]
    // `patternProperties` - both values are invalid
    #[test_case(&json!({"bar": 4, "spam": 11}), &["11 is greater than the maximum of 10","4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum", "/patternProperties/spam$/maximum"])]
    // `patternProperties` - `bar` is valid, `spam` is invalid
    #[test_case(&json!({"bar": 6, "spam": 11}), &["11 is greater than the maximum of 10"], &["/patternProperties/spam$/maximum"])]
    // `patternProperties` - `bar` is invalid, `spam` is valid
    #[test_case(&json!({"bar": 4, "spam": 8}), &["4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.^bar` - (should be >=5), but valid for `patternProperties.spam$`
    #[test_case(&json!({"barspam": 4}), &["4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.spam$` - (should be <=10), but valid for `patternProperties.^bar`
    #[test_case(&json!({"barspam": 11}), &["11 is greater than the maximum of 10"], &["/patternProperties/spam$/maximum"])]
    // All combined + valid via `additionalProperties`
    #[test_case(
      &json!({"bar": 4, "spam": 11, "foo": 3, "faz": "a", "fam": 42}),
      &[
          "\"a\" is not of type \"integer\"",
          "11 is greater than the maximum of 10",
          "3 is not of type \"string\"",
          "4 is less than the minimum of 5",
      ],
      &[
          "/additionalProperties/type",
          "/patternProperties/^bar/minimum",
          "/patternProperties/spam$/maximum",
          "/properties/foo/type",
      ]
    )]
    fn schema_5_invalid(instance: &Value, expected: &[&str], locations: &[&str]) {
        let schema = schema_5();
        tests_util::is_not_valid(&schema, instance);
        tests_util::expect_errors(&schema, instance, expected);
        tests_util::assert_locations(&schema, instance, locations);
    }

    fn schema_6() -> Value {
        // For `AdditionalPropertiesWithPatternsValidator`
        json!({
            "additionalProperties": {"type": "integer"},
            "patternProperties": {
                "^bar": {"type": "integer", "minimum": 5},
                "spam$": {"type": "integer", "maximum": 10},
            }
        })
    }

    // Another type
    #[test_case(&json!([1]))]
    // The right type
    #[test_case(&json!({}))]
    // Match `additionalProperties`
    #[test_case(&json!({"faz": 42}))]
    // Match `patternProperties.^bar`
    #[test_case(&json!({"bar": 6}))]
    // Match `patternProperties.spam$`
    #[test_case(&json!({"spam": 7}))]
    // All `patternProperties` rules match on different values
    #[test_case(&json!({"bar": 6, "spam": 7}))]
    // All `patternProperties` rules match on the same value
    #[test_case(&json!({"barspam": 7}))]
    // All combined
    #[test_case(&json!({"barspam": 7, "bar": 6, "spam": 7, "faz": 42}))]
    fn schema_6_valid(instance: &Value) {
        let schema = schema_6();
        tests_util::is_valid(&schema, instance);
    }

    // `additionalProperties` - extra keyword that doesn't match `additionalProperties`
    #[test_case(&json!({"faz": "a"}), &["\"a\" is not of type \"integer\""], &["/additionalProperties/type"])]
    #[test_case(&json!({"faz": "a", "haz": "a"}), &["\"a\" is not of type \"integer\"", "\"a\" is not of type \"integer\""], &["/additionalProperties/type", "/additionalProperties/type"])]
    // `additionalProperties` - should be an integer & `patternProperties.^bar` - invalid
    #[test_case(&json!({"foo": "a", "bar": 4}), &["\"a\" is not of type \"integer\"","4 is less than the minimum of 5"], &["/additionalProperties/type","/patternProperties/^bar/minimum"])]
    // `patternProperties.^bar` (should be >=5)
    #[test_case(&json!({"bar": 4}), &["4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.spam$` (should be <=10)
    #[test_case(&json!({"spam": 11}), &["11 is greater than the maximum of 10"], &["/patternProperties/spam$/maximum"])]
    // `patternProperties` - both values are invalid
    #[test_case(&json!({"bar": 4, "spam": 11}), &["11 is greater than the maximum of 10","4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum", "/patternProperties/spam$/maximum"])]
    // `patternProperties` - `bar` is valid, `spam` is invalid
    #[test_case(&json!({"bar": 6, "spam": 11}), &["11 is greater than the maximum of 10"], &["/patternProperties/spam$/maximum"])]
    // `patternProperties` - `bar` is invalid, `spam` is valid
    #[test_case(&json!({"bar": 4, "spam": 8}), &["4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.^bar` - (should be >=5), but valid for `patternProperties.spam$`
    #[test_case(&json!({"barspam": 4}), &["4 is less than the minimum of 5"], &["/patternProperties/^bar/minimum"])]
    // `patternProperties.spam$` - (should be <=10), but valid for `patternProperties.^bar`
    #[test_case(&json!({"barspam": 11}), &["11 is greater than the maximum of 10"], &["/patternProperties/spam$/maximum"])]
    // All combined + valid via `additionalProperties`
    #[test_case(
      &json!({"bar": 4, "spam": 11, "faz": "a", "fam": 42}),
      &[
          "\"a\" is not of type \"integer\"",
          "11 is greater than the maximum of 10",
          "4 is less than the minimum of 5",
      ],
      &[
          "/additionalProperties/type",
          "/patternProperties/^bar/minimum",
          "/patternProperties/spam$/maximum",
      ]
    )]
    fn schema_6_invalid(instance: &Value, expected: &[&str], locations: &[&str]) {
        let schema = schema_6();
        tests_util::is_not_valid(&schema, instance);
        tests_util::expect_errors(&schema, instance, expected);
        tests_util::assert_locations(&schema, instance, locations);
    }

    // Test prefix optimization with additionalProperties: false
    #[test_case("^x-", "x-custom", true)]
    #[test_case("^x-", "y-other", false)]
    #[test_case("^eo_", "eo_bands", true)]
    #[test_case("^eo_", "other", false)]
    fn prefix_pattern_with_additional_false(pattern: &str, key: &str, matches_pattern: bool) {
        let schema = json!({
            "additionalProperties": false,
            "patternProperties": {
                pattern: {"type": "string"}
            }
        });
        let validator = crate::validator_for(&schema).unwrap();

        // Valid string value
        let string_instance = json!({ key: "value" });
        // If matches_pattern: key matches, string is valid type -> valid
        // If !matches_pattern: key is additional property, not allowed -> invalid
        assert_eq!(validator.is_valid(&string_instance), matches_pattern);

        // Invalid type (number instead of string)
        let number_instance = json!({ key: 42 });
        // If matches_pattern: key matches but wrong type -> invalid
        // If !matches_pattern: additional property not allowed -> invalid
        assert!(!validator.is_valid(&number_instance));
    }

    // Test prefix optimization with additionalProperties as schema
    #[test]
    fn prefix_pattern_with_additional_schema() {
        let schema = json!({
            "additionalProperties": {"type": "integer"},
            "patternProperties": {
                "^x-": {"type": "string"}
            }
        });
        let validator = crate::validator_for(&schema).unwrap();

        // x-foo matches pattern, must be string
        assert!(validator.is_valid(&json!({"x-foo": "bar"})));
        assert!(!validator.is_valid(&json!({"x-foo": 42})));

        // other doesn't match pattern, goes to additionalProperties (must be integer)
        assert!(validator.is_valid(&json!({"other": 42})));
        assert!(!validator.is_valid(&json!({"other": "str"})));

        // Both patterns
        assert!(validator.is_valid(&json!({"x-foo": "bar", "other": 42})));
        assert!(!validator.is_valid(&json!({"x-foo": 42, "other": "str"})));
    }

    // Test prefix optimization with properties + additionalProperties: false
    #[test]
    fn prefix_pattern_with_properties_and_additional_false() {
        let schema = json!({
            "properties": {
                "name": {"type": "string"}
            },
            "additionalProperties": false,
            "patternProperties": {
                "^x-": {"type": "string"}
            }
        });
        let validator = crate::validator_for(&schema).unwrap();

        // name is in properties
        assert!(validator.is_valid(&json!({"name": "test"})));
        assert!(!validator.is_valid(&json!({"name": 42})));

        // x-foo matches pattern
        assert!(validator.is_valid(&json!({"x-foo": "bar"})));
        assert!(!validator.is_valid(&json!({"x-foo": 42})));

        // other is neither in properties nor matches pattern -> additional, not allowed
        assert!(!validator.is_valid(&json!({"other": "value"})));

        // Combined valid
        assert!(validator.is_valid(&json!({"name": "test", "x-foo": "bar"})));
    }

    // Test fused validator with properties + additionalProperties: false + single required
    #[test]
    fn fused_additional_properties_false_with_required_1() {
        let schema = json!({
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"}
            },
            "additionalProperties": false,
            "required": ["id"]
        });
        let validator = crate::validator_for(&schema).unwrap();

        // Valid: has required and valid additional
        assert!(validator.is_valid(&json!({"id": "123"})));
        assert!(validator.is_valid(&json!({"id": "123", "name": "test"})));

        // Invalid: missing required
        assert!(!validator.is_valid(&json!({})));
        assert!(!validator.is_valid(&json!({"name": "test"})));

        // Invalid: has additional property
        assert!(!validator.is_valid(&json!({"id": "123", "extra": "val"})));

        // Invalid: wrong type for property
        assert!(!validator.is_valid(&json!({"id": 123})));

        // Non-object passes
        assert!(validator.is_valid(&json!("string")));
        assert!(validator.is_valid(&json!([1, 2, 3])));
    }

    #[test]
    fn fused_additional_properties_false_with_required_1_errors() {
        let schema = json!({
            "properties": {
                "id": {"type": "string"},
                "name": {"type": "string"}
            },
            "additionalProperties": false,
            "required": ["id"]
        });
        let validator = crate::validator_for(&schema).unwrap();

        // Missing required should produce required error
        let instance = json!({});
        let errors: Vec<_> = validator.iter_errors(&instance).collect();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].to_string().contains("required"));

        // Missing required with valid other property
        let instance = json!({"name": "test"});
        let errors: Vec<_> = validator.iter_errors(&instance).collect();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].to_string().contains("required"));

        // Additional property error
        let instance = json!({"id": "123", "extra": "val"});
        let errors: Vec<_> = validator.iter_errors(&instance).collect();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].to_string().contains("Additional properties"));

        // Both missing required and extra property
        let instance = json!({"extra": "val"});
        let errors: Vec<_> = validator.iter_errors(&instance).collect();
        assert_eq!(errors.len(), 2);
    }

    // `required` is inert, while `properties` and `additionalProperties` still apply.
    #[test_case(&json!({"properties": {"a": {}}, "additionalProperties": false, "required": ["b"]}); "one name")]
    #[test_case(&json!({"properties": {"a": {}}, "additionalProperties": false, "required": ["b", "c"]}); "two names")]
    fn additional_properties_without_validation_vocabulary(schema: &Value) {
        let instances = [json!({}), json!({"a": 1}), json!({"x": 1})];
        assert_eq!(
            tests_util::outcomes_with_only_vocabulary("applicator", schema, &instances),
            [
                (true, Vec::new()),
                (true, Vec::new()),
                (
                    false,
                    vec![(
                        "/additionalProperties".to_string(),
                        "Additional properties are not allowed ('x' was unexpected)".to_string()
                    )]
                ),
            ]
        );
    }

    const REQUIRED_A: &str = "\"a\" is a required property";
    const NOT_STRING: &str = "1 is not of type \"string\"";
    const X_UNEXPECTED: &str = "Additional properties are not allowed ('x' was unexpected)";

    #[test_case(&json!({}), &[(REQUIRED_A, "", "/required")]; "required alone")]
    #[test_case(
        &json!({"x": 1}),
        &[(X_UNEXPECTED, "", "/additionalProperties"), (REQUIRED_A, "", "/required")];
        "required with additional property"
    )]
    #[test_case(&json!({"a": 1}), &[(NOT_STRING, "/a", "/properties/a/type")]; "properties alone")]
    #[test_case(
        &json!({"a": 1, "x": 1}),
        &[(NOT_STRING, "/a", "/properties/a/type"), (X_UNEXPECTED, "", "/additionalProperties")];
        "properties with additional property"
    )]
    fn fused_required_error_locations(instance: &Value, expected: &[(&str, &str, &str)]) {
        tests_util::assert_error_locations(
            &json!({
                "properties": {"a": {"type": "string"}},
                "additionalProperties": false,
                "required": ["a"]
            }),
            instance,
            expected,
        );
    }

    #[test_case(
        &json!({"properties": {"a": {"type": "string"}}, "additionalProperties": false}),
        &json!({"a": 1, "x": 1}),
        &[(NOT_STRING, "/a", "/properties/a/type"), (X_UNEXPECTED, "", "/additionalProperties")];
        "properties with false"
    )]
    #[test_case(
        &json!({"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "string"}}),
        &json!({"a": 1, "x": 1}),
        &[(NOT_STRING, "/a", "/properties/a/type"), (NOT_STRING, "/x", "/additionalProperties/type")];
        "properties with subschema"
    )]
    #[test_case(
        &json!({"patternProperties": {"p": {"type": "string"}}, "additionalProperties": false}),
        &json!({"p": 1, "x": 1}),
        &[(NOT_STRING, "/p", "/patternProperties/p/type"), (X_UNEXPECTED, "", "/additionalProperties")];
        "patterns with false"
    )]
    #[test_case(
        &json!({"patternProperties": {"p": {"type": "string"}}, "additionalProperties": {"type": "string"}}),
        &json!({"p": 1, "x": 1}),
        &[(NOT_STRING, "/p", "/patternProperties/p/type"), (NOT_STRING, "/x", "/additionalProperties/type")];
        "patterns with subschema"
    )]
    #[test_case(
        &json!({
            "properties": {"a": {"type": "string"}},
            "patternProperties": {"p": {"type": "string"}},
            "additionalProperties": false
        }),
        &json!({"a": 1, "p": 1, "x": 1}),
        &[
            (NOT_STRING, "/a", "/properties/a/type"),
            (NOT_STRING, "/p", "/patternProperties/p/type"),
            (X_UNEXPECTED, "", "/additionalProperties"),
        ];
        "properties and patterns with false"
    )]
    #[test_case(
        &json!({
            "properties": {"a": {"type": "string"}},
            "patternProperties": {"p": {"type": "string"}},
            "additionalProperties": {"type": "string"}
        }),
        &json!({"a": 1, "p": 1, "x": 1}),
        &[
            (NOT_STRING, "/a", "/properties/a/type"),
            (NOT_STRING, "/p", "/patternProperties/p/type"),
            (NOT_STRING, "/x", "/additionalProperties/type"),
        ];
        "properties and patterns with subschema"
    )]
    fn absorbing_error_locations(
        schema: &Value,
        instance: &Value,
        expected: &[(&str, &str, &str)],
    ) {
        tests_util::assert_error_locations(schema, instance, expected);
    }

    const NOT_INTEGER: &str = "\"x\" is not of type \"integer\"";
    const EXTRA: &str = "Additional properties are not allowed ('extra' was unexpected)";

    /// Adds enough integer `properties` for them to be looked up in a hash map.
    fn with_many_properties(mut schema: Value) -> Value {
        let properties: Map<String, Value> = (0..HASHMAP_THRESHOLD)
            .map(|idx| (format!("p{idx}"), json!({"type": "integer"})))
            .collect();
        schema["properties"] = Value::Object(properties);
        schema
    }

    fn regex_engine_options() -> [crate::ValidationOptions<'static>; 2] {
        [
            crate::options().with_pattern_options(PatternOptions::fancy_regex()),
            crate::options().with_pattern_options(PatternOptions::regex()),
        ]
    }

    #[test_case(&with_many_properties(json!({"additionalProperties": false})), &json!({"p0": 1, "p14": 2}), None, &[]; "many properties and false valid")]
    #[test_case(
        &with_many_properties(json!({"additionalProperties": false})),
        &json!({"p0": "x", "extra": 1}),
        Some(EXTRA),
        &[(NOT_INTEGER, "/p0", "/properties/p0/type"), (EXTRA, "", "/additionalProperties")];
        "many properties and false invalid"
    )]
    #[test_case(&with_many_properties(json!({"additionalProperties": false, "required": ["p1"]})), &json!({"p1": 1}), None, &[]; "many properties, false and required valid")]
    #[test_case(
        &with_many_properties(json!({"additionalProperties": false, "required": ["p1"]})),
        &json!({"p0": "x", "extra": 1}),
        Some(EXTRA),
        &[
            (NOT_INTEGER, "/p0", "/properties/p0/type"),
            (EXTRA, "", "/additionalProperties"),
            ("\"p1\" is a required property", "", "/required"),
        ];
        "many properties, false and required invalid"
    )]
    #[test_case(&with_many_properties(json!({"additionalProperties": {"type": "string"}})), &json!({"p0": 1, "extra": "y"}), None, &[]; "many properties and schema valid")]
    #[test_case(
        &with_many_properties(json!({"additionalProperties": {"type": "string"}})),
        &json!({"p0": "x", "extra": 1}),
        Some(NOT_STRING),
        &[(NOT_STRING, "/extra", "/additionalProperties/type"), (NOT_INTEGER, "/p0", "/properties/p0/type")];
        "many properties and schema invalid"
    )]
    #[test_case(
        &with_many_properties(json!({"patternProperties": {"^x": {"type": "string"}}, "additionalProperties": false})),
        &json!({"p0": 1, "x1": "y"}),
        None,
        &[];
        "many properties, patterns and false valid"
    )]
    #[test_case(
        &with_many_properties(json!({"patternProperties": {"^x": {"type": "string"}}, "additionalProperties": false})),
        &json!({"p0": "x", "x1": 1, "extra": 1}),
        Some(EXTRA),
        &[
            (NOT_INTEGER, "/p0", "/properties/p0/type"),
            (NOT_STRING, "/x1", "/patternProperties/^x/type"),
            (EXTRA, "", "/additionalProperties"),
        ];
        "many properties, patterns and false invalid"
    )]
    #[test_case(
        &with_many_properties(json!({"patternProperties": {"^x": {"type": "string"}}, "additionalProperties": {"type": "string"}})),
        &json!({"p0": 1, "x1": "y", "extra": "z"}),
        None,
        &[];
        "many properties, patterns and schema valid"
    )]
    #[test_case(
        &with_many_properties(json!({"patternProperties": {"^x": {"type": "string"}}, "additionalProperties": {"type": "string"}})),
        &json!({"p0": "x", "x1": 1, "extra": 1}),
        Some(NOT_STRING),
        &[
            (NOT_STRING, "/extra", "/additionalProperties/type"),
            (NOT_INTEGER, "/p0", "/properties/p0/type"),
            (NOT_STRING, "/x1", "/patternProperties/^x/type"),
        ];
        "many properties, patterns and schema invalid"
    )]
    #[test_case(
        &json!({"patternProperties": {"^x": {"type": "string"}}, "additionalProperties": true}),
        &json!({"x1": 1, "extra": 1}),
        Some(NOT_STRING),
        &[(NOT_STRING, "/x1", "/patternProperties/^x/type")];
        "patterns and true"
    )]
    #[test_case(
        &json!({"patternProperties": {"^x": {"type": "string"}}, "additionalProperties": {"type": "string"}}),
        &json!({"x1": 1, "extra": 1}),
        Some(NOT_STRING),
        &[(NOT_STRING, "/extra", "/additionalProperties/type"), (NOT_STRING, "/x1", "/patternProperties/^x/type")];
        "patterns and schema"
    )]
    fn on_both_regex_engines(
        schema: &Value,
        instance: &Value,
        first: Option<&str>,
        expected: &[(&str, &str, &str)],
    ) {
        let expected: Vec<_> = expected
            .iter()
            .map(|(message, instance_path, schema_path)| {
                (
                    (*message).to_string(),
                    (*instance_path).to_string(),
                    (*schema_path).to_string(),
                )
            })
            .collect();
        for options in regex_engine_options() {
            let validator = options.build(schema).expect("Invalid schema");
            let errors: Vec<_> = validator
                .iter_errors(instance)
                .map(|error| {
                    (
                        error.to_string(),
                        error.instance_path().to_string(),
                        error.schema_path().to_string(),
                    )
                })
                .collect();
            assert_eq!(
                (
                    validator.is_valid(instance),
                    validator
                        .validate(instance)
                        .err()
                        .map(|error| error.to_string()),
                    errors
                ),
                (first.is_none(), first.map(str::to_string), expected.clone())
            );
        }
    }

    #[test_case(&json!({"additionalProperties": 5}), "5 is not of types \"boolean\", \"object\"", "/additionalProperties"; "not schema")]
    #[test_case(&json!({"patternProperties": 5, "additionalProperties": false}), "5 is not of type \"object\"", "/patternProperties"; "pattern properties not object")]
    #[test_case(&json!({"properties": 5, "patternProperties": {"a": {}}, "additionalProperties": false}), "Unexpected type", "/properties"; "properties not object with patterns and false")]
    #[test_case(&json!({"properties": 5, "patternProperties": {"a": {}}, "additionalProperties": {}}), "Unexpected type", "/properties"; "properties not object with patterns and schema")]
    fn malformed(schema: &Value, message: &str, location: &str) {
        for options in regex_engine_options() {
            tests_util::assert_compile_error_with(&options, schema, message, location);
        }
    }
}
