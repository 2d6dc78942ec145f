//! Passage kinds: which blocks are the work's prose, and which are apparatus
//! that must never be offered as a quote nor crowd out prose in search.
//!
//! A block becomes an [`BlockKind::Aside`] (kept in the text, so offsets
//! stay exact, but neither chunked nor searched) when it is:
//! - licence boilerplate: everything up to and including Project
//!   Gutenberg's `*** START OF …` line, and from its `*** END OF …` /
//!   "End of the Project Gutenberg EBook" line on;
//! - a table of contents, list of illustrations or index: the heading and
//!   every block under it up to the next heading of the same or a higher
//!   level;
//! - a contents entry elsewhere: a paragraph ending in a page reference
//!   ("_Page 3_", "…… 17", "  xii");
//! - a marker paragraph: `[Sidenote: …]`, `[Illustration: …]`.

use super::{BlockKind, Extracted};

const APPARATUS: &[&str] = &[
    "contents",
    "table of contents",
    "index",
    "general index",
    "list of illustrations",
    "illustrations",
    "list of plates",
    "list of figures",
    "list of tables",
];

fn is_apparatus_heading(text: &str) -> bool {
    let t = text
        .trim()
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    APPARATUS.contains(&t.as_str())
}

/// Byte offset just past the line that holds `at`.
fn line_end(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |i| at + i + 1)
}

/// (end of front matter, start of back matter) by the Gutenberg markers.
fn boilerplate_bounds(text: &str) -> (usize, usize) {
    // Markers are ASCII; search a lowercased copy (same byte offsets).
    let lower = text.to_ascii_lowercase();
    let front = [
        "*** start of this project gutenberg",
        "*** start of the project gutenberg",
    ]
    .iter()
    .filter_map(|m| lower.find(m))
    .min()
    .map_or(0, |at| line_end(text, at));
    let back = [
        "*** end of this project gutenberg",
        "*** end of the project gutenberg",
        "end of the project gutenberg ebook",
        "end of project gutenberg's",
        "end of this project gutenberg ebook",
    ]
    .iter()
    .filter_map(|m| lower[front..].find(m).map(|i| i + front))
    .min()
    .map_or(text.len(), |at| {
        // From the start of that line.
        text[..at].rfind('\n').map_or(0, |i| i + 1)
    });
    (front, back)
}

/// Does the paragraph end in a page reference (a contents entry)?
fn ends_in_page_ref(p: &str) -> bool {
    let last = p.trim_end().lines().last().unwrap_or("").trim_end();
    let last = last.trim_end_matches(['_', '*', '.']).trim_end();
    let lower = last.to_lowercase();
    // "_Page 3_", "page 27"
    if let Some(at) = lower.rfind("page ") {
        let num = &lower[at + 5..];
        if !num.is_empty()
            && num
                .chars()
                .all(|c| c.is_ascii_digit() || "ivxlc".contains(c))
        {
            return true;
        }
    }
    // "…… 17", "Chapter One     12", "Preface   xii"
    let Some((ws, sep)) = last
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace() || *c == '.')
    else {
        return false;
    };
    let num = &last[ws + sep.len_utf8()..];
    let num_ok = !num.is_empty()
        && num.len() <= 5
        && (num.chars().all(|c| c.is_ascii_digit()) || num.chars().all(|c| "ivxlc".contains(c)));
    let gap = &last[..ws + sep.len_utf8()];
    num_ok && (gap.ends_with("   ") || gap.trim_end().ends_with(".."))
}

fn is_marker(p: &str) -> bool {
    let t = p.trim_start().to_lowercase();
    (t.starts_with("[sidenote:") || t.starts_with("[illustration")) && p.trim_end().ends_with(']')
}

/// Mark apparatus blocks as asides (see the module docs).
pub fn classify(ex: &mut Extracted) {
    let (front, back) = boilerplate_bounds(&ex.text);
    // Inside an apparatus section: the level of its heading.
    let mut section: Option<u8> = None;
    for b in &mut ex.blocks {
        if b.end <= front || b.start >= back {
            b.kind = BlockKind::Aside;
            continue;
        }
        match &b.kind {
            BlockKind::Heading { level, text } => {
                if section.is_some_and(|l| *level <= l) {
                    section = None;
                }
                if section.is_none() && is_apparatus_heading(text) {
                    section = Some(*level);
                }
                if section.is_some() {
                    b.kind = BlockKind::Aside;
                }
            }
            BlockKind::Para | BlockKind::Note => {
                let p = &ex.text[b.start..b.end];
                if section.is_some() || ends_in_page_ref(p) || is_marker(p) {
                    b.kind = BlockKind::Aside;
                }
            }
            BlockKind::Aside => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::plain;

    fn kinds(text: &str) -> Vec<(String, bool)> {
        let mut ex = plain::extract(text, plain::Flavor::Text);
        classify(&mut ex);
        ex.blocks
            .iter()
            .map(|b| {
                (
                    ex.text[b.start..b.end]
                        .lines()
                        .next()
                        .unwrap_or("")
                        .to_string(),
                    matches!(b.kind, BlockKind::Aside),
                )
            })
            .collect()
    }

    #[test]
    fn licence_banner_contents_and_sidenotes_are_asides() {
        let text = "Project Gutenberg's Music, by A. Writer\n\nThis eBook is for the use of anyone anywhere.\n\n*** START OF THIS PROJECT GUTENBERG EBOOK MUSIC ***\n\nCONTENTS\n\n[Sidenote: CHAP. I.]\n\nPurpose and scope of this book--Not written for professional\nmusicians.                      _Page 3_\n\nCHAPTER I\n\nThe sonata form was shaped by many hands over a century.\n\n[Sidenote: _Sonata form._]\n\nHaydn gave it its classical balance.\n\n*** END OF THIS PROJECT GUTENBERG EBOOK MUSIC ***\n\nThe Full Project Gutenberg License applies here.\n";
        let k = kinds(text);
        let prose: Vec<&str> = k
            .iter()
            .filter(|(_, aside)| !aside)
            .map(|(t, _)| t.as_str())
            .collect();
        assert_eq!(
            prose,
            [
                "CHAPTER I",
                "The sonata form was shaped by many hands over a century.",
                "Haydn gave it its classical balance."
            ]
        );
    }

    #[test]
    fn page_references() {
        assert!(ends_in_page_ref("Introduction and scope ....... 17"));
        assert!(ends_in_page_ref("Preface      xii"));
        assert!(ends_in_page_ref("blunders by Tennyson.           _Page 3_"));
        assert!(!ends_in_page_ref("He was born in 1770."));
        assert!(!ends_in_page_ref("They played it 3 times"));
    }
}
