//! The doc sections of each operation's `Client` method, rendered from the surface: `# Example`
//! (the call against the fake, its answer built as a test builds it, then what the answer holds)
//! and `# Errors` (what can come back, how to tell each, and when the request is sent again).

use proc_macro2::TokenStream;
use quote::quote;

use crate::surface::OperationSurface;
use crate::surface::errors::Resend;
use crate::surface::examples::{ExampleCall, ExampleValue, Examples};
use crate::tokens::doc_text::{code_span, inline_prose};

/// The doc sections of `surface`'s method, as doc attributes: a pointer to each method an
/// extension built over it (`typed`), `# Example` when the surface has one (`call`, with the
/// examples' crate and fake names), and `# Errors`.
pub(super) fn sections(
    surface: &OperationSurface<'_>,
    call: Option<(&ExampleCall<'_>, &Examples<'_>)>,
    typed: &[&str],
    media: &[String],
) -> TokenStream {
    let mut lines = Vec::new();
    // Which media type this method sends its body in, and which methods send the others.
    for line in media {
        lines.push(String::new());
        lines.push(line.clone());
    }
    // A method an extension built over this operation is the way to call it: said first.
    for method in typed {
        lines.push(String::new());
        lines.push(format!(
            "[`Client::{method}`](Client::{method}) sends this request typed, \
             with its answer checked: the way to call it."
        ));
    }
    server_lines(surface, &mut lines);
    if let Some((call, examples)) = call {
        example_lines(call, examples, &mut lines);
    }
    errors_lines(surface, &mut lines);
    let lines = lines.iter().flat_map(|line| line.split('\n')).map(|line| {
        if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        }
    });
    quote!(#(#[doc = #lines])*)
}

/// Where the request goes when the document gives the operation servers of its own: that
/// server, how to send it elsewhere, and that credentials go there only when trusted.
fn server_lines(surface: &OperationSurface<'_>, lines: &mut Vec<String>) {
    let Some(server) = surface.server else {
        return;
    };
    let whose = if server.own { "its own" } else { "its path's" };
    lines.push(String::new());
    lines.push(format!(
        "Sent to {} ({whose} `servers`), not the client's base URL; a relative one under \
         `ClientBuilder::origin`, else the base URL's origin.",
        code_span(&server.url)
    ));
    if let Some(builder) = server
        .server
        .as_ref()
        .and_then(|own| own.builder.as_deref())
    {
        lines.push(format!(
            "With its variables set: `client::servers::{builder}`, for `operation_server`."
        ));
    }
    for other in &server.others {
        lines.push(format!("The document also offers {}.", code_span(other)));
    }
    lines.push(format!(
        "`ClientBuilder::operation_server(\"{}\", url)` sends it elsewhere; a whole \
         `ClientBuilder::base_url` (a test server, a proxy) takes it too. Credentials and default \
         headers go with it only to the base URL's origin or one named with \
         `ClientBuilder::send_credentials_to`; elsewhere a request that would carry one is \
         refused before sending.",
        server.operation
    ));
}

