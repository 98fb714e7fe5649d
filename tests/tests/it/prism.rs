//! The outside oracle for the wire: Stoplight Prism (`tests/prism/`, its version pinned by the
//! lockfile there; `npm ci` in that folder installs it, as `.ci/run` does). In mock mode with
//! `--errors` Prism checks each request against the document and answers 422 naming what is
//! wrong. Every operation of the `styles` fixture's crate (the parameter style table and every
//! body kind) must be accepted; the same encoder with one delimiter swapped must not; and every
//! operation of `schema/`'s crate must decode the responses Prism makes up from the schema
//! (`-d`). Without Prism installed these skip with a note, except under `.ci/run`
//! (`BASETEN_REQUIRE_SHARED` or `CI` set), where they fail.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use baseten_api::runtime::param_style::{ParamLocation, Params, Style};
use baseten_tests::snapshots::styles::Client;
use baseten_tests::snapshots::styles::models::{
    Colour, GetQueryDeepFilter, GetQueryDeepFilterOwner, GetQueryDeepFilterState, GetQueryFormSort,
    Order, Point, PostBodiesFormBody, PostBodiesMultipartBody,
};
use baseten_tests::snapshots::styles::operations::{
    GetHeadersQuery, GetQueryDelimitedQuery, GetQueryFormQuery,
};
use baseten_tests::{REQUIRE_SHARED_ENV, tests_dir, workspace_root};

/// How long Prism may take to load a document and listen.
const READY_WITHIN: Duration = Duration::from_secs(60);

/// A `prism mock` process on 127.0.0.1, killed when dropped (a failing test included).
pub(crate) struct Prism {
    child: Child,
    pub(crate) base_url: String,
    log: PathBuf,
}

