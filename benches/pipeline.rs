//! Scale benchmark of the core pipeline on a generated corpus.
//!
//! Run: `cargo bench --bench pipeline` (release). Environment:
//! `RB_BENCH_MB` (size of the large corpus, default 50; the small one is a
//! tenth), `RB_BENCH_CHUNK_TOKENS` (chunk budget, default 140: about 100,000
//! chunks in 50 MB), `RB_BENCH_QUERIES` (default 200), `RB_BENCH_EMBEDDER`
//! (builtin, none or minilm with RESEARCH_BOARD_MINILM_DIR; default builtin).
//!
//! The generated Markdown is written in the sample sources' vocabulary, each
//! file on one of 40 topics (half its words from the topic's own slice of
//! the vocabulary, half from the whole, Zipf-skewed), so chunks cluster by
//! topic as real ones do. Reports, for each corpus:
//! - index build (embeddings included) time, MB/s, chunks/s and peak memory
//!   (measured in a child process: VmHWM);
//! - unchanged re-index time, against the full build (ratio);
//! - opening the index, in a fresh child process: time until it is ready
//!   to query (vector searches scan exactly), the first question then,
//!   and the time until the vector graph is loaded — which is when the
//!   open returned before the graph loaded in the background: the before
//!   and after of issue 13 in one run — with the process's memory (RSS)
//!   at each point;
//! - query latency p50/p95 of retrieval + gate + budget + extraction +
//!   validation at ~10k and ~100k chunks, with the graph loaded, and (when
//!   the index is large enough to load one) by exact scan only;
//! - baseline in the same run: an exact (brute-force) vector scan over all
//!   chunk vectors, against the HNSW search, with recall@10 of HNSW.

