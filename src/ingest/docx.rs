//! Word (.docx): paragraphs of `word/document.xml` in order; paragraph styles
//! `Title` and `HeadingN` become headings; footnotes and endnotes follow,
//! each apart. Reading is bounded so that a zip
//! bomb cannot exhaust memory.

use super::{BlockKind, Extracted, xml_attr as attr};
use quick_xml::events::Event;
use std::io::{Cursor, Read};
use styles::{HiddenStyles, hidden_styles, vert_align};

mod notes;
mod styles;
mod theme;

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
    // The theme's colours, for runs and shading coloured by it.
    let theme_part = read_entry(&mut zip, "word/_rels/document.xml.rels", 1 << 20)
        .ok()
        .and_then(|rels| theme::part(&rels))
        .unwrap_or_else(|| "word/theme/theme1.xml".into());
    let theme = theme::Theme::read(
        read_entry(&mut zip, &theme_part, 8 << 20).ok().as_deref(),
        read_entry(&mut zip, "word/settings.xml", 8 << 20)
            .ok()
            .as_deref(),
    );
    let hidden_styles = match read_entry(&mut zip, "word/styles.xml", 8 << 20) {
        Ok(x) => hidden_styles(&x, theme),
        Err(_) => HiddenStyles {
            theme,
            ..Default::default()
        },
    };
    // Footnotes after the paragraph that refers to each, endnotes (and
    // any footnote nothing refers to) after the text, each paragraph
    // between marks: a reader sees them at the foot of the page or the
    // end, so no quote runs from one into the text or into another note.
    let part = |zip: &mut zip::ZipArchive<_>, name: &str| {
        read_entry(zip, name, max_text_bytes.saturating_mul(8))
            .map(|x| notes::Notes::read(&x, &hidden_styles))
            .unwrap_or_default()
    };
    let mut footnotes = part(&mut zip, "word/footnotes.xml");
    let endnotes = part(&mut zip, "word/endnotes.xml");
    let mut out = parse_document(&xml, &hidden_styles, &mut footnotes)?;
    footnotes.place_rest(&mut out);
    endnotes.place_rest(&mut out);
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

/// The attributes that colour an element by the theme, its tint, its shade.
const THEME_INK: [&[u8]; 3] = [b"themeColor", b"themeTint", b"themeShade"];