impl Prism {
    /// Prism serving `document`, or `None` (skipped, with a note) when it is not installed
    /// outside CI.
    pub(crate) fn start(document: &Path, dynamic: bool) -> Option<Prism> {
        let binary = tests_dir().join("prism/node_modules/.bin/prism");
        if !binary.exists() {
            let required =
                std::env::var_os(REQUIRE_SHARED_ENV).is_some() || std::env::var_os("CI").is_some();
            assert!(
                !required,
                "{} is missing: run `npm ci` in tests/prism (CI must run the Prism tier)",
                binary.display()
            );
            eprintln!("note: skipping, Prism is not installed (`npm ci` in tests/prism)");
            return None;
        }
        // A free port: bound by the OS, released for Prism.
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .map(|address| address.port())
            .unwrap_or_else(|error| panic!("no free port: {error}"));
        let log =
            std::env::temp_dir().join(format!("baseten-prism-{}-{port}.log", std::process::id()));
        let file = std::fs::File::create(&log).unwrap_or_else(|error| panic!("{error}"));
        let err = file.try_clone().unwrap_or_else(|error| panic!("{error}"));
        let mut command = Command::new(&binary);
        command
            .args([
                "mock",
                "--errors",
                "-h",
                "127.0.0.1",
                "-p",
                &port.to_string(),
            ])
            .args(["-v", "warn"])
            .arg(document)
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err);
        if dynamic {
            command.args(["-d", "--seed", "baseten"]);
        }
        let child = command
            .spawn()
            .unwrap_or_else(|error| panic!("{}: {error}", binary.display()));
        let mut prism = Prism {
            child,
            base_url: format!("http://127.0.0.1:{port}"),
            log,
        };
        let started = Instant::now();
        loop {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Some(prism);
            }
            if let Ok(Some(status)) = prism.child.try_wait() {
                panic!("Prism exited ({status}) before listening:\n{}", prism.log());
            }
            assert!(
                started.elapsed() < READY_WITHIN,
                "Prism did not listen within {READY_WITHIN:?}:\n{}",
                prism.log()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Prism {
    fn drop(&mut self) {
        // Only the process this test started, by its handle.
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

fn styles_client(prism: &Prism) -> Client {
    Client::builder()
        .api_key("prism-styles-key")
        .base_url(prism.base_url.clone())
        .retry_policy(baseten_api::client::RetryPolicy::default().with_max_attempts(1))
        .build()
        .unwrap_or_else(|error| panic!("{error}"))
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|item| (*item).to_owned()).collect()
}

/// The operations of `styles.yaml`, as the generator names them in its compiled snapshot (with
/// the snapshots' own config).
fn operation_names(spec: &str) -> Vec<String> {
    let text = std::fs::read_to_string(tests_dir().join("fixtures/specs").join(spec))
        .unwrap_or_else(|error| panic!("{error}"));
    let input = baseten_codegen::Input {
        spec_path: spec,
        spec_text: &text,
        config_text: Some(crate::snapshots::config_of(
            spec.strip_suffix(".yaml").unwrap_or(spec),
        )),
    };
    let (api, _) = baseten_codegen::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
    let mut names: Vec<String> = api.operations.into_iter().map(|op| op.name).collect();
    names.sort();
    names
}

/// Runs each named call; returns the failures as `name: error`.
async fn failures(
    calls: Vec<(
        &'static str,
        futures_util::future::BoxFuture<'_, Result<(), String>>,
    )>,
) -> (Vec<String>, Vec<&'static str>) {
    let mut failed = Vec::new();
    let mut called = Vec::new();
    for (name, call) in calls {
        called.push(name);
        if let Err(error) = call.await {
            failed.push(format!("{name}: {error}"));
        }
    }
    (failed, called)
}

fn done<T>(result: Result<T, baseten_api::Error>) -> Result<(), String> {
    result.map(|_| ()).map_err(|error| error.to_string())
}

#[tokio::test]
#[ignore = "slow: runs Stoplight Prism (node) over the styles fixture"]
async fn prism_accepts_every_styles_operation() {
    use futures_util::FutureExt;
    let Some(prism) = Prism::start(&tests_dir().join("fixtures/specs/styles.yaml"), false) else {
        return;
    };
    let client = styles_client(&prism);
    // Items hold the delimiters of every style: escaped, they stay items. Prism 5.14 stops on
    // a path value with a literal `,`, so `explode: false` path lists hold one item here and
    // objects one property where their style joins pairs with `,` (the `/objects/*` operations,
    // always so, are checked in `param_styles` against a local server).
    let c = &client;
    let one = Colour::new().r("dark,red");
    let two = Colour::new().r("dark,red").g("1.5;=");
    let (one, two) = (&one, &two);
    let list = strings(&["a,b.c;d=e"]);
    let list = &list;
    let calls: Vec<(
        &'static str,
        futures_util::future::BoxFuture<'_, Result<(), String>>,
    )> = vec![
        (
            "get_simple",
            async move { done(c.get_simple(7, list).await) }.boxed(),
        ),
        (
            "get_simple_exploded",
            async move { done(c.get_simple_exploded(&[1], one).await) }.boxed(),
        ),
        (
            "get_label",
            async move { done(c.get_label("x.y", list).await) }.boxed(),
        ),
        (
            "get_label_exploded",
            async move { done(c.get_label_exploded(&[1, 2], two).await) }.boxed(),
        ),
        (
            "get_matrix",
            async move { done(c.get_matrix(3, list).await) }.boxed(),
        ),
        (
            "get_matrix_exploded",
            async move { done(c.get_matrix_exploded(&[4, 5], two).await) }.boxed(),
        ),
        (
            "get_query_form",
            async move {
                let query = GetQueryFormQuery::default()
                    .exact(true)
                    .point(Point::new(3, -4))
                    .sort(GetQueryFormSort::Desc);
                done(
                    c.get_query_form(&[1, 2, 3], &strings(&["a b", "c&d", "é"]), 5, &query)
                        .await,
                )
            }
            .boxed(),
        ),
        (
            "get_query_delimited",
            async move {
                let query = GetQueryDelimitedQuery::default().pipes_exploded([8, 9]);
                done(
                    c.get_query_delimited(&[1, 2], &strings(&["a", "b|c"]), &query)
                        .await,
                )
            }
            .boxed(),
        ),
        (
            "get_query_deep",
            async move {
                let filter = GetQueryDeepFilter::new(GetQueryDeepFilterState::Open)
                    .owner(GetQueryDeepFilterOwner::new().id("u 1").team("ml[x]"));
                done(c.get_query_deep(&filter).await)
            }
            .boxed(),
        ),
        (
            "get_headers",
            async move {
                let query = GetHeadersQuery::default()
                    .x_colour(two.clone())
                    .session("s; 1")
                    .prefs(["dark", "wide,x"]);
                done(c.get_headers(&[1, 2, 3], "trace-1", &query).await)
            }
            .boxed(),
        ),
        (
            "get_secured",
            async move { done(c.get_secured("query-key-1").await) }.boxed(),
        ),
        (
            "post_bodies_json",
            async move {
                let order = Order::new("book", 2).note("gift, wrapped");
                let got = c.post_bodies_json(&order).await;
                done(got)
            }
            .boxed(),
        ),
        (
            "post_bodies_form",
            async move {
                let body = PostBodiesFormBody::new("a&b=c", 3).tags(strings(&["x", "y z"]));
                done(c.post_bodies_form(&body).await)
            }
            .boxed(),
        ),
        (
            "post_bodies_multipart",
            async move {
                let body = PostBodiesMultipartBody::new("report", "file bytes").pages(2);
                done(c.post_bodies_multipart(&body).await)
            }
            .boxed(),
        ),
        (
            "put_bodies_bytes",
            async move { done(c.put_bodies_bytes(vec![0_u8, 1, 255]).await) }.boxed(),
        ),
    ];
    let (failed, called) = failures(calls).await;
    assert!(
        failed.is_empty(),
        "Prism refused:\n{}\n{}",
        failed.join("\n"),
        prism.log()
    );
    let mut called: Vec<String> = called.into_iter().map(str::to_owned).collect();
    called.extend(PRISM_CANNOT_READ.iter().map(|(name, _)| (*name).to_owned()));
    called.sort();
    assert_eq!(
        called,
        operation_names("styles.yaml"),
        "every operation is called"
    );
}

/// Operations of `styles.yaml` Prism cannot check, by name, with why; `param_styles` sends
/// them to a local server and checks the exact path.
const PRISM_CANNOT_READ: &[(&str, &str)] = &[
    (
        "get_objects_simple",
        "an `explode: false` object's path value holds a literal `,`, on which Prism 5.14 stops (TypeError in its `simple` reader)",
    ),
    ("get_objects_label", "as get_objects_simple"),
    ("get_objects_matrix", "as get_objects_simple"),
];

/// The oracle can fail: the encoder's own output for `pipeDelimited`, `form` (`explode:
/// false`), `label` and header arrays, with its delimiter swapped for another style's, is
/// refused, while the unswapped text is accepted.
#[tokio::test]
#[ignore = "slow: runs Stoplight Prism (node) over the styles fixture"]
async fn prism_refuses_a_wrong_delimiter() {
    let Some(prism) = Prism::start(&tests_dir().join("fixtures/specs/styles.yaml"), false) else {
        return;
    };
    let query = |style: Style, explode: bool, name: &str, items: &[i64]| {
        let mut params = Params::new();
        params
            .add(ParamLocation::Query, name, style, explode, items)
            .unwrap_or_else(|error| panic!("{error}"));
        params.query_string().unwrap_or_default()
    };
    let http = baseten_api::runtime::reqwest::Client::new();
    let status = |path: String, header: Option<String>| {
        let mut request = http
            .get(format!("{}{path}", prism.base_url))
            .header("X-Trace", "t")
            .bearer_auth("prism-styles-key");
        if let Some(ids) = header {
            // Prism 5.14 stops when the optional object header is absent.
            request = request.header("X-Ids", ids).header("X-Colour", "r=x");
        }
        async move {
            request
                .send()
                .await
                .map(|response| response.status().as_u16())
                .unwrap_or_else(|error| panic!("{error}"))
        }
    };
    let pipes = query(Style::PipeDelimited, false, "pipes", &[1, 2]);
    let ids = query(Style::Form, false, "ids", &[1, 2]);
    let label = baseten_api::runtime::param_style::path_param("list", Style::Label, true, &[1, 2])
        .unwrap_or_else(|error| panic!("{error}"));
    let mut header = Params::new();
    header
        .add(
            ParamLocation::Header,
            "X-Ids",
            Style::Simple,
            false,
            &[1, 2],
        )
        .unwrap_or_else(|error| panic!("{error}"));
    let header: String = header
        .headers()
        .map(|(_, value)| value.to_owned())
        .collect();
    let colour = "/.r=x.g=y";
    for (what, right, wrong) in [
        (
            "pipeDelimited",
            (
                format!("/query/delimited?{pipes}&spaces=a&pipes_exploded=1"),
                None,
            ),
            (
                format!(
                    "/query/delimited?{}&spaces=a&pipes_exploded=1",
                    pipes.replace('|', ",")
                ),
                None,
            ),
        ),
        (
            "form, explode: false",
            (format!("/query/form?{ids}&tags=a&limit=1"), None),
            (
                format!("/query/form?{}&tags=a&limit=1", ids.replace(',', "|")),
                None,
            ),
        ),
        (
            "label, explode: true",
            (format!("/label-exploded/{label}{colour}"), None),
            (
                format!("/label-exploded/.{}{colour}", label[1..].replace('.', "|")),
                None,
            ),
        ),
        (
            "header simple",
            ("/headers".to_owned(), Some(header.clone())),
            ("/headers".to_owned(), Some(header.replace(',', "|"))),
        ),
    ] {
        let accepted = status(right.0.clone(), right.1.clone()).await;
        assert!(
            (200..300).contains(&accepted),
            "{what}: {} gave {accepted}\n{}",
            right.0,
            prism.log()
        );
        let refused = status(wrong.0.clone(), wrong.1.clone()).await;
        assert_eq!(
            refused, 422,
            "{what}: {} {:?} was accepted",
            wrong.0, wrong.1
        );
    }
}

/// Operations of `schema/`'s crate whose responses Prism itself makes up wrong, by name, with
/// why: Prism answers those with its own 500 (`--errors` checks its responses too).
const PRISM_INVALID: &[(&str, &str)] = &[];

#[tokio::test]
#[ignore = "slow: runs Stoplight Prism (node) over schema/baseten-management.yaml"]
async fn the_crate_decodes_prism_s_dynamic_responses() {
    use baseten_api::models::{UpdateAutoscalingSettingsV1, UpdateEnvironmentRequestV1};
    use baseten_api::operations::{
        GetAuditLogsQuery, GetModelDeploymentMetricsQuery, GetModelDeploymentsQuery,
        GetModelEnvironmentMetricsQuery, GetModelsQuery,
    };
    use futures_util::FutureExt;
    let document = workspace_root().join("schema/baseten-management.yaml");
    let Some(prism) = Prism::start(&document, true) else {
        return;
    };
    let client = baseten_api::Client::builder()
        .api_key("prism-key")
        .base_url(prism.base_url.clone())
        .retry_policy(baseten_api::client::RetryPolicy::default().with_max_attempts(1))
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let c = &client;
    let start: baseten_api::primitives::jiff::Timestamp = "2026-07-01T00:00:00Z"
        .parse()
        .unwrap_or_else(|error| panic!("{error}"));
    let end: baseten_api::primitives::jiff::Timestamp = "2026-07-08T00:00:00Z"
        .parse()
        .unwrap_or_else(|error| panic!("{error}"));
    let mut failed = Vec::new();
    let mut called = Vec::new();
    // Each operation a few times: every response is made up anew.
    for _ in 0..4 {
        let calls: Vec<(
            &'static str,
            futures_util::future::BoxFuture<'_, Result<(), String>>,
        )> = vec![
            (
                "get_audit_logs",
                async move {
                    done(
                        c.get_audit_logs(&GetAuditLogsQuery::default().limit(10_i64))
                            .await,
                    )
                }
                .boxed(),
            ),
            (
                "get_billing_usage_summary",
                async move { done(c.get_billing_usage_summary(start, end).await) }.boxed(),
            ),
            (
                "get_model",
                async move { done(c.get_model("m1").await) }.boxed(),
            ),
            (
                "get_model_deployment",
                async move { done(c.get_model_deployment("m1", "d1").await) }.boxed(),
            ),
            (
                "get_model_deployment_metrics",
                async move {
                    done(
                        c.get_model_deployment_metrics(
                            "m1",
                            "d1",
                            &GetModelDeploymentMetricsQuery::default(),
                        )
                        .await,
                    )
                }
                .boxed(),
            ),
            (
                "get_model_deployments",
                async move {
                    done(
                        c.get_model_deployments("m1", &GetModelDeploymentsQuery::default())
                            .await,
                    )
                }
                .boxed(),
            ),
            (
                "get_model_environment",
                async move { done(c.get_model_environment("m1", "production").await) }.boxed(),
            ),
            (
                "get_model_environment_metrics",
                async move {
                    done(
                        c.get_model_environment_metrics(
                            "m1",
                            "production",
                            &GetModelEnvironmentMetricsQuery::default(),
                        )
                        .await,
                    )
                }
                .boxed(),
            ),
            (
                "get_model_environments",
                async move { done(c.get_model_environments("m1").await) }.boxed(),
            ),
            (
                "get_models",
                async move { done(c.get_models(&GetModelsQuery::default()).await) }.boxed(),
            ),
            (
                "patch_model_deployment_autoscaling_settings",
                async move {
                    let body = UpdateAutoscalingSettingsV1::new().min_replica(1);
                    done(
                        c.patch_model_deployment_autoscaling_settings("m1", "d1", &body)
                            .await,
                    )
                }
                .boxed(),
            ),
            (
                "patch_model_environment",
                async move {
                    let body = UpdateEnvironmentRequestV1::new()
                        .autoscaling_settings(UpdateAutoscalingSettingsV1::new().max_replica(4));
                    done(c.patch_model_environment("m1", "production", &body).await)
                }
                .boxed(),
            ),
        ];
        let (round_failed, round_called) = failures(calls).await;
        failed.extend(round_failed);
        called = round_called;
    }
    failed.retain(|failure| {
        !PRISM_INVALID
            .iter()
            .any(|(name, _)| failure.starts_with(&format!("{name}: ")))
    });
    assert!(
        failed.is_empty(),
        "responses that did not decode:\n{}\n{}",
        failed.join("\n"),
        prism.log()
    );
    let text = std::fs::read_to_string(&document).unwrap_or_else(|error| panic!("{error}"));
    let input = baseten_codegen::Input {
        spec_path: "schema/baseten-management.yaml",
        spec_text: &text,
        config_text: Some(
            &std::fs::read_to_string(workspace_root().join("schema/codegen.yaml"))
                .unwrap_or_else(|error| panic!("{error}")),
        ),
    };
    let (api, _) = baseten_codegen::build_ir(&input).unwrap_or_else(|error| panic!("{error}"));
    let mut expected: Vec<String> = api.operations.into_iter().map(|op| op.name).collect();
    expected.sort();
    let mut called: Vec<String> = called.into_iter().map(str::to_owned).collect();
    called.sort();
    assert_eq!(called, expected, "every operation is called");
}
