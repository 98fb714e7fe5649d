//! Operation selection (`select` in the config) and pruning of the types no selected
//! operation reaches.

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::{Operation, ResponseKind, TypeDef, TypeRef};

/// Whether any selector picks `operation`.
pub(crate) fn is_selected(selectors: &[String], operation: &Operation) -> bool {
    let key = format!("{} {}", operation.method, operation.path);
    selectors
        .iter()
        .any(|selector| match selector.strip_prefix("tag:") {
            Some(tag) => operation.tags.iter().any(|t| t == tag),
            None => glob_matches(selector.as_bytes(), key.as_bytes()),
        })
}

/// `*` matches within one path segment (no `/`), `**` matches anything; all else is literal.
/// `{` and `}` are literal, so `GET /v1/models/{model_id}` selects exactly that template.
fn glob_matches(pattern: &[u8], text: &[u8]) -> bool {
    match pattern {
        [] => text.is_empty(),
        [b'*', b'*', rest @ ..] => (0..=text.len()).any(|skip| glob_matches(rest, &text[skip..])),
        [b'*', rest @ ..] => {
            let segment = text.iter().position(|&c| c == b'/').unwrap_or(text.len());
            (0..=segment).any(|skip| glob_matches(rest, &text[skip..]))
        }
        [first, rest @ ..] => text.first() == Some(first) && glob_matches(rest, &text[1..]),
    }
}

/// Removes every type that no operation reaches through parameters, bodies and responses.
pub(crate) fn prune_unreachable(types: &mut BTreeMap<String, TypeDef>, operations: &[Operation]) {
    let mut pending: Vec<&TypeRef> = Vec::new();
    for operation in operations {
        let params = operation
            .path_params
            .iter()
            .chain(&operation.required_query)
            .chain(&operation.optional_query);
        pending.extend(params.map(|param| &param.ty));
        pending.extend(operation.body.iter().map(|body| &body.ty));
        if let ResponseKind::Json(ty) = &operation.response {
            pending.push(ty);
        }
    }
    let mut reached: BTreeSet<String> = BTreeSet::new();
    while let Some(ty) = pending.pop() {
        match ty {
            TypeRef::Named(name) => {
                if !reached.insert(name.clone()) {
                    continue;
                }
                match types.get(name) {
                    Some(TypeDef::Struct(def)) => pending.extend(def.fields.iter().map(|f| &f.ty)),
                    Some(TypeDef::Alias(def)) => pending.push(&def.ty),
                    Some(TypeDef::Union(def)) => pending.extend(def.variants.iter().map(|v| &v.ty)),
                    Some(TypeDef::Enum(_)) | None => {}
                }
            }
            TypeRef::Vec(inner) | TypeRef::Map(inner) | TypeRef::Option(inner) => {
                pending.push(inner)
            }
            TypeRef::String
            | TypeRef::Integer
            | TypeRef::Number
            | TypeRef::Boolean
            | TypeRef::Json => {}
        }
    }
    types.retain(|name, _| reached.contains(name));
}

#[cfg(test)]
mod tests {
    use super::glob_matches;

    #[test]
    fn globs() {
        let cases = [
            ("GET /v1/models", "GET /v1/models", true),
            ("GET /v1/models", "GET /v1/models/{model_id}", false),
            ("GET /v1/models/*", "GET /v1/models/{model_id}", true),
            (
                "GET /v1/models/*",
                "GET /v1/models/{model_id}/deployments",
                false,
            ),
            (
                "GET /v1/models/**",
                "GET /v1/models/{model_id}/deployments",
                true,
            ),
            ("* /v1/secrets", "DELETE /v1/secrets", true),
            (
                "GET /v1/**/metrics",
                "GET /v1/models/{model_id}/environments/{env_name}/metrics",
                true,
            ),
            (
                "GET /v1/*/metrics",
                "GET /v1/models/{model_id}/environments/{env_name}/metrics",
                false,
            ),
        ];
        for (pattern, text, expected) in cases {
            assert_eq!(
                glob_matches(pattern.as_bytes(), text.as_bytes()),
                expected,
                "{pattern} ~ {text}"
            );
        }
    }
}
