//! `allOf`: merging a composition into one struct, following one-member wrappers, and refusing
//! compositions that contain themselves.

use std::collections::{HashMap, HashSet};

use openapiv3::{ReferenceOr, Schema, SchemaKind};

use super::convert::object_parts;
use super::values::{ValuePlace, ValueReason};
use super::{Builder, ObjectParts, SCHEMAS, SchemaAt};
use crate::Error;
use crate::error::Pointer;

impl<'a> Builder<'a> {
    /// `A: allOf[$ref B]`, `B: allOf[$ref A]` never reaches a schema of its own. A walk stops
    /// at a component an earlier walk already followed to its end, so a long chain of such
    /// wrappers costs its length once, not once per link.
    pub(super) fn check_composition_cycle(
        &mut self,
        key: &'a str,
        schema: &'a Schema,
        pointer: &Pointer,
    ) -> Result<(), Error> {
        let mut chain = vec![format!("{SCHEMAS}{key}")];
        let mut seen: HashSet<String> = chain.iter().cloned().collect();
        let mut walked = vec![key];
        let mut current = schema;
        while let SchemaKind::AllOf { all_of } = &current.schema_kind {
            let reference = match all_of.as_slice() {
                [ReferenceOr::Reference { reference }] => reference,
                // An inline one-member wrapper: look inside it (finite, as the document is),
                // so a cycle through it (`A: allOf [{allOf [$ref A]}]`) is caught here too.
                [ReferenceOr::Item(inline)] => {
                    current = inline;
                    continue;
                }
                _ => break,
            };
            let repeated = !seen.insert(reference.clone());
            chain.push(reference.clone());
            if repeated {
                return Err(Error::RefCycle {
                    pointer: pointer.to_string(),
                    chain,
                });
            }
            let (next_key, next) = self.component(reference, pointer)?;
            if self.settled_compositions.contains(next_key) {
                break;
            }
            walked.push(next_key);
            current = next;
        }
        self.settled_compositions.extend(walked);
        Ok(())
    }

