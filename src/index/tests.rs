//! The index end to end: the writer's generations as the reader opens them.

use super::*;
use crate::embed::{self, Embedder, EmbedderKind};

fn builtin() -> Box<dyn Embedder> {
    embed::build(EmbedderKind::Builtin).unwrap().unwrap()
}

/// Ten small files, each on its own subject.
const SUBJECTS: [&str; 10] = [
    "The lighthouse keeper trimmed the wick of the lamp every evening at dusk.",
    "Fog bells were rung by hand on the rock in thick weather and snow.",
    "The harbour master kept a ledger of every ship that entered the port.",
    "Whalers boiled blubber in iron try-pots on the deck of the ship.",
    "The village baker rose at four to fire the brick oven for bread.",
    "Shepherds drove the flock over the pass before the first snowfall.",
    "The cartographer drew the coastline from soundings taken at low tide.",
    "Miners lowered a caged canary into the shaft to test the air.",
    "The weaver threaded the loom with wool dyed in madder and woad.",
    "Beekeepers smoked the hives gently before lifting out the combs.",
];

fn opts() -> UpdateOptions {
    UpdateOptions {
        replace_other_sources: true,
        ..Default::default()
    }
}

/// Update the index of `src` in `idx` with the default options.
fn reindex(src: &Path, idx: &Path, e: &dyn Embedder) -> anyhow::Result<UpdateReport> {
    update(src, idx, &opts(), Some(e), &mut |_| {})
}

/// Write the sources `f0.md`..`f9.md` (those in `keep`), then update the
/// index.
fn index_subjects(src: &Path, idx: &Path, e: &dyn Embedder, keep: impl Fn(usize) -> bool) {
    for (i, s) in SUBJECTS.iter().enumerate() {
        let p = src.join(format!("f{i}.md"));
        if keep(i) {
            std::fs::write(&p, format!("# Subject {i}\n\n{s}\n")).unwrap();
        } else if p.exists() {
            std::fs::remove_file(&p).unwrap();
        }
    }
    update(src, idx, &opts(), Some(e), &mut |_| {}).unwrap();
}

/// Removing files (enough of them that the graph is rebuilt from the
/// remaining vectors) leaves none of their chunks in the vector search.
#[test]
fn removed_files_leave_no_vectors_behind() {
    let work = tempfile::tempdir().unwrap();
    let (src, idx) = (work.path().join("src"), work.path().join("idx"));
    std::fs::create_dir(&src).unwrap();
    let e = builtin();
    index_subjects(&src, &idx, e.as_ref(), |_| true);
    index_subjects(&src, &idx, e.as_ref(), |i| i < 7);
    let index = Index::open(&idx).unwrap();
    let gone = |id: &str| {
        ["f7.md#", "f8.md#", "f9.md#"]
            .iter()
            .any(|p| id.starts_with(p))
    };
    let stored = index.live_vectors().unwrap();
    let stored: Vec<&str> = stored.iter().map(|(id, _)| id.as_str()).collect();
    assert!(stored.iter().all(|id| !gone(id)), "{stored:?}");
    for s in &SUBJECTS[7..] {
        let q = e.embed(&[s]).unwrap().remove(0);
        let hits = index.vector_search(&q, 10, 64);
        assert_eq!(hits.len(), 7, "{hits:?}");
        assert!(hits.iter().all(|(id, _)| !gone(id)), "{hits:?}");
    }
}

