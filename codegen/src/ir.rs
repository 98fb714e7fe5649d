//! The intermediate representation: validated, named Rust types and operations.
//!
//! [`build`] walks the lowered document once, resolves every `$ref` (dangling ones and
//! reference-only cycles are errors), names every type and operation, and records as notes what
//! it represents with a loss. The emitters read only this, never the document.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use openapiv3::{
    AdditionalProperties, OpenAPI, Parameter, ParameterSchemaOrContent, QueryStyle, ReferenceOr,
    RequestBody, Response, Schema, SchemaKind, StatusCode, StringFormat, Type,
    VariantOrUnknownOrEmpty,
};

use crate::error::Pointer;
use crate::lock::{LockedNamespace, NameLock};
use crate::names::{self, Namespace};
use crate::select::Selection;
use crate::{Config, Error, Note};

/// The whole API as the emitters see it.
#[derive(Debug, Clone, PartialEq)]
pub struct Api {
    /// The first `servers` URL, if any.
    pub base_url: Option<String>,
    /// Every type by Rust name (sorted, so output order never depends on the document's).
    pub types: BTreeMap<String, TypeDef>,
    /// Every operation, sorted by method name.
    pub operations: Vec<Operation>,
    /// The Rust name given to each component schema, by its key in the document.
    pub component_names: BTreeMap<String, String>,
    /// Selected operations left out because they cannot be represented, sorted by method name.
    pub skipped: Vec<SkippedOperation>,
    /// Every name given (and every name the config's lock retired), for the next generation.
    pub names: NameLock,
}

/// A named Rust type.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeDef {
    /// An object schema with properties.
    Struct(StructDef),
    /// A string enum, open to values the document does not list.
    Enum(EnumDef),
    /// A name for another type (`pub type Name = Target;`).
    Alias(AliasDef),
    /// A discriminated `oneOf`: one variant per tag, open to tags the document does not list.
    Union(UnionDef),
    /// An `anyOf`/`oneOf` whose members JSON tells apart by the kind of value (a number or a
    /// string, an object or an array, …): serde's `untagged`.
    Untagged(UntaggedDef),
    /// An integer enum (`type: integer, enum: [...]`), open to values the document does not list.
    IntEnum(IntEnumDef),
}

/// A union told apart by JSON kind: one variant per member, at most one per kind.
#[derive(Debug, Clone, PartialEq)]
pub struct UntaggedDef {
    /// Rust name.
    pub name: String,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// Variants in the order serde tries them (an integer before a number).
    pub variants: Vec<UntaggedVariant>,
}

/// One member of an [`UntaggedDef`].
#[derive(Debug, Clone, PartialEq)]
pub struct UntaggedVariant {
    /// The Rust variant name: a `$ref` member's type name, else its kind (`String`, `Number`).
    pub rust_name: String,
    /// The JSON kind of value it takes.
    pub kind: JsonKind,
    /// The payload type.
    pub ty: TypeRef,
    /// Stored behind a `Box` because the union contains itself through this variant.
    pub boxed: bool,
}

/// The kinds of JSON value, in the order an untagged union tries its members.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum JsonKind {
    /// `true` / `false`.
    Boolean,
    /// A number without a fraction that fits an `i64`.
    Integer,
    /// Any number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonKind {
    /// The variant name a member of this kind gets when it has no type name of its own.
    pub fn name(self) -> &'static str {
        match self {
            JsonKind::Boolean => "Boolean",
            JsonKind::Integer => "Integer",
            JsonKind::Number => "Number",
            JsonKind::String => "String",
            JsonKind::Array => "Array",
            JsonKind::Object => "Object",
        }
    }
}

/// An open integer enum.
#[derive(Debug, Clone, PartialEq)]
pub struct IntEnumDef {
    /// Rust name.
    pub name: String,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// Known values in document order.
    pub variants: Vec<IntVariant>,
    /// Name of the variant that keeps any other integer.
    pub fallback: String,
}

/// One known integer enum value.
#[derive(Debug, Clone, PartialEq)]
pub struct IntVariant {
    /// The integer on the wire.
    pub value: i64,
    /// The Rust variant name (`V200`, `VMinus1`).
    pub rust_name: String,
}

/// A tagged union, decoded by its discriminator property.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionDef {
    /// Rust name.
    pub name: String,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// The discriminator property.
    pub tag_property: String,
    /// One variant per tag value, in document order.
    pub variants: Vec<UnionVariant>,
    /// Name of the variant that keeps a value with any other tag.
    pub fallback: String,
}

/// One tag of a union.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionVariant {
    /// The discriminator value.
    pub tag: String,
    /// The Rust variant name.
    pub rust_name: String,
    /// The variant's payload type.
    pub ty: TypeRef,
    /// Stored behind a `Box` because the union contains itself through this variant.
    pub boxed: bool,
}

/// A struct: one field per property, in document order.
#[derive(Debug, Clone, PartialEq)]
pub struct StructDef {
    /// Rust name.
    pub name: String,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// Fields in document order.
    pub fields: Vec<Field>,
}

/// One struct field.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The property name on the wire.
    pub wire_name: String,
    /// The Rust field name.
    pub rust_name: String,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// The value's type, without the `Option` that `required`/`nullable` add.
    pub ty: TypeRef,
    /// Listed in `required`.
    pub required: bool,
    /// May be `null`.
    pub nullable: bool,
    /// Stored behind a `Box` because the type contains itself without other indirection.
    pub boxed: bool,
}

/// An open string enum.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumDef {
    /// Rust name.
    pub name: String,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// Known values in document order.
    pub variants: Vec<Variant>,
    /// Name of the variant that keeps any other string.
    pub fallback: String,
}

/// One known enum value.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// The string on the wire.
    pub wire: String,
    /// The Rust variant name.
    pub rust_name: String,
}

/// `pub type Name = Target;`
#[derive(Debug, Clone, PartialEq)]
pub struct AliasDef {
    /// Rust name.
    pub name: String,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// What it names.
    pub ty: TypeRef,
}

/// A use of a type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum TypeRef {
    /// `String`
    String,
    /// `i64`
    Integer,
    /// `f64`
    Number,
    /// `bool`
    Boolean,
    /// The runtime's exact `Decimal`: a number, or a string of decimal digits.
    Decimal,
    /// `jiff::Timestamp`: a `format: date-time` string (RFC 3339, with an offset).
    Timestamp,
    /// `jiff::civil::Date`: a `format: date` string (`2026-08-22`).
    Date,
    /// `serde_json::Value`: anything.
    Json,
    /// A [`TypeDef`] by Rust name.
    Named(String),
    /// `Vec<T>`
    Vec(Box<TypeRef>),
    /// `BTreeMap<String, T>`
    Map(Box<TypeRef>),
    /// `Option<T>` inside a collection (`[number | null]`).
    Option(Box<TypeRef>),
}

/// One HTTP operation, emitted as one async method.
#[derive(Debug, Clone, PartialEq)]
pub struct Operation {
    /// The method name.
    pub name: String,
    /// Upper-case HTTP method.
    pub method: String,
    /// The path template as written (`/v1/models/{model_id}`).
    pub path: String,
    /// The document's tags for it.
    pub tags: Vec<String>,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// Path parameters in template order.
    pub path_params: Vec<Param>,
    /// Required query parameters (method arguments).
    pub required_query: Vec<Param>,
    /// Optional query parameters (fields of the query struct).
    pub optional_query: Vec<Param>,
    /// Name of the query struct, when there are optional query parameters.
    pub query_type: Option<String>,
    /// The request body.
    pub body: Option<Body>,
    /// What a 2xx response carries.
    pub response: ResponseKind,
}

/// A path or query parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The name on the wire.
    pub wire_name: String,
    /// The Rust name.
    pub rust_name: String,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// The value's type (`Vec<T>` for repeated query keys).
    pub ty: TypeRef,
    /// A union of scalar types (`oneOf [integer, string]`): taken as anything `Display`, sent as
    /// its text; `ty` is then `String`.
    pub any_scalar: bool,
}

/// A request body.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// How it is encoded, and from what.
    pub kind: BodyKind,
    /// The media type as the document writes it, sent as `Content-Type`.
    pub media_type: String,
    /// Whether it must be sent.
    pub required: bool,
}

/// How a request body is encoded.
#[derive(Debug, Clone, PartialEq)]
pub enum BodyKind {
    /// A value of this type as JSON (`application/json`, `…+json`).
    Json(TypeRef),
    /// A value of this (object) type form-encoded (`application/x-www-form-urlencoded`).
    Form(TypeRef),
    /// Text as given (`text/*`).
    Text,
    /// Bytes as given (`application/octet-stream` and every other media type).
    Bytes,
}

