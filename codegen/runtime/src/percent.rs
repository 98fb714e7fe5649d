//! The one percent-encoding boundary of every URL, header and cookie the client writes: each
//! component's character set (on `percent_encoding`'s `AsciiSet`s), RFC 6570's reserved
//! expansion, the one dot-segment rule and the one `Cookie` header builder. Generated calls
//! (through [`param_style`](crate::param_style)), `Client::request` and the fake all encode
//! here, so a path segment, a query item or a cookie value is written one way everywhere.

use std::borrow::Cow;

use percent_encoding::{AsciiSet, CONTROLS, NON_ALPHANUMERIC, percent_decode_str};

use crate::error::Error;

/// RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`) kept, everything else `%XX`: a path
/// segment, a query key or value, a cookie value. No item can add a segment (`/`), start a
/// query (`?`) or fragment (`#`), end a cookie (`;`) or smuggle in an escape (`%`).
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// An item of a `label` path value: as [`UNRESERVED`], and `.` (its delimiter).
const LABEL_ITEM: &AsciiSet = &UNRESERVED.add(b'.');

/// An item of a header list: `%`, `,`, `=`, `"`, space and every byte outside visible ASCII.
const HEADER_ITEM: &AsciiSet = &CONTROLS.add(b' ').add(b'%').add(b',').add(b'=').add(b'"');

/// The literal text of a path template (`/v1/models/` around the placeholders): `/` and every
/// other visible ASCII character kept but those no path may hold literally (the URL standard's
/// path set: space, `"`, `#`, `<`, `>`, `?`, `` ` ``, `{`, `}`) and `\`, which URL parsers read as
/// `/`; a template from a document is sent as the URL parser would have written it.
const PATH_LITERAL: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'\\');

/// RFC 6570's reserved expansion (`{+var}`, OpenAPI's `allowReserved: true`): unreserved and
/// reserved characters (RFC 3986 §2.2: `:/?#[]@!$&'()*+,;=`) kept; `%` is kept only where it
/// starts a `%XX` triple (see [`encode`]).
const RESERVED_EXPANSION: &AsciiSet = &UNRESERVED
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'#')
    .remove(b'[')
    .remove(b']')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=');

/// Where a piece of text is written, which decides what of it is percent-encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Component {
    /// A path segment (or an item of a `simple`/`matrix` path value): everything but unreserved.
    PathSegment,
    /// An item of a `label` path value: as `PathSegment`, and `.` (its delimiter).
    LabelItem,
    /// The literal text of a path template, `/` kept.
    // Only the client's request builder writes templates; a build without it has none.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    PathLiteral,
    /// A query key or value, or a form field's: everything but unreserved.
    Query,
    /// An item of a `spaceDelimited` query value: as `Query`, a space as `+` (`%20` is its
    /// delimiter).
    SpaceDelimited,
    /// A query value or form field with `allowReserved`: RFC 6570's reserved expansion.
    Reserved,
    /// An item of a header list: `%`, `,`, `=`, `"`, space and non-visible bytes.
    Header,
    /// A cookie value: everything but unreserved.
    Cookie,
}

/// `text` with the bytes `component` may not hold literally as `%XX` of their UTF-8.
pub(crate) fn encode(text: &str, component: Component) -> String {
    let set = match component {
        Component::PathSegment | Component::Query | Component::Cookie => UNRESERVED,
        Component::SpaceDelimited => UNRESERVED,
        Component::LabelItem => LABEL_ITEM,
        Component::PathLiteral => PATH_LITERAL,
        Component::Header => HEADER_ITEM,
        Component::Reserved => return reserved_expansion(text),
    };
    let encoded = percent_encoding::utf8_percent_encode(text, set).to_string();
    if component == Component::SpaceDelimited {
        // A `%` of the text is `%25`, so every `%20` left is a space.
        encoded.replace("%20", "+")
    } else {
        encoded
    }
}

