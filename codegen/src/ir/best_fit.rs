//! The last resort of a union no rule tells apart (no tag, no required property of one member's
//! own, no JSON kind or string format of one member's own): several objects, or several
//! arrays, which only their contents tell apart. It is typed as a union of its members decoded
//! by best fit (the runtime's `best_fit`, after pydantic v2's "smart" unions): the first member
//! whose decoded value encodes back to the same JSON, else the one keeping most of it. This is
//! the one place that decides a union is left to best fit; everything it refuses stays
//! `serde_json::Value` with the reason.
//!
//! Best fit cannot tell apart two members of one scalar kind (two strings told apart only by
//! `pattern`, two integers by their range): every such value decodes as the first exactly, so
//! the second would never be chosen. Those stay values.

use openapiv3::{ReferenceOr, Schema};

use super::convert::{PlanVariant, UntaggedPlan, plain_union_members};
use super::open_strings::MEMBER_UNION_DEPTH;
use super::{Builder, JsonKind};
use crate::error::Pointer;

impl<'a> Builder<'a> {
    /// The members of a union left to best fit, in the document's order; or why it is not.
    /// Called after every rule that tells members apart has refused the union.
    pub(super) fn best_fit_plan(
        &mut self,
        schema: &'a Schema,
        pointer: &Pointer,
    ) -> Result<UntaggedPlan<'a>, String> {
        let Some((keyword, members)) = plain_union_members(schema) else {
            return Err("not a union".into());
        };
        if members.len() < 2 {
            return Err("a union of one member".into());
        }
        if self.is_decimal_union(schema, pointer) {
            return Err("a decimal".into());
        }
        let mut plan: Vec<(JsonKind, usize, &'a ReferenceOr<Schema>)> =
            Vec::with_capacity(members.len());
        for (index, member) in members.iter().enumerate() {
            let Some(kind) = self.fit_kind(member, pointer, MEMBER_UNION_DEPTH) else {
                return Err(format!("member {index} is not of one JSON kind"));
            };
            // Objects and arrays decode by their contents, strings by their formats (below).
            if !matches!(kind, JsonKind::Object | JsonKind::Array | JsonKind::String)
                && let Some(&(_, first, _)) = plan.iter().find(|(seen, ..)| *seen == kind)
            {
                return Err(format!(
                    "members {first} and {index} are both JSON {}s, which only their contents tell apart",
                    kind.name().to_ascii_lowercase()
                ));
            }
            plan.push((kind, index, member));
        }
        let strings: Vec<_> = plan
            .iter()
            .filter(|(kind, ..)| *kind == JsonKind::String)
            .map(|&(_, index, member)| (index, member))
            .collect();
        if strings.len() > 1 {
            // Strings a format tells apart decode as one member only.
            self.string_members_by_format(&strings, pointer)?;
        }
        let plan = plan
            .into_iter()
            .map(|(kind, index, member)| (kind, PlanVariant::Member(index, member)))
            .collect();
        Ok((keyword, plan))
    }

    /// The JSON kind every value of a member has: its own, an object's composed with `allOf`,
    /// or the one kind of every member of a union it is (`depth` unions deep, so a `$ref`
    /// cycle ends).
    fn fit_kind(
        &mut self,
        member: &'a ReferenceOr<Schema>,
        pointer: &Pointer,
        depth: usize,
    ) -> Option<JsonKind> {
        if let Some(kind) = self.member_kind(member, pointer) {
            return Some(kind);
        }
        if self.member_object(member, pointer).is_some() {
            return Some(JsonKind::Object);
        }
        let inner_depth = depth.checked_sub(1)?;
        let (_, members) = plain_union_members(self.member_schema(member, pointer)?)?;
        let mut one = None;
        for inner in members {
            let kind = self.fit_kind(inner, pointer, inner_depth)?;
            if one.is_some_and(|one| one != kind) {
                return None;
            }
            one = Some(kind);
        }
        one
    }
}

#[cfg(test)]
mod tests {
    use crate::Input;
    use crate::ir::{TypeDef, TypeRef};

    /// What the one component `U` (YAML flow syntax, beside the objects `A` and `B`, neither
    /// requiring a property of its own) becomes: `best fit: Variant:Kind ...`, `by kind: ...`,
    /// `keyed`, `tagged`, or the note of a `serde_json::Value`.
    fn shape(union: &str, version: &str) -> String {
        let spec = format!(
            "openapi: {version}\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    \
             A: {{type: object, properties: {{name: {{type: string}}}}}}\n    \
             B: {{type: object, properties: {{name: {{type: integer}}, id: {{type: integer}}}}}}\n    \
             U: {union}\n"
        );
        let input = Input {
            spec_path: "t.yaml",
            spec_text: &spec,
            config_text: None,
        };
        let (api, notes) = crate::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
        match api.types.get("U") {
            Some(TypeDef::Untagged(def)) => {
                let variants: Vec<String> = def
                    .variants
                    .iter()
                    .map(|v| format!("{}:{}", v.rust_name, v.kind.name()))
                    .collect();
                match (def.best_fit, def.variants.iter().any(|v| v.keys.is_some())) {
                    (true, _) => format!("best fit: {}", variants.join(" ")),
                    (false, true) => "keyed".to_owned(),
                    (false, false) => format!("by kind: {}", variants.join(" ")),
                }
            }
            Some(TypeDef::Union(_)) => "tagged".to_owned(),
            Some(TypeDef::Alias(alias)) if alias.ty == TypeRef::Json => notes
                .iter()
                .map(ToString::to_string)
                .find(|note| note.starts_with("#/components/schemas/U:"))
                .unwrap_or_default(),
            other => format!("{other:?}"),
        }
    }

