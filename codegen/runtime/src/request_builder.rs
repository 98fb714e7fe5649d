//! Builds a generated operation's [`Request`] in one chain of calls, so that each operation's
//! method is a few lines, and the compiler checks one call per parameter instead of a block of
//! `let`s, `if`s and `?`s.
//!
//! The chain keeps the first error and skips the rest, so [`RequestBuilder::finish`] returns
//! what the old statement-by-statement bodies returned at their first `?`.

use serde_core::Serialize;

use crate::client::Security;
use crate::error::Error;
pub use crate::param_style::Encoding;
use crate::param_style::{self, ParamLocation, Params, Style};
use crate::percent::{self, Component};
use crate::support::{Body, Method, Request};

/// Every [`Encoding`] by name (`FORM` is `style: form, explode: false`), for the generated code.
pub mod encodings {
    use super::{Encoding, Style};

    /// `simple`, not exploded.
    pub const SIMPLE: Encoding = Encoding::new(Style::Simple, false);
    /// `simple`, exploded.
    pub const SIMPLE_EXPLODED: Encoding = Encoding::new(Style::Simple, true);
    /// `label`, not exploded.
    pub const LABEL: Encoding = Encoding::new(Style::Label, false);
    /// `label`, exploded.
    pub const LABEL_EXPLODED: Encoding = Encoding::new(Style::Label, true);
    /// `matrix`, not exploded.
    pub const MATRIX: Encoding = Encoding::new(Style::Matrix, false);
    /// `matrix`, exploded.
    pub const MATRIX_EXPLODED: Encoding = Encoding::new(Style::Matrix, true);
    /// `form`, not exploded.
    pub const FORM: Encoding = Encoding::new(Style::Form, false);
    /// `form`, exploded.
    pub const FORM_EXPLODED: Encoding = Encoding::new(Style::Form, true);
    /// `spaceDelimited`, not exploded.
    pub const SPACE_DELIMITED: Encoding = Encoding::new(Style::SpaceDelimited, false);
    /// `spaceDelimited`, exploded.
    pub const SPACE_DELIMITED_EXPLODED: Encoding = Encoding::new(Style::SpaceDelimited, true);
    /// `pipeDelimited`, not exploded.
    pub const PIPE_DELIMITED: Encoding = Encoding::new(Style::PipeDelimited, false);
    /// `pipeDelimited`, exploded.
    pub const PIPE_DELIMITED_EXPLODED: Encoding = Encoding::new(Style::PipeDelimited, true);
    /// `deepObject`, not exploded.
    pub const DEEP_OBJECT: Encoding = Encoding::new(Style::DeepObject, false);
    /// `deepObject`, exploded.
    pub const DEEP_OBJECT_EXPLODED: Encoding = Encoding::new(Style::DeepObject, true);
}

/// The value of an optional parameter: sent only when set (`Some`, or a list with an item).
pub trait OptionalParam {
    /// Whether the value is sent.
    fn is_set(&self) -> bool;
}

impl<T> OptionalParam for Option<T> {
    fn is_set(&self) -> bool {
        self.is_some()
    }
}

impl<T> OptionalParam for Vec<T> {
    fn is_set(&self) -> bool {
        !self.is_empty()
    }
}

/// `Request::get(operation, path_template)` for `Request::builder(operation, Method::GET, …)`:
/// the method a generated operation most often has, in fewer columns.
macro_rules! by_method {
    ($($name:ident $method:ident),*) => {$(
        #[doc = concat!("[`builder`](Request::builder) of a `", stringify!($method), "` request.")]
        pub fn $name(operation: &'static str, path_template: &'static str) -> RequestBuilder {
            Self::builder(operation, Method::$method, path_template)
        }
    )*};
}

impl Request {
    by_method!(get GET, post POST, put PUT, patch PATCH, delete DELETE);

    /// A builder of the request of `operation`: `method` to `path_template`, whose placeholders
    /// the [`path`](RequestBuilder::path) calls fill.
    pub fn builder(
        operation: &'static str,
        method: Method,
        path_template: &'static str,
    ) -> RequestBuilder {
        RequestBuilder {
            operation,
            method,
            path_template,
            path_values: Vec::new(),
            params: Params::new(),
            body: None,
            security: Security::ClientKey,
            error: None,
        }
    }
}

/// A [`Request`] being built: each call encodes one parameter or the body; the first error is
/// kept, later calls do nothing, and [`finish`](Self::finish) returns it.
#[derive(Debug)]
#[must_use]
pub struct RequestBuilder {
    operation: &'static str,
    method: Method,
    path_template: &'static str,
    /// Each placeholder's name and its encoded segment.
    path_values: Vec<(&'static str, String)>,
    params: Params,
    body: Option<Body>,
    security: Security,
    /// The first error; once set, every later call does nothing.
    error: Option<Error>,
}

impl RequestBuilder {
    /// Fills the placeholder `name` (every occurrence) with `value` encoded as one segment
    /// ([`param_style::path_param`]).
    pub fn path<T: Serialize + ?Sized>(
        mut self,
        name: &'static str,
        Encoding { style, explode, .. }: Encoding,
        value: &T,
    ) -> Self {
        if self.error.is_none() {
            match param_style::path_param(name, style, explode, value) {
                Ok(segment) => self.path_values.push((name, segment)),
                Err(error) => self.error = Some(error),
            }
        }
        self
    }

