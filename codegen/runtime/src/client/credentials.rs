//! The API key as the client holds it: the header the document's security scheme puts it in
//! (`Authorization` by default), its value marked sensitive, never shown by `Debug`, and
//! registered with the scrubber of server text for as long as a client holds it.

use std::fmt;
use std::sync::Arc;

use base64::Engine as _;
use reqwest::header::{AUTHORIZATION, COOKIE, HeaderName, HeaderValue};

use crate::error::Error;
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
                let token = !word.is_empty()
                    && word
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
                if !token {
                    return Err(invalid("word"));
                }
                (AUTHORIZATION, format!("{word} {key}"))
            }
            Self::Header(name) => (
                HeaderName::try_from(name).map_err(|_| invalid("header name"))?,
                key.to_owned(),
            ),
            Self::Cookie(name) => {
                let token = !name.is_empty()
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
                if !token {
                    return Err(invalid("cookie name"));
                }
                (COOKIE, format!("{name}={key}"))
            }
        })
    }
}

/// A ready-made `Authorization` header value, and the key's registration with the scrubber of
/// [`ServerText`](crate::server_text::ServerText), so that a server echoing the key back is scrubbed from every error, even
/// those raised far from the client. Kept private and redacted so the key cannot leak through
/// `Debug` output or reqwest's own logging (the value is marked sensitive).
#[derive(Clone)]
pub(super) struct ApiKey {
    /// The header it goes in (`Authorization`, or the document's `apiKey` header or `Cookie`).
    pub(super) name: HeaderName,
    pub(super) header: HeaderValue,
    /// Shared by the clones of one client; the key (and a basic password on its own) is
    /// scrubbed until the last one is dropped.
    _scrubbed: Arc<Vec<RegisteredSecret>>,
}

impl ApiKey {
    pub(super) fn new(key: &str, scheme: AuthScheme) -> Result<Self, Error> {
        if key.is_empty() {
            return Err(Error::InvalidRequest("API key is empty".to_owned()));
        }
        let (name, value) = scheme.header(key)?;
        let mut header = HeaderValue::try_from(value)
            .map_err(|_| Error::InvalidRequest(INVALID_KEY.to_owned()))?;
        header.set_sensitive(true);
        let mut secrets = vec![RegisteredSecret::new(key)];
        // A server echoing only the password of `user:password` is scrubbed too.
        if let (AuthScheme::Basic, Some((_, password))) = (scheme, key.split_once(':'))
            && !password.is_empty()
        {
            secrets.push(RegisteredSecret::new(password));
        }
        Ok(Self {
            name,
            header,
            _scrubbed: Arc::new(secrets),
        })
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}
