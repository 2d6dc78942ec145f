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
//!   level, or up to the first paragraph of prose;
//! - a contents entry elsewhere: a short paragraph ending in a page
//!   reference ("_Page 3_", "…… 17", "  xii"), or a longer one most of
//!   whose lines are entries (a contents or index page);
//! - a list of references or a bibliography: the heading and every block
//!   under it up to the next heading of the same or a higher level (an
//!   entry's line read as a heading aside), or up to a paragraph of prose
//!   that has no mark of an entry (year, DOI, pages, venue);
//! - a marker paragraph: `[Sidenote: …]`, `[Illustration: …]`, `[Music
//!   illustration]`, `[Figure 12]`, also when broken over a few blocks;
//! - an edition's link: "To hear this music (MIDI), click here.", "ToC".

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
    "transcriber's notes",
    "transcriber's note",
    "transcribers' notes",
    "transcriber’s notes",
    "transcriber’s note",
];

/// A work's list of the works it cites.
const REFERENCES: &[&str] = &[
    "references",
    "bibliography",
    "select bibliography",
    "works cited",
    "literature cited",
    "reference list",
    "references and notes",
    "cited literature",
];

/// The heading's words, lower-cased, past a section number ("7
/// References", "VII. REFERENCES", "8. Bibliography").
fn heading_words(text: &str) -> String {
    let t = text.trim();
    let t = match t.split_once(char::is_whitespace) {
        Some((number, rest))
            if number
                .trim_end_matches('.')
                .chars()
                .all(|c| c.is_ascii_digit() || "IVXLivxl.".contains(c)) =>
        {
            rest
        }
        _ => t,
    };
    t.trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

fn is_apparatus_heading(text: &str) -> bool {
    APPARATUS.contains(&heading_words(text).as_str())
}

fn is_references_heading(text: &str) -> bool {
    REFERENCES.contains(&heading_words(text).as_str())
}

/// Does the text read as (part of) a reference entry: a number in
/// brackets before it, authors' initials, a year, a DOI or address, pages,
/// a volume, a venue? A paragraph of prose in a references
/// section with none of these ends the section (a heading the layout did
/// not read as one); a "heading" with one is an entry's line.
fn is_reference_like(p: &str) -> bool {
    let lower = p.to_lowercase();
    let year = p.as_bytes().windows(4).enumerate().any(|(i, w)| {
        w.iter().all(u8::is_ascii_digit)
            && matches!(&w[..2], b"15" | b"16" | b"17" | b"18" | b"19" | b"20")
            && !p.as_bytes().get(i + 4).is_some_and(u8::is_ascii_digit)
            && !(i > 0 && p.as_bytes()[i - 1].is_ascii_digit())
    });
    // "[12] …", "(128) …": a numbered entry.
    let t = p.trim_start();
    let numbered = [('[', ']'), ('(', ')')].iter().any(|(open, close)| {
        t.strip_prefix(*open)
            .and_then(|r| r.split_once(*close))
            .is_some_and(|(n, _)| {
                !n.is_empty() && n.len() <= 4 && n.chars().all(|c| c.is_ascii_digit())
            })
    });
    // Authors' initials: "Wager, T. T.; Hou, X.;".
    let initials = p
        .split_whitespace()
        .filter(|w| {
            let w = w.trim_end_matches([',', ';']);
            w.len() == 2 && w.ends_with('.') && w.starts_with(char::is_uppercase)
        })
        .count();
    let word = |w: &str| {
        let w = w
            .trim_start_matches(['(', '['])
            .trim_end_matches([',', ')']);
        [
            "pp.",
            "vol.",
            "ed.",
            "eds.",
            "in:",
            "press",
            "proceedings",
            "conference",
            "journal",
        ]
        .contains(&w)
    };
    year || numbered
        || initials >= 3
        || ["doi:", "doi.org", "arxiv", "http", "et al"]
            .iter()
            .any(|m| lower.contains(m))
        || lower.split_whitespace().any(word)
}

/// Byte offset just past the line that holds `at`.
fn line_end(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |i| at + i + 1)
}

/// (end of front matter, start of back matter) by the Gutenberg markers.
fn boilerplate_bounds(text: &str) -> (usize, usize) {
    // Markers are ASCII; search a lowercased copy (same byte offsets).
    let lower = text.to_ascii_lowercase();
    // "*** START OF THE PROJECT GUTENBERG EBOOK" and "***START OF …": the
    // stars with or without a space.
    let starred = |from: usize, m: &str| {
        lower[from..]
            .match_indices(m)
            .map(|(i, _)| i + from)
            .find(|&at| lower[..at].trim_end().ends_with("***"))
    };
    let front = [
        "start of this project gutenberg",
        "start of the project gutenberg",
    ]
    .iter()
    .filter_map(|m| starred(0, m))
    .min()
    .map_or(0, |at| line_end(text, at));
    let back = [
        "end of this project gutenberg",
        "end of the project gutenberg",
    ]
    .iter()
    .filter_map(|m| starred(front, m))
    .chain(
        [
            "end of the project gutenberg ebook",
            "end of project gutenberg's",
            "end of this project gutenberg ebook",
        ]
        .iter()
        .filter_map(|m| lower[front..].find(m).map(|i| i + front)),
    )
    .min()
    .map_or(text.len(), |at| {
        // From the start of that line.
        text[..at].rfind('\n').map_or(0, |i| i + 1)
    });
    (front, back)
}

