//! Embedders turn text into unit-length vectors for the HNSW store.
//!
//! Every embedder is deterministic for a given id: the id and dimension are
//! stored with the index, and a change of either re-embeds the corpus.

mod builtin;

pub use builtin::BuiltinEmbedder;

use anyhow::Result;

/// Something that maps texts to L2-normalised vectors of a fixed dimension.
pub trait Embedder: Send + Sync {
    /// Stable identifier stored with the index (e.g. `builtin-minilm-static-v1-256`).
    fn id(&self) -> &str;
    /// Vector dimension.
    fn dim(&self) -> usize;
    /// Embed a batch of texts; one unit vector (or all zeros for text with no
    /// tokens) per input, in order.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>>;
}

/// Which embedder to build, as named on the command line and in config.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EmbedderKind {
    /// BM25 only: no vectors.
    None,
    /// Static token embeddings distilled from all-MiniLM-L6-v2, shipped in
    /// the repository: semantic, offline.
    #[default]
    Builtin,
}

impl std::str::FromStr for EmbedderKind {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "none" => Ok(Self::None),
            "builtin" => Ok(Self::Builtin),
            other => Err(format!(
                "unknown embedder '{other}' (expected: builtin, none)"
            )),
        }
    }
}

/// Build the embedder for `kind`; `None` means BM25-only retrieval.
pub fn build(kind: EmbedderKind) -> Result<Option<Box<dyn Embedder>>> {
    Ok(match kind {
        EmbedderKind::None => None,
        EmbedderKind::Builtin => Some(Box::new(BuiltinEmbedder::load_default()?)),
    })
}

/// Scale `v` to unit length in place (a zero vector stays zero).
pub fn normalize(v: &mut [f32]) {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
}

/// Cosine similarity of two unit vectors (their dot product). Eight
/// independent accumulators let the compiler vectorise the loop.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f32; 8];
    let chunks = n / 8;
    for i in 0..chunks {
        for j in 0..8 {
            acc[j] += a[i * 8 + j] * b[i * 8 + j];
        }
    }
    let mut sum: f32 = acc.iter().sum();
    for i in chunks * 8..n {
        sum += a[i] * b[i];
    }
    sum
}
