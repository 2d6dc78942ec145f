//! The OpenAI-compatible client (chat completions and embeddings): one POST
//! per attempt, bounded retries with backoff and full jitter on 429, 5xx,
//! connection failures and timeouts, `Retry-After` honoured up to a cap.

use super::config::LlmConfig;
pub use super::error::LlmError;
use super::error::{BODY_EXCERPT_CHARS, http_hint};
use serde::Serialize;
use serde_json::{Value, json};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Most bytes of a reply body read before giving up on it.
const MAX_BODY_BYTES: usize = 16 << 20;

/// Tokens and time one or more calls took.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Usage {
    /// From the server's `usage` field, when it sends one.
    pub prompt_tokens: Option<u64>,
    pub completion_tokens: Option<u64>,
    /// Wall time, retries and waits included.
    pub latency_ms: u64,
    /// HTTP requests made.
    pub attempts: u32,
}

/// Sum of two usages (tokens add when either side has them).
impl std::ops::Add for Usage {
    type Output = Usage;

    fn add(self, other: Usage) -> Usage {
        let sum = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
        };
        Usage {
            prompt_tokens: sum(self.prompt_tokens, other.prompt_tokens),
            completion_tokens: sum(self.completion_tokens, other.completion_tokens),
            latency_ms: self.latency_ms + other.latency_ms,
            attempts: self.attempts + other.attempts,
        }
    }
}

/// The model's answer to one chat call.
#[derive(Debug, Clone)]
pub struct ChatReply {
    /// `choices[0].message.content`, never empty.
    pub content: String,
    pub usage: Usage,
}

/// An OpenAI-compatible chat completions client.
///
/// Pooled connections belong to the tokio runtime that opened them: use one
/// client from one runtime ([`super::runtime`]).
#[derive(Clone)]
pub struct LlmClient {
    http: reqwest::Client,
    cfg: LlmConfig,
    url: String,
}

impl std::fmt::Debug for LlmClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmClient")
            .field("url", &self.url)
            .field("cfg", &self.cfg)
            .finish()
    }
}

fn secs(s: f64) -> Duration {
    if s.is_finite() && s > 0.0 {
        Duration::from_secs_f64(s.min(86_400.0))
    } else {
        Duration::from_millis(1)
    }
}