    /// The object an `allOf` of several members stands for: every member's properties (a member
    /// that is itself a composition flattened first, at any depth), later ones overriding
    /// earlier ones, and every member's required names. `None`, with a note at the member, when
    /// a member is not an object or the composition contains itself.
    pub(super) fn merge_all_of(
        &mut self,
        members: &'a [ReferenceOr<Schema>],
        pointer: &Pointer,
    ) -> Result<Option<ObjectParts<'a>>, Error> {
        let mut targets = Vec::with_capacity(members.len());
        for (i, member) in members.iter().enumerate() {
            let member_pointer = pointer.join("allOf").join(i);
            let target = self.member_target(member, &member_pointer)?;
            if composition(target).is_some() {
                // Worked out (and paid for) before this composition's own size is known.
                let _worked_out = self.flattened(target, &member_pointer)?;
            }
            targets.push((member_pointer, target));
        }
        let size = targets
            .iter()
            .map(|(_, target)| self.merged_size(target))
            .sum();
        if !self.spend_merged_fields(size) {
            self.typed_as_value(pointer, ValueReason::AllOf, OVER_BUDGET);
            return Ok(None);
        }
        let mut merged = Merged::default();
        for (member_pointer, target) in targets {
            let parts = match composition(target) {
                Some(_) => self.flattened(target, &member_pointer)?,
                None => object_parts(target).ok_or(NOT_AN_OBJECT),
            };
            match parts {
                Ok(parts) => merged.add(parts),
                Err(reason) => {
                    self.note(&member_pointer, reason);
                    // The place typed `serde_json::Value` is the composition, not the member.
                    self.values.push(ValuePlace {
                        pointer: pointer.to_string(),
                        reason: ValueReason::AllOf,
                        detail: format!("{reason} (member {member_pointer})"),
                    });
                    return Ok(None);
                }
            }
        }
        Ok(Some(merged.parts))
    }

    /// The schema an `allOf` member stands for, through `$ref`s and one-member `allOf`s.
    pub(super) fn member_target(
        &self,
        member: &'a ReferenceOr<Schema>,
        pointer: &Pointer,
    ) -> Result<&'a Schema, Error> {
        let schema = self.resolve(SchemaAt::of(member), pointer)?;
        self.through_single_all_of(schema, pointer)
    }

    /// The flattened object of a composition (an `allOf` of several members), worked out once
    /// per schema and kept: without a stack of calls (a chain of thousands of levels is walked
    /// by a loop), each composition merged once from its members' results, so a chain or tree
    /// costs its size (times its fields), not its size squared in walks.
    pub(super) fn flattened(
        &mut self,
        root: &'a Schema,
        pointer: &Pointer,
    ) -> Result<Result<ObjectParts<'a>, &'static str>, Error> {
        let key = |schema: &Schema| std::ptr::from_ref(schema);
        let mut stack: Vec<&'a Schema> = vec![root];
        let mut open: HashSet<*const Schema> = HashSet::from([key(root)]);
        while let Some(&top) = stack.last() {
            if self.flattened.contains_key(&key(top)) {
                stack.pop();
                continue;
            }
            let members = composition(top).unwrap_or_default();
            let mut targets = Vec::with_capacity(members.len());
            let mut waiting = None;
            let mut cyclic = false;
            for member in members {
                let target = self.member_target(member, pointer)?;
                if composition(target).is_some() && !self.flattened.contains_key(&key(target)) {
                    if open.contains(&key(target)) {
                        cyclic = true;
                        break;
                    }
                    waiting = Some(target);
                    break;
                }
                targets.push(target);
            }
            if let Some(next) = waiting {
                open.insert(key(next));
                stack.push(next);
                continue;
            }
            let size = targets.iter().map(|target| self.merged_size(target)).sum();
            let result = if cyclic {
                Err(CONTAINS_ITSELF)
            } else if !self.spend_merged_fields(size) {
                Err(OVER_BUDGET)
            } else {
                let mut merged = Merged::default();
                let mut result = Ok(());
                for target in targets {
                    let parts = match composition(target) {
                        Some(_) => self
                            .flattened
                            .get(&key(target))
                            .cloned()
                            .unwrap_or(Err(CONTAINS_ITSELF)),
                        None => object_parts(target).ok_or(NOT_AN_OBJECT),
                    };
                    match parts {
                        Ok(parts) => merged.add(parts),
                        Err(reason) => {
                            result = Err(reason);
                            break;
                        }
                    }
                }
                result.map(|()| merged.parts)
            };
            self.flattened.insert(key(top), result);
            open.remove(&key(top));
            stack.pop();
        }
        Ok(self
            .flattened
            .get(&key(root))
            .cloned()
            .unwrap_or(Err(CONTAINS_ITSELF)))
    }

    /// Every component that inherits from the component at `base` through `allOf` `$ref`s, at
    /// any depth (`Dog: allOf [Mammal]`, `Mammal: allOf [Animal]`), in document order. The
    /// index of who names whom is built once per generation.
    pub(super) fn heirs_of(&mut self, base: &str) -> Vec<&'a String> {
        let spec = self.spec;
        let index = self.heirs.get_or_insert_with(|| {
            let mut index: HashMap<&'a str, Vec<&'a String>> = HashMap::new();
            for (key, schema) in spec.components.iter().flat_map(|c| c.schemas.iter()) {
                let ReferenceOr::Item(Schema {
                    schema_kind: SchemaKind::AllOf { all_of },
                    ..
                }) = schema
                else {
                    continue;
                };
                for member in all_of {
                    if let ReferenceOr::Reference { reference } = member {
                        index.entry(reference.as_str()).or_default().push(key);
                    }
                }
            }
            index
        });
        let mut found: HashSet<&'a String> = HashSet::new();
        let mut queue: Vec<String> = vec![base.to_owned()];
        while let Some(reference) = queue.pop() {
            for heir in index.get(reference.as_str()).into_iter().flatten() {
                if found.insert(heir) {
                    queue.push(Pointer::to(&["components", "schemas", heir]));
                }
            }
        }
        spec.components
            .iter()
            .flat_map(|c| c.schemas.keys())
            .filter(|key| found.contains(key))
            .collect()
    }

    /// Follows one-member `allOf`s (through `$ref`s) to the schema they wrap. A chain that comes
    /// back to a schema it passed (`A: allOf [$ref A]`) is an error naming the place, not an
    /// endless loop: parameters can reach such a chain before the composition check does.
    pub(super) fn through_single_all_of(
        &self,
        mut schema: &'a Schema,
        pointer: &Pointer,
    ) -> Result<&'a Schema, Error> {
        let mut passed: HashSet<*const Schema> = HashSet::new();
        while let SchemaKind::AllOf { all_of } = &schema.schema_kind {
            let [single] = all_of.as_slice() else { break };
            if !passed.insert(std::ptr::from_ref(schema)) {
                return Err(Error::Unsupported {
                    pointer: pointer.to_string(),
                    reason: "a chain of one-member `allOf`s that leads back to itself".into(),
                });
            }
            schema = self.resolve(SchemaAt::of(single), pointer)?;
        }
        Ok(schema)
    }

    /// The fields merging `target` as an `allOf` member copies (an upper bound: a name given
    /// twice counts twice), without copying them: a composition's flattened object, worked out
    /// before, or an object's properties.
    fn merged_size(&self, target: &'a Schema) -> usize {
        match composition(target) {
            Some(_) => self
                .flattened
                .get(&std::ptr::from_ref(target))
                .and_then(|parts| parts.as_ref().ok())
                .map_or(0, |parts| parts.properties.len()),
            None => object_parts(target).map_or(0, |parts| parts.properties.len()),
        }
    }

    /// Takes `fields` from what is left of the document's budget of merged fields (see
    /// [`merged_fields_budget`]); false, taking nothing, when they do not fit.
    fn spend_merged_fields(&mut self, fields: usize) -> bool {
        let spent = self.merged_fields.saturating_add(fields);
        if spent > self.merged_fields_budget {
            return false;
        }
        self.merged_fields = spent;
        true
    }
}

