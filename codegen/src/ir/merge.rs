//! `allOf`: merging a composition into one struct, following one-member wrappers, and refusing
//! compositions that contain themselves.

use super::*;

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

    pub(super) fn merge_all_of(
        &mut self,
        members: &'a [ReferenceOr<Schema>],
        pointer: &Pointer,
    ) -> Result<Option<ObjectParts<'a>>, Error> {
        let mut merged = ObjectParts {
            properties: Vec::new(),
            required: BTreeSet::new(),
            additional: None,
        };
        for (i, member) in members.iter().enumerate() {
            let member_pointer = pointer.join("allOf").join(i);
            let schema = match SchemaAt::of(member) {
                SchemaAt::Ref(reference) => self.component(reference, &member_pointer)?.1,
                SchemaAt::Item(schema) => schema,
            };
            let Some(parts) = object_parts(schema) else {
                self.note(
                    &member_pointer,
                    "`allOf` with a non-object member is lowered to serde_json::Value",
                );
                return Ok(None);
            };
            for (name, property) in parts.properties {
                if let Some(slot) = merged
                    .properties
                    .iter_mut()
                    .find(|(existing, _)| *existing == name)
                {
                    slot.1 = property;
                } else {
                    merged.properties.push((name, property));
                }
            }
            merged.required.extend(parts.required);
        }
        Ok(Some(merged))
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
}
