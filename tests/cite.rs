//! Issue 14: a draft's citations checked against a bibliography, end to
//! end through `verify`: over three of the shared papers (real PDFs, one
//! with printed page labels starting at 291) and over a PDF made here whose
//! page labels start at "i" and whose sentence runs across a page break.

mod common;
use common::bin;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cite")
        .join(name)
}

fn papers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/papers")
}

fn verify(sources: &Path, index: &Path, draft: &Path, bib: &Path, json: bool) -> Output {
    let mut cmd = bin();
    cmd.args(["verify"])
        .arg(sources)
        .arg("--quotes")
        .arg(draft)
        .arg("--bibliography")
        .arg(bib)
        .arg("--index-dir")
        .arg(index)
        .args(["--embedder", "none"]);
    if json {
        cmd.arg("--json");
    }
    cmd.output().expect("run research-board")
}

fn results(out: &Output, code: i32) -> Vec<Value> {
    assert_eq!(
        out.status.code(),
        Some(code),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    v.as_array().expect("an array of results").clone()
}

/// The result whose quote starts with `start`.
fn quote<'a>(rs: &'a [Value], start: &str) -> &'a Value {
    rs.iter()
        .find(|r| r["quote"].as_str().is_some_and(|q| q.starts_with(start)))
        .unwrap_or_else(|| panic!("no quote starting {start:?} in {rs:#?}"))
}

/// Three papers copied (a symbolic link would be skipped) next to a note
/// that no bibliography entry names.
fn paper_folder() -> Option<tempfile::TempDir> {
    let dir = tempfile::tempdir().unwrap();
    for p in ["curriculum", "mono2micro", "hypergradient"] {
        let name = format!("zotero-rag_zqa-pdftools_assets_test_papers_{p}.pdf");
        let from = papers().join(&name);
        if !from.exists() {
            eprintln!("skipped: {} is not there", from.display());
            return None;
        }
        std::fs::copy(&from, dir.path().join(&name)).unwrap();
    }
    std::fs::write(
        dir.path().join("reading-notes.md"),
        "# Reading notes\n\nCurricula order the data; LeRaC orders the layers instead.\n",
    )
    .unwrap();
    Some(dir)
}

