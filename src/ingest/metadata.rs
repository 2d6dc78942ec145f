//! Titles and authors a reader would give a work.
//!
//! In order: the format's own metadata (HTML `<title>`, DOCX
//! `docProps/core.xml`, the loaders' [`Extracted::title`]), an RFC-822-style
//! header block at the top (`Title:` / `Author:`, as PEPs, Project Gutenberg
//! texts and e-mail have) or Markdown YAML front matter, then the first
//! top-level heading, then the file name. A licence banner ("*** START OF
//! THIS PROJECT GUTENBERG EBOOK …"), a generic section heading
//! ("Introduction", "Abstract", "Contents") or a line of punctuation is
//! never a title; "The Project Gutenberg eBook of X, by Y" gives X and Y.

use super::{BlockKind, Extracted};

/// Headings that name a part of a work, never the work.
const GENERIC: &[&str] = &[
    "abstract",
    "introduction",
    "contents",
    "table of contents",
    "preface",
    "foreword",
    "index",
    "acknowledgements",
    "acknowledgments",
    "summary",
    "overview",
    "notes",
    "references",
    "bibliography",
    "appendix",
    "copyright",
    "license",
    "licence",
    "transcriber's note",
    "transcriber's notes",
    "dedication",
    "epigraph",
    "all rights reserved",
    "untitled",
    "untitled document",
    "new document",
    "document",
];

/// A candidate title cleaned, or None when it is not a title at all.
/// Returns (title, author found in it).
pub fn clean_title(raw: &str) -> Option<(String, Option<String>)> {
    let t = super::collapse_ws(raw);
    let t = t.trim_matches(|c: char| c == '*' || c.is_whitespace());
    if t.chars().filter(|c| c.is_alphanumeric()).count() < 2 {
        return None;
    }
    let lower = t.to_lowercase();
    // Project Gutenberg's own banners and titles.
    if lower.starts_with("start of")
        || lower.starts_with("end of")
        || lower.contains("start of this project gutenberg")
        || lower.contains("start of the project gutenberg")
        || lower.contains("end of this project gutenberg")
        || lower.contains("end of the project gutenberg")
    {
        return None;
    }
    for prefix in [
        "the project gutenberg ebook of ",
        "the project gutenberg ebook, ",
        "the project gutenberg etext of ",
        "project gutenberg's ",
        "project gutenberg’s ",
        "the project gutenberg ebook ",
    ] {
        if lower.starts_with(prefix) {
            let rest = t[prefix.len()..].trim().trim_end_matches('.');
            let (title, author) = match rest.rfind(", by ") {
                Some(at) => (&rest[..at], Some(rest[at + 5..].trim().to_string())),
                None => (rest, None),
            };
            let title = title.trim();
            return (!title.is_empty()).then(|| (title.to_string(), author));
        }
    }
    if lower.contains("project gutenberg") || lower.contains("gutenberg license") {
        return None;
    }
    let bare = lower.trim_end_matches(['.', ':']).trim();
    let bare = bare
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ' ')
        .trim();
    if GENERIC.contains(&bare) || bare.starts_with("chapter ") {
        return None;
    }
    // Running heads, affiliations, dates and sentences found where a
    // paper's title would be.
    const NOT_TITLES: &[&str] = &[
        "published as",
        "preprint",
        "arxiv",
        "index terms",
        "keywords",
        "accepted",
        "proceedings of",
        "copyright",
        "under review",
        "page ",
        "vol.",
        "volume ",
        "issn",
        "doi",
        "pii:",
        "pii ",
        "this work is licensed",
        "licensed under",
        "creative commons",
        "all rights reserved",
    ];
    if NOT_TITLES.iter().any(|p| lower.starts_with(p))
        // An address, not a word ("HTTP/2 Support", "httplib" are titles).
        || ["http://", "https://", "www.", "arxiv:"].iter().any(|p| lower.contains(p))
    {
        return None;
    }
    // A numbered section ("2. Designing for the Cloud", "3.1 Results") is a
    // part of the work, not its title.
    let digits = t
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .count();
    if digits > 0 && t[digits..].starts_with(' ') {
        return None;
    }
    // So is one numbered in Roman numerals ("II. LITERATURE REVIEW").
    if let Some((first, _)) = t.split_once(". ")
        && !first.is_empty()
        && first.len() <= 5
        && first.chars().all(|c| "IVXLC".contains(c))
    {
        return None;
    }
    const AFFILIATION: &[&str] = &["university", "institute", "department", "laboratory", "@"];
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() <= 6 && AFFILIATION.iter().any(|a| lower.contains(a)) {
        return None;
    }
    const MONTHS: &[&str] = &[
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let is_dateish = |w: &&str| {
        let w = w
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        w.is_empty() || w.chars().all(|c| c.is_ascii_digit()) || MONTHS.contains(&w.as_str())
    };
    if words.iter().all(is_dateish) {
        return None;
    }
    // A sentence is not a title: long, with a full stop inside or running
    // on in lower case.
    let last_lower = words
        .last()
        .and_then(|w| w.chars().next())
        .is_some_and(char::is_lowercase);
    if words.len() > 20 || (words.len() > 8 && (t.contains(". ") || last_lower)) {
        return None;
    }
    Some((t.to_string(), None))
}

