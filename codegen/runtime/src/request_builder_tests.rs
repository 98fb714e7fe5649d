//! Tests of the request builder the generated operations call.

use super::encodings::{FORM, FORM_EXPLODED, LABEL, SIMPLE};
use super::{OptionalParam, fill_template};
use crate::error::Error;
use crate::param_style::ParamLocation;
use crate::support::{Body, Method, Request};

fn get(template: &'static str) -> super::RequestBuilder {
    Request::builder("op", Method::GET, template)
}

#[test]
fn the_request_carries_what_it_was_built_with() {
    let request = Request::builder("make_thing", Method::POST, "/things/{id}")
        .path("id", SIMPLE, "a b")
        .body(Ok(Body::text("text/plain", "hi")))
        .finish()
        .unwrap();
    assert_eq!(request.operation, "make_thing");
    assert_eq!(request.method, Method::POST);
    assert_eq!(request.path_template, "/things/{id}");
    assert_eq!(request.path, "/things/a%20b");
    assert_eq!(request.body, Some(Body::text("text/plain", "hi")));
    assert_eq!(request.params.query_string(), None);
}

#[test]
fn placeholders_are_filled_every_time_they_appear() {
    let request = get("/a/{x}/b/{y}/{x}.json")
        .path("x", SIMPLE, &1)
        .path("y", LABEL, "z")
        .finish()
        .unwrap();
    assert_eq!(request.path, "/a/1/b/.z/1.json");
}

#[test]
fn the_template_outside_placeholders_is_kept_and_unknown_ones_dropped() {
    let values = [("id", "7".to_owned())];
    assert_eq!(fill_template("/plain", &values), "/plain");
    // A stray `}` is the URL parser's `%7D`, as it went out before.
    assert_eq!(fill_template("/a}b/{id}", &values), "/a%7Db/7");
    assert_eq!(fill_template("/a/{other}/c", &values), "/a//c");
    assert_eq!(fill_template("/a/{id", &values), "/a/7");
    assert_eq!(fill_template("/a/{nope", &values), "/a/");
    assert_eq!(fill_template("", &values), "");
}

#[test]
fn optional_parameters_are_sent_only_when_set() {
    let unset: Option<i64> = None;
    let empty: Vec<String> = Vec::new();
    let request = get("/")
        .query_opt("a", FORM, &unset)
        .query_opt("b", FORM, &empty)
        .query_opt("c", FORM, &Some(3))
        .query_opt("d", FORM_EXPLODED, &vec!["x", "y"])
        .finish()
        .unwrap();
    assert_eq!(
        request.params.query_string().as_deref(),
        Some("c=3&d=x&d=y")
    );
    assert!(Some(0).is_set() && !None::<u8>.is_set());
    assert!(vec![0].is_set() && !Vec::<u8>::new().is_set());
}

#[test]
fn required_parameters_are_always_sent_in_order() {
    let empty: Vec<String> = Vec::new();
    let request = get("/")
        .fixed_query("beta", "true")
        .query("list", FORM, &empty)
        .query("n", FORM, &5)
        .finish()
        .unwrap();
    assert_eq!(
        request.params.query_string().as_deref(),
        Some("beta=true&list=&n=5")
    );
}

#[test]
fn headers_and_cookies_go_where_they_belong() {
    let request = get("/")
        .header("X-One", SIMPLE, "1")
        .header_opt("X-Two", SIMPLE, &Some("2"))
        .header_opt("X-Three", SIMPLE, &None::<String>)
        .cookie("a", FORM, "b")
        .cookie_opt("c", FORM, &Some("d"))
        .cookie_opt("e", FORM, &None::<String>)
        .finish()
        .unwrap();
    let headers: Vec<(&str, &str)> = request.params.headers().collect();
    assert_eq!(headers, [("X-One", "1"), ("X-Two", "2")]);
    assert_eq!(request.params.cookie_header().as_deref(), Some("a=b; c=d"));
    assert_eq!(request.params.query_string(), None);
}

