//! An `operationId` for every operation, for generators that name methods by it.

/// A lowered document as a generator that names methods by `operationId` needs it (the bench
/// runs progenitor on it): every operation without one gets `<method>_<path words>` in snake
/// case (`get_v1_models_model_id`), with `_2`, `_3`… when that is taken; ids the document has
/// stay.
pub fn with_operation_ids(mut openapi: openapiv3::OpenAPI) -> openapiv3::OpenAPI {
    let mut taken: std::collections::HashSet<String> = openapi
        .operations()
        .filter_map(|(_, _, operation)| operation.operation_id.clone())
        .collect();
    for (path, item) in &mut openapi.paths.paths {
        let openapiv3::ReferenceOr::Item(item) = item else {
            continue;
        };
        let words: Vec<String> = path
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        let operations = [
            ("get", &mut item.get),
            ("put", &mut item.put),
            ("post", &mut item.post),
            ("delete", &mut item.delete),
            ("options", &mut item.options),
            ("head", &mut item.head),
            ("patch", &mut item.patch),
            ("trace", &mut item.trace),
        ];
        for (method, operation) in operations {
            let Some(operation) = operation.as_mut() else {
                continue;
            };
            if operation.operation_id.is_some() {
                continue;
            }
            let base = std::iter::once(method.to_owned())
                .chain(words.iter().cloned())
                .collect::<Vec<_>>()
                .join("_");
            let mut id = base.clone();
            let mut n = 1;
            while taken.contains(&id) {
                n += 1;
                id = format!("{base}_{n}");
            }
            taken.insert(id.clone());
            operation.operation_id = Some(id);
        }
    }
    openapi
}

#[cfg(test)]
mod operation_id_tests {
    use serde_json::json;

    #[test]
    fn operations_without_an_id_get_a_unique_one_and_ids_stay() {
        let document = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {
            "/v1/models/{model_id}": {"get": {"responses": {}}, "post": {"operationId": "keep", "responses": {}}},
            "/v1/models/{model-id}": {"get": {"responses": {}}},
            "/": {"get": {"responses": {}}},
            "/get_2": {"delete": {"operationId": "get_v1_models_model_id_2", "responses": {}}}
        }});
        let lowered = crate::lower::lower(document).expect("lowers");
        let openapi = super::with_operation_ids(lowered.openapi);
        let ids: Vec<(&str, &str, Option<&str>)> = openapi
            .operations()
            .map(|(path, method, operation)| (path, method, operation.operation_id.as_deref()))
            .collect();
        assert_eq!(
            ids,
            [
                (
                    "/v1/models/{model_id}",
                    "get",
                    Some("get_v1_models_model_id")
                ),
                ("/v1/models/{model_id}", "post", Some("keep")),
                (
                    "/v1/models/{model-id}",
                    "get",
                    Some("get_v1_models_model_id_3")
                ),
                ("/", "get", Some("get")),
                ("/get_2", "delete", Some("get_v1_models_model_id_2")),
            ]
        );
    }
}