impl BodyKind {
    /// The type the caller's value has, for the kinds that carry one.
    pub fn value_type(&self) -> Option<&TypeRef> {
        match self {
            BodyKind::Json(ty) | BodyKind::Form(ty) => Some(ty),
            BodyKind::Text | BodyKind::Bytes => None,
        }
    }
}

/// What a successful response decodes into.
#[derive(Debug, Clone, PartialEq)]
pub enum ResponseKind {
    /// A JSON body of this type.
    Json(TypeRef),
    /// Text (`text/*`), asked for with this media type as `Accept`.
    Text(String),
    /// Bytes (any other media type), asked for with this media type as `Accept`.
    Bytes(String),
    /// No body the generated code reads.
    Empty,
}

/// A selected operation the generator could not represent and left out, with a note.
#[derive(Debug, Clone, PartialEq)]
pub struct SkippedOperation {
    /// The method name it would have had.
    pub name: String,
    /// Upper-case HTTP method.
    pub method: String,
    /// The path template as written.
    pub path: String,
    /// Where the construct that could not be represented stands.
    pub pointer: String,
    /// Why it could not be represented.
    pub reason: String,
}

const SCHEMAS: &str = "#/components/schemas/";
const PARAMETERS: &str = "#/components/parameters/";
const REQUEST_BODIES: &str = "#/components/requestBodies/";
const RESPONSES: &str = "#/components/responses/";

/// Builds the IR from a lowered document: only what `selection` names is converted.
pub(crate) fn build(
    spec: &OpenAPI,
    selection: &Selection,
    config: &Config,
    notes: &mut Vec<Note>,
) -> Result<Api, Error> {
    let components = spec.components.as_ref();
    let schemas = components.map(|c| &c.schemas);
    let lock = &config.names_lock;
    let mut type_names = LockedNamespace::new(
        Some(&lock.types),
        names::RESERVED_TYPE_NAMES.iter().copied(),
    );
    let mut component_names = BTreeMap::new();
    // Names are given over the whole document, so a selection never renames anything.
    if let Some(schemas) = schemas {
        let schemas_pointer = Pointer::root().join("components").join("schemas");
        for key in schemas.keys() {
            component_names.insert(
                key.clone(),
                type_names.claim(
                    schemas_pointer.join(key).as_str(),
                    &names::camel_ident(key, "T"),
                    "",
                ),
            );
        }
    }
    let mut builder = Builder {
        spec,
        resolved: schemas.map(resolve_aliases).unwrap_or_default(),
        settled_compositions: HashSet::new(),
        notes,
        lock,
        type_names,
        variant_names: BTreeMap::new(),
        operation_names: BTreeMap::new(),
        component_names: component_names.clone(),
        types: BTreeMap::new(),
        left_out: Vec::new(),
        skipped: Vec::new(),
    };
    if let Some(schemas) = schemas {
        for (key, schema) in schemas {
            if selection.has_schema(key) {
                builder.define_component(key, schema)?;
            }
        }
    }
    let mut operations = builder.operations(selection, config)?;
    operations.sort_by(|a, b| a.name.cmp(&b.name));
    if config.strict {
        if let Some(first) = builder.left_out.first() {
            return Err(first.clone());
        }
    }
    let builder_names = (
        builder.type_names,
        builder.variant_names,
        builder.operation_names,
    );
    let mut skipped = builder.skipped;
    skipped.sort_by(|a, b| a.name.cmp(&b.name));
    let mut types = builder.types;
    // A selection keeps only what its operations reach; without one every component stays.
    // Either way, inline types of a left-out operation go with it.
    let roots: Vec<String> = match selection.schemas {
        Some(_) => Vec::new(),
        None => component_names.values().cloned().collect(),
    };
    prune_unreachable(&mut types, &operations, &roots);
    box_recursive_fields(&mut types);
    check_alias_cycles(&types, &component_names)?;
    let names = NameLock {
        types: builder_names.0.into_lock(),
        operations: builder_names.2,
        variants: builder_names.1,
    };
    let base_url = spec
        .servers
        .first()
        .map(|server| server.url.trim_end_matches('/').to_owned());
    Ok(Api {
        base_url,
        types,
        operations,
        component_names,
        skipped,
        names,
    })
}

/// A schema position: a reference or an inline schema.
#[derive(Clone, Copy)]
enum SchemaAt<'s> {
    Ref(&'s str),
    Item(&'s Schema),
}

impl<'s> SchemaAt<'s> {
    fn of(schema: &'s ReferenceOr<Schema>) -> Self {
        match schema {
            ReferenceOr::Reference { reference } => SchemaAt::Ref(reference),
            ReferenceOr::Item(schema) => SchemaAt::Item(schema),
        }
    }

    fn of_boxed(schema: &'s ReferenceOr<Box<Schema>>) -> Self {
        match schema {
            ReferenceOr::Reference { reference } => SchemaAt::Ref(reference),
            ReferenceOr::Item(schema) => SchemaAt::Item(schema),
        }
    }
}

/// The parts of an object schema a struct is built from.
struct ObjectParts<'s> {
    properties: Vec<(&'s String, &'s ReferenceOr<Box<Schema>>)>,
    required: BTreeSet<&'s str>,
    additional: Option<&'s AdditionalProperties>,
}

struct Builder<'a> {
    spec: &'a OpenAPI,
    /// The schema each component key finally names through `$ref`-only aliases, for every key
    /// whose chain ends in a schema: worked out once, so a long chain costs its length once.
    resolved: HashMap<&'a str, &'a str>,
    /// Components whose chain of single-`$ref` `allOf` wrappers is known to end in a schema.
    settled_compositions: HashSet<&'a str>,
    notes: &'a mut Vec<Note>,
    /// The names the last generation gave, which this one keeps.
    lock: &'a NameLock,
    type_names: LockedNamespace,
    /// Variant names given per enum and union, by wire value or tag.
    variant_names: BTreeMap<String, BTreeMap<String, String>>,
    /// Method names given, by `"METHOD /path"` (retired ones included).
    operation_names: BTreeMap<String, String>,
    component_names: BTreeMap<String, String>,
    types: BTreeMap<String, TypeDef>,
    /// Everything left out of a selected operation, as the error strict mode reports.
    left_out: Vec<Error>,
    /// Selected operations left out whole.
    skipped: Vec<SkippedOperation>,
}

impl<'a> Builder<'a> {
    /// Leaves `what` out with a note (an error in strict mode, reported at the end of the build).
    fn leave_out(&mut self, pointer: &str, what: &str, reason: &str) {
        self.notes.push(Note {
            pointer: pointer.to_owned(),
            message: format!("{what} is left out: {reason}"),
        });
        self.left_out.push(Error::LeftOut {
            pointer: pointer.to_owned(),
            what: what.to_owned(),
            reason: reason.to_owned(),
        });
    }

    fn note(&mut self, pointer: &Pointer, message: impl Into<String>) {
        self.notes.push(Note {
            pointer: pointer.to_string(),
            message: message.into(),
        });
    }

    /// Takes `name` before defining it, so that a member referring back finds it taken.
    fn reserve(&mut self, name: &str) {
        let placeholder = AliasDef {
            name: name.to_owned(),
            doc: None,
            ty: TypeRef::Json,
        };
        self.types
            .insert(name.to_owned(), TypeDef::Alias(placeholder));
    }

    /// A name for the inline schema (or operation part) at `identity`.
    fn inline_name(&mut self, hint: &str, identity: &Pointer) -> String {
        self.type_names
            .claim(identity.as_str(), &names::camel_ident(hint, "T"), "")
    }

