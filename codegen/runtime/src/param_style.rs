//! Parameters encoded by OpenAPI's style table (RFC 6570): the one encoder every generated
//! operation calls with a parameter's location, style and `explode`, so that no emitted body
//! holds code of its own for a style.
//!
//! The rule everywhere: each item (an array's item, an object's property name and value) is
//! percent-encoded, so that the delimiters the style adds (`,` `|` `%20` `.` `;` `=` `&` `[` `]`)
//! are the only literal ones, and a server splitting on them gets the items back. Values are
//! read through serde (`serde_json::Value`): a string, number or boolean is one item, `null` is
//! undefined (not sent; a `null` array item or property is skipped), an array or object is the
//! style's list or map. Each location's grammar:
//!
//! | location | scalar | array (`explode: false` / `true`) | object (`false` / `true`) | empty array |
//! |---|---|---|---|---|
//! | query `form` | `n=v` | `n=a,b` / `n=a&n=b` | `n=k,v,j,w` / `k=v&j=w` | `n=` |
//! | query `spaceDelimited` | `n=v` | `n=a%20b` / as `form` | `n=k%20v` / as `form` | `n=` |
//! | query `pipeDelimited` | `n=v` | `n=a\|b` / as `form` | `n=k\|v` / as `form` | `n=` |
//! | query `deepObject` | `n=v` | `n[]=a&n[]=b` (of objects: `n[0][k]=v`) | `n[k]=v&n[k][m]=w` (nested) | nothing |
//! | path `simple` | `v` | `a,b` | `k,v` / `k=v,j=w` | refused (empty segment) |
//! | path `label` | `.v` | `.a,b` / `.a.b` | `.k,v` / `.k=v.j=w` | `.` |
//! | path `matrix` | `;n=v` | `;n=a,b` / `;n=a;n=b` | `;n=k,v` / `;k=v;j=w` | `;n` |
//! | header `simple` | `v` as given | `a,b` | `k,v` / `k=v,j=w` | an empty value |
//! | cookie `form` | `n=v` | `n=a,b` / `n=a; n=b` | `n=k,v` / `k=v; j=w` | `n=` |
//!
//! Item encodings: in a query, path or cookie everything but RFC 3986's unreserved characters
//! (`A-Z a-z 0-9 - . _ ~`) is `%XX` of its UTF-8 bytes (a space in a `spaceDelimited` item is
//! `+`, since `%20` is its delimiter; a `.` in a `label` item is `%2E`, since `.` is its); in a header list, `%`, `,`, `=`, `"`, space and every byte
//! outside visible ASCII are `%XX` (a scalar header is sent as given, and refused by the client
//! if it is not a header value). A style a location does not define is read as the location's
//! own (`simple` for path and header, `form` for query and cookie). A form-encoded body's
//! properties are query parameters by the styles its `encoding` gives them
//! ([`Body::form_styled`](crate::Body::form_styled)).
//!
//! `allowReserved: true` (a query parameter's or a form field's, [`Encoding::allowing_reserved`])
//! writes its values by RFC 6570's reserved expansion: reserved characters (`:/?#[]@!$&'()*+,;=`)
//! and `%XX` triples already in the value pass as they are. A number with no wire form (NaN,
//! ±∞), anywhere in a value, is refused with [`Error::InvalidArgument`] holding a
//! [`NonFinite`] naming the parameter: it is never sent as nothing. Every byte is encoded by the
//! one boundary of the crate (`percent.rs`), which the client's path check and the fake share.

use std::fmt;

use serde_json::Value;

use crate::error::{Error, InvalidArgument};
use crate::finite::non_finite;
use crate::percent::{self, Component};

/// How a parameter is serialised: OpenAPI's `style`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Style {
    /// `blue,black` (path, header).
    Simple,
    /// `.blue.black` (path).
    Label,
    /// `;color=blue` (path).
    Matrix,
    /// `color=blue` (query, cookie).
    Form,
    /// `color=blue%20black` (query arrays).
    SpaceDelimited,
    /// `color=blue|black` (query arrays).
    PipeDelimited,
    /// `color[R]=100` (query objects).
    DeepObject,
}

/// Where a parameter is sent: OpenAPI's `in`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParamLocation {
    /// Substituted into the path (see [`path_param`]).
    Path,
    /// The query string.
    Query,
    /// A request header.
    Header,
    /// A pair of the one `Cookie` header.
    Cookie,
}

