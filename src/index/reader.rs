//! Reading the index: open the committed generation (checking its
//! manifest and checksums), search it (BM25, vectors, phrases) and look
//! chunks up.

use super::live::{Cache, LiveStats};
use super::schema::{self, Fields};
use super::vectors::{EXACT_SCAN_MAX_FLOATS, OpenedStore};
use super::{MANIFEST_FORMAT, Manifest, damaged, first_damaged, no_panic, readonly};
use crate::chunk::Chunk;
use anyhow::{Context, Result, anyhow, bail};
use std::path::{Path, PathBuf};
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{Bm25StatisticsProvider, PhraseQuery, QueryParser, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, TantivyDocument, Value};
use tantivy::{DocAddress, IndexReader, ReloadPolicy, Term};

/// An opened index, ready to query. One long-lived reader; a fresh searcher
/// per query.
pub struct Index {
    pub dir: PathBuf,
    pub manifest: Manifest,
    index: tantivy::Index,
    reader: IndexReader,
    fields: Fields,
    vectors: OpenedStore,
    live: Cache,
}

/// A chunk as returned by a search, with its stored vector if any.
#[derive(Debug, Clone)]
pub struct Hit {
    pub chunk: Chunk,
    pub score: f32,
    pub vector: Option<Vec<f32>>,
}

/// BM25 hits fetched past `k`, to break ties at the cut by chunk id; at
/// most this many in all.
const TIE_MARGIN: usize = 32;
const TIE_MAX: usize = 4_096;

impl Index {
    /// Has the file of `source_id` changed (its size or modification
    /// time) or gone since this index read it? Then the index's text of it
    /// may no longer be the file's.
    pub fn changed_since_read(&self, source_id: &str) -> bool {
        self.read_as(source_id).is_some_and(|s| s.changed())
    }

    /// The file of `source_id` as this index read it.
    pub fn read_as(&self, source_id: &str) -> Option<super::FileStamp> {
        let entry = self.manifest.files.get(source_id)?;
        Some(super::FileStamp {
            path: crate::ingest::source_path(Path::new(&self.manifest.sources), source_id),
            size: entry.size,
            modified: entry.seen.or(entry.modified),
        })
    }

    /// Open the index in `dir`, ready to query; the vector graph of a large
    /// index loads in the background (see [`Index::wait_for_graph`]). A
    /// missing or unreadable index is an error that says what to do.
    pub fn open(dir: &Path) -> Result<Index> {
        Self::open_with(dir, EXACT_SCAN_MAX_FLOATS)
    }

    /// [`Index::open`], but vector searches always scan exactly and the
    /// graph is never loaded: for a process that asks a question or two
    /// and exits before a large graph would have loaded.
    pub fn open_exact(dir: &Path) -> Result<Index> {
        Self::open_with(dir, usize::MAX)
    }

    fn open_with(dir: &Path, exact_max_floats: usize) -> Result<Index> {
        let tdir = dir.join("tantivy");
        if !tdir.join("meta.json").exists() {
            bail!(
                "no index at {}: run `research-board index DIR` first",
                dir.display()
            );
        }
        let index = readonly::ReadTolerant::open(&tdir)
            .and_then(tantivy::Index::open)
            .with_context(|| {
                format!(
                    "the index at {} is unreadable; delete it and re-index",
                    dir.display()
                )
            })?;
        schema::register(&index);
        let metas = index.load_metas()?;
        let generation = metas
            .payload
            .as_deref()
            .and_then(|p| p.strip_prefix("gen-"))
            .and_then(|g| g.parse::<u64>().ok())
            .ok_or_else(|| {
                anyhow!(
                    "the index at {} has no committed generation; re-index",
                    dir.display()
                )
            })?;
        let base = Manifest::base(generation);
        let manifest: Manifest = serde_json::from_slice(
            &std::fs::read(dir.join(format!("{base}.manifest.json"))).with_context(|| {
                format!(
                    "the index at {} is missing its manifest; re-index",
                    dir.display()
                )
            })?,
        )
        .with_context(|| {
            format!(
                "the index manifest in {} is corrupt; re-index",
                dir.display()
            )
        })?;
        if manifest.format != MANIFEST_FORMAT {
            bail!(
                "the index at {} was written by another version; re-index",
                dir.display()
            );
        }
        // The side files (not the graph's: they are checked where they are
        // loaded, on the graph's thread) and Tantivy's files, which carry
        // their own checksums, are checked side by side before a search can
        // trip over a damaged one.
        let (side, tantivy) = std::thread::scope(|s| {
            let tantivy = s.spawn(|| no_panic(&tdir, dir, || Ok(index.validate_checksum()?)));
            let side = manifest.damaged_file_where(dir, |n| !manifest.is_graph_file(n));
            let tantivy = tantivy.join().unwrap_or_else(|_| Err(damaged(&tdir, dir)));
            (side, tantivy)
        });
        if let Some(file) = side {
            return Err(damaged(&file, dir));
        }
        match tantivy {
            Ok(bad) if bad.is_empty() => {}
            Ok(bad) => {
                let first = bad
                    .iter()
                    .next()
                    .map(|p| tdir.join(p))
                    .unwrap_or(tdir.clone());
                return Err(damaged(&first, dir));
            }
            Err(e) => return Err(e),
        }
        let check_graph = {
            let dir = dir.to_path_buf();
            let sums: Vec<(String, String)> = (manifest.checksums.iter())
                .filter(|(name, _)| manifest.is_graph_file(name))
                .map(|(name, sum)| (name.clone(), sum.clone()))
                .collect();
            move || match first_damaged(&dir, sums.iter().map(|(n, s)| (n, s))) {
                Some(file) => Err(damaged(&file, &dir)),
                None => Ok(()),
            }
        };
        let vbase = Manifest::base(manifest.vectors_generation());
        let vectors = no_panic(&dir.join(format!("{vbase}.vectors")), dir, || {
            OpenedStore::open(
                dir,
                &vbase,
                manifest.hnsw.as_deref(),
                manifest.parts(dir),
                check_graph,
                exact_max_floats,
            )
        })?;
        let (_, fields) = schema::build();
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(Index {
            dir: dir.to_path_buf(),
            manifest,
            index,
            reader,
            fields,
            vectors,
            live: Cache::default(),
        })
    }