#[test]
fn a_draft_over_the_shared_papers_gets_every_citation_check() {
    let Some(sources) = paper_folder() else {
        return;
    };
    let idx = tempfile::tempdir().unwrap();
    let out = verify(
        sources.path(),
        idx.path(),
        &fixture("draft.md"),
        &fixture("papers.bib"),
        true,
    );
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let rs = results(&out, 3);
    assert_eq!(rs.len(), 9, "{rs:#?}");

    // Matching: by DOI, by Zotero's file field, by a plain file path; the
    // work with no source and the note in no entry are reported.
    assert!(
        stderr.contains("4 works, 3 tied to sources (2 files by file name, 1 by DOI, 0 by title)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("works with no source in the folder (1): @nobody2000"),
        "{stderr}"
    );
    assert!(
        stderr.contains("sources in no bibliography entry (1): reading-notes.md"),
        "{stderr}"
    );

    // ok: on printed page 291 (the paper's page labels start there).
    let r = quote(&rs, "LeRaC assigns");
    assert_eq!(r["citation_check"], "ok", "{r:#}");
    assert_eq!(r["citation"]["key"], "croitoru2025");
    assert_eq!(r["citation"]["page"], "291");
    assert_eq!(r["page_found"], "291");
    assert_eq!(r["status"], "validated");
    assert_eq!(
        r["source_id"],
        "zotero-rag_zqa-pdftools_assets_test_papers_curriculum.pdf"
    );
    // The existing fields are all still there.
    for k in [
        "quote",
        "line",
        "verdict",
        "similarity",
        "source_title",
        "location",
        "place",
        "spans",
        "copy_text",
        "note",
    ] {
        assert!(r.get(k).is_some(), "{k} missing in {r:#}");
    }
    assert_eq!(r["line"], 3);

    // wrong_page: it is on p. 292, not 297.
    let r = quote(&rs, "there is no universal way");
    assert_eq!(r["citation_check"], "wrong_page", "{r:#}");
    assert_eq!(r["page_found"], "292");
    assert_eq!(r["citation_note"], "p. 292, not p. 297");

    // An author-date citation resolves to its key.
    let r = quote(&rs, "Such curriculum learning");
    assert_eq!(r["citation_check"], "ok", "{r:#}");
    assert_eq!(r["citation"]["key"], "croitoru2025");
    assert_eq!(r["citation"]["text"], "(Croitoru et al. 2025, p. 294)");

    // misattributed: the words are Kalia et al.'s, on their first page.
    let r = quote(&rs, "Mono2Micro performs");
    assert_eq!(r["citation_check"], "misattributed", "{r:#}");
    assert_eq!(r["found_key"], "kalia2021");
    assert_eq!(r["page_found"], "1");
    assert_eq!(r["verdict"], "misattributed");

    // not_found: a paraphrase.
    let r = quote(&rs, "LeRaC sorts");
    assert_eq!(r["citation_check"], "not_found", "{r:#}");

    // unknown_key: validated as a quote, but the key is in no entry.
    let r = rs
        .iter()
        .find(|r| r["citation"]["key"] == "smith1999")
        .expect("the @smith1999 quote");
    assert_eq!(r["citation_check"], "unknown_key", "{r:#}");
    assert_eq!(r["status"], "validated");

    let r = rs
        .iter()
        .find(|r| r["citation"]["key"] == "baydin2018" && r["line"] == 24)
        .expect("the @baydin2018 quote");
    assert_eq!(r["citation_check"], "ok", "{r:#}");

    // A work with no source in the folder: the words are in another work.
    let r = quote(&rs, "we propose a novel curriculum");
    assert_eq!(r["citation_check"], "misattributed", "{r:#}");
    assert_eq!(r["found_key"], "croitoru2025");
    assert!(
        r["citation_note"]
            .as_str()
            .unwrap()
            .contains("@nobody2000 has no source in the folder"),
        "{r:#}"
    );

    // A block quote with its citation at the end.
    let r = quote(&rs, "Our method works by dynamically");
    assert_eq!(r["citation_check"], "ok", "{r:#}");
    assert!(!r["quote"].as_str().unwrap().contains("@baydin"), "{r:#}");

    // The text output shows the draft's line, the verdict and the fix.
    let out = verify(
        sources.path(),
        idx.path(),
        &fixture("draft.md"),
        &fixture("papers.bib"),
        false,
    );
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("line 7: Verbatim (Validated")
            || text.contains("line 7: Normalized (Validated"),
        "{text}"
    );
    assert!(
        text.contains("citation [@croitoru2025, p. 297]: wrong page — p. 292, not p. 297"),
        "{text}"
    );
    assert!(
        text.contains("cite as: “there is no universal way"),
        "{text}"
    );
    assert!(
        text.contains(
            "9 citations: 4 ok, 1 wrong page, 2 misattributed, 1 not found, 1 unknown key"
        ),
        "{text}"
    );

    // Only good citations: exit 0.
    let drafts = tempfile::tempdir().unwrap();
    let good = drafts.path().join("good-draft.md");
    let draft = std::fs::read_to_string(fixture("draft.md")).unwrap();
    let keep: Vec<&str> = draft
        .split("\n\n")
        .filter(|p| {
            !["p. 297", "p. 293", "every", "smith1999", "nobody2000"]
                .iter()
                .any(|bad| p.contains(bad))
        })
        .collect();
    std::fs::write(&good, keep.join("\n\n")).unwrap();
    let out = verify(
        sources.path(),
        idx.path(),
        &good,
        &fixture("papers.bib"),
        true,
    );
    let rs = results(&out, 0);
    assert_eq!(rs.len(), 4, "{rs:#?}");
}

fn labelled_pdf() -> Vec<u8> {
    keepers_pdf(true)
}

/// A PDF of four pages labelled i, ii, 1, 2 when `labelled`, else without
/// labels (Helvetica, one paragraph a page under a running head, the page
/// number below it), its second page ending inside a sentence that the
/// third finishes.
fn keepers_pdf(labelled: bool) -> Vec<u8> {
    let pages = [
        [
            "This small book is about the keepers of the northern lights and their",
            "families. The keepers wrote their logs by lamplight every single night.",
        ],
        [
            "The first trials of the new fog signal were disappointing to everyone,",
            "and after a long winter of complaints from the fishermen the board",
        ],
        [
            "ordered a second horn from the makers in Leith without further delay.",
            "The new horn was heard eleven miles out on the calmest of evenings.",
        ],
        [
            "The wife of the principal keeper kept the accounts of the station for",
            "forty years, in a neat hand, and never missed a single quarter day.",
        ],
    ];
    numbered_pdf(&pages, 1, labelled)
}

