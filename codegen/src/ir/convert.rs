//! Schemas to types: each component and inline schema becomes a struct, enum, union or alias,
//! and every schema position a [`TypeRef`].

use std::collections::{BTreeSet, HashSet};

use openapiv3::{
    AdditionalProperties, ReferenceOr, Schema, SchemaKind, StringFormat, Type,
    VariantOrUnknownOrEmpty,
};

use super::kinds::{IndexedMember, SharedKind, UnionMembers};
use super::naming::fallback_variant;
use super::nullable::UnionForm;
use super::tags::{TagSource, tags_of};
use super::values::ValueReason;
use super::{
    AliasDef, Builder, EnumDef, Field, Held, IntEnumDef, IntVariant, JsonKind, ObjectParts,
    SCHEMAS, SchemaAt, StructDef, TagKind, TypeDef, TypeRef, UnionDef, UnionVariant, UntaggedDef,
    UntaggedVariant, Variant, access, local_key,
};
use crate::error::Pointer;
use crate::lock::Names;
use crate::{Error, names};

impl<'a> Builder<'a> {
    /// The component schema a `$ref` names, with its key; checks reference-only chains for cycles.
    pub(super) fn component(
        &self,
        reference: &str,
        pointer: &Pointer,
    ) -> Result<(&'a str, &'a Schema), Error> {
        let schemas = self.spec.components.as_ref().map(|c| &c.schemas);
        let key = local_key(reference, SCHEMAS, pointer)?;
        if let Some((key, ReferenceOr::Item(schema))) = self
            .resolved
            .get(key.as_str())
            .and_then(|target| schemas?.get_key_value(*target))
        {
            return Ok((key.as_str(), schema));
        }
        // Only a chain that fails is walked here, to name its exact fault.
        let mut chain = vec![reference.to_owned()];
        let mut seen = HashSet::from([reference.to_owned()]);
        let mut current = reference;
        loop {
            let key = local_key(current, SCHEMAS, pointer)?;
            let entry = self
                .spec
                .components
                .as_ref()
                .and_then(|c| c.schemas.get_key_value(key.as_str()))
                .ok_or_else(|| Error::DanglingRef {
                    pointer: pointer.to_string(),
                    reference: current.to_owned(),
                })?;
            match entry.1 {
                ReferenceOr::Item(schema) => return Ok((entry.0.as_str(), schema)),
                ReferenceOr::Reference { reference: next } => {
                    let repeated = !seen.insert(next.clone());
                    chain.push(next.clone());
                    if repeated {
                        return Err(Error::RefCycle {
                            pointer: pointer.to_string(),
                            chain,
                        });
                    }
                    current = next;
                }
            }
        }
    }

    /// [`Builder::define_component`], except that a component that cannot be represented (a
    /// composition that contains itself, a `$ref` cycle) is read as any JSON value with a note,
    /// not a refusal of the document (which strict mode keeps).
    pub(super) fn define_component_or_leave_out(
        &mut self,
        key: &'a str,
        schema: &'a ReferenceOr<Schema>,
        strict: bool,
    ) -> Result<(), Error> {
        let Err(error) = self.define_component(key, schema) else {
            return Ok(());
        };
        let (pointer, reason) = match error {
            Error::Unsupported { pointer, reason } | Error::Invalid { pointer, reason } => {
                (pointer, reason)
            }
            Error::DanglingRef { pointer, reference } => (
                pointer,
                format!("`$ref` {reference:?} does not resolve to anything in the document"),
            ),
            Error::RefCycle { pointer, chain } => (
                pointer,
                format!("`$ref` cycle with no schema in it: {}", chain.join(" -> ")),
            ),
            other => return Err(other),
        };
        let what = crate::lower::READ_AS_ANY_VALUE;
        if strict {
            return Err(Error::LeftOut {
                pointer,
                what: what.into(),
                reason,
            });
        }
        self.leave_out(&pointer, what, &reason);
        self.values.push(super::values::ValuePlace {
            pointer: pointer.clone(),
            reason: ValueReason::LeftOut,
            detail: reason.clone(),
        });
        let name = self
            .component_names
            .get(key)
            .cloned()
            .unwrap_or_else(|| names::camel_ident(key, "T"));
        self.types.insert(
            name.clone(),
            TypeDef::Alias(AliasDef {
                name,
                doc: None,
                ty: TypeRef::Json,
            }),
        );
        Ok(())
    }

    pub(super) fn define_component(
        &mut self,
        key: &'a str,
        schema: &'a ReferenceOr<Schema>,
    ) -> Result<(), Error> {
        let name = self
            .component_names
            .get(key)
            .cloned()
            .unwrap_or_else(|| names::camel_ident(key, "T"));
        let pointer = Pointer::from_ref(SCHEMAS).join(key);
        // Parent pointer is `#/components/schemas`; `from_ref` then `join` yields the schema's own.
        let pointer = Pointer::from_ref(
            pointer
                .as_str()
                .replacen("#/components/schemas//", "#/components/schemas/", 1)
                .as_str(),
        );
        match SchemaAt::of(schema) {
            SchemaAt::Ref(reference) => {
                let (target, _) = self.component(reference, &pointer)?;
                let target = self
                    .component_names
                    .get(target)
                    .cloned()
                    .unwrap_or_default();
                self.types.insert(
                    name.clone(),
                    TypeDef::Alias(AliasDef {
                        name,
                        doc: None,
                        ty: TypeRef::Named(target),
                    }),
                );
            }
            SchemaAt::Item(schema) => {
                self.check_composition_cycle(key, schema, &pointer)?;
                if !self.define_named(&name, schema, &pointer)? {
                    let (ty, _) = self.type_of(SchemaAt::Item(schema), &name, &pointer)?;
                    let doc = doc_of(schema);
                    self.types
                        .insert(name.clone(), TypeDef::Alias(AliasDef { name, doc, ty }));
                }
            }
        }
        Ok(())
    }

