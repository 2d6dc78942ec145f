//! The vector store: an `hnsw_rs` graph over unit vectors and the vectors
//! file beside it (`file.rs`), dumped next to the Tantivy index. Questions
//! go to an [`OpenedStore`] (`opened.rs`), which answers from the vectors
//! file while the graph loads; re-indexing loads the graph whole
//! ([`VectorStore::load`]) to update it.

mod file;
mod opened;

pub use file::{read_ids, read_vectors, read_vectors_where};
pub use opened::{EXACT_SCAN_MAX_FLOATS, OpenedStore, Parts};

use anyhow::{Context, Result};
use hnsw_rs::hnswio::HnswIo;
use hnsw_rs::prelude::{Distance, Hnsw};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A chunk id and its vector.
pub type IdVector = (String, Vec<f32>);

/// Cosine distance for unit vectors: `1 - a·b`, clamped at 0 (rounding can
/// push the dot product of a vector with itself just above 1). Every vector
/// stored or searched is L2-normalised by its embedder, so this equals
/// `DistCosine` at a third of the work; eight accumulators let the compiler
/// vectorise the loop.
#[derive(Debug, Default, Clone, Copy)]
pub struct UnitCosine;

impl Distance<f32> for UnitCosine {
    fn eval(&self, a: &[f32], b: &[f32]) -> f32 {
        (1.0 - crate::embed::dot(a, b)).max(0.0)
    }
}

const MAX_CONNECTIONS: usize = 16;
const MAX_LAYERS: usize = 16;
const EF_CONSTRUCTION: usize = 128;
/// Vectors inserted into the graph per batch (see `build_in_batches`).
const INSERT_BATCH: usize = 8192;

/// HNSW graph plus the chunk id of every data id.
///
/// Incremental: new chunks are inserted into the existing graph
/// ([`VectorStore::insert`]); a removed chunk's data id becomes a tombstone
/// (its id is emptied, in memory and in the `.ids` file) that every search
/// filters out, until [`VectorStore::needs_compaction`] says a rebuild from
/// the live vectors is due.
pub struct VectorStore {
    hnsw: Option<Hnsw<'static, f32, UnitCosine>>,
    /// The chunk id of every data id (a tombstone empty).
    ids: Vec<String>,
    /// The vectors' dimension (0 before the first vector).
    dim: usize,
    /// Data ids whose chunk was removed.
    tombstones: usize,
}

/// Compact (rebuild) the graph once this share of its points are tombstones.
pub const COMPACT_AT: f32 = 0.2;

/// An empty graph sized for about `n` points.
fn new_graph(n: usize) -> Hnsw<'static, f32, UnitCosine> {
    Hnsw::new(MAX_CONNECTIONS, n, MAX_LAYERS, EF_CONSTRUCTION, UnitCosine)
}

fn nonzero(v: &[f32]) -> bool {
    v.iter().any(|x| *x != 0.0)
}

impl VectorStore {
    /// Build a graph over `vectors` (chunk id, unit vector). Zero vectors
    /// (texts with no known token) are left out: they match nothing.
    pub fn build(vectors: Vec<(String, Vec<f32>)>) -> Self {
        Self::build_in_batches(vectors, INSERT_BATCH)
    }

    /// The graph keeps its own copy of every vector: insert `batch` vectors
    /// at a time and free them, so the caller's copy and the graph's are
    /// never both whole in memory.
    fn build_in_batches(vectors: Vec<(String, Vec<f32>)>, batch: usize) -> Self {
        let ids: Vec<String> = vectors.iter().map(|(id, _)| id.clone()).collect();
        let dim = vectors.first().map_or(0, |(_, v)| v.len());
        let n = vectors.iter().filter(|(_, v)| nonzero(v)).count();
        if n == 0 {
            return VectorStore {
                hnsw: None,
                ids,
                dim,
                tombstones: 0,
            };
        }
        let mut hnsw = new_graph(n);
        let mut rest = vectors
            .into_iter()
            .enumerate()
            .filter(|(_, (_, v))| nonzero(v))
            .map(|(i, (_, v))| (v, i));
        loop {
            let owned: Vec<(Vec<f32>, usize)> = rest.by_ref().take(batch.max(1)).collect();
            if owned.is_empty() {
                break;
            }
            let data: Vec<(&Vec<f32>, usize)> = owned.iter().map(|(v, i)| (v, *i)).collect();
            hnsw.parallel_insert(&data);
        }
        hnsw.set_searching_mode(true);
        VectorStore {
            hnsw: Some(hnsw),
            ids,
            dim,
            tombstones: 0,
        }
    }

