//! The in-memory vector store: an `hnsw_rs` graph over unit vectors, dumped
//! next to the Tantivy index and reloaded at start.

use anyhow::{Context, Result, bail};
use hnsw_rs::hnswio::HnswIo;
use hnsw_rs::prelude::{Distance, Hnsw};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

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
    ids: Vec<String>,
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
        let n = vectors.iter().filter(|(_, v)| nonzero(v)).count();
        if n == 0 {
            return VectorStore {
                hnsw: None,
                ids,
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
            tombstones: 0,
        }
    }

    /// Add the vectors of new chunks to the graph as it is (no rebuild).
    pub fn insert(&mut self, vectors: Vec<IdVector>) {
        let first = self.ids.len();
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

    /// Write the graph under `dir` with a basename derived from `base`;
    /// returns the basename actually used (hnsw_rs never overwrites).
    pub fn dump(&self, dir: &Path, base: &str) -> Result<Option<String>> {
        write_ids(&dir.join(format!("{base}.ids")), &self.ids)?;
        let Some(h) = &self.hnsw else {
            return Ok(None);
        };
        use hnsw_rs::api::AnnT;
        let name = h
            .file_dump(dir, base)
            .with_context(|| format!("writing the vector graph to {}", dir.display()))?;
        Ok(Some(name))
    }

    /// Load a graph dumped by [`VectorStore::dump`].
    pub fn load(dir: &Path, base: &str, hnsw_name: Option<&str>) -> Result<Self> {
        let ids = read_ids(&dir.join(format!("{base}.ids")))?;
        let tombstones = ids.iter().filter(|id| id.is_empty()).count();
        let Some(name) = hnsw_name else {
            return Ok(VectorStore {
                hnsw: None,
                ids,
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

/// The graph of the next generation: `previous` with the chunks `dead`
/// says were removed tombstoned and `fresh` inserted — no rebuild — or,
/// without a previous graph or once tombstones pass [`COMPACT_AT`], a new
/// graph over `all` (the live vectors).
pub fn next_store(
    previous: Option<VectorStore>,
    dead: impl Fn(&str) -> bool,
    fresh: Vec<IdVector>,
    all: impl FnOnce() -> Vec<IdVector>,
) -> VectorStore {
    match previous {
        Some(mut store) => {
            store.remove_where(dead);
            if store.needs_compaction() {
                return VectorStore::build(all());
            }
            store.insert(fresh);
            store
        }
        None => VectorStore::build(all()),
    }
}

fn write_ids(path: &Path, ids: &[String]) -> Result<()> {
    let mut w = BufWriter::new(std::fs::File::create(path)?);
    for id in ids {
        if id.contains('\n') {
            bail!("chunk id contains a newline: {id:?}");
        }
        writeln!(w, "{id}")?;
    }
    w.into_inner()?.sync_all()?;
    Ok(())
}

fn read_ids(path: &Path) -> Result<Vec<String>> {
    let mut s = String::new();
    std::fs::File::open(path)
        .with_context(|| format!("opening {}", path.display()))?
        .read_to_string(&mut s)?;
    Ok(s.lines().map(str::to_string).collect())
}

/// Vectors of one generation, kept so that re-indexing never re-embeds an
/// unchanged chunk: magic, dim, count, then (id, f32 × dim) records.
pub fn write_vectors(path: &Path, dim: usize, vectors: &[(String, Vec<f32>)]) -> Result<()> {
    let mut w = BufWriter::new(std::fs::File::create(path)?);
    w.write_all(b"RBVEC001")?;
    w.write_all(&(dim as u32).to_le_bytes())?;
    w.write_all(&(vectors.len() as u64).to_le_bytes())?;
    for (id, v) in vectors {
        let b = id.as_bytes();
        w.write_all(&(b.len() as u32).to_le_bytes())?;
        w.write_all(b)?;
        for x in v {
            w.write_all(&x.to_le_bytes())?;
        }
    }
    w.into_inner()?.sync_all()?;
    Ok(())
}

pub fn read_vectors(path: &Path) -> Result<(usize, Vec<IdVector>)> {
    let mut r = BufReader::new(std::fs::File::open(path)?);
    let mut magic = [0u8; 8];
    r.read_exact(&mut magic)?;
    if &magic != b"RBVEC001" {
        bail!("{} is not a vectors file", path.display());
    }
    let mut u4 = [0u8; 4];
    let mut u8b = [0u8; 8];
    r.read_exact(&mut u4)?;
    let dim = u32::from_le_bytes(u4) as usize;
    r.read_exact(&mut u8b)?;
    let n = u64::from_le_bytes(u8b) as usize;
    let mut out = Vec::with_capacity(n.min(1 << 24));
    let mut fbuf = vec![0u8; dim * 4];
    for _ in 0..n {
        r.read_exact(&mut u4)?;
        let len = u32::from_le_bytes(u4) as usize;
        if len > 1 << 16 {
            bail!("corrupt vectors file {}", path.display());
        }
        let mut id = vec![0u8; len];
        r.read_exact(&mut id)?;
        r.read_exact(&mut fbuf)?;
        let v = fbuf
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        out.push((String::from_utf8(id)?, v));
    }
    Ok((dim, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::normalize;

    fn unit(v: &[f32]) -> Vec<f32> {
        let mut v = v.to_vec();
        normalize(&mut v);
        v
    }

    #[test]
    fn build_dump_load_search() {
        let vectors: Vec<(String, Vec<f32>)> = (0..200)
            .map(|i| {
                let a = i as f32 * 0.1;
                (format!("c{i}"), unit(&[a.cos(), a.sin(), 0.3]))
            })
            .chain(std::iter::once(("zero".to_string(), vec![0.0; 3])))
            .collect();
        let store = VectorStore::build(vectors.clone());
        assert_eq!(store.len(), 200);
        let hits = store.search(&vectors[42].1, 3, 64);
        assert_eq!(hits[0].0, "c42");
        assert!((hits[0].1 - 1.0).abs() < 1e-4);

        let dir = tempfile::tempdir().unwrap();
        let name = store.dump(dir.path(), "gen-1").unwrap();
        let loaded = VectorStore::load(dir.path(), "gen-1", name.as_deref()).unwrap();
        assert_eq!(loaded.search(&vectors[42].1, 1, 64)[0].0, "c42");

        write_vectors(&dir.path().join("v"), 3, &vectors).unwrap();
        let (dim, back) = read_vectors(&dir.path().join("v")).unwrap();
        assert_eq!(dim, 3);
        assert_eq!(back, vectors);
    }

    #[test]
    fn hnsw_recall_against_exact_search() {
        let mut seed = 1u64;
        let mut r = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 10_000) as f32 / 5_000.0 - 1.0
        };
        let vs: Vec<(String, Vec<f32>)> = (0..1500)
            .map(|i| {
                (
                    format!("c{i}"),
                    unit(&(0..64).map(|_| r()).collect::<Vec<_>>()),
                )
            })
            .collect();
        // Inserted 100 at a time, as a large index is.
        let store = VectorStore::build_in_batches(vs.clone(), 100);
        let mut found = 0;
        for q in vs.iter().step_by(30) {
            let mut exact: Vec<(f32, &str)> = vs
                .iter()
                .map(|(id, v)| (crate::embed::dot(v, &q.1), id.as_str()))
                .collect();
            exact.sort_by(|a, b| b.0.total_cmp(&a.0));
            let hits = store.search(&q.1, 10, 64);
            found += hits
                .iter()
                .filter(|(id, _)| exact[..10].iter().any(|(_, e)| e == id))
                .count();
        }
        let recall = found as f64 / 500.0;
        assert!(recall >= 0.9, "recall@10 {recall}");
    }

    /// Incremental: inserted chunks are found, tombstoned ones never, and
    /// both survive a dump and a load; compaction is due past 20%.
    #[test]
    fn insert_and_remove_without_rebuilding() {
        let v = |i: usize| {
            let a = i as f32 * 0.07;
            unit(&[a.cos(), a.sin(), 0.2 + (i % 7) as f32 * 0.1])
        };
        let mut store = VectorStore::build((0..300).map(|i| (format!("c{i}"), v(i))).collect());
        store.insert((300..320).map(|i| (format!("c{i}"), v(i))).collect());
        assert_eq!(store.len(), 320);
        assert_eq!(store.search(&v(310), 1, 64)[0].0, "c310");
        let gone: std::collections::HashSet<&str> = ["c42", "c310"].into_iter().collect();
        assert_eq!(store.remove_where(|id| gone.contains(id)), 2);
        assert_eq!(store.live(), 318);
        for q in [42, 310] {
            let hits = store.search(&v(q), 10, 64);
            assert_eq!(hits.len(), 10);
            assert!(
                hits.iter().all(|(id, _)| !gone.contains(id.as_str())),
                "{hits:?}"
            );
        }
        assert!(!store.needs_compaction());

        let dir = tempfile::tempdir().unwrap();
        let name = store.dump(dir.path(), "gen-2").unwrap();
        let mut loaded = VectorStore::load(dir.path(), "gen-2", name.as_deref()).unwrap();
        assert_eq!(loaded.live(), 318);
        assert!(
            loaded
                .search(&v(42), 10, 64)
                .iter()
                .all(|(id, _)| id != "c42")
        );
        // A loaded graph takes inserts too.
        loaded.insert(vec![("c999".into(), v(999))]);
        assert_eq!(loaded.search(&v(999), 1, 64)[0].0, "c999");
        let many: Vec<String> = (0..70).map(|i| format!("c{i}")).collect();
        loaded.remove_where(|id| many.iter().any(|m| m == id));
        assert!(loaded.needs_compaction());
    }

    #[test]
    fn the_next_generation_is_incremental_until_compaction() {
        let v = |i: usize| unit(&[(i as f32).cos(), (i as f32).sin(), 1.0]);
        let ids = |s: &VectorStore| s.ids.clone();
        let base = VectorStore::build((0..100).map(|i| (format!("c{i}"), v(i))).collect());
        // A small change: tombstones and an insert, the old data ids kept.
        let next = next_store(
            Some(base),
            |id| id == "c5",
            vec![("c5".into(), v(500))],
            || panic!("no rebuild for a small change"),
        );
        assert_eq!(ids(&next).len(), 101);
        assert_eq!(ids(&next)[5], "");
        assert_eq!(next.search(&v(500), 1, 64)[0].0, "c5");
        // A large removal compacts: a rebuild over the live vectors.
        let rebuilt = next_store(
            Some(next),
            |id| id < "c5",
            Vec::new(),
            || vec![("only".into(), v(1))],
        );
        assert_eq!(ids(&rebuilt), ["only"]);
        assert_eq!(rebuilt.live(), 1);
    }

    #[test]
    fn the_first_vectors_of_an_empty_store() {
        let mut store = VectorStore::build(Vec::new());
        store.insert(vec![
            ("a".into(), unit(&[1.0, 0.0])),
            ("z".into(), vec![0.0, 0.0]),
        ]);
        assert_eq!(store.search(&[1.0, 0.0], 2, 16)[0].0, "a");
        assert_eq!(store.live(), 2);
    }

    #[test]
    fn empty_store_searches_to_nothing() {
        let store = VectorStore::build(Vec::new());
        assert!(store.is_empty());
        assert!(store.search(&[1.0, 0.0], 5, 64).is_empty());
    }
}
