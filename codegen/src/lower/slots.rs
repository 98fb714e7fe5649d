//! Where the document, not another schema, holds a schema: the slots the lowering walks.

use serde_json::Value;

use super::METHODS;

/// The outermost schemas of the document: where the document, not another schema, holds one.
/// Each is walked (and so checked) by [`Lowerer::schema`]; the order is always the same.
pub(super) fn schema_slots(document: &mut Value) -> Vec<&mut Value> {
    let mut slots = Vec::new();
    let Value::Object(document) = document else {
        return slots;
    };
    for (key, value) in document.iter_mut() {
        match (key.as_str(), value) {
            ("paths", Value::Object(paths)) => {
                for (path, item) in paths.iter_mut() {
                    if !path.starts_with("x-") {
                        path_item_slots(item, &mut slots);
                    }
                }
            }
            ("components", Value::Object(components)) => {
                for (kind, entries) in components.iter_mut() {
                    let Value::Object(entries) = entries else {
                        continue;
                    };
                    for entry in entries.values_mut() {
                        match kind.as_str() {
                            "schemas" => slots.push(entry),
                            "parameters" | "headers" => parameter_slots(entry, &mut slots),
                            "responses" | "requestBodies" => content_slots(entry, &mut slots),
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
    }
    slots
}

pub(super) fn path_item_slots<'v>(item: &'v mut Value, slots: &mut Vec<&'v mut Value>) {
    let Value::Object(item) = item else {
        return;
    };
    for (key, value) in item.iter_mut() {
        if key == "parameters" {
            parameter_list_slots(value, slots);
        } else if METHODS.contains(&key.as_str()) {
            let Value::Object(operation) = value else {
                continue;
            };
            for (key, value) in operation.iter_mut() {
                match (key.as_str(), value) {
                    ("parameters", value) => parameter_list_slots(value, slots),
                    ("requestBody", body) => content_slots(body, slots),
                    ("responses", Value::Object(responses)) => {
                        for response in responses.values_mut() {
                            content_slots(response, slots);
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}

pub(super) fn parameter_list_slots<'v>(parameters: &'v mut Value, slots: &mut Vec<&'v mut Value>) {
    if let Value::Array(parameters) = parameters {
        for parameter in parameters {
            parameter_slots(parameter, slots);
        }
    }
}

/// A parameter or header: its `schema`, and the schemas of its `content`.
pub(super) fn parameter_slots<'v>(parameter: &'v mut Value, slots: &mut Vec<&'v mut Value>) {
    let Value::Object(parameter) = parameter else {
        return;
    };
    for (key, value) in parameter.iter_mut() {
        match key.as_str() {
            "schema" => slots.push(value),
            "content" => media_slots(value, slots),
            _ => {}
        }
    }
}

/// A request body or response: the schemas of its `content` and of its `headers`.
pub(super) fn content_slots<'v>(holder: &'v mut Value, slots: &mut Vec<&'v mut Value>) {
    let Value::Object(holder) = holder else {
        return;
    };
    for (key, value) in holder.iter_mut() {
        match (key.as_str(), value) {
            ("content", content) => media_slots(content, slots),
            ("headers", Value::Object(headers)) => {
                for header in headers.values_mut() {
                    parameter_slots(header, slots);
                }
            }
            _ => {}
        }
    }
}

/// A `content` map: each media type's `schema`, and the headers of its `encoding`.
pub(super) fn media_slots<'v>(content: &'v mut Value, slots: &mut Vec<&'v mut Value>) {
    let Value::Object(content) = content else {
        return;
    };
    for media in content.values_mut() {
        let Value::Object(media) = media else {
            continue;
        };
        for (key, value) in media.iter_mut() {
            match (key.as_str(), value) {
                ("schema", schema) => slots.push(schema),
                ("encoding", Value::Object(encodings)) => {
                    for encoding in encodings.values_mut() {
                        if let Some(Value::Object(headers)) = encoding.get_mut("headers") {
                            for header in headers.values_mut() {
                                parameter_slots(header, slots);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
}