/// A parameter's `style`, `explode` and `allowReserved`, as one argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Encoding {
    /// OpenAPI's `style`.
    pub style: Style,
    /// OpenAPI's `explode`.
    pub explode: bool,
    /// OpenAPI's `allowReserved` (query parameters and form fields only): values by RFC 6570's
    /// reserved expansion.
    pub allow_reserved: bool,
}

impl Encoding {
    /// `style` and `explode`, reserved characters encoded.
    pub const fn new(style: Style, explode: bool) -> Self {
        Self {
            style,
            explode,
            allow_reserved: false,
        }
    }

    /// The same, with `allowReserved: true`.
    #[must_use]
    pub const fn allowing_reserved(self) -> Self {
        Self {
            allow_reserved: true,
            ..self
        }
    }
}

/// A parameter whose value holds a number with no wire form (NaN, ±∞), inside an
/// [`Error::InvalidArgument`]: JSON has no such number, and leaving the parameter out would
/// send another request than the caller asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NonFinite {
    /// The parameter's name on the wire.
    pub parameter: String,
    /// The number as Rust writes it (`NaN`, `inf`, `-inf`).
    pub value: String,
}

impl fmt::Display for NonFinite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "parameter `{}` holds {}, a number with no wire form",
            self.parameter, self.value
        )
    }
}

impl std::error::Error for NonFinite {}

/// The query, header and cookie parameters of one request, encoded as they are added.
///
/// Its `Debug` names the parameters, never their values (some are credentials).
#[derive(Clone, Default)]
pub struct Params {
    /// Encoded `(key, value)` pairs, written into the URL as they are.
    query: Vec<(String, String)>,
    /// The indices of `query`'s pairs that carry a credential.
    secret_pairs: Vec<usize>,
    /// `(name, value)` header pairs.
    headers: Vec<(String, String)>,
    /// Encoded `name=value` cookie pairs.
    cookies: Vec<String>,
    /// The raw text of every value added with [`Params::add_secret`].
    secrets: Vec<String>,
}

impl fmt::Debug for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let query: Vec<&str> = self.query.iter().map(|(key, _)| key.as_str()).collect();
        let headers: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        f.debug_struct("Params")
            .field("query", &query)
            .field("headers", &headers)
            .field("cookies", &self.cookies.len())
            .field("secrets", &self.secrets.len())
            .finish()
    }
}

impl Params {
    /// No parameters.
    pub fn new() -> Self {
        Self::default()
    }

    /// A `key=value` pair written in the document's path key (`/items?beta=true`), sent first
    /// and as written (the generator only keeps pairs of unreserved characters).
    pub fn fixed_query(&mut self, key: &str, value: &str) {
        self.query.push((
            percent::encode(key, Component::Query),
            percent::encode(value, Component::Query),
        ));
    }

    /// Adds one query, header or cookie parameter, encoded by `style` and `explode` (see the
    /// [module docs](self)). `null` (an unset `Option`) adds nothing.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] naming the parameter for a value the style has no encoding
    /// for (an array of arrays, an object nested outside `deepObject`), or for
    /// [`ParamLocation::Path`] (see [`path_param`]); [`Error::InvalidArgument`] ([`NonFinite`])
    /// for a value holding NaN or ±∞.
    pub fn add<T: serde_core::Serialize + ?Sized>(
        &mut self,
        location: ParamLocation,
        name: &str,
        style: Style,
        explode: bool,
        value: &T,
    ) -> Result<(), Error> {
        self.add_encoded(location, name, Encoding::new(style, explode), value)
    }

    /// [`add`](Self::add) by an [`Encoding`], which may allow reserved characters in a query
    /// value (a header or cookie ignores it: OpenAPI defines it for the query alone).
    ///
    /// # Errors
    ///
    /// As [`add`](Self::add).
    pub fn add_encoded<T: serde_core::Serialize + ?Sized>(
        &mut self,
        location: ParamLocation,
        name: &str,
        encoding: Encoding,
        value: &T,
    ) -> Result<(), Error> {
        let value = to_value(name, value)?;
        let explode = encoding.explode;
        match location {
            ParamLocation::Path => Err(Error::InvalidRequest(format!(
                "parameter `{name}` is a path parameter: it is encoded with `path_param`"
            ))),
            ParamLocation::Query => {
                let pairs = query_pairs(name, encoding, &value)?;
                self.query.extend(pairs);
                Ok(())
            }
            ParamLocation::Header => {
                if let Some(text) = header_value(name, explode, &value)? {
                    self.headers.push((name.to_owned(), text));
                }
                Ok(())
            }
            ParamLocation::Cookie => {
                let pairs = cookie_pairs(name, explode, &value)?;
                self.cookies.extend(pairs);
                Ok(())
            }
        }
    }

