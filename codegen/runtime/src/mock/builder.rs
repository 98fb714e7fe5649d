//! Test values without JSON: the fields of a generated model being built for a test, by wire
//! name, checked when built (a required field left out is an error naming it), and the macro
//! that gives a generated crate's `mock::Builder<Model>` one typed setter per field.

use std::fmt;
use std::marker::PhantomData;

use serde_core::Serialize;
use serde_core::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::Error;

/// The fields set so far of a `T` being built, as the JSON the server would send; a generated
/// crate's `mock::Builder<T>` wraps it.
pub struct Fields<T> {
    fields: Map<String, Value>,
    /// The first value that could not be represented as JSON, reported by `build`.
    unrepresentable: Option<&'static str>,
    model: PhantomData<fn() -> T>,
}

impl<T> Default for Fields<T> {
    fn default() -> Self {
        Self {
            fields: Map::new(),
            unrepresentable: None,
            model: PhantomData,
        }
    }
}

impl<T> Clone for Fields<T> {
    fn clone(&self) -> Self {
        Self {
            fields: self.fields.clone(),
            unrepresentable: self.unrepresentable,
            model: PhantomData,
        }
    }
}

impl<T> fmt::Debug for Fields<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.fields.iter()).finish()
    }
}

impl<T> Fields<T> {
    /// The fields of `object`, as setting each in turn would leave them.
    pub(crate) fn from_object(fields: Map<String, Value>) -> Self {
        Self {
            fields,
            ..Self::default()
        }
    }

    /// Sets the field `wire` to `value`, replacing an earlier one.
    #[must_use]
    pub fn set(mut self, wire: &'static str, value: impl Serialize) -> Self {
        match serde_json::to_value(value) {
            Ok(value) => {
                self.fields.insert(wire.to_owned(), value);
            }
            Err(_) => {
                self.unrepresentable.get_or_insert(wire);
            }
        }
        self
    }
}

impl<T: DeserializeOwned> Fields<T> {
    /// The value, decoded as a response would be: every required field must have been set (a
    /// required nullable one left out is `None`).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the first required field left out, or a value that
    /// has no JSON form.
    pub fn build(self) -> Result<T, Error> {
        if let Some(wire) = self.unrepresentable {
            return Err(Error::InvalidArgument(crate::error::InvalidArgument::new(
                BuildError(format!("field `{wire}`: the value has no JSON form")),
            )));
        }
        serde_json::from_value(Value::Object(self.fields)).map_err(|error| {
            Error::InvalidArgument(crate::error::InvalidArgument::new(BuildError(format!(
                "{}: {error}",
                std::any::type_name::<T>()
                    .rsplit("::")
                    .next()
                    .unwrap_or_default()
            ))))
        })
    }
}

/// Why a test value could not be built: the model and what serde found missing or wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot build {0}")]
pub struct BuildError(String);

/// One setter per field on a generated crate's `mock::Builder<Model>` (`Builder` as named where
/// it is invoked): `setter: into Type = "wire"` takes `impl Into<Type>`, `setter: value Type =
/// "wire"` a number or boolean itself.
#[macro_export]
#[doc(hidden)]
macro_rules! mock_setters {
    ($model:ident, [$($setter:ident: $how:ident $ty:ty = $wire:literal),* $(,)?]) => {
        impl $model {
            #[doc = concat!(
                " A test value built field by field (feature `mock`): `", stringify!($model),
                "::builder()`, a setter per field, then `build()`, which refuses a required \
                 field left out."
            )]
            pub fn builder() -> Builder<Self> {
                Builder($crate::mock::Fields::default())
            }
        }

        impl Builder<$model> {
            $($crate::mock_setters!(@setter $setter $how $ty, $wire);)*
        }
    };
    (@setter $setter:ident into $ty:ty, $wire:literal) => {
        #[doc = concat!(" Sets `", $wire, "`.")]
        #[must_use]
        pub fn $setter(self, value: impl ::core::convert::Into<$ty>) -> Self {
            let value: $ty = value.into();
            Self(self.0.set($wire, value))
        }
    };
    (@setter $setter:ident value $ty:ty, $wire:literal) => {
        #[doc = concat!(" Sets `", $wire, "`.")]
        #[must_use]
        pub fn $setter(self, value: $ty) -> Self {
            Self(self.0.set($wire, value))
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Thing {
        name: String,
        count: u64,
        note: Option<String>,
    }

    #[derive(Debug)]
    struct Builder<T>(Fields<T>);

    fn builder() -> Builder<Thing> {
        Thing::builder()
    }

    crate::mock_setters!(Thing, [name: into String = "name", count: value u64 = "count",
        note: into String = "note"]);

    #[test]
    fn builds_with_required_fields_and_names_a_missing_one() {
        let thing = builder().name("a").count(1).build_thing();
        assert_eq!(
            thing.ok(),
            Some(Thing {
                name: "a".into(),
                count: 1,
                note: None
            })
        );
        let later = builder().name("a").name("b").note("n").count(2);
        assert!(format!("{later:?}").contains("\"note\""));
        let copy = Builder(later.0.clone());
        assert_eq!(later.build_thing().ok().map(|t| t.name), Some("b".into()));
        assert_eq!(copy.build_thing().ok().map(|t| t.count), Some(2));
        let missing = builder().name("a").build_thing();
        let shown = missing
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(
            shown.contains("missing field `count`") && shown.contains("Thing"),
            "{shown}"
        );
    }

    #[test]
    fn a_value_without_json_form_is_an_error_not_a_panic() {
        let map = std::collections::BTreeMap::from([((1, 2), 3)]);
        let built = Fields::<Thing>::default()
            .set("name", "a")
            .set("count", 1)
            .set("note", map)
            .build();
        assert!(
            matches!(&built, Err(Error::InvalidArgument(_))),
            "{built:?}"
        );
        assert!(
            built
                .err()
                .is_some_and(|e| e.to_string().contains("`note`"))
        );
    }

    impl Builder<Thing> {
        fn build_thing(self) -> Result<Thing, Error> {
            self.0.build()
        }
    }
}