    pub fn chunk_count(&self) -> usize {
        self.manifest.chunk_count
    }

    /// Count deleted documents in term statistics, as Tantivy does, or
    /// not (the default): the scale bench's baseline for what leaving them
    /// out costs.
    #[doc(hidden)]
    pub fn set_tantivy_statistics(&self, on: bool) {
        self.live
            .tantivy_only
            .store(on, std::sync::atomic::Ordering::Relaxed);
    }

    fn live<'a>(&self, searcher: &'a tantivy::Searcher) -> LiveStats<'a> {
        LiveStats::new(searcher, &self.live)
    }

    /// BM25 over heading chain + title + text, lenient about what users type.
    /// The best `k`, equal scores in chunk id order.
    pub fn bm25(&self, query: &str, k: usize) -> Result<Vec<Hit>> {
        if query.trim().is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let searcher = self.reader.searcher();
        let mut qp = QueryParser::for_index(&self.index, self.text_fields().to_vec());
        qp.set_field_boost(self.fields.source_title, 0.5);
        let (q, _errors) = qp.parse_query_lenient(query);
        // Scored on the documents in force (a deleted one still counts in
        // Tantivy's own statistics until its segment is merged away).
        // Equal scores are ordered by chunk id, not by where Tantivy's
        // indexing threads put the chunks (which differs from one build of
        // the same folder to the next): more are fetched until the cut
        // falls between two scores, so that a tie there is broken the same
        // way too.
        let mut limit = k + TIE_MARGIN;
        let top = loop {
            let top = searcher.search_with_statistics_provider(
                &q,
                &TopDocs::with_limit(limit).order_by_score(),
                &self.live(&searcher),
            )?;
            if top.len() < limit || top[k - 1].0 > top[limit - 1].0 || limit >= TIE_MAX {
                break top;
            }
            limit *= 4;
        };
        // Past the tie at the cut, nothing is needed.
        let cut = top.get(k - 1).map_or(f32::MIN, |t| t.0);
        let mut hits = top
            .into_iter()
            .take_while(|(score, _)| *score >= cut)
            .map(|(score, addr)| {
                let (chunk, vector) = self.load(&searcher, addr)?;
                Ok(Hit {
                    chunk,
                    score,
                    vector,
                })
            })
            .collect::<Result<Vec<Hit>>>()?;
        hits.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| a.chunk.id.cmp(&b.chunk.id))
        });
        hits.truncate(k);
        Ok(hits)
    }

    /// Nearest chunks by vector: (chunk id, cosine similarity), exploring
    /// `ef` candidates in the graph once it is loaded; until then, and for
    /// a small index always, by an exact scan.
    pub fn vector_search(&self, query: &[f32], k: usize, ef: usize) -> Vec<(String, f32)> {
        self.vectors.search(query, k, ef)
    }

    /// Every live chunk's stored vector, read from disk: the base's rows
    /// that are not dead, then the delta's (for checks and benchmarks).
    pub fn live_vectors(&self) -> Result<Vec<super::vectors::IdVector>> {
        let m = &self.manifest;
        let base = Manifest::base(m.vectors_generation());
        let dead: std::collections::HashSet<u32> = m.dead_rows.iter().copied().collect();
        let (_, mut live) = super::vectors::read_vectors_where(
            &self.dir.join(format!("{base}.vectors")),
            |row, _| !dead.contains(&(row as u32)),
        )?;
        if let Some(delta) = m.parts(&self.dir).delta {
            live.extend(super::vectors::read_vectors(&delta)?.1);
        }
        Ok(live)
    }

    /// Wait until the vector graph has loaded (it loads in the background
    /// after [`Index::open`]): `Ok(true)` when vector searches now go to
    /// it, `Ok(false)` when this index is searched by exact scan only (a
    /// small one, or one without vectors), the reason when the graph could
    /// not be loaded (a damaged file: searches keep scanning exactly, and
    /// the next update rebuilds it).
    pub fn wait_for_graph(&self) -> Result<bool, String> {
        self.vectors.wait_for_graph()
    }

    /// A chunk and its stored vector, by id.
    pub fn chunk(&self, id: &str) -> Result<Option<(Chunk, Option<Vec<f32>>)>> {
        let searcher = self.reader.searcher();
        let term = Term::from_field_text(self.fields.chunk_id, id);
        let q = TermQuery::new(term, IndexRecordOption::Basic);
        let top = searcher.search(&q, &TopDocs::with_limit(1).order_by_score())?;
        match top.first() {
            Some((_, addr)) => Ok(Some(self.load(&searcher, *addr)?)),
            None => Ok(None),
        }
    }

    /// All chunks of a source, in order.
    pub fn chunks_of(&self, source_id: &str) -> Result<Vec<Chunk>> {
        let searcher = self.reader.searcher();
        let term = Term::from_field_text(self.fields.source_id, source_id);
        let q = TermQuery::new(term, IndexRecordOption::Basic);
        let n = self
            .manifest
            .files
            .get(source_id)
            .map_or(0, |f| f.chunks as usize);
        let top = searcher.search(&q, &TopDocs::with_limit(n.max(1)).order_by_score())?;
        let mut out = top
            .into_iter()
            .map(|(_, a)| self.load(&searcher, a).map(|c| c.0))
            .collect::<Result<Vec<_>>>()?;
        out.sort_by_key(|c| c.ordinal);
        Ok(out)
    }

    /// Number of chunks whose analysed text contains `term` (already
    /// analysed: lower-cased and stemmed), over body, location and title;
    /// chunks of changed or removed sources do not count.
    pub fn doc_freq(&self, term: &str) -> u64 {
        let searcher = self.reader.searcher();
        let live = self.live(&searcher);
        self.max_over_text_fields(|f| live.doc_freq(&Term::from_field_text(f, term)).unwrap_or(0))
    }

    /// Number of chunks whose body, location or title holds the analysed
    /// terms of `phrase` in order, at most two words apart (the largest count).
    pub fn phrase_freq(&self, phrase: &str) -> u64 {
        let terms = self.analyze(phrase);
        if terms.len() < 2 {
            return terms.first().map_or(0, |t| self.doc_freq(t));
        }
        let searcher = self.reader.searcher();
        self.max_over_text_fields(|f| {
            let mut q =
                PhraseQuery::new(terms.iter().map(|t| Term::from_field_text(f, t)).collect());
            // A possessive or an article may sit between the words of a
            // name as the source writes it ("Macpherson's Ossian").
            q.set_slop(2);
            searcher.search(&q, &Count).unwrap_or(0) as u64
        })
    }

    /// The fields BM25 searches: body, heading chain, title.
    fn text_fields(&self) -> [Field; 3] {
        [
            self.fields.body,
            self.fields.location,
            self.fields.source_title,
        ]
    }

    fn max_over_text_fields(&self, count: impl Fn(Field) -> u64) -> u64 {
        self.text_fields().into_iter().map(count).max().unwrap_or(0)
    }

    /// Run `text` through the analyzer of the body field (the one this
    /// index was built with).
    pub fn analyze(&self, text: &str) -> Vec<String> {
        let Ok(mut tok) = self.index.tokenizer_for_field(self.fields.body) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut stream = tok.token_stream(text);
        while let Some(t) = stream.next() {
            out.push(t.text.clone());
        }
        out
    }

    fn load(
        &self,
        searcher: &tantivy::Searcher,
        addr: DocAddress,
    ) -> Result<(Chunk, Option<Vec<f32>>)> {
        let doc: TantivyDocument = searcher.doc(addr)?;
        let f = &self.fields;
        let s = |field| {
            doc.get_first(field)
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string()
        };
        let n = |field| doc.get_first(field).and_then(|v| v.as_u64()).unwrap_or(0);
        let vector = doc
            .get_first(f.vector)
            .and_then(|v| v.as_bytes())
            .and_then(|b| {
                (!b.is_empty()).then(|| {
                    b.chunks_exact(4)
                        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                        .collect()
                })
            });
        Ok((
            Chunk {
                id: s(f.chunk_id),
                source_id: s(f.source_id),
                source_title: s(f.source_title),
                location: s(f.location),
                text: s(f.body),
                start: n(f.start) as usize,
                end: n(f.end) as usize,
                ordinal: n(f.ordinal) as u32,
                tokens: n(f.tokens) as u32,
                line: Some(n(f.line) as u32).filter(|l| *l > 0),
                page: Some(n(f.page) as u32).filter(|p| *p > 0),
            },
            vector,
        ))
    }
}
