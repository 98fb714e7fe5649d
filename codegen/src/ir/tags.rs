//! The tags of a discriminated union (`oneOf`/`anyOf` with a `discriminator`, or a base object's
//! heirs): the `mapping` first, as it is what the server sends; then each member's own values of
//! the tag property where the member limits it (`const`, or an `enum`), as the member's schema
//! admits no other: one value is the variant's tag, several (a required property) are all its
//! tags, the first unclaimed being the primary one; the member's component name (the
//! specification's implicit mapping) only where it limits none. A tag two members claim keeps
//! its first meaning. A tag is a string, or an integer or boolean where the members pin one
//! (`TagKind`): then the mapping's keys are read as such, and a member pinning none has no tag.

use std::collections::BTreeMap;

use openapiv3::{Discriminator, ReferenceOr, Schema, SchemaKind, Type};

use super::convert::string_enum;
use super::{Builder, SCHEMAS, StructDef, TagKind, TypeDef, TypeRef, local_key};
use crate::Error;
use crate::error::Pointer;

/// Where a tag's payload type comes from.
pub(super) enum TagSource<'a> {
    /// A component, by `$ref`.
    Ref(&'a str),
    /// An inline member (its index, and itself), which only a pinned value can tag.
    Inline(usize, &'a ReferenceOr<Schema>),
}

/// A variant's primary tag, its further tags, and where its payload type comes from.
pub(super) type SourcedTags<'a> = (String, Vec<String>, TagSource<'a>);

/// A variant's primary tag followed by its further ones.
pub(super) fn tags_of<'t>(tag: &'t str, also: &'t [String]) -> impl Iterator<Item = &'t str> {
    std::iter::once(tag).chain(also.iter().map(String::as_str))
}

/// The values `schema` limits a value to, as tags of their kind: a string `enum`, or an `enum`
/// of integers (`2.0` is `2`) or of booleans (`const` is an `enum` of one once lowered); `None`
/// for any other schema, an `enum` of several kinds or of numbers with a fraction.
pub(super) fn pinned_tags(schema: &Schema) -> Option<(TagKind, Vec<String>)> {
    if let Some(values) = string_enum(schema) {
        let values = values.into_iter().map(str::to_owned).collect();
        return Some((TagKind::String, values));
    }
    let values: Vec<serde_json::Value> = match &schema.schema_kind {
        SchemaKind::Type(Type::Integer(integer)) => integer
            .enumeration
            .iter()
            .flatten()
            .map(|v| (*v).into())
            .collect(),
        SchemaKind::Type(Type::Number(number)) => number
            .enumeration
            .iter()
            .flatten()
            .map(|v| (*v).into())
            .collect(),
        SchemaKind::Type(Type::Boolean(boolean)) => boolean
            .enumeration
            .iter()
            .flatten()
            .map(|v| (*v).into())
            .collect(),
        SchemaKind::Any(any)
            if matches!(
                any.typ.as_deref(),
                None | Some("integer" | "number" | "boolean")
            ) =>
        {
            any.enumeration
                .iter()
                .filter(|value| !value.is_null())
                .cloned()
                .collect()
        }
        _ => return None,
    };
    if values.is_empty() {
        return None;
    }
    if let Some(integers) = values.iter().map(integral).collect::<Option<Vec<i64>>>() {
        return Some((
            TagKind::Integer,
            integers.iter().map(i64::to_string).collect(),
        ));
    }
    let booleans: Option<Vec<bool>> = values.iter().map(serde_json::Value::as_bool).collect();
    booleans.map(|booleans| {
        (
            TagKind::Boolean,
            booleans.iter().map(bool::to_string).collect(),
        )
    })
}

/// 2^63, the first float past `i64::MAX`.
const I64_BOUND: f64 = 9_223_372_036_854_775_808.0;