/// Is the paragraph a contents or index entry: up to three lines whose
/// last is one ([`is_entry`]), one whose last names its page or sets it
/// after leaders, or one with most lines entries (a contents or index
/// page)? A sentence that ends "…on page 12.", or a stanza whose last
/// line bears its number, is prose.
fn ends_in_page_ref(p: &str) -> bool {
    let lines: Vec<&str> = p.lines().filter(|l| !l.trim().is_empty()).collect();
    let Some(last) = lines.last() else {
        return false;
    };
    if lines.len() <= 3 && is_entry(last, false) {
        return true;
    }
    // A chapter's summary in a contents list ("Purpose and scope of this
    // book--… _Page 3_"): its page named, or set after leaders.
    let lower = last.to_lowercase();
    let named = lower.contains("page") || lower.contains("..") || lower.contains(". .");
    let entries = lines.iter().filter(|l| is_entry(l, true)).count();
    (named && is_entry(last, false)) || (lines.len() > 3 && entries * 10 >= lines.len() * 6)
}

/// Does the line end in a page reference after a gap or leaders ("……
/// 17", "Preface   xii", "_Page 3_", "Contents . . . . 4"), or, with
/// `index`, in an index entry's pages after a comma ("keepers, wages of,
/// 33-35")?
fn is_entry(line: &str, index: bool) -> bool {
    let last = line.trim_end().trim_end_matches(['_', '*', '.']).trim_end();
    let lower = last.to_lowercase();
    let page_number = |n: &str| {
        !n.is_empty()
            && n.len() <= 5
            && (n.chars().all(|c| c.is_ascii_digit()) || n.chars().all(|c| "ivxlc".contains(c)))
    };
    // What stands before a page number in a contents entry: a wide gap,
    // dot leaders, emphasis, or nothing.
    let apart = |before: &str| {
        let b = before.trim_end_matches(['_', '*']);
        b.trim().is_empty()
            || b.ends_with("   ")
            || b.ends_with('\t')
            || b.trim_end().ends_with("..")
            || b.trim_end().ends_with(". .")
    };
    // "_Page 3_", "Preface   page xii"
    if let Some(at) = lower.rfind("page ")
        && page_number(&lower[at + 5..])
        && apart(&lower[..at])
    {
        return true;
    }
    let Some((ws, sep)) = last
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace() || *c == '.')
    else {
        return false;
    };
    let num = &last[ws + sep.len_utf8()..];
    if page_number(num) && apart(&last[..ws + sep.len_utf8()]) {
        return true;
    }
    // An index entry: words, then pages after a comma.
    index
        && last.split_whitespace().count() <= 12
        && last.rsplit_once(", ").is_some_and(|(words, pages)| {
            words.chars().any(char::is_alphabetic)
                && pages.starts_with(|c: char| c.is_ascii_digit())
                && pages
                    .chars()
                    .all(|c| c.is_ascii_digit() || "-–, ;".contains(c))
        })
}

/// A paragraph of the work's prose: thirty words or more, few of them
/// numbers. Under a contents heading it ends the contents: a book whose
/// chapter headings are not read as headings still has its text.
fn is_prose(p: &str) -> bool {
    let words: Vec<&str> = p.split_whitespace().collect();
    let numbers = words
        .iter()
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
        .count();
    words.len() >= 30 && numbers * 10 < words.len()
}

/// How an editor's bracketed marker opens: a sidenote, a picture, a piece
/// of music shown as a picture.
const MARKERS: &[&str] = &[
    "[sidenote:",
    "[illustration",
    "[music illustration",
    "[figure",
    "[music:",
];

/// Opens with an editor's marker ([`MARKERS`]).
fn opens_marker(p: &str) -> bool {
    let t = p.trim_start().to_lowercase();
    MARKERS.iter().any(|m| t.starts_with(m))
}

fn is_marker(p: &str) -> bool {
    opens_marker(p) && p.trim_end().ends_with(']')
}