/// The paragraphs of `word/document.xml`. Deleted revisions (`w:del`,
/// `w:moveFrom`) are not text; a paragraph nested in another (a text box's
/// `w:txbxContent`) is its own paragraph and leaves the outer one intact.
fn parse_document(
    xml: &str,
    hidden_styles: &HiddenStyles,
    notes: &mut notes::Notes,
) -> Result<Extracted, String> {
    let theme = &hidden_styles.theme;
    let mut r = quick_xml::Reader::from_str(xml);
    let mut out = Extracted::default();
    let mut para = String::new();
    let mut level: Option<u8> = None;
    // Outer paragraphs interrupted by a nested one.
    let mut outer: Vec<(String, Option<u8>)> = Vec::new();
    let mut in_text = false;
    let mut deleted = 0usize;
    // The complex fields open (`w:fldChar` begin … separate … end), each
    // true while in its code: Word shows a field's result, not its code,
    // however the code is written (`w:instrText` or `w:t`).
    let mut fields: Vec<bool> = Vec::new();
    // The footnotes the paragraph being read refers to.
    let mut refs: Vec<String> = Vec::new();
    // The run's properties: hidden (`w:vanish`), raised or lowered
    // (`w:vertAlign`: Some(true) for superscript).
    let (mut hidden, mut raised) = (false, None::<bool>);
    // The run is struck through (`w:strike`, `w:dstrike`, not a tracked
    // deletion): shown, not read as text, as HTML's `<s>`; a mark stands
    // in its place.
    let mut struck = false;
    // The run's text colour and the colour behind it (its highlight or
    // shading), as Word writes them ("000000", "black"): text in the
    // colour behind it is a bar, not words.
    let (mut ink, mut behind) = (None::<String>, None::<String>);
    // The paragraph's shading (`w:pPr/w:shd`), behind its runs; and
    // whether a run has begun in the paragraph.
    let (mut para_behind, mut in_run) = (None::<String>, false);
    // The page behind everything (`w:background`; Word's default white).
    let mut page = "ffffff".to_string();
    // The paragraph's style hides its text.
    let mut para_hidden = false;
    // The paragraph's style strikes its text through; how it draws it.
    let mut para_struck = false;
    let mut para_look = hidden_styles.default_look.clone();
    // Inside `w:rPrChange` or `w:pPrChange`: the formatting before a
    // tracked change, not what Word shows.
    let mut old_format = 0usize;
    // Table rows being read: a row is one passage, its cells apart
    // ("1811 | Reid"), as for HTML; and whether a new cell has begun.
    let mut rows: Vec<(String, bool)> = Vec::new();
    // Inside a row's properties; each open row's deletion (a tracked
    // deletion of the whole row: its text is not shown); each open
    // drawing's hiding (`wp:docPr hidden`: a text box Word does not show).
    let mut in_trpr = false;
    let mut rows_deleted: Vec<bool> = Vec::new();
    let mut drawings: Vec<bool> = Vec::new();
    // Each open cell's deletion (`w:cellDel`), as for rows; each open
    // `w:bdo`'s override to right to left, and how many are open.
    let mut cells_deleted: Vec<bool> = Vec::new();
    let mut bdos: Vec<bool> = Vec::new();
    let mut reversed = 0usize;
    // Each open table's style: whether it hides, and whether it strikes
    // through, the text in its cells.
    let mut tables: Vec<(bool, bool)> = Vec::new();
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
                    (para_behind, in_run) = (None, false);
                    para_hidden = hidden_styles.default_paragraph;
                    para_struck = hidden_styles.default_struck;
                    para_look = hidden_styles.default_look.clone();
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
                b"r" => {
                    let (t_hidden, t_struck) = tables.last().copied().unwrap_or_default();
                    (hidden, raised, struck) = (
                        para_hidden || t_hidden || para_look.squeezed,
                        para_look.raised,
                        para_struck || t_struck || para_look.tiny,
                    );
                    (ink, behind, in_run) = (para_look.ink.clone(), para_behind.clone(), true);
                }
                b"tbl" => tables.push((false, false)),
                b"bdo" => {
                    let rtl = attr(e, b"val").as_deref() == Some("rtl");
                    reversed += usize::from(rtl);
                    bdos.push(rtl);
                }
                b"tr" => {
                    rows.push((String::new(), false));
                    rows_deleted.push(false);
                }
                b"trPr" => in_trpr = true,
                b"drawing" => drawings.push(false),
                b"tc" => {
                    if let Some(row) = rows.last_mut() {
                        row.1 = true;
                    }
                    cells_deleted.push(false);
                }
                b"rPrChange" | b"pPrChange" => old_format += 1,
                b"t" => in_text = deleted == 0 && !fields.contains(&true),
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
                b"pStyle" if old_format == 0 => {
                    if let Some(v) = attr(&e, b"val") {
                        para_hidden = hidden_styles.ids.contains(&v);
                        para_struck = hidden_styles.struck.contains(&v);
                        para_look = hidden_styles
                            .looks
                            .get(&v)
                            .cloned()
                            .unwrap_or_else(|| hidden_styles.default_look.clone());
                        level = hidden_styles
                            .levels
                            .get(&v)
                            .copied()
                            .or_else(|| style_level(&v));
                    }
                }
                // A paragraph's own outline level (9 is body text).
                b"outlineLvl" if old_format == 0 => {
                    level = styles::number(&e)
                        .filter(|v| *v < 9.0)
                        .map(|v| (v as u8 + 1).min(6));
                }
                b"tblStyle" => {
                    if let (Some(v), Some(t)) = (attr(&e, b"val"), tables.last_mut()) {
                        *t = (
                            hidden_styles.ids.contains(&v),
                            hidden_styles.struck.contains(&v),
                        );
                    }
                }
                // A cell deleted as a tracked change: not shown, as a row.
                b"cellDel" => {
                    if let Some(d) = cells_deleted.last_mut()
                        && !*d
                    {
                        *d = true;
                        deleted += 1;
                    }
                }
                b"del" if in_trpr => {
                    if let Some(d) = rows_deleted.last_mut()
                        && !*d
                    {
                        *d = true;
                        deleted += 1;
                    }
                }
                b"docPr" if matches!(attr(&e, b"hidden").as_deref(), Some("1" | "true" | "on")) => {
                    if let Some(d) = drawings.last_mut()
                        && !*d
                    {
                        *d = true;
                        deleted += 1;
                    }
                }
                b"tab" | b"ptab" if deleted == 0 && !hidden => para.push('\t'),
                b"br" | b"cr" if deleted == 0 && !hidden => para.push('\n'),
                _ if old_format > 0 => {}
                b"rStyle" => {
                    if let Some(v) = attr(&e, b"val") {
                        hidden |= hidden_styles.ids.contains(&v);
                        struck |= hidden_styles.struck.contains(&v);
                        // What the character style sets over the
                        // paragraph's; the run's own properties follow.
                        if let Some(look) = hidden_styles.char_looks.get(&v) {
                            if look.ink.is_some() {
                                ink.clone_from(&look.ink);
                            }
                            raised = look.raised.or(raised);
                            struck |= look.tiny;
                            hidden |= look.squeezed;
                        }
                    }
                }
                b"strike" | b"dstrike" => {
                    struck = !matches!(attr(&e, b"val").as_deref(), Some("0" | "false" | "off"));
                }
                b"vanish" | b"specVanish" => {
                    hidden = !matches!(attr(&e, b"val").as_deref(), Some("0" | "false" | "off"));
                }
                // Letters squeezed to nothing (`w:w`, in percent) or drawn
                // over each other (`w:spacing`, in twentieths of a point).
                b"w" if attr(&e, b"val")
                    .and_then(|v| v.parse::<f64>().ok())
                    .is_some_and(|v| v < 10.0) =>
                {
                    hidden = true;
                }
                b"spacing"
                    if attr(&e, b"val")
                        .and_then(|v| v.parse::<f64>().ok())
                        .is_some_and(|v| v <= -120.0) =>
                {
                    hidden = true;
                }
                b"background" => {
                    if let Some(c) = theme.colour(&e, b"color", THEME_INK) {
                        page = c;
                    }
                }
                // Letters too small to read (`w:sz` in half-points: under
                // 2 pt) or moved far off their line (`w:position`, half-
                // points: over 48 pt) are shown apart from the line, if at
                // all: a mark stands in their place, as for struck text.
                b"sz"
                    if attr(&e, b"val")
                        .and_then(|v| v.parse::<f64>().ok())
                        .is_some_and(|v| v < 4.0) =>
                {
                    struck = true;
                }
                b"position"
                    if attr(&e, b"val")
                        .and_then(|v| v.parse::<f64>().ok())
                        .is_some_and(|v| v.abs() > 96.0) =>
                {
                    struck = true;
                }
                b"color" => ink = theme.colour(&e, b"val", THEME_INK),
                b"highlight" => behind = attr(&e, b"val").map(|v| word_colour(&v)),
                b"shd" => {
                    // A solid pattern draws its colour over the whole
                    // shading; any other shows its fill.
                    // Either coloured by the theme (`w:themeColor`,
                    // `w:themeFill`), whatever its value says.
                    let colour = if attr(&e, b"val").as_deref() == Some("solid") {
                        Some(
                            theme
                                .colour(&e, b"color", THEME_INK)
                                .unwrap_or_else(|| "000000".into()),
                        )
                        .map(|c| if c == "auto" { "000000".into() } else { c })
                    } else {
                        theme
                            .colour(
                                &e,
                                b"fill",
                                [b"themeFill", b"themeFillTint", b"themeFillShade"],
                            )
                            .filter(|f| f != "auto")
                    };
                    if let Some(c) = colour {
                        if in_run {
                            behind = Some(word_colour(&c));
                        } else {
                            para_behind = Some(word_colour(&c));
                        }
                    }
                }
                b"vertAlign" => raised = vert_align(&e),
                b"footnoteReference" if deleted == 0 && !hidden => {
                    refs.extend(attr(&e, b"id"));
                }
                b"fldChar" => match attr(&e, b"fldCharType").as_deref() {
                    Some("begin") => fields.push(true),
                    Some("separate") => {
                        if let Some(code) = fields.last_mut() {
                            *code = false;
                        }
                    }
                    Some("end") => {
                        fields.pop();
                    }
                    _ => {}
                },
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
            // Characters, written as text or as references (`&#110;`,
            // `&amp;`): read the same way whichever way they are written.
            Event::Text(_) | Event::GeneralRef(_) if in_text && !hidden => {
                let s = match &ev {
                    Event::Text(t) => t
                        .xml_content()
                        .map_err(|e| format!("malformed DOCX: bad text ({e})"))?
                        .into_owned(),
                    Event::GeneralRef(g) => {
                        match quick_xml::escape::resolve_xml_entity(&String::from_utf8_lossy(g)) {
                            Some(entity) => entity.to_string(),
                            None => g
                                .resolve_char_ref()
                                .ok()
                                .flatten()
                                .map(String::from)
                                .unwrap_or_default(),
                        }
                    }
                    _ => String::new(),
                };
                // Struck through, drawn right to left by an override
                // (`w:bdo`: "not" shows as "ton"), or in the colour behind
                // it: shown, not read; one mark stands for the run.
                if struck
                    || reversed > 0
                    || on_itself(
                        &ink,
                        behind.as_deref().filter(|b| *b != "auto").unwrap_or(&page),
                    )
                {
                    if !para.trim().is_empty() && !para.trim_end().ends_with('\u{FFFC}') {
                        para.push_str(" \u{FFFC} ");
                    }
                } else {
                    match raised.and_then(|sup| crate::text::shifted(&s, sup)) {
                        Some(shown) => para.push_str(&shown),
                        None => para.push_str(&s),
                    }
                }
            }
            Event::End(e) => match e.local_name().as_ref() {
                b"t" => in_text = false,
                b"trPr" => in_trpr = false,
                b"tc" => {
                    deleted =
                        deleted.saturating_sub(usize::from(cells_deleted.pop() == Some(true)));
                }
                b"bdo" => {
                    reversed = reversed.saturating_sub(usize::from(bdos.pop() == Some(true)));
                }
                b"tbl" => {
                    tables.pop();
                }
                b"drawing" => {
                    deleted = deleted.saturating_sub(usize::from(drawings.pop() == Some(true)));
                }
                b"del" | b"moveFrom" => deleted = deleted.saturating_sub(1),
                b"AlternateContent" => {
                    alternates.pop();
                }
                b"Choice" | b"Fallback" if skipped.pop() == Some(true) => {
                    deleted = deleted.saturating_sub(1);
                }
                b"rPrChange" | b"pPrChange" => old_format = old_format.saturating_sub(1),
                b"tr" => {
                    let row_deleted = rows_deleted.pop() == Some(true);
                    if row_deleted {
                        deleted = deleted.saturating_sub(1);
                    }
                    if let Some((row, _)) = rows.pop()
                        && !row.is_empty()
                        && !row_deleted
                    {
                        out.push(BlockKind::Para, &row, None);
                    }
                    if rows.is_empty() && outer.is_empty() {
                        notes.place(&mut out, &mut refs);
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
                    if rows.is_empty() && outer.is_empty() {
                        notes.place(&mut out, &mut refs);
                    }
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
pub(crate) mod tests;

/// A Word colour, one way for its names and hex values: "black" and
/// "000000" alike; "auto" (which Word draws to stand out from what is
/// behind it) stands for no colour.
fn word_colour(v: &str) -> String {
    // Word's highlight colours by name.
    let hex = match v.to_ascii_lowercase().as_str() {
        "black" => "000000",
        "white" => "ffffff",
        "blue" => "0000ff",
        "cyan" => "00ffff",
        "green" => "00ff00",
        "magenta" => "ff00ff",
        "red" => "ff0000",
        "yellow" => "ffff00",
        "darkblue" => "000080",
        "darkcyan" => "008080",
        "darkgreen" => "008000",
        "darkmagenta" => "800080",
        "darkred" => "800000",
        "darkyellow" => "808000",
        "darkgray" => "808080",
        "lightgray" => "c0c0c0",
        "auto" | "none" => "auto",
        other => return other.to_string(),
    };
    hex.to_string()
}

/// Is text of colour `ink` drawn on `behind` (its highlight or shading, else
/// the page) in that colour or one too close to tell apart (white on
/// Word's white page, "FEFEFE" on "FFFFFF"): a bar of it, or nothing to
/// see ("auto" ink stands out from anything)?
fn on_itself(ink: &Option<String>, behind: &str) -> bool {
    let rgb = |h: &str| {
        (h.len() == 6)
            .then(|| u32::from_str_radix(h, 16).ok())
            .flatten()
            .map(|v| [v >> 16, (v >> 8) & 0xff, v & 0xff])
    };
    match ink.as_deref() {
        None | Some("auto") => false,
        Some(a) if a.eq_ignore_ascii_case(behind) => true,
        Some(a) => match (rgb(a), rgb(behind)) {
            (Some(x), Some(y)) => x.iter().zip(&y).all(|(p, q)| p.abs_diff(*q) <= 16),
            _ => false,
        },
    }
}
