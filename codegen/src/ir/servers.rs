//! The document's `servers` (OpenAPI 3.1 §4.8.5, the Server Object): each one's URL with its
//! variables filled from their defaults, a name to reach it by, and for a server with variables
//! (§4.8.6, the Server Variable Object) the names of its builder, its setters and the enums of
//! the variables that list their values; and the servers of each operation that has its own
//! (§4.8.8 Path Item and §4.8.10 Operation `servers`: the operation's, else its path's).
//!
//! | the document says | the crate has |
//! |---|---|
//! | `servers[i].url` | `client::servers::NAME`, variables at their defaults |
//! | `servers[i].variables` (any) | `client::servers::Name`: `new()` at the defaults, a setter per variable, into `ServerUrl` |
//! | a variable with `enum` | an enum of its values (wire values exact), its setter takes it |
//! | a variable without `enum` | its setter takes any string, checked and encoded for its place by the runtime |
//! | a variable whose `default` is not among its `enum` | a note; the default stays the default |
//! | a placeholder with no variable | a note; kept as written |
//! | a relative URL (`/api`) | resolved against `ClientBuilder::origin` (runtime) |
//! | path or operation `servers` | the operation sent to the first (the operation's win), overridable |

use openapiv3::{OpenAPI, ReferenceOr};

use super::Operation;
use crate::error::{Note, Pointer};
use crate::lock::Names;
use crate::names::{Namespace, camel_ident, snake_ident, to_snake_case};

/// The names `client::servers` uses unqualified (the prelude's traits and types the emitted
/// builders and enums name): no builder or enum may take one.
const PRELUDE_NAMES: &[&str] = &[
    "Clone",
    "Copy",
    "Debug",
    "Default",
    "Eq",
    "From",
    "Hash",
    "Into",
    "PartialEq",
    "Result",
    "String",
];

/// One declared server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    /// Its constant's name in `client::servers` (`PRODUCTION`, `SERVER_2`).
    pub name: String,
    /// Its URL with every variable at its default, without a trailing slash; relative (`/api`)
    /// when the document gives it so.
    pub url: String,
    /// The document's description, for the constant's docs.
    pub description: Option<String>,
    /// Its URL as the document writes it (placeholders kept), without a trailing slash.
    pub template: String,
    /// Its variables, in the order the URL names them first.
    pub variables: Vec<Variable>,
    /// Its builder's type name in `client::servers` (`Production`), when it has variables.
    pub builder: Option<String>,
}

/// One variable of a server's URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Its name in the URL template.
    pub wire_name: String,
    /// Its setter's name on the server's builder.
    pub setter: String,
    /// The document's default, written into the URL as it is.
    pub default: String,
    /// The document's description.
    pub description: Option<String>,
    /// The enum its values make, when the document lists them.
    pub choices: Option<Choices>,
}

/// The generated enum of a variable's listed values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choices {
    /// The enum's name in `client::servers` (`ProductionRegion`).
    pub name: String,
    /// Each value: its variant's name and the value exactly as the document writes it.
    pub values: Vec<(String, String)>,
}

/// The server an operation is sent to instead of the client's base URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationServer {
    /// The operation's method name (the key `ClientBuilder::operation_server` takes).
    pub operation: String,
    /// Its first server's URL, variables at their defaults, without a trailing slash.
    pub url: String,
    /// Where the document declares the list (`#/paths/~1up/servers` or `…/post/servers`).
    pub pointer: String,
    /// Whether the operation's own list (else its path's).
    pub own: bool,
    /// The list's other servers, variables at their defaults, for the method's docs.
    pub others: Vec<String>,
    /// The first server with its variables, when it has any: its builder
    /// (`GetReportServer`) is emitted beside the document's, for `operation_server`.
    pub server: Option<Server>,
}

/// Every server of the document, in its order, named from its description (else its place).
pub(super) fn servers(spec: &OpenAPI, notes: &mut Vec<Note>) -> Vec<Server> {
    let mut taken = Names::server_constants();
    // Builders and enums share the module's type namespace, with the names the emitted code
    // uses unqualified there.
    let mut types = Namespace::with_reserved(PRELUDE_NAMES.iter().copied());
    let pointer = Pointer::root().join("servers");
    spec.servers
        .iter()
        .enumerate()
        .map(|(index, server)| {
            let url = filled(&server.url, server, &pointer.join(index), notes);
            let from_description = server
                .description
                .as_deref()
                .map(|text| to_snake_case(&ascii_words(text)).to_ascii_uppercase())
                .filter(|name| {
                    name.starts_with(|c: char| c.is_ascii_alphabetic()) && name.len() <= 40
                });
            let wanted = from_description.unwrap_or_else(|| format!("SERVER_{}", index + 1));
            let name = taken.claim(&wanted, "_");
            let variables = variables(server, &pointer.join(index), notes);
            let builder =
                (!variables.is_empty()).then(|| types.claim(&camel_ident(&name, "S"), ""));
            let variables = match &builder {
                Some(builder) => name_choices(variables, builder, &mut types),
                None => variables,
            };
            Server {
                name,
                url: url.trim_end_matches('/').to_owned(),
                description: server.description.clone(),
                template: server.url.trim_end_matches('/').to_owned(),
                variables,
                builder,
            }
        })
        .collect()
}

