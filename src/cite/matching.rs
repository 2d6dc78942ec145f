//! Tying a bibliography's works to the sources of the index: by the
//! entry's `file` field, else by its DOI printed in the source's first
//! pages, else by title. A wrong tie certifies an author's own notes as a
//! book's words, so each step would rather leave a source untied.

use super::bib::{Bibliography, Work};
use super::title::{MIN_TITLE_SIMILARITY, another_work, title_similarity};
use serde::Serialize;
use std::collections::BTreeMap;

/// What the matcher knows of one source of the index.
#[derive(Debug, Clone)]
pub struct SourceMeta {
    /// The source id: its path under the sources folder.
    pub id: String,
    /// The title from the work's own metadata (or its file name).
    pub title: String,
}

/// How a work was tied to a source.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchHow {
    /// The entry's `file` field names the source's file.
    File,
    /// The entry's DOI is printed in the source's first pages.
    Doi,
    /// The entry's title is like the source's title (similarity).
    Title(f32),
}

/// The works of a bibliography tied to the sources of an index.
#[derive(Debug, Clone)]
pub struct Matched {
    pub bib: Bibliography,
    /// Source ids of each work (same order as `bib.works`).
    pub sources_of: Vec<Vec<String>>,
    /// The work (index into `bib.works`) of each matched source, and how.
    pub work_of: BTreeMap<String, (usize, MatchHow)>,
    /// Sources no work matched.
    pub unmatched_sources: Vec<String>,
}

/// A path's components, lower-cased.
fn components(path: &str) -> Vec<String> {
    path.split('/')
        .filter(|c| !c.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// How many trailing components of `file` (an entry's `file` path) the
/// source's path `source` has, when their file names are the same.
fn file_match(file: &[String], source: &[String]) -> Option<usize> {
    (file.last()? == source.last()?).then(|| {
        file.iter()
            .rev()
            .zip(source.iter().rev())
            .take_while(|(a, b)| a == b)
            .count()
    })
}

/// Where `doi` is printed in `text` as a whole DOI (not the start of a
/// longer one: `10.1/x.12` is not `10.1/x.1`), the first time.
fn doi_at(text: &str, doi: &str) -> Option<usize> {
    let is_doi_char = |c: char| c.is_alphanumeric() || "._;()/:<>-".contains(c);
    text.match_indices(doi).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        // What follows, less the punctuation that ends a sentence.
        let after: String = text[i + doi.len()..]
            .chars()
            .take_while(|&c| is_doi_char(c))
            .collect();
        let after = after.trim_end_matches(['.', ',', ';', ':', ')']);
        !before.is_some_and(|c| c.is_alphanumeric() || c == '.') && after.is_empty()
    })
}

/// Where the first DOI of any work is printed in `text` (lower-cased): a
/// work prints its own DOI before those of the works it cites.
fn first_doi_at(text: &str) -> Option<usize> {
    text.match_indices("10.").map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let rest = &text[i + 3..];
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '.')
            && (4..=9).contains(&digits)
            && rest[digits..]
                .strip_prefix('/')
                .is_some_and(|r| r.starts_with(|c: char| !c.is_whitespace()))
    })
}

/// A source in a format of notes rather than of published works.
fn is_notes(id: &str) -> bool {
    use crate::ingest::Format;
    matches!(
        Format::from_path(std::path::Path::new(id)),
        Some(Format::Markdown | Format::Text | Format::Rst)
    )
}

