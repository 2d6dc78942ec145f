//! Embedding throughput: chunks per second of the `builtin` and `minilm`
//! embedders on ~1,000-character chunks of the sample sources' text.
//!
//! Run: `cargo bench --bench embed` (release). Environment:
//! `RB_BENCH_CHUNKS` (chunks per measurement, default 1,000 for builtin and
//! 256 for minilm), `RESEARCH_BOARD_MINILM_DIR` (the minilm model folder;
//! minilm is skipped with a note when it is not set).

/// The allocator the product binary uses (src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use research_board::embed::{BuiltinEmbedder, Embedder};
use std::path::Path;
use std::time::Instant;

const CHUNK_CHARS: usize = 1_000;

/// `n` chunks of about [`CHUNK_CHARS`] chars, cut at spaces, cycling through
/// the text files of `sample-sources/`.
fn chunks(n: usize) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sources");
    let mut files: Vec<_> = walk(&dir)
        .into_iter()
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("md" | "txt" | "rst")
            )
        })
        .collect();
    files.sort();
    let words: Vec<String> = files
        .iter()
        .flat_map(|p| {
            std::fs::read_to_string(p)
                .unwrap()
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(!words.is_empty(), "no text in {}", dir.display());
    let mut out = Vec::with_capacity(n);
    let mut i = 0;
    while out.len() < n {
        let mut s = String::new();
        while s.len() < CHUNK_CHARS {
            s.push_str(&words[i % words.len()]);
            s.push(' ');
            i += 1;
        }
        out.push(s.trim_end().to_string());
    }
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Best of `runs` timings of embedding all `texts` at once, in seconds.
fn measure(e: &dyn Embedder, texts: &[&str], runs: usize) -> f64 {
    e.embed(&texts[..texts.len().min(16)]).unwrap(); // warm up
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            let v = e.embed(texts).unwrap();
            assert_eq!(v.len(), texts.len());
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn report(name: &str, n: usize, secs: f64, chars: usize) {
    println!(
        "{name:8} {n:5} chunks ({} chars avg) in {secs:7.3} s: {:9.1} chunks/s",
        chars / n,
        n as f64 / secs
    );
}

/// `RB_BENCH_CHUNKS`, else `default`: how many chunks to embed.
fn want(default: usize) -> usize {
    std::env::var("RB_BENCH_CHUNKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "embedding throughput, ~{CHUNK_CHARS}-char chunks of sample-sources/ text, {threads} CPU(s)"
    );

    let builtin = BuiltinEmbedder::load_default().unwrap();
    let texts = chunks(want(1_000));
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let chars: usize = texts.iter().map(|t| t.chars().count()).sum();
    let secs = measure(&builtin, &refs, 5);
    report("builtin", refs.len(), secs, chars);
    minilm();
}

#[cfg(not(feature = "minilm"))]
fn minilm() {
    println!("minilm   skipped: build with --features minilm");
}

#[cfg(feature = "minilm")]
fn minilm() {
    use research_board::embed::{MINILM_DIR_ENV, MinilmEmbedder};
    match std::env::var_os(MINILM_DIR_ENV).filter(|v| !v.is_empty()) {
        None => println!("minilm   skipped: set {MINILM_DIR_ENV} (scripts/fetch-minilm.sh DIR)"),
        Some(dir) => {
            let t = Instant::now();
            let minilm = MinilmEmbedder::load(Path::new(&dir)).unwrap();
            println!(
                "minilm   model load (sha256 check included): {:.2} s",
                t.elapsed().as_secs_f64()
            );
            let texts = chunks(want(256));
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            let chars: usize = texts.iter().map(|t| t.chars().count()).sum();
            let tokens: usize = refs.iter().map(|t| minilm.input_ids(t).len()).sum();
            let secs = measure(&minilm, &refs, 2);
            report("minilm", refs.len(), secs, chars);
            println!(
                "minilm   {} tokens/chunk avg (cut at 256), {:.0} tokens/s",
                tokens / refs.len(),
                tokens as f64 / secs
            );
        }
    }
}
