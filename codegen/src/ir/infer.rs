//! Unions their members' own values tell apart (no `discriminator`): when every member is an
//! object holding one property whose `enum`/`const` values differ from every other member's,
//! that property is the tag, and the union is a tagged enum decoded by it (one variant per
//! value), not trial and error and not `serde_json::Value`. The values are strings, or integers
//! (Discord's `type: {type: integer, enum: [2]}`), or booleans: one kind in every member.

use std::collections::BTreeSet;

use openapiv3::{Discriminator, ReferenceOr, Schema, SchemaKind};

use super::convert::object_parts;
use super::kinds::UnionMembers;
use super::tags::pinned_tags;
use super::{Builder, ObjectParts, SchemaAt, TagKind};
use crate::Error;
use crate::error::Pointer;

/// The tag a union's members imply: the property, and each member's values of it.
pub(super) struct InferredTags<'a> {
    /// The keyword the members stand under (`oneOf` or `anyOf`).
    keyword: &'static str,
    /// The property every member holds with values of its own.
    property: String,
    /// The kind of every member's values.
    kind: TagKind,
    /// Each member, by index, with its values of the property.
    members: Vec<(usize, &'a ReferenceOr<Schema>, Vec<String>)>,
}

impl<'a> Builder<'a> {
    /// The tag the members of a plain union imply, if one does: the first property (in the
    /// first member's order) that every member holds as an `enum`/`const` of one kind, with no
    /// value in two members; one every member requires is preferred, as a value without it can only
    /// be the fallback.
    pub(super) fn inferred_tags(
        &mut self,
        schema: &'a Schema,
        pointer: &Pointer,
    ) -> Option<InferredTags<'a>> {
        self.tags_implied(&UnionMembers::plain(schema)?, pointer)
    }

    /// The tag `members` imply (all of a union's, or those of one JSON kind), as
    /// [`Self::inferred_tags`] decides it for a whole union.
    pub(super) fn tags_implied(
        &mut self,
        union: &UnionMembers<'a>,
        pointer: &Pointer,
    ) -> Option<InferredTags<'a>> {
        let members = &union.members;
        if members.len() < 2 {
            return None;
        }
        let mut objects: Vec<ObjectParts<'a>> = Vec::with_capacity(members.len());
        for &(_, member) in members {
            objects.push(self.member_object(member, pointer)?);
        }
        let candidates: Vec<&'a String> = objects[0]
            .properties
            .iter()
            .map(|(name, _)| *name)
            .collect();
        let mut fallback = None;
        for name in candidates {
            let mut seen: BTreeSet<String> = BTreeSet::new();
            let mut values_per_member = Vec::with_capacity(members.len());
            let mut required_everywhere = true;
            let mut kind = None;
            for object in &objects {
                let Some((own, values)) = self.property_values(object, name, pointer) else {
                    values_per_member.clear();
                    break;
                };
                let other_kind = kind.replace(own).is_some_and(|first| first != own);
                if other_kind || values.iter().any(|value| !seen.insert(value.clone())) {
                    values_per_member.clear();
                    break;
                }
                required_everywhere &= object.required.contains(name.as_str());
                values_per_member.push(values);
            }
            let Some(kind) = kind.filter(|_| values_per_member.len() == members.len()) else {
                continue;
            };
            let inferred = InferredTags {
                keyword: union.keyword,
                property: name.clone(),
                kind,
                members: members
                    .iter()
                    .zip(values_per_member)
                    .map(|(&(i, member), values)| (i, member, values))
                    .collect(),
            };
            if required_everywhere {
                return Some(inferred);
            }
            fallback.get_or_insert(inferred);
        }
        fallback
    }

    /// The object a union member stands for (through `$ref`s, one-member `allOf`s and
    /// compositions), if it is one.
    pub(super) fn member_object(
        &mut self,
        member: &'a ReferenceOr<Schema>,
        pointer: &Pointer,
    ) -> Option<ObjectParts<'a>> {
        let target = self.member_target(member, pointer).ok()?;
        match &target.schema_kind {
            SchemaKind::AllOf { all_of } if all_of.len() > 1 => {
                self.flattened(target, pointer).ok()?.ok()
            }
            _ => object_parts(target),
        }
        .filter(|parts| !parts.properties.is_empty())
    }

    /// The values a property of `object` is limited to (`enum`, or `const`), with their kind,
    /// if it is.
    pub(super) fn property_values(
        &self,
        object: &ObjectParts<'a>,
        name: &str,
        pointer: &Pointer,
    ) -> Option<(TagKind, Vec<String>)> {
        let (_, property) = object
            .properties
            .iter()
            .find(|(key, _)| key.as_str() == name)?;
        let schema = self.resolve(SchemaAt::of_boxed(property), pointer).ok()?;
        let schema = self.through_single_all_of(schema, pointer).ok()?;
        pinned_tags(schema)
    }

    /// A union tagged by the property its members imply: a variant per value, each holding its
    /// member's type.
    pub(super) fn define_inferred_union(
        &mut self,
        name: &str,
        inferred: InferredTags<'a>,
        doc: Option<String>,
        pointer: &Pointer,
    ) -> Result<(), Error> {
        // Reserve the name first: a member may refer back to the union.
        self.reserve(name);
        let mut tagged = Vec::new();
        for (index, member, values) in inferred.members {
            let member_pointer = pointer.join(inferred.keyword).join(index);
            let first = values.first().map(String::as_str).unwrap_or_default();
            let hint = format!("{name}{}", crate::names::camel_ident(first, "V"));
            let (ty, _) = self.type_of(SchemaAt::of(member), &hint, &member_pointer)?;
            for value in values {
                tagged.push((value, Vec::new(), ty.clone()));
            }
        }
        let discriminator = Discriminator {
            property_name: inferred.property,
            ..Discriminator::default()
        };
        self.insert_union(name, tagged, inferred.kind, &discriminator, doc);
        Ok(())
    }
}