/// The integer a JSON number is, if it is one an `i64` holds (`2.0` is `2`, as to JSON Schema).
fn integral(value: &serde_json::Value) -> Option<i64> {
    let number = value.as_number()?;
    number.as_i64().or_else(|| {
        let float = number.as_f64()?;
        // Between -2^63 and 2^63 every integral float is an `i64`: the cast is exact.
        (float.fract() == 0.0 && (-I64_BOUND..I64_BOUND).contains(&float)).then_some(float as i64)
    })
}

/// A mapping key as a tag of `kind`: its canonical text (`02` is the integer `2`), `None` when
/// it is no value of that kind.
fn mapping_tag(kind: TagKind, key: &str) -> Option<String> {
    match kind {
        TagKind::String => Some(key.to_owned()),
        TagKind::Integer => key
            .trim()
            .parse::<i64>()
            .ok()
            .map(|value| value.to_string()),
        TagKind::Boolean => key
            .trim()
            .parse::<bool>()
            .ok()
            .map(|value| value.to_string()),
    }
}

/// The kind of a union's tag from what its members admit: the one kind other than string that
/// every member pinning a value pins (a member of another kind then admits none), else string.
pub(super) fn union_kind(admitted: &[Option<(TagKind, Vec<String>)>]) -> TagKind {
    let mut kinds = admitted.iter().flatten().map(|(kind, _)| *kind);
    match kinds.next() {
        Some(first) if kinds.all(|kind| kind == first) => first,
        _ => TagKind::String,
    }
}

/// Splits a member's `admitted` values into those not yet `claimed` (the primary first, then
/// the others) and those another member holds already; `None` for the first when none is left.
fn unclaimed<'v>(
    admitted: &'v [String],
    claimed: &[&str],
) -> (Option<(String, Vec<String>)>, Vec<&'v str>) {
    let (free, taken): (Vec<&str>, Vec<&str>) = admitted
        .iter()
        .map(String::as_str)
        .partition(|value| !claimed.contains(value));
    let tags = free.split_first().map(|(primary, also)| {
        (
            (*primary).to_owned(),
            also.iter().map(|value| (*value).to_owned()).collect(),
        )
    });
    (tags, taken)
}

impl<'a> Builder<'a> {
    /// The values a union member limits `property` to (`const`, or an `enum`), through `$ref`s
    /// and `allOf`s, with their kind, each once in document order: one value, or several where
    /// the member requires the property (so its struct holds the tag to read back); `None` when
    /// it admits any value, or several values of a property it may leave out.
    pub(super) fn admitted_tags(
        &mut self,
        member: &'a ReferenceOr<Schema>,
        property: &str,
        pointer: &Pointer,
    ) -> Option<(TagKind, Vec<String>)> {
        let object = self.member_object(member, pointer)?;
        let (kind, values) = self.property_values(&object, property, pointer)?;
        let mut distinct: Vec<String> = Vec::with_capacity(values.len());
        for value in values {
            if !distinct.contains(&value) {
                distinct.push(value);
            }
        }
        (distinct.len() == 1 || object.required.contains(property)).then_some((kind, distinct))
    }