/// An incremental update keeps the previous generation's vectors file and
/// graph as its base, marks a removed file's rows dead and writes a changed
/// file's new chunks to a delta; the index opened from disk answers by
/// exact scan, as a brute-force scan of the live vectors would, without
/// the dead rows and with the delta's.
#[test]
fn an_opened_index_scans_exactly_around_dead_rows_and_a_delta() {
    let work = tempfile::tempdir().unwrap();
    let (src, idx) = (work.path().join("src"), work.path().join("idx"));
    std::fs::create_dir(&src).unwrap();
    let e = builtin();
    // Ten more files, so that two dead rows stay under COMPACT_AT.
    for (i, s) in SUBJECTS.iter().enumerate() {
        std::fs::write(
            src.join(format!("g{i}.md")),
            format!("# More {i}\n\n{s} Again.\n"),
        )
        .unwrap();
    }
    index_subjects(&src, &idx, e.as_ref(), |_| true);
    index_subjects(&src, &idx, e.as_ref(), |i| i != 4);
    std::fs::write(
        src.join("f2.md"),
        "# Subject 2\n\nThe harbour master logged the zebra Quillon's arrival.\n",
    )
    .unwrap();
    update(&src, &idx, &opts(), Some(e.as_ref()), &mut |_| {}).unwrap();
    let index = Index::open(&idx).unwrap();
    assert_eq!(index.wait_for_graph(), Ok(false), "a small index scans");
    let m = &index.manifest;
    assert_eq!((m.generation, m.vectors_base), (3, Some(1)));
    assert_eq!(m.dead_rows.len(), 2, "f4 removed, f2 changed");
    assert!(m.delta && idx.join("gen-3.delta").exists());
    assert!(idx.join("gen-1.vectors").exists() && !idx.join("gen-2.manifest.json").exists());
    let live = index.live_vectors().unwrap();
    assert_eq!(live.len(), 19);
    assert!(live.iter().all(|(id, _)| !id.starts_with("f4.md#")));
    for s in SUBJECTS
        .iter()
        .chain(["the zebra Quillon's arrival"].iter())
    {
        let q = e.embed(&[s]).unwrap().remove(0);
        let mut exact: Vec<(String, f32)> = live
            .iter()
            .map(|(id, v)| (id.clone(), crate::embed::dot(&q, v)))
            .collect();
        exact.sort_by(|a, b| b.1.total_cmp(&a.1));
        let hits = index.vector_search(&q, 5, 64);
        let ids = |h: &[(String, f32)]| h.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&hits), ids(&exact[..5]));
        assert!(hits.iter().all(|(id, _)| !id.starts_with("f4.md#")));
    }
    let q = e.embed(&["the zebra Quillon's arrival"]).unwrap().remove(0);
    assert!(index.vector_search(&q, 1, 64)[0].0.starts_with("f2.md#"));
}

