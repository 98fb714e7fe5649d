//! Unions of objects their members' required properties tell apart (no `discriminator`, no
//! property with values of its own): a member is picked by which of its required properties,
//! held by no other member, a value has. Each member's value holds only the properties it
//! declares (none admits others through `additionalProperties`), so exactly one member can hold
//! any of them; at most one member may have none of its own, and is what a value holding no
//! other member's is. Anything less decidable stays `serde_json::Value` with a note saying why.

use std::collections::{BTreeSet, HashMap};

use openapiv3::{AdditionalProperties, ReferenceOr, Schema};

use super::kinds::UnionMembers;
use super::{Builder, Held, JsonKind, SchemaAt, TypeDef, UntaggedDef, UntaggedVariant};
use crate::Error;
use crate::error::Pointer;
use crate::lock::Names;
use crate::names;

/// A union whose object members are told apart by the properties a value holds.
pub(super) struct KeyedMembers<'a> {
    /// The keyword the members stand under (`oneOf` or `anyOf`).
    keyword: &'static str,
    /// Each member, by index, with the properties (required by it, held by no other member)
    /// whose presence picks it; empty for the one member that has none.
    members: Vec<(usize, &'a ReferenceOr<Schema>, Vec<&'a str>)>,
}

/// Why a union is not told apart by its members' properties.
pub(super) enum NotKeyed {
    /// Not a union of two or more objects: another plan may fit it.
    NotObjects,
    /// A union of objects that no set of properties tells apart, and why (the note's reason).
    Ambiguous(String),
}

