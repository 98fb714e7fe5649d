//! Where the document declares a structure but the crate types it `serde_json::Value`: recorded
//! as data by the stage that makes the choice, so a count (the corpus's `values` column) reads
//! the model, never the emitted text.
//!
//! Only structure counts: a schema with no type, a free-form object or an array without `items`
//! declares none, and `serde_json::Value` is its exact type.

use std::collections::BTreeSet;
use std::fmt;

/// Why a structure the document declares is typed `serde_json::Value`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ValueReason {
    /// A `oneOf`/`anyOf` whose members no tag, JSON kind, required key or value tells apart.
    Union,
    /// An `allOf` that cannot be merged into one object (a non-object member, one that
    /// contains itself, or past the document's budget of merged fields).
    AllOf,
    /// A `not`.
    Not,
    /// Keywords that do not fit the schema's `type` (an `enum` of objects, say).
    KeywordsMismatch,
    /// Inline schemas that reach themselves through `$ref`s past the nesting limit.
    NestedTooDeep,
    /// Two 2xx responses of one operation with different schemas.
    ResponsesDiffer,
    /// A schema left out (a dangling `$ref`, a `$ref` cycle, an invalid keyword): read as any
    /// JSON value.
    LeftOut,
    /// A type that contains itself only through arrays or maps of itself.
    RecursiveAlias,
}

impl ValueReason {
    /// A short stable label (the corpus's detail listing groups by it).
    pub fn label(self) -> &'static str {
        match self {
            ValueReason::Union => "union",
            ValueReason::AllOf => "allOf",
            ValueReason::Not => "not",
            ValueReason::KeywordsMismatch => "keywords-mismatch",
            ValueReason::NestedTooDeep => "nested-too-deep",
            ValueReason::ResponsesDiffer => "responses-differ",
            ValueReason::LeftOut => "left-out",
            ValueReason::RecursiveAlias => "recursive-alias",
        }
    }
}

impl fmt::Display for ValueReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// One place of the document typed `serde_json::Value` although it declares a structure.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ValuePlace {
    /// The JSON pointer of the schema (or response) typed `serde_json::Value`.
    pub pointer: String,
    /// The class of reason.
    pub reason: ValueReason,
    /// The reason in words (document text: escape it wherever it is shown as code).
    pub detail: String,
}

impl fmt::Display for ValuePlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}] {}", self.pointer, self.reason, self.detail)
    }
}

/// One place per pointer (a schema reached twice is one place; the first reason is kept),
/// sorted by pointer, and only places the crate still holds: a component schema pruned away
/// (with its inline schemas) holds none.
pub(crate) fn settle(places: Vec<ValuePlace>, kept_components: &BTreeSet<&str>) -> Vec<ValuePlace> {
    let mut seen = BTreeSet::new();
    let mut settled: Vec<ValuePlace> = places
        .into_iter()
        .filter(|place| seen.insert(place.pointer.clone()))
        .filter(|place| match component_key(&place.pointer) {
            Some(key) => kept_components.contains(key.as_str()),
            None => true,
        })
        .collect();
    settled.sort();
    settled
}

/// The component key a pointer lies under (`#/components/schemas/Key/...` → `Key`), its
/// JSON-pointer escapes undone.
fn component_key(pointer: &str) -> Option<String> {
    let rest = pointer.strip_prefix("#/components/schemas/")?;
    let token = rest.split('/').next().unwrap_or(rest);
    Some(token.replace("~1", "/").replace("~0", "~"))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::{ValuePlace, ValueReason, settle};

    /// One structure of each class typed `serde_json::Value`, beside what declares no
    /// structure (no type, a free-form object, an array without `items`: not counted) and
    /// structures the crate types exactly (not counted either).
    const DOCUMENT: &str = r##"
openapi: 3.1.0
info: {title: values, version: '1'}
paths:
  /things:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
        '201':
          description: created
          content:
            application/json:
              schema: {type: object, properties: {other: {type: string}}}
components:
  schemas:
    Thing:
      type: object
      properties:
        same_kind:
          oneOf:
            - {type: string, pattern: '^a'}
            - {type: string, pattern: '^b'}
        annotated:
          allOf:
            - $ref: '#/components/schemas/Exact'
            - {type: string}
        negated: {not: {type: string}}
        dangling: {$ref: '#/components/schemas/Missing'}
        anything: {}
        free: {type: object}
        list: {type: array}
        exact: {$ref: '#/components/schemas/Exact'}
        kinds: {oneOf: [{type: string}, {type: integer}]}
    Exact:
      type: object
      properties: {x: {type: integer}}
"##;

    fn places_of(document: &str) -> Vec<(String, ValueReason)> {
        let (api, _) = crate::build_ir(&crate::Input {
            spec_path: "values.yaml",
            spec_text: document,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"));
        api.values
            .into_iter()
            .map(|place| (place.pointer, place.reason))
            .collect()
    }

    #[test]
    fn counts_each_structure_typed_as_value_once_with_its_reason() {
        let thing = "#/components/schemas/Thing/properties";
        assert_eq!(
            places_of(DOCUMENT),
            vec![
                (format!("{thing}/annotated"), ValueReason::AllOf),
                (format!("{thing}/dangling"), ValueReason::LeftOut),
                (format!("{thing}/negated"), ValueReason::Not),
                (format!("{thing}/same_kind"), ValueReason::Union),
                (
                    "#/paths/~1things/get/responses/201/content".to_owned(),
                    ValueReason::ResponsesDiffer
                ),
            ]
        );
    }

    fn place(pointer: &str, reason: ValueReason) -> ValuePlace {
        ValuePlace {
            pointer: pointer.to_owned(),
            reason,
            detail: String::new(),
        }
    }

    /// The first reason at a pointer stays, pruned components go, other places stay sorted.
    #[test]
    fn one_place_per_pointer_and_only_kept_components() {
        let kept: BTreeSet<&str> = ["A", "a/b"].into_iter().collect();
        let settled = settle(
            vec![
                place(
                    "#/paths/~1x/get/responses/200",
                    ValueReason::ResponsesDiffer,
                ),
                place("#/components/schemas/A/properties/u", ValueReason::Union),
                place("#/components/schemas/A/properties/u", ValueReason::AllOf),
                place("#/components/schemas/Gone", ValueReason::Not),
                place("#/components/schemas/a~1b/not", ValueReason::Not),
            ],
            &kept,
        );
        assert_eq!(
            settled,
            vec![
                place("#/components/schemas/A/properties/u", ValueReason::Union),
                place("#/components/schemas/a~1b/not", ValueReason::Not),
                place(
                    "#/paths/~1x/get/responses/200",
                    ValueReason::ResponsesDiffer
                ),
            ]
        );
    }
}
