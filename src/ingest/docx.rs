//! Word (.docx): paragraphs of `word/document.xml` in order; paragraph styles
//! `Title` and `HeadingN` become headings. Reading is bounded so that a zip
//! bomb cannot exhaust memory.

use super::{BlockKind, Extracted, xml_attr as attr};
use quick_xml::events::Event;
use std::io::{Cursor, Read};

pub fn extract(bytes: &[u8], max_text_bytes: usize) -> Result<Extracted, String> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| format!("malformed DOCX: not a zip archive ({e})"))?;
    let xml = read_entry(
        &mut zip,
        "word/document.xml",
        max_text_bytes.saturating_mul(8),
    )?;
    let title = read_entry(&mut zip, "docProps/core.xml", 1 << 20)
        .ok()
        .and_then(|core| core_title(&core));
    let hidden_styles = read_entry(&mut zip, "word/styles.xml", 8 << 20)
        .map(|x| hidden_styles(&x))
        .unwrap_or_default();
    let mut out = parse_document(&xml, &hidden_styles)?;
    if let Some(t) = title {
        out.title = Some(t);
    }
    Ok(out)
}

fn read_entry<R: Read + std::io::Seek>(
    zip: &mut zip::ZipArchive<R>,
    name: &str,
    limit: usize,
) -> Result<String, String> {
    let entry = zip
        .by_name(name)
        .map_err(|_| format!("malformed DOCX: no {name}"))?;
    let mut buf = Vec::new();
    entry
        .take(limit as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("malformed DOCX: cannot inflate {name} ({e})"))?;
    if buf.len() > limit {
        return Err(format!(
            "too large: {name} inflates past {} MB",
            limit >> 20
        ));
    }
    String::from_utf8(buf).map_err(|_| format!("malformed DOCX: {name} is not UTF-8"))
}