/// An index of an older format is rebuilt as a new generation, never under
/// the committed generation's name (a crash then leaves no new file that
/// the old commit would read).
#[test]
fn an_older_format_is_rebuilt_under_a_new_generation() {
    let work = tempfile::tempdir().unwrap();
    let (src, idx) = (work.path().join("src"), work.path().join("idx"));
    std::fs::create_dir(&src).unwrap();
    let e = builtin();
    index_subjects(&src, &idx, e.as_ref(), |_| true);
    let manifest = idx.join("gen-1.manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    m["format"] = (MANIFEST_FORMAT - 1).into();
    std::fs::write(&manifest, serde_json::to_vec(&m).unwrap()).unwrap();
    assert!(Index::open(&idx).is_err());
    let r = update(&src, &idx, &opts(), Some(e.as_ref()), &mut |_| {}).unwrap();
    assert_eq!(r.files_indexed, 10);
    let index = Index::open(&idx).unwrap();
    assert_eq!(index.manifest.generation, 2);
    assert!(!idx.join("gen-1.manifest.json").exists());
}

/// What each file holds at one step: nothing, its subject, or its subject
/// with another one's sentence after it (a changed file).
fn write_step(src: &Path, step: &[u8]) {
    for (i, &v) in step.iter().enumerate() {
        let p = src.join(format!("f{i}.md"));
        match v {
            0 if p.exists() => std::fs::remove_file(&p).unwrap(),
            0 => {}
            1 => std::fs::write(&p, format!("# Subject {i}\n\n{}\n", SUBJECTS[i])).unwrap(),
            _ => std::fs::write(
                &p,
                format!(
                    "# Subject {i}\n\n{} {}\n",
                    SUBJECTS[i],
                    SUBJECTS[(i + 3) % SUBJECTS.len()]
                ),
            )
            .unwrap(),
        }
    }
}

proptest::proptest! {
    #![proptest_config(crate::cases(12))]

    /// An index updated in place (files added, changed and removed) counts
    /// and scores terms as one built afresh from the same files: a word
    /// only a removed file held is unknown again, and BM25 returns the same
    /// chunks with the same scores.
    #[test]
    fn an_updated_index_answers_as_a_fresh_one(
        steps in proptest::collection::vec(proptest::collection::vec(0u8..3, 10), 2..4)
    ) {
        let work = tempfile::tempdir().unwrap();
        let (src, idx) = (work.path().join("src"), work.path().join("idx"));
        std::fs::create_dir(&src).unwrap();
        let words: Vec<&str> = SUBJECTS
            .iter()
            .flat_map(|s| s.split(|c: char| !c.is_alphanumeric()))
            .filter(|w| !w.is_empty())
            .collect();
        for (k, step) in steps.iter().enumerate() {
            write_step(&src, step);
            update(&src, &idx, &opts(), None, &mut |_| {}).unwrap();
            let fresh_dir = work.path().join(format!("fresh{k}"));
            update(&src, &fresh_dir, &opts(), None, &mut |_| {}).unwrap();
            let (updated, fresh) = (Index::open(&idx).unwrap(), Index::open(&fresh_dir).unwrap());
            for w in &words {
                for t in fresh.analyze(w) {
                    proptest::prop_assert_eq!(updated.doc_freq(&t), fresh.doc_freq(&t), "{} at step {}", t, k);
                }
            }
            let hits = |ix: &Index, q: &str| {
                let mut h: Vec<(String, f32)> = ix
                    .bm25(q, 20)
                    .unwrap()
                    .into_iter()
                    .map(|h| (h.chunk.id, h.score))
                    .collect();
                h.sort_by(|a, b| a.0.cmp(&b.0));
                h
            };
            for q in SUBJECTS.iter().take(5) {
                let (u, f) = (hits(&updated, q), hits(&fresh, q));
                proptest::prop_assert_eq!(u.len(), f.len(), "{} at step {}", q, k);
                for ((ui, us), (fi, fs)) in u.iter().zip(&f) {
                    proptest::prop_assert_eq!(ui, fi);
                    proptest::prop_assert!((us - fs).abs() < 1e-4, "{} {} vs {} at step {}", ui, us, fs, k);
                }
            }
        }
    }
}

/// An abbreviation's plural finds its singular and back ("PDFs" / "PDF"),
/// as a word's plural does; a word that is not an abbreviation keeps its
/// stemmer's analysis.
#[test]
fn an_abbreviations_plural_finds_its_singular() {
    let work = tempfile::tempdir().unwrap();
    let (src, idx) = (work.path().join("src"), work.path().join("idx"));
    std::fs::create_dir(&src).unwrap();
    std::fs::write(src.join("a.md"), "Each PDF was split by two GPUs.\n").unwrap();
    update(&src, &idx, &opts(), None, &mut |_| {}).unwrap();
    let index = Index::open(&idx).unwrap();
    assert_eq!(
        index.analyze("PDFs GPU LLMs Rs CDs"),
        ["pdf", "gpu", "llm", "rs", "cd"]
    );
    assert_eq!(index.doc_freq("pdf"), 1);
    assert_eq!(index.doc_freq("gpu"), 1);
    assert_eq!(index.bm25("scientific PDFs", 5).unwrap().len(), 1);
    assert_eq!(index.bm25("one GPU", 5).unwrap().len(), 1);
}

/// A file that could not be read is not parsed again until it changes
/// (a parser that hits its time limit would cost it on every update):
/// the same bytes' size and time keep the reason; a new time reads it.
#[test]
fn a_file_that_failed_is_not_parsed_again_until_it_changes() {
    let work = tempfile::tempdir().unwrap();
    let (src, idx) = (work.path().join("src"), work.path().join("idx"));
    std::fs::create_dir(&src).unwrap();
    std::fs::write(
        src.join("ok.md"),
        "# Notes\n\nThe keeper trimmed the lamp.\n",
    )
    .unwrap();
    let p = src.join("log.txt");
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let write = |bytes: &[u8], at: std::time::SystemTime| {
        std::fs::write(&p, bytes).unwrap();
        let f = std::fs::File::options().write(true).open(&p).unwrap();
        f.set_modified(at).unwrap();
    };
    let binary = vec![0u8; 64];
    let text = b"The keeper wrote the log of the lamp and the fog bell at dusk.\n\n\n";
    write(&binary, an_hour_ago);
    let skipped = |r: &UpdateReport| r.skipped.iter().any(|s| s.source_id == "log.txt");
    let r = update(&src, &idx, &opts(), None, &mut |_| {}).unwrap();
    assert!(skipped(&r), "{r:?}");
    // Other bytes, the same size and time: taken for the same file.
    write(&text[..64], an_hour_ago);
    let r = update(&src, &idx, &opts(), None, &mut |_| {}).unwrap();
    assert!(skipped(&r) && r.up_to_date, "{r:?}");
    // Other parse limits (a longer time limit): read again, and indexed.
    let mut roomier = opts();
    roomier.limits.worker_timeout *= 2;
    let r = update(&src, &idx, &roomier, None, &mut |_| {}).unwrap();
    assert!(!skipped(&r) && r.files_indexed == 1, "{r:?}");
    write(&binary, an_hour_ago + std::time::Duration::from_secs(30));
    let r = update(&src, &idx, &opts(), None, &mut |_| {}).unwrap();
    assert!(skipped(&r), "{r:?}");
    // A new time: read again, and indexed.
    write(
        &text[..64],
        an_hour_ago + std::time::Duration::from_secs(60),
    );
    let r = update(&src, &idx, &opts(), None, &mut |_| {}).unwrap();
    assert!(!skipped(&r) && r.files_indexed == 1, "{r:?}");
}

#[test]
fn an_index_held_by_another_process_is_told_from_other_failures() {
    use fs2::FileExt;
    let src = tempfile::tempdir().unwrap();
    let idx = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("a.md"), "The lamp was lit at dusk.").unwrap();
    let e = builtin();
    reindex(src.path(), idx.path(), e.as_ref()).unwrap();
    let lock = std::fs::File::open(idx.path().join("index.lock")).unwrap();
    lock.lock_exclusive().unwrap();
    let held = reindex(src.path(), idx.path(), e.as_ref()).unwrap_err();
    assert!(is_busy(&held), "{held:#}");
    drop(lock);
    let gone = src.path().join("missing");
    let other = reindex(&gone, idx.path(), e.as_ref()).unwrap_err();
    assert!(!is_busy(&other), "{other:#}");
}

