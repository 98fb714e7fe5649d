//! API areas: the Cargo feature each operation is compiled with, so a consumer builds only the
//! parts of the API it calls (async-stripe's features per resource, from the document alone).
//!
//! An operation's area is, first to answer: the config's `areas` (a `select`-style pattern that
//! picks it), the names lock (so a document that gains tags later moves nothing), its first tag,
//! or its path's first segment after a version (`/v1/models/{id}` → `models`). Names are Cargo
//! feature names: lower-case ASCII letters, digits, `-` and `_`; one the crate already has for
//! itself takes an `-api` suffix.

use std::collections::{BTreeMap, BTreeSet};

use super::Operation;
use crate::reserved::FIXED_FEATURES;
use crate::{Config, Error};

/// The area of a path with no segment to name it (`/`, `/v1/{id}`).
const ROOT_AREA: &str = "root";

/// Longest derived feature name; a longer tag or segment is cut (a feature name is typed by
/// hand in `Cargo.toml`).
const MAX_AREA_LENGTH: usize = 48;

/// Gives every operation its area, in `operation.area`; returns the lock's `areas`: every
/// operation's area, beside what the old lock (`lock`, keyed as the document spells each
/// endpoint) held for operations no longer generated.
pub(super) fn assign(
    operations: &mut [Operation],
    config: &Config,
    lock: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>, Error> {
    let mut areas = lock.clone();
    let mut picked: BTreeSet<&str> = BTreeSet::new();
    for operation in operations.iter_mut() {
        let key = format!("{} {}", operation.method, operation.path);
        let configured = config.areas.iter().find(|(_, patterns)| {
            patterns
                .iter()
                .any(|pattern| crate::select::is_selected(pattern, &key, &operation.tags))
        });
        operation.area = match configured {
            Some((area, _)) => {
                picked.insert(area.as_str());
                area.clone()
            }
            None => match lock.get(&key) {
                Some(area) => area.clone(),
                None => derived_area(operation),
            },
        };
        areas.insert(key, operation.area.clone());
    }
    // A pattern that picks nothing is a typo or an operation gone from the document: either way
    // the config no longer says what its author meant.
    for (area, patterns) in &config.areas {
        if !picked.contains(area.as_str()) {
            return Err(Error::Config {
                pointer: crate::error::Pointer::to(&["areas", area]),
                reason: format!("no generated operation matches {}", patterns.join(", ")),
            });
        }
    }
    Ok(areas)
}

/// The area an operation's tags or path give it.
fn derived_area(operation: &Operation) -> String {
    let from_tag = operation.tags.first().map(|tag| feature_name(tag));
    let name = match from_tag {
        Some(name) if !name.is_empty() => name,
        _ => operation
            .path
            .split('/')
            .filter(|segment| !segment.is_empty() && !segment.contains('{') && !is_version(segment))
            .map(feature_name)
            .find(|name| !name.is_empty())
            .unwrap_or_else(|| ROOT_AREA.to_owned()),
    };
    if FIXED_FEATURES.contains(&name.as_str()) {
        format!("{name}-api")
    } else {
        name
    }
}

/// `v1`, `v2beta1`, `v10`, `2010-04-01`, `3.0`: a version, not a resource.
fn is_version(segment: &str) -> bool {
    if segment.starts_with(|c: char| c.is_ascii_digit()) {
        return true;
    }
    let Some(rest) = segment.strip_prefix(['v', 'V']) else {
        return false;
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && rest[digits..].chars().all(|c| c.is_ascii_alphanumeric())
}

/// Text as a feature name: lower-case ASCII words joined by `-` (`Audit Logs`, `audit_logs` →
/// `audit-logs`); empty when the text has no ASCII letter or digit.
fn feature_name(text: &str) -> String {
    let mut name = String::new();
    for word in text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
    {
        if !name.is_empty() {
            name.push('-');
        }
        name.push_str(&word.to_ascii_lowercase());
    }
    // ASCII only, so any length is a character boundary; shorter names are left as they are.
    name.truncate(MAX_AREA_LENGTH);
    name.truncate(name.trim_end_matches('-').len());
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reserved::check_feature_name;

    fn operation(method: &str, path: &str, tags: &[&str]) -> Operation {
        Operation {
            name: "op".to_owned(),
            method: method.to_owned(),
            path: path.to_owned(),
            tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            area: String::new(),
            doc: None,
            path_params: Vec::new(),
            fixed_query: Vec::new(),
            required_query: Vec::new(),
            optional_query: Vec::new(),
            query_type: None,
            body: None,
            other_bodies: Vec::new(),
            response: super::super::ResponseKind::Empty,
            accept: "application/json".to_owned(),
            error_statuses: Vec::new(),
            security: None,
        }
    }

    #[test]
    fn an_area_comes_from_the_first_tag_else_the_first_resource_segment() {
        let cases = [
            ("/v1/models/{model_id}/deployments", &[][..], "models"),
            ("/v1/audit_logs", &[], "audit-logs"),
            ("/api/v2beta1/Training Jobs", &[], "api"),
            ("/v2beta1/Training Jobs/x", &[], "training-jobs"),
            ("/v1/{id}", &[], "root"),
            ("/2010-04-01/Accounts/{sid}/Calls.json", &[], "accounts"),
            ("/", &[], "root"),
            ("/v1/models", &["Non-Regional", "b"], "non-regional"),
            ("/v1/models", &["ü-ï"], "models"),
            ("/v1/models", &["ünï"], "n"),
            ("/v1/client", &[], "client-api"),
            ("/full", &[], "full-api"),
            ("/v1/x", &["Mock"], "mock-api"),
            ("/V3/Ünicode_Thing", &[], "nicode-thing"),
        ];
        for (path, tags, expected) in cases {
            assert_eq!(
                derived_area(&operation("GET", path, tags)),
                expected,
                "{path} {tags:?}"
            );
        }
        let long = format!("/{}-{}", "a".repeat(47), "b");
        assert_eq!(derived_area(&operation("GET", &long, &[])), "a".repeat(47));
        assert!(!is_version("v"));
        assert!(!is_version("vx1"));
        assert!(!is_version("models"));
        assert!(is_version("V2"));
        assert!(is_version("2010-04-01"));
        assert!(is_version("3.0"));
        assert!(!is_version("v1-beta"));
    }

    #[test]
    fn the_config_then_the_lock_then_the_document_decide() {
        let mut operations = vec![
            operation("GET", "/v1/models/{id}/metrics", &[]),
            operation("GET", "/v1/models/{id}", &["Models"]),
            operation("GET", "/v1/teams", &["Teams"]),
        ];
        let mut config = Config::default();
        config.areas.insert(
            "metrics".to_owned(),
            vec!["GET /v1/models/*/metrics".to_owned()],
        );
        config
            .names_lock
            .areas
            .insert("GET /v1/models/{id}".to_owned(), "models".to_owned());
        config
            .names_lock
            .areas
            .insert("GET /v1/gone".to_owned(), "gone".to_owned());
        let lock =
            assign(&mut operations, &config, &config.names_lock.areas).expect("areas are assigned");
        let areas: Vec<&str> = operations.iter().map(|op| op.area.as_str()).collect();
        assert_eq!(areas, ["metrics", "models", "teams"]);
        assert_eq!(
            lock,
            BTreeMap::from([
                ("GET /v1/gone".to_owned(), "gone".to_owned()),
                ("GET /v1/models/{id}".to_owned(), "models".to_owned()),
                (
                    "GET /v1/models/{id}/metrics".to_owned(),
                    "metrics".to_owned()
                ),
                ("GET /v1/teams".to_owned(), "teams".to_owned()),
            ])
        );
        config
            .areas
            .insert("stale".to_owned(), vec!["GET /v1/nothing".to_owned()]);
        let error = assign(&mut operations, &config, &config.names_lock.areas)
            .expect_err("a pattern that picks nothing");
        assert_eq!(
            error.to_string(),
            "generator config: #/areas/stale: no generated operation matches GET /v1/nothing"
        );
    }

    #[test]
    fn feature_names_are_checked() {
        assert_eq!(check_feature_name("audit-logs_2"), Ok(()));
        assert_eq!(check_feature_name("9lives"), Ok(()));
        for bad in ["", "-x", "_x", "Models", "a b", "ü", "dep:x"] {
            assert!(check_feature_name(bad).is_err(), "{bad:?}");
        }
        for fixed in FIXED_FEATURES {
            assert!(check_feature_name(fixed).is_err(), "{fixed}");
        }
    }
}
