use super::*;

fn after(s: &str) -> Option<Citation> {
    let chars: Vec<char> = s.chars().collect();
    parse_after(&chars).map(|(c, _)| c)
}

fn key_page(c: Option<Citation>) -> (Option<String>, Option<String>) {
    let c = c.expect("a citation");
    (c.key, c.page)
}

#[test]
fn pandoc_citations() {
    let kp = |k: &str, p: Option<&str>| (Some(k.to_string()), p.map(str::to_string));
    assert_eq!(
        key_page(after(" [@smith2020, p. 233].")),
        kp("smith2020", Some("233"))
    );
    assert_eq!(key_page(after(" [@smith2020]")), kp("smith2020", None));
    assert_eq!(
        key_page(after(", [@doe:2019, pp. 4--5]")),
        kp("doe:2019", Some("4–5"))
    );
    assert_eq!(key_page(after(" [@doe p. iv]")), kp("doe", Some("iv")));
    assert_eq!(
        key_page(after(" [see @doe, 12; @x, 3]")),
        kp("doe", Some("12"))
    );
    assert_eq!(key_page(after(" [@{a b}, p. 3]")), kp("a b", Some("3")));
    assert_eq!(key_page(after(" [@doe, chap. 3]")), kp("doe", None));
    assert_eq!(
        key_page(after("\n[@doe, 233–35]")),
        kp("doe", Some("233–35"))
    );
    // In-text, suppressed author, footnote.
    assert_eq!(key_page(after(" @doe [p. 9].")), kp("doe", Some("9")));
    assert_eq!(key_page(after(" @doe.")), kp("doe", None));
    assert_eq!(key_page(after(" [-@doe, p. 9]")), kp("doe", Some("9")));
    assert_eq!(key_page(after("^[@doe, p. 9]")), kp("doe", Some("9")));
    assert_eq!(after(" [a link](http://x)"), None);
    assert_eq!(after(" and then [@doe]"), None);
    assert_eq!(after("\n\n[@doe]"), None);
    assert_eq!(
        after(" [@smith2020, p. 233]").unwrap().text,
        "[@smith2020, p. 233]"
    );
}

/// A locator that is not one page the check can read is kept as written,
/// so that the check says it did not check it (never "on the page cited").
#[test]
fn locators_that_are_no_page_are_kept_unread() {
    for (cite, unread) in [
        (" [@doe, vol. 2, p. 9]", "vol. 2, p. 9"),
        (" [@doe, pp. 3, 7]", "pp. 3, 7"),
        (" [@doe, p. 9f.]", "p. 9f."),
        (" [@doe, chap. 3]", "chap. 3"),
        (" [@doe, p. 3 n. 9]", "p. 3 n. 9"),
        (" (Doe 1901, § 9)", "§ 9"),
        // Ranges open at an end, a page and more (the red team's).
        (" [@doe, p. -2]", "p. -2"),
        (" [@doe, p. 2-]", "p. 2-"),
        (" [@doe, p. 2–]", "p. 2–"),
        (" [@doe, p. 2+]", "p. 2+"),
        (" [@doe, pp. -1]", "pp. -1"),
    ] {
        let c = after(cite).unwrap();
        assert_eq!(c.page, None, "{cite}");
        assert_eq!(c.unread_locator.as_deref(), Some(unread), "{cite}");
    }
    let c = after(" [@doe, p. 233].").unwrap();
    assert_eq!((c.page.as_deref(), c.unread_locator), (Some("233"), None));
    assert_eq!(after(" [@doe]").unwrap().unread_locator, None);
    for (cite, page) in [
        (" [@doe, p. 02]", "2"),
        (" [@doe, pp. 233--35]", "233–35"),
        (" [@doe, pp. 4-5]", "4–5"),
        (" (Doe 1901, p. xii)", "xii"),
    ] {
        assert_eq!(after(cite).unwrap().page.as_deref(), Some(page), "{cite}");
    }
}

