//! A generation's vectors opened for questions: searchable at once by an
//! exact scan of the memory-mapped vectors file, while the graph loads on a
//! background thread; searches go to the graph once it is there.
//!
//! A generation after a small update has a *base* (an earlier generation's
//! vectors file and graph, some of whose rows are dead) and a *delta* (the
//! chunks added since, in a small vectors file of its own, always scanned
//! exactly); a search merges the two (issue 13: an update writes the delta,
//! not the whole graph).
//!
//! A small store never loads its graph: below [`EXACT_SCAN_MAX_FLOATS`] the
//! scan takes a few milliseconds and finds the true nearest chunks, so
//! every process (a one-shot `ask`, the board) gives the same answers.

use super::VectorStore;
use super::file::Flat;
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Stores of up to this many floats (20,000 chunks of 256) are searched by
/// an exact scan only. Measured (`cargo bench --bench pipeline`, release,
/// p50): the scan of the mapped file takes 1.5 ms at 10,148 chunks of 256
/// floats (HNSW at ef 256: 0.85 ms, recall@10 0.99) and 15 ms at 100,721
/// (HNSW: 1.3 ms, recall@10 0.83); a question takes 7.0 ms by exact scan
/// at 10,148 chunks, 21 ms at 100,721 (14 ms with the graph).
pub const EXACT_SCAN_MAX_FLOATS: usize = 20_000 * 256;

/// What a generation adds to its base: the base's rows whose chunks are
/// gone, and the delta file of the chunks added since (if any).
#[derive(Debug, Clone, Default)]
pub struct Parts {
    pub dead: Vec<u32>,
    pub delta: Option<PathBuf>,
}

/// The graph as the loading thread left it: the loaded store, or why it
/// could not be loaded (searches then keep scanning).
type Loaded = Result<VectorStore, String>;

/// See the module documentation.
pub struct OpenedStore {
    flat: Flat,
    /// Chunks added since the base: searched by exact scan, merged in.
    delta: Option<Flat>,
    /// `None`: this store is searched by exact scan only.
    graph: Option<Arc<OnceLock<Loaded>>>,
}

impl OpenedStore {
    /// Open the vectors of generation `base` in `dir` and, for a store of
    /// more than `exact_max_floats` floats (normally
    /// [`EXACT_SCAN_MAX_FLOATS`]; `usize::MAX`: never), start loading its
    /// graph `hnsw` on a background thread. `check_graph` runs on that
    /// thread first (it checks the graph's files); an error keeps the graph
    /// unused.
    pub(in crate::index) fn open(
        dir: &Path,
        base: &str,
        hnsw: Option<&str>,
        parts: Parts,
        check_graph: impl FnOnce() -> Result<()> + Send + 'static,
        exact_max_floats: usize,
    ) -> Result<OpenedStore> {
        let mut flat = Flat::open(&dir.join(format!("{base}.vectors")))?;
        flat.kill(&parts.dead);
        let delta = parts.delta.as_deref().map(Flat::open).transpose()?;
        let graph = match hnsw {
            Some(name) if flat.live().saturating_mul(flat.dim()) > exact_max_floats => {
                Some(load_in_background(dir, base, name, parts.dead, check_graph))
            }
            _ => None,
        };
        Ok(OpenedStore { flat, delta, graph })
    }

    /// The `k` nearest chunks to `query`: (chunk id, cosine similarity),
    /// from the graph (exploring `ef` candidates) once it is loaded, else
    /// from an exact scan, merged with the delta's.
    pub fn search(&self, query: &[f32], k: usize, ef: usize) -> Vec<(String, f32)> {
        let mut hits = match self.loaded() {
            Some(store) => store.search(query, k, ef),
            None => self.flat.search(query, k),
        };
        if let Some(delta) = &self.delta {
            hits.extend(delta.search(query, k));
            hits.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            hits.truncate(k);
        }
        hits
    }

    /// The loaded graph, if it is loaded.
    fn loaded(&self) -> Option<&VectorStore> {
        self.graph.as_ref()?.get()?.as_ref().ok()
    }

    /// Wait until the graph has loaded: `Ok(true)` when searches now go to
    /// it, `Ok(false)` when this store is searched by exact scan only, the
    /// reason when it could not be loaded (searches keep scanning).
    pub fn wait_for_graph(&self) -> Result<bool, String> {
        match &self.graph {
            None => Ok(false),
            Some(cell) => cell.wait().as_ref().map(|_| true).map_err(Clone::clone),
        }
    }

    /// Whether searches go to the graph now.
    #[cfg(test)]
    pub fn graph_ready(&self) -> bool {
        self.loaded().is_some()
    }
}

/// Load the graph on a thread of its own; the cell is always set, also
/// when loading fails or panics.
fn load_in_background(
    dir: &Path,
    base: &str,
    name: &str,
    dead: Vec<u32>,
    check_graph: impl FnOnce() -> Result<()> + Send + 'static,
) -> Arc<OnceLock<Loaded>> {
    let cell = Arc::new(OnceLock::new());
    let (out, dir, base, name) = (
        cell.clone(),
        dir.to_path_buf(),
        base.to_string(),
        name.to_string(),
    );
    let spawned = std::thread::Builder::new()
        .name("vector-graph".into())
        .spawn(move || {
            let loaded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                check_graph()?;
                let mut store = VectorStore::load(&dir, &base, Some(&name))?;
                store.kill_rows(&dead);
                anyhow::Ok(store)
            }));
            let _ = out.set(match loaded {
                Ok(Ok(store)) => Ok(store),
                Ok(Err(e)) => Err(format!("{e:#}")),
                Err(_) => Err(format!("the vector graph {name} could not be loaded")),
            });
        });
    if let Err(e) = spawned {
        let _ = cell.set(Err(format!("cannot start loading the vector graph: {e}")));
    }
    cell
}
