//! The on-disk index: Tantivy (BM25 over heading chain + text, and the stored
//! chunks) plus the HNSW vector graph, versioned by generation.
//!
//! Durability: every update writes a new generation's side files (manifest,
//! chunk-id list, vectors, graph) first, then commits Tantivy with the
//! generation name as the commit payload. The Tantivy commit is the single
//! atomic switch: a crash or kill at any earlier point leaves the previous
//! commit, and so the previous generation, in force. Stale files are removed
//! after a successful commit and on the next run.

mod readonly;
mod schema;
mod vectors;

pub use vectors::{VectorStore, read_vectors};

use crate::chunk::{Chunk, ChunkConfig, chunk_document};
use crate::embed::Embedder;
use crate::ingest::{self, Format, Limits, Skipped};
use anyhow::{Context, Result, anyhow, bail};
use schema::Fields;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{PhraseQuery, QueryParser, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, TantivyDocument, Value};
use tantivy::{DocAddress, IndexReader, ReloadPolicy, Term};

const MANIFEST_FORMAT: u32 = 2;
/// Bumped whenever loaders or the chunker change what they produce, so that
/// an index built by an older version is rebuilt rather than reused.
const CHUNKER_VERSION: u32 = 12;

/// What the index knows about one source file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FileEntry {
    pub hash: String,
    pub size: u64,
    pub title: String,
    pub format: Format,
    pub chunks: u32,
    /// The work's author, when its metadata names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// The text encoding, when it was not plain UTF-8, and how it was
    /// found: "windows-1252 (guessed)", "UTF-16LE (bom)".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
    /// The printed label of each physical page (index 0 = page 1), when the
    /// document declares them (PDF `/PageLabels`): what an author cites.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_labels: Option<Vec<String>>,
}

impl FileEntry {
    /// The printed label of physical page `page` (1-based), else the page
    /// number itself.
    pub fn page_label(&self, page: u32) -> String {
        self.page_labels
            .as_ref()
            .and_then(|l| l.get((page as usize).checked_sub(1)?))
            .filter(|l| !l.is_empty())
            .cloned()
            .unwrap_or_else(|| page.to_string())
    }
}

/// Everything about one generation except the chunks themselves.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub generation: u64,
    pub sources: String,
    pub chunker: u32,
    pub embedder: Option<String>,
    pub dim: usize,
    pub chunk_config: ChunkConfig,
    pub files: BTreeMap<String, FileEntry>,
    pub skipped: Vec<Skipped>,
    pub chunk_count: usize,
    pub hnsw: Option<String>,
    /// blake3 of every side file of the generation (vectors, ids, graph),
    /// by file name: a damaged file is named, never silently used.
    #[serde(default)]
    pub checksums: BTreeMap<String, String>,
}

impl Manifest {
    fn base(generation: u64) -> String {
        format!("gen-{generation}")
    }

    /// Record the checksums of this generation's side files in `dir`.
    fn record_checksums(&mut self, dir: &Path) -> Result<()> {
        let prefix = format!("{}.", Self::base(self.generation));
        self.checksums.clear();
        for e in std::fs::read_dir(dir)?.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with(&prefix)
                && !name.ends_with(".manifest.json")
                && !name.ends_with(".tmp")
            {
                self.checksums.insert(name, file_hash(&e.path())?);
            }
        }
        Ok(())
    }

    /// The first side file whose content differs from its checksum (or is
    /// missing), if any.
    fn damaged_file(&self, dir: &Path) -> Option<PathBuf> {
        self.checksums.iter().find_map(|(name, sum)| {
            let p = dir.join(name);
            (file_hash(&p).ok().as_deref() != Some(sum.as_str())).then_some(p)
        })
    }
}

fn file_hash(path: &Path) -> Result<String> {
    let mut h = blake3::Hasher::new();
    let mut f =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    std::io::copy(&mut f, &mut h).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(h.finalize().to_hex().to_string())
}

/// The message for a damaged index file.
fn damaged(file: &Path, dir: &Path) -> anyhow::Error {
    anyhow!(
        "the index file {} is damaged; run `research-board index SOURCES --index-dir {}` \
         (or `research-board index SOURCES`) to rebuild the index",
        file.display(),
        dir.display()
    )
}

/// Run a loader that may panic on damaged data; a panic becomes an error.
fn no_panic<T>(what: &Path, dir: &Path, f: impl FnOnce() -> Result<T>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r.map_err(|e| damaged(what, dir).context(format!("{e:#}"))),
        Err(_) => Err(damaged(what, dir)),
    }
}

