//! The document's `servers` (OpenAPI 3.1 §4.8.5, the Server Object): each one's URL with its
//! variables filled from their defaults, and a name to reach it by.

use openapiv3::OpenAPI;

use crate::error::{Note, Pointer};
use crate::lock::Names;
use crate::names::to_snake_case;

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
}

/// Every server of the document, in its order, named from its description (else its place).
pub(super) fn servers(spec: &OpenAPI, notes: &mut Vec<Note>) -> Vec<Server> {
    let mut taken = Names::server_constants();
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
            Server {
                name: taken.claim(&wanted, "_"),
                url: url.trim_end_matches('/').to_owned(),
                description: server.description.clone(),
            }
        })
        .collect()
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
