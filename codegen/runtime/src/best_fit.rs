//! The best-fit decoding of a union whose members no rule of the generator tells apart (no tag,
//! no property of one member's own, no JSON kind or string format of one member's own): the
//! last resort before `serde_json::Value`. serde's `untagged` takes the first member that
//! decodes, which is lossy (the first all-optional struct swallows every object); this follows
//! pydantic v2's "smart" union mode (<https://docs.pydantic.dev/latest/concepts/unions/#smart-mode>):
//!
//! 1. the value is decoded as each member in declaration order; the first member whose decoded
//!    value encodes back to the same JSON wins ([`same_json`]: an entry holding `null` is the
//!    same as no entry, as every optional field reads both as `None`);
//! 2. if none is exact, the member whose encoding keeps the most of the input wins (each
//!    object entry, array item and scalar that comes back at its place, counted through every
//!    level: a number counts when its value comes back, `3` as `3.0`), ties by order;
//! 3. if no member decodes the value, an error naming the union and each member's error.
//!
//! A union nested in a member is decoded anew for each member tried, so a decoding is bounded
//! by a budget of work in proportion to the outermost value's size (see [`BUDGET_PER_NODE`]):
//! past it the value is refused with an error, so no document's unions make a decoding
//! exponential in the depth of the value.

use std::cell::Cell;

use serde_core::de::{DeserializeOwned, Error as _};
use serde_core::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// The work (JSON nodes read by member attempts) one outermost best-fit decoding may do, per
/// node of its value.
pub const BUDGET_PER_NODE: usize = 64;
/// The work any outermost best-fit decoding may do, however small its value.
pub const BUDGET_FLOOR: usize = 4096;
/// The most characters of one member's error a union's error quotes: a union nested in members
/// would otherwise quote its members' errors once per level.
const QUOTED_ERROR: usize = 160;

thread_local! {
    /// How many best-fit decodings enclose the current one on this thread, and the work they
    /// have left.
    static DECODING: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

/// One member's reading of a value: the union's variant holding the member's decoded payload,
/// whether its encoding is the input exactly, and how much of the input it keeps.
#[derive(Debug)]
pub struct Fit<T> {
    value: T,
    exact: bool,
    kept: usize,
}

/// One member's attempt at a value: a [`Fit`], or the member's decode error.
pub type Member<T> = fn(&Value) -> Result<Fit<T>, String>;

/// Decodes `json` as the payload type `P` of one member and wraps it as the union's variant
/// (`wrap` is the variant's constructor); the member's attempt in [`deserialize`]'s list.
///
/// # Errors
///
/// The member's own decode error, or its encoding's.
pub fn fit<P: DeserializeOwned + Serialize, T>(
    json: &Value,
    wrap: fn(P) -> T,
) -> Result<Fit<T>, String> {
    let payload = P::deserialize(json).map_err(|error| error.to_string())?;
    let encoded = serde_json::to_value(&payload).map_err(|error| error.to_string())?;
    let exact = same_json(json, &encoded);
    Ok(Fit {
        kept: kept(json, &encoded),
        exact,
        value: wrap(payload),
    })
}

/// Reads a value whole and decodes it as the best-fitting of `members` (the module's rule), in
/// the deserializer's own error type so a path-tracking caller still places the error.
///
/// # Errors
///
/// When no member decodes the value, or the decoding runs past its budget.
pub fn deserialize<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    union: &str,
    members: &[Member<T>],
) -> Result<T, D::Error> {
    let json = Value::deserialize(deserializer)?;
    decode(&json, union, members).map_err(D::Error::custom)
}

/// Decodes `json` as the best-fitting of `members`, the union `union`'s in declaration order.
///
/// # Errors
///
/// When no member decodes the value (each member's error, shortened, in order), or the
/// decoding runs past its budget.
pub fn decode<T>(json: &Value, union: &str, members: &[Member<T>]) -> Result<T, String> {
    let size = nodes(json);
    let _enclosing = Enclosing::enter(size);
    let mut best: Option<Fit<T>> = None;
    let mut errors = Vec::new();
    for (index, member) in members.iter().enumerate() {
        if !spend(size) {
            return Err(format!(
                "`{union}`: the value's members take more work to tell apart than its size allows"
            ));
        }
        match member(json) {
            Ok(fit) if fit.exact => return Ok(fit.value),
            Ok(fit) => {
                if best.as_ref().is_none_or(|best| fit.kept > best.kept) {
                    best = Some(fit);
                }
            }
            Err(error) => errors.push(format!("member {index}: {}", shortened(&error))),
        }
    }
    best.map(|fit| fit.value).ok_or_else(|| {
        format!(
            "no member of `{union}` decodes the value ({})",
            errors.join("; ")
        )
    })
}

