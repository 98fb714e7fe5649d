//! Unions of several JSON kinds in which one kind is held by several members (Stripe's
//! expandable `string | customer | deleted_customer`, OpenAI's `none | {type: allowed_tools} |
//! {type: function}`): the members of that kind become one variant whose type is their own
//! union, told apart by the rules for unions of one kind (the tag their values pin,
//! `ir::infer`; the required properties only one holds, `ir::keyed`) exactly as if the document
//! had written that union itself. Members of one kind no rule tells apart keep the whole union
//! what it was (`serde_json::Value`), with the reason [`Builder::shared_kind`] gives.

use openapiv3::{ReferenceOr, Schema};

use super::convert::plain_union_members;
use super::infer::InferredTags;
use super::keyed::{KeyedMembers, NotKeyed};
use super::{Builder, JsonKind, TypeRef};
use crate::Error;
use crate::error::Pointer;

/// A union member with its index in the document's list.
pub(super) type IndexedMember<'a> = (usize, &'a ReferenceOr<Schema>);

/// Some or all of a union's members, each with its index under the keyword (so each keeps
/// the JSON pointer the document gives it).
pub(super) struct UnionMembers<'a> {
    /// The keyword the members stand under (`oneOf` or `anyOf`).
    pub(super) keyword: &'static str,
    /// The members, by index in the document's list.
    pub(super) members: Vec<IndexedMember<'a>>,
}

impl<'a> UnionMembers<'a> {
    /// Every member of a plain union (no `discriminator`, not an enum of constants).
    pub(super) fn plain(schema: &'a Schema) -> Option<Self> {
        let (keyword, members) = plain_union_members(schema)?;
        Some(Self {
            keyword,
            members: members.iter().enumerate().collect(),
        })
    }
}

/// How the members of one JSON kind in a union of several kinds are told apart.
pub(super) enum SharedKind<'a> {
    /// By the tag their values pin.
    Tagged(InferredTags<'a>),
    /// By the required properties only one of them holds.
    Keyed(KeyedMembers<'a>),
}

impl<'a> Builder<'a> {
    /// How the several members of `kind` in a union of several kinds are told apart, by the
    /// rules (in the order) a union of them alone would be; or why they cannot be: the one
    /// place that decides the union stays what it was.
    pub(super) fn shared_kind(
        &mut self,
        kind: JsonKind,
        shared: &UnionMembers<'a>,
        pointer: &Pointer,
    ) -> Result<SharedKind<'a>, String> {
        if kind == JsonKind::Object {
            if let Some(tags) = self.tags_implied(shared, pointer) {
                return Ok(SharedKind::Tagged(tags));
            }
            match self.members_by_keys(shared, pointer) {
                Ok(keyed) => return Ok(SharedKind::Keyed(keyed)),
                Err(NotKeyed::Ambiguous(why)) => return Err(why),
                Err(NotKeyed::NotObjects) => {}
            }
        }
        let mut indices = shared.members.iter().map(|&(index, _)| index);
        let (first, second) = (indices.next(), indices.next());
        Err(format!(
            "members {} and {} are both JSON {}s, which only their contents tell apart",
            first.unwrap_or_default(),
            second.unwrap_or_default(),
            kind.name().to_ascii_lowercase()
        ))
    }

    /// The variant type of the members of one kind: their union, named `<union><Kind>` (kept
    /// by the lock under the keyword's pointer and the kind), optional when a member may be
    /// null.
    pub(super) fn define_shared_kind(
        &mut self,
        union: &str,
        kind: JsonKind,
        (shared, how): (UnionMembers<'a>, SharedKind<'a>),
        pointer: &Pointer,
    ) -> Result<TypeRef, Error> {
        let identity = pointer
            .join(shared.keyword)
            .join(kind.name().to_ascii_lowercase());
        let name = self.inline_name(&format!("{union}{}", kind.name()), &identity);
        let doc = Some(format!(
            "The members of `{union}` that are JSON {}s.",
            kind.name().to_ascii_lowercase()
        ));
        match how {
            SharedKind::Tagged(tags) => self.define_inferred_union(&name, tags, doc, pointer)?,
            SharedKind::Keyed(keyed) => self.define_keyed_union(&name, keyed, doc, pointer)?,
        }
        // A member's `null` is the whole union's (`ir::nullable`), never its kind's variant.
        Ok(TypeRef::Named(name))
    }
}

#[cfg(test)]
mod tests {
    use crate::Input;
    use crate::ir::{Api, TypeDef, TypeRef};