    /// Defines `name` as a struct or enum when the schema is one; false when it is not.
    pub(super) fn define_named(
        &mut self,
        name: &str,
        schema: &'a Schema,
        pointer: &Pointer,
    ) -> Result<bool, Error> {
        let doc = doc_of(schema);
        if let (Some((keyword, members)), Some(discriminator)) =
            (union_members(schema), &schema.schema_data.discriminator)
        {
            self.define_union(name, keyword, members, discriminator, doc, pointer)?;
            return Ok(true);
        }
        if let Some(values) = string_enum(schema) {
            self.define_enum(name, values, doc);
            return Ok(true);
        }
        if let Some(values) = const_union(schema) {
            self.define_enum(name, values, doc);
            return Ok(true);
        }
        if let Some(values) = integer_enum(schema) {
            self.define_int_enum(name, values, doc);
            return Ok(true);
        }
        if let Some(values) = value_enum(schema) {
            self.define_value_enum(name, values, doc);
            return Ok(true);
        }
        if let Some(values) = self.open_string_union(schema, pointer) {
            self.define_enum(name, values, doc);
            return Ok(true);
        }
        if let Some(inferred) = self.inferred_tags(schema, pointer) {
            self.define_inferred_union(name, inferred, doc, pointer)?;
            return Ok(true);
        }
        if let Ok(plan) = self.untagged_plan(schema, pointer) {
            self.define_untagged(name, plan, doc, pointer, false)?;
            return Ok(true);
        }
        if let Ok(keyed) = self.keyed_members(schema, pointer) {
            self.define_keyed_union(name, keyed, doc, pointer)?;
            return Ok(true);
        }
        // The last resort of a union, after every rule that tells its members apart.
        if let Ok(plan) = self.best_fit_plan(schema, pointer) {
            self.define_untagged(name, plan, doc, pointer, true)?;
            return Ok(true);
        }
        if let SchemaKind::AllOf { all_of } = &schema.schema_kind
            && all_of.len() > 1
        {
            let Some(parts) = self.merge_all_of(all_of, pointer)? else {
                return Ok(false);
            };
            self.define_struct(name, parts, doc, pointer)?;
            return Ok(true);
        }
        // A base object with a discriminator stands for its subtypes: a value where it is
        // expected may be any of them, and as its own struct a subtype's fields were lost.
        if let Some(discriminator) = &schema.schema_data.discriminator
            && object_parts(schema).is_some()
            && self.define_inherited(name, discriminator, doc.clone(), pointer)?
        {
            return Ok(true);
        }
        match object_parts(schema) {
            Some(parts) if !parts.properties.is_empty() => {
                self.define_struct(name, parts, doc, pointer)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// A base object with a discriminator as a union of its subtypes, by tag: its `mapping`,
    /// then (as the specification says) every component whose `allOf` names the base, tagged
    /// by its key. False when it has none. A tag mapped to the base itself is left to the
    /// fallback: as a variant, the union would contain itself.
    fn define_inherited(
        &mut self,
        name: &str,
        discriminator: &'a openapiv3::Discriminator,
        doc: Option<String>,
        pointer: &Pointer,
    ) -> Result<bool, Error> {
        let base = pointer.as_str();
        let inheriting = self.heirs_of(base);
        let mapped = discriminator
            .mapping
            .values()
            .filter(|reference| *reference != base)
            .count();
        if mapped == 0 && inheriting.is_empty() {
            return Ok(false);
        }
        self.reserve(name);
        let mut tagged: Vec<(String, Vec<String>, TypeRef)> = Vec::new();
        let mut mapped_refs = Vec::new();
        for (tag, reference) in &discriminator.mapping {
            let at = pointer.join("discriminator").join("mapping").join(tag);
            if reference == base {
                self.note(
                    &at,
                    "a tag mapped to the base schema itself decodes as the fallback",
                );
                continue;
            }
            let (ty, _) = self.type_of(SchemaAt::Ref(reference), name, &at)?;
            mapped_refs.push(reference.as_str());
            tagged.push((tag.clone(), Vec::new(), ty));
        }
        for key in inheriting {
            let reference = Pointer::to(&["components", "schemas", key]);
            if mapped_refs.contains(&reference.as_str()) {
                continue;
            }
            let Some(subtype) = self.component_names.get(key.as_str()).cloned() else {
                continue;
            };
            let claimed: Vec<&str> = tagged
                .iter()
                .flat_map(|(tag, also, _)| tags_of(tag, also))
                .collect();
            let Some((tag, also)) =
                self.heir_tags(key, &discriminator.property_name, &claimed, pointer)
            else {
                continue;
            };
            tagged.push((tag, also, TypeRef::Named(subtype)));
        }
        self.insert_union(name, tagged, TagKind::String, discriminator, doc);
        self.keep_unfit_heirs(name);
        Ok(true)
    }

    pub(super) fn define_union(
        &mut self,
        name: &str,
        keyword: &str,
        members: &'a [ReferenceOr<Schema>],
        discriminator: &'a openapiv3::Discriminator,
        doc: Option<String>,
        pointer: &Pointer,
    ) -> Result<(), Error> {
        // Reserve the name first: variants may refer back to the union.
        self.reserve(name);
        let (kind, tagged) = self.union_tags(keyword, members, discriminator, pointer)?;
        let mut typed = Vec::with_capacity(tagged.len());
        for (tag, also, source) in tagged {
            let at = pointer.join("discriminator").join("mapping").join(&tag);
            let found = match source {
                TagSource::Ref(reference) => self.type_of(SchemaAt::Ref(reference), name, &at),
                TagSource::Inline(index, member) => {
                    let hint = format!("{name}{}", names::camel_ident(&tag, "V"));
                    let member_pointer = pointer.join(keyword).join(index);
                    self.type_of(SchemaAt::of(member), &hint, &member_pointer)
                }
            };
            let (ty, _) = match found {
                Ok(found) => found,
                // A mapping to no schema component leaves out its tag alone: a value with it
                // decodes as the fallback.
                Err(Error::DanglingRef { reference, .. }) => {
                    self.leave_out(
                        at.as_str(),
                        &format!("tag `{tag}`"),
                        &format!("the mapping {reference:?} names no schema component (a value with this tag decodes as the fallback)"),
                    );
                    continue;
                }
                Err(error) => return Err(error),
            };
            typed.push((tag, also, ty));
        }
        self.insert_union(name, typed, kind, discriminator, doc);
        Ok(())
    }

    /// A tagged union of `tagged` (tag, type) variants, named as the lock says: by the tag
    /// where it is one string, else by the payload's type (`2` names nothing).
    pub(super) fn insert_union(
        &mut self,
        name: &str,
        tagged: Vec<(String, Vec<String>, TypeRef)>,
        tag_kind: TagKind,
        discriminator: &openapiv3::Discriminator,
        doc: Option<String>,
    ) {
        let mut variant_names = self.names.variant_scope(name);
        let mut variants = Vec::with_capacity(tagged.len());
        for (tag, also, ty) in tagged {
            let spelling = match &ty {
                TypeRef::Named(payload) if !also.is_empty() || tag_kind != TagKind::String => {
                    payload.as_str()
                }
                _ => tag.as_str(),
            };
            variants.push(UnionVariant {
                rust_name: Names::claim_variant_spelled(&mut variant_names, &tag, spelling),
                tag,
                also,
                tag_field: None,
                unfit_kept: false,
                ty,
                held: Held::Inline,
            });
        }
        let fallback = fallback_variant();
        self.names.keep_variants(name, variant_names);
        let tag_property = discriminator.property_name.clone();
        self.types.insert(
            name.to_owned(),
            TypeDef::Union(UnionDef {
                name: name.to_owned(),
                doc,
                tag_property,
                tag_kind,
                variants,
                fallback,
            }),
        );
    }

    /// An integer enum: variants `V<value>` (`VMinus<value>` below zero), read as "value 200",
    /// clear of any other name and never two for one value.
    pub(super) fn define_int_enum(&mut self, name: &str, values: Vec<i64>, doc: Option<String>) {
        // Names follow from values alone, so no lock is needed to keep them.
        let mut variant_names = Names::int_enum_variants();
        let mut seen = BTreeSet::new();
        let variants = values
            .into_iter()
            .filter(|value| seen.insert(*value))
            .map(|value| {
                let wanted = if value < 0 {
                    format!("VMinus{}", value.unsigned_abs())
                } else {
                    format!("V{value}")
                };
                IntVariant {
                    value,
                    rust_name: variant_names.claim(&wanted, ""),
                }
            })
            .collect();
        let fallback = fallback_variant();
        self.types.insert(
            name.to_owned(),
            TypeDef::IntEnum(IntEnumDef {
                name: name.to_owned(),
                doc,
                variants,
                fallback,
            }),
        );
    }

    /// The schema a union member stands for, through `$ref`s and one-member `allOf`s; `None`
    /// when it cannot be followed (the member is then not classified, and the union stays a
    /// `serde_json::Value` as before).
    pub(super) fn member_schema(
        &self,
        member: &'a ReferenceOr<Schema>,
        pointer: &Pointer,
    ) -> Option<&'a Schema> {
        let schema = self.resolve(SchemaAt::of(member), pointer).ok()?;
        self.through_single_all_of(schema, pointer).ok()
    }

    /// Whether a union is "a number, or a string of decimal digits" (money, prices): exactly a
    /// `number` member and a `string` member whose `pattern` admits only decimal text (or whose
    /// `format` is `decimal`). Decided by structure alone, never by the property's name.
    pub(super) fn is_decimal_union(&self, schema: &'a Schema, pointer: &Pointer) -> bool {
        let Some((_, members)) = plain_union_members(schema) else {
            return false;
        };
        let (mut number, mut string) = (false, false);
        for member in members {
            match self.member_schema(member, pointer).map(|m| &m.schema_kind) {
                Some(SchemaKind::Type(Type::Number(n))) if n.enumeration.is_empty() && !number => {
                    number = true;
                }
                Some(SchemaKind::Type(Type::String(s)))
                    if s.enumeration.is_empty() && !string && is_decimal_string(s) =>
                {
                    string = true;
                }
                _ => return false,
            }
        }
        number && string
    }

    /// The JSON kind every value of a member has, when it has one.
    pub(super) fn member_kind(
        &self,
        member: &'a ReferenceOr<Schema>,
        pointer: &Pointer,
    ) -> Option<JsonKind> {
        let schema = self.member_schema(member, pointer)?;
        let kind = match &schema.schema_kind {
            SchemaKind::Type(Type::String(_)) => JsonKind::String,
            SchemaKind::Type(Type::Integer(_)) => JsonKind::Integer,
            SchemaKind::Type(Type::Number(_)) => JsonKind::Number,
            SchemaKind::Type(Type::Boolean(_)) => JsonKind::Boolean,
            SchemaKind::Type(Type::Array(_)) => JsonKind::Array,
            SchemaKind::Type(Type::Object(_)) => JsonKind::Object,
            SchemaKind::Any(_) if object_parts(schema).is_some() => JsonKind::Object,
            SchemaKind::Any(_) if string_enum(schema).is_some() => JsonKind::String,
            SchemaKind::OneOf { .. } | SchemaKind::AnyOf { .. }
                if const_union(schema).is_some()
                    || self.open_string_union(schema, pointer).is_some() =>
            {
                JsonKind::String
            }
            SchemaKind::OneOf { .. } | SchemaKind::AnyOf { .. }
                if schema.schema_data.discriminator.is_some() =>
            {
                JsonKind::Object
            }
            _ => return None,
        };
        Some(kind)
    }

    /// How an undiscriminated union becomes an untagged enum: a variant per JSON kind, of its
    /// one member or of the several members of that kind told apart among themselves
    /// (`ir::kinds`; strings by their formats); or why it cannot (the reason a note gives).
    pub(super) fn untagged_plan(
        &mut self,
        schema: &'a Schema,
        pointer: &Pointer,
    ) -> Result<UntaggedPlan<'a>, String> {
        let Some((keyword, members)) = plain_union_members(schema) else {
            return Err("not a union".into());
        };
        if members.len() < 2 {
            return Err("a union of one member".into());
        }
        if self.is_decimal_union(schema, pointer) {
            return Err("a decimal".into());
        }
        // Strings each stand alone (told apart by format below); other kinds gather.
        let mut by_kind: Vec<(JsonKind, Vec<IndexedMember<'a>>)> = Vec::new();
        for (i, member) in members.iter().enumerate() {
            let Some(kind) = self.member_kind(member, pointer) else {
                return Err(format!("member {i} is not of one JSON kind"));
            };
            match by_kind.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, same)) if kind != JsonKind::String => same.push((i, member)),
                _ => by_kind.push((kind, vec![(i, member)])),
            }
        }
        let mut plan = Vec::with_capacity(by_kind.len());
        let whole = by_kind.len() == 1;
        for (kind, same) in by_kind {
            let variant = match <[_; 1]>::try_from(same) {
                Ok([(index, member)]) => PlanVariant::Member(index, member),
                Err(same) => {
                    let shared = UnionMembers {
                        keyword,
                        members: same,
                    };
                    let how = self.shared_kind(kind, &shared, pointer)?;
                    if whole {
                        return Err("a union of one JSON kind".into());
                    }
                    PlanVariant::Shared(shared, how)
                }
            };
            plan.push((kind, variant));
        }
        // Strings are told apart by their formats, when they are (`ir::formats`).
        let strings: Vec<IndexedMember<'a>> = plan
            .iter()
            .filter_map(|(kind, variant)| match variant {
                PlanVariant::Member(index, member) if *kind == JsonKind::String => {
                    Some((*index, *member))
                }
                _ => None,
            })
            .collect();
        if strings.len() > 1 {
            self.string_members_by_format(&strings, pointer)?;
        }
        // The order serde tries them in: an integer before a number, so `3` is an integer; a
        // date-time before a date, which a date parser could read the date out of.
        plan.sort_by_key(|(kind, variant)| {
            let format = match variant {
                PlanVariant::Member(_, member) => self.parsed_format(member, pointer).ok(),
                PlanVariant::Shared(..) => None,
            };
            (*kind, format)
        });
        Ok((keyword, plan))
    }

    pub(super) fn define_untagged(
        &mut self,
        name: &str,
        (keyword, plan): UntaggedPlan<'a>,
        doc: Option<String>,
        pointer: &Pointer,
        best_fit: bool,
    ) -> Result<(), Error> {
        // Reserve the name first: a member may refer back to the union.
        self.reserve(name);
        let mut variant_names = Names::union_variants();
        let mut variants = Vec::with_capacity(plan.len());
        let plan_strings = plan
            .iter()
            .filter(|(kind, _)| *kind == JsonKind::String)
            .count();
        for (kind, variant) in plan {
            let (index, member) = match variant {
                PlanVariant::Member(index, member) => (index, member),
                PlanVariant::Shared(shared, how) => {
                    let ty = self.define_shared_kind(name, kind, (shared, how), pointer)?;
                    variants.push(UntaggedVariant {
                        rust_name: variant_names.claim(kind.name(), ""),
                        kind,
                        ty,
                        held: Held::Inline,
                        keys: None,
                    });
                    continue;
                }
            };
            let member_pointer = pointer.join(keyword).join(index);
            let (ty, _) = self.type_of(
                SchemaAt::of(member),
                &format!("{name}{}", kind.name()),
                &member_pointer,
            )?;
            // Several strings are told apart by format, and named after it.
            let format = (plan_strings > 1)
                .then(|| self.parsed_format(member, pointer).ok())
                .flatten();
            let wanted = match (member, &ty, format) {
                (ReferenceOr::Reference { .. }, TypeRef::Named(type_name), _) => type_name.clone(),
                (_, _, Some(format)) => format.variant_name().to_owned(),
                _ => kind.name().to_owned(),
            };
            variants.push(UntaggedVariant {
                rust_name: variant_names.claim(&names::camel_ident(&wanted, "V"), ""),
                kind,
                // A member's `null` is the union's (`ir::nullable`).
                ty,
                held: Held::Inline,
                keys: None,
            });
        }
        self.types.insert(
            name.to_owned(),
            TypeDef::Untagged(UntaggedDef {
                name: name.to_owned(),
                doc,
                variants,
                best_fit,
            }),
        );
        Ok(())
    }

    pub(super) fn define_enum(&mut self, name: &str, values: Vec<&str>, doc: Option<String>) {
        let mut variant_names = self.names.variant_scope(name);
        let mut seen = BTreeSet::new();
        let variants = values
            .into_iter()
            .filter(|wire| seen.insert(*wire))
            .map(|wire| Variant {
                wire: wire.to_owned(),
                rust_name: Names::claim_variant(&mut variant_names, wire),
            })
            .collect();
        let fallback = fallback_variant();
        self.names.keep_variants(name, variant_names);
        self.types.insert(
            name.to_owned(),
            TypeDef::Enum(EnumDef {
                name: name.to_owned(),
                doc,
                variants,
                fallback,
            }),
        );
    }

    /// An enum of JSON values (`TypeDef::ValueEnum`): each value's JSON text is its wire form,
    /// by which the names lock keeps its variant name; a value equal to an earlier one as JSON
    /// (`1` and `1.0`) is that one.
    pub(super) fn define_value_enum(
        &mut self,
        name: &str,
        values: Vec<&serde_json::Value>,
        doc: Option<String>,
    ) {
        let mut variant_names = self.names.variant_scope(name);
        let mut kept: Vec<&serde_json::Value> = Vec::new();
        let mut variants = Vec::new();
        for value in values {
            if kept.iter().any(|known| same_json(known, value)) {
                continue;
            }
            kept.push(value);
            let wire = value.to_string();
            variants.push(Variant {
                rust_name: Names::claim_variant(&mut variant_names, &wire),
                wire,
            });
        }
        let fallback = fallback_variant();
        self.names.keep_variants(name, variant_names);
        self.types.insert(
            name.to_owned(),
            TypeDef::ValueEnum(EnumDef {
                name: name.to_owned(),
                doc,
                variants,
                fallback,
            }),
        );
    }

    pub(super) fn define_struct(
        &mut self,
        name: &str,
        parts: ObjectParts<'a>,
        doc: Option<String>,
        pointer: &Pointer,
    ) -> Result<(), Error> {
        if matches!(
            parts.additional,
            Some(AdditionalProperties::Schema(_) | AdditionalProperties::Any(true))
        ) {
            self.note(
                &pointer.join("additionalProperties"),
                "extra properties beside the declared ones are not kept",
            );
        }
        // Reserve the name before the fields, so that a field referring back finds it taken.
        self.reserve(name);
        let mut field_names = Names::struct_fields();
        let mut fields = Vec::with_capacity(parts.properties.len());
        for (wire, property) in parts.properties {
            let field_pointer = pointer.join("properties").join(wire);
            let hint = format!("{name}{}", names::camel_ident(wire, ""));
            let at = SchemaAt::of_boxed(property);
            let (ty, nullable) = self.type_of(at, &hint, &field_pointer)?;
            let doc = match at {
                SchemaAt::Item(schema) => doc_of(schema),
                SchemaAt::Ref(_) => None,
            };
            let required = parts.required.contains(wire.as_str());
            if required && let Ok(schema) = self.resolve(at, &field_pointer) {
                let data = &schema.schema_data;
                let side = match (data.read_only, data.write_only) {
                    (true, false) => Some(access::Side::Responses),
                    (false, true) => Some(access::Side::Requests),
                    _ => None,
                };
                if let Some(side) = side {
                    self.one_sided.push(access::OneSided {
                        type_name: name.to_owned(),
                        wire_name: wire.clone(),
                        side,
                        pointer: field_pointer.to_string(),
                    });
                }
            }
            fields.push(Field {
                wire_name: wire.clone(),
                rust_name: field_names.claim(&names::snake_ident(wire), "_"),
                doc,
                ty,
                required,
                nullable,
                held: Held::Inline,
            });
        }
        self.types.insert(
            name.to_owned(),
            TypeDef::Struct(StructDef {
                name: name.to_owned(),
                doc,
                fields,
            }),
        );
        Ok(())
    }

    /// The Rust type of a schema position, and whether it may be null.
    pub(super) fn type_of(
        &mut self,
        at: SchemaAt<'a>,
        hint: &str,
        pointer: &Pointer,
    ) -> Result<(TypeRef, bool), Error> {
        let schema = match at {
            SchemaAt::Ref(reference) => {
                let (key, schema) = self.component(reference, pointer)?;
                let name = self.component_names.get(key).cloned().unwrap_or_default();
                return Ok((TypeRef::Named(name), self.admits_null(schema, pointer)));
            }
            SchemaAt::Item(schema) => schema,
        };
        let nullable = self.admits_null(schema, pointer);
        let ty = match &schema.schema_kind {
            SchemaKind::Type(Type::String(string)) => {
                if string_enum(schema).is_some() {
                    self.define_inline(hint, schema, pointer)?
                } else {
                    match &string.format {
                        VariantOrUnknownOrEmpty::Item(StringFormat::DateTime) => TypeRef::Timestamp,
                        VariantOrUnknownOrEmpty::Item(StringFormat::Date) => TypeRef::Date,
                        VariantOrUnknownOrEmpty::Item(StringFormat::Binary) => TypeRef::Bytes,
                        _ => TypeRef::String,
                    }
                }
            }
            SchemaKind::Type(Type::Integer(_)) if integer_enum(schema).is_some() => {
                self.define_inline(hint, schema, pointer)?
            }
            SchemaKind::Type(Type::Integer(integer)) => match &integer.format {
                VariantOrUnknownOrEmpty::Unknown(format) if is_unsigned_format(format) => {
                    TypeRef::Unsigned
                }
                _ => TypeRef::Integer,
            },
            SchemaKind::Type(Type::Number(_)) => TypeRef::Number,
            SchemaKind::Type(Type::Boolean(_)) => TypeRef::Boolean,
            SchemaKind::Type(Type::Array(array)) => match &array.items {
                Some(items) => {
                    let (item, item_nullable) = self.type_of(
                        SchemaAt::of_boxed(items),
                        &format!("{hint}Item"),
                        &pointer.join("items"),
                    )?;
                    TypeRef::Vec(Box::new(optional_if(item, item_nullable)))
                }
                None => {
                    self.note(
                        pointer,
                        "an array without `items` (of any JSON values) is a Vec of serde_json::Value",
                    );
                    TypeRef::Vec(Box::new(TypeRef::Json))
                }
            },
            SchemaKind::Any(_) if value_enum(schema).is_some() => {
                self.define_inline(hint, schema, pointer)?
            }
            SchemaKind::Type(Type::Object(_)) | SchemaKind::Any(_) => {
                self.object_type(hint, schema, pointer)?
            }
            SchemaKind::AllOf { all_of } => match all_of.as_slice() {
                [single] => {
                    self.type_of(SchemaAt::of(single), hint, &pointer.join("allOf").join(0))?
                        .0
                }
                _ => self.define_inline(hint, schema, pointer)?,
            },
            SchemaKind::OneOf { .. } | SchemaKind::AnyOf { .. } => {
                match self.union_form(schema, pointer) {
                    UnionForm::Defined => self.define_inline(hint, schema, pointer)?,
                    UnionForm::Decimal => TypeRef::Decimal,
                    UnionForm::Value(reason) => {
                        self.typed_as_value(
                            pointer,
                            ValueReason::Union,
                            format!(
                                "a union of several schemas is lowered to serde_json::Value: {reason}"
                            ),
                        );
                        TypeRef::Json
                    }
                }
            }
            SchemaKind::Not { .. } => {
                self.typed_as_value(
                    pointer,
                    ValueReason::Not,
                    "`not` is lowered to serde_json::Value",
                );
                TypeRef::Json
            }
        };
        Ok((ty, nullable))
    }

    /// An object schema's type: a struct when it declares properties, a map of its
    /// `additionalProperties` (or of any JSON value), or any JSON value, with a note, when its
    /// keywords fit no object.
    fn object_type(
        &mut self,
        hint: &str,
        schema: &'a Schema,
        pointer: &Pointer,
    ) -> Result<TypeRef, Error> {
        Ok(match object_parts(schema) {
            Some(parts) if !parts.properties.is_empty() => {
                self.define_inline(hint, schema, pointer)?
            }
            Some(ObjectParts {
                additional: Some(AdditionalProperties::Schema(values)),
                ..
            }) => {
                let (value, value_nullable) = self.type_of(
                    SchemaAt::of_boxed_ref(values),
                    &format!("{hint}Value"),
                    &pointer.join("additionalProperties"),
                )?;
                TypeRef::Map(Box::new(optional_if(value, value_nullable)))
            }
            Some(_) => {
                self.note(
                    pointer,
                    "a free-form object (no declared properties) is a map of serde_json::Value",
                );
                TypeRef::Map(Box::new(TypeRef::Json))
            }
            None => {
                match &schema.schema_kind {
                    SchemaKind::Any(any) if any.typ.is_some() || !any.enumeration.is_empty() => {
                        self.typed_as_value(
                        pointer,
                        ValueReason::KeywordsMismatch,
                        "a schema whose keywords do not fit its `type` is lowered to serde_json::Value",
                    );
                    }
                    _ => self.note(
                        pointer,
                        "a schema without a type (any JSON value) is serde_json::Value",
                    ),
                }
                TypeRef::Json
            }
        })
    }

    /// An inline struct or enum, named after where it stands.
    pub(super) fn define_inline(
        &mut self,
        hint: &str,
        schema: &'a Schema,
        pointer: &Pointer,
    ) -> Result<TypeRef, Error> {
        // A document's own tree holds fewer nested schemas than it has levels (the loader caps
        // those at `MAX_DEPTH`), so only `$ref`s leading back into an inline `allOf` get here.
        if self.inline_depth >= crate::load::MAX_DEPTH {
            self.typed_as_value(
                pointer,
                ValueReason::NestedTooDeep,
                format!(
                    "inline schemas nest more than {} levels here (an allOf that reaches itself through $ref): lowered to serde_json::Value",
                    crate::load::MAX_DEPTH
                ),
            );
            return Ok(TypeRef::Json);
        }
        let name = self.inline_name(hint, pointer);
        self.inline_depth += 1;
        let defined = self.define_named(&name, schema, pointer);
        self.inline_depth -= 1;
        if defined? {
            Ok(TypeRef::Named(name))
        } else {
            Ok(TypeRef::Json)
        }
    }

    /// The schema a position holds, through `$ref`s.
    pub(super) fn resolve(&self, at: SchemaAt<'a>, pointer: &Pointer) -> Result<&'a Schema, Error> {
        match at {
            SchemaAt::Ref(reference) => Ok(self.component(reference, pointer)?.1),
            SchemaAt::Item(schema) => Ok(schema),
        }
    }

    /// The properties of an object schema with some (through `$ref` and a one-member `allOf`).
    pub(super) fn object_of(
        &self,
        at: SchemaAt<'a>,
        pointer: &Pointer,
    ) -> Result<Option<ObjectParts<'a>>, Error> {
        let schema = self.through_single_all_of(self.resolve(at, pointer)?, pointer)?;
        Ok(object_parts(schema).filter(|parts| !parts.properties.is_empty()))
    }

    /// Whether the position is a `oneOf`/`anyOf` whose members are all plain scalars (a string,
    /// number, integer or boolean, through `$ref`s and one-member `allOf`s), and not a union of
    /// string constants (which is an enum).
    pub(super) fn is_scalar_union(
        &self,
        at: SchemaAt<'a>,
        pointer: &Pointer,
    ) -> Result<bool, Error> {
        let schema = self.resolve(at, pointer)?;
        let members = match &schema.schema_kind {
            SchemaKind::OneOf { one_of: members } | SchemaKind::AnyOf { any_of: members }
                if schema.schema_data.discriminator.is_none()
                    && const_union(schema).is_none()
                    && !members.is_empty() =>
            {
                members
            }
            _ => return Ok(false),
        };
        for member in members {
            let member =
                self.through_single_all_of(self.resolve(SchemaAt::of(member), pointer)?, pointer)?;
            let scalar = matches!(
                member.schema_kind,
                SchemaKind::Type(
                    Type::String(_) | Type::Integer(_) | Type::Number(_) | Type::Boolean(_)
                )
            );
            if !scalar {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Follows aliases in a loop, not by recursion: a chain of them may be thousands long.
    pub(super) fn is_scalar(&self, ty: &TypeRef) -> bool {
        let mut current = ty;
        // More steps than types means a cycle, which is not a scalar.
        for _ in 0..=self.types.len() {
            match current {
                TypeRef::String
                | TypeRef::Integer
                | TypeRef::Unsigned
                | TypeRef::Number
                | TypeRef::Boolean
                | TypeRef::Decimal
                | TypeRef::Timestamp
                | TypeRef::Date => {
                    return true;
                }
                TypeRef::Named(name) => match self.types.get(name) {
                    Some(TypeDef::Enum(_) | TypeDef::IntEnum(_)) => return true,
                    Some(TypeDef::Alias(alias)) => current = &alias.ty,
                    _ => return false,
                },
                _ => return false,
            }
        }
        false
    }
}

pub(super) fn optional_if(ty: TypeRef, nullable: bool) -> TypeRef {
    if nullable {
        TypeRef::Option(Box::new(ty))
    } else {
        ty
    }
}

pub(super) fn doc_of(schema: &Schema) -> Option<String> {
    // Titles are mostly the property name again ("Start Epoch Millis"): not documentation.
    schema
        .schema_data
        .description
        .clone()
        .filter(|text| !text.trim().is_empty())
}

pub(super) fn string_enum(schema: &Schema) -> Option<Vec<&str>> {
    let values: Vec<&str> = match &schema.schema_kind {
        SchemaKind::Type(Type::String(string)) => string
            .enumeration
            .iter()
            .flatten()
            .map(String::as_str)
            .collect(),
        SchemaKind::Any(any) if any.typ.is_none() || any.typ.as_deref() == Some("string") => {
            let strings: Option<Vec<&str>> = any
                .enumeration
                .iter()
                .filter(|v| !v.is_null())
                .map(serde_json::Value::as_str)
                .collect();
            strings.unwrap_or_default()
        }
        _ => Vec::new(),
    };
    (!values.is_empty()).then_some(values)
}

/// The values of a `oneOf`/`anyOf` whose every member is an inline string enum (dropshot's
/// documented constants: one `enum: [v]` or `const: v` with a description each): an enum.
pub(super) fn const_union(schema: &Schema) -> Option<Vec<&str>> {
    let members = match &schema.schema_kind {
        SchemaKind::OneOf { one_of: members } | SchemaKind::AnyOf { any_of: members }
            if schema.schema_data.discriminator.is_none() =>
        {
            members
        }
        _ => return None,
    };
    let mut values = Vec::new();
    for member in members {
        let ReferenceOr::Item(member) = member else {
            return None;
        };
        values.extend(string_enum(member)?);
    }
    (!values.is_empty()).then_some(values)
}

/// An untagged union's variants by JSON kind, in try order, with the keyword the members
/// stand under.
pub(super) type UntaggedPlan<'a> = (&'static str, Vec<(JsonKind, PlanVariant<'a>)>);

/// One variant of an untagged union.
pub(super) enum PlanVariant<'a> {
    /// The one member of its JSON kind, by index.
    Member(usize, &'a ReferenceOr<Schema>),
    /// The several members of one JSON kind, and how they are told apart.
    Shared(UnionMembers<'a>, SharedKind<'a>),
}

/// The members of an `anyOf`/`oneOf`, with the keyword they stand under.
pub(super) fn union_members(schema: &Schema) -> Option<(&'static str, &[ReferenceOr<Schema>])> {
    match &schema.schema_kind {
        SchemaKind::OneOf { one_of } => Some(("oneOf", one_of)),
        SchemaKind::AnyOf { any_of } => Some(("anyOf", any_of)),
        _ => None,
    }
}

/// The members of an `anyOf`/`oneOf` that is neither discriminated nor a union of string
/// constants (an enum), with the keyword they stand under.
pub(super) fn plain_union_members(
    schema: &Schema,
) -> Option<(&'static str, &[ReferenceOr<Schema>])> {
    if schema.schema_data.discriminator.is_some() || const_union(schema).is_some() {
        return None;
    }
    union_members(schema)
}

/// The values of an `enum` of JSON values that are not all of one scalar type (the lowering
/// types those): objects, arrays, or scalars of several kinds; null (which makes the schema
/// nullable) left out. `None` when no value is left.
pub(super) fn value_enum(schema: &Schema) -> Option<Vec<&serde_json::Value>> {
    let SchemaKind::Any(any) = &schema.schema_kind else {
        return None;
    };
    let values: Vec<&serde_json::Value> = any
        .enumeration
        .iter()
        .filter(|value| !value.is_null())
        .collect();
    (!values.is_empty()).then_some(values)
}

/// Whether two JSON values are equal as JSON Schema compares them: numbers by value (`1` and
/// `1.0`), objects by their members in any order, arrays item by item.
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(x), Some(y)) => x == y,
                _ => matches!((x.as_f64(), y.as_f64()), (Some(x), Some(y)) if x == y),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| same_json(x, y)))
        }
        _ => a == b,
    }
}

