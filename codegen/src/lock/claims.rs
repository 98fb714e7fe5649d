//! [`Names`]: the one owner of every name the names lock records, and the one way to claim any
//! of them (smithy-rs's `RustSymbolProvider`: one place answers every item's Rust name).
//!
//! The IR claims model types, enum and union variants and operations through it; the surface
//! claims `Client`'s entry points and streams, the fake's expectations and the support types
//! through it, continuing from the lock the IR settled ([`Names::continue_from`]); the names
//! lock the crate writes is [`Names::into_lock`] of the last stage. The local scopes no lock
//! records (a struct's setters, a query struct's, an emitted body's locals) are opened here
//! too, from the reserved lists of [`crate::reserved`].

use std::collections::BTreeMap;

use super::{LockedNamespace, NameLock};
use crate::Error;
use crate::error::Pointer;
use crate::names::{self, Namespace};
use crate::reserved::{
    CLIENT_METHODS, COMMON_METHOD_NAMES, FAKE_METHODS, FALLBACK_VARIANT, FIXED_TYPE_NAMES,
    RESERVED_ARGUMENT_NAMES, RESERVED_TYPE_NAMES, reserved_method_names,
};
use crate::runtime_traits::TraitNames;

/// Every scope the lock records, each honouring what the last generation gave.
pub(crate) struct Names {
    /// The lock as this stage was given it.
    given: NameLock,
    types: LockedNamespace,
    variants: BTreeMap<String, BTreeMap<String, String>>,
    operations: BTreeMap<String, String>,
    client: Scope,
    fake: Scope,
    support_types: Scope,
}

/// One scope of names (a type's methods, a module's types, a body's locals): locked where the
/// lock records the scope, with its reserved names taken.
pub(crate) struct Scope {
    scope: LockedNamespace,
    separator: &'static str,
}

impl Scope {
    /// A scope of snake_case names with `reserved` taken.
    pub(crate) fn snake<'r>(
        locked: Option<&BTreeMap<String, String>>,
        reserved: impl IntoIterator<Item = &'r str>,
    ) -> Self {
        Scope {
            scope: LockedNamespace::new(locked, reserved),
            separator: "_",
        }
    }

    /// A scope of UpperCamelCase names with `reserved` taken.
    pub(crate) fn camel<'r>(
        locked: Option<&BTreeMap<String, String>>,
        reserved: impl IntoIterator<Item = &'r str>,
    ) -> Self {
        Scope {
            scope: LockedNamespace::new(locked, reserved),
            separator: "",
        }
    }

    /// [`Scope::claim`] for an item with several readable names, best first: the first free.
    pub(crate) fn claim_first(&mut self, identity: &str, wanted: &[&str]) -> String {
        self.scope.claim_first(identity, wanted, self.separator)
    }

    /// `identity`'s locked name, else `wanted`, else `wanted` with the first free number
    /// (`environment_metrics_2`, `EnvironmentMetricsOperation2`).
    pub(crate) fn claim(&mut self, identity: &str, wanted: &str) -> String {
        self.scope.claim(identity, wanted, self.separator)
    }

    /// Takes `name` for an item named elsewhere, ahead of any locked identity holding it
    /// (see [`LockedNamespace::take`]).
    pub(crate) fn take(&mut self, name: &str) -> bool {
        self.scope.take(name)
    }

    fn into_lock(self) -> BTreeMap<String, String> {
        self.scope.into_lock()
    }
}

/// Whether an `operationId`'s snake_case name can be a `Client` method: not one every client
/// has (`new`, `request`) nor one of the traits' (`clone`), which would shadow them, and not a
/// name made only of the placeholder `snake_ident` gives to a word-less id.
fn is_free_operation_name(name: &str) -> bool {
    let bare = name.trim_matches('_');
    !bare.is_empty()
        && name != "value"
        && !CLIENT_METHODS.contains(&name)
        && !COMMON_METHOD_NAMES.contains(&name)
}

