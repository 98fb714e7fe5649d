//! The API's own name in its crate: the fake's type (`FakeAcmePayments`), the environment
//! variables of its key and base URL (`ACME_PAYMENTS_API_KEY`), the name the docs' prose uses.
//!
//! Taken from the config (`api_name`, `env_prefix`, else `crate_name`) or the document's
//! `info.title`. A title is text from the document, never code: only its ASCII letters and digits
//! survive, as words, and a title that leaves nothing usable gives the neutral `Api`.

use crate::Config;
use crate::names::{to_snake_case, to_upper_camel_case};

/// The name used when neither the config nor the title gives one.
pub(crate) const NEUTRAL_NAME: &str = "Api";

/// The longest name taken from a title or a crate name, in characters: a title is prose, and the
/// fake's type and the variables should stay short enough to type.
const MAX_DERIVED_LEN: usize = 32;

/// Words a title or crate name ends with that say what any API is, not which one.
/// Also the roles one vendor's several APIs take (`Baseten management API`, `Baseten inference
/// API`): the vendor's name is the API's.
const GENERIC_WORDS: &[&str] = &[
    "admin",
    "api",
    "apis",
    "client",
    "developer",
    "document",
    "http",
    "inference",
    "interface",
    "management",
    "oas",
    "openapi",
    "platform",
    "public",
    "reference",
    "rest",
    "rs",
    "sdk",
    "service",
    "spec",
    "specification",
    "swagger",
];

/// How the generated crate names its API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiIdentity {
    /// UpperCamelCase (`AcmePayments`): the fake is `Fake` + this.
    pub name: String,
    /// The fake server's type in `mock.rs`.
    pub fake_type: String,
    /// The variable `Client::from_env` reads the key from (`ACME_PAYMENTS_API_KEY`).
    pub api_key_env: String,
    /// The variable `Client::from_env` reads a base URL from (`ACME_PAYMENTS_BASE_URL`).
    pub base_url_env: String,
}

impl Default for ApiIdentity {
    fn default() -> Self {
        ApiIdentity::named(NEUTRAL_NAME, None)
    }
}

impl ApiIdentity {
    /// The identity `config` asks for, else the one `title` (the document's `info.title`) gives.
    pub(crate) fn of(config: &Config, title: &str) -> ApiIdentity {
        let name = config
            .api_name
            .clone()
            .or_else(|| config.crate_name.as_deref().and_then(derived_name))
            .or_else(|| derived_name(title))
            .unwrap_or_else(|| NEUTRAL_NAME.to_owned());
        ApiIdentity::named(&name, config.env_prefix.as_deref())
    }

    fn named(name: &str, env_prefix: Option<&str>) -> ApiIdentity {
        let prefix = env_prefix
            .map(str::to_owned)
            .unwrap_or_else(|| to_snake_case(name).to_ascii_uppercase());
        ApiIdentity {
            name: name.to_owned(),
            fake_type: format!("Fake{name}"),
            api_key_env: format!("{prefix}_API_KEY"),
            base_url_env: format!("{prefix}_BASE_URL"),
        }
    }
}

/// An UpperCamelCase name from free text: its ASCII words, parenthesised asides and generic
/// trailing words (`API`, `REST`, `v2`) dropped, words before the first letter dropped; `None`
/// when nothing is left.
pub(crate) fn derived_name(text: &str) -> Option<String> {
    let without_asides = drop_parenthesised(text);
    let mut words: Vec<String> = without_asides
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(to_upper_camel_case)
        .collect();
    while words.last().is_some_and(|word| is_generic(word)) {
        words.pop();
    }
    let first_letter = words
        .iter()
        .position(|word| word.starts_with(|c: char| c.is_ascii_alphabetic()))?;
    let mut name = String::new();
    for word in &words[first_letter..] {
        if name.len() + word.len() > MAX_DERIVED_LEN {
            break;
        }
        name.push_str(word);
    }
    (!name.is_empty()).then_some(name)
}

/// A word that names no API in particular: a generic word or a version (`V2`, `2024`, `1`).
fn is_generic(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    let version = lower
        .strip_prefix('v')
        .unwrap_or(&lower)
        .bytes()
        .all(|b| b.is_ascii_digit());
    version || GENERIC_WORDS.contains(&lower.as_str())
}

/// `text` without what stands between `(` and `)` (or `[` and `]`), nested or not; an
/// unclosed bracket drops the rest.
fn drop_parenthesised(text: &str) -> String {
    let mut depth = 0_usize;
    let mut kept = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => {
                kept.push(c);
                continue;
            }
            _ => continue,
        }
        // A bracket separates words.
        kept.push(' ');
    }
    kept
}

