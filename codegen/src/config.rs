//! The generator's config (`schema/codegen.yaml`): names and paths the document cannot say.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::Error;

/// Settings beside the document. Every field is optional; unknown keys are errors so that a
/// typo does not silently do nothing.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Path of the hand-written runtime module the emitted operations call.
    pub runtime_path: String,
    /// Method names by `"METHOD /path"`, overriding the names derived from method and path.
    pub operation_names: BTreeMap<String, String>,
    /// Whether operations the document gives an `operationId` are named after it (snake_case),
    /// as their users know them; `false` names every operation by method + path, as operations
    /// without one are. Default `true`. The names lock keeps a name once given either way.
    pub operation_id_names: bool,
    /// Operations to generate (all when empty): `"METHOD /path"`, a glob over that string
    /// (`*` within one path segment, `**` across segments), or `"tag:NAME"`. Schemas that no
    /// selected operation reaches are not emitted.
    pub select: Vec<String>,
    /// Whether what a selected operation cannot represent is an error rather than left out with
    /// a note (an operation, a parameter, a request or response body).
    pub strict: bool,
    /// The generated crate's name as code names it (`baseten_api`). When set, the emitted docs
    /// of `Client`, `ClientBuilder` and `FakeBaseten` carry examples, which must name the crate;
    /// when unset they carry none.
    pub crate_name: Option<String>,
    /// The API's own name, UpperCamelCase (`Baseten`): the fake is `mock::Fake<api_name>` and the
    /// environment variables are `<API_NAME>_API_KEY` and `<API_NAME>_BASE_URL`. Unset, it comes
    /// from `crate_name` (without a trailing `_api`), else from the document's `info.title`.
    pub api_name: Option<String>,
    /// The environment variables' prefix (`ACME` for `ACME_API_KEY`, `ACME_BASE_URL`), when it
    /// should differ from the API's name in SCREAMING_SNAKE_CASE.
    pub env_prefix: Option<String>,
    /// API areas by Cargo feature name: each operation a pattern picks (the `select` syntax:
    /// `"METHOD /path"`, a glob, `"tag:NAME"`) is compiled only with that feature. Operations no
    /// pattern picks take their area from the names lock, their first tag, or their path's first
    /// segment (see `ir::areas`). The first area whose pattern picks an operation wins.
    pub areas: BTreeMap<String, Vec<String>>,
    /// The names given by the last generation (its `names.lock.yaml`), which this one keeps.
    /// Not part of the config file: the caller reads the lock beside the generated code.
    #[serde(skip)]
    pub names_lock: crate::NameLock,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            runtime_path: "crate::runtime".to_owned(),
            operation_names: BTreeMap::new(),
            operation_id_names: true,
            select: Vec::new(),
            strict: false,
            crate_name: None,
            api_name: None,
            env_prefix: None,
            areas: BTreeMap::new(),
            names_lock: crate::NameLock::default(),
        }
    }
}

impl Config {
    /// Parses YAML or JSON config text.
    pub fn parse(text: &str) -> Result<Config, Error> {
        let value = match crate::load::parse_document(text) {
            Ok(value) => value,
            Err(Error::Empty) => return Ok(Config::default()),
            Err(error) => {
                return Err(Error::Config {
                    pointer: "#".to_owned(),
                    reason: error.to_string(),
                });
            }
        };
        let config: Config =
            serde_path_to_error::deserialize(value).map_err(|error| Error::Config {
                pointer: crate::lower::pointer_of(error.path()),
                reason: error.inner().to_string(),
            })?;
        if syn::parse_str::<syn::Path>(&config.runtime_path).is_err() {
            return Err(Error::Config {
                pointer: "#/runtime_path".to_owned(),
                reason: format!("{:?} is not a Rust path", config.runtime_path),
            });
        }
        // A doctest writes it as the first segment of a path: it must be an identifier.
        if let Some(name) = &config.crate_name
            && !crate::names::is_valid_snake_ident(name)
        {
            return Err(Error::Config {
                pointer: "#/crate_name".to_owned(),
                reason: format!("{name:?} is not a snake_case Rust identifier"),
            });
        }
        if let Some(name) = &config.api_name
            && !crate::identity::is_api_name(name)
        {
            return Err(Error::Config {
                pointer: "#/api_name".to_owned(),
                reason: format!("{name:?} is not an UpperCamelCase ASCII name"),
            });
        }
        if let Some(prefix) = &config.env_prefix
            && !crate::identity::is_env_prefix(prefix)
        {
            return Err(Error::Config {
                pointer: "#/env_prefix".to_owned(),
                reason: format!("{prefix:?} is not an upper-case environment variable prefix"),
            });
        }
        for (operation, name) in &config.operation_names {
            if !crate::names::is_valid_snake_ident(name) {
                return Err(Error::Config {
                    pointer: crate::error::Pointer::to(&["operation_names", operation]),
                    reason: format!("{name:?} is not a snake_case Rust identifier"),
                });
            }
        }
        for area in config.areas.keys() {
            if let Err(reason) = crate::reserved::check_feature_name(area) {
                return Err(Error::Config {
                    pointer: crate::error::Pointer::to(&["areas", area]),
                    reason,
                });
            }
        }
        Ok(config)
    }
}
