//! JSON value representations and semantics shared by the validator and its bindings.

pub mod cmp;
#[cfg(feature = "conformance")]
pub mod conformance;
pub mod numeric;
// The bound checks take a `serde_json::Number`, which only that feature makes a `JsonNumber`.
#[cfg(feature = "serde_json")]
pub mod numeric_check;
pub mod types;
pub mod unique;

#[cfg(feature = "jsonb")]
pub mod jsonb;
#[cfg(feature = "magnus")]
mod magnus;
#[cfg(feature = "pyo3")]
mod pyo3;
#[cfg(feature = "serde_json")]
mod serde_json;
mod serde_number;

#[cfg(feature = "jsonb")]
pub use jsonb::{Jsonb, JsonbNode};
#[cfg(feature = "magnus")]
pub use magnus::{
    child as magnus_child, invalidate_members_cache as magnus_invalidate_members_cache,
    is_object as magnus_is_object, object_values as magnus_object_values,
    probe_root as magnus_probe_root, string_node as magnus_string_node,
    take_pending_error as magnus_take_pending_error, Magnus, PendingError,
    PendingErrorScope as MagnusPendingErrorScope, RbNode,
};
#[cfg(feature = "pyo3")]
pub use pyo3::{inspect, narrow_array, narrow_object, object_values, stock_enum_value, Pyo3};
#[cfg(feature = "serde_json")]
pub use serde_json::SerdeJson;

use std::{borrow::Cow, fmt, sync::OnceLock};

use ::serde_json::Value;

use crate::types::JsonType;

/// The instance a validation error reports, built once and cached.
pub enum LazyInstance<'a> {
    Ready(Cow<'a, Value>),
    /// Built on first read. A `fn` pointer rather than a boxed closure: dropck cannot see through
    /// a `dyn` bounded by `'a` and would demand borrows outlive the error's drop, not just its use.
    Deferred {
        bytes: &'a [u8],
        tag: u32,
        // Elided, so `for<'r> fn(&'r [u8], u32)`: a lifetime in argument position is contravariant
        // and would fight `bytes`' covariance, making the enum invariant in `'a`.
        make: fn(&[u8], u32) -> Value,
        // `'static`, not `'a`: `OnceLock` is invariant in its parameter, which would otherwise
        // infect every lifetime this type appears under, `ValidationError<'a>` included.
        cell: OnceLock<Cow<'static, Value>>,
    },
}

impl<'a> From<&'a Value> for LazyInstance<'a> {
    fn from(value: &'a Value) -> Self {
        LazyInstance::Ready(Cow::Borrowed(value))
    }
}

impl<'a> LazyInstance<'a> {
    /// The instance, building and caching it on the first call.
    pub fn get(&self) -> &Cow<'a, Value> {
        match self {
            LazyInstance::Ready(value) => value,
            LazyInstance::Deferred {
                bytes,
                tag,
                make,
                cell,
            } => cell.get_or_init(|| Cow::Owned(make(bytes, *tag))),
        }
    }

    /// Consumes `self`, returning the instance without cloning an already-built one.
    #[must_use]
    pub fn into_cow(self) -> Cow<'a, Value> {
        match self {
            LazyInstance::Ready(value) => value,
            LazyInstance::Deferred {
                bytes,
                tag,
                make,
                cell,
            } => cell
                .into_inner()
                .unwrap_or_else(|| Cow::Owned(make(bytes, tag))),
        }
    }
}

impl fmt::Debug for LazyInstance<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.get(), f)
    }
}

/// One JSON representation.
pub trait Json: Sized + Send + Sync + 'static {
    type Node<'a>: Node<'a, Self>;

    /// Property name prepared once at compile time, for repeated object lookups.
    type PreparedKey: Send + Sync;

    /// Object keys a members pass may visit per [`Object::get`] it replaces, before the pass
    /// costs more than the lookups. Zero keeps every representation whose lookup is a hash
    /// probe on lookups.
    const KEYS_PER_LOOKUP: usize = 0;

    /// Scratch storage for [`Json::with_string_node`], reusable across calls.
    type StringBuffer: Default;

    fn prepare_key(key: &str) -> Self::PreparedKey;

    /// Call `f` with a node holding `string`, backed by `buffer`.
    ///
    /// `propertyNames` validates each property name through this, so names run through the
    /// same subschema machinery as any other node of the representation.
    ///
    /// Representations whose nodes point into an encoded document have two options: a plain
    /// string variant on the node type, or encoding a single-string document into `buffer`.
    fn with_string_node<T>(
        buffer: &mut Self::StringBuffer,
        string: &str,
        f: impl FnOnce(Self::Node<'_>) -> T,
    ) -> T;
}

/// What tells one node from another within a validation call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeIdentity {
    address: usize,
    tag: u32,
}

impl NodeIdentity {
    /// For representations where a live node's address is its own.
    #[must_use]
    pub fn new(address: usize) -> Self {
        Self { address, tag: 0 }
    }

