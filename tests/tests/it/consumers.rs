//! The crate as a dependency, tried the way a user outside this workspace would: consumer
//! crates in a temporary workspace (path dependencies, their own lock and manifest) built by
//! cargo; a generated crate as another workspace's member; and two checkouts sharing one target
//! directory, each of whose drift check checks its own tree.

use std::path::{Path, PathBuf};
use std::process::Output;

use baseten_tests::{shared_dir, tests_dir, workspace_root};

/// The crates no decode-only consumer should build: the HTTP stack, and the value types only
/// other API areas than metrics hold.
const NOT_DECODE_ONLY: [&str; 7] = [
    "reqwest",
    "tokio",
    "hyper",
    "h2",
    "rustls",
    "jiff",
    "rust_decimal",
];

/// `cargo` in `dir`, sharing the workspace's target directory (and so its dependency builds).
fn cargo_in(dir: &Path) -> std::process::Command {
    let mut command = baseten_tests::cargo_sharing_target();
    command.current_dir(dir);
    command
}

fn run(mut command: std::process::Command) -> Output {
    let shown = format!("{command:?}");
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("{shown}: {error}"));
    assert!(
        output.status.success(),
        "{shown} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    output
}

fn write(path: &Path, contents: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(tests_dir().join("fixtures/responses").join(name)).unwrap()
}

/// A std-only HTTP/1.1 server for the consumer programs: answers each of `answers` (a path
/// prefix and a JSON body) once, in any order, and prints each request line it saw.
const SERVER: &str = r#"
fn serve(answers: Vec<(&'static str, String)>) -> (String, std::thread::JoinHandle<()>) {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        for _ in 0..answers.len() {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream);
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let mut line = String::new();
            while reader.read_line(&mut line).unwrap() > 2 {
                if line.to_ascii_lowercase().starts_with("authorization:") {
                    println!("auth: {}", line.trim());
                }
                line.clear();
            }
            println!("request: {}", request_line.trim());
            let path = request_line.split(' ').nth(1).unwrap_or_default();
            let body = answers
                .iter()
                .find(|(prefix, _)| path.starts_with(prefix))
                .map(|(_, body)| body.clone())
                .unwrap_or_default();
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            reader.get_mut().write_all(response.as_bytes()).unwrap();
        }
    });
    (base, handle)
}
"#;

