//! `Indirect<T>`: a heap pointer like `Box<T>` that rustc's drop check does not look through,
//! for the edges of a generated crate's type graph that would otherwise make it fail to compile
//! or check quadratically.
//!
//! Why: to check a function that drops a value, rustc walks every type the value can reach
//! through a generic type (`Option<T>`, `Box<T>`, `Vec<T>`, maps), one level deeper per
//! wrapper, and past the recursion limit (128) the crate fails with E0320 ("overflow while
//! adding drop-check rules"). A cycle of 56 boxed schemas or a chain of 130 optional ones
//! failed so; raising the limit made each of N types walk all N (1,024 schemas: 153 s, 3.6 GiB).
//! The walk stops at a trait object (its drop is only "outlives"), so this type holds its value
//! as `Box<dyn Held<T>>`: no `unsafe`, one pointer more than a `Box` and a virtual call per
//! access. The generator decides which edges hold one (`ir::cycles`).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

use serde_core::{Deserialize, Deserializer, Serialize, Serializer};

/// The erased value: what the drop check stops at.
trait Held<T>: Send + Sync {
    fn get(&self) -> &T;
    fn get_mut(&mut self) -> &mut T;
    fn into_inner(self: Box<Self>) -> T;
}

impl<T: Send + Sync> Held<T> for T {
    fn get(&self) -> &T {
        self
    }
    fn get_mut(&mut self) -> &mut T {
        self
    }
    fn into_inner(self: Box<Self>) -> T {
        *self
    }
}

/// A value on the heap, like `Box<T>`: a field or variant of a generated type that leads back
/// to its own type (or down a long chain of types) holds its value in one. It reads as the value
/// (`Deref`), is built with `Indirect::new(value)` or `value.into()`, and is the value on the
/// wire: serde reads and writes it as `T`, as it does `Box<T>`. `Debug`, comparisons and hashing
/// are `T`'s.
pub struct Indirect<T: 'static>(Box<dyn Held<T>>);

impl<T: Send + Sync + 'static> Indirect<T> {
    /// `value`, on the heap.
    pub fn new(value: T) -> Self {
        Indirect(Box::new(value))
    }
}

impl<T: 'static> Indirect<T> {
    /// The value, moved back out.
    pub fn into_inner(self) -> T {
        self.0.into_inner()
    }
}

impl<T: 'static> Deref for Indirect<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // `(*self.0)`: the trait object's `get`, not the blanket impl's on the `Box` itself.
        (*self.0).get()
    }
}

impl<T: 'static> DerefMut for Indirect<T> {
    fn deref_mut(&mut self) -> &mut T {
        (*self.0).get_mut()
    }
}

impl<T: 'static> AsRef<T> for Indirect<T> {
    fn as_ref(&self) -> &T {
        self
    }
}

impl<T: Send + Sync + 'static> From<T> for Indirect<T> {
    fn from(value: T) -> Self {
        Indirect::new(value)
    }
}

impl<T: Clone + Send + Sync + 'static> Clone for Indirect<T> {
    fn clone(&self) -> Self {
        Indirect::new(T::clone(self))
    }
}

impl<T: fmt::Debug + 'static> fmt::Debug for Indirect<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        T::fmt(self, f)
    }
}

impl<T: PartialEq + 'static> PartialEq for Indirect<T> {
    fn eq(&self, other: &Self) -> bool {
        T::eq(self, other)
    }
}

impl<T: Eq + 'static> Eq for Indirect<T> {}

impl<T: PartialOrd + 'static> PartialOrd for Indirect<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        T::partial_cmp(self, other)
    }
}

impl<T: Ord + 'static> Ord for Indirect<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        T::cmp(self, other)
    }
}

impl<T: Hash + 'static> Hash for Indirect<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        T::hash(self, state);
    }
}

impl<T: Default + Send + Sync + 'static> Default for Indirect<T> {
    fn default() -> Self {
        Indirect::new(T::default())
    }
}

impl<T: Serialize + 'static> Serialize for Indirect<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        T::serialize(self, serializer)
    }
}

impl<'de, T: Deserialize<'de> + Send + Sync + 'static> Deserialize<'de> for Indirect<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(deserializer).map(Indirect::new)
    }
}

#[cfg(test)]
mod tests {
    use super::Indirect;

    /// A list of its own kind, as a generated recursive type holds one.
    #[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
    struct Node {
        label: String,
        next: Option<Indirect<Node>>,
    }

    fn chain(length: usize) -> Node {
        let mut node = Node::default();
        for i in 0..length {
            node = Node {
                label: i.to_string(),
                next: Some(node.into()),
            };
        }
        node
    }

    #[test]
    fn serde_sees_the_value_itself() {
        let node = chain(3);
        let json = serde_json::to_string(&node).unwrap();
        assert_eq!(
            json,
            r#"{"label":"2","next":{"label":"1","next":{"label":"0","next":{"label":"","next":null}}}}"#
        );
        let back: Node = serde_json::from_str(&json).unwrap();
        assert_eq!(back, node);
        let wrapped: Indirect<Node> = serde_json::from_str(&json).unwrap();
        assert_eq!(*wrapped, node);
    }

    #[test]
    fn clone_is_deep_and_comparisons_are_the_values() {
        let node = chain(4);
        let mut copy = node.clone();
        assert_eq!(copy, node);
        if let Some(next) = copy.next.as_mut() {
            next.label.push('!');
        }
        assert_ne!(copy, node, "the clone shares nothing with the original");
        let (a, b) = (Indirect::new(1), Indirect::new(2));
        assert!(a < b);
        assert_eq!(format!("{a:?}"), "1");
        let hash = |value: &dyn Fn(&mut std::collections::hash_map::DefaultHasher)| {
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            value(&mut hasher);
            std::hash::Hasher::finish(&hasher)
        };
        use std::hash::Hash;
        assert_eq!(hash(&|h| a.hash(h)), hash(&|h| 1.hash(h)));
    }

    #[test]
    fn into_inner_gives_the_value_back() {
        let node = chain(2);
        let wrapped = Indirect::new(node.clone());
        assert_eq!(wrapped.as_ref(), &node);
        assert_eq!(wrapped.into_inner(), node);
    }
}
