//! Unions of strings their values tell apart: string enums beside free strings
//! (`anyOf: [{type: string}, {type: string, enum: [gpt-4o, …]}]`, "one of these, or any other
//! name") are one open enum, whose fallback variant holds the free string. Which variant a
//! value is follows from the value alone (a listed value or not), so no member is tried; free
//! strings of several formats (`uuid`, `uri`) are all `String`, so which of them a value
//! matches changes nothing. A date, date-time or bytes member (typed otherwise) keeps the
//! union `serde_json::Value`.

use openapiv3::{Schema, SchemaKind, StringFormat, StringType, Type, VariantOrUnknownOrEmpty};

use super::Builder;
use super::convert::{plain_union_members, string_enum};
use crate::error::Pointer;

impl<'a> Builder<'a> {
    /// The values of a union of string enums and free strings (text of no format the crate
    /// types otherwise: not a date, date-time or bytes), in member order without repeats;
    /// `None` for any other union. A member that admits `null` makes the union nullable
    /// (`ir::nullable`), not the enum.
    pub(super) fn open_string_union(
        &self,
        schema: &'a Schema,
        pointer: &Pointer,
    ) -> Option<Vec<&'a str>> {
        let mut values: Vec<&'a str> = Vec::new();
        self.collect_open_strings(schema, pointer, MEMBER_UNION_DEPTH, &mut values)?;
        (!values.is_empty()).then_some(values)
    }

    /// Adds the values of a union of string enums and free strings to `values`; `None` when
    /// it is not one. A member that is itself such a union (`anyOf: [$ref ModelIdsShared, {enum:
    /// [..]}]`) gives its values, down to `depth` unions deep: `$ref`s may make a cycle.
    fn collect_open_strings(
        &self,
        schema: &'a Schema,
        pointer: &Pointer,
        depth: usize,
        values: &mut Vec<&'a str>,
    ) -> Option<()> {
        let depth = depth.checked_sub(1)?;
        let (_, members) = plain_union_members(schema)?;
        if members.len() < 2 {
            return None;
        }
        // Every member a string or a union before any member union is read: a union of objects
        // nesting its like (`oneOf: [$ref previous, object]`) is refused at its own level, not
        // `depth` levels down, once per level.
        for member in members {
            let target = self.member_schema(member, pointer)?;
            let readable = string_enum(target).is_some()
                || match &target.schema_kind {
                    SchemaKind::Type(Type::String(string)) => is_free_text(string),
                    SchemaKind::OneOf { .. } | SchemaKind::AnyOf { .. } => true,
                    _ => false,
                };
            if !readable {
                return None;
            }
        }
        // Each member is now a string enum, a free string (no values of its own) or a union.
        for member in members {
            let target = self.member_schema(member, pointer)?;
            if let Some(member_values) = string_enum(target) {
                for value in member_values {
                    if !values.contains(&value) {
                        values.push(value);
                    }
                }
            } else if matches!(
                target.schema_kind,
                SchemaKind::OneOf { .. } | SchemaKind::AnyOf { .. }
            ) {
                self.collect_open_strings(target, pointer, depth, values)?;
            }
        }
        Some(())
    }
}

/// How many unions deep a member union is read (for string values here, for a JSON kind in
/// `ir::best_fit`): enough for every document seen (two), bounded so a cycle of `$ref`s ends.
pub(super) const MEMBER_UNION_DEPTH: usize = 8;

/// A string the crate types as `String` (not a date, a date-time or bytes).
fn is_free_text(string: &StringType) -> bool {
    !matches!(
        string.format,
        VariantOrUnknownOrEmpty::Item(
            StringFormat::Date | StringFormat::DateTime | StringFormat::Binary
        )
    )
}

#[cfg(test)]
mod tests {
    use crate::Input;
    use crate::ir::{TypeDef, TypeRef};

