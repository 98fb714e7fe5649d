//! The intermediate representation: validated, named Rust types and operations.
//!
//! `build` walks the lowered document once, resolves every `$ref` (dangling ones and
//! reference-only cycles are errors), names every type and operation, and records as notes what
//! it represents with a loss. The emitters read only this, never the document.
//!
//! This module holds the IR types and the build's driver; the work is split by concern (after
//! typify): `convert` (schemas to types), `merge` (`allOf`), `operations`, `naming`
//! (through the names lock), `cycles` (alias chains, boxing) and `prune`.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use openapiv3::{AdditionalProperties, OpenAPI, ReferenceOr, Schema};

use crate::error::Pointer;
use crate::lock::{NameLock, Names};
use crate::select::Selection;
use crate::{Config, Error, Note};

mod access;
pub(crate) mod areas;
mod best_fit;
mod convert;
mod cycles;
mod formats;
mod infer;
mod keyed;
mod kinds;
mod media;
mod merge;
mod naming;
mod nullable;
mod open_strings;
mod operations;
mod parameters;
mod prune;
pub mod security;
pub mod servers;
mod shared;
mod tags;
mod twins;
pub mod values;

pub(crate) use self::prune::reachable;

use self::cycles::{alias_cycles, hold_edges, resolve_aliases};
use self::prune::prune_unreachable;

/// The whole API as the emitters see it.
#[derive(Debug, Clone, PartialEq)]
pub struct Api {
    /// The first `servers` URL, if any.
    pub base_url: Option<String>,
    /// The API's own name in the crate: its fake, its environment variables.
    pub identity: crate::identity::ApiIdentity,
    /// How the client authenticates, from the document's security schemes and requirements.
    pub auth: security::Auth,
    /// Every declared server, its variables at their defaults (the first is `base_url`).
    pub servers: Vec<servers::Server>,
    /// The operations sent to servers of their own (their path's or their own `servers`).
    pub operation_servers: Vec<servers::OperationServer>,
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
    /// The inline types made aliases of an identical type (see `shared`), each with the types
    /// its own definition held: those stay compiled with the features that reached the alias.
    pub shared: BTreeMap<String, Vec<String>>,
    /// Every place the document declares a structure that the crate types
    /// `serde_json::Value`, with its reason, one per pointer, sorted (see `values`).
    pub values: Vec<values::ValuePlace>,
}

impl Api {
    /// Whether the default base URL is relative (`/api/v2`): the document leaves the origin to
    /// whoever deploys the API.
    pub fn base_url_is_relative(&self) -> bool {
        self.base_url
            .as_deref()
            .is_some_and(|url| !url.is_empty() && !url.contains("://"))
    }
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
    /// An enum of JSON values that are not all strings or all integers (`enum: [{x: 0}, {x:
    /// 1}]`, `oneOf: [{const: {...}}, ...]`): each variant's `wire` is its value's JSON text,
    /// compared as JSON (numbers by value, objects by their members); open to other values.
    ValueEnum(EnumDef),
}

impl TypeDef {
    /// Its Rust name.
    pub fn name(&self) -> &str {
        match self {
            TypeDef::Struct(def) => &def.name,
            TypeDef::Enum(def) => &def.name,
            TypeDef::Alias(def) => &def.name,
            TypeDef::Union(def) => &def.name,
            TypeDef::Untagged(def) => &def.name,
            TypeDef::IntEnum(def) => &def.name,
            TypeDef::ValueEnum(def) => &def.name,
        }
    }

    /// The type uses its fields, variants or target hold directly: the edges of the type graph.
    pub(crate) fn held_types(&self) -> Vec<&TypeRef> {
        match self {
            TypeDef::Struct(def) => def.fields.iter().map(|f| &f.ty).collect(),
            TypeDef::Alias(def) => vec![&def.ty],
            TypeDef::Union(def) => def.variants.iter().map(|v| &v.ty).collect(),
            TypeDef::Untagged(def) => def.variants.iter().map(|v| &v.ty).collect(),
            TypeDef::Enum(_) | TypeDef::IntEnum(_) | TypeDef::ValueEnum(_) => Vec::new(),
        }
    }
}

impl Operation {
    /// The `Accept` header the method sends when it is not the runtime's default for a JSON
    /// response (`application/json`): `None` when the runtime's `execute` says it already.
    pub fn custom_accept(&self) -> Option<&str> {
        (self.accept != operations::DEFAULT_ACCEPT).then_some(self.accept.as_str())
    }