/// A PDF of these pages (two lines each, under a running head), each
/// printing its number below them from `first` on; labelled i, ii, 1, 2
/// when `labelled`.
fn numbered_pdf(pages: &[[&str; 2]], first: usize, labelled: bool) -> Vec<u8> {
    use lopdf::content::{Content, Operation};
    use lopdf::{Document, Object, Stream, dictionary};
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let resources = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font } });
    let mut kids: Vec<Object> = Vec::new();
    for lines in pages.iter().copied() {
        let mut ops = vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 11.into()]),
            Operation::new("TL", vec![14.into()]),
            Operation::new("Td", vec![72.into(), 720.into()]),
        ];
        // A running head above the text and the page number below it: page
        // furniture that must not split the sentence across the break.
        let number = (kids.len() + first).to_string();
        let furnished = std::iter::once("KEEPERS OF THE NORTHERN LIGHTS")
            .chain(lines)
            .chain(std::iter::once(number.as_str()));
        for l in furnished {
            ops.push(Operation::new("Tj", vec![Object::string_literal(l)]));
            ops.push(Operation::new("T*", vec![]));
        }
        ops.push(Operation::new("ET", vec![]));
        let content = Content { operations: ops };
        let stream = doc.add_object(Stream::new(dictionary! {}, content.encode().unwrap()));
        let page = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => stream,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        });
        kids.push(page.into());
    }
    doc.objects.insert(
        pages_id,
        dictionary! { "Type" => "Pages", "Count" => kids.len() as i64, "Kids" => kids, "Resources" => resources }
            .into(),
    );
    let labels = doc.add_object(dictionary! { "Nums" => vec![
        0.into(), dictionary! { "S" => "r" }.into(),
        2.into(), dictionary! { "S" => "D" }.into(),
    ]});
    let mut catalog = dictionary! { "Type" => "Catalog", "Pages" => pages_id };
    if labelled {
        catalog.set("PageLabels", labels);
    }
    let catalog = doc.add_object(catalog);
    doc.trailer.set("Root", catalog);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

#[test]
fn page_labels_from_i_and_a_quote_across_a_page_break() {
    let sources = tempfile::tempdir().unwrap();
    std::fs::write(sources.path().join("keepers.pdf"), labelled_pdf()).unwrap();
    let idx = tempfile::tempdir().unwrap();
    let out = verify(
        sources.path(),
        idx.path(),
        &fixture("keepers.md"),
        &fixture("keepers.bib"),
        true,
    );
    let rs = results(&out, 3);
    assert_eq!(rs.len(), 4, "{rs:#?}");

    // On the first page, printed "i".
    let r = quote(&rs, "The keepers wrote");
    assert_eq!(r["citation_check"], "ok", "{r:#}");
    assert_eq!(r["page_found"], "i");
    assert_eq!(r["place"], "p. 1", "the physical page stays in place");

    // Cited by its physical page number: wrong, it is printed "i".
    let r = quote(&rs, "the keepers of the northern");
    assert_eq!(r["citation_check"], "wrong_page", "{r:#}");
    assert_eq!(r["citation_note"], "p. i, not p. 1");

    // Across the break from page ii to page 1, inside a sentence.
    let r = quote(&rs, "after a long winter");
    assert_eq!(r["status"], "validated", "{r:#}");
    assert_eq!(r["spans"].as_array().unwrap().len(), 2);
    assert_eq!(r["page_found"], "ii–1");
    assert_eq!(r["citation_check"], "ok");
    assert_eq!(
        r["cite_as"],
        "“after a long winter of complaints from the fishermen the board ordered a second horn \
         from the makers in Leith” [@ness1901, pp. ii–1]"
    );

    // The same quote cited at one page it is not on.
    let r = quote(&rs, "the board ordered");
    assert_eq!(r["citation_check"], "wrong_page", "{r:#}");
    assert_eq!(r["page_found"], "ii–1");
}

