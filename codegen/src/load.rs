//! Text → JSON value: JSON or YAML, detected from the text itself.
//!
//! YAML goes through `serde_yaml_ng`, a maintained fork of the deprecated `serde_yaml`, and only
//! through `parse_yaml`, so swapping the YAML crate touches one function. Both formats are
//! read by one visitor (`UniqueKeys`) that refuses duplicate keys, nesting deeper than
//! `MAX_DEPTH` and YAML aliases expanding the document past a budget, naming the place.

use std::cell::{Cell, RefCell};

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
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let reader = Reader::new(text);
    let value = reader
        .seed()
        .deserialize_from(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value));
    value.map_err(|error| {
        reader.fault(|message| Error::Syntax {
            format: "JSON",
            line: error.line(),
            column: error.column(),
            message: message.unwrap_or_else(|| error.to_string()),
        })
    })
}

/// The one place YAML is parsed: through the same reader as JSON, so that YAML aliases, which
/// `serde_yaml_ng` expands on every use, cannot turn a small document into a huge one.
fn parse_yaml(text: &str) -> Result<Value, Error> {
    let reader = Reader::new(text);
    let value = reader
        .seed()
        .deserialize_from(serde_yaml_ng::Deserializer::from_str(text));
    value.map_err(|error| {
        reader.fault(|message| {
            let (line, column) = error.location().map_or((0, 0), |l| (l.line(), l.column()));
            Error::Syntax {
                format: "YAML",
                line,
                column,
                message: message.unwrap_or_else(|| error.to_string()),
            }
        })
    })
}

/// Nodes and string bytes a document may expand to beyond its own length (which no document
/// without aliases exceeds: a node costs one, a string one more per byte, and every node takes
/// at least a byte of text, every string byte one more): room for aliases as documents use them,
/// none for an alias of a list of aliases, so reading stays linear in the text.
const EXPANSION_ALLOWANCE: usize = 1 << 20;

/// What one parse has read: the path down to the value being read, what it refused and where,
/// and how much more it may read.
struct Reader {
    path: RefCell<Vec<Segment>>,
    fault: RefCell<Option<(String, Fault)>>,
    budget: Cell<usize>,
}

/// A step of the path: indices are kept as numbers, as most values read are array items and
/// the path is only turned into text for an error.
enum Segment {
    Index(usize),
    Key(String),
}

/// What [`Reader`] refused.
enum Fault {
    DuplicateKey(String),
    /// Deeper than [`MAX_DEPTH`]: refused before the parser's own limit, which names no place.
    TooDeep,
    /// Larger, with its aliases expanded, than the budget.
    TooLarge,
    /// A value JSON has no room for (a non-finite number, a YAML tag, a non-scalar key).
    Unrepresentable(String),
}

impl Reader {
    fn new(text: &str) -> Self {
        Reader {
            path: RefCell::new(Vec::new()),
            fault: RefCell::new(None),
            budget: Cell::new(text.len().saturating_add(EXPANSION_ALLOWANCE)),
        }
    }

    fn seed(&self) -> UniqueKeys<'_> {
        UniqueKeys { reader: self }
    }

    /// The error for a failed parse: the fault recorded, or the parser's own (built by `syntax`
    /// with the message to show, `None` for the parser's).
    fn fault(&self, syntax: impl FnOnce(Option<String>) -> Error) -> Error {
        match self.fault.borrow_mut().take() {
            Some((pointer, Fault::DuplicateKey(key))) => match syntax(None) {
                Error::Syntax {
                    format,
                    line,
                    column,
                    ..
                } => Error::DuplicateKey {
                    format,
                    pointer,
                    key,
                    line,
                    column,
                },
                other => other,
            },
            Some((pointer, Fault::TooDeep)) => too_deep(pointer),
            Some((pointer, Fault::TooLarge)) => Error::Invalid {
                pointer,
                reason: format!(
                    "with its aliases expanded, the document is larger than its length plus \
                     {EXPANSION_ALLOWANCE} nodes and bytes"
                ),
            },
            Some((pointer, Fault::Unrepresentable(reason))) => Error::Invalid { pointer, reason },
            None => syntax(None),
        }
    }
}

/// Deserialises a value like `serde_json::Value` does, from JSON or YAML, but refuses an
/// object with a key twice, nesting deeper than [`MAX_DEPTH`], more than the budget of nodes
/// and bytes, and values JSON cannot hold, recording where.
#[derive(Clone, Copy)]
struct UniqueKeys<'r> {
    reader: &'r Reader,
}

