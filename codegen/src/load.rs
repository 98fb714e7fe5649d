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
    let value = parse(text, Depth::Refuse)?.value;
    check_depth(&value, &Pointer::root(), 0)?;
    Ok(value)
}

/// An OpenAPI document as read by [`parse_spec`]: the value, and where a container nested
/// past [`MAX_DEPTH`] was cut off (each stands as `null` in the value).
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// The document, with each container too deep replaced by `null`.
    pub value: Value,
    /// The pointers of the containers cut off, in document order.
    pub too_deep: Vec<String>,
}

/// Parses an OpenAPI document like [`parse_document`], except that nesting past
/// [`MAX_DEPTH`] does not refuse the document: the container at the limit is skipped (its
/// syntax still checked, its size still counted) and recorded, for the lowering to replace the
/// schema holding it with an untyped one and say so.
pub fn parse_spec(text: &str) -> Result<Loaded, Error> {
    parse(text, Depth::CutOff)
}

/// What the reader does with a container at [`MAX_DEPTH`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Depth {
    Refuse,
    CutOff,
}

fn parse(text: &str, depth: Depth) -> Result<Loaded, Error> {
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.is_empty() {
        return Err(Error::Empty);
    }
    let reader = Reader::new(trimmed, depth);
    let value = if trimmed.starts_with('{') {
        parse_json(trimmed, &reader)?
    } else {
        parse_yaml(trimmed, &reader)?
    };
    if value.is_null() {
        return Err(Error::Empty);
    }
    Ok(Loaded {
        value,
        too_deep: reader.too_deep.take(),
    })
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
fn parse_json(text: &str, reader: &Reader) -> Result<Value, Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
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
fn parse_yaml(text: &str, reader: &Reader) -> Result<Value, Error> {
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
    depth: Depth,
    /// The containers cut off at [`MAX_DEPTH`] (with [`Depth::CutOff`]).
    too_deep: RefCell<Vec<String>>,
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
    fn new(text: &str, depth: Depth) -> Self {
        Reader {
            path: RefCell::new(Vec::new()),
            fault: RefCell::new(None),
            budget: Cell::new(text.len().saturating_add(EXPANSION_ALLOWANCE)),
            depth,
            too_deep: RefCell::new(Vec::new()),
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

    /// Whether a container here is read: refuses one at [`MAX_DEPTH`], as [`check_depth`]
    /// does, or (cutting off) records it and answers false, for the caller to skip it.
    fn check_depth<E: serde::de::Error>(&self) -> Result<bool, E> {
        self.spend(1)?;
        if self.reader.path.borrow().len() < MAX_DEPTH {
            return Ok(true);
        }
        match self.reader.depth {
            Depth::Refuse => Err(self.refuse(self.pointer(), Fault::TooDeep)),
            Depth::CutOff => {
                let pointer = self.pointer().to_string();
                self.reader.too_deep.borrow_mut().push(pointer);
                Ok(false)
            }
        }
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
        if !self.check_depth()? {
            let skip = Skip(self, 1);
            while seq.next_element_seed(skip)?.is_some() {}
            return Ok(Value::Null);
        }
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
        if !self.check_depth()? {
            let skip = Skip(self, 1);
            while map.next_key_seed(skip)?.is_some() {
                map.next_value_seed(skip)?;
            }
            return Ok(Value::Null);
        }
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

/// Deepest nesting read past a cut-off container: below the parsers' own limit (128), which
/// names no place, so a document nested deeper still is refused naming the container cut off.
const MAX_SKIPPED_DEPTH: usize = 100;

/// Reads past a value cut off at [`MAX_DEPTH`], spending the budget as reading it would (so a
/// YAML alias expanding there costs what it costs anywhere), and refusing nesting past
/// [`MAX_SKIPPED_DEPTH`]; the second field is the depth below the cut-off container.
#[derive(Clone, Copy)]
struct Skip<'r>(UniqueKeys<'r>, usize);

impl Skip<'_> {
    /// The same reader one level down, or the refusal of a container too deep even to skip.
    fn deeper<E: serde::de::Error>(self) -> Result<Self, E> {
        self.0.spend(1)?;
        if MAX_DEPTH + self.1 >= MAX_SKIPPED_DEPTH {
            return Err(self.0.refuse(self.0.pointer(), Fault::TooDeep));
        }
        Ok(Skip(self.0, self.1 + 1))
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for Skip<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Skip<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        self.0.spend(1)
    }

    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        self.0.spend(1)
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        self.0.spend(1)
    }

    fn visit_i128<E: serde::de::Error>(self, _: i128) -> Result<(), E> {
        self.0.spend(1)
    }

    fn visit_u128<E: serde::de::Error>(self, _: u128) -> Result<(), E> {
        self.0.spend(1)
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        self.0.spend(1)
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<(), E> {
        self.0.spend(1 + value.len())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.0.spend(1)
    }

    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        let (tag, _) = data.variant::<String>()?;
        Err(self.0.refuse(
            self.0.pointer(),
            Fault::Unrepresentable(format!("YAML tag !{tag} is not supported")),
        ))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let deeper = self.deeper()?;
        while seq.next_element_seed(deeper)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let deeper = self.deeper()?;
        while map.next_key_seed(deeper)?.is_some() {
            map.next_value_seed(deeper)?;
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `levels` arrays nested in `{"a": ...}`.
    fn nested(levels: usize) -> String {
        format!("{{\"a\": {}1{}}}", "[".repeat(levels), "]".repeat(levels))
    }

    #[test]
    fn a_container_too_deep_is_cut_off_and_named_or_refused() {
        let fits = parse_spec(&nested(MAX_DEPTH - 1)).unwrap();
        assert!(fits.too_deep.is_empty());
        let cut = parse_spec(&nested(MAX_DEPTH + 5)).unwrap();
        let at = format!("#/a{}", "/0".repeat(MAX_DEPTH - 1));
        assert_eq!(cut.too_deep, vec![at.clone()]);
        let mut inside = &cut.value["a"];
        for _ in 0..MAX_DEPTH - 1 {
            inside = &inside[0];
        }
        assert_eq!(inside, &Value::Null);
        // A config or lock is still refused, and so is nesting past what is skipped.
        let refused = |text: &str| parse_document(text).map_err(|error| error.to_string());
        assert_eq!(
            refused(&nested(MAX_DEPTH + 5)),
            Err(format!("{at}: nested more than {MAX_DEPTH} levels deep"))
        );
        assert_eq!(
            parse_spec(&nested(MAX_SKIPPED_DEPTH + 1)).map_err(|error| error.to_string()),
            Err(format!("{at}: nested more than {MAX_DEPTH} levels deep"))
        );
        assert!(parse_spec(&nested(MAX_SKIPPED_DEPTH - 2)).is_ok());
    }

    #[test]
    fn what_is_cut_off_still_costs_its_size() {
        let deep = format!(
            "{{\"a\": {}\"{}\"{}}}",
            "[".repeat(40),
            "x".repeat(64),
            "]".repeat(40)
        );
        let reader = Reader::new("", Depth::CutOff);
        reader.budget.set(60);
        let parsed = parse_json(&deep, &reader);
        assert!(parsed.is_err_and(|error| error.to_string().contains("larger than")));
    }
}