    /// Its request body in every media type it is sent in: the preferred first.
    pub fn bodies(&self) -> impl Iterator<Item = &Body> {
        self.body.iter().chain(&self.other_bodies)
    }

    /// The type uses the operation starts from: its parameters, body and JSON response.
    pub(crate) fn type_roots(&self) -> Vec<&TypeRef> {
        let mut roots: Vec<&TypeRef> = self
            .path_params
            .iter()
            .chain(&self.required_query)
            .chain(&self.optional_query)
            .map(|param| &param.ty)
            .collect();
        roots.extend(self.bodies().filter_map(|body| body.kind.value_type()));
        if let ResponseKind::Json(ty) = &self.response {
            roots.push(ty);
        }
        roots
    }
}

/// A union told apart by JSON kind: one variant per member, at most one per kind.
#[derive(Debug, Clone, PartialEq)]
pub struct UntaggedDef {
    /// Rust name.
    pub name: String,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// Variants in the order serde tries them (an integer before a number); for a best-fit
    /// union, in the document's order.
    pub variants: Vec<UntaggedVariant>,
    /// Whether no rule tells the members apart (several objects, or several arrays, only their
    /// contents do: `ir::best_fit`), so a value decodes as the member that fits it best (the
    /// runtime's `best_fit`) rather than by its JSON kind or keys.
    pub best_fit: bool,
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
    /// How the value is held: inline, in a `Box` or through the runtime's `Indirect` (see
    /// `cycles::hold_edges`).
    pub held: Held,
    /// For a union of objects told apart by the properties a value holds (see `ir::keyed`):
    /// the properties whose presence picks this member (empty for the one member picked when
    /// a value holds no other member's). `None` in a union told apart by JSON kind.
    pub keys: Option<Vec<String>>,
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
    /// What kind of JSON value the tag property holds; each variant's tags are its text.
    pub tag_kind: TagKind,
    /// One variant per tag value, in document order.
    pub variants: Vec<UnionVariant>,
    /// Name of the variant that keeps a value with any other tag.
    pub fallback: String,
}

/// The kind of JSON value a union's tag is: a string, or an integer or boolean every member
/// pins (Discord's `type: {type: integer, enum: [2]}`). A tag's text is the string itself, the
/// integer in decimal (`2`, `-1`: `2.0` in a document is `2`), or `true`/`false`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TagKind {
    /// A JSON string.
    #[default]
    String,
    /// A JSON number without a fraction that fits an `i64`.
    Integer,
    /// `true` or `false`.
    Boolean,
}

impl TagKind {
    /// The Rust type `tag()` gives a tag of this kind as.
    pub fn rust_type(self) -> &'static str {
        match self {
            TagKind::String => "&str",
            TagKind::Integer => "i64",
            TagKind::Boolean => "bool",
        }
    }

    /// A tag's text as the JSON value on the wire; `None` when it is no value of this kind.
    pub fn wire_value(self, tag: &str) -> Option<serde_json::Value> {
        match self {
            TagKind::String => Some(serde_json::Value::from(tag)),
            TagKind::Integer => tag.parse::<i64>().ok().map(serde_json::Value::from),
            TagKind::Boolean => tag.parse::<bool>().ok().map(serde_json::Value::from),
        }
    }
}

/// One tag of a union.
#[derive(Debug, Clone, PartialEq)]
pub struct UnionVariant {
    /// The discriminator value: the variant's primary tag, which the names lock keys it by and
    /// which encoding writes when the payload carries no tag of its own.
    pub tag: String,
    /// Further values of the tag property that decode as this variant: a member whose tag
    /// property admits several values (`enum: [eq, ne]`) is tagged by each (see `tags.rs`).
    pub also: Vec<String>,
    /// The payload's field (its Rust name) that holds the tag when the variant has several: a
    /// required, non-null field, so the value's real tag is read from it.
    pub tag_field: Option<String>,
    /// A value with one of the variant's tags that its payload type does not read decodes as
    /// the fallback: an heir of a base object with several tags takes them from the base, whose
    /// own values (the base is no variant) the fallback keeps.
    pub unfit_kept: bool,
    /// The Rust variant name.
    pub rust_name: String,
    /// The variant's payload type.
    pub ty: TypeRef,
    /// How the value is held: inline, in a `Box` or through the runtime's `Indirect` (see
    /// `cycles::hold_edges`).
    pub held: Held,
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

/// How a field or variant holds its value (see `cycles::hold_edges`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Held {
    /// In place.
    #[default]
    Inline,
    /// In a `Box`: the way back to its own type in a small cycle (an infinitely sized type
    /// otherwise).
    Boxed,
    /// Through the runtime's `Indirect` (a pointer rustc's drop check stops at): an edge of a
    /// large cycle of types, or the one cutting a long chain.
    Indirect,
}

