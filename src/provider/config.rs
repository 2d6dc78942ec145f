//! LLM settings: defaults, the `[llm]` table of the config file, then the
//! usual environment variables on top.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;

/// Settings of the OpenAI-compatible provider.
///
/// The API key is read from the config file or `OPENAI_API_KEY`, but it is
/// never serialised (so never written to a log or `--json` output) and the
/// `Debug` output shows only whether one is set.
#[derive(Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LlmConfig {
    /// Base URL of the API, up to and including `/v1`.
    pub base_url: String,
    pub model: String,
    #[serde(skip_serializing)]
    pub api_key: Option<String>,
    /// Seconds allowed to open a connection.
    pub connect_timeout_s: f64,
    /// Seconds allowed for one whole attempt (connect, send, read the reply).
    pub timeout_s: f64,
    /// Attempts per call, the first one included (at least 1).
    pub max_attempts: u32,
    /// Base of the exponential backoff between attempts, in milliseconds.
    pub backoff_base_ms: u64,
    /// Most milliseconds between two attempts when the server gives no
    /// `Retry-After`.
    pub backoff_max_ms: u64,
    /// A server's `Retry-After` is honoured up to this many seconds.
    pub retry_after_cap_s: f64,
    pub max_tokens: u32,
    pub temperature: f32,
    /// Rerank calls in flight at once.
    pub rerank_concurrency: usize,
    /// Chunk text sent for scoring is cut to this many chars.
    pub rerank_max_chars: usize,
    /// Send a JSON schema inside `response_format` (llama-cpp-python's
    /// extension: `{"type": "json_object", "schema": {...}}`). Off by
    /// default: JSON object mode is what OpenAI, vLLM and Ollama accept.
    pub json_schema: bool,
    /// Send the system prompt at the top of the user message instead of as a
    /// `system` message. Needed for chat formats that silently drop system
    /// messages (llama-cpp-python's `--chat_format gemma` does).
    pub system_in_user: bool,
    /// Directory holding `system.md`, `user.md` and `rerank.md`. Default:
    /// `prompts/` in the current directory when it exists; the compiled-in
    /// text otherwise (and for any file missing there).
    pub prompts_dir: Option<PathBuf>,
    /// How the model gives its quotes: `snippets` (it copies the text out)
    /// or `pointers` (it names numbered sentences of the context and the
    /// text is taken from the source).
    pub extraction: ExtractionMode,
}

/// How the LLM engine asks for quotes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExtractionMode {
    /// The model copies each quote's text (and its source's id, title and
    /// location) into its reply; validation checks every character.
    #[default]
    Snippets,
    /// Each sentence of the context is numbered; the model replies with
    /// ranges of sentence ids and the quote is the source's own text for
    /// that range. Validation still checks it.
    Pointers,
}

impl std::str::FromStr for ExtractionMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "snippets" => Ok(Self::Snippets),
            "pointers" => Ok(Self::Pointers),
            other => Err(format!(
                "unknown extraction mode '{other}' (expected: snippets, pointers)"
            )),
        }
    }
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            base_url: "https://api.openai.com/v1".into(),
            model: "gpt-4o-mini".into(),
            api_key: None,
            connect_timeout_s: 10.0,
            timeout_s: 60.0,
            max_attempts: 4,
            backoff_base_ms: 500,
            backoff_max_ms: 8_000,
            retry_after_cap_s: 30.0,
            max_tokens: 2048,
            temperature: 0.0,
            rerank_concurrency: 4,
            rerank_max_chars: 2000,
            json_schema: false,
            system_in_user: false,
            prompts_dir: None,
            extraction: ExtractionMode::Snippets,
        }
    }
}

impl fmt::Debug for LlmConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LlmConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field(
                "api_key",
                &self
                    .api_key
                    .as_ref()
                    .map(|_| "<redacted>")
                    .unwrap_or("<none>"),
            )
            .field("connect_timeout_s", &self.connect_timeout_s)
            .field("timeout_s", &self.timeout_s)
            .field("max_attempts", &self.max_attempts)
            .field("backoff_base_ms", &self.backoff_base_ms)
            .field("backoff_max_ms", &self.backoff_max_ms)
            .field("retry_after_cap_s", &self.retry_after_cap_s)
            .field("max_tokens", &self.max_tokens)
            .field("temperature", &self.temperature)
            .field("rerank_concurrency", &self.rerank_concurrency)
            .field("rerank_max_chars", &self.rerank_max_chars)
            .field("json_schema", &self.json_schema)
            .field("system_in_user", &self.system_in_user)
            .field("prompts_dir", &self.prompts_dir)
            .field("extraction", &self.extraction)
            .finish()
    }
}

impl LlmConfig {
    /// Layer `OPENAI_BASE_URL`, `OPENAI_API_KEY` and the model
    /// (`RESEARCH_BOARD_MODEL`, else `OPENAI_MODEL`) over these settings.
    /// Empty variables are ignored.
    pub fn from_env(self) -> Self {
        self.from_vars(|k| std::env::var(k).ok())
    }

    /// [`LlmConfig::from_env`] with the variables looked up through `var`.
    pub fn from_vars(mut self, var: impl Fn(&str) -> Option<String>) -> Self {
        let get = |k: &str| {
            var(k)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        if let Some(url) = get("OPENAI_BASE_URL") {
            self.base_url = url;
        }
        if let Some(key) = get("OPENAI_API_KEY") {
            self.api_key = Some(key);
        }
        if let Some(model) = get("RESEARCH_BOARD_MODEL").or_else(|| get("OPENAI_MODEL")) {
            self.model = model;
        }
        self
    }

    /// The chat completions endpoint.
    pub fn endpoint(&self) -> String {
        format!("{}/chat/completions", self.base_url.trim_end_matches('/'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_layers_over_config_and_ignores_empty_values() {
        let cfg = LlmConfig {
            model: "from-file".into(),
            ..LlmConfig::default()
        }
        .from_vars(|k| match k {
            "OPENAI_BASE_URL" => Some("http://127.0.0.1:8080/v1/".into()),
            "OPENAI_API_KEY" => Some("sk-secret".into()),
            "OPENAI_MODEL" => Some("gemma".into()),
            "RESEARCH_BOARD_MODEL" => Some("  ".into()),
            _ => None,
        });
        assert_eq!(cfg.endpoint(), "http://127.0.0.1:8080/v1/chat/completions");
        assert_eq!(cfg.api_key.as_deref(), Some("sk-secret"));
        assert_eq!(cfg.model, "gemma");
        let cfg = cfg.from_vars(|k| (k == "RESEARCH_BOARD_MODEL").then(|| "qwen".into()));
        assert_eq!(cfg.model, "qwen");
    }

    #[test]
    fn the_key_is_never_serialised_nor_debug_printed() {
        let cfg = LlmConfig {
            api_key: Some("sk-very-secret".into()),
            ..LlmConfig::default()
        };
        let json = serde_json::to_string(&cfg).unwrap();
        assert!(!json.contains("sk-very-secret"), "{json}");
        let debug = format!("{cfg:?}");
        assert!(!debug.contains("sk-very-secret"), "{debug}");
        assert!(debug.contains("<redacted>"));
        // It can still be read from a config file.
        let back: LlmConfig = serde_json::from_str(r#"{"api_key": "k", "timeout_s": 5}"#).unwrap();
        assert_eq!(back.api_key.as_deref(), Some("k"));
        assert_eq!(back.timeout_s, 5.0);
        assert_eq!(back.max_attempts, 4);
    }
}
