//! Writing the index: build or incrementally update the next generation
//! under the index lock, write its side files and checksums, and make it
//! current by Tantivy's commit (see the module docs of `index`).

use super::vectors::{self, VectorStore};
use super::{FileEntry, MANIFEST_FORMAT, Manifest, file_hash, no_panic, write_atomic};
use super::{schema, sweep};
use crate::chunk::{Chunk, ChunkConfig, chunk_document};
use crate::embed::Embedder;
use crate::ingest::{self, Limits, Skipped};
use anyhow::{Context, Result, bail};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tantivy::{TantivyDocument, Term};

/// Bumped whenever loaders, the chunker or the analyzer change what they
/// produce, so that an index built by an older version is rebuilt rather
/// than reused.
const CHUNKER_VERSION: u32 = 58;

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
    /// Files that changed while they were being read (a save in progress):
    /// left as they were (or out, if new) until the next update.
    pub files_busy: Vec<String>,
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
    /// The delta's limit in floats (`None`: [`vectors::DELTA_MAX_FLOATS`];
    /// `Some(0)`: every update inserts into the graph and writes it anew,
    /// as before issue 13 — the scale bench's baseline).
    pub delta_max_floats: Option<usize>,
    /// Read every file of the previous generation to check it against its
    /// checksum, and every source file to compare it with the one indexed,
    /// trusting no size and time (the `index` command: bit rot that `ask`
    /// found is then rebuilt, and an edit that kept its file's size and
    /// time is read, not reported "up to date").
    pub check_all: bool,
}

/// A file's size and modification time.
fn stamp(path: &Path) -> Result<(u64, Option<std::time::SystemTime>), String> {
    let m = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    Ok((m.len(), m.modified().ok()))
}

/// A file's bytes, or `None` when it changed while it was read (a save in
/// progress): a half-written file is never indexed. `between` runs after
/// the read (a test's way to change the file at that moment).
fn read_settled(
    path: &Path,
    limit: u64,
    between: impl FnOnce(),
) -> Result<Option<Vec<u8>>, String> {
    let before = stamp(path)?;
    let bytes = ingest::read_limited(path, limit)?;
    between();
    let after = stamp(path)?;
    Ok((before == after && after.0 == bytes.len() as u64).then_some(bytes))
}

/// Build or incrementally update the index of `sources` in `dir`.
pub fn update(
    sources: &Path,
    dir: &Path,
    opts: &UpdateOptions,
    embedder: Option<&dyn Embedder>,
    progress: &mut dyn FnMut(Progress),
) -> Result<UpdateReport> {
    let r = run(sources, dir, opts, embedder, progress);
    // A failure in an index folder this update wrote to (not one refused
    // before it was touched): remove what the failed update left.
    if r.is_err() && dir.join("index.lock").is_file() {
        sweep::after_failure(dir);
    }
    r
}

