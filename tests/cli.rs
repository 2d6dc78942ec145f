//! End-to-end tests of the command line on real folders.

mod common;
use common::bin;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("run research-board")
}

/// `verify`'s JSON, with its exit code: 0 when every quote is validated,
/// 3 otherwise.
fn verify_json(out: &Output, code: i32) -> Value {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

/// `verify SOURCES --quotes QUOTES --json` with BM25 alone, its JSON and
/// exit code.
fn verify_quotes(sources: &Path, quotes: &Path, index: &Path, code: i32) -> Value {
    let arg = |p: &Path| p.to_str().unwrap().to_string();
    verify_json(
        &run(&[
            "verify",
            &arg(sources),
            "--quotes",
            &arg(quotes),
            "--json",
            "--embedder",
            "none",
            "--index-dir",
            &arg(index),
        ]),
        code,
    )
}

fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "exit {:?}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sources")
}

fn chars(s: &str, a: usize, b: usize) -> String {
    s.chars().skip(a).take(b - a).collect()
}

#[test]
fn ask_json_returns_located_verbatim_snippets() {
    let idx = tempfile::tempdir().unwrap();
    let out = run(&[
        "ask",
        samples().to_str().unwrap(),
        "Who was the architect of the Pharos of Alexandria?",
        "--json",
        "--index-dir",
        idx.path().to_str().unwrap(),
    ]);
    let o = json(&out);
    assert_eq!(o["answer"]["refused"], false, "{o:#}");
    assert_eq!(o["gate"]["decision"], "pass");
    assert_eq!(o["gate"]["tier"], "retrieval");
    assert_eq!(o["normalized_query"], "architect pharos alexandria");
    let cands = o["candidates"].as_array().unwrap();
    assert!(!cands.is_empty() && cands.len() <= 12);
    let snippets = o["snippets"].as_array().unwrap();
    assert!(!snippets.is_empty() && snippets.len() <= 8);
    for s in snippets {
        let span = &s["span"];
        let chunk = cands
            .iter()
            .find(|c| c["id"] == span["chunk_id"])
            .expect("span names a candidate");
        let text = chunk["text"].as_str().unwrap();
        let got = chars(
            text,
            span["start"].as_u64().unwrap() as usize,
            span["end"].as_u64().unwrap() as usize,
        );
        assert_eq!(got, s["content"].as_str().unwrap());
        assert_eq!(chunk["source_id"], s["source_id"]);
    }
    assert!(
        snippets.iter().any(|s| s["content"]
            .as_str()
            .unwrap()
            .contains("The architect was Sostratus of Cnidus")),
        "{snippets:#?}"
    );
    for k in ["retrieve", "gate", "budget", "extract", "total"] {
        assert!(o["timings_ms"][k].is_number());
    }
}

#[test]
fn refusals_are_exit_zero_with_reason_and_fixed_text() {
    let idx = tempfile::tempdir().unwrap();
    let out = run(&[
        "ask",
        samples().to_str().unwrap(),
        "How many moons does Jupiter have?",
        "--json",
        "--index-dir",
        idx.path().to_str().unwrap(),
    ]);
    let o = json(&out);
    assert_eq!(o["answer"]["refused"], true);
    assert_eq!(
        o["answer"]["text"],
        "This is not addressed in the provided sources."
    );
    assert_eq!(o["gate"]["decision"], "refuse");
    assert_eq!(o["gate"]["reason"], "unknown_names");
    assert!(o["snippets"].as_array().unwrap().is_empty());

    let out = run(&[
        "ask",
        samples().to_str().unwrap(),
        "What are the symptoms of vitamin deficiency?",
        "--json",
        "--index-dir",
        idx.path().to_str().unwrap(),
    ]);
    let o = json(&out);
    assert_eq!(o["gate"]["reason"], "top_score_too_low", "{:#}", o["gate"]);
    assert!(
        o["gate"]["numbers"]["top_score"].as_f64().unwrap()
            < o["gate"]["numbers"]["min_top_score"].as_f64().unwrap()
    );
}

