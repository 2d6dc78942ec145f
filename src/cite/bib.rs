//! The author's bibliography: BibTeX/BibLaTeX or CSL-JSON read into
//! [`Work`]s, and the works matched to the sources of the index.

use crate::index::WorkPages;
use anyhow::{Context, Result, anyhow, bail};
use biblatex::ChunksExt;
use hayagriva::citationberg::json as csl_json;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A person's name as a bibliography gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Name {
    pub family: String,
    pub given: Option<String>,
    /// A particle such as "van" or "de".
    pub prefix: Option<String>,
}

/// The record a style renders: hayagriva's own entry (from BibLaTeX) or the
/// CSL-JSON item as read.
#[derive(Debug, Clone)]
pub(crate) enum Record {
    Bib(Box<hayagriva::Entry>),
    Csl(Box<csl_json::Item>),
}

/// One work of the bibliography.
#[derive(Debug, Clone)]
pub struct Work {
    /// The citation key (`@key`).
    pub key: String,
    /// The entry type as written: "book", "article", "incollection",
    /// "chapter", "article-journal", …
    pub kind: String,
    pub title: Option<String>,
    /// The authors, else the editors.
    pub authors: Vec<Name>,
    pub year: Option<i32>,
    /// Lower-cased, without a resolver prefix ("10.1000/xyz").
    pub doi: Option<String>,
    /// The paths of the files attached to the entry (the `file` field),
    /// with `/` between folders.
    pub files: Vec<String>,
    /// The pages the work is printed on, when given as one range of
    /// numbers ("291--293", "xi--xiv"): an article's or a chapter's.
    pub pages: Option<WorkPages>,
    pub(crate) record: Record,
}

impl Work {
    /// "Smith 2020", "Smith and Jones 2020", "Smith et al. 2020": how an
    /// author-date citation names the work.
    pub fn author_year(&self) -> String {
        let names: Vec<String> = self.authors.iter().map(Name::full_family).collect();
        let who = match names.as_slice() {
            [] => self.title.clone().unwrap_or_else(|| self.key.clone()),
            [a] => a.clone(),
            [a, b] => format!("{a} and {b}"),
            [a, ..] => format!("{a} et al."),
        };
        match self.year {
            Some(y) => format!("{who} {y}"),
            None => format!("{who} n.d."),
        }
    }
}

impl Name {
    /// The family name with its particle: "van Gogh".
    pub fn full_family(&self) -> String {
        match &self.prefix {
            Some(p) if !p.is_empty() => format!("{p} {}", self.family),
            _ => self.family.clone(),
        }
    }
}

/// A bibliography file, read.
#[derive(Debug, Clone)]
pub struct Bibliography {
    pub path: PathBuf,
    pub works: Vec<Work>,
    /// Entries that could not be read, with the reason (the rest are used).
    pub warnings: Vec<String>,
}

/// Which of the two formats a file holds: by extension, else by its first
/// character (`[` or `{` is JSON).
fn is_json(path: &Path, text: &str) -> bool {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("json") => true,
        Some("bib") | Some("bibtex") | Some("biblatex") => false,
        _ => text.trim_start().starts_with(['[', '{']),
    }
}