proptest::proptest! {
    /// A work whose pages are known (even from page 1) is never given a
    /// page outside them, unless the file itself labels its pages so: its
    /// file is counted from the work's first page when it has exactly as
    /// many pages, and is left unchecked otherwise (a cover page).
    #[test]
    fn a_works_printed_page_is_one_of_its_pages(
        pages in proptest::option::of(1u32..40), a in 1u32..400, len in 0u32..40,
        page in 1u32..40, labelled in proptest::bool::ANY,
    ) {
        let b = a + len;
        let labels = labelled.then(|| (1..=40).map(|n| format!("L{n}")).collect());
        let entry = pdf_entry(pages, labels);
        let work = WorkPages { first: a, last: b, roman: false };
        match entry.printed_page(page, Some(work)) {
            Some(p) if labelled => proptest::prop_assert_eq!(p, format!("L{page}")),
            Some(p) => {
                let n: u32 = p.parse().unwrap();
                proptest::prop_assert_eq!(pages, Some(b - a + 1));
                proptest::prop_assert!((a..=b).contains(&n), "{} of {}–{}", n, a, b);
                proptest::prop_assert_eq!(n, a + page - 1);
            }
            None => proptest::prop_assert!(!labelled),
        }
    }
}

/// An edit that keeps the file's size: the index's stamp of it tells it
/// changed even when the index read it too young to trust its time; and
/// one that also keeps its time (a fixed 1980 stamp) is read by `index`
/// (`check_all`), which trusts no size and time.
#[test]
fn a_same_size_edit_is_seen() {
    let src = tempfile::tempdir().unwrap();
    let idx = tempfile::tempdir().unwrap();
    let file = src.path().join("a.md");
    std::fs::write(&file, "The keepers cannot leave the rock.").unwrap();
    let e = builtin();
    reindex(src.path(), idx.path(), e.as_ref()).unwrap();
    let index = Index::open(idx.path()).unwrap();
    assert!(!index.changed_since_read("a.md"));
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&file, "The keepers seldom leave the rock.").unwrap();
    assert!(index.changed_since_read("a.md"), "same size, fresh time");

    let fixed = std::time::UNIX_EPOCH + std::time::Duration::from_secs(315_532_800);
    let set_fixed = || {
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(fixed)
            .unwrap()
    };
    set_fixed();
    reindex(src.path(), idx.path(), e.as_ref()).unwrap();
    std::fs::write(&file, "The keepers always leave the rock.").unwrap();
    set_fixed();
    let text = |check_all: bool| {
        let o = UpdateOptions {
            check_all,
            ..opts()
        };
        update(src.path(), idx.path(), &o, Some(e.as_ref()), &mut |_| {}).unwrap();
        Index::open(idx.path()).unwrap().chunks_of("a.md").unwrap()[0]
            .text
            .clone()
    };
    assert!(text(false).contains("seldom"), "size and time trusted");
    assert!(text(true).contains("always"), "index reads every file");
}