    /// What component `U` (`union`, YAML flow syntax, beside a string enum `Model`) becomes:
    /// an enum's values, or `Value` with the notes.
    fn lowered(union: &str) -> String {
        let spec = format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    \
             Model: {{type: string, enum: [m1, m2]}}\n    U: {union}\n"
        );
        let input = Input {
            spec_path: "t.yaml",
            spec_text: &spec,
            config_text: None,
        };
        let (api, notes) = crate::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
        match api.types.get("U") {
            Some(TypeDef::Enum(def)) => def
                .variants
                .iter()
                .map(|v| v.wire.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            Some(TypeDef::Alias(alias)) if alias.ty == TypeRef::Json => notes
                .iter()
                .map(|note| note.message.clone())
                .collect::<Vec<_>>()
                .join("; "),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn string_enums_beside_free_strings_are_one_open_enum() {
        assert_eq!(
            lowered("{anyOf: [{type: string}, {$ref: '#/components/schemas/Model'}]}"),
            "m1 m2"
        );
        assert_eq!(
            lowered(
                "{oneOf: [{type: string, enum: [a, m1]}, {$ref: '#/components/schemas/Model'}, {type: string, format: uuid}, {type: string, format: uri}]}"
            ),
            "a m1 m2"
        );
        let strings = "a union of several schemas is lowered to serde_json::Value: members 0 and 1 are both JSON strings, which only their contents tell apart";
        for kept in [
            "{anyOf: [{type: string, format: date-time}, {type: string, enum: [now]}]}",
            "{anyOf: [{type: string, format: date}, {type: string, enum: [now]}]}",
            "{anyOf: [{type: string, format: binary}, {type: string, enum: [now]}]}",
            "{anyOf: [{type: string}, {type: string, format: uuid}]}",
        ] {
            assert_eq!(lowered(kept), strings, "{kept}");
        }
        // A member that is itself such a union gives its values, however it is reached.
        assert_eq!(
            lowered(
                "{anyOf: [{anyOf: [{type: string}, {$ref: '#/components/schemas/Model'}]}, {type: string, enum: [x]}]}"
            ),
            "m1 m2 x"
        );
        assert_eq!(
            lowered(
                "{oneOf: [{type: string, enum: [x]}, {allOf: [{oneOf: [{type: string, enum: [m1, y]}, {type: string}]}]}]}"
            ),
            "x m1 y"
        );
        assert_eq!(
            lowered("{anyOf: [{anyOf: [{type: string, enum: [y]}]}, {type: string, enum: [x]}]}"),
            "y x"
        );
        // A member union that holds anything but strings keeps the whole union a Value.
        for kept in [
            "{anyOf: [{anyOf: [{type: string}, {type: integer}]}, {type: string, enum: [x]}]}",
            "{anyOf: [{anyOf: [{type: string, format: date}, {type: string, enum: [y]}]}, {type: string, enum: [x]}]}",
            // A union holding itself ends at the depth bound.
            "{anyOf: [{$ref: '#/components/schemas/U'}, {type: string, enum: [x]}]}",
        ] {
            let lowered = lowered(kept);
            assert!(lowered.contains("serde_json::Value"), "{kept}: {lowered}");
        }
        // A member that may be null, or a member union's, makes the union nullable, not the
        // enum (`ir::nullable`).
        assert_eq!(
            lowered("{anyOf: [{type: string, nullable: true}, {type: string, enum: [now]}]}"),
            "now"
        );
        assert_eq!(
            lowered(
                "{anyOf: [{anyOf: [{type: string, nullable: true}, {type: string, enum: [y]}]}, {type: string, enum: [x]}]}"
            ),
            "y x"
        );
        // One member is that member, not a union.
        assert_eq!(
            lowered("{anyOf: [{$ref: '#/components/schemas/Model'}]}"),
            "Some(Alias(AliasDef { name: \"U\", doc: None, ty: Named(\"Model\") }))"
        );
    }
}
