//! PDF: the text layer, page by page (pdf-extract); a page in two columns
//! in reading order ([`layout`]), a word hyphenated across a line end joined
//! ([`hyphen`]). Paragraphs are separated
//! by blank lines in the extracted text; a short single-line paragraph with no
//! closing punctuation is taken as a heading. Every block keeps its page, and
//! the document's printed page labels (`/PageLabels`: "i", "ii", … for front
//! matter, "233" for page 233 of a book) are kept beside the physical pages.

use super::{BlockKind, Extracted};
use lopdf::{Dictionary, Document, Object};
use pdf_extract::{MediaBox, OutputDev, OutputError, Transform};

mod annots;
mod cover;
mod folios;
mod glyphs;
mod hyphen;
mod layers;
mod layout;
#[cfg(test)]
mod reading_order_tests;
mod recorder;
mod stamps;
mod ucs2;
mod unseen;

use hyphen::Vocabulary;

/// The text of each page, from one parse of the file that also serves the
/// page labels: a page laid out in two columns in reading order (see
/// [`layout`]), any other page as pdf-extract's `PlainTextOutput` writes it
/// (the order of the content stream); with them, the first page's title as its type sizes show it
/// ([`layout::display_title`]). One pass over the page tree (asking for
/// each page by its number walks the tree each time: quadratic in the page
/// count); from a page pdf-extract gives up on, a page at a time, that
/// page from its own UTF-16 strings if that is what it holds.
fn read_pages(doc: &Document) -> (Vec<String>, Option<String>) {
    let mut book = Book::default();
    let whole = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pdf_extract::output_doc(doc, &mut book)
    }));
    // An error ends the document where it happened, as it always has.
    if whole.is_err() {
        for n in book.pages.len() as u32 + 1.. {
            book.page = None;
            let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pdf_extract::output_doc_page(doc, &mut book, n)
            }));
            match read {
                Ok(Ok(())) => {}
                Ok(Err(_)) => break,
                Err(panic) => match ucs2::page_text(doc, n) {
                    Some(t) => book.pages.push(t),
                    None => std::panic::resume_unwind(panic),
                },
            }
        }
    }
    (book.pages, book.title)
}

/// Pages as they are read: each by a fresh [`recorder::Recorder`], as if read
/// alone, then laid out.
#[derive(Default)]
struct Book {
    pages: Vec<String>,
    title: Option<String>,
    /// The page being read: its number, text and recorder.
    page: Option<(u32, recorder::Written, recorder::Recorder)>,
}

impl Book {
    fn recorder(&mut self) -> Option<&mut recorder::Recorder> {
        self.page.as_mut().map(|p| &mut p.2)
    }
}

impl OutputDev for Book {
    fn begin_page(
        &mut self,
        n: u32,
        media_box: &MediaBox,
        art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        let text = recorder::Written::default();
        let mut out = recorder::Recorder::new(text.clone());
        out.begin_page(n, media_box, art_box)?;
        self.page = Some((n, text, out));
        Ok(())
    }

    fn end_page(&mut self) -> Result<(), OutputError> {
        let Some((n, text, mut out)) = self.page.take() else {
            return Ok(());
        };
        out.end_page()?;
        let runs = std::mem::take(&mut out.runs);
        if n == 1 {
            self.title = layout::display_title(&runs, out.page);
        }
        let columns = layout::two_columns(&runs, out.page);
        self.pages.push(columns.unwrap_or_else(|| text.take()));
        Ok(())
    }

    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        spacing: f64,
        font_size: f64,
        char: &str,
    ) -> Result<(), OutputError> {
        match self.recorder() {
            Some(r) => r.output_character(trm, width, spacing, font_size, char),
            None => Ok(()),
        }
    }

    fn begin_word(&mut self) -> Result<(), OutputError> {
        self.recorder().map_or(Ok(()), |r| r.begin_word())
    }

    fn end_word(&mut self) -> Result<(), OutputError> {
        self.recorder().map_or(Ok(()), |r| r.end_word())
    }

    fn end_line(&mut self) -> Result<(), OutputError> {
        self.recorder().map_or(Ok(()), |r| r.end_line())
    }

    fn fill(
        &mut self,
        ctm: &Transform,
        space: &pdf_extract::ColorSpace,
        colour: &[f64],
        path: &pdf_extract::Path,
    ) -> Result<(), OutputError> {
        self.recorder()
            .map_or(Ok(()), |r| r.fill(ctm, space, colour, path))
    }
}