    /// Add the vectors of new chunks to the graph as it is (no rebuild).
    pub fn insert(&mut self, vectors: Vec<IdVector>) {
        let first = self.ids.len();
        if self.dim == 0
            && let Some((_, v)) = vectors.first()
        {
            self.dim = v.len();
        }
        self.ids.extend(vectors.iter().map(|(id, _)| id.clone()));
        let data: Vec<(&Vec<f32>, usize)> = vectors
            .iter()
            .enumerate()
            .filter(|(_, (_, v))| nonzero(v))
            .map(|(i, (_, v))| (v, first + i))
            .collect();
        if data.is_empty() {
            return;
        }
        let h = self.hnsw.get_or_insert_with(|| new_graph(data.len()));
        h.set_searching_mode(false);
        for batch in data.chunks(INSERT_BATCH) {
            h.parallel_insert(batch);
        }
        h.set_searching_mode(true);
    }

    /// Tombstone the chunks `dead` says were removed: searches skip them
    /// from now on. Returns how many data ids were tombstoned.
    pub fn remove_where(&mut self, dead: impl Fn(&str) -> bool) -> usize {
        let mut n = 0;
        for id in self.ids.iter_mut() {
            if !id.is_empty() && dead(id) {
                id.clear();
                n += 1;
            }
        }
        self.tombstones += n;
        n
    }

    /// Tombstone the data ids `rows` (chunks gone since the graph was
    /// written). Returns how many were tombstoned.
    pub fn kill_rows(&mut self, rows: &[u32]) -> usize {
        let mut n = 0;
        for r in rows {
            if let Some(id) = self.ids.get_mut(*r as usize)
                && !id.is_empty()
            {
                id.clear();
                n += 1;
            }
        }
        self.tombstones += n;
        n
    }

    /// Chunk ids that searches can return.
    pub fn live(&self) -> usize {
        self.ids.len() - self.tombstones
    }

    /// Tombstones have passed [`COMPACT_AT`] of the store: rebuild it from
    /// the live vectors.
    pub fn needs_compaction(&self) -> bool {
        !self.ids.is_empty() && self.tombstones as f32 >= COMPACT_AT * self.ids.len() as f32
    }