/// Whether `name` can be the API's name: an ASCII UpperCamelCase identifier.
pub(crate) fn is_api_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.bytes().all(|b| b.is_ascii_alphanumeric())
        && name.len() <= 64
}

/// Whether `prefix` can start an environment variable's name: `ACME` or `ACME_PAY`.
pub(crate) fn is_env_prefix(prefix: &str) -> bool {
    prefix.starts_with(|c: char| c.is_ascii_uppercase())
        && !prefix.ends_with('_')
        && prefix
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && prefix.len() <= 64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Config {
        Config::parse(text).expect("config")
    }

    #[test]
    fn titles_give_their_words_without_generic_ones() {
        for (title, name) in [
            ("Acme Payments API", Some("AcmePayments")),
            ("Baseten management API (consumer subset)", Some("Baseten")),
            ("Baseten inference API", Some("Baseten")),
            ("Management", None),
            ("acme-payments REST API v2", Some("AcmePayments")),
            ("Stripe API [beta]", Some("Stripe")),
            ("3scale Billing API", Some("Billing")),
            ("Pets (v2) Store", Some("PetsStore")),
            ("2024 Zoo API", Some("Zoo")),
            ("OpenAPI", None),
            ("API v1", None),
            ("", None),
            ("((()", None),
            ("Café Orders", Some("CafOrders")),
            ("}; fn main() { // \"", Some("FnMain")),
            ("Über", Some("Ber")),
            ("日本", None),
        ] {
            assert_eq!(derived_name(title).as_deref(), name, "{title:?}");
        }
    }

    #[test]
    fn a_leading_digit_word_is_dropped_so_the_name_is_an_identifier() {
        assert_eq!(derived_name("3scale").as_deref(), None);
        assert_eq!(derived_name("v2").as_deref(), None);
        assert_eq!(derived_name("3 Scale").as_deref(), Some("Scale"));
    }

    #[test]
    fn long_titles_stop_at_a_word_within_the_limit() {
        let name = derived_name("Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel");
        assert_eq!(name.as_deref(), Some("AlphaBravoCharlieDeltaEcho"));
        let exact = derived_name("Alpha Bravo Charlie Delta Echo Foxtro");
        assert_eq!(
            exact.as_deref(),
            Some("AlphaBravoCharlieDeltaEchoFoxtro"),
            "32 fit"
        );
        let one = "A".repeat(100);
        assert_eq!(derived_name(&one), None, "a first word past the limit");
    }

    #[test]
    fn the_config_wins_over_the_title_and_the_crate_name_over_the_title() {
        let identity = ApiIdentity::of(&config("api_name: Baseten\n"), "Acme API");
        assert_eq!(identity.fake_type, "FakeBaseten");
        assert_eq!(identity.api_key_env, "BASETEN_API_KEY");
        assert_eq!(identity.base_url_env, "BASETEN_BASE_URL");
        let identity = ApiIdentity::of(&config("crate_name: acme_pay_api\n"), "Other API");
        assert_eq!(identity.name, "AcmePay");
        assert_eq!(identity.api_key_env, "ACME_PAY_API_KEY");
        let identity = ApiIdentity::of(&config(""), "Other API");
        assert_eq!(identity.name, "Other");
        let identity = ApiIdentity::of(&config("env_prefix: ACME\n"), "Other API");
        assert_eq!(
            (identity.fake_type.as_str(), identity.api_key_env.as_str()),
            ("FakeOther", "ACME_API_KEY")
        );
        assert_eq!(identity.base_url_env, "ACME_BASE_URL");
        let identity = ApiIdentity::of(&config(""), "API");
        assert_eq!(identity, ApiIdentity::default());
        assert_eq!(identity.fake_type, "FakeApi");
        assert_eq!(identity.api_key_env, "API_API_KEY");
    }

    #[test]
    fn names_and_prefixes_are_checked() {
        assert!(is_api_name("Acme2"));
        for bad in ["acme", "Acme Pay", "Acme_Pay", "", "Ä"] {
            assert!(!is_api_name(bad), "{bad:?}");
        }
        assert!(!is_api_name(&format!("A{}", "b".repeat(64))));
        assert!(is_api_name(&format!("A{}", "b".repeat(63))));
        assert!(is_env_prefix("ACME_PAY2"));
        for bad in ["acme", "ACME_", "_ACME", "2ACME", "", "AC-ME"] {
            assert!(!is_env_prefix(bad), "{bad:?}");
        }
        assert!(!is_env_prefix(&format!("A{}", "B".repeat(64))));
        assert!(is_env_prefix(&format!("A{}", "B".repeat(63))));
    }
}