pub fn extract(bytes: &[u8]) -> Result<Extracted, String> {
    let mut doc = Document::load_mem(bytes).map_err(|e| format!("malformed PDF: {e}"))?;
    if doc.is_encrypted() {
        // An empty user password opens most "encrypted" papers.
        doc.decrypt("")
            .map_err(|e| format!("malformed PDF: encrypted ({e})"))?;
    }
    layers::hide_off_layers(&mut doc);
    cover::mark_fills(&mut doc);
    let (mut pages, display_title) = read_pages(&doc);
    for page in &mut pages {
        *page = stamps::strip_stamps(&glyphs::tidy(page));
    }
    let display_title = display_title.map(|t| glyphs::tidy(&t));
    // The numbers printed on the pages, read before running lines go.
    let printed = folios::printed_numbers(&pages);
    // Running lines need four pages to be told; a shorter document's
    // folios, told by their numbers, go as theirs would.
    if let Some(labels) = printed.as_ref().filter(|_| pages.len() < 4) {
        folios::strip_printed(&mut pages, labels);
    }
    strip_running_lines(&mut pages);
    hyphen::join_across_pages(&mut pages);
    let vocabulary = Vocabulary::of(&pages);
    let mut out = Extracted {
        page_labels: page_labels(&doc, pages.len()),
        folios: printed,
        pages: Some(pages.len() as u32),
        ..Extracted::default()
    };
    // A line that looks like a heading but stands alone three times or more
    // is a figure's axis label or a table's header ("Accuracy", "Epoch"),
    // not a section: sections are not repeated.
    let paragraphs: Vec<Vec<String>> = pages
        .iter()
        .map(|page| {
            split_paragraphs(&page.replace("\r\n", "\n"))
                .iter()
                .map(|para| vocabulary.join_hyphens(para))
                .collect()
        })
        .collect();
    let mut repeated: std::collections::HashMap<String, usize> = Default::default();
    for para in paragraphs.iter().flatten() {
        if !para.contains('\n') && looks_like_heading(para) {
            *repeated.entry(super::collapse_ws(para)).or_default() += 1;
        }
    }
    for (i, page) in paragraphs.iter().enumerate() {
        let page_no = Some(i as u32 + 1);
        // A page's last line whose sentence goes on over the page (the next
        // page starts in lower case, or the line ends in a hyphen) is text,
        // however short: "But under no circumstances may any visitor" /
        // "land at the jetty in winter".
        let goes_on = |k: usize, para: &str| {
            k + 1 == page.len()
                && (para.trim_end().ends_with('-')
                    || paragraphs
                        .get(i + 1)
                        .and_then(|next| next.first())
                        .and_then(|p| p.trim_start().chars().next())
                        .is_some_and(char::is_lowercase))
        };
        for (k, para) in page.iter().enumerate() {
            let para = para.as_str();
            let single_line = !para.contains('\n') && !goes_on(k, para);
            let once = || {
                repeated
                    .get(&super::collapse_ws(para))
                    .is_none_or(|n| *n < 3)
            };
            if single_line && looks_like_heading(para) && once() {
                // The first heading of page 1 is the title, unless the type
                // sizes found it: then every heading is a section, and none
                // heads the others' chains ("1 INTRODUCTION › 3.1 …").
                let title_here = display_title.is_none() && out.title.is_none() && i == 0;
                let level = if title_here { 1 } else { 2 };
                let text = super::collapse_ws(para);
                if level == 1 {
                    out.title = Some(text.clone());
                }
                out.push(BlockKind::Heading { level, text }, para, page_no);
            } else {
                out.push(BlockKind::Para, para, page_no);
            }
        }
    }
    // The title set largest on the first page, before a first-page heading
    // (the metadata's title before either; `metadata::settle` falls back to
    // the headings when it is no title).
    if let Some(t) = display_title {
        out.title = Some(t);
    }
    // The document's own title and author (Info dictionary), when they
    // name the work rather than the file it was made from.
    if let Ok(meta) = lopdf::Document::load_metadata_from(std::io::Cursor::new(bytes)) {
        if let Some(t) = meta
            .title
            .map(|t| super::collapse_ws(&t))
            .filter(|t| real_title(t))
        {
            out.title = Some(t);
        }
        out.author = meta
            .author
            .map(|a| super::collapse_ws(&a))
            .filter(|a| a.chars().any(char::is_alphabetic));
    }
    Ok(out)
}