/// A consumer with `default-features = false, features = ["metrics"]` decodes and exports a
/// saved response and builds no HTTP stack, jiff or rust_decimal; one with default features spawns a metrics request against a local server.
#[test]
#[ignore = "slow: builds two consumer crates, with and without the client"]
fn consumer_crates_with_and_without_the_client() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let api = workspace_root().join("generated");
    write(
        &root.join("Cargo.toml"),
        "[workspace]\nresolver = \"3\"\nmembers = [\"decode-only\", \"spawns\", \"tested\"]\n",
    );
    std::fs::copy(workspace_root().join("Cargo.lock"), root.join("Cargo.lock")).unwrap();
    write(
        &root.join("decode-only/Cargo.toml"),
        &format!(
            "[package]\nname = \"decode-only\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [dependencies]\nbaseten-api = {{ path = {api:?}, default-features = false, features = [\"metrics\"] }}\n"
        ),
    );
    write(
        &root.join("decode-only/series.json"),
        &fixture("series.json"),
    );
    write(
        &root.join("decode-only/src/main.rs"),
        r#"
use baseten_api::metrics;
use baseten_api::models::GetModelMetricsResponseV1;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let response: GetModelMetricsResponseV1 = metrics::decode(include_bytes!("../series.json"))?;
    let view = metrics::validate(&response)?;
    view.write_csv(std::io::stdout().lock())?;
    Ok(())
}
"#,
    );
    write(
        &root.join("spawns/Cargo.toml"),
        &format!(
            "[package]\nname = \"spawns\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [dependencies]\nbaseten-api = {{ path = {api:?} }}\n\
             tokio = {{ version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }}\n"
        ),
    );
    write(&root.join("spawns/current.json"), &fixture("current.json"));
    write(
        &root.join("spawns/src/main.rs"),
        &format!(
            r#"{SERVER}
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {{
    let (base, server) = serve(vec![("/v1/", include_str!("../current.json").to_owned())]);
    let client = baseten_api::Client::builder().api_key("consumer-key").base_url(base).build()?;
    // The request owns a clone of the client: it can be spawned.
    let request = client.environment_metrics("m1", "production").current();
    let current = tokio::spawn(request.send()).await??;
    println!("readings: {{}}", current.readings().count());
    server.join().unwrap();
    Ok(())
}}
"#
        ),
    );

    // A consumer whose own tests use the fake, from its dev-dependencies only.
    write(
        &root.join("tested/Cargo.toml"),
        &format!(
            "[package]\nname = \"tested\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [dependencies]\nbaseten-api = {{ path = {api:?} }}\n\n\
             [dev-dependencies]\nbaseten-api = {{ path = {api:?}, features = [\"mock\"] }}\n\
             tokio = {{ version = \"1\", features = [\"macros\", \"rt\"] }}\n"
        ),
    );
    write(
        &root.join("tested/src/lib.rs"),
        r#"
/// How many replicas an environment runs right now.
pub async fn active_replicas(client: &baseten_api::Client, model: &str) -> Result<f64, baseten_api::Error> {
    use baseten_api::metric_names::REPLICAS_ACTIVE;
    let now = client.environment_metrics(model, "production").current().metric(REPLICAS_ACTIVE).send().await?;
    Ok(now.series(REPLICAS_ACTIVE, &[]).unique()?.and_then(|r| r.value).unwrap_or(0.0))
}
"#,
    );
    write(
        &root.join("tested/tests/fake.rs"),
        r#"
use baseten_api::mock::MetricsResponseBuilder;

#[tokio::test]
async fn counts_replicas_against_the_fake() {
    let fake = baseten_api::mock::FakeBaseten::start().await;
    let now = MetricsResponseBuilder::current(0).gauge("baseten_replicas_active", "COUNT", &[Some(3.0)]);
    fake.on_environment_metrics("m1", "production").respond(&now.build().unwrap()).await;
    assert_eq!(tested::active_replicas(&fake.client().unwrap(), "m1").await.unwrap(), 3.0);
}
"#,
    );
    let mut tested = cargo_in(root);
    tested.args(["test", "-q", "-p", "tested"]);
    let output = run(tested);
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("1 passed"),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    // The fake stays out of the consumer's normal tree.
    let mut normal = cargo_in(root);
    normal.args([
        "tree", "-q", "-p", "tested", "-e", "normal", "--prefix", "none",
    ]);
    let normal = String::from_utf8(run(normal).stdout).unwrap();
    assert!(!normal.contains("wiremock"), "{normal}");

    let mut tree = cargo_in(root);
    tree.args([
        "tree",
        "-q",
        "-p",
        "decode-only",
        "-e",
        "normal",
        "--prefix",
        "none",
    ]);
    let tree = String::from_utf8(run(tree).stdout).unwrap();
    let crates: Vec<&str> = tree.lines().filter_map(|l| l.split(' ').next()).collect();
    for unwanted in NOT_DECODE_ONLY {
        assert!(
            !crates.contains(&unwanted),
            "{unwanted} in the decode-only tree:\n{tree}"
        );
    }
    // The runtime writes its CSV itself: no csv crate in a decode-only consumer's tree.
    assert!(
        crates.contains(&"serde_json") && !crates.contains(&"csv"),
        "{tree}"
    );

    let mut decode = cargo_in(root);
    decode.args(["run", "-q", "-p", "decode-only"]);
    let csv = String::from_utf8(run(decode).stdout).unwrap();
    let response: baseten_api::models::GetModelMetricsResponseV1 =
        baseten_api::metrics::decode(fixture("series.json").as_bytes()).unwrap();
    let expected = baseten_api::metrics::validate(&response).unwrap().to_csv();
    assert_eq!(csv, expected, "the consumer's CSV is the library's");

    let mut spawned = cargo_in(root);
    spawned.args(["run", "-q", "-p", "spawns"]);
    let stdout = String::from_utf8(run(spawned).stdout).unwrap();
    assert!(
        stdout.contains(
            "request: GET /v1/models/m1/environments/production/metrics?mode=CURRENT HTTP/1.1"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("auth: authorization: Bearer consumer-key"),
        "{stdout}"
    );
    let readings = response_readings(&fixture("current.json"));
    assert!(
        stdout.contains(&format!("readings: {readings}")),
        "{stdout}"
    );
}

