//! Arbitrary JSON values of a generated type, derived from the generator's own model (the IR):
//! what a server following the document could send, each with the variant a union must decode
//! it as. One function of the IR reaches every type of every document, where strategies emitted
//! per type would grow every generated crate and need a proptest dependency there.
//!
//! Numbers are finite: JSON has no form for NaN or infinities (serde_json writes `null`), so a
//! server cannot send one and a round trip cannot keep one.

use std::collections::BTreeSet;

use baseten_codegen::ir::{Api, JsonKind, TagKind, TypeDef, TypeRef, UnionDef};
use serde_json::{Map, Value, json};

/// How deep named types nest before optional parts are left out and collections left empty.
const DEPTH: i32 = 3;
/// Past this many levels below `DEPTH` (a cycle of required fields), a value gives up as `null`.
const FLOOR: i32 = -12;

/// A value of one type, and the variant (of a union or enum) it must decode as.
#[derive(Debug, Clone)]
pub struct Case {
    pub value: Value,
    pub variant: Option<String>,
    /// The variants it may decode as instead, when its JSON is valid for them too and the
    /// decoded value encodes back to that same JSON: a best-fit union's members before
    /// `variant`, the first of which that reads it exactly wins.
    pub earlier: Vec<String>,
    /// A best-fit union's value: the type of the member it was made for, when it has a name
    /// (and so a round trip of its own). Where that member does not read the value exactly
    /// (a time written in another offset, say), a later member that does wins.
    pub member_type: Option<String>,
}

/// Values from a seed: the same seed gives the same value (proptest keeps failing seeds).
pub struct Values<'a> {
    api: &'a Api,
    state: u64,
    /// Whether a number may be written without a fraction (`3`), as many servers write
    /// integral numbers: not for a union's number member beside an integer one, which such a
    /// value is (the more specific kind is tried first).
    integral_numbers: bool,
    /// Whether times are written as the crate writes them (UTC `Z`, no trailing zero in the
    /// fraction): inside a best-fit union, where a member reads a time exactly only then, and
    /// a value no member reads exactly goes to the member keeping most of it, which may be
    /// another (the rule the runtime's own tests check).
    canonical_times: bool,
}

impl<'a> Values<'a> {
    pub fn new(api: &'a Api, seed: u64) -> Self {
        Self {
            api,
            state: seed,
            integral_numbers: true,
            canonical_times: false,
        }
    }

