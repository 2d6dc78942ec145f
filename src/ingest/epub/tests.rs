use super::*;
use std::io::Write;

/// A small EPUB 3: `chapters` as XHTML bodies, in spine order, plus a
/// navigation document, a cover image (in the spine, as many books
/// have it) and a style sheet that hides the class `hid`.
pub(crate) fn make_epub(title: &str, author: &str, chapters: &[&str]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    let mut put_bytes = |name: &str, body: &[u8]| {
        w.start_file(name, opts).unwrap();
        w.write_all(body).unwrap();
    };
    put_bytes(
        "OEBPS/images/cover.jpg",
        b"\xff\xd8\xff\xe0\x00\x10JFIF\x00",
    );
    put_bytes("OEBPS/styles/book.css", b"p .hid { display: none }");
    let mut put = |name: &str, body: &str| put_bytes(name, body.as_bytes());
    put("mimetype", "application/epub+zip");
    put(
        "META-INF/container.xml",
        r#"<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#,
    );
    let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;");
    let mut manifest = String::from(
        r#"<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="cover" href="images/cover.jpg" media-type="image/jpeg"/><item id="css" href="styles/book.css" media-type="text/css"/>"#,
    );
    let mut spine = String::from(r#"<itemref idref="cover"/><itemref idref="nav" linear="no"/>"#);
    // Listed in reverse in the manifest: the spine decides the order.
    for i in (0..chapters.len()).rev() {
        manifest.push_str(&format!(
            r#"<item id="c{i}" href="text/chapter%20{i}.xhtml" media-type="application/xhtml+xml"/>"#
        ));
    }
    for i in 0..chapters.len() {
        spine.push_str(&format!(r#"<itemref idref="c{i}"/>"#));
    }
    put(
        "OEBPS/content.opf",
        &format!(
            r#"<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{}</dc:title><dc:creator>{}</dc:creator></metadata><manifest>{manifest}</manifest><spine>{spine}</spine></package>"#,
            esc(title),
            esc(author)
        ),
    );
    put(
        "OEBPS/nav.xhtml",
        "<html><body><nav><ol><li>Contents entry that is not text</li></ol></nav></body></html>",
    );
    for (i, c) in chapters.iter().enumerate() {
        put(
            &format!("OEBPS/text/chapter {i}.xhtml"),
            &format!("<html><head><title>ch</title></head><body>{c}</body></html>"),
        );
    }
    w.finish().unwrap().into_inner()
}

#[test]
fn reads_the_spine_in_order_with_package_metadata() {
    let bytes = make_epub(
        "Lights & Keepers",
        "Ann Lee",
        &[
            "<h1>One</h1><p>The keeper lit the lamp at dusk.</p>",
            "<h1>Two</h1><p>The relief boat came in <em>spring</em><span class=\"hid\"> never</span>.</p>",
        ],
    );
    // The cover image in the spine is not read, and the rest is; the
    // book's style sheet hides its class.
    let ex = extract(&bytes, 1 << 20).unwrap();
    assert!(!ex.text.contains("never"), "{}", ex.text);
    assert!(!ex.text.contains("JFIF"), "{}", ex.text);
    assert_eq!(ex.title.as_deref(), Some("Lights & Keepers"));
    assert_eq!(ex.author.as_deref(), Some("Ann Lee"));
    let one = ex.text.find("The keeper lit the lamp at dusk.").unwrap();
    let two = ex
        .text
        .find("The relief boat came in spring")
        .expect(&ex.text);
    assert!(one < two, "{}", ex.text);
    assert!(!ex.text.contains("Contents entry"), "{}", ex.text);
    assert!(!ex.text.contains("not text"), "{}", ex.text);
    for b in &ex.blocks {
        assert!(ex.text.is_char_boundary(b.start) && ex.text.is_char_boundary(b.end));
    }
    let headings: Vec<_> = ex
        .blocks
        .iter()
        .filter_map(|b| match &b.kind {
            super::super::BlockKind::Heading { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(headings, ["One", "Two"]);
}

#[test]
fn broken_books_are_reasons_not_crashes() {
    assert!(
        extract(b"PK\x03\x04 nope", 1 << 20)
            .unwrap_err()
            .contains("not a zip")
    );
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    w.start_file("mimetype", zip::write::SimpleFileOptions::default())
        .unwrap();
    let no_container = w.finish().unwrap().into_inner();
    assert!(
        extract(&no_container, 1 << 20)
            .unwrap_err()
            .contains("META-INF/container.xml")
    );
    // A chapter that inflates past the budget.
    let big = "<p>".to_string() + &"word ".repeat(50_000) + "</p>";
    let err = extract(&make_epub("t", "a", &[&big]), 1000).unwrap_err();
    assert!(err.contains("too large"), "{err}");
}

#[test]
fn hrefs_resolve_against_the_package_folder() {
    assert_eq!(
        resolve("OEBPS/", "text/a%20b.xhtml#x"),
        "OEBPS/text/a b.xhtml"
    );
    assert_eq!(resolve("OEBPS/text/", "../ch.xhtml"), "OEBPS/ch.xhtml");
    assert_eq!(resolve("", "ch.xhtml"), "ch.xhtml");
    assert_eq!(percent_decode("100%"), "100%");
}

/// A book of `files` (names under `OEBPS/`) with this manifest and spine.
fn book(manifest: &str, spine: &str, files: &[(&str, &str)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    let mut put = |name: &str, body: &str| {
        w.start_file(name, opts).unwrap();
        w.write_all(body.as_bytes()).unwrap();
    };
    put("mimetype", "application/epub+zip");
    put(
        "META-INF/container.xml",
        r#"<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#,
    );
    put(
        "OEBPS/content.opf",
        &format!(
            r#"<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Book</dc:title></metadata><manifest>{manifest}</manifest><spine>{spine}</spine></package>"#
        ),
    );
    for (name, body) in files {
        put(&format!("OEBPS/{name}"), body);
    }
    w.finish().unwrap().into_inner()
}

/// An XHTML page: `head` (its links) and `body`.
fn page(head: &str, body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title>{head}</head><body>{body}</body></html>"#
    )
}

/// A manifest of XHTML items `c0`, `c1`, … and a spine of them, in order.
fn chapters(n: usize) -> (String, String) {
    let manifest = (0..n)
        .map(|i| {
            format!(r#"<item id="c{i}" href="c{i}.xhtml" media-type="application/xhtml+xml"/>"#)
        })
        .collect();
    let spine = (0..n)
        .map(|i| format!(r#"<itemref idref="c{i}"/>"#))
        .collect();
    (manifest, spine)
}

/// Is `quote` validated against the book, as `verify` validates it (its
/// chunks, adjacent ones joined)?
fn validated(bytes: &[u8], quote: &str) -> bool {
    use crate::validate::{ChunkRef, Status, Validator, adjacency};
    let ex = crate::ingest::extract(crate::ingest::Format::Epub, bytes, &Default::default())
        .expect("a book");
    let chunks = crate::chunk::chunk_document("b.epub", "Book", &ex, Default::default());
    let refs: Vec<ChunkRef<'_>> = chunks.iter().map(ChunkRef::from).collect();
    let places: Vec<(&str, usize, usize)> = chunks
        .iter()
        .map(|c| (c.source_id.as_str(), c.start, c.end))
        .collect();
    let v = Validator::new(&refs).with_adjacency(adjacency(&places, 4));
    v.validate(quote, "b.epub", &Default::default()).status == Status::Validated
}

/// Red team, round 22, finding 01: a `linear="no"` item (notes reached by
/// a link) is read after the reading order, apart: no quote runs from the
/// end of a chapter into it, and it is still quoted alone.
#[test]
fn red_team_22_a_non_linear_item_is_read_after_the_reading_order_apart() {
    let manifest = r#"<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="notes" href="notes.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/>"#;
    let spine = r#"<itemref idref="c1"/><itemref idref="notes" linear="no"/><itemref idref="c2"/>"#;
    let bytes = book(
        manifest,
        spine,
        &[
            (
                "c1.xhtml",
                &page(
                    "",
                    "<h1>One</h1><p>The keeper walked to the end of the pier and the keeper was</p>",
                ),
            ),
            (
                "notes.xhtml",
                &page(
                    "",
                    "<p>not guilty of the charge, the court later found in a second hearing.</p>",
                ),
            ),
            (
                "c2.xhtml",
                &page("", "<h1>Two</h1><p>Then the boat sank.</p>"),
            ),
        ],
    );
    let ex = extract(&bytes, 1 << 20).unwrap();
    let two = ex.text.find("Then the boat sank.").expect(&ex.text);
    let notes = ex.text.find("not guilty").expect(&ex.text);
    assert!(two < notes, "{}", ex.text);
    assert!(!validated(
        &bytes,
        "the pier and the keeper was not guilty of the charge"
    ));
    assert!(!validated(
        &bytes,
        "Then the boat sank. not guilty of the charge"
    ));
    assert!(validated(
        &bytes,
        "not guilty of the charge, the court later found in a second hearing."
    ));
    assert!(validated(
        &bytes,
        "The keeper walked to the end of the pier and the keeper was"
    ));
}

/// Red team, round 22, finding 02: a spine item starts a page of its own
/// in every reader: no quote runs from the end of one into the next.
#[test]
fn red_team_22_no_quote_runs_across_spine_items() {
    let (manifest, spine) = chapters(2);
    let bytes = book(
        &manifest,
        &spine,
        &[
            (
                "c0.xhtml",
                &page(
                    "",
                    "<h1>One</h1><p>The keeper walked to the end of the pier</p>",
                ),
            ),
            (
                "c1.xhtml",
                &page("", "<p>and the boat sank in the storm that night.</p>"),
            ),
        ],
    );
    assert!(!validated(
        &bytes,
        "The keeper walked to the end of the pier and the boat sank in the storm that night."
    ));
    assert!(validated(
        &bytes,
        "and the boat sank in the storm that night."
    ));
}

proptest::proptest! {
    #![proptest_config(crate::cases(24))]

    /// Finding 02 as a family: whatever the two chapters say and wherever
    /// the quote starts and ends, one running across their boundary is
    /// not validated, and the end of either alone is.
    #[test]
    fn red_team_22_no_quote_runs_across_spine_items_whatever_they_say(
        a in proptest::collection::vec("[a-z]{2,8}", 8..40),
        b in proptest::collection::vec("[a-z]{2,8}", 8..40),
        from_a in 6usize..8,
        into_b in 1usize..8,
    ) {
        let (manifest, spine) = chapters(2);
        let bytes = book(
            &manifest,
            &spine,
            &[
                ("c0.xhtml", &page("", &format!("<p>{}</p>", a.join(" ")))),
                ("c1.xhtml", &page("", &format!("<p>{}</p>", b.join(" ")))),
            ],
        );
        let quote = format!(
            "{} {}",
            a[a.len() - from_a..].join(" "),
            b[..into_b].join(" ")
        );
        proptest::prop_assert!(!validated(&bytes, &quote), "{}", quote);
        let tail = a[a.len() - from_a..].join(" ");
        proptest::prop_assert!(validated(&bytes, &tail), "{}", tail);
    }
}

/// Red team, round 22, finding 03: a sheet the chapter links, or one a
/// sheet imports, is applied though the manifest does not list it, found
/// by its path in the archive (relative to the file that names it).
#[test]
fn red_team_22_sheets_a_chapter_links_apply_outside_the_manifest() {
    let (manifest, spine) = chapters(1);
    let body = r#"<h1>One</h1><p>The jury met at noon. The keeper was <span class="x">not</span> guilty of the charge that day.</p>"#;
    let hide = ".x{display:none}";
    let main_css = format!(r#"<item id="m" href="main.css" media-type="text/css"/>{manifest}"#);
    for (manifest, files) in [
        // Linked, not in the manifest.
        (
            manifest.clone(),
            vec![
                (
                    "c0.xhtml",
                    page(r#"<link rel="stylesheet" href="hide.css"/>"#, body),
                ),
                ("hide.css", hide.into()),
            ],
        ),
        // Linked from a folder of its own, by `..`.
        (
            manifest.clone(),
            vec![
                (
                    "c0.xhtml",
                    page(
                        r#"<link rel="stylesheet" href="../OEBPS/css/hide.css"/>"#,
                        body,
                    ),
                ),
                ("css/hide.css", hide.into()),
            ],
        ),
        // Imported by a manifest sheet, relative to that sheet.
        (
            main_css.clone(),
            vec![
                (
                    "c0.xhtml",
                    page(r#"<link rel="stylesheet" href="main.css"/>"#, body),
                ),
                ("main.css", r#"@import url("css/a.css");"#.into()),
                ("css/a.css", "@import 'b.css' screen;".into()),
                ("css/b.css", hide.into()),
            ],
        ),
        // Imported by the chapter's own style element; a sheet that
        // imports itself is read once.
        (
            manifest.clone(),
            vec![
                (
                    "c0.xhtml",
                    page(r#"<style>@import "loop.css";</style>"#, body),
                ),
                ("loop.css", format!("@import 'loop.css'; {hide}")),
            ],
        ),
    ] {
        let files: Vec<(&str, &str)> = files.iter().map(|(n, b)| (*n, b.as_str())).collect();
        let bytes = book(&manifest, &spine, &files);
        let ex = extract(&bytes, 1 << 20).unwrap();
        assert!(!ex.text.contains("not"), "{files:?}: {}", ex.text);
        assert!(!validated(
            &bytes,
            "The keeper was not guilty of the charge that day."
        ));
    }
    // A sheet for print only, or an alternate one, is not the screen's.
    for link in [
        r#"<link rel="stylesheet" media="print" href="hide.css"/>"#,
        r#"<link rel="alternate stylesheet" href="hide.css"/>"#,
    ] {
        let bytes = book(
            &manifest,
            &spine,
            &[("c0.xhtml", &page(link, body)), ("hide.css", hide)],
        );
        assert!(
            extract(&bytes, 1 << 20)
                .unwrap()
                .text
                .contains("was not guilty"),
            "{link}"
        );
    }
}

/// Red team, round 22, finding 08: an id the manifest gives two files is
/// read as neither (readers differ on which they show): a mark, and the
/// items either side still read, apart.
#[test]
fn red_team_22_an_ambiguous_manifest_id_reads_neither_item() {
    let manifest = r#"<item id="a" href="a.xhtml" media-type="application/xhtml+xml"/><item id="c1" href="decoy.xhtml" media-type="application/xhtml+xml"/><item id="c1" href="real.xhtml" media-type="application/xhtml+xml"/><item id="b" href="b.xhtml" media-type="application/xhtml+xml"/>"#;
    let files = [
        (
            "a.xhtml",
            page("", "<h1>One</h1><p>The inquiry sat for a week.</p>"),
        ),
        (
            "decoy.xhtml",
            page(
                "",
                "<p>The keeper was not guilty of neglect by the board.</p>",
            ),
        ),
        (
            "real.xhtml",
            page("", "<p>The keeper was guilty of neglect by the board.</p>"),
        ),
        (
            "b.xhtml",
            page("", "<p>The board then closed the light.</p>"),
        ),
    ];
    let files: Vec<(&str, &str)> = files.iter().map(|(n, b)| (*n, b.as_str())).collect();
    let bytes = book(
        manifest,
        r#"<itemref idref="a"/><itemref idref="c1"/><itemref idref="b"/>"#,
        &files,
    );
    let ex = extract(&bytes, 1 << 20).unwrap();
    assert!(!ex.text.contains("neglect"), "{}", ex.text);
    assert!(
        ex.text
            .contains("The inquiry sat for a week.\n\n\u{FFFC}\n\nThe board then"),
        "{}",
        ex.text
    );
    // The same file listed twice under one id is not ambiguous.
    let twice = r#"<item id="c1" href="real.xhtml" media-type="application/xhtml+xml"/><item id="c1" href="real.xhtml" media-type="application/xhtml+xml"/>"#;
    let bytes = book(twice, r#"<itemref idref="c1"/>"#, &files);
    assert!(
        extract(&bytes, 1 << 20)
            .unwrap()
            .text
            .contains("was guilty of neglect")
    );
    // A book of nothing but an ambiguous item has no text.
    let dup = r#"<item id="c1" href="decoy.xhtml" media-type="application/xhtml+xml"/><item id="c1" href="real.xhtml" media-type="application/xhtml+xml"/>"#;
    assert!(extract(&book(dup, r#"<itemref idref="c1"/>"#, &files), 1 << 20).is_err());
}
