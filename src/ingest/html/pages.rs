//! The printed book's pages in an HTML edition: the anchors a transcriber
//! sets where each page began (`<a name="Page_76">`, `id="page_xii"`, an
//! EPUB `epub:type="pagebreak"`), read as page labels, so a quote cites
//! "p. 76" of the book; and the page numbers such an edition shows in the
//! margin ("[Pg 76]"), which are not the work's words.

/// The page a block starts on, and the pages met so far.
#[derive(Default)]
pub(super) struct Pages {
    /// Each page's label, in the order met ("" for a page the book does
    /// not number); a block's page is its 1-based index here.
    pub labels: Vec<String>,
    /// The page the block being read started on.
    start: Option<u32>,
}

impl Pages {
    /// A page begins here; `fresh` when the block being read has no words
    /// yet (it starts on the new page).
    pub fn begin(&mut self, label: String, fresh: bool) {
        self.labels.push(label);
        if fresh || self.start.is_none() {
            self.start = self.current();
        }
    }

    /// The page being read.
    pub fn current(&self) -> Option<u32> {
        (!self.labels.is_empty()).then_some(self.labels.len() as u32)
    }

    /// The page the block just read started on; the next starts on the
    /// page being read.
    pub fn take_start(&mut self) -> Option<u32> {
        let start = self.start;
        self.start = self.current();
        start
    }
}

/// The label of the page an element marks the start of: an anchor named
/// `Page_76`, `page-xii`, `pg12` (not `p12`, a paragraph's; the number after the word; a number the
/// book does not print, "Page_-6", is no label), or a page break with its
/// title or label.
pub(super) fn marker(el: &scraper::node::Element) -> Option<String> {
    let pagebreak = el
        .attr("epub:type")
        .is_some_and(|t| t.split_whitespace().any(|t| t == "pagebreak"))
        || el.attr("role") == Some("doc-pagebreak");
    if pagebreak {
        let label = el.attr("title").or(el.attr("aria-label")).unwrap_or("");
        let label = label
            .trim()
            .trim_start_matches(|c: char| !c.is_alphanumeric());
        let label = label
            .strip_prefix("Page ")
            .or(label.strip_prefix("page "))
            .unwrap_or(label);
        return Some(printed(label).unwrap_or_default());
    }
    let name = el.attr("id").or(el.attr("name"))?;
    let lower = name.to_ascii_lowercase();
    let rest = ["page", "pg"].iter().find_map(|w| lower.strip_prefix(w))?;
    let rest = rest.strip_prefix(['_', '-', '.']).unwrap_or(rest);
    if rest.is_empty() || !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-') {
        return None;
    }
    // "Page_-6": a page the book does not number; anything else after the
    // word ("para3", "pgnote") is no page.
    if let Some(n) = rest.strip_prefix('-') {
        return n
            .chars()
            .all(|c| c.is_ascii_digit())
            .then(String::new)
            .filter(|_| !n.is_empty());
    }
    printed(rest)
}

/// A printed page number: Arabic, or Roman in small letters.
fn printed(s: &str) -> Option<String> {
    let arabic = !s.is_empty() && s.len() <= 6 && s.chars().all(|c| c.is_ascii_digit());
    let roman = !s.is_empty() && s.len() <= 8 && s.chars().all(|c| "ivxlcdm".contains(c));
    (arabic || roman).then(|| s.to_string())
}

/// Text that is only a page number an edition shows in the margin:
/// "[Pg 76]", "[p. xii]", "Page 12", "{12}".
pub(super) fn is_page_number(text: &str) -> bool {
    let t = text.trim();
    let inner = t
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .or_else(|| t.strip_prefix('{').and_then(|r| r.strip_suffix('}')))
        .unwrap_or(t)
        .trim();
    let lower = inner.to_lowercase();
    let number = ["pg.", "pg", "page", "p."]
        .iter()
        .find_map(|w| lower.strip_prefix(w))
        .map(str::trim);
    number
        .or_else(|| t.starts_with('{').then_some(lower.as_str()))
        .is_some_and(|n| printed(n).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn el(html: &str) -> Option<String> {
        let frag = scraper::Html::parse_fragment(html);
        frag.root_element()
            .descendants()
            .find_map(|n| n.value().as_element().and_then(marker))
    }

    #[test]
    fn page_anchors_name_their_pages() {
        assert_eq!(
            el(r#"<a name="Page_76" id="Page_76"></a>"#).as_deref(),
            Some("76")
        );
        assert_eq!(el(r#"<a id="page-xii"></a>"#).as_deref(), Some("xii"));
        assert_eq!(el(r#"<span id="pg12"></span>"#).as_deref(), Some("12"));
        assert_eq!(el(r#"<a name="Page_-6"></a>"#).as_deref(), Some(""));
        assert_eq!(
            el(r#"<span epub:type="pagebreak" title="Page 33"></span>"#).as_deref(),
            Some("33")
        );
        for not in [
            r#"<a name="para3"></a>"#,
            r#"<a id="pgnote"></a>"#,
            r#"<a id="p"></a>"#,
            r#"<a id="Footnote_1"></a>"#,
            r#"<a id="pages"></a>"#,
        ] {
            assert_eq!(el(not), None, "{not}");
        }
    }

    #[test]
    fn margin_page_numbers() {
        for yes in [
            "[Pg 2]",
            "[Pg v]",
            "[p. 12]",
            "Page 7",
            "{12}",
            "[Page xii]",
        ] {
            assert!(is_page_number(yes), "{yes}");
        }
        for no in [
            "[1]",
            "12",
            "Pg",
            "[Pg twelve]",
            "Page of honour",
            "[Sidenote: Page 3]",
        ] {
            assert!(!is_page_number(no), "{no}");
        }
    }

    #[test]
    fn a_block_is_on_the_page_it_starts_on() {
        let mut p = Pages::default();
        assert_eq!(p.take_start(), None);
        p.begin("1".into(), true);
        // A page begins inside the block: it still started on page 1.
        p.begin("2".into(), false);
        assert_eq!(p.take_start(), Some(1));
        // The next starts on page 2.
        assert_eq!(p.take_start(), Some(2));
    }
}
