//! `Patch<T>`: a field of a request body that can be left alone, cleared, or set — the three
//! things a PATCH can say about it, which `Option<T>` cannot tell apart.

use serde_core::{Deserialize, Deserializer, Serialize, Serializer};

/// One optional, nullable field of a request body.
///
/// - [`Patch::Unchanged`] (the default): the field is not sent, so the server keeps its value.
/// - [`Patch::Clear`]: sent as `null`, so the server clears it (back to its default).
/// - [`Patch::Set`]: sent as the value.
///
/// The generator uses it for optional nullable fields of types only request bodies use. Its
/// field carries `#[serde(default, skip_serializing_if = "Patch::is_unchanged")]`, so
/// `Unchanged` leaves no trace in the JSON.
///
// The import is hidden: the generated crate shows this page as its own
// `primitives::Patch`, whose readers depend on that crate, not on this one.
/// ```
/// # use baseten_runtime::Patch;
/// #[derive(serde::Serialize, Default)]
/// struct Settings {
///     #[serde(default, skip_serializing_if = "Patch::is_unchanged")]
///     min_replica: Patch<i64>,
///     #[serde(default, skip_serializing_if = "Patch::is_unchanged")]
///     max_replica: Patch<i64>,
///     #[serde(default, skip_serializing_if = "Patch::is_unchanged")]
///     scale_down_delay: Patch<i64>,
/// }
/// let body = Settings { min_replica: 2.into(), max_replica: Patch::Clear, ..Default::default() };
/// assert_eq!(serde_json::to_string(&body)?, r#"{"min_replica":2,"max_replica":null}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Patch<T> {
    /// Not sent: the server keeps what it has.
    #[default]
    Unchanged,
    /// Sent as `null`: the server clears the field.
    Clear,
    /// Sent as this value.
    Set(T),
}

impl<T> Patch<T> {
    /// Whether the field is left out of the request (serde's `skip_serializing_if`).
    pub fn is_unchanged(&self) -> bool {
        matches!(self, Self::Unchanged)
    }

    /// The value to set, if any.
    pub fn as_set(&self) -> Option<&T> {
        match self {
            Self::Set(value) => Some(value),
            Self::Unchanged | Self::Clear => None,
        }
    }
}

impl<T> From<T> for Patch<T> {
    fn from(value: T) -> Self {
        Self::Set(value)
    }
}

impl<T: Serialize> Serialize for Patch<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Set(value) => value.serialize(serializer),
            // `Unchanged` is skipped by the field's attribute; should a caller serialise one
            // on its own, `null` is the closest JSON has.
            Self::Unchanged | Self::Clear => serializer.serialize_none(),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Patch<T> {
    /// `null` is [`Patch::Clear`], a value [`Patch::Set`]; a missing field is `Unchanged`
    /// through the field's `#[serde(default)]`.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match Option::<T>::deserialize(deserializer)? {
            Some(value) => Self::Set(value),
            None => Self::Clear,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize, Default)]
    struct Body {
        #[serde(default, skip_serializing_if = "Patch::is_unchanged")]
        a: Patch<i64>,
        #[serde(default, skip_serializing_if = "Patch::is_unchanged")]
        b: Patch<String>,
    }

    #[test]
    fn three_states_round_trip() {
        let cases = [
            (Body::default(), "{}"),
            (
                Body {
                    a: Patch::Clear,
                    b: Patch::Set("x".into()),
                },
                r#"{"a":null,"b":"x"}"#,
            ),
            (
                Body {
                    a: 0.into(),
                    b: Patch::Unchanged,
                },
                r#"{"a":0}"#,
            ),
        ];
        for (body, json) in cases {
            assert_eq!(serde_json::to_string(&body).ok().as_deref(), Some(json));
            assert_eq!(serde_json::from_str::<Body>(json).ok(), Some(body));
        }
        assert_eq!(
            serde_json::to_string(&Patch::<i64>::Unchanged)
                .ok()
                .as_deref(),
            Some("null")
        );
        assert_eq!(Patch::Set(3).as_set(), Some(&3));
        assert_eq!(Patch::<i64>::Clear.as_set(), None);
        assert!(Patch::<i64>::Unchanged.is_unchanged() && !Patch::Set(1).is_unchanged());
        assert!(!Patch::<i64>::Clear.is_unchanged());
    }
}
