//! Settings: defaults, layered with a TOML file (`--config FILE`, or
//! `research-board/config.toml` in the platform config directory).

use crate::budget::BudgetConfig;
use crate::chunk::ChunkConfig;
use crate::embed::EmbedderKind;
use crate::extract::ExtractConfig;
use crate::gate::GateConfig;
use crate::retrieve::RetrieveConfig;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// `extractive` (default, offline) or `llm`.
    pub engine: EngineKind,
    /// Use the LLM to rerank candidates when the engine is `llm`.
    pub rerank: bool,
    pub llm: crate::provider::LlmConfig,
    pub embedder: EmbedderKind,
    pub embed: crate::embed::EmbedConfig,
    pub chunk: ChunkConfig,
    pub retrieve: RetrieveConfig,
    pub gate: GateConfig,
    pub budget: BudgetConfig,
    pub extract: ExtractConfig,
    pub validate: crate::validate::ValidateConfig,
    pub support: crate::support::SupportConfig,
    pub limits: LimitsConfig,
    /// `[cite]`: the bibliography and the citation style.
    pub cite: crate::cite::CiteConfig,
    /// The `[gate]` keys the config file set: the embedder's calibrated
    /// value applies to the others ([`Config::settle`]).
    #[serde(skip)]
    pub gate_keys_set: Vec<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            engine: EngineKind::Extractive,
            rerank: true,
            llm: Default::default(),
            embedder: Default::default(),
            embed: Default::default(),
            chunk: Default::default(),
            retrieve: Default::default(),
            gate: Default::default(),
            budget: Default::default(),
            extract: Default::default(),
            validate: Default::default(),
            support: Default::default(),
            limits: Default::default(),
            cite: Default::default(),
            gate_keys_set: Vec::new(),
        }
    }
}

/// Which extractor answers questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// Built in, offline: selects whole sentences from the sources.
    #[default]
    Extractive,
    /// An OpenAI-compatible chat model (OpenAI, llama.cpp, vLLM, Ollama).
    Llm,
}

impl std::str::FromStr for EngineKind {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "extractive" => Ok(Self::Extractive),
            "llm" => Ok(Self::Llm),
            other => Err(format!(
                "unknown engine '{other}' (expected: extractive, llm)"
            )),
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitsConfig {
    pub max_file_mb: u64,
    pub max_text_mb: u64,
    /// Seconds a PDF or Word file's parser may run before it is stopped.
    pub parse_timeout_s: u64,
    /// Memory (MB of address space) a PDF or Word file's parser may use.
    pub parse_memory_mb: u64,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        let l = crate::ingest::Limits::default();
        LimitsConfig {
            max_file_mb: l.max_file_bytes >> 20,
            max_text_mb: (l.max_text_bytes >> 20) as u64,
            parse_timeout_s: l.worker_timeout.as_secs(),
            parse_memory_mb: l.worker_memory_bytes >> 20,
        }
    }
}

impl LimitsConfig {
    pub fn limits(&self) -> crate::ingest::Limits {
        crate::ingest::Limits {
            max_file_bytes: self.max_file_mb << 20,
            max_text_bytes: (self.max_text_mb << 20) as usize,
            worker_timeout: std::time::Duration::from_secs(self.parse_timeout_s),
            worker_memory_bytes: self.parse_memory_mb << 20,
        }
    }
}

/// `name = value` must lie in `lo..=hi`.
fn in_range<T: PartialOrd + std::fmt::Display>(name: &str, v: T, lo: T, hi: T) -> Result<()> {
    if v < lo || v > hi || v.partial_cmp(&v).is_none() {
        anyhow::bail!("{name} = {v} is out of range (allowed: {lo} to {hi})");
    }
    Ok(())
}

impl Config {
    /// The default config file location.
    pub fn default_path() -> Option<PathBuf> {
        directories::ProjectDirs::from("", "", "research-board")
            .map(|d| d.config_dir().join("config.toml"))
    }