/// The variants of one enum or union being named (see [`Names::variant_scope`]).
pub(crate) struct VariantScope(LockedNamespace);

impl Names {
    /// The IR's start: every scope from `given`, nothing claimed.
    pub(crate) fn new(given: &NameLock) -> Names {
        Names {
            types: LockedNamespace::new(
                Some(&given.types),
                RESERVED_TYPE_NAMES.iter().chain(FIXED_TYPE_NAMES).copied(),
            ),
            variants: BTreeMap::new(),
            operations: BTreeMap::new(),
            client: Scope::snake(
                Some(&given.client_methods),
                CLIENT_METHODS.iter().chain(COMMON_METHOD_NAMES).copied(),
            ),
            fake: Scope::snake(
                Some(&given.fake_methods),
                FAKE_METHODS.iter().chain(COMMON_METHOD_NAMES).copied(),
            ),
            support_types: Scope::camel(
                Some(&given.support_types),
                FIXED_TYPE_NAMES.iter().chain(RESERVED_TYPE_NAMES).copied(),
            ),
            given: given.clone(),
        }
    }

    /// The surface's start: the lock the IR settled, whose types, variants, operations and
    /// areas pass through, with `model_types` (the IR's types and query structs) taken from
    /// the support types.
    pub(crate) fn continue_from<'t>(
        settled: &NameLock,
        model_types: impl IntoIterator<Item = &'t str>,
    ) -> Names {
        let mut names = Names::new(settled);
        names.variants = settled.variants.clone();
        names.operations = settled.operations.clone();
        names.support_types = Scope::camel(
            Some(&settled.support_types),
            model_types
                .into_iter()
                .chain(FIXED_TYPE_NAMES.iter().copied())
                .chain(RESERVED_TYPE_NAMES.iter().copied()),
        );
        names
    }

    /// Takes `name` from the model types and the support types: a type the crate defines whatever
    /// the document says (the fake, named after the API).
    pub(crate) fn take_fixed_type(&mut self, name: &str) {
        self.types.take(name);
        self.support_types.take(name);
    }

    /// A model type's name, by the identity (JSON pointer) of what it is made for.
    pub(crate) fn claim_type(&mut self, identity: &str, wanted: &str) -> String {
        self.types.claim(identity, wanted, "")
    }

    /// The scope of the variants of the enum or union `owner`, with [`FALLBACK_VARIANT`] taken.
    pub(crate) fn variant_scope(&self, owner: &str) -> VariantScope {
        VariantScope(LockedNamespace::new(
            self.given.variants.get(owner),
            [FALLBACK_VARIANT],
        ))
    }

    /// The Rust name of a listed value or tag: its locked name, else its UpperCamelCase
    /// spelling, and `UnknownValue` (not `Unknown2`) for one spelled like the fallback.
    pub(crate) fn claim_variant(scope: &mut VariantScope, wire: &str) -> String {
        Self::claim_variant_spelled(scope, wire, wire)
    }

    /// The Rust name of the tag `wire` (its lock key), spelled from `spelling` where no name is
    /// locked: a variant several tags decode as is named after its payload, not one of them.
    pub(crate) fn claim_variant_spelled(
        scope: &mut VariantScope,
        wire: &str,
        spelling: &str,
    ) -> String {
        let wanted = names::camel_ident(spelling, "V");
        let wanted = if wanted == FALLBACK_VARIANT {
            format!("{FALLBACK_VARIANT}Value")
        } else {
            wanted
        };
        scope.0.claim(wire, &wanted, "")
    }

    /// Records the variants named in `scope` for `owner`.
    pub(crate) fn keep_variants(&mut self, owner: &str, scope: VariantScope) {
        self.variants.insert(owner.to_owned(), scope.0.into_lock());
    }

    /// `twin` has `original`'s variants (a request twin of a response type).
    pub(crate) fn copy_variants(&mut self, original: &str, twin: &str) {
        if let Some(variants) = self.variants.get(original).cloned() {
            self.variants.insert(twin.to_owned(), variants);
        }
    }

    /// Method names of the document's operations, given as `(method, path, operationId)`: the
    /// config's `overrides` first (by `"METHOD /path"`), then locked names, then the
    /// `operationId` in snake_case where the document gives one (and it is not a name every
    /// `Client` has), else a name derived from method + path; colliding names add their path
    /// parameters (`_by_x`), then a number, in document order.
    pub(crate) fn name_operations(
        &mut self,
        found: &[(&str, &str, Option<&str>)],
        overrides: &BTreeMap<String, String>,
    ) -> Result<Vec<String>, Error> {
        let keys: Vec<String> = found
            .iter()
            .map(|(method, path, _)| format!("{} {path}", method.to_ascii_uppercase()))
            .collect();
        for key in overrides.keys() {
            if !keys.contains(key) {
                return Err(Error::Config {
                    pointer: Pointer::root()
                        .join("operation_names")
                        .join(key)
                        .to_string(),
                    reason: format!("no operation {key} in the document"),
                });
            }
        }
        let mut taken = Namespace::new();
        for name in overrides.values() {
            if taken.contains(name) {
                return Err(Error::Config {
                    pointer: "#/operation_names".into(),
                    reason: format!("two operations are named {name:?}"),
                });
            }
            taken.claim(name, "");
        }
        // Locked names stay with their operations (and retired ones stay retired), unless the
        // config names the operation, or gives the name to another, explicitly.
        let mut locked: BTreeMap<&str, &str> = BTreeMap::new();
        for (key, name) in &self.given.operations {
            if !overrides.contains_key(key) && !taken.contains(name) {
                taken.reserve(name);
                locked.insert(key, name);
            }
        }
        // Entry points and streams keep the names they were given: an operation that would take
        // one takes the longer name, as beside a locked operation.
        for name in self.given.client_methods.values() {
            if !taken.contains(name) {
                taken.reserve(name);
            }
        }
        let derived: Vec<String> = found
            .iter()
            .map(|(method, path, operation_id)| {
                operation_id
                    .map(names::snake_ident)
                    .filter(|name| is_free_operation_name(name))
                    .unwrap_or_else(|| names::operation_name(method, path))
            })
            .collect();
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for (key, name) in keys.iter().zip(&derived) {
            if !overrides.contains_key(key) && !locked.contains_key(key.as_str()) {
                *counts.entry(name.as_str()).or_default() += 1;
            }
        }
        let mut result = Vec::with_capacity(found.len());
        let mut given = BTreeMap::new();
        for ((key, name), (_, path, _)) in keys.iter().zip(&derived).zip(found) {
            if let Some(chosen) = overrides.get(key) {
                result.push(chosen.clone());
                continue;
            }
            if let Some(locked) = locked.get(key.as_str()) {
                given.insert(key.clone(), (*locked).to_owned());
                result.push((*locked).to_owned());
                continue;
            }
            // A newcomer whose name a locked operation holds takes the longer name, never the
            // holder.
            let collides =
                counts.get(name.as_str()).is_some_and(|count| *count > 1) || taken.contains(name);
            let wanted = match names::path_parameters(path) {
                parameters if collides && !parameters.is_empty() => {
                    format!(
                        "{name}_by_{}",
                        parameters
                            .iter()
                            .map(|p| names::snake_ident(p).trim_matches('_').to_owned())
                            .collect::<Vec<_>>()
                            .join("_and_")
                    )
                }
                _ => name.clone(),
            };
            let claimed = taken.claim(&wanted, "_");
            given.insert(key.clone(), claimed.clone());
            result.push(claimed);
        }
        // Retired: operations gone from the document keep their names out of reach.
        for (key, name) in &self.given.operations {
            if !given.values().any(|given| given == name) && !overrides.values().any(|n| n == name)
            {
                given.entry(key.clone()).or_insert_with(|| name.clone());
            }
        }
        self.operations = given;
        Ok(result)
    }

    /// Takes an operation's method name on `Client` (named by [`Names::name_operations`]);
    /// `false` when `Client` has the name already.
    pub(crate) fn take_client_method(&mut self, name: &str) -> bool {
        self.client.take(name)
    }

    /// `Client`'s methods beside the operations' (entry points, streams).
    pub(crate) fn client_methods(&mut self) -> &mut Scope {
        &mut self.client
    }

    /// The fake's expectations.
    pub(crate) fn fake_methods(&mut self) -> &mut Scope {
        &mut self.fake
    }

    /// The support types beside `Client`.
    pub(crate) fn support_types(&mut self) -> &mut Scope {
        &mut self.support_types
    }

    /// A struct's setters and clearers: every name an inherent method of a model must not
    /// take reserved. No lock: the names follow from the struct's own fields.
    pub(crate) fn struct_methods(extension_traits: &[TraitNames]) -> Namespace {
        Namespace::with_reserved(reserved_method_names(extension_traits))
    }

    /// A struct's fields (the document's properties): no lock, the names follow from the
    /// properties.
    pub(crate) fn struct_fields() -> Namespace {
        Namespace::new()
    }

    /// The variants of an untagged or key-told union, named after their members: no lock, the
    /// names follow from the members.
    pub(crate) fn union_variants() -> Namespace {
        Namespace::new()
    }

    /// The variants of an integer enum, named after their values: the fallback's name reserved.
    pub(crate) fn int_enum_variants() -> Namespace {
        Namespace::with_reserved([FALLBACK_VARIANT])
    }

    /// An operation's arguments: the locals of the emitted methods reserved.
    pub(crate) fn arguments() -> Namespace {
        Namespace::with_reserved(RESERVED_ARGUMENT_NAMES.iter().copied())
    }

    /// A query struct's fields, its parameters' argument names made distinct.
    pub(crate) fn query_fields() -> Namespace {
        Namespace::new()
    }

    /// The constants of `client::servers`, named after the servers' descriptions.
    pub(crate) fn server_constants() -> Namespace {
        Namespace::new()
    }

    /// A query struct's setters: the names every type has reserved.
    pub(crate) fn query_setters() -> Namespace {
        Namespace::with_reserved(COMMON_METHOD_NAMES.iter().copied())
    }

    /// The locals of one emitted body, free of its arguments' names.
    pub(crate) fn body_scope<'p>(arguments: impl IntoIterator<Item = &'p str>) -> Scope {
        Scope::snake(None, arguments)
    }

    /// What the IR settled, for the surface to continue from: the types and operations
    /// `keep_type` and `keep_operation` keep (with every locked identity: names kept or
    /// retired), the variants named, the `areas` assigned, and the surface's scopes as given.
    pub(crate) fn settle_ir(
        self,
        keep_type: impl Fn(&str, &str) -> bool,
        keep_operation: impl Fn(&str) -> bool,
        areas: BTreeMap<String, String>,
    ) -> NameLock {
        let given = self.given;
        let mut types = self.types.into_lock();
        types.retain(|identity, name| {
            keep_type(identity, name) || given.types.contains_key(identity)
        });
        let mut operations = self.operations;
        operations.retain(|key, name| keep_operation(name) || given.operations.contains_key(key));
        NameLock {
            types,
            operations,
            variants: self.variants,
            client_methods: given.client_methods,
            fake_methods: given.fake_methods,
            support_types: given.support_types,
            areas,
            // The IR's sharing pass fills it in.
            shared: BTreeMap::new(),
            held: BTreeMap::new(),
        }
    }

    /// The lock to write: what the IR settled, with the surface's scopes as claimed now.
    pub(crate) fn into_lock(self) -> NameLock {
        NameLock {
            types: self.given.types,
            operations: self.operations,
            variants: self.variants,
            client_methods: self.client.into_lock(),
            fake_methods: self.fake.into_lock(),
            support_types: self.support_types.into_lock(),
            areas: self.given.areas,
            shared: self.given.shared,
            held: self.given.held,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{NameLock, Names, Namespace, RESERVED_ARGUMENT_NAMES};

    fn map(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
        entries
            .iter()
            .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
            .collect()
    }

    /// The surface continues from what the IR settled: the IR's sections come back as they
    /// were, its model types are taken from the support types, and the lock it writes holds
    /// both stages' names (no merge elsewhere).
    #[test]
    fn the_surface_continues_from_the_lock_the_ir_settled() {
        let mut ir = Names::new(&NameLock::default());
        let usage = ir.claim_type("#/components/schemas/Usage", "Usage");
        let mut variants = ir.variant_scope("Usage");
        assert_eq!(
            Names::claim_variant(&mut variants, "unknown"),
            "UnknownValue"
        );
        ir.keep_variants("Usage", variants);
        let operations = ir
            .name_operations(&[("GET", "/v1/usage", None)], &BTreeMap::new())
            .unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(operations, ["get_usage"]);
        let settled = ir.settle_ir(|_, _| true, |_| true, map(&[("GET /v1/usage", "usage")]));
        let mut surface = Names::continue_from(&settled, [usage.as_str()]);
        assert!(surface.take_client_method("get_usage"));
        assert!(!surface.take_client_method("get_usage"));
        assert!(!surface.take_client_method("clone"));
        assert_eq!(
            surface
                .support_types()
                .claim("metrics GET /v1/usage", "Usage"),
            "Usage2"
        );
        assert_eq!(
            surface
                .fake_methods()
                .claim("GET /v1/usage", "on_get_usage"),
            "on_get_usage"
        );
        let lock = surface.into_lock();
        assert_eq!(lock.types, settled.types);
        assert_eq!(lock.operations, map(&[("GET /v1/usage", "get_usage")]));
        assert_eq!(lock.variants["Usage"], map(&[("unknown", "UnknownValue")]));
        assert_eq!(lock.areas, settled.areas);
        assert_eq!(
            lock.support_types,
            map(&[("metrics GET /v1/usage", "Usage2")])
        );
        assert_eq!(lock.fake_methods, map(&[("GET /v1/usage", "on_get_usage")]));
    }

    /// Each local scope the IR names in starts with exactly its reservations: the integer
    /// enum's fallback, the emitted methods' locals for arguments, nothing for the rest; a
    /// second claim of one name takes the next suffix in every scope.
    #[test]
    fn each_ir_scope_starts_with_its_reservations() {
        assert_eq!(Names::int_enum_variants().claim("Unknown", ""), "Unknown2");
        assert_eq!(Names::int_enum_variants().claim("V200", ""), "V200");
        let mut arguments = Names::arguments();
        for local in RESERVED_ARGUMENT_NAMES {
            let base = local.trim_end_matches('_');
            assert_eq!(arguments.claim(local, "_"), format!("{base}_2"));
        }
        assert_eq!(arguments.claim("model_id", "_"), "model_id");
        // A model's setters stay clear of its own methods and every trait method it has.
        let mut methods = Names::struct_methods(&[]);
        for reserved in crate::reserved::reserved_method_names(&[]) {
            let claimed = methods.claim(reserved, "_");
            assert_ne!(claimed, reserved, "{reserved}");
        }
        assert_eq!(methods.claim("replica_count", "_"), "replica_count");
        let open: [fn() -> Namespace; 4] = [
            Names::struct_fields,
            Names::union_variants,
            Names::query_fields,
            Names::server_constants,
        ];
        for scope in open {
            let mut scope = scope();
            for name in ["Unknown", "query", "value", "PRODUCTION"] {
                assert_eq!(scope.claim(name, "_"), name);
            }
            assert_eq!(scope.claim("query", "_"), "query_2");
        }
    }
}