impl UniqueKeys<'_> {
    fn deserialize_from<'de, D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Value, D::Error> {
        use serde::de::DeserializeSeed;
        self.deserialize(deserializer)
    }

    fn pointer(&self) -> Pointer {
        let mut pointer = Pointer::root();
        for segment in self.reader.path.borrow().iter() {
            pointer = match segment {
                Segment::Index(index) => pointer.join(index),
                Segment::Key(key) => pointer.join(key),
            };
        }
        pointer
    }

    fn refuse<E: serde::de::Error>(&self, pointer: Pointer, fault: Fault) -> E {
        *self.reader.fault.borrow_mut() = Some((pointer.to_string(), fault));
        E::custom("refused")
    }

    /// Takes `cost` from the budget, or refuses the value here.
    fn spend<E: serde::de::Error>(&self, cost: usize) -> Result<(), E> {
        let left = self.reader.budget.get();
        if left < cost {
            return Err(self.refuse(self.pointer(), Fault::TooLarge));
        }
        self.reader.budget.set(left - cost);
        Ok(())
    }

    /// Refuses a container at [`MAX_DEPTH`], as [`check_depth`] does.
    fn check_depth<E: serde::de::Error>(&self) -> Result<(), E> {
        self.spend(1)?;
        if self.reader.path.borrow().len() < MAX_DEPTH {
            return Ok(());
        }
        Err(self.refuse(self.pointer(), Fault::TooDeep))
    }

    /// Reads one child value with `segment` on the path, and gives the segment back.
    fn child<T>(&self, segment: Segment, read: impl FnOnce(Self) -> T) -> (T, Option<Segment>) {
        self.reader.path.borrow_mut().push(segment);
        let value = read(*self);
        let segment = self.reader.path.borrow_mut().pop();
        (value, segment)
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

    fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Value, E> {
        self.spend(1)?;
        Ok(Value::Bool(value))
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Value, E> {
        self.spend(1)?;
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Value, E> {
        self.spend(1)?;
        Ok(Value::Number(value.into()))
    }

    /// A YAML integer beyond 64 bits (`-9223372036854776000`, written by tools that print an
    /// `f64`): read as the number it is, to double precision, as JSON readers do.
    fn visit_i128<E: serde::de::Error>(self, value: i128) -> Result<Value, E> {
        // Within 64 bits it is exact; beyond, an `f64` is what JSON has room for.
        match i64::try_from(value) {
            Ok(value) => self.visit_i64(value),
            Err(_) => self.visit_f64(value as f64),
        }
    }

    fn visit_u128<E: serde::de::Error>(self, value: u128) -> Result<Value, E> {
        match u64::try_from(value) {
            Ok(value) => self.visit_u64(value),
            Err(_) => self.visit_f64(value as f64),
        }
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Value, E> {
        self.spend(1)?;
        match Number::from_f64(value) {
            Some(number) => Ok(Value::Number(number)),
            None => Err(self.refuse(
                self.pointer(),
                Fault::Unrepresentable(format!("{value} is not a JSON number")),
            )),
        }
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Value, E> {
        self.spend(1 + value.len())?;
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, value: String) -> Result<Value, E> {
        self.spend(1 + value.len())?;
        Ok(Value::String(value))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        self.spend(1)?;
        Ok(Value::Null)
    }

    /// A YAML tag (`!include x`): JSON has no room for one.
    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (tag, _) = data.variant::<String>()?;
        Err(self.refuse(
            self.pointer(),
            Fault::Unrepresentable(format!("YAML tag !{tag} is not supported")),
        ))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.check_depth()?;
        let mut items = Vec::new();
        while let Some(item) = self
            .child(Segment::Index(items.len()), |seed| {
                seq.next_element_seed(seed)
            })
            .0?
        {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.check_depth()?;
        let mut object = Map::new();
        while let Some(key) = map.next_key_seed(KeySeed(self))? {
            self.spend(1 + key.len())?;
            if object.contains_key(&key) {
                let pointer = self.pointer().join(&key);
                return Err(self.refuse(pointer, Fault::DuplicateKey(key)));
            }
            let (value, key) = self.child(Segment::Key(key), |seed| map.next_value_seed(seed));
            if let Some(Segment::Key(key)) = key {
                object.insert(key, value?);
            }
        }
        Ok(Value::Object(object))
    }
}

/// Reads a mapping key as a string: YAML allows numbers and booleans (`200:` under
/// `responses`), which become their text; a key JSON has no room for is refused.
struct KeySeed<'r>(UniqueKeys<'r>);

impl<'de> serde::de::DeserializeSeed<'de> for KeySeed<'_> {
    type Value = String;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl KeySeed<'_> {
    fn refuse<E: serde::de::Error>(&self, found: &str) -> E {
        let reason = format!("a mapping key must be a string, found {found}");
        self.0
            .refuse(self.0.pointer(), Fault::Unrepresentable(reason))
    }
}

impl<'de> serde::de::Visitor<'de> for KeySeed<'_> {
    type Value = String;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a mapping key")
    }

    fn visit_str<E>(self, value: &str) -> Result<String, E> {
        Ok(value.to_owned())
    }

    fn visit_string<E>(self, value: String) -> Result<String, E> {
        Ok(value)
    }

    fn visit_bool<E>(self, value: bool) -> Result<String, E> {
        Ok(value.to_string())
    }

    fn visit_i64<E>(self, value: i64) -> Result<String, E> {
        Ok(value.to_string())
    }

    fn visit_u64<E>(self, value: u64) -> Result<String, E> {
        Ok(value.to_string())
    }

    fn visit_f64<E>(self, value: f64) -> Result<String, E> {
        Ok(value.to_string())
    }

    fn visit_i128<E>(self, value: i128) -> Result<String, E> {
        Ok(value.to_string())
    }

    fn visit_u128<E>(self, value: u128) -> Result<String, E> {
        Ok(value.to_string())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<String, E> {
        Err(self.refuse("null"))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(self.refuse("a sequence"))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(self.refuse("a mapping"))
    }

    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(self.refuse("a tagged value"))
    }
}
