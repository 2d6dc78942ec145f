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
    pub llm: crate::llm::LlmConfig,
    pub embedder: EmbedderKind,
    pub embed: crate::embed::EmbedConfig,
    pub chunk: ChunkConfig,
    pub retrieve: RetrieveConfig,
    pub gate: GateConfig,
    pub budget: BudgetConfig,
    pub extract: ExtractConfig,
    pub validate: crate::validate::ValidateConfig,
    pub limits: LimitsConfig,
    /// The config file set `gate.min_top_score` (else the embedder's
    /// calibrated value applies: [`Config::settle`]).
    #[serde(skip)]
    pub min_top_score_set: bool,
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
            limits: Default::default(),
            min_top_score_set: false,
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
#[serde(default)]
pub struct LimitsConfig {
    pub max_file_mb: u64,
    pub max_text_mb: u64,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        let l = crate::ingest::Limits::default();
        LimitsConfig {
            max_file_mb: l.max_file_bytes >> 20,
            max_text_mb: (l.max_text_bytes >> 20) as u64,
        }
    }
}

impl LimitsConfig {
    pub fn limits(&self) -> crate::ingest::Limits {
        crate::ingest::Limits {
            max_file_bytes: self.max_file_mb << 20,
            max_text_bytes: (self.max_text_mb << 20) as usize,
        }
    }
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
        let mut config: Config = toml::from_str(&text)
            .with_context(|| format!("the config file {} is not valid", path.display()))?;
        config.min_top_score_set = text
            .parse::<toml::Table>()
            .ok()
            .and_then(|t| t.get("gate")?.get("min_top_score").cloned())
            .is_some();
        Ok(config)
    }

    /// Once the embedder is chosen (file, then flags): unless the file set
    /// it, the gate's minimum evidence is the one calibrated for that
    /// embedder, whose similarities have their own scale.
    pub fn settle(&mut self) {
        if !self.min_top_score_set {
            self.gate.min_top_score = self.embedder.calibrated_min_top_score();
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

    #[test]
    fn the_gate_threshold_follows_the_embedder_unless_the_file_sets_it() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain.toml");
        std::fs::write(&plain, "embedder = \"minilm\"\n").unwrap();
        let mut c = Config::load(Some(&plain)).unwrap();
        c.settle();
        assert_eq!(c.gate.min_top_score, 0.1);
        c.embedder = EmbedderKind::Builtin;
        c.settle();
        assert_eq!(c.gate.min_top_score, 0.2);

        let set = dir.path().join("set.toml");
        std::fs::write(&set, "embedder = \"minilm\"\n[gate]\nmin_top_score = 0.3\n").unwrap();
        let mut c = Config::load(Some(&set)).unwrap();
        c.settle();
        assert_eq!(c.gate.min_top_score, 0.3);
    }
}
