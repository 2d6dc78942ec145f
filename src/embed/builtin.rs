//! The builtin semantic embedder: a static token table distilled from
//! all-MiniLM-L6-v2, in the style of Model2Vec.
//!
//! `scripts/distill-builtin.py` ran every WordPiece token of the teacher through
//! the full transformer (`[CLS] t [SEP]`, mean-pooled), reduced the table to 256
//! dimensions with PCA and folded a Zipf/SIF weight into each row.  Embedding a
//! text here is therefore: BERT-uncased tokenisation (BasicTokenizer +
//! WordPiece, reimplemented in `wordpiece.rs`), the mean of the rows of its
//! tokens, L2 normalisation.  No transformer runs at query time.
//!
//! Model file (`models/builtin-minilm-256.bin`, all integers little-endian):
//!
//! ```text
//! 8 bytes   magic "RBEMB001"
//! u32       vocab size V   (row i is token id i of the teacher's tokenizer.json)
//! u32       dim D
//! V times:  u16 byte length + UTF-8 bytes of the token ("##" marks a continuation)
//! V*D f16   IEEE-754 binary16, row-major
//! ```
//!
//! Tokeniser settings are those of the teacher's `tokenizer.json` (see
//! `wordpiece.rs`).
//!
//! The table compiled in is v3: `scripts/tokenlearn-builtin.py` started from
//! that distilled table and moved its rows so that the static vectors of
//! 361,000 general-English texts (WordNet glosses, GCIDE dictionary entries)
//! have the teacher's cosines with each other. The format and the way a
//! text is embedded are unchanged; scores run on another scale, so the
//! gate's thresholds for this model were calibrated again
//! (`EmbedderKind::calibrated`), and the id changed so an index built with
//! an earlier table is rebuilt.

use super::wordpiece::{VocabBuilder, WordPiece};
use super::{Embedder, normalize};
use anyhow::{Context, Result, anyhow, bail, ensure};

const MAGIC: &[u8; 8] = b"RBEMB001";
const CLS: &str = "[CLS]";
const SEP: &str = "[SEP]";

static DEFAULT_MODEL: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/models/builtin-minilm-256.bin"
));

/// The id an index records for this model at `dim` dimensions.
fn model_id(dim: usize) -> String {
    format!("builtin-minilm-static-v3-{dim}")
}

/// Static-embedding model distilled from all-MiniLM-L6-v2 (256 dimensions).
pub struct BuiltinEmbedder {
    id: String,
    dim: usize,
    /// The WordPiece tokenizer over the model's vocabulary.
    tokenizer: WordPiece,
    /// `vocab_size * dim` weights, row-major, decoded from f16.
    matrix: Vec<f32>,
    /// Each row's length (its SIF weight), computed once.
    norms: Vec<f32>,
    /// Ids never averaged: `[UNK]`, `[CLS]`, `[SEP]` (the last two when present).
    skip: [u32; 3],
}

impl std::fmt::Debug for BuiltinEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinEmbedder")
            .field("id", &self.id)
            .field("dim", &self.dim)
            .field("vocab", &self.tokenizer.vocab_size())
            .finish()
    }
}

impl BuiltinEmbedder {
    /// The model compiled into the binary (`models/builtin-minilm-256.bin`).
    pub fn load_default() -> Result<Self> {
        Self::from_bytes(DEFAULT_MODEL).context("loading the builtin embedding model")
    }

    /// Parse a model file in the `RBEMB001` format (see the module docs).
    /// Truncated or corrupt input is an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader { bytes, pos: 0 };
        let magic = r.take(8, "magic")?;
        ensure!(
            magic == MAGIC,
            "not a builtin embedding model: magic is {:?}, expected \"RBEMB001\"",
            String::from_utf8_lossy(magic)
        );
        let vocab_size = r.u32("vocab size")? as usize;
        let dim = r.u32("dimension")? as usize;
        ensure!(vocab_size > 0, "corrupt model: vocab size is 0");
        ensure!(
            (1..=65_536).contains(&dim),
            "corrupt model: dimension {dim} out of range"
        );
        // Each vocab entry takes at least 2 bytes: reject absurd sizes before allocating.
        ensure!(
            vocab_size <= bytes.len() / 2,
            "corrupt model: vocab size {vocab_size} exceeds what a {}-byte file can hold",
            bytes.len()
        );