#[test]
fn author_date_citations() {
    let c = after(" (Smith and Jones 2020, p. 4).").unwrap();
    assert_eq!(c.author.as_deref(), Some("Smith and Jones"));
    assert_eq!(c.year.as_deref(), Some("2020"));
    assert_eq!(c.page.as_deref(), Some("4"));
    let c = after(" (Smith et al., 2019b, pp. 4-5)").unwrap();
    assert_eq!(
        (c.author.as_deref(), c.year.as_deref(), c.page.as_deref()),
        (Some("Smith et al."), Some("2019b"), Some("4–5"))
    );
    let c = after(" (van Gogh 1888: 12)").unwrap();
    assert_eq!(c.author.as_deref(), Some("van Gogh"));
    assert_eq!(c.page.as_deref(), Some("12"));
    assert_eq!(after(" (which he wrote in 1811)"), None);
    assert_eq!(after(" (see below)"), None);
    assert_eq!(first_author("Smith and Jones"), "Smith");
    assert_eq!(first_author("Smith et al."), "Smith");
}

/// "Smith 2001a" and "Smith 2001b" are two works, lettered by title; the
/// year alone names both.
#[test]
fn a_years_letter_picks_one_of_an_authors_works() {
    let bib = Bibliography::from_biblatex(
        "@book{fog, title = {The Fog Signals}, author = {Smith, Ann}, date = {2001}}\n\
         @book{bells, title = {Bells at Sea}, author = {Smith, Ann}, date = {2001}}\n",
    )
    .unwrap();
    let m = Matched::new(bib, &[], &mut |_| None);
    let keys = |cite: &str| -> Vec<String> {
        resolve(&after(cite).unwrap(), &m)
            .iter()
            .map(|w| w.key.clone())
            .collect()
    };
    assert_eq!(keys(" (Smith 2001a)"), ["bells"]);
    assert_eq!(keys(" (Smith 2001b)"), ["fog"], "the article aside");
    assert!(keys(" (Smith 2001c)").is_empty());
    assert_eq!(keys(" (Smith 2001)").len(), 2);
}

#[test]
fn block_quotes_lose_their_trailing_citation() {
    let (q, c) = split_trailing("The lamp never failed. [@doe, p. 3]");
    assert_eq!(q, "The lamp never failed.");
    assert_eq!(c.unwrap().key.as_deref(), Some("doe"));
    let (q, c) = split_trailing("The lamp never failed. — (Doe 2019, p. 3)");
    assert_eq!(q, "The lamp never failed.");
    assert_eq!(c.unwrap().page.as_deref(), Some("3"));
    let (q, c) = split_trailing("It was lit (as planned).");
    assert_eq!(q, "It was lit (as planned).");
    assert!(c.is_none());
}

#[test]
fn pages_must_be_pages_the_quote_is_on() {
    let num = |n: u32| n.to_string();
    let one = PageRange { first: 4, last: 4 };
    let two = PageRange { first: 4, last: 5 };
    assert!(page_matches("4", one, &num));
    assert!(!page_matches("7", one, &num));
    assert!(!page_matches("4–5", one, &num));
    assert!(page_matches("4–5", two, &num));
    assert!(page_matches("4", two, &num));
    assert!(page_matches("5", two, &num));
    assert!(!page_matches("5–4", two, &num));
    assert!(!page_matches("3–5", two, &num));
    // Labels: physical pages 1–3 are "i", "ii", "1".
    let labels = |n: u32| ["i", "ii", "1"][n as usize - 1].to_string();
    assert!(page_matches("ii", PageRange { first: 2, last: 2 }, &labels));
    assert!(page_matches("II", PageRange { first: 2, last: 2 }, &labels));
    assert!(!page_matches("2", PageRange { first: 2, last: 2 }, &labels));
    assert!(page_matches(
        "ii–1",
        PageRange { first: 2, last: 3 },
        &labels
    ));
    // An abbreviated range end.
    let big = |n: u32| (n + 230).to_string();
    assert!(page_matches(
        "233–34",
        PageRange { first: 3, last: 4 },
        &big
    ));
}

use crate::cite::{Bibliography, Matched, SourceMeta};
use proptest::prelude::*;