/// The values of `type: integer, enum: [...]`.
pub(super) fn integer_enum(schema: &Schema) -> Option<Vec<i64>> {
    let SchemaKind::Type(Type::Integer(integer)) = &schema.schema_kind else {
        return None;
    };
    let values: Vec<i64> = integer.enumeration.iter().flatten().copied().collect();
    (!values.is_empty()).then_some(values)
}

/// A string member of a decimal union: `format: decimal`, or a `pattern` that admits only
/// decimal text: digit classes (`\d`, `0-9`), signs, a point, an exponent letter and regex
/// syntax, with at least one digit class. `\w`, `[a-z]` or any other letter rule it out.
pub(super) fn is_decimal_string(string: &openapiv3::StringType) -> bool {
    if matches!(&string.format, openapiv3::VariantOrUnknownOrEmpty::Unknown(f) if f == "decimal") {
        return true;
    }
    let Some(pattern) = string.pattern.as_deref() else {
        return false;
    };
    let digit_class = pattern.contains("\\d") || pattern.contains("0-9");
    let rest = pattern
        .replace("\\d", "")
        .replace("\\.", "")
        .replace("0-9", "");
    digit_class
        && rest
            .chars()
            .all(|c| c.is_ascii_digit() || "^$()[]{}?!*+-.,|:eE".contains(c))
}

pub(super) fn object_parts(schema: &Schema) -> Option<ObjectParts<'_>> {
    match &schema.schema_kind {
        SchemaKind::Type(Type::Object(object)) => Some(ObjectParts {
            properties: object.properties.iter().collect(),
            required: object.required.iter().map(String::as_str).collect(),
            additional: object.additional_properties.as_ref(),
        }),
        SchemaKind::Any(any)
            if !any.properties.is_empty() || any.typ.as_deref() == Some("object") =>
        {
            Some(ObjectParts {
                properties: any.properties.iter().collect(),
                required: any.required.iter().map(String::as_str).collect(),
                additional: any.additional_properties.as_ref(),
            })
        }
        _ => None,
    }
}

/// Unsigned integer formats as documents write them (OpenAPI's format registry, Protobuf- and
/// Go-derived generators): `uint64`, `uint32`, `uint16`, `uint8`, `uint`.
fn is_unsigned_format(format: &str) -> bool {
    matches!(format, "uint" | "uint8" | "uint16" | "uint32" | "uint64")
}
