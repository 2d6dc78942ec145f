//! EPUB (2 and 3): the XHTML documents of the spine, in reading order, each
//! read as HTML; the title and author from the package metadata
//! (`dc:title`, `dc:creator`). The navigation document and anything outside
//! the spine (covers, images) are not text, nor an image the spine lists;
//! the book's style sheets apply to its chapters. Reading is bounded
//! so that a zip bomb cannot exhaust memory.

use super::{Extracted, html, xml_attr as attr};
use quick_xml::events::Event;
use std::io::{Cursor, Read, Seek};

pub fn extract(bytes: &[u8], max_text_bytes: usize) -> Result<Extracted, String> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| format!("malformed EPUB: not a zip archive ({e})"))?;
    // What may be inflated in all: markup is several times its text.
    let mut budget = max_text_bytes.saturating_mul(8);
    let container = read_entry(&mut zip, "META-INF/container.xml", &mut budget)?;
    let opf_path = rootfile(&container)
        .ok_or("malformed EPUB: META-INF/container.xml names no package file")?;
    let opf = read_entry(&mut zip, &opf_path, &mut budget)?;
    let package = Package::parse(&opf)?;
    let base = match opf_path.rfind('/') {
        Some(i) => &opf_path[..=i],
        None => "",
    };
    let mut out = Extracted {
        title: package.title,
        author: package.author,
        ..Default::default()
    };
    // The book's style sheets apply to its chapters, as a reader applies
    // them: text they hide is not text. (All of them to every chapter:
    // books keep one or two.)
    let mut css = String::new();
    for href in &package.styles {
        if let Ok(bytes) = read_bytes(&mut zip, &resolve(base, href), &mut budget) {
            css.push_str(&String::from_utf8_lossy(&bytes));
            css.push('\n');
        }
    }
    for href in &package.spine {
        let name = resolve(base, href);
        let Ok(doc) = read_bytes(&mut zip, &name, &mut budget) else {
            // A spine entry missing from the archive: the rest still reads.
            if budget == 0 {
                return Err(format!(
                    "too large: the book inflates past {} MB",
                    max_text_bytes.saturating_mul(8) >> 20
                ));
            }
            continue;
        };
        // An image or other document that is not text in the spine (a
        // cover): not read; the chapters are.
        let Ok((text, _)) = super::decode::decode(&doc) else {
            continue;
        };
        append(&mut out, html::extract_styled(&text, &css));
        if out.text.len() > max_text_bytes {
            break; // the caller reports the size
        }
    }
    if out.text.is_empty() {
        return Err("malformed EPUB: no readable chapters in its spine".into());
    }
    Ok(out)
}

/// Append one chapter's text and blocks, a blank line apart.
fn append(out: &mut Extracted, chapter: Extracted) {
    if chapter.text.trim().is_empty() {
        return;
    }
    if !out.text.is_empty() {
        out.text.push_str("\n\n");
    }
    let shift = out.text.len();
    out.text.push_str(&chapter.text);
    out.blocks.extend(chapter.blocks.into_iter().map(|mut b| {
        b.start += shift;
        b.end += shift;
        b
    }));
}

fn read_bytes<R: Read + Seek>(
    zip: &mut zip::ZipArchive<R>,
    name: &str,
    budget: &mut usize,
) -> Result<Vec<u8>, String> {
    let entry = zip
        .by_name(name)
        .map_err(|_| format!("malformed EPUB: no {name}"))?;
    let mut buf = Vec::new();
    entry
        .take(*budget as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("malformed EPUB: cannot inflate {name} ({e})"))?;
    if buf.len() > *budget {
        *budget = 0;
        return Err(format!("too large: {name} inflates past the limit"));
    }
    *budget -= buf.len();
    Ok(buf)
}

fn read_entry<R: Read + Seek>(
    zip: &mut zip::ZipArchive<R>,
    name: &str,
    budget: &mut usize,
) -> Result<String, String> {
    let bytes = read_bytes(zip, name, budget)?;
    Ok(super::decode::decode(&bytes)?.0.into_owned())
}