    /// A `key=value` pair the document writes in its path key ([`Params::fixed_query`]).
    pub fn fixed_query(mut self, key: &str, value: &str) -> Self {
        self.params.fixed_query(key, value);
        self
    }

    /// A required query parameter: always sent (an empty list as its style says).
    pub fn query<T: Serialize + ?Sized>(self, name: &str, encoding: Encoding, value: &T) -> Self {
        self.add(ParamLocation::Query, false, name, encoding, value)
    }

    /// An optional query parameter: sent when set.
    pub fn query_opt<T: Serialize + OptionalParam>(
        self,
        name: &str,
        encoding: Encoding,
        value: &T,
    ) -> Self {
        self.add_set(ParamLocation::Query, false, name, encoding, value)
    }

    /// A required header.
    pub fn header<T: Serialize + ?Sized>(self, name: &str, encoding: Encoding, value: &T) -> Self {
        self.add(ParamLocation::Header, false, name, encoding, value)
    }

    /// An optional header: sent when set.
    pub fn header_opt<T: Serialize + OptionalParam>(
        self,
        name: &str,
        encoding: Encoding,
        value: &T,
    ) -> Self {
        self.add_set(ParamLocation::Header, false, name, encoding, value)
    }

    /// A required cookie.
    pub fn cookie<T: Serialize + ?Sized>(self, name: &str, encoding: Encoding, value: &T) -> Self {
        self.add(ParamLocation::Cookie, false, name, encoding, value)
    }

    /// An optional cookie: sent when set.
    pub fn cookie_opt<T: Serialize + OptionalParam>(
        self,
        name: &str,
        encoding: Encoding,
        value: &T,
    ) -> Self {
        self.add_set(ParamLocation::Cookie, false, name, encoding, value)
    }

    /// A required credential ([`Params::add_secret`]) at `location`.
    pub fn secret<T: Serialize + ?Sized>(
        self,
        location: ParamLocation,
        name: &str,
        encoding: Encoding,
        value: &T,
    ) -> Self {
        self.add(location, true, name, encoding, value)
    }

    /// An optional credential at `location`: sent when set.
    pub fn secret_opt<T: Serialize + OptionalParam>(
        self,
        location: ParamLocation,
        name: &str,
        encoding: Encoding,
        value: &T,
    ) -> Self {
        self.add_set(location, true, name, encoding, value)
    }

    /// The operation's own security requirements (alternatives, each the names of the schemes
    /// sent together): the request carries the first the client holds credentials for.
    pub fn security(mut self, requirements: &'static [&'static [&'static str]]) -> Self {
        self.security = Security::Requirements(requirements);
        self
    }

    /// The body, or the error encoding it gave.
    pub fn body(mut self, body: Result<Body, Error>) -> Self {
        if self.error.is_none() {
            match body {
                Ok(body) => self.body = Some(body),
                Err(error) => self.error = Some(error),
            }
        }
        self
    }

    /// An optional body: none when `None`.
    pub fn body_opt(self, body: Option<Result<Body, Error>>) -> Self {
        match body {
            Some(body) => self.body(body),
            None => self,
        }
    }

    /// The request, or the first error a call gave.
    ///
    /// # Errors
    ///
    /// The first error of a parameter's or the body's encoding.
    pub fn finish(self) -> Result<Request, Error> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let path = fill_template(self.path_template, &self.path_values);
        Ok(Request {
            operation: self.operation,
            method: self.method,
            path_template: self.path_template,
            path,
            params: self.params,
            body: self.body,
            security: self.security,
        })
    }

    fn add_set<T: Serialize + OptionalParam>(
        self,
        location: ParamLocation,
        secret: bool,
        name: &str,
        encoding: Encoding,
        value: &T,
    ) -> Self {
        if value.is_set() {
            self.add(location, secret, name, encoding, value)
        } else {
            self
        }
    }

    fn add<T: Serialize + ?Sized>(
        mut self,
        location: ParamLocation,
        secret: bool,
        name: &str,
        encoding: Encoding,
        value: &T,
    ) -> Self {
        if self.error.is_none() {
            let added = if secret {
                self.params
                    .add_secret_encoded(location, name, encoding, value)
            } else {
                self.params.add_encoded(location, name, encoding, value)
            };
            if let Err(error) = added {
                self.error = Some(error);
            }
        }
        self
    }
}

/// `template` with each `{name}` replaced by its value; a placeholder without one is left out,
/// as the generated `format!` strings did. The template's own text is written as a URL parser
/// would write it (a space or a non-ASCII character from the document percent-encoded), so
/// the client's path rule sees the path as sent.
fn fill_template(template: &str, values: &[(&'static str, String)]) -> String {
    let literal = |text: &str| percent::encode(text, Component::PathLiteral);
    let mut path = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        path.push_str(&literal(&rest[..open]));
        let after = &rest[open + 1..];
        let close = after.find('}').unwrap_or(after.len());
        let placeholder = &after[..close];
        if let Some((_, value)) = values.iter().find(|(name, _)| *name == placeholder) {
            path.push_str(value);
        }
        rest = after.get(close + 1..).unwrap_or_default();
    }
    path.push_str(&literal(rest));
    path
}

#[cfg(test)]
#[path = "request_builder_tests.rs"]
mod tests;