/// An article printed on pp. 291–294 in a PDF that does not label its
/// pages (as most journal PDFs): its four pages are the article's, so a
/// quote on the third is on p. 293, and `p. 3` is the wrong page. When the
/// file's pages are not the article's (a cover page, say), the page is not
/// checked, and no page is recommended.
#[test]
fn an_articles_pages_are_counted_from_its_first_printed_page() {
    let sources = tempfile::tempdir().unwrap();
    std::fs::write(sources.path().join("keepers.pdf"), keepers_pdf(false)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let draft = dir.path().join("draft.md");
    std::fs::write(
        &draft,
        "As Ness has it, “The new horn was heard eleven miles out on the calmest of \
         evenings” [@ness1901, p. 293].\n\nOr “The wife of the principal keeper kept the \
         accounts of the station” [@ness1901, p. 4].\n",
    )
    .unwrap();
    let bib = |pages: &str| {
        let b = dir.path().join(format!("{pages}.bib"));
        let text = std::fs::read_to_string(fixture("keepers.bib"))
            .unwrap()
            .replacen("@book{", "@article{", 1)
            .replacen("  date", &format!("  pages = {{{pages}}},\n  date"), 1);
        std::fs::write(&b, text).unwrap();
        b
    };
    let idx = tempfile::tempdir().unwrap();
    let rs = results(
        &verify(sources.path(), idx.path(), &draft, &bib("291--294"), true),
        3,
    );
    let r = quote(&rs, "The new horn");
    assert_eq!(r["citation_check"], "ok", "{r:#}");
    assert_eq!(r["page_found"], "293");
    let r = quote(&rs, "The wife");
    assert_eq!(r["citation_check"], "wrong_page", "{r:#}");
    assert_eq!(r["citation_note"], "p. 294, not p. 4");
    assert!(
        r["cite_as"]
            .as_str()
            .unwrap()
            .ends_with("[@ness1901, p. 294]"),
        "{r:#}"
    );

    let rs = results(
        &verify(sources.path(), idx.path(), &draft, &bib("291--300"), true),
        0,
    );
    for start in ["The new horn", "The wife"] {
        let r = quote(&rs, start);
        assert_eq!(r["citation_check"], "ok", "{r:#}");
        assert!(r["page_found"].is_null(), "{r:#}");
        assert!(
            r["citation_note"]
                .as_str()
                .unwrap()
                .contains("page was not checked"),
            "{r:#}"
        );
        assert!(
            r["cite_as"].as_str().unwrap().ends_with("[@ness1901]"),
            "{r:#}"
        );
    }
}

/// A work with its PDF and a web snapshot of it (Zotero's usual pair): a
/// page cited is checked in the PDF, though the snapshot holds the words
/// too (it sorts first and has no pages, so the page went unchecked).
#[test]
fn a_page_is_checked_in_the_works_pdf_not_its_snapshot() {
    let sources = tempfile::tempdir().unwrap();
    std::fs::write(sources.path().join("keepers.pdf"), labelled_pdf()).unwrap();
    std::fs::write(
        sources.path().join("keepers-snapshot.html"),
        "<html><body><p>The new horn was heard eleven miles out on the calmest of \
         evenings.</p></body></html>",
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let bib = dir.path().join("k.bib");
    std::fs::write(
        &bib,
        std::fs::read_to_string(fixture("keepers.bib"))
            .unwrap()
            .replace(
                "application/pdf}",
                "application/pdf;Snapshot:/z/keepers-snapshot.html:text/html}",
            ),
    )
    .unwrap();
    let draft = dir.path().join("d.md");
    std::fs::write(
        &draft,
        "“The new horn was heard eleven miles out on the calmest of evenings” [@ness1901, p. 2].\n",
    )
    .unwrap();
    let idx = tempfile::tempdir().unwrap();
    let rs = results(&verify(sources.path(), idx.path(), &draft, &bib, true), 3);
    let r = quote(&rs, "The new horn");
    assert_eq!(r["citation_check"], "wrong_page", "{r:#}");
    assert_eq!(r["citation_note"], "p. 1, not p. 2");
}

/// `ask --bibliography`: each validated quote of a work in the bibliography
/// is cited in the configured style with the printed page label of its
/// page, the answer lists the work's reference, and each candidate's
/// source carries its work's author and year; without a bibliography there
/// is none of it.
#[test]
fn ask_cites_its_quotes_with_page_labels() {
    let sources = tempfile::tempdir().unwrap();
    std::fs::write(sources.path().join("keepers.pdf"), labelled_pdf()).unwrap();
    let idx = tempfile::tempdir().unwrap();
    let ask = |bib: Option<&Path>| {
        let mut cmd = bin();
        cmd.arg("ask")
            .arg(sources.path())
            .arg("How far out at sea was the new horn heard?")
            .args(["--json", "--index-dir"])
            .arg(idx.path());
        if let Some(b) = bib {
            cmd.arg("--bibliography").arg(b);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let o = ask(Some(&fixture("keepers.bib")));
    let s = o["snippets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["content"].as_str().unwrap().contains("eleven miles"))
        .unwrap_or_else(|| panic!("no quote about the horn: {o:#}"));
    assert_eq!(s["status"], "validated");
    // Physical page 3 is printed "1" (labels i, ii, then 1, 2).
    assert_eq!(s["cite"]["page"], "1", "{s:#}");
    assert_eq!(s["cite"]["key"], "ness1901");
    assert_eq!(s["cite"]["author_year"], "Ness 1901");
    assert_eq!(
        s["cite"]["text"],
        "“The new horn was heard eleven miles out on the calmest of evenings.” [@ness1901, p. 1]"
    );
    let refs = o["works"]["references"].as_array().unwrap();
    assert_eq!(refs.len(), 1, "{refs:#?}");
    assert_eq!(refs[0][0], "ness1901");
    let r = refs[0][1].as_str().unwrap();
    assert!(
        r.contains("Ness") && r.contains("Keepers of the Northern Lights"),
        "{r}"
    );
    assert_eq!(o["works"]["by_source"]["keepers.pdf"], "Ness 1901");

    let plain = ask(None);
    assert!(plain.get("works").is_none(), "{plain:#}");
    assert!(
        plain["snippets"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s.get("cite").is_none())
    );
}

/// Two works by one author in one year, cited without the letter an
/// author-date style gives them: the citation names neither, whichever
/// holds the words (the red team's two Stevensons of 1824 were both "ok").
#[test]
fn an_unlettered_citation_of_two_works_of_a_year_names_neither() {
    let sources = tempfile::tempdir().unwrap();
    std::fs::write(
        sources.path().join("families.md"),
        "# Families\n\nEach keeper was allowed one month of leave every year.\n",
    )
    .unwrap();
    std::fs::write(
        sources.path().join("engineering.md"),
        "# Engineering\n\nThe tower was built of granite dovetailed course by course.\n",
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let bib = dir.path().join("s.bib");
    std::fs::write(
        &bib,
        "@book{famA, author = {Stevenson, Robert}, title = {Families}, year = {1824},\n\
         file = {/z/families.md}}\n\
         @book{engB, author = {Stevenson, Robert}, title = {Engineering}, year = {1824},\n\
         file = {/z/engineering.md}}\n",
    )
    .unwrap();
    let draft = dir.path().join("d.md");
    std::fs::write(
        &draft,
        "“Each keeper was allowed one month of leave every year” (Stevenson 1824).\n\n\
         “The tower was built of granite dovetailed course by course” (Stevenson 1824a).\n",
    )
    .unwrap();
    let idx = tempfile::tempdir().unwrap();
    let rs = results(&verify(sources.path(), idx.path(), &draft, &bib, true), 3);
    let r = quote(&rs, "Each keeper");
    assert_eq!(r["citation_check"], "unknown_key", "{r:#}");
    let note = r["citation_note"].as_str().unwrap();
    assert!(note.contains("@famA") && note.contains("1824a"), "{note}");
    // Lettered, it names one, in title order: Engineering, then Families.
    assert_eq!(quote(&rs, "The tower")["citation_check"], "ok");
}

/// A sentence its work prints twice (an abstract's, again in the
/// conclusion), cited at its second page: on the page cited, not "wrong
/// page" with the first suggested (the red team's article).
#[test]
fn a_sentence_printed_twice_is_found_on_the_page_cited() {
    let pages = [
        [
            "Lighthouse keepers were the first meteorologists of the coast.",
            "This article reads their logs from the year of the great storm.",
        ],
        [
            "The logs record the wind and the sea every four hours at least.",
            "Some keepers added the clouds, and a few the colour of the sky.",
        ],
        [
            "In short, as we said at the start of this article on the logs:",
            "Lighthouse keepers were the first meteorologists of the coast.",
        ],
    ];
    let sources = tempfile::tempdir().unwrap();
    std::fs::write(
        sources.path().join("keepers.pdf"),
        numbered_pdf(&pages, 101, false),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let draft = dir.path().join("draft.md");
    std::fs::write(
        &draft,
        "“Lighthouse keepers were the first meteorologists of the coast” [@ness1901, p. 103].\n\n\
         “The logs record the wind and the sea every four hours” [@ness1901, p. 103].\n",
    )
    .unwrap();
    let idx = tempfile::tempdir().unwrap();
    let rs = results(
        &verify(
            sources.path(),
            idx.path(),
            &draft,
            &fixture("keepers.bib"),
            true,
        ),
        3,
    );
    let r = quote(&rs, "Lighthouse keepers");
    assert_eq!(r["citation_check"], "ok", "{r:#}");
    assert_eq!(r["page_found"], "103");
    let r = quote(&rs, "The logs record");
    assert_eq!(r["citation_check"], "wrong_page", "{r:#}");
    assert_eq!(r["citation_note"], "p. 102, not p. 103");
}