impl Bibliography {
    /// Read a `.bib` (BibTeX/BibLaTeX) or `.json` (CSL-JSON) file.
    pub fn load(path: &Path) -> Result<Bibliography> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the bibliography {}", path.display()))?;
        let parsed = if is_json(path, &text) {
            Self::from_csl_json(&text)
        } else {
            Self::from_biblatex(&text)
        };
        let mut bib = parsed
            .with_context(|| format!("the bibliography {} cannot be read", path.display()))?;
        bib.path = path.to_path_buf();
        Ok(bib)
    }

    /// BibTeX or BibLaTeX text. An entry hayagriva cannot convert is
    /// reported and left out; a file that does not parse is an error.
    pub fn from_biblatex(text: &str) -> Result<Bibliography> {
        super::bomb::check(text)?;
        let parsed = biblatex::Bibliography::parse(text).map_err(|e| {
            let line = text[..e.span.start.min(text.len())].matches('\n').count() + 1;
            anyhow!("line {line}: {}", e.kind)
        })?;
        let mut works = Vec::new();
        let mut warnings = Vec::new();
        for entry in parsed.iter() {
            let mut converted = match hayagriva::Entry::try_from(entry) {
                Ok(c) => c,
                Err(e) => {
                    warnings.push(format!("@{}: {e}", entry.key));
                    continue;
                }
            };
            in_a_book(&mut converted);
            let field = |name: &str| entry.get(name).map(|c| c.format_verbatim());
            let files = field("file").map(|f| file_paths(&f)).unwrap_or_default();
            let doi = field("doi").and_then(|d| clean_doi(&d));
            let title = converted
                .title()
                .map(|t| t.value.to_string())
                .or_else(|| entry.get("title").map(|c| c.format_sentence()));
            let people = converted
                .authors()
                .filter(|a| !a.is_empty())
                .or_else(|| converted.editors());
            let authors = people
                .unwrap_or_default()
                .iter()
                .map(|p| Name {
                    family: p.name.clone(),
                    given: p.given_name.clone(),
                    prefix: p.prefix.clone(),
                })
                .collect();
            let year = converted
                .date()
                .or_else(|| converted.parents().iter().find_map(|p| p.date()))
                .map(|d| d.year);
            works.push(Work {
                key: entry.key.clone(),
                kind: entry.entry_type.to_string().to_lowercase(),
                title,
                authors,
                year,
                doi,
                files,
                pages: field("pages").and_then(|p| page_range(&p)),
                record: Record::Bib(Box::new(converted)),
            });
        }
        Ok(Bibliography {
            path: PathBuf::new(),
            works,
            warnings,
        })
    }

    /// CSL-JSON: an array of items. An item whose fields do not fit the
    /// schema is reported and left out.
    pub fn from_csl_json(text: &str) -> Result<Bibliography> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| anyhow!("not valid JSON: {e}"))?;
        let items = match value {
            serde_json::Value::Array(items) => items,
            serde_json::Value::Object(_) => vec![value],
            _ => bail!("CSL-JSON is an array of items"),
        };
        let mut works = Vec::new();
        let mut warnings = Vec::new();
        for (n, raw) in items.into_iter().enumerate() {
            let id = raw
                .get("id")
                .map(|v| match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .unwrap_or_default();
            if id.is_empty() {
                warnings.push(format!("item {}: no id", n + 1));
                continue;
            }
            // Only the fields CSL defines shapes for; a stray object or a
            // boolean would reject the whole item.
            let serde_json::Value::Object(map) = raw else {
                warnings.push(format!("item {}: not an object", n + 1));
                continue;
            };
            let file = map.get("file").and_then(|f| f.as_str()).map(file_paths);
            let kept: serde_json::Map<String, serde_json::Value> = map
                .into_iter()
                .filter(|(_, v)| !matches!(v, serde_json::Value::Bool(_) | serde_json::Value::Null))
                .filter(|(k, v)| {
                    k == "id" || serde_json::from_value::<csl_json::Value>(v.clone()).is_ok()
                })
                .collect();
            let item: csl_json::Item = match serde_json::from_value(kept.into()) {
                Ok(i) => i,
                Err(e) => {
                    warnings.push(format!("{id}: {e}"));
                    continue;
                }
            };
            works.push(work_of_csl(id, item, file.unwrap_or_default()));
        }
        Ok(Bibliography {
            path: PathBuf::new(),
            works,
            warnings,
        })
    }

    pub fn get(&self, key: &str) -> Option<&Work> {
        self.works.iter().find(|w| w.key == key)
    }
}