impl Held {
    /// The wrapper's name as the API listing and the change report write it (`Box`, `Indirect`).
    pub fn name(self) -> Option<&'static str> {
        match self {
            Held::Inline => None,
            Held::Boxed => Some("Box"),
            Held::Indirect => Some("Indirect"),
        }
    }
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
    /// How the value is held: inline, in a `Box` or through the runtime's `Indirect` (see
    /// `cycles::hold_edges`).
    pub held: Held,
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
    /// `u64`: an integer with an unsigned `format` (`uint64`, `uint32`, `uint8`, …), whose
    /// values above `i64::MAX` an `i64` would refuse.
    Unsigned,
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
    /// The runtime's `Binary`: raw bytes (`format: binary`, or a 3.1 `contentMediaType`), a
    /// file part of its own in a multipart body.
    Bytes,
    /// A [`TypeDef`] by Rust name.
    Named(String),
    /// `Vec<T>`
    Vec(Box<TypeRef>),
    /// `BTreeMap<String, T>`
    Map(Box<TypeRef>),
    /// `Option<T>` inside a collection (`[number | null]`).
    Option(Box<TypeRef>),
    /// The runtime's `Indirect<T>` around a named type: a pointer rustc's drop check stops at,
    /// on each edge of a cycle and down long chains (see `cycles::hold_edges`).
    Indirect(Box<TypeRef>),
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
    /// Its API area: the Cargo feature it is compiled with (see `ir::areas`).
    pub area: String,
    /// Rustdoc text.
    pub doc: Option<String>,
    /// Path parameters in template order (a placeholder written twice is one parameter).
    pub path_params: Vec<Param>,
    /// Query pairs the path key itself holds (`/responses?beta=true`), sent first, as written.
    pub fixed_query: Vec<(String, String)>,
    /// Required query, header and cookie parameters (method arguments).
    pub required_query: Vec<Param>,
    /// Optional query, header and cookie parameters (fields of the query struct).
    pub optional_query: Vec<Param>,
    /// Name of the query struct, when there are optional query parameters.
    pub query_type: Option<String>,
    /// The request body, in the preferred media type the document offers it in.
    pub body: Option<Body>,
    /// The request body in each other media type the document offers it in (a method each,
    /// named with the body's `suffix`), in the document's order.
    pub other_bodies: Vec<Body>,
    /// What a 2xx response carries.
    pub response: ResponseKind,
    /// The `Accept` header: every media type of the 2xx bodies that the client reads the way
    /// `response` says (`application/json` when it reads none).
    pub accept: String,
    /// The statuses outside 2xx the document declares for it, in its order (`default` last).
    pub error_statuses: Vec<DeclaredStatus>,
    /// The security requirements its request carries (alternatives in the document's order,
    /// each the scheme keys sent together; `[]` met with none), its own or the document's, when
    /// the crate's operations differ in what they need (`security::auth` decides); `None`: the
    /// client's API key, if it has one.
    pub security: Option<Vec<Vec<String>>>,
}

/// A status outside 2xx an operation's document declares (`404`, `4XX`, `default`).
#[derive(Debug, Clone, PartialEq)]
pub struct DeclaredStatus {
    /// As the document writes it: a code, a range (`4XX`) or `default`.
    pub status: String,
    /// The response's description, when it has one (document text: escaped wherever shown).
    pub description: Option<String>,
}

/// A path, query, header or cookie parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// Where it is sent.
    pub location: Location,
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
    /// OpenAPI's `style` (the location's default when the document gives none): the runtime's
    /// one encoder (`param_style`) writes the value by it.
    pub style: ParamStyle,
    /// OpenAPI's `explode` (`true` by default for `form` only).
    pub explode: bool,
    /// OpenAPI's `allowReserved` (query parameters only): values by RFC 6570's reserved
    /// expansion, reserved characters and `%XX` triples sent as they are.
    pub allow_reserved: bool,
    /// A credential: the value of an `apiKey` security scheme's parameter, registered as a live
    /// secret for the request so that nothing the client writes shows it.
    pub secret: bool,
}

