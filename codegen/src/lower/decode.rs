//! Decoding the lowered document into the `openapiv3` model, and the exact place of a failure.

use serde_json::Value;

use crate::Error;
use crate::error::Pointer;

use super::METHODS;

/// Decodes the lowered document; only a failure tracks the path (it costs time on every value),
/// by decoding again.
pub(super) fn decode(document: &Value) -> Result<openapiv3::OpenAPI, Error> {
    use serde::Deserialize;
    match openapiv3::OpenAPI::deserialize(document) {
        Ok(openapi) => Ok(openapi),
        Err(_) => serde_path_to_error::deserialize(document)
            .map_err(|error| decode_error(document, &error)),
    }
}

/// The error of a failed decode, at its exact place. `openapiv3` reads path items, operations
/// and responses through flattened maps, which hide the path below them; the parts of each are
/// decoded alone then, down to the one at fault and the place inside it.
pub(super) fn decode_error(
    document: &Value,
    error: &serde_path_to_error::Error<serde_json::Error>,
) -> Error {
    use openapiv3::{Operation, Parameter, PathItem, ReferenceOr, RequestBody, Response};
    let mut found = (
        Pointer::root(),
        pointer_of(error.path()),
        error.inner().to_string(),
    );
    if found.1 == "#/paths" {
        let paths = document.get("paths").and_then(Value::as_object);
        let root = Pointer::root().join("paths");
        let at = paths.and_then(|paths| {
            let items = paths.iter().filter(|(key, _)| !key.starts_with("x-"));
            first_error::<ReferenceOr<PathItem>>(items, &root)
        });
        if let Some((at, item, inner)) = at {
            found = (
                at.clone(),
                pointer_of(inner.path()),
                inner.inner().to_string(),
            );
            let operations = item.as_object().map(|item| {
                item.iter()
                    .filter(|(key, _)| METHODS.contains(&key.as_str()))
                    .collect::<Vec<_>>()
            });
            if let Some((at, operation, inner)) =
                operations.and_then(|o| first_error::<Operation>(o.into_iter(), &at))
            {
                found = (
                    at.clone(),
                    pointer_of(inner.path()),
                    inner.inner().to_string(),
                );
                let part = |key: &str| operation.get(key);
                let narrower = part("responses")
                    .and_then(Value::as_object)
                    .and_then(|r| {
                        first_error::<ReferenceOr<Response>>(r.iter(), &at.join("responses"))
                    })
                    .or_else(|| {
                        part("parameters").and_then(Value::as_array).and_then(|p| {
                            first_error::<ReferenceOr<Parameter>>(
                                p.iter().enumerate().map(|(i, v)| (i.to_string(), v)),
                                &at.join("parameters"),
                            )
                        })
                    })
                    .or_else(|| {
                        let body = part("requestBody")?;
                        let inner =
                            serde_path_to_error::deserialize::<_, ReferenceOr<RequestBody>>(body)
                                .err()?;
                        Some((at.join("requestBody"), body, inner))
                    });
                if let Some((at, _, inner)) = narrower {
                    found = (at, pointer_of(inner.path()), inner.inner().to_string());
                }
            }
        }
    }
    let (at, inner, reason) = found;
    // `inner` is a pointer from `#` of the part decoded alone; `at` is where that part stands.
    let pointer = if at == Pointer::root() {
        inner
    } else {
        format!("{at}{}", inner.trim_start_matches('#'))
    };
    Error::Invalid { pointer, reason }
}

/// The first of `parts` that does not decode as a `T`: where it stands, its value and the error.
pub(super) fn first_error<'v, T: serde::de::DeserializeOwned>(
    mut parts: impl Iterator<Item = (impl std::fmt::Display, &'v Value)>,
    parent: &Pointer,
) -> Option<(
    Pointer,
    &'v Value,
    serde_path_to_error::Error<serde_json::Error>,
)> {
    parts.find_map(|(key, value)| {
        serde_path_to_error::deserialize::<_, T>(value)
            .err()
            .map(|error| (parent.join(key), value, error))
    })
}

/// A `serde_path_to_error` path as a JSON pointer.
pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = Pointer::root();
    for segment in path.iter() {
        pointer = match segment {
            Segment::Seq { index } => pointer.join(index),
            Segment::Map { key } => pointer.join(key),
            Segment::Enum { variant } => pointer.join(variant),
            Segment::Unknown => pointer.join("?"),
        };
    }
    pointer.into_string()
}

impl Pointer {
    pub(super) fn into_string(self) -> String {
        String::from(&self)
    }
}
