//! Recognises index-mapped metrics responses by structure, not by name.
//!
//! The shape: a response struct with an integer window (`start_epoch_millis`,
//! `end_epoch_millis`), a list of descriptors (structs with a `name` and `label_sets`, a list of
//! string maps) and a list of value sets (structs with `start_epoch_millis` and
//! `values: [[number | null]]`). Every struct of that shape gets the runtime's alignment traits,
//! whatever it and its lists are called.

use crate::ir::{Field, Held, StructDef, TypeDef, TypeRef};
use std::collections::BTreeMap;

/// The runtime's aggregation modes (`MetricsMode`) by wire value. The generator maps a
/// document's mode values onto them, so the runtime never re-parses a wire string.
pub const RUNTIME_MODES: &[(&str, &str)] = &[
    ("CURRENT", "Current"),
    ("SUMMARY", "Summary"),
    ("SERIES", "Series"),
];

/// The runtime's units (`metrics::Unit`) by unit-hint wire value; any other hint is its
/// `Unknown`.
pub const RUNTIME_UNITS: &[(&str, &str)] = &[
    ("PER_SECOND", "PerSecond"),
    ("SECONDS", "Seconds"),
    ("BYTES", "Bytes"),
    ("MEBIBYTES", "Mebibytes"),
    ("COUNT", "Count"),
    ("RATIO", "Ratio"),
];

/// A field whose value is a wire string: a `String`, or an open enum of known values.
#[derive(Debug, Clone, PartialEq)]
pub struct WireField {
    /// The field's Rust name.
    pub field: String,
    /// Whether it may be absent or null.
    pub optional: bool,
    /// For an open enum: its Rust name and its known values as (wire value, variant).
    pub open_enum: Option<(String, Vec<(String, String)>)>,
}

/// One response type of the index-mapped shape, with the fields that play each part.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexMapped {
    /// The response struct.
    pub response: String,
    /// Its list of descriptors.
    pub descriptors_field: String,
    /// Its list of value sets.
    pub value_sets_field: String,
    /// `mode`, when present.
    pub mode: Option<WireField>,
    /// `step_seconds`, when present: (field, is optional).
    pub step_seconds: Option<(String, bool)>,
    /// The descriptor struct.
    pub descriptor: String,
    /// `unit_hint` on the descriptor.
    pub unit_hint: Option<WireField>,
    /// `kind` on the descriptor.
    pub kind: Option<WireField>,
    /// The value-set struct.
    pub value_set: String,
}

/// Every index-mapped response among `types`, sorted by name.
pub(crate) fn recognise(types: &BTreeMap<String, TypeDef>) -> Vec<IndexMapped> {
    let structs: BTreeMap<&str, &StructDef> = types
        .iter()
        .filter_map(|(name, def)| match def {
            TypeDef::Struct(def) => Some((name.as_str(), def)),
            _ => None,
        })
        .collect();
    let is_descriptor = |def: &StructDef| {
        has(def, "name", |ty| *ty == TypeRef::String)
            && has(def, "label_sets", |ty| {
                *ty == vec(TypeRef::Map(Box::new(TypeRef::String)))
            })
    };
    let is_value_set = |def: &StructDef| {
        has(def, "start_epoch_millis", |ty| *ty == TypeRef::Integer)
            && has(def, "values", |ty| {
                *ty == vec(vec(TypeRef::Option(Box::new(TypeRef::Number))))
            })
    };
    let list_of = |def: &StructDef, matches: &dyn Fn(&StructDef) -> bool| {
        def.fields
            .iter()
            .filter(|f| f.required && !f.nullable && f.held == Held::Inline)
            .find_map(|f| match &f.ty {
                TypeRef::Vec(item) => match item.as_ref() {
                    TypeRef::Named(name)
                        if structs.get(name.as_str()).is_some_and(|d| matches(d)) =>
                    {
                        Some((f.rust_name.clone(), name.clone()))
                    }
                    _ => None,
                },
                _ => None,
            })
    };
    let mut found = Vec::new();
    for def in structs.values() {
        if !(has(def, "start_epoch_millis", |ty| *ty == TypeRef::Integer)
            && has(def, "end_epoch_millis", |ty| *ty == TypeRef::Integer))
        {
            continue;
        }
        let (Some((descriptors_field, descriptor)), Some((value_sets_field, value_set))) =
            (list_of(def, &is_descriptor), list_of(def, &is_value_set))
        else {
            continue;
        };
        let Some(descriptor_def) = structs.get(descriptor.as_str()) else {
            continue;
        };
        found.push(IndexMapped {
            response: def.name.clone(),
            descriptors_field,
            value_sets_field,
            mode: wire_string_field(def, "mode", types),
            step_seconds: field(def, "step_seconds")
                .filter(|f| f.ty == TypeRef::Integer)
                .map(|f| (f.rust_name.clone(), !f.required || f.nullable)),
            descriptor,
            unit_hint: wire_string_field(descriptor_def, "unit_hint", types),
            kind: wire_string_field(descriptor_def, "kind", types),
            value_set,
        });
    }
    found
}

fn vec(inner: TypeRef) -> TypeRef {
    TypeRef::Vec(Box::new(inner))
}

fn field<'d>(def: &'d StructDef, wire: &str) -> Option<&'d Field> {
    def.fields
        .iter()
        .find(|f| f.wire_name == wire && f.held == Held::Inline)
}

/// A required, non-null field of the given type.
fn has(def: &StructDef, wire: &str, ty: impl Fn(&TypeRef) -> bool) -> bool {
    field(def, wire).is_some_and(|f| f.required && !f.nullable && ty(&f.ty))
}

/// A field whose value has a wire string: a `String` or an open enum.
fn wire_string_field(
    def: &StructDef,
    wire: &str,
    types: &BTreeMap<String, TypeDef>,
) -> Option<WireField> {
    let f = field(def, wire)?;
    let open_enum = match &f.ty {
        TypeRef::String => None,
        TypeRef::Named(name) => match types.get(name) {
            Some(TypeDef::Enum(def)) => Some((
                def.name.clone(),
                def.variants
                    .iter()
                    .map(|v| (v.wire.clone(), v.rust_name.clone()))
                    .collect(),
            )),
            _ => return None,
        },
        _ => return None,
    };
    Some(WireField {
        field: f.rust_name.clone(),
        optional: !f.required || f.nullable,
        open_enum,
    })
}