impl<'a> Builder<'a> {
    /// The members of a plain union of objects with the properties that pick each, if every
    /// value of it names its member that way.
    pub(super) fn keyed_members(
        &mut self,
        schema: &'a Schema,
        pointer: &Pointer,
    ) -> Result<KeyedMembers<'a>, NotKeyed> {
        let union = UnionMembers::plain(schema).ok_or(NotKeyed::NotObjects)?;
        self.members_by_keys(&union, pointer)
    }

    /// The properties that pick each of `members` (all of a union's, or those of one JSON
    /// kind), as [`Self::keyed_members`] decides them for a whole union.
    pub(super) fn members_by_keys(
        &mut self,
        union: &UnionMembers<'a>,
        pointer: &Pointer,
    ) -> Result<KeyedMembers<'a>, NotKeyed> {
        let members = &union.members;
        if members.len() < 2 {
            return Err(NotKeyed::NotObjects);
        }
        let mut objects = Vec::with_capacity(members.len());
        // A member that admits `null` is an object all the same: the `null` is the union's.
        for &(_, member) in members {
            let object = self
                .member_object(member, pointer)
                .ok_or(NotKeyed::NotObjects)?;
            objects.push(object);
        }
        // How many members hold each property name (declared or required).
        let mut holders: HashMap<&str, usize> = HashMap::new();
        let mut names_per_member = Vec::with_capacity(objects.len());
        for (&(index, _), object) in members.iter().zip(&objects) {
            if let Some(additional) = object.additional
                && !matches!(additional, AdditionalProperties::Any(false))
            {
                return Err(NotKeyed::Ambiguous(format!(
                    "member {index} admits properties it does not declare (`additionalProperties`), so no property names one member"
                )));
            }
            let names: BTreeSet<&str> = object
                .properties
                .iter()
                .map(|(name, _)| name.as_str())
                .chain(object.required.iter().copied())
                .collect();
            for name in &names {
                *holders.entry(name).or_default() += 1;
            }
            names_per_member.push(names);
        }
        let mut keyless: Option<usize> = None;
        let mut keyed = Vec::with_capacity(members.len());
        for (&(index, member), object) in members.iter().zip(&objects) {
            // Required properties in declaration order, then any only `required` lists.
            let mut keys: Vec<&'a str> = object
                .properties
                .iter()
                .map(|(name, _)| name.as_str())
                .filter(|name| object.required.contains(name))
                .collect();
            for name in &object.required {
                if !keys.contains(name) {
                    keys.push(name);
                }
            }
            keys.retain(|name| holders.get(name) == Some(&1));
            if keys.is_empty() {
                if let Some(first) = keyless {
                    return Err(NotKeyed::Ambiguous(format!(
                        "members {first} and {index} require no property that no other member holds, so a value holding neither's could be either"
                    )));
                }
                keyless = Some(index);
            }
            keyed.push((index, member, keys));
        }
        Ok(KeyedMembers {
            keyword: union.keyword,
            members: keyed,
        })
    }

    /// A union picked by the properties a value holds: a variant per member, named after its
    /// type (a `$ref`) or its first property of its own.
    pub(super) fn define_keyed_union(
        &mut self,
        name: &str,
        keyed: KeyedMembers<'a>,
        doc: Option<String>,
        pointer: &Pointer,
    ) -> Result<(), Error> {
        // Reserve the name first: a member may refer back to the union.
        self.reserve(name);
        let mut variant_names = Names::union_variants();
        let mut variants = Vec::with_capacity(keyed.members.len());
        for (index, member, keys) in keyed.members {
            let member_pointer = pointer.join(keyed.keyword).join(index);
            let own = keys.first().copied().unwrap_or(JsonKind::Object.name());
            let hint = format!("{name}{}", names::camel_ident(own, "V"));
            let (ty, _) = self.type_of(SchemaAt::of(member), &hint, &member_pointer)?;
            let wanted = match (member, &ty) {
                (ReferenceOr::Reference { .. }, super::TypeRef::Named(type_name)) => {
                    type_name.clone()
                }
                _ => own.to_owned(),
            };
            variants.push(UntaggedVariant {
                rust_name: variant_names.claim(&names::camel_ident(&wanted, "V"), ""),
                kind: JsonKind::Object,
                ty,
                held: Held::Inline,
                keys: Some(keys.into_iter().map(str::to_owned).collect()),
            });
        }
        self.types.insert(
            name.to_owned(),
            TypeDef::Untagged(UntaggedDef {
                name: name.to_owned(),
                doc,
                variants,
                best_fit: false,
            }),
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::Input;
    use crate::ir::{Api, TypeDef, TypeRef};

    /// The IR and notes of a document whose one component `U` is `union` (YAML flow syntax),
    /// beside components `A` (requires `name`, holds `shared`) and `B` (requires `id` and
    /// `shared`).
    fn built(union: &str) -> (Api, Vec<String>) {
        let spec = format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    \
             A: {{type: object, required: [name], properties: {{name: {{type: string}}, shared: {{type: string}}}}}}\n    \
             B: {{type: object, required: [id, shared], properties: {{id: {{type: integer}}, shared: {{type: string}}}}}}\n    \
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

    /// `U`'s variants as `name(keys)`, or what `U` is when it is not a keyed union.
    fn keyed(union: &str) -> String {
        let (api, notes) = built(union);
        match api.types.get("U") {
            Some(TypeDef::Untagged(def)) => def
                .variants
                .iter()
                .map(|v| match &v.keys {
                    Some(keys) => format!("{}({})", v.rust_name, keys.join(",")),
                    None => format!("{}:{}", v.rust_name, v.kind.name()),
                })
                .collect::<Vec<_>>()
                .join(" "),
            Some(TypeDef::Alias(alias)) if alias.ty == TypeRef::Json => {
                format!("Value: {}", notes.join("; "))
            }
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn members_are_picked_by_the_required_properties_only_they_hold() {
        let refs = "{oneOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/B'}]}";
        // A `$ref` member's variant is named after its type, an inline one after its key.
        assert_eq!(keyed(refs), "A(name) B(id)");
        assert_eq!(
            keyed(
                "{oneOf: [{$ref: '#/components/schemas/A'}, {$ref: '#/components/schemas/B'}, {type: object, required: [url], properties: {url: {type: string}}}]}"
            ),
            "A(name) B(id) Url(url)"
        );
        // A property only `required` names counts; one two members hold does not.
        assert_eq!(
            keyed(
                "{anyOf: [{type: object, required: [x, y, z], properties: {y: {type: string}, x: {type: string}}}, {type: object, required: [w], properties: {w: {type: string}, z: {type: string}}}]}"
            ),
            "Y(y,x) W(w)"
        );
        // One member holding nothing of its own is what a value without the others' is.
        assert_eq!(
            keyed(
                "{anyOf: [{type: object, required: [from], properties: {from: {type: string}}}, {type: object, required: [from, until], properties: {from: {type: string}, until: {type: string}}, additionalProperties: false}]}"
            ),
            "Object() Until(until)"
        );
        // An inherited member (an allOf) and an inline one.
        assert_eq!(
            keyed(
                "{oneOf: [{allOf: [{$ref: '#/components/schemas/A'}, {type: object, required: [c], properties: {c: {type: string}}}]}, {$ref: '#/components/schemas/B'}]}"
            ),
            "Name(name,c) B(id)"
        );
    }

    #[test]
    fn unions_no_property_tells_apart_are_left_to_best_fit() {
        // What `keyed` shows for a best-fit union: its variants by kind, flagged.
        let best_fit = |union: &str| {
            let (api, _) = built(union);
            match api.types.get("U") {
                Some(TypeDef::Untagged(def)) if def.best_fit => keyed(union),
                other => format!("not best fit: {other:?}"),
            }
        };
        assert_eq!(
            best_fit(
                "{oneOf: [{type: object, properties: {a: {type: string}}}, {type: object, properties: {b: {type: string}}}]}"
            ),
            "Object:Object Object2:Object"
        );
        for open in ["true", "{type: string}"] {
            assert_eq!(
                best_fit(&format!(
                    "{{oneOf: [{{$ref: '#/components/schemas/A'}}, {{type: object, required: [c], properties: {{c: {{type: string}}}}, additionalProperties: {open}}}]}}"
                )),
                "A:Object Object:Object"
            );
        }
        // A member that may be null is told apart all the same (the null is the union's, see
        // `ir::nullable`); a free-form object is left to best fit.
        assert_eq!(
            keyed(
                "{oneOf: [{$ref: '#/components/schemas/A'}, {type: [object, 'null'], required: [c], properties: {c: {type: string}}}]}"
            ),
            "A(name) C(c)"
        );
        assert_eq!(
            best_fit("{oneOf: [{$ref: '#/components/schemas/A'}, {type: object}]}"),
            "A:Object Object:Object"
        );
        // Kinds tell these apart: not best fit.
        assert_eq!(
            keyed("{oneOf: [{$ref: '#/components/schemas/A'}, {type: string}]}"),
            "String:String A:Object"
        );
    }
}
