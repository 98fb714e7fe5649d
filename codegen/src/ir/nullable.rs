//! Whether a schema position admits `null`, and how a union is typed. Nullability belongs to a
//! union, not to its members: a `oneOf`/`anyOf` one of whose members admits `null` (3.0
//! `nullable`, 3.1 `type: [T, null]`, a null in an `enum`, a `$ref` to a nullable component, a
//! nested union that does) is typed with its members' nullability left out, and is itself
//! nullable wherever it is used. So `null` has one representation (`None`), never a member's
//! `Some(Member(None))` beside it, nor one per nullable member.

use std::collections::{HashMap, HashSet};

use openapiv3::{Schema, SchemaKind, Type};

use super::convert::{const_union, union_members, value_enum};
use super::{Builder, SchemaAt};
use crate::error::Pointer;

/// How a `oneOf`/`anyOf` is typed.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum UnionForm {
    /// A type of its own: a tagged, inferred, keyed or untagged union, or an enum of its
    /// strings.
    Defined,
    /// The runtime's `Decimal`: a number, or a string of decimal digits.
    Decimal,
    /// `serde_json::Value`, for this reason.
    Value(String),
}

impl<'a> Builder<'a> {
    /// How a `oneOf`/`anyOf` is typed (the one answer [`Builder::type_of`] and
    /// [`Builder::admits_null`] read), worked out once per schema.
    pub(super) fn union_form(&mut self, schema: &'a Schema, pointer: &Pointer) -> UnionForm {
        let key = std::ptr::from_ref(schema);
        if let Some(form) = self.union_forms.get(&key) {
            return form.clone();
        }
        let form = if schema.schema_data.discriminator.is_some()
            || const_union(schema).is_some()
            || self.open_string_union(schema, pointer).is_some()
        {
            UnionForm::Defined
        } else if self.is_decimal_union(schema, pointer) {
            UnionForm::Decimal
        } else if self.inferred_tags(schema, pointer).is_some() {
            UnionForm::Defined
        } else {
            let keyed = self.keyed_members(schema, pointer);
            match (keyed, self.untagged_plan(schema, pointer)) {
                (Ok(_), _) | (_, Ok(_)) => UnionForm::Defined,
                // The last resort; what it refuses says why (`ir::best_fit`).
                (Err(_), Err(_)) => match self.best_fit_plan(schema, pointer) {
                    Ok(_) => UnionForm::Defined,
                    Err(reason) => UnionForm::Value(reason),
                },
            }
        };
        self.union_forms.insert(key, form.clone());
        form
    }

    /// Whether a value where `schema` stands may be `null`, as its uses type it (`Option`):
    /// its own `nullable` or a null among its `enum` values, through one-member `allOf`s; for
    /// a union typed as one (not `serde_json::Value`), any member's, and so on down nested
    /// unions. Worked out once per schema, for every union it reaches at once: a walk of the
    /// unions reachable through members (no stack of calls, whatever their nesting), then
    /// `null` carried back from each member that admits it to every union holding it, so
    /// unions that hold each other agree.
    pub(super) fn admits_null(&mut self, schema: &'a Schema, pointer: &Pointer) -> bool {
        // Most schemas are neither a union nor a wrapper of one: their own keywords say it.
        if union_members(schema).is_none()
            && !matches!(schema.schema_kind, SchemaKind::AllOf { .. })
        {
            return null_in_itself(schema);
        }
        let key = |schema: &Schema| std::ptr::from_ref(schema);
        if let Some(known) = self.null_admitted.get(&key(schema)) {
            return *known;
        }
        let mut index: HashMap<*const Schema, usize> = HashMap::from([(key(schema), 0)]);
        let mut nodes: Vec<&'a Schema> = vec![schema];
        // Who holds each node as a member, and what is known of it so far.
        let mut holders: Vec<Vec<usize>> = vec![Vec::new()];
        let mut admitted: Vec<bool> = Vec::new();
        let mut next = 0;
        while let Some(&node) = nodes.get(next) {
            let known = self.null_admitted.get(&key(node)).copied();
            admitted.push(known.unwrap_or_else(|| self.own_null(node, pointer)));
            if known.is_none() {
                for member in self.typed_union_members(node, pointer) {
                    let at = *index.entry(key(member)).or_insert_with(|| {
                        nodes.push(member);
                        holders.push(Vec::new());
                        nodes.len() - 1
                    });
                    holders[at].push(next);
                }
            }
            next += 1;
        }
        let mut carrying: Vec<usize> = (0..nodes.len()).filter(|&n| admitted[n]).collect();
        while let Some(node) = carrying.pop() {
            for &holder in &holders[node] {
                if !admitted[holder] {
                    admitted[holder] = true;
                    carrying.push(holder);
                }
            }
        }
        for (node, admits) in nodes.iter().zip(&admitted) {
            self.null_admitted.insert(key(node), *admits);
        }
        admitted[0]
    }

