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
        self.fit_kind_memo(member, pointer, depth).kind
    }

    /// [`Self::fit_kind`] with what its answer holds for, remembered per member: a union
    /// nesting its like (`oneOf: [$ref previous, object]`) reads each level once, not
    /// `depth` levels once per union.
    fn fit_kind_memo(
        &mut self,
        member: &'a ReferenceOr<Schema>,
        pointer: &Pointer,
        depth: usize,
    ) -> FitKind {
        let key = std::ptr::from_ref(member);
        if let Some(known) = self.fit_kinds.get(&key).and_then(|known| known.at(depth)) {
            return known;
        }
        let found = self.read_fit_kind(member, pointer, depth);
        self.fit_kinds.insert(key, found);
        found
    }

    /// Reads the member's kind anew (see [`Self::fit_kind`]); its member unions' kinds go
    /// through the memo.
    fn read_fit_kind(
        &mut self,
        member: &'a ReferenceOr<Schema>,
        pointer: &Pointer,
        depth: usize,
    ) -> FitKind {
        #[cfg(test)]
        tests::READS.with(|reads| reads.set(reads.get() + 1));
        let own = |kind| FitKind {
            kind,
            height: 0,
            cut_at: None,
        };
        if let Some(kind) = self.member_kind(member, pointer) {
            return own(Some(kind));
        }
        if self.member_object(member, pointer).is_some() {
            return own(Some(JsonKind::Object));
        }
        let Some((_, members)) = self
            .member_schema(member, pointer)
            .and_then(plain_union_members)
        else {
            return own(None);
        };
        let Some(inner_depth) = depth.checked_sub(1) else {
            return FitKind {
                kind: None,
                height: 0,
                cut_at: Some(depth),
            };
        };
        let mut read = FitKind {
            kind: None,
            height: 1,
            cut_at: None,
        };
        for inner in members {
            let found = self.fit_kind_memo(inner, pointer, inner_depth);
            read.height = read.height.max(found.height + 1);
            if found.cut_at.is_some() {
                read.cut_at = Some(depth);
            }
            match found.kind {
                Some(kind) if read.kind.is_none_or(|one| one == kind) => read.kind = Some(kind),
                _ => {
                    read.kind = None;
                    return read;
                }
            }
        }
        read
    }
}

/// A member's JSON kind as read `depth` unions deep, with what it holds for at other depths.
#[derive(Debug, Clone, Copy)]
pub(super) struct FitKind {
    kind: Option<JsonKind>,
    /// The union levels the reading went through: read at least this deep, a reading that was
    /// not cut gives `kind` again.
    height: usize,
    /// The depth it was read at when the bound cut it (so `kind` is `None`): at that depth or
    /// less it is cut again.
    cut_at: Option<usize>,
}