    /// The tags of a union with a discriminator over `members` (under `keyword`), in order:
    /// the mapping's, then each unmapped member's values or component name, each tag with the
    /// variant's further tags; and their kind ([`union_kind`]). Notes what a reader would
    /// otherwise miss: a member pinning a value its mapping does not give it, a tag two members
    /// claim, a member without a limited value where one is needed, a mapping key of another
    /// kind than the members' tags.
    pub(super) fn union_tags(
        &mut self,
        keyword: &str,
        members: &'a [ReferenceOr<Schema>],
        discriminator: &'a Discriminator,
        pointer: &Pointer,
    ) -> Result<(TagKind, Vec<SourcedTags<'a>>), Error> {
        let property = discriminator.property_name.as_str();
        let admitted: Vec<Option<(TagKind, Vec<String>)>> = members
            .iter()
            .enumerate()
            .map(|(index, member)| {
                self.admitted_tags(member, property, &pointer.join(keyword).join(index))
            })
            .collect();
        let kind = union_kind(&admitted);
        let mut tagged: Vec<SourcedTags<'a>> = Vec::new();
        for (key, reference) in &discriminator.mapping {
            match mapping_tag(kind, key) {
                Some(tag) => tagged.push((tag, Vec::new(), TagSource::Ref(reference.as_str()))),
                None => self.note(
                    &pointer.join("discriminator").join("mapping").join(key),
                    format!("the members pin `{property}` to values of kind {}, which the key is not: left out (a value with it decodes as the fallback)", kind.rust_type()),
                ),
            }
        }
        let mapping_len = tagged.len();
        for ((index, member), admitted) in members.iter().enumerate().zip(admitted) {
            let at = pointer.join(keyword).join(index);
            // A member pinning another kind than the union's admits any value of its kind.
            let admitted = admitted
                .filter(|(own, _)| *own == kind)
                .map(|(_, values)| values);
            let source = match member {
                ReferenceOr::Reference { reference } => {
                    let mapped: Vec<&str> = tagged
                        .iter()
                        .take(mapping_len)
                        .filter(|(_, _, source)| matches!(source, TagSource::Ref(target) if target == reference))
                        .map(|(tag, _, _)| tag.as_str())
                        .collect();
                    if !mapped.is_empty() {
                        if let Some([pin]) = admitted.as_deref()
                            && !mapped.contains(&pin.as_str())
                        {
                            self.note(
                                &at,
                                format!(
                                    "the member pins `{property}` to `{pin}`, but the mapping gives it `{}`: the mapping is followed, as it is what the server sends",
                                    mapped.join("`, `")
                                ),
                            );
                        }
                        continue;
                    }
                    TagSource::Ref(reference.as_str())
                }
                ReferenceOr::Item(_) => TagSource::Inline(index, member),
            };
            let admitted = match (admitted, &source) {
                (Some(admitted), _) => admitted,
                (None, TagSource::Ref(reference)) if kind == TagKind::String => {
                    vec![local_key(reference, SCHEMAS, &at)?]
                }
                (None, TagSource::Ref(_)) => {
                    self.note(
                        &at,
                        format!("the member does not limit `{property}` to {} values, which the others' tags are: it has no tag and decodes as the fallback", kind.rust_type()),
                    );
                    continue;
                }
                (None, TagSource::Inline(..)) => {
                    self.note(
                        &at,
                        format!("an inline member of a discriminated union that does not limit `{property}` (`const`, or an `enum` of a required property) has no tag and decodes as the fallback"),
                    );
                    continue;
                }
            };
            let claimed: Vec<&str> = tagged
                .iter()
                .flat_map(|(tag, also, _)| tags_of(tag, also))
                .collect();
            let (tags, taken) = unclaimed(&admitted, &claimed);
            for tag in taken {
                self.note(
                    &at,
                    format!("the member's tag `{tag}` is already another member's, which keeps it: a value tagged so decodes as that one"),
                );
            }
            if let Some((tag, also)) = tags {
                tagged.push((tag, also, source));
            }
        }
        Ok((kind, tagged))
    }

    /// The tags of a base object's heir `key` that no mapping names, but those `claimed`
    /// already: the values it limits the discriminator's property to, else its component name;
    /// `None` when every one is claimed.
    pub(super) fn heir_tags(
        &mut self,
        key: &'a str,
        property: &str,
        claimed: &[&str],
        pointer: &Pointer,
    ) -> Option<(String, Vec<String>)> {
        let heir = self
            .spec
            .components
            .as_ref()
            .and_then(|components| components.schemas.get(key));
        // An heir's tag stays a string (the base's property is one): an integer or boolean
        // it pins leaves it tagged by its name.
        let admitted = heir
            .and_then(|heir| self.admitted_tags(heir, property, pointer))
            .filter(|(kind, _)| *kind == TagKind::String)
            .map_or_else(|| vec![key.to_owned()], |(_, values)| values);
        unclaimed(&admitted, claimed).0
    }
}

