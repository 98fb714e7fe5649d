//! The crate's Cargo features, decided once: each API area (see `ir::areas`) compiles its
//! operations, the types they reach and the value types those hold (`jiff` for dates, `decimal`
//! for money); `full` compiles every area and the types no operation reaches. Features only
//! add items: a type is the same type whichever feature brought it in.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::{Api, Operation, TypeDef, TypeRef};

/// The feature that compiles every area, and what no operation reaches.
pub(crate) const FULL: &str = "full";
/// The runtime's date and time types (`primitives::jiff`).
pub(crate) const JIFF: &str = "jiff";
/// The runtime's exact decimal (`primitives::Decimal`).
pub(crate) const DECIMAL: &str = "decimal";

/// The optional value types a set of types holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Needs {
    pub(crate) jiff: bool,
    pub(crate) decimal: bool,
}

impl Needs {
    fn add(&mut self, other: Needs) {
        self.jiff |= other.jiff;
        self.decimal |= other.decimal;
    }

    /// The features that bring these value types in.
    fn features(self) -> impl Iterator<Item = &'static str> {
        [(self.jiff, JIFF), (self.decimal, DECIMAL)]
            .into_iter()
            .filter_map(|(needed, feature)| needed.then_some(feature))
    }

    /// What one type use holds directly (not through named types).
    fn of(ty: &TypeRef) -> Needs {
        match ty {
            TypeRef::Timestamp | TypeRef::Date => Needs {
                jiff: true,
                decimal: false,
            },
            TypeRef::Decimal => Needs {
                jiff: false,
                decimal: true,
            },
            TypeRef::Vec(inner)
            | TypeRef::Map(inner)
            | TypeRef::Option(inner)
            | TypeRef::Indirect(inner) => Needs::of(inner),
            TypeRef::String
            | TypeRef::Integer
            | TypeRef::Unsigned
            | TypeRef::Number
            | TypeRef::Boolean
            | TypeRef::Json
            | TypeRef::Bytes
            | TypeRef::Named(_) => Needs::default(),
        }
    }

    /// What a type definition's own fields, variants or target hold directly.
    fn of_def(def: &TypeDef) -> Needs {
        let mut needs = Needs::default();
        def.held_types()
            .into_iter()
            .for_each(|ty| needs.add(Needs::of(ty)));
        needs
    }
}

/// A type reached by more areas than this is gated by the value types those areas share instead
/// of by the areas: each gate is then at most a few features whatever the document, where
/// listing every area made a gate per item grow with the number of areas (a hub type reached by
/// every area of a large document repeated hundreds of feature names on each of its items).
/// Such a type compiles in some builds that do not use it; it is never missing from one that does.
pub(crate) const MAX_GATE_AREAS: usize = 8;

/// Which features compile an item.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum FeatureGate {
    /// Any one of these areas, or `full` alone when the set is empty.
    Areas(BTreeSet<String>),
    /// A type shared by more than [`MAX_GATE_AREAS`] areas: every one of these value types'
    /// features (none: always compiled). Every area reaching the type enables them all.
    WidelyShared(Needs),
}

impl FeatureGate {
    /// The features that compile the item: any one of them for areas, all of them for a widely
    /// shared type (none: always compiled).
    pub(crate) fn features(&self) -> Vec<&str> {
        match self {
            FeatureGate::Areas(areas) if areas.is_empty() => vec![FULL],
            FeatureGate::Areas(areas) => areas.iter().map(String::as_str).collect(),
            FeatureGate::WidelyShared(needs) => needs.features().collect(),
        }
    }