/// The platform data directory for the index of `sources`:
/// `<data dir>/research-board/indexes/<folder name>-<hash of canonical path>`.
pub fn default_dir(sources: &Path) -> Result<PathBuf> {
    let canon = sources
        .canonicalize()
        .with_context(|| format!("cannot open the sources folder {}", sources.display()))?;
    let dirs = directories::ProjectDirs::from("", "", "research-board")
        .ok_or_else(|| anyhow!("no home directory: pass --index-dir"))?;
    let name: String = canon
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "root".into())
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let hash = blake3::hash(canon.to_string_lossy().as_bytes()).to_hex();
    Ok(dirs
        .data_dir()
        .join("indexes")
        .join(format!("{name}-{}", &hash[..16])))
}

/// An opened index, ready to query. One long-lived reader; a fresh searcher
/// per query.
pub struct Index {
    pub dir: PathBuf,
    pub manifest: Manifest,
    index: tantivy::Index,
    reader: IndexReader,
    fields: Fields,
    vectors: VectorStore,
}

/// A chunk as returned by a search, with its stored vector if any.
#[derive(Debug, Clone)]
pub struct Hit {
    pub chunk: Chunk,
    pub score: f32,
    pub vector: Option<Vec<f32>>,
}

impl Index {
    /// Open the index in `dir`. A missing or unreadable index is an error
    /// that says what to do.
    pub fn open(dir: &Path) -> Result<Index> {
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
        if let Some(file) = manifest.damaged_file(dir) {
            return Err(damaged(&file, dir));
        }
        // Tantivy's files carry their own checksums: check them before a
        // search can trip over a damaged one.
        match no_panic(&tdir, dir, || Ok(index.validate_checksum()?)) {
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
        let vectors = no_panic(&dir.join(format!("{base}.ids")), dir, || {
            VectorStore::load(dir, &base, manifest.hnsw.as_deref())
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
        })
    }

    pub fn chunk_count(&self) -> usize {
        self.manifest.chunk_count
    }

    /// BM25 over heading chain + title + text, lenient about what users type.
    pub fn bm25(&self, query: &str, k: usize) -> Result<Vec<Hit>> {
        if query.trim().is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let searcher = self.reader.searcher();
        let mut qp = QueryParser::for_index(&self.index, self.text_fields().to_vec());
        qp.set_field_boost(self.fields.source_title, 0.5);
        let (q, _errors) = qp.parse_query_lenient(query);
        let top = searcher.search(&q, &TopDocs::with_limit(k).order_by_score())?;
        top.into_iter()
            .map(|(score, addr)| {
                let (chunk, vector) = self.load(&searcher, addr)?;
                Ok(Hit {
                    chunk,
                    score,
                    vector,
                })
            })
            .collect()
    }

    /// Nearest chunks by vector: (chunk id, cosine similarity), exploring
    /// `ef` candidates in the graph.
    pub fn vector_search(&self, query: &[f32], k: usize, ef: usize) -> Vec<(String, f32)> {
        self.vectors.search(query, k, ef)
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
    /// analysed: lower-cased and stemmed), over body, location and title.
    pub fn doc_freq(&self, term: &str) -> u64 {
        let searcher = self.reader.searcher();
        self.max_over_text_fields(|f| {
            searcher
                .doc_freq(&Term::from_field_text(f, term))
                .unwrap_or(0)
        })
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

/// Progress events of an update, for a progress bar.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    Reading {
        done: usize,
        total: usize,
        chunks: usize,
    },
    Embedding {
        done: usize,
        total: usize,
    },
    BuildingGraph {
        vectors: usize,
    },
    Committing,
    /// The index in force was damaged (this file): everything is rebuilt.
    Rebuilding {
        damaged: PathBuf,
    },
}

/// What an update did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct UpdateReport {
    pub index_dir: PathBuf,
    pub files_seen: usize,
    pub files_indexed: usize,
    pub files_unchanged: usize,
    pub files_removed: usize,
    pub chunks_total: usize,
    pub chunks_added: usize,
    pub chunks_embedded: usize,
    pub skipped: Vec<Skipped>,
    /// Files read in an encoding that was guessed: (source id, encoding).
    pub guessed_encodings: Vec<(String, String)>,
    pub up_to_date: bool,
    pub elapsed_ms: f64,
}

/// Settings of an update.
#[derive(Debug, Clone, Copy, Default)]
pub struct UpdateOptions {
    pub chunk: ChunkConfig,
    pub limits: Limits,
    /// Replace an index that was built for another sources folder (else
    /// that is an error: one index folder, one sources folder).
    pub replace_other_sources: bool,
}

/// Build or incrementally update the index of `sources` in `dir`.
pub fn update(
    sources: &Path,
    dir: &Path,
    opts: &UpdateOptions,
    embedder: Option<&dyn Embedder>,
    progress: &mut dyn FnMut(Progress),
) -> Result<UpdateReport> {
    let t0 = Instant::now();
    if !sources.is_dir() {
        bail!(
            "the sources folder {} does not exist or is not a folder",
            sources.display()
        );
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the index folder {}", dir.display()))?;
    let _lock = lock(dir)?;
    let tdir = dir.join("tantivy");
    std::fs::create_dir_all(&tdir)?;
    let (tschema, fields) = schema::build();
    let opened = if tdir.join("meta.json").exists() {
        match no_panic(&tdir, dir, || Ok(tantivy::Index::open_in_dir(&tdir)?)) {
            Ok(i) => Some(i),
            Err(_) => {
                // Unreadable: start over (the sources are the truth).
                progress(Progress::Rebuilding {
                    damaged: tdir.join("meta.json"),
                });
                std::fs::remove_dir_all(&tdir)?;
                std::fs::create_dir_all(&tdir)?;
                None
            }
        }
    } else {
        None
    };
    // An index of another schema (an older analyzer) is rebuilt from scratch.
    let opened = match opened {
        Some(i) if i.schema() != tschema => {
            drop(i);
            std::fs::remove_dir_all(&tdir)?;
            std::fs::create_dir_all(&tdir)?;
            None
        }
        other => other,
    };
    let index = match opened {
        Some(i) => i,
        None => tantivy::Index::create_in_dir(&tdir, tschema)?,
    };
    schema::register(&index);

    // The generation in force, if any, and whether it can be reused.
    let previous: Option<Manifest> = index
        .load_metas()?
        .payload
        .as_deref()
        .and_then(|p| std::fs::read(dir.join(format!("{p}.manifest.json"))).ok())
        .and_then(|b| serde_json::from_slice::<Manifest>(&b).ok())
        .filter(|m| m.format == MANIFEST_FORMAT);
    let canonical = sources.canonicalize()?.to_string_lossy().into_owned();
    if let Some(m) = &previous
        && m.sources != canonical
        && !opts.replace_other_sources
    {
        bail!(
            "the index folder {} holds the index of another folder ({}); \
             choose another --index-dir, or pass --force to replace that index",
            dir.display(),
            crate::text::sanitize_for_terminal(&m.sources, false)
        );
    }
    // A damaged previous generation is not reused: everything is rebuilt.
    let damaged_previous = previous.as_ref().and_then(|m| {
        m.damaged_file(dir).or_else(|| {
            let bad = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                index.validate_checksum()
            }));
            match bad {
                Ok(Ok(b)) if b.is_empty() => None,
                _ => Some(tdir.clone()),
            }
        })
    });
    if let Some(file) = &damaged_previous {
        progress(Progress::Rebuilding {
            damaged: file.clone(),
        });
    }
    let generation = previous.as_ref().map_or(1, |m| m.generation + 1);
    let previous = previous.filter(|_| damaged_previous.is_none());
    let embedder_id = embedder.map(|e| e.id().to_string());
    let dim = embedder.map_or(0, |e| e.dim());
    let reusable = previous.as_ref().filter(|m| {
        m.embedder == embedder_id
            && m.chunker == CHUNKER_VERSION
            && m.dim == dim
            && serde_json::to_string(&m.chunk_config).ok()
                == serde_json::to_string(&opts.chunk).ok()
    });
    remove_stale(dir, previous.as_ref().map(|m| m.generation));

    let (files, mut skipped) = ingest::discover(sources, &opts.limits, &[dir]);
    let mut report = UpdateReport {
        index_dir: dir.to_path_buf(),
        files_seen: files.len() + skipped.len(),
        ..Default::default()
    };

    // Read, hash, and (for new or changed files) extract and chunk.
    let mut entries: BTreeMap<String, FileEntry> = BTreeMap::new();
    let mut new_chunks: Vec<Chunk> = Vec::new();
    let mut changed: HashSet<String> = HashSet::new();
    let total = files.len();
    for (i, f) in files.iter().enumerate() {
        progress(Progress::Reading {
            done: i,
            total,
            chunks: new_chunks.len(),
        });
        let bytes = match ingest::read_limited(&f.path, opts.limits.max_file_bytes) {
            Ok(b) => b,
            Err(reason) => {
                skipped.push(Skipped {
                    source_id: f.source_id.clone(),
                    reason,
                });
                continue;
            }
        };
        let hash = blake3::hash(&bytes).to_hex().to_string();
        if let Some(prev) = reusable.and_then(|m| m.files.get(&f.source_id))
            && prev.hash == hash
        {
            entries.insert(f.source_id.clone(), prev.clone());
            continue;
        }
        match ingest::worker::extract(f.format, &bytes, &opts.limits) {
            Ok(mut ex) => {
                ingest::metadata::settle(&mut ex, &stem(&f.path));
                let title = ex.title.clone().unwrap_or_else(|| stem(&f.path));
                let chunks = chunk_document(&f.source_id, &title, &ex, opts.chunk);
                if chunks.is_empty() {
                    skipped.push(Skipped {
                        source_id: f.source_id.clone(),
                        reason: "no text".into(),
                    });
                    continue;
                }
                entries.insert(
                    f.source_id.clone(),
                    FileEntry {
                        hash,
                        size: bytes.len() as u64,
                        title,
                        format: f.format,
                        chunks: chunks.len() as u32,
                        author: ex.author.clone(),
                        encoding: ex
                            .decoding
                            .as_ref()
                            .filter(|d| d.how != "utf-8")
                            .map(|d| format!("{} ({})", d.encoding, d.how)),
                        page_labels: ex.page_labels.clone(),
                    },
                );
                changed.insert(f.source_id.clone());
                new_chunks.extend(chunks);
            }
            Err(reason) => skipped.push(Skipped {
                source_id: f.source_id.clone(),
                reason,
            }),
        }
    }
    progress(Progress::Reading {
        done: total,
        total,
        chunks: new_chunks.len(),
    });
    // Reasons may quote the file's own bytes (a parser's error message):
    // nothing from a file reaches a terminal raw.
    for s in &mut skipped {
        s.reason = crate::text::sanitize_for_terminal(&s.reason, false);
    }
    skipped.sort_by(|a, b| a.source_id.cmp(&b.source_id));

    let removed: Vec<String> = match reusable {
        Some(m) => m
            .files
            .keys()
            .filter(|k| !entries.contains_key(*k))
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    report.files_indexed = changed.len();
    report.files_unchanged = entries.len() - changed.len();
    report.files_removed = removed.len();
    report.chunks_added = new_chunks.len();
    report.chunks_total = entries.values().map(|e| e.chunks as usize).sum();
    report.skipped = skipped.clone();
    report.guessed_encodings = entries
        .iter()
        .filter_map(|(id, e)| {
            let enc = e.encoding.as_deref()?;
            enc.ends_with("(guessed)")
                .then(|| (id.clone(), enc.trim_end_matches(" (guessed)").to_string()))
        })
        .collect();

    if let Some(prev) = reusable
        && changed.is_empty()
        && removed.is_empty()
        && prev.skipped == skipped
    {
        report.up_to_date = true;
        report.elapsed_ms = t0.elapsed().as_secs_f64() * 1e3;
        return Ok(report);
    }

    // Vectors: reuse the previous generation's for unchanged chunks.
    let mut old_vectors: HashMap<String, Vec<f32>> = HashMap::new();
    if let (Some(prev), Some(_)) = (reusable, embedder)
        && let Ok((d, vs)) =
            vectors::read_vectors(&dir.join(format!("{}.vectors", Manifest::base(prev.generation))))
        && d == dim
    {
        old_vectors = vs
            .into_iter()
            .filter(|(id, _)| !changed.contains(source_of(id)))
            .collect();
    }
    let mut fresh: HashMap<String, Vec<f32>> = HashMap::new();
    if let Some(e) = embedder {
        let total = new_chunks.len();
        for (done, batch) in new_chunks.chunks(256).enumerate() {
            progress(Progress::Embedding {
                done: done * 256,
                total,
            });
            let texts: Vec<String> = batch.iter().map(embed_text).collect();
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            let vs = e.embed(&refs).context("embedding chunks")?;
            if vs.len() != batch.len() || vs.iter().any(|v| v.len() != dim) {
                bail!("the embedder returned vectors of the wrong shape");
            }
            for (c, v) in batch.iter().zip(vs) {
                fresh.insert(c.id.clone(), v);
            }
        }
        report.chunks_embedded = total;
        progress(Progress::Embedding { done: total, total });
    }

    // Tantivy: drop changed/removed sources (or everything), add new chunks.
    let mut writer: tantivy::IndexWriter<TantivyDocument> = index
        .writer_with_num_threads(2, 128_000_000)
        .context("another process is writing this index")?;
    if reusable.is_none() {
        writer.delete_all_documents()?;
    }
    for sid in changed.iter().chain(removed.iter()) {
        writer.delete_term(Term::from_field_text(fields.source_id, sid));
    }
    for c in &new_chunks {
        let mut doc = TantivyDocument::new();
        doc.add_text(fields.chunk_id, &c.id);
        doc.add_text(fields.source_id, &c.source_id);
        doc.add_text(fields.source_title, &c.source_title);
        doc.add_text(fields.location, &c.location);
        doc.add_text(fields.body, &c.text);
        doc.add_u64(fields.start, c.start as u64);
        doc.add_u64(fields.end, c.end as u64);
        doc.add_u64(fields.ordinal, c.ordinal as u64);
        doc.add_u64(fields.tokens, c.tokens as u64);
        doc.add_u64(fields.line, c.line.unwrap_or(0) as u64);
        doc.add_u64(fields.page, c.page.unwrap_or(0) as u64);
        if let Some(v) = fresh.get(&c.id) {
            let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
            doc.add_bytes(fields.vector, &bytes);
        }
        writer.add_document(doc)?;
    }
    // Flush the new segments now, so the writer's buffers and the chunk
    // texts are freed before the graph is built; the commit that makes
    // them the index in force comes last.
    let mut prepared = writer.prepare_commit()?;
    drop(new_chunks);

    // The new generation's side files, then the atomic switch.
    let base = Manifest::base(generation);
    let mut all_vectors: Vec<(String, Vec<f32>)> = old_vectors.into_iter().chain(fresh).collect();
    all_vectors.sort_by(|a, b| a.0.cmp(&b.0));
    let mut manifest = Manifest {
        format: MANIFEST_FORMAT,
        generation,
        sources: sources.canonicalize()?.to_string_lossy().into_owned(),
        chunker: CHUNKER_VERSION,
        embedder: embedder_id,
        dim,
        chunk_config: opts.chunk,
        files: entries,
        skipped,
        chunk_count: report.chunks_total,
        hnsw: None,
        checksums: BTreeMap::new(),
    };
    if embedder.is_some() {
        progress(Progress::BuildingGraph {
            vectors: all_vectors.len(),
        });
        vectors::write_vectors(&dir.join(format!("{base}.vectors")), dim, &all_vectors)?;
        let store = VectorStore::build(all_vectors);
        manifest.hnsw = store.dump(dir, &base)?;
    } else {
        VectorStore::build(Vec::new()).dump(dir, &base)?;
    }
    manifest.record_checksums(dir)?;
    write_atomic(
        &dir.join(format!("{base}.manifest.json")),
        &serde_json::to_vec_pretty(&manifest)?,
    )?;
    crash_point("before_commit");
    progress(Progress::Committing);
    prepared.set_payload(&base);
    prepared.commit()?;
    writer.wait_merging_threads()?;
    remove_stale(dir, Some(generation));
    report.elapsed_ms = t0.elapsed().as_secs_f64() * 1e3;
    Ok(report)
}

