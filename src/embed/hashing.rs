//! The simplest honest offline embedder: feature hashing.
//!
//! Lower-cased word unigrams and adjacent bigrams are hashed (blake3) into a
//! fixed number of signed buckets with sublinear term frequency, then the
//! vector is L2-normalised. It is *lexical*, not semantic: it helps with word
//! order and partial matches, not with paraphrases.

use super::{Embedder, normalize};
use anyhow::Result;

pub struct HashingEmbedder {
    dim: usize,
    id: String,
}

impl HashingEmbedder {
    pub fn new(dim: usize) -> Self {
        Self {
            dim,
            id: format!("hashing-v1-{dim}"),
        }
    }

    fn add(&self, v: &mut [f32], feature: &str, weight: f32) {
        let h = blake3::hash(feature.as_bytes());
        let b = h.as_bytes();
        let bucket = u64::from_le_bytes(b[0..8].try_into().expect("8 bytes")) as usize % self.dim;
        let sign = if b[8] & 1 == 0 { 1.0 } else { -1.0 };
        v[bucket] += sign * weight;
    }

    fn embed_one(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0.0f32; self.dim];
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() > 1)
            .map(str::to_lowercase)
            .collect();
        let mut counts: std::collections::HashMap<String, f32> = Default::default();
        for w in &words {
            *counts.entry(format!("w:{w}")).or_default() += 1.0;
        }
        for pair in words.windows(2) {
            *counts
                .entry(format!("b:{} {}", pair[0], pair[1]))
                .or_default() += 0.5;
        }
        for (f, c) in counts {
            self.add(&mut v, &f, 1.0 + c.ln_1p());
        }
        normalize(&mut v);
        v
    }
}

impl Embedder for HashingEmbedder {
    fn id(&self) -> &str {
        &self.id
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        Ok(texts.iter().map(|t| self.embed_one(t)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::dot;

    #[test]
    fn similar_texts_score_higher_than_unrelated() {
        let e = HashingEmbedder::new(256);
        let v = e
            .embed(&[
                "the Fresnel lens focused the lamp",
                "a Fresnel lens focused light",
                "wheat prices rose in spring",
            ])
            .unwrap();
        assert!((dot(&v[0], &v[0]) - 1.0).abs() < 1e-5);
        assert!(dot(&v[0], &v[1]) > dot(&v[0], &v[2]));
    }

    #[test]
    fn empty_text_is_zero_vector() {
        let e = HashingEmbedder::new(64);
        let v = e.embed(&["  ... "]).unwrap();
        assert!(v[0].iter().all(|x| *x == 0.0));
    }
}
