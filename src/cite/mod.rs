//! Citations: the author's bibliography, the works it names matched to the
//! sources of the index, quotes rendered with a citation in a style, and
//! the citations of a draft checked against the works they name.
//!
//! - [`bib`]: a BibTeX/BibLaTeX file (the `biblatex` crate) or CSL-JSON
//!   (what Zotero and Better BibTeX export), read into [`Work`]s, and
//!   [`Matched`] (`matching`): each work tied to its source files — by the
//!   entry's `file` field, else its DOI printed in the source's first
//!   pages, else its title's similarity to the source's metadata title.
//! - [`style`]: a quote with its work and page as Pandoc (`“…” [@key,
//!   p. 233]`), a CSL style rendered by `hayagriva` (Chicago author-date,
//!   APA, MLA built in; any `.csl` file), or the plain template.
//! - [`check`]: the citations written after a draft's quotations
//!   (`[@key, p. 4]`, `(Author 2020, p. 4)`) parsed, and each checked
//!   against the work it names: `ok`, `wrong_page`, `misattributed`,
//!   `not_found` or `unknown_key`.
//!
//! Pages are the printed page labels where a PDF declares them
//! (`/PageLabels`), else the physical page numbers.

pub mod bib;
mod bomb;
pub mod check;
mod matching;
pub mod style;
mod title;

pub use bib::{Bibliography, Work};
pub use check::{Citation, CitationCheck, CitationResult, PageRange};
pub use matching::{MatchHow, Matched, SourceMeta};
pub use style::CiteStyle;

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// A bibliography tied to the sources, with the style quotes are cited in.
pub struct Citing<'a> {
    pub matched: &'a Matched,
    pub style: &'a CiteStyle,
}

/// `[cite]` in the config file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CiteConfig {
    /// The bibliography: a `.bib` (BibTeX/BibLaTeX) or `.json` (CSL-JSON)
    /// file; `--bibliography` overrides it.
    pub bibliography: Option<PathBuf>,
    /// How quotes are cited: `pandoc` (default), `plain`, a built-in CSL
    /// style (`chicago-author-date`, `apa`, `mla`, or any other name
    /// hayagriva's archive knows) or the path of a `.csl` file.
    pub style: Option<String>,
}

#[cfg(test)]
mod tests {
    use crate::config::Config;

    /// `[cite]` in the config file; an unknown key there is an error.
    #[test]
    fn the_cite_table_of_the_config_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("config.toml");
        std::fs::write(&p, "[cite]\nbibliography = \"refs.bib\"\nstyle = \"apa\"\n").unwrap();
        let c = Config::load(Some(&p)).unwrap();
        assert_eq!(
            c.cite.bibliography.as_deref(),
            Some(std::path::Path::new("refs.bib"))
        );
        assert_eq!(c.cite.style.as_deref(), Some("apa"));
        assert!(super::CiteStyle::parse(c.cite.style.as_deref().unwrap()).is_ok());
        std::fs::write(&p, "[cite]\nbibliografy = \"refs.bib\"\n").unwrap();
        let e = format!("{:#}", Config::load(Some(&p)).unwrap_err());
        assert!(e.contains("bibliografy"), "{e}");
    }
}