    /// Load `path` if given (it must exist), else the default file if it
    /// exists, else the defaults.
    pub fn load(path: Option<&Path>) -> Result<Config> {
        let path = match path {
            Some(p) => p.to_path_buf(),
            None => match Self::default_path() {
                Some(p) if p.exists() => p,
                _ => return Ok(Config::default()),
            },
        };
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read the config file {}", path.display()))?;
        let mut config: Config = toml::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "the config file {} is not valid: {}",
                path.display(),
                crate::text::sanitize_for_terminal(e.message(), false)
            )
        })?;
        config
            .check()
            .with_context(|| format!("in the config file {}", path.display()))?;
        let table = text.parse::<toml::Table>().ok();
        if let Some(gate) = table.as_ref().and_then(|t| t.get("gate")?.as_table()) {
            config.gate_keys_set = gate.keys().cloned().collect();
        }
        Ok(config)
    }

    /// Every number within a range that the program can honour.
    pub fn check(&self) -> Result<()> {
        let r = &self.retrieve;
        in_range("retrieve.bm25_k", r.bm25_k, 0, 10_000)?;
        in_range("retrieve.vector_k", r.vector_k, 0, 10_000)?;
        in_range("retrieve.vector_ef", r.vector_ef, 1, 100_000)?;
        in_range("retrieve.pool", r.pool, 1, 10_000)?;
        in_range("retrieve.top_k", r.top_k, 1, 1_000)?;
        in_range("retrieve.bm25_weight", r.bm25_weight, 0.0, 1.0)?;
        in_range("retrieve.rrf_k", r.rrf_k, 0.0, 1e6)?;
        let c = &self.chunk;
        in_range("chunk.max_tokens", c.max_tokens, 16, 100_000)?;
        in_range(
            "chunk.hard_max_tokens",
            c.hard_max_tokens,
            c.max_tokens,
            1_000_000,
        )?;
        let l = &self.limits;
        in_range("limits.max_file_mb", l.max_file_mb, 1, 1 << 20)?;
        in_range("limits.max_text_mb", l.max_text_mb, 1, 1 << 20)?;
        in_range("limits.parse_timeout_s", l.parse_timeout_s, 1, 86_400)?;
        in_range("limits.parse_memory_mb", l.parse_memory_mb, 64, 1 << 30)?;
        let v = &self.validate;
        in_range("validate.fuzzy_threshold", v.fuzzy_threshold, 0.0, 1.0)?;
        in_range("validate.min_words", v.min_words, 1, 1_000)?;
        let b = &self.budget;
        in_range(
            "budget.max_prompt_tokens",
            b.max_prompt_tokens,
            256,
            100_000_000,
        )?;
        in_range(
            "budget.answer_reserve",
            b.answer_reserve,
            0,
            b.max_prompt_tokens,
        )?;
        let e = &self.extract;
        in_range("extract.max_snippets", e.max_snippets, 1, 64)?;
        in_range("extract.max_sentences", e.max_sentences, 1, 64)?;
        let g = &self.gate;
        in_range("gate.min_top_score", g.min_top_score, -1.0, 10.0)?;
        in_range("gate.advice_min_score", g.advice_min_score, -1.0, 10.0)?;
        in_range("gate.clear_winner_ratio", g.clear_winner_ratio, 0.0, 100.0)?;
        in_range("gate.rerank_threshold", g.rerank_threshold, 0, 3)?;
        let m = &self.llm;
        in_range("llm.max_attempts", m.max_attempts, 1, 100)?;
        in_range("llm.timeout_s", m.timeout_s, 0.001, 86_400.0)?;
        in_range(
            "llm.connect_timeout_s",
            m.connect_timeout_s,
            0.001,
            86_400.0,
        )?;
        in_range("llm.retry_after_cap_s", m.retry_after_cap_s, 0.0, 86_400.0)?;
        in_range("llm.rerank_concurrency", m.rerank_concurrency, 1, 256)?;
        Ok(())
    }

    /// Once the embedder is chosen (file, then flags): unless the file set
    /// them, the gate's minimum evidence, that for a question asking advice
    /// and that for "high" confidence are those calibrated for that
    /// embedder, whose similarities have their own scale.
    pub fn settle(&mut self) {
        let c = self.embedder.calibrated();
        let g = &mut self.gate;
        for (key, value, calibrated) in [
            ("min_top_score", &mut g.min_top_score, c.min_top_score),
            (
                "advice_min_score",
                &mut g.advice_min_score,
                c.advice_min_score,
            ),
            (
                "high_confidence_score",
                &mut g.high_confidence_score,
                c.high_confidence_score,
            ),
        ] {
            if !self.gate_keys_set.iter().any(|k| k == key) {
                *value = calibrated;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_file_layers_over_defaults_and_typos_are_errors() {
        let c: Config = toml::from_str("[gate]\nmin_top_score = 0.7\n").unwrap();
        assert_eq!(c.gate.min_top_score, 0.7);
        assert_eq!(c.retrieve.top_k, 5);
        assert!(toml::from_str::<Config>("[gaet]\nx = 1\n").is_err());
    }

    /// Issue 9, item 11: typos in nested tables and numbers out of range
    /// are errors with the key's name, not silent defaults or panics.
    #[test]
    fn item_11_nested_typos_and_out_of_range_numbers_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let load = |body: &str| {
            let p = dir.path().join("c.toml");
            std::fs::write(&p, body).unwrap();
            Config::load(Some(&p))
                .map(|_| ())
                .map_err(|e| format!("{e:#}"))
        };
        for (body, needle) in [
            ("[llm]\napikey = \"x\"\n", "apikey"),
            ("[validate]\nfuzzy_treshold = 0.5\n", "fuzzy_treshold"),
            ("[retrieve]\nbm25_k = 18446744073709551615\n", "bm25_k"),
            (
                "[retrieve]\nvector_ef = 18446744073709551615\n",
                "vector_ef",
            ),
            ("[limits]\nmax_file_mb = 17592186044416\n", "max_file_mb"),
            ("[validate]\nfuzzy_threshold = 1.5\n", "fuzzy_threshold"),
            ("[chunk]\nmax_tokens = 0\n", "max_tokens"),
        ] {
            let e = load(body).expect_err(body);
            assert!(e.contains(needle), "{body}: {e}");
        }
        // An escape sequence in the file never reaches the message raw.
        let e = load("[llm]\nmodel = \"\u{1b}]52;c;aGk=\u{7}\n").map(|_| String::new());
        if let Err(e) = e {
            assert!(!e.contains('\u{1b}'), "{e:?}");
        }
        assert!(load("[limits]\nmax_file_mb = 100\n").is_ok());
    }

    #[test]
    fn the_gate_threshold_follows_the_embedder_unless_the_file_sets_it() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain.toml");
        std::fs::write(&plain, "embedder = \"minilm\"\n").unwrap();
        let mut c = Config::load(Some(&plain)).unwrap();
        c.settle();
        assert_eq!(c.gate.min_top_score, 0.1);
        // The advice threshold was calibrated on the built-in model's scale.
        assert_eq!(c.gate.advice_min_score, 0.0);
        assert_eq!(c.gate.high_confidence_score, 0.65);
        c.embedder = EmbedderKind::Builtin;
        c.settle();
        assert_eq!(c.gate.min_top_score, 0.21);
        assert_eq!(c.gate.advice_min_score, 0.45);
        assert_eq!(c.gate.high_confidence_score, 0.55);

        let set = dir.path().join("set.toml");
        std::fs::write(
            &set,
            "embedder = \"minilm\"\n[gate]\nmin_top_score = 0.3\nadvice_min_score = 0.2\nhigh_confidence_score = 0.7\n",
        )
        .unwrap();
        let mut c = Config::load(Some(&set)).unwrap();
        c.settle();
        assert_eq!(c.gate.min_top_score, 0.3);
        assert_eq!(c.gate.advice_min_score, 0.2);
        assert_eq!(c.gate.high_confidence_score, 0.7);
    }
}