impl Builder<'_> {
    /// Marks the heirs of the base union `name` that take several tags: those may be the
    /// base's values too (PagerDuty's `WeeklyRestriction` inherits `daily_restriction` from
    /// `Restriction`), so a value its payload does not read is the base's own, which the
    /// fallback keeps, not an error.
    pub(super) fn keep_unfit_heirs(&mut self, name: &str) {
        if let Some(TypeDef::Union(union)) = self.types.get_mut(name) {
            for variant in &mut union.variants {
                variant.unfit_kept = !variant.also.is_empty();
            }
        }
    }
}

/// Gives each variant with several tags the payload field it reads its real tag from: the
/// payload struct's required, non-null field of the tag property (through aliases), a string or
/// an open enum (an open integer enum for an integer tag; a boolean tag reads none). Where the
/// payload holds no such field, the variant keeps its primary tag alone, as `tag()` could not
/// tell which of the others a value has.
pub(super) fn settle_tag_fields(types: &mut BTreeMap<String, TypeDef>) {
    let mut settled: Vec<(String, usize, Option<String>)> = Vec::new();
    for (name, def) in types.iter() {
        let TypeDef::Union(union) = def else { continue };
        for (index, variant) in union.variants.iter().enumerate() {
            if variant.also.is_empty() {
                continue;
            }
            let field = payload_struct(types, &variant.ty).and_then(|payload| {
                payload
                    .fields
                    .iter()
                    .find(|field| field.wire_name == union.tag_property)
                    .filter(|field| {
                        field.required
                            && !field.nullable
                            && reads_as(types, &field.ty, union.tag_kind)
                    })
                    .map(|field| field.rust_name.clone())
            });
            settled.push((name.clone(), index, field));
        }
    }
    for (name, index, field) in settled {
        if let Some(TypeDef::Union(union)) = types.get_mut(&name)
            && let Some(variant) = union.variants.get_mut(index)
        {
            if field.is_none() {
                variant.also.clear();
                variant.unfit_kept = false;
            }
            variant.tag_field = field;
        }
    }
}

/// Whether a value of `ty` gives its wire value as a tag of `kind`: a string by `as_str()` (a
/// `String`, or an open enum), an integer by `value()` (an open integer enum); through aliases,
/// bounded as aliases may form a cycle.
fn reads_as(types: &BTreeMap<String, TypeDef>, ty: &TypeRef, kind: TagKind) -> bool {
    let mut ty = ty;
    for _ in 0..=types.len() {
        match (ty, kind) {
            (TypeRef::String, TagKind::String) => return true,
            (TypeRef::Named(name), _) => match (types.get(name), kind) {
                (Some(TypeDef::Enum(_)), TagKind::String)
                | (Some(TypeDef::IntEnum(_)), TagKind::Integer) => return true,
                (Some(TypeDef::Alias(alias)), _) => ty = &alias.ty,
                _ => return false,
            },
            _ => return false,
        }
    }
    false
}