    /// The component schema a `$ref` names, with its key; checks reference-only chains for cycles.
    fn component(
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

    fn define_component(
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

    /// `A: allOf[$ref B]`, `B: allOf[$ref A]` never reaches a schema of its own. A walk stops
    /// at a component an earlier walk already followed to its end, so a long chain of such
    /// wrappers costs its length once, not once per link.
    fn check_composition_cycle(
        &mut self,
        key: &'a str,
        schema: &'a Schema,
        pointer: &Pointer,
    ) -> Result<(), Error> {
        let mut chain = vec![format!("{SCHEMAS}{key}")];
        let mut seen: HashSet<String> = chain.iter().cloned().collect();
        let mut walked = vec![key];
        let mut current = schema;
        while let SchemaKind::AllOf { all_of } = &current.schema_kind {
            let reference = match all_of.as_slice() {
                [ReferenceOr::Reference { reference }] => reference,
                // An inline one-member wrapper: look inside it (finite, as the document is),
                // so a cycle through it (`A: allOf [{allOf [$ref A]}]`) is caught here too.
                [ReferenceOr::Item(inline)] => {
                    current = inline;
                    continue;
                }
                _ => break,
            };
            let repeated = !seen.insert(reference.clone());
            chain.push(reference.clone());
            if repeated {
                return Err(Error::RefCycle {
                    pointer: pointer.to_string(),
                    chain,
                });
            }
            let (next_key, next) = self.component(reference, pointer)?;
            if self.settled_compositions.contains(next_key) {
                break;
            }
            walked.push(next_key);
            current = next;
        }
        self.settled_compositions.extend(walked);
        Ok(())
    }

    /// Defines `name` as a struct or enum when the schema is one; false when it is not.
    fn define_named(
        &mut self,
        name: &str,
        schema: &'a Schema,
        pointer: &Pointer,
    ) -> Result<bool, Error> {
        let doc = doc_of(schema);
        if let (
            SchemaKind::OneOf { one_of: members } | SchemaKind::AnyOf { any_of: members },
            Some(discriminator),
        ) = (&schema.schema_kind, &schema.schema_data.discriminator)
        {
            self.define_union(name, members, discriminator, doc, pointer)?;
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
        if let Ok(plan) = self.untagged_plan(schema, pointer) {
            self.define_untagged(name, plan, doc, pointer)?;
            return Ok(true);
        }
        if let SchemaKind::AllOf { all_of } = &schema.schema_kind {
            if all_of.len() > 1 {
                let Some(parts) = self.merge_all_of(all_of, pointer)? else {
                    return Ok(false);
                };
                self.define_struct(name, parts, doc, pointer)?;
                return Ok(true);
            }
        }
        match object_parts(schema) {
            Some(parts) if !parts.properties.is_empty() => {
                self.define_struct(name, parts, doc, pointer)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn merge_all_of(
        &mut self,
        members: &'a [ReferenceOr<Schema>],
        pointer: &Pointer,
    ) -> Result<Option<ObjectParts<'a>>, Error> {
        let mut merged = ObjectParts {
            properties: Vec::new(),
            required: BTreeSet::new(),
            additional: None,
        };
        for (i, member) in members.iter().enumerate() {
            let member_pointer = pointer.join("allOf").join(i);
            let schema = match SchemaAt::of(member) {
                SchemaAt::Ref(reference) => self.component(reference, &member_pointer)?.1,
                SchemaAt::Item(schema) => schema,
            };
            let Some(parts) = object_parts(schema) else {
                self.note(
                    &member_pointer,
                    "`allOf` with a non-object member is lowered to serde_json::Value",
                );
                return Ok(None);
            };
            for (name, property) in parts.properties {
                if let Some(slot) = merged
                    .properties
                    .iter_mut()
                    .find(|(existing, _)| *existing == name)
                {
                    slot.1 = property;
                } else {
                    merged.properties.push((name, property));
                }
            }
            merged.required.extend(parts.required);
        }
        Ok(Some(merged))
    }

    fn define_union(
        &mut self,
        name: &str,
        members: &'a [ReferenceOr<Schema>],
        discriminator: &'a openapiv3::Discriminator,
        doc: Option<String>,
        pointer: &Pointer,
    ) -> Result<(), Error> {
        // Reserve the name first: variants may refer back to the union.
        self.reserve(name);
        // Tags from the mapping, else (as the spec says) each member's component name.
        let mut tagged: Vec<(String, &'a str)> = discriminator
            .mapping
            .iter()
            .map(|(tag, reference)| (tag.clone(), reference.as_str()))
            .collect();
        for (i, member) in members.iter().enumerate() {
            match member {
                ReferenceOr::Reference { reference } => {
                    let key = local_key(reference, SCHEMAS, &pointer.join("oneOf").join(i))?;
                    // A tag already mapped (to this member or another) keeps its first meaning.
                    if !tagged.iter().any(|(t, r)| r == reference || *t == key) {
                        tagged.push((key, reference.as_str()));
                    }
                }
                ReferenceOr::Item(_) => {
                    self.note(&pointer.join("oneOf").join(i), "an inline member of a discriminated union has no tag and decodes as the fallback");
                }
            }
        }
        let mut variant_names = variant_namespace(self.lock.variants.get(name));
        let mut variants = Vec::with_capacity(tagged.len());
        for (tag, reference) in tagged {
            let (ty, _) = self.type_of(
                SchemaAt::Ref(reference),
                name,
                &pointer.join("discriminator").join("mapping").join(&tag),
            )?;
            variants.push(UnionVariant {
                rust_name: claim_variant(&mut variant_names, &tag),
                tag,
                ty,
                boxed: false,
            });
        }
        let fallback = fallback_variant();
        self.variant_names
            .insert(name.to_owned(), variant_names.into_lock());
        let tag_property = discriminator.property_name.clone();
        self.types.insert(
            name.to_owned(),
            TypeDef::Union(UnionDef {
                name: name.to_owned(),
                doc,
                tag_property,
                variants,
                fallback,
            }),
        );
        Ok(())
    }

    /// An integer enum: variants `V<value>` (`VMinus<value>` below zero), read as "value 200",
    /// clear of any other name and never two for one value.
    fn define_int_enum(&mut self, name: &str, values: Vec<i64>, doc: Option<String>) {
        // Names follow from values alone, so no lock is needed to keep them.
        let mut variant_names = Namespace::with_reserved([FALLBACK_VARIANT]);
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
    fn member_schema(
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
    fn is_decimal_union(&self, schema: &'a Schema, pointer: &Pointer) -> bool {
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
    fn member_kind(&self, member: &'a ReferenceOr<Schema>, pointer: &Pointer) -> Option<JsonKind> {
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
                if const_union(schema).is_some() =>
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

    /// How an undiscriminated union becomes an untagged enum: its members, each of its own
    /// JSON kind; or why it cannot (the reason a note gives).
    fn untagged_plan(
        &self,
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
        let mut plan: Vec<(JsonKind, usize, &'a ReferenceOr<Schema>)> = Vec::new();
        for (i, member) in members.iter().enumerate() {
            let Some(kind) = self.member_kind(member, pointer) else {
                return Err(format!("member {i} is not of one JSON kind"));
            };
            if let Some((_, first, _)) = plan.iter().find(|(k, ..)| *k == kind) {
                return Err(format!(
                    "members {first} and {i} are both JSON {}s, which only their contents tell apart",
                    kind.name().to_ascii_lowercase()
                ));
            }
            plan.push((kind, i, member));
        }
        // The order serde tries them in: an integer before a number, so `3` is an integer.
        plan.sort_by_key(|(kind, ..)| *kind);
        Ok((keyword, plan))
    }

    fn define_untagged(
        &mut self,
        name: &str,
        (keyword, plan): UntaggedPlan<'a>,
        doc: Option<String>,
        pointer: &Pointer,
    ) -> Result<(), Error> {
        // Reserve the name first: a member may refer back to the union.
        self.reserve(name);
        let mut variant_names = Namespace::new();
        let mut variants = Vec::with_capacity(plan.len());
        for (kind, index, member) in plan {
            let member_pointer = pointer.join(keyword).join(index);
            let (ty, nullable) = self.type_of(
                SchemaAt::of(member),
                &format!("{name}{}", kind.name()),
                &member_pointer,
            )?;
            let wanted = match (member, &ty) {
                (ReferenceOr::Reference { .. }, TypeRef::Named(type_name)) => type_name.clone(),
                _ => kind.name().to_owned(),
            };
            variants.push(UntaggedVariant {
                rust_name: variant_names.claim(&names::camel_ident(&wanted, "V"), ""),
                kind,
                ty: optional_if(ty, nullable),
                boxed: false,
            });
        }
        self.types.insert(
            name.to_owned(),
            TypeDef::Untagged(UntaggedDef {
                name: name.to_owned(),
                doc,
                variants,
            }),
        );
        Ok(())
    }

    fn define_enum(&mut self, name: &str, values: Vec<&str>, doc: Option<String>) {
        let mut variant_names = variant_namespace(self.lock.variants.get(name));
        let mut seen = BTreeSet::new();
        let variants = values
            .into_iter()
            .filter(|wire| seen.insert(*wire))
            .map(|wire| Variant {
                wire: wire.to_owned(),
                rust_name: claim_variant(&mut variant_names, wire),
            })
            .collect();
        let fallback = fallback_variant();
        self.variant_names
            .insert(name.to_owned(), variant_names.into_lock());
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

    fn define_struct(
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
        let mut field_names = Namespace::new();
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
            fields.push(Field {
                wire_name: wire.clone(),
                rust_name: field_names.claim(&names::snake_ident(wire), "_"),
                doc,
                ty,
                required: parts.required.contains(wire.as_str()),
                nullable,
                boxed: false,
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
    fn type_of(
        &mut self,
        at: SchemaAt<'a>,
        hint: &str,
        pointer: &Pointer,
    ) -> Result<(TypeRef, bool), Error> {
        let schema = match at {
            SchemaAt::Ref(reference) => {
                let (key, schema) = self.component(reference, pointer)?;
                let name = self.component_names.get(key).cloned().unwrap_or_default();
                return Ok((TypeRef::Named(name), schema.schema_data.nullable));
            }
            SchemaAt::Item(schema) => schema,
        };
        let mut nullable = schema.schema_data.nullable;
        let ty = match &schema.schema_kind {
            SchemaKind::Type(Type::String(string)) => {
                nullable |= string.enumeration.iter().any(Option::is_none);
                if string_enum(schema).is_some() {
                    self.define_inline(hint, schema, pointer)?
                } else {
                    match &string.format {
                        VariantOrUnknownOrEmpty::Item(StringFormat::DateTime) => TypeRef::Timestamp,
                        VariantOrUnknownOrEmpty::Item(StringFormat::Date) => TypeRef::Date,
                        _ => TypeRef::String,
                    }
                }
            }
            SchemaKind::Type(Type::Integer(_)) if integer_enum(schema).is_some() => {
                self.define_inline(hint, schema, pointer)?
            }
            SchemaKind::Type(Type::Integer(_)) => TypeRef::Integer,
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
            SchemaKind::Type(Type::Object(_)) | SchemaKind::Any(_) => match object_parts(schema) {
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
                        SchemaKind::Any(any)
                            if any.typ.is_some() || !any.enumeration.is_empty() =>
                        {
                            self.note(pointer, "a schema whose keywords do not fit its `type` is lowered to serde_json::Value");
                        }
                        _ => self.note(
                            pointer,
                            "a schema without a type (any JSON value) is serde_json::Value",
                        ),
                    }
                    TypeRef::Json
                }
            },
            SchemaKind::AllOf { all_of } => match all_of.as_slice() {
                [single] => {
                    let (ty, inner_nullable) =
                        self.type_of(SchemaAt::of(single), hint, &pointer.join("allOf").join(0))?;
                    nullable |= inner_nullable;
                    ty
                }
                _ => self.define_inline(hint, schema, pointer)?,
            },
            SchemaKind::OneOf { .. } | SchemaKind::AnyOf { .. }
                if schema.schema_data.discriminator.is_some() || const_union(schema).is_some() =>
            {
                self.define_inline(hint, schema, pointer)?
            }
            SchemaKind::OneOf { .. } | SchemaKind::AnyOf { .. }
                if self.is_decimal_union(schema, pointer) =>
            {
                TypeRef::Decimal
            }
            SchemaKind::OneOf { .. } | SchemaKind::AnyOf { .. } => {
                match self.untagged_plan(schema, pointer) {
                    Ok(_) => self.define_inline(hint, schema, pointer)?,
                    Err(reason) => {
                        self.note(
                            pointer,
                            format!(
                                "a union of several schemas is lowered to serde_json::Value: {reason}"
                            ),
                        );
                        TypeRef::Json
                    }
                }
            }
            SchemaKind::Not { .. } => {
                self.note(pointer, "`not` is lowered to serde_json::Value");
                TypeRef::Json
            }
        };
        Ok((ty, nullable))
    }

    /// An inline struct or enum, named after where it stands.
    fn define_inline(
        &mut self,
        hint: &str,
        schema: &'a Schema,
        pointer: &Pointer,
    ) -> Result<TypeRef, Error> {
        let name = self.inline_name(hint, pointer);
        if self.define_named(&name, schema, pointer)? {
            Ok(TypeRef::Named(name))
        } else {
            Ok(TypeRef::Json)
        }
    }

    fn operations(
        &mut self,
        selection: &Selection,
        config: &Config,
    ) -> Result<Vec<Operation>, Error> {
        let paths_pointer = Pointer::root().join("paths");
        let mut found = Vec::new();
        for (path, item) in &self.spec.paths.paths {
            let pointer = paths_pointer.join(path);
            let item = match item {
                ReferenceOr::Item(item) => item,
                ReferenceOr::Reference { .. } => {
                    // A selection cannot pick what it cannot see; only an unselective run says so.
                    if selection.operations.is_none() {
                        self.leave_out(
                            pointer.as_str(),
                            &format!("path item {path}"),
                            "a path item given as `$ref` is not supported",
                        );
                    }
                    continue;
                }
            };
            for (method, operation) in item.iter() {
                found.push((
                    path.as_str(),
                    method,
                    operation,
                    &item.parameters,
                    pointer.join(method),
                ));
            }
        }
        // Named over the whole document, so a selection never renames an operation.
        let (names, given) = operation_names(&found, config)?;
        self.operation_names = given;
        let mut operations = Vec::with_capacity(found.len());
        for ((path, method, operation, shared_parameters, pointer), name) in
            found.into_iter().zip(names)
        {
            if !selection.has_operation(path, method) {
                continue;
            }
            let built = self.operation(&name, path, method, operation, shared_parameters, &pointer);
            match built {
                Ok(built) => operations.push(built),
                Err(Error::Unsupported {
                    pointer: at,
                    reason,
                }) => {
                    let method = method.to_ascii_uppercase();
                    self.leave_out(&at, &format!("operation {name} ({method} {path})"), &reason);
                    self.skipped.push(SkippedOperation {
                        name,
                        method,
                        path: path.to_owned(),
                        pointer: at,
                        reason,
                    });
                }
                Err(other) => return Err(other),
            }
        }
        Ok(operations)
    }

    fn operation(
        &mut self,
        name: &str,
        path: &str,
        method: &str,
        operation: &'a openapiv3::Operation,
        shared_parameters: &'a [ReferenceOr<Parameter>],
        pointer: &Pointer,
    ) -> Result<Operation, Error> {
        let camel = names::camel_ident(name, "Op");
        let mut parameters: Vec<(&'a Parameter, Pointer)> = Vec::new();
        let path_item_pointer = Pointer::from_ref(
            pointer
                .as_str()
                .rsplit_once('/')
                .map_or("#", |(parent, _)| parent),
        );
        for (list, list_pointer) in [
            (shared_parameters, path_item_pointer.join("parameters")),
            (&operation.parameters[..], pointer.join("parameters")),
        ] {
            for (i, parameter) in list.iter().enumerate() {
                let at = list_pointer.join(i);
                let parameter = self.parameter(parameter, &at)?;
                let data = parameter.parameter_data_ref();
                // An operation's parameter replaces the path item's of the same name and place.
                parameters.retain(|(existing, _)| {
                    let existing_data = existing.parameter_data_ref();
                    !(existing_data.name == data.name
                        && std::mem::discriminant(*existing) == std::mem::discriminant(parameter))
                });
                parameters.push((parameter, at));
            }
        }

        let mut argument_names =
            Namespace::with_reserved(names::RESERVED_ARGUMENT_NAMES.iter().copied());
        let mut path_params = Vec::new();
        let mut required_query = Vec::new();
        let mut optional_query = Vec::new();
        for (parameter, at) in parameters {
            let data = parameter.parameter_data_ref();
            let lowered = match self.lower_parameter(parameter, &at, &camel) {
                Ok(lowered) => lowered,
                // An optional parameter can go alone; a required one takes its operation along.
                Err(Error::Unsupported {
                    pointer: place,
                    reason,
                }) if !data.required && !matches!(parameter, Parameter::Path { .. }) => {
                    self.leave_out(&place, &format!("parameter `{}`", data.name), &reason);
                    continue;
                }
                Err(error) => return Err(error),
            };
            for (place, mut param) in lowered {
                match place {
                    Place::Path => {
                        param.rust_name =
                            argument_names.claim(&names::snake_ident(&param.wire_name), "_");
                        path_params.push(param);
                    }
                    Place::Query { required: true } => {
                        param.rust_name =
                            argument_names.claim(&names::snake_ident(&param.wire_name), "_");
                        required_query.push(param);
                    }
                    Place::Query { required: false } => optional_query.push(param),
                }
            }
        }
        dedupe_field_names(&mut optional_query);

        // Path parameters in template order; every placeholder must be declared.
        let mut ordered = Vec::new();
        for placeholder in names::path_parameters(path) {
            let index = path_params
                .iter()
                .position(|p: &Param| p.wire_name == placeholder)
                .ok_or_else(|| Error::Invalid {
                    pointer: pointer.to_string(),
                    reason: format!(
                        "path placeholder {{{placeholder}}} has no `in: path` parameter"
                    ),
                })?;
            ordered.push(path_params.remove(index));
        }
        for extra in path_params {
            self.note(
                pointer,
                format!(
                    "path parameter `{}` does not appear in the path and is not generated",
                    extra.wire_name
                ),
            );
        }

        let body = match &operation.request_body {
            Some(body) => {
                let body_pointer = pointer.join("requestBody");
                match self.body(body, &camel, &body_pointer) {
                    Ok(body) => body,
                    Err(Error::Unsupported { pointer, reason }) if !self.body_required(body) => {
                        self.leave_out(&pointer, "the optional request body", &reason);
                        None
                    }
                    Err(error) => return Err(error),
                }
            }
            None => None,
        };
        let response = self.response(operation, &camel, &pointer.join("responses"))?;
        let query_type = (!optional_query.is_empty())
            .then(|| self.inline_name(&format!("{camel}Query"), &pointer.join("parameters")));
        let doc = [
            operation.summary.as_deref(),
            operation.description.as_deref(),
        ]
        .into_iter()
        .flatten()
        .filter(|text| !text.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
        Ok(Operation {
            name: name.to_owned(),
            method: method.to_ascii_uppercase(),
            path: path.to_owned(),
            tags: operation.tags.clone(),
            doc: (!doc.is_empty()).then_some(doc),
            path_params: ordered,
            required_query,
            optional_query,
            query_type,
            body,
            response,
        })
    }

    /// One parameter as the method's arguments or query fields: one, or one per property of
    /// a `form`-exploded object. Rust names are given by the caller.
    fn lower_parameter(
        &mut self,
        parameter: &'a Parameter,
        at: &Pointer,
        camel: &str,
    ) -> Result<Vec<(Place, Param)>, Error> {
        let data = parameter.parameter_data_ref();
        let schema = match &data.format {
            ParameterSchemaOrContent::Schema(schema) => schema,
            ParameterSchemaOrContent::Content(_) => {
                return Err(Error::Unsupported {
                    pointer: at.join("content").to_string(),
                    reason: "a parameter serialised through `content`".into(),
                });
            }
        };
        let schema_pointer = at.join("schema");
        let param = |wire_name: &str, doc: Option<String>, ty: TypeRef, any_scalar: bool| Param {
            wire_name: wire_name.to_owned(),
            rust_name: names::snake_ident(wire_name),
            doc,
            ty,
            any_scalar,
        };
        let deep_object = matches!(
            parameter,
            Parameter::Query {
                style: QueryStyle::DeepObject,
                ..
            }
        );
        let place = match parameter {
            Parameter::Path { .. } => Place::Path,
            Parameter::Query { style, .. } => {
                let unsupported = match style {
                    QueryStyle::Form | QueryStyle::DeepObject => None,
                    QueryStyle::SpaceDelimited | QueryStyle::PipeDelimited => {
                        Some("a `spaceDelimited` or `pipeDelimited` query parameter")
                    }
                };
                if let Some(reason) = unsupported {
                    return Err(Error::Unsupported {
                        pointer: at.join("style").to_string(),
                        reason: reason.into(),
                    });
                }
                Place::Query {
                    required: data.required,
                }
            }
            Parameter::Header { .. } | Parameter::Cookie { .. } => {
                return Err(Error::Unsupported {
                    pointer: at.to_string(),
                    reason: "header and cookie parameters are not generated".into(),
                });
            }
        };
        if self.is_scalar_union(SchemaAt::of(schema), &schema_pointer)? {
            return Ok(vec![(
                place,
                param(&data.name, data.description.clone(), TypeRef::String, true),
            )]);
        }
        if let (Place::Query { .. }, Some(parts)) = (
            place,
            self.object_of(SchemaAt::of(schema), &schema_pointer)?,
        ) {
            if data.explode == Some(false) && !deep_object {
                return Err(Error::Unsupported {
                    pointer: at.join("explode").to_string(),
                    reason: "an object query parameter with `explode: false`".into(),
                });
            }
            // `style: form, explode: true`: every property is a query key of its own;
            // `style: deepObject`: every property is `name[property]`.
            let mut expanded = Vec::with_capacity(parts.properties.len());
            for (wire, property) in parts.properties {
                let property_pointer = schema_pointer.join("properties").join(wire);
                let property = SchemaAt::of_boxed(property);
                let hint = format!("{camel}{}", names::camel_ident(wire, ""));
                let (ty, any_scalar) = self.query_value(property, &hint, &property_pointer)?;
                let doc = match property {
                    SchemaAt::Item(schema) => doc_of(schema),
                    SchemaAt::Ref(_) => None,
                };
                let required = data.required && parts.required.contains(wire.as_str());
                let key = if deep_object {
                    format!("{}[{wire}]", data.name)
                } else {
                    wire.clone()
                };
                expanded.push((Place::Query { required }, param(&key, doc, ty, any_scalar)));
            }
            return Ok(expanded);
        }
        if deep_object {
            return Err(Error::Unsupported {
                pointer: schema_pointer.to_string(),
                reason: "a `deepObject` query parameter that is not an object".into(),
            });
        }
        let hint = format!("{camel}{}", names::camel_ident(&data.name, ""));
        let doc = data.description.clone();
        match place {
            Place::Path => {
                let (ty, _nullable) = self.type_of(SchemaAt::of(schema), &hint, &schema_pointer)?;
                if !self.is_scalar(&ty) {
                    return Err(Error::Unsupported {
                        pointer: schema_pointer.to_string(),
                        reason: "a path parameter that is not a string, number, boolean, enum \
                                 or union of those"
                            .into(),
                    });
                }
                Ok(vec![(place, param(&data.name, doc, ty, false))])
            }
            Place::Query { .. } => {
                let (ty, any_scalar) =
                    self.query_value(SchemaAt::of(schema), &hint, &schema_pointer)?;
                Ok(vec![(place, param(&data.name, doc, ty, any_scalar))])
            }
        }
    }

    /// The type of one query value: a scalar, an enum, a union of scalars, or an array of
    /// scalars or enums (a repeated key).
    fn query_value(
        &mut self,
        at: SchemaAt<'a>,
        hint: &str,
        pointer: &Pointer,
    ) -> Result<(TypeRef, bool), Error> {
        if self.is_scalar_union(at, pointer)? {
            return Ok((TypeRef::String, true));
        }
        let (ty, _nullable) = self.type_of(at, hint, pointer)?;
        let element = match &ty {
            TypeRef::Vec(element) => element.as_ref(),
            other => other,
        };
        if !self.is_scalar(element) {
            return Err(Error::Unsupported {
                pointer: pointer.to_string(),
                reason: "a query parameter that is not a scalar, an enum, or an array of those"
                    .into(),
            });
        }
        Ok((ty, false))
    }

    /// The schema a position holds, through `$ref`s.
    fn resolve(&self, at: SchemaAt<'a>, pointer: &Pointer) -> Result<&'a Schema, Error> {
        match at {
            SchemaAt::Ref(reference) => Ok(self.component(reference, pointer)?.1),
            SchemaAt::Item(schema) => Ok(schema),
        }
    }

    /// The properties of an object schema with some (through `$ref` and a one-member `allOf`).
    fn object_of(
        &self,
        at: SchemaAt<'a>,
        pointer: &Pointer,
    ) -> Result<Option<ObjectParts<'a>>, Error> {
        let schema = self.through_single_all_of(self.resolve(at, pointer)?, pointer)?;
        Ok(object_parts(schema).filter(|parts| !parts.properties.is_empty()))
    }

    /// Follows one-member `allOf`s (through `$ref`s) to the schema they wrap. A chain that comes
    /// back to a schema it passed (`A: allOf [$ref A]`) is an error naming the place, not an
    /// endless loop: parameters can reach such a chain before the composition check does.
    fn through_single_all_of(
        &self,
        mut schema: &'a Schema,
        pointer: &Pointer,
    ) -> Result<&'a Schema, Error> {
        let mut passed: HashSet<*const Schema> = HashSet::new();
        while let SchemaKind::AllOf { all_of } = &schema.schema_kind {
            let [single] = all_of.as_slice() else { break };
            if !passed.insert(std::ptr::from_ref(schema)) {
                return Err(Error::Unsupported {
                    pointer: pointer.to_string(),
                    reason: "a chain of one-member `allOf`s that leads back to itself".into(),
                });
            }
            schema = self.resolve(SchemaAt::of(single), pointer)?;
        }
        Ok(schema)
    }

    /// Whether the position is a `oneOf`/`anyOf` whose members are all plain scalars (a string,
    /// number, integer or boolean, through `$ref`s and one-member `allOf`s), and not a union of
    /// string constants (which is an enum).
    fn is_scalar_union(&self, at: SchemaAt<'a>, pointer: &Pointer) -> Result<bool, Error> {
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
    fn is_scalar(&self, ty: &TypeRef) -> bool {
        let mut current = ty;
        // More steps than types means a cycle, which is not a scalar.
        for _ in 0..=self.types.len() {
            match current {
                TypeRef::String
                | TypeRef::Integer
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

    fn parameter(
        &self,
        parameter: &'a ReferenceOr<Parameter>,
        pointer: &Pointer,
    ) -> Result<&'a Parameter, Error> {
        let mut chain = Vec::new();
        let mut current = parameter;
        loop {
            match current {
                ReferenceOr::Item(parameter) => return Ok(parameter),
                ReferenceOr::Reference { reference } => {
                    let repeated = chain.contains(reference);
                    chain.push(reference.clone());
                    if repeated {
                        return Err(Error::RefCycle {
                            pointer: pointer.to_string(),
                            chain,
                        });
                    }
                    let key = local_key(reference, PARAMETERS, pointer)?;
                    current = self
                        .spec
                        .components
                        .as_ref()
                        .and_then(|c| c.parameters.get(key.as_str()))
                        .ok_or_else(|| Error::DanglingRef {
                            pointer: pointer.to_string(),
                            reference: reference.clone(),
                        })?;
                }
            }
        }
    }

    /// The request body, through a `$ref` to `components/requestBodies`.
    fn request_body(
        &self,
        body: &'a ReferenceOr<RequestBody>,
        pointer: &Pointer,
    ) -> Result<&'a RequestBody, Error> {
        match body {
            ReferenceOr::Item(body) => Ok(body),
            ReferenceOr::Reference { reference } => {
                let key = local_key(reference, REQUEST_BODIES, pointer)?;
                match self
                    .spec
                    .components
                    .as_ref()
                    .and_then(|c| c.request_bodies.get(key.as_str()))
                {
                    Some(ReferenceOr::Item(body)) => Ok(body),
                    Some(ReferenceOr::Reference { .. }) => Err(Error::Unsupported {
                        pointer: pointer.to_string(),
                        reason: "a request body reference to a reference".into(),
                    }),
                    None => Err(Error::DanglingRef {
                        pointer: pointer.to_string(),
                        reference: reference.clone(),
                    }),
                }
            }
        }
    }

    /// Whether a request body must be sent (an unresolvable one counts as required).
    fn body_required(&self, body: &'a ReferenceOr<RequestBody>) -> bool {
        self.request_body(body, &Pointer::root())
            .map_or(true, |body| body.required)
    }

    /// The request body in the first media type the generator can send, preferring JSON, then
    /// a form, then text, then bytes; `multipart/form-data` is not supported.
    fn body(
        &mut self,
        body: &'a ReferenceOr<RequestBody>,
        camel: &str,
        pointer: &Pointer,
    ) -> Result<Option<Body>, Error> {
        let body = self.request_body(body, pointer)?;
        if body.content.is_empty() {
            return Ok(None);
        }
        let content_pointer = pointer.join("content");
        let usable: Vec<(&'a String, &'a openapiv3::MediaType, MediaKind)> = body
            .content
            .iter()
            .filter_map(|(media_type, media)| {
                media_kind(media_type).map(|kind| (media_type, media, kind))
            })
            .collect();
        let Some(&(media_type, media, kind)) = usable.iter().min_by_key(|(_, _, kind)| *kind)
        else {
            let listed: Vec<&str> = body.content.keys().map(String::as_str).collect();
            return Err(Error::Unsupported {
                pointer: content_pointer.to_string(),
                reason: format!(
                    "a request body in no media type the generator can send ({})",
                    listed.join(", ")
                ),
            });
        };
        let schema_pointer = content_pointer.join(media_type).join("schema");
        let value_type = |builder: &mut Self| -> Result<TypeRef, Error> {
            match &media.schema {
                Some(schema) => Ok(builder
                    .type_of(
                        SchemaAt::of(schema),
                        &format!("{camel}Body"),
                        &schema_pointer,
                    )?
                    .0),
                None => Ok(TypeRef::Json),
            }
        };
        let kind = match kind {
            MediaKind::Json => BodyKind::Json(value_type(self)?),
            MediaKind::Form => {
                let ty = value_type(self)?;
                let is_object = match &ty {
                    TypeRef::Map(_) => true,
                    TypeRef::Named(name) => {
                        matches!(self.types.get(name), Some(TypeDef::Struct(_)))
                    }
                    _ => false,
                };
                if !is_object {
                    return Err(Error::Unsupported {
                        pointer: schema_pointer.to_string(),
                        reason: "a form-encoded body whose schema is not an object".into(),
                    });
                }
                BodyKind::Form(ty)
            }
            MediaKind::Text => BodyKind::Text,
            MediaKind::Bytes => BodyKind::Bytes,
        };
        Ok(Some(Body {
            kind,
            media_type: media_type.clone(),
            required: body.required,
        }))
    }

    fn response(
        &mut self,
        operation: &'a openapiv3::Operation,
        camel: &str,
        pointer: &Pointer,
    ) -> Result<ResponseKind, Error> {
        let success = operation
            .responses
            .responses
            .iter()
            .find(|(status, _)| match status {
                StatusCode::Code(code) => (200..300).contains(code),
                StatusCode::Range(range) => *range == 2,
            });
        let Some((status, response)) = success else {
            return Ok(ResponseKind::Empty);
        };
        let pointer = pointer.join(status);
        let response: &'a Response = match response {
            ReferenceOr::Item(response) => response,
            ReferenceOr::Reference { reference } => {
                let key = local_key(reference, RESPONSES, &pointer)?;
                match self
                    .spec
                    .components
                    .as_ref()
                    .and_then(|c| c.responses.get(key.as_str()))
                {
                    Some(ReferenceOr::Item(response)) => response,
                    Some(ReferenceOr::Reference { .. }) => {
                        return Err(Error::Unsupported {
                            pointer: pointer.to_string(),
                            reason: "a response reference to a reference".into(),
                        });
                    }
                    None => {
                        return Err(Error::DanglingRef {
                            pointer: pointer.to_string(),
                            reference: reference.clone(),
                        });
                    }
                }
            }
        };
        if response.content.is_empty() {
            return Ok(ResponseKind::Empty);
        }
        let content_pointer = pointer.join("content");
        let usable = response
            .content
            .iter()
            .filter_map(|(media_type, media)| {
                media_kind(media_type).map(|kind| (media_type, media, kind))
            })
            // A form is never a response the generator decodes; JSON, then text, then bytes.
            .filter(|(_, _, kind)| *kind != MediaKind::Form)
            .min_by_key(|(_, _, kind)| *kind);
        let Some((media_type, media, kind)) = usable else {
            let listed: Vec<&str> = response.content.keys().map(String::as_str).collect();
            self.leave_out(
                content_pointer.as_str(),
                "the response body",
                &format!(
                    "a response in no media type the generator can read ({})",
                    listed.join(", ")
                ),
            );
            return Ok(ResponseKind::Empty);
        };
        Ok(match kind {
            MediaKind::Json | MediaKind::Form => match &media.schema {
                Some(schema) => ResponseKind::Json(
                    self.type_of(
                        SchemaAt::of(schema),
                        &format!("{camel}Response"),
                        &content_pointer.join(media_type).join("schema"),
                    )?
                    .0,
                ),
                None => ResponseKind::Json(TypeRef::Json),
            },
            MediaKind::Text => ResponseKind::Text(media_type.clone()),
            MediaKind::Bytes => ResponseKind::Bytes(media_type.clone()),
        })
    }
}

/// Where a parameter goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Path,
    Query { required: bool },
}

/// How a body of a media type is encoded, in order of preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum MediaKind {
    Json,
    Form,
    Text,
    Bytes,
}

/// The encoding of a media type, or `None` for one the generator cannot send or read:
/// `multipart/*` (parts with their own headers), and anything that is not a valid header value.
fn media_kind(media_type: &str) -> Option<MediaKind> {
    // It is sent as `Content-Type` / `Accept`: visible ASCII and spaces only.
    if media_type.is_empty() || !media_type.bytes().all(|b| (b' '..=b'~').contains(&b)) {
        return None;
    }
    let essence = media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    if is_json(&essence) {
        Some(MediaKind::Json)
    } else if essence == "application/x-www-form-urlencoded" {
        Some(MediaKind::Form)
    } else if essence.starts_with("multipart/") {
        None
    } else if essence.starts_with("text/") {
        Some(MediaKind::Text)
    } else {
        Some(MediaKind::Bytes)
    }
}

impl<'s> SchemaAt<'s> {
    fn of_boxed_ref(schema: &'s ReferenceOr<Schema>) -> Self {
        Self::of(schema)
    }
}

/// The name of the variant that keeps values the document does not list: always this one, so
/// that a document listing a value spelled `Unknown` renames nothing users match on.
pub(crate) const FALLBACK_VARIANT: &str = "Unknown";

/// A namespace for an enum's or union's variants, honouring the names `locked` gave before,
/// with [`FALLBACK_VARIANT`] taken.
fn variant_namespace(locked: Option<&BTreeMap<String, String>>) -> LockedNamespace {
    LockedNamespace::new(locked, [FALLBACK_VARIANT])
}

/// The Rust name of a listed value or tag: its locked name, else its UpperCamelCase spelling,
/// and `UnknownValue` (not `Unknown2`) for one spelled like the fallback.
fn claim_variant(variant_names: &mut LockedNamespace, wire: &str) -> String {
    let wanted = names::camel_ident(wire, "V");
    let wanted = if wanted == FALLBACK_VARIANT {
        format!("{FALLBACK_VARIANT}Value")
    } else {
        wanted
    };
    variant_names.claim(wire, &wanted, "")
}

/// The variant that keeps values the document does not list (see [`FALLBACK_VARIANT`]), free
/// in every namespace from [`variant_namespace`].
fn fallback_variant() -> String {
    FALLBACK_VARIANT.to_owned()
}

fn is_json(media_type: &str) -> bool {
    let essence = media_type.split(';').next().unwrap_or_default().trim();
    essence == "application/json" || essence.ends_with("+json")
}

fn optional_if(ty: TypeRef, nullable: bool) -> TypeRef {
    if nullable {
        TypeRef::Option(Box::new(ty))
    } else {
        ty
    }
}

fn doc_of(schema: &Schema) -> Option<String> {
    // Titles are mostly the property name again ("Start Epoch Millis"): not documentation.
    schema
        .schema_data
        .description
        .clone()
        .filter(|text| !text.trim().is_empty())
}

fn string_enum(schema: &Schema) -> Option<Vec<&str>> {
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
fn const_union(schema: &Schema) -> Option<Vec<&str>> {
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

/// An untagged union's members by JSON kind, in try order, with the keyword they stand under.
type UntaggedPlan<'a> = (
    &'static str,
    Vec<(JsonKind, usize, &'a ReferenceOr<Schema>)>,
);

/// The members of an `anyOf`/`oneOf` that is neither discriminated nor a union of string
/// constants (an enum), with the keyword they stand under.
fn plain_union_members(schema: &Schema) -> Option<(&'static str, &[ReferenceOr<Schema>])> {
    if schema.schema_data.discriminator.is_some() || const_union(schema).is_some() {
        return None;
    }
    match &schema.schema_kind {
        SchemaKind::OneOf { one_of } => Some(("oneOf", one_of)),
        SchemaKind::AnyOf { any_of } => Some(("anyOf", any_of)),
        _ => None,
    }
}

/// The values of `type: integer, enum: [...]`.
fn integer_enum(schema: &Schema) -> Option<Vec<i64>> {
    let SchemaKind::Type(Type::Integer(integer)) = &schema.schema_kind else {
        return None;
    };
    let values: Vec<i64> = integer.enumeration.iter().flatten().copied().collect();
    (!values.is_empty()).then_some(values)
}

/// A string member of a decimal union: `format: decimal`, or a `pattern` that admits only
/// decimal text: digit classes (`\d`, `0-9`), signs, a point, an exponent letter and regex
/// syntax, with at least one digit class. `\w`, `[a-z]` or any other letter rule it out.
fn is_decimal_string(string: &openapiv3::StringType) -> bool {
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

fn object_parts(schema: &Schema) -> Option<ObjectParts<'_>> {
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

/// The key of a local reference under `prefix`, unescaped.
fn local_key(reference: &str, prefix: &str, pointer: &Pointer) -> Result<String, Error> {
    if !reference.starts_with('#') {
        return Err(Error::Unsupported {
            pointer: pointer.to_string(),
            reason: format!("external reference {reference:?}"),
        });
    }
    let key = reference
        .strip_prefix(prefix)
        .filter(|key| !key.contains('/'))
        .ok_or_else(|| Error::DanglingRef {
            pointer: pointer.to_string(),
            reference: reference.to_owned(),
        })?;
    Ok(Pointer::unescape(key))
}

fn dedupe_field_names(params: &mut [Param]) {
    let mut field_names = Namespace::new();
    for param in params {
        param.rust_name = field_names.claim(&param.rust_name, "_");
    }
}

type Found<'a> = (
    &'a str,
    &'a str,
    &'a openapiv3::Operation,
    &'a Vec<ReferenceOr<Parameter>>,
    Pointer,
);

/// Method names: config overrides first, then names derived from method + path; colliding
/// derived names add their path parameters (`_by_x`), then a number, in document order.
fn operation_names(
    found: &[Found<'_>],
    config: &Config,
) -> Result<(Vec<String>, BTreeMap<String, String>), Error> {
    let keys: Vec<String> = found
        .iter()
        .map(|(path, method, ..)| format!("{} {path}", method.to_ascii_uppercase()))
        .collect();
    for key in config.operation_names.keys() {
        if !keys.contains(key) {
            return Err(Error::Config {
                pointer: Pointer::root()
                    .join("operation_names")
                    .join(key)
                    .to_string(),
                reason: format!("no operation {key} in the document"),
            });
        }
    }
    let mut taken = Namespace::new();
    for name in config.operation_names.values() {
        if taken.contains(name) {
            return Err(Error::Config {
                pointer: "#/operation_names".into(),
                reason: format!("two operations are named {name:?}"),
            });
        }
        taken.claim(name, "");
    }
    // Locked names stay with their operations (and retired ones stay retired), unless the
    // config names the operation, or gives the name to another, explicitly.
    let mut locked: BTreeMap<&str, &str> = BTreeMap::new();
    for (key, name) in &config.names_lock.operations {
        if !config.operation_names.contains_key(key) && !taken.contains(name) {
            taken.reserve(name);
            locked.insert(key, name);
        }
    }
    let derived: Vec<String> = found
        .iter()
        .map(|(path, method, ..)| names::operation_name(method, path))
        .collect();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (key, name) in keys.iter().zip(&derived) {
        if !config.operation_names.contains_key(key) && !locked.contains_key(key.as_str()) {
            *counts.entry(name.as_str()).or_default() += 1;
        }
    }
    let mut result = Vec::with_capacity(found.len());
    let mut given = BTreeMap::new();
    for ((key, name), (path, ..)) in keys.iter().zip(&derived).zip(found) {
        if let Some(chosen) = config.operation_names.get(key) {
            result.push(chosen.clone());
            continue;
        }
        if let Some(locked) = locked.get(key.as_str()) {
            given.insert(key.clone(), (*locked).to_owned());
            result.push((*locked).to_owned());
            continue;
        }
        // A newcomer whose name a locked operation holds takes the longer name, never the
        // holder.
        let collides =
            counts.get(name.as_str()).is_some_and(|count| *count > 1) || taken.contains(name);
        let wanted = match names::path_parameters(path) {
            parameters if collides && !parameters.is_empty() => {
                format!(
                    "{name}_by_{}",
                    parameters
                        .iter()
                        .map(|p| names::snake_ident(p).trim_matches('_').to_owned())
                        .collect::<Vec<_>>()
                        .join("_and_")
                )
            }
            _ => name.clone(),
        };
        let claimed = taken.claim(&wanted, "_");
        given.insert(key.clone(), claimed.clone());
        result.push(claimed);
    }
    // Retired: operations gone from the document keep their names out of reach.
    for (key, name) in &config.names_lock.operations {
        if !given.values().any(|given| given == name)
            && !config.operation_names.values().any(|n| n == name)
        {
            given.entry(key.clone()).or_insert_with(|| name.clone());
        }
    }
    Ok((result, given))
}

/// Boxes every field whose type leads back to its own struct with no `Vec` or map in between
/// (an infinitely sized type otherwise). Decided by structure alone, through the strongly
/// connected components of the "contains inline" graph, so adding an unrelated type never
/// changes which fields are boxed.
fn box_recursive_fields(types: &mut BTreeMap<String, TypeDef>) {
    fn direct_target(ty: &TypeRef) -> Option<&str> {
        match ty {
            TypeRef::Named(name) => Some(name),
            TypeRef::Option(inner) => direct_target(inner),
            _ => None,
        }
    }
    let names: Vec<&String> = types.keys().collect();
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let edges: Vec<Vec<usize>> = names
        .iter()
        .map(|name| {
            let targets: Vec<&str> = match types.get(*name) {
                Some(TypeDef::Struct(s)) => s
                    .fields
                    .iter()
                    .filter_map(|f| direct_target(&f.ty))
                    .collect(),
                Some(TypeDef::Alias(a)) => direct_target(&a.ty).into_iter().collect(),
                // A variant holds its payload inline.
                Some(TypeDef::Union(u)) => u
                    .variants
                    .iter()
                    .filter_map(|v| direct_target(&v.ty))
                    .collect(),
                Some(TypeDef::Untagged(u)) => u
                    .variants
                    .iter()
                    .filter_map(|v| direct_target(&v.ty))
                    .collect(),
                _ => Vec::new(),
            };
            targets
                .into_iter()
                .filter_map(|t| index.get(t).copied())
                .collect()
        })
        .collect();
    let component = strongly_connected_components(&edges);
    let on_cycle = |from: usize, ty: &TypeRef| {
        direct_target(ty)
            .and_then(|t| index.get(t).copied())
            .is_some_and(|t| component.get(t) == component.get(from))
    };
    // Struct fields and union variants alike: either holds its value inline.
    let mut boxed: Vec<(String, usize)> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let members: Vec<&TypeRef> = match types.get(*name) {
            Some(TypeDef::Struct(def)) => def.fields.iter().map(|f| &f.ty).collect(),
            Some(TypeDef::Union(def)) => def.variants.iter().map(|v| &v.ty).collect(),
            Some(TypeDef::Untagged(def)) => def.variants.iter().map(|v| &v.ty).collect(),
            _ => continue,
        };
        for (m, ty) in members.into_iter().enumerate() {
            if on_cycle(i, ty) {
                boxed.push(((*name).clone(), m));
            }
        }
    }
    for (name, m) in boxed {
        match types.get_mut(&name) {
            Some(TypeDef::Struct(def)) => {
                if let Some(field) = def.fields.get_mut(m) {
                    field.boxed = true;
                }
            }
            Some(TypeDef::Union(def)) => {
                if let Some(variant) = def.variants.get_mut(m) {
                    variant.boxed = true;
                }
            }
            Some(TypeDef::Untagged(def)) => {
                if let Some(variant) = def.variants.get_mut(m) {
                    variant.boxed = true;
                }
            }
            _ => {}
        }
    }
}

/// Component id per node (Kosaraju, iterative, so a long chain cannot overflow the stack).
fn strongly_connected_components(edges: &[Vec<usize>]) -> Vec<usize> {
    let n = edges.len();
    let mut order = Vec::with_capacity(n);
    let mut visited = vec![false; n];
    for start in 0..n {
        if visited[start] {
            continue;
        }
        visited[start] = true;
        let mut stack = vec![(start, 0usize)];
        while let Some((node, next)) = stack.pop() {
            if let Some(&target) = edges[node].get(next) {
                stack.push((node, next + 1));
                if !visited[target] {
                    visited[target] = true;
                    stack.push((target, 0));
                }
            } else {
                order.push(node);
            }
        }
    }
    let mut reverse = vec![Vec::new(); n];
    for (from, targets) in edges.iter().enumerate() {
        for &to in targets {
            reverse[to].push(from);
        }
    }
    let mut component = vec![usize::MAX; n];
    let mut count = 0;
    for &root in order.iter().rev() {
        if component[root] != usize::MAX {
            continue;
        }
        component[root] = count;
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            for &from in &reverse[node] {
                if component[from] == usize::MAX {
                    component[from] = count;
                    stack.push(from);
                }
            }
        }
        count += 1;
    }
    component
}

/// `type A = Vec<A>` does not compile; such a document is reported, not emitted. An alias is
/// on such a cycle when its strongly connected component in the alias → alias graph has more
/// than one member or an edge to itself: linear, however long the aliases chain.
fn check_alias_cycles(
    types: &BTreeMap<String, TypeDef>,
    component_names: &BTreeMap<String, String>,
) -> Result<(), Error> {
    fn named_in<'t>(ty: &'t TypeRef, out: &mut Vec<&'t str>) {
        match ty {
            TypeRef::Named(name) => out.push(name),
            TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => {
                named_in(inner, out)
            }
            _ => {}
        }
    }
    let aliases: Vec<(&String, &AliasDef)> = types
        .iter()
        .filter_map(|(name, def)| match def {
            TypeDef::Alias(alias) => Some((name, alias)),
            _ => None,
        })
        .collect();
    let index: HashMap<&str, usize> = aliases
        .iter()
        .enumerate()
        .map(|(i, (name, _))| (name.as_str(), i))
        .collect();
    let edges: Vec<Vec<usize>> = aliases
        .iter()
        .map(|(_, alias)| {
            let mut targets = Vec::new();
            named_in(&alias.ty, &mut targets);
            targets
                .into_iter()
                .filter_map(|t| index.get(t).copied())
                .collect()
        })
        .collect();
    let component = strongly_connected_components(&edges);
    let mut sizes: HashMap<usize, usize> = HashMap::new();
    for c in &component {
        *sizes.entry(*c).or_default() += 1;
    }
    for (i, (name, _)) in aliases.iter().enumerate() {
        let own = component.get(i);
        let cyclic = own.is_some_and(|c| sizes.get(c).is_some_and(|size| *size > 1))
            || edges.get(i).is_some_and(|targets| targets.contains(&i));
        if cyclic {
            let key = component_names
                .iter()
                .find(|(_, rust_name)| rust_name == name)
                .map_or(name.as_str(), |(key, _)| key.as_str());
            return Err(Error::Unsupported {
                pointer: Pointer::from_ref("#/components/schemas").join(key).to_string(),
                reason: "a type that contains itself only through arrays or maps of itself (a recursive alias)".into(),
            });
        }
    }
    Ok(())
}

/// For every component key whose `$ref`-only chain ends in a schema, that schema's key. Each
/// key is walked once: a walk stops at a key already resolved or already known to fail.
fn resolve_aliases<'a>(
    schemas: &'a indexmap::IndexMap<String, ReferenceOr<Schema>>,
) -> HashMap<&'a str, &'a str> {
    let mut resolved: HashMap<&'a str, &'a str> = HashMap::new();
    let mut failed: HashSet<&'a str> = HashSet::new();
    for start in schemas.keys() {
        let mut walked: Vec<&'a str> = Vec::new();
        let mut on_walk: HashSet<&'a str> = HashSet::new();
        let mut current: &'a str = start;
        let target = loop {
            if let Some(target) = resolved.get(current) {
                break Some(*target);
            }
            if failed.contains(current) || !on_walk.insert(current) {
                break None;
            }
            walked.push(current);
            let next = match schemas.get_key_value(current) {
                Some((key, ReferenceOr::Item(_))) => break Some(key.as_str()),
                Some((_, ReferenceOr::Reference { reference })) => {
                    local_key(reference, SCHEMAS, &Pointer::root())
                        .ok()
                        .and_then(|key| schemas.get_key_value(key.as_str()))
                }
                None => None,
            };
            match next {
                Some((key, _)) => current = key.as_str(),
                None => break None,
            }
        };
        match target {
            Some(target) => resolved.extend(walked.into_iter().map(|key| (key, target))),
            None => failed.extend(walked),
        }
    }
    resolved
}

/// Removes every type that neither an operation (through parameters, bodies and responses) nor
/// one of `roots` reaches.
fn prune_unreachable(
    types: &mut BTreeMap<String, TypeDef>,
    operations: &[Operation],
    roots: &[String],
) {
    let roots: Vec<TypeRef> = roots.iter().cloned().map(TypeRef::Named).collect();
    let mut pending: Vec<&TypeRef> = roots.iter().collect();
    for operation in operations {
        let params = operation
            .path_params
            .iter()
            .chain(&operation.required_query)
            .chain(&operation.optional_query);
        pending.extend(params.map(|param| &param.ty));
        pending.extend(
            operation
                .body
                .iter()
                .filter_map(|body| body.kind.value_type()),
        );
        if let ResponseKind::Json(ty) = &operation.response {
            pending.push(ty);
        }
    }
    let mut reached: BTreeSet<String> = BTreeSet::new();
    while let Some(ty) = pending.pop() {
        match ty {
            TypeRef::Named(name) => {
                if !reached.insert(name.clone()) {
                    continue;
                }
                match types.get(name) {
                    Some(TypeDef::Struct(def)) => pending.extend(def.fields.iter().map(|f| &f.ty)),
                    Some(TypeDef::Alias(def)) => pending.push(&def.ty),
                    Some(TypeDef::Union(def)) => pending.extend(def.variants.iter().map(|v| &v.ty)),
                    Some(TypeDef::Untagged(def)) => {
                        pending.extend(def.variants.iter().map(|v| &v.ty))
                    }
                    Some(TypeDef::Enum(_) | TypeDef::IntEnum(_)) | None => {}
                }
            }
            TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => {
                pending.push(inner)
            }
            TypeRef::String
            | TypeRef::Integer
            | TypeRef::Number
            | TypeRef::Boolean
            | TypeRef::Decimal
            | TypeRef::Timestamp
            | TypeRef::Date
            | TypeRef::Json => {}
        }
    }
    types.retain(|name, _| reached.contains(name));
}

#[cfg(test)]
mod tests {
    use super::{MediaKind, media_kind};

    #[test]
    fn media_kinds() {
        let cases = [
            ("application/json", Some(MediaKind::Json)),
            ("Application/JSON; charset=utf-8", Some(MediaKind::Json)),
            ("application/problem+json", Some(MediaKind::Json)),
            ("application/x-www-form-urlencoded", Some(MediaKind::Form)),
            ("text/plain", Some(MediaKind::Text)),
            ("text/csv; charset=utf-8", Some(MediaKind::Text)),
            ("application/octet-stream", Some(MediaKind::Bytes)),
            ("image/png", Some(MediaKind::Bytes)),
            ("*/*", Some(MediaKind::Bytes)),
            ("multipart/form-data", None),
            ("text/plain\nX-Injected: 1", None),
            ("text/plé", None),
            ("", None),
        ];
        for (media_type, expected) in cases {
            assert_eq!(media_kind(media_type), expected, "{media_type:?}");
        }
    }
}
