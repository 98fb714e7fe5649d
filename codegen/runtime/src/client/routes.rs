//! Where each operation with servers of its own (OpenAPI 3.1 §4.8.8 Path Item and §4.8.10
//! Operation `servers`) is sent, and whether the client's credentials go with it.
//!
//! | the operation's server | sent to | credentials (key, default headers) |
//! |---|---|---|
//! | none of its own | the client's base URL | yes |
//! | its own (the operation's, else its path's), absolute | that server | only if its origin is the base URL's or named with `send_credentials_to`; else a request its security would send one with is refused before sending, and the default headers stay home |
//! | its own, relative (`/uploads`) | resolved against `origin`, else the base URL's origin | as above |
//! | `operation_server(op, url)` | `url` (relative: as above) | as above |
//! | its own, the client given a whole `base_url` | the base URL (a test server, a proxy) | yes |

use std::collections::HashMap;

use crate::error::Error;
use crate::server_url::ServerUrl;

/// What the builder holds of operations' servers.
#[derive(Debug, Clone, Default)]
pub(super) struct OperationServers {
    /// Each operation the document sends elsewhere, with its server (variables at defaults).
    pub(super) declared: &'static [(&'static str, &'static str)],
    /// The user's `operation_server` calls, in order (a later one for the same operation wins).
    pub(super) overrides: Vec<(&'static str, ServerUrl)>,
    /// The origins `send_credentials_to` named.
    pub(super) trusted: Vec<String>,
}

/// Where one operation goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Route {
    /// Its base URL, without a trailing slash.
    pub(super) base_url: String,
    /// Whether the client's credentials are sent there.
    pub(super) credentials: bool,
}

/// Every operation that is not sent to the client's base URL, by its method's name.
pub(super) type Routes = HashMap<&'static str, Route>;

impl OperationServers {
    /// Each operation's route, `base_url` being the client's (checked); `whole` when the user
    /// gave that base URL whole, which every operation then goes to unless told otherwise.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRequest`] for an override of an operation without servers of its own, a
    /// server URL `check` refuses, or a `send_credentials_to` that is not an http(s) origin.
    pub(super) fn resolve(
        &self,
        base_url: &str,
        origin: Option<&str>,
        whole: bool,
        check: impl Fn(&str) -> Result<String, Error>,
    ) -> Result<Routes, Error> {
        let base_origin = origin_of(base_url)
            .ok_or_else(|| Error::InvalidRequest("the base URL has no origin".to_owned()))?;
        let mut trusted = vec![base_origin.clone()];
        for named in &self.trusted {
            trusted.push(origin_of(named).ok_or_else(|| {
                Error::InvalidRequest(
                    "send_credentials_to: an origin is an absolute http(s) URL".to_owned(),
                )
            })?);
        }
        if let Some((unknown, _)) = self
            .overrides
            .iter()
            .find(|(operation, _)| !self.declared.iter().any(|(name, _)| name == operation))
        {
            return Err(Error::InvalidRequest(format!(
                "operation_server: `{unknown}` is not an operation with servers of its own{}",
                self.listed()
            )));
        }
        let mut routes = Routes::new();
        for (operation, declared) in self.declared {
            let chosen = self
                .overrides
                .iter()
                .rev()
                .find(|(name, _)| name == operation)
                .map(|(_, server)| server.url())
                .transpose()?;
            let url = match chosen {
                Some(url) => url,
                None if whole => continue,
                None => (*declared).to_owned(),
            };
            let relative = !url.is_empty() && reqwest::Url::parse(&url).is_err();
            let absolute = if relative {
                resolve_relative(&url, origin.unwrap_or(&base_origin))
            } else {
                url
            };
            let base_url = check(&absolute).map_err(|error| {
                Error::InvalidRequest(format!("the server of `{operation}`: {error}"))
            })?;
            let credentials = origin_of(&base_url).is_some_and(|found| trusted.contains(&found));
            routes.insert(
                operation,
                Route {
                    base_url,
                    credentials,
                },
            );
        }
        Ok(routes)
    }

    /// `: they are a, b` (or nothing when there are none), for the refusal of an override.
    fn listed(&self) -> String {
        if self.declared.is_empty() {
            return String::new();
        }
        let names: Vec<&str> = self.declared.iter().map(|(name, _)| *name).collect();
        format!(" (those are: {})", names.join(", "))
    }
}

