//! Rust-level semver: a document change that is additive on the wire (an optional field, an enum
//! value, a union tag) is additive for users too. Emitted types are `#[non_exhaustive]` and built
//! with `new(required…)` plus setters, and the fallback variant is always `Unknown`.
//!
//! The emitted constructors and setters of one fixture document, checked as text; the fallback
//! name, checked on documents that list a value spelled `Unknown`; and user code written against
//! one version of a generated crate, compiled by cargo against it and against the next version.

use std::path::Path;

use baseten_codegen::ir::TypeDef;
use baseten_codegen::{CrateSettings, Input};

/// Two structs with every kind of field (required, required nullable, optional, boxed, a name
/// that a method of the struct already has), a write-only one (its optional nullable fields are
/// `Patch`), an all-optional one, an open enum and a tagged union.
fn document(extra_field: bool, extra_values: bool) -> String {
    let color = if extra_field {
        "\n        color: {type: string}"
    } else {
        ""
    };
    let update_color = if extra_field {
        "\n        color: {type: [string, \"null\"]}"
    } else {
        ""
    };
    let values = if extra_values {
        "[ACTIVE, Unknown, PAUSED]"
    } else {
        "[ACTIVE]"
    };
    let square = if extra_values {
        "\n        - $ref: \"#/components/schemas/Square\""
    } else {
        ""
    };
    format!(
        r##"openapi: 3.1.0
info: {{title: semver, version: "1"}}
paths:
  /things/{{id}}:
    patch:
      parameters:
        - {{name: id, in: path, required: true, schema: {{type: string}}}}
        - {{name: dry_run, in: query, schema: {{type: boolean}}}}
      requestBody:
        required: true
        content: {{application/json: {{schema: {{$ref: "#/components/schemas/ThingUpdate"}}}}}}
      responses:
        "200":
          description: ok
          content: {{application/json: {{schema: {{$ref: "#/components/schemas/Thing"}}}}}}
components:
  schemas:
    Status:
      type: string
      enum: {values}
    Circle:
      type: object
      required: [kind, radius]
      properties:
        kind: {{type: string}}
        radius: {{type: number}}
    Square:
      type: object
      required: [kind, side]
      properties:
        kind: {{type: string}}
        side: {{type: number}}
    Shape:
      oneOf:
        - $ref: "#/components/schemas/Circle"{square}
      discriminator:
        propertyName: kind
        mapping: {{circle: "#/components/schemas/Circle", square: "#/components/schemas/Square"}}
    Thing:
      type: object
      required: [id, status, note, shape, origin]
      properties:
        id: {{type: string}}
        status: {{$ref: "#/components/schemas/Status"}}
        note: {{type: [string, "null"]}}
        label: {{type: string}}
        step_seconds: {{type: integer}}
        shape: {{$ref: "#/components/schemas/Shape"}}
        origin: {{anyOf: [{{$ref: "#/components/schemas/Thing"}}, {{type: "null"}}]}}
        parent: {{$ref: "#/components/schemas/Thing"}}{color}
    ThingUpdate:
      type: object
      properties:
        label: {{type: [string, "null"]}}
        clear_label: {{type: boolean}}
        new: {{type: [integer, "null"]}}{update_color}
    Tags:
      type: object
      properties:
        names: {{type: array, items: {{type: string}}}}
"##
    )
}

fn input(spec: &str) -> Input<'_> {
    Input {
        spec_path: "semver.yaml",
        spec_text: spec,
        config_text: None,
    }
}

/// `models.rs` of a document.
fn models(spec: &str) -> String {
    let output =
        baseten_codegen::generate(&input(spec)).unwrap_or_else(|error| panic!("{error}\n{spec}"));
    output.files["models.rs"].clone()
}

/// The emitted text of `item` (`pub struct Thing`, `impl Thing`, `pub enum Status`) in
/// `models.rs`: from its line to the next line that closes an item at the top level.
fn item<'a>(models: &'a str, item: &str) -> &'a str {
    let start = models
        .find(&format!("\n{item} "))
        .map(|at| at + 1)
        .unwrap_or_else(|| panic!("no `{item}` in:\n{models}"));
    let end = models[start..]
        .find("\n}\n")
        .map_or(models.len(), |at| start + at + 2);
    &models[start..end]
}

