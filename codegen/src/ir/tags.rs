//! The tags of a discriminated union (`oneOf`/`anyOf` with a `discriminator`, or a base object's
//! heirs): the `mapping` first, as it is what the server sends; then each member's own value of
//! the tag property where the member pins it (`const`, or an `enum` of one value), as the
//! member's schema admits no other; the member's component name (the specification's implicit
//! mapping) only where it pins none. A tag two members claim keeps its first meaning.

use openapiv3::{Discriminator, ReferenceOr, Schema};

use super::{Builder, SCHEMAS, local_key};
use crate::Error;
use crate::error::Pointer;

/// Where a tag's payload type comes from.
pub(super) enum TagSource<'a> {
    /// A component, by `$ref`.
    Ref(&'a str),
    /// An inline member (its index, and itself), which only a pinned value can tag.
    Inline(usize, &'a ReferenceOr<Schema>),
}

impl<'a> Builder<'a> {
    /// The one string a union member pins `property` to (`const`, or an `enum` of one value),
    /// through `$ref`s and `allOf`s; `None` when it admits more than one value, or any string.
    pub(super) fn pinned_tag(
        &mut self,
        member: &'a ReferenceOr<Schema>,
        property: &str,
        pointer: &Pointer,
    ) -> Option<&'a str> {
        let object = self.member_object(member, pointer)?;
        let mut values = self.property_values(&object, property, pointer)?;
        values.dedup();
        match values.as_slice() {
            [single] => Some(*single),
            _ => None,
        }
    }

    /// The tags of a union with a discriminator over `members` (under `keyword`), in order:
    /// the mapping's, then each unmapped member's pinned value or component name. Notes what
    /// a reader would otherwise miss: a member pinning a value its mapping does not give it, a
    /// tag two members claim, an inline member without a pinned value.
    pub(super) fn union_tags(
        &mut self,
        keyword: &str,
        members: &'a [ReferenceOr<Schema>],
        discriminator: &'a Discriminator,
        pointer: &Pointer,
    ) -> Result<Vec<(String, TagSource<'a>)>, Error> {
        let property = discriminator.property_name.as_str();
        let mut tagged: Vec<(String, TagSource<'a>)> = discriminator
            .mapping
            .iter()
            .map(|(tag, reference)| (tag.clone(), TagSource::Ref(reference.as_str())))
            .collect();
        for (index, member) in members.iter().enumerate() {
            let at = pointer.join(keyword).join(index);
            let pinned = self.pinned_tag(member, property, &at);
            let (tag, source) = match member {
                ReferenceOr::Reference { reference } => {
                    let mapped: Vec<&str> = discriminator
                        .mapping
                        .iter()
                        .filter(|(_, target)| *target == reference)
                        .map(|(tag, _)| tag.as_str())
                        .collect();
                    if !mapped.is_empty() {
                        if let Some(pin) = pinned.filter(|pin| !mapped.contains(pin)) {
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
                    let tag = match pinned {
                        Some(pin) => pin.to_owned(),
                        None => local_key(reference, SCHEMAS, &at)?,
                    };
                    (tag, TagSource::Ref(reference.as_str()))
                }
                ReferenceOr::Item(_) => {
                    let Some(pin) = pinned else {
                        self.note(
                            &at,
                            format!("an inline member of a discriminated union that does not pin `{property}` (`const`, or an `enum` of one value) has no tag and decodes as the fallback"),
                        );
                        continue;
                    };
                    (pin.to_owned(), TagSource::Inline(index, member))
                }
            };
            if tagged.iter().any(|(taken, _)| *taken == tag) {
                self.note(
                    &at,
                    format!("the member's tag `{tag}` is already another member's, which keeps it: a value tagged so decodes as that one"),
                );
                continue;
            }
            tagged.push((tag, source));
        }
        Ok(tagged)
    }

    /// The tag of a base object's heir `key` that no mapping names: the value it pins the
    /// discriminator's property to, else its component name.
    pub(super) fn heir_tag(&mut self, key: &'a str, property: &str, pointer: &Pointer) -> String {
        let heir = self
            .spec
            .components
            .as_ref()
            .and_then(|components| components.schemas.get(key));
        heir.and_then(|heir| self.pinned_tag(heir, property, pointer))
            .unwrap_or(key)
            .to_owned()
    }
}

#[cfg(test)]
mod tests {
    use crate::Input;
    use crate::ir::{TypeDef, TypeRef};

    /// Components shared by the cases: `A` pins `kind` to `a` (`const`), `B` to `b` (an `enum`
    /// of one value), `C` holds any string, `Two` two values, `E` the same value twice, `F` pins
    /// it through a `$ref` to an enum of one value.
    const MEMBERS: &str = "\
    A: {type: object, required: [kind], properties: {kind: {const: a}, x: {type: string}}}
    B: {type: object, required: [kind], properties: {kind: {type: string, enum: [b]}}}
    C: {type: object, required: [kind], properties: {kind: {type: string}}}
    Two: {type: object, required: [kind], properties: {kind: {type: string, enum: [d, e]}}}
    E: {type: object, required: [kind], properties: {kind: {type: string, enum: [e, e]}}}
    F: {type: object, required: [kind], properties: {kind: {$ref: '#/components/schemas/FKind'}}}
    FKind: {type: string, enum: [f]}
";

    /// `U`'s tags as `tag=Type`, and the notes about it, for a document whose component `U`
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
                .map(|variant| match &variant.ty {
                    TypeRef::Named(name) => format!("{}={name}", variant.tag),
                    other => format!("{}={other:?}", variant.tag),
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
        // `Two` admits two values, so it pins none; `E`'s repeated value is one.
        assert_eq!(
            tags(&union, ""),
            ("a=A b=B C=C Two=Two e=E f=F".to_owned(), vec![])
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
                    "#/components/schemas/U/oneOf/2: an inline member of a discriminated union that does not pin `kind` (`const`, or an `enum` of one value) has no tag and decodes as the fallback".to_owned()
                ]
            )
        );
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
            "    Pinned: {}\n    Plain: {}\n    Twin: {}\n    Mapped: {}\n",
            heir("kind: {const: p}, "),
            heir(""),
            heir("kind: {enum: [p]}, "),
            heir("kind: {const: q}, ")
        );
        // `Twin` pins `Pinned`'s value: the first keeps it.
        assert_eq!(tags(base, &extra).0, "m=Mapped p=Pinned Plain=Plain");
    }
}