/// The example: the fake set up to answer, then the call as a user writes it and a field of its
/// answer. Guarded by `mock`, since the method's page is there without it.
fn example_lines(call: &ExampleCall<'_>, examples: &Examples<'_>, lines: &mut Vec<String>) {
    let (krate, fake_type) = (examples.crate_name.as_str(), examples.fake_type.as_str());
    let Some(answer) = &call.answer else {
        return;
    };
    let (paths, arguments) = super::example_arguments(call, krate);
    // A built answer takes a line per setter, as a test writes it.
    let answer = match answer {
        ExampleValue::Built { type_name, setters } => {
            let mut text = format!("{krate}::models::{type_name}::builder()");
            for (setter, value) in setters {
                text.push_str(&format!(
                    "\n    .{setter}({})",
                    super::example_value(value, krate)
                ));
            }
            text.push_str("\n    .build()?");
            text
        }
        // The fake's expectation takes the method's output type: a `String`, not a `&str`.
        ExampleValue::Text(_) => format!("{}.to_owned()", super::example_value(answer, krate)),
        other => super::example_value(other, krate),
    };
    let method = &call.operation.name;
    let check = match &call.holds {
        Some((field, ExampleValue::True)) => format!("assert!(response.{field});"),
        Some((field, value)) => format!(
            "assert_eq!(response.{field}, {});",
            super::example_value(value, krate)
        ),
        None => "assert_eq!(response, expected);".to_owned(),
    };
    lines.extend([
        String::new(),
        "# Example".to_owned(),
        String::new(),
        "```".to_owned(),
        "# #[cfg(feature = \"mock\")]".to_owned(),
        "# #[tokio::main(flavor = \"current_thread\")]".to_owned(),
        "# async fn main() -> Result<(), Box<dyn std::error::Error>> {".to_owned(),
        "// A fake of the API (feature `mock`); against the API itself, `Client::from_env()?`."
            .to_owned(),
        format!("let fake = {krate}::mock::{fake_type}::start().await;"),
        format!("let expected = {answer};"),
        format!(
            "fake.{}({paths}).respond(&expected).await;",
            call.expectation
        ),
        "let client = fake.client()?;".to_owned(),
        String::new(),
        format!("let response = client.{method}({arguments}).await?;"),
        check,
        "# Ok(()) }".to_owned(),
        "# #[cfg(not(feature = \"mock\"))]".to_owned(),
        "# fn main() {}".to_owned(),
        "```".to_owned(),
    ]);
}

/// The errors: each kind with the method of `Error` that tells it, and when the request is sent
/// again.
fn errors_lines(surface: &OperationSurface<'_>, lines: &mut Vec<String>) {
    let method = &surface.operation.method;
    let resend = match surface.resend {
        Resend::Idempotent => format!(
            "A `{method}` is idempotent: the client sends it again after a `5xx`, a timeout or a \
             failed connection, as its [`RetryPolicy`](rt::RetryPolicy) allows (3 \
             attempts in all by default), and after a `429` once the server's wait has passed."
        ),
        Resend::WhenUnprocessed => format!(
            "A `{method}` is not idempotent: the client sends it again only where the server \
             said it did not process it (`429`, or `503` with `Retry-After`) or the connection \
             failed before it was written, unless the \
             [`RetryPolicy`](rt::RetryPolicy) opts in to more; never after another \
             `5xx` or a timeout, which may follow a change that was made."
        ),
    };
    lines.extend([
        String::new(),
        "# Errors".to_owned(),
        String::new(),
        "- [`Error::Api`](rt::Error::Api) when the server answers a status outside `2xx`: \
         [`is_not_found`](rt::Error::is_not_found) tells a `404`, \
         [`is_unauthorized`](rt::Error::is_unauthorized) a `401`, \
         [`is_conflict`](rt::Error::is_conflict) a `409`, [`status`](rt::Error::status) \
         any of them."
            .to_owned(),
    ]);
    let declared = &surface.operation.error_statuses;
    if !declared.is_empty() {
        let statuses: Vec<String> = declared
            .iter()
            .map(|declared| match &declared.description {
                Some(description) => {
                    format!("`{}` ({})", declared.status, inline_prose(description))
                }
                None => format!("`{}`", declared.status),
            })
            .collect();
        lines.push(format!("  The document declares {}.", statuses.join(", ")));
    }
    lines.extend([
        "- [`Error::RateLimited`](rt::Error::RateLimited) when the server throttles \
         (`429`) and the client may not wait (a wait past the policy's limit, or no attempt \
         left)."
            .to_owned(),
        "- [`Error::Timeout`](rt::Error::Timeout) or [`Error::Transport`](rt::Error::Transport) \
         when no answer arrives; [`Error::Decode`](rt::Error::Decode) when a `2xx` answer is \
         not what the method returns."
            .to_owned(),
        "- [`Error::InvalidRequest`](rt::Error::InvalidRequest) before anything is sent, for \
         an argument that cannot go on the wire (an empty path value, `.` or `..`)."
            .to_owned(),
    ]);
    lines.extend(missing_credentials(surface.operation.security.as_deref()));
    lines.extend([String::new(), resend]);
}