/// The variables `server`'s URL names, in its order, each declared once; setters named apart
/// from each other and from the builder's `new`. A default missing from its `enum` (OpenAPI
/// 3.1 §4.8.6: it MUST be one) is noted; an empty `enum` is none (a string setter).
fn variables(
    server: &openapiv3::Server,
    pointer: &Pointer,
    notes: &mut Vec<Note>,
) -> Vec<Variable> {
    let Some(declared) = server.variables.as_ref() else {
        return Vec::new();
    };
    // The builder's own methods.
    let mut setters = Namespace::with_reserved(["new", "url"]);
    let mut found: Vec<Variable> = Vec::new();
    for name in placeholders(&server.url) {
        let Some(variable) = declared.get(name) else {
            continue;
        };
        if found.iter().any(|known| known.wire_name == name) {
            continue;
        }
        let at = pointer.join("variables").join(name);
        let listed = &variable.enumeration;
        if !listed.is_empty() && !listed.contains(&variable.default) {
            notes.push(Note {
                pointer: at.join("default").to_string(),
                message: format!(
                    "the default {:?} is not one of the variable's `enum` values: it stays the \
                     default, the setter takes the listed values",
                    variable.default
                ),
            });
        }
        found.push(Variable {
            wire_name: name.to_owned(),
            setter: setters.claim(&snake_ident(name), "_"),
            default: variable.default.clone(),
            description: variable.description.clone(),
            // Named once the builder is (`name_choices`); the values kept in order, once each.
            choices: (!listed.is_empty()).then(|| Choices {
                name: String::new(),
                values: listed
                    .iter()
                    .enumerate()
                    .filter(|(index, value)| !listed[..*index].contains(value))
                    .map(|(_, value)| (String::new(), value.clone()))
                    .collect(),
            }),
        });
    }
    found
}

/// Each listed variable's enum named after the builder (`ProductionRegion`), its variants from
/// the values, told apart.
fn name_choices(
    mut variables: Vec<Variable>,
    builder: &str,
    types: &mut Namespace,
) -> Vec<Variable> {
    for variable in &mut variables {
        if let Some(choices) = &mut variable.choices {
            choices.name = types.claim(
                &format!("{builder}{}", camel_ident(&variable.wire_name, "V")),
                "",
            );
            let mut variants = Namespace::new();
            for (variant, value) in &mut choices.values {
                *variant = variants.claim(&camel_ident(value, "V"), "");
            }
        }
    }
    variables
}

/// Each `{name}` of a server URL, in order.
fn placeholders(url: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = url;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|close| open + close) else {
            break;
        };
        found.push(&rest[open + 1..close]);
        rest = &rest[close + 1..];
    }
    found
}

/// The server of each operation whose operation or path item declares `servers` (the
/// operation's win, OpenAPI 3.1 §4.8.10), by its first server, variables at their defaults;
/// sorted by operation.
pub(super) fn operation_servers(
    spec: &OpenAPI,
    operations: &[Operation],
    declared: &[Server],
    notes: &mut Vec<Note>,
) -> Vec<OperationServer> {
    let paths = Pointer::root().join("paths");
    let mut found = Vec::new();
    // The module's type names the document's servers took stay theirs.
    let mut types = Namespace::with_reserved(PRELUDE_NAMES.iter().copied().chain(
        declared.iter().flat_map(|server| {
            server.builder.iter().map(String::as_str).chain(
                server
                    .variables
                    .iter()
                    .filter_map(|variable| Some(variable.choices.as_ref()?.name.as_str())),
            )
        }),
    ));
    for operation in operations {
        let Some(ReferenceOr::Item(item)) = spec.paths.paths.get(&operation.path) else {
            continue;
        };
        let method = operation.method.to_ascii_lowercase();
        let Some((_, declared)) = item.iter().find(|(name, _)| *name == method) else {
            continue;
        };
        let path_pointer = paths.join(&operation.path);
        let (list, pointer, own) = if !declared.servers.is_empty() {
            (
                &declared.servers,
                path_pointer.join(&method).join("servers"),
                true,
            )
        } else if !item.servers.is_empty() {
            (&item.servers, path_pointer.join("servers"), false)
        } else {
            continue;
        };
        let urls: Vec<String> = list
            .iter()
            .enumerate()
            .map(|(index, server)| {
                filled(&server.url, server, &pointer.join(index), notes)
                    .trim_end_matches('/')
                    .to_owned()
            })
            .collect();
        let (Some((first, others)), Some(template)) = (urls.split_first(), list.first()) else {
            continue;
        };
        let variables = variables(template, &pointer.join(0), notes);
        let server = (!variables.is_empty()).then(|| {
            let builder = types.claim(&camel_ident(&format!("{}_server", operation.name), "S"), "");
            Server {
                name: operation.name.clone(),
                url: first.clone(),
                description: template.description.clone(),
                template: template.url.trim_end_matches('/').to_owned(),
                variables: name_choices(variables, &builder, &mut types),
                builder: Some(builder),
            }
        });
        found.push(OperationServer {
            operation: operation.name.clone(),
            url: first.clone(),
            pointer: pointer.to_string(),
            own,
            others: others.to_vec(),
            server,
        });
    }
    found.sort_by(|a, b| a.operation.cmp(&b.operation));
    found
}

/// `template` with each `{variable}` replaced by its default; a placeholder the server does not
/// declare stays as written, with a note (no value is known for it).
fn filled(
    template: &str,
    server: &openapiv3::Server,
    pointer: &Pointer,
    notes: &mut Vec<Note>,
) -> String {
    let mut url = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|close| open + close) else {
            break;
        };
        url.push_str(&rest[..open]);
        let name = &rest[open + 1..close];
        match server
            .variables
            .as_ref()
            .and_then(|variables| variables.get(name))
        {
            Some(variable) => url.push_str(&variable.default),
            None => {
                notes.push(Note {
                    pointer: pointer.join("url").to_string(),
                    message: format!("server variable {{{name}}} is not declared: kept as written"),
                });
                url.push_str(&rest[open..=close]);
            }
        }
        rest = &rest[close + 1..];
    }
    url.push_str(rest);
    url
}

/// The ASCII letters and digits of free text, as words.
fn ascii_words(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' })
        .collect()
}