        let mut vocab = VocabBuilder::with_capacity(vocab_size);
        for i in 0..vocab_size {
            let what = || format!("vocab entry {i} of {vocab_size}");
            let len = r.u16(&what())? as usize;
            let raw = r.take(len, &what())?;
            let s = std::str::from_utf8(raw)
                .map_err(|e| anyhow!("corrupt model: {} is not UTF-8: {e}", what()))?;
            ensure!(!s.is_empty(), "corrupt model: {} is empty", what());
            vocab.push(s).map_err(|e| anyhow!("corrupt model: {e}"))?;
        }

        let n = vocab_size
            .checked_mul(dim)
            .context("corrupt model: vocab size * dimension overflows")?;
        let need = n
            .checked_mul(2)
            .context("corrupt model: matrix size overflows")?;
        let raw = r.take(need, "weight matrix")?;
        ensure!(
            r.pos == bytes.len(),
            "corrupt model: {} unexpected trailing bytes after the weight matrix",
            bytes.len() - r.pos
        );
        let mut matrix = Vec::with_capacity(n);
        for (k, h) in raw.chunks_exact(2).enumerate() {
            let v = f16_to_f32(u16::from_le_bytes([h[0], h[1]]));
            ensure!(
                v.is_finite(),
                "corrupt model: non-finite weight at row {} column {}",
                k / dim,
                k % dim
            );
            matrix.push(v);
        }

        let tokenizer = vocab.build().map_err(|e| anyhow!("corrupt model: {e}"))?;
        let unk = tokenizer.unk();
        let skip = [
            unk,
            tokenizer.id(CLS).unwrap_or(unk),
            tokenizer.id(SEP).unwrap_or(unk),
        ];
        let norms = matrix
            .chunks_exact(dim)
            .map(|r| super::dot(r, r).sqrt())
            .collect();
        Ok(Self {
            id: model_id(dim),
            dim,
            tokenizer,
            matrix,
            norms,
            skip,
        })
    }

    /// The model's WordPiece tokenizer, without the weights.
    pub fn into_tokenizer(self) -> WordPiece {
        self.tokenizer
    }

    /// Vocabulary size.
    pub fn vocab_size(&self) -> usize {
        self.tokenizer.vocab_size()
    }

    /// The token string for `id`, if it is in the vocabulary.
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokenizer.token(id)
    }

    /// BERT-uncased token ids of `text`, without `[CLS]`/`[SEP]`.
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        self.tokenizer.tokenize(text)
    }

    /// Row `id` of the table.
    fn row(&self, id: u32) -> &[f32] {
        let start = id as usize * self.dim;
        &self.matrix[start..start + self.dim]
    }

    /// The token ids of `text` that carry meaning, each once.
    fn token_set(&self, text: &str) -> Vec<u32> {
        let mut ids = Vec::new();
        self.tokenizer.for_each_token(text, |id| {
            if !self.skip.contains(&id) {
                ids.push(id);
            }
        });
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// [`Embedder::token_matches`]: a query token's weight is its row's
    /// length (the SIF weight folded into the table), and the cosine of two
    /// tokens is computed once per distinct token of all `texts`.
    pub fn token_matches(&self, query: &str, texts: &[&str]) -> super::TokenMatches {
        let query: Vec<(&[f32], f32)> = self
            .token_set(query)
            .into_iter()
            .map(|id| (self.row(id), self.norms[id as usize]))
            .filter(|(_, n)| *n > 0.0)
            .collect();
        let q = query.len();
        // Each distinct token's cosines with the question's tokens, `q` at a
        // time in `cosines`, the k-th token seen at `k * q`; `slot[id]` is
        // k + 1 (0 = not seen yet).
        let mut slot: Vec<u32> = Vec::new();
        let mut seen: u32 = 0;
        let mut cosines: Vec<f32> = Vec::new();
        let best = texts
            .iter()
            .map(|t| {
                let mut best = vec![0.0f32; q];
                if q == 0 {
                    return best;
                }
                if slot.is_empty() {
                    slot = vec![0; self.norms.len()];
                }
                for id in self.token_set(t) {
                    let at = match slot[id as usize] {
                        0 => {
                            let (r, n) = (self.row(id), self.norms[id as usize]);
                            let at = cosines.len();
                            cosines.extend(query.iter().map(|(qr, qn)| {
                                if n > 0.0 {
                                    super::dot(qr, r) / (qn * n)
                                } else {
                                    0.0
                                }
                            }));
                            seen += 1;
                            slot[id as usize] = seen;
                            at
                        }
                        k => (k as usize - 1) * q,
                    };
                    for (b, c) in best.iter_mut().zip(&cosines[at..at + q]) {
                        *b = b.max(*c);
                    }
                }
                best
            })
            .collect();
        super::TokenMatches {
            weights: query.iter().map(|(_, n)| *n).collect(),
            best,
        }
    }

    /// Embed one text: normalise(mean of its token rows); zeros if it has no
    /// known token.
    pub fn embed_one(&self, text: &str) -> Vec<f32> {
        // Scaling by 1/count does not change the direction: normalising the
        // sum gives the normalised mean (and leaves a text of no token zero).
        let mut sum = self.token_sum(text);
        normalize(&mut sum);
        sum
    }

    /// The sum of the rows of a text's tokens ([`Embedder::token_sums`]).
    fn token_sum(&self, text: &str) -> Vec<f32> {
        let mut sum = vec![0.0f32; self.dim];
        self.tokenizer.for_each_token(text, |id| {
            if !self.skip.contains(&id) {
                for (s, w) in sum.iter_mut().zip(self.row(id)) {
                    *s += w;
                }
            }
        });
        sum
    }
}