/// How many fields the `allOf` merges of a document may copy in all: a chain of compositions
/// each adding a field to the one before (`L2: allOf [L1, {f2}]`, …) copies its length squared
/// fields, and so do many heirs of one large base; flattened, a 80 kB chain made 2.3 million
/// lines. Every copy counts: a composition's flattened object kept for its heirs, and the
/// struct it becomes. The budget is a fixed floor, 4 times the most any of 57 public documents
/// uses (pagerduty's 2,479), plus one copy of every property the document's components
/// declare: merges at most double the fields a document emits, so its crate's cost stays
/// linear in the document (each copied field is about ten emitted lines; at 60,000 copies a
/// 100 kB chain emitted 387,000 lines that took 6 GiB to check). A composition past it is
/// lowered to `serde_json::Value` with a note naming it, as one that cannot be merged is.
pub(super) fn merged_fields_budget(spec: &openapiv3::OpenAPI) -> usize {
    let declared: usize = spec
        .components
        .iter()
        .flat_map(|components| components.schemas.values())
        .filter_map(|schema| schema.as_item())
        .map(|schema| match &schema.schema_kind {
            SchemaKind::AllOf { all_of } => all_of
                .iter()
                .filter_map(ReferenceOr::as_item)
                .filter_map(object_parts)
                .map(|parts| parts.properties.len())
                .sum(),
            _ => object_parts(schema).map_or(0, |parts| parts.properties.len()),
        })
        .sum();
    MERGED_FIELDS_FLOOR.saturating_add(declared.saturating_mul(MERGED_FIELDS_PER_DECLARED))
}

const MERGED_FIELDS_FLOOR: usize = 10_000;
const MERGED_FIELDS_PER_DECLARED: usize = 1;

const OVER_BUDGET: &str = "an `allOf` past the document's budget of merged fields (chains or \
     many heirs of compositions copy fields quadratically) is lowered to serde_json::Value";
const NOT_AN_OBJECT: &str = "`allOf` with a non-object member is lowered to serde_json::Value";
const CONTAINS_ITSELF: &str = "an `allOf` that contains itself is lowered to serde_json::Value";

/// The members of an `allOf` of several members.
fn composition(schema: &Schema) -> Option<&[ReferenceOr<Schema>]> {
    match &schema.schema_kind {
        SchemaKind::AllOf { all_of } if all_of.len() > 1 => Some(all_of),
        _ => None,
    }
}

/// Object parts merged member by member: a property named again replaces the earlier one in
/// its place (found by name in constant time), required names add up.
#[derive(Default)]
struct Merged<'a> {
    parts: ObjectParts<'a>,
    index: HashMap<&'a str, usize>,
}

impl<'a> Merged<'a> {
    fn add(&mut self, parts: ObjectParts<'a>) {
        for (name, property) in parts.properties {
            match self.index.get(name.as_str()) {
                Some(&at) => self.parts.properties[at].1 = property,
                None => {
                    self.index
                        .insert(name.as_str(), self.parts.properties.len());
                    self.parts.properties.push((name, property));
                }
            }
        }
        self.parts.required.extend(parts.required);
    }
}

#[cfg(test)]
mod tests {
    use crate::Input;

