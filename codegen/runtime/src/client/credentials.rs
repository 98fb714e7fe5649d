//! The credentials a client holds: the API key, placed as its [`AuthScheme`] (`Authorization` by
//! default) or a [`Place`] of the document's naming, and one credential per other security
//! scheme of the document; each value marked sensitive, never shown by `Debug`, and registered
//! with the scrubber of server text for as long as a client holds it. [`Credentials::chosen`]
//! picks what one request carries by its operation's [`Security`] (OpenAPI 3.1 §4.8.30: a list
//! of alternatives, each a set of schemes sent together).

use std::fmt;
use std::sync::Arc;

use base64::Engine as _;
use reqwest::header::{AUTHORIZATION, COOKIE, HeaderName, HeaderValue};

use crate::error::{Error, InvalidArgument};
use crate::percent::{self, Component};
use crate::server_text::RegisteredSecret;

/// The message for a key that cannot be sent as a header; it deliberately
/// says nothing about the key itself.
pub(super) const INVALID_KEY: &str = "API key is not a valid HTTP header value";

/// How the API key is presented: in `Authorization` with a scheme word, or in a header or
/// cookie of the document's naming (OpenAPI's `http` and `apiKey` security schemes). A generated
/// crate's `Client::builder()` sets the one its document declares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthScheme {
    /// `Authorization: Bearer <key>`, the default.
    #[default]
    Bearer,
    /// `Authorization: Api-Key <key>`, the legacy form Baseten still
    /// accepts.
    ApiKey,
    /// `Authorization: Basic <base64 of key>`: HTTP basic (RFC 7617), the key given as
    /// `user:password`.
    Basic,
    /// `Authorization: <word> <key>`: an `http` scheme of another word (`Token`).
    Scheme(&'static str),
    /// `<name>: <key>`: an `apiKey` in a header (`X-Api-Key`).
    Header(&'static str),
    /// `Cookie: <name>=<key>`: an `apiKey` in a cookie.
    Cookie(&'static str),
}

/// Where a credential of one of the document's security schemes goes: where an [`AuthScheme`]
/// puts it, or a query parameter (an `apiKey` `in: query`), appended to the URL when the
/// request is sent and shown as `REDACTED` in every URL the client writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Place {
    /// In `Authorization`, a header or a cookie, as the scheme says.
    Auth(AuthScheme),
    /// `?<name>=<value>`, percent-encoded as every query value.
    Query(&'static str),
}

/// Which credentials an operation's request carries: the client's API key if it has one (an
/// operation of a document with one way to authenticate), or the first of the operation's
/// security requirements whose every scheme the client holds a credential for. A requirement
/// with no scheme (`security: []`, or `{}` among the alternatives) is met with none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Security {
    /// The API key, if the client has one; none otherwise.
    #[default]
    ClientKey,
    /// The alternatives, in the document's order, each the names of the schemes it needs.
    Requirements(&'static [&'static [&'static str]]),
}

/// No requirement of an operation could be met: the client holds no credential for one of the
/// schemes of each. Nothing was sent. Carried by [`Error::InvalidArgument`] (read it back with
/// [`InvalidArgument::downcast_ref`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingCredentials {
    /// The operation's name.
    pub operation: &'static str,
    /// Its requirements, each the names of the security schemes sent together.
    pub requirements: &'static [&'static [&'static str]],
}

impl fmt::Display for MissingCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: the client holds no credentials for the security schemes it needs (",
            self.operation
        )?;
        for (index, requirement) in self.requirements.iter().enumerate() {
            if index > 0 {
                f.write_str(" or ")?;
            }
            let names: Vec<String> = requirement.iter().map(|name| format!("`{name}`")).collect();
            f.write_str(&names.join(" and "))?;
        }
        f.write_str("); set them on the client builder")
    }
}

impl std::error::Error for MissingCredentials {}

impl AuthScheme {
    /// The header the key goes in and its value, unchecked.
    fn header(self, key: &str) -> Result<(HeaderName, String), Error> {
        let invalid =
            |what: &str| Error::InvalidRequest(format!("auth scheme {what} is not valid"));
        Ok(match self {
            Self::Bearer => (AUTHORIZATION, format!("Bearer {key}")),
            Self::ApiKey => (AUTHORIZATION, format!("Api-Key {key}")),
            Self::Basic => {
                let encoded = base64::engine::general_purpose::STANDARD.encode(key);
                (AUTHORIZATION, format!("Basic {encoded}"))
            }
            Self::Scheme(word) => {
                // RFC 9110's `token`: the scheme word is one.
                if !percent::is_token(word) {
                    return Err(invalid("word"));
                }
                (AUTHORIZATION, format!("{word} {key}"))
            }
            Self::Header(name) => (
                HeaderName::try_from(name).map_err(|_| invalid("header name"))?,
                key.to_owned(),
            ),
            Self::Cookie(name) => {
                if !percent::is_token(name) {
                    return Err(invalid("cookie name"));
                }
                (COOKIE, format!("{name}={key}"))
            }
        })
    }
}

/// A credential as a request carries it.
#[derive(Clone)]
pub(super) enum Placed {
    /// A header (`Authorization`, the scheme's own), its value marked sensitive.
    Header(HeaderName, HeaderValue),
    /// A `name=value` pair of the one `Cookie` header.
    Cookie(String),
    /// An encoded `(key, value)` query pair.
    Query(String, String),
}

/// One credential ready to send, and its registration with the scrubber of
/// [`ServerText`](crate::server_text::ServerText), so that a server echoing it back is scrubbed
/// from every error, even those raised far from the client. Kept private and redacted so the
/// value cannot leak through `Debug` output or reqwest's own logging (a header value is marked
/// sensitive).
#[derive(Clone)]
pub(super) struct ApiKey {
    pub(super) placed: Placed,
    /// Shared by the clones of one client; the key (and a basic password on its own) is
    /// scrubbed until the last one is dropped.
    _scrubbed: Arc<Vec<RegisteredSecret>>,
}

impl ApiKey {
    /// A credential, placed as `place` says.
    pub(super) fn placed(key: &str, place: Place) -> Result<Self, Error> {
        if key.is_empty() {
            return Err(Error::InvalidRequest("API key is empty".to_owned()));
        }
        let placed = match place {
            Place::Auth(scheme) => {
                let (name, value) = scheme.header(key)?;
                let cookie = name == COOKIE;
                let mut header = HeaderValue::try_from(value.as_str())
                    .map_err(|_| Error::InvalidRequest(INVALID_KEY.to_owned()))?;
                header.set_sensitive(true);
                if cookie {
                    // RFC 6265's cookie-octet: a key that would end the pair or the header is
                    // refused rather than sent as something else.
                    let octets = key.bytes().all(is_cookie_octet);
                    if !octets {
                        return Err(Error::InvalidRequest(
                            "API key is not a valid cookie value".to_owned(),
                        ));
                    }
                    Placed::Cookie(value)
                } else {
                    Placed::Header(name, header)
                }
            }
            Place::Query(name) => Placed::Query(
                percent::encode(name, Component::Query),
                percent::encode(key, Component::Query),
            ),
        };
        let mut secrets = vec![RegisteredSecret::new(key)];
        // A server echoing only the password of `user:password` is scrubbed too.
        if let (Place::Auth(AuthScheme::Basic), Some((_, password))) = (place, key.split_once(':'))
            && !password.is_empty()
        {
            secrets.push(RegisteredSecret::new(password));
        }
        Ok(Self {
            placed,
            _scrubbed: Arc::new(secrets),
        })
    }
}

/// RFC 6265 §4.1.1's `cookie-octet`: visible ASCII but `"`, `,`, `;` and `\`.
fn is_cookie_octet(byte: u8) -> bool {
    matches!(byte, 0x21 | 0x23..=0x2b | 0x2d..=0x3a | 0x3c..=0x5b | 0x5d..=0x7e)
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// Every credential a client holds: the API key (standing for the document's scheme
/// `key_scheme`, when the generated builder names it) and the other schemes' by name.
#[derive(Clone, Default)]
pub(super) struct Credentials {
    pub(super) key: Option<ApiKey>,
    pub(super) key_scheme: Option<&'static str>,
    pub(super) named: Vec<(&'static str, ApiKey)>,
}

impl Credentials {
    /// The names of the schemes other than the key's the client holds a credential for (what
    /// `Debug` shows of them).
    pub(super) fn scheme_names(&self) -> Vec<&'static str> {
        self.named.iter().map(|(name, _)| *name).collect()
    }

    /// What a request of `operation` carries under `security`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] holding [`MissingCredentials`] when no requirement is met.
    pub(super) fn chosen(
        &self,
        operation: &'static str,
        security: Security,
    ) -> Result<Vec<&ApiKey>, Error> {
        let requirements = match security {
            Security::ClientKey => return Ok(self.key.iter().collect()),
            Security::Requirements(requirements) => requirements,
        };
        for requirement in requirements {
            let held: Option<Vec<&ApiKey>> =
                requirement.iter().map(|name| self.held(name)).collect();
            if let Some(held) = held {
                return Ok(held);
            }
        }
        Err(Error::InvalidArgument(InvalidArgument::new(
            MissingCredentials {
                operation,
                requirements,
            },
        )))
    }

    /// The credential of the scheme `name`, if the client holds one.
    fn held(&self, name: &str) -> Option<&ApiKey> {
        if self.key_scheme == Some(name) {
            return self.key.as_ref();
        }
        self.named
            .iter()
            .find(|(held, _)| *held == name)
            .map(|(_, key)| key)
    }
}