/// The `# Errors` line of an operation carrying security requirements none of which is met with
/// nothing: the credentials it sends, and the error for a client holding none of them.
fn missing_credentials(requirements: Option<&[Vec<String>]>) -> Option<String> {
    let requirements = requirements?;
    if requirements.iter().any(Vec::is_empty) {
        return None;
    }
    let alternatives: Vec<String> = requirements
        .iter()
        .map(|schemes| {
            let names: Vec<String> = schemes.iter().map(|name| format!("`{name}`")).collect();
            names.join(" and ")
        })
        .collect();
    Some(format!(
        "- [`Error::InvalidArgument`](rt::Error::InvalidArgument) before anything is sent, \
         holding a [`MissingCredentials`](super::client::MissingCredentials), when the client \
         holds no credential for the security schemes it sends ({}).",
        inline_prose(&alternatives.join(", or else "))
    ))
}

#[cfg(test)]
mod tests {
    /// The doc comment of each `Client` method in `operations.rs`, by method name.
    fn method_docs(operations: &str) -> std::collections::BTreeMap<String, String> {
        let mut docs = std::collections::BTreeMap::new();
        let mut doc = String::new();
        for line in operations.lines() {
            let line = line.trim_start();
            if let Some(text) = line.strip_prefix("///") {
                doc.push_str(text);
                doc.push('\n');
            } else if let Some(rest) = line.strip_prefix("pub async fn ") {
                let name = rest.split('(').next().unwrap_or_default().to_owned();
                docs.insert(name, std::mem::take(&mut doc));
            } else if !line.starts_with("#[") {
                doc.clear();
            }
        }
        docs
    }

    #[test]
    fn every_method_says_its_errors_and_when_it_is_resent() {
        let document = "openapi: 3.1.0
info: {title: t, version: '1'}
paths:
  /v1/things/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get:
      responses:
        '200': {description: ok}
        '404': {description: \"No such\\n[thing](http://x)\"}
        4XX: {$ref: '#/components/responses/Gone'}
        default: {description: ''}
    put: {responses: {'204': {description: ok}}}
    delete: {responses: {'204': {description: ok}}}
    patch: {responses: {'204': {description: ok}}}
    post: {responses: {'204': {description: ok}}}
components:
  responses:
    Gone: {description: Gone for good}
";
        for config in [None, Some("crate_name: my_api\n")] {
            let output = crate::generate(&crate::Input {
                spec_path: "t.yaml",
                spec_text: document,
                config_text: config,
            })
            .unwrap_or_else(|error| panic!("{error}"));
            let docs = method_docs(&output.files["operations.rs"]);
            assert_eq!(docs.len(), 5, "{docs:?}");
            for (name, doc) in &docs {
                assert!(doc.contains(" # Errors\n"), "{name}: {doc}");
                for kind in ["Api", "RateLimited", "Timeout", "Transport", "Decode"] {
                    assert!(doc.contains(&format!("[`Error::{kind}`](rt::Error::{kind})")));
                }
                assert!(
                    doc.contains("[`is_not_found`](rt::Error::is_not_found)"),
                    "{doc}"
                );
                let method = name
                    .split('_')
                    .next()
                    .unwrap_or_default()
                    .to_ascii_uppercase();
                let idempotent = format!("A `{method}` is idempotent");
                let not = format!("A `{method}` is not idempotent");
                let expected = if matches!(method.as_str(), "POST" | "PATCH") {
                    &not
                } else {
                    &idempotent
                };
                let resend = doc
                    .split("\n\n")
                    .filter(|p| p.contains("idempotent"))
                    .count();
                assert!(doc.contains(expected.as_str()), "{name}: {doc}");
                assert_eq!(resend, 1, "{name}: {doc}");
                // Only the GET declares statuses; their text is the document's, escaped.
                let declares = doc.contains("The document declares");
                assert_eq!(declares, name.starts_with("get"), "{name}: {doc}");
            }
            let get = docs["get_thing"]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                get.contains(
                    "The document declares `404` (No such \\[thing\\](<http://x>)), `4XX` (Gone \
                     for good), `default`."
                ),
                "{get}"
            );
        }
    }
}