impl Embedder for BuiltinEmbedder {
    fn id(&self) -> &str {
        &self.id
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        Ok(texts.iter().map(|t| self.embed_one(t)).collect())
    }
    fn token_matches(&self, query: &str, texts: &[&str]) -> Option<super::TokenMatches> {
        Some(BuiltinEmbedder::token_matches(self, query, texts))
    }
    fn token_sums(&self, texts: &[&str]) -> Option<Vec<Vec<f32>>> {
        Some(texts.iter().map(|t| self.token_sum(t)).collect())
    }
}

/// The compiled-in model, loaded on its first use: an update that embeds
/// nothing, which is most updates of a folder being watched, and a process
/// that only opens an index do not pay for decoding its 31 MB of weights.
pub struct LazyBuiltin {
    id: String,
    dim: usize,
    model: std::sync::OnceLock<Result<BuiltinEmbedder, String>>,
}

impl LazyBuiltin {
    /// Reads only the compiled-in model's header (its dimension).
    pub fn new() -> Result<Self> {
        let mut r = Reader {
            bytes: DEFAULT_MODEL,
            pos: 0,
        };
        ensure!(
            r.take(8, "magic")? == MAGIC,
            "not a builtin embedding model"
        );
        r.u32("vocab size")?;
        let dim = r.u32("dimension")? as usize;
        Ok(LazyBuiltin {
            id: model_id(dim),
            dim,
            model: std::sync::OnceLock::new(),
        })
    }

    fn model(&self) -> Result<&BuiltinEmbedder> {
        self.model
            .get_or_init(|| BuiltinEmbedder::load_default().map_err(|e| format!("{e:#}")))
            .as_ref()
            .map_err(|e| anyhow!("{e}"))
    }
}

