//! The OpenAI-compatible LLM provider: extraction (stage 9) and reranking
//! (stage 6) through chat completions in JSON object mode.
//!
//! Works with OpenAI, llama.cpp's server, llama-cpp-python, vLLM and Ollama.
//! The async functions are for the TUI's runtime; the sync pipeline wraps
//! them in [`block_on`].

mod client;
mod config;
mod parse;
mod prompts;
mod rerank;
pub mod support;

pub use client::{ChatReply, LlmClient, LlmError, Usage, parse_retry_after};
pub use config::LlmConfig;
pub use parse::{first_json_object, parse_extraction, parse_score};
pub use prompts::{Prompts, fill};
pub use rerank::{RerankOutcome, rerank, score_schema};

use crate::chunk::Chunk;
use crate::extract::{Extraction, MAX_SNIPPETS};
use serde_json::{Value, json};
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The schema sent with `llm.json_schema` on (llama-cpp-python's extension).
pub fn extraction_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "snippets": {
                "type": "array",
                "maxItems": MAX_SNIPPETS,
                "items": {
                    "type": "object",
                    "properties": {
                        "content": {"type": "string"},
                        "sourceId": {"type": "string"},
                        "sourceTitle": {"type": "string"},
                        "sourceLocation": {"type": "string"},
                        "relevance": {"type": "number"}
                    },
                    "required": ["content", "sourceId", "sourceTitle", "sourceLocation", "relevance"]
                }
            },
            "summary": {"type": "string"},
            "noResults": {"type": "boolean"}
        },
        "required": ["snippets", "summary", "noResults"]
    })
}

/// Ask the model for verbatim snippets answering `question` from `chunks`.
///
/// The snippets are what the model wrote (`span: None`): they are not
/// validated here. With no chunks, returns `noResults` without a call.
pub async fn llm_extract(
    client: &LlmClient,
    question: &str,
    chunks: &[&Chunk],
    prompts: &Prompts,
) -> Result<(Extraction, Usage), LlmError> {
    if chunks.is_empty() {
        let none = Extraction {
            snippets: Vec::new(),
            summary: String::new(),
            no_results: true,
        };
        return Ok((none, Usage::default()));
    }
    let user = prompts.user_message(question, chunks);
    let schema = extraction_schema();
    let reply = client.chat(&prompts.system, &user, Some(&schema)).await?;
    let extraction = parse_extraction(&reply.content).map_err(|e| client.redact_error(e))?;
    Ok((extraction, reply.usage))
}

/// Run `f` to completion on a small runtime kept for the life of the
/// process (one worker thread, started on first use), from sync code.
///
/// Must not be called from async code (tokio panics: "Cannot start a
/// runtime from within a runtime"); from another runtime's blocking pool
/// (`spawn_blocking`, as the TUI does) it is fine. Keeping one runtime,
/// rather than one per call, keeps an [`LlmClient`]'s pooled connections
/// usable across calls.
pub fn block_on<F: Future>(f: F) -> F::Output {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("llm-io")
                .enable_all()
                .build()
                .expect("cannot start the tokio runtime for LLM calls")
        })
        .block_on(f)
}

/// A switch to abandon the LLM calls of one question (the board's Esc):
/// the request in flight is dropped, which closes its connection.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// The question was cancelled while an LLM call was in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cancelled")]
pub struct Cancelled;

/// [`block_on`], abandoning `f` as soon as `cancel` is set.
pub fn block_on_until<F: Future>(f: F, cancel: Option<&Cancel>) -> Result<F::Output, Cancelled> {
    let Some(c) = cancel else {
        return Ok(block_on(f));
    };
    block_on(async {
        tokio::select! {
            r = f => Ok(r),
            _ = async {
                while !c.is_cancelled() {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            } => Err(Cancelled),
        }
    })
}

#[cfg(test)]
mod schema_tests {
    /// Grammar-constrained servers generate keys in schema order: the
    /// snippets must come before `noResults`, or a small model settles the
    /// answer ("noResults": false, "snippets": []) before quoting anything.
    #[test]
    fn schema_asks_for_snippets_first() {
        let s = super::extraction_schema().to_string();
        let snippets = s.find("\"snippets\"").unwrap();
        assert!(snippets < s.find("\"summary\"").unwrap());
        assert!(snippets < s.find("\"noResults\"").unwrap());
        let item = s.find("\"content\"").unwrap();
        assert!(item < s.find("\"sourceId\"").unwrap());
    }
}