    /// `#[cfg(feature = "a")]`, `#[cfg(any(feature = "a", feature = "b"))]`, or for a widely
    /// shared type `#[cfg(all(..))]` of its value types (nothing when it needs none).
    pub(crate) fn attribute(&self) -> TokenStream {
        let features = self.features();
        match (self, features.as_slice()) {
            (_, []) => TokenStream::new(),
            (_, [one]) => quote!(#[cfg(feature = #one)]),
            (FeatureGate::Areas(_), _) => quote!(#[cfg(any(#(feature = #features),*))]),
            (FeatureGate::WidelyShared(_), _) => quote!(#[cfg(all(#(feature = #features),*))]),
        }
    }

    /// Whether a build with exactly `features` on compiles the item.
    pub(crate) fn admits(&self, features: &BTreeSet<&str>) -> bool {
        let mut gate = self.features().into_iter();
        match self {
            FeatureGate::Areas(_) => gate.any(|feature| features.contains(feature)),
            FeatureGate::WidelyShared(_) => gate.all(|feature| features.contains(feature)),
        }
    }

    /// The features of each smallest build that compiles the item: one per feature of any
    /// one, one of all of them.
    pub(crate) fn smallest_builds(&self) -> Vec<Vec<&str>> {
        let features = self.features();
        match self {
            FeatureGate::Areas(_) => features.into_iter().map(|feature| vec![feature]).collect(),
            FeatureGate::WidelyShared(_) => vec![features],
        }
    }

    /// In words: `feature a or b`, `features jiff and decimal`.
    pub(crate) fn describe(&self) -> String {
        let mut features = self.features();
        features.sort_unstable();
        match self {
            FeatureGate::WidelyShared(_) if features.len() > 1 => {
                format!("features {}", features.join(" and "))
            }
            FeatureGate::WidelyShared(_) => format!("feature {}", features.join(" and ")),
            FeatureGate::Areas(_) => format!("feature {}", features.join(" or ")),
        }
    }
}

/// One area's feature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Area {
    /// Its operations, as `METHOD /path`, in the IR's order.
    pub(crate) operations: Vec<String>,
    /// The value types its operations and types hold.
    pub(crate) needs: Needs,
}

/// The areas reaching one type: each of them while there are at most [`MAX_GATE_AREAS`], past
/// that only that there are more (so a document's areas × types never all need holding).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Reaching {
    areas: BTreeSet<String>,
    widely_shared: bool,
}

impl Reaching {
    /// Adds `area`; whether anything changed.
    fn add(&mut self, area: &str) -> bool {
        if self.widely_shared || self.areas.contains(area) {
            return false;
        }
        self.areas.insert(area.to_owned());
        if self.areas.len() > MAX_GATE_AREAS {
            self.mark_widely_shared();
        }
        true
    }

    /// Past the limit; whether anything changed.
    fn mark_widely_shared(&mut self) -> bool {
        let changed = !self.widely_shared;
        self.widely_shared = true;
        self.areas.clear();
        changed
    }

    /// Adds everything `other` holds; whether anything changed.
    fn extend(&mut self, other: &Reaching) -> bool {
        if other.widely_shared {
            return self.mark_widely_shared();
        }
        let mut changed = false;
        for area in &other.areas {
            changed |= self.add(area);
        }
        changed
    }
}

/// The named types `ty` holds directly (through containers, not through other named types).
fn named_in<'t>(ty: &'t TypeRef, out: &mut Vec<&'t str>) {
    match ty {
        TypeRef::Named(name) => out.push(name),
        TypeRef::Vec(inner)
        | TypeRef::Map(inner)
        | TypeRef::Option(inner)
        | TypeRef::Indirect(inner) => named_in(inner, out),
        _ => {}
    }
}

/// The named types a definition's fields, variants or target hold directly: the edges
/// `ir::reachable` walks.
fn referents(def: &TypeDef) -> Vec<&str> {
    let mut out = Vec::new();
    def.held_types()
        .into_iter()
        .for_each(|ty| named_in(ty, &mut out));
    out
}

/// What each type holds through every type it reaches, its own fields included: a worklist over
/// the reversed edges, so each type is revisited only when its needs grow (at most twice).
fn transitive_needs(api: &Api) -> BTreeMap<&str, Needs> {
    let mut needs: BTreeMap<&str, Needs> = api
        .types
        .iter()
        .map(|(name, def)| (name.as_str(), Needs::of_def(def)))
        .collect();
    let mut holders: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (name, def) in &api.types {
        for referent in referents(def) {
            holders.entry(referent).or_default().push(name);
        }
    }
    let mut pending: Vec<&str> = api.types.keys().map(String::as_str).collect();
    while let Some(name) = pending.pop() {
        let held = needs.get(name).copied().unwrap_or_default();
        for &holder in holders.get(name).map(Vec::as_slice).unwrap_or_default() {
            if let Some(theirs) = needs.get_mut(holder) {
                let before = *theirs;
                theirs.add(held);
                if *theirs != before {
                    pending.push(holder);
                }
            }
        }
    }
    needs
}

