//! The vector store: graph, vectors file, and the opened store that
//! answers by exact scan until its graph is loaded.

use super::*;
use crate::embed::normalize;
use std::path::Path;

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

    // The vectors file holds every vector, the zero one too, in order.
    let (dim, back) = read_vectors(&dir.path().join("gen-1.vectors")).unwrap();
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

/// Issue 13: the next generation keeps its base while the change is small
/// (dead rows and a delta, the base's files untouched), inserts the delta
/// into the graph once it passes its limit, and rebuilds once dead rows
/// pass [`COMPACT_AT`].
#[test]
fn the_next_generation_is_a_delta_until_it_grows() {
    let dir = tempfile::tempdir().unwrap();
    let v = |i: usize| unit(&[(i as f32).cos(), (i as f32).sin(), 1.0]);
    let base = VectorStore::build((0..100).map(|i| (format!("c{i}"), v(i))).collect());
    let name = base.dump(dir.path(), "gen-1").unwrap();
    let before = std::fs::read(dir.path().join("gen-1.vectors")).unwrap();
    let prev = || Previous::read(dir.path(), "gen-1", name.as_deref(), &[], None).unwrap();

    // A small change: c5's row dead, its new vector in the delta.
    let Next::Delta { dead, delta } = prev()
        .next(
            |id| id == "c5",
            vec![("c5".into(), v(500))],
            DELTA_MAX_FLOATS,
        )
        .unwrap()
    else {
        panic!("a small change rewrote the graph");
    };
    assert_eq!(dead, [5]);
    assert_eq!(delta, [("c5".to_string(), v(500))]);
    write_delta(&dir.path().join("gen-2.delta"), 3, &delta).unwrap();
    assert_eq!(
        std::fs::read(dir.path().join("gen-1.vectors")).unwrap(),
        before
    );

    // The next one starts from that: the delta's c5 gone again, c6 dead.
    let again = Previous::read(
        dir.path(),
        "gen-1",
        name.as_deref(),
        &dead,
        Some(&dir.path().join("gen-2.delta")),
    )
    .unwrap();
    let Next::Delta { dead, delta } = again
        .next(
            |id| id == "c5" || id == "c6",
            vec![("c6".into(), v(600))],
            DELTA_MAX_FLOATS,
        )
        .unwrap()
    else {
        panic!("a small change rewrote the graph");
    };
    assert_eq!(dead, [5, 6]);
    assert_eq!(delta, [("c6".to_string(), v(600))]);

    // Past the delta's limit: inserted into the graph, the old ids kept.
    let Next::Store(folded) = prev()
        .next(|id| id == "c5", vec![("c5".into(), v(500))], 0)
        .unwrap()
    else {
        panic!("the delta was not folded in");
    };
    assert_eq!(folded.ids.len(), 101);
    assert_eq!(folded.ids[5], "");
    assert_eq!(folded.search(&v(500), 1, 64)[0].0, "c5");

    // Past COMPACT_AT: rebuilt over the live vectors.
    let Next::Store(rebuilt) = prev()
        .next(|id| id < "c5", Vec::new(), DELTA_MAX_FLOATS)
        .unwrap()
    else {
        panic!("no rebuild");
    };
    assert_eq!(rebuilt.live(), rebuilt.ids.len());
    assert!(rebuilt.ids.iter().all(|id| id.as_str() >= "c5"));
}

/// Unreadable previous vectors are an error (the update then rebuilds
/// from the sources), never a panic or a silent loss of vectors.
#[test]
fn a_damaged_previous_generation_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = VectorStore::build(random_vectors(50, 8, 3));
    let name = store.dump(dir.path(), "gen-1").unwrap();
    let read = |dead: &[u32], delta: Option<&Path>| {
        Previous::read(dir.path(), "gen-1", name.as_deref(), dead, delta).is_ok()
    };
    assert!(read(&[3], None));
    assert!(!read(&[50], None), "a dead row past the end");
    let missing = dir.path().join("gen-2.delta");
    assert!(!read(&[], Some(&missing)));
    std::fs::write(&missing, b"RBVEC002 but cut").unwrap();
    assert!(!read(&[], Some(&missing)));
}

