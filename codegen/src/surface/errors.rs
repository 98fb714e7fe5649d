//! What each operation's `# Errors` section says, decided once, part of the [surface](super):
//! when the client sends the request again. The operations emitter renders it.

/// When the client sends an operation's request again after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Resend {
    /// An idempotent method (RFC 9110 §9.2.2: `GET`, `HEAD`, `OPTIONS`, `TRACE`, `PUT`,
    /// `DELETE`): resent after a `5xx`, a timeout or a failed connection, as the retry policy
    /// allows, and after a `429` once the server's wait has passed.
    Idempotent,
    /// Any other method (`POST`, `PATCH`): sending it twice may do it twice, so it is resent only
    /// where the server said it did not process it, or where the caller opts in.
    WhenUnprocessed,
}

impl Resend {
    /// The rule for an upper-case HTTP method.
    pub(crate) fn of(method: &str) -> Self {
        match method {
            "GET" | "HEAD" | "OPTIONS" | "TRACE" | "PUT" | "DELETE" => Self::Idempotent,
            _ => Self::WhenUnprocessed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Resend;

    /// RFC 9110 §9.2.2's table: the idempotent methods, and everything else.
    #[test]
    fn idempotent_methods_are_rfc_9110s() {
        for method in ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"] {
            assert_eq!(Resend::of(method), Resend::Idempotent, "{method}");
        }
        for method in ["POST", "PATCH", "CONNECT", "QUERY", "get"] {
            assert_eq!(Resend::of(method), Resend::WhenUnprocessed, "{method}");
        }
    }
}