    fn both(union: &str) -> String {
        let (v31, v30) = (shape(union, "3.1.0"), shape(union, "3.0.3"));
        assert_eq!(v31, v30, "{union}");
        v31
    }

    const A: &str = "{$ref: '#/components/schemas/A'}";
    const B: &str = "{$ref: '#/components/schemas/B'}";

    #[test]
    fn objects_and_arrays_only_contents_tell_apart_are_best_fit_in_document_order() {
        assert_eq!(
            both(&format!("{{anyOf: [{B}, {A}]}}")),
            "best fit: B:Object A:Object"
        );
        // Objects told apart only by a property's type, inline: in the document's order (a
        // number before an integer, unlike a union by kind).
        assert_eq!(
            both(
                "{oneOf: [{type: object, properties: {v: {type: number}}}, {type: object, properties: {v: {type: integer}}}]}"
            ),
            "best fit: Object:Object Object2:Object"
        );
        assert_eq!(
            both(
                "{oneOf: [{type: string}, {type: array, items: {type: string}}, {type: array, items: {type: integer}}, {type: number}, {type: integer}, {type: boolean}]}"
            ),
            "best fit: String:String Array:Array Array2:Array Number:Number Integer:Integer Boolean:Boolean"
        );
        // An object composed with `allOf` is an object member.
        assert_eq!(
            both(&format!(
                "{{oneOf: [{A}, {{allOf: [{B}, {{type: object, properties: {{x: {{type: string}}}}}}]}}]}}"
            )),
            "best fit: A:Object Object:Object"
        );
        // A member that is a union of objects (or of arrays) is an object (or an array); a
        // union of several kinds, or one nesting past the bound, has no kind.
        let objects = format!("{{anyOf: [{A}, {B}]}}");
        assert_eq!(
            both(&format!("{{oneOf: [{objects}, {A}]}}")),
            "best fit: Object:Object A:Object"
        );
        let arrays = "{anyOf: [{type: array, items: {type: string}}, {type: array, items: {type: integer}}]}";
        assert_eq!(
            both(&format!(
                "{{oneOf: [{arrays}, {{type: array, items: {{type: boolean}}}}]}}"
            )),
            "best fit: Array:Array Array2:Array"
        );
        let nested = (0..7).fold(objects.clone(), |inner, _| {
            format!("{{anyOf: [{inner}, {A}]}}")
        });
        assert_eq!(
            both(&format!("{{oneOf: [{nested}, {A}]}}")),
            "best fit: Object:Object A:Object"
        );
        let lowered =
            "#/components/schemas/U: a union of several schemas is lowered to serde_json::Value";
        let too_deep = format!("{{anyOf: [{nested}, {A}]}}");
        assert_eq!(
            both(&format!("{{oneOf: [{too_deep}, {A}]}}")),
            format!("{lowered}: member 0 is not of one JSON kind")
        );
        assert_eq!(
            both(&format!(
                "{{oneOf: [{{anyOf: [{A}, {{type: string}}]}}, {A}]}}"
            )),
            format!("{lowered}: member 0 is not of one JSON kind")
        );
        // Strings a format tells apart, beside them.
        assert_eq!(
            both(&format!(
                "{{oneOf: [{A}, {B}, {{type: string, format: date-time}}, {{type: string, format: date}}]}}"
            )),
            "best fit: A:Object B:Object Timestamp:String Date:String"
        );
    }

    #[test]
    fn every_other_rule_wins_over_best_fit() {
        assert_eq!(
            both(&format!("{{oneOf: [{A}, {{type: string}}]}}")),
            "by kind: String:String A:Object"
        );
        assert_eq!(
            both(&format!(
                "{{oneOf: [{A}, {{type: object, required: [id], properties: {{id: {{type: string}}}}}}]}}"
            )),
            "keyed"
        );
        assert_eq!(
            both(&format!(
                "{{oneOf: [{A}, {B}], discriminator: {{propertyName: name}}}}"
            )),
            "tagged"
        );
        // A number or a decimal string is a decimal.
        assert_eq!(
            both("{oneOf: [{type: number}, {type: string, format: decimal}]}"),
            "Some(Alias(AliasDef { name: \"U\", doc: None, ty: Decimal }))"
        );
    }

    #[test]
    fn scalars_of_one_kind_and_members_of_no_kind_stay_values_with_the_reason() {
        let lowered =
            "#/components/schemas/U: a union of several schemas is lowered to serde_json::Value";
        assert_eq!(
            both(&format!(
                "{{oneOf: [{A}, {{type: string, pattern: '^a'}}, {B}, {{type: string, pattern: '^b'}}]}}"
            )),
            format!(
                "{lowered}: members 1 and 3 are both JSON strings, which only their contents tell apart"
            )
        );
        for kind in ["integer", "number", "boolean"] {
            assert_eq!(
                both(&format!(
                    "{{oneOf: [{A}, {B}, {{type: {kind}}}, {{type: {kind}}}]}}"
                )),
                format!(
                    "{lowered}: members 2 and 3 are both JSON {kind}s, which only their contents tell apart"
                )
            );
        }
        assert_eq!(
            both(&format!("{{oneOf: [{A}, {B}, {{}}]}}")),
            format!("{lowered}: member 2 is not of one JSON kind")
        );
    }
}
