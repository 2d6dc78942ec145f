//! The on-disk index: Tantivy (BM25 over heading chain + text, and the stored
//! chunks) plus the HNSW vector graph, versioned by generation.
//!
//! Durability: every update writes a new generation's side files (manifest,
//! chunk-id list, vectors, graph) first, then commits Tantivy with the
//! generation name as the commit payload. The Tantivy commit is the single
//! atomic switch: a crash or kill at any earlier point leaves the previous
//! commit, and so the previous generation, in force. Stale files are removed
//! after a successful commit and on the next run.
//!
//! `reader.rs` opens a committed generation and searches it; `writer.rs`
//! builds the next generation and commits it (under the index lock).
//!
//! Opening is quick whatever the size: the reader checks the manifest, the
//! vectors file and Tantivy's files, and memory-maps the vectors file,
//! which answers vector searches by an exact scan; the graph (the larger
//! files, and the slow part) is checked and loaded on a background thread,
//! and searches go to it once it is there (`vectors/opened.rs`).

mod guard;
mod live;
mod lock;
mod reader;
mod readonly;
mod schema;
mod stamps;
mod sweep;
mod vectors;
mod writer;

pub use lock::is_busy;
pub use reader::{Hit, Index};
pub use vectors::{EXACT_SCAN_MAX_FLOATS, VectorStore, read_ids as read_vector_ids, read_vectors};
pub use writer::{Progress, UpdateOptions, UpdateReport, update};

use crate::chunk::ChunkConfig;
use crate::ingest::{Format, Skipped};
use anyhow::{Context, Result, anyhow};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// 3: the vectors file holds a row per data id of the graph and the chunk
/// ids (the `.ids` file is gone). 4: a generation's vectors may be an
/// earlier generation's (its base) with dead rows and a delta file.
const MANIFEST_FORMAT: u32 = 4;

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
    /// The page numbers its pages print, where it declares no labels (see
    /// `ingest::pdf::folios`); empty where not known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folios: Option<Vec<String>>,
    /// How many physical pages a paged document has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<u32>,
    /// The file's modification time (ns since the epoch) when it was read,
    /// if it was then at least [`SETTLED_NS`] old: a file with the same
    /// size and modification time is not read again. (A younger stamp is
    /// not recorded: on a file system with coarse times a second save in
    /// the same tick would keep it.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified: Option<u64>,
    /// The file's modification time when it was read, however young: a
    /// file whose time differs has changed since (see [`FileStamp`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen: Option<u64>,
}

/// See [`FileEntry::modified`].
pub const SETTLED_NS: u64 = 2_000_000_000;

/// A source file as an index read it: where, its size and modification
/// time (ns since the epoch, when recorded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStamp {
    pub path: PathBuf,
    pub size: u64,
    pub modified: Option<u64>,
}

impl FileStamp {
    /// The file as it is now, if it is there.
    pub fn of(path: &std::path::Path) -> Option<FileStamp> {
        let (size, t) = stamps::stamp(path)?;
        Some(FileStamp {
            path: path.to_path_buf(),
            size,
            modified: Some(t),
        })
    }

    /// Has the file changed (size or time) or gone since?
    pub fn changed(&self) -> bool {
        stamps::stamp(&self.path)
            .is_none_or(|(size, t)| size != self.size || self.modified.is_some_and(|e| e != t))
    }
}

/// The pages a work is printed on, as its bibliography entry gives them:
/// first and last, counted in Roman numerals ("xi--xiv", a foreword) or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkPages {
    pub first: u32,
    pub last: u32,
    pub roman: bool,
}

impl WorkPages {
    /// Page `n` as the work prints it: "13", or "xiii".
    pub fn label(&self, n: u32) -> String {
        if self.roman {
            crate::ingest::roman_numeral(u64::from(n))
        } else {
            n.to_string()
        }
    }
}

impl FileEntry {
    /// The printed page of physical page `page` of a work printed on pages
    /// `work` (its bibliography's "291--293", "xi--xiv"), or `None` when it
    /// cannot be known:
    /// - the page label, when the file declares labels (none when empty);
    /// - else the number the page prints (its folio), when the work's pages
    ///   are not known or the file's folios are within them (a preprint
    ///   numbered 1–4 is not the article printed on pp. 291–294);
    /// - else, when the file has exactly the work's pages, the page the
    ///   work counts to;
    /// - else `None` for a work whose pages are known (a cover page, an
    ///   offprint: even one printed from page 1), and the physical page
    ///   number for one whose pages are not.
    pub fn printed_page(&self, page: u32, work: Option<WorkPages>) -> Option<String> {
        let label = |labels: &Vec<String>| {
            labels
                .get((page as usize).checked_sub(1)?)
                .filter(|l| !l.is_empty())
                .cloned()
        };
        if let Some(labels) = &self.page_labels {
            return label(labels);
        }
        let within = |w: &WorkPages, folios: &[String]| {
            let mut known = folios.iter().filter(|l| !l.is_empty()).peekable();
            known.peek().is_some()
                && known.all(|l| match l.parse::<u32>() {
                    Ok(n) => !w.roman && (w.first..=w.last).contains(&n),
                    // Roman: a foreword's few pages.
                    Err(_) => {
                        w.roman
                            && w.last - w.first <= 500
                            && (w.first..=w.last).any(|n| w.label(n) == *l)
                    }
                })
        };
        match (work, &self.folios) {
            (None, Some(folios)) => label(folios),
            (Some(w), Some(folios)) if within(&w, folios) => label(folios),
            (Some(w), _)
                if self.pages == Some(w.last - w.first + 1) && page <= w.last - w.first + 1 =>
            {
                Some(w.label(w.first + page - 1))
            }
            (Some(_), _) => None,
            (None, None) => Some(page.to_string()),
        }
    }
}