impl Param {
    /// For a scalar path parameter: the literal its value follows (`.` for `style: label`,
    /// `;id=` for `style: matrix`); empty for `simple`.
    pub fn path_prefix(&self) -> String {
        match self.style {
            ParamStyle::Label => ".".to_owned(),
            ParamStyle::Matrix => format!(";{}=", self.wire_name),
            _ => String::new(),
        }
    }
}

/// How a parameter is serialised: OpenAPI's `style` (RFC 6570), as the runtime's
/// `param_style::Style` names it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum ParamStyle {
    /// `blue,black` (path, header).
    Simple,
    /// `.blue` (path).
    Label,
    /// `;color=blue` (path).
    Matrix,
    /// `color=blue` (query, cookie).
    #[default]
    Form,
    /// `color=blue%20black` (query).
    SpaceDelimited,
    /// `color=blue|black` (query).
    PipeDelimited,
    /// `color[R]=100` (query).
    DeepObject,
}

impl ParamStyle {
    /// The variant's name in the runtime's `param_style::Style`.
    pub fn runtime_name(self) -> &'static str {
        match self {
            ParamStyle::Simple => "Simple",
            ParamStyle::Label => "Label",
            ParamStyle::Matrix => "Matrix",
            ParamStyle::Form => "Form",
            ParamStyle::SpaceDelimited => "SpaceDelimited",
            ParamStyle::PipeDelimited => "PipeDelimited",
            ParamStyle::DeepObject => "DeepObject",
        }
    }
}

/// Where a parameter is sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Location {
    /// Substituted into the path template.
    Path,
    /// A query pair (`key=value`, a repeated key for an array).
    #[default]
    Query,
    /// A request header.
    Header,
    /// One pair of the `Cookie` header.
    Cookie,
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
    /// The word the method sending it ends with (`multipart`: `post_files_multipart`), for a
    /// body the operation also takes in another, preferred, media type; empty for that one.
    /// Its kind's word (`ir::operations::MediaKind::word`), or the media type's own words when
    /// two media types of one kind are offered (`text_x_markdown`).
    pub suffix: String,
}

/// How a request body is encoded.
#[derive(Debug, Clone, PartialEq)]
pub enum BodyKind {
    /// A value of this type as JSON (`application/json`, `…+json`).
    Json(TypeRef),
    /// A value of this (object) type form-encoded (`application/x-www-form-urlencoded`).
    Form {
        /// The object type (a struct or a map).
        ty: TypeRef,
        /// The properties the document's `encoding` gives a `style` or `explode`, each sent
        /// as the query parameter of its name would be; the others by OpenAPI's defaults.
        styles: Vec<FormStyle>,
    },
    /// A value of this (object) type as `multipart/form-data`, a part per property; bytes
    /// (`format: binary`) and lists of them are sent as files, a file part per item.
    Multipart {
        /// The object type (a struct, a map, a union of objects, or any JSON object).
        ty: TypeRef,
        /// Wire names of the `format: binary` properties.
        files: Vec<String>,
        /// The media type the document's `encoding` gives each property's file parts, by wire
        /// name (a file's own media type, if the caller sets one, wins).
        content_types: Vec<(String, String)>,
    },
    /// Text as given (`text/*`).
    Text,
    /// Bytes as given (`application/octet-stream` and every other media type).
    Bytes,
}

/// One form-encoded property's `style`, `explode` and `allowReserved`, from the document's
/// `encoding`.
#[derive(Debug, Clone, PartialEq)]
pub struct FormStyle {
    /// The property's wire name.
    pub wire_name: String,
    /// Its style (`form` when the `encoding` names only `explode`).
    pub style: ParamStyle,
    /// Its `explode`.
    pub explode: bool,
    /// Its `allowReserved`.
    pub allow_reserved: bool,
}

