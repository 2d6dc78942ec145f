//! Validation speed on realistic cases, against the reference designs'
//! approach (difflib sliding window; rapidfuzz partial_ratio) run in Python
//! by `scripts/bench-validate-baseline.py` on the same cases.
//!
//! `cargo bench --bench validate`. Environment: `BENCH_BASELINE_CAP_SECS`
//! (default 30) caps each Python run; `BENCH_SKIP_BASELINE=1` skips it;
//! `BENCH_PROFILE_CASE=fuzzy` only loops on that case for 3 s (for perf).
//!
//! Cases: 8 chunks of about 2,000 chars built deterministically from the
//! sentences of `sample-sources/` (*.md, *.txt, *.rst), two chunks per
//! source; snippets of about 500 chars citing the source of chunk 5.

use criterion::Criterion;
use research_board::text::sentences;
use research_board::validate::{ChunkRef, ValidateConfig, Validator, Verdict, normalize, validate};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHUNKS: usize = 8;
const CHUNK_CHARS: usize = 2000;
const SNIPPET_CHARS: usize = 500;
const TARGET: usize = 5;

const FALLBACK: &str = "The keeper climbed the tower at dusk to light the lamp. \
The lens turned on its bed of mercury, throwing a beam far over the sea. \
Ships counted the flashes to know which light they saw. \
In fog the keeper started the engine that drove the siren. \
Supplies came by boat once a fortnight when the weather allowed. \
The log recorded every ship that passed and every hour of fog. ";

