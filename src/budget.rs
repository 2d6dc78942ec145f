//! Budget: fit the formatted context into the prompt's token budget by
//! dropping the lowest-scored chunks first (shorter first on ties).

use crate::chunk::Chunk;
use crate::text::count_tokens;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BudgetConfig {
    /// The model's whole prompt budget, in tokens.
    pub max_prompt_tokens: usize,
    /// Held back for the answer.
    pub answer_reserve: usize,
}

impl Default for BudgetConfig {
    fn default() -> Self {
        BudgetConfig {
            max_prompt_tokens: 60_000,
            answer_reserve: 2_048,
        }
    }
}

/// What the budget kept and dropped.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Budget {
    /// Tokens available for the context after system prompt, template and
    /// answer reserve.
    pub limit: usize,
    pub overhead_tokens: usize,
    pub context_tokens: usize,
    pub kept: Vec<String>,
    pub dropped: Vec<String>,
}

/// One chunk as it appears in the extraction prompt.
pub fn format_chunk(c: &Chunk) -> String {
    format!("{}{}\n", format_header(c), c.text)
}

/// Tokens of a chunk as [`format_chunk`] writes it.
pub fn chunk_tokens(c: &Chunk) -> usize {
    count_tokens(&format_chunk(c))
}

/// A chunk's header line, as the model copies its fields from.
pub fn format_header(c: &Chunk) -> String {
    format!(
        "--- sourceId: {} | sourceTitle: {} | sourceLocation: {}\n",
        c.source_id, c.source_title, c.location
    )
}

/// Keep as many of `chunks` (with their scores) as fit. Returns the indices
/// kept, in their original order, and the record.
///
/// `chunk_tokens` is what one chunk costs in the prompt, as the engine
/// shows it (by default [`chunk_tokens`]).
pub fn fit(
    chunks: &[(&Chunk, f32)],
    overhead_tokens: usize,
    cfg: &BudgetConfig,
    chunk_tokens: &dyn Fn(&Chunk) -> usize,
) -> (Vec<usize>, Budget) {
    let limit = cfg
        .max_prompt_tokens
        .saturating_sub(cfg.answer_reserve)
        .saturating_sub(overhead_tokens);
    let tokens: Vec<usize> = chunks.iter().map(|(c, _)| chunk_tokens(c)).collect();
    let mut alive: Vec<bool> = vec![true; chunks.len()];
    let mut used: usize = tokens.iter().sum();
    // Drop order: lowest score first; on ties, the shorter chunk first.
    let mut order: Vec<usize> = (0..chunks.len()).collect();
    order.sort_by(|&a, &b| {
        chunks[a]
            .1
            .total_cmp(&chunks[b].1)
            .then(tokens[a].cmp(&tokens[b]))
            .then(b.cmp(&a))
    });
    for i in order {
        if used <= limit {
            break;
        }
        alive[i] = false;
        used -= tokens[i];
    }
    let kept: Vec<usize> = (0..chunks.len()).filter(|&i| alive[i]).collect();
    let budget = Budget {
        limit,
        overhead_tokens,
        context_tokens: used,
        kept: kept.iter().map(|&i| chunks[i].0.id.clone()).collect(),
        dropped: (0..chunks.len())
            .filter(|&i| !alive[i])
            .map(|i| chunks[i].0.id.clone())
            .collect(),
    };
    (kept, budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(id: &str, words: usize) -> Chunk {
        Chunk {
            id: id.into(),
            source_id: "s".into(),
            source_title: "S".into(),
            location: "L".into(),
            text: "lamp ".repeat(words),
            start: 0,
            end: 0,
            ordinal: 0,
            tokens: 0,
            line: None,
            page: None,
        }
    }

    #[test]
    fn drops_lowest_scored_then_shorter_until_it_fits() {
        let (a, b, c, d) = (
            chunk("a", 100),
            chunk("b", 50),
            chunk("c", 100),
            chunk("d", 10),
        );
        let items = [(&a, 0.9), (&b, 0.2), (&c, 0.2), (&d, 0.5)];
        let sizes: Vec<usize> = items
            .iter()
            .map(|(c, _)| count_tokens(&format_chunk(c)))
            .collect();
        // Room for everything but ~60 tokens: dropping b (lowest, shorter of the tie) suffices.
        let total: usize = sizes.iter().sum();
        let cfg = BudgetConfig {
            max_prompt_tokens: total - 40 + 10,
            answer_reserve: 10,
        };
        let (kept, budget) = fit(&items, 0, &cfg, &chunk_tokens);
        assert_eq!(budget.dropped, ["b"]);
        assert_eq!(kept, [0, 2, 3]);
        assert!(budget.context_tokens <= budget.limit);
        // Nothing fits: everything dropped.
        let cfg = BudgetConfig {
            max_prompt_tokens: 5,
            answer_reserve: 0,
        };
        let (kept, budget) = fit(&items, 0, &cfg, &chunk_tokens);
        assert!(kept.is_empty());
        assert_eq!(budget.dropped.len(), 4);
    }
}
