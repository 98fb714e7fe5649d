//! How the crate's client authenticates: the document's `securitySchemes`, its `security` and
//! each operation's own (OpenAPI 3.1 §4.8.27 Security Scheme Object: `http` with any scheme
//! word, `apiKey` in a header, query or cookie, `oauth2`, `openIdConnect`; §4.8.10 Operation
//! Object `security`, which overrides the document's; §4.8.30 Security Requirement Object: a
//! list of alternatives, each a set of schemes sent together, `[]` or `{}` meaning none).
//!
//! | the document | the client |
//! |---|---|
//! | one way for every operation (each needs the key's scheme alone, or none says what it needs) | the API key, placed as that scheme says, with every request (`Client::new(key)`) |
//! | operations that differ (another scheme, `security: []`, alternatives, several at once, or some saying nothing: those need nothing) | one setter per scheme; each such operation carries its requirements, and the request the first one the client can meet, or fails before sending naming them |
//! | `http` `bearer` / `basic` / another word | `Authorization: Bearer` / `Basic` / `<word>` |
//! | `apiKey` in a header, a cookie, the query | that header; a pair of the one `Cookie` header; a query pair appended when sent, `REDACTED` wherever the URL is shown |
//! | `oauth2`, `openIdConnect` | a bearer token the user obtains (noted: no flow is run) |

use openapiv3::{APIKeyLocation, OpenAPI, ReferenceOr, SecurityRequirement, SecurityScheme};

use super::{Location, Operation};
use crate::error::{Note, Pointer};
use crate::names::snake_ident;

/// The names `ClientBuilder`'s own methods take: a scheme's setter never shadows one (an
/// inherent method wins over a trait's).
const BUILDER_METHODS: &[&str] = &[
    "new",
    "api_key",
    "api_key_from_env",
    "env_names",
    "auth_scheme",
    "key_scheme",
    "credential",
    "base_url",
    "origin",
    "base_url_from_env",
    "connect_timeout",
    "timeout",
    "retry_policy",
    "http_client",
    "default_header",
    "request_id_header",
    "max_response_bytes",
    "max_in_flight",
    "endpoint_rate_limit",
    "adaptive_rate",
    "interceptor",
    "build",
    "clone",
    "fmt",
];

/// How the client authenticates, read from the document once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Auth {
    /// Where the API key goes.
    pub client: ClientAuth,
    /// The scheme the API key stands for, by its key in `securitySchemes`.
    pub key_scheme: Option<String>,
    /// Every scheme the client can send, in the document's order.
    pub schemes: Vec<Scheme>,
    /// Whether operations carry their own requirements (`Operation::security`), and the client
    /// a setter per scheme: the operations differ in what they need.
    pub per_operation: bool,
}

impl Auth {
    /// Whether `Client::builder()` names the key's scheme and place (`key_scheme`): operations
    /// name schemes, or the key goes in the query, which `AuthScheme` cannot say.
    pub fn names_key_scheme(&self) -> bool {
        self.per_operation || matches!(self.client, ClientAuth::Query(_))
    }
}

/// One security scheme the client can hold a credential for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scheme {
    /// Its key in `securitySchemes` (what requirements name).
    pub key: String,
    /// Where its credential goes.
    pub place: ClientAuth,
    /// The builder setter that takes it (snake case of the key).
    pub setter: String,
    /// Its `description`, document text.
    pub description: Option<String>,
}

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
    /// `?<name>=<key>`.
    Query(String),
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
            ClientAuth::Query(name) => format!("?{name}=<key>"),
        }
    }
}

/// How the client authenticates: the API key's scheme is the first alternative of the
/// document's `security` that names one scheme the client can send, else the first such scheme
/// declared (`Bearer` without one); what a scheme cannot be sent as, or does not run (OAuth2 and
/// OpenID Connect flows: a token obtained elsewhere is sent as a bearer token), is noted. When
/// an operation needs anything but that scheme (its own `security`, `[]`, alternatives, several
/// at once), every operation with requirements carries them.
pub(super) fn auth(spec: &OpenAPI, operations: &mut [Operation], notes: &mut Vec<Note>) -> Auth {
    let empty = indexmap::IndexMap::new();
    let declared = spec
        .components
        .as_ref()
        .map_or(&empty, |components| &components.security_schemes);
    let schemes_pointer = Pointer::root().join("components").join("securitySchemes");
    let mut schemes: Vec<Scheme> = Vec::new();
    let mut taken: Vec<String> = BUILDER_METHODS.iter().map(|m| (*m).to_owned()).collect();
    for (key, scheme) in declared {
        let ReferenceOr::Item(scheme) = scheme else {
            continue;
        };
        let pointer = schemes_pointer.join(key);
        if let Some(place) = placement(scheme, &pointer, notes) {
            let mut setter = snake_ident(key);
            if taken.contains(&setter) {
                setter = format!("{setter}_credential");
            }
            let mut suffix = 2;
            let base = setter.clone();
            while taken.contains(&setter) {
                setter = format!("{base}{suffix}");
                suffix += 1;
            }
            taken.push(setter.clone());
            schemes.push(Scheme {
                key: key.clone(),
                place,
                setter,
                description: description(scheme),
            });
        }
    }
    let usable = |key: &str| schemes.iter().find(|scheme| scheme.key == key);
    let preferred = spec
        .security
        .iter()
        .flatten()
        .filter(|requirement| requirement.len() == 1)
        .filter_map(|requirement| requirement.keys().next())
        .find_map(|key| usable(key));
    // A key in the query goes only where the document asks for it: it is not the key of a
    // document whose `security` does not name it.
    let key_scheme = preferred.or(schemes
        .iter()
        .find(|scheme| !matches!(scheme.place, ClientAuth::Query(_))));
    let client = key_scheme
        .map(|scheme| scheme.place.clone())
        .unwrap_or_default();
    let key_scheme = key_scheme.map(|scheme| scheme.key.clone());
    operation_requirements(
        spec,
        operations,
        key_scheme.as_deref(),
        &schemes,
        notes,
        |key| declared.contains_key(key),
    );
    let per_operation = operations.iter().any(|op| op.security.is_some());
    Auth {
        client,
        key_scheme,
        schemes,
        per_operation,
    }
}