impl Matched {
    /// Tie works to sources: by file name, else by DOI (`head` gives the
    /// first text of a source, asked only while a work with a DOI is left),
    /// else by title. A source belongs to one work; a work may have several
    /// sources (copies of one file).
    ///
    /// - A file name several sources share ties only the source whose
    ///   folders the entry's path names too (`vol2/history.md`).
    /// - A file name that two works' files share as far as the source's
    ///   path tells ties neither.
    /// - A DOI ties the source it is printed in first, before any other
    ///   DOI (a source prints its own DOI before those it cites), unless
    ///   the source is
    ///   notes (Markdown, text: a DOI there cites the work), its title is
    ///   another work's of the bibliography (a paper that cites that DOI)
    ///   or plainly not the work's (a comment on it: see [`another_work`]),
    ///   or another source is titled as the work and this one is not.
    /// - A title ties the sources most like it, never one whose title
    ///   numbers another volume or part, puts one word for another, or is
    ///   about the work ("Notes on …", "… : a review"): see
    ///   [`title_similarity`]. A source titled as two works alike (two
    ///   editions) ties neither.
    pub fn new(
        bib: Bibliography,
        sources: &[SourceMeta],
        head: &mut dyn FnMut(&str) -> Option<String>,
    ) -> Matched {
        let mut work_of: BTreeMap<String, (usize, MatchHow)> = BTreeMap::new();
        // 1. File names.
        let paths: Vec<Vec<String>> = sources.iter().map(|s| components(&s.id)).collect();
        for (s, path) in sources.iter().zip(&paths) {
            let shared = paths.iter().filter(|p| p.last() == path.last()).count() > 1;
            let candidates: Vec<(usize, usize)> = bib
                .works
                .iter()
                .enumerate()
                .flat_map(|(w, work)| work.files.iter().map(move |f| (w, components(f))))
                .filter_map(|(w, file)| Some((w, file_match(&file, path)?)))
                .filter(|&(_, n)| !shared || n == path.len())
                .collect();
            let most = candidates.iter().map(|&(_, n)| n).max();
            let mut best: Vec<usize> = candidates
                .iter()
                .filter(|&&(_, n)| Some(n) == most)
                .map(|&(w, _)| w)
                .collect();
            best.dedup();
            // Two works whose files go by this name as far as the source's
            // path tells (Zotero's `…/storage/KEY/fulltext.pdf`): neither
            // is tied by it; the DOI or the title may tell them apart.
            if let [w] = best[..] {
                work_of.insert(s.id.clone(), (w, MatchHow::File));
            }
        }
        let tied = |work_of: &BTreeMap<String, (usize, MatchHow)>, w: usize| {
            work_of.values().any(|(x, _)| *x == w)
        };
        // 2. DOIs, for works without a file match.
        let doi_works: Vec<usize> = (0..bib.works.len())
            .filter(|&w| bib.works[w].doi.is_some() && !tied(&work_of, w))
            .collect();
        if !doi_works.is_empty() {
            for s in sources {
                // An author's notes (Markdown, text) cite works; they are
                // not published under a DOI.
                if work_of.contains_key(&s.id) || is_notes(&s.id) {
                    continue;
                }
                let Some(text) = head(&s.id) else { continue };
                let text = text.to_lowercase();
                let first = doi_works
                    .iter()
                    .filter_map(|&w| Some((w, doi_at(&text, bib.works[w].doi.as_deref()?)?)))
                    .min_by_key(|&(_, at)| at);
                let Some((w, at)) = first else { continue };
                // Another DOI printed before it is the source's own: the
                // source cites this one (a sequel, a reply).
                if first_doi_at(&text).is_some_and(|own| own < at) {
                    continue;
                }
                // The source is titled as another work: it cites this DOI.
                let titled_other = bib.works.iter().enumerate().any(|(o, work)| {
                    o != w
                        && work
                            .title
                            .as_deref()
                            .is_some_and(|t| title_similarity(t, &s.title) >= 0.95)
                });
                // Another source is titled as this work and this one is
                // not: that one is the work, this one mentions its DOI (an
                // author's notes on it).
                let title_of_w = bib.works[w].title.as_deref();
                let titled_w = |t: &str| title_of_w.is_some_and(|w| title_similarity(w, t) >= 0.95);
                let work_elsewhere = !titled_w(&s.title)
                    && sources.iter().any(|o| o.id != s.id && titled_w(&o.title));
                // The source's own title (not its file name) is another
                // work's: a comment on the work, printing its DOI.
                let own_title = std::path::Path::new(&s.id)
                    .file_stem()
                    .is_none_or(|stem| stem.to_string_lossy() != s.title);
                let unlike = own_title && title_of_w.is_some_and(|t| another_work(t, &s.title));
                if !titled_other && !work_elsewhere && !unlike {
                    work_of.insert(s.id.clone(), (w, MatchHow::Doi));
                }
            }
        }
        // 3. Titles, for works still without a source: each source to the
        // work most like it, and each work keeps the sources most like it.
        let left: Vec<usize> = (0..bib.works.len())
            .filter(|&w| !tied(&work_of, w))
            .collect();
        let mut by_title: Vec<(String, usize, f32)> = Vec::new();
        for s in sources {
            if work_of.contains_key(&s.id) {
                continue;
            }
            let alike: Vec<(usize, f32)> = left
                .iter()
                .filter_map(|&w| {
                    let t = bib.works[w].title.as_deref()?;
                    Some((w, title_similarity(t, &s.title)))
                })
                .filter(|(_, sim)| *sim >= MIN_TITLE_SIMILARITY)
                .collect();
            let most = alike.iter().map(|a| a.1).fold(0.0, f32::max);
            // Two works titled alike (two editions of one book): the title
            // does not tell which one the source is, so it ties neither.
            if let [(w, sim)] = alike.iter().filter(|a| a.1 == most).collect::<Vec<_>>()[..] {
                by_title.push((s.id.clone(), *w, *sim));
            }
        }
        for (id, w, sim) in &by_title {
            let most = by_title
                .iter()
                .filter(|(_, x, _)| x == w)
                .map(|(_, _, s)| *s)
                .fold(0.0, f32::max);
            if *sim >= most {
                work_of.insert(id.clone(), (*w, MatchHow::Title(*sim)));
            }
        }
        let mut sources_of = vec![Vec::new(); bib.works.len()];
        for (id, (w, _)) in &work_of {
            sources_of[*w].push(id.clone());
        }
        let unmatched_sources = sources
            .iter()
            .filter(|s| !work_of.contains_key(&s.id))
            .map(|s| s.id.clone())
            .collect();
        Matched {
            bib,
            sources_of,
            work_of,
            unmatched_sources,
        }
    }