/// Every feature of the crate and every item's gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Features {
    /// Each area by feature name.
    pub(crate) areas: BTreeMap<String, Area>,
    /// The areas reaching each type, by type name (none: no operation reaches it).
    types: BTreeMap<String, Reaching>,
    /// What each type holds through everything it reaches.
    needs: BTreeMap<String, Needs>,
    /// The value types of the types no operation reaches, which `full` brings in itself.
    unreached: Needs,
}

impl Features {
    /// The features of `api`: each operation's area (`Operation::area`) reaches its types. The
    /// areas flow along the type graph from each operation's roots, each type taking at most
    /// [`MAX_GATE_AREAS`] + 1 of them: linear in the graph, whatever the number of areas.
    pub(crate) fn of(api: &Api) -> Features {
        let needs = transitive_needs(api);
        let mut areas: BTreeMap<String, Area> = BTreeMap::new();
        let mut types: BTreeMap<String, Reaching> = api
            .types
            .keys()
            .map(|name| (name.clone(), Reaching::default()))
            .collect();
        // (type, area) pairs to record; `None`: more areas than a gate lists.
        let mut pending: Vec<(&str, Option<&str>)> = Vec::new();
        for operation in &api.operations {
            let area = areas.entry(operation.area.clone()).or_insert(Area {
                operations: Vec::new(),
                needs: Needs::default(),
            });
            area.operations.push(super::operation_identity(operation));
            let mut named = Vec::new();
            for root in operation.type_roots() {
                area.needs.add(Needs::of(root));
                named_in(root, &mut named);
            }
            for name in named {
                area.needs.add(needs.get(name).copied().unwrap_or_default());
                pending.push((name, Some(operation.area.as_str())));
            }
        }
        while let Some((name, area)) = pending.pop() {
            let Some(reaching) = types.get_mut(name) else {
                continue;
            };
            let changed = match area {
                Some(area) => reaching.add(area),
                None => reaching.mark_widely_shared(),
            };
            if !changed {
                continue;
            }
            let passed_on = if reaching.widely_shared { None } else { area };
            if let Some(def) = api.types.get(name) {
                pending.extend(
                    referents(def)
                        .into_iter()
                        .map(|referent| (referent, passed_on)),
                );
            }
        }
        // A shared type's aliases no longer hold what their own definitions held (the
        // canonical type's twins instead): those keep the areas that reached the alias.
        let mut changed = true;
        while changed {
            changed = false;
            for (alias, held) in &api.shared {
                let Some(reaching) = types.get(alias).cloned() else {
                    continue;
                };
                for name in held {
                    if let Some(theirs) = types.get_mut(name) {
                        changed |= theirs.extend(&reaching);
                    }
                }
            }
        }
        let mut unreached = Needs::default();
        for (name, reaching) in &types {
            if reaching.areas.is_empty()
                && !reaching.widely_shared
                && let Some(def) = api.types.get(name)
            {
                unreached.add(Needs::of_def(def));
            }
        }
        Features {
            areas,
            types,
            needs: needs
                .into_iter()
                .map(|(name, needs)| (name.to_owned(), needs))
                .collect(),
            unreached,
        }
    }

    /// The gate of the type `name` (`full` for a name the IR does not hold).
    pub(crate) fn type_gate(&self, name: &str) -> FeatureGate {
        match self.types.get(name) {
            None => FeatureGate::Areas(BTreeSet::new()),
            // What the type holds through everything it reaches: every area reaching it
            // reaches all of that, so enables those features.
            Some(reaching) if reaching.widely_shared => {
                FeatureGate::WidelyShared(self.needs.get(name).copied().unwrap_or_default())
            }
            Some(reaching) => FeatureGate::Areas(reaching.areas.clone()),
        }
    }