fn matched() -> Matched {
    let bib = Bibliography::from_biblatex(
        "@book{own, title = {Own}, author = {A, B}, date = {2000}, file = {own.pdf}}\n\
         @book{other, title = {Other}, author = {C, D}, date = {2001}, file = {other.pdf}}\n",
    )
    .unwrap();
    let sources: Vec<SourceMeta> = ["own.pdf", "other.pdf", "loose.md"]
        .iter()
        .map(|id| SourceMeta {
            id: id.to_string(),
            title: String::new(),
        })
        .collect();
    Matched::new(bib, &sources, &mut |_| None)
}

const VERDICTS: [Verdict; 7] = [
    Verdict::Verbatim,
    Verdict::Normalized,
    Verdict::Fuzzy,
    Verdict::NonContiguous,
    Verdict::Misattributed,
    Verdict::NotFound,
    Verdict::TooShort,
];

/// Labels of physical pages 1–30: front matter in Roman numerals for
/// the first `front` pages, then 1, 2, …; none at all when `unknown`
/// (a file that does not number its pages as its work is printed).
fn label_of(front: u32, unknown: bool) -> impl Fn(&str, u32) -> Option<String> {
    move |_, n| {
        if unknown {
            None
        } else if n <= front {
            Some(crate::ingest::roman_numeral(n as u64))
        } else {
            Some((n - front).to_string())
        }
    }
}

proptest! {
    #![proptest_config(crate::cases(512))]

    /// A citation check never says `ok` for a quote that is not
    /// validated, nor for a page written that the quote is not on.
    #[test]
    fn ok_only_for_validated_quotes_on_the_pages_written(
        verdict in 0usize..7, source in 0usize..4, paged in any::<bool>(),
        first in 1u32..30, len in 0u32..3, front in 0u32..6,
        w1 in 1u32..33, w2 in 0u32..3, roman_written in any::<bool>(), range in any::<bool>(),
        key in 0usize..3, unknown in any::<bool>(),
    ) {
        let m = matched();
        let label = label_of(front, unknown);
        let verdict = VERDICTS[verdict];
        let src = ["own.pdf", "other.pdf", "loose.md", "gone.pdf"][source];
        let pages = paged.then_some(PageRange { first, last: (first + len).min(30) });
        let ev = Evidence {
            verdict,
            status: verdict.status(),
            at: (source < 3).then_some(Located { source_id: src, pages }),
        };
        let written = |n: u32| match label_of(front, false)("", n) {
            Some(l) if roman_written => l,
            _ => n.to_string(),
        };
        let page = match (w1 > 30, range) {
            (true, _) => None,
            (false, false) => Some(written(w1)),
            (false, true) => Some(format!("{}–{}", written(w1), written((w1 + w2).min(30)))),
        };
        let c = Citation {
            key: Some(["own", "other", "missing"][key].into()),
            page: page.clone(),
            text: String::new(),
            author: None,
            year: None,
            unread_locator: None,
        };
        let work = m.bib.get(c.key.as_deref().unwrap());
        let r = check(&c, work, &m, &ev, &label);
        if r.check == CitationCheck::Ok {
            prop_assert_eq!(ev.status, Status::Validated);
            let at = ev.at.as_ref().unwrap();
            prop_assert_eq!(at.source_id, c.key.as_deref().map(|k| format!("{k}.pdf")).unwrap());
            if unknown && at.pages.is_some() {
                // Pages that cannot be known are never said to be checked.
                prop_assert!(r.page_found.is_none());
                prop_assert!(!r.note.contains("on the page cited"), "{}", r.note);
            } else if let (Some(w), Some(p)) = (&page, at.pages) {
                let on: Vec<String> = (p.first..=p.last).map(|n| label("", n).unwrap()).collect();
                for part in w.split('–') {
                    prop_assert!(on.iter().any(|l| l.eq_ignore_ascii_case(part)),
                        "ok for {} but the quote is on {:?}", w, on);
                }
            }
        }
        if work.is_none() {
            prop_assert_eq!(r.check, CitationCheck::UnknownKey);
        }
    }
}