/// Text without its blank lines: the tidy pass decides where they go, not this file.
fn without_blank_lines(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The emitted text of `emitted` (see [`item`]) for the fixture document, against `expected`
/// (blank lines aside).
fn check(emitted: &str, expected: &str) {
    let models = models(&document(false, false));
    let got = item(&models, emitted);
    assert_eq!(
        without_blank_lines(got),
        without_blank_lines(expected),
        "\n--- got ---\n{got}\n--- expected ---\n{expected}"
    );
}

#[test]
fn a_struct_gets_new_with_its_required_fields_and_a_setter_per_optional_one() {
    check(
        "impl Thing",
        r#"
impl Thing {
    /// A value with these required fields and every optional one unset.
    pub fn new(
        id: impl Into<String>,
        status: impl Into<Status>,
        note: impl Into<Option<String>>,
        shape: impl Into<Shape>,
        origin: impl Into<Option<Thing>>,
    ) -> Self {
        Self {
            id: id.into(),
            status: status.into(),
            note: note.into(),
            label: None,
            step_seconds: None,
            shape: shape.into(),
            origin: origin.into().map(Box::new),
            parent: None,
        }
    }
    /// Sets `label`.
    #[must_use]
    pub fn label(mut self, value: impl Into<String>) -> Self {
        self.label = Some(value.into());
        self
    }
    /// Sets `step_seconds`.
    #[must_use]
    pub fn set_step_seconds(mut self, value: i64) -> Self {
        self.step_seconds = Some(value);
        self
    }
    /// Sets `parent`.
    #[must_use]
    pub fn parent(mut self, value: impl Into<Thing>) -> Self {
        self.parent = Some(Box::new(value.into()));
        self
    }
}
"#,
    );
}

#[test]
fn structs_and_enums_are_non_exhaustive() {
    let models = models(&document(false, false));
    for emitted in [
        "pub struct Thing",
        "pub struct ThingUpdate",
        "pub enum Status",
        "pub enum Shape",
    ] {
        let at = models
            .find(&format!("\n{emitted} "))
            .unwrap_or_else(|| panic!("no `{emitted}`"));
        let attributes: Vec<&str> = models[..at]
            .lines()
            .rev()
            .take_while(|line| line.starts_with("#[") || line.starts_with("///"))
            .collect();
        assert!(
            attributes.contains(&"#[non_exhaustive]"),
            "`{emitted}` is not non_exhaustive: {attributes:?}"
        );
    }
    let output = baseten_codegen::generate(&input(&document(false, false))).unwrap();
    let operations = &output.files["operations.rs"];
    assert!(
        operations.contains(
            "#[derive(Debug, Clone, Default, PartialEq)]\n#[non_exhaustive]\npub struct PatchThingQuery {"
        ),
        "{operations}"
    );
}

#[test]
fn a_write_only_struct_sets_and_clears_its_patch_fields_without_collisions() {
    check(
        "impl ThingUpdate",
        r#"
impl ThingUpdate {
    /// A value with every field unset.
    pub fn new() -> Self {
        Self {
            label: rt::Patch::Unchanged,
            clear_label: None,
            new: rt::Patch::Unchanged,
        }
    }
    /// Sets `label`.
    #[must_use]
    pub fn label(mut self, value: impl Into<String>) -> Self {
        self.label = rt::Patch::Set(value.into());
        self
    }
    /// Clears `label`: sends it as `null`.
    #[must_use]
    pub fn clear_label_2(mut self) -> Self {
        self.label = rt::Patch::Clear;
        self
    }
    /// Sets `clear_label`.
    #[must_use]
    pub fn clear_label(mut self, value: bool) -> Self {
        self.clear_label = Some(value);
        self
    }
    /// Sets `new`.
    #[must_use]
    pub fn set_new(mut self, value: i64) -> Self {
        self.new = rt::Patch::Set(value);
        self
    }
    /// Clears `new`: sends it as `null`.
    #[must_use]
    pub fn clear_new(mut self) -> Self {
        self.new = rt::Patch::Clear;
        self
    }
}
"#,
    );
}

#[test]
fn an_all_optional_struct_derives_default() {
    let models = models(&document(false, false));
    let at = models.find("\npub struct Tags ").unwrap();
    assert!(
        models[..at].ends_with(
            "#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]\n\
             #[non_exhaustive]"
        ),
        "{}",
        &models[..at]
    );
    let at = models.find("\npub struct Thing ").unwrap();
    assert!(
        models[..at].ends_with(
            "#[derive(Debug, Clone, PartialEq)]\n\
             #[cfg_attr(feature = \"mock\", derive(serde::Serialize))]\n#[non_exhaustive]"
        ),
        "a struct with required fields has no Default; a response's only encodes for the fake"
    );
    // Both decode in every build of their area, through the runtime's macro, not the derive.
    for (name, area) in [("Tags", "full"), ("Thing", "things")] {
        assert!(
            models.contains(&format!(
                "}}\n\n#[cfg(feature = \"{area}\")]\nrt::struct_deserialize!(\n    {name},\n"
            )),
            "{name} decodes with feature {area}:\n{models}"
        );
    }
}

/// The fallback variant's name, and the listed values' names, of the enum `Status` and the
/// union `Shape`.
fn variant_names(spec: &str) -> [(String, Vec<String>); 2] {
    let (api, _) = baseten_codegen::build_ir(&input(spec)).unwrap();
    let status = match &api.types["Status"] {
        TypeDef::Enum(def) => (
            def.fallback.clone(),
            def.variants.iter().map(|v| v.rust_name.clone()).collect(),
        ),
        other => panic!("Status is {other:?}"),
    };
    let shape = match &api.types["Shape"] {
        TypeDef::Union(def) => (
            def.fallback.clone(),
            def.variants.iter().map(|v| v.rust_name.clone()).collect(),
        ),
        other => panic!("Shape is {other:?}"),
    };
    [status, shape]
}

#[test]
fn the_fallback_is_unknown_even_when_a_listed_value_is_spelled_unknown() {
    let spec = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    \
                Status: {type: string, enum: [ACTIVE, Unknown, unknown, UnknownValue]}\n";
    let models = models(spec);
    assert!(
        item(&models, "pub enum Status").contains(
            "    /// `Unknown`\n    UnknownValue,\n    /// `unknown`\n    UnknownValue2,\n    \
             /// `UnknownValue`\n    UnknownValue3,\n"
        ),
        "{models}"
    );
    assert!(
        item(&models, "pub enum Status")
            .contains("    /// A value not in the document this code was generated from.\n    Unknown(String),\n"),
        "{models}"
    );
    // The impls' macro call, however it is laid out: the fallback, then the wire values.
    let compact: String = models.split_whitespace().collect();
    assert!(
        compact.contains("Status,Unknown,[Active=\"ACTIVE\",UnknownValue=\"Unknown\""),
        "{models}"
    );
}

#[test]
fn adding_a_value_spelled_unknown_keeps_the_fallback_name() {
    let [old_status, old_shape] = variant_names(&document(false, false));
    let [new_status, new_shape] = variant_names(&document(false, true));
    assert_eq!(
        old_status,
        ("Unknown".to_owned(), vec!["Active".to_owned()])
    );
    assert_eq!(
        new_status,
        (
            "Unknown".to_owned(),
            vec![
                "Active".to_owned(),
                "UnknownValue".to_owned(),
                "Paused".to_owned()
            ]
        )
    );
    assert_eq!(old_shape.0, "Unknown");
    assert_eq!(new_shape.0, "Unknown");
}

/// User code against the fixture's generated crate: `new` and setters, field access, and
/// matches with a `_` arm. Nothing in it may need to change when the document adds an optional
/// field, an enum value (spelled `Unknown`, no less) and a union tag.
const USER: &str = r#"//! Code written against the first version of the generated crate.

use semver_api::models::{Circle, Shape, Status, Tags, Thing, ThingUpdate};

pub fn build() -> Thing {
    let parent = Thing::new("p", "ACTIVE", None::<String>, Shape::Circle(Circle::new("circle", 1.0)), None::<Thing>);
    let mut thing = Thing::new("t", Status::Active, "a note".to_owned(), Shape::Circle(Circle::new("circle", 2.0)), parent.clone())
        .label("blue")
        .set_step_seconds(30)
        .parent(parent);
    thing.note = None;
    thing
}

pub fn update() -> ThingUpdate {
    ThingUpdate::new().label("red").clear_new().clear_label(true)
}

pub fn tags() -> (Tags, Tags) {
    let mut tags = Tags::default();
    tags.names = Some(vec!["a".to_owned()]);
    (tags, Tags::new().names(["b".to_owned()]))
}

pub fn describe(thing: &Thing) -> String {
    let status = match &thing.status {
        Status::Active => "active".to_owned(),
        Status::Unknown(other) => format!("unknown {other}"),
        _ => "newer".to_owned(),
    };
    let shape = match &thing.shape {
        Shape::Circle(circle) => format!("circle {}", circle.radius),
        Shape::Unknown(value) => format!("unknown {value}"),
        _ => "newer".to_owned(),
    };
    format!("{} {status} {shape} {:?}", thing.id, thing.label)
}
"#;

/// Writes the fixture's crate (`spec`) into `dir/api`, replacing what is there.
fn write_api(dir: &Path, spec: &str) {
    let runtime = baseten_tests::workspace_root().join("codegen/runtime");
    let runtime = runtime.to_string_lossy();
    let settings = CrateSettings {
        name: "semver-api",
        runtime_path: &runtime,
        spec_name: "semver.yaml",
        own_workspace: false,
    };
    let output = baseten_codegen::generate_crate(&input(spec), &settings)
        .unwrap_or_else(|error| panic!("{error}"));
    for (file, text) in &output.files {
        let path = dir.join("api").join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// `cargo check -p semver-user` in `dir`: it compiles, without warnings.
fn check_user(dir: &Path, version: &str) {
    let output = baseten_tests::cargo_sharing_target()
        .current_dir(dir)
        .args([
            "check",
            "--quiet",
            "--message-format",
            "short",
            "-p",
            "semver-user",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "user code does not compile against the {version} version:\n{stderr}"
    );
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("warning")).collect();
    assert!(
        warnings.is_empty(),
        "{version} version: {}",
        warnings.join("\n")
    );
}

/// One user crate, compiled against the generated crate of the document and of the document
/// with an optional field, two enum values and a union tag more: both compile.
#[test]
#[ignore = "slow: builds user code against two versions of a generated crate"]
fn user_code_keeps_compiling_when_the_document_grows() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("Cargo.toml"),
        "[workspace]\nresolver = \"3\"\nmembers = [\"api\", \"user\"]\n",
    )
    .unwrap();
    // The workspace's lock file keeps dependency versions (and so build artifacts) shared.
    std::fs::copy(
        baseten_tests::workspace_root().join("Cargo.lock"),
        root.join("Cargo.lock"),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("user/src")).unwrap();
    std::fs::write(
        root.join("user/Cargo.toml"),
        "[package]\nname = \"semver-user\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nsemver-api = { path = \"../api\", default-features = false, features = [\"full\"] }\n",
    )
    .unwrap();
    std::fs::write(root.join("user/src/lib.rs"), USER).unwrap();

    write_api(root, &document(false, false));
    check_user(root, "old");
    write_api(root, &document(true, true));
    let grown = std::fs::read_to_string(root.join("api/src/gen/models.rs")).unwrap();
    assert!(
        grown.contains("pub color: Option<String>") && grown.contains("Square(Square)"),
        "the new version has the additions"
    );
    check_user(root, "new");
}