    /// [`add`](Self::add) for a value the document names as a credential (an `apiKey` security
    /// scheme's parameter): the client registers its text as a live secret for the request's
    /// duration, so no URL, header, error, span or log it writes shows it.
    ///
    /// # Errors
    ///
    /// As [`add`](Self::add).
    pub fn add_secret<T: serde_core::Serialize + ?Sized>(
        &mut self,
        location: ParamLocation,
        name: &str,
        style: Style,
        explode: bool,
        value: &T,
    ) -> Result<(), Error> {
        self.add_secret_encoded(location, name, Encoding::new(style, explode), value)
    }

    /// [`add_secret`](Self::add_secret) by an [`Encoding`].
    ///
    /// # Errors
    ///
    /// As [`add`](Self::add).
    pub fn add_secret_encoded<T: serde_core::Serialize + ?Sized>(
        &mut self,
        location: ParamLocation,
        name: &str,
        encoding: Encoding,
        value: &T,
    ) -> Result<(), Error> {
        let shown = to_value(name, value)?;
        collect_texts(&shown, &mut self.secrets);
        let first = self.query.len();
        self.add_encoded(location, name, encoding, &shown)?;
        self.secret_pairs.extend(first..self.query.len());
        Ok(())
    }

    /// The query string (without `?`), or `None` when there is no pair.
    pub fn query_string(&self) -> Option<String> {
        self.render_query(None)
    }

    /// The query string as logs and spans show it: a credential's value is `shown_as`.
    pub fn shown_query_string(&self, shown_as: &str) -> Option<String> {
        self.render_query(Some(shown_as))
    }

    fn render_query(&self, secret_shown_as: Option<&str>) -> Option<String> {
        let mut query = String::new();
        for (index, (key, value)) in self.query.iter().enumerate() {
            if !query.is_empty() {
                query.push('&');
            }
            query.push_str(key);
            query.push('=');
            match secret_shown_as {
                Some(shown) if self.secret_pairs.contains(&index) => query.push_str(shown),
                _ => query.push_str(value),
            }
        }
        (!query.is_empty()).then_some(query)
    }

    /// Whether there is no query pair.
    pub fn has_query(&self) -> bool {
        !self.query.is_empty()
    }

    /// The header parameters in order, as `(name, value)`; a `Cookie` header parameter among
    /// them is merged into [`cookie_header`](Self::cookie_header) instead.
    pub fn headers(&self) -> impl Iterator<Item = (&str, &str)> {
        self.headers
            .iter()
            .filter(|(name, _)| !name.eq_ignore_ascii_case("cookie"))
            .map(|(name, value)| (name.as_str(), value.as_str()))
    }

    /// The one `Cookie` header: a `Cookie` header parameter's value as given, then the cookie
    /// parameters' `name=value` pairs, joined by `; ` (RFC 6265 §4.2.1); `None` when empty.
    pub fn cookie_header(&self) -> Option<String> {
        let given = self
            .headers
            .iter()
            .filter(|(name, _)| name.eq_ignore_ascii_case("cookie"))
            .map(|(_, value)| value.as_str());
        percent::cookie_header(given.chain(self.cookies.iter().map(String::as_str)))
    }

    /// Whether a query pair of the (encoded) `key`, a header `name` (any case) or a cookie
    /// `name` is among the parameters: a credential the operation takes as an argument, which
    /// the client's own for that place does not repeat.
    #[cfg(feature = "client")]
    pub(crate) fn carries(&self, location: ParamLocation, name: &str) -> bool {
        match location {
            ParamLocation::Query => self.query.iter().any(|(key, _)| key == name),
            ParamLocation::Header => self
                .headers
                .iter()
                .any(|(header, _)| header.eq_ignore_ascii_case(name)),
            ParamLocation::Cookie => self.cookies.iter().any(|pair| {
                pair.split_once('=')
                    .is_some_and(|(cookie, _)| cookie == name)
            }),
            ParamLocation::Path => false,
        }
    }