/// The allocator the product binary uses (src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use research_board::chunk::ChunkConfig;
use research_board::config::Config;
use research_board::embed::{self, Embedder, EmbedderKind};
use research_board::index::{self, Index, UpdateOptions};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn rng(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// English vocabulary of the sample sources, most frequent first.
fn vocabulary() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sources");
    let mut counts: std::collections::HashMap<String, usize> = Default::default();
    for e in walk(&dir) {
        if let Ok(t) = std::fs::read_to_string(&e) {
            for w in t
                .split(|c: char| !c.is_alphabetic())
                .filter(|w| w.len() > 1)
            {
                *counts.entry(w.to_lowercase()).or_default() += 1;
            }
        }
    }
    let mut v: Vec<(String, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.into_iter().map(|(w, _)| w).collect()
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

const TOPICS: usize = 40;

/// Topic `t`'s own words: a slice of the vocabulary below its 100 most
/// frequent words.
fn topic(vocab: &[String], t: usize) -> &[String] {
    let rest = &vocab[100.min(vocab.len())..];
    let per = (rest.len() / TOPICS).max(1);
    let start = (t % TOPICS * per).min(rest.len().saturating_sub(per));
    &rest[start..start + per.min(rest.len())]
}

/// A word: half the time uniform from the topic's words, else drawn from
/// the whole vocabulary with a Zipf-like skew.
fn word(seed: &mut u64, vocab: &[String], topic: &[String]) -> String {
    if rng(seed).is_multiple_of(2) && !topic.is_empty() {
        return topic[rng(seed) as usize % topic.len()].clone();
    }
    let r = (rng(seed) % 1_000_000) as f64 / 1_000_000.0;
    let rank = (r.powi(3) * vocab.len() as f64) as usize;
    vocab[rank.min(vocab.len() - 1)].clone()
}

fn generate(dir: &Path, target_mb: usize) -> usize {
    let vocab = vocabulary();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut total = 0usize;
    let mut f = 0;
    while total < target_mb * 1024 * 1024 {
        let words = topic(&vocab, f);
        let mut t = format!("# Volume {f}\n\n");
        for sec in 0..8 {
            t.push_str(&format!("## Section {sec} of volume {f}\n\n"));
            for _p in 0..6 {
                let sentences = 4 + rng(&mut seed) % 6;
                for _ in 0..sentences {
                    let n = 8 + rng(&mut seed) % 14;
                    let mut s: Vec<String> =
                        (0..n).map(|_| word(&mut seed, &vocab, words)).collect();
                    let mut c = s[0].chars();
                    s[0] = c
                        .next()
                        .map(|x| x.to_uppercase().collect::<String>() + c.as_str())
                        .unwrap_or_default();
                    t.push_str(&s.join(" "));
                    t.push_str(". ");
                }
                t.push_str("\n\n");
            }
        }
        let sub = dir.join(format!("part-{:02}", f / 100));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join(format!("vol-{f:04}.md")), &t).unwrap();
        total += t.len();
        f += 1;
    }
    f
}

/// RB_BENCH_EMBEDDER: builtin (default), none, or minilm (model folder from
/// RESEARCH_BOARD_MINILM_DIR).
fn bench_embedder() -> EmbedderKind {
    std::env::var("RB_BENCH_EMBEDDER")
        .ok()
        .map(|v| {
            v.parse()
                .expect("RB_BENCH_EMBEDDER: builtin, none or minilm")
        })
        .unwrap_or(EmbedderKind::Builtin)
}

fn peak_rss_mb() -> f64 {
    status_mb("VmHWM:")
}

fn status_mb(key: &str) -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn opts(max_tokens: usize) -> UpdateOptions {
    UpdateOptions {
        chunk: ChunkConfig {
            max_tokens,
            hard_max_tokens: max_tokens * 4,
        },
        limits: Default::default(),
        replace_other_sources: true,
        delta_max_floats: None,
        check_all: false,
    }
}

/// Issue 13: the time of an update after `n` files changed (a line
/// appended to each), with the delta (`Some(limit)` = `None`, the default)
/// and, as the baseline in the same run, with every update inserting into
/// the graph and writing it anew (`Some(0)`, the behaviour before); then a
/// compaction (a quarter of the files removed). The files are restored.
fn bench_updates(
    label: &str,
    src: &Path,
    idx: &Path,
    max_tokens: usize,
    nq: usize,
    e: Option<&dyn Embedder>,
) {
    let qs = queries(nq);
    let ask_latency = || {
        let index = Index::open(idx).unwrap();
        index.wait_for_graph().ok();
        ask_percentiles(&index, e, &Config::default(), &qs)
    };
    let before = ask_latency();
    let files = walk(src);
    let originals: Vec<(PathBuf, Vec<u8>)> = files
        .iter()
        .map(|p| (p.clone(), std::fs::read(p).unwrap()))
        .collect();
    let restore = || {
        for (p, b) in &originals {
            std::fs::write(p, b).unwrap();
        }
    };
    let mut round = 0;
    let mut timed = |changed: usize, delta: Option<usize>| {
        round += 1;
        for (p, b) in originals
            .iter()
            .step_by((originals.len() / changed).max(1))
            .take(changed)
        {
            let mut b = b.clone();
            b.extend_from_slice(format!("\n\nRevision {round} of this file.\n").as_bytes());
            std::fs::write(p, b).unwrap();
        }
        let o = UpdateOptions {
            delta_max_floats: delta,
            ..opts(max_tokens)
        };
        let t = Instant::now();
        let r = index::update(src, idx, &o, e, &mut |_| {}).unwrap();
        assert_eq!(r.files_indexed, changed);
        t.elapsed().as_secs_f64() * 1e3
    };
    for n in [1usize, 10, 100]
        .into_iter()
        .filter(|n| *n <= originals.len())
    {
        let delta = timed(n, None);
        let graph = timed(n, Some(0));
        println!(
            "[{label}] update after {n} changed files: {delta:.0} ms with the delta, \
             {graph:.0} ms inserting into the graph and writing it (baseline) = {:.1}x",
            graph / delta
        );
    }
    // Questions on the index those updates left: its changed files' old
    // chunks are deleted documents, which term statistics leave out
    // (`index::live`); the baseline is the same index counting them, as
    // Tantivy does. The same index before the updates is for scale.
    let index = Index::open(idx).unwrap();
    index.wait_for_graph().ok();
    let cfg = Config::default();
    let live = ask_percentiles(&index, e, &cfg, &qs);
    index.set_tantivy_statistics(true);
    let counted = ask_percentiles(&index, e, &cfg, &qs);
    println!(
        "[{label}] question after those updates: p50 {:.2} / p95 {:.2} ms with deleted documents left out \
         of the term statistics, {:.2} / {:.2} ms counting them (baseline) = {:.2}x at p95; \
         {:.2} / {:.2} ms before the updates",
        live.0,
        live.1,
        counted.0,
        counted.1,
        live.1 / counted.1,
        before.0,
        before.1
    );
    drop(index);
    let removed = files.len() / 4;
    for p in files.iter().take(removed) {
        std::fs::remove_file(p).unwrap();
    }
    let t = Instant::now();
    let r = index::update(src, idx, &opts(max_tokens), e, &mut |_| {}).unwrap();
    println!(
        "[{label}] compaction ({} of {} files removed, graph rebuilt over {} chunks): {:.0} ms",
        r.files_removed,
        files.len(),
        r.chunks_total,
        t.elapsed().as_secs_f64() * 1e3
    );
    restore();
}

/// Child mode: index and print "seconds chunks peak_mb".
fn child(src: &Path, idx: &Path, max_tokens: usize) {
    let e = embed::build(bench_embedder()).unwrap();
    let t = Instant::now();
    // (phase, start time, peak RSS so far when it started, RSS then)
    let mut phases: Vec<(&'static str, f64, f64, f64)> = Vec::new();
    let r = index::update(src, idx, &opts(max_tokens), e.as_deref(), &mut |p| {
        let name = match p {
            index::Progress::Reading { .. } => "read+chunk",
            index::Progress::Embedding { .. } => "embed",
            index::Progress::BuildingGraph { .. } => "graph",
            index::Progress::Committing => "commit",
            index::Progress::Rebuilding { .. } => "rebuild",
        };
        if phases.last().is_none_or(|(n, ..)| *n != name) {
            phases.push((
                name,
                t.elapsed().as_secs_f64(),
                peak_rss_mb(),
                status_mb("VmRSS:"),
            ));
        }
    })
    .unwrap();
    let total = t.elapsed().as_secs_f64();
    let spans: Vec<String> = phases
        .iter()
        .enumerate()
        .map(|(i, (n, start, _, rss))| {
            let (end, peak) = phases
                .get(i + 1)
                .map_or((total, peak_rss_mb()), |p| (p.1, p.2));
            format!(
                "{n}={:.1}s (RSS {rss:.0} MB at its start, peak {peak:.0} MB by its end)",
                end - start
            )
        })
        .collect();
    eprintln!("  phases: {}", spans.join(" "));
    println!("{} {} {}", total, r.chunks_total, peak_rss_mb());
}

/// Child mode: open the index as a fresh process does, and print "ready_ms
/// first_question_ms graph_ms rss_ready rss_question rss_graph peak
/// graph_used".
fn child_open(idx: &Path) {
    let e = embed::build(bench_embedder()).unwrap();
    let cfg = Config::default();
    let q = &queries(1)[0];
    let t = Instant::now();
    let index = Index::open(idx).unwrap();
    let ready = t.elapsed().as_secs_f64() * 1e3;
    let rss_ready = status_mb("VmRSS:");
    let tq = Instant::now();
    research_board::pipeline::ask(&index, e.as_deref(), &cfg, q).unwrap();
    let first = tq.elapsed().as_secs_f64() * 1e3;
    let rss_question = status_mb("VmRSS:");
    let used = index.wait_for_graph().unwrap();
    let graph = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "{ready} {first} {graph} {rss_ready} {rss_question} {} {} {used}",
        status_mb("VmRSS:"),
        peak_rss_mb()
    );
}

fn run_child(src: &Path, idx: &Path, max_tokens: usize) -> (f64, usize, f64) {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--child-index",
            src.to_str().unwrap(),
            idx.to_str().unwrap(),
            &max_tokens.to_string(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    print!("{}", String::from_utf8_lossy(&out.stderr));
    let s = String::from_utf8(out.stdout).unwrap();
    let v: Vec<&str> = s.split_whitespace().collect();
    (
        v[0].parse().unwrap(),
        v[1].parse().unwrap(),
        v[2].parse().unwrap(),
    )
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

/// p50 and p95 in ms of `ask` over `qs` (after five to warm up).
fn ask_percentiles(
    index: &Index,
    e: Option<&dyn Embedder>,
    cfg: &Config,
    qs: &[String],
) -> (f64, f64) {
    for q in qs.iter().take(5) {
        research_board::pipeline::ask(index, e, cfg, q).unwrap();
    }
    let mut lat: Vec<f64> = qs
        .iter()
        .map(|q| {
            let t = Instant::now();
            research_board::pipeline::ask(index, e, cfg, q).unwrap();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    (pct(&mut lat.clone(), 0.5), pct(&mut lat, 0.95))
}

fn queries(n: usize) -> Vec<String> {
    let vocab = vocabulary();
    let mut seed = 42u64;
    (0..n)
        .map(|i| {
            let k = 3 + (i % 4);
            let words = topic(&vocab, i);
            let ws: Vec<String> = (0..k).map(|_| word(&mut seed, &vocab, words)).collect();
            format!("What does the text say about {}?", ws.join(" "))
        })
        .collect()
}

fn bench_scale(
    label: &str,
    src: &Path,
    idx: &Path,
    max_tokens: usize,
    nq: usize,
    e: Option<&dyn Embedder>,
) {
    let bytes: u64 = walk_size(src);
    let (secs, chunks, peak) = run_child(src, idx, max_tokens);
    println!(
        "[{label}] index build: {chunks} chunks, {:.1} MB in {secs:.1} s = {:.2} MB/s, {:.0} chunks/s, peak RSS {peak:.0} MB",
        bytes as f64 / 1048576.0,
        bytes as f64 / 1048576.0 / secs,
        chunks as f64 / secs
    );
    let t = Instant::now();
    let r = index::update(src, idx, &opts(max_tokens), e, &mut |_| {}).unwrap();
    let unchanged = t.elapsed().as_secs_f64();
    assert!(r.up_to_date);
    println!(
        "[{label}] unchanged re-index of {} files: {:.0} ms (full build / unchanged = {:.0}x)",
        r.files_unchanged,
        unchanged * 1e3,
        secs / unchanged
    );
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--child-open", idx.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let o: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let f = |i: usize| o[i].parse::<f64>().unwrap();
    println!(
        "[{label}] open the index (fresh process): ready to query in {:.0} ms (RSS {:.0} MB); \
         first question {:.1} ms (RSS {:.0} MB); vector graph {} {:.0} ms after the open began \
         (RSS {:.0} MB, peak {:.0} MB) — before this change, the open returned only then",
        f(0),
        f(3),
        f(1),
        f(4),
        if o[7] == "true" {
            "loaded"
        } else {
            "not loaded (exact scan only)"
        },
        f(2),
        f(5),
        f(6)
    );
    let index = Index::open(idx).unwrap();
    let graph = index.wait_for_graph().unwrap();
    let cfg = Config::default();
    // Baseline for the late-interaction cost: the same questions without it
    // (the previous defaults: window 0.3, no MaxSim in rescoring or extraction).
    let mut no_late = Config::default();
    no_late.retrieve.max_sim_weight = 0.0;
    no_late.retrieve.window_weight = 0.3;
    no_late.extract.max_sim_weight = 0.0;
    let qs = queries(nq);
    let latency = |index: &Index, cfg: &Config| ask_percentiles(index, e, cfg, &qs);
    let report = |index: &Index, what: &str| {
        let (p50, p95) = latency(index, &cfg);
        println!(
            "[{label}] query (retrieve+gate+budget+extract+validate) over {} queries, {what}: p50 {p50:.2} ms, p95 {p95:.2} ms",
            qs.len(),
        );
    };
    if graph {
        report(&index, "vector graph loaded");
        if e.is_some() {
            let (p50, p95) = latency(&index, &no_late);
            let (n50, n95) = latency(&index, &cfg);
            println!(
                "[{label}]   late interaction (rescoring and extraction): p50 {n50:.2} / p95 {n95:.2} ms with it, {p50:.2} / {p95:.2} ms without (baseline) = {:.2}x at p95",
                n95 / p95
            );
        }
        report(
            &Index::open_exact(idx).unwrap(),
            "exact vector scan (before the graph is loaded)",
        );
    } else {
        report(&index, "exact vector scan (a small index)");
    }

    let Some(e) = e else {
        return; // keyword search only: no vectors to compare
    };
    // Baseline: exact vector scan over every stored vector vs HNSW (the
    // graph loaded here whatever the index's size) and vs the index's own
    // exact scan of its memory-mapped vectors file.
    let generation = index.manifest.vectors_generation();
    let vectors = index.live_vectors().unwrap();
    let hnsw = index::VectorStore::load(
        idx,
        &format!("gen-{generation}"),
        index.manifest.hnsw.as_deref(),
    )
    .unwrap();
    let mapped = Index::open_exact(idx).unwrap();
    let (mut mapped_ms, mut mapped_same) = (Vec::new(), 0usize);
    let mut exact_ms = Vec::new();
    let efs = [64usize, 128, 256, 512];
    let mut hnsw_ms = vec![Vec::new(); efs.len()];
    let mut recall = vec![0usize; efs.len()];
    // Mean similarity of HNSW's top 10 over the exact top 10's.
    let mut sim_ratio = vec![0f64; efs.len()];
    let probes = qs.len().min(50);
    for q in qs.iter().take(probes) {
        let qv = e.embed(&[q]).unwrap().remove(0);
        let t = Instant::now();
        let mut scored: Vec<(f32, &str)> = vectors
            .iter()
            .map(|(id, v)| {
                (
                    v.iter().zip(&qv).map(|(a, b)| a * b).sum::<f32>(),
                    id.as_str(),
                )
            })
            .collect();
        scored.select_nth_unstable_by(10, |a, b| b.0.total_cmp(&a.0));
        let mut top: Vec<(f32, &str)> = scored[..10].to_vec();
        top.sort_by(|a, b| b.0.total_cmp(&a.0));
        exact_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let exact_sim: f32 = top.iter().map(|(s, _)| s).sum();
        let t = Instant::now();
        let hits = mapped.vector_search(&qv, 10, 0);
        mapped_ms.push(t.elapsed().as_secs_f64() * 1e3);
        mapped_same += hits
            .iter()
            .filter(|(id, _)| top.iter().any(|(_, t)| t == id))
            .count();
        for (j, &ef) in efs.iter().enumerate() {
            let t = Instant::now();
            let hits = hnsw.search(&qv, 10, ef);
            hnsw_ms[j].push(t.elapsed().as_secs_f64() * 1e3);
            recall[j] += hits
                .iter()
                .filter(|(id, _)| top.iter().any(|(_, t)| t == id))
                .count();
            let sim: f32 = hits.iter().map(|(_, s)| s).sum();
            sim_ratio[j] += (sim / exact_sim) as f64 / probes as f64;
        }
    }
    // The same measurements under criterion (mean with confidence interval).
    let mut c = criterion::Criterion::default()
        .sample_size(20)
        .without_plots();
    let mut i = 0usize;
    c.bench_function(&format!("{label}/ask"), |b| {
        b.iter(|| {
            i += 1;
            research_board::pipeline::ask(&index, Some(e), &cfg, &qs[i % qs.len()]).unwrap()
        })
    });
    let qv = e.embed(&[qs[0].as_str()]).unwrap().remove(0);
    c.bench_function(&format!("{label}/vector_top10_exact_scan_baseline"), |b| {
        b.iter(|| {
            let mut scored: Vec<(f32, usize)> = vectors
                .iter()
                .enumerate()
                .map(|(j, (_, v))| (v.iter().zip(&qv).map(|(a, b)| a * b).sum::<f32>(), j))
                .collect();
            scored.select_nth_unstable_by(10, |a, b| b.0.total_cmp(&a.0));
            scored.truncate(10);
            scored
        })
    });
    c.bench_function(&format!("{label}/vector_top10_exact_scan_mapped"), |b| {
        b.iter(|| mapped.vector_search(&qv, 10, 0))
    });
    c.bench_function(&format!("{label}/vector_top10_hnsw"), |b| {
        b.iter(|| hnsw.search(&qv, 10, cfg.retrieve.vector_ef))
    });

    let e50 = pct(&mut exact_ms, 0.5);
    println!("[{label}] vector top-10: exact scan p50 {e50:.2} ms (baseline)");
    println!(
        "[{label}]   the index's exact scan (memory-mapped vectors file): p50 {:.2} ms, the same top 10 as the baseline's for {:.3} of hits",
        pct(&mut mapped_ms, 0.5),
        mapped_same as f64 / (probes * 10) as f64
    );
    for (j, ef) in efs.iter().enumerate() {
        let h50 = pct(&mut hnsw_ms[j], 0.5);
        println!(
            "[{label}]   HNSW ef {ef}{}: p50 {h50:.3} ms, {:.0}x faster, recall@10 {:.3}, similarity ratio {:.4}",
            if *ef == cfg.retrieve.vector_ef {
                " (default)"
            } else {
                ""
            },
            e50 / h50,
            recall[j] as f64 / (probes * 10) as f64,
            sim_ratio[j]
        );
    }
}

fn walk_size(p: &Path) -> u64 {
    let mut t = 0;
    for e in std::fs::read_dir(p).unwrap().flatten() {
        let m = e.metadata().unwrap();
        t += if m.is_dir() {
            walk_size(&e.path())
        } else {
            m.len()
        };
    }
    t
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() >= 5 && args[1] == "--child-index" {
        child(
            Path::new(&args[2]),
            Path::new(&args[3]),
            args[4].parse().unwrap(),
        );
        return;
    }
    if args.len() >= 3 && args[1] == "--child-open" {
        child_open(Path::new(&args[2]));
        return;
    }
    if args.iter().any(|a| a == "--list") {
        return; // cargo bench --list
    }
    let mb: usize = std::env::var("RB_BENCH_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let tokens: usize = std::env::var("RB_BENCH_CHUNK_TOKENS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(140);
    let nq: usize = std::env::var("RB_BENCH_QUERIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    // RB_BENCH_DIR keeps the generated corpora (and reuses them) there.
    let keep = std::env::var_os("RB_BENCH_DIR").map(PathBuf::from);
    let root: PathBuf = keep
        .clone()
        .unwrap_or_else(|| tempfile::tempdir().unwrap().keep());
    std::fs::create_dir_all(&root).unwrap();
    println!(
        "machine: {} cores; corpus in {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        root.display()
    );
    let embedder = embed::build(bench_embedder()).unwrap();
    let e = embedder.as_deref();
    println!("embedder: {:?}", bench_embedder());

    let small = root.join("small");
    let files = generate_once(&small, (mb / 10).max(1));
    println!("generated {files} files for the small corpus");
    bench_scale("small", &small, &root.join("idx-small"), tokens, nq, e);
    bench_updates("small", &small, &root.join("idx-small"), tokens, nq, e);

    let big = root.join("big");
    let files = generate_once(&big, mb);
    println!("generated {files} files for the large corpus");
    bench_scale("large", &big, &root.join("idx-big"), tokens, nq, e);
    bench_updates("large", &big, &root.join("idx-big"), tokens, nq, e);
    if keep.is_none() {
        let _ = std::fs::remove_dir_all(&root);
    } else {
        let _ = std::fs::remove_dir_all(root.join("idx-small"));
        let _ = std::fs::remove_dir_all(root.join("idx-big"));
    }
}

/// Generate the corpus in `dir` unless a previous run left it complete.
fn generate_once(dir: &Path, mb: usize) -> usize {
    let done = dir.with_extension(format!("complete-{mb}"));
    if let Ok(n) = std::fs::read_to_string(&done) {
        return n.trim().parse().unwrap_or(0);
    }
    let _ = std::fs::remove_dir_all(dir);
    // Markers of other sizes describe what was just removed.
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    for e in std::fs::read_dir(dir.parent().unwrap()).unwrap().flatten() {
        if e.file_name()
            .to_string_lossy()
            .starts_with(&format!("{name}.complete-"))
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
    std::fs::create_dir_all(dir).unwrap();
    let n = generate(dir, mb);
    std::fs::write(&done, n.to_string()).unwrap();
    n
}
