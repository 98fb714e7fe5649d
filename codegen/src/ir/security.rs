//! How the crate's client presents its key: the document's `securitySchemes` and `security`,
//! read into one of the runtime's `AuthScheme`s (OpenAPI 3.1 §4.8.27, the Security Scheme
//! Object: `http` with any scheme word, `apiKey` in a header, query or cookie, `oauth2`,
//! `openIdConnect`).

use openapiv3::{APIKeyLocation, OpenAPI, ReferenceOr, SecurityScheme};

use crate::error::{Note, Pointer};

/// Where the client puts its key (the runtime's `AuthScheme` of that name).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ClientAuth {
    /// `Authorization: Bearer <key>`: `http` `bearer`, `oauth2`, `openIdConnect`, and a document
    /// that declares nothing.
    #[default]
    Bearer,
    /// `Authorization: Basic <base64 of user:password>`.
    Basic,
    /// `Authorization: <word> <key>`.
    Scheme(String),
    /// `<name>: <key>`.
    Header(String),
    /// `Cookie: <name>=<key>`.
    Cookie(String),
}

impl ClientAuth {
    /// How the docs show it (`X-Api-Key: <key>`).
    pub fn shown(&self) -> String {
        match self {
            ClientAuth::Bearer => "Authorization: Bearer <key>".to_owned(),
            ClientAuth::Basic => "Authorization: Basic <base64 of user:password>".to_owned(),
            ClientAuth::Scheme(word) => format!("Authorization: {word} <key>"),
            ClientAuth::Header(name) => format!("{name}: <key>"),
            ClientAuth::Cookie(name) => format!("Cookie: {name}=<key>"),
        }
    }
}

/// The scheme the client uses: the first alternative of the document's `security` that names
/// one scheme the client can send, else the first such scheme declared; `Bearer` without one.
/// What it cannot send (a key in the query) or does not run (OAuth2 and OpenID Connect flows: a
/// token obtained elsewhere is sent as a bearer token) is noted.
pub(super) fn client_auth(spec: &OpenAPI, notes: &mut Vec<Note>) -> ClientAuth {
    let Some(components) = &spec.components else {
        return ClientAuth::Bearer;
    };
    let schemes = &components.security_schemes;
    let schemes_pointer = Pointer::root().join("components").join("securitySchemes");
    let required = spec
        .security
        .iter()
        .flatten()
        .filter(|requirement| requirement.len() == 1)
        .filter_map(|requirement| requirement.keys().next());
    let declared = schemes.keys();
    let mut chosen = None;
    for key in required.chain(declared) {
        let Some(ReferenceOr::Item(scheme)) = schemes.get(key) else {
            continue;
        };
        let pointer = schemes_pointer.join(key);
        if let Some(auth) = placement(scheme, &pointer, notes) {
            chosen = Some(auth);
            break;
        }
    }
    chosen.unwrap_or_default()
}

fn placement(
    scheme: &SecurityScheme,
    pointer: &Pointer,
    notes: &mut Vec<Note>,
) -> Option<ClientAuth> {
    match scheme {
        SecurityScheme::HTTP { scheme, .. } => {
            // Scheme words are case-insensitive (RFC 9110 §11.1).
            Some(match scheme.to_ascii_lowercase().as_str() {
                "bearer" => ClientAuth::Bearer,
                "basic" => ClientAuth::Basic,
                _ if is_token(scheme) => ClientAuth::Scheme(scheme.clone()),
                _ => {
                    notes.push(Note {
                        pointer: pointer.to_string(),
                        message: format!(
                            "security scheme `http` {scheme:?} is not used: its scheme is not an \
                             HTTP token"
                        ),
                    });
                    return None;
                }
            })
        }
        SecurityScheme::APIKey { location, name, .. } => match location {
            APIKeyLocation::Header if is_token(name) => Some(ClientAuth::Header(name.clone())),
            APIKeyLocation::Cookie if is_token(name) => Some(ClientAuth::Cookie(name.clone())),
            APIKeyLocation::Query => {
                notes.push(Note {
                    pointer: pointer.to_string(),
                    message: format!(
                        "security scheme `apiKey` in the query (`{name}`) is not the client's \
                         key: an operation that declares the parameter takes it as a secret \
                         argument"
                    ),
                });
                None
            }
            _ => {
                notes.push(Note {
                    pointer: pointer.to_string(),
                    message: format!(
                        "security scheme `apiKey` {name:?} is not used: its name is not an HTTP \
                         token"
                    ),
                });
                None
            }
        },
        SecurityScheme::OAuth2 { .. } | SecurityScheme::OpenIDConnect { .. } => {
            notes.push(Note {
                pointer: pointer.to_string(),
                message: "the client does not run OAuth2 or OpenID Connect flows: give it a \
                          token obtained elsewhere as the API key (sent as a bearer token)"
                    .to_owned(),
            });
            Some(ClientAuth::Bearer)
        }
    }
}

/// RFC 9110's `token`: what a header name, cookie name or scheme word can be.
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}