    /// The IR and notes of a 3.0 document whose one component `U` is `union` (YAML flow
    /// syntax), beside `A` (requires `name`), `B` (requires `id`), `T1` and `T2` (objects whose
    /// `type` is `one` and `two`).
    fn built(union: &str) -> (Api, Vec<String>) {
        let spec = format!(
            "openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    \
             A: {{type: object, required: [name], properties: {{name: {{type: string}}}}}}\n    \
             B: {{type: object, required: [id], properties: {{id: {{type: integer}}}}}}\n    \
             T1: {{type: object, required: [type], properties: {{type: {{type: string, enum: [one]}}}}}}\n    \
             T2: {{type: object, required: [type], properties: {{type: {{type: string, enum: [two]}}}}}}\n    \
             U: {union}\n"
        );
        let input = Input {
            spec_path: "t.yaml",
            spec_text: &spec,
            config_text: None,
        };
        let (api, notes) = crate::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
        (api, notes.iter().map(ToString::to_string).collect())
    }

    /// A type as its variants read: `Kind=Type` for an untagged union told apart by kind,
    /// `Name(keys)` for one told apart by keys, `tag:Type` for a tagged one; a named member
    /// union is spelled out in brackets after its name.
    fn shape(api: &Api, ty: &TypeRef) -> String {
        match ty {
            TypeRef::Option(inner) => format!("Option<{}>", shape(api, inner)),
            TypeRef::Vec(inner) => format!("Vec<{}>", shape(api, inner)),
            TypeRef::Named(name) => match api.types.get(name) {
                Some(TypeDef::Untagged(def)) => {
                    let variants: Vec<String> = def
                        .variants
                        .iter()
                        .map(|v| match &v.keys {
                            Some(keys) => format!("{}({})", v.rust_name, keys.join(",")),
                            None => format!("{}={}", v.kind.name(), shape(api, &v.ty)),
                        })
                        .collect();
                    format!("{name}[{}]", variants.join(" "))
                }
                Some(TypeDef::Union(def)) => {
                    let variants: Vec<String> = def
                        .variants
                        .iter()
                        .map(|v| format!("{}:{}", v.tag, shape(api, &v.ty)))
                        .collect();
                    format!("{name}<{}>[{}]", def.tag_property, variants.join(" "))
                }
                Some(TypeDef::Alias(alias)) if alias.ty == TypeRef::Json => "Value".to_owned(),
                _ => name.clone(),
            },
            other => format!("{other:?}"),
        }
    }

    /// What `U` is, with the note on it when it is any JSON value.
    fn union(union: &str) -> String {
        let (api, notes) = built(union);
        let shaped = shape(&api, &TypeRef::Named("U".to_owned()));
        if shaped == "Value" {
            let lowered = "#/components/schemas/U: a union of several schemas is lowered to serde_json::Value: ";
            let reasons: Vec<&str> = notes
                .iter()
                .filter_map(|n| n.strip_prefix(lowered))
                .collect();
            return format!("Value: {}", reasons.join("; "));
        }
        shaped
    }

    const A: &str = "{$ref: '#/components/schemas/A'}";
    const B: &str = "{$ref: '#/components/schemas/B'}";
    const T1: &str = "{$ref: '#/components/schemas/T1'}";
    const T2: &str = "{$ref: '#/components/schemas/T2'}";

    #[test]
    fn the_members_of_one_kind_are_one_variant_told_apart_as_their_own_union() {
        // Required keys; a pinned tag; inline members tagged by a `const`-like enum.
        assert_eq!(
            union(&format!("{{anyOf: [{{type: string}}, {A}, {B}]}}")),
            "U[String=String Object=UObject[A(name) B(id)]]"
        );
        assert_eq!(
            union(&format!(
                "{{oneOf: [{{type: string, enum: [none]}}, {T1}, {T2}]}}"
            )),
            "U[String=UString Object=UObject<type>[one:T1 two:T2]]"
        );
        assert_eq!(
            union(
                "{oneOf: [{type: array, items: {type: integer}}, {type: object, properties: {k: {type: string, enum: [x]}}}, {type: object, properties: {k: {type: string, enum: [y]}}}]}"
            ),
            "U[Array=Vec<Integer> Object=UObject<k>[x:UObjectX y:UObjectY]]"
        );
        // Tags win over keys, as in a union of objects alone; three members of a kind.
        assert_eq!(
            union(&format!(
                "{{oneOf: [{{type: boolean}}, {T1}, {T2}, {{type: object, required: [type, z], properties: {{type: {{type: string, enum: [three]}}, z: {{type: string}}}}}}]}}"
            )),
            "U[Boolean=Boolean Object=UObject<type>[one:T1 two:T2 three:UObjectThree]]"
        );
    }

    #[test]
    fn variants_keep_the_order_serde_tries_them_in() {
        assert_eq!(
            union(&format!(
                "{{anyOf: [{A}, {{type: number}}, {B}, {{type: array, items: {{type: string}}}}, {{type: integer}}, {{type: boolean}}]}}"
            )),
            "U[Boolean=Boolean Integer=Integer Number=Number Array=Vec<String> Object=UObject[A(name) B(id)]]"
        );
    }