fn run(
    sources: &Path,
    dir: &Path,
    opts: &UpdateOptions,
    embedder: Option<&dyn Embedder>,
    progress: &mut dyn FnMut(Progress),
) -> Result<UpdateReport> {
    let t0 = Instant::now();
    // `RESEARCH_BOARD_TIMINGS=1`: each phase's time on stderr.
    let timings = std::env::var_os("RESEARCH_BOARD_TIMINGS").is_some();
    let mut tl = Instant::now();
    let mut lap = |n: &str| {
        if timings {
            eprintln!("{n}: {:.0} ms", tl.elapsed().as_secs_f64() * 1e3);
        }
        tl = Instant::now();
    };
    if !sources.is_dir() {
        bail!(
            "the sources folder {} does not exist or is not a folder",
            sources.display()
        );
    }
    super::guard::check_index_dir(sources, dir)?;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the index folder {}", dir.display()))?;
    let _lock = super::lock::lock(dir)?;
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

    lap("t-open");
    // The generation in force, if any, and whether it can be reused.
    let payload = index.load_metas()?.payload;
    // The committed generation's number, whatever its manifest says: the
    // next one gets a new name even when that manifest is of another
    // format, so a crash cannot leave new files under the committed name.
    let committed: Option<u64> = payload
        .as_deref()
        .and_then(|p| p.strip_prefix("gen-")?.parse().ok());
    let previous = sweep::manifest_of(dir, payload.as_deref());
    let canonical = sources.canonicalize()?.to_string_lossy().into_owned();
    if let Some(m) = &previous
        && m.sources != canonical
        && !opts.replace_other_sources
    {
        return Err(super::another_folders_index(
            dir,
            &m.sources,
            "choose another --index-dir, or pass --force to replace that index",
        ));
    }
    lap("manifest-parse");
    // A damaged previous generation is not reused: everything is rebuilt.
    let damaged_previous = previous.as_ref().and_then(|m| {
        let side = if opts.check_all {
            m.damaged_file_where(dir, |_| true)
        } else {
            m.damaged_file_quick(dir)
        };
        side.or_else(|| {
            if !opts.check_all && super::stamps::tantivy_unchanged(&index, &tdir, m) {
                return None;
            }
            let bad = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                index.validate_checksum()
            }));
            match bad {
                Ok(Ok(b)) if b.is_empty() => None,
                _ => Some(tdir.clone()),
            }
        })
    });
    lap("damage-check");
    if let Some(file) = &damaged_previous {
        progress(Progress::Rebuilding {
            damaged: file.clone(),
        });
    }
    let generation = committed.map_or(1, |g| g + 1);
    let previous = previous.filter(|_| damaged_previous.is_none());
    let embedder_id = embedder.map(|e| e.id().to_string());
    let dim = embedder.map_or(0, |e| e.dim());
    let mut reusable = previous.as_ref().filter(|m| {
        m.embedder == embedder_id
            && m.chunker == CHUNKER_VERSION
            && m.dim == dim
            && serde_json::to_string(&m.chunk_config).ok()
                == serde_json::to_string(&opts.chunk).ok()
    });
    // What a failed or killed update left: its side files, its segment
    // files (a deletes file of the very opstamp this run will use would be
    // refused as existing).
    sweep::remove_stale(dir, &previous.as_ref().map_or(Vec::new(), Manifest::in_use));
    sweep::collect_tantivy(&index, &tdir)?;
    // What the update needs of the previous generation's vectors; files it
    // cannot read mean a rebuild from the sources, as a damaged file does.
    let mut prev_vectors = None;
    if let (Some(prev), Some(_)) = (reusable, embedder) {
        let vbase = Manifest::base(prev.vectors_generation());
        match vectors::Previous::read(
            dir,
            &vbase,
            prev.hnsw.as_deref(),
            &prev.dead_rows,
            prev.parts(dir).delta.as_deref(),
        ) {
            Ok(p) => prev_vectors = Some(p),
            Err(_) => {
                progress(Progress::Rebuilding {
                    damaged: dir.join(format!("{vbase}.vectors")),
                });
                reusable = None;
            }
        }
    }

    lap("checks");
    let (files, mut skipped) = ingest::discover(sources, &opts.limits, &[dir]);
    // An empty folder where the index had files: an unmounted drive or a
    // sync client's moment, more often than the wish to empty the index.
    if let Some(m) = previous.as_ref().filter(|m| !m.files.is_empty())
        && files.is_empty()
        && skipped.is_empty()
        && !opts.replace_other_sources
    {
        bail!(
            "the sources folder {} is empty, and its index holds {} files: kept as it is \
             (an unmounted drive?); pass --force to empty the index",
            sources.display(),
            m.files.len()
        );
    }
    let mut report = UpdateReport {
        index_dir: dir.to_path_buf(),
        files_seen: files.len() + skipped.len(),
        ..Default::default()
    };

    lap("discover");
    // Read, hash, and (for new or changed files) extract and chunk.
    let mut entries: BTreeMap<String, FileEntry> = BTreeMap::new();
    let mut new_chunks: Vec<Chunk> = Vec::new();
    let mut changed: HashSet<String> = HashSet::new();
    let mut failed: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let limits_key = format!("{:?}", opts.limits);
    let total = files.len();
    for (i, f) in files.iter().enumerate() {
        if i % 256 == 0 {
            progress(Progress::Reading {
                done: i,
                total,
                chunks: new_chunks.len(),
            });
        }
        // Same size and modification time as when it was indexed: the
        // same file, not read again (as git and rsync judge it).
        let modified = f.modified;
        if let Some(prev) = reusable.and_then(|m| m.files.get(&f.source_id))
            && !opts.check_all
            && prev.modified.is_some()
            && prev.modified == modified
            && prev.size == f.size
        {
            entries.insert(f.source_id.clone(), prev.clone());
            continue;
        }
        // A file that could not be read last time, unchanged: the same
        // reason, without paying for the parser again.
        if let (Some(m), Some(t)) = (reusable, modified)
            && m.failed_limits.as_deref() == Some(limits_key.as_str())
            && m.failed.get(&f.source_id) == Some(&(f.size, t))
            && let Some(s) = m.skipped.iter().find(|s| s.source_id == f.source_id)
        {
            failed.insert(f.source_id.clone(), (f.size, t));
            skipped.push(s.clone());
            continue;
        }
        let read_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let settled = modified.filter(|t| t.saturating_add(super::SETTLED_NS) < read_at);
        let bytes = match read_settled(&f.path, opts.limits.max_file_bytes, || {}) {
            Ok(Some(b)) => b,
            // Being written: keep what the index had of it, read it next time.
            Ok(None) => {
                report.files_busy.push(f.source_id.clone());
                if let Some(prev) = reusable.and_then(|m| m.files.get(&f.source_id)) {
                    entries.insert(f.source_id.clone(), prev.clone());
                }
                continue;
            }
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
            let mut same = prev.clone();
            same.modified = settled;
            same.seen = modified;
            entries.insert(f.source_id.clone(), same);
            continue;
        }
        match ingest::worker::extract(f.format, &bytes, &opts.limits, Some(&f.path)) {
            Ok(mut ex) => {
                ingest::metadata::settle(&mut ex, &ingest::file_title(&f.path));
                let title = ex
                    .title
                    .clone()
                    .unwrap_or_else(|| ingest::file_title(&f.path));
                let chunks = chunk_document(&f.source_id, &title, &ex, opts.chunk);
                if chunks.is_empty() {
                    failed.extend(settled.map(|t| (f.source_id.clone(), (f.size, t))));
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
                        folios: ex.folios.clone(),
                        pages: ex.pages,
                        modified: settled,
                        seen: modified,
                    },
                );
                changed.insert(f.source_id.clone());
                new_chunks.extend(chunks);
            }
            Err(reason) => {
                failed.extend(settled.map(|t| (f.source_id.clone(), (f.size, t))));
                skipped.push(Skipped {
                    source_id: f.source_id.clone(),
                    reason,
                });
            }
        }
    }
    lap("read");
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
        // Files read again only because their stamps were not recorded
        // (an index written before stamps, or files then just saved):
        // record them in the manifest in force, so the next update skips
        // them. Same generation, same content otherwise; written atomically.
        if entries.iter().any(|(id, e)| prev.files.get(id) != Some(e))
            || prev.failed != failed
            || prev.failed_limits.as_ref() != Some(&limits_key)
        {
            let mut m = prev.clone();
            m.files = entries;
            m.failed = failed;
            m.failed_limits = Some(limits_key);
            // Not written (a full disk): the index is up to date all the
            // same, and the next update reads those files again.
            let _ = write_atomic(
                &dir.join(format!("{}.manifest.json", Manifest::base(m.generation))),
                &serde_json::to_vec(&m)?,
            );
        }
        report.elapsed_ms = t0.elapsed().as_secs_f64() * 1e3;
        return Ok(report);
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

    lap("embed");
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
    lap("tantivy-add");
    // Flush the new segments now, so the writer's buffers and the chunk
    // texts are freed before the graph is built; the commit that makes
    // them the index in force comes last.
    let mut prepared = writer.prepare_commit()?;
    drop(new_chunks);

    lap("prepare");
    // The new generation's side files, then the atomic switch.
    let base = Manifest::base(generation);
    let mut fresh_list: Vec<(String, Vec<f32>)> = fresh.into_iter().collect();
    fresh_list.sort_by(|a, b| a.0.cmp(&b.0));
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
        vectors_base: None,
        dead_rows: Vec::new(),
        delta: false,
        stamps: BTreeMap::new(),
        tantivy_stamps: BTreeMap::new(),
        failed,
        failed_limits: Some(limits_key),
    };
    if embedder.is_some() {
        progress(Progress::BuildingGraph {
            vectors: report.chunks_total,
        });
        // The previous generation's vectors, updated in place of a
        // rebuild: its removed and changed sources' chunks dead, the new
        // chunks in a delta beside the graph (inserted into the graph once
        // the delta grows; the graph rebuilt once tombstones pile up).
        let removed: HashSet<&str> = removed.iter().map(String::as_str).collect();
        let gone = |id: &str| {
            let s = source_of(id);
            changed.contains(s) || removed.contains(s)
        };
        let limit = opts.delta_max_floats.unwrap_or(vectors::DELTA_MAX_FLOATS);
        match (prev_vectors, reusable) {
            (Some(p), Some(prev)) => match p.next(gone, fresh_list, limit)? {
                vectors::Next::Store(store) => manifest.hnsw = store.dump(dir, &base)?,
                vectors::Next::Delta { dead, delta } => {
                    manifest.vectors_base = Some(prev.vectors_generation());
                    manifest.hnsw = prev.hnsw.clone();
                    manifest.dead_rows = dead;
                    if !delta.is_empty() {
                        vectors::write_delta(&dir.join(format!("{base}.delta")), dim, &delta)?;
                        manifest.delta = true;
                    }
                    // The base's files are the previous generation's: their
                    // checksums and stamps carry over.
                    let of_base = format!("{}.", Manifest::base(prev.vectors_generation()));
                    for (name, sum) in &prev.checksums {
                        if name.starts_with(&of_base) && !name.ends_with(".manifest.json") {
                            manifest.checksums.insert(name.clone(), sum.clone());
                            if let Some(st) = prev.stamps.get(name) {
                                manifest.stamps.insert(name.clone(), *st);
                            }
                        }
                    }
                }
            },
            _ => manifest.hnsw = VectorStore::build(fresh_list).dump(dir, &base)?,
        }
    } else {
        VectorStore::build(Vec::new()).dump(dir, &base)?;
    }
    lap("vectors");
    manifest.record_checksums(dir)?;
    manifest.tantivy_stamps = super::stamps::tantivy_stamps(&tdir);
    write_atomic(
        &dir.join(format!("{base}.manifest.json")),
        &serde_json::to_vec(&manifest)?,
    )?;
    lap("manifest");
    crash_point("before_commit")?;
    progress(Progress::Committing);
    prepared.set_payload(&base);
    prepared.commit()?;
    writer.wait_merging_threads()?;
    lap("commit");
    sweep::remove_stale(dir, &manifest.in_use());
    report.elapsed_ms = t0.elapsed().as_secs_f64() * 1e3;
    Ok(report)
}