/// RFC 6570 §3.2.3: reserved and unreserved characters and every `%XX` triple already in the
/// text pass; anything else (a lone `%`, a space, a non-ASCII character) is `%XX`.
fn reserved_expansion(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('%') {
        let (before, from) = rest.split_at(at);
        out.extend(percent_encoding::utf8_percent_encode(
            before,
            RESERVED_EXPANSION,
        ));
        let triple = from.as_bytes().get(1..3);
        if triple.is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit)) {
            out.push_str(&from[..3]);
            rest = &from[3..];
        } else {
            out.push_str("%25");
            rest = &from[1..];
        }
    }
    out.extend(percent_encoding::utf8_percent_encode(
        rest,
        RESERVED_EXPANSION,
    ));
    out
}

/// Whether a path segment is navigation once percent-decoded (`.`, `..`, `%2e`, `.%2E`, …):
/// URL parsers (WHATWG's, and servers') read such a segment as "this" or "the parent"
/// directory, so no request may hold one.
pub(crate) fn is_dot_segment(segment: &str) -> bool {
    let decoded: Cow<'_, [u8]> = percent_decode_str(segment).into();
    matches!(&*decoded, b"." | b"..")
}

/// The one rule for a request's path, whoever built it: it starts with `/`, holds visible ASCII
/// only (no query, fragment or backslash, which URL parsers read as `/`), and no segment is a
/// dot segment in any form, so the URL stays under the client's base URL.
///
/// # Errors
///
/// [`Error::InvalidRequest`] naming `operation` and the rule broken (never the path, which may
/// hold a credential).
// Only the client checks paths and builds cookies from pairs; a decode-only build keeps the
// encoder for the generated code's parameter types.
#[cfg_attr(not(feature = "client"), allow(dead_code))]
pub(crate) fn check_path(operation: &str, path: &str) -> Result<(), Error> {
    let refuse = |why: &str| {
        Err(Error::InvalidRequest(format!(
            "{operation}: the path {why}"
        )))
    };
    if !path.starts_with('/') {
        return refuse("does not start with '/'");
    }
    if let Some(bad) = path
        .chars()
        .find(|c| !c.is_ascii_graphic() || matches!(c, '?' | '#' | '\\'))
    {
        return refuse(&format!(
            "holds {bad:?}: percent-encode it, or use `query` for a query"
        ));
    }
    if path.split('/').any(is_dot_segment) {
        return refuse(
            "holds a dot segment (\".\" or \"..\", percent-encoded or not), \
             which URLs treat as path navigation",
        );
    }
    Ok(())
}

/// One path parameter's segment, checked: `Err` naming the parameter (never echoing the value)
/// for an empty segment (another resource) or a dot segment in any form.
pub(crate) fn checked_segment(name: &str, segment: String) -> Result<String, Error> {
    if segment.is_empty() {
        return Err(Error::InvalidRequest(format!(
            "path parameter `{name}` is empty"
        )));
    }
    if is_dot_segment(&segment) {
        return Err(Error::InvalidRequest(format!(
            "path parameter `{name}` is a dot segment (\".\" or \"..\"), \
             which URLs treat as path navigation"
        )));
    }
    Ok(segment)
}

/// One `name=value` cookie pair, the value percent-encoded ([`Component::Cookie`]).
///
/// # Errors
///
/// [`Error::InvalidRequest`] for a name that is not an HTTP token (the generator only emits
/// tokens; a hand-built request must not break the header either).
// Only the client checks paths and builds cookies from pairs; a decode-only build keeps the
// encoder for the generated code's parameter types.
#[cfg_attr(not(feature = "client"), allow(dead_code))]
pub(crate) fn cookie_pair(name: &str, value: &str) -> Result<String, Error> {
    if !is_token(name) {
        return Err(Error::InvalidRequest(format!(
            "cookie name {name:?} is not an HTTP token"
        )));
    }
    Ok(format!("{name}={}", encode(value, Component::Cookie)))
}