    /// The raw text of the values added with [`add_secret`](Self::add_secret).
    pub fn secrets(&self) -> &[String] {
        &self.secrets
    }
}

/// One path parameter's expansion for the path template (see the [module docs](self)):
/// `simple`, `label` or `matrix`, the value's items percent-encoded so it stays one segment.
///
/// # Errors
///
/// [`Error::InvalidRequest`] naming the parameter (never echoing the value) when the expansion
/// is empty, `.` or `..` (an empty segment addresses another resource, and no encoding keeps
/// URL normalisation from reading a dot segment as navigation), for `null`, and for a value
/// the style has no encoding for.
pub fn path_param<T: serde_core::Serialize + ?Sized>(
    name: &str,
    style: Style,
    explode: bool,
    value: &T,
) -> Result<String, Error> {
    let value = to_value(name, value)?;
    let shape = Shape::of(name, &value)?;
    let kind = if style == Style::Label {
        Component::LabelItem
    } else {
        Component::PathSegment
    };
    let item = |text: &str| percent::encode(text, kind);
    let named = percent::encode(name, Component::PathSegment);
    let expansion = match (shape, style) {
        (Shape::Undefined, _) => {
            return Err(Error::InvalidRequest(format!(
                "path parameter `{name}` is null"
            )));
        }
        (Shape::Scalar(text), Style::Label) => format!(".{}", item(&text)),
        (Shape::Scalar(text), Style::Matrix) if text.is_empty() => format!(";{named}"),
        (Shape::Scalar(text), Style::Matrix) => format!(";{named}={}", item(&text)),
        (Shape::Scalar(text), _) => item(&text),
        (Shape::Array(items), Style::Label) => {
            let items: Vec<String> = items.iter().map(|text| item(text)).collect();
            format!(".{}", items.join(if explode { "." } else { "," }))
        }
        (Shape::Array(items), Style::Matrix) if items.is_empty() => format!(";{named}"),
        (Shape::Array(items), Style::Matrix) if explode => items
            .iter()
            .map(|text| format!(";{named}={}", item(text)))
            .collect(),
        (Shape::Array(items), Style::Matrix) => {
            let items: Vec<String> = items.iter().map(|text| item(text)).collect();
            format!(";{named}={}", items.join(","))
        }
        (Shape::Array(items), _) => {
            let items: Vec<String> = items.iter().map(|text| item(text)).collect();
            items.join(",")
        }
        (Shape::Object(pairs), Style::Label) if explode => pairs
            .iter()
            .map(|(key, value)| format!(".{}={}", item(key), item(value)))
            .collect(),
        (Shape::Object(pairs), Style::Label) => format!(".{}", flat_pairs(&pairs, ",", &item)),
        (Shape::Object(pairs), Style::Matrix) if explode => pairs
            .iter()
            .map(|(key, value)| format!(";{}={}", item(key), item(value)))
            .collect(),
        (Shape::Object(pairs), Style::Matrix) => {
            format!(";{named}={}", flat_pairs(&pairs, ",", &item))
        }
        (Shape::Object(pairs), _) if explode => pairs
            .iter()
            .map(|(key, value)| format!("{}={}", item(key), item(value)))
            .collect::<Vec<_>>()
            .join(","),
        (Shape::Object(pairs), _) => flat_pairs(&pairs, ",", &item),
    };
    percent::checked_segment(name, expansion)
}

/// The value through serde, naming the parameter when it cannot be.
/// A value holding NaN or ±∞ is refused: serde_json would write it as `null`, which is "not
/// set".
fn to_value<T: serde_core::Serialize + ?Sized>(name: &str, value: &T) -> Result<Value, Error> {
    if let Some(number) = non_finite(value) {
        return Err(Error::InvalidArgument(InvalidArgument::new(NonFinite {
            parameter: name.to_owned(),
            value: number,
        })));
    }
    serde_json::to_value(value).map_err(|error| {
        Error::InvalidRequest(format!("parameter `{name}` cannot be encoded: {error}"))
    })
}

/// Every string, number and boolean in `value`, as text.
fn collect_texts(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::Null => {}
        Value::Array(items) => items.iter().for_each(|item| collect_texts(item, into)),
        Value::Object(fields) => fields.values().for_each(|item| collect_texts(item, into)),
        scalar => into.extend(scalar_text(scalar)),
    }
}

/// A string, number or boolean as its text; `None` for anything else.
fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        Value::Null | Value::Array(_) | Value::Object(_) => None,
    }
}

