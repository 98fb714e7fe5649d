//! An open enum of more than 128 values (the runtime macro's large form, which implements
//! `Debug` and `Clone` itself and finds a wire string's variant through a table): every value
//! of the fixture round-trips to its own variant, colliding names stay distinct variants, and a
//! value the document does not list is kept.

use std::collections::HashSet;

use baseten_tests::snapshots::names::models::Colliding;
use baseten_tests::tests_dir;

/// The fixture's values, as its `Colliding` schema lists them (a JSON array on one line).
fn fixture_values() -> Vec<String> {
    let text = std::fs::read_to_string(tests_dir().join("fixtures/specs/names.yaml")).unwrap();
    let after = &text[text.find("    Colliding:").unwrap()..];
    let line = after
        .lines()
        .find_map(|line| line.trim().strip_prefix("enum: "))
        .unwrap();
    serde_json::from_str(line).unwrap()
}

#[test]
fn every_value_decodes_to_its_own_variant_and_encodes_back() {
    let values = fixture_values();
    assert_eq!(values.len(), 300);
    assert_eq!(Colliding::KNOWN.len(), values.len());
    let mut debugs = HashSet::new();
    for (known, wire) in Colliding::KNOWN.iter().zip(&values) {
        assert_eq!(known.as_str(), wire);
        assert!(!known.is_unknown(), "{wire:?}");
        assert_eq!(&Colliding::from(wire.as_str()), known);
        assert_eq!(&Colliding::from(wire.clone()), known);
        assert_eq!(&wire.parse::<Colliding>().unwrap(), known);
        assert_eq!(known.to_string(), *wire);
        let json = serde_json::to_string(known).unwrap();
        assert_eq!(json, serde_json::to_string(wire).unwrap());
        assert_eq!(&serde_json::from_str::<Colliding>(&json).unwrap(), known);
        assert_eq!(&known.clone(), known);
        assert!(debugs.insert(format!("{known:?}")), "{known:?} twice");
    }
    // Colliding names are told apart by a number, as the small form's are.
    assert_eq!(format!("{:?}", Colliding::KNOWN[0]), "A");
    assert_eq!(format!("{:?}", Colliding::KNOWN[1]), "A2");
    assert_eq!(format!("{:?}", Colliding::from("Unknown")), "UnknownValue");
    assert!(Colliding::KNOWN.windows(2).all(|pair| pair[0] < pair[1]));
}

#[test]
fn a_value_the_document_does_not_list_is_kept() {
    for wire in ["b", "a-a", "A", "unknown", "a~~~~~~~~~~~~~~"] {
        let value: Colliding = serde_json::from_str(&serde_json::to_string(wire).unwrap()).unwrap();
        assert!(value.is_unknown(), "{wire:?}");
        assert_eq!(value, Colliding::Unknown(wire.to_owned()));
        assert_eq!(value.as_str(), wire);
        assert_eq!(format!("{value:?}"), format!("Unknown({wire:?})"));
        assert_eq!(value.clone(), value);
        assert_eq!(
            serde_json::to_string(&value).unwrap(),
            serde_json::to_string(wire).unwrap()
        );
    }
}