impl Manifest {
    /// [`FileEntry::printed_page`] of `source_id`'s physical page `page`.
    pub fn printed_page(
        &self,
        source_id: &str,
        page: u32,
        work: Option<WorkPages>,
    ) -> Option<String> {
        match self.files.get(source_id) {
            Some(f) => f.printed_page(page, work),
            None => Some(page.to_string()),
        }
    }

    /// The printed pages `first` to `last` of a work printed on pages
    /// `work`: "4", or "ii–1" for a quote that runs onto the next page;
    /// `None` when they cannot be known.
    pub fn printed_pages(
        &self,
        source_id: &str,
        first: u32,
        last: u32,
        work: Option<WorkPages>,
    ) -> Option<String> {
        let a = self.printed_page(source_id, first, work)?;
        if last == first {
            return Some(a);
        }
        Some(format!("{a}–{}", self.printed_page(source_id, last, work)?))
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
    /// The generation whose vectors file and graph this generation's
    /// vectors start from, when it is an earlier one: an update that adds
    /// or changes a few files writes a delta, not the whole graph.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vectors_base: Option<u64>,
    /// Rows of the base's vectors file whose chunks are gone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dead_rows: Vec<u32>,
    /// Whether `gen-N.delta` holds chunks added since the base.
    #[serde(default)]
    pub delta: bool,
    /// Size and modification time (ns since the epoch) of each side file
    /// when it was written: an update trusts a file whose stamp is
    /// unchanged instead of reading it whole to check its checksum.
    #[serde(default)]
    pub stamps: BTreeMap<String, (u64, u64)>,
    /// The same for Tantivy's segment files (under `tantivy/`).
    #[serde(default)]
    pub tantivy_stamps: BTreeMap<String, (u64, u64)>,
    /// Size and modification time of each file that could not be read (in
    /// `skipped`): not parsed again, at the cost of a parser's time limit
    /// or memory on every update, until it changes.
    #[serde(default)]
    pub failed: BTreeMap<String, (u64, u64)>,
    /// The parse limits those files failed under: with other limits (a
    /// longer time limit, more memory) they are tried again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_limits: Option<String>,
}

impl Manifest {
    fn base(generation: u64) -> String {
        format!("gen-{generation}")
    }

    /// The generation whose vectors file and graph this one uses.
    pub fn vectors_generation(&self) -> u64 {
        self.vectors_base.unwrap_or(self.generation)
    }

    /// The generations whose side files this one needs.
    fn in_use(&self) -> Vec<u64> {
        vec![self.generation, self.vectors_generation()]
    }

    /// The base's dead rows and this generation's delta file.
    fn parts(&self, dir: &Path) -> vectors::Parts {
        vectors::Parts {
            dead: self.dead_rows.clone(),
            delta: self
                .delta
                .then(|| dir.join(format!("{}.delta", Self::base(self.generation)))),
        }
    }

    /// The first side file whose content differs from its checksum (or is
    /// missing), if any — but a file whose size and
    /// modification time are those recorded when it was written is taken
    /// as intact without being read (what an update does: reading a large
    /// index whole to check it would be most of the update's time).
    fn damaged_file_quick(&self, dir: &Path) -> Option<PathBuf> {
        let unchanged = |name: &str| {
            self.stamps
                .get(name)
                .is_some_and(|s| stamps::stamp(&dir.join(name)).as_ref() == Some(s))
        };
        self.damaged_file_where(dir, |name| !unchanged(name))
    }

    /// [`Manifest::damaged_file`] among the side files `which` names.
    fn damaged_file_where(&self, dir: &Path, which: impl Fn(&str) -> bool) -> Option<PathBuf> {
        first_damaged(dir, self.checksums.iter().filter(|(name, _)| which(name)))
    }

    /// Whether the side file `name` is one of the graph's (checked and
    /// loaded in the background when the index is opened).
    fn is_graph_file(&self, name: &str) -> bool {
        self.hnsw.as_deref().is_some_and(|h| {
            name.strip_prefix(h)
                .is_some_and(|r| r.starts_with(".hnsw."))
        })
    }
}

/// The first of `files` (name, checksum) in `dir` whose content differs
/// from its checksum (or is missing).
fn first_damaged<'a>(
    dir: &Path,
    files: impl IntoIterator<Item = (&'a String, &'a String)>,
) -> Option<PathBuf> {
    files.into_iter().find_map(|(name, sum)| {
        let p = dir.join(name);
        (file_hash(&p).ok().as_deref() != Some(sum.as_str())).then_some(p)
    })
}

fn file_hash(path: &Path) -> Result<String> {
    let mut h = blake3::Hasher::new();
    let mut f =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    h.update_reader(&mut f)
        .with_context(|| format!("cannot read {}", path.display()))?;
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

/// Write `path` whole or not at all: a temporary file, synced, renamed
/// over it (removed when the write fails, as on a full disk).
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let tmp = path.with_extension("tmp");
    let written = (|| -> Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// The refusal to use an index folder that holds another sources folder's
/// index (it would answer with that folder's words); `fix` says what to do.
pub fn another_folders_index(dir: &Path, theirs: &str, fix: &str) -> anyhow::Error {
    anyhow!(
        "the index folder {} holds the index of another folder ({}); {fix}",
        dir.display(),
        crate::text::sanitize_for_terminal(theirs, false)
    )
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

#[cfg(test)]
mod tests;
