//! The API key as the client holds it: an `Authorization` header value marked sensitive, never
//! shown by `Debug`, and registered with the scrubber of server text for as long as a client
//! holds it.

use std::fmt;
use std::sync::Arc;

use reqwest::header::HeaderValue;

use crate::error::Error;
use crate::server_text::RegisteredSecret;

/// The message for a key that cannot be sent as a header; it deliberately
/// says nothing about the key itself.
pub(super) const INVALID_KEY: &str = "API key is not a valid HTTP header value";

/// How the API key is presented in the `Authorization` header.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthScheme {
    /// `Authorization: Bearer <key>`, the default.
    #[default]
    Bearer,
    /// `Authorization: Api-Key <key>`, the legacy form Baseten still
    /// accepts.
    ApiKey,
}

impl AuthScheme {
    fn prefix(self) -> &'static str {
        match self {
            Self::Bearer => "Bearer",
            Self::ApiKey => "Api-Key",
        }
    }
}

/// A ready-made `Authorization` header value, and the key's registration with the scrubber of
/// [`ServerText`](crate::server_text::ServerText), so that a server echoing the key back is scrubbed from every error, even
/// those raised far from the client. Kept private and redacted so the key cannot leak through
/// `Debug` output or reqwest's own logging (the value is marked sensitive).
#[derive(Clone)]
pub(super) struct ApiKey {
    pub(super) header: HeaderValue,
    /// Shared by the clones of one client; the key is scrubbed until the last one is dropped.
    _scrubbed: Arc<RegisteredSecret>,
}

impl ApiKey {
    pub(super) fn new(key: &str, scheme: AuthScheme) -> Result<Self, Error> {
        if key.is_empty() {
            return Err(Error::InvalidRequest("API key is empty".to_owned()));
        }
        let mut header = HeaderValue::try_from(format!("{} {key}", scheme.prefix()))
            .map_err(|_| Error::InvalidRequest(INVALID_KEY.to_owned()))?;
        header.set_sensitive(true);
        Ok(Self {
            header,
            _scrubbed: Arc::new(RegisteredSecret::new(key)),
        })
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}