impl BodyKind {
    /// The type the caller's value has, for the kinds that carry one.
    pub fn value_type(&self) -> Option<&TypeRef> {
        match self {
            BodyKind::Json(ty) | BodyKind::Form { ty, .. } | BodyKind::Multipart { ty, .. } => {
                Some(ty)
            }
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

/// Builds the IR from a lowered document: only what `selection` names is converted; no type
/// takes a name of `reserved_types` (what the extensions reserve). `lowered_values` are the
/// places the lowering already read as any JSON value.
pub(crate) fn build(
    spec: &OpenAPI,
    selection: &Selection,
    config: &Config,
    reserved_types: &[&str],
    notes: &mut Vec<Note>,
    lowered_values: Vec<values::ValuePlace>,
) -> Result<Api, Error> {
    let components = spec.components.as_ref();
    let schemas = components.map(|c| &c.schemas);
    // Keys naming an endpoint follow the document's placeholder names (see `follow_paths`).
    let lock = config
        .names_lock
        .follow_paths(spec.paths.paths.keys().map(String::as_str));
    let identity = crate::identity::ApiIdentity::of(config, &spec.info.title);
    let (names, component_names) =
        component_names(&lock, &identity.fake_type, reserved_types, schemas);
    let mut builder = Builder {
        spec,
        resolved: schemas.map(resolve_aliases).unwrap_or_default(),
        settled_compositions: HashSet::new(),
        notes,
        names,
        component_names: component_names.clone(),
        types: BTreeMap::new(),
        left_out: Vec::new(),
        skipped: Vec::new(),
        one_sided: Vec::new(),
        inline_depth: 0,
        flattened: HashMap::new(),
        heirs: None,
        merged_fields: 0,
        merged_fields_budget: merge::merged_fields_budget(spec),
        values: lowered_values,
        null_admitted: HashMap::new(),
        union_forms: HashMap::new(),
        fit_kinds: HashMap::new(),
    };
    if let Some(schemas) = schemas {
        for (key, schema) in schemas {
            if selection.has_schema(key) {
                builder.define_component_or_leave_out(key, schema, config.strict)?;
            }
        }
    }
    let mut operations = builder.operations(selection, config)?;
    operations.sort_by(|a, b| a.name.cmp(&b.name));
    let area_lock = areas::assign(&mut operations, config, &lock.areas)?;
    if config.strict
        && let Some(first) = builder.left_out.first()
    {
        return Err(first.clone());
    }
    twins::split_by_direction(
        &mut builder.types,
        &mut operations,
        &mut builder.one_sided,
        &mut builder.names,
    );
    let mut skipped = builder.skipped;
    skipped.sort_by(|a, b| a.name.cmp(&b.name));
    let mut types = builder.types;
    access::shape_one_sided(&mut types, &operations, &builder.one_sided, builder.notes);
    // A selection keeps only what its operations reach; without one every component stays.
    // Either way, inline types of a left-out operation go with it.
    let roots: Vec<String> = match selection.schemas {
        Some(_) => Vec::new(),
        None => component_names.values().cloned().collect(),
    };
    prune_unreachable(&mut types, &operations, &roots);
    for (name, pointer) in alias_cycles(&types, &component_names) {
        let what = "the type (read as any JSON value)";
        let reason = "it contains itself only through arrays or maps of itself (a recursive alias)";
        if config.strict {
            return Err(Error::LeftOut {
                pointer,
                what: what.into(),
                reason: reason.into(),
            });
        }
        if let Some(TypeDef::Alias(alias)) = types.get_mut(&name) {
            alias.ty = TypeRef::Json;
        }
        builder.values.push(values::ValuePlace {
            pointer: pointer.clone(),
            reason: values::ValueReason::RecursiveAlias,
            detail: reason.into(),
        });
        builder.notes.push(Note {
            pointer,
            message: format!("{what} is left out: {reason}"),
        });
    }
    let components: BTreeSet<&str> = component_names.values().map(String::as_str).collect();
    let shared = shared::share_identical(&mut types, &operations, &components, &lock.shared);
    // After sharing: twins are told apart by their shapes, before any edge holds an `Indirect`.
    let held = hold_edges(&mut types, &lock.held);
    tags::settle_tag_fields(&mut types);
    // The lock records what is emitted (and keeps what it held: names kept or retired), not
    // every schema of a document the selection mostly leaves out.
    let query_types: BTreeSet<&str> = operations
        .iter()
        .filter_map(|op| op.query_type.as_deref())
        .collect();
    let mut names = builder.names.settle_ir(
        |_, name| types.contains_key(name) || query_types.contains(name),
        |name| {
            operations.iter().any(|op| op.name == name) || skipped.iter().any(|op| op.name == name)
        },
        area_lock,
    );
    names.shared = shared.canonical;
    names.held = held;
    let servers = servers::servers(spec, builder.notes);
    let base_url = servers.first().map(|server| server.url.clone());
    let operation_servers = servers::operation_servers(spec, &operations, &servers, builder.notes);
    let auth = security::auth(spec, &mut operations, builder.notes);
    let kept_components: BTreeSet<&str> = component_names
        .iter()
        .filter(|(_, name)| types.contains_key(name.as_str()))
        .map(|(key, _)| key.as_str())
        .collect();
    let values = values::settle(builder.values, &kept_components);
    Ok(Api {
        base_url,
        identity,
        auth,
        servers,
        operation_servers,
        types,
        operations,
        component_names,
        skipped,
        names,
        shared: shared.held,
        values,
    })
}

/// The names of every component schema, claimed over the whole document (so a selection never
/// renames anything) after the fake's name and the extensions' reserved type names; the
/// [`Names`] that goes on to name the rest.
fn component_names(
    lock: &NameLock,
    fake_type: &str,
    reserved_types: &[&str],
    schemas: Option<&indexmap::IndexMap<String, ReferenceOr<Schema>>>,
) -> (Names, BTreeMap<String, String>) {
    let mut names = Names::new(lock);
    // No schema takes the fake's name (the fake's module sees every model), nor one an
    // extension reserves.
    names.take_fixed_type(fake_type);
    for name in reserved_types {
        names.take_fixed_type(name);
    }
    let mut component_names = BTreeMap::new();
    if let Some(schemas) = schemas {
        let schemas_pointer = Pointer::root().join("components").join("schemas");
        for key in schemas.keys() {
            component_names.insert(
                key.clone(),
                names.claim_type(
                    schemas_pointer.join(key).as_str(),
                    &crate::names::camel_ident(key, "T"),
                ),
            );
        }
    }
    (names, component_names)
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
#[derive(Clone, Default)]
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
    /// Every name given, through the names lock.
    names: Names,
    component_names: BTreeMap<String, String>,
    types: BTreeMap<String, TypeDef>,
    /// Everything left out of a selected operation, as the error strict mode reports.
    left_out: Vec<Error>,
    /// Selected operations left out whole.
    skipped: Vec<SkippedOperation>,
    /// Required struct fields marked `readOnly` or `writeOnly`, by type and wire name, with
    /// where they stand: shaped per side once the operations say which side uses each type.
    one_sided: Vec<access::OneSided>,
    /// Inline definitions open on the stack: an `allOf` that reaches itself through `$ref`s
    /// would otherwise nest inline structs without end.
    inline_depth: usize,
    /// The object each composition (an `allOf` of several members) flattens to, or why it
    /// does not: worked out once per schema (see `merge`).
    flattened: HashMap<*const Schema, Result<ObjectParts<'a>, &'static str>>,
    /// Who names whom as an `allOf` member, by reference: built on first use (see `merge`).
    heirs: Option<HashMap<&'a str, Vec<&'a String>>>,
    /// Fields the `allOf` merges have copied so far, and how many they may (see `merge`).
    merged_fields: usize,
    merged_fields_budget: usize,
    /// Places typed `serde_json::Value` although the document declares a structure there.
    values: Vec<values::ValuePlace>,
    /// Whether each schema worked out so far admits `null` (see `nullable`).
    null_admitted: HashMap<*const Schema, bool>,
    /// How each union worked out so far is typed (see `nullable`).
    union_forms: HashMap<*const Schema, nullable::UnionForm>,
    /// The JSON kind of each union member read so far, and the depths it holds at (see
    /// `best_fit`).
    fit_kinds: HashMap<*const ReferenceOr<Schema>, best_fit::FitKind>,
}

impl<'a> Builder<'a> {
    /// Leaves `what` out with a note (an error in strict mode, reported at the end of the build).
    pub(super) fn leave_out(&mut self, pointer: &str, what: &str, reason: &str) {
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

    /// Records that the structure at `pointer` is typed `serde_json::Value`, and notes it.
    pub(super) fn typed_as_value(
        &mut self,
        pointer: &Pointer,
        reason: values::ValueReason,
        message: impl Into<String>,
    ) {
        let message = message.into();
        self.values.push(values::ValuePlace {
            pointer: pointer.to_string(),
            reason,
            detail: message.clone(),
        });
        self.note(pointer, message);
    }

    pub(super) fn note(&mut self, pointer: &Pointer, message: impl Into<String>) {
        self.notes.push(Note {
            pointer: pointer.to_string(),
            message: message.into(),
        });
    }

    /// Takes `name` before defining it, so that a member referring back finds it taken.
    pub(super) fn reserve(&mut self, name: &str) {
        let placeholder = AliasDef {
            name: name.to_owned(),
            doc: None,
            ty: TypeRef::Json,
        };
        self.types
            .insert(name.to_owned(), TypeDef::Alias(placeholder));
    }
}

impl<'s> SchemaAt<'s> {
    fn of_boxed_ref(schema: &'s ReferenceOr<Schema>) -> Self {
        Self::of(schema)
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
