//! EPUB (2 and 3): the XHTML documents of the spine, in reading order, each
//! read as HTML; the title and author from the package metadata
//! (`dc:title`, `dc:creator`). The navigation document and anything outside
//! the spine (covers, images) are not text, nor an image the spine lists;
//! the book's style sheets, and those a chapter links or they import,
//! apply to its chapters. Each spine item is a passage apart: a reader
//! starts it on a page of its own, and reaches one out of the reading
//! order (`linear="no"`) only by a link, so those are read after the
//! rest. Reading is bounded so that a zip bomb cannot exhaust memory.

use super::sheet::percent_decode;
use super::{BlockKind, Extracted, html, xml_attr as attr};
use quick_xml::events::Event;
use std::collections::HashMap;
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
    // Style sheets by their name in the archive, each inflated once
    // however many chapters link it (`None`: not in the archive).
    let mut sheets: HashMap<String, Option<String>> = HashMap::new();
    // The book's style sheets apply to its chapters, as a reader applies
    // them: text they hide is not text. (All of them to every chapter:
    // books keep one or two.)
    let mut css = String::new();
    for href in &package.styles {
        let name = resolve(base, href);
        if let Some(sheet) = sheet(&mut zip, &mut sheets, &mut budget, &name) {
            let mut fetch =
                |from: &str, href: &str| linked(&mut zip, &mut sheets, &mut budget, from, href);
            css.push_str(&super::sheet::with_imports(&name, &sheet, &mut fetch));
        }
    }
    for item in &package.spine {
        let Some(href) = item else {
            // An item the book names ambiguously: a mark, no text.
            mark(&mut out);
            continue;
        };
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
        let mut fetch =
            |from: &str, href: &str| linked(&mut zip, &mut sheets, &mut budget, from, href);
        append(
            &mut out,
            html::extract_styled(&text, &name, &css, &mut fetch),
        );
        if out.text.len() > max_text_bytes {
            break; // the caller reports the size
        }
    }
    if !out.has_words() {
        return Err("malformed EPUB: no readable chapters in its spine".into());
    }
    Ok(out)
}

/// A style sheet in the archive, read within the budget (once).
fn sheet<R: Read + Seek>(
    zip: &mut zip::ZipArchive<R>,
    sheets: &mut HashMap<String, Option<String>>,
    budget: &mut usize,
    name: &str,
) -> Option<String> {
    sheets
        .entry(name.to_string())
        .or_insert_with(|| {
            let bytes = read_bytes(zip, name, budget).ok()?;
            Some(String::from_utf8_lossy(&bytes).into_owned())
        })
        .clone()
}

/// The sheet that the file `from` links or imports as `href`, found in the
/// archive by its path, whether the manifest lists it or not (a reader
/// loads the file the chapter names).
fn linked<R: Read + Seek>(
    zip: &mut zip::ZipArchive<R>,
    sheets: &mut HashMap<String, Option<String>>,
    budget: &mut usize,
    from: &str,
    href: &str,
) -> Option<(String, String)> {
    let folder = from.rfind('/').map_or("", |i| &from[..=i]);
    let name = resolve(folder, href);
    let css = sheet(zip, sheets, budget, &name)?;
    Some((name, css))
}

/// End the passage before the next spine item: a reader shows that on a
/// new page, so no quote runs from one into the other.
fn apart(out: &mut Extracted) {
    if !out.text.is_empty() {
        mark(out);
    }
}

/// A mark where text is not read, unless the text ends with one already.
fn mark(out: &mut Extracted) {
    use crate::text::HIDDEN_MARK;
    if !out.text.ends_with(HIDDEN_MARK) {
        out.push(BlockKind::Para, HIDDEN_MARK.encode_utf8(&mut [0; 4]), None);
    }
}

/// Append one spine item's text and blocks, a mark apart from the last.
fn append(out: &mut Extracted, chapter: Extracted) {
    if chapter.text.trim().is_empty() {
        return;
    }
    apart(out);
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
    /// Hrefs (relative to the package file) of the spine's documents: in
    /// the reading order, then those out of it (`linear="no"`), each
    /// once. `None`: an item whose id the manifest gives to more than one
    /// file.
    ///
    /// Such a book is invalid (epubcheck's RSC-005) and readers differ on
    /// it: one that keys its manifest by id shows the last file (epub.js,
    /// Calibre), one that searches it the first. Neither is read: which
    /// text the reader shows there is not known, so none is quoted, and a
    /// mark keeps the items either side apart.
    spine: Vec<Option<String>>,
    /// Hrefs of the book's style sheets.
    styles: Vec<String>,
}

impl Package {
    fn parse(xml: &str) -> Result<Package, String> {
        let mut r = quick_xml::Reader::from_str(xml);
        let mut p = Package::default();
        // Manifest items: id → (href, is the navigation document).
        let mut items: Vec<(String, String, bool)> = Vec::new();
        // The spine's ids, and whether each is in the reading order.
        let mut idrefs: Vec<(String, bool)> = Vec::new();
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
                            let linear = attr(&e, b"linear")
                                .is_none_or(|v| !v.trim().eq_ignore_ascii_case("no"));
                            idrefs.push((id, linear));
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
        // The reading order first; what is out of it after.
        idrefs.sort_by_key(|(_, linear)| !linear);
        for (id, _) in idrefs {
            let mut named = items.iter().filter(|(i, _, _)| *i == id);
            let Some((_, href, nav)) = named.next() else {
                continue;
            };
            if named.any(|(_, other, _)| other != href) {
                p.spine.push(None);
            } else if !nav && !p.spine.iter().flatten().any(|h| h == href) {
                p.spine.push(Some(href.clone()));
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

#[cfg(test)]
pub(crate) mod tests;