/// The text a chunk is embedded from: its location gives context.
fn embed_text(c: &Chunk) -> String {
    format!("{}. {}. {}", c.source_title, c.location, c.text)
}

fn source_of(chunk_id: &str) -> &str {
    chunk_id.rsplit_once('#').map_or(chunk_id, |(s, _)| s)
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Test hook: abort the process at a named point when
/// `RESEARCH_BOARD_CRASH_AT` names it (used by the kill-during-index test).
fn crash_point(name: &str) {
    if std::env::var("RESEARCH_BOARD_CRASH_AT").is_ok_and(|v| v == name) {
        std::process::abort();
    }
}

fn lock(dir: &Path) -> Result<std::fs::File> {
    use fs2::FileExt;
    let f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join("index.lock"))
        .with_context(|| format!("cannot write to the index folder {}", dir.display()))?;
    f.try_lock_exclusive().with_context(|| {
        format!(
            "another research-board process is indexing {}; wait for it to finish",
            dir.display()
        )
    })?;
    Ok(f)
}

fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// Remove side files of generations other than `keep`.
fn remove_stale(dir: &Path, keep: Option<u64>) {
    let keep = keep.map(|g| format!("gen-{g}."));
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("gen-") && keep.as_deref().is_none_or(|k| !name.starts_with(k)) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}
