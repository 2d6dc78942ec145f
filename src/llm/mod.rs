//! The LLM stages: extraction (stage 9), reranking (stage 6) and the support
//! judge, through chat completions in JSON object mode.
//!
//! Works with OpenAI, llama.cpp's server, llama-cpp-python, vLLM and Ollama.
//! The HTTP client, its settings, the runtime and cancellation live in
//! [`crate::provider`] (re-exported here); the sync pipeline drives these
//! async functions with [`block_on`].

mod parse;
pub mod pointers;
mod prompts;
mod rerank;
pub mod support;

pub use crate::provider::{
    Cancel, Cancelled, ChatReply, ExtractionMode, LlmClient, LlmConfig, LlmError, Usage, block_on,
    block_on_until, parse_retry_after,
};
pub use parse::{first_json_object, parse_extraction, parse_score};
pub use prompts::{Prompts, fill};
pub use rerank::{RerankOutcome, rerank, score_schema};

use crate::chunk::Chunk;
use crate::extract::{Extraction, MAX_SNIPPETS};
use serde_json::{Value, json};

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

/// Ask the model for verbatim snippets answering `question` from `chunks`,
/// in the client's `extraction` mode: the model copies each quote's text
/// (`snippets`), or names ranges of numbered sentences whose text is taken
/// from the source ([`pointers`]).
///
/// The snippets are not validated here. With no chunks, returns
/// `noResults` without a call.
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
    match client.config().extraction {
        ExtractionMode::Snippets => {
            let user = prompts.user_message(question, chunks);
            let schema = extraction_schema();
            let reply = client.chat(&prompts.system, &user, Some(&schema)).await?;
            let extraction =
                parse_extraction(&reply.content).map_err(|e| client.redact_error(e))?;
            Ok((extraction, reply.usage))
        }
        ExtractionMode::Pointers => {
            let numbered = pointers::Numbered::new(chunks);
            let user = prompts.pointers_message(question, &numbered.context());
            let schema = pointers::schema(&numbered.ids());
            let reply = client
                .chat(&prompts.pointers_system, &user, Some(&schema))
                .await?;
            let parsed =
                pointers::parse_pointers(&reply.content).map_err(|e| client.redact_error(e))?;
            Ok((numbered.resolve(parsed), reply.usage))
        }
    }
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