#[test]
fn secrets_are_registered_and_unset_ones_skipped() {
    let request = get("/")
        .secret(ParamLocation::Query, "key", FORM, "s3cret")
        .secret_opt(ParamLocation::Header, "X-Key", SIMPLE, &Some("h1dden"))
        .secret_opt(ParamLocation::Query, "other", FORM, &None::<String>)
        .query("plain", FORM, "shown")
        .finish()
        .unwrap();
    assert_eq!(request.params.secrets(), ["s3cret", "h1dden"]);
    assert_eq!(
        request.params.query_string().as_deref(),
        Some("key=s3cret&plain=shown")
    );
    let headers: Vec<(&str, &str)> = request.params.headers().collect();
    assert_eq!(headers, [("X-Key", "h1dden")]);
}

#[test]
fn the_first_error_is_returned_and_later_calls_do_nothing() {
    let first = get("/{id}")
        .path("id", SIMPLE, "")
        .query("nested", FORM, &[[1]])
        .finish()
        .unwrap_err();
    assert!(
        matches!(&first, Error::InvalidRequest(text) if text.contains("`id`")),
        "{first:?}"
    );
    let from_query = get("/")
        .query("nested", FORM, &[[1]])
        .path("id", SIMPLE, "")
        .body(Err(Error::InvalidRequest("body".to_owned())))
        .finish()
        .unwrap_err();
    assert!(
        matches!(&from_query, Error::InvalidRequest(text) if text.contains("nested")),
        "{from_query:?}"
    );
    for location in [ParamLocation::Header, ParamLocation::Cookie] {
        let error = get("/")
            .secret(location, "x", FORM, &[[1]])
            .secret(location, "y", FORM, "later")
            .finish()
            .unwrap_err();
        assert!(matches!(&error, Error::InvalidRequest(text) if text.contains('x')));
    }
}

#[test]
fn a_body_error_is_returned_and_an_absent_body_is_none() {
    let error = get("/")
        .body(Err(Error::InvalidRequest("bad body".to_owned())))
        .body(Ok(Body::text("text/plain", "later")))
        .finish()
        .unwrap_err();
    assert!(matches!(&error, Error::InvalidRequest(text) if text == "bad body"));
    let error = get("/")
        .body_opt(Some(Err(Error::InvalidRequest("bad".to_owned()))))
        .finish()
        .unwrap_err();
    assert!(matches!(&error, Error::InvalidRequest(text) if text == "bad"));
    let none = get("/").body_opt(None).finish().unwrap();
    assert_eq!(none.body, None);
    let some = get("/")
        .body_opt(Some(Ok(Body::bytes("application/octet-stream", vec![1]))))
        .finish()
        .unwrap();
    assert_eq!(some.body.map(|body| body.bytes), Some(vec![1]));
}

#[test]
fn a_path_error_after_a_parameter_error_does_not_replace_it() {
    let error = get("/{a}")
        .header("X", SIMPLE, &[[1]])
        .path("a", SIMPLE, "")
        .finish()
        .unwrap_err();
    assert!(
        matches!(&error, Error::InvalidRequest(text) if text.contains('X')),
        "{error:?}"
    );
}

#[test]
fn each_method_constructor_builds_its_method() {
    let built = [
        (Request::get("a", "/a"), Method::GET),
        (Request::post("a", "/a"), Method::POST),
        (Request::put("a", "/a"), Method::PUT),
        (Request::patch("a", "/a"), Method::PATCH),
        (Request::delete("a", "/a"), Method::DELETE),
    ];
    for (builder, method) in built {
        let request = builder.finish().unwrap();
        assert_eq!(
            (request.method, request.operation, request.path_template),
            (method, "a", "/a")
        );
    }
}

/// A document's template text is written as a URL parser would write it (a space, a quote or a
/// non-ASCII character percent-encoded, `/` and the rest kept), so the client's one path rule
/// reads the path as it is sent: such a template is sent, not refused.
#[test]
fn the_templates_own_text_is_encoded_as_a_url_parser_would() {
    let values = [("id", "7".to_owned())];
    assert_eq!(
        fill_template("/v1/ünï code/\"q\"/{id}/a:b@c;d=e,f!$&'()*+", &values),
        "/v1/%C3%BCn%C3%AF%20code/%22q%22/7/a:b@c;d=e,f!$&'()*+"
    );
    assert_eq!(fill_template("/a\\b/<{id}>`", &values), "/a%5Cb/%3C7%3E%60");
    let path = fill_template("/v1/ünï code/{id}", &values);
    assert!(crate::percent::check_path("op", &path).is_ok(), "{path}");
}
