//! Term statistics of the documents in force. Tantivy counts a deleted
//! document in a term's frequency and in the index's size until its
//! segment is merged away, so after an update that changed or removed a
//! source, a word only that source held would still count as known and
//! BM25 would weigh terms by sources no longer there. These statistics
//! leave deleted documents out, so that an index updated in place answers
//! as one built afresh from the same files would. A segment without
//! deletions is read from its term dictionary as before (no cost); in one
//! with deletions, the deleted documents holding the term are taken off
//! its dictionary count (or, when most of a segment is deleted, its live
//! postings are counted).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Searcher, SegmentReader, TERMINATED, Term};

/// What one searcher generation's statistics need beyond Tantivy's, found
/// once per generation rather than once per question: each segment's
/// deleted documents, and each field's token count over the live ones.
#[derive(Default)]
pub struct Cache {
    generation: Mutex<Option<Arc<Generation>>>,
    /// Tantivy's own statistics instead (the bench's baseline).
    pub tantivy_only: std::sync::atomic::AtomicBool,
}

#[derive(Default)]
struct Generation {
    id: u64,
    /// Deleted documents by segment (in the searcher's segment order),
    /// ascending.
    deleted: Vec<Vec<DocId>>,
    tokens: Mutex<HashMap<Field, u64>>,
}

/// [`Bm25StatisticsProvider`] over the live documents of a searcher.
pub struct LiveStats<'a> {
    searcher: &'a Searcher,
    generation: Arc<Generation>,
    tantivy_only: bool,
}

impl<'a> LiveStats<'a> {
    pub fn new(searcher: &'a Searcher, cache: &Cache) -> LiveStats<'a> {
        let id = searcher.generation().generation_id();
        let mut slot = cache.generation.lock().unwrap_or_else(|e| e.into_inner());
        let generation = match slot.as_ref() {
            Some(g) if g.id == id => g.clone(),
            _ => {
                let deleted = searcher
                    .segment_readers()
                    .iter()
                    .map(|seg| match seg.alive_bitset() {
                        Some(alive) => (0..seg.max_doc()).filter(|&d| !alive.is_alive(d)).collect(),
                        None => Vec::new(),
                    })
                    .collect();
                let g = Arc::new(Generation {
                    id,
                    deleted,
                    tokens: Mutex::default(),
                });
                *slot = Some(g.clone());
                g
            }
        };
        LiveStats {
            searcher,
            generation,
            tantivy_only: cache
                .tantivy_only
                .load(std::sync::atomic::Ordering::Relaxed),
        }
    }

    fn count_tokens(&self, field: Field) -> tantivy::Result<u64> {
        let mut total = 0u64;
        for (seg, deleted) in self.segments() {
            let all = seg.inverted_index(field)?.total_num_tokens();
            if deleted.is_empty() {
                total += all;
                continue;
            }
            // The deleted documents' lengths (as the field norms keep them:
            // exact for short fields, close for long ones) come off.
            let norms = seg.get_fieldnorms_reader(field)?;
            let gone: u64 = deleted.iter().map(|&d| u64::from(norms.fieldnorm(d))).sum();
            total += all.saturating_sub(gone);
        }
        Ok(total)
    }

    fn segments(&self) -> impl Iterator<Item = (&SegmentReader, &[DocId])> {
        self.searcher
            .segment_readers()
            .iter()
            .zip(self.generation.deleted.iter().map(Vec::as_slice))
    }
}

impl Bm25StatisticsProvider for LiveStats<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        if self.tantivy_only {
            return self.searcher.total_num_tokens(field);
        }
        if let Some(&n) = self
            .generation
            .tokens
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&field)
        {
            return Ok(n);
        }
        let n = self.count_tokens(field)?;
        self.generation
            .tokens
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(field, n);
        Ok(n)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        if self.tantivy_only {
            return Bm25StatisticsProvider::total_num_docs(self.searcher);
        }
        Ok(self.searcher.num_docs())
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        if self.tantivy_only {
            return self.searcher.doc_freq(term);
        }
        let mut n = 0u64;
        for (seg, deleted) in self.segments() {
            let inverted = seg.inverted_index(term.field())?;
            let df = inverted.doc_freq(term)?;
            if deleted.is_empty() || df == 0 {
                n += u64::from(df);
                continue;
            }
            let Some(mut postings) = inverted.read_postings(term, IndexRecordOption::Basic)? else {
                continue;
            };
            if deleted.len() < df as usize {
                // Few deletions: seek each one in the postings.
                let mut holding = 0u32;
                for &d in deleted {
                    // `seek` only goes forward: the postings may be past `d`.
                    let at = match postings.doc() {
                        cur if cur < d => postings.seek(d),
                        cur => cur,
                    };
                    if at == TERMINATED {
                        break;
                    }
                    holding += u32::from(at == d);
                }
                n += u64::from(df - holding);
            } else {
                let alive = seg.alive_bitset().expect("a segment with deletions");
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
