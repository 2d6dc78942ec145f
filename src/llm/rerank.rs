//! The LLM reranker: each candidate scored 0–3 by one small call, a few
//! calls in flight at once. Any failure means no scores at all: the caller
//! keeps retrieval scores and the gate uses the retrieval tier.

use super::parse::parse_score;
use super::prompts::Prompts;
use crate::chunk::Chunk;
use crate::provider::{LlmClient, Usage};
use futures::StreamExt;
use serde::Serialize;
use serde_json::{Value, json};

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RerankOutcome {
    /// One score (0–3) per chunk, in the order given; `None` when any call
    /// failed or gave no readable score.
    pub scores: Option<Vec<u8>>,
    /// Why there are no scores.
    pub error: Option<String>,
    /// The server did not answer at all (no connection, or no reply in
    /// time): the extraction that would follow would wait as long again.
    #[serde(skip)]
    pub unreachable: bool,
    /// Tokens of the calls that completed; latency of the whole rerank.
    pub usage: Usage,
}

/// The schema sent with `llm.json_schema` on.
pub fn score_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"score": {"type": "integer", "enum": [0, 1, 2, 3]}},
        "required": ["score"]
    })
}

/// Score every chunk against `question`, at most `concurrency` calls at
/// once. Stops at the first failure (calls still in flight are dropped).
pub async fn rerank(
    client: &LlmClient,
    question: &str,
    chunks: &[&Chunk],
    prompts: &Prompts,
    concurrency: usize,
) -> RerankOutcome {
    let started = std::time::Instant::now();
    let schema = score_schema();
    let max_chars = client.config().rerank_max_chars.max(1);
    let mut calls = futures::stream::iter(chunks.iter().enumerate().map(|(i, chunk)| {
        let message = prompts.rerank_message(question, chunk, max_chars);
        let schema = &schema;
        async move { (i, client.chat("", &message, Some(schema)).await) }
    }))
    .buffer_unordered(concurrency.max(1));

    let mut scores: Vec<Option<u8>> = vec![None; chunks.len()];
    let mut usage = Usage::default();
    let mut error: Option<String> = None;
    let mut unreachable = false;
    while let Some((i, result)) = calls.next().await {
        match result {
            Ok(reply) => {
                usage = usage + reply.usage;
                match parse_score(&reply.content) {
                    Some(s) => scores[i] = Some(s),
                    None => {
                        error = Some(format!(
                            "reranking {}: the model's score is not 0–3: {:?}",
                            chunks[i].id,
                            client.redact(&reply.content.chars().take(80).collect::<String>())
                        ));
                        break;
                    }
                }
            }
            Err(e) => {
                unreachable = matches!(
                    e,
                    crate::provider::LlmError::Connect { .. }
                        | crate::provider::LlmError::Timeout { .. }
                );
                error = Some(format!("reranking {}: {e}", chunks[i].id));
                break;
            }
        }
    }
    drop(calls);
    usage.latency_ms = started.elapsed().as_millis() as u64;
    let scores = match error {
        Some(_) => None,
        None => scores.into_iter().collect::<Option<Vec<u8>>>(),
    };
    RerankOutcome {
        scores,
        error,
        unreachable,
        usage,
    }
}