struct Case {
    name: &'static str,
    quote: String,
    expect: Verdict,
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Prose sentences of the sample sources (headings, rst underlines and
/// directives skipped), in a fixed order.
fn corpus_sentences() -> Vec<String> {
    let mut files: Vec<PathBuf> = Vec::new();
    let dir = manifest_dir().join("sample-sources");
    for sub in [dir.clone(), dir.join("keepers")] {
        if let Ok(rd) = std::fs::read_dir(&sub) {
            for e in rd.flatten() {
                let p = e.path();
                if matches!(
                    p.extension().and_then(|x| x.to_str()),
                    Some("md" | "txt" | "rst")
                ) {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        for para in text.split("\n\n") {
            let lines: Vec<&str> = para
                .lines()
                .filter(|l| {
                    let t = l.trim();
                    !t.is_empty()
                        && !t.starts_with('#')
                        && !t.starts_with("..")
                        && !t.chars().all(|c| "=-~*^#+`".contains(c))
                })
                .collect();
            if lines.len() == 1 && lines[0].len() < 80 {
                continue; // a heading
            }
            let para = lines.join(" ");
            for r in sentences(&para) {
                let s = para[r].trim();
                if s.chars().count() >= 40 {
                    out.push(s.to_string());
                }
            }
        }
    }
    if out.len() < 40 {
        out = sentences(&FALLBACK.repeat(40))
            .into_iter()
            .map(|r| FALLBACK.repeat(40)[r].to_string())
            .collect();
    }
    out
}

/// Chunk texts (each a list of sentences) and the sentence lists.
fn build_chunks() -> Vec<Vec<String>> {
    let mut sents = corpus_sentences();
    let mut rng = fastrand::Rng::with_seed(0x5eed);
    rng.shuffle(&mut sents);
    let mut it = sents.iter().cycle();
    (0..CHUNKS)
        .map(|_| {
            let mut v: Vec<String> = Vec::new();
            while v.iter().map(|s| s.chars().count() + 1).sum::<usize>() < CHUNK_CHARS {
                v.push(it.next().unwrap().clone());
            }
            v
        })
        .collect()
}

fn chunk_text(sents: &[String]) -> String {
    // Mostly spaces, a line break now and then, as extracted text has.
    let mut s = String::new();
    for (i, x) in sents.iter().enumerate() {
        if i > 0 {
            s.push(if i % 4 == 0 { '\n' } else { ' ' });
        }
        s.push_str(x);
    }
    s
}

/// About `n` chars of `s`, cut at a word boundary.
fn cut(s: &str, n: usize) -> String {
    let t: String = s.chars().take(n).collect();
    match t.rfind(' ') {
        Some(b) if t.chars().count() == n => t[..b].to_string(),
        _ => t,
    }
}

fn edit(s: &str) -> String {
    // Four edits spread over the snippet: substitution, deletion,
    // insertion, transposition.
    let mut c: Vec<char> = s.chars().collect();
    let n = c.len();
    let at = |f: f64| (n as f64 * f) as usize;
    c[at(0.2)] = if c[at(0.2)] == 'x' { 'y' } else { 'x' };
    c.remove(at(0.4));
    c.insert(at(0.6), 'q');
    c.swap(at(0.8), at(0.8) + 1);
    c.into_iter().collect()
}

fn cases(chunks: &[Vec<String>]) -> Vec<Case> {
    let t = &chunks[TARGET];
    let full = chunk_text(t);
    let verbatim = cut(&full[full.find(t[1].as_str()).unwrap()..], SNIPPET_CHARS);
    // As an LLM retypes it: straight quotes, hyphens for dashes, its own
    // line breaks and case.
    let normalized = verbatim
        .replace(['’', '‘'], "'")
        .replace(['“', '”'], "\"")
        .replace(['—', '–'], "-")
        .replacen(' ', "\n", 3)
        .to_uppercase();
    let fuzzy = edit(&verbatim);
    // Two non-adjacent passages: sentences from the start, one skipped, then
    // more, up to ~500 chars.
    let mut a = String::new();
    let mut i = 0;
    while a.chars().count() < SNIPPET_CHARS / 2 {
        a.push_str(&t[i]);
        a.push(' ');
        i += 1;
    }
    let mut b = String::new();
    let mut j = i + 1;
    while b.chars().count() < SNIPPET_CHARS / 2 && j < t.len() {
        b.push_str(&t[j]);
        b.push(' ');
        j += 1;
    }
    let noncontig = format!("{}{}", a, b).trim().to_string();
    // Fabricated: sentences of words drawn from the corpus vocabulary.
    let words: Vec<String> = chunks
        .iter()
        .flatten()
        .flat_map(|s| s.split_whitespace())
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let mut rng = fastrand::Rng::with_seed(7);
    let mut absent = String::new();
    while absent.chars().count() < SNIPPET_CHARS {
        let n = rng.usize(10..20);
        let mut s: Vec<String> = (0..n)
            .map(|_| words[rng.usize(..words.len())].clone())
            .collect();
        let first = s[0].clone();
        let mut cs = first.chars();
        s[0] = cs
            .next()
            .map(|c| c.to_uppercase().chain(cs).collect())
            .unwrap_or_default();
        absent.push_str(&s.join(" "));
        absent.push_str(". ");
    }
    let absent = cut(&absent, SNIPPET_CHARS);
    vec![
        Case {
            name: "verbatim",
            quote: verbatim,
            expect: Verdict::Verbatim,
        },
        Case {
            name: "normalized",
            quote: normalized,
            expect: Verdict::Normalized,
        },
        Case {
            name: "fuzzy",
            quote: fuzzy,
            expect: Verdict::Fuzzy,
        },
        Case {
            name: "non_contiguous",
            quote: noncontig,
            expect: Verdict::NonContiguous,
        },
        Case {
            name: "absent",
            quote: absent,
            expect: Verdict::NotFound,
        },
    ]
}

/// Mean µs per call over about `budget`.
fn time_it(budget: Duration, mut f: impl FnMut()) -> f64 {
    for _ in 0..20 {
        f();
    }
    let t0 = Instant::now();
    let mut n = 0u64;
    while t0.elapsed() < budget || n < 50 {
        f();
        n += 1;
    }
    t0.elapsed().as_secs_f64() * 1e6 / n as f64
}

#[derive(Default)]
struct Baseline {
    shown: String,
    secs: Option<f64>,
}

fn json_f64(line: &str, key: &str) -> Option<f64> {
    let k = format!("\"{key}\": ");
    let at = line.find(&k)? + k.len();
    let rest = &line[at..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim().parse().ok()
}

fn json_raw<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let k = format!("\"{key}\": ");
    let at = line.find(&k)? + k.len();
    let rest = &line[at..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    Some(rest[..end].trim())
}

fn run_baseline(script: &Path, cases_file: &Path, case: &str, method: &str, cap: f64) -> Baseline {
    let child = Command::new("python3")
        .arg(script)
        .arg(cases_file)
        .arg(case)
        .arg(method)
        .arg(format!("{cap}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        return Baseline {
            shown: "python3 missing".into(),
            secs: None,
        };
    };
    // The script caps itself; this is the backstop.
    let deadline = Instant::now() + Duration::from_secs_f64(cap + 30.0);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() > deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Baseline {
                    shown: format!("> {cap:.0} s (killed)"),
                    secs: None,
                };
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(_) => break,
        }
    }
    let out = child
        .wait_with_output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    let line = String::from_utf8_lossy(&out).trim().to_string();
    if line.contains("\"skipped\"") {
        return Baseline {
            shown: "skipped (not installed)".into(),
            secs: None,
        };
    }
    let Some(secs) = json_f64(&line, "seconds") else {
        return Baseline {
            shown: format!("error: {line}"),
            secs: None,
        };
    };
    let found = json_raw(&line, "found").unwrap_or("?");
    let best = json_f64(&line, "best").unwrap_or(0.0);
    let verdict = match found {
        "true" => "found",
        "false" => "not found",
        _ => "?",
    };
    if json_raw(&line, "timed_out") == Some("true") {
        let est = json_f64(&line, "estimate").unwrap_or(0.0);
        return Baseline {
            shown: format!("> {cap:.0} s cap (est. {est:.0} s)"),
            secs: None,
        };
    }
    Baseline {
        shown: format!("{} ({verdict}, {best:.2})", fmt_secs(secs)),
        secs: Some(secs),
    }
}

fn fmt_secs(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.1} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.0} µs", s * 1e6)
    }
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn main() {
    let sents = build_chunks();
    let texts: Vec<String> = sents.iter().map(|s| chunk_text(s)).collect();
    let ids: Vec<String> = (0..CHUNKS).map(|i| format!("chunk#{i}")).collect();
    let srcs: Vec<String> = (0..CHUNKS).map(|i| format!("source-{}", i / 2)).collect();
    let chunks: Vec<ChunkRef<'_>> = (0..CHUNKS)
        .map(|i| ChunkRef {
            id: &ids[i],
            source_id: &srcs[i],
            text: &texts[i],
        })
        .collect();
    let cited = srcs[TARGET].as_str();
    let cfg = ValidateConfig::default();
    let cases = cases(&sents);
    for c in &cases {
        let v = validate(&c.quote, cited, &chunks, &cfg);
        assert_eq!(v.verdict, c.expect, "case {}: {v:?}", c.name);
    }

    // Profiling hook: loop on one case for 3 s (e.g. under perf) and stop.
    if let Ok(name) = std::env::var("BENCH_PROFILE_CASE") {
        let c = cases.iter().find(|c| c.name == name).expect("case name");
        let us = time_it(Duration::from_secs(3), || {
            black_box(validate(black_box(&c.quote), cited, &chunks, &cfg));
        });
        println!("{name}: {us:.1} µs");
        return;
    }

    let mut crit = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    {
        let mut g = crit.benchmark_group("validate");
        for c in &cases {
            g.bench_function(c.name, |b| {
                b.iter(|| validate(black_box(&c.quote), cited, black_box(&chunks), &cfg))
            });
        }
        g.bench_function("normalize_8_chunks", |b| {
            b.iter(|| {
                for t in &texts {
                    black_box(normalize(black_box(t)));
                }
            })
        });
        g.finish();
    }
    crit.final_summary();

    // The table: our own timing loop (same process, same cases).
    let ours: Vec<f64> = cases
        .iter()
        .map(|c| {
            time_it(Duration::from_millis(700), || {
                black_box(validate(black_box(&c.quote), cited, &chunks, &cfg));
            })
        })
        .collect();
    // Warm: one Validator per answer, its chunks normalized once (by the
    // first snippet), as the pipeline checks up to 8 snippets per answer.
    let warm: Vec<f64> = cases
        .iter()
        .map(|c| {
            let v = Validator::new(&chunks);
            time_it(Duration::from_millis(700), || {
                black_box(v.validate(black_box(&c.quote), cited, &cfg));
            })
        })
        .collect();
    let norm_us = time_it(Duration::from_millis(500), || {
        for t in &texts {
            black_box(normalize(black_box(t)));
        }
    });

    let script = manifest_dir().join("scripts/bench-validate-baseline.py");
    let skip = std::env::var("BENCH_SKIP_BASELINE").is_ok_and(|v| v == "1");
    let cap: f64 = std::env::var("BENCH_BASELINE_CAP_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30.0);
    let python = !skip
        && Command::new("python3")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
    let mut rows: Vec<(Baseline, Baseline)> = Vec::new();
    if python {
        // Chunks cited-first, as the reference validates.
        let mut order: Vec<usize> = (0..CHUNKS).filter(|&i| srcs[i] == cited).collect();
        order.extend((0..CHUNKS).filter(|&i| srcs[i] != cited));
        let chunks_json = order
            .iter()
            .map(|&i| json_str(&texts[i]))
            .collect::<Vec<_>>()
            .join(",");
        let body = cases
            .iter()
            .map(|c| {
                format!(
                    "{}:{{\"quote\":{},\"chunks\":[{}]}}",
                    json_str(c.name),
                    json_str(&c.quote),
                    chunks_json
                )
            })
            .collect::<Vec<_>>()
            .join(",");
        let file = std::env::temp_dir().join(format!("validate-bench-{}.json", std::process::id()));
        std::fs::write(&file, format!("{{\"cases\":{{{body}}}}}")).expect("write cases");
        for c in &cases {
            eprintln!("baseline: {} …", c.name);
            let d = run_baseline(&script, &file, c.name, "difflib", cap);
            let r = run_baseline(&script, &file, c.name, "rapidfuzz", cap);
            rows.push((d, r));
        }
        let _ = std::fs::remove_file(&file);
    }

    println!();
    println!(
        "validate: {CHUNKS} chunks × ~{CHUNK_CHARS} chars ({} chars in all), snippets ~{SNIPPET_CHARS} chars",
        texts.iter().map(|t| t.chars().count()).sum::<usize>()
    );
    println!("normalize all {CHUNKS} chunks alone: {norm_us:.1} µs");
    println!(
        "ours µs: validate() per snippet, normalizing the chunks each time; warm µs: a Validator reused for the answer's snippets"
    );
    if !python {
        println!("baseline skipped: python3 not found (or BENCH_SKIP_BASELINE=1)");
    }
    println!(
        "{:<15} {:<15} {:>10}  {:<34} {:<26} {:>12} {:>14}",
        "case",
        "our verdict",
        "ours µs",
        "difflib window (ref.)",
        "rapidfuzz partial_ratio",
        "difflib/ours",
        "rapidfuzz/ours"
    );
    for (k, c) in cases.iter().enumerate() {
        let v = validate(&c.quote, cited, &chunks, &cfg);
        let (d, r) = rows
            .get(k)
            .map(|(d, r)| (d.shown.clone(), r.shown.clone()))
            .unwrap_or(("-".into(), "-".into()));
        let ratio = |b: Option<&Baseline>| match b.and_then(|b| b.secs) {
            Some(s) => format!("{:.0}×", s * 1e6 / ours[k]),
            None if b.is_some_and(|b| b.shown.starts_with('>')) => {
                format!("> {:.0}×", cap * 1e6 / ours[k])
            }
            None => "-".into(),
        };
        println!(
            "{:<15} {:<20} {:>8.1} {:>8.1}  {:<34} {:<26} {:>12} {:>14}",
            c.name,
            format!("{:?} {:.2}", v.verdict, v.similarity),
            ours[k],
            warm[k],
            d,
            r,
            ratio(rows.get(k).map(|x| &x.0)),
            ratio(rows.get(k).map(|x| &x.1)),
        );
    }
}