    #[test]
    fn strings_beside_a_shared_kind_stay_told_apart_by_their_formats() {
        let u = format!(
            "{{oneOf: [{{type: string, format: date}}, {A}, {{type: string, format: date-time}}, {B}]}}"
        );
        assert_eq!(
            union(&u),
            "U[String=Timestamp String=Date Object=UObject[A(name) B(id)]]"
        );
        let (api, _) = built(&u);
        let Some(TypeDef::Untagged(def)) = api.types.get("U") else {
            panic!("{:?}", api.types.get("U"));
        };
        let names: Vec<&str> = def.variants.iter().map(|v| v.rust_name.as_str()).collect();
        assert_eq!(names, ["Timestamp", "Date", "Object"]);
        // One string is named after its kind, whatever its format.
        let (api, _) = built(&format!(
            "{{oneOf: [{{type: string, format: date}}, {A}, {B}]}}"
        ));
        let Some(TypeDef::Untagged(def)) = api.types.get("U") else {
            panic!("{:?}", api.types.get("U"));
        };
        let names: Vec<&str> = def.variants.iter().map(|v| v.rust_name.as_str()).collect();
        assert_eq!(names, ["String", "Object"]);
    }

    #[test]
    fn a_member_that_may_be_null_leaves_its_kind_plain_the_union_holds_the_null() {
        let nullable_b = "{nullable: true, allOf: [{$ref: '#/components/schemas/B'}]}";
        assert_eq!(
            union(&format!("{{anyOf: [{{type: string}}, {A}, {nullable_b}]}}")),
            "U[String=String Object=UObject[A(name) Id(id)]]"
        );
        let nullable_t2 = "{type: object, nullable: true, required: [type], properties: {type: {type: string, enum: [two]}}}";
        assert_eq!(
            union(&format!(
                "{{anyOf: [{{type: integer}}, {T1}, {nullable_t2}]}}"
            )),
            "U[Integer=Integer Object=UObject<type>[one:T1 two:UObjectTwo]]"
        );
        // The whole union null: the variants stay as they are, the union is optional where used.
        assert_eq!(
            union(&format!(
                "{{nullable: true, anyOf: [{{type: string}}, {A}, {B}]}}"
            )),
            "U[String=String Object=UObject[A(name) B(id)]]"
        );
    }

    #[test]
    fn members_no_rule_tells_apart_leave_the_whole_union_to_best_fit() {
        // Each member a variant of its own, decoded by best fit (`ir::best_fit`).
        let best_fit = |text: &str| {
            let (api, _) = built(text);
            match api.types.get("U") {
                Some(TypeDef::Untagged(def)) if def.best_fit => union(text),
                other => format!("not best fit: {other:?}"),
            }
        };
        assert_eq!(
            best_fit(
                "{oneOf: [{type: string}, {type: object, properties: {a: {type: string}}}, {type: object, properties: {b: {type: string}}}]}"
            ),
            "U[String=String Object=UObject Object=UObject2]"
        );
        assert_eq!(
            best_fit(&format!(
                "{{oneOf: [{{type: string}}, {A}, {{type: integer}}, {{type: object, required: [c], properties: {{c: {{type: string}}}}, additionalProperties: true}}]}}"
            )),
            "U[String=String Object=A Integer=Integer Object=UObject]"
        );
        assert_eq!(
            best_fit(
                "{oneOf: [{type: string}, {type: array, items: {type: string}}, {type: array, items: {type: integer}}]}"
            ),
            "U[String=String Array=Vec<String> Array=Vec<Integer>]"
        );
        // A free-form object is no object `keyed` or `infer` reads; best fit tries it last.
        assert_eq!(
            best_fit(&format!(
                "{{oneOf: [{{type: string}}, {A}, {{type: object}}]}}"
            )),
            "U[String=String Object=A Object=Map(Json)]"
        );
        // Two integers: every integer decodes as the first, so the union stays a value.
        assert_eq!(
            union("{oneOf: [{type: string}, {type: integer}, {type: integer, format: int32}]}"),
            "Value: members 1 and 2 are both JSON integers, which only their contents tell apart"
        );
    }

    #[test]
    fn a_union_of_one_kind_is_still_decided_by_the_rules_for_one_kind() {
        assert_eq!(union(&format!("{{oneOf: [{A}, {B}]}}")), "U[A(name) B(id)]");
        assert_eq!(
            union(&format!("{{oneOf: [{T1}, {T2}]}}")),
            "U<type>[one:T1 two:T2]"
        );
    }

    #[test]
    fn the_member_union_is_locked_under_the_keyword_and_its_kind() {
        let (api, _) = built(&format!("{{anyOf: [{{type: string}}, {A}, {B}]}}"));
        assert_eq!(
            api.names
                .types
                .get("#/components/schemas/U/anyOf/object")
                .map(String::as_str),
            Some("UObject")
        );
        let Some(TypeDef::Untagged(def)) = api.types.get("UObject") else {
            panic!("{:?}", api.types.get("UObject"));
        };
        assert_eq!(
            def.doc.as_deref(),
            Some("The members of `U` that are JSON objects.")
        );
    }
}