/// How many series a response holds: what `readings()` of a `CURRENT` result yields.
fn response_readings(json: &str) -> usize {
    let response: baseten_api::models::GetModelMetricsResponseV1 =
        baseten_api::metrics::decode(json.as_bytes()).unwrap();
    baseten_api::metrics::validate(&response)
        .unwrap()
        .all_series()
        .count()
}

/// `cargo xtask regen --spec <newest> --out DIR --name baseten-full` into a directory inside
/// another workspace: a member of it, whose metrics requests return its own response type and
/// whose billing operation works, both against a local server.
#[test]
#[ignore = "slow: generates and builds a crate from the newest document"]
fn a_crate_generated_from_the_full_document_is_a_workspace_member() {
    let Some(specs) = shared_dir("specs") else {
        return;
    };
    let spec = specs.join("baseten-management-2026-08-22.json");
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        &root.join("Cargo.toml"),
        "[workspace]\nresolver = \"3\"\nmembers = [\"baseten-full\", \"user\"]\n",
    );
    std::fs::copy(workspace_root().join("Cargo.lock"), root.join("Cargo.lock")).unwrap();
    let mut regen = baseten_tests::cargo_command();
    regen
        .args([
            "run",
            "-q",
            "-p",
            "xtask",
            "--",
            "regen",
            "--name",
            "baseten-full",
            "--spec",
        ])
        .arg(&spec)
        .arg("--out")
        .arg(root.join("baseten-full"));
    run(regen);
    let manifest = std::fs::read_to_string(root.join("baseten-full/Cargo.toml")).unwrap();
    assert!(!manifest.contains("[workspace]"), "{manifest}");
    assert!(manifest.contains("name = \"baseten-full\""), "{manifest}");
    let runtime_path = manifest
        .lines()
        .find_map(|line| line.strip_prefix("baseten-runtime = { path = \""))
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no runtime path in\n{manifest}"));
    assert!(
        runtime_path.starts_with("../"),
        "relative to the crate: {runtime_path}"
    );
    let resolved = root.join("baseten-full").join(runtime_path);
    assert_eq!(
        resolved.canonicalize().unwrap(),
        workspace_root()
            .join("codegen/runtime")
            .canonicalize()
            .unwrap()
    );
    for (name, text) in generated_texts(&root.join("baseten-full")) {
        assert!(
            !text.contains(root.to_str().unwrap()),
            "{name} names the output directory"
        );
        if name != "Cargo.toml" {
            assert!(
                !text.contains(workspace_root().to_str().unwrap()),
                "{name} names an absolute path"
            );
        }
    }
    write(
        &root.join("user/Cargo.toml"),
        "[package]\nname = \"user\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
         [dependencies]\n\
         baseten-full = { path = \"../baseten-full\", default-features = false, features = [\"client\", \"models\", \"billing\"] }\n\
         tokio = { version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }\n",
    );
    // Areas from the path's first segment: money and dates only where the types hold them.
    assert!(
        manifest.contains("\nbilling = [\"jiff\", \"decimal\"]\n"),
        "{manifest}"
    );
    assert!(manifest.contains("\nmodels = ["), "{manifest}");
    write(&root.join("user/series.json"), &fixture("series.json"));
    write(
        &root.join("user/src/main.rs"),
        &format!(
            r##"{SERVER}
use baseten_full::models::{{GetModelMetricsResponseV1, UsageSummaryV1}};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {{
    let billing = r#"{{"dedicated_usage": {{"subtotal": "12.50", "credits_used": 0, "total": "12.50", "minutes": 42, "breakdown": []}}}}"#;
    let (base, server) = serve(vec![
        ("/v1/models/", include_str!("../series.json").to_owned()),
        ("/v1/billing/", billing.to_owned()),
    ]);
    let client = baseten_full::Client::builder().api_key("full-key").base_url(base).build()?;
    let window = baseten_full::requests::Window::new(1_787_667_015_264, 1_787_667_165_264)?;
    // The crate's own response type, not the runtime's or another crate's.
    let series: baseten_full::requests::SeriesMetrics<GetModelMetricsResponseV1> = client
        .environment_metrics("m1", "production")
        .series(window)
        .metric("baseten_replicas_active")
        .send()
        .await?;
    println!("steps: {{}}", series.steps().len());
    let usage: UsageSummaryV1 = client
        .get_billing_usage_summary("2026-07-01T00:00:00Z".parse()?, "2026-07-08T00:00:00Z".parse()?)
        .await?;
    let dedicated = usage.dedicated_usage;
    println!("minutes: {{:?}}", dedicated.as_ref().map(|usage| usage.minutes));
    // Exact money: `"12.50"` keeps its scale, and `credits_used: 0` is a number on the wire.
    // Checked: two server amounts whose difference overflows give `None`, never a panic.
    println!("owed: {{:?}}", dedicated.and_then(|usage| usage.total.checked_sub(usage.credits_used)).map(|owed| owed.to_string()));
    server.join().unwrap();
    Ok(())
}}
"##
        ),
    );
    // One area with the fake, without the others: no warning, no missing type.
    let mut one_area = cargo_in(root);
    one_area
        .args(["check", "-q", "-p", "baseten-full", "--no-default-features"])
        .args(["--features", "mock,secrets"]);
    let checked = run(one_area);
    let warnings = String::from_utf8_lossy(&checked.stderr).into_owned();
    assert!(!warnings.contains("warning"), "{warnings}");
    let mut user = cargo_in(root);
    user.args(["run", "-q", "-p", "user"]);
    let stdout = String::from_utf8(run(user).stdout).unwrap();
    let steps = serde_json::from_str::<serde_json::Value>(&fixture("series.json")).unwrap()
        ["metric_values"]
        .as_array()
        .map_or(0, Vec::len);
    assert!(stdout.contains(&format!("steps: {steps}")), "{stdout}");
    assert!(stdout.contains("minutes: Some(42)"), "{stdout}");
    assert!(stdout.contains(r#"owed: Some("12.50")"#), "{stdout}");
    assert!(
        stdout.contains(
            "request: GET /v1/models/m1/environments/production/metrics?mode=SERIES\
             &start_epoch_millis=1787667015264&end_epoch_millis=1787667165264\
             &metrics=baseten_replicas_active HTTP/1.1"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "request: GET /v1/billing/usage_summary?start_date=2026-07-01T00%3A00%3A00Z\
             &end_date=2026-07-08T00%3A00%3A00Z HTTP/1.1"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("auth: authorization: Bearer full-key"),
        "{stdout}"
    );
}

/// Every file a generated crate holds, by path relative to it.
fn generated_texts(dir: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                files.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    files
}

/// A copy of the parts of this workspace the drift check needs: the generator, the xtask, the
/// schema and the emitted files (a workspace of just `codegen` and `xtask`).
fn scratch_checkout(dir: &Path) {
    let source = workspace_root();
    let manifest = std::fs::read_to_string(source.join("Cargo.toml")).unwrap();
    let manifest: String = manifest
        .lines()
        .filter(|line| !line.starts_with("baseten-api ") && !line.starts_with("baseten-runtime "))
        .map(|line| {
            if line.starts_with("members") {
                "members = [\"codegen\", \"xtask\"]"
            } else {
                line
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    write(&dir.join("Cargo.toml"), &manifest);
    for file in [
        "Cargo.lock",
        ".cargo/config.toml",
        "codegen/Cargo.toml",
        "xtask/Cargo.toml",
        // The generator lists the runtime's re-exported items from it (`include_str!`).
        "codegen/runtime/api.txt",
    ] {
        write(
            &dir.join(file),
            &std::fs::read_to_string(source.join(file)).unwrap(),
        );
    }
    // `xtask/bench`: program sources the xtask includes as text.
    for tree in [
        "codegen/src",
        "xtask/src",
        "xtask/bench",
        "schema",
        "generated/src/gen",
    ] {
        for (name, text) in generated_texts(&source.join(tree)) {
            write(&dir.join(tree).join(name), &text);
        }
    }
}

/// Two checkouts sharing one `CARGO_TARGET_DIR`: the xtask built in one and run in the other
/// checks the other (its root is found at run time), so a hand edit there fails the check.
#[test]
#[ignore = "slow: builds the xtask in two scratch checkouts"]
fn two_checkouts_sharing_a_target_dir_each_check_their_own_tree() {
    let first = tempfile::tempdir().unwrap();
    let second = tempfile::tempdir().unwrap();
    scratch_checkout(first.path());
    scratch_checkout(second.path());
    let check = |dir: &Path| {
        let mut command = cargo_in(dir);
        command.args(["xtask", "regen", "--check"]);
        command.output().unwrap()
    };
    // The second checkout's xtask is built first, the first's last: the binary the shared
    // target dir then holds is the first checkout's.
    for dir in [second.path(), first.path()] {
        let clean = check(dir);
        assert!(
            clean.status.success(),
            "{}",
            String::from_utf8_lossy(&clean.stderr)
        );
    }
    let models = second.path().join("generated/src/gen/models.rs");
    let text = std::fs::read_to_string(&models).unwrap();
    std::fs::write(&models, text.replacen("pub struct", "pub(crate) struct", 1)).unwrap();
    let assert_drift = |output: &Output, how: &str| {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success(),
            "{how}: the hand edit passed:\n{stderr}"
        );
        assert!(
            stderr.contains("-pub(crate) struct") && stderr.contains("+pub struct"),
            "{how}: {stderr}"
        );
        assert!(
            stderr.contains("run `cargo xtask regen` and commit"),
            "{how}: {stderr}"
        );
    };
    // The binary built for the first checkout, run inside the second (as a shared target dir
    // hands it out), finds the second from where it runs.
    let binary: PathBuf = workspace_root().join("target/debug/xtask");
    let mut direct = std::process::Command::new(&binary);
    direct
        .args(["regen", "--check"])
        .current_dir(second.path().join("schema"))
        .env_remove("CARGO_MANIFEST_DIR");
    assert_drift(
        &direct.output().unwrap(),
        "the shared binary run in the second checkout",
    );
    assert_drift(&check(second.path()), "cargo xtask in the second checkout");
    let mut direct = std::process::Command::new(&binary);
    direct
        .args(["regen", "--check"])
        .current_dir(first.path())
        .env_remove("CARGO_MANIFEST_DIR");
    assert!(
        direct.output().unwrap().status.success(),
        "the first checkout is clean"
    );
}

/// `baseten-api`'s hand-written root declares exactly what every generated crate's root does,
/// so the in-repo crate and a `--out` crate have one shape.
#[test]
fn the_in_repo_crate_root_is_every_generated_crate_root() {
    let lib = std::fs::read_to_string(workspace_root().join("generated/src/lib.rs")).unwrap();
    assert!(
        lib.contains(baseten_codegen::CRATE_ROOT),
        "generated/src/lib.rs must contain baseten_codegen::CRATE_ROOT verbatim"
    );
}

/// Each API area of `baseten-api` compiles alone, with and without the client, with no warning
/// (and the metrics area with the key scrubber but no client):
/// an item gated by fewer areas than the items it names would fail here, and so would a helper
/// only some areas use.
#[test]
#[ignore = "slow: checks baseten-api once per API area, with and without the client"]
fn every_area_of_the_crate_compiles_alone() {
    let manifest = std::fs::read_to_string(workspace_root().join("generated/Cargo.toml")).unwrap();
    let full = manifest
        .lines()
        .find_map(|line| line.strip_prefix("full = ["))
        .expect("generated/Cargo.toml has a full feature");
    let areas: Vec<&str> = full
        .trim_end_matches(']')
        .split(", ")
        .map(|area| area.trim_matches('"'))
        .filter(|area| !["jiff", "decimal"].contains(area))
        .collect();
    assert!(areas.contains(&"metrics"), "{areas:?}");
    for area in areas {
        let mut combinations = vec![area.to_owned(), format!("client,{area}")];
        if area == "metrics" {
            // The key scrubber without the client: a program registering a key it holds.
            combinations.push("scrub,metrics".to_owned());
        }
        for features in combinations {
            let mut check = cargo_in(&workspace_root());
            check
                .args(["check", "-q", "-p", "baseten-api", "--no-default-features"])
                .args(["--features", &features]);
            let stderr = String::from_utf8_lossy(&run(check).stderr).into_owned();
            assert!(
                !stderr.contains("warning"),
                "--features {features}:\n{stderr}"
            );
        }
    }
}