/// Issue 13: HNSW recall@10 against the exact scan after 1,000
/// incremental inserts and just under 20% deletions (the compaction
/// threshold) is no worse than a fresh build's over the same vectors
/// (within 0.02).
#[test]
fn recall_after_incremental_inserts_and_deletions_matches_a_fresh_build() {
    // Clustered vectors, as real chunks are: 40 topics, noise around each.
    let centres = random_vectors(40, 32, 11);
    let noise = random_vectors(4_000, 32, 12);
    let all: Vec<IdVector> = noise
        .into_iter()
        .enumerate()
        .map(|(i, (id, n))| {
            let c = &centres[i % 40].1;
            (
                id,
                unit(
                    &c.iter()
                        .zip(&n)
                        .map(|(a, b)| a + 2.0 * b)
                        .collect::<Vec<_>>(),
                ),
            )
        })
        .collect();
    let (first, inserted) = all.split_at(3_000);
    let mut store = VectorStore::build(first.to_vec());
    for batch in inserted.chunks(100) {
        store.insert(batch.to_vec());
    }
    let dead: Vec<u32> = (0..4_000u32).filter(|r| r % 100 < 19).collect();
    store.kill_rows(&dead);
    assert!(!store.needs_compaction());
    let live: Vec<IdVector> = all
        .iter()
        .enumerate()
        .filter(|(r, _)| !dead.contains(&(*r as u32)))
        .map(|(_, v)| v.clone())
        .collect();
    let fresh = VectorStore::build(live.clone());
    let recall = |s: &VectorStore| {
        let mut found = 0;
        let queries: Vec<&IdVector> = all.iter().step_by(20).collect();
        for q in &queries {
            let exact = brute_force(&live, &q.1, 10);
            let hits = s.search(&q.1, 10, 10);
            assert!(hits.iter().all(|(id, _)| live.iter().any(|l| &l.0 == id)));
            found += hits
                .iter()
                .filter(|h| exact.iter().any(|e| e.0 == h.0))
                .count();
        }
        found as f64 / (queries.len() * 10) as f64
    };
    let (incremental, rebuilt) = (recall(&store), recall(&fresh));
    eprintln!("recall@10 at ef 10: incremental {incremental:.3}, fresh build {rebuilt:.3}");
    assert!(
        incremental >= rebuilt - 0.02,
        "recall@10 after inserts and deletions {incremental:.3}, fresh build {rebuilt:.3}"
    );
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

/// `n` random unit vectors of `dim` floats, ids `c0`.. (seeded).
fn random_vectors(n: usize, dim: usize, seed: u64) -> Vec<IdVector> {
    let mut seed = seed;
    let mut r = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % 10_000) as f32 / 5_000.0 - 1.0
    };
    (0..n)
        .map(|i| {
            let v: Vec<f32> = (0..dim).map(|_| r()).collect();
            (format!("c{i}"), unit(&v))
        })
        .collect()
}

/// The `k` nearest of `live` to `q` by cosine, computed the plain way (in
/// f64, dividing by the norms), zero vectors left out.
fn brute_force(live: &[IdVector], q: &[f32], k: usize) -> Vec<(String, f32)> {
    let norm = |v: &[f32]| v.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    let mut all: Vec<(String, f64)> = live
        .iter()
        .filter(|(_, v)| norm(v) > 0.0)
        .map(|(id, v)| {
            let dot: f64 = v.iter().zip(q).map(|(a, b)| *a as f64 * *b as f64).sum();
            (id.clone(), dot / (norm(v) * norm(q)))
        })
        .collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    all.into_iter()
        .take(k)
        .map(|(id, s)| (id, s as f32))
        .collect()
}