    /// A chain of compositions that each add a field copies its length squared fields. Merged until
    /// the document's budget of copies is spent (10,000, plus 1 per property its components declare:
    /// here 10,400), counting each level's flattened object kept for its heir and its own struct:
    /// after level `n`, `n² + 2n - 1` copies. Level 100 fits (10,199), level 101 does not (10,402):
    /// from there on each level is `serde_json::Value`, with a note.
    #[test]
    fn an_allof_chain_past_the_merge_budget_is_values_with_notes() {
        const LEVELS: usize = 400;
        let mut spec = String::from(
            "openapi: 3.1.0\ninfo: {title: chain, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    L0: {type: object, properties: {f0: {type: string}}}\n",
        );
        for level in 1..LEVELS {
            spec.push_str(&format!(
                "    L{level}: {{allOf: [{{$ref: '#/components/schemas/L{}'}}, {{type: object, properties: {{f{level}: {{type: integer}}}}}}]}}\n",
                level - 1
            ));
        }
        let input = Input {
            spec_path: "chain.yaml",
            spec_text: &spec,
            config_text: None,
        };
        let (api, notes) = crate::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
        for level in [1, 2, 50, 99, 100] {
            match api.types.get(&format!("L{level}")) {
                Some(crate::ir::TypeDef::Struct(def)) => {
                    assert_eq!(def.fields.len(), level + 1, "L{level}");
                }
                other => panic!("L{level} is {other:?}"),
            }
        }
        for level in [101, 102, LEVELS - 1] {
            assert!(
                !matches!(
                    api.types.get(&format!("L{level}")),
                    Some(crate::ir::TypeDef::Struct(_))
                ),
                "L{level} is a struct"
            );
        }
        // Every level left out is noted, at the member it could not merge (while what is left of
        // the budget pays for the level's own field) or at the composition (when it no longer
        // does; the level where the two meet has both), and no level that fits is.
        let mut noted = std::collections::BTreeSet::new();
        for note in &notes {
            let level = note
                .pointer
                .strip_prefix("#/components/schemas/L")
                .map(|rest| rest.trim_end_matches("/allOf/0"))
                .and_then(|level| level.parse::<usize>().ok())
                .unwrap_or_else(|| panic!("{note}"));
            assert!(note.message.contains("budget of merged fields"), "{note}");
            noted.insert(level);
        }
        assert_eq!(noted, (101..LEVELS).collect(), "{notes:?}");
        assert!(notes.len() <= LEVELS - 101 + 1, "{notes:?}");
    }

    /// Many heirs of one large base copy it each: a base of 999 properties and 251 heirs adding one
    /// each declare 1,250 properties, a budget of 11,250 copies, and each heir costs 1,000. The
    /// first 11 fit (11,000) and are structs; every later one is `serde_json::Value` with a note
    /// at its composition.
    #[test]
    fn heirs_of_a_large_base_past_the_merge_budget_are_values_with_notes() {
        const HEIRS: usize = 251;
        let properties: Vec<String> = (0..999)
            .map(|p| format!("p{p}: {{type: string}}"))
            .collect();
        let mut spec = format!(
            "openapi: 3.1.0\ninfo: {{title: heirs, version: '1'}}\npaths: {{}}\ncomponents:\n  schemas:\n    Big: {{type: object, properties: {{{}}}}}\n",
            properties.join(", ")
        );
        for heir in 0..HEIRS {
            spec.push_str(&format!(
                "    H{heir}: {{allOf: [{{$ref: '#/components/schemas/Big'}}, {{type: object, properties: {{own{heir}: {{type: integer}}}}}}]}}\n"
            ));
        }
        let input = Input {
            spec_path: "heirs.yaml",
            spec_text: &spec,
            config_text: None,
        };
        let (api, notes) = crate::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
        let is_struct = |name: &str| {
            matches!(
                api.types.get(name),
                Some(crate::ir::TypeDef::Struct(def)) if def.fields.len() == 1_000
            )
        };
        assert!((0..11).all(|heir| is_struct(&format!("H{heir}"))));
        assert!((11..HEIRS).all(|heir| !is_struct(&format!("H{heir}"))));
        let noted: Vec<String> = notes.iter().map(|note| note.pointer.clone()).collect();
        let expected: Vec<String> = (11..HEIRS)
            .map(|heir| format!("#/components/schemas/H{heir}"))
            .collect();
        assert_eq!(noted, expected);
        assert!(
            notes
                .iter()
                .all(|note| note.message.contains("budget of merged fields"))
        );
    }
}
