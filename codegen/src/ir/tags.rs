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