/// A store on disk with tombstones: 1,200 vectors and a zero one, 60 of
/// them then removed and 100 more inserted (so data ids are not in id
/// order), dumped as generation 7. Returns the live vectors, the removed
/// ids and the graph's name.
fn store_with_tombstones(dir: &Path) -> (Vec<IdVector>, Vec<String>, Option<String>) {
    let mut all = random_vectors(1_300, 32, 7);
    let fresh = all.split_off(1_200);
    let mut first = all.clone();
    first.push(("zero".into(), vec![0.0; 32]));
    let mut store = VectorStore::build(first);
    let removed: Vec<String> = (0..1_200).step_by(20).map(|i| format!("c{i}")).collect();
    assert_eq!(store.remove_where(|id| removed.iter().any(|r| r == id)), 60);
    store.insert(fresh.clone());
    let name = store.dump(dir, "gen-7").unwrap();
    let live = all
        .into_iter()
        .chain(fresh)
        .filter(|(id, _)| !removed.contains(id))
        .collect();
    (live, removed, name)
}

/// Issue 13: an index opened from disk answers vector searches before its
/// graph is loaded — the exact top k, tombstones and zero vectors left out
/// — and, once the graph is loaded, its answers leave tombstones out too.
#[test]
fn an_opened_store_answers_by_exact_scan_until_its_graph_loads() {
    let dir = tempfile::tempdir().unwrap();
    let (live, removed, name) = store_with_tombstones(dir.path());
    // The graph's loading thread waits for the test's go.
    let (go, wait) = std::sync::mpsc::channel::<()>();
    let check = move || {
        wait.recv().ok();
        Ok(())
    };
    let opened = OpenedStore::open(
        dir.path(),
        "gen-7",
        name.as_deref(),
        Parts::default(),
        check,
        0,
    )
    .unwrap();
    // Queries: live vectors, removed ones (their own nearest is gone) and
    // a perturbed one.
    let mut queries: Vec<Vec<f32>> = live.iter().step_by(41).map(|(_, v)| v.clone()).collect();
    queries.extend(
        random_vectors(1_200, 32, 7)
            .into_iter()
            .step_by(200)
            .map(|(_, v)| v),
    );
    assert!(!opened.graph_ready());
    for q in &queries {
        let hits = opened.search(q, 10, 64);
        let exact = brute_force(&live, q, 10);
        let ids = |h: &[(String, f32)]| h.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&hits), ids(&exact));
        for ((_, a), (_, b)) in hits.iter().zip(&exact) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
    }
    assert!(opened.search(&[0.0; 32], 10, 64).is_empty());
    assert!(!opened.graph_ready(), "the graph waited for the go");

    go.send(()).unwrap();
    assert_eq!(opened.wait_for_graph(), Ok(true));
    assert!(opened.graph_ready());
    let recall = graph_recall(&opened, &live, &queries, |id| {
        removed.iter().any(|r| r == id) || id == "zero"
    });
    assert!(recall >= 0.9, "recall@10 of the loaded graph {recall}");
}

/// Recall@10 of `opened`'s searches at ef 256 against an exact scan of
/// `live`, asserting that no hit is one `gone` names.
fn graph_recall(
    opened: &OpenedStore,
    live: &[IdVector],
    queries: &[Vec<f32>],
    gone: impl Fn(&str) -> bool,
) -> f64 {
    let mut found = 0;
    for q in queries {
        let hits = opened.search(q, 10, 256);
        assert_eq!(hits.len(), 10);
        assert!(hits.iter().all(|(id, _)| !gone(id)), "{hits:?}");
        let exact = brute_force(live, q, 10);
        found += hits
            .iter()
            .filter(|h| exact.iter().any(|e| e.0 == h.0))
            .count();
    }
    found as f64 / (queries.len() * 10) as f64
}

/// A store under the size limit is searched exactly and never loads its
/// graph; a graph whose check fails is never used.
#[test]
fn small_stores_and_damaged_graphs_are_searched_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let (live, _, name) = store_with_tombstones(dir.path());
    let q = &live[10].1;
    let exact: Vec<String> = brute_force(&live, q, 5).into_iter().map(|h| h.0).collect();
    let ids =
        |s: &OpenedStore| -> Vec<String> { s.search(q, 5, 64).into_iter().map(|h| h.0).collect() };

    let small = OpenedStore::open(
        dir.path(),
        "gen-7",
        name.as_deref(),
        Parts::default(),
        || panic!("a small store's graph is not loaded"),
        EXACT_SCAN_MAX_FLOATS,
    )
    .unwrap();
    assert_eq!(small.wait_for_graph(), Ok(false));
    assert_eq!(ids(&small), exact);

    let damaged = OpenedStore::open(
        dir.path(),
        "gen-7",
        name.as_deref(),
        Parts::default(),
        || anyhow::bail!("the graph file is damaged"),
        0,
    )
    .unwrap();
    assert_eq!(
        damaged.wait_for_graph(),
        Err("the graph file is damaged".to_string())
    );
    assert!(!damaged.graph_ready());
    assert_eq!(ids(&damaged), exact);
}