/// Lines at the top or bottom of a page (the first and the last, and a
/// lone page number next to them) that recur there on most pages — running heads, footers, page numbers — are
/// the layout of the page, not the work: removed, so a sentence that runs
/// onto the next page reads on without "Journal of Lights 12 (3) 233" in
/// the middle. Numbers are ignored in the comparison (page numbers change)
/// and a line of a lone page number (Arabic or Roman) counts as one kind.
/// Needs at least four pages and the line on half of them (three at least).
///
/// A two-column page's reading order can put its running head between the
/// columns ("…While data-level / International Journal of Computer Vision
/// (2025) 133:291–314 / Fig. 1…"): a line of three words or more (two of
/// them real words) that does not end a sentence and recurs *anywhere* on
/// most pages, a page number before or after it aside, goes too. Prose
/// does not repeat a line on half the pages of a work.
fn strip_running_lines(pages: &mut [String]) {
    use std::collections::HashMap;
    const EDGE: usize = 2;
    if pages.len() < 4 {
        return;
    }
    let key = |l: &str| -> String {
        let t = l.trim();
        let roman =
            !t.is_empty() && t.len() <= 6 && t.chars().all(|c| "ivxlcdmIVXLCDM".contains(c));
        if roman {
            return "#".into();
        }
        let mut k = String::new();
        for w in t.split_whitespace() {
            if !k.is_empty() {
                k.push(' ');
            }
            // A run of digits, of any length, is one '#'.
            for c in w.chars() {
                if !c.is_ascii_digit() {
                    k.push(c.to_ascii_lowercase());
                } else if !k.ends_with('#') {
                    k.push('#');
                }
            }
        }
        // A page number printed before or after a running head ("300
        // International Journal…") is not part of it.
        let k = k.strip_prefix("# ").unwrap_or(&k);
        k.strip_suffix(" #").unwrap_or(k).to_string()
    };
    // A line that may recur anywhere: three words or more, two of them
    // words of three letters or more (a table's "V al11 V al12" repeated on
    // pages laid out alike is not), and no sentence end.
    let anywhere = |l: &str| {
        let t = l.trim_end();
        let letters = |w: &str| w.chars().filter(|c| c.is_alphabetic()).count();
        t.split_whitespace().count() >= 3
            && t.split_whitespace().filter(|w| letters(w) >= 3).count() >= 2
            && !t.ends_with(['.', '!', '?', '…', ':', ';', ','])
    };
    // The edge lines of a page: (index of the line, its key), top and bottom.
    let edges = |page: &str| -> Vec<(usize, String)> {
        let lines: Vec<(usize, &str)> = page
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let mut e: Vec<(usize, String)> = Vec::new();
        for (n, (i, l)) in lines.iter().enumerate() {
            let k = key(l);
            // The first and last line; a lone page number one line further
            // in (a footer line above it, a head line below it).
            // A line that ends a sentence is taken for text ("Text under
            // image 2." on pages laid out alike), even when it recurs.
            let sentence = l.trim_end().ends_with(['.', '!', '?', '…']);
            let outer = (n == 0 || n + 1 == lines.len()) && !sentence;
            let inner = n < EDGE || n + EDGE >= lines.len();
            if outer || (inner && k == "#") || anywhere(l) {
                e.push((*i, k));
            }
        }
        e
    };
    let all_edges: Vec<Vec<(usize, String)>> = pages.iter().map(|p| edges(p)).collect();
    let mut pages_with: HashMap<String, usize> = HashMap::new();
    for e in &all_edges {
        let mut keys: Vec<&String> = e.iter().map(|(_, k)| k).collect();
        keys.sort_unstable();
        keys.dedup();
        for k in keys {
            *pages_with.entry(k.clone()).or_default() += 1;
        }
    }
    let need = (pages.len() / 2).max(3);
    for (p, e) in pages.iter_mut().zip(all_edges) {
        let drop: Vec<usize> = e
            .into_iter()
            .filter(|(_, k)| !k.is_empty() && pages_with.get(k).is_some_and(|n| *n >= need))
            .map(|(i, _)| i)
            .collect();
        if drop.is_empty() {
            continue;
        }
        *p = p
            .lines()
            .enumerate()
            .filter(|(i, _)| !drop.contains(i))
            .map(|(_, l)| l)
            .collect::<Vec<_>>()
            .join("\n");
    }
}

/// Most entries (and nodes) of a `/PageLabels` number tree read, and its
/// deepest nesting (a hostile file cannot make the loader loop or recurse without
/// end).
const MAX_LABEL_RANGES: usize = 10_000;
const MAX_LABEL_DEPTH: usize = 16;

