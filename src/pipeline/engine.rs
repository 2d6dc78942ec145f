//! The engines that propose snippets: the built-in extractive engine and an
//! OpenAI-compatible LLM. The pipeline asks an [`Engine`] for the stages
//! that differ between them (rerank, prompt overhead, extraction, the
//! support judge's refinement) and does everything else itself: retrieval,
//! the gate, validation and support stay in code and are no engine's
//! business. Which engine runs is decided once, in [`build`].

use crate::answer::Claim;
use crate::chunk::Chunk;
use crate::config::{Config, EngineKind};
use crate::embed::Embedder;
use crate::extract::{self, Extraction};
use crate::llm::{self, LlmClient, Prompts, RerankOutcome};
use crate::provider::{Cancel, ExtractionMode, Usage, block_on_until};
use anyhow::Result;

/// What an engine extracts from: the kept chunks and the question, with
/// what retrieval learnt about it.
pub struct ExtractInput<'a> {
    pub question: &'a str,
    pub chunks: &'a [&'a Chunk],
    /// Analysed query terms with their IDF.
    pub terms: &'a [(String, f32)],
    /// The index's analyser (stemming, folding), as BM25 saw the text.
    pub analyze: &'a dyn Fn(&str) -> Vec<String>,
    pub embedder: Option<&'a dyn Embedder>,
    pub query_vector: Option<&'a [f32]>,
    pub config: &'a Config,
}

/// One way of proposing snippets for a question.
pub trait Engine: Send + Sync {
    /// Shown in the outcome and the audit log: "extractive", "llm:MODEL".
    fn name(&self) -> String;

    /// Deterministic and offline: the same question always gives the same
    /// snippets, so eval may run it past the gate once and re-gate offline.
    fn deterministic(&self) -> bool {
        false
    }

    /// Score each chunk 0–3 for the gate, or `None` when this engine does
    /// not rerank (the gate then uses retrieval scores).
    fn rerank(
        &self,
        _question: &str,
        _chunks: &[&Chunk],
        _cancel: Option<&Cancel>,
    ) -> Result<Option<RerankOutcome>> {
        Ok(None)
    }

    /// Tokens the prompt takes besides the chunks (the budget's overhead).
    fn prompt_overhead(&self, _question: &str) -> usize {
        0
    }

    /// Tokens one chunk takes in the prompt.
    fn chunk_tokens(&self, chunk: &Chunk) -> usize {
        crate::budget::chunk_tokens(chunk)
    }

    /// Propose snippets (unvalidated) and a summary citing them.
    fn extract(
        &self,
        input: &ExtractInput<'_>,
        cancel: Option<&Cancel>,
    ) -> Result<(Extraction, Usage)>;

    /// Refine the deterministic support labels of `claims` against the
    /// source words of the quotes they cite; never overrules `contradicts`.
    fn refine_support(
        &self,
        _claims: &mut [Claim],
        _quotes: &[Option<(&str, &str)>],
        _cancel: Option<&Cancel>,
    ) -> Usage {
        Usage::default()
    }
}

/// The built-in extractive engine: no network, no reranker.
pub struct Extractive;

impl Engine for Extractive {
    fn name(&self) -> String {
        "extractive".into()
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn extract(
        &self,
        i: &ExtractInput<'_>,
        _cancel: Option<&Cancel>,
    ) -> Result<(Extraction, Usage)> {
        let cfg = extract::ExtractConfig {
            min_words: i.config.validate.min_words,
            ..i.config.extract
        };
        let ex = extract::extractive(
            i.chunks,
            i.question,
            i.terms,
            i.analyze,
            i.embedder,
            i.query_vector,
            &cfg,
        )?;
        Ok((ex, Usage::default()))
    }
}

/// An OpenAI-compatible chat model: extraction in JSON mode, reranking
/// unless `rerank` is off, and the support judge.
pub struct LlmEngine {
    pub client: LlmClient,
    pub prompts: Prompts,
    pub rerank: bool,
}

impl LlmEngine {
    fn mode(&self) -> ExtractionMode {
        self.client.config().extraction
    }
}

impl Engine for LlmEngine {
    fn name(&self) -> String {
        let c = self.client.config();
        match c.extraction {
            ExtractionMode::Snippets => format!("llm:{}", c.model),
            ExtractionMode::Pointers => format!("llm:{} (pointers)", c.model),
        }
    }

    fn rerank(
        &self,
        question: &str,
        chunks: &[&Chunk],
        cancel: Option<&Cancel>,
    ) -> Result<Option<RerankOutcome>> {
        if !self.rerank || chunks.is_empty() {
            return Ok(None);
        }
        let concurrency = self.client.config().rerank_concurrency;
        let r = block_on_until(
            llm::rerank(&self.client, question, chunks, &self.prompts, concurrency),
            cancel,
        )?;
        Ok(Some(r))
    }

    fn prompt_overhead(&self, question: &str) -> usize {
        match self.mode() {
            ExtractionMode::Snippets => self.prompts.overhead_tokens(question),
            ExtractionMode::Pointers => self.prompts.pointers_overhead_tokens(question),
        }
    }

    fn chunk_tokens(&self, chunk: &Chunk) -> usize {
        match self.mode() {
            ExtractionMode::Snippets => crate::budget::chunk_tokens(chunk),
            ExtractionMode::Pointers => {
                crate::text::count_tokens(&llm::pointers::format_chunk_numbered(chunk))
            }
        }
    }

    fn extract(
        &self,
        i: &ExtractInput<'_>,
        cancel: Option<&Cancel>,
    ) -> Result<(Extraction, Usage)> {
        let r = block_on_until(
            llm::llm_extract(&self.client, i.question, i.chunks, &self.prompts),
            cancel,
        )??;
        Ok(r)
    }

    fn refine_support(
        &self,
        claims: &mut [Claim],
        quotes: &[Option<(&str, &str)>],
        cancel: Option<&Cancel>,
    ) -> Usage {
        llm::support::refine(&self.client, &self.prompts, cancel, claims, quotes)
    }
}

/// The engine `config` asks for, with warnings about its prompts (a prompt
/// file that could not be read falls back to the built-in prompt).
pub fn build(config: &Config) -> Result<(Box<dyn Engine>, Vec<String>)> {
    Ok(match config.engine {
        EngineKind::Extractive => (Box::new(Extractive), Vec::new()),
        EngineKind::Llm => {
            let client = LlmClient::new(config.llm.clone())?;
            let (prompts, warnings) = Prompts::for_config(&config.llm);
            let engine = LlmEngine {
                client,
                prompts,
                rerank: config.rerank,
            };
            (Box::new(engine), warnings)
        }
    })
}
