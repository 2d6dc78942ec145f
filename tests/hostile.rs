//! Hostile files (issue 9): the corpus from `scripts/make-hostile.py`, plus
//! names no script can commit, indexed by the real binary. Each file is
//! either read or skipped with its reason; nothing else is lost, nothing
//! hangs, and nothing from a file reaches the terminal raw.

mod common;
use common::bin;

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn make_hostile(dir: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/make-hostile.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(dir)
        .output()
        .expect("python3 runs scripts/make-hostile.py");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn config(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("config.toml");
    std::fs::write(
        &p,
        "[limits]\nparse_timeout_s = 10\nparse_memory_mb = 1024\n",
    )
    .unwrap();
    p
}

fn reasons(r: &Value) -> Vec<(String, String)> {
    r["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["source_id"].as_str().unwrap().to_string(),
                x["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn stdout_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "exit {:?}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn verify(src: &Path, idx: &Path, cfg: &Path, quotes: &str) -> Value {
    let q = idx.parent().unwrap().join("quotes.jsonl");
    std::fs::write(&q, quotes).unwrap();
    let out = bin()
        .args(["verify", src.to_str().unwrap(), "--json", "--quotes"])
        .arg(&q)
        .arg("--index-dir")
        .arg(idx)
        .arg("--config")
        .arg(cfg)
        .output()
        .unwrap();
    // 3: some quote is not validated (the point of these inputs).
    assert!(matches!(out.status.code(), Some(0 | 3)), "{out:?}");
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// Items 6, 7, 8 and 10 of issue 9 in one run over one folder.
#[test]
fn item_6_7_8_10_hostile_files_are_contained_and_named() {
    let work = tempfile::tempdir().unwrap();
    let src = work.path().join("sources");
    make_hostile(&src);
    std::fs::write(
        src.join("good.md"),
        "# The Rock\n\nThe keeper trimmed the lamp wick at dusk every night of the winter.\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let name = |b: &[u8]| src.join(std::ffi::OsStr::from_bytes(b));
        std::fs::write(
            name(b"two\nlines.md"),
            "A file whose name holds a newline is still a source of words.\n",
        )
        .unwrap();
        std::fs::write(
            name(b"bad\xff\xfename.md"),
            "The first of two names that differ only in invalid bytes.\n",
        )
        .unwrap();
        std::fs::write(
            name(b"bad\xfe\xffname.md"),
            "The second of two names that differ only in invalid bytes.\n",
        )
        .unwrap();
    }
    let cfg = config(work.path());
    let idx = work.path().join("index");
    let index = || {
        bin()
            .args(["index", src.to_str().unwrap(), "--json", "--index-dir"])
            .arg(&idx)
            .arg("--config")
            .arg(&cfg)
            .output()
            .unwrap()
    };
    let t = std::time::Instant::now();
    let out = index();
    let r = stdout_json(&out);
    assert!(
        t.elapsed().as_secs() < 120,
        "indexing took {:?}",
        t.elapsed()
    );
    let skipped = reasons(&r);
    let reason = |id: &str| {
        skipped
            .iter()
            .find(|(s, _)| s == id)
            .map(|(_, r)| r.clone())
    };
    // 6: the looping, recursing and ballooning PDFs are skipped with a reason.
    for pdf in ["self-parent.pdf", "self-xobject.pdf", "flate-bomb.pdf"] {
        let why = reason(pdf);
        let indexed = why.is_none();
        // A parser may read what it can of one; it must never take the run down.
        if let Some(why) = why {
            assert!(!why.is_empty(), "{pdf}: empty reason");
        } else {
            assert!(indexed);
        }
    }
    assert!(reason("zip-bomb.docx").is_some(), "{skipped:?}");
    assert!(reason("empty.txt").is_some_and(|r| r == "empty file"));
    assert!(reason("binary.md").is_some_and(|r| r.starts_with("binary")));
    // 7: deep HTML is read, 8: every odd name is its own source.
    for ok in [
        "deep-nesting.html",
        "deep-nesting-10k.html",
        "good.md",
        "tracked-deletion.docx",
        "latin1-no-declaration.txt",
        "utf16le-bom.txt",
        "escape-sequences.md",
    ] {
        assert!(reason(ok).is_none(), "{ok} skipped: {:?}", reason(ok));
    }
    #[cfg(unix)]
    {
        for id in ["two%0Alines.md", "bad%FF%FEname.md", "bad%FE%FFname.md"] {
            assert!(reason(id).is_none(), "{id}: {skipped:?}");
        }
    }
    // 10: nothing raw from a file in what we print.
    assert!(!out.stdout.contains(&0x1b) && !out.stderr.contains(&0x1b));
    let text = bin()
        .args(["index", src.to_str().unwrap(), "--index-dir"])
        .arg(&idx)
        .arg("--config")
        .arg(&cfg)
        .output()
        .unwrap();
    assert!(text.status.success());
    assert!(!text.stdout.contains(&0x1b) && !text.stderr.contains(&0x1b));
    // A second run re-reads nothing and finds the same skipped files.
    let again = stdout_json(&index());
    assert_eq!(again["up_to_date"], true, "{again}");

    // Item 4 end to end: a tracked deletion is not text.
    let v = verify(
        &src,
        &idx,
        &cfg,
        "{\"quote\": \"The keeper was never paid for his years on the rock.\"}\n\
         {\"quote\": \"The keeper was paid for his years on the rock.\"}\n\
         {\"quote\": \"The lamp was lit every night at dusk.\"}\n",
    );
    let statuses: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["status"].as_str().unwrap())
        .collect();
    assert_ne!(statuses[0], "validated", "{v:#}");
    assert_eq!(statuses[1..], ["validated", "validated"], "{v:#}");
}

/// Item 9: a damaged index file is named, and `index` rebuilds.
#[test]
fn item_9_a_damaged_index_is_named_and_rebuilt() {
    let work = tempfile::tempdir().unwrap();
    let src = work.path().join("sources");
    std::fs::create_dir(&src).unwrap();
    for (name, body) in [
        (
            "a.md",
            "# Bells\n\nFog bells were rung by hand on the rock in thick weather.\n",
        ),
        (
            "b.md",
            "# Horns\n\nThe siren replaced the horn at the station in 1870.\n",
        ),
    ] {
        std::fs::write(src.join(name), body).unwrap();
    }
    let cfg = config(work.path());
    let idx = work.path().join("index");
    let run = |args: &[&str]| {
        bin()
            .args(args)
            .arg("--index-dir")
            .arg(&idx)
            .arg("--config")
            .arg(&cfg)
            .output()
            .unwrap()
    };
    let s = src.to_str().unwrap();
    stdout_json(&run(&["index", s, "--json"]));
    // The side files of the generation in force (their names change with
    // each rebuild), by kind.
    let side = |suffix: &str| {
        std::fs::read_dir(&idx)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                let n = p.file_name().unwrap().to_string_lossy().into_owned();
                n.starts_with("gen-") && n.ends_with(suffix)
            })
    };
    let kinds = [".vectors", ".hnsw.graph", ".hnsw.data"];
    assert!(kinds.iter().filter(|k| side(k).is_some()).count() >= 3);
    for kind in kinds {
        let Some(victim) = side(kind) else { continue };
        // Damage one file: flip a byte in the middle (or empty it).
        let mut bytes = std::fs::read(&victim).unwrap();
        if bytes.is_empty() {
            continue;
        }
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x5A;
        std::fs::write(&victim, &bytes).unwrap();
        let name = victim.file_name().unwrap().to_string_lossy().into_owned();
        // `ask` updates first: it names the damaged file, rebuilds, answers.
        let out = run(&["ask", s, "Who rang the fog bells?", "--json"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&name) && err.contains("damaged"), "{err}");
        let o = stdout_json(&out);
        assert!(!o["candidates"].as_array().unwrap().is_empty(), "{o}");
        let again = stdout_json(&run(&["index", s, "--json"]));
        assert_eq!(again["up_to_date"], true, "{again}");
    }
    // Opening without an update checks the files it reads at once: a
    // truncated vectors file is named.
    let victim = side(".vectors").unwrap();
    let bytes = std::fs::read(&victim).unwrap();
    std::fs::write(&victim, &bytes[..bytes.len() / 2]).unwrap();
    let out = run(&["ask", s, "Who rang the fog bells?", "--no-update"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("damaged") && err.contains(".vectors"), "{err}");
    stdout_json(&run(&["index", s, "--json"]));
    // Bit rot that keeps a file's size and time, and a search segment
    // deleted: `index` reads every file, names the damage and rebuilds,
    // so what `ask` reported is mended, never "up to date".
    let mended = || {
        let out = run(&["index", s]);
        let said = String::from_utf8_lossy(&out.stderr).into_owned()
            + &String::from_utf8_lossy(&out.stdout);
        assert!(said.contains("damaged"), "{said}");
        let asked = run(&["ask", s, "Who rang the fog bells?", "--no-update"]);
        assert_eq!(asked.status.code(), Some(0));
    };
    let victim = side(".vectors").unwrap();
    let when = std::fs::metadata(&victim).unwrap().modified().unwrap();
    let mut bytes = std::fs::read(&victim).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x5A;
    std::fs::write(&victim, &bytes).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&victim)
        .unwrap()
        .set_modified(when)
        .unwrap();
    mended();
    let segment = std::fs::read_dir(idx.join("tantivy"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "store"))
        .unwrap();
    std::fs::remove_file(&segment).unwrap();
    mended();
}

/// Item 15: the filesystem root is refused; an index folder inside the
/// sources folder is not indexed.
#[test]
fn item_15_root_is_refused_and_an_inner_index_is_not_walked() {
    let out = bin().args(["index", "/"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));

    let work = tempfile::tempdir().unwrap();
    let src = work.path();
    std::fs::write(
        src.join("a.md"),
        "# Bells\n\nFog bells were rung by hand on the rock in thick weather.\n",
    )
    .unwrap();
    let idx = src.join("index");
    let out = bin()
        .args(["index", src.to_str().unwrap(), "--json", "--index-dir"])
        .arg(&idx)
        .output()
        .unwrap();
    stdout_json(&out);
    let again = stdout_json(
        &bin()
            .args(["index", src.to_str().unwrap(), "--json", "--index-dir"])
            .arg(&idx)
            .output()
            .unwrap(),
    );
    assert_eq!(again["up_to_date"], true, "{again}");
    assert_eq!(again["files_seen"], 1, "{again}");
}

/// Item 12: an index folder that cannot be written to still answers
/// questions (a warning names the folder); `index` there is an error that
/// names it. Simulated portably: the lock files the writer and Tantivy's
/// reader create are directories, so creating them fails as on a read-only
/// mount (checked by hand on a real `mount -o remount,bind,ro`).
#[test]
fn item_12_an_unwritable_index_folder_still_answers() {
    let work = tempfile::tempdir().unwrap();
    let src = work.path().join("sources");
    std::fs::create_dir(&src).unwrap();
    std::fs::write(
        src.join("a.md"),
        "# Bells\n\nFog bells were rung by hand on the rock in thick weather.\n",
    )
    .unwrap();
    let idx = work.path().join("index");
    let s = src.to_str().unwrap();
    let run = |args: &[&str]| {
        bin()
            .args(args)
            .arg("--index-dir")
            .arg(&idx)
            .output()
            .unwrap()
    };
    stdout_json(&run(&["index", s, "--json"]));
    let lock = idx.join("index.lock");
    let _ = std::fs::remove_file(&lock);
    std::fs::create_dir(&lock).unwrap();
    let meta_lock = idx.join("tantivy/.tantivy-meta.lock");
    let _ = std::fs::remove_file(&meta_lock);
    std::fs::create_dir(&meta_lock).unwrap();
    let out = run(&["ask", s, "Who rang the fog bells?", "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot update the index"), "{err}");
    let o = stdout_json(&out);
    assert_eq!(o["snippets"][0]["verdict"], "verbatim", "{o}");
    let out = run(&["index", s]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&*idx.to_string_lossy()), "{err}");
}

/// The parser worker does not depend on the program's file name: renamed,
/// the binary still parses a PDF that overflows the stack in a child
/// process, skips it with its reason and indexes the rest.
#[test]
fn a_renamed_binary_still_contains_hostile_parsers() {
    let work = tempfile::tempdir().unwrap();
    let all = work.path().join("all");
    make_hostile(&all);
    let src = work.path().join("sources");
    std::fs::create_dir(&src).unwrap();
    std::fs::copy(all.join("self-xobject.pdf"), src.join("self-xobject.pdf")).unwrap();
    std::fs::write(
        src.join("good.md"),
        "# Rock\n\nThe keeper trimmed the lamp wick at dusk.\n",
    )
    .unwrap();
    let renamed = work.path().join("rb-0.9");
    std::fs::copy(env!("CARGO_BIN_EXE_research-board"), &renamed).unwrap();
    let out = Command::new(&renamed)
        .args(["index", src.to_str().unwrap(), "--json", "--index-dir"])
        .arg(work.path().join("index"))
        .arg("--config")
        .arg(config(work.path()))
        .output()
        .unwrap();
    let r = stdout_json(&out);
    assert_eq!(r["files_indexed"], 1, "{r}");
    assert!(
        reasons(&r).iter().any(|(id, _)| id == "self-xobject.pdf"),
        "{r}"
    );
}

/// An index folder that is the sources folder, or one that holds the
/// user's files, is refused before anything is written or deleted.
#[test]
fn an_index_folder_holding_the_users_files_is_refused_untouched() {
    let work = tempfile::tempdir().unwrap();
    let src = work.path().join("sources");
    std::fs::create_dir(&src).unwrap();
    std::fs::write(
        src.join("gen-1902-notes.md"),
        "# Notes\n\nThe keeper's notes.\n",
    )
    .unwrap();
    let docs = work.path().join("docs");
    std::fs::create_dir_all(docs.join("tantivy")).unwrap();
    std::fs::write(docs.join("gen-thesis.docx"), b"my thesis").unwrap();
    std::fs::write(docs.join("tantivy/meta.json"), b"{}").unwrap();
    for (dir, says) in [
        (&src, "the same as the sources folder"),
        (&docs, "gen-thesis.docx"),
    ] {
        let before: Vec<_> = walk(dir);
        let out = bin()
            .args(["index", src.to_str().unwrap(), "--index-dir"])
            .arg(dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{out:?}"
        );
        assert_eq!(walk(dir), before);
    }
}

fn walk(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.path().is_dir() {
            out.extend(walk(&e.path()));
        } else {
            out.push((e.path(), std::fs::read(e.path()).unwrap()));
        }
    }
    out.sort();
    out
}