    pub fn len(&self) -> usize {
        self.hnsw.as_ref().map_or(0, |h| h.get_nb_point())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Write the vectors file `{base}.vectors` (a row per data id, from
    /// the graph's own copies of the vectors) and the graph under `dir`
    /// with a basename derived from `base`; returns the graph's basename
    /// actually used (hnsw_rs never overwrites).
    pub fn dump(&self, dir: &Path, base: &str) -> Result<Option<String>> {
        let mut rows: Vec<Option<std::sync::Arc<hnsw_rs::prelude::Point<'static, f32>>>> =
            vec![None; self.ids.len()];
        if let Some(h) = &self.hnsw {
            for p in h.get_point_indexation() {
                if let Some(slot) = rows.get_mut(p.get_origin_id()) {
                    *slot = Some(p);
                }
            }
        }
        file::write(
            &dir.join(format!("{base}.vectors")),
            self.dim,
            &self.ids,
            |d| rows[d].as_deref().map(|p| p.get_v()),
        )
        .with_context(|| format!("writing the vectors to {}", dir.display()))?;
        drop(rows);
        let Some(h) = &self.hnsw else {
            return Ok(None);
        };
        use hnsw_rs::api::AnnT;
        let name = h
            .file_dump(dir, base)
            .with_context(|| format!("writing the vector graph to {}", dir.display()))?;
        Ok(Some(name))
    }

    /// Load a store dumped by [`VectorStore::dump`], its graph whole (what
    /// an update needs; questions go to [`OpenedStore`]).
    pub fn load(dir: &Path, base: &str, hnsw_name: Option<&str>) -> Result<Self> {
        let (dim, ids) = file::read_ids(&dir.join(format!("{base}.vectors")))?;
        let tombstones = ids.iter().filter(|id| id.is_empty()).count();
        let Some(name) = hnsw_name else {
            return Ok(VectorStore {
                hnsw: None,
                ids,
                dim,
                tombstones,
            });
        };
        // The loaded graph borrows its loader for as long as it lives. Without
        // memory mapping it holds no data of the loader's, so the small loader
        // is leaked (a few hundred bytes per load) to give the graph an owner
        // that lives long enough.
        let io: &'static mut HnswIo = Box::leak(Box::new(HnswIo::new(dir, name)));
        let mut hnsw: Hnsw<'static, f32, UnitCosine> = io
            .load_hnsw()
            .map_err(|e| anyhow::anyhow!("cannot load the vector graph {name}: {e}"))?;
        hnsw.set_searching_mode(true);
        Ok(VectorStore {
            hnsw: Some(hnsw),
            ids,
            dim,
            tombstones,
        })
    }

    /// The `k` nearest chunks to `query`: (chunk id, cosine similarity).
    /// The `k` nearest vectors by cosine, exploring `ef` candidates (at
    /// least `k`): a larger `ef` is slower and closer to an exact scan.
    pub fn search(&self, query: &[f32], k: usize, ef: usize) -> Vec<(String, f32)> {
        let Some(h) = &self.hnsw else {
            return Vec::new();
        };
        if k == 0 || query.iter().all(|x| *x == 0.0) {
            return Vec::new();
        }
        let live = |d: &usize| self.ids.get(*d).is_some_and(|id| !id.is_empty());
        let hits = if self.tombstones > 0 {
            h.search_filter(query, k, ef.max(k), Some(&live))
        } else {
            h.search(query, k, ef.max(k))
        };
        hits.into_iter()
            .filter_map(|n| {
                let id = self.ids.get(n.d_id).filter(|id| !id.is_empty())?;
                Some((id.clone(), 1.0 - n.distance))
            })
            .collect()
    }
}

/// Chunks an update adds are kept beside the graph, in a delta file that
/// searches scan exactly, until the delta holds this many floats (5,000
/// chunks of 256: a scan of well under a millisecond); then they are
/// inserted into the graph, which is written anew.
pub const DELTA_MAX_FLOATS: usize = EXACT_SCAN_MAX_FLOATS / 4;

/// The vectors of the generation an update starts from: its base (vectors
/// file and graph), the base's dead rows, and its delta.
pub struct Previous {
    dir: PathBuf,
    base: String,
    hnsw: Option<String>,
    dim: usize,
    /// The base's chunk id of every row (a tombstone empty); dead rows keep
    /// their id here, they are in `dead`.
    ids: Vec<String>,
    dead: BTreeSet<u32>,
    delta: Vec<IdVector>,
}

/// The vector side of the next generation.
pub enum Next {
    /// The base is kept: only its dead rows and the delta change.
    Delta {
        dead: Vec<u32>,
        delta: Vec<IdVector>,
    },
    /// A new base: the graph with the delta inserted, or rebuilt.
    Store(VectorStore),
}

impl Previous {
    /// Read what an update needs of a generation: the base's ids (not its
    /// vectors, nor its graph) and the delta. An error means the files are
    /// unusable: the caller rebuilds from the sources.
    pub fn read(
        dir: &Path,
        base: &str,
        hnsw: Option<&str>,
        dead: &[u32],
        delta: Option<&Path>,
    ) -> Result<Previous> {
        let (dim, ids) = file::read_ids(&dir.join(format!("{base}.vectors")))?;
        let delta = match delta {
            Some(p) => {
                let (d, rows) = file::read_vectors(p)?;
                anyhow::ensure!(rows.is_empty() || d == dim, "delta of another dimension");
                rows
            }
            None => Vec::new(),
        };
        anyhow::ensure!(
            dead.iter().all(|r| (*r as usize) < ids.len()),
            "dead rows past the end of the vectors file"
        );
        Ok(Previous {
            dir: dir.to_path_buf(),
            base: base.to_string(),
            hnsw: hnsw.map(str::to_string),
            dim,
            ids,
            dead: dead.iter().copied().collect(),
            delta,
        })
    }

    /// The next generation's vectors: the chunks `gone` names dead, `fresh`
    /// added. Only the delta is written while it holds at most
    /// `delta_max_floats` (normally [`DELTA_MAX_FLOATS`]) and tombstones
    /// are below [`COMPACT_AT`]; past the delta's limit it is inserted into
    /// the graph; past [`COMPACT_AT`] the graph is rebuilt from the live
    /// vectors.
    pub fn next(
        self,
        gone: impl Fn(&str) -> bool,
        fresh: Vec<IdVector>,
        delta_max_floats: usize,
    ) -> Result<Next> {
        let Previous {
            dir,
            base,
            hnsw,
            dim,
            ids,
            mut dead,
            delta,
        } = self;
        for (r, id) in ids.iter().enumerate() {
            if !id.is_empty() && gone(id) {
                dead.insert(r as u32);
            }
        }
        let delta: Vec<IdVector> = delta
            .into_iter()
            .filter(|(id, _)| !gone(id))
            .chain(fresh)
            .collect();
        let tombstones = ids.iter().filter(|id| id.is_empty()).count() + dead.len();
        if !ids.is_empty() && tombstones as f32 >= COMPACT_AT * ids.len() as f32 {
            let (_, mut live) =
                file::read_vectors_where(&dir.join(format!("{base}.vectors")), |row, _| {
                    !dead.contains(&(row as u32))
                })?;
            live.extend(delta);
            live.sort_by(|a, b| a.0.cmp(&b.0));
            return Ok(Next::Store(VectorStore::build(live)));
        }
        let dead: Vec<u32> = dead.into_iter().collect();
        if delta.len().saturating_mul(dim.max(1)) <= delta_max_floats {
            return Ok(Next::Delta { dead, delta });
        }
        let mut store = VectorStore::load(&dir, &base, hnsw.as_deref())?;
        store.kill_rows(&dead);
        store.insert(delta);
        Ok(Next::Store(store))
    }
}

/// Write a delta file (the vectors file layout, a row per chunk).
pub fn write_delta(path: &Path, dim: usize, delta: &[IdVector]) -> Result<()> {
    let ids: Vec<String> = delta.iter().map(|(id, _)| id.clone()).collect();
    file::write(path, dim, &ids, |r| Some(delta[r].1.as_slice()))
        .with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests;