/// A transcriber's link under a picture of music or to a file ("To hear
/// this music (MIDI), click here."), or a link back to the contents
/// ("ToC", "Back to top"): the edition's, not the work's.
fn is_edition_link(p: &str) -> bool {
    let t = p.trim().trim_matches(['[', ']']).trim().to_lowercase();
    let short = t.split_whitespace().count() <= 25;
    let nav = [
        "toc",
        "top",
        "contents",
        "back to top",
        "back to contents",
        "return to top",
        "return to contents",
        "back to the table of contents",
    ];
    nav.contains(&t.trim_end_matches('.'))
        || (short
            && t.contains("click here")
            && ["midi", "music", "lilypond", "image", "file", "listen"]
                .iter()
                .any(|w| t.contains(w)))
}

/// Mark apparatus blocks as asides (see the module docs).
pub fn classify(ex: &mut Extracted) {
    let (front, back) = boilerplate_bounds(&ex.text);
    // Inside an apparatus section: the level of its heading.
    let mut section: Option<u8> = None;
    // The section is a list of references.
    let mut references = false;
    // Blocks left for a marker opened and not closed to close in.
    let mut open_marker = 0u8;
    for b in &mut ex.blocks {
        if b.end <= front || b.start >= back {
            b.kind = BlockKind::Aside;
            continue;
        }
        match &b.kind {
            BlockKind::Heading { level, text } => {
                // An entry's line read as a heading ("Networks. Proceedings
                // of the 34th International Conference…") stays in them.
                let entry_line = references && is_reference_like(text);
                if section.is_some_and(|l| *level <= l) && !entry_line {
                    section = None;
                    references = false;
                }
                if section.is_none() && is_apparatus_heading(text) {
                    section = Some(*level);
                }
                if section.is_none() && is_references_heading(text) {
                    section = Some(*level);
                    references = true;
                }
                if section.is_some() {
                    b.kind = BlockKind::Aside;
                }
            }
            BlockKind::Para | BlockKind::Note => {
                let p = &ex.text[b.start..b.end];
                let entry = ends_in_page_ref(p);
                // References run on for pages of long entries; prose with
                // no mark of one ends them.
                let ends = if references {
                    is_prose(p) && !is_reference_like(p)
                } else {
                    !entry && is_prose(p)
                };
                if section.is_some() && ends {
                    section = None;
                    references = false;
                }
                // A marker broken over blocks ("[Illustration: PLATE I" /
                // "VIOLIN--(CLIFFORD SCHMIDT)]") is one to its close.
                let opens = opens_marker(p) && !p.contains(']');
                let inside = open_marker > 0 && p.split_whitespace().count() <= 60;
                if inside && p.contains(']') {
                    open_marker = 0;
                } else if opens {
                    open_marker = 4;
                } else if inside {
                    open_marker -= 1;
                } else {
                    open_marker = 0;
                }
                if section.is_some()
                    || entry
                    || is_marker(p)
                    || is_edition_link(p)
                    || opens
                    || inside
                {
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

    /// The first lines of the blocks that are not asides.
    fn prose(text: &str) -> Vec<String> {
        kinds(text)
            .into_iter()
            .filter(|(_, aside)| !aside)
            .map(|(t, _)| t)
            .collect()
    }

    #[test]
    fn licence_banner_contents_and_sidenotes_are_asides() {
        let text = "Project Gutenberg's Music, by A. Writer\n\nThis eBook is for the use of anyone anywhere.\n\n*** START OF THIS PROJECT GUTENBERG EBOOK MUSIC ***\n\nCONTENTS\n\n[Sidenote: CHAP. I.]\n\nPurpose and scope of this book--Not written for professional\nmusicians.                      _Page 3_\n\nCHAPTER I\n\nThe sonata form was shaped by many hands over a century.\n\n[Sidenote: _Sonata form._]\n\nHaydn gave it its classical balance.\n\n*** END OF THIS PROJECT GUTENBERG EBOOK MUSIC ***\n\nThe Full Project Gutenberg License applies here.\n";
        let found = prose(text);
        assert_eq!(
            found,
            [
                "CHAPTER I",
                "The sonata form was shaped by many hands over a century.",
                "Haydn gave it its classical balance."
            ]
        );
        // The stars without a space; a transcriber's notes.
        let text = "This eBook is for the use of anyone anywhere.\n\n\
                    ***START OF THE PROJECT GUTENBERG EBOOK BEETHOVEN***\n\n\
                    TRANSCRIBER'S NOTES\n\nItalic text is represented by _underscores_.\n\n\
                    CHAPTER I\n\nHe was born in Bonn.\n\n\
                    ***END OF THE PROJECT GUTENBERG EBOOK BEETHOVEN***\n\nLicence.\n";
        assert_eq!(prose(text), ["CHAPTER I", "He was born in Bonn."]);
    }

    #[test]
    fn page_references() {
        assert!(ends_in_page_ref("Introduction and scope ....... 17"));
        assert!(ends_in_page_ref("Preface      xii"));
        assert!(ends_in_page_ref("blunders by Tennyson.           _Page 3_"));
        assert!(!ends_in_page_ref("He was born in 1770."));
        assert!(!ends_in_page_ref("They played it 3 times"));
        // The red team's prose and verse.
        assert!(!ends_in_page_ref(
            "The light was first lit in 1811, as shown on page 12."
        ));
        assert!(!ends_in_page_ref(
            "Far in the bosom of the deep,\nO'er these wild shelves my watch I keep;\n\
             A ruddy gem of changeful light,\nBound on the dusky brow of night.          4"
        ));
        assert!(ends_in_page_ref("Contents . . . . . 4"));
        // A contents or index page read as one block.
        assert!(ends_in_page_ref(
            "1 The great storm of 1839 . . . . 17\n2 The keepers . . . . 25\n\
             3 The lantern glass . . . . 31\n4 Wages . . . . 40\nPreface"
        ));
        assert!(ends_in_page_ref(
            "Arbroath, signal tower at, 4, 12, 33\nBell Rock, building of, 1-16; storm at, 17-20\n\
             keepers, wages of, 33-35; families of, 36\nlantern glass, broken, 17, 19"
        ));
    }

    /// An editor's markers, whole or broken over blocks, and an edition's
    /// links are apparatus; the prose around them is not.
    #[test]
    fn markers_and_edition_links_are_asides() {
        let text = "The violin leads the strings.\n\n[Illustration: PLATE I\n\n\
                    VIOLIN--(CLIFFORD SCHMIDT)]\n\nThe viola is larger.\n\n[Music illustration]\n\n\
                    [Figure 41]\n\nTo hear this music (MIDI), click here.\n\n\
                    To view the Lilypond source file, click here.\n\nToC\n\nThe cello sings.\n";
        let found = prose(text);
        assert_eq!(
            found,
            [
                "The violin leads the strings.",
                "The viola is larger.",
                "The cello sings."
            ]
        );
        // Words of the work that happen to say "click here" stay.
        assert!(!is_edition_link(
            "He said: click here, and nothing happened."
        ));
    }

    /// A paper's references are apparatus up to the next section, long
    /// entries and an entry's line read as a heading included; prose
    /// that is no entry ends them.
    #[test]
    fn references_are_asides() {
        let text = "RESULTS\n\nThe method found every fault in the survey of the station and the keepers \
                    kept the light burning through the storm of that winter, as the logs of the \
                    board show for every night of it without exception.\n\n7 REFERENCES\n\n\
                    Agrawal, A., Fu, W., Chen, D., Shen, X. and Menzies, T. (2019). How to dodge \
                    complexity in the analysis of software and the tuning of learners, in the \
                    proceedings of a meeting of people who write about learners and analysis.\n\n\
                    NETWORKS PROCEEDINGS OF THE CONFERENCE\n\n\
                    Computational Materials, 8.\n\nAPPENDIX\n\nThe proof of the first claim \
                    follows from the second, as the keepers knew, because every light that was \
                    kept burning through the night was logged by the keeper on watch at the \
                    station and checked by the board.\n";
        let k = kinds(text);
        let asides: Vec<bool> = k.iter().map(|(_, a)| *a).collect();
        assert_eq!(
            asides,
            [false, false, true, true, true, true, false, false],
            "{k:?}"
        );
        // Prose without a mark of an entry ends the references when no
        // heading does.
        let text = "REFERENCES\n\n[1] Smith, J. (2001). Lights. Journal of Lights, 3.\n\n\
                    The keepers kept the light burning through the storm of that winter and \
                    the board praised every one of them for the care they took of the lamps \
                    and the glass in the lantern on the rock that year.\n";
        let k = kinds(text);
        assert!(k[0].1 && k[1].1 && !k[2].1, "{k:?}");
        assert!(is_reference_like(
            "(128) Wager, T. T.; Chandrasekaran, R. Y.; Hou, X. Defining Desirable Drug Space"
        ));
        assert!(is_reference_like("[4] A title of a work"));
        assert!(!is_reference_like(
            "The keepers (two of them) lit the lamp at dusk, as the board asked."
        ));
        assert!(is_references_heading("VII. REFERENCES"));
        assert!(is_references_heading("Bibliography"));
        assert!(!is_references_heading("References to the sea in poetry"));
    }

    /// Prose after a contents heading ends the contents, when no heading
    /// of its level follows (the red team's book).
    #[test]
    fn prose_ends_the_contents() {
        let text = "CONTENTS\n\nThe Storm      1\n\nThe Keepers      9\n\n\
                    The great storm of 1839 broke the lantern glass but the light was shown again \
                    the next night, for the keepers had kept a spare set of panes in the store room \
                    below the kitchen, as the Board required of every rock station.\n";
        let k = kinds(text);
        assert!(k[1].1 && k[2].1, "{k:?}");
        assert!(!k[3].1, "{k:?}");
    }
}