/// A sources folder found empty (an unmounted drive) does not empty the
/// index of its files, unless asked to.
#[test]
fn an_empty_folder_keeps_its_index_unless_forced() {
    let src = tempfile::tempdir().unwrap();
    let idx = tempfile::tempdir().unwrap();
    let file = src.path().join("a.md");
    std::fs::write(&file, "The lamp was lit at dusk.").unwrap();
    let e = builtin();
    let plain = UpdateOptions::default();
    update(
        src.path(),
        idx.path(),
        &plain,
        Some(e.as_ref()),
        &mut |_| {},
    )
    .unwrap();
    std::fs::remove_file(&file).unwrap();
    let err = update(
        src.path(),
        idx.path(),
        &plain,
        Some(e.as_ref()),
        &mut |_| {},
    )
    .unwrap_err();
    assert!(format!("{err:#}").contains("is empty"), "{err:#}");
    assert_eq!(Index::open(idx.path()).unwrap().manifest.files.len(), 1);
    let r = reindex(src.path(), idx.path(), e.as_ref()).unwrap();
    assert_eq!(r.files_removed, 1);
}

/// A named pipe where the lock file goes is refused at once, not waited on.
#[cfg(unix)]
#[test]
fn a_pipe_for_a_lock_is_refused_without_waiting() {
    let src = tempfile::tempdir().unwrap();
    let idx = tempfile::tempdir().unwrap();
    std::fs::write(src.path().join("a.md"), "The lamp was lit at dusk.").unwrap();
    let fifo = idx.path().join("index.lock");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let e = builtin();
    let t = std::time::Instant::now();
    let err = reindex(src.path(), idx.path(), e.as_ref()).unwrap_err();
    assert!(t.elapsed().as_secs() < 10);
    assert!(format!("{err:#}").contains("index.lock"), "{err:#}");
}

