//! The runtime traits the emitted code implements, with the names of their items: the one place
//! those names are spelled. Extensions bind the names from here when they render an impl, the
//! reserved method names (`crate::reserved`) take the methods of the ones models implement, and
//! a test there reads the runtime's source with `syn` and checks each entry against the trait
//! it names, so renaming a trait's method in the runtime fails a test rather than the build of
//! a generated crate.
//!
//! Below every stage: it imports nothing.

/// One runtime trait as the emitted code names it. The arrays are fixed-size so a renderer binds
/// every name at once (`let [a, b] = TRAIT.methods.map(ident);`): the order here is the
/// renderers' and need not follow the runtime's.
#[derive(Debug)]
pub(crate) struct RuntimeTrait<const TYPES: usize, const METHODS: usize> {
    /// Its path under the runtime's root, as the emitted code writes it after `rt::`.
    pub(crate) path: &'static str,
    /// The file under `codegen/runtime/src` that declares it.
    pub(crate) source: &'static str,
    /// Its associated types.
    pub(crate) types: [&'static str; TYPES],
    /// Its methods and associated functions.
    pub(crate) methods: [&'static str; METHODS],
}

/// A [`RuntimeTrait`] without its sizes, for lists of them. The generator itself reads only the
/// methods (the reserved names); the test against the runtime reads the rest.
#[derive(Debug, Clone, Copy)]
#[cfg_attr(
    not(test),
    expect(dead_code, reason = "read by the test against the runtime")
)]
pub(crate) struct TraitNames {
    pub(crate) path: &'static str,
    pub(crate) source: &'static str,
    pub(crate) types: &'static [&'static str],
    pub(crate) methods: &'static [&'static str],
}

impl<const TYPES: usize, const METHODS: usize> RuntimeTrait<TYPES, METHODS> {
    /// The names, as a list entry.
    pub(crate) const fn names(&'static self) -> TraitNames {
        TraitNames {
            path: self.path,
            source: self.source,
            types: &self.types,
            methods: &self.methods,
        }
    }
}

/// An index-mapped metrics response: its window, mode, step and its two lists.
pub(crate) static INDEX_MAPPED_RESPONSE: RuntimeTrait<2, 7> = RuntimeTrait {
    path: "IndexMappedResponse",
    source: "metrics/index_mapped.rs",
    types: ["Descriptor", "ValueSet"],
    methods: [
        "window_start_millis",
        "window_end_millis",
        "mode_str",
        "mode",
        "step_seconds",
        "descriptors",
        "value_sets",
    ],
};

/// One descriptor of an index-mapped response.
pub(crate) static INDEX_MAPPED_DESCRIPTOR: RuntimeTrait<0, 5> = RuntimeTrait {
    path: "IndexMappedDescriptor",
    source: "metrics/index_mapped.rs",
    types: [],
    methods: ["name", "unit_hint_str", "unit", "kind_str", "label_sets"],
};

/// One value set of an index-mapped response.
pub(crate) static INDEX_MAPPED_VALUE_SET: RuntimeTrait<0, 2> = RuntimeTrait {
    path: "IndexMappedValueSet",
    source: "metrics/index_mapped.rs",
    types: [],
    methods: ["start_epoch_millis", "values"],
};

/// A struct read from a JSON object's fields: what the runtime's `struct_deserialize!`
/// implements behind every struct's `Deserialize`.
pub(crate) static FROM_FIELDS: RuntimeTrait<0, 1> = RuntimeTrait {
    path: "__private::FromFields",
    source: "struct_de.rs",
    types: [],
    methods: ["from_fields"],
};

/// What a typestate metrics request sends through: implemented on a support struct beside
/// `Client`, never on a model.
pub(crate) static METRICS_OPERATION: RuntimeTrait<1, 1> = RuntimeTrait {
    path: "MetricsOperation",
    source: "requests.rs",
    types: ["Response"],
    methods: ["send"],
};

/// The traits the emitted code implements on every model struct: each method is a name no
/// setter or clearer may take, or it would shadow the trait's for users. (The traits an
/// extension implements on models it reserves itself: [`INDEX_MAPPED_TRAITS`] the metrics
/// extension's.)
pub(crate) static MODEL_TRAITS: [TraitNames; 1] = [FROM_FIELDS.names()];

/// The alignment traits the metrics extension implements on index-mapped responses, reserved
/// by it on every struct.
pub(crate) static INDEX_MAPPED_TRAITS: [TraitNames; 3] = [
    INDEX_MAPPED_RESPONSE.names(),
    INDEX_MAPPED_DESCRIPTOR.names(),
    INDEX_MAPPED_VALUE_SET.names(),
];

/// The traits the emitted code implements on its own support types (read by the test only:
/// their names are reserved by the support types' own scope).
#[cfg(test)]
pub(crate) static SUPPORT_TRAITS: [TraitNames; 1] = [METRICS_OPERATION.names()];