/// A `security` list as alternatives, each the scheme keys sent together; `[]` (no
/// requirement) is the one alternative met with none.
pub(super) fn alternatives(requirements: &[SecurityRequirement]) -> Vec<Vec<String>> {
    if requirements.is_empty() {
        return vec![Vec::new()];
    }
    requirements
        .iter()
        .map(|requirement| requirement.keys().cloned().collect())
        .collect()
}

/// Gives each operation its effective requirements (its own `security`, read into
/// `Operation::security`, else the document's) if any operation needs other than the key's
/// scheme alone; else none carries any.
fn operation_requirements(
    spec: &OpenAPI,
    operations: &mut [Operation],
    key_scheme: Option<&str>,
    schemes: &[Scheme],
    notes: &mut Vec<Note>,
    declared: impl Fn(&str) -> bool,
) {
    let document = spec.security.as_deref().map(alternatives);
    for operation in operations.iter_mut() {
        let own = operation.security.take();
        let own_pointer = own.is_some();
        operation.security = own.or_else(|| document.clone());
        // A scheme whose place the operation declares as a parameter of its own (an `apiKey`
        // the caller may pass as an argument) is met by the client's credential (which the
        // runtime leaves out when the argument is given), or else by the argument: the
        // alternative is followed by itself without that scheme.
        let argument = |key: &String| {
            schemes
                .iter()
                .find(|scheme| scheme.key == *key)
                .is_some_and(|scheme| takes_as_argument(operation, &scheme.place))
        };
        let or_arguments = operation.security.as_ref().map(|all| {
            let mut expanded: Vec<Vec<String>> = Vec::new();
            for schemes in all {
                let without: Vec<String> = schemes
                    .iter()
                    .filter(|key| !argument(key))
                    .cloned()
                    .collect();
                for alternative in [schemes.clone(), without] {
                    if !expanded.contains(&alternative) {
                        expanded.push(alternative);
                    }
                }
            }
            expanded
        });
        operation.security = or_arguments;
        let Some(effective) = &operation.security else {
            continue;
        };
        let pointer = if own_pointer {
            Pointer::root()
                .join("paths")
                .join(&operation.path)
                .join(operation.method.to_ascii_lowercase())
                .join("security")
        } else {
            Pointer::root().join("security")
        };
        for name in effective.iter().flatten() {
            if !declared(name) {
                notes.push(Note {
                    pointer: pointer.to_string(),
                    message: format!(
                        "security requirement names `{name}`, which `securitySchemes` does not \
                         declare: no credential meets it"
                    ),
                });
            }
        }
    }
    // One way for every operation: each needs the key's scheme alone, or none says what it
    // needs (a document declaring schemes and no `security`: the key goes with every request, as
    // it always has). Otherwise an operation that needs nothing is sent with nothing.
    let key_alone = vec![
        key_scheme
            .map(str::to_owned)
            .into_iter()
            .collect::<Vec<_>>(),
    ];
    let one_way = operations
        .iter()
        .all(|operation| operation.security.as_ref() == Some(&key_alone))
        || operations
            .iter()
            .all(|operation| operation.security.is_none());
    for operation in operations.iter_mut() {
        operation.security = if one_way {
            None
        } else {
            Some(
                operation
                    .security
                    .take()
                    .unwrap_or_else(|| vec![Vec::new()]),
            )
        };
    }
}

/// Whether `operation` declares a parameter where `place` puts a credential (header names in
/// any case).
fn takes_as_argument(operation: &Operation, place: &ClientAuth) -> bool {
    operation
        .required_query
        .iter()
        .chain(&operation.optional_query)
        .any(|param| match (place, param.location) {
            (ClientAuth::Query(name), Location::Query)
            | (ClientAuth::Cookie(name), Location::Cookie) => param.wire_name == *name,
            (ClientAuth::Header(name), Location::Header) => {
                param.wire_name.eq_ignore_ascii_case(name)
            }
            _ => false,
        })
}

