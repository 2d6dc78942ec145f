//! Term statistics of the documents in force. Tantivy counts a deleted
//! document in a term's frequency and in the index's size until its
//! segment is merged away, so after an update that changed or removed a
//! source, a word only that source held would still count as known and
//! BM25 would weigh terms by sources no longer there. These statistics
//! leave deleted documents out, so that an index updated in place answers
//! as one built afresh from the same files would. A segment without
//! deletions is read from its term dictionary as before (no cost); one
//! with deletions is counted from its postings.

use std::collections::HashMap;
use std::sync::Mutex;
use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocSet, Searcher, TERMINATED, Term};

/// Each field's token count over the live documents, for one searcher
/// generation: counting it reads every field norm of a segment with
/// deletions, so it is done once per generation, not once per question.
#[derive(Default)]
pub struct TokenCounts(Mutex<Option<(u64, HashMap<Field, u64>)>>);

/// [`Bm25StatisticsProvider`] over the live documents of a searcher.
pub struct LiveStats<'a> {
    pub searcher: &'a Searcher,
    pub tokens: &'a TokenCounts,
}

impl LiveStats<'_> {
    fn count_tokens(&self, field: Field) -> tantivy::Result<u64> {
        let mut total = 0u64;
        for seg in self.searcher.segment_readers() {
            let all = seg.inverted_index(field)?.total_num_tokens();
            let Some(alive) = seg.alive_bitset() else {
                total += all;
                continue;
            };
            // The deleted documents' lengths (as the field norms keep them:
            // exact for short fields, close for long ones) come off.
            let norms = seg.get_fieldnorms_reader(field)?;
            let deleted: u64 = (0..seg.max_doc())
                .filter(|&d| !alive.is_alive(d))
                .map(|d| u64::from(norms.fieldnorm(d)))
                .sum();
            total += all.saturating_sub(deleted);
        }
        Ok(total)
    }
}

impl Bm25StatisticsProvider for LiveStats<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        let generation = self.searcher.generation().generation_id();
        let mut cache = self.tokens.0.lock().unwrap_or_else(|e| e.into_inner());
        if cache.as_ref().is_none_or(|(g, _)| *g != generation) {
            *cache = Some((generation, HashMap::new()));
        }
        let counts = &mut cache.as_mut().expect("set above").1;
        if let Some(&n) = counts.get(&field) {
            return Ok(n);
        }
        let n = self.count_tokens(field)?;
        counts.insert(field, n);
        Ok(n)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        Ok(self.searcher.num_docs())
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        let mut n = 0u64;
        for seg in self.searcher.segment_readers() {
            let inverted = seg.inverted_index(term.field())?;
            let Some(alive) = seg.alive_bitset() else {
                n += u64::from(inverted.doc_freq(term)?);
                continue;
            };
            if let Some(mut postings) = inverted.read_postings(term, IndexRecordOption::Basic)? {
                let mut doc = postings.doc();
                while doc != TERMINATED {
                    n += u64::from(alive.is_alive(doc));
                    doc = postings.advance();
                }
            }
        }
        Ok(n)
    }
}