    /// The gate of an operation's own items: its method, query struct, streams, expectation.
    pub(crate) fn operation_gate(operation: &Operation) -> FeatureGate {
        FeatureGate::Areas(BTreeSet::from([operation.area.clone()]))
    }

    /// What each feature of the crate turns on besides itself, as its `[features]` table
    /// says: `full` every area and the value types of the types no operation reaches, an area
    /// the value types it needs. The change report reads gates through it: a type once gated
    /// by its areas and now by the value types they all enable is in every build it was in.
    pub(crate) fn enabled_by(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut enables: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let full = enables.entry(FULL.to_owned()).or_default();
        full.extend(self.areas.keys().cloned());
        full.extend(self.unreached.features().map(str::to_owned));
        for (name, area) in &self.areas {
            enables
                .entry(name.clone())
                .or_default()
                .extend(area.needs.features().map(str::to_owned));
        }
        enables
    }

    /// The lines of the crate's `[features]` table this model decides: `full`, one per area,
    /// `jiff` and `decimal`, each with a comment saying what it compiles. `runtime` is the
    /// runtime's package name as the manifest spells it.
    pub(crate) fn cargo_features(&self, runtime: &str) -> String {
        let mut text = String::new();
        let mut full: Vec<&str> = self.areas.keys().map(String::as_str).collect();
        for feature in self.unreached.features() {
            full.push(feature);
        }
        text.push_str("# Every API area, and the schemas no operation uses (on by default).\n");
        let _ = writeln!(text, "{FULL} = {}", list(&full));
        for (name, area) in &self.areas {
            let shown: Vec<&str> = area.operations.iter().take(3).map(String::as_str).collect();
            let more = if area.operations.len() > shown.len() {
                format!(" and {} more", area.operations.len() - shown.len())
            } else {
                String::new()
            };
            let _ = writeln!(text, "# {}{more}.", comment_text(&shown.join(", ")));
            let needs: Vec<&str> = area.needs.features().collect();
            let _ = writeln!(text, "{name} = {}", list(&needs));
        }
        let _ = writeln!(
            text,
            "# Dates and times (`primitives::jiff`), for the areas whose types hold them.\n\
             {JIFF} = [\"{runtime}/jiff\"]\n\
             # Exact decimals (`primitives::Decimal`), for the areas whose types hold them.\n\
             {DECIMAL} = [\"{runtime}/decimal\"]"
        );
        text
    }
}

/// Document text as a TOML comment: a path may hold a line break, which would end the comment.
fn comment_text(text: &str) -> String {
    let mut comment = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            comment.extend(c.escape_default());
        } else {
            comment.push(c);
        }
    }
    comment
}