#[test]
fn usage_errors_exit_2_and_runtime_errors_exit_1() {
    let out = run(&["ask"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["ask", "x", "q", "--frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["ask", samples().to_str().unwrap(), "q", "--top-k", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--top-k"));
    let out = run(&["ask", "/no/such/folder", "anything"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));

    // A corrupt index is reported, not a crash.
    let idx = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(idx.path().join("tantivy")).unwrap();
    std::fs::write(idx.path().join("tantivy/meta.json"), "{ not json").unwrap();
    let out = run(&[
        "ask",
        samples().to_str().unwrap(),
        "lamp",
        "--no-update",
        "--index-dir",
        idx.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unreadable") && err.contains("re-index"),
        "{err}"
    );
    // A missing index says what to do.
    let empty = tempfile::tempdir().unwrap();
    let out = run(&[
        "ask",
        samples().to_str().unwrap(),
        "lamp",
        "--no-update",
        "--index-dir",
        empty.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("research-board index"));
}

fn copy_dir(from: &Path, to: &Path) {
    for e in walk(from) {
        let rel = e.strip_prefix(from).unwrap();
        let dest = to.join(rel);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&e, &dest).unwrap();
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    walk(dir)
        .into_iter()
        .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
        .collect()
}

fn index_json(src: &Path, idx: &Path, extra_env: &[(&str, &str)]) -> Output {
    let mut c = bin();
    c.args([
        "index",
        src.to_str().unwrap(),
        "--json",
        "--index-dir",
        idx.to_str().unwrap(),
    ]);
    for (k, v) in extra_env {
        c.env(k, v);
    }
    c.output().unwrap()
}

#[test]
fn bad_files_are_reported_and_skipped_and_sources_are_never_written() {
    let src = tempfile::tempdir().unwrap();
    let s = src.path();
    std::fs::write(
        s.join("good.md"),
        "# Good\n\nThe keeper trimmed the lamp wick at dusk.\n",
    )
    .unwrap();
    std::fs::write(s.join("binary.txt"), b"\x00\x01\x02 binary \x00").unwrap();
    std::fs::write(s.join("empty.md"), b"").unwrap();
    std::fs::write(s.join("latin1.txt"), b"caf\xe9 cr\xe8me").unwrap();
    std::fs::write(s.join("broken.pdf"), b"%PDF-1.4\n1 0 obj garbage").unwrap();
    std::fs::write(s.join("broken.docx"), b"PK\x03\x04 nope").unwrap();
    std::fs::write(s.join("image.png"), b"\x89PNG\r\n").unwrap();
    std::fs::write(s.join("huge.txt"), vec![b'a'; 2 * 1024 * 1024 + 10]).unwrap();
    let cfg = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(cfg.path(), "[limits]\nmax_file_mb = 2\n").unwrap();
    let before = snapshot(s);
    let idx = tempfile::tempdir().unwrap();
    let out = bin()
        .args(["index", s.to_str().unwrap(), "--json", "--index-dir"])
        .arg(idx.path())
        .arg("--config")
        .arg(cfg.path())
        .output()
        .unwrap();
    let r = json(&out);
    // Latin-1 is read (decoded), not refused.
    assert_eq!(r["files_indexed"], 2);
    assert_eq!(r["guessed_encodings"][0][0], "latin1.txt", "{r}");
    let skipped: Vec<(String, String)> = r["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["source_id"].as_str().unwrap().to_string(),
                x["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let reason = |id: &str| {
        skipped
            .iter()
            .find(|(s, _)| s == id)
            .map(|(_, r)| r.clone())
            .unwrap_or_default()
    };
    assert!(
        reason("binary.txt").starts_with("binary file"),
        "{skipped:?}"
    );
    assert_eq!(reason("empty.md"), "empty file");
    assert_eq!(reason("latin1.txt"), "");
    assert!(reason("broken.pdf").contains("PDF"));
    assert!(reason("broken.docx").contains("DOCX"));
    assert_eq!(reason("image.png"), "unsupported file type");
    assert!(reason("huge.txt").starts_with("too large"));
    assert_eq!(skipped.len(), 6);
    assert_eq!(snapshot(s), before, "the sources folder was modified");
}

/// The chunk ids of the newest generation's vectors, by data id: its
/// base's rows (dead rows empty), then its delta's.
fn latest_ids(idx: &Path) -> Vec<String> {
    let newest = std::fs::read_dir(idx)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            let n: u64 = name
                .strip_prefix("gen-")?
                .strip_suffix(".manifest.json")?
                .parse()
                .ok()?;
            Some(n)
        })
        .max()
        .expect("a generation");
    let m = json_file(&idx.join(format!("gen-{newest}.manifest.json")));
    let base = m["vectors_base"].as_u64().unwrap_or(newest);
    let read = |name: String| {
        research_board::index::read_vector_ids(&idx.join(name))
            .unwrap()
            .1
    };
    let mut ids = read(format!("gen-{base}.vectors"));
    for r in m["dead_rows"].as_array().into_iter().flatten() {
        ids[r.as_u64().unwrap() as usize].clear();
    }
    if m["delta"] == true {
        ids.extend(read(format!("gen-{newest}.delta")));
    }
    ids
}

fn json_file(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

#[test]
fn reindex_is_incremental_and_a_crash_before_commit_keeps_the_previous_index() {
    let src = tempfile::tempdir().unwrap();
    copy_dir(&samples(), src.path());
    let idx = tempfile::tempdir().unwrap();
    let first = json(&index_json(src.path(), idx.path(), &[]));
    assert_eq!(first["files_indexed"], 15);
    let again = json(&index_json(src.path(), idx.path(), &[]));
    assert_eq!(again["up_to_date"], true);
    assert_eq!(again["files_unchanged"], 15);
    let before = latest_ids(idx.path());

    // Change one file and crash right before the commit.
    let f = src.path().join("keepers/grace-darling.md");
    let mut text = std::fs::read_to_string(&f).unwrap();
    text.push_str("\n\n## Postscript\n\nA zebrafinch named Quillon watched the coble return.\n");
    std::fs::write(&f, text).unwrap();
    let crashed = index_json(
        src.path(),
        idx.path(),
        &[("RESEARCH_BOARD_CRASH_AT", "before_commit")],
    );
    assert!(!crashed.status.success(), "the crash hook did not fire");

    // The previous index is still there and usable.
    let ask = |q: &str| {
        json(&run(&[
            "ask",
            src.path().to_str().unwrap(),
            q,
            "--json",
            "--no-update",
            "--index-dir",
            idx.path().to_str().unwrap(),
        ]))
    };
    let o = ask("Who launched the coble with her father?");
    assert_eq!(o["answer"]["refused"], false, "{:#}", o["gate"]);
    assert!(
        !o["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["text"].as_str().unwrap().contains("Quillon"))
    );

    // The next update picks the change up, re-reading only that file, and
    // updates the vector graph instead of rebuilding it: the previous
    // generation's ids stay in place, the changed file's old chunks become
    // tombstones (empty ids), its new chunks are appended.
    let r = json(&index_json(src.path(), idx.path(), &[]));
    assert_eq!(r["files_indexed"], 1);
    assert_eq!(r["files_unchanged"], 14);
    let after = latest_ids(idx.path());
    let changed = |id: &str| id.starts_with("keepers/grace-darling.md#");
    assert!(
        after.len() > before.len(),
        "{} → {}",
        before.len(),
        after.len()
    );
    for (old, new) in before.iter().zip(&after) {
        if changed(old) {
            assert_eq!(new, "", "a tombstone for {old}");
        } else {
            assert_eq!(old, new);
        }
    }
    assert!(after[before.len()..].iter().all(|i| changed(i)));
    let o = ask("zebrafinch Quillon");
    assert!(
        o["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["text"].as_str().unwrap().contains("Quillon"))
    );

    // Removing a file removes its chunks.
    std::fs::remove_file(&f).unwrap();
    let r = json(&index_json(src.path(), idx.path(), &[]));
    assert_eq!(r["files_removed"], 1);
    let o = ask("zebrafinch Quillon");
    assert!(
        !o["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["source_id"] == "keepers/grace-darling.md")
    );
}

/// The files of an index folder: its own and Tantivy's.
fn index_files(idx: &Path) -> Vec<String> {
    let mut names: Vec<String> = walkdir::WalkDir::new(idx)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            e.path()
                .strip_prefix(idx)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| !n.starts_with("logs"))
        .collect();
    names.sort();
    names
}

/// An update that fails as on a full disk says so, keeps the index in
/// force, and leaves none of its files behind (they would keep the disk
/// full); one killed leaves its files, and the next update, even one with
/// nothing to do, removes them.
#[test]
fn a_failed_update_leaves_nothing_behind() {
    let src = tempfile::tempdir().unwrap();
    copy_dir(&samples(), src.path());
    let idx = tempfile::tempdir().unwrap();
    assert!(index_json(src.path(), idx.path(), &[]).status.success());
    let clean = index_files(idx.path());
    let f = src.path().join("keepers/grace-darling.md");
    let original = std::fs::read_to_string(&f).unwrap();
    std::fs::write(
        &f,
        format!("{original}\n\nA zebrafinch named Quillon watched.\n"),
    )
    .unwrap();

    let full = index_json(
        src.path(),
        idx.path(),
        &[("RESEARCH_BOARD_CRASH_AT", "full:before_commit")],
    );
    assert!(!full.status.success());
    let err = String::from_utf8_lossy(&full.stderr);
    assert!(
        err.contains("is full") && err.contains("the index is kept"),
        "{err}"
    );
    assert_eq!(index_files(idx.path()), clean);
    // `ask` answers from the index kept, with a warning.
    let mut c = bin();
    c.args([
        "ask",
        src.path().to_str().unwrap(),
        "Who launched the coble with her father?",
    ])
    .args(["--index-dir", idx.path().to_str().unwrap()])
    .env("RESEARCH_BOARD_CRASH_AT", "full:before_commit");
    let asked = c.output().unwrap();
    assert!(asked.status.success(), "{asked:?}");
    let err = String::from_utf8_lossy(&asked.stderr);
    assert!(
        err.contains("is full") && err.contains("answering from the index as it is"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&asked.stdout).contains("Grace"));

    let killed = index_json(
        src.path(),
        idx.path(),
        &[("RESEARCH_BOARD_CRASH_AT", "before_commit")],
    );
    assert!(!killed.status.success());
    assert_ne!(index_files(idx.path()), clean, "a killed run leaves files");
    std::fs::write(&f, &original).unwrap();
    let r = json(&index_json(src.path(), idx.path(), &[]));
    assert_eq!(r["up_to_date"], true);
    assert_eq!(index_files(idx.path()), clean);
    // A first build that fails so leaves no generation's files.
    let fresh = tempfile::tempdir().unwrap();
    let full = index_json(
        src.path(),
        fresh.path(),
        &[("RESEARCH_BOARD_CRASH_AT", "full:before_commit")],
    );
    let err = String::from_utf8_lossy(&full.stderr);
    assert!(err.contains("no index was written"), "{err}");
    assert!(
        index_files(fresh.path())
            .iter()
            .all(|f| !f.starts_with("gen-")),
        "{:?}",
        index_files(fresh.path())
    );
}

#[test]
fn killing_the_indexer_at_any_moment_leaves_a_usable_index() {
    // A corpus big enough that indexing takes a while in a debug build.
    let src = tempfile::tempdir().unwrap();
    copy_dir(&samples(), src.path());
    let idx = tempfile::tempdir().unwrap();
    json(&index_json(src.path(), idx.path(), &[]));
    let words = [
        "lamp", "keeper", "tower", "reef", "storm", "lens", "granite", "beacon", "fog", "oil",
    ];
    for f in 0..40 {
        let mut t = format!("# Generated {f}\n\n");
        for p in 0..60 {
            for s in 0..6 {
                t.push_str(&format!(
                    "The {} of file {f} paragraph {p} sentence {s} stood by the {}. ",
                    words[(f + p + s) % 10],
                    words[(p * 7 + s) % 10]
                ));
            }
            t.push_str("\n\n");
        }
        std::fs::write(src.path().join(format!("gen-{f}.md")), t).unwrap();
    }
    for delay_ms in [30u64, 120, 300, 700] {
        let mut child = bin()
            .args([
                "index",
                src.path().to_str().unwrap(),
                "--json",
                "--index-dir",
                idx.path().to_str().unwrap(),
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let o = json(&run(&[
            "ask",
            src.path().to_str().unwrap(),
            "Who launched the coble with her father?",
            "--json",
            "--no-update",
            "--index-dir",
            idx.path().to_str().unwrap(),
        ]));
        assert!(
            !o["candidates"].as_array().unwrap().is_empty(),
            "index unusable after a kill at {delay_ms} ms"
        );
    }
    // And a full run afterwards completes.
    let r = json(&index_json(src.path(), idx.path(), &[]));
    assert!(r["chunks_total"].as_u64().unwrap() > 200);

    // Removing most of the files tombstones most vectors: the update
    // compacts the vector graph. A kill at any moment of it leaves the
    // previous generation usable, and the next update completes.
    for f in 0..34 {
        std::fs::remove_file(src.path().join(format!("gen-{f}.md"))).unwrap();
    }
    for delay_ms in [5u64, 25, 60, 150] {
        let mut child = bin()
            .args(["index", src.path().to_str().unwrap(), "--index-dir"])
            .arg(idx.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();
        let o = json(&run(&[
            "ask",
            src.path().to_str().unwrap(),
            "What stood by the beacon?",
            "--json",
            "--no-update",
            "--index-dir",
            idx.path().to_str().unwrap(),
        ]));
        assert!(
            !o["candidates"].as_array().unwrap().is_empty(),
            "index unusable after a kill during compaction at {delay_ms} ms"
        );
    }
    let r = json(&index_json(src.path(), idx.path(), &[]));
    // 15 sample files and the 6 generated ones left.
    assert_eq!(r["files_seen"].as_u64(), Some(21), "{r}");
    let o = json(&run(&[
        "ask",
        src.path().to_str().unwrap(),
        "What stood by the beacon in file 3?",
        "--json",
        "--no-update",
        "--index-dir",
        idx.path().to_str().unwrap(),
    ]));
    assert!(
        o["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["source_id"] != "gen-3.md"),
        "a removed file is still found"
    );
}

/// Off-topic questions over the real book shelf and papers folder (the
/// blind probes: everyday questions, the sources' words in another sense,
/// other subjects) are refused with the defaults. The built-in table
/// before it was fitted to sentences refused 95 of these 120 (0.79); the
/// fitted one refuses 109.
#[test]
fn the_default_embedder_refuses_questions_the_folder_does_not_address() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpora = root.join("../shared/corpora");
    // The shared corpora sit beside the repository in CI; a clone alone
    // has none.
    if !corpora.join("papers").is_dir() || !corpora.join("music-library").is_dir() {
        eprintln!("skipped: {} is not here", corpora.display());
        return;
    }
    let (mut refused, mut asked) = (0, 0);
    for (folder, set) in [
        ("music-library", "eval/music-offtopic-probes.json"),
        ("papers", "eval/papers-offtopic-probes.json"),
    ] {
        let idx = tempfile::tempdir().unwrap();
        let out = run(&[
            "eval",
            corpora.join(folder).to_str().unwrap(),
            "--questions",
            root.join(set).to_str().unwrap(),
            "--json",
            "--index-dir",
            idx.path().to_str().unwrap(),
        ]);
        let r = json(&out);
        for q in r["results"].as_array().unwrap() {
            asked += 1;
            refused += usize::from(q["refused"].as_bool().unwrap());
        }
        assert_eq!(r["validated_not_in_source"], 0);
    }
    assert_eq!(asked, 120);
    assert!(refused >= 102, "refused {refused} of {asked}");
}

#[test]
fn eval_meets_the_calibrated_targets() {
    let idx = tempfile::tempdir().unwrap();
    let q = Path::new(env!("CARGO_MANIFEST_DIR")).join("eval/questions.json");
    let out = run(&[
        "eval",
        samples().to_str().unwrap(),
        "--questions",
        q.to_str().unwrap(),
        "--json",
        "--index-dir",
        idx.path().to_str().unwrap(),
    ]);
    let r = json(&out);
    let f = |k: &str| r[k].as_f64().unwrap();
    // The figures the README reports for this set; a drop below them is a
    // regression. The defaults are calibrated on three sets at once (this
    // one and the dev halves of the music and papers sets), which costs this
    // set nothing since late interaction joined the rescoring (0.912).
    assert!(f("recall_at_k") >= 0.9, "recall {}", f("recall_at_k"));
    // An answer called high is right (its quotes hold the answer) at least
    // nine times in ten, and high is not a rare label.
    let high = &r["confidence"]["high"];
    assert!(high["answered"].as_u64().unwrap() >= 15, "{high}");
    assert!(high["precision"].as_f64().unwrap() >= 0.9, "{high}");
    assert!(
        f("refusal_accuracy") >= 0.9,
        "refusal accuracy {}",
        f("refusal_accuracy")
    );
    assert!(
        f("false_refusal_rate") <= 0.06,
        "false refusals {}",
        f("false_refusal_rate")
    );
    assert_eq!(f("verbatim_rate"), 1.0);
    assert_eq!(r["questions"], 70);
    // Each question says how long answering it took, stage by stage, so
    // latency on real questions can be read off a report.
    for q in r["results"].as_array().unwrap() {
        let t = &q["timings_ms"];
        let total = t["total"].as_f64().unwrap();
        assert!(
            total > 0.0 && total >= t["retrieve"].as_f64().unwrap(),
            "{t}"
        );
    }
}

#[test]
fn verify_checks_a_draft_and_json_lines_against_the_corpus() {
    let idx = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let draft = dir.path().join("draft.md");
    std::fs::write(
        &draft,
        "# Notes\n\nShe was “the most famous young woman in Britain” for a while.\n\n\
         > The architect was Sostratus of Cnidus, a wealthy courtier\n> and diplomat as much as a builder.\n\n\
         Misquoted: \"The architect was Sostratos of Cnidus, a wealthy courtier and diplomat as much as a builder.\"\n\
         Invented: \"the keepers were paid in gold and silver every week by the king\".\n",
    )
    .unwrap();
    let out = run(&[
        "verify",
        samples().to_str().unwrap(),
        "--quotes",
        draft.to_str().unwrap(),
        "--json",
        "--index-dir",
        idx.path().to_str().unwrap(),
    ]);
    // Two quotes are not validated: exit 3.
    let r = verify_json(&out, 3);
    let rows: Vec<(String, String, Option<String>)> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["verdict"].as_str().unwrap().to_string(),
                x["status"].as_str().unwrap().to_string(),
                x["source_id"].as_str().map(str::to_string),
            )
        })
        .collect();
    assert_eq!(rows.len(), 4, "{r:#}");
    assert_eq!(
        rows[0],
        (
            "verbatim".into(),
            "validated".into(),
            Some("keepers/grace-darling.md".into())
        )
    );
    assert_eq!(
        rows[1],
        (
            "verbatim".into(),
            "validated".into(),
            Some("pharos-of-alexandria.md".into())
        )
    );
    assert_eq!(rows[2].0, "fuzzy");
    // No source was cited: the note blames none.
    let note = r[2]["note"].as_str().unwrap();
    assert!(!note.contains("cited"), "{note}");
    assert_eq!(
        r[2]["copy_text"],
        "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder."
    );
    assert_eq!(rows[3].1, "dropped");

    // JSON lines with a wrong attribution: located where it really is.
    let jl = dir.path().join("quotes.jsonl");
    std::fs::write(
        &jl,
        "{\"quote\": \"The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.\", \"source\": \"grace-darling.md\"}\n",
    )
    .unwrap();
    let r = verify_json(
        &run(&[
            "verify",
            samples().to_str().unwrap(),
            "--quotes",
            jl.to_str().unwrap(),
            "--json",
            "--index-dir",
            idx.path().to_str().unwrap(),
        ]),
        3,
    );
    assert_eq!(r[0]["verdict"], "misattributed", "{r:#}");
    // Every quote validated: exit 0.
    std::fs::write(
        &jl,
        "{\"quote\": \"The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.\"}\n",
    )
    .unwrap();
    let r = verify_json(
        &run(&[
            "verify",
            samples().to_str().unwrap(),
            "--quotes",
            jl.to_str().unwrap(),
            "--json",
            "--index-dir",
            idx.path().to_str().unwrap(),
        ]),
        0,
    );
    assert_eq!(r[0]["status"], "validated", "{r:#}");
    assert_eq!(r[0]["source_id"], "pharos-of-alexandria.md");
}

/// A draft kept in the sources folder does not confirm its own quotes: its
/// invented quotation is not validated (it was, found in the draft).
#[test]
fn a_draft_among_the_sources_does_not_confirm_itself() {
    let idx = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir(&src).unwrap();
    std::fs::write(
        src.join("notes.md"),
        "# Notes\n\nThe keeper trimmed the wick every four hours of the night.\n",
    )
    .unwrap();
    let draft = src.join("chapter.md");
    std::fs::write(
        &draft,
        "# Chapter\n\nHe wrote that “the keeper trimmed the wick every four hours of the night” \
         and that “the keepers were paid in gold and silver every week”.\n",
    )
    .unwrap();
    let out = run(&[
        "verify",
        src.to_str().unwrap(),
        "--quotes",
        draft.to_str().unwrap(),
        "--json",
        "--index-dir",
        idx.path().to_str().unwrap(),
    ]);
    let r = verify_json(&out, 3);
    assert_eq!(r[0]["status"], "validated", "{r:#}");
    assert_eq!(r[0]["source_id"], "notes.md");
    assert_ne!(r[1]["status"], "validated", "{r:#}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("inside the sources folder"), "{err}");
}

#[test]
fn every_query_is_audited_without_secrets() {
    let idx = tempfile::tempdir().unwrap();
    let logs = tempfile::tempdir().unwrap();
    let out = bin()
        .args([
            "ask",
            samples().to_str().unwrap(),
            "Where was the first Fresnel lens installed?",
            "--json",
            "--debug",
            "--index-dir",
        ])
        .arg(idx.path())
        .env("RESEARCH_BOARD_LOG_DIR", logs.path())
        .env("OPENAI_API_KEY", "sk-test-secret-should-never-be-logged")
        .output()
        .unwrap();
    json(&out);
    let audit = std::fs::read_to_string(logs.path().join("audit.jsonl")).unwrap();
    let line: Value = serde_json::from_str(audit.lines().last().unwrap()).unwrap();
    assert_eq!(line["query"], "Where was the first Fresnel lens installed?");
    assert_eq!(line["refused"], false);
    assert!(line["validated"].as_u64().unwrap() >= 1);
    assert!(line["latency_ms"].as_f64().unwrap() > 0.0);
    let debug = std::fs::read_to_string(logs.path().join("debug.jsonl")).unwrap();
    assert!(debug.contains("\"candidates\""));
    for text in [&audit, &debug] {
        assert!(!text.contains("sk-test-secret"));
    }
}

#[test]
fn the_readme_config_example_is_a_valid_config() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme
        .find("```toml\nengine")
        .expect("the README shows a config example");
    let body = &readme[start + "```toml\n".len()..];
    let toml = &body[..body.find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.toml");
    std::fs::write(&cfg, toml).unwrap();
    let idx = tempfile::tempdir().unwrap();
    let out = bin()
        .args([
            "ask",
            samples().to_str().unwrap(),
            "When was the Bell Rock light first exhibited?",
            "--json",
            "--config",
        ])
        .arg(&cfg)
        .arg("--index-dir")
        .arg(idx.path())
        .output()
        .unwrap();
    let o = json(&out);
    assert_eq!(o["answer"]["refused"], false);
    // A partial table keeps the other defaults.
    std::fs::write(&cfg, "[chunk]\nmax_tokens = 128\n").unwrap();
    let out = bin()
        .args(["index", samples().to_str().unwrap(), "--json", "--config"])
        .arg(&cfg)
        .arg("--index-dir")
        .arg(idx.path())
        .output()
        .unwrap();
    json(&out);
}

#[test]
fn global_options_may_come_before_the_subcommand() {
    let idx = tempfile::tempdir().unwrap();
    let out = bin()
        .arg("--index-dir")
        .arg(idx.path())
        .args([
            "--embedder",
            "builtin",
            "index",
            samples().to_str().unwrap(),
            "--json",
        ])
        .output()
        .unwrap();
    let r = json(&out);
    assert_eq!(r["files_indexed"], 15);
}

/// Issue 15: `ask --json | head -c 1` ends quietly (exit 0, no panic).
#[test]
fn a_closed_pipe_ends_quietly() {
    let idx = tempfile::tempdir().unwrap();
    let mut child = bin()
        .args([
            "ask",
            samples().to_str().unwrap(),
            "Who was the architect of the Pharos of Alexandria?",
            "--json",
            "--index-dir",
            idx.path().to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away before the answer is written.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

/// Issue 15: one index folder belongs to one sources folder; reusing it
/// for another is refused unless --force.
#[test]
fn an_index_folder_is_not_silently_reused_for_another_folder() {
    let (a, b, idx) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    std::fs::write(
        a.path().join("a.md"),
        "# A\n\nThe keeper lit the lamp at dusk.\n",
    )
    .unwrap();
    std::fs::write(
        b.path().join("b.md"),
        "# B\n\nThe bell rang in the fog all night.\n",
    )
    .unwrap();
    let index = |dir: &Path, force: bool| {
        let mut c = bin();
        c.args(["index", dir.to_str().unwrap(), "--json", "--index-dir"])
            .arg(idx.path());
        if force {
            c.arg("--force");
        }
        c.output().unwrap()
    };
    json(&index(a.path(), false));
    let out = index(b.path(), false);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another folder"));
    let r = json(&index(b.path(), true));
    assert_eq!(r["files_indexed"], 1);
}

/// Issue 15: with --index-dir, the audit log lives next to that index (not
/// in the global data folder shared by every library).
#[test]
fn logs_go_next_to_an_explicit_index() {
    let idx = tempfile::tempdir().unwrap();
    let out = bin()
        .env_remove("RESEARCH_BOARD_LOG_DIR")
        .args([
            "ask",
            samples().to_str().unwrap(),
            "Who was the architect of the Pharos of Alexandria?",
            "--index-dir",
            idx.path().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let audit = std::fs::read_to_string(idx.path().join("logs/audit.jsonl")).unwrap();
    assert!(audit.contains("architect"), "{audit}");
}

/// Issue 15: `verify` says why a short quotation of a draft was not checked,
/// and a quote of two sentences in the wrong order is non-contiguous with
/// both places given.
#[test]
fn verify_explains_short_quotes_and_places_reordered_pieces() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir(&src).unwrap();
    std::fs::write(
        src.join("log.md"),
        "The keeper lit the lamp at dusk.\n\nThe fog rolled in from the sea.\n\n\
         Nobody came to the rock that winter.\n",
    )
    .unwrap();
    let draft = tmp.path().join("draft.md");
    std::fs::write(
        &draft,
        "He wrote “the lamp” there.\n\
         And “The fog rolled in from the sea. The keeper lit the lamp at dusk.” too.\n",
    )
    .unwrap();
    let idx = tmp.path().join("idx");
    let args = |json: bool| {
        let mut a = vec![
            "verify".to_string(),
            src.to_string_lossy().into_owned(),
            "--quotes".into(),
            draft.to_string_lossy().into_owned(),
            "--index-dir".into(),
            idx.to_string_lossy().into_owned(),
        ];
        if json {
            a.push("--json".into());
        }
        a
    };
    let out = bin().args(args(false)).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("line 2: NonContiguous"), "{text}");
    assert!(text.contains("sentence 2 precedes sentence 1"), "{text}");
    assert!(
        text.contains("in the quote's order, are at: line 3; line 1"),
        "{text}"
    );
    assert!(text.contains("Not checked: 1 quotation(s) under"), "{text}");
    assert!(text.contains("line 1: “the lamp”"), "{text}");

    let out = bin().args(args(true)).output().unwrap();
    let v = verify_json(&out, 3);
    assert_eq!(v.as_array().unwrap().len(), 1, "{v}");
    assert_eq!(
        v[0]["piece_places"],
        serde_json::json!(["line 3", "line 1"])
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("1 quotation(s) under"), "{err}");
}

/// Issue 15: each subcommand lists only the options it uses, every option
/// has help text, and an option given before a subcommand that does not
/// take it is a usage error rather than silently ignored.
#[test]
fn each_subcommand_lists_only_its_options_each_with_help() {
    let help = |cmd: &[&str]| {
        let mut a = cmd.to_vec();
        a.push("--help");
        let out = run(&a);
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let cases: [(&[&str], &[&str], &[&str]); 5] = [
        (
            &["index"],
            &["--index-dir", "--embedder"],
            &["--engine", "--bibliography", "--theme"],
        ),
        (
            &["ask"],
            &["--engine", "--base-url", "--top-k", "--bibliography"],
            &["--quotes", "--theme"],
        ),
        (
            &["verify"],
            &["--bibliography", "--embedder"],
            &["--engine", "--no-rerank", "--theme"],
        ),
        (
            &["eval"],
            &["--questions", "--engine"],
            &["--bibliography", "--theme"],
        ),
        (&[], &["--theme", "--engine"], &["--quotes"]),
    ];
    for (cmd, has, lacks) in cases {
        let h = help(cmd);
        for o in has {
            assert!(h.contains(o), "{cmd:?} lacks {o}:\n{h}");
        }
        for o in lacks {
            assert!(!h.contains(o), "{cmd:?} lists {o}:\n{h}");
        }
        // Every option line says what the option does.
        for l in h.lines().map(str::trim).filter(|l| l.starts_with("--")) {
            let words: Vec<&str> = l.split_whitespace().collect();
            assert!(words.len() >= 3, "{cmd:?}: no help text for {l}");
        }
    }
    let out = run(&["--engine", "llm", "verify", "--quotes", "q.md", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("are for ask, eval and the board"));
}

/// Issue 14: `ask` links each quote's source (OSC 8) when the terminal can
/// show links (`RESEARCH_BOARD_HYPERLINKS=1` here); piped, it prints none.
#[test]
fn ask_links_sources_for_terminals_that_show_links() {
    let idx = tempfile::tempdir().unwrap();
    let ask = |links: &str| {
        let out = bin()
            .args([
                "ask",
                samples().to_str().unwrap(),
                "Who was the architect of the Pharos of Alexandria?",
                "--index-dir",
                idx.path().to_str().unwrap(),
            ])
            .env("RESEARCH_BOARD_HYPERLINKS", links)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let on = ask("1");
    let file = samples()
        .canonicalize()
        .unwrap()
        .join("pharos-of-alexandria.md");
    let link = format!("\x1b]8;;file://{}\x1b\\The Pharos", file.display());
    assert!(on.contains(&link), "{on:?}");
    assert!(!ask("0").contains('\x1b'));
}

/// A quotes "file" that never ends is refused once past a draft's size.
#[cfg(unix)]
#[test]
fn verify_refuses_a_draft_that_never_ends() {
    let idx = tempfile::tempdir().unwrap();
    let out = run(&[
        "verify",
        samples().to_str().unwrap(),
        "--quotes",
        "/dev/zero",
        "--index-dir",
        idx.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("larger than a draft"));
}

/// When the index cannot be brought up to date (another process holds
/// it), a quote of a file that changed since is not reported validated
/// from the index's old text: flagged, and `verify` exits 3.
#[test]
fn verify_never_validates_a_changed_file_from_an_old_index() {
    use fs2::FileExt;
    let idx = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let note = dir.path().join("notes.md");
    std::fs::write(
        &note,
        "# Notes\n\nThe keepers cannot leave the rock during storms.\n",
    )
    .unwrap();
    let quotes = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        quotes.path(),
        "{\"quote\": \"The keepers cannot leave the rock during storms.\"}\n",
    )
    .unwrap();
    let verify = || {
        run(&[
            "verify",
            dir.path().to_str().unwrap(),
            "--quotes",
            quotes.path().to_str().unwrap(),
            "--json",
            "--index-dir",
            idx.path().to_str().unwrap(),
        ])
    };
    let r = verify_json(&verify(), 0);
    assert_eq!(r[0]["status"], "validated", "{r:#}");
    // The file changes while another process holds the index.
    std::fs::write(
        &note,
        "# Notes\n\nThe keepers may leave the rock during storms.\n",
    )
    .unwrap();
    let lock = std::fs::OpenOptions::new()
        .write(true)
        .open(idx.path().join("index.lock"))
        .unwrap();
    lock.lock_exclusive().unwrap();
    let out = verify();
    let r = verify_json(&out, 3);
    assert_eq!(r[0]["status"], "flagged", "{r:#}");
    assert!(r[0]["note"].as_str().unwrap().contains("changed"), "{r:#}");
    drop(lock);
    // Updated, the old words are not found at all.
    let r = verify_json(&verify(), 3);
    assert_ne!(r[0]["status"], "validated", "{r:#}");
}

/// `ask` on an index that was not updated (`--no-update`, or another
/// process holding it) never shows a quote of a file that changed since as
/// validated, whatever the file's name (a `%` or a control character in
/// it is encoded in the source id).
#[test]
fn ask_never_validates_a_changed_file_from_an_old_index() {
    for name in ["storms.md", "storms 100%.md", "storms\x1b.md"] {
        changed_file_is_not_validated(name);
    }
}

fn changed_file_is_not_validated(name: &str) {
    let idx = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let note = dir.path().join(name);
    std::fs::write(
        &note,
        "# Storms\n\nThe keepers cannot leave the rock during winter storms, whatever the need.\n",
    )
    .unwrap();
    let ask = |extra: &[&str]| {
        let mut args = vec![
            "ask",
            dir.path().to_str().unwrap(),
            "Can the keepers leave the rock during winter storms?",
            "--json",
            "--index-dir",
            idx.path().to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        json(&run(&args))
    };
    let o = ask(&[]);
    assert_eq!(o["snippets"][0]["status"], "validated", "{name}: {o:#}");
    std::fs::write(
        &note,
        "# Storms\n\nThe keepers may leave the rock during winter storms, whatever the need.\n",
    )
    .unwrap();
    let o = ask(&["--no-update"]);
    let statuses: Vec<&str> = o["snippets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert!(!statuses.contains(&"validated"), "{name}: {o:#}");
    assert_ne!(o["answer"]["confidence"], "high", "{name}: {o:#}");
}

/// `ask --no-update` never answers from an index
/// built for another folder: its quotes would be that folder's words.
#[test]
fn another_folders_index_never_answers() {
    let idx = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    let mine = tempfile::tempdir().unwrap();
    std::fs::write(
        other.path().join("o.md"),
        "# Other\n\nThe other folder says the lamp was green and bright.\n",
    )
    .unwrap();
    std::fs::write(
        mine.path().join("m.md"),
        "# Mine\n\nMy folder says the lamp was red and dim.\n",
    )
    .unwrap();
    let i = idx.path().to_str().unwrap();
    let out = run(&["index", other.path().to_str().unwrap(), "--index-dir", i]);
    assert!(out.status.success());
    let m = mine.path().to_str().unwrap();
    let out = run(&[
        "ask",
        m,
        "What colour was the lamp?",
        "--index-dir",
        i,
        "--no-update",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("index of another folder"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("green"));
}

/// `verify --no-update` checks against the index as it is, as `ask
/// --no-update` answers from it: a file added since is not read.
#[test]
fn verify_without_updating_uses_the_index_as_it_is() {
    let src = tempfile::tempdir().unwrap();
    let idx = tempfile::tempdir().unwrap();
    std::fs::write(
        src.path().join("a.md"),
        "# A\n\nThe keeper trimmed the wick every four hours.\n",
    )
    .unwrap();
    let (s, i) = (src.path().to_str().unwrap(), idx.path().to_str().unwrap());
    assert!(run(&["index", s, "--index-dir", i]).status.success());
    std::fs::write(
        src.path().join("b.md"),
        "# B\n\nThe relief boat came round the point on Friday.\n",
    )
    .unwrap();
    let draft = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        draft.path(),
        "He wrote “the relief boat came round the point on Friday”.\n",
    )
    .unwrap();
    let d = draft.path().to_str().unwrap();
    let stale = run(&["verify", s, "--quotes", d, "--index-dir", i, "--no-update"]);
    assert_eq!(stale.status.code(), Some(3), "{stale:?}");
    let fresh = run(&["verify", s, "--quotes", d, "--index-dir", i]);
    assert_eq!(fresh.status.code(), Some(0), "{fresh:?}");
}

/// `eval` on a set with no questions (or a split that leaves none) is an
/// error: no figure of nothing may pass a threshold.
#[test]
fn eval_of_no_questions_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.md"), "# A\n\nThe keeper lit the lamp.\n").unwrap();
    let qs = dir.path().join("q.json");
    std::fs::write(&qs, r#"{"questions": []}"#).unwrap();
    let idx = tempfile::tempdir().unwrap();
    let out = run(&[
        "eval",
        dir.path().to_str().unwrap(),
        "--questions",
        qs.to_str().unwrap(),
        "--json",
        "--index-dir",
        idx.path().to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("holds no questions"), "{err}");
}

/// A `source` that is the file name of two files (`history.md` in `vol1/`
/// and `vol2/`) names both: a quote from either is validated, and one
/// from another file is misattributed, never checked against whichever
/// file was listed first. A path that ends in a file's id names it.
#[test]
fn a_file_name_two_files_share_names_both() {
    let src = tempfile::tempdir().unwrap();
    for (dir, text) in [
        (
            "vol1",
            "The first volume says the keeper rowed ashore at dawn.",
        ),
        (
            "vol2",
            "The second volume says the keeper never rowed ashore at all.",
        ),
        (
            "other",
            "The third book says the keeper swam to the mainland.",
        ),
    ] {
        std::fs::create_dir(src.path().join(dir)).unwrap();
        let name = if dir == "other" {
            "notes.md"
        } else {
            "history.md"
        };
        std::fs::write(
            src.path().join(dir).join(name),
            format!("# {dir}\n\n{text}\n"),
        )
        .unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let jl = dir.path().join("q.jsonl");
    std::fs::write(
        &jl,
        "{\"quote\": \"The first volume says the keeper rowed ashore\", \"source\": \"history.md\"}\n\
         {\"quote\": \"The second volume says the keeper never rowed ashore\", \"source\": \"history.md\"}\n\
         {\"quote\": \"The third book says the keeper swam to the mainland\", \"source\": \"history.md\"}\n\
         {\"quote\": \"The first volume says the keeper rowed ashore\", \"source\": \"./vol1/history.md\"}\n\
         {\"quote\": \"The first volume says the keeper rowed ashore\", \"source\": \"src/vol1/history.md \"}\n",
    )
    .unwrap();
    let idx = tempfile::tempdir().unwrap();
    let r = verify_quotes(src.path(), &jl, idx.path(), 3);
    let verdicts: Vec<&str> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["verdict"].as_str().unwrap())
        .collect();
    // A path the file's id ends names it.
    assert_eq!(
        verdicts,
        [
            "verbatim",
            "verbatim",
            "misattributed",
            "verbatim",
            "verbatim"
        ],
        "{r:#}"
    );
}

/// A quote no source is cited for, a word off what a source says: its
/// note never calls another source "the cited" one (the red team's draft
/// got "not in the cited beethoven-character-study.html").
#[test]
fn an_uncited_misquote_blames_no_cited_source() {
    let src = tempfile::tempdir().unwrap();
    std::fs::write(
        src.path().join("a-beethoven.md"),
        "# Beethoven\n\nGreat sonata, great Beethoven, old hall, old hall, spring, spring; \
         that year, that year, great sonata of Beethoven, played, played in the old hall.\n",
    )
    .unwrap();
    std::fs::write(
        src.path().join("b-concerts.md"),
        "# Concerts\n\nThe great sonata of Beethoven was played at the old hall in the spring of that year.\n",
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let draft = dir.path().join("d.md");
    std::fs::write(
        &draft,
        "“The great sonata of Beethoven was played in the old hall in the spring of that year”\n",
    )
    .unwrap();
    let idx = tempfile::tempdir().unwrap();
    let r = verify_quotes(src.path(), &draft, idx.path(), 3);
    assert_eq!(r[0]["verdict"], "fuzzy", "{r:#}");
    let note = r[0]["note"].as_str().unwrap();
    assert!(!note.contains("cited"), "{note}");
}
