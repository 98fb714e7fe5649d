//! The tags of a discriminated union (`oneOf`/`anyOf` with a `discriminator`, or a base object's
//! heirs): the `mapping` first, as it is what the server sends; then each member's own values of
//! the tag property where the member limits it (`const`, or an `enum`), as the member's schema
//! admits no other: one value is the variant's tag, several (a required property) are all its
//! tags, the first unclaimed being the primary one; the member's component name (the
//! specification's implicit mapping) only where it limits none. A tag two members claim keeps
//! its first meaning.

use std::collections::BTreeMap;

use openapiv3::{Discriminator, ReferenceOr, Schema};

use super::{Builder, SCHEMAS, StructDef, TypeDef, TypeRef, local_key};
use crate::Error;
use crate::error::Pointer;

/// Where a tag's payload type comes from.
pub(super) enum TagSource<'a> {
    /// A component, by `$ref`.
    Ref(&'a str),
    /// An inline member (its index, and itself), which only a pinned value can tag.
    Inline(usize, &'a ReferenceOr<Schema>),
}

/// A variant's primary tag followed by its further ones.
pub(super) fn tags_of<'t>(tag: &'t str, also: &'t [String]) -> impl Iterator<Item = &'t str> {
    std::iter::once(tag).chain(also.iter().map(String::as_str))
}

/// Splits a member's `admitted` values into those not yet `claimed` (the primary first, then
/// the others) and those another member holds already; `None` for the first when none is left.
fn unclaimed<'v>(
    admitted: &[&'v str],
    claimed: &[&str],
) -> (Option<(String, Vec<String>)>, Vec<&'v str>) {
    let (free, taken): (Vec<&str>, Vec<&str>) =
        admitted.iter().partition(|value| !claimed.contains(value));
    let tags = free.split_first().map(|(primary, also)| {
        (
            (*primary).to_owned(),
            also.iter().map(|value| (*value).to_owned()).collect(),
        )
    });
    (tags, taken)
}

impl<'a> Builder<'a> {
    /// The strings a union member limits `property` to (`const`, or an `enum`), through `$ref`s
    /// and `allOf`s, each once in document order: one value, or several where the member
    /// requires the property (so its struct holds the tag to read back); `None` when it admits
    /// any string, or several values of a property it may leave out.
    pub(super) fn admitted_tags(
        &mut self,
        member: &'a ReferenceOr<Schema>,
        property: &str,
        pointer: &Pointer,
    ) -> Option<Vec<&'a str>> {
        let object = self.member_object(member, pointer)?;
        let values = self.property_values(&object, property, pointer)?;
        let mut distinct: Vec<&str> = Vec::with_capacity(values.len());
        for value in values {
            if !distinct.contains(&value) {
                distinct.push(value);
            }
        }
        (distinct.len() == 1 || object.required.contains(property)).then_some(distinct)
    }

    /// The tags of a union with a discriminator over `members` (under `keyword`), in order:
    /// the mapping's, then each unmapped member's values or component name, each tag with the
    /// variant's further tags. Notes what a reader would otherwise miss: a member pinning a
    /// value its mapping does not give it, a tag two members claim, an inline member without a
    /// limited value.
    pub(super) fn union_tags(
        &mut self,
        keyword: &str,
        members: &'a [ReferenceOr<Schema>],
        discriminator: &'a Discriminator,
        pointer: &Pointer,
    ) -> Result<Vec<(String, Vec<String>, TagSource<'a>)>, Error> {
        let property = discriminator.property_name.as_str();
        let mut tagged: Vec<(String, Vec<String>, TagSource<'a>)> = discriminator
            .mapping
            .iter()
            .map(|(tag, reference)| (tag.clone(), Vec::new(), TagSource::Ref(reference.as_str())))
            .collect();
        for (index, member) in members.iter().enumerate() {
            let at = pointer.join(keyword).join(index);
            let admitted = self.admitted_tags(member, property, &at);
            let source = match member {
                ReferenceOr::Reference { reference } => {
                    let mapped: Vec<&str> = discriminator
                        .mapping
                        .iter()
                        .filter(|(_, target)| *target == reference)
                        .map(|(tag, _)| tag.as_str())
                        .collect();
                    if !mapped.is_empty() {
                        if let Some([pin]) = admitted.as_deref()
                            && !mapped.contains(pin)
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
            let component_name;
            let admitted = match (admitted, &source) {
                (Some(admitted), _) => admitted,
                (None, TagSource::Ref(reference)) => {
                    component_name = local_key(reference, SCHEMAS, &at)?;
                    vec![component_name.as_str()]
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
        Ok(tagged)
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
        let admitted = heir
            .and_then(|heir| self.admitted_tags(heir, property, pointer))
            .unwrap_or_else(|| vec![key]);
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
/// an open enum. Where the
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
                        field.required && !field.nullable && reads_as_str(types, &field.ty)
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

/// Whether a value of `ty` gives its wire string by `as_str()`: a `String`, or an open enum
/// (through aliases, bounded as aliases may form a cycle).
fn reads_as_str(types: &BTreeMap<String, TypeDef>, ty: &TypeRef) -> bool {
    let mut ty = ty;
    for _ in 0..=types.len() {
        match ty {
            TypeRef::String => return true,
            TypeRef::Named(name) => match types.get(name) {
                Some(TypeDef::Enum(_)) => return true,
                Some(TypeDef::Alias(alias)) => ty = &alias.ty,
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
}