/// `full-path` of the first `rootfile` in `META-INF/container.xml`.
fn rootfile(xml: &str) -> Option<String> {
    let mut r = quick_xml::Reader::from_str(xml);
    loop {
        match r.read_event().ok()? {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"rootfile" => {
                return attr(&e, b"full-path").filter(|p| !p.is_empty());
            }
            Event::Eof => return None,
            _ => {}
        }
    }
}

/// What the package file says: metadata and the reading order.
#[derive(Debug, Default, PartialEq)]
struct Package {
    title: Option<String>,
    author: Option<String>,
    /// Hrefs (relative to the package file) of the spine's documents.
    spine: Vec<String>,
    /// Hrefs of the book's style sheets.
    styles: Vec<String>,
}

impl Package {
    fn parse(xml: &str) -> Result<Package, String> {
        let mut r = quick_xml::Reader::from_str(xml);
        let mut p = Package::default();
        // Manifest items: id → (href, is the navigation document).
        let mut items: Vec<(String, String, bool)> = Vec::new();
        let mut idrefs: Vec<String> = Vec::new();
        let mut field: Option<&'static str> = None;
        let mut text = String::new();
        loop {
            let ev = r
                .read_event()
                .map_err(|e| format!("malformed EPUB: bad package XML ({e})"))?;
            match ev {
                Event::Start(e) | Event::Empty(e) => match e.local_name().as_ref() {
                    b"title" if p.title.is_none() => field = Some("title"),
                    b"creator" if p.author.is_none() => field = Some("creator"),
                    b"item" => {
                        if let (Some(id), Some(href)) = (attr(&e, b"id"), attr(&e, b"href")) {
                            let nav = attr(&e, b"properties")
                                .is_some_and(|v| v.split_whitespace().any(|x| x == "nav"));
                            if attr(&e, b"media-type").as_deref() == Some("text/css") {
                                p.styles.push(href.clone());
                            }
                            items.push((id, href, nav));
                        }
                    }
                    b"itemref" => {
                        if let Some(id) = attr(&e, b"idref") {
                            idrefs.push(id);
                        }
                    }
                    _ => {}
                },
                Event::Text(t) if field.is_some() => {
                    text.push_str(&t.xml_content().unwrap_or_default());
                }
                Event::GeneralRef(e) if field.is_some() => {
                    // &amp; and friends inside a title.
                    let name = String::from_utf8_lossy(e.as_ref()).into_owned();
                    text.push_str(match name.as_str() {
                        "amp" => "&",
                        "lt" => "<",
                        "gt" => ">",
                        "quot" => "\"",
                        "apos" => "'",
                        _ => "",
                    });
                }
                Event::End(_) => {
                    let value = super::collapse_ws(&std::mem::take(&mut text));
                    match field.take() {
                        Some("title") if !value.is_empty() => p.title = Some(value),
                        Some("creator") if !value.is_empty() => p.author = Some(value),
                        _ => {}
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        for id in idrefs {
            if let Some((_, href, nav)) = items.iter().find(|(i, _, _)| *i == id)
                && !nav
                && !p.spine.contains(href)
            {
                p.spine.push(href.clone());
            }
        }
        if p.spine.is_empty() {
            return Err("malformed EPUB: the package file has an empty spine".into());
        }
        Ok(p)
    }
}

/// A spine href as a name in the archive: relative to the package file's
/// folder, percent-decoded, without a fragment, `..` resolved.
fn resolve(base: &str, href: &str) -> String {
    let href = href.split('#').next().unwrap_or_default();
    let decoded = percent_decode(href);
    let mut parts: Vec<&str> = Vec::new();
    let joined = if decoded.starts_with('/') {
        decoded.trim_start_matches('/').to_string()
    } else {
        format!("{base}{decoded}")
    };
    for seg in joined.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
pub(crate) mod tests {
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
        let mut spine =
            String::from(r#"<itemref idref="cover"/><itemref idref="nav" linear="no"/>"#);
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
}
