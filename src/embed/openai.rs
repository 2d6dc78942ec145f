//! The `openai` embedder: any OpenAI-compatible `/embeddings` endpoint
//! (OpenAI, llama.cpp's server, vLLM, Ollama), through [`LlmClient`] so that
//! it shares the LLM's base URL, key, timeouts and retry policy.

use super::{Embedder, normalize};
use crate::provider::{LlmClient, LlmConfig, block_on};
use anyhow::{Context, Result, ensure};

/// Texts per request unless configured otherwise.
pub const DEFAULT_BATCH: usize = 64;

/// Embeddings from an OpenAI-compatible server.
#[derive(Debug)]
pub struct OpenAiEmbedder {
    client: LlmClient,
    model: String,
    id: String,
    dim: usize,
    batch: usize,
}

impl OpenAiEmbedder {
    /// Connect with `llm` (base URL, key, timeouts, retries) and embed one
    /// short text with `model` to learn the dimension.
    ///
    /// Sync: runs on [`block_on`]'s runtime, so it must not be called from
    /// async code.
    pub fn new(llm: &LlmConfig, model: &str, batch: usize) -> Result<Self> {
        let model = model.trim();
        ensure!(
            !model.is_empty(),
            "no embedding model name (set openai_model in the [embed] table of the config file)"
        );
        let client = LlmClient::new(llm.clone())?;
        let probe = block_on(client.embeddings(model, &["dimension probe"]))
            .with_context(|| format!("probing the embedding model {model:?}"))?;
        let dim = probe.first().map_or(0, Vec::len);
        ensure!(
            dim > 0,
            "the embedding model {model:?} returned an empty vector"
        );
        Ok(Self {
            client,
            model: model.to_string(),
            id: format!("openai:{model}"),
            dim,
            batch: batch.max(1),
        })
    }

    /// The endpoint requests go to.
    pub fn url(&self) -> String {
        self.client.embeddings_url()
    }
}

impl Embedder for OpenAiEmbedder {
    fn id(&self) -> &str {
        &self.id
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let mut out = vec![vec![0.0; self.dim]; texts.len()];
        // Servers reject empty inputs: blank texts stay all zeros.
        let todo: Vec<usize> = (0..texts.len())
            .filter(|&i| !texts[i].trim().is_empty())
            .collect();
        for group in todo.chunks(self.batch) {
            let inputs: Vec<&str> = group.iter().map(|&i| texts[i]).collect();
            let vectors = block_on(self.client.embeddings(&self.model, &inputs))?;
            for (&i, mut v) in group.iter().zip(vectors) {
                ensure!(
                    v.len() == self.dim,
                    "the embedding model {:?} returned {} dimensions, not {} as before",
                    self.model,
                    v.len(),
                    self.dim
                );
                normalize(&mut v);
                out[i] = v;
            }
        }
        Ok(out)
    }
}