/// A value outside `deepObject`: undefined, one scalar, a flat list or a flat map.
#[derive(Debug, PartialEq)]
enum Shape {
    Undefined,
    Scalar(String),
    Array(Vec<String>),
    Object(Vec<(String, String)>),
}

impl Shape {
    fn of(name: &str, value: &Value) -> Result<Shape, Error> {
        let nested = || {
            Error::InvalidRequest(format!(
                "parameter `{name}` holds an array or object inside an array or object, \
                 which only `deepObject` encodes"
            ))
        };
        let leaf = |value: &Value| match value {
            Value::Array(_) | Value::Object(_) => Err(nested()),
            scalar => Ok(scalar_text(scalar)),
        };
        Ok(match value {
            Value::Null => Shape::Undefined,
            Value::Array(items) => {
                let mut texts = Vec::with_capacity(items.len());
                for item in items {
                    texts.extend(leaf(item)?);
                }
                Shape::Array(texts)
            }
            Value::Object(fields) => {
                let mut pairs = Vec::with_capacity(fields.len());
                for (key, value) in fields {
                    if let Some(text) = leaf(value)? {
                        pairs.push((key.clone(), text));
                    }
                }
                Shape::Object(pairs)
            }
            scalar => Shape::Scalar(scalar_text(scalar).unwrap_or_default()),
        })
    }
}

/// `k1 D v1 D k2 D v2`, each item encoded by `item`.
fn flat_pairs(
    pairs: &[(String, String)],
    delimiter: &str,
    item: &dyn Fn(&str) -> String,
) -> String {
    let mut items = Vec::with_capacity(pairs.len() * 2);
    for (key, value) in pairs {
        items.push(item(key));
        items.push(item(value));
    }
    items.join(delimiter)
}

/// A query parameter's encoded `(key, value)` pairs.
fn query_pairs(
    name: &str,
    encoding: Encoding,
    value: &Value,
) -> Result<Vec<(String, String)>, Error> {
    let Encoding {
        style,
        explode,
        allow_reserved,
    } = encoding;
    let key = percent::encode(name, Component::Query);
    // A value's own text: by the reserved expansion when the parameter allows it.
    let value_kind = if allow_reserved {
        Component::Reserved
    } else {
        Component::Query
    };
    let scalar = |text: &str| percent::encode(text, value_kind);
    if style == Style::DeepObject {
        let mut pairs = Vec::new();
        deep_object(&key, value, value_kind, &mut pairs);
        return Ok(pairs);
    }
    let (delimiter, item_kind) = match style {
        Style::SpaceDelimited if !allow_reserved => ("%20", Component::SpaceDelimited),
        Style::SpaceDelimited => ("%20", value_kind),
        Style::PipeDelimited => ("|", value_kind),
        _ => (",", value_kind),
    };
    let item = |text: &str| percent::encode(text, item_kind);
    Ok(match Shape::of(name, value)? {
        Shape::Undefined => Vec::new(),
        Shape::Scalar(text) => vec![(key, scalar(&text))],
        Shape::Array(items) if items.is_empty() => vec![(key, String::new())],
        Shape::Array(items) if explode => items
            .iter()
            .map(|text| (key.clone(), scalar(text)))
            .collect(),
        Shape::Array(items) => {
            let items: Vec<String> = items.iter().map(|text| item(text)).collect();
            vec![(key, items.join(delimiter))]
        }
        Shape::Object(pairs) if explode => pairs
            .iter()
            .map(|(name, value)| (percent::encode(name, Component::Query), scalar(value)))
            .collect(),
        Shape::Object(pairs) => vec![(key, flat_pairs(&pairs, delimiter, &item))],
    })
}

/// `deepObject`: an object's properties as `key[property]`, nested to any depth
/// (`a[b][c]=v`); an array of scalars's items as `key[]`, once each; an array holding an
/// object or array as `key[0]`, `key[1]`, … (in `a[][b]=1&a[][c]=2` no server can tell one item
/// from two); `null` nowhere.
fn deep_object(key: &str, value: &Value, kind: Component, pairs: &mut Vec<(String, String)>) {
    match value {
        Value::Null => {}
        Value::Array(items) if items.iter().any(|item| item.is_array() || item.is_object()) => {
            for (index, item) in items.iter().enumerate() {
                deep_object(&format!("{key}[{index}]"), item, kind, pairs);
            }
        }
        Value::Array(items) => {
            let key = format!("{key}[]");
            for item in items {
                deep_object(&key, item, kind, pairs);
            }
        }
        Value::Object(fields) => {
            for (property, value) in fields {
                let key = format!("{key}[{}]", percent::encode(property, Component::Query));
                deep_object(&key, value, kind, pairs);
            }
        }
        scalar => pairs.push((
            key.to_owned(),
            percent::encode(&scalar_text(scalar).unwrap_or_default(), kind),
        )),
    }
}

