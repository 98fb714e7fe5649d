//! Tests of the package-name decision: each source of the name, the manifests the generator
//! recognises as its own, and the default from the file name.

use super::*;
use crate::{CrateSettings, Input, generate_crate};

const DOCUMENT: &str = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n";

/// The `Cargo.toml` the generator writes for a crate named `name`.
fn manifest_named(name: &str) -> String {
    let input = Input {
        spec_path: "payments-2026-11.yaml",
        spec_text: DOCUMENT,
        config_text: None,
    };
    let settings = CrateSettings {
        name,
        runtime_path: "../runtime",
        spec_name: "payments-2026-11.yaml",
        own_workspace: true,
    };
    let output = generate_crate(&input, &settings).expect("the document generates");
    output.files["Cargo.toml"].clone()
}

#[test]
fn the_generator_reads_back_the_name_it_wrote() {
    for name in ["a", "generated-payments-2026-11", "My_Crate-2", "x9"] {
        let manifest = manifest_named(name);
        assert_eq!(
            generated_package_name(&manifest),
            Ok(Some(name.to_owned())),
            "{manifest}"
        );
        // A checkout with CRLF line ends is the same crate.
        let crlf = manifest.replace('\n', "\r\n");
        assert_eq!(generated_package_name(&crlf), Ok(Some(name.to_owned())));
    }
}

#[test]
fn each_source_of_the_name() {
    let ours = manifest_named("payments");
    let foreign = "[package]\nname = \"mine\"\nversion = \"0.1.0\"\n";
    let file = "payments-2026-12.yaml";
    let decided = |requested, existing| package_name(requested, existing, file);
    let expect = |name: &str, source, previous: Option<&str>| {
        Ok(PackageName {
            name: name.to_owned(),
            source,
            previous: previous.map(str::to_owned),
        })
    };
    // A first generation: the file name.
    assert_eq!(
        decided(None, None),
        expect("generated-payments-2026-12", NameSource::FileName, None)
    );
    // In place: the crate's own name, whatever the document is called now.
    assert_eq!(
        decided(None, Some(&ours)),
        expect("payments", NameSource::Kept, Some("payments"))
    );
    // A manifest the generator did not write is no crate of ours.
    assert_eq!(
        decided(None, Some(foreign)),
        expect("generated-payments-2026-12", NameSource::FileName, None)
    );
    // `--name` wins, and says what it replaces.
    assert_eq!(
        decided(Some("billing"), Some(&ours)),
        expect("billing", NameSource::Requested, Some("payments"))
    );
    assert_eq!(
        decided(Some("billing"), None),
        expect("billing", NameSource::Requested, None)
    );
    assert_eq!(
        decided(Some("billing"), Some(foreign)),
        expect("billing", NameSource::Requested, None)
    );
    assert_eq!(
        decided(Some("no way"), Some(&ours)),
        Err(PackageNameError::Requested("no way".to_owned()))
    );
}

#[test]
fn only_a_changed_name_is_a_rename() {
    let ours = manifest_named("payments");
    let file = "payments-2026-12.yaml";
    let renamed = package_name(Some("billing"), Some(&ours), file).expect("a name");
    assert_eq!(renamed.renamed_from(), Some("payments"));
    let same = package_name(Some("payments"), Some(&ours), file).expect("a name");
    assert_eq!(same.renamed_from(), None);
    let kept = package_name(None, Some(&ours), file).expect("a name");
    assert_eq!(kept.renamed_from(), None);
    let first = package_name(Some("billing"), None, file).expect("a name");
    assert_eq!(first.renamed_from(), None);
}

#[test]
fn a_manifest_of_ours_without_a_readable_name_needs_name() {
    let ours = manifest_named("payments");
    let file = "payments-2026-12.yaml";
    let unreadable = [
        ours.replace("name = \"payments\"", "name = \"pay ments\""),
        ours.replace("name = \"payments\"", "name = 'payments'"),
        ours.replace("name = \"payments\"", "name = \"payments"),
        ours.replace("name = \"payments\"", "naming = \"payments\""),
        ours.replace("[package]", "[pkg]"),
        // A name only in a later table is not the package's.
        ours.replace("name = \"payments\"\n", "")
            .replace("[features]", "[features]\nname = \"payments\""),
    ];
    for manifest in &unreadable {
        assert_eq!(
            generated_package_name(manifest),
            Err(PackageNameError::Unreadable),
            "{manifest}"
        );
        assert_eq!(
            package_name(None, Some(manifest), file),
            Err(PackageNameError::Unreadable)
        );
        // `--name` is the way past it.
        let named = package_name(Some("billing"), Some(manifest), file).expect("a name");
        assert_eq!((named.name.as_str(), named.previous), ("billing", None));
    }
    // The header must open the file: below another line it is not the generator's manifest.
    let moved = format!("# mine\n{ours}");
    assert_eq!(generated_package_name(&moved), Ok(None));
    assert_eq!(generated_package_name(""), Ok(None));
}

#[test]
fn the_default_name_is_the_file_stem_as_a_package_name() {
    for (file, name) in [
        ("payments-2026-11.yaml", "generated-payments-2026-11"),
        ("Foo Bar.v2.JSON", "generated-foo-bar-v2"),
        ("noext", "generated-noext"),
        (".yaml", "generated--yaml"),
        ("ünï.yml", "generated--n-"),
        ("a_b.json", "generated-a-b"),
    ] {
        assert_eq!(default_package_name(file), name, "{file}");
        assert!(is_package_name(&default_package_name(file)));
    }
}

#[test]
fn package_names_are_an_ascii_letter_then_letters_digits_dashes_underscores() {
    for name in ["a", "Z", "a-b_c9", "abc-", "x_"] {
        assert!(is_package_name(name), "{name}");
    }
    for name in ["", "1a", "-a", "_a", "a.b", "a b", "ä", "a\"", "a/b"] {
        assert!(!is_package_name(name), "{name}");
    }
}
