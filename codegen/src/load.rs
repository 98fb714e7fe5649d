//! Text → JSON value: JSON or YAML, detected from the text itself.
//!
//! YAML goes through `serde_yaml_ng`, a maintained fork of the deprecated `serde_yaml`, and only
//! through `parse_yaml`, so swapping the YAML crate touches one function.

use std::cell::RefCell;

use serde_json::{Map, Number, Value};

use crate::Error;
use crate::error::Pointer;

/// Parses a document or config. Text whose first non-blank character is `{` is JSON; the rest
/// is YAML (a superset of JSON for our purposes).
pub fn parse_document(text: &str) -> Result<Value, Error> {
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.is_empty() {
        return Err(Error::Empty);
    }
    let value = if trimmed.starts_with('{') {
        parse_json(trimmed)?
    } else {
        parse_yaml(trimmed)?
    };
    if value.is_null() {
        return Err(Error::Empty);
    }
    check_depth(&value, &Pointer::root(), 0)?;
    Ok(value)
}

/// Deepest nesting of objects and arrays accepted. Published documents nest about 11 deep;
/// the later stages recurse per level (decoding into `openapiv3` most of all), and this keeps
/// them inside half of a 2 MiB thread stack even in a debug build, which overflowed 2 MiB near
/// 60 levels of nested `items` and 1 MiB near 45.
pub const MAX_DEPTH: usize = 32;

/// Refuses nesting deeper than [`MAX_DEPTH`], naming the first container too deep. The
/// parsers stop at 128 levels, so this recursion is bounded too.
fn check_depth(value: &Value, pointer: &Pointer, depth: usize) -> Result<(), Error> {
    if depth >= MAX_DEPTH && (value.is_object() || value.is_array()) {
        return Err(too_deep(pointer.to_string()));
    }
    match value {
        Value::Object(object) => {
            for (key, child) in object {
                check_depth(child, &pointer.join(key), depth + 1)?;
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                check_depth(child, &pointer.join(i), depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn too_deep(pointer: String) -> Error {
    Error::Invalid {
        pointer,
        reason: format!("nested more than {MAX_DEPTH} levels deep"),
    }
}

/// The one place JSON is parsed. `serde_json::Value` keeps the last of two equal keys; YAML
/// refuses them, and so does this, naming the second one.
fn parse_json(text: &str) -> Result<Value, Error> {
    use serde::de::DeserializeSeed;
    let path = RefCell::new(Vec::new());
    let duplicate = RefCell::new(None);
    let seed = UniqueKeys {
        path: &path,
        duplicate: &duplicate,
    };
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = seed
        .deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value));
    value.map_err(|error| match duplicate.into_inner() {
        Some((pointer, Fault::DuplicateKey(key))) => Error::DuplicateKey {
            pointer,
            key,
            line: error.line(),
            column: error.column(),
        },
        Some((pointer, Fault::TooDeep)) => too_deep(pointer),
        None => Error::Syntax {
            format: "JSON",
            line: error.line(),
            column: error.column(),
            message: error.to_string(),
        },
    })
}

/// What [`UniqueKeys`] refused, and where.
enum Fault {
    DuplicateKey(String),
    /// Deeper than [`MAX_DEPTH`]: refused before `serde_json`'s own limit, which names no place.
    TooDeep,
}

/// Deserialises a JSON value like `serde_json::Value` does, but refuses an object with a key
/// twice or nesting deeper than [`MAX_DEPTH`], recording where. `path` holds the keys and
/// indices down to the value being read.
#[derive(Clone, Copy)]
struct UniqueKeys<'p> {
    path: &'p RefCell<Vec<String>>,
    duplicate: &'p RefCell<Option<(String, Fault)>>,
}

impl UniqueKeys<'_> {
    fn pointer(&self) -> Pointer {
        let mut pointer = Pointer::root();
        for segment in self.path.borrow().iter() {
            pointer = pointer.join(segment);
        }
        pointer
    }

    /// Refuses a container at [`MAX_DEPTH`], as [`check_depth`] does.
    fn check_depth<E: serde::de::Error>(&self) -> Result<(), E> {
        if self.path.borrow().len() < MAX_DEPTH {
            return Ok(());
        }
        *self.duplicate.borrow_mut() = Some((self.pointer().to_string(), Fault::TooDeep));
        Err(E::custom("nested too deep"))
    }

    /// Reads one child value with `segment` on the path.
    fn child<T>(&self, segment: String, read: impl FnOnce(Self) -> T) -> T {
        self.path.borrow_mut().push(segment);
        let value = read(*self);
        self.path.borrow_mut().pop();
        value
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for UniqueKeys<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for UniqueKeys<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.check_depth()?;
        let mut items = Vec::new();
        while let Some(item) =
            self.child(items.len().to_string(), |seed| seq.next_element_seed(seed))?
        {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.check_depth()?;
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                let pointer = self.pointer().join(&key).to_string();
                *self.duplicate.borrow_mut() = Some((pointer, Fault::DuplicateKey(key)));
                return Err(serde::de::Error::custom("duplicate key"));
            }
            let value = self.child(key.clone(), |seed| map.next_value_seed(seed))?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
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
                let child = Pointer::from_ref(pointer).join(&key).to_string();
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
