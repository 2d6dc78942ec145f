//! The vectors file of a generation (`gen-N.vectors`): one row per data id
//! of the graph, so that an exact scan and the graph agree on what every
//! row is and on which rows are tombstones.
//!
//! Layout, little-endian: `RBVEC002`, dim (u32), 0 (u32), rows (u64), the
//! offset of the id table (u64); then rows × dim f32 (zeros for a
//! tombstone, and for a chunk whose text embeds to nothing); then the id
//! table: for each row its length in bytes (u32) and its chunk id (UTF-8,
//! empty for a tombstone).
//!
//! The vectors are what re-indexing reuses for unchanged chunks
//! ([`read_vectors`]) and what [`Flat`] scans, memory-mapped, while the
//! graph loads.

use super::{IdVector, UnitCosine, nonzero};
use anyhow::{Context, Result, bail};
use hnsw_rs::prelude::Distance;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

const MAGIC: &[u8; 8] = b"RBVEC002";
const HEADER: usize = 32;
/// The longest chunk id the file holds, in bytes.
const MAX_ID: usize = 1 << 16;

struct Header {
    dim: usize,
    rows: usize,
    /// Where the id table starts: right after the matrix.
    ids_at: usize,
}

fn corrupt(path: &Path) -> anyhow::Error {
    anyhow::anyhow!("corrupt vectors file {}", path.display())
}

fn header(b: &[u8], file_len: u64, path: &Path) -> Result<Header> {
    if b.len() < HEADER || &b[..8] != MAGIC {
        bail!("{} is not a vectors file of this version", path.display());
    }
    let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes")) as usize;
    let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
    let dim = u32_at(8);
    let (rows, ids_at) = (u64_at(16), u64_at(24));
    let matrix_end = rows
        .checked_mul(dim as u64)
        .and_then(|n| n.checked_mul(4))
        .and_then(|n| n.checked_add(HEADER as u64));
    if matrix_end != Some(ids_at) || ids_at > file_len {
        return Err(corrupt(path));
    }
    Ok(Header {
        dim,
        rows: usize::try_from(rows).map_err(|_| corrupt(path))?,
        ids_at: usize::try_from(ids_at).map_err(|_| corrupt(path))?,
    })
}

/// The id table: exactly `rows` ids filling `b`.
fn parse_ids(b: &[u8], rows: usize, path: &Path) -> Result<Vec<String>> {
    let mut ids = Vec::with_capacity(rows.min(b.len() / 4));
    let mut at = 0usize;
    for _ in 0..rows {
        let len = b
            .get(at..at + 4)
            .map(|l| u32::from_le_bytes(l.try_into().expect("4 bytes")) as usize)
            .filter(|l| *l <= MAX_ID)
            .ok_or_else(|| corrupt(path))?;
        let id = b.get(at + 4..at + 4 + len).ok_or_else(|| corrupt(path))?;
        ids.push(
            std::str::from_utf8(id)
                .map_err(|_| corrupt(path))?
                .to_string(),
        );
        at += 4 + len;
    }
    if at != b.len() {
        return Err(corrupt(path));
    }
    Ok(ids)
}

/// Write the vectors file: a row for each data id (`ids`, a tombstone
/// empty) holding `row(data id)`, or zeros when it has none.
pub(super) fn write<'a>(
    path: &Path,
    dim: usize,
    ids: &[String],
    row: impl Fn(usize) -> Option<&'a [f32]>,
) -> Result<()> {
    let mut w = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    let ids_at = HEADER + ids.len() * dim * 4;
    w.write_all(MAGIC)?;
    w.write_all(&(dim as u32).to_le_bytes())?;
    w.write_all(&0u32.to_le_bytes())?;
    w.write_all(&(ids.len() as u64).to_le_bytes())?;
    w.write_all(&(ids_at as u64).to_le_bytes())?;
    let zeros = vec![0f32; dim];
    let mut bytes = Vec::with_capacity(dim * 4);
    for (d, id) in ids.iter().enumerate() {
        let v = match row(d) {
            Some(v) if !id.is_empty() => v,
            _ => &zeros,
        };
        if v.len() != dim {
            bail!("the vector of {id:?} has {} dimensions, not {dim}", v.len());
        }
        bytes.clear();
        bytes.extend(v.iter().flat_map(|x| x.to_le_bytes()));
        w.write_all(&bytes)?;
    }
    for id in ids {
        if id.len() > MAX_ID {
            bail!("chunk id too long: {id:?}");
        }
        w.write_all(&(id.len() as u32).to_le_bytes())?;
        w.write_all(id.as_bytes())?;
    }
    w.into_inner()?.sync_all()?;
    Ok(())
}