fn work_of_csl(id: String, item: csl_json::Item, files: Vec<String>) -> Work {
    let s = |k: &str| {
        item.0
            .get(k)
            .and_then(|v| v.to_str())
            .map(|c| c.into_owned())
    };
    let names = |k: &str| match item.0.get(k) {
        Some(csl_json::Value::Names(ns)) => ns
            .iter()
            .map(|n| match n {
                csl_json::NameValue::Item(i) => Name {
                    family: i.family.clone(),
                    given: i.given.clone(),
                    prefix: i.non_dropping_particle.clone(),
                },
                csl_json::NameValue::Literal(l) => Name {
                    family: l.literal.clone(),
                    given: None,
                    prefix: None,
                },
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut authors: Vec<Name> = names("author");
    if authors.is_empty() {
        authors = names("editor");
    }
    let year = match item.0.get("issued") {
        Some(csl_json::Value::Date(d)) => {
            let range: csl_json::VecDateRange = d.clone().into();
            range
                .0
                .first()
                .and_then(|parts| parts.0.first())
                .map(|y| *y as i32)
        }
        Some(csl_json::Value::String(s)) => s.get(..4).and_then(|y| y.parse().ok()),
        _ => None,
    };
    Work {
        key: id,
        kind: s("type").unwrap_or_default(),
        title: s("title"),
        authors,
        year,
        doi: s("DOI").and_then(|d| clean_doi(&d)),
        files,
        pages: s("page").and_then(|p| page_range(&p)),
        record: Record::Csl(Box::new(item)),
    }
}

/// "291--293", "291–93" (the end abbreviated), "12", "xi--xiv": the first
/// and last page; `None` for several ranges, a last page before the first.
fn page_range(pages: &str) -> Option<WorkPages> {
    let p = pages.trim();
    let (a, b) = match p.find(['-', '–', '—']) {
        Some(i) => (&p[..i], p[i..].trim_start_matches(['-', '–', '—']).trim()),
        None => (p, p),
    };
    if let (Some(first), Some(last)) = (roman_value(a.trim()), roman_value(b)) {
        return (last >= first).then_some(WorkPages {
            first,
            last,
            roman: true,
        });
    }
    let a: u32 = a.trim().parse().ok()?;
    let mut b: u32 = b.parse().ok()?;
    // "291–93": the end written with the start's leading digits left off.
    let (da, db) = (a.to_string().len(), b.to_string().len());
    if db < da {
        let m = 10u32.pow(db as u32);
        b += a / m * m;
    }
    (a >= 1 && b >= a && b - a < 10_000).then_some(WorkPages {
        first: a,
        last: b,
        roman: false,
    })
}

/// The number a Roman numeral writes ("xiv", "XIV"), when it is one as
/// books number their front matter.
fn roman_value(s: &str) -> Option<u32> {
    let lower = s.to_lowercase();
    if lower.is_empty() || lower.len() > 12 || !lower.chars().all(|c| "ivxlcdm".contains(c)) {
        return None;
    }
    (1..=3999u32).find(|&n| crate::ingest::roman_numeral(u64::from(n)) == lower)
}

/// A DOI without its resolver or scheme, lower-cased (DOIs are
/// case-insensitive).
fn clean_doi(d: &str) -> Option<String> {
    let d = d.trim();
    let lower = d.to_lowercase();
    let bare = [
        "https://doi.org/",
        "http://doi.org/",
        "https://dx.doi.org/",
        "http://dx.doi.org/",
        "doi:",
    ]
    .iter()
    .find_map(|p| lower.strip_prefix(p))
    .unwrap_or(&lower)
    .trim();
    bare.starts_with("10.").then(|| bare.to_string())
}

/// The paths of the files in a `file` field, with `/` between folders, in
/// the forms reference managers write it: Zotero's
/// `Description:path:mime/type` items and Better BibTeX's plain paths,
/// separated by `;`; Windows paths with escaped `\:`.
pub fn file_paths(field: &str) -> Vec<String> {
    const MIME: [&str; 9] = [
        "application/",
        "text/",
        "image/",
        "audio/",
        "video/",
        "multipart/",
        "message/",
        "model/",
        "font/",
    ];
    let mut out = Vec::new();
    for item in field.split(';') {
        let mut item = item.trim();
        if let Some((rest, mime)) = item.rsplit_once(':')
            && MIME.iter().any(|m| mime.trim().starts_with(m))
        {
            item = rest;
        }
        // Better BibTeX escapes a Windows path's colon and backslashes.
        let item = item
            .replace("\\:", ":")
            .replace("\\\\", "\\")
            .replace('\\', "/");
        let mut parts: Vec<&str> = item.split('/').filter(|p| !p.is_empty()).collect();
        // "Full Text PDF:", "C:" or "Snapshot:notes.html": a description or
        // drive before the path.
        if let Some(first) = parts.first_mut() {
            *first = first.rsplit(':').next().unwrap_or(first).trim();
        }
        parts.retain(|p| !p.is_empty());
        if !parts.is_empty() {
            out.push(parts.join("/"));
        }
    }
    out
}

/// A chapter of an edited book (`@incollection`) becomes, in hayagriva, an
/// `Anthos` inside an `Anthology`, for which hayagriva gives CSL styles
/// the book's title twice (as container and as volume title: "In Lights of
/// the Ancient World, edited by …, Lights of the Ancient World"). As a
/// chapter in a `Book` it is rendered once.
fn in_a_book(e: &mut hayagriva::Entry) {
    use hayagriva::types::EntryType;
    if *e.entry_type() != EntryType::Anthos
        || e.parents().len() != 1
        || *e.parents()[0].entry_type() != EntryType::Anthology
    {
        return;
    }
    let Ok(mut v) = serde_json::to_value(&e.parents()[0]) else {
        return;
    };
    v["type"] = serde_json::Value::from("book");
    let one = serde_json::json!({ "book": v });
    if let Ok(lib) = serde_json::from_value::<hayagriva::Library>(one)
        && let Some(book) = lib.get("book")
    {
        e.set_parents(vec![book.clone()]);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn file_fields_as_reference_managers_write_them() {
        assert_eq!(
            file_paths(
                "Full Text PDF:/home/a/Zotero/storage/ABCD1234/Smith - 2020 - Lights.pdf:application/pdf"
            ),
            ["home/a/Zotero/storage/ABCD1234/Smith - 2020 - Lights.pdf"]
        );
        assert_eq!(
            file_paths("/papers/a.pdf;/papers/b.docx"),
            ["papers/a.pdf", "papers/b.docx"]
        );
        assert_eq!(
            file_paths(r"C\:\\Users\\me\\Zotero\\storage\\X\\paper.pdf"),
            ["Users/me/Zotero/storage/X/paper.pdf"]
        );
        assert_eq!(file_paths("Snapshot:notes.html:text/html"), ["notes.html"]);
    }

    #[test]
    fn page_ranges_as_numbers() {
        let range = |p: &str| page_range(p).map(|w| (w.first, w.last, w.roman));
        assert_eq!(range("291--293"), Some((291, 293, false)));
        assert_eq!(range("291–93"), Some((291, 293, false)));
        assert_eq!(range(" 12 "), Some((12, 12, false)));
        assert_eq!(range("1-10"), Some((1, 10, false)));
        assert_eq!(range("199–8"), None, "before the first");
        // A foreword's pages, in Roman numerals.
        assert_eq!(range("xi--xiv"), Some((11, 14, true)));
        assert_eq!(range("XI–XX"), Some((11, 20, true)));
        for none in ["xx--xi", "3, 7", "e123", "", "20-10", "iix--x", "xi--14"] {
            assert_eq!(page_range(none), None, "{none}");
        }
    }

    #[test]
    fn dois_lose_their_resolver() {
        assert_eq!(
            clean_doi("https://doi.org/10.1000/ABC.1").as_deref(),
            Some("10.1000/abc.1")
        );
        assert_eq!(clean_doi("doi:10.5/x").as_deref(), Some("10.5/x"));
        assert_eq!(clean_doi("not a doi"), None);
    }

    pub(crate) const BIB: &str = r#"
@book{smith2020,
  author = {Smith, Anna and Jones, Ben},
  title = {The Keeper's Lamp},
  year = {2020},
  publisher = {Harbour Press},
  location = {Leith},
  file = {Full Text PDF:/z/storage/AB12/lamp.pdf:application/pdf},
}
@article{doe2019,
  author = {Doe, Jane and Roe, Rick and Poe, Pat},
  title = {Fog Signals},
  journaltitle = {Journal of Lights},
  year = {2019},
  volume = {4},
  pages = {10--20},
  doi = {10.1234/JOL.2019.4},
}
@article{lost2001,
  author = {van Lost, Lea},
  title = {A Work Nobody Has},
  date = {2001},
}
"#;

    #[test]
    fn csl_json_items_are_works() {
        let json = r#"[
          {"id": "smith2020", "type": "book", "title": "The Keeper's Lamp",
           "author": [{"family": "Smith", "given": "Anna"}],
           "issued": {"date-parts": [[2020, 3]]}, "publisher": "Harbour Press",
           "DOI": "https://doi.org/10.9/LAMP", "custom": {"x": 1}, "flag": true},
          {"type": "book", "title": "no id"},
          {"id": "org", "type": "report", "author": [{"literal": "Lighthouse Board"}],
           "issued": {"date-parts": [["1850"]]}}
        ]"#;
        let bib = Bibliography::from_csl_json(json).unwrap();
        assert_eq!(bib.works.len(), 2, "{:?}", bib.warnings);
        assert_eq!(bib.warnings.len(), 1);
        let w = bib.get("smith2020").unwrap();
        assert_eq!(w.author_year(), "Smith 2020");
        assert_eq!(w.doi.as_deref(), Some("10.9/lamp"));
        assert_eq!(
            bib.get("org").unwrap().author_year(),
            "Lighthouse Board 1850"
        );
    }

    #[test]
    fn a_broken_bibtex_file_names_the_line() {
        let e = Bibliography::from_biblatex("@book{a,\n title = {x},\n\n author = {unclosed\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("line "), "{e}");
    }
}