/// The styles of `word/styles.xml` that hide their text (`w:vanish` in
/// their run properties, or in a style they are based on).
fn hidden_styles(xml: &str) -> HiddenStyles {
    let mut r = quick_xml::Reader::from_str(xml);
    // (id, based on, hides) of each style.
    let mut styles: Vec<(String, Option<String>, bool)> = Vec::new();
    let mut default_paragraph = None;
    let mut in_rpr = false;
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"style" => {
                let id = attr(&e, b"styleId").unwrap_or_default();
                if attr(&e, b"type").as_deref() == Some("paragraph")
                    && matches!(attr(&e, b"default").as_deref(), Some("1" | "true" | "on"))
                {
                    default_paragraph = Some(id.clone());
                }
                styles.push((id, None, false));
            }
            Event::Start(e) if e.local_name().as_ref() == b"rPr" => in_rpr = true,
            Event::End(e) if e.local_name().as_ref() == b"rPr" => in_rpr = false,
            // `<x/>` and `<x></x>` are the same element.
            Event::Empty(e) | Event::Start(e) => match (e.local_name().as_ref(), styles.last_mut())
            {
                (b"basedOn", Some(s)) => s.1 = attr(&e, b"val"),
                (b"vanish", Some(s)) if in_rpr => {
                    s.2 = !matches!(attr(&e, b"val").as_deref(), Some("0" | "false" | "off"));
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    let mut hidden: std::collections::HashSet<String> =
        styles.iter().filter(|s| s.2).map(|s| s.0.clone()).collect();
    // Inherited, a step at a time (a chain is short; a loop ends).
    for _ in 0..styles.len().min(32) {
        let more: Vec<String> = styles
            .iter()
            .filter(|s| !hidden.contains(&s.0) && s.1.as_ref().is_some_and(|b| hidden.contains(b)))
            .map(|s| s.0.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        hidden.extend(more);
    }
    HiddenStyles {
        default_paragraph: default_paragraph.is_some_and(|d| hidden.contains(&d)),
        ids: hidden,
    }
}

/// The styles that hide their text, by id, and whether the default
/// paragraph style (a paragraph's that names none) is one.
#[derive(Default)]
struct HiddenStyles {
    ids: std::collections::HashSet<String>,
    default_paragraph: bool,
}

fn core_title(xml: &str) -> Option<String> {
    let mut r = quick_xml::Reader::from_str(xml);
    let mut in_title = false;
    loop {
        match r.read_event().ok()? {
            Event::Start(e) if e.local_name().as_ref() == b"title" => in_title = true,
            Event::Text(t) if in_title => {
                let t = super::collapse_ws(&t.xml_content().ok()?);
                return (!t.is_empty()).then_some(t);
            }
            Event::End(_) => in_title = false,
            Event::Eof => return None,
            _ => {}
        }
    }
}

/// A `w:sym`'s char (hex) in its font: in a symbol font (Symbol,
/// Wingdings…; codes `F0B1` or `00B1`) the few Symbol signs of
/// measurements are read, any other is marked `￼`, so the text either
/// side never reads as one; in a text font, the char itself.
fn symbol(font: Option<String>, code: Option<String>) -> char {
    let c = code.and_then(|h| u32::from_str_radix(h.trim(), 16).ok());
    let font = font.map(|f| f.to_ascii_lowercase());
    let font = font.as_deref();
    let symbol_font = font.is_none_or(|f| f.contains("symbol") || f.contains("ding"));
    match c {
        Some(c) if symbol_font || (0xF000..=0xF0FF).contains(&c) => match c & 0xFF {
            0xB1 => '±',
            0xB4 => '×',
            0xB0 => '°',
            0xA3 => '≤',
            0xB3 => '≥',
            0xB9 => '≠',
            0xBB => '≈',
            0x2D => '−',
            0x6D if font.is_none_or(|f| f == "symbol") => 'μ',
            _ => '\u{FFFC}',
        },
        Some(c) if !(0xE000..=0xF8FF).contains(&c) => char::from_u32(c).unwrap_or('\u{FFFC}'),
        _ => '\u{FFFC}',
    }
}

/// A `Requires` list of namespace prefixes, each bound (`namespaces`) to
/// a namespace Word knows (Microsoft Office's and Office Open XML's, the
/// VML ones): its branch is the one Word shows. A prefix bound to another
/// namespace, or to none, is one Word does not know.
fn known(requires: &str, namespaces: &std::collections::HashMap<String, String>) -> bool {
    requires.split_whitespace().all(|p| {
        namespaces.get(p).is_some_and(|uri| {
            uri.starts_with("http://schemas.microsoft.com/office/")
                || uri.starts_with("http://schemas.openxmlformats.org/")
                || uri.starts_with("urn:schemas-microsoft-com:")
        })
    })
}

/// Record the namespace prefixes an element declares (`xmlns:w14=…`).
fn declare(
    e: &quick_xml::events::BytesStart<'_>,
    namespaces: &mut std::collections::HashMap<String, String>,
) {
    for a in e.attributes().flatten() {
        if let Some(prefix) = a.key.as_ref().strip_prefix(b"xmlns:")
            && let Ok(uri) = a.unescape_value()
        {
            namespaces.insert(
                String::from_utf8_lossy(prefix).into_owned(),
                uri.into_owned(),
            );
        }
    }
}

fn style_level(style: &str) -> Option<u8> {
    let s = style.to_ascii_lowercase().replace(' ', "");
    if s == "title" {
        return Some(1);
    }
    let n = s.strip_prefix("heading")?;
    n.parse::<u8>().ok().map(|n| n.clamp(1, 6))
}

/// The paragraphs of `word/document.xml`. Deleted revisions (`w:del`,
/// `w:moveFrom`) are not text; a paragraph nested in another (a text box's
/// `w:txbxContent`) is its own paragraph and leaves the outer one intact.
fn parse_document(xml: &str, hidden_styles: &HiddenStyles) -> Result<Extracted, String> {
    let mut r = quick_xml::Reader::from_str(xml);
    let mut out = Extracted::default();
    let mut para = String::new();
    let mut level: Option<u8> = None;
    // Outer paragraphs interrupted by a nested one.
    let mut outer: Vec<(String, Option<u8>)> = Vec::new();
    let mut in_text = false;
    let mut deleted = 0usize;
    // The run's properties: hidden (`w:vanish`), raised or lowered
    // (`w:vertAlign`: Some(true) for superscript).
    let (mut hidden, mut raised) = (false, None::<bool>);
    // The paragraph's style hides its text.
    let mut para_hidden = false;
    // Inside `w:rPrChange`: the formatting before a tracked change, not
    // what Word shows.
    let mut old_format = 0usize;
    // Table rows being read: a row is one passage, its cells apart
    // ("1811 | Reid"), as for HTML; and whether a new cell has begun.
    let mut rows: Vec<(String, bool)> = Vec::new();
    // Markup compatibility: for each open `mc:AlternateContent`, whether
    // a branch has been taken; for each open branch, whether it is skipped.
    let mut alternates: Vec<bool> = Vec::new();
    let mut skipped: Vec<bool> = Vec::new();
    // Namespace prefixes as declared (by the document element, mostly).
    let mut namespaces = std::collections::HashMap::new();
    loop {
        let ev = r
            .read_event()
            .map_err(|e| format!("malformed DOCX: bad XML ({e})"))?;
        if let Event::Start(e) = &ev {
            if matches!(
                e.local_name().as_ref(),
                b"document" | b"AlternateContent" | b"Choice"
            ) {
                declare(e, &mut namespaces);
            }
            match e.local_name().as_ref() {
                b"p" => {
                    if outer.len() >= 64 {
                        return Err("malformed DOCX: paragraphs nested too deeply".into());
                    }
                    outer.push((std::mem::take(&mut para), level.take()));
                    para_hidden = hidden_styles.default_paragraph;
                }
                // Deleted revisions, and the copy of a text box or drawing
                // kept for old versions of Word (`mc:Fallback`), which Word
                // does not show beside its `mc:Choice`.
                b"del" | b"moveFrom" => deleted += 1,
                // Markup compatibility: Word shows the first `mc:Choice`
                // whose `Requires` it knows, else the `mc:Fallback`.
                b"AlternateContent" => alternates.push(false),
                b"Choice" | b"Fallback" => {
                    let shown = match alternates.last_mut() {
                        Some(taken) if !*taken => {
                            let choice = e.local_name().as_ref() == b"Choice";
                            *taken = !choice
                                || attr(e, b"Requires").is_some_and(|r| known(&r, &namespaces));
                            *taken
                        }
                        _ => false,
                    };
                    skipped.push(!shown);
                    if !shown {
                        deleted += 1;
                    }
                }
                b"r" => (hidden, raised) = (para_hidden, None),
                b"tr" => rows.push((String::new(), false)),
                b"tc" => {
                    if let Some(row) = rows.last_mut() {
                        row.1 = true;
                    }
                }
                b"rPrChange" => old_format += 1,
                b"t" => in_text = deleted == 0,
                // A picture or an embedded object in the line (not a
                // floating one, anchored beside the text): shown, not text.
                // A mark stands in its place, so that the words either
                // side never read as one passage.
                b"inline" | b"object" if deleted == 0 && !hidden && !para.trim().is_empty() => {
                    para.push_str(" \u{FFFC} ");
                }
                _ => {}
            }
        }
        // Properties and characters, whether written `<x/>` or `<x></x>`
        // (the same element).
        match ev {
            Event::Empty(e) | Event::Start(e) => match e.local_name().as_ref() {
                b"pStyle" => {
                    if let Some(v) = attr(&e, b"val") {
                        para_hidden = hidden_styles.ids.contains(&v);
                        level = style_level(&v);
                    }
                }
                b"tab" if deleted == 0 && !hidden => para.push('\t'),
                b"br" | b"cr" if deleted == 0 && !hidden => para.push('\n'),
                _ if old_format > 0 => {}
                b"rStyle" if attr(&e, b"val").is_some_and(|v| hidden_styles.ids.contains(&v)) => {
                    hidden = true;
                }
                b"vanish" | b"specVanish" => {
                    hidden = !matches!(attr(&e, b"val").as_deref(), Some("0" | "false" | "off"));
                }
                b"vertAlign" => {
                    raised = match attr(&e, b"val").as_deref() {
                        Some("superscript") => Some(true),
                        Some("subscript") => Some(false),
                        _ => None,
                    };
                }
                // Characters Word shows that are not in `w:t`: a
                // non-breaking hyphen ("re‑sign", "‑40"), an optional one,
                // a symbol (a symbol font's char it cannot name: a mark).
                b"noBreakHyphen" if deleted == 0 && !hidden => para.push('\u{2011}'),
                b"softHyphen" if deleted == 0 && !hidden => para.push('\u{00AD}'),
                b"sym" if deleted == 0 && !hidden => {
                    para.push(symbol(attr(&e, b"font"), attr(&e, b"char")));
                }
                _ => {}
            },
            Event::Text(t) if in_text && !hidden => {
                let s = t
                    .xml_content()
                    .map_err(|e| format!("malformed DOCX: bad text ({e})"))?;
                match raised.and_then(|sup| crate::text::shifted(&s, sup)) {
                    Some(shown) => para.push_str(&shown),
                    None => para.push_str(&s),
                }
            }
            Event::GeneralRef(g) if in_text && !hidden => {
                // Entities such as &amp; arrive as references.
                let name = String::from_utf8_lossy(&g);
                let s = match name.as_ref() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    _ => "",
                };
                para.push_str(s);
                if let Ok(Some(c)) = g.resolve_char_ref() {
                    para.push(c);
                }
            }
            Event::End(e) => match e.local_name().as_ref() {
                b"t" => in_text = false,
                b"del" | b"moveFrom" => deleted = deleted.saturating_sub(1),
                b"AlternateContent" => {
                    alternates.pop();
                }
                b"Choice" | b"Fallback" if skipped.pop() == Some(true) => {
                    deleted = deleted.saturating_sub(1);
                }
                b"rPrChange" => old_format = old_format.saturating_sub(1),
                b"tr" => {
                    if let Some((row, _)) = rows.pop()
                        && !row.is_empty()
                    {
                        out.push(BlockKind::Para, &row, None);
                    }
                }
                b"p" => {
                    let text = para.trim().to_string();
                    if let Some((row, new_cell)) = rows.last_mut() {
                        if !text.is_empty() {
                            if !row.is_empty() {
                                row.push_str(if *new_cell { " | " } else { " " });
                            }
                            row.push_str(&text);
                            *new_cell = false;
                        }
                    } else if !text.is_empty() {
                        match level {
                            Some(l) => {
                                let t = super::collapse_ws(&text);
                                if out.title.is_none() && l == 1 {
                                    out.title = Some(t.clone());
                                }
                                out.push(BlockKind::Heading { level: l, text: t }, &text, None);
                            }
                            None => out.push(BlockKind::Para, &text, None),
                        }
                    }
                    (para, level) = outer.pop().unwrap_or_default();
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Write;

    pub(crate) fn make_docx(body: &str) -> Vec<u8> {
        make_docx_styled(body, None)
    }

    /// A document with `body`, and `styles` as its `word/styles.xml`.
    fn make_docx_styled(body: &str, styles: Option<&str>) -> Vec<u8> {
        let mut buf = Cursor::new(Vec::new());
        {
            let mut z = zip::ZipWriter::new(&mut buf);
            let opts = zip::write::SimpleFileOptions::default();
            z.start_file("word/document.xml", opts).unwrap();
            write!(
                z,
                r#"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
            )
            .unwrap();
            if let Some(styles) = styles {
                z.start_file("word/styles.xml", opts).unwrap();
                write!(z, r#"<?xml version="1.0"?><w:styles>{styles}</w:styles>"#).unwrap();
            }
            z.finish().unwrap();
        }
        buf.into_inner()
    }

    /// Text a style hides (directly, through the style it is based on, or
    /// the paragraph's style) is not text, as Word does not show it.
    #[test]
    fn text_a_style_hides_is_not_read() {
        let styles = r#"<w:style w:type="character" w:styleId="Secret"><w:rPr><w:vanish/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Derived"><w:basedOn w:val="Secret"/></w:style>
<w:style w:type="character" w:styleId="Shown"><w:rPr><w:vanish w:val="0"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="HiddenPara"><w:rPr><w:vanish/></w:rPr></w:style>"#;
        let body = r#"<w:p><w:r><w:t xml:space="preserve">The oil was </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Derived"/></w:rPr><w:t xml:space="preserve">rarely </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Shown"/></w:rPr><w:t xml:space="preserve">always </w:t></w:r><w:r><w:t>delivered.</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="HiddenPara"/></w:pPr><w:r><w:t>The keeper kept a secret.</w:t></w:r></w:p>
<w:p><w:r><w:t>Shown again.</w:t></w:r></w:p>"#;
        let ex = extract(&make_docx_styled(body, Some(styles)), 1 << 20).unwrap();
        assert_eq!(ex.text, "The oil was always delivered.\n\nShown again.");
        let (body, styles) = (long_form(body), long_form(styles));
        let ex = extract(&make_docx_styled(&body, Some(&styles)), 1 << 20).unwrap();
        assert_eq!(ex.text, "The oil was always delivered.\n\nShown again.");
        // The default paragraph style applies where a paragraph names none.
        let styles = r#"<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:rPr><w:vanish/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Body"><w:rPr><w:vanish w:val="0"/></w:rPr></w:style>"#;
        let body = r#"<w:p><w:r><w:t>The keeper was never sober.</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr><w:r><w:t>Shown in its own style.</w:t></w:r></w:p>"#;
        let ex = extract(&make_docx_styled(body, Some(styles)), 1 << 20).unwrap();
        assert_eq!(ex.text, "Shown in its own style.");
    }

    /// The XML with every empty element `<x …/>` written `<x …></x>`, as
    /// some writers do: the same document.
    fn long_form(xml: &str) -> String {
        let mut out = String::new();
        let mut rest = xml;
        while let Some(end) = rest.find("/>") {
            let open = rest[..end].rfind('<').expect("an element");
            let name: String = rest[open + 1..]
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '/')
                .collect();
            out.push_str(&rest[..end]);
            out.push_str(&format!("></{name}>"));
            rest = &rest[end + 2..];
        }
        out.push_str(rest);
        out
    }

    /// A table's row is one passage with its cells apart, as for HTML: a
    /// quote never runs from one cell into the next.
    #[test]
    fn a_tables_cells_never_join_into_a_sentence() {
        let cell = |t: &str| format!("<w:tc><w:p><w:r><w:t>{t}</w:t></w:r></w:p></w:tc>");
        let body = format!(
            "<w:p><w:r><w:t>Before.</w:t></w:r></w:p><w:tbl><w:tr>{}{}</w:tr><w:tr>{}<w:tc><w:p/></w:tc>{}</w:tr></w:tbl>\
             <w:p><w:r><w:t>After.</w:t></w:r></w:p>",
            cell("1811"),
            cell("Reid never served at the rock station."),
            cell("Do not"),
            cell("light the lamp before sunset."),
        );
        let ex = extract(&make_docx(&body), 1 << 20).unwrap();
        assert_eq!(
            ex.text,
            "Before.\n\n1811 | Reid never served at the rock station.\n\n\
             Do not | light the lamp before sunset.\n\nAfter."
        );
    }

    #[test]
    fn headings_and_paragraphs() {
        let body = r#"<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Skerryvore</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">Built by Alan </w:t></w:r><w:r><w:t>Stevenson &amp; crew.</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>Granite</w:t></w:r></w:p>
<w:p><w:r><w:t>Dovetailed.</w:t></w:r></w:p>"#;
        let ex = extract(&make_docx(body), 1 << 20).unwrap();
        assert_eq!(ex.title.as_deref(), Some("Skerryvore"));
        assert_eq!(
            ex.text,
            "Skerryvore\n\nBuilt by Alan Stevenson & crew.\n\nGranite\n\nDovetailed."
        );
        assert!(matches!(
            ex.blocks[2].kind,
            BlockKind::Heading { level: 2, .. }
        ));
    }

    #[test]
    fn item_4_tracked_deletions_are_not_text() {
        // An empty <w:t/> before a deletion must not switch text on.
        let body = r#"<w:p><w:r><w:t xml:space="preserve">The keeper was </w:t><w:t/></w:r><w:del w:id="1" w:author="x"><w:r><w:delText>never </w:delText></w:r></w:del><w:r><w:t>paid in full.</w:t></w:r></w:p>
<w:p><w:del><w:r><w:t>Gone entirely.</w:t></w:r></w:del><w:r><w:t>Kept.</w:t></w:r></w:p>"#;
        let ex = extract(&make_docx(body), 1 << 20).unwrap();
        assert_eq!(ex.text, "The keeper was paid in full.\n\nKept.");
    }

    /// A picture or object in the line leaves a mark; a floating one does
    /// not interrupt the text.
    #[test]
    fn a_picture_in_the_line_leaves_a_mark() {
        let pic = |how: &str| {
            format!(
                r#"<w:r><w:drawing><wp:{how}><a:graphic><a:graphicData><pic:pic/></a:graphicData></a:graphic></wp:{how}></w:drawing></w:r>"#
            )
        };
        let body = format!(
            r#"<w:p><w:r><w:t xml:space="preserve">The lamp is </w:t></w:r>{}<w:r><w:t xml:space="preserve"> safe; the </w:t></w:r>{}<w:r><w:t xml:space="preserve"> tower </w:t></w:r><w:r><w:object><v:shape/></w:object></w:r><w:r><w:t xml:space="preserve"> stands.</w:t></w:r></w:p>"#,
            pic("inline"),
            pic("anchor")
        );
        let ex = extract(&make_docx(&body), 1 << 20).unwrap();
        assert_eq!(
            crate::text::collapse_ws(&ex.text),
            "The lamp is \u{FFFC} safe; the tower \u{FFFC} stands."
        );
    }

    proptest::proptest! {
        /// A picture in the line leaves a mark between the words either
        /// side, which no quote of words matches, and nothing else does.
        #[test]
        fn words_either_side_of_a_picture_never_join(
            words in proptest::collection::vec(0usize..5, 1..12),
            pics in proptest::collection::vec(proptest::bool::weighted(0.3), 12),
        ) {
            const W: [&str; 5] = ["keeper", "lamp", "never", "not", "safe"];
            let mut body = String::from(r#"<w:p><w:r><w:t>Here</w:t></w:r>"#);
            // The words between two pictures, as Word shows them.
            let mut runs = vec![vec!["Here"]];
            for (i, w) in words.iter().enumerate() {
                body.push_str(&format!(r#"<w:r><w:t xml:space="preserve"> {}</w:t></w:r>"#, W[*w]));
                runs.last_mut().unwrap().push(W[*w]);
                if pics[i] {
                    body.push_str(r#"<w:r><w:drawing><wp:inline><pic:pic/></wp:inline></w:drawing></w:r>"#);
                    runs.push(Vec::new());
                }
            }
            body.push_str("</w:p>");
            let ex = extract(&make_docx(&body), 1 << 20).unwrap();
            let read: Vec<Vec<&str>> =
                ex.text.split('\u{FFFC}').map(|r| r.split_whitespace().collect()).collect();
            proptest::prop_assert_eq!(read, runs);
        }
    }

    /// A text box as Word saves it, with the copy for old versions of Word
    /// (`mc:Fallback`): read once.
    #[test]
    fn a_text_box_is_read_once() {
        let box_p = r#"<w:txbxContent><w:p><w:r><w:t>Boxed words about the gallery.</w:t></w:r></w:p></w:txbxContent>"#;
        let body = format!(
            r#"<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wps:txbx>{box_p}</wps:txbx></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox>{box_p}</v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r><w:r><w:t>After it.</w:t></w:r></w:p>"#
        );
        let ex = extract(&make_docx(&body), 1 << 20).unwrap();
        assert_eq!(
            ex.text.matches("Boxed words about the gallery.").count(),
            1,
            "{}",
            ex.text
        );
        assert!(ex.text.contains("After it."), "{}", ex.text);
    }

    /// Word shows the first `mc:Choice` whose `Requires` it knows, else the
    /// `mc:Fallback`: a choice requiring what Word does not know is not
    /// the text on the page.
    #[test]
    fn the_alternate_word_shows_is_read() {
        let para = |t: &str| format!("<w:p><w:r><w:t>{t}</w:t></w:r></w:p>");
        let alt = |req: &str, choice: &str, fallback: &str| {
            format!(
                r#"<w:p><w:r><mc:AlternateContent xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:w14="urn:example:not-word"><mc:Choice Requires="{req}">{}</mc:Choice><mc:Fallback>{}</mc:Fallback></mc:AlternateContent></w:r></w:p>"#,
                para(choice),
                para(fallback)
            )
        };
        let body = format!(
            "{}{}{}",
            alt(
                "xyz",
                "The assistant was dismissed for theft.",
                "The assistant retired with honour."
            ),
            alt("wps", "The tower was lit.", "The tower was dark."),
            alt("wps xyz", "The boat sank.", "The boat came in."),
        ) + &alt(
            "w14",
            "The keeper drank the oil.",
            "The keeper guarded the oil.",
        );
        let ex = extract(&make_docx(&body), 1 << 20).unwrap();
        for shown in [
            "retired with honour",
            "The tower was lit.",
            "The boat came in.",
            "guarded",
        ] {
            assert!(ex.text.contains(shown), "{shown}: {}", ex.text);
        }
        for hidden in ["dismissed", "was dark", "sank", "drank"] {
            assert!(!ex.text.contains(hidden), "{hidden}: {}", ex.text);
        }
    }

    #[test]
    fn item_4_a_text_box_keeps_the_text_before_it() {
        let body = r#"<w:p><w:r><w:t xml:space="preserve">Before the box, </w:t></w:r><w:r><w:pict><w:txbxContent><w:p><w:r><w:t>Boxed words.</w:t></w:r></w:p></w:txbxContent></w:pict></w:r><w:r><w:t>after it.</w:t></w:r></w:p>"#;
        let ex = extract(&make_docx(body), 1 << 20).unwrap();
        assert!(ex.text.contains("Before the box, after it."), "{}", ex.text);
        assert!(ex.text.contains("Boxed words."), "{}", ex.text);
    }

    /// What Word shows is read as shown: superscripts and subscripts,
    /// non-breaking hyphens and symbols; hidden text is not read.
    #[test]
    fn runs_read_as_word_shows_them() {
        let body = r#"<w:p><w:r><w:t xml:space="preserve">A culture of 10</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:t>6</w:t></w:r><w:r><w:t xml:space="preserve"> cells; keepers were </w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t xml:space="preserve">not </w:t></w:r><w:r><w:t xml:space="preserve">paid to re</w:t><w:noBreakHyphen/><w:t xml:space="preserve">sign at </w:t><w:noBreakHyphen/><w:t xml:space="preserve">40, drift 5 </w:t><w:sym w:font="Symbol" w:char="F0B1"/><w:t xml:space="preserve"> 2, 5 </w:t><w:sym w:font="Symbol" w:char="006D"/><w:t xml:space="preserve">g, </w:t></w:r><w:r><w:rPr><w:b/><w:rPrChange w:id="1"><w:rPr><w:vanish/></w:rPr></w:rPrChange></w:rPr><w:t>shown</w:t></w:r><w:r><w:t xml:space="preserve"> and H</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="subscript"/></w:rPr><w:t>2</w:t></w:r><w:r><w:t>O.</w:t></w:r></w:p>"#;
        for body in [body.to_string(), long_form(body)] {
            let ex = extract(&make_docx(&body), 1 << 20).unwrap();
            assert_eq!(
                ex.text,
                "A culture of 10⁶ cells; keepers were paid to re\u{2011}sign at \u{2011}40, drift 5 ± 2, 5 μg, shown and H₂O.",
                "{body}"
            );
        }
    }

    #[test]
    fn not_a_zip() {
        let e = extract(b"hello", 1 << 20).unwrap_err();
        assert!(e.starts_with("malformed DOCX"), "{e}");
    }
}