/// The one `Cookie` header: the pairs (each already `name=value`), trimmed, empty ones left
/// out, joined by `; ` (RFC 6265 §4.2.1); `None` when nothing is left.
pub(crate) fn cookie_header<'a>(pairs: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let parts: Vec<&str> = pairs
        .into_iter()
        .map(str::trim)
        .filter(|pair| !pair.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// Where a server variable (OpenAPI 3.1 §4.8.6) sits in its server URL template, which decides
/// what of a value set for it is percent-encoded and what is refused.
// Only the client resolves server URLs.
#[cfg_attr(not(feature = "client"), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ServerPlace {
    /// Before `://`: the scheme.
    Scheme,
    /// In the authority, before any `:`: the host (or a label of it).
    Host,
    /// In the authority, after a `:`: the port.
    Port,
    /// After the authority: the path (or a segment of it).
    Path,
    /// After a `?` or `#`: a base URL holds neither.
    QueryOrFragment,
}

/// A value a user set for the server variable `name` at `place`, as the URL holds it:
///
/// | place | kept | percent-encoded | refused |
/// |---|---|---|---|
/// | scheme | `http`, `https` | — | anything else |
/// | host | ASCII letters, digits, `-`, `.`, `_` | — | empty; anything else (`/`, `@`, `?`, `#`, `:`, `%`, space, non-ASCII: use its punycode form) |
/// | port | 1 to 5 digits up to 65535 | — | anything else |
/// | path | unreserved characters | everything else, `/` included ([`Component::PathSegment`]) | empty, `.`, `..` |
/// | query, fragment | — | — | anything |
///
/// # Errors
///
/// [`Error::InvalidRequest`] naming the variable and the rule (a server URL is no secret, but
/// the value is not echoed: it is not the document's).
// Only the client resolves server URLs.
#[cfg_attr(not(feature = "client"), allow(dead_code))]
pub(crate) fn server_variable(
    name: &str,
    place: ServerPlace,
    value: &str,
) -> Result<String, Error> {
    let refuse = |why: &str| {
        Err(Error::InvalidRequest(format!(
            "server variable `{name}`: {why}"
        )))
    };
    match place {
        ServerPlace::Scheme => match value {
            "http" | "https" => Ok(value.to_owned()),
            _ => refuse("a scheme must be `http` or `https`"),
        },
        ServerPlace::Host => {
            if value.is_empty() {
                return refuse("a host is not empty");
            }
            match value
                .chars()
                .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_')))
            {
                Some(bad) if !bad.is_ascii() => {
                    refuse("a host holds ASCII only: give its punycode form (`xn--…`)")
                }
                Some(bad) => refuse(&format!(
                    "a host holds letters, digits, `-`, `.` and `_` only, not {bad:?}"
                )),
                None => Ok(value.to_owned()),
            }
        }
        ServerPlace::Port => {
            let digits =
                !value.is_empty() && value.len() <= 5 && value.bytes().all(|b| b.is_ascii_digit());
            match value.parse::<u32>() {
                Ok(port) if digits && port <= u32::from(u16::MAX) => Ok(value.to_owned()),
                _ => refuse("a port is a number from 0 to 65535"),
            }
        }
        ServerPlace::Path => {
            let encoded = encode(value, Component::PathSegment);
            if encoded.is_empty() {
                refuse("a path value is not empty")
            } else if is_dot_segment(&encoded) {
                refuse("a path value is not \".\" or \"..\", which URLs treat as path navigation")
            } else {
                Ok(encoded)
            }
        }
        ServerPlace::QueryOrFragment => {
            refuse("it stands in the URL's query or fragment, which a base URL does not hold")
        }
    }
}

/// An HTTP token (RFC 9110 §5.6.2): what a header or cookie name may be.
pub(crate) fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

#[cfg(test)]
#[path = "percent_tests.rs"]
mod tests;