    /// For representations where nodes share an address, such as an arena addressed by index.
    #[must_use]
    pub fn tagged(address: usize, tag: u32) -> Self {
        Self { address, tag }
    }
}

/// A JSON number, readable without constructing a [`::serde_json::Number`].
pub trait JsonNumber {
    fn as_u64(&self) -> Option<u64>;
    fn as_i64(&self) -> Option<i64>;
    fn as_f64(&self) -> Option<f64>;

    /// Decimal digits; the only form that holds values outside the primitives.
    fn as_str(&self) -> Cow<'_, str>;

    /// For cold paths: error construction and annotations.
    fn to_number(&self) -> Cow<'_, ::serde_json::Number>;

    /// `type: integer` checks call this per number: override it where the default's
    /// [`JsonNumber::to_number`] round-trip is not free (e.g. decimal representations).
    fn is_integer(&self) -> bool {
        crate::types::number_is_integer(&self.to_number())
    }

    /// Whether the number is *written* as an integer, with neither a fraction nor an exponent
    /// part. Draft 4 decides `type: integer` this way, so `1.0` and `1e2` are not integers there.
    ///
    /// The default reads the literal from [`JsonNumber::as_str`]. A representation holding native
    /// numbers has none, and must override this to answer from its own types.
    fn is_written_as_integer(&self) -> bool {
        self.as_u64().is_some()
            || self.as_i64().is_some()
            || !self.as_str().contains(['.', 'e', 'E'])
    }
}

/// One JSON value; `Clone` must be cheap.
pub trait Node<'a, F: Json>: Clone {
    type Object: Object<'a, F, Node = Self>;
    type Array: Array<'a, F, Node = Self>;
    type Number: JsonNumber;

    fn as_object(&self) -> Option<Self::Object>;
    fn as_array(&self) -> Option<Self::Array>;
    fn as_string(&self) -> Option<Cow<'a, str>>;

    fn as_number(&self) -> Option<Self::Number>;
    fn as_boolean(&self) -> Option<bool>;
    fn is_null(&self) -> bool;

    /// Must agree with `as_number().is_some()`; override where `as_number` has to construct.
    fn is_number(&self) -> bool {
        self.as_number().is_some()
    }

    fn is_string(&self) -> bool {
        self.json_type() == JsonType::String
    }

    /// Numbers always report [`JsonType::Number`]; integer-ness is a numeric property, not a type.
    fn json_type(&self) -> JsonType;

    /// Length in Unicode code points.
    fn string_length(&self) -> Option<u64> {
        self.as_string().map(|string| string.chars().count() as u64)
    }

    /// Equality against a `const`/`enum` value; numbers compare mathematically.
    fn equals_value(&self, expected: &Value) -> bool {
        crate::cmp::equal(&self.to_value(), expected)
    }

    /// For cold paths only: error construction, annotations, the `equals_value` and
    /// `is_unique` defaults (`const`/`enum`/`uniqueItems`), and serde-only custom keywords.
    fn to_value(&self) -> Cow<'a, Value>;

    /// The instance a validation error reports. Defaults to eager [`Node::to_value`]; override only
    /// where the node is `Send + Sync` without a VM lock — `Magnus` would compile but be unsound.
    fn lazy_value(&self) -> LazyInstance<'a> {
        LazyInstance::Ready(self.to_value())
    }

    /// Identity for `$ref` cycle detection and `is_valid` memoization.
    ///
    /// Nodes alive at once must never share one, and two handles on a node must report the same
    /// one, or a collision reports a cycle that is not there. A container's must never pass to a
    /// later node: [`Node::container_identity`] keys a cache outliving it. `None` opts out,
    /// leaving recursion bounded only by the stack.
    fn identity(&self) -> Option<NodeIdentity>;

    fn container_identity(&self) -> Option<NodeIdentity> {
        if matches!(self.json_type(), JsonType::Object | JsonType::Array) {
            self.identity()
        } else {
            None
        }
    }
}

pub trait Object<'a, F: Json> {
    type Node: Node<'a, F>;
    type MemberName: AsRef<str> + Into<Cow<'a, str>>;
    type MembersIter: Iterator<Item = (Self::MemberName, Self::Node)>;

    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn get(&self, key: &F::PreparedKey) -> Option<Self::Node>;
    fn members(&self) -> Self::MembersIter;
}

// `len` bounds validation; no caller probes emptiness.
#[allow(clippy::len_without_is_empty)]
pub trait Array<'a, F: Json> {
    type Node: Node<'a, F>;
    type ElementsIter: Iterator<Item = Self::Node>;

    fn len(&self) -> usize;
    fn elements(&self) -> Self::ElementsIter;

    /// `uniqueItems`: every element distinct under JSON equality.
    fn is_unique(&self) -> bool {
        let values: Vec<Cow<'a, Value>> =
            self.elements().map(|element| element.to_value()).collect();
        crate::unique::is_unique(&values)
    }
}
