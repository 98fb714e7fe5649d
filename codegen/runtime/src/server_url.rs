//! [`ServerUrl`]: a server of the document (OpenAPI 3.1 §4.8.5, the Server Object) with the
//! values a user set for its variables (§4.8.6), or a whole URL of the user's; where each
//! variable sits in the template decides how its value is checked and encoded
//! ([`percent::server_variable`], the one encoding boundary).

use std::borrow::Cow;
use std::fmt;

use crate::error::Error;
use crate::percent::{self, ServerPlace};

/// A server to send requests to: one of the document's (its URL template, each variable at its
/// default unless set) or a whole URL. A generated crate's `client::servers` has one per
/// declared server: a constant (`&str`, which converts into this) and, for a server with
/// variables, a builder with one typed setter per variable.
///
/// Given to `ClientBuilder::server` (every operation without servers of its own) or
/// `ClientBuilder::operation_server` (one operation); checked when the client is built.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerUrl {
    template: Cow<'static, str>,
    /// The document's default of each variable (`name`, `default`): written as it is.
    defaults: &'static [(&'static str, &'static str)],
    /// The values set, by variable: checked and encoded for their place.
    values: Vec<(&'static str, String)>,
}

impl fmt::Debug for ServerUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerUrl")
            .field("template", &self.template)
            .field("values", &self.values)
            .finish_non_exhaustive()
    }
}

impl ServerUrl {
    /// The server URL `template` (`https://{region}.api.example.test/v{version}`), each
    /// variable at its default (`defaults`: the variable's name, then its default).
    #[must_use]
    pub const fn template(
        template: &'static str,
        defaults: &'static [(&'static str, &'static str)],
    ) -> Self {
        Self {
            template: Cow::Borrowed(template),
            defaults,
            values: Vec::new(),
        }
    }

    /// Sets `variable` to `value` (the typed setters of a generated server builder call this):
    /// checked and percent-encoded for its place in the URL when the URL is made, see
    /// [`url`](Self::url).
    #[must_use]
    pub fn set(mut self, variable: &'static str, value: impl Into<String>) -> Self {
        self.values.retain(|(name, _)| *name != variable);
        self.values.push((variable, value.into()));
        self
    }

    /// The URL: each variable set replaced by its value, checked and encoded for its place,
    /// every other by its default as the document writes it. Trailing slashes are kept; it may
    /// be relative (`/api/v2`), as the document gives it.
    ///
    /// | place of the variable | kept | percent-encoded | refused |
    /// |---|---|---|---|
    /// | scheme (`{s}://`) | `http`, `https` | — | anything else |
    /// | host (`https://{h}.example.test`) | ASCII letters, digits, `-`, `.`, `_` | — | empty; anything else (`/`, `@`, `?`, `#`, `:`, `%`, space; non-ASCII: give its punycode form) |
    /// | port (`https://h:{p}`) | a number up to 65535 | — | anything else |
    /// | path (`https://h/v{v}`) | unreserved characters | everything else, `/` included | empty, `.`, `..` |
    /// | query, fragment | — | — | anything |
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] naming the variable: a value its place cannot hold (a `/`, `@`,
    /// `?` or `#` in a host, a port that is not a number, `..` in a path), or a variable the
    /// template does not have.
    pub fn url(&self) -> Result<String, Error> {
        if let Some((unknown, _)) = self
            .values
            .iter()
            .find(|(name, _)| !placeholders(&self.template).any(|(_, found)| found == *name))
        {
            return Err(Error::InvalidRequest(format!(
                "server variable `{unknown}` is not in the server URL {:?}",
                self.template
            )));
        }
        let template = &*self.template;
        let mut url = String::with_capacity(template.len());
        let mut written = 0;
        for (at, name) in placeholders(template) {
            url.push_str(&template[written..at]);
            written = at + name.len() + 2;
            let set = self.values.iter().find(|(variable, _)| *variable == name);
            let default = self.defaults.iter().find(|(variable, _)| *variable == name);
            match (set, default) {
                (Some((_, value)), _) => {
                    url.push_str(&percent::server_variable(
                        name,
                        place_of(template, at),
                        value,
                    )?);
                }
                (None, Some((_, default))) => url.push_str(default),
                // Undeclared (the generator noted it): kept as written; building refuses it.
                (None, None) => url.push_str(&template[at..written]),
            }
        }
        url.push_str(&template[written..]);
        Ok(url)
    }
}

/// A whole URL of the user's (or a constant of `client::servers`), taken as it is: its braces
/// are no variables.
impl From<String> for ServerUrl {
    fn from(url: String) -> Self {
        Self {
            template: Cow::Owned(url.replace('{', "%7B").replace('}', "%7D")),
            defaults: &[],
            values: Vec::new(),
        }
    }
}

/// A whole URL (a constant of `client::servers`, variables at their defaults).
impl From<&str> for ServerUrl {
    fn from(url: &str) -> Self {
        Self::from(url.to_owned())
    }
}