impl LlmClient {
    pub fn new(cfg: LlmConfig) -> Result<Self, LlmError> {
        let base = cfg.base_url.trim();
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(LlmError::Config {
                reason: format!(
                    "the base URL {base:?} must start with http:// or https:// \
                     (e.g. http://127.0.0.1:8080/v1)"
                ),
            });
        }
        if cfg.model.trim().is_empty() {
            return Err(LlmError::Config {
                reason: "no model name (set llm.model or OPENAI_MODEL)".into(),
            });
        }
        if let Some(key) = &cfg.api_key
            && reqwest::header::HeaderValue::from_str(&format!("Bearer {key}")).is_err()
        {
            return Err(LlmError::Config {
                reason: "the API key contains characters not allowed in an HTTP header".into(),
            });
        }
        super::install_tls();
        let http = reqwest::Client::builder()
            .connect_timeout(secs(cfg.connect_timeout_s))
            .timeout(secs(cfg.timeout_s))
            .build()
            .map_err(|e| LlmError::Config {
                reason: format!("cannot set up the HTTP client: {e}"),
            })?;
        let url = cfg.endpoint();
        Ok(LlmClient { http, cfg, url })
    }

    pub fn config(&self) -> &LlmConfig {
        &self.cfg
    }

    /// The chat completions URL requests go to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// One chat call in JSON object mode; returns the reply's content.
    pub async fn chat_json(&self, system: &str, user: &str) -> Result<String, LlmError> {
        Ok(self.chat(system, user, None).await?.content)
    }

    /// One chat call in JSON object mode, with `schema` sent inside
    /// `response_format` when `llm.json_schema` is on. An empty `system`
    /// sends only the user message.
    pub async fn chat(
        &self,
        system: &str,
        user: &str,
        schema: Option<&Value>,
    ) -> Result<ChatReply, LlmError> {
        let body = self.request_body(system, user, schema);
        let max_tokens = self.cfg.max_tokens;
        let ((content, mut usage), attempts, elapsed) = self
            .post_with_retries(&self.url, &body, |text| parse_completion(text, max_tokens))
            .await?;
        usage.latency_ms = elapsed.as_millis() as u64;
        usage.attempts = attempts;
        Ok(ChatReply { content, usage })
    }

    /// The embeddings URL (`{base_url}/embeddings`).
    pub fn embeddings_url(&self) -> String {
        format!(
            "{}/embeddings",
            self.cfg.base_url.trim().trim_end_matches('/')
        )
    }

    /// One `/embeddings` call: a vector per input, in the order of `inputs`
    /// (the response's `index` field decides, not its order). Same retry,
    /// backoff and timeout policy as [`LlmClient::chat`].
    pub async fn embeddings(
        &self,
        model: &str,
        inputs: &[&str],
    ) -> Result<Vec<Vec<f32>>, LlmError> {
        if inputs.is_empty() {
            return Ok(Vec::new());
        }
        let body = json!({
            "model": model,
            "input": inputs,
            "encoding_format": "float",
        });
        let url = self.embeddings_url();
        let (vectors, _, _) = self
            .post_with_retries(&url, &body, |text| parse_embeddings(text, inputs.len()))
            .await?;
        Ok(vectors)
    }

    /// POST `body` to `url` until a reply parses, a non-retryable error
    /// occurs or the attempts run out. Returns the parsed reply, the number
    /// of attempts and the wall time.
    async fn post_with_retries<T>(
        &self,
        url: &str,
        body: &Value,
        parse: impl Fn(&str) -> Result<T, LlmError>,
    ) -> Result<(T, u32, Duration), LlmError> {
        let started = Instant::now();
        let attempts = self.cfg.max_attempts.max(1);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let result = tokio::time::timeout(secs(self.cfg.timeout_s), self.attempt(url, body))
                .await
                .unwrap_or_else(|_| Err((self.timeout_error(url), None)))
                .and_then(|text| parse(&text).map_err(|e| (self.redact_error(e), None)));
            match result {
                Ok(parsed) => return Ok((parsed, attempt, started.elapsed())),
                Err((mut e, retry_after)) => {
                    e.set_attempts(attempt);
                    if !e.retryable() || attempt >= attempts {
                        return Err(e);
                    }
                    let wait = match retry_after {
                        Some(d) => d.min(secs(self.cfg.retry_after_cap_s)),
                        None => self.backoff(attempt),
                    };
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }

    /// Full jitter: uniform in [0, min(max, base · 2^(attempt−1))].
    fn backoff(&self, attempt: u32) -> Duration {
        let ceiling = self
            .cfg
            .backoff_base_ms
            .saturating_mul(1u64 << (attempt - 1).min(20))
            .min(self.cfg.backoff_max_ms);
        Duration::from_millis(fastrand::u64(0..=ceiling))
    }

    fn timeout_error(&self, url: &str) -> LlmError {
        LlmError::Timeout {
            url: url.to_string(),
            secs: self.cfg.timeout_s,
            attempts: 1,
        }
    }

    fn request_body(&self, system: &str, user: &str, schema: Option<&Value>) -> Value {
        let messages = if system.trim().is_empty() {
            json!([{"role": "user", "content": user}])
        } else if self.cfg.system_in_user {
            json!([{"role": "user", "content": format!("{system}\n\n{user}")}])
        } else {
            json!([
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ])
        };
        let response_format = match schema {
            Some(s) if self.cfg.json_schema => json!({"type": "json_object", "schema": s}),
            _ => json!({"type": "json_object"}),
        };
        json!({
            "model": self.cfg.model,
            "messages": messages,
            "temperature": self.cfg.temperature,
            "max_tokens": self.cfg.max_tokens,
            "response_format": response_format,
            "stream": false,
        })
    }

    /// One HTTP request: the body of a successful reply. On failure, also
    /// the server's `Retry-After`.
    async fn attempt(
        &self,
        url: &str,
        body: &Value,
    ) -> Result<String, (LlmError, Option<Duration>)> {
        let mut req = self.http.post(url).json(body);
        if let Some(key) = &self.cfg.api_key {
            req = req.bearer_auth(key);
        }
        let mut resp = req
            .send()
            .await
            .map_err(|e| (self.transport_error(url, &e), None))?;
        let status = resp.status();
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| parse_retry_after(v, SystemTime::now()));
        let mut bytes: Vec<u8> = Vec::new();
        loop {
            match resp.chunk().await {
                Ok(Some(chunk)) => {
                    bytes.extend_from_slice(&chunk);
                    if bytes.len() > MAX_BODY_BYTES {
                        return Err((
                            LlmError::Parse {
                                reason: format!(
                                    "the server's reply is larger than {} MB",
                                    MAX_BODY_BYTES >> 20
                                ),
                            },
                            None,
                        ));
                    }
                }
                Ok(None) => break,
                Err(e) => return Err((self.transport_error(url, &e), retry_after)),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if !status.is_success() {
            return Err((
                LlmError::Http {
                    url: url.to_string(),
                    status: status.as_u16(),
                    body: self.excerpt(&text),
                    attempts: 1,
                    hint: http_hint(status.as_u16()),
                },
                retry_after,
            ));
        }
        Ok(text.into_owned())
    }

    fn transport_error(&self, url: &str, e: &reqwest::Error) -> LlmError {
        let reason = self.redact(&root_cause(e));
        if e.is_connect() {
            LlmError::Connect {
                url: url.to_string(),
                reason,
                attempts: 1,
            }
        } else if e.is_timeout() {
            self.timeout_error(url)
        } else {
            LlmError::Network {
                url: url.to_string(),
                reason,
                attempts: 1,
            }
        }
    }

    /// Make text that came from outside safe to show: any run of 6 or more
    /// chars of the API key (a server echoing a key prefix) is removed, and
    /// control chars (terminal escape sequences) are neutralised.
    pub(crate) fn redact(&self, s: &str) -> String {
        let s = match &self.cfg.api_key {
            Some(key) if !key.is_empty() => redact_key(s, key),
            _ => s.to_string(),
        };
        crate::text::sanitize_for_terminal(&s, false)
    }

    /// The error with the API key removed from text that came from the
    /// server or the model.
    pub(crate) fn redact_error(&self, e: LlmError) -> LlmError {
        match e {
            LlmError::Parse { reason } => LlmError::Parse {
                reason: self.redact(&reason),
            },
            LlmError::Schema { reason } => LlmError::Schema {
                reason: self.redact(&reason),
            },
            other => other,
        }
    }

    fn excerpt(&self, body: &str) -> String {
        let collapsed = body.split_whitespace().collect::<Vec<_>>().join(" ");
        let redacted = self.redact(&collapsed);
        let mut out: String = redacted.chars().take(BODY_EXCERPT_CHARS).collect();
        if redacted.chars().nth(BODY_EXCERPT_CHARS).is_some() {
            out.push('…');
        }
        if out.is_empty() {
            out.push_str("(empty body)");
        }
        out
    }
}

/// `s` with every run of at least 6 chars that is also a run of `key`
/// replaced by `<redacted>` (the whole key when it is shorter than 6).
fn redact_key(s: &str, key: &str) -> String {
    let min = key.chars().count().min(6);
    let k: Vec<char> = key.chars().collect();
    let t: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < t.len() {
        // Longest run of the key starting at t[i].
        let mut best = 0;
        for start in 0..k.len() {
            let n = t[i..]
                .iter()
                .zip(&k[start..])
                .take_while(|(a, b)| a == b)
                .count();
            best = best.max(n);
        }
        if best >= min {
            out.push_str("<redacted>");
            i += best;
        } else {
            out.push(t[i]);
            i += 1;
        }
    }
    out
}

/// The innermost cause of an error ("Connection refused (os error 111)"),
/// which says more than the wrappers around it.
fn root_cause(e: &dyn std::error::Error) -> String {
    let mut cause = e;
    while let Some(s) = cause.source() {
        cause = s;
    }
    let text = cause.to_string();
    if text.trim().is_empty() {
        e.to_string()
    } else {
        text
    }
}

/// Read a chat completions response body: content, finish reason, usage.
fn parse_completion(text: &str, max_tokens: u32) -> Result<(String, Usage), LlmError> {
    let v: Value = serde_json::from_str(text).map_err(|e| LlmError::Parse {
        reason: format!("the server's response is not JSON ({e})"),
    })?;
    let choice = v
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or_else(|| LlmError::Schema {
            reason: "the response has no choices[0]; is this an OpenAI-compatible \
                     /chat/completions endpoint?"
                .into(),
        })?;
    if choice.get("finish_reason").and_then(Value::as_str) == Some("length") {
        return Err(LlmError::Truncated { max_tokens });
    }
    let content = choice
        .get("message")
        .and_then(|m| m.get("content"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if content.trim().is_empty() {
        return Err(LlmError::Schema {
            reason: "the model returned no message content".into(),
        });
    }
    let usage = v.get("usage");
    let tokens = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64);
    Ok((
        content.to_string(),
        Usage {
            prompt_tokens: tokens("prompt_tokens"),
            completion_tokens: tokens("completion_tokens"),
            latency_ms: 0,
            attempts: 0,
        },
    ))
}

/// Read an embeddings response body: `data[i].embedding`, placed by
/// `data[i].index`; exactly one vector of one common dimension per input.
fn parse_embeddings(text: &str, n: usize) -> Result<Vec<Vec<f32>>, LlmError> {
    let v: Value = serde_json::from_str(text).map_err(|e| LlmError::Parse {
        reason: format!("the server's response is not JSON ({e})"),
    })?;
    let schema = |reason: String| LlmError::Schema { reason };
    let data = v.get("data").and_then(Value::as_array).ok_or_else(|| {
        schema(
            "the response has no data array; is this an OpenAI-compatible /embeddings endpoint?"
                .into(),
        )
    })?;
    if data.len() != n {
        return Err(schema(format!(
            "the response has {} embeddings for {n} inputs",
            data.len()
        )));
    }
    let mut out: Vec<Option<Vec<f32>>> = vec![None; n];
    for (pos, item) in data.iter().enumerate() {
        let index = match item.get("index") {
            None => pos,
            Some(i) => i
                .as_u64()
                .map(|i| i as usize)
                .filter(|&i| i < n)
                .ok_or_else(|| schema(format!("data[{pos}].index is not an input index")))?,
        };
        let vector = item
            .get("embedding")
            .and_then(Value::as_array)
            .ok_or_else(|| {
                schema(format!(
                    "data[{pos}].embedding is not an array of numbers (base64 encoding is not supported)"
                ))
            })?
            .iter()
            .map(|x| x.as_f64().map(|f| f as f32).filter(|f| f.is_finite()))
            .collect::<Option<Vec<f32>>>()
            .ok_or_else(|| schema(format!("data[{pos}].embedding holds a non-number")))?;
        if vector.is_empty() {
            return Err(schema(format!("data[{pos}].embedding is empty")));
        }
        if out[index].replace(vector).is_some() {
            return Err(schema(format!("two embeddings have index {index}")));
        }
    }
    let out: Vec<Vec<f32>> = out
        .into_iter()
        .map(|v| v.expect("n distinct indices < n"))
        .collect();
    if out.iter().any(|v| v.len() != out[0].len()) {
        return Err(schema("the embeddings have different dimensions".into()));
    }
    Ok(out)
}

/// `Retry-After`: delay in seconds, or an HTTP date (RFC 9110 IMF-fixdate,
/// e.g. `Sun, 06 Nov 1994 08:49:37 GMT`). A date in the past means now.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let v = value.trim();
    if let Ok(s) = v.parse::<f64>() {
        return (s.is_finite() && s >= 0.0).then(|| Duration::from_secs_f64(s.min(86_400.0)));
    }
    let at = parse_http_date(v)?;
    let now = now.duration_since(UNIX_EPOCH).ok()?.as_secs() as i64;
    Some(Duration::from_secs((at - now).clamp(0, 86_400) as u64))
}

/// Seconds since the Unix epoch of an IMF-fixdate.
fn parse_http_date(s: &str) -> Option<i64> {
    // "Sun, 06 Nov 1994 08:49:37 GMT"
    let (_, rest) = s.split_once(", ")?;
    let parts: Vec<&str> = rest.split_whitespace().collect();
    if parts.len() != 5 || parts[4] != "GMT" {
        return None;
    }
    let day: i64 = parts[0].parse().ok()?;
    let month = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    .iter()
    .position(|m| *m == parts[1])? as i64
        + 1;
    let year: i64 = parts[2].parse().ok()?;
    let hms: Vec<i64> = parts[3]
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    if hms.len() != 3 || !(1..=31).contains(&day) || !(0..=9999).contains(&year) {
        return None;
    }
    // Days from civil (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + hms[0] * 3600 + hms[1] * 60 + hms[2])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 9, item 10 and the key-prefix note: an error body that echoes
    /// part of the key, or carries escape sequences, is shown neither way.
    #[test]
    fn item_10_error_text_is_redacted_and_has_no_escapes() {
        let key = "sk-test-0123456789abcdef";
        assert_eq!(
            redact_key("bad key sk-test-0123… try again", key),
            "bad key <redacted>… try again"
        );
        assert_eq!(redact_key("key 89abcdef!", key), "key <redacted>!");
        assert_eq!(redact_key("the test went fine", key), "the test went fine");
        let cfg = crate::provider::LlmConfig {
            api_key: Some(key.into()),
            ..Default::default()
        };
        let c = LlmClient::new(cfg).unwrap();
        let shown = c.excerpt("oops \x1b]52;c;aGk=\x07 \x1b[2J sk-test-0123456");
        assert!(
            !shown.contains('\x1b') && !shown.contains('\x07'),
            "{shown:?}"
        );
        assert!(!shown.contains("0123456"), "{shown:?}");
    }

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = UNIX_EPOCH + Duration::from_secs(784_111_777); // Sun, 06 Nov 1994 08:49:37 GMT
        assert_eq!(parse_retry_after("1", now), Some(Duration::from_secs(1)));
        assert_eq!(
            parse_retry_after(" 2.5 ", now),
            Some(Duration::from_millis(2500))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:47 GMT", now),
            Some(Duration::from_secs(10))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("-3", now), None);
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(
            parse_retry_after("Sun, 06 Foo 1994 08:49:37 GMT", now),
            None
        );
        assert_eq!(parse_http_date("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            parse_http_date("Tue, 29 Feb 2000 12:00:00 GMT"),
            Some(951_825_600)
        );
    }

    #[test]
    fn completion_shapes() {
        let ok = r#"{"choices":[{"message":{"content":"{\"a\":1}"},"finish_reason":"stop"}],
                    "usage":{"prompt_tokens":12,"completion_tokens":3}}"#;
        let (content, usage) = parse_completion(ok, 10).unwrap();
        assert_eq!(content, r#"{"a":1}"#);
        assert_eq!(usage.prompt_tokens, Some(12));
        assert_eq!(usage.completion_tokens, Some(3));
        let cut = r#"{"choices":[{"message":{"content":"{\"a\":"},"finish_reason":"length"}]}"#;
        assert!(matches!(
            parse_completion(cut, 10),
            Err(LlmError::Truncated { max_tokens: 10 })
        ));
        let empty = r#"{"choices":[{"message":{"content":null},"finish_reason":"stop"}]}"#;
        assert!(matches!(
            parse_completion(empty, 10),
            Err(LlmError::Schema { .. })
        ));
        assert!(matches!(
            parse_completion("{}", 10),
            Err(LlmError::Schema { .. })
        ));
        assert!(matches!(
            parse_completion("<html>", 10),
            Err(LlmError::Parse { .. })
        ));
    }

    #[test]
    fn embedding_shapes() {
        let ok = r#"{"data":[{"index":1,"embedding":[3,4]},{"index":0,"embedding":[1,0.5]}]}"#;
        assert_eq!(
            parse_embeddings(ok, 2).unwrap(),
            vec![vec![1.0, 0.5], vec![3.0, 4.0]]
        );
        let no_index = r#"{"data":[{"embedding":[1]},{"embedding":[2]}]}"#;
        assert_eq!(
            parse_embeddings(no_index, 2).unwrap(),
            vec![vec![1.0], vec![2.0]]
        );
        for bad in [
            r#"{"data":[{"index":0,"embedding":[1]}]}"#,
            r#"{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[2]}]}"#,
            r#"{"data":[{"index":0,"embedding":[1]},{"index":5,"embedding":[2]}]}"#,
            r#"{"data":[{"index":0,"embedding":[1]},{"index":1,"embedding":[2,3]}]}"#,
            r#"{"data":[{"index":0,"embedding":"AAAA"},{"index":1,"embedding":[2]}]}"#,
            r#"{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[]}]}"#,
            r#"{"object":"list"}"#,
        ] {
            assert!(
                matches!(parse_embeddings(bad, 2), Err(LlmError::Schema { .. })),
                "{bad}"
            );
        }
        assert!(matches!(
            parse_embeddings("<html>", 2),
            Err(LlmError::Parse { .. })
        ));
    }

    #[test]
    fn bad_settings_are_reported() {
        let bad = LlmConfig {
            base_url: "localhost:8080".into(),
            ..LlmConfig::default()
        };
        let e = LlmClient::new(bad).unwrap_err().to_string();
        assert!(e.contains("http://"), "{e}");
    }
}