impl Embedder for LazyBuiltin {
    fn id(&self) -> &str {
        &self.id
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        self.model()?.embed(texts)
    }
    fn token_matches(&self, query: &str, texts: &[&str]) -> Option<super::TokenMatches> {
        Some(self.model().ok()?.token_matches(query, texts))
    }
    fn token_sums(&self, texts: &[&str]) -> Option<Vec<Vec<f32>>> {
        self.model().ok()?.token_sums(texts)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            bail!(
                "truncated model: {what} needs {n} bytes at offset {}, file has {}",
                self.pos,
                self.bytes.len()
            );
        };
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn u16(&mut self, what: &str) -> Result<u16> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// IEEE-754 binary16 -> binary32 (exact).
fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    let bits = match exp {
        0 if mant == 0 => sign,
        0 => {
            // Subnormal: mant * 2^-24.
            let v = mant as f32 * (1.0 / 16_777_216.0);
            return if sign != 0 { -v } else { v };
        }
        0x1f => sign | 0x7f80_0000 | (mant << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (mant << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::dot;

    fn model() -> BuiltinEmbedder {
        BuiltinEmbedder::load_default().expect("builtin model loads")
    }

    /// A model file in the RBEMB001 format, for the corruption tests.
    fn encode(tokens: &[&str], dim: usize, weights: &[u16]) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        b.extend((tokens.len() as u32).to_le_bytes());
        b.extend((dim as u32).to_le_bytes());
        for t in tokens {
            b.extend((t.len() as u16).to_le_bytes());
            b.extend(t.as_bytes());
        }
        for w in weights {
            b.extend(w.to_le_bytes());
        }
        b
    }

    /// The lazy embedder is the same embedder, loaded on first use.
    #[test]
    fn the_lazy_model_embeds_as_the_loaded_one() {
        let lazy = LazyBuiltin::new().unwrap();
        let eager = BuiltinEmbedder::load_default().unwrap();
        assert_eq!((lazy.id(), lazy.dim()), (eager.id(), eager.dim()));
        assert!(lazy.model.get().is_none(), "loaded before use");
        let t = ["The keeper trimmed the wick."];
        assert_eq!(lazy.embed(&t).unwrap(), eager.embed(&t).unwrap());
    }

    #[test]
    fn loads_with_expected_id_and_dim() {
        let m = model();
        assert_eq!(m.id(), "builtin-minilm-static-v3-256");
        assert_eq!(m.dim(), 256);
        assert_eq!(m.vocab_size(), 30522);
        assert_eq!(m.token(1996), Some("the"));
    }

    #[test]
    fn vectors_are_unit_or_zero() {
        let m = model();
        let texts = [
            "The Fresnel lens focused the lamp's light.",
            "a",
            "...",
            "海", // a CJK ideograph in the vocab (灯塔 is not: [UNK] [UNK])
            "灯塔",
            "",
            "   \n\t ",
            "\u{1F30A}\u{1F6A2}", // emoji only: [UNK] only
        ];
        let v = m.embed(&texts).unwrap();
        assert_eq!(v.len(), texts.len());
        for (t, e) in texts.iter().zip(&v) {
            assert_eq!(e.len(), 256);
            let n = dot(e, e).sqrt();
            let empty = t.trim().is_empty() || t.starts_with('\u{1F30A}') || *t == "灯塔";
            if empty {
                assert_eq!(n, 0.0, "{t:?} should embed to zeros");
            } else {
                assert!((n - 1.0).abs() < 1e-5, "{t:?}: norm {n}");
            }
        }
        // Deterministic.
        assert_eq!(m.embed(&[texts[0]]).unwrap()[0], v[0]);
    }

    #[test]
    fn tokenizer_matches_hf_tokenizers_fixture() {
        let fixture: serde_json::Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/wordpiece.json"
        )))
        .unwrap();
        let m = model();
        let cases = fixture["cases"].as_array().unwrap();
        assert!(cases.len() >= 15);
        for case in cases {
            let text = case["text"].as_str().unwrap();
            let want: Vec<&str> = case["tokens"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            let want_ids: Vec<u32> = case["ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_u64().unwrap() as u32)
                .collect();
            let ids = m.tokenize(text);
            let got: Vec<&str> = ids.iter().map(|&i| m.token(i).unwrap()).collect();
            assert_eq!(got, want, "tokens of {text:?}");
            assert_eq!(ids, want_ids, "ids of {text:?}");
        }
    }

    #[test]
    fn wordpiece_edge_cases() {
        let m = model();
        let toks = |t: &str| -> Vec<String> {
            m.tokenize(t)
                .iter()
                .map(|&i| m.token(i).unwrap().to_string())
                .collect()
        };
        assert_eq!(toks("shipwreck"), ["ship", "##wr", "##eck"]);
        // 100 chars is still WordPiece'd, 101 is [UNK].
        assert!(!toks(&"a".repeat(100)).contains(&"[UNK]".to_string()));
        assert_eq!(toks(&"a".repeat(101)), ["[UNK]"]);
        assert_eq!(toks("ÉCOLE"), ["ecole"]);
        assert_eq!(toks("a\u{0}b\u{fffd}c"), toks("abc"));
    }

    #[test]
    fn max_sim_counts_each_question_word_by_its_best_match() {
        let m = model();
        let e: &dyn Embedder = &m;
        let s = e
            .max_sim(
                "keeper rescued shipwreck survivors",
                &[
                    "The keeper rescued the survivors of the shipwreck at dawn.",
                    "A lighthouse attendant saved people from a wrecked vessel.",
                    "The price of wheat rose sharply in the spring market.",
                    "",
                ],
            )
            .unwrap();
        // Every question word is in the first text.
        assert!((s[0] - 1.0).abs() < 1e-4, "{s:?}");
        // Related words count for something, unrelated ones for less.
        assert!(s[0] > s[1] && s[1] > s[2], "{s:?}");
        assert_eq!(s[3], 0.0);
        // A question with no words scores nothing anywhere.
        assert_eq!(e.max_sim("", &["anything"]).unwrap(), vec![0.0]);
        // Several texts combine by the maximum, token by token: the window
        // of two sentences holds every word.
        let t = e
            .token_matches("keeper shipwreck", &["The keeper slept.", "A shipwreck."])
            .unwrap();
        let both: Vec<f32> = t.best[0]
            .iter()
            .zip(&t.best[1])
            .map(|(a, b)| a.max(*b))
            .collect();
        assert!((t.score(&both) - 1.0).abs() < 1e-4);
        assert!(t.score(&t.best[0]) < 1.0 && t.score(&t.best[1]) < 1.0);
    }

    #[test]
    fn semantic_sanity() {
        let m = model();
        let v = m
            .embed(&[
                "the keeper rowed out to rescue the survivors of the shipwreck",
                "a lighthouse attendant saved people from a wrecked ship",
                "the price of wheat rose sharply in the spring market",
            ])
            .unwrap();
        let related = dot(&v[0], &v[1]);
        let unrelated = dot(&v[0], &v[2]);
        assert!(
            related > unrelated,
            "related {related} <= unrelated {unrelated}"
        );
    }

    #[test]
    fn corrupt_or_truncated_files_are_errors() {
        let good = encode(
            &["[UNK]", "a", "##b"],
            2,
            &[0, 0, 0x3c00, 0xbc00, 0x3800, 0x0001],
        );
        let m = BuiltinEmbedder::from_bytes(&good).unwrap();
        assert_eq!(m.dim(), 2);
        assert_eq!(m.tokenize("ab"), vec![1, 2]);
        // Every truncation fails cleanly.
        for n in 0..good.len() {
            assert!(
                BuiltinEmbedder::from_bytes(&good[..n]).is_err(),
                "prefix {n}"
            );
        }
        let err = |b: &[u8]| BuiltinEmbedder::from_bytes(b).unwrap_err().to_string();
        let mut trailing = good.clone();
        trailing.push(0);
        assert!(err(&trailing).contains("trailing"));
        let mut magic = good.clone();
        magic[0] = b'X';
        assert!(err(&magic).contains("magic"));
        assert!(err(&encode(&["a", "b"], 1, &[0, 0])).contains("[UNK]"));
        assert!(err(&encode(&["[UNK]", "a", "a"], 1, &[0, 0, 0])).contains("twice"));
        assert!(err(&encode(&["[UNK]"], 1, &[0x7c00])).contains("non-finite"));
        assert!(err(&encode(&["[UNK]"], 0, &[])).contains("dimension"));
        let mut utf8 = encode(&["[UNK]", "ab"], 1, &[0, 0]);
        let at = utf8.len() - 4 - 2;
        utf8[at] = 0xff;
        assert!(err(&utf8).contains("UTF-8"));
        // Huge declared sizes do not allocate or panic.
        let mut huge = MAGIC.to_vec();
        huge.extend(u32::MAX.to_le_bytes());
        huge.extend(u32::MAX.to_le_bytes());
        assert!(BuiltinEmbedder::from_bytes(&huge).is_err());
        // The real file, cut short, also fails cleanly.
        for n in [0, 7, 12, 16, 1000, 200_000, DEFAULT_MODEL.len() - 1] {
            assert!(
                BuiltinEmbedder::from_bytes(&DEFAULT_MODEL[..n]).is_err(),
                "real prefix {n}"
            );
        }
    }

    #[test]
    fn f16_decoding() {
        assert_eq!(f16_to_f32(0x0000), 0.0);
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x3555), 0.333_251_95);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0x0001), 5.960_464_5e-8);
        assert_eq!(f16_to_f32(0x8400), -6.103_515_6e-5);
        assert!(f16_to_f32(0x7c00).is_infinite());
        assert!(f16_to_f32(0x7e00).is_nan());
    }

    /// Throughput: `cargo test --release --lib embed::builtin -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn throughput() {
        let m = model();
        let words: Vec<&str> = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/wordpiece.json"))
            .split_whitespace()
            .chain("The keeper trimmed the wicks, polished the Fresnel lens and wound the clockwork that turned the optic; in fog he sounded the signal every thirty seconds until dawn.".split(' '))
            .collect();
        // ~1,000-char chunks of pseudo-random word sequences (fixed LCG seed).
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let chunks: Vec<String> = (0..2000)
            .map(|_| {
                let mut s = String::new();
                while s.len() < 1000 {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    s.push_str(words[(seed >> 33) as usize % words.len()]);
                    s.push(' ');
                }
                s
            })
            .collect();
        let refs: Vec<&str> = chunks.iter().map(String::as_str).collect();
        m.embed(&refs[..100]).unwrap();
        let t = std::time::Instant::now();
        let v = m.embed(&refs).unwrap();
        let secs = t.elapsed().as_secs_f64();
        let chars: usize = chunks.iter().map(|c| c.chars().count()).sum();
        println!(
            "{} chunks ({} chars avg) in {secs:.3}s: {:.0} chunks/s, {:.1} MB/s (one thread)",
            v.len(),
            chars / chunks.len(),
            v.len() as f64 / secs,
            chunks.iter().map(|c| c.len()).sum::<usize>() as f64 / secs / 1e6
        );
    }

    proptest::proptest! {
        #![proptest_config(crate::cases(64))]
        /// What window scoring relies on: two texts side by side embed as
        /// the normalised sum of their token sums, and one text as its own.
        #[test]
        fn adjacent_texts_embed_as_the_sum_of_their_token_sums(
            a in "[a-zA-Z .,'é-]{0,40}",
            b in "[a-zA-Z .,'é-]{0,40}",
        ) {
            static M: std::sync::OnceLock<BuiltinEmbedder> = std::sync::OnceLock::new();
            let m = M.get_or_init(model);
            let sums = Embedder::token_sums(m, &[&a, &b]).unwrap();
            let mut pair: Vec<f32> = sums[0].iter().zip(&sums[1]).map(|(x, y)| x + y).collect();
            normalize(&mut pair);
            let whole = m.embed_one(&format!("{a} {b}"));
            for (x, y) in pair.iter().zip(&whole) {
                proptest::prop_assert!((x - y).abs() < 1e-5, "{x} vs {y}");
            }
            let mut one = sums[0].clone();
            normalize(&mut one);
            proptest::prop_assert_eq!(one, m.embed_one(&a));
        }
    }
}