/// Each `{name}` of `template` with the byte offset of its `{`, in order.
fn placeholders(template: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut from = 0;
    std::iter::from_fn(move || {
        let open = from + template.get(from..)?.find('{')?;
        let close = open + template[open..].find('}')?;
        from = close + 1;
        Some((open, &template[open + 1..close]))
    })
}

/// Where the placeholder starting at byte `at` sits in `template` (RFC 3986 §3: `scheme://
/// authority/path?query#fragment`; a template without `://` is a path).
pub(crate) fn place_of(template: &str, at: usize) -> ServerPlace {
    let before = &template[..at];
    let authority_start = match template.find("://") {
        Some(scheme_end) if at < scheme_end => return ServerPlace::Scheme,
        Some(scheme_end) => scheme_end + 3,
        None if template.starts_with("//") => 2,
        None => usize::MAX,
    };
    if before.contains(['?', '#']) {
        return ServerPlace::QueryOrFragment;
    }
    if at < authority_start {
        return ServerPlace::Path;
    }
    let authority = &before[authority_start..];
    if authority.contains('/') {
        ServerPlace::Path
    } else if authority.contains(':') {
        ServerPlace::Port
    } else {
        ServerPlace::Host
    }
}

#[cfg(test)]
mod tests {
    use super::{ServerPlace, ServerUrl, place_of};

    const TEMPLATE: &str = "{scheme}://{region}.api.test:{port}/v{version}/{base}";
    const DEFAULTS: &[(&str, &str)] = &[
        ("scheme", "https"),
        ("region", "us"),
        ("port", "443"),
        ("version", "2"),
        ("base", "api/x"),
    ];

    /// Each place of RFC 3986's URL, told by the text before the placeholder.
    #[test]
    fn places() {
        let place = |name: &str| place_of(TEMPLATE, TEMPLATE.find(name).unwrap() - 1);
        assert_eq!(place("scheme"), ServerPlace::Scheme);
        assert_eq!(place("region"), ServerPlace::Host);
        assert_eq!(place("port"), ServerPlace::Port);
        assert_eq!(place("version"), ServerPlace::Path);
        assert_eq!(place("base"), ServerPlace::Path);
        assert_eq!(place_of("/api/{v}", 5), ServerPlace::Path);
        assert_eq!(place_of("//{h}/x", 2), ServerPlace::Host);
        assert_eq!(
            place_of("https://h/x?a={q}", 14),
            ServerPlace::QueryOrFragment
        );
        assert_eq!(
            place_of("https://h/x#{f}", 12),
            ServerPlace::QueryOrFragment
        );
    }

    /// Defaults are written as the document gives them (a `/` in a path default stays); a value
    /// set is checked and encoded for its place, or refused naming the variable.
    #[test]
    fn values_by_place() {
        let url = |set: &[(&'static str, &str)]| {
            set.iter()
                .fold(
                    ServerUrl::template(TEMPLATE, DEFAULTS),
                    |url, (name, value)| url.set(name, *value),
                )
                .url()
                .map_err(|error| error.to_string())
        };
        assert_eq!(url(&[]).unwrap(), "https://us.api.test:443/v2/api/x");
        assert_eq!(
            url(&[
                ("region", "eu-west.1"),
                ("port", "8080"),
                ("scheme", "http")
            ])
            .unwrap(),
            "http://eu-west.1.api.test:8080/v2/api/x"
        );
        assert_eq!(
            url(&[("base", "a/b c"), ("version", "3?")]).unwrap(),
            "https://us.api.test:443/v3%3F/a%2Fb%20c"
        );
        // A value is text: its `%` is written `%25`, so `%2e` is no dot segment.
        assert_eq!(
            url(&[("base", "%2e")]).unwrap(),
            "https://us.api.test:443/v2/%252e"
        );
        let refused = [
            ("region", "evil.test/"),
            ("region", "evil.test@"),
            ("region", "a?"),
            ("region", "a#"),
            ("region", "a:1"),
            ("region", "a%2F"),
            ("region", ""),
            ("region", "bücher"),
            ("port", "80a"),
            ("port", "65536"),
            ("port", ""),
            ("scheme", "ftp"),
            ("base", ".."),
            ("base", ""),
            ("nope", "x"),
        ];
        for (name, value) in refused {
            let error = url(&[(name, value)]).expect_err(value);
            assert!(error.contains(&format!("`{name}`")), "{error}");
        }
    }

    /// A whole URL is taken as it is: its braces are not variables.
    #[test]
    fn a_whole_url_has_no_variables() {
        let url = ServerUrl::from("http://127.0.0.1:9/{x}");
        assert_eq!(url.url().unwrap(), "http://127.0.0.1:9/%7Bx%7D");
        assert!(url.set("x", "y").url().is_err());
    }
}