/// A scheme's `description`.
fn description(scheme: &SecurityScheme) -> Option<String> {
    match scheme {
        SecurityScheme::APIKey { description, .. }
        | SecurityScheme::HTTP { description, .. }
        | SecurityScheme::OAuth2 { description, .. }
        | SecurityScheme::OpenIDConnect { description, .. } => description.clone(),
    }
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
            // Any name: it is percent-encoded as every query key.
            APIKeyLocation::Query if !name.is_empty() => Some(ClientAuth::Query(name.clone())),
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
                          token obtained elsewhere (as the API key, or with this scheme's \
                          setter), sent as `Authorization: Bearer <token>`"
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

#[cfg(test)]
mod tests {
    use crate::ir::Api;

    fn api_of(document: &str) -> Api {
        crate::build_ir(&crate::Input {
            spec_path: "test.yaml",
            spec_text: document,
            config_text: None,
        })
        .unwrap_or_else(|error| panic!("{error}"))
        .0
    }

    /// A document of schemes `a` (bearer), `b` (a header key) and `q` (a query key), its
    /// `security`, and one operation per entry of `own` (`-` for none of its own).
    fn document(security: &str, own: &[&str]) -> String {
        let mut paths = String::new();
        for (index, security) in own.iter().enumerate() {
            let line = if *security == "-" {
                String::new()
            } else {
                format!("      security: {security}\n")
            };
            paths.push_str(&format!(
                "  /p{index}:\n    get:\n{line}      responses: {{'204': {{description: ok}}}}\n"
            ));
        }
        format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\n{security}paths:\n{paths}\
             components:\n  securitySchemes:\n    a: {{type: http, scheme: bearer}}\n    \
             b: {{type: apiKey, in: header, name: X-B}}\n    q: {{type: apiKey, in: query, name: k}}\n"
        )
    }

    /// Each operation's requirements (by path) as the IR carries them: an operation's own
    /// `security` overrides the document's, `[]` is the one alternative met with nothing, `{}`
    /// among alternatives stays one, AND keeps its schemes together; when every operation needs
    /// the key's scheme alone (or nothing is declared), none carries any.
    #[test]
    fn operations_carry_their_own_or_the_documents_requirements_when_they_differ() {
        let none: Vec<Option<Vec<Vec<&str>>>> = vec![None, None];
        type Row<'t> = (&'t str, &'t [&'t str], Vec<Option<Vec<Vec<&'t str>>>>);
        let table: Vec<Row> = vec![
            // One way: the key alone, as before.
            ("security: [{a: []}]\n", &["-", "-"], none.clone()),
            ("security: [{a: []}]\n", &["-", "[{a: []}]"], none.clone()),
            ("", &["-", "-"], none.clone()),
            // The document's key is `b`; an operation of `a` makes every one carry its own.
            (
                "security: [{b: []}]\n",
                &["-", "[{a: []}]"],
                vec![Some(vec![vec!["b"]]), Some(vec![vec!["a"]])],
            ),
            // `security: []`: met with nothing.
            (
                "security: [{a: []}]\n",
                &["-", "[]"],
                vec![Some(vec![vec!["a"]]), Some(vec![vec![]])],
            ),
            // Alternatives with `{}`, and AND.
            (
                "security: [{a: []}]\n",
                &["[{b: []}, {}]", "[{b: [], q: []}, {a: []}]"],
                vec![
                    Some(vec![vec!["b"], vec![]]),
                    Some(vec![vec!["b", "q"], vec!["a"]]),
                ],
            ),
            // No document-level security: an operation without its own needs nothing.
            (
                "",
                &["-", "[{q: []}]"],
                vec![Some(vec![vec![]]), Some(vec![vec!["q"]])],
            ),
            ("", &["[{a: []}]", "[{a: []}]"], none.clone()),
        ];
        for (security, own, expected) in table {
            let api = api_of(&document(security, own));
            let mut got: Vec<(String, Option<Vec<Vec<String>>>)> = api
                .operations
                .iter()
                .map(|op| (op.path.clone(), op.security.clone()))
                .collect();
            got.sort();
            let got: Vec<_> = got.into_iter().map(|(_, security)| security).collect();
            let expected: Vec<Option<Vec<Vec<String>>>> = expected
                .into_iter()
                .map(|alternatives| {
                    alternatives.map(|alternatives| {
                        alternatives
                            .into_iter()
                            .map(|schemes| schemes.into_iter().map(str::to_owned).collect())
                            .collect()
                    })
                })
                .collect();
            assert_eq!(got, expected, "{security}{own:?}");
            assert_eq!(
                api.auth.per_operation,
                got.iter().any(Option::is_some),
                "{security}{own:?}"
            );
        }
    }
}