fn list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|item| format!("{item:?}")).collect();
    format!("[{}]", quoted.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOCUMENT: &str = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /v1/metrics:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Series'}}}}
  /v1/bills/{day}:
    get:
      parameters:
        - {name: day, in: path, required: true, schema: {type: string, format: date}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Bill'}}}}
  /v1/shared:
    post:
      tags: [Shared Things]
      requestBody:
        content: {application/json: {schema: {$ref: '#/components/schemas/Point'}}}
      responses: {'204': {description: none}}
components:
  schemas:
    Series:
      type: object
      properties: {points: {type: array, items: {$ref: '#/components/schemas/Point'}}}
    Point:
      type: object
      properties: {value: {type: number}}
    Bill:
      type: object
      properties:
        total: {anyOf: [{type: number}, {type: string, format: decimal}]}
    Orphan:
      type: object
      properties: {at: {type: string, format: date-time}}
"#;

    fn features() -> (Features, Api) {
        let (api, _) = crate::build_ir(&crate::Input {
            spec_path: "t.yaml",
            spec_text: DOCUMENT,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"));
        (Features::of(&api), api)
    }

    #[test]
    fn each_type_is_gated_by_the_areas_reaching_it() {
        let (features, api) = features();
        let areas: Vec<(&str, &str)> = api
            .operations
            .iter()
            .map(|op| (op.path.as_str(), op.area.as_str()))
            .collect();
        assert_eq!(
            areas,
            [
                ("/v1/bills/{day}", "bills"),
                ("/v1/metrics", "metrics"),
                ("/v1/shared", "shared-things"),
            ]
        );
        let gate = |name: &str| features.type_gate(name).features().join(",");
        assert_eq!(gate("Series"), "metrics");
        assert_eq!(gate("Point"), "metrics,shared-things");
        assert_eq!(gate("Orphan"), "full");
        assert_eq!(gate("NoSuchType"), "full");
        assert_eq!(
            features.type_gate("Point").attribute().to_string(),
            quote!(#[cfg(any(feature = "metrics", feature = "shared-things"))]).to_string()
        );
        assert_eq!(
            features.type_gate("Series").attribute().to_string(),
            quote!(#[cfg(feature = "metrics")]).to_string()
        );
        assert_eq!(
            crate::surface::listing::gate_text(&features.type_gate("Point")),
            "feature=metrics|shared-things"
        );
    }

    #[test]
    fn each_area_needs_the_value_types_its_operations_reach() {
        let (features, _) = features();
        let needs = |area: &str| features.areas[area].needs;
        // A date path parameter and a decimal field of the response.
        assert_eq!(
            needs("bills"),
            Needs {
                jiff: true,
                decimal: true
            }
        );
        assert_eq!(needs("metrics"), Needs::default());
        assert_eq!(needs("shared-things"), Needs::default());
        assert_eq!(
            features.unreached,
            Needs {
                jiff: true,
                decimal: false
            }
        );
        let text = features.cargo_features("rt-crate");
        assert_eq!(
            text,
            "# Every API area, and the schemas no operation uses (on by default).\n\
             full = [\"bills\", \"metrics\", \"shared-things\", \"jiff\"]\n\
             # GET /v1/bills/{day}.\n\
             bills = [\"jiff\", \"decimal\"]\n\
             # GET /v1/metrics.\n\
             metrics = []\n\
             # POST /v1/shared.\n\
             shared-things = []\n\
             # Dates and times (`primitives::jiff`), for the areas whose types hold them.\n\
             jiff = [\"rt-crate/jiff\"]\n\
             # Exact decimals (`primitives::Decimal`), for the areas whose types hold them.\n\
             decimal = [\"rt-crate/decimal\"]\n"
        );
    }

    #[test]
    fn an_area_comment_names_three_operations_and_escapes_line_breaks() {
        let mut features = Features {
            areas: BTreeMap::new(),
            types: BTreeMap::new(),
            needs: BTreeMap::new(),
            unreached: Needs::default(),
        };
        features.areas.insert(
            "a".to_owned(),
            Area {
                operations: ["GET /1", "GET /2\nx = 1", "GET /3", "GET /4"]
                    .map(str::to_owned)
                    .to_vec(),
                needs: Needs::default(),
            },
        );
        let text = features.cargo_features("r");
        assert!(
            text.contains("# GET /1, GET /2\\nx = 1, GET /3 and 1 more.\na = []\n"),
            "{text}"
        );
        assert!(text.starts_with(
            "# Every API area, and the schemas no operation uses (on by default).\nfull = [\"a\"]\n"
        ));
    }
}

#[cfg(test)]
mod shared_tests {
    use super::*;

    /// Two areas, each with an inline relationship holding an inline kind enum, alike in both.
    const DOCUMENT: &str = r#"
openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /v1/apps:
    get:
      tags: [apps]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {rel: {type: object, properties: {kind: {type: string, enum: [apps]}}}}}}}}
  /v1/builds:
    get:
      tags: [builds]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {rel: {type: object, properties: {kind: {type: string, enum: [apps]}}}}}}}}