/// `Title:` and `Author:` from a header block in the first lines of a text
/// (continuation lines are indented; the header ends at the first line that
/// is neither a field, a continuation nor blank, within 80 lines). A PEP's
/// title is given with its number, as PEPs are cited ("PEP 8 – Style Guide
/// for Python Code"), so that a question naming "PEP 8" finds its passages.
fn header_fields(text: &str) -> (Option<String>, Option<String>) {
    let (mut title, mut author, mut pep) = (None, None, None);
    for line in text.lines().take(80) {
        let l = line.trim_end();
        let field = |name: &str| {
            l.strip_prefix(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        if title.is_none() {
            title = field("Title:");
        }
        if author.is_none() {
            author = field("Author:").or_else(|| field("Authors:"));
        }
        if pep.is_none() {
            pep = field("PEP:").filter(|n| n.chars().all(|c| c.is_ascii_digit()));
        }
        if title.is_some() && author.is_some() && pep.is_some() {
            break;
        }
    }
    let title = match (title, pep) {
        (Some(t), Some(n)) => Some(format!("PEP {n} – {t}")),
        (t, _) => t,
    };
    (title, author)
}

/// `title:` and `author:` of YAML front matter (`---` … `---` at the top),
/// or `title =` and `author =` of TOML front matter (`+++` … `+++`).
pub(super) fn front_matter(text: &str) -> (Option<String>, Option<String>) {
    let (rest, fence, sep) = match ["---", "+++"].into_iter().find_map(|f| {
        let rest = text.strip_prefix(f)?;
        let rest = rest
            .strip_prefix('\n')
            .or_else(|| rest.strip_prefix("\r\n"))?;
        Some((rest, f))
    }) {
        Some((rest, "---")) => (rest, "\n---", ':'),
        Some((rest, _)) => (rest, "\n+++", '='),
        None => return (None, None),
    };
    let Some(end) = rest.find(fence) else {
        return (None, None);
    };
    let (mut title, mut author) = (None, None);
    for line in rest[..end].lines() {
        let Some((key, value)) = line.split_once(sep) else {
            continue;
        };
        let value = value
            .trim()
            .trim_matches(|c| c == '"' || c == '\'')
            .to_string();
        if value.is_empty() {
            continue;
        }
        match key.trim_end() {
            "title" => title = Some(value),
            "author" => author = Some(value),
            _ => {}
        }
    }
    (title, author)
}

/// Settle `ex.title` and `ex.author` as the module docs say; `stem` is the
/// file name without its extension.
pub fn settle(ex: &mut Extracted, stem: &str) {
    let mut cut = ex.text.len().min(16 * 1024);
    while !ex.text.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = &ex.text[..cut];
    let (fm_title, fm_author) = front_matter(head);
    let (h_title, h_author) = header_fields(head);
    let mut author = ex.author.take().or(fm_author).or(h_author);
    // Headings that could name the work: top levels, and for paged formats
    // only those of the first page.
    let headings = ex.blocks.iter().filter_map(|b| match &b.kind {
        BlockKind::Heading { level, text } if *level <= 2 && b.page.is_none_or(|p| p == 1) => {
            Some(text.clone())
        }
        _ => None,
    });
    let candidates = fm_title
        .into_iter()
        .chain(h_title)
        .chain(ex.title.take())
        .chain(headings.take(8));
    let mut title = None;
    for c in candidates {
        if let Some((t, a)) = clean_title(&c) {
            if author.is_none() {
                author = a;
            }
            title = Some(t);
            break;
        }
    }
    ex.title = Some(title.unwrap_or_else(|| stem.to_string()));
    ex.author = author.map(|a| super::collapse_ws(&a));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn title_of(text: &str, meta: Option<&str>, headings: &[&str]) -> (String, Option<String>) {
        let mut ex = Extracted {
            text: text.to_string(),
            title: meta.map(str::to_string),
            ..Default::default()
        };
        for h in headings {
            ex.blocks.push(super::super::Block {
                kind: BlockKind::Heading {
                    level: 1,
                    text: h.to_string(),
                },
                start: 0,
                end: 0,
                page: None,
            });
        }
        settle(&mut ex, "file-stem");
        (ex.title.unwrap(), ex.author)
    }

    #[test]
    fn gutenberg_banners_are_not_titles() {
        let text = "Project Gutenberg's How to Listen to Music, 7th ed., by Henry Edward Krehbiel\r\n\r\nThis eBook is for the use of anyone\r\n\r\nTitle: How to Listen to Music, 7th ed.\r\n       Hints and Suggestions\r\n\r\nAuthor: Henry Edward Krehbiel\r\n\r\n*** START OF THIS PROJECT GUTENBERG EBOOK HOW TO LISTEN TO MUSIC, 7TH ED. ***\r\n";
        let (t, a) = title_of(
            text,
            None,
            &["*** START OF THIS PROJECT GUTENBERG EBOOK HOW TO LISTEN TO MUSIC, 7TH ED. ***"],
        );
        assert_eq!(t, "How to Listen to Music, 7th ed.");
        assert_eq!(a.as_deref(), Some("Henry Edward Krehbiel"));
        let (t, a) = title_of(
            "",
            Some("The Project Gutenberg eBook of Beethoven, by George Alexander Fischer"),
            &[],
        );
        assert_eq!(t, "Beethoven");
        assert_eq!(a.as_deref(), Some("George Alexander Fischer"));
    }

    /// The red team's titles: a licence line, a dedication, a rights
    /// notice, an editor's default title are no work's title.
    #[test]
    fn licences_dedications_and_default_titles_are_not_titles() {
        for (meta, headings, want) in [
            (
                None,
                &[
                    "This work is licensed under a Creative Commons Attribution 4.0 International License",
                    "Wages of the keepers",
                ][..],
                "Wages of the keepers",
            ),
            (
                None,
                &["Dedication", "Northern Lights Remembered"][..],
                "Northern Lights Remembered",
            ),
            (
                None,
                &["All Rights Reserved", "Foghorns of Scotland"][..],
                "Foghorns of Scotland",
            ),
            (
                Some("Untitled Document"),
                &["Arbroath Signal Tower"][..],
                "Arbroath Signal Tower",
            ),
        ] {
            assert_eq!(title_of("Body.", meta, headings).0, want);
        }
    }

    #[test]
    fn pep_headers_beat_section_headings() {
        let text = "PEP: 8\nTitle: Style Guide for Python Code\nAuthor: Guido van Rossum <guido@python.org>\nStatus: Active\n\n\nIntroduction\n============\n\nThis document gives coding conventions.";
        let (t, a) = title_of(text, None, &["Introduction"]);
        assert_eq!(t, "PEP 8 – Style Guide for Python Code");
        assert!(a.unwrap().starts_with("Guido van Rossum"));
        assert_eq!(
            title_of("Body.", None, &["Abstract", "Introduction"]).0,
            "file-stem"
        );
        assert_eq!(title_of("Body.", None, &["************"]).0, "file-stem");
    }

    #[test]
    fn running_heads_dates_affiliations_and_sentences_are_not_titles() {
        for t in [
            "Published as a conference paper at ICLR 2018",
            "December 2024",
            "145",
            "Boston University",
            "2. Designing for the Cloud",
            "3.1 Random functions approximation",
            "1arXiv:1703.04782v3 [cs.LG] 26 Feb 2018",
            "OpenBU http://open.bu.edu",
            "Index Terms—defect prediction, oversampling",
            "Cloud-based software has many advantages. When services are divided into many",
            "II. LITERATURE REVIEW",
            "IV. Results and discussion",
        ] {
            assert!(clean_title(t).is_none(), "{t}");
        }
        assert!(clean_title("Learning Rate Curriculum").is_some());
        // A title that opens with a Roman-numeral word is still a title.
        assert!(clean_title("VI. Symphony Notes").is_none());
        assert!(clean_title("Vivaldi. A Life").is_some());
        assert!(clean_title("XML Schemas in Practice").is_some());
        assert!(
            clean_title(
                "A Radon–Nikodým Perspective on Anomaly Detection: Theory and Implications"
            )
            .is_some()
        );
    }

    #[test]
    fn front_matter_and_plain_headings() {
        let (t, a) = title_of(
            "---\ntitle: \"Fog Signals\"\nauthor: A. Keeper\n---\n# Intro\n",
            None,
            &["Intro"],
        );
        assert_eq!(
            (t.as_str(), a.as_deref()),
            ("Fog Signals", Some("A. Keeper"))
        );
        assert_eq!(title_of("x", None, &["The Bell Rock"]).0, "The Bell Rock");
    }

    proptest::proptest! {
        /// A PEP's title is its own `Title:` field, with its number when
        /// its `PEP:` field is one, and the field alone when it is not.
        #[test]
        fn a_peps_title_is_its_header_with_its_number(
            title in "[A-Z][a-z]{2,8}( [a-z]{2,8}){0,4}",
            n in 1u32..10_000,
            numbered in proptest::bool::ANY,
        ) {
            let pep = if numbered { n.to_string() } else { "draft".to_string() };
            let text = format!(
                "PEP: {pep}\nTitle: {title}\nAuthor: A. Keeper\n\nAbstract\n========\n\nBody."
            );
            let want = if numbered { format!("PEP {n} – {title}") } else { title.clone() };
            proptest::prop_assert_eq!(title_of(&text, None, &["Abstract"]).0, want);
        }
    }
}