/// A best-fit decoding in progress on this thread: the outermost sets the budget, and leaving
/// it clears the count.
struct Enclosing;

impl Enclosing {
    /// Enters a decoding of a value of `size` nodes.
    fn enter(size: usize) -> Self {
        DECODING.with(|state| {
            let (depth, left) = state.get();
            let left = if depth == 0 {
                size.saturating_mul(BUDGET_PER_NODE)
                    .saturating_add(BUDGET_FLOOR)
            } else {
                left
            };
            state.set((depth + 1, left));
        });
        Enclosing
    }
}

impl Drop for Enclosing {
    fn drop(&mut self) {
        DECODING.with(|state| {
            let (depth, left) = state.get();
            state.set((depth.saturating_sub(1), left));
        });
    }
}

/// Takes `work` from the budget; false when too little is left.
fn spend(work: usize) -> bool {
    DECODING.with(|state| {
        let (depth, left) = state.get();
        match left.checked_sub(work) {
            Some(left) => {
                state.set((depth, left));
                true
            }
            None => false,
        }
    })
}

/// Whether `output` is `input` again, an object entry holding `null` being the same as no
/// entry (on either side, at every level): a member whose optional fields read `null` as
/// `None` and leave it out when writing still reads such a value exactly. Array items and
/// scalars compare as they are (a number by its JSON text).
pub fn same_json(input: &Value, output: &Value) -> bool {
    match (input, output) {
        (Value::Object(input), Value::Object(output)) => {
            let holds = |object: &serde_json::Map<String, Value>, key: &String| {
                object.get(key).is_some_and(|value| !value.is_null())
            };
            input
                .iter()
                .filter(|(_, value)| !value.is_null())
                .all(|(key, value)| output.get(key).is_some_and(|back| same_json(value, back)))
                && output
                    .keys()
                    .all(|key| !holds(output, key) || holds(input, key))
        }
        (Value::Array(input), Value::Array(output)) => {
            input.len() == output.len()
                && input
                    .iter()
                    .zip(output)
                    .all(|(value, back)| same_json(value, back))
        }
        _ => input == output,
    }
}

/// How many JSON nodes `json` holds (itself, and every entry and item through every level).
fn nodes(json: &Value) -> usize {
    match json {
        Value::Object(object) => 1 + object.values().map(nodes).sum::<usize>(),
        Value::Array(items) => 1 + items.iter().map(nodes).sum::<usize>(),
        _ => 1,
    }
}

/// How many nodes of `input` come back in `output` at their place: an object or array that
/// stays one counts, with what its entries (by key) and items (by index) keep; a scalar counts
/// when it comes back equal (a number by value).
fn kept(input: &Value, output: &Value) -> usize {
    match (input, output) {
        (Value::Object(input), Value::Object(output)) => {
            1 + input
                .iter()
                .filter_map(|(key, value)| match output.get(key) {
                    Some(back) => Some(kept(value, back)),
                    // Left out for `null`: the same (see `same_json`).
                    None => value.is_null().then_some(1),
                })
                .sum::<usize>()
        }
        (Value::Array(input), Value::Array(output)) => {
            1 + input
                .iter()
                .zip(output)
                .map(|(value, back)| kept(value, back))
                .sum::<usize>()
        }
        (Value::Number(input), Value::Number(output)) => {
            usize::from(input == output || input.as_f64() == output.as_f64())
        }
        // Containers of different kinds, or other scalars.
        _ => usize::from(input == output),
    }
}

/// `error`'s first [`QUOTED_ERROR`] characters, `…` after them when it is longer.
fn shortened(error: &str) -> String {
    match error.char_indices().nth(QUOTED_ERROR) {
        Some((end, _)) => format!("{}…", &error[..end]),
        None => error.to_owned(),
    }
}

#[cfg(test)]
#[path = "best_fit_tests.rs"]
mod tests;