impl FitKind {
    /// The reading at `depth`, when this one decides it.
    fn at(self, depth: usize) -> Option<FitKind> {
        match self.cut_at {
            Some(cut) if depth <= cut => Some(self),
            Some(_) => None,
            None if depth >= self.height => Some(self),
            // Shallower than the reading went: the bound cuts it there.
            None => Some(FitKind {
                kind: None,
                cut_at: Some(depth),
                ..self
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use crate::Input;
    use crate::ir::{TypeDef, TypeRef};

    thread_local! {
        /// How many member kinds best fit has read (not found remembered) on this thread.
        pub(super) static READS: Cell<usize> = const { Cell::new(0) };
    }

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

    /// Every link of `Link{i} = anyOf: [$ref Link{i-1}, A]` as the build types it: best fit
    /// while the member union nests within the bound, a `Value` past it, whatever order the
    /// links are read in (the kinds read are remembered per member).
    #[test]
    fn a_chain_of_unions_is_read_to_the_bound_in_any_order() {
        const LINKS: usize = 14;
        for order in [
            (1..=LINKS).collect::<Vec<_>>(),
            (1..=LINKS).rev().collect(),
            (1..=LINKS).map(|i| (i * 5) % LINKS + 1).collect(),
        ] {
            let mut spec = String::from(
                "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    \
                 A: {type: object, properties: {name: {type: string}}}\n    \
                 Link0: {type: object, properties: {id: {type: integer}}}\n",
            );
            for i in &order {
                spec += &format!(
                    "    Link{i}: {{anyOf: [{{$ref: '#/components/schemas/Link{}'}}, {{$ref: '#/components/schemas/A'}}]}}\n",
                    i - 1
                );
            }
            let input = Input {
                spec_path: "t.yaml",
                spec_text: &spec,
                config_text: None,
            };
            let (api, _) = crate::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
            let best_fit: Vec<usize> = (1..=LINKS)
                .filter(|i| {
                    matches!(api.types.get(&format!("Link{i}")), Some(TypeDef::Untagged(def)) if def.best_fit)
                })
                .collect();
            // Link{i}'s first member nests i - 1 unions: read while that is within the bound.
            let within: Vec<usize> = (1..=LINKS)
                .filter(|i| i - 1 <= super::MEMBER_UNION_DEPTH)
                .collect();
            assert_eq!(best_fit, within, "links declared in the order {order:?}");
        }
    }

    /// Each member of a long chain of unions is read a bounded number of times, not once per
    /// union above it within the bound.
    #[test]
    fn a_long_chain_of_unions_reads_each_member_a_bounded_number_of_times() {
        const LINKS: usize = 300;
        let mut spec = String::from(
            "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    \
             A: {type: object, properties: {name: {type: string}}}\n    \
             Link0: {type: object, properties: {id: {type: integer}}}\n",
        );
        for i in 1..=LINKS {
            spec += &format!(
                "    Link{i}: {{anyOf: [{{$ref: '#/components/schemas/Link{}'}}, {{$ref: '#/components/schemas/A'}}]}}\n",
                i - 1
            );
        }
        let input = Input {
            spec_path: "t.yaml",
            spec_text: &spec,
            config_text: None,
        };
        READS.with(|reads| reads.set(0));
        crate::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
        let reads = READS.with(Cell::get);
        // Two members a link, each read about once (309 here); without remembering, each union
        // reads 2 members at each of the bound's levels below it (5,400 here).
        assert!(
            reads <= 2 * LINKS,
            "{reads} member readings for {LINKS} links"
        );
        assert!(reads >= LINKS, "{reads} member readings for {LINKS} links");
    }

    /// The listing says how a union decodes, so the change report sees a union that a document
    /// change moves from its members' own keys to best fit (same variants, other decoding).
    #[test]
    fn the_listing_and_the_change_report_tell_best_fit_from_untagged() {
        let api = |b_requires: &str| {
            let spec = format!(
                "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    \
                 A: {{type: object, properties: {{name: {{type: string}}}}}}\n    \
                 B: {{type: object, {b_requires}properties: {{id: {{type: integer}}}}}}\n    \
                 U: {{anyOf: [{A}, {B}]}}\n"
            );
            let input = Input {
                spec_path: "t.yaml",
                spec_text: &spec,
                config_text: None,
            };
            crate::build_ir(&input)
                .unwrap_or_else(|error| panic!("{error}"))
                .0
        };
        let (keyed, best_fit) = (api("required: [id], "), api(""));
        let union_line = |api: &crate::ir::Api| {
            let listing = crate::diff::listing_of(api, "t.yaml").unwrap();
            listing
                .lines()
                .find(|line| line.starts_with("enum models::U"))
                .map(str::to_owned)
                .unwrap_or_else(|| panic!("no line of U in\n{listing}"))
        };
        assert!(
            union_line(&keyed).contains("untagged"),
            "{}",
            union_line(&keyed)
        );
        assert!(
            union_line(&best_fit).contains("best fit"),
            "{}",
            union_line(&best_fit)
        );
        let report = crate::diff::api_changes(&keyed, &best_fit).unwrap();
        assert!(
            report
                .changes
                .iter()
                .any(|change| change.description.contains("models::U")
                    && change.description.contains("best fit")),
            "{report}"
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