    /// splitmix64: small, and every seed is a different stream.
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n.max(1) as u64).unwrap_or(0)
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// A value of the named type, with the variant it must decode as.
    pub fn case(&mut self, name: &str) -> Case {
        self.named(name, DEPTH)
    }

    fn named(&mut self, name: &str, depth: i32) -> Case {
        let Some(def) = self.api.types.get(name) else {
            panic!("{name} is not a type of the model");
        };
        match def {
            TypeDef::Alias(alias) => Case {
                value: self.value(&alias.ty, depth),
                variant: None,
                earlier: Vec::new(),
                member_type: None,
            },
            TypeDef::Struct(def) => {
                let mut object = Map::new();
                for field in &def.fields {
                    let present = field.required || (depth > 0 && !self.one_in(3));
                    if !present {
                        continue;
                    }
                    let value = if field.nullable && (depth <= 0 || self.one_in(4)) {
                        Value::Null
                    } else {
                        self.value(&field.ty, depth - 1)
                    };
                    object.insert(field.wire_name.clone(), value);
                }
                Case {
                    value: Value::Object(object),
                    variant: None,
                    earlier: Vec::new(),
                    member_type: None,
                }
            }
            TypeDef::Enum(def) => {
                let known: BTreeSet<&str> = def.variants.iter().map(|v| v.wire.as_str()).collect();
                if def.variants.is_empty() || self.one_in(4) {
                    let raw = self.fresh_string(&known);
                    return Case {
                        value: Value::String(raw),
                        variant: Some(def.fallback.clone()),
                        earlier: Vec::new(),
                        member_type: None,
                    };
                }
                let variant = &def.variants[self.below(def.variants.len())];
                Case {
                    value: Value::String(variant.wire.clone()),
                    variant: Some(variant.rust_name.clone()),
                    earlier: Vec::new(),
                    member_type: None,
                }
            }
            TypeDef::ValueEnum(def) => {
                let known: Vec<Value> = def
                    .variants
                    .iter()
                    .map(|v| serde_json::from_str(&v.wire).unwrap_or_else(|e| panic!("{e}")))
                    .collect();
                if def.variants.is_empty() || self.one_in(4) {
                    // An object none of the listed values is: its one key is no listed key.
                    let keys: BTreeSet<&str> = known
                        .iter()
                        .filter_map(Value::as_object)
                        .flat_map(|object| object.keys().map(String::as_str))
                        .collect();
                    let mut object = Map::new();
                    object.insert(self.fresh_string(&keys), self.json(1));
                    return Case {
                        value: Value::Object(object),
                        variant: Some(def.fallback.clone()),
                        earlier: Vec::new(),
                        member_type: None,
                    };
                }
                let index = self.below(def.variants.len());
                Case {
                    value: known[index].clone(),
                    variant: Some(def.variants[index].rust_name.clone()),
                    earlier: Vec::new(),
                    member_type: None,
                }
            }
            TypeDef::IntEnum(def) => {
                if def.variants.is_empty() || self.one_in(4) {
                    let known: BTreeSet<i64> = def.variants.iter().map(|v| v.value).collect();
                    let mut raw = self.integer();
                    while known.contains(&raw) {
                        raw = raw.wrapping_add(1);
                    }
                    return Case {
                        value: json!(raw),
                        variant: Some(def.fallback.clone()),
                        earlier: Vec::new(),
                        member_type: None,
                    };
                }
                let variant = &def.variants[self.below(def.variants.len())];
                Case {
                    value: json!(variant.value),
                    variant: Some(variant.rust_name.clone()),
                    earlier: Vec::new(),
                    member_type: None,
                }
            }
            TypeDef::Union(def) => {
                if def.variants.is_empty() || self.one_in(5) {
                    let known: BTreeSet<&str> = def
                        .variants
                        .iter()
                        .flat_map(|v| std::iter::once(&v.tag).chain(&v.also))
                        .map(String::as_str)
                        .collect();
                    let tag = self.fresh_tag(def.tag_kind, &known);
                    let mut object = Map::new();
                    object.insert(def.tag_property.clone(), tag);
                    object.insert("x".to_owned(), self.json(1));
                    return Case {
                        value: Value::Object(object),
                        variant: Some(def.fallback.clone()),
                        earlier: Vec::new(),
                        member_type: None,
                    };
                }
                let variant = &def.variants[self.below(def.variants.len())];
                let mut value = self.value(&variant.ty, depth - 1);
                // The tag as the member's own schema allows it: where the member pins other
                // values than the union's tag, a server sends one of those, and the union must
                // still read it as this member.
                let tag = match self.allowed_values(&variant.ty, &def.tag_property) {
                    Some(allowed) if !allowed.contains(&variant.tag) => {
                        allowed[self.below(allowed.len())].clone()
                    }
                    // Any of the variant's tags: a member admitting several values is sent
                    // with each.
                    _ => {
                        let index = self.below(variant.also.len() + 1);
                        index
                            .checked_sub(1)
                            .and_then(|also| variant.also.get(also))
                            .unwrap_or(&variant.tag)
                            .clone()
                    }
                };
                if let Value::Object(object) = &mut value {
                    object.insert(def.tag_property.clone(), wire_tag(def, &tag));
                }
                Case {
                    value,
                    variant: Some(variant.rust_name.clone()),
                    earlier: Vec::new(),
                    member_type: None,
                }
            }
            TypeDef::Untagged(def) => {
                let index = self.below(def.variants.len());
                let variant = &def.variants[index];
                let outer = (self.integral_numbers, self.canonical_times);
                // A best-fit union reads an integral number as its integer member where it has
                // one, whichever member the number was made for: its numbers have fractions.
                self.integral_numbers = variant.kind != JsonKind::Number && !def.best_fit;
                self.canonical_times |= def.best_fit;
                let value = self.value(&variant.ty, depth - 1);
                (self.integral_numbers, self.canonical_times) = outer;
                // A best-fit union decodes a value as the first member whose reading encodes
                // back to the same JSON, which may be an earlier one.
                let earlier = if def.best_fit {
                    def.variants[..index]
                        .iter()
                        .map(|earlier| earlier.rust_name.clone())
                        .collect()
                } else {
                    Vec::new()
                };
                let member_type = match &variant.ty {
                    TypeRef::Named(name) if def.best_fit => Some(name.clone()),
                    _ => None,
                };
                Case {
                    value,
                    variant: Some(variant.rust_name.clone()),
                    earlier,
                    member_type,
                }
            }
        }
    }

    /// The values a struct `ty` (through aliases) allows at `property`, when it is a field of
    /// a string (or integer) enum's type, as tags' text.
    fn allowed_values(&self, ty: &TypeRef, property: &str) -> Option<Vec<String>> {
        let TypeRef::Named(name) = ty else {
            return None;
        };
        match self.api.types.get(name)? {
            TypeDef::Alias(alias) => self.allowed_values(&alias.ty, property),
            TypeDef::Struct(def) => {
                let field = def
                    .fields
                    .iter()
                    .find(|field| field.wire_name == property)?;
                let TypeRef::Named(field_type) = &field.ty else {
                    return None;
                };
                match self.api.types.get(field_type)? {
                    TypeDef::Enum(def) if !def.variants.is_empty() => {
                        Some(def.variants.iter().map(|v| v.wire.clone()).collect())
                    }
                    TypeDef::IntEnum(def) if !def.variants.is_empty() => {
                        Some(def.variants.iter().map(|v| v.value.to_string()).collect())
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A value of `ty`.
    pub fn value(&mut self, ty: &TypeRef, depth: i32) -> Value {
        if depth < FLOOR {
            return Value::Null;
        }
        match ty {
            TypeRef::String | TypeRef::Bytes => Value::String(self.string()),
            TypeRef::Integer => json!(self.integer()),
            TypeRef::Unsigned => json!(self.unsigned()),
            TypeRef::Number => self.number(),
            TypeRef::Boolean => Value::Bool(self.one_in(2)),
            TypeRef::Decimal => self.decimal(),
            TypeRef::Timestamp => Value::String(self.timestamp()),
            TypeRef::Date => Value::String(self.date()),
            TypeRef::Json => self.json(2),
            TypeRef::Named(name) => self.named(name, depth).value,
            TypeRef::Vec(item) => {
                let len = if depth > 0 { self.below(3) } else { 0 };
                Value::Array((0..len).map(|_| self.value(item, depth - 1)).collect())
            }
            TypeRef::Map(item) => {
                let len = if depth > 0 { self.below(3) } else { 0 };
                let mut object = Map::new();
                for _ in 0..len {
                    let key = self.string();
                    let value = self.value(item, depth - 1);
                    object.insert(key, value);
                }
                Value::Object(object)
            }
            TypeRef::Option(inner) => {
                if depth <= 0 || self.one_in(3) {
                    Value::Null
                } else {
                    self.value(inner, depth)
                }
            }
            TypeRef::Indirect(inner) => self.value(inner, depth),
        }
    }

    fn string(&mut self) -> String {
        const PIECES: [&str; 10] = [
            "",
            "a",
            "ü",
            "\"q\"",
            "line\nbreak",
            "😀",
            "x y",
            "%2e",
            "\\",
            "null",
        ];
        let mut text = String::new();
        for _ in 0..self.below(3) {
            text.push_str(PIECES[self.below(PIECES.len())]);
        }
        if self.one_in(2) {
            text.push_str(&format!("{:x}", self.next() % 0x10_0000));
        }
        text
    }

    /// A string in none of `known` (the values a fallback variant keeps).
    /// A tag of `kind` no variant has: a string, an integer, or (booleans being two) a string.
    fn fresh_tag(&mut self, kind: TagKind, known: &BTreeSet<&str>) -> Value {
        match kind {
            TagKind::Integer => {
                let mut raw = self.integer();
                while known.contains(raw.to_string().as_str()) {
                    raw = raw.wrapping_add(1);
                }
                json!(raw)
            }
            TagKind::String | TagKind::Boolean => Value::String(self.fresh_string(known)),
        }
    }

    fn fresh_string(&mut self, known: &BTreeSet<&str>) -> String {
        let mut text = self.string();
        while known.contains(text.as_str()) {
            text.push('_');
        }
        text
    }

    fn integer(&mut self) -> i64 {
        match self.below(5) {
            0 => 0,
            1 => i64::MAX,
            2 => i64::MIN,
            3 => i64::from(u8::try_from(self.below(200)).unwrap_or(0)) - 100,
            _ => self.next().cast_signed(),
        }
    }

    fn unsigned(&mut self) -> u64 {
        match self.below(3) {
            0 => 0,
            1 => u64::MAX,
            _ => self.next(),
        }
    }

    /// A finite number: an integer, a fraction, a huge or tiny magnitude, or any finite bit
    /// pattern.
    fn number(&mut self) -> Value {
        if self.integral_numbers && self.one_in(4) {
            return json!(self.integer());
        }
        let number = match self.below(4) {
            0 => 1.5,
            1 => -2.5e300,
            2 => 5e-324,
            _ => loop {
                let candidate = f64::from_bits(self.next());
                if candidate.is_finite() {
                    break candidate;
                }
            },
        };
        json!(number)
    }

    /// A decimal as servers send one: a string of digits or a JSON number.
    fn decimal(&mut self) -> Value {
        let units = self.next() % 1_000_000;
        let cents = self.next() % 100;
        let sign = if self.one_in(3) { "-" } else { "" };
        if self.one_in(2) {
            Value::String(format!("{sign}{units}.{cents:02}"))
        } else {
            serde_json::from_str(&format!("{sign}{units}.{cents:02}")).unwrap_or(Value::Null)
        }
    }

    fn date(&mut self) -> String {
        format!(
            "{:04}-{:02}-{:02}",
            1970 + self.below(100),
            1 + self.below(12),
            1 + self.below(28)
        )
    }

    fn timestamp(&mut self) -> String {
        let date = self.date();
        let (hour, minute, second) = (self.below(24), self.below(60), self.below(60));
        let fraction = if self.one_in(2) {
            format!(".{:06}", self.below(1_000_000))
        } else {
            String::new()
        };
        if self.canonical_times {
            let fraction = fraction.trim_end_matches('0').trim_end_matches('.');
            return format!("{date}T{hour:02}:{minute:02}:{second:02}{fraction}Z");
        }
        let offset = match self.below(3) {
            0 => "Z",
            1 => "+02:00",
            _ => "-07:30",
        };
        format!("{date}T{hour:02}:{minute:02}:{second:02}{fraction}{offset}")
    }

    /// Any JSON, `depth` levels deep at most.
    fn json(&mut self, depth: i32) -> Value {
        match self.below(if depth > 0 { 7 } else { 5 }) {
            0 => Value::Null,
            1 => Value::Bool(self.one_in(2)),
            2 => json!(self.integer()),
            3 => self.number(),
            4 => Value::String(self.string()),
            5 => Value::Array((0..self.below(3)).map(|_| self.json(depth - 1)).collect()),
            _ => {
                let mut object = Map::new();
                for _ in 0..self.below(3) {
                    let key = self.string();
                    object.insert(key, self.json(depth - 1));
                }
                Value::Object(object)
            }
        }
    }
}

/// A tag's text as the union's tag property holds it on the wire.
fn wire_tag(def: &UnionDef, tag: &str) -> Value {
    def.tag_kind
        .wire_value(tag)
        .unwrap_or_else(|| panic!("{}: the tag {tag:?} is no {:?}", def.name, def.tag_kind))
}
