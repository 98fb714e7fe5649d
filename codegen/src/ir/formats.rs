//! Unions of strings told apart by their `format`: `oneOf: [{type: string, format: date-time},
//! {type: string, format: date}]` is decided by which of the crate's parsers takes the text, as
//! long as no text is valid for two members. RFC 3339's `date-time` always holds a time and an
//! offset and its `full-date` never does, so those two are disjoint; a date parser may read the
//! date out of a date-time text, so the date-time member is tried first. Any other format
//! (`uuid`, `uri`, `email`, …) is read as any string, so a union holding one stays
//! `serde_json::Value`, with a note saying which formats it would take to tell them apart.

use openapiv3::{ReferenceOr, Schema, SchemaKind, StringFormat, Type, VariantOrUnknownOrEmpty};

use super::Builder;
use crate::error::Pointer;

/// A string format the crate parses into a type of its own, in the order a union tries them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum ParsedFormat {
    /// RFC 3339 `date-time`: a `Timestamp`.
    DateTime,
    /// RFC 3339 `full-date`: a `Date`.
    Date,
}

impl ParsedFormat {
    /// The variant name a member of this format gets when it has no type name of its own.
    pub(super) fn variant_name(self) -> &'static str {
        match self {
            ParsedFormat::DateTime => "Timestamp",
            ParsedFormat::Date => "Date",
        }
    }
}

impl<'a> Builder<'a> {
    /// The format a union's string member is parsed by, or how it reads when it is none of
    /// those: its `format` (`uuid`), or `None` for any string, an enum or no format at all.
    pub(super) fn parsed_format(
        &self,
        member: &'a ReferenceOr<Schema>,
        pointer: &Pointer,
    ) -> Result<ParsedFormat, Option<String>> {
        let Some(SchemaKind::Type(Type::String(string))) = self
            .member_schema(member, pointer)
            .map(|schema| &schema.schema_kind)
        else {
            return Err(None);
        };
        // A member's `null` is the union's (`ir::nullable`), so it tells no member apart.
        if !string.enumeration.is_empty() {
            return Err(None);
        }
        match &string.format {
            VariantOrUnknownOrEmpty::Item(StringFormat::DateTime) => Ok(ParsedFormat::DateTime),
            VariantOrUnknownOrEmpty::Item(StringFormat::Date) => Ok(ParsedFormat::Date),
            VariantOrUnknownOrEmpty::Item(StringFormat::Password) => Err(Some("password".into())),
            VariantOrUnknownOrEmpty::Item(StringFormat::Byte) => Err(Some("byte".into())),
            VariantOrUnknownOrEmpty::Item(StringFormat::Binary) => Err(Some("binary".into())),
            VariantOrUnknownOrEmpty::Unknown(format) => Err(Some(format.clone())),
            VariantOrUnknownOrEmpty::Empty => Err(None),
        }
    }

    /// Whether the string members of a union (two or more, by index) are told apart by their
    /// formats: each parsed by a format no other member has. `Err` says why not.
    pub(super) fn string_members_by_format(
        &self,
        members: &[(usize, &'a ReferenceOr<Schema>)],
        pointer: &Pointer,
    ) -> Result<(), String> {
        let mut seen: Vec<(ParsedFormat, usize)> = Vec::new();
        let mut unparsed: Vec<String> = Vec::new();
        let mut plain = None;
        for &(index, member) in members {
            match self.parsed_format(member, pointer) {
                Ok(format) => {
                    if let Some((_, first)) = seen.iter().find(|(seen, _)| *seen == format) {
                        return Err(format!(
                            "members {first} and {index} are both JSON strings of one format, which only their contents tell apart"
                        ));
                    }
                    seen.push((format, index));
                }
                Err(Some(format)) => unparsed.push(format!("{index} ({format})")),
                Err(None) => plain = plain.or(Some(index)),
            }
        }
        if unparsed.is_empty() && plain.is_none() {
            return Ok(());
        }
        let (first, second) = (members[0].0, members[1].0);
        if plain.is_none() {
            return Err(format!(
                "members {first} and {second} are both JSON strings, told apart only by formats this crate reads as any string (member {})",
                unparsed.join(", member ")
            ));
        }
        Err(format!(
            "members {first} and {second} are both JSON strings, which only their contents tell apart"
        ))
    }
}