/// The printed label of each physical page (index 0 = page 1) from the
/// catalog's `/PageLabels` number tree (PDF 32000-1, 12.4.2): each range
/// starts at a page index and gives a numbering style (`/S`: D decimal, R/r
/// Roman, A/a letters, none: the prefix alone), a prefix (`/P`) and a first
/// number (`/St`, default 1). None when the document has no labels.
pub(crate) fn page_labels(doc: &Document, pages: usize) -> Option<Vec<String>> {
    let root = doc.catalog().ok()?.get(b"PageLabels").ok()?;
    let mut ranges: Vec<(usize, &Dictionary)> = Vec::new();
    let mut budget = MAX_LABEL_RANGES;
    collect_ranges(doc, root, &mut ranges, 0, &mut budget);
    ranges.sort_by_key(|r| r.0);
    if ranges.is_empty() || pages == 0 {
        return None;
    }
    let labels = (0..pages)
        .map(|i| match ranges.iter().rev().find(|r| r.0 <= i) {
            Some(&(start, d)) => range_label(doc, d, i - start),
            // Before the first range (a malformed tree): the physical page.
            None => (i + 1).to_string(),
        })
        .collect();
    Some(labels)
}

fn collect_ranges<'a>(
    doc: &'a Document,
    node: &'a Object,
    out: &mut Vec<(usize, &'a Dictionary)>,
    depth: usize,
    budget: &mut usize,
) {
    // Every node visited costs one: a tree whose kids point back at it
    // ends however wide it is.
    if depth > MAX_LABEL_DEPTH || out.len() >= MAX_LABEL_RANGES || *budget == 0 {
        return;
    }
    *budget -= 1;
    let Some(node) = doc
        .dereference(node)
        .ok()
        .and_then(|(_, o)| o.as_dict().ok())
    else {
        return;
    };
    if let Some(nums) = node
        .get(b"Nums")
        .ok()
        .and_then(|o| doc.dereference(o).ok())
        .and_then(|(_, o)| o.as_array().ok())
    {
        for pair in nums.chunks_exact(2) {
            if out.len() >= MAX_LABEL_RANGES {
                return;
            }
            let start = doc
                .dereference(&pair[0])
                .ok()
                .and_then(|(_, o)| o.as_i64().ok());
            let dict = doc
                .dereference(&pair[1])
                .ok()
                .and_then(|(_, o)| o.as_dict().ok());
            if let (Some(start), Some(dict)) = (start, dict)
                && let Ok(start) = usize::try_from(start)
            {
                out.push((start, dict));
            }
        }
    }
    if let Some(kids) = node
        .get(b"Kids")
        .ok()
        .and_then(|o| doc.dereference(o).ok())
        .and_then(|(_, o)| o.as_array().ok())
    {
        for kid in kids {
            collect_ranges(doc, kid, out, depth + 1, budget);
        }
    }
}

/// The label of the page `offset` pages into the range `d`.
fn range_label(doc: &Document, d: &Dictionary, offset: usize) -> String {
    let get = |k: &[u8]| {
        d.get(k)
            .ok()
            .and_then(|o| doc.dereference(o).ok())
            .map(|(_, o)| o)
    };
    let prefix = get(b"P")
        .and_then(|o| lopdf::decode_text_string(o).ok())
        .unwrap_or_default();
    let first = get(b"St")
        .and_then(|o| o.as_i64().ok())
        .filter(|n| *n >= 1)
        .unwrap_or(1);
    let n = (first as u64).saturating_add(offset as u64);
    let number = match get(b"S").and_then(|o| o.as_name().ok()) {
        Some(b"D") => n.to_string(),
        Some(b"R") => roman(n).to_uppercase(),
        Some(b"r") => roman(n),
        Some(b"A") => letters(n).to_uppercase(),
        Some(b"a") => letters(n),
        _ => String::new(),
    };
    super::collapse_ws(&format!("{prefix}{number}"))
}

/// Lower-case Roman numerals (i, iv, xl, mmxxiv); past 4999, decimal.
pub(crate) fn roman(n: u64) -> String {
    if n == 0 || n > 4999 {
        return n.to_string();
    }
    let mut n = n;
    let mut out = String::new();
    for (v, s) in [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ] {
        while n >= v {
            out.push_str(s);
            n -= v;
        }
    }
    out
}

/// Letter labels as PDF defines them: a–z, then aa–zz, then aaa–zzz…
/// (the letter repeated), capped at 100 letters.
fn letters(n: u64) -> String {
    if n == 0 {
        return String::new();
    }
    let letter = (b'a' + ((n - 1) % 26) as u8) as char;
    let times = (((n - 1) / 26) + 1).min(100) as usize;
    std::iter::repeat_n(letter, times).collect()
}

