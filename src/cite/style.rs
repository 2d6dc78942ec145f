//! A quote with its citation, in the style the author's publisher wants:
//! Pandoc (`“…” [@key, p. 233]`), a CSL style rendered by hayagriva, or the
//! plain template (`"…" (Title, p. 233)`).

use super::bib::{Record, Work};
use anyhow::{Context, Result, anyhow, bail};
use hayagriva::archive::ArchivedStyle;
use hayagriva::citationberg::taxonomy::Locator;
use hayagriva::citationberg::{IndependentStyle, Locale, Style};
use hayagriva::{
    BibliographyDriver, BibliographyRequest, BufWriteFormat, CitationItem, CitationRequest,
    LocatorPayload, SpecificLocator,
};
use std::path::Path;

/// How quotes are cited.
#[derive(Debug, Clone)]
pub enum CiteStyle {
    /// `“…” [@key, p. 233]`: Pandoc's citation syntax, for Markdown drafts.
    Pandoc,
    /// `"…" (Title, p. 233)`: the board's plain template.
    Plain,
    /// A CSL style (built in by name, or a `.csl` file).
    Csl {
        name: String,
        style: Box<IndependentStyle>,
        locales: Vec<Locale>,
    },
}

/// The built-in styles the README names (any other name in hayagriva's
/// archive works too).
pub const BUILT_IN: [&str; 3] = ["chicago-author-date", "apa", "mla"];

impl CiteStyle {
    /// `pandoc`, `plain`, the name of a CSL style in hayagriva's archive
    /// (`chicago-author-date`, `apa`, `mla`, …) or the path of a `.csl`
    /// file. A dependent style is rendered by its parent.
    pub fn parse(spec: &str) -> Result<CiteStyle> {
        let spec = spec.trim();
        match spec.to_lowercase().as_str() {
            "" | "pandoc" => return Ok(CiteStyle::Pandoc),
            "plain" => return Ok(CiteStyle::Plain),
            _ => {}
        }
        let (name, style) = if spec.to_lowercase().ends_with(".csl") {
            let path = Path::new(spec);
            let xml = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the CSL style {}", path.display()))?;
            let style = Style::from_xml(&xml)
                .map_err(|e| anyhow!("the CSL style {} is not valid: {e}", path.display()))?;
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| spec.to_string());
            (name, style)
        } else {
            let archived = ArchivedStyle::by_name(&spec.to_lowercase()).ok_or_else(|| {
                anyhow!(
                    "unknown citation style '{spec}' (expected pandoc, plain, {}, another \
                     CSL style name, or the path of a .csl file)",
                    BUILT_IN.join(", ")
                )
            })?;
            (spec.to_lowercase(), archived.get())
        };
        let style = match style {
            Style::Independent(s) => s,
            Style::Dependent(d) => {
                let parent = &d.parent_link.href;
                match ArchivedStyle::by_id(parent).map(ArchivedStyle::get) {
                    Some(Style::Independent(s)) => s,
                    _ => bail!(
                        "the CSL style '{name}' depends on {parent}, which is not built in: \
                         use the parent style's .csl file"
                    ),
                }
            }
        };
        Ok(CiteStyle::Csl {
            name,
            style: Box::new(style),
            locales: hayagriva::archive::locales(),
        })
    }

    pub fn name(&self) -> &str {
        match self {
            CiteStyle::Pandoc => "pandoc",
            CiteStyle::Plain => "plain",
            CiteStyle::Csl { name, .. } => name,
        }
    }

    /// The in-text citation of `work` at `page` ("233", "4–5", "iv"): `[@key,
    /// p. 233]`, `(Smith and Jones 2020, 233)`, `(Smith & Jones, 2020, p.
    /// 233)`, `(Smith and Jones 233)`.
    pub fn citation(&self, work: &Work, page: Option<&str>) -> String {
        match self {
            CiteStyle::Pandoc => match page {
                Some(p) if is_range(p) => format!("[@{}, pp. {p}]", work.key),
                Some(p) => format!("[@{}, p. {p}]", work.key),
                None => format!("[@{}]", work.key),
            },
            CiteStyle::Plain => {
                let title = work.title.as_deref().unwrap_or(&work.key);
                match page {
                    Some(p) => format!("({title}, {})", page_words(p)),
                    None => format!("({title})"),
                }
            }
            CiteStyle::Csl { style, locales, .. } => {
                render_csl(&work.record, style, locales, page).citation
            }
        }
    }

    /// The quote with its citation: `“…” [@key, p. 233]`.
    pub fn cite(&self, quote: &str, work: &Work, page: Option<&str>) -> String {
        let quote = crate::validate::reader_text(quote);
        match self {
            CiteStyle::Plain => format!("\"{quote}\" {}", self.citation(work, page)),
            _ => format!("“{quote}” {}", self.citation(work, page)),
        }
    }

    /// The work's entry in the style's bibliography (Pandoc and plain have
    /// none of their own: Chicago author-date's is given).
    pub fn reference(&self, work: &Work) -> String {
        match self {
            CiteStyle::Csl { style, locales, .. } => {
                render_csl(&work.record, style, locales, None).reference
            }
            _ => match CiteStyle::parse("chicago-author-date") {
                Ok(s) => s.reference(work),
                Err(_) => work.title.clone().unwrap_or_else(|| work.key.clone()),
            },
        }
    }
}

