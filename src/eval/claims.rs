//! The claim support judge against labelled (claim, quote) pairs
//! (`eval --claims`).

use super::ratio;
use crate::config::Config;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// One labelled (claim, quote) pair.
#[derive(Debug, Clone, Deserialize)]
pub struct ClaimPair {
    pub id: String,
    pub quote: String,
    pub claim: String,
    pub label: crate::support::Support,
    /// How the claim was made ("number", "topical", …).
    #[serde(default)]
    pub how: Option<String>,
    #[serde(default)]
    pub split: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
struct ClaimSet {
    pairs: Vec<ClaimPair>,
}

/// Binary "hallucinated" (contradicts or irrelevant) detection figures.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Detection {
    pub pairs: usize,
    pub recall: f64,
    pub precision: f64,
    pub f1: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct ClaimsReport {
    pub pairs: usize,
    /// confusion[gold][predicted] counts, labels in snake case.
    pub confusion: BTreeMap<String, BTreeMap<String, usize>>,
    pub accuracy: f64,
    /// Recall / precision / F1 of unsupported claims (contradicts +
    /// irrelevant) against supported ones (entails + partial).
    pub hallucinated: Detection,
    /// The same, counting only topically-close irrelevant claims among the
    /// unsupported (the hard ones).
    pub topical: Detection,
    /// Recall of unsupported claims by how they were made.
    pub recall_by_how: BTreeMap<String, f64>,
    pub misses: Vec<String>,
}

fn detection<'a>(
    items: impl Iterator<Item = (&'a ClaimPair, crate::support::Support)>,
    keep: impl Fn(&ClaimPair) -> bool,
) -> Detection {
    let (mut tp, mut fp, mut fnn, mut n) = (0usize, 0usize, 0usize, 0usize);
    for (p, got) in items {
        if !keep(p) {
            continue;
        }
        n += 1;
        match (p.label.unsupported(), got.unsupported()) {
            (true, true) => tp += 1,
            (false, true) => fp += 1,
            (true, false) => fnn += 1,
            _ => {}
        }
    }
    let recall = ratio(tp, tp + fnn);
    let precision = ratio(tp, tp + fp);
    Detection {
        pairs: n,
        recall,
        precision,
        f1: if recall + precision > 0.0 {
            2.0 * recall * precision / (recall + precision)
        } else {
            0.0
        },
    }
}

/// Run the deterministic support judge over a labelled pair file.
pub fn run_claims(path: &Path, split: Option<&str>, cfg: &Config) -> Result<ClaimsReport> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let set: ClaimSet = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a valid claims file", path.display()))?;
    let pairs: Vec<ClaimPair> = set
        .pairs
        .into_iter()
        .filter(|p| split.is_none_or(|s| p.split.as_deref().is_none_or(|x| x == s)))
        .collect();
    let name = |s: crate::support::Support| {
        serde_json::to_value(s)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    };
    let got: Vec<crate::support::Support> = pairs
        .iter()
        .map(|p| crate::support::judge(&p.claim, &p.quote, None, &cfg.support).label)
        .collect();
    let mut confusion: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    let mut correct = 0;
    let mut misses = Vec::new();
    let mut by_how: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (p, g) in pairs.iter().zip(&got) {
        *confusion
            .entry(name(p.label))
            .or_default()
            .entry(name(*g))
            .or_default() += 1;
        correct += usize::from(p.label == *g);
        if p.label.unsupported() {
            let e = by_how.entry(p.how.clone().unwrap_or_default()).or_default();
            e.0 += usize::from(g.unsupported());
            e.1 += 1;
            if !g.unsupported() {
                misses.push(format!("{} ({}) judged {}", p.id, name(p.label), name(*g)));
            }
        }
    }
    let items = || pairs.iter().zip(got.iter().copied());
    Ok(ClaimsReport {
        pairs: pairs.len(),
        accuracy: ratio(correct, pairs.len()),
        hallucinated: detection(items(), |_| true),
        topical: detection(items(), |p| {
            !p.label.unsupported() || p.how.as_deref() == Some("topical")
        }),
        recall_by_how: by_how
            .into_iter()
            .map(|(k, (hit, n))| (k, ratio(hit, n)))
            .collect(),
        confusion,
        misses,
    })
}
