//! Real-world documents, each class as a compact fixture in `tests/fixtures/documents/`: what
//! one bad place used to refuse is mended there with a note (strict mode still refuses), and
//! the rest generates; the slow tier compiles every fixture with zero warnings (in the hostile
//! batch, [`FIXTURES`]).

use baseten_codegen::{Error, Input, Output};
use baseten_tests::tests_dir;

/// Every fixture of this module, compiled by the hostile batch.
pub(crate) const FIXTURES: &[&str] = &["spoiled", "refs"];

/// The text of `tests/fixtures/documents/<name>.yaml`.
pub(crate) fn fixture(name: &str) -> String {
    let path = tests_dir().join(format!("fixtures/documents/{name}.yaml"));
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn generate(spec: &str, config: &str) -> Result<Output, Error> {
    let input = Input {
        spec_path: "documents.yaml",
        spec_text: spec,
        config_text: Some(config),
    };
    baseten_codegen::generate(&input)
}

/// The notes a fixture gives, as `pointer: message` lines.
fn notes(name: &str) -> Vec<String> {
    let output = generate(&fixture(name), "").unwrap_or_else(|error| panic!("{name}: {error}"));
    output.notes.iter().map(ToString::to_string).collect()
}

#[test]
fn one_bad_field_spoils_only_itself() {
    let notes = notes("spoiled");
    let deep = "#/components/schemas/Deep/properties/tree/properties/a/properties/b/properties/c/properties/d/properties/e/properties/f/properties/g/properties/h/properties/i/properties/j/properties/k/properties/l/properties/m";
    let expected = [
        "#/info/title: `title` 1.5 is read as the text \"1.5\"".to_owned(),
        "#/info/version: `info` has no `version`; \"0.0.0\" is used".to_owned(),
        "#/info/license: `info.license` is left out: /license: missing field `name`".to_owned(),
        "#/info/contact: `info.contact` is left out: /contact: invalid type: integer `3`, expected struct Contact".to_owned(),
        "#/servers/1: server 1 is left out: missing field `url`".to_owned(),
        "#/tags: `tags` is left out: must be a list, found an object".to_owned(),
        "#/security/0: security requirement 0 is left out: invalid type: sequence, expected a map".to_owned(),
        "#/externalDocs: `externalDocs` is left out: missing field `url`".to_owned(),
        format!("{deep}: the schema (read as any JSON value) is left out: {deep}/properties is nested more than 32 levels deep"),
        "#/components/schemas/Loop: the schema (read as any JSON value) is left out: `$ref` cycle with no schema in it: #/components/schemas/Loop2 -> #/components/schemas/Loop -> #/components/schemas/Loop2".to_owned(),
    ];
    for line in &expected {
        assert!(notes.contains(line), "missing {line}\nin {notes:#?}");
    }
}

#[test]
fn strict_mode_refuses_the_first_spoiled_place() {
    match generate(&fixture("spoiled"), "strict: true") {
        Err(Error::LeftOut { pointer, .. }) => assert_eq!(pointer, "#/info/version"),
        other => panic!("{:?}", other.map(|output| output.notes)),
    }
}

#[test]
fn the_rest_of_a_spoiled_document_is_typed() {
    let output = generate(&fixture("spoiled"), "").unwrap_or_else(|error| panic!("{error}"));
    let models = &output.files["models.rs"];
    assert!(
        models.contains("pub struct DeepTreeAbCdEfGhIjKl {"),
        "{models}"
    );
    assert!(
        models.contains("pub m: Option<::serde_json::Value>,"),
        "{models}"
    );
    assert!(output.files["operations.rs"].contains("pub async fn get_deep"));
}

#[test]
fn percent_encoded_and_escaped_refs_resolve_everywhere() {
    let output = generate(&fixture("refs"), "").unwrap_or_else(|error| panic!("{error}"));
    let notes: Vec<String> = output.notes.iter().map(ToString::to_string).collect();
    assert_eq!(notes, Vec::<String>::new());
    let models = &output.files["models.rs"];
    for field in [
        "pub id: ModelId,",
        "pub owner: CD,",
        "pub pet: PetKind,",
        "pub limits: Option<AB>,",
        "pub share: Option<Box<T100>>,",
    ] {
        assert!(models.contains(field), "{field} in\n{models}");
    }
    // The discriminator's mapping names `Cat Pet` through `%20`: a tagged variant, not the
    // fallback.
    assert!(models.contains("Cat(CatPet)"), "{models}");
    let operations = &output.files["operations.rs"];
    assert!(
        operations.contains("pub async fn post_model"),
        "{operations}"
    );
}
