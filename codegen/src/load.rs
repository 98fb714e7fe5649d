//! Text → JSON value: JSON or YAML, detected from the text itself.
//!
//! YAML goes through `serde_yaml_ng`, a maintained fork of the deprecated `serde_yaml`, and only
//! through [`parse_yaml`], so swapping the YAML crate touches one function.

use serde_json::{Map, Number, Value};

use crate::Error;

/// Parses a document or config. Text whose first non-blank character is `{` is JSON; the rest
/// is YAML (a superset of JSON for our purposes).
pub fn parse_document(text: &str) -> Result<Value, Error> {
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.is_empty() {
        return Err(Error::Empty);
    }
    let value = if trimmed.starts_with('{') {
        serde_json::from_str(trimmed).map_err(|error| Error::Syntax {
            format: "JSON",
            line: error.line(),
            column: error.column(),
            message: error.to_string(),
        })?
    } else {
        parse_yaml(trimmed)?
    };
    if value.is_null() {
        return Err(Error::Empty);
    }
    Ok(value)
}

/// The one place YAML is parsed.
fn parse_yaml(text: &str) -> Result<Value, Error> {
    let yaml: serde_yaml_ng::Value = serde_yaml_ng::from_str(text).map_err(|error| {
        let (line, column) = error.location().map_or((0, 0), |l| (l.line(), l.column()));
        Error::Syntax {
            format: "YAML",
            line,
            column,
            message: error.to_string(),
        }
    })?;
    yaml_to_json(yaml, "#")
}

/// YAML allows non-string keys (`200:` under `responses`) and values JSON has no room for; keys
/// become strings, and anything else unrepresentable is an error naming its place.
fn yaml_to_json(yaml: serde_yaml_ng::Value, pointer: &str) -> Result<Value, Error> {
    use serde_yaml_ng::Value as Y;
    let invalid = |reason: String| Error::Invalid {
        pointer: pointer.to_owned(),
        reason,
    };
    Ok(match yaml {
        Y::Null => Value::Null,
        Y::Bool(b) => Value::Bool(b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Number(i.into())
            } else if let Some(u) = n.as_u64() {
                Value::Number(u.into())
            } else {
                let f = n.as_f64().unwrap_or(f64::NAN);
                Value::Number(
                    Number::from_f64(f)
                        .ok_or_else(|| invalid(format!("{f} is not a JSON number")))?,
                )
            }
        }
        Y::String(s) => Value::String(s),
        Y::Sequence(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, item)| yaml_to_json(item, &format!("{pointer}/{i}")))
                .collect::<Result<_, _>>()?,
        ),
        Y::Mapping(mapping) => {
            let mut object = Map::new();
            for (key, value) in mapping {
                let key = match key {
                    Y::String(s) => s,
                    Y::Number(n) => n.to_string(),
                    Y::Bool(b) => b.to_string(),
                    other => {
                        return Err(invalid(format!("mapping key {other:?} is not a string")));
                    }
                };
                let child = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                let value = yaml_to_json(value, &child)?;
                object.insert(key, value);
            }
            Value::Object(object)
        }
        Y::Tagged(tagged) => {
            return Err(invalid(format!("YAML tag {} is not supported", tagged.tag)));
        }
    })
}