/// The dimension and the chunk id of every row, that is of every data id
/// of the graph (tombstones empty), without reading the vectors.
pub fn read_ids(path: &Path) -> Result<(usize, Vec<String>)> {
    let mut f = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let len = f.metadata()?.len();
    let mut head = [0u8; HEADER];
    f.read_exact(&mut head).map_err(|_| corrupt(path))?;
    let h = header(&head, len, path)?;
    f.seek(SeekFrom::Start(h.ids_at as u64))?;
    let mut table = Vec::new();
    f.read_to_end(&mut table)?;
    Ok((h.dim, parse_ids(&table, h.rows, path)?))
}

/// Every chunk's vector, tombstones left out.
pub fn read_vectors(path: &Path) -> Result<(usize, Vec<IdVector>)> {
    read_vectors_where(path, |_, _| true)
}

/// The vectors of the rows `keep` accepts (row, chunk id), tombstones left
/// out: what a rebuild of the graph reuses.
pub fn read_vectors_where(
    path: &Path,
    keep: impl Fn(usize, &str) -> bool,
) -> Result<(usize, Vec<IdVector>)> {
    let (dim, ids) = read_ids(path)?;
    let mut r = BufReader::with_capacity(1 << 20, std::fs::File::open(path)?);
    r.seek(SeekFrom::Start(HEADER as u64))?;
    let mut out = Vec::with_capacity(ids.len());
    let mut buf = vec![0u8; dim * 4];
    for (row, id) in ids.into_iter().enumerate() {
        r.read_exact(&mut buf)?;
        if !id.is_empty() && keep(row, &id) {
            let mut v = vec![0f32; dim];
            decode(&buf, &mut v);
            out.push((id, v));
        }
    }
    Ok((dim, out))
}

/// `bytes` (little-endian f32s) decoded into `into`, which has room for
/// exactly as many floats.
fn decode(bytes: &[u8], into: &mut [f32]) {
    for (x, c) in into.iter_mut().zip(bytes.chunks_exact(4)) {
        *x = f32::from_le_bytes(c.try_into().expect("4 bytes"));
    }
}

/// A vectors file, memory-mapped: searchable by an exact scan as soon as
/// it is opened.
pub struct Flat {
    map: memmap2::Mmap,
    dim: usize,
    ids: Vec<String>,
    live: usize,
}

impl Flat {
    pub fn open(path: &Path) -> Result<Flat> {
        let f = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
        // SAFETY: a generation's files are written once, before the commit
        // that makes the generation current, and never changed in place: an
        // update writes the next generation's files and unlinks these, which
        // leaves a mapping intact. (Tantivy maps its own files the same way.)
        let map = unsafe { memmap2::Mmap::map(&f) }
            .with_context(|| format!("mapping {}", path.display()))?;
        let h = header(&map, map.len() as u64, path)?;
        let ids = parse_ids(&map[h.ids_at..], h.rows, path)?;
        let live = ids.iter().filter(|id| !id.is_empty()).count();
        Ok(Flat {
            map,
            dim: h.dim,
            ids,
            live,
        })
    }

    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Tombstone `rows` (chunks gone since the file was written): searches
    /// skip them from now on.
    pub fn kill(&mut self, rows: &[u32]) {
        for r in rows {
            if let Some(id) = self.ids.get_mut(*r as usize)
                && !id.is_empty()
            {
                id.clear();
                self.live -= 1;
            }
        }
    }

    /// Rows that are not tombstones.
    pub fn live(&self) -> usize {
        self.live
    }

    /// The `k` nearest chunks to `query` by an exact scan: (chunk id,
    /// cosine similarity), best first, ties by chunk id. Tombstones and
    /// zero vectors are left out, as the graph leaves them out; the
    /// similarity is computed as the graph computes it.
    pub fn search(&self, query: &[f32], k: usize) -> Vec<(String, f32)> {
        if k == 0 || self.dim == 0 || !nonzero(query) {
            return Vec::new();
        }
        let width = self.dim * 4;
        let matrix = &self.map[HEADER..HEADER + self.ids.len() * width];
        let mut v = vec![0f32; self.dim];
        let mut scored: Vec<(f32, u32)> = Vec::with_capacity(self.live);
        for (r, (id, bytes)) in self.ids.iter().zip(matrix.chunks_exact(width)).enumerate() {
            if id.is_empty() {
                continue;
            }
            decode(bytes, &mut v);
            if nonzero(&v) {
                scored.push((1.0 - UnitCosine.eval(query, &v), r as u32));
            }
        }
        let order = |a: &(f32, u32), b: &(f32, u32)| {
            b.0.total_cmp(&a.0)
                .then_with(|| self.ids[a.1 as usize].cmp(&self.ids[b.1 as usize]))
        };
        if scored.len() > k {
            scored.select_nth_unstable_by(k - 1, order);
            scored.truncate(k);
        }
        scored.sort_unstable_by(order);
        scored
            .into_iter()
            .map(|(s, r)| (self.ids[r as usize].clone(), s))
            .collect()
    }
}