/// The vectors file leaves tombstones out of what re-indexing reuses, and
/// a truncated or altered one is an error, never a panic.
#[test]
fn the_vectors_file_is_read_back_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (live, _, _) = store_with_tombstones(dir.path());
    let path = dir.path().join("gen-7.vectors");
    let (dim, back) = read_vectors(&path).unwrap();
    assert_eq!(dim, 32);
    let zero = back.iter().find(|(id, _)| id == "zero").unwrap();
    assert!(zero.1.iter().all(|x| *x == 0.0));
    let mut back_ids: Vec<&str> = back.iter().map(|(id, _)| id.as_str()).collect();
    let mut live_ids: Vec<&str> = live.iter().map(|(id, _)| id.as_str()).collect();
    live_ids.push("zero");
    back_ids.sort_unstable();
    live_ids.sort_unstable();
    assert_eq!(back_ids, live_ids);

    let bytes = std::fs::read(&path).unwrap();
    for cut in [0, 7, 31, 40, bytes.len() / 2, bytes.len() - 3] {
        std::fs::write(&path, &bytes[..cut]).unwrap();
        assert!(read_vectors(&path).is_err(), "cut at {cut}");
        assert!(file::Flat::open(&path).is_err(), "cut at {cut}");
    }
    let mut wrong = bytes.clone();
    wrong[16] ^= 1; // the row count
    std::fs::write(&path, &wrong).unwrap();
    assert!(file::Flat::open(&path).is_err());
    assert!(VectorStore::load(dir.path(), "gen-7", None).is_err());
}

/// Issue 13: a generation opened as base + dead rows + delta answers as an
/// exact scan of its live vectors would — before its graph loads and after
/// (dead rows never, the delta's chunks merged in).
#[test]
fn an_opened_store_merges_its_delta_and_skips_dead_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (live, _, name) = store_with_tombstones(dir.path());
    let (_, ids) = read_ids(&dir.path().join("gen-7.vectors")).unwrap();
    let dead: Vec<u32> = (0..ids.len() as u32)
        .filter(|r| ids[*r as usize].ends_with('3'))
        .collect();
    let added = random_vectors(1_450, 32, 9).split_off(1_400);
    let added: Vec<IdVector> = added
        .into_iter()
        .map(|(id, v)| (format!("d{id}"), v))
        .collect();
    let delta = dir.path().join("gen-8.delta");
    write_delta(&delta, 32, &added).unwrap();
    let live: Vec<IdVector> = live
        .into_iter()
        .filter(|(id, _)| !id.ends_with('3'))
        .chain(added.iter().cloned())
        .collect();
    let (go, wait) = std::sync::mpsc::channel::<()>();
    let opened = OpenedStore::open(
        dir.path(),
        "gen-7",
        name.as_deref(),
        Parts {
            dead,
            delta: Some(delta),
        },
        move || {
            wait.recv().ok();
            Ok(())
        },
        0,
    )
    .unwrap();
    let queries: Vec<Vec<f32>> = live.iter().step_by(37).map(|(_, v)| v.clone()).collect();
    let ids = |h: &[(String, f32)]| h.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>();
    for q in &queries {
        assert_eq!(
            ids(&opened.search(q, 10, 64)),
            ids(&brute_force(&live, q, 10))
        );
    }
    go.send(()).unwrap();
    assert_eq!(opened.wait_for_graph(), Ok(true));
    let dead = |id: &str| id.starts_with('c') && id.ends_with('3');
    let recall = graph_recall(&opened, &live, &queries, dead);
    assert!(recall >= 0.9, "recall@10 {recall}");
    // A query equal to a delta vector finds it first.
    assert_eq!(opened.search(&added[7].1, 1, 256)[0].0, added[7].0);
}