/// A quote cited by a source that no bibliography entry names: the plain
/// template with the source's title and place.
pub fn plain(quote: &str, title: &str, place: Option<&str>) -> String {
    let quote = crate::validate::reader_text(quote);
    match place {
        Some(p) if !p.is_empty() => format!("\"{quote}\" ({title}, {p})"),
        _ => format!("\"{quote}\" ({title})"),
    }
}

fn is_range(p: &str) -> bool {
    p.contains(['–', '-'])
}

/// "p. 4" or "pp. 4–5".
pub fn page_words(p: &str) -> String {
    if is_range(p) {
        format!("pp. {p}")
    } else {
        format!("p. {p}")
    }
}

struct Rendered {
    citation: String,
    reference: String,
}

/// One citation (with its page locator) and the bibliography entry, by
/// hayagriva's CSL processor.
fn render_csl(
    record: &Record,
    style: &IndependentStyle,
    locales: &[Locale],
    page: Option<&str>,
) -> Rendered {
    let locator = page.map(|p| SpecificLocator(Locator::Page, LocatorPayload::Str(p)));
    // One body for both record types (hayagriva's EntryLike is not public,
    // so no generic function can name it).
    macro_rules! run {
        ($entry:expr) => {{
            let mut driver = BibliographyDriver::new();
            driver.citation(CitationRequest::new(
                vec![CitationItem::with_locator($entry, locator)],
                style,
                None,
                locales,
                Some(1),
            ));
            let r = driver.finish(BibliographyRequest::new(style, None, locales));
            let citation = r
                .citations
                .first()
                .map(|c| plain_text(&c.citation))
                .unwrap_or_default();
            let reference = r
                .bibliography
                .and_then(|b| b.items.into_iter().next())
                .map(|i| plain_text(&i.content))
                .unwrap_or_default();
            Rendered {
                citation,
                reference,
            }
        }};
    }
    match record {
        Record::Bib(e) => run!(e.as_ref()),
        Record::Csl(i) => run!(i.as_ref()),
    }
}