/// An Info title that names a work, not a file or a template.
fn real_title(t: &str) -> bool {
    let l = t.to_lowercase();
    t.chars().filter(|c| c.is_alphabetic()).count() >= 4
        && ![
            ".doc",
            ".tex",
            ".dvi",
            ".pdf",
            ".indd",
            "untitled",
            "microsoft word",
            "powerpoint",
            "slide 1",
            "title",
            "document",
        ]
        .iter()
        .any(|bad| l.contains(bad) && (bad.starts_with('.') || l.len() < 40 || bad.contains(' ')))
}

/// The page's paragraphs. PDF text layers often put a blank line inside a
/// paragraph; two pieces are one paragraph when the first ends in a word
/// hyphenated at the line end ("state-of-" + "the-art"), runs on without
/// closing punctuation into a piece whose first letter (past an opening
/// quote or bracket) is lower case ("which has a" + "‘camphoraceous’"), or
/// ends on a word no sentence ends on ("The" + "MMACE method…"), or, being
/// no heading, runs on into a bracket ("artificial intelligence" + "(XAI)
/// is…") or ends on a comma ("However," + "DL models…").
fn split_paragraphs(page: &str) -> Vec<String> {
    const RUNS_ON: &[&str] = &[
        "a", "an", "the", "of", "to", "and", "or", "with", "by", "for", "from", "in", "into", "on",
        "at", "as", "that", "which", "whose",
    ];
    let mut out: Vec<String> = Vec::new();
    for piece in page.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
        let joins = out.last().is_some_and(|prev: &String| {
            let mut tail = prev.chars().rev();
            let (last, before) = (tail.next().unwrap_or(' '), tail.next().unwrap_or(' '));
            let first = piece.chars().next().unwrap_or(' ');
            let first_letter = piece
                .chars()
                .find(|c| !matches!(c, '‘' | '“' | '"' | '\'' | '(' | '['))
                .unwrap_or(' ');
            let last_word = prev.rsplit(char::is_whitespace).next().unwrap_or("");
            let ends = matches!(last, '.' | '!' | '?' | ':' | ';' | '"' | '\u{201D}');
            // A line of a paragraph, not a heading of its own.
            let text = prev.contains('\n') || !looks_like_heading(prev);
            (last == '-' && before.is_alphabetic() && first.is_alphabetic())
                || (first_letter.is_lowercase() && !ends)
                || (RUNS_ON.contains(&last_word.to_lowercase().as_str()) && first.is_alphanumeric())
                // A sentence broken before a bracket or after a comma goes
                // on: "…artificial intelligence" / "(XAI) is a branch…",
                // "…watermark and," / "2) neural networks…".
                || (text && !ends && first == '(')
                || (text && last == ',' && (first.is_alphanumeric() || first == '('))
        });
        match out.last_mut() {
            Some(prev) if joins => {
                prev.push('\n');
                prev.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out
}

fn looks_like_heading(s: &str) -> bool {
    let s = s.trim();
    let n = s.chars().count();
    (2..=80).contains(&n)
        && s.chars()
            .next()
            .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
        && !s.ends_with(['.', ',', ';', ':', '?', '!', '"', '\u{201d}'])
        && s.split_whitespace().count() <= 12
        // A footnote's number or address ("15", "2https://…") is no heading.
        && s.chars().any(char::is_alphabetic)
        && !s.contains("://")
        && !s.contains("www.")
        // A table's row ("LeRaC (ours) 70.95 ± 0.56") or a caption ("Table 7
        // Average accuracy rates", "Fig. 3 …") is no section: past a
        // section number, a heading holds one number at most (a year, a
        // range of years).
        && s.split_whitespace()
            .skip(1)
            .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
            .count()
            <= 1
        && !s.contains(['±', '%', '='])
        // Nor a line of text that cites ("Rohit Punnoose et al [1] explored").
        && !s.contains(" et al")
        && !s
            .match_indices('[')
            .any(|(i, _)| s[i + 1..].starts_with(|c: char| c.is_ascii_digit()))
        && !is_caption(s)
}

/// "Table 7 …", "Fig. 3 …", "Figure 12: …".
fn is_caption(s: &str) -> bool {
    let mut words = s.split_whitespace();
    let first = words.next().unwrap_or("").trim_end_matches('.');
    matches!(
        first,
        "Table" | "TABLE" | "Fig" | "FIG" | "Figure" | "FIGURE"
    ) && words
        .next()
        .is_some_and(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests;
