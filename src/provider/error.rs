//! What can go wrong talking to a provider, said so that the user knows
//! what to do next, and never with the API key in it.

use thiserror::Error;

/// Chars of a server's error body kept in an error message.
pub(super) const BODY_EXCERPT_CHARS: usize = 300;

/// What can go wrong talking to the LLM. Every message says what to do next;
/// none contains the API key.
#[derive(Debug, Error)]
pub enum LlmError {
    #[error("the LLM settings are not usable: {reason}")]
    Config { reason: String },
    #[error(
        "the LLM server at {url} answered HTTP {status}{}: {body}{}",
        attempts_note(*attempts),
        hint_note(hint)
    )]
    Http {
        url: String,
        status: u16,
        /// Start of the server's reply, whitespace collapsed, key removed.
        body: String,
        attempts: u32,
        hint: &'static str,
    },
    #[error(
        "the LLM server at {url} did not answer within {secs} s{}; is the model loaded, \
         or does it need a longer llm.timeout_s?",
        attempts_note(*attempts)
    )]
    Timeout {
        url: String,
        secs: f64,
        attempts: u32,
    },
    #[error(
        "cannot connect to the LLM server at {url}: {reason}{}; is the server running, \
         and is the base URL (OPENAI_BASE_URL or llm.base_url) right?",
        attempts_note(*attempts)
    )]
    Connect {
        url: String,
        reason: String,
        attempts: u32,
    },
    #[error(
        "the connection to the LLM server at {url} failed mid-reply: {reason}{}",
        attempts_note(*attempts)
    )]
    Network {
        url: String,
        reason: String,
        attempts: u32,
    },
    #[error("the LLM reply is not valid JSON: {reason}")]
    Parse { reason: String },
    #[error(
        "the LLM reply was cut off at max_tokens ({max_tokens}) before its JSON was complete; \
         raise llm.max_tokens or ask a narrower question"
    )]
    Truncated { max_tokens: u32 },
    #[error("the LLM reply does not have the expected shape: {reason}")]
    Schema { reason: String },
}

fn attempts_note(attempts: u32) -> String {
    if attempts > 1 {
        format!(" (after {attempts} attempts)")
    } else {
        String::new()
    }
}

fn hint_note(hint: &str) -> String {
    if hint.is_empty() {
        String::new()
    } else {
        format!("; {hint}")
    }
}

pub(super) fn http_hint(status: u16) -> &'static str {
    match status {
        401 | 403 => "check the API key (OPENAI_API_KEY or llm.api_key)",
        404 => "check the base URL (it usually ends in /v1) and the model name",
        400 | 422 => {
            "the server rejected the request; check the model name and whether it supports \
             response_format json_object (try llm.json_schema = false)"
        }
        429 => "the server is rate limiting; wait and try again",
        500..=599 => "the server failed; check its logs or try again later",
        _ => "",
    }
}

impl LlmError {
    /// Whether another attempt may succeed.
    pub(super) fn retryable(&self) -> bool {
        match self {
            LlmError::Http { status, .. } => *status == 429 || *status >= 500,
            LlmError::Timeout { .. } | LlmError::Connect { .. } | LlmError::Network { .. } => true,
            _ => false,
        }
    }

    pub(super) fn set_attempts(&mut self, n: u32) {
        match self {
            LlmError::Http { attempts, .. }
            | LlmError::Timeout { attempts, .. }
            | LlmError::Connect { attempts, .. }
            | LlmError::Network { attempts, .. } => *attempts = n,
            _ => {}
        }
    }

    /// The hint for an HTTP error (empty for the others).
    pub fn hint(&self) -> &'static str {
        match self {
            LlmError::Http { hint, .. } => hint,
            _ => "",
        }
    }
}