/// The struct `ty` names, through aliases (a bounded walk: aliases may form a cycle).
fn payload_struct<'t>(types: &'t BTreeMap<String, TypeDef>, ty: &TypeRef) -> Option<&'t StructDef> {
    let mut ty = ty;
    for _ in 0..=types.len() {
        let TypeRef::Named(name) = ty else {
            return None;
        };
        match types.get(name)? {
            TypeDef::Struct(def) => return Some(def),
            TypeDef::Alias(alias) => ty = &alias.ty,
            _ => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::Input;
    use crate::ir::{TypeDef, TypeRef};

    /// Components shared by the cases: `A` pins `kind` to `a` (`const`), `B` to `b` (an `enum`
    /// of one value), `C` holds any string, `Two` two values, `E` the same value twice, `F` pins
    /// it through a `$ref` to an enum of one value, `Pair` admits two through a `$ref`, `Loose`
    /// two of a property it may leave out, `Nullish` two of a nullable one.
    const MEMBERS: &str = "\
    A: {type: object, required: [kind], properties: {kind: {const: a}, x: {type: string}}}
    B: {type: object, required: [kind], properties: {kind: {type: string, enum: [b]}}}
    C: {type: object, required: [kind], properties: {kind: {type: string}}}
    Two: {type: object, required: [kind], properties: {kind: {type: string, enum: [d, e]}}}
    E: {type: object, required: [kind], properties: {kind: {type: string, enum: [e, e]}}}
    F: {type: object, required: [kind], properties: {kind: {$ref: '#/components/schemas/FKind'}}}
    FKind: {type: string, enum: [f]}
    Pair: {type: object, required: [kind], properties: {kind: {$ref: '#/components/schemas/PairKind'}}}
    PairKind: {type: string, enum: [g, h]}
    Loose: {type: object, properties: {kind: {type: string, enum: [l, m]}}}
    Nullish: {type: object, required: [kind], properties: {kind: {type: [string, 'null'], enum: [nu, nv]}}}
";

    /// `U`'s tags as `tag|also=Type` (`…@field` where a variant reads its tag from its payload's
    /// field), and the notes about it, for a document whose component `U`
    /// is `union` beside [`MEMBERS`] and `extra` components.
    fn tags(union: &str, extra: &str) -> (String, Vec<String>) {
        let spec = format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    {}    U: {union}\n{extra}",
            MEMBERS.trim_start()
        );
        let input = Input {
            spec_path: "t.yaml",
            spec_text: &spec,
            config_text: None,
        };
        let (api, notes) = crate::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
        let shown = match api.types.get("U") {
            Some(TypeDef::Union(def)) => def
                .variants
                .iter()
                .map(|variant| {
                    let tags: Vec<&str> = super::tags_of(&variant.tag, &variant.also).collect();
                    let field = variant
                        .tag_field
                        .as_ref()
                        .map(|field| format!("@{field}"))
                        .unwrap_or_default();
                    match &variant.ty {
                        TypeRef::Named(name) => format!("{}={name}{field}", tags.join("|")),
                        other => format!("{}={other:?}{field}", tags.join("|")),
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
            other => format!("{other:?}"),
        };
        let notes = notes
            .iter()
            .map(ToString::to_string)
            .filter(|note| note.starts_with("#/components/schemas/U"))
            .collect();
        (shown, notes)
    }

    fn refs(members: &str) -> String {
        members
            .split(' ')
            .map(|member| format!("{{$ref: '#/components/schemas/{member}'}}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    #[test]
    fn members_that_pin_the_tag_are_tagged_by_it_the_others_by_their_name() {
        let union = format!(
            "{{oneOf: [{}], discriminator: {{propertyName: kind}}}}",
            refs("A B C Two E F")
        );
        // `Two` admits two values, each its tag, so `E`'s (its repeated value is one) is taken.
        assert_eq!(
            tags(&union, ""),
            (
                "a=A b=B C=C d|e=Two@kind f=F".to_owned(),
                vec!["#/components/schemas/U/oneOf/4: the member's tag `e` is already another member's, which keeps it: a value tagged so decodes as that one".to_owned()]
            )
        );
        // Another property pinned is not the tag.
        let union = format!(
            "{{anyOf: [{}], discriminator: {{propertyName: x}}}}",
            refs("A B")
        );
        assert_eq!(tags(&union, ""), ("A=A B=B".to_owned(), vec![]));
    }

    #[test]
    fn a_mapping_wins_and_a_pin_it_contradicts_is_noted() {
        let union = format!(
            "{{oneOf: [{}], discriminator: {{propertyName: kind, mapping: {{m: '#/components/schemas/A', b: '#/components/schemas/B', c2: '#/components/schemas/C'}}}}}}",
            refs("A B C F")
        );
        assert_eq!(
            tags(&union, ""),
            (
                "m=A b=B c2=C f=F".to_owned(),
                vec![
                    "#/components/schemas/U/oneOf/0: the member pins `kind` to `a`, but the mapping gives it `m`: the mapping is followed, as it is what the server sends".to_owned()
                ]
            )
        );
    }

    #[test]
    fn a_tag_two_members_claim_keeps_its_first_meaning() {
        let extra = "    G: {type: object, required: [kind], properties: {kind: {const: a}}}\n";
        let union = format!(
            "{{anyOf: [{}], discriminator: {{propertyName: kind}}}}",
            refs("A G A")
        );
        let conflict = "the member's tag `a` is already another member's, which keeps it: a value tagged so decodes as that one";
        assert_eq!(
            tags(&union, extra),
            (
                "a=A".to_owned(),
                vec![
                    format!("#/components/schemas/U/anyOf/1: {conflict}"),
                    format!("#/components/schemas/U/anyOf/2: {conflict}"),
                ]
            )
        );
        // A component name the mapping already gives another member.
        let union = format!(
            "{{oneOf: [{}], discriminator: {{propertyName: kind, mapping: {{C: '#/components/schemas/Two'}}}}}}",
            refs("Two C")
        );
        assert_eq!(
            tags(&union, ""),
            (
                "C=Two".to_owned(),
                vec!["#/components/schemas/U/oneOf/1: the member's tag `C` is already another member's, which keeps it: a value tagged so decodes as that one".to_owned()]
            )
        );
    }

    #[test]
    fn an_inline_member_is_a_variant_only_when_it_pins_the_tag() {
        let union = "{oneOf: [{$ref: '#/components/schemas/B'}, {type: object, required: [kind, n], properties: {kind: {const: in-line}, n: {type: integer}}}, {type: object, properties: {kind: {type: string}}}], discriminator: {propertyName: kind}}";
        assert_eq!(
            tags(union, ""),
            (
                "b=B in-line=UInLine".to_owned(),
                vec![
                    "#/components/schemas/U/oneOf/2: an inline member of a discriminated union that does not limit `kind` (`const`, or an `enum` of a required property) has no tag and decodes as the fallback".to_owned()
                ]
            )
        );
    }

    #[test]
    fn a_member_admitting_several_values_is_tagged_by_each_that_is_free() {
        // Through a `$ref` to an enum; an earlier member's value stays its own, and a member
        // whose every value is taken is no variant.
        let union = format!(
            "{{oneOf: [{}], discriminator: {{propertyName: kind}}}}",
            refs("E Pair Two F")
        );
        let taken = |index: usize, tag: &str| {
            format!(
                "#/components/schemas/U/oneOf/{index}: the member's tag `{tag}` is already another member's, which keeps it: a value tagged so decodes as that one"
            )
        };
        assert_eq!(
            tags(&union, ""),
            (
                "e=E g|h=Pair@kind d=Two f=F".to_owned(),
                vec![taken(2, "e")]
            )
        );
        let union = format!(
            "{{oneOf: [{}], discriminator: {{propertyName: kind}}}}",
            refs("Two E")
        );
        assert_eq!(
            tags(&union, ""),
            ("d|e=Two@kind".to_owned(), vec![taken(1, "e")])
        );
        // A property the member may leave out, or send as `null`, has no tag to read back:
        // tagged by its name, or by its first value alone.
        let union = format!(
            "{{oneOf: [{}], discriminator: {{propertyName: kind}}}}",
            refs("Loose Nullish")
        );
        assert_eq!(
            tags(&union, ""),
            ("Loose=Loose nu=Nullish".to_owned(), vec![])
        );
        // An inline member admitting several values.
        let union = "{oneOf: [{type: object, required: [kind], properties: {kind: {enum: [p, q]}}}], discriminator: {propertyName: kind}}";
        assert_eq!(tags(union, ""), ("p|q=Up@kind".to_owned(), vec![]));
    }

    #[test]
    fn heirs_of_a_base_are_tagged_by_the_value_they_pin() {
        let base = "{type: object, required: [kind], properties: {kind: {type: string}}, discriminator: {propertyName: kind, mapping: {m: '#/components/schemas/Mapped'}}}";
        let heir = |pin: &str| {
            format!(
                "{{allOf: [{{$ref: '#/components/schemas/U'}}, {{type: object, properties: {{{pin}w: {{type: integer}}}}}}]}}"
            )
        };
        let extra = format!(
            "    Pinned: {}\n    Plain: {}\n    Twin: {}\n    Mapped: {}\n    Several: {}\n",
            heir("kind: {const: p}, "),
            heir(""),
            heir("kind: {enum: [p]}, "),
            heir("kind: {const: q}, "),
            heir("kind: {enum: [p, r, s]}, ")
        );
        // `Twin` pins `Pinned`'s value: the first keeps it; `Several` keeps the others of its
        // own (the base requires the property).
        assert_eq!(
            tags(base, &extra).0,
            "m=Mapped p=Pinned Plain=Plain r|s=Several@kind"
        );
    }

    /// A property schema (YAML) as `pinned_tags` reads it: `kind:v1,v2`, or `-`.
    fn pinned(schema: &str) -> String {
        let schema: openapiv3::Schema =
            serde_yaml_ng::from_str(schema).unwrap_or_else(|error| panic!("{schema}: {error}"));
        match super::pinned_tags(&schema) {
            Some((kind, values)) => format!("{kind:?}:{}", values.join(",")),
            None => "-".to_owned(),
        }
    }

    #[test]
    fn pinned_values_are_read_as_their_kind() {
        for (schema, expected) in [
            ("{type: string, enum: [a, b]}", "String:a,b"),
            ("{enum: [a]}", "String:a"),
            ("{type: integer, enum: [2]}", "Integer:2"),
            (
                "{type: integer, format: int32, enum: [-1, 7]}",
                "Integer:-1,7",
            ),
            // One JSON number: `4.0` is 4, whatever type the schema names.
            ("{type: integer, enum: [4.0]}", "Integer:4"),
            ("{type: number, enum: [2.0, 3]}", "Integer:2,3"),
            ("{enum: [5, null]}", "Integer:5"),
            ("{type: number, enum: [2.5]}", "-"),
            ("{type: number, enum: [2, 2.5]}", "-"),
            ("{type: boolean, enum: [true]}", "Boolean:true"),
            ("{enum: [false]}", "Boolean:false"),
            // Several kinds, or none, or no values: no tag.
            ("{enum: [1, true]}", "-"),
            ("{enum: [true, 1]}", "-"),
            ("{enum: [[1]]}", "-"),
            ("{type: integer}", "-"),
            ("{type: boolean}", "-"),
            ("{type: number}", "-"),
            ("{enum: [null]}", "-"),
            ("{type: array, items: {type: integer}}", "-"),
            ("{type: object, enum: [1]}", "-"),
            // Past an `i64` no float is an integer tag; -2^63 is.
            (
                "{enum: [9223372036854775807]}",
                "Integer:9223372036854775807",
            ),
            ("{enum: [9223372036854775808]}", "-"),
            ("{enum: [9223372036854775808.0]}", "-"),
            (
                "{enum: [-9223372036854775808.0]}",
                "Integer:-9223372036854775808",
            ),
            ("{enum: [1.0e300]}", "-"),
            ("{enum: [-1.0e300]}", "-"),
        ] {
            assert_eq!(pinned(schema), expected, "{schema}");
        }
    }

    #[test]
    fn a_mapping_key_is_read_as_the_tags_kind() {
        use crate::ir::TagKind;
        for (kind, key, expected) in [
            (TagKind::String, "02", Some("02")),
            (TagKind::Integer, "02", Some("2")),
            (TagKind::Integer, "-3", Some("-3")),
            (TagKind::Integer, "x", None),
            (TagKind::Integer, "2.0", None),
            (TagKind::Boolean, "true", Some("true")),
            (TagKind::Boolean, "false", Some("false")),
            (TagKind::Boolean, "1", None),
        ] {
            assert_eq!(
                super::mapping_tag(kind, key).as_deref(),
                expected,
                "{kind:?} {key}"
            );
        }
    }

    #[test]
    fn a_union_takes_the_one_kind_its_pinning_members_share() {
        use crate::ir::TagKind::{Boolean, Integer, String};
        let pins = |kind| Some((kind, vec!["v".to_owned()]));
        for (admitted, expected) in [
            (vec![], String),
            (vec![None, None], String),
            (vec![pins(Integer)], Integer),
            (vec![None, pins(Integer), pins(Integer)], Integer),
            (vec![pins(Boolean), None], Boolean),
            (vec![pins(Integer), pins(String)], String),
            (vec![pins(String), pins(Integer)], String),
            (vec![pins(Integer), pins(Boolean)], String),
        ] {
            assert_eq!(super::union_kind(&admitted), expected, "{admitted:?}");
        }
    }

    /// Components pinning an integer `kind`, for the cases below.
    const INTEGERS: &str =
        "    I2: {type: object, required: [kind], properties: {kind: {type: integer, enum: [2]}}}
    I3: {type: object, required: [kind, n], properties: {kind: {const: 3}, n: {type: integer}}}
    I2b: {type: object, required: [kind], properties: {kind: {enum: [2.0]}}}
    Many: {type: object, required: [kind], properties: {kind: {type: integer, enum: [5, 6]}}}
    Free: {type: object, required: [kind], properties: {kind: {type: integer}}}
";

    #[test]
    fn integer_pins_tag_a_discriminated_union_by_their_value() {
        let union = format!(
            "{{oneOf: [{}], discriminator: {{propertyName: kind}}}}",
            refs("I2 I3 I2b Many Free")
        );
        // `I2b`'s 2.0 is `I2`'s 2; `Free` pins none, and an integer has no component name.
        assert_eq!(
            tags(&union, INTEGERS),
            (
                "2=I2 3=I3 5|6=Many@kind".to_owned(),
                vec![
                    "#/components/schemas/U/oneOf/2: the member's tag `2` is already another member's, which keeps it: a value tagged so decodes as that one".to_owned(),
                    "#/components/schemas/U/oneOf/4: the member does not limit `kind` to i64 values, which the others' tags are: it has no tag and decodes as the fallback".to_owned(),
                ]
            )
        );
        // A mapping keyed by the integers' text; a key of another kind is left out.
        let union = format!(
            "{{oneOf: [{}], discriminator: {{propertyName: kind, mapping: {{'03': '#/components/schemas/I3', x: '#/components/schemas/I2'}}}}}}",
            refs("I2 I3")
        );
        assert_eq!(
            tags(&union, INTEGERS),
            (
                "3=I3 2=I2".to_owned(),
                vec!["#/components/schemas/U/discriminator/mapping/x: the members pin `kind` to values of kind i64, which the key is not: left out (a value with it decodes as the fallback)".to_owned()]
            )
        );
        // Members pinning strings and integers: the tag stays a string, the integer member
        // tagged by its name as before.
        let union = format!(
            "{{oneOf: [{}], discriminator: {{propertyName: kind}}}}",
            refs("A I2")
        );
        assert_eq!(tags(&union, INTEGERS), ("a=A I2=I2".to_owned(), vec![]));
    }

    #[test]
    fn integer_pins_tell_a_plain_union_apart() {
        let union = format!("{{anyOf: [{}]}}", refs("I2 I3 Many"));
        assert_eq!(
            tags(&union, INTEGERS),
            ("2=I2 3=I3 5=Many 6=Many".to_owned(), vec![])
        );
        // Values of two kinds, or one integer twice, tell nothing apart.
        for members in ["A I2", "I2 A", "I2 I2b"] {
            let union = format!("{{oneOf: [{}]}}", refs(members));
            let (shown, _) = tags(&union, INTEGERS);
            assert!(!shown.contains('='), "{members}: {shown}");
        }
    }
}