/// A relative server URL (`/api/v2`, `./v2`) under `origin`.
pub(super) fn resolve_relative(relative: &str, origin: &str) -> String {
    let path = relative.trim_start_matches('.');
    let separator = if path.starts_with('/') { "" } else { "/" };
    format!("{}{separator}{path}", origin.trim_end_matches('/'))
}

/// `scheme://host:port` of an absolute http(s) URL (RFC 6454), else `None`.
fn origin_of(url: &str) -> Option<String> {
    let parsed = reqwest::Url::parse(url).ok()?;
    matches!(parsed.scheme(), "http" | "https")
        .then(|| parsed.origin().ascii_serialization())
        .filter(|origin| origin != "null")
}

#[cfg(test)]
mod tests {
    use super::{OperationServers, Route};
    use crate::error::Error;

    const DECLARED: &[(&str, &str)] = &[
        ("upload", "/uploads"),
        ("report", "https://reports.example.test/2024"),
        ("same", "https://api.example.test/other"),
    ];

    fn check(url: &str) -> Result<String, Error> {
        Ok(url.trim_end_matches('/').to_owned())
    }

    fn route(base_url: &str, credentials: bool) -> Route {
        Route {
            base_url: base_url.to_owned(),
            credentials,
        }
    }

    /// The module's table, row by row.
    #[test]
    fn each_operation_by_the_table() {
        let servers = OperationServers {
            declared: DECLARED,
            ..OperationServers::default()
        };
        let base = "https://api.example.test/v1";
        let routes = servers.resolve(base, None, false, check).unwrap();
        // Relative: under the base URL's origin, with credentials.
        assert_eq!(
            routes["upload"],
            route("https://api.example.test/uploads", true)
        );
        // Another origin: without them; the same origin: with them.
        assert_eq!(
            routes["report"],
            route("https://reports.example.test/2024", false)
        );
        assert_eq!(
            routes["same"],
            route("https://api.example.test/other", true)
        );
        // Relative under the origin given.
        let routes = servers
            .resolve(base, Some("http://127.0.0.1:9/"), false, check)
            .unwrap();
        assert_eq!(routes["upload"], route("http://127.0.0.1:9/uploads", false));
        // A whole base URL takes every operation.
        assert!(servers.resolve(base, None, true, check).unwrap().is_empty());
    }

    /// An override wins (the last for an operation), even over a whole base URL; credentials
    /// go to another origin only when it is named.
    #[test]
    fn overrides_and_trusted_origins() {
        let servers = OperationServers {
            declared: DECLARED,
            overrides: vec![
                ("report", "http://127.0.0.1:1".into()),
                ("report", "http://127.0.0.1:2/r".into()),
            ],
            trusted: vec!["http://127.0.0.1:2/any/path".to_owned()],
        };
        let routes = servers
            .resolve("https://api.example.test", None, true, check)
            .unwrap();
        assert_eq!(routes["report"], route("http://127.0.0.1:2/r", true));
        assert_eq!(routes.len(), 1);
        let untrusted = OperationServers {
            trusted: Vec::new(),
            ..servers.clone()
        };
        let routes = untrusted
            .resolve("https://api.example.test", None, false, check)
            .unwrap();
        assert_eq!(routes["report"], route("http://127.0.0.1:2/r", false));
    }

    /// An override of an operation without servers of its own, and an origin that is none, are
    /// refused before anything is sent.
    #[test]
    fn refusals() {
        let unknown = OperationServers {
            declared: DECLARED,
            overrides: vec![("get_thing", "http://127.0.0.1:1".into())],
            ..OperationServers::default()
        };
        let error = unknown
            .resolve("https://api.example.test", None, false, check)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("`get_thing` is not an operation with servers of its own"),
            "{error}"
        );
        assert!(error.contains("upload, report, same"), "{error}");
        let bad_origin = OperationServers {
            declared: DECLARED,
            trusted: vec!["reports.example.test".to_owned()],
            ..OperationServers::default()
        };
        assert!(
            bad_origin
                .resolve("https://api.example.test", None, false, check)
                .is_err()
        );
    }
}
