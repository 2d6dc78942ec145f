//! How alike two works' titles are, for tying a bibliography's works to
//! the sources when no file name or DOI does.

/// Least title similarity ([`title_similarity`]) that ties a work to a
/// source.
pub const MIN_TITLE_SIMILARITY: f32 = 0.8;

/// Lower-cased words of letters and digits, an apostrophe inside a word
/// dropped ("Keeper's" is "keepers"); with `join`, a hyphen inside a word
/// too ("Light-House" is "lighthouse", as another spelling writes it).
fn title_words(t: &str, join: bool) -> Vec<String> {
    let joined: &[char] = if join {
        &['\'', '\u{2019}', '-', '\u{2010}', '\u{2011}']
    } else {
        &['\'', '\u{2019}']
    };
    t.replace(joined, "")
        .replace('&', " and ")
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Words that tell no work from another.
const SMALL: [&str; 22] = [
    "a", "an", "the", "of", "and", "in", "on", "for", "to", "with", "at", "by", "from", "its",
    "their", "his", "her", "or", "as", "into", "upon", "&",
];

/// Is `source_title` (a source's own title) plainly another work's than
/// `work_title`: about the work ("Comment on …", "Notes on …"), or, at
/// three words or more, sharing no word but small ones with it? A DOI
/// printed in such a source cites the work; the source is not the work.
pub fn another_work(work_title: &str, source_title: &str) -> bool {
    let words = |t: &str| [title_words(t, false), title_words(t, true)].concat();
    let (w, s) = (words(work_title), words(source_title));
    let about = s
        .iter()
        .any(|x| ABOUT.contains(&x.as_str()) && !w.contains(x));
    let content = |x: &&String| !SMALL.contains(&x.as_str());
    let shared = s.iter().filter(content).any(|x| w.contains(x));
    let long = title_words(source_title, true).len() >= 3;
    about || (long && !w.is_empty() && !shared)
}

/// How alike two titles are, 0–1: the Dice coefficient of their word sets
/// (case, punctuation and word order aside). A subtitle the other lacks
/// lowers it ("Deep Learning" / "Deep Learning: A Survey" is 0.67). Two
/// titles are not alike at all (0) when they number different volumes,
/// parts or years ("Volume One" / "Volume Two"), when the words one has
/// and the other lacks say it is about the other ("Notes on …", "… : a
/// review"), or when a title of three words or fewer has a word the other
/// lacks ("To the Lighthouse" / "The Lighthouse"), or when each has a
/// word the other lacks, small words aside ("… of England" / "… of
/// Scotland": one word put for another names another work).
pub fn title_similarity(a: &str, b: &str) -> f32 {
    // A PEP is titled with its number ("PEP 8 – Style Guide for Python
    // Code"); a reference may give its title alone.
    let bare = |t: &str| -> String {
        let rest = t.trim_start().strip_prefix("PEP ").unwrap_or("");
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        match rest[digits..]
            .trim_start()
            .strip_prefix(['–', '—', '-', ':'])
        {
            Some(title) if digits > 0 => title.trim().to_string(),
            _ => t.to_string(),
        }
    };
    dice(a, b).max(dice(&bare(a), &bare(b)))
}

/// Words that make a title another text's about the work: the author's
/// notes on it, a review, a reply.
const ABOUT: [&str; 21] = [
    "notes",
    "note",
    "summary",
    "review",
    "reviews",
    "draft",
    "against",
    "reply",
    "response",
    "comment",
    "comments",
    "commentary",
    "erratum",
    "errata",
    "corrigendum",
    "correction",
    "reading",
    "critique",
    "outline",
    "excerpts",
    "rejoinder",
];

/// A word that numbers a volume, part, edition or year: digits, a number
/// word, a Roman numeral of two letters or more.
fn numbers(w: &str) -> bool {
    const WORDS: [&str; 20] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "first",
        "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    ];
    w.chars().any(|c| c.is_ascii_digit())
        || WORDS.contains(&w)
        || (w.len() >= 2 && w.chars().all(|c| "ivxlc".contains(c)))
}

/// The Dice coefficient of two titles' word sets, hyphens splitting words
/// or joining them, whichever makes them more alike; 0 for titles of
/// other works (see [`title_similarity`]).
fn dice(a: &str, b: &str) -> f32 {
    // Hyphens splitting words, and joining them ("Light-House").
    let modes = [false, true].map(|join| (title_words(a, join), title_words(b, join), join));
    let within = |x: &[String], y: &[String]| x.iter().all(|w| y.contains(w));
    // A word a title has beyond the other, not in its subtitle, names
    // another work: "… of Norway and Sweden" is not "… of Norway".
    let added_in_main = |t: &str, own: &[String], other: &[String], join: bool| {
        let main = title_words(main_title(t), join);
        own.iter()
            .any(|w| !other.contains(w) && !SMALL.contains(&w.as_str()) && main.contains(w))
    };
    let alike = modes
        .iter()
        .any(|(wa, wb, _)| within(wa, wb) && within(wb, wa));
    let added = modes.iter().any(|(wa, wb, join)| {
        (within(wa, wb) || within(wb, wa))
            && (added_in_main(a, wa, wb, *join) || added_in_main(b, wb, wa, *join))
    });
    if added && !alike {
        return 0.0;
    }
    modes
        .into_iter()
        .map(|(wa, wb, _)| dice_of(wa, wb))
        .fold(0.0, f32::max)
}

/// A title before its subtitle: up to a colon, a dash set apart, a
/// bracket or a full stop.
fn main_title(t: &str) -> &str {
    let ends = [": ", " – ", " — ", " - ", " (", " [", ". ", "? "];
    let end = ends
        .iter()
        .filter_map(|e| t.find(e))
        .min()
        .unwrap_or(t.len());
    &t[..end]
}

fn dice_of(mut a: Vec<String>, mut b: Vec<String>) -> f32 {
    a.sort();
    a.dedup();
    b.sort();
    b.dedup();
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let only = |x: &[String], y: &[String]| -> Vec<String> {
        x.iter()
            .filter(|w| y.binary_search(w).is_err())
            .cloned()
            .collect()
    };
    let (a_only, b_only) = (only(&a, &b), only(&b, &a));
    // Each title has a word of its own, not a small one: one word put for
    // another ("… of England" / "… of Scotland"), not a subtitle added.
    let content = |x: &[String]| x.iter().any(|w| !SMALL.contains(&w.as_str()));
    let swapped = content(&a_only) && content(&b_only);
    let differ: Vec<String> = [a_only, b_only].concat();
    let other_work = swapped
        || differ
            .iter()
            .any(|w| numbers(w) || ABOUT.contains(&w.as_str()))
        || (!differ.is_empty() && a.len().min(b.len()) <= 3);
    if other_work {
        return 0.0;
    }
    let common = a.iter().filter(|w| b.binary_search(w).is_ok()).count();
    2.0 * common as f32 / (a.len() + b.len()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_similarity_ignores_case_punctuation_and_order() {
        assert_eq!(
            title_similarity("Learning Rate Curriculum", "learning-rate curriculum."),
            1.0
        );
        assert!(
            title_similarity("Deep Learning", "Deep Learning: A Survey") < MIN_TITLE_SIMILARITY
        );
        assert_eq!(title_similarity("", "x"), 0.0);
        assert_eq!(
            title_similarity("PEP 572 – Assignment Expressions", "Assignment expressions"),
            1.0
        );
        assert!(title_similarity("PEP 572 – Assignment Expressions", "PEP 8 – Style Guide") < 0.5);
    }

    /// Titles one word apart that name other works.
    #[test]
    fn other_volumes_notes_and_short_titles_are_other_works() {
        for (a, b) in [
            (
                "A History of Scottish Lighthouses, Volume One",
                "A History of Scottish Lighthouses Volume Two",
            ),
            (
                "Annual Report of the Lighthouse Board 1850",
                "Annual Report of the Lighthouse Board 1851",
            ),
            (
                "The Keepers of the Rock, Part II",
                "The Keepers of the Rock, Part III",
            ),
            ("Keepers of the Rock", "Notes on Keepers of the Rock"),
            ("Keepers of the Rock", "Keepers of the Rock: a review"),
            ("Keepers of the Rock", "Against Keepers of the Rock"),
            ("To the Lighthouse", "The Lighthouse"),
            (
                "A History of the Lighthouses of Scotland and Their Keepers",
                "A History of the Lighthouses of England and Their Keepers",
            ),
            (
                "The Lighthouse Keepers of Norway",
                "The Lighthouse Keepers of Norway and Sweden",
            ),
        ] {
            assert_eq!(title_similarity(a, b), 0.0, "{a} / {b}");
        }
        // Still alike: a subtitle's punctuation, a long title's extra word.
        assert!(
            title_similarity(
                "A History of Scottish Lighthouses, Volume One",
                "A history of the Scottish lighthouses: volume one"
            ) >= MIN_TITLE_SIMILARITY
        );
        assert_eq!(
            title_similarity(
                "Account of the Bell Rock Light-House",
                "Account of the Bell Rock Lighthouse"
            ),
            1.0
        );
        assert_eq!(
            title_similarity("Keepers & Their Lights", "Keepers and their lights"),
            1.0
        );
        // A subtitle one has and the other lacks is no other work.
        assert!(
            title_similarity(
                "Mono2Micro: A Practical and Effective Tool",
                "Mono2Micro: a practical and effective tool for decomposing Java applications"
            ) > 0.0
        );
    }

    #[test]
    fn a_title_about_a_work_or_sharing_nothing_with_it_is_another_works() {
        let work = "Lighthouse Keepers and Their Logs";
        for other in [
            "Weather Returns Reconsidered",
            "Comment on Lighthouse Keepers and Their Logs",
            "Notes on the keepers' logs",
        ] {
            assert!(another_work(work, other), "{other}");
        }
        for same in [
            work,
            "Lighthouse keepers and their logs: a history",
            "Keepers",
            "J-F-Liu assets",
        ] {
            assert!(!another_work(work, same), "{same}");
        }
    }

    proptest::proptest! {
        /// Similarity is symmetric and in [0, 1]; a title is wholly like
        /// itself, and a PEP's numbered title like its title alone.
        #[test]
        fn similarity_is_symmetric_and_a_peps_number_aside(
            a in "[A-Za-z]{1,8}( [A-Za-z]{1,8}){0,5}",
            b in "[A-Za-z ,:.-]{0,40}",
            n in 1u32..10_000,
        ) {
            let (ab, ba) = (title_similarity(&a, &b), title_similarity(&b, &a));
            proptest::prop_assert_eq!(ab, ba);
            proptest::prop_assert!((0.0..=1.0).contains(&ab));
            proptest::prop_assert_eq!(title_similarity(&a, &a), 1.0);
            proptest::prop_assert_eq!(title_similarity(&format!("PEP {n} – {a}"), &a), 1.0);
        }
    }
}