/// A run killed inside Tantivy's commit leaves a deletes file it wrote
/// (and listed as managed) that the next run, from the same state, would
/// write again under the same name: it is collected, and the update
/// completes.
#[test]
fn files_a_killed_commit_left_do_not_stop_the_next_update() {
    let src = tempfile::tempdir().unwrap();
    let idx = tempfile::tempdir().unwrap();
    let e = builtin();
    // Ten files, so that the one removed shares its segment with others
    // and its deletion is written as a deletes file (a segment left empty
    // is dropped instead, and nothing is left to clash).
    index_subjects(src.path(), idx.path(), e.as_ref(), |_| true);
    let tdir = idx.path().join("tantivy");
    let before = tempfile::tempdir().unwrap();
    let copy = |from: &Path, to: &Path| {
        for f in std::fs::read_dir(from).unwrap() {
            let f = f.unwrap().path();
            if f.is_file() {
                std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
            }
        }
    };
    copy(&tdir, before.path());
    let names = |d: &Path| -> Vec<String> {
        std::fs::read_dir(d)
            .unwrap()
            .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    let old = names(before.path());
    // The update this state leads to, in a copy, to learn what it writes:
    // the removal of a file whose passages share a segment with others
    // (a segment left empty is dropped, and writes no deletes file).
    let mut learned = None;
    for i in 0..SUBJECTS.len() {
        let f = src.path().join(format!("f{i}.md"));
        let (text, time) = (
            std::fs::read(&f).unwrap(),
            f.metadata().unwrap().modified().unwrap(),
        );
        std::fs::remove_file(&f).unwrap();
        let crashed = tempfile::tempdir().unwrap();
        copy(idx.path(), crashed.path());
        std::fs::create_dir(crashed.path().join("tantivy")).unwrap();
        copy(&tdir, &crashed.path().join("tantivy"));
        reindex(src.path(), crashed.path(), e.as_ref()).unwrap();
        let written: Vec<String> = names(&crashed.path().join("tantivy"))
            .into_iter()
            .filter(|n| n.ends_with(".del") && !old.contains(n))
            .collect();
        if !written.is_empty() {
            learned = Some((crashed, written));
            break;
        }
        // Put it back as it was, so the index still holds it unchanged.
        std::fs::write(&f, text).unwrap();
        let file = std::fs::File::options().write(true).open(&f).unwrap();
        file.set_modified(time).unwrap();
    }
    let (crashed, written) = learned.expect("no removal wrote a deletes file");
    let new_tdir = crashed.path().join("tantivy");
    // As a kill inside the commit leaves it: those files, listed as
    // managed, beside the state before.
    for n in &written {
        std::fs::copy(new_tdir.join(n), tdir.join(n)).unwrap();
    }
    let managed = tdir.join(".managed.json");
    let mut list: Vec<String> = serde_json::from_slice(&std::fs::read(&managed).unwrap()).unwrap();
    list.extend(written.iter().cloned());
    std::fs::write(&managed, serde_json::to_vec(&list).unwrap()).unwrap();
    let r = reindex(src.path(), idx.path(), e.as_ref()).unwrap();
    assert_eq!(r.files_removed, 1);
}

/// Chunks with equal BM25 scores come in chunk id order, whatever
/// segment each landed in (which differs from one build of a folder to
/// the next), also at the cut: results do not change when an index is
/// rebuilt.
#[test]
fn equal_scores_are_ordered_by_chunk_id() {
    let work = tempfile::tempdir().unwrap();
    let (src, idx) = (work.path().join("src"), work.path().join("idx"));
    std::fs::create_dir(&src).unwrap();
    let e = builtin();
    let write = |range: std::ops::Range<usize>| {
        for i in range {
            std::fs::write(
                src.join(format!("f{i:02}.md")),
                "# Note\n\nThe keeper rang the fog bell.\n",
            )
            .unwrap();
        }
    };
    // The later names first: they sit in the earlier segment.
    write(30..60);
    reindex(&src, &idx, e.as_ref()).unwrap();
    write(0..30);
    reindex(&src, &idx, e.as_ref()).unwrap();
    let index = Index::open(&idx).unwrap();
    let ids: Vec<String> = index
        .bm25("fog bell", 5)
        .unwrap()
        .into_iter()
        .map(|h| h.chunk.id)
        .collect();
    assert_eq!(
        ids,
        ["f00.md#0", "f01.md#0", "f02.md#0", "f03.md#0", "f04.md#0"]
    );
}

/// A work printed on Roman-numbered pages (a foreword, "xi--xiv") is
/// counted in them when the file has exactly its pages, and left
/// unchecked when it has not: never checked against the physical page.
#[test]
fn a_foreword_is_counted_in_roman_numerals() {
    let entry = |pages: u32| pdf_entry(Some(pages), None);
    let foreword = WorkPages {
        first: 11,
        last: 14,
        roman: true,
    };
    assert_eq!(
        entry(4).printed_page(3, Some(foreword)).as_deref(),
        Some("xiii")
    );
    assert_eq!(entry(5).printed_page(3, Some(foreword)), None);
    let preface = WorkPages {
        first: 1,
        last: 4,
        roman: true,
    };
    assert_eq!(entry(6).printed_page(2, Some(preface)), None);
}

/// A PDF's manifest entry with these pages and page labels.
fn pdf_entry(pages: Option<u32>, page_labels: Option<Vec<String>>) -> FileEntry {
    FileEntry {
        hash: String::new(),
        size: 0,
        title: String::new(),
        format: crate::ingest::Format::Pdf,
        chunks: 0,
        author: None,
        encoding: None,
        page_labels,
        folios: None,
        pages,
        modified: None,
        seen: None,
    }
}

/// The numbers a PDF's pages print count where it declares no labels:
/// an article printed pp. 1–3 after a cover page (the red team's: the
/// physical page was checked), a book whose entry gives no pages, a
/// page that prints none; a file numbered otherwise than the work (a
/// preprint 1–4 of an article on pp. 291–294) is counted from the work.
#[test]
fn the_numbers_a_pdf_prints_are_its_pages() {
    let with = |folios: &[&str]| FileEntry {
        folios: Some(folios.iter().map(|s| s.to_string()).collect()),
        ..pdf_entry(Some(folios.len() as u32), None)
    };
    let article = WorkPages {
        first: 1,
        last: 3,
        roman: false,
    };
    let cover = with(&["", "1", "2", "3"]);
    assert_eq!(cover.printed_page(3, Some(article)).as_deref(), Some("2"));
    assert_eq!(cover.printed_page(1, Some(article)), None);
    let book = with(&["", "", "1", "2", "", "4"]);
    assert_eq!(book.printed_page(6, None).as_deref(), Some("4"));
    assert_eq!(book.printed_page(5, None), None, "prints none, not 5");
    let preprint = with(&["1", "2", "3", "4"]);
    let journal = WorkPages {
        first: 291,
        last: 294,
        roman: false,
    };
    assert_eq!(
        preprint.printed_page(3, Some(journal)).as_deref(),
        Some("293")
    );
    let huge = WorkPages {
        first: 1,
        last: u32::MAX,
        roman: true,
    };
    assert_eq!(preprint.printed_page(3, Some(huge)), None);
}