fn plain_text(children: &hayagriva::ElemChildren) -> String {
    let mut s = String::new();
    let _ = children.write_buf(&mut s, BufWriteFormat::Plain);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cite::Bibliography;

    /// A book, a journal article and a chapter in an edited book, as
    /// Zotero's Better BibTeX exports them.
    const WORKS: &str = r#"
@book{stevenson1824,
  author = {Stevenson, Robert},
  title = {An Account of the Bell Rock Light-House},
  publisher = {Archibald Constable},
  location = {Edinburgh},
  year = {1824},
}
@article{darling1839,
  author = {Darling, Grace and Darling, William},
  title = {The Wreck of the Forfarshire},
  journaltitle = {Northern Lights Quarterly},
  volume = {12},
  number = {3},
  pages = {201--219},
  year = {1839},
  doi = {10.5555/nlq.1839.12.3},
}
@incollection{hercules1990,
  author = {Martins, Ana},
  title = {The Roman Tower at Corunna},
  booktitle = {Lights of the Ancient World},
  editor = {Ortega, Luis},
  publisher = {Atlantic University Press},
  location = {Porto},
  pages = {45--67},
  year = {1990},
}
"#;

    fn works() -> Bibliography {
        Bibliography::from_biblatex(WORKS).unwrap()
    }

    /// Every built-in style, for each kind of work: the quote's citation
    /// with its page, and the bibliography entry.
    fn rendered(style: &str) -> String {
        let s = CiteStyle::parse(style).unwrap();
        let bib = works();
        let mut out = String::new();
        for (key, page) in [
            ("stevenson1824", "233"),
            ("darling1839", "204–205"),
            ("hercules1990", "47"),
        ] {
            let w = bib.get(key).unwrap();
            out.push_str(&format!(
                "{key}\n  cite: {}\n  ref:  {}\n",
                s.cite("the light was first exhibited", w, Some(page)),
                s.reference(w)
            ));
        }
        out
    }

    #[test]
    fn chicago_author_date() {
        insta::assert_snapshot!(rendered("chicago-author-date"));
    }

    #[test]
    fn apa() {
        insta::assert_snapshot!(rendered("apa"));
    }

    #[test]
    fn mla() {
        insta::assert_snapshot!(rendered("mla"));
    }

    #[test]
    fn pandoc_and_plain() {
        let bib = works();
        let w = bib.get("stevenson1824").unwrap();
        let p = CiteStyle::parse("pandoc").unwrap();
        assert_eq!(
            p.cite("the light\nwas first  exhibited", w, Some("233")),
            "“the light was first exhibited” [@stevenson1824, p. 233]"
        );
        assert_eq!(p.citation(w, Some("4–5")), "[@stevenson1824, pp. 4–5]");
        assert_eq!(p.citation(w, Some("iv")), "[@stevenson1824, p. iv]");
        assert_eq!(p.citation(w, None), "[@stevenson1824]");
        let plain = CiteStyle::parse("plain").unwrap();
        assert_eq!(
            plain.cite("the light was first exhibited", w, Some("233")),
            "\"the light was first exhibited\" (An Account of the Bell Rock Light-House, p. 233)"
        );
        assert_eq!(
            super::plain("a b", "Notes", Some("line 4")),
            "\"a b\" (Notes, line 4)"
        );
    }

    #[test]
    fn csl_files_and_unknown_names() {
        let e = CiteStyle::parse("harvard-ish").unwrap_err().to_string();
        assert!(e.contains("unknown citation style"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.csl");
        std::fs::write(&bad, "<style>").unwrap();
        let e = CiteStyle::parse(bad.to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("not valid"), "{e}");
        // A dependent style is rendered by its built-in parent.
        let dep = dir.path().join("my-journal.csl");
        std::fs::write(
            &dep,
            r#"<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" version="1.0" default-locale="en-US">
  <info>
    <title>My Journal</title>
    <id>http://example.org/styles/my-journal</id>
    <link href="http://example.org/styles/my-journal" rel="self"/>
    <link href="http://www.zotero.org/styles/apa" rel="independent-parent"/>
    <updated>2024-01-01T00:00:00+00:00</updated>
  </info>
</style>"#,
        )
        .unwrap();
        let s = CiteStyle::parse(dep.to_str().unwrap()).unwrap();
        assert_eq!(s.name(), "my-journal");
        let bib = works();
        let apa = CiteStyle::parse("apa").unwrap();
        let w = bib.get("stevenson1824").unwrap();
        assert_eq!(s.citation(w, Some("9")), apa.citation(w, Some("9")));
    }
}