    /// Whether `schema` (or a one-member `allOf` it wraps, through `$ref`s) admits `null`
    /// itself, leaving aside any union members.
    fn own_null(&self, schema: &'a Schema, pointer: &Pointer) -> bool {
        let mut current = schema;
        // A chain of one-member `allOf`s that comes back on itself stops there.
        let mut passed = HashSet::new();
        loop {
            if null_in_itself(current) {
                return true;
            }
            let SchemaKind::AllOf { all_of } = &current.schema_kind else {
                return false;
            };
            let [single] = all_of.as_slice() else {
                return false;
            };
            if !passed.insert(std::ptr::from_ref(current)) {
                return false;
            }
            match self.resolve(SchemaAt::of(single), pointer) {
                Ok(next) => current = next,
                Err(_) => return false,
            }
        }
    }

    /// The schemas the members of `schema` (through one-member `allOf`s) stand for, when it is
    /// a union typed as one; none otherwise, or for a member that does not resolve.
    fn typed_union_members(&mut self, schema: &'a Schema, pointer: &Pointer) -> Vec<&'a Schema> {
        let Ok(schema) = self.through_single_all_of(schema, pointer) else {
            return Vec::new();
        };
        let Some((_, members)) = union_members(schema) else {
            return Vec::new();
        };
        if matches!(self.union_form(schema, pointer), UnionForm::Value(_)) {
            return Vec::new();
        }
        members
            .iter()
            .filter_map(|member| self.resolve(SchemaAt::of(member), pointer).ok())
            .collect()
    }
}

/// Whether the schema's own keywords admit `null`: `nullable`, or a null among the values of
/// a string `enum` or of an `enum` of JSON values.
fn null_in_itself(schema: &Schema) -> bool {
    if schema.schema_data.nullable {
        return true;
    }
    match &schema.schema_kind {
        SchemaKind::Type(Type::String(string)) => string.enumeration.iter().any(Option::is_none),
        SchemaKind::Any(any) if value_enum(schema).is_some() => {
            any.enumeration.iter().any(serde_json::Value::is_null)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::Input;
    use crate::ir::{Api, TypeDef, TypeRef};

    /// The IR of a document of `version` whose components are `schemas` (YAML lines, each
    /// `Name: {...}`) and `Holder`, an object with the `fields` given (`name: {...}` each).
    fn built(version: &str, schemas: &[&str], fields: &[&str]) -> Api {
        let mut spec = format!(
            "openapi: {version}\ninfo: {{title: t, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    \
             Holder:\n      type: object\n      properties:\n"
        );
        for field in fields {
            spec.push_str(&format!("        {field}\n"));
        }
        for schema in schemas {
            spec.push_str(&format!("    {schema}\n"));
        }
        let input = Input {
            spec_path: "t.yaml",
            spec_text: &spec,
            config_text: None,
        };
        crate::build_ir(&input)
            .unwrap_or_else(|error| panic!("{error}\n{spec}"))
            .0
    }

    /// Each field of `Holder` as `name: type`, the type wrapped in `Option` where it may be null.
    fn fields(api: &Api) -> Vec<String> {
        let Some(TypeDef::Struct(def)) = api.types.get("Holder") else {
            panic!(
                "Holder is no struct: {:?}",
                api.types.keys().collect::<Vec<_>>()
            );
        };
        def.fields
            .iter()
            .map(|field| {
                let ty = super::super::convert::optional_if(field.ty.clone(), field.nullable);
                format!("{}: {}", field.wire_name, show(&ty))
            })
            .collect()
    }

    fn show(ty: &TypeRef) -> String {
        match ty {
            TypeRef::Named(name) => name.clone(),
            TypeRef::Option(inner) => format!("Option<{}>", show(inner)),
            TypeRef::Vec(inner) => format!("Vec<{}>", show(inner)),
            other => format!("{other:?}"),
        }
    }

    /// The payload types of union `name`'s variants (through aliases), as `show` writes them.
    fn members(api: &Api, name: &str) -> Vec<String> {
        match api.types.get(name) {
            Some(TypeDef::Untagged(def)) => def.variants.iter().map(|v| show(&v.ty)).collect(),
            Some(TypeDef::Union(def)) => def.variants.iter().map(|v| show(&v.ty)).collect(),
            // An inline union identical to another is an alias of it (`ir::shared`).
            Some(TypeDef::Alias(alias)) => match &alias.ty {
                TypeRef::Named(target) => members(api, target),
                other => panic!("{name} is an alias of {other:?}"),
            },
            other => panic!("{name} is no union: {other:?}"),
        }
    }

    /// A component `U`, used by `$ref`, inline, as an array's items and behind a one-member
    /// `allOf`: every use may be null, and no member holds an `Option`.
    #[test]
    fn a_union_one_of_whose_members_admits_null_is_nullable_wherever_it_is_used() {
        let n = "N: {type: string, nullable: true}";
        let model = "Model: {type: string, enum: [m1, m2]}";
        let names = "Names: {anyOf: [{$ref: '#/components/schemas/Model'}, {type: string, nullable: true}]}";
        let circle = "Circle: {type: object, nullable: true, required: [kind], properties: {kind: {type: string, enum: [circle]}}}";
        let square = "Square: {type: object, required: [kind], properties: {kind: {type: string, enum: [square]}}}";
        let rows: &[(&str, &str, &[&str])] = &[
            // 3.0: `nullable` on a member, on a `$ref`'s target, behind a one-member `allOf`,
            // a null among a member's `enum` values, in a nested union.
            (
                "3.0.3",
                "{oneOf: [{type: string, nullable: true}, {type: array, items: {type: string}, nullable: true}]}",
                &[],
            ),
            (
                "3.0.3",
                "{oneOf: [{$ref: '#/components/schemas/N'}, {type: integer}]}",
                &[n],
            ),
            (
                "3.0.3",
                "{oneOf: [{allOf: [{$ref: '#/components/schemas/N'}]}, {type: integer}]}",
                &[n],
            ),
            (
                "3.0.3",
                "{oneOf: [{type: string, enum: [a, null]}, {type: integer}]}",
                &[],
            ),
            (
                "3.0.3",
                "{oneOf: [{$ref: '#/components/schemas/Names'}, {type: integer}]}",
                &[model, names],
            ),
            // 3.1: a type array with null, a `{type: null}`, `const: null` or `enum: [null]`
            // member (the lowering makes the union itself nullable).
            (
                "3.1.0",
                "{oneOf: [{type: [string, 'null']}, {type: integer}]}",
                &[],
            ),
            (
                "3.1.0",
                "{anyOf: [{type: string}, {type: integer}, {type: 'null'}]}",
                &[],
            ),
            (
                "3.1.0",
                "{oneOf: [{type: string}, {type: boolean}, {const: null}]}",
                &[],
            ),
            (
                "3.1.0",
                "{oneOf: [{type: string}, {type: boolean}, {enum: [null]}]}",
                &[],
            ),
            // Every kind of union: tagged, inferred from values, keyed by properties, told
            // apart by string formats.
            (
                "3.0.3",
                "{oneOf: [{$ref: '#/components/schemas/Circle'}, {$ref: '#/components/schemas/Square'}], discriminator: {propertyName: kind}}",
                &[circle, square],
            ),
            (
                "3.0.3",
                "{oneOf: [{$ref: '#/components/schemas/Circle'}, {$ref: '#/components/schemas/Square'}]}",
                &[circle, square],
            ),
            (
                "3.0.3",
                "{oneOf: [{type: object, nullable: true, required: [a], properties: {a: {type: string}}, additionalProperties: false}, {type: object, required: [b], properties: {b: {type: string}}, additionalProperties: false}]}",
                &[],
            ),
            (
                "3.0.3",
                "{oneOf: [{type: string, format: date-time, nullable: true}, {type: string, format: date}]}",
                &[],
            ),
        ];
        for (version, union, others) in rows {
            let mut schemas = others.to_vec();
            let component = format!("U: {union}");
            schemas.push(&component);
            let inline = format!("inline: {union}");
            let items = format!("items: {{type: array, items: {union}}}");
            let api = built(
                version,
                &schemas,
                &[
                    "by_ref: {$ref: '#/components/schemas/U'}",
                    &inline,
                    &items,
                    "wrapped: {allOf: [{$ref: '#/components/schemas/U'}]}",
                ],
            );
            assert_eq!(
                fields(&api),
                [
                    "by_ref: Option<U>",
                    "inline: Option<HolderInline>",
                    "items: Vec<Option<HolderItemsItem>>",
                    "wrapped: Option<U>",
                ],
                "{union}"
            );
            for name in ["U", "HolderInline", "HolderItemsItem"] {
                let members = members(&api, name);
                assert!(
                    members.iter().all(|ty| !ty.starts_with("Option")),
                    "{union}: {name} holds {members:?}"
                );
            }
        }
    }

    /// The same places without a member that admits null, and the other unions the generator
    /// types: none of them is nullable.
    #[test]
    fn a_union_no_member_of_which_admits_null_is_not_nullable() {
        let n = "N: {type: string}";
        for union in [
            "{oneOf: [{type: string}, {type: array, items: {type: string, nullable: true}}]}",
            "{oneOf: [{$ref: '#/components/schemas/N'}, {type: integer}]}",
            "{oneOf: [{type: string, enum: [a, b]}, {type: integer}]}",
            "{oneOf: [{type: object, required: [a], properties: {a: {type: string, nullable: true}}, additionalProperties: false}, {type: object, required: [b], properties: {b: {type: string}}, additionalProperties: false}]}",
        ] {
            let component = format!("U: {union}");
            let api = built(
                "3.0.3",
                &[n, &component],
                &["by_ref: {$ref: '#/components/schemas/U'}"],
            );
            assert_eq!(fields(&api), ["by_ref: U"], "{union}");
        }
    }

    /// A decimal, an enum of constants and an open enum of strings whose member admits null
    /// are nullable; a union typed as any JSON value (which holds a null already) is not.
    #[test]
    fn unions_typed_as_a_decimal_or_an_enum_are_nullable_and_values_are_not() {
        let api = built(
            "3.0.3",
            &[
                "Model: {type: string, enum: [m1, m2]}",
                "Money: {oneOf: [{type: number, nullable: true}, {type: string, pattern: '^[0-9]+$'}]}",
                "Level: {oneOf: [{type: string, enum: [low]}, {type: string, enum: [high, null]}]}",
                "Names: {anyOf: [{$ref: '#/components/schemas/Model'}, {type: string, nullable: true}]}",
                "Loose: {oneOf: [{type: integer}, {type: integer, format: int32, nullable: true}]}",
            ],
            &[
                "money: {$ref: '#/components/schemas/Money'}",
                "level: {$ref: '#/components/schemas/Level'}",
                "names: {$ref: '#/components/schemas/Names'}",
                "loose: {$ref: '#/components/schemas/Loose'}",
                "inline_money: {oneOf: [{type: number}, {type: string, pattern: '^[0-9]+$', nullable: true}]}",
            ],
        );
        assert_eq!(
            fields(&api),
            [
                "money: Option<Money>",
                "level: Option<Level>",
                "names: Option<Names>",
                "loose: Loose",
                "inline_money: Option<Decimal>",
            ]
        );
        assert!(
            matches!(api.types.get("Loose"), Some(TypeDef::Alias(alias)) if alias.ty == TypeRef::Json)
        );
    }

    /// Unions that hold each other agree, whichever is met first: `B` admits null only through
    /// `A`, which admits it through its own member; `Holder` meets `A` first.
    #[test]
    fn unions_that_hold_each_other_agree() {
        let object = |name: &str, nullable: bool| {
            format!(
                "{name}: {{type: object, nullable: {nullable}, required: [kind], properties: {{kind: {{type: string, enum: [{name}]}}}}}}"
            )
        };
        let (null_leaf, leaf) = (object("NullLeaf", true), object("Leaf", false));
        let tagged = |name: &str, members: [&str; 2]| {
            format!(
                "{name}: {{oneOf: [{{$ref: '#/components/schemas/{}'}}, {{$ref: '#/components/schemas/{}'}}], discriminator: {{propertyName: kind}}}}",
                members[0], members[1]
            )
        };
        let a = tagged("A", ["B", "NullLeaf"]);
        let b = tagged("B", ["A", "Leaf"]);
        let api = built(
            "3.0.3",
            &[&null_leaf, &leaf, &a, &b],
            &[
                "a: {$ref: '#/components/schemas/A'}",
                "b: {$ref: '#/components/schemas/B'}",
                "leaf: {$ref: '#/components/schemas/Leaf'}",
            ],
        );
        assert_eq!(fields(&api), ["a: Option<A>", "b: Option<B>", "leaf: Leaf"]);
    }

    /// A `null` anywhere down a chain of one-member `allOf`s (through `$ref`s) is the chain's;
    /// a chain that comes back on itself ends without one.
    #[test]
    fn nullability_is_followed_down_one_member_allof_chains() {
        let api = built(
            "3.0.3",
            &[
                "X: {allOf: [{$ref: '#/components/schemas/Y'}]}",
                "Y: {allOf: [{$ref: '#/components/schemas/Z'}], nullable: true}",
                "Z: {type: string}",
                "W: {allOf: [{$ref: '#/components/schemas/Z'}]}",
                "E: {type: string, enum: [a, null]}",
                "V: {enum: [{x: 1}, null]}",
                "Nothing: {enum: [null]}",
            ],
            &[
                "x: {$ref: '#/components/schemas/X'}",
                "w: {$ref: '#/components/schemas/W'}",
                "e: {$ref: '#/components/schemas/E'}",
                "v: {$ref: '#/components/schemas/V'}",
                "nothing: {$ref: '#/components/schemas/Nothing'}",
            ],
        );
        // An `enum` of null alone is no enum: any JSON value, which holds the null.
        assert_eq!(
            fields(&api),
            [
                "x: Option<X>",
                "w: W",
                "e: Option<E>",
                "v: Option<V>",
                "nothing: Nothing"
            ]
        );
        // A chain back to itself is left out (read as any JSON value), and ends.
        let api = built(
            "3.0.3",
            &[
                "L: {allOf: [{$ref: '#/components/schemas/M'}]}",
                "M: {allOf: [{$ref: '#/components/schemas/L'}]}",
            ],
            &["l: {$ref: '#/components/schemas/L'}"],
        );
        assert_eq!(fields(&api), ["l: L"]);
    }
}