impl Manifest {
    /// Record the checksums of this generation's side files in `dir`.
    /// (Those of its base, an earlier generation, are carried over.)
    fn record_checksums(&mut self, dir: &Path) -> Result<()> {
        let prefix = format!("{}.", Self::base(self.generation));
        for e in std::fs::read_dir(dir)?.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with(&prefix)
                && !name.ends_with(".manifest.json")
                && !name.ends_with(".tmp")
            {
                self.checksums.insert(name.clone(), file_hash(&e.path())?);
                if let Some(st) = super::stamps::stamp(&e.path()) {
                    self.stamps.insert(name, st);
                }
            }
        }
        Ok(())
    }
}

/// The text a chunk is embedded from: its location gives context.
fn embed_text(c: &Chunk) -> String {
    format!("{}. {}. {}", c.source_title, c.location, c.text)
}

fn source_of(chunk_id: &str) -> &str {
    chunk_id.rsplit_once('#').map_or(chunk_id, |(s, _)| s)
}

/// Test hook: abort the process at a named point when
/// `RESEARCH_BOARD_CRASH_AT` names it (the kill-during-index test), or
/// fail there as a full disk does when it names `full:` and the point.
fn crash_point(name: &str) -> Result<()> {
    match std::env::var("RESEARCH_BOARD_CRASH_AT") {
        Ok(v) if v == name => std::process::abort(),
        // As Tantivy reports it: the I/O error in its message only.
        Ok(v) if v.strip_prefix("full:") == Some(name) => Err(anyhow::anyhow!(
            "Internal error: 'No space left on device (os error 28)'"
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A file that grows while it is read is not taken half-written; a
    /// file left alone is read whole.
    #[test]
    fn a_file_being_written_is_left_for_the_next_update() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("draft.md");
        std::fs::write(&f, "The keeper wrote the first half").unwrap();
        let busy = read_settled(&f, 1 << 20, || {
            let mut w = std::fs::OpenOptions::new().append(true).open(&f).unwrap();
            w.write_all(b" and then the second half.").unwrap();
        })
        .unwrap();
        assert_eq!(busy, None);
        let settled = read_settled(&f, 1 << 20, || {}).unwrap().unwrap();
        assert_eq!(
            String::from_utf8(settled).unwrap(),
            "The keeper wrote the first half and then the second half."
        );
    }
}