    /// Works no source matched.
    pub fn unmatched_works(&self) -> Vec<&Work> {
        self.bib
            .works
            .iter()
            .zip(&self.sources_of)
            .filter(|(_, s)| s.is_empty())
            .map(|(w, _)| w)
            .collect()
    }

    /// The work a source belongs to.
    pub fn work_of_source(&self, source_id: &str) -> Option<&Work> {
        self.work_of
            .get(source_id)
            .map(|(w, _)| &self.bib.works[*w])
    }

    /// The sources of the work with this key.
    pub fn sources(&self, key: &str) -> &[String] {
        self.bib
            .works
            .iter()
            .position(|w| w.key == key)
            .map_or(&[], |i| self.sources_of[i].as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cite::bib::tests::BIB;
    #[test]
    fn bibtex_works_match_sources_by_file_doi_and_title() {
        let bib = Bibliography::from_biblatex(BIB).unwrap();
        assert!(bib.warnings.is_empty(), "{:?}", bib.warnings);
        let smith = bib.get("smith2020").unwrap();
        assert_eq!(smith.author_year(), "Smith and Jones 2020");
        assert_eq!(smith.files, ["z/storage/AB12/lamp.pdf"]);
        assert_eq!(bib.get("doe2019").unwrap().author_year(), "Doe et al. 2019");
        assert_eq!(bib.get("lost2001").unwrap().author_year(), "van Lost 2001");
        let sources = vec![
            SourceMeta {
                id: "books/lamp.pdf".into(),
                title: "Something else".into(),
            },
            SourceMeta {
                id: "fog.pdf".into(),
                title: "Fog".into(),
            },
            SourceMeta {
                id: "copy-of-lamp.md".into(),
                title: "The keeper’s lamp".into(),
            },
            SourceMeta {
                id: "diary.md".into(),
                title: "A Diary".into(),
            },
        ];
        let mut asked = Vec::new();
        let mut head = |id: &str| {
            asked.push(id.to_string());
            (id == "fog.pdf").then(|| "Journal of Lights, doi: 10.1234/jol.2019.4".to_string())
        };
        let m = Matched::new(bib, &sources, &mut head);
        assert_eq!(m.work_of["books/lamp.pdf"], (0, MatchHow::File));
        assert_eq!(m.work_of["fog.pdf"], (1, MatchHow::Doi));
        // The title match only among works no file or DOI matched.
        assert!(!m.work_of.contains_key("copy-of-lamp.md"));
        assert_eq!(m.unmatched_sources, ["copy-of-lamp.md", "diary.md"]);
        let missing: Vec<&str> = m.unmatched_works().iter().map(|w| w.key.as_str()).collect();
        assert_eq!(missing, ["lost2001"]);
        assert_eq!(m.sources("smith2020"), ["books/lamp.pdf"]);
        assert!(!asked.contains(&"books/lamp.pdf".to_string()));
    }

    #[test]
    fn titles_match_when_nothing_else_does() {
        let bib = Bibliography::from_biblatex(BIB).unwrap();
        let sources = vec![SourceMeta {
            id: "a/b/whatever.md".into(),
            title: "A work nobody has".into(),
        }];
        let m = Matched::new(bib, &sources, &mut |_| None);
        assert_eq!(m.work_of["a/b/whatever.md"].0, 2);
        assert!(matches!(m.work_of["a/b/whatever.md"].1, MatchHow::Title(s) if s == 1.0));
    }

    fn sources(list: &[(&str, &str)]) -> Vec<SourceMeta> {
        list.iter()
            .map(|(id, title)| SourceMeta {
                id: id.to_string(),
                title: title.to_string(),
            })
            .collect()
    }

    /// The red team's folder: two volumes' `history.md`, a note citing
    /// Volume Two's DOI, and the author's notes on a book.
    #[test]
    fn a_file_name_a_doi_or_a_title_never_ties_another_work() {
        let bib = Bibliography::from_biblatex(
            r#"
@book{v1, title = {A History of Scottish Lighthouses, Volume One}, year = {2004},
  file = {/home/me/Zotero/storage/AAA/vol1/history.md}}
@book{v2, title = {A History of Scottish Lighthouses, Volume Two}, year = {2005},
  doi = {10.1234/volume.two.2005}}
@book{fog, title = {Notes on Fog Signals}, year = {2010}}
@book{short, title = {Something unrelated entirely}, doi = {10.5555/light.2001.1234}}
@book{rock, title = {Keepers of the Rock}, year = {1901}}
"#,
        )
        .unwrap();
        let sources = sources(&[
            (
                "vol1/history.md",
                "A History of Scottish Lighthouses Volume One",
            ),
            (
                "vol2/history.md",
                "A History of Scottish Lighthouses Volume Two",
            ),
            ("other.md", "Notes on Fog Signals"),
            ("a.md", "Bell Rock"),
            ("keepers.pdf", "Keepers of the Rock"),
            ("notes-keepers.md", "Notes on Keepers of the Rock"),
        ]);
        let mut head = |id: &str| match id {
            "other.md" => {
                Some("This report builds on earlier work (doi:10.1234/volume.two.2005).".into())
            }
            "a.md" => Some("Printed as doi:10.5555/light.2001.12345 in 2001.".into()),
            _ => None,
        };
        let m = Matched::new(bib, &sources, &mut head);
        let key = |id: &str| m.work_of_source(id).map(|w| w.key.as_str());
        assert_eq!(key("vol1/history.md"), Some("v1"));
        assert_eq!(
            key("vol2/history.md"),
            Some("v2"),
            "by title, not v1's file"
        );
        assert_eq!(
            key("other.md"),
            Some("fog"),
            "titled as @fog; it only cites v2's DOI"
        );
        assert_eq!(key("a.md"), None, "a longer DOI is another DOI");
        assert_eq!(key("keepers.pdf"), Some("rock"));
        assert_eq!(
            key("notes-keepers.md"),
            None,
            "notes on the book are not the book"
        );
    }

    #[test]
    fn a_doi_is_read_whole_and_the_first_one_printed_ties() {
        assert_eq!(doi_at("see doi:10.1/x.1.", "10.1/x.1"), Some(8));
        assert_eq!(doi_at("https://doi.org/10.1/x.1)", "10.1/x.1"), Some(16));
        assert_eq!(doi_at("doi:10.1/x.12", "10.1/x.1"), None);
        assert_eq!(doi_at("doi:10.1/x.1_2", "10.1/x.1"), None);
        assert_eq!(doi_at("doi:10.1/x.1-b", "10.1/x.1"), None);
        assert_eq!(doi_at("110.1/x.1", "10.1/x.1"), None);
    }

    /// Two works whose attachments share a file name (Zotero's
    /// `fulltext.md`) tie neither by it; a source that only mentions a
    /// work's DOI is not the work when another source is titled as it.
    #[test]
    fn a_shared_attachment_name_or_a_mentioned_doi_ties_nothing_wrongly() {
        let bib = Bibliography::from_biblatex(
            r#"
@book{stevenson1824, title = {Account of the Bell Rock Light-House}, year = {1824},
  file = {Full Text:/home/me/Zotero/storage/AB12CD34/fulltext.md:text/markdown}}
@book{smith1990, title = {Lighthouse Economics}, year = {1990},
  file = {Full Text:/home/me/Zotero/storage/ZZ99YY88/fulltext.md:text/markdown}}
@book{ness1901, title = {Keepers of the Northern Lights}, doi = {10.5555/ness.1901.keepers}}
@book{reid1850, title = {The Reid Letters}, doi = {10.5555/reid.1850}}
"#,
        )
        .unwrap();
        let sources = sources(&[
            ("fulltext.md", "Account of the Bell Rock Light-House"),
            ("keepers.md", "Keepers of the Northern Lights"),
            ("chapter3-research.md", "Chapter 3 research"),
            ("reading-notes.md", "My reading notes"),
        ]);
        let mut head = |id: &str| match id {
            "chapter3-research.md" => {
                Some("Reading Ness (doi:10.5555/ness.1901.keepers) for wages.".to_string())
            }
            "reading-notes.md" => Some("Notes on Reid, doi:10.5555/reid.1850, not here.".into()),
            _ => None,
        };
        let m = Matched::new(bib, &sources, &mut head);
        let key = |id: &str| m.work_of_source(id).map(|w| w.key.as_str());
        assert_eq!(key("fulltext.md"), Some("stevenson1824"), "by title");
        assert_eq!(key("keepers.md"), Some("ness1901"), "by title");
        assert_eq!(key("chapter3-research.md"), None, "it mentions the DOI");
        // Notes that print the DOI of a work the folder lacks are not it.
        assert_eq!(key("reading-notes.md"), None, "notes cite the DOI");
    }

    /// The red team's comment on a paper, printing its DOI; two editions
    /// of one title; a title one word apart.
    #[test]
    fn a_comment_two_editions_or_another_place_tie_nothing() {
        let bib = Bibliography::from_biblatex(
            r#"
@article{smith2001, title = {Lighthouse Keepers and Their Logs}, doi = {10.5555/jmh.2001.017}}
@book{ness1901, title = {Keepers of the Northern Lights}, year = {1901}}
@book{ness1925, title = {Keepers of the Northern Lights}, year = {1925}, edition = {2}}
@book{hague1975, title = {A History of the Lighthouses of Scotland and Their Keepers}}
@article{jones2003, title = {Fog Signals at Sea}, doi = {10.5555/fog.2003}}
"#,
        )
        .unwrap();
        let sources = sources(&[
            ("grant-comment.pdf", "Weather Returns Reconsidered"),
            ("keepers.pdf", "Keepers of the Northern Lights"),
            (
                "england.pdf",
                "A History of the Lighthouses of England and Their Keepers",
            ),
            ("fulltext.pdf", "fulltext"),
        ]);
        let mut head = |id: &str| match id {
            "grant-comment.pdf" => Some(
                "Comment on: Smith, A. (2001) Lighthouse Keepers and Their Logs. \
                 https://doi.org/10.5555/jmh.2001.017"
                    .to_string(),
            ),
            "fulltext.pdf" => Some("Fog Signals, doi:10.5555/fog.2003".to_string()),
            _ => None,
        };
        let m = Matched::new(bib, &sources, &mut head);
        let key = |id: &str| m.work_of_source(id).map(|w| w.key.as_str());
        assert_eq!(key("grant-comment.pdf"), None, "a comment is not the work");
        assert_eq!(key("keepers.pdf"), None, "which edition is not known");
        assert_eq!(key("england.pdf"), None, "England is not Scotland");
        assert_eq!(key("fulltext.pdf"), Some("jones2003"), "titled by its name");
    }

    /// A sequel that prints its own DOI, then cites the work's: not the
    /// work (the red team's "Southern" for "Northern").
    #[test]
    fn a_source_printing_another_doi_first_is_not_the_work() {
        let bib = Bibliography::from_biblatex(
            "@book{ness2001, title = {Keepers of the Northern Lights}, doi = {10.5555/ness.2001.77}}",
        )
        .unwrap();
        let sources = sources(&[("south.pdf", "south"), ("north.pdf", "north")]);
        let mut head = |id: &str| {
            match id {
            "south.pdf" => Some(
                "Hale. doi:10.5555/hale.2004.9. Ness (2001, doi:10.5555/ness.2001.77) studied the north."
                    .to_string(),
            ),
            "north.pdf" => Some("Ness. https://doi.org/10.5555/ness.2001.77 Keepers.".to_string()),
            _ => None,
        }
        };
        let m = Matched::new(bib, &sources, &mut head);
        let key = |id: &str| m.work_of_source(id).map(|w| w.key.as_str());
        assert_eq!(key("south.pdf"), None);
        assert_eq!(key("north.pdf"), Some("ness2001"));
        assert_eq!(first_doi_at("see 10.1234/x and 10.5/y"), Some(4));
        assert_eq!(first_doi_at("version 110.1234/x"), None);
    }
}