/// A form-encoded body (`application/x-www-form-urlencoded`): each property of `value` (an
/// object) as the query parameter of its name would be, by the `style` and `explode` its
/// `encoding` gives it in `styles`; a property with none as OpenAPI's defaults say: a scalar
/// once, an array its key once per item, an object (property or item) as its JSON text (the
/// default `contentType` of an object). `null` sends nothing.
// Only the client's request bodies call it; a decode-only build keeps the module for the
// generated code's parameter types.
#[cfg_attr(not(feature = "client"), allow(dead_code))]
pub(crate) fn form_text(value: &Value, styles: &[(&str, Encoding)]) -> Result<String, Error> {
    let Value::Object(fields) = value else {
        return Err(Error::InvalidRequest(
            "request body cannot be form-encoded: the value is not an object".to_owned(),
        ));
    };
    let json_text = |value: &Value| match value {
        Value::Array(_) | Value::Object(_) => value.to_string(),
        scalar => scalar_text(scalar).unwrap_or_default(),
    };
    let mut pairs = Vec::new();
    for (name, value) in fields {
        if let Some(&(_, encoding)) = styles.iter().find(|(styled, _)| styled == name) {
            pairs.extend(query_pairs(name, encoding, value)?);
            continue;
        }
        let key = percent::encode(name, Component::Query);
        let items = match value {
            Value::Null => continue,
            Value::Array(items) => items.iter().filter(|item| !item.is_null()).collect(),
            other => vec![other],
        };
        for item in items {
            pairs.push((
                key.clone(),
                percent::encode(&json_text(item), Component::Query),
            ));
        }
    }
    let pairs: Vec<String> = pairs
        .into_iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect();
    Ok(pairs.join("&"))
}

/// A header parameter's value (`simple`), or `None` for `null`.
fn header_value(name: &str, explode: bool, value: &Value) -> Result<Option<String>, Error> {
    let item = |text: &str| percent::encode(text, Component::Header);
    Ok(match Shape::of(name, value)? {
        Shape::Undefined => None,
        Shape::Scalar(text) => Some(text),
        Shape::Array(items) => Some(
            items
                .iter()
                .map(|text| item(text))
                .collect::<Vec<_>>()
                .join(","),
        ),
        Shape::Object(pairs) if explode => Some(
            pairs
                .iter()
                .map(|(key, value)| format!("{}={}", item(key), item(value)))
                .collect::<Vec<_>>()
                .join(","),
        ),
        Shape::Object(pairs) => Some(flat_pairs(&pairs, ",", &item)),
    })
}

/// A cookie parameter's encoded `name=value` pairs (`form`).
fn cookie_pairs(name: &str, explode: bool, value: &Value) -> Result<Vec<String>, Error> {
    // A cookie's name is sent as it is: it must be a token (the generator emits no other).
    if !percent::is_token(name) {
        return Err(Error::InvalidRequest(format!(
            "cookie name {name:?} is not an HTTP token"
        )));
    }
    let item = |text: &str| percent::encode(text, Component::Cookie);
    let named = name;
    Ok(match Shape::of(name, value)? {
        Shape::Undefined => Vec::new(),
        Shape::Scalar(text) => vec![format!("{named}={}", item(&text))],
        Shape::Array(items) if explode && !items.is_empty() => items
            .iter()
            .map(|text| format!("{named}={}", item(text)))
            .collect(),
        Shape::Array(items) => {
            let items: Vec<String> = items.iter().map(|text| item(text)).collect();
            vec![format!("{named}={}", items.join(","))]
        }
        Shape::Object(pairs) if explode => pairs
            .iter()
            .map(|(key, value)| format!("{}={}", item(key), item(value)))
            .collect(),
        Shape::Object(pairs) => vec![format!("{named}={}", flat_pairs(&pairs, ",", &item))],
    })
}

#[cfg(test)]
#[path = "param_style_tests.rs"]
mod tests;