"#;

    #[test]
    fn what_a_shared_types_alias_held_keeps_the_areas_that_reached_the_alias() {
        let (api, _) = crate::build_ir(&crate::Input {
            spec_path: "t.yaml",
            spec_text: DOCUMENT,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"));
        let features = Features::of(&api);
        let gate = |name: &str| features.type_gate(name).features().join("|");
        assert_eq!(
            api.shared.keys().collect::<Vec<_>>(),
            [
                "GetBuildsResponse",
                "GetBuildsResponseRel",
                "GetBuildsResponseRelKind"
            ],
            "{:?}",
            api.types.keys()
        );
        // The canonical types: both areas reach them, through the aliases.
        assert_eq!(gate("GetAppsResponseRel"), "apps|builds");
        assert_eq!(gate("GetAppsResponseRelKind"), "apps|builds");
        // The aliases: their own area, even the kind no type holds any more.
        assert_eq!(gate("GetBuildsResponseRel"), "builds");
        assert_eq!(gate("GetBuildsResponseRelKind"), "builds");
    }

    #[test]
    fn what_an_alias_held_passes_its_areas_on_whatever_the_order_of_the_names() {
        let (mut api, _) = crate::build_ir(&crate::Input {
            spec_path: "t.yaml",
            spec_text: DOCUMENT,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"));
        // A chain whose first link sorts last: `GetBuildsResponseRel` held `AHeld`, which held
        // `BHeld` (names a lock may have given).
        for name in ["AHeld", "BHeld"] {
            let def = crate::ir::TypeDef::Alias(crate::ir::AliasDef {
                name: name.into(),
                doc: None,
                ty: TypeRef::String,
            });
            api.types.insert(name.into(), def);
        }
        api.shared
            .insert("GetBuildsResponseRel".into(), vec!["AHeld".into()]);
        api.shared.insert("AHeld".into(), vec!["BHeld".into()]);
        let features = Features::of(&api);
        assert_eq!(features.type_gate("AHeld").features(), ["builds"]);
        assert_eq!(features.type_gate("BHeld").features(), ["builds"]);
    }
}

#[cfg(test)]
mod widely_shared_tests {
    use super::*;

    /// `areas` areas, each with one operation returning `Hub` (which holds `Leaf`, whose field
    /// is a date when `dated`); the first area also reaches `Own`, a decimal of its own.
    fn features(areas: usize, dated: bool) -> Features {
        let leaf = if dated {
            "{type: string, format: date-time}"
        } else {
            "{type: string}"
        };
        let mut text = String::from("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n");
        for area in 0..areas {
            let schema = if area == 0 { "Own" } else { "Hub" };
            text.push_str(&format!(
                "  /a{area}:\n    get:\n      tags: [a{area}]\n      responses:\n        '200': \
                 {{description: ok, content: {{application/json: {{schema: {{$ref: \
                 '#/components/schemas/{schema}'}}}}}}}}\n"
            ));
        }
        text.push_str(&format!(
            "components:\n  schemas:\n    Own:\n      type: object\n      properties:\n        \
             hub: {{$ref: '#/components/schemas/Hub'}}\n        \
             total: {{type: string, format: decimal}}\n    Hub:\n      type: object\n      \
             properties: {{leaf: {{$ref: '#/components/schemas/Leaf'}}}}\n    Leaf:\n      \
             type: object\n      properties: {{at: {leaf}}}\n"
        ));
        let (api, _) = crate::build_ir(&crate::Input {
            spec_path: "t.yaml",
            spec_text: &text,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"));
        Features::of(&api)
    }

    #[test]
    fn a_type_reached_by_at_most_the_limit_lists_its_areas() {
        let features = features(MAX_GATE_AREAS, true);
        let gate = features.type_gate("Hub");
        assert!(matches!(gate, FeatureGate::Areas(ref areas) if areas.len() == MAX_GATE_AREAS));
        assert_eq!(gate.features().len(), MAX_GATE_AREAS);
        assert!(crate::surface::listing::gate_text(&gate).starts_with("feature=a0|a1|"));
    }

    #[test]
    fn a_type_reached_by_more_is_gated_by_the_value_types_every_area_enables() {
        let features = features(MAX_GATE_AREAS + 1, true);
        for name in ["Hub", "Leaf"] {
            let gate = features.type_gate(name);
            // What the type holds through what it reaches: the date, not the first area's decimal.
            assert_eq!(
                gate,
                FeatureGate::WidelyShared(Needs {
                    jiff: true,
                    decimal: false
                })
            );
            assert_eq!(
                gate.attribute().to_string(),
                quote!(#[cfg(feature = "jiff")]).to_string()
            );
            assert_eq!(crate::surface::listing::gate_text(&gate), "feature=jiff");
        }
        // A type of one area keeps its area.
        assert_eq!(
            crate::surface::listing::gate_text(&features.type_gate("Own")),
            "feature=a0"
        );
        for area in features.areas.values() {
            assert!(area.needs.jiff, "every area reaching Hub enables jiff");
        }
    }

    #[test]
    fn a_widely_shared_type_holding_no_value_type_is_always_compiled() {
        let features = features(MAX_GATE_AREAS + 1, false);
        let gate = features.type_gate("Hub");
        assert_eq!(gate, FeatureGate::WidelyShared(Needs::default()));
        assert!(gate.attribute().is_empty());
        assert!(gate.features().is_empty());
        assert_eq!(crate::surface::listing::gate_text(&gate), "");
    }

    #[test]
    fn a_widely_shared_type_needing_both_value_types_needs_both_features() {
        let gate = FeatureGate::WidelyShared(Needs {
            jiff: true,
            decimal: true,
        });
        assert_eq!(
            gate.attribute().to_string(),
            quote!(#[cfg(all(feature = "jiff", feature = "decimal"))]).to_string()
        );
        assert_eq!(
            crate::surface::listing::gate_text(&gate),
            "feature=jiff&decimal"
        );
        let areas = FeatureGate::Areas(BTreeSet::from(["a".to_owned(), "b".to_owned()]));
        assert_eq!(
            areas.attribute().to_string(),
            quote!(#[cfg(any(feature = "a", feature = "b"))]).to_string()
        );
    }
}

#[cfg(test)]
mod reaching_tests {
    use super::*;

    #[test]
    fn reaching_keeps_areas_up_to_the_limit_then_only_that_there_are_more() {
        let mut reaching = Reaching::default();
        for area in 0..MAX_GATE_AREAS {
            assert!(reaching.add(&format!("a{area}")));
        }
        assert!(!reaching.add("a0"), "an area already held changes nothing");
        assert_eq!(reaching.areas.len(), MAX_GATE_AREAS);
        assert!(!reaching.widely_shared);
        assert!(reaching.add("one-more"));
        assert!(reaching.widely_shared);
        assert!(reaching.areas.is_empty());
        assert!(!reaching.add("another"), "past the limit nothing changes");
        assert!(!reaching.mark_widely_shared());
    }

    #[test]
    fn extending_passes_areas_or_wide_sharing_on() {
        let mut from = Reaching::default();
        from.add("a");
        let mut to = Reaching::default();
        assert!(to.extend(&from));
        assert!(!to.extend(&from), "nothing new the second time");
        assert_eq!(to.areas, BTreeSet::from(["a".to_owned()]));
        from.mark_widely_shared();
        assert!(to.extend(&from));
        assert!(to.widely_shared);
        assert!(!to.extend(&from));
    }

    /// `A` holds `B` holds `C` (a date) and `B` holds `A` back: needs flow up a chain and around a
    /// cycle.
    #[test]
    fn what_a_type_holds_through_what_it_reaches_flows_up_chains_and_cycles() {
        let (api, _) = crate::build_ir(&crate::Input {
            spec_path: "t.yaml",
            spec_text: "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n\
                        components:\n  schemas:\n    A: {type: object, properties: {b: {$ref: \
                        '#/components/schemas/B'}}}\n    B: {type: object, properties: {c: \
                        {type: array, items: {$ref: '#/components/schemas/C'}}, a: {$ref: \
                        '#/components/schemas/A'}}}\n    C: {type: object, properties: {at: \
                        {type: string, format: date-time}}}\n    D: {type: object, properties: \
                        {n: {type: integer}}}\n",
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"));
        let needs = transitive_needs(&api);
        let dated = Needs {
            jiff: true,
            decimal: false,
        };
        for name in ["A", "B", "C"] {
            assert_eq!(needs.get(name), Some(&dated), "{name}");
        }
        assert_eq!(needs.len(), api.types.len(), "every type has its needs");
    }
}
