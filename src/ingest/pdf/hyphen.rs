//! Words hyphenated across line ends, joined ("exam-" / "ple" →
//! "example"), and compounds that break at their hyphen kept.

use crate::text::is_line_hyphen;

/// The words a document writes whole, and the hyphenated compounds it
/// writes inside a line (lower-cased), to tell a word broken at a line end
/// ("exam-" / "ple") from a compound that happens to break at its hyphen
/// ("cross-" / "validation").
#[derive(Default)]
pub(super) struct Vocabulary {
    words: std::collections::HashSet<String>,
    compounds: std::collections::HashSet<String>,
}

/// A token's letters and digits, with hyphens inside it; punctuation
/// around it dropped.
fn bare(token: &str) -> &str {
    token.trim_matches(|c: char| !c.is_alphanumeric())
}

impl Vocabulary {
    pub(super) fn of(pages: &[String]) -> Self {
        let mut v = Vocabulary::default();
        for line in pages.iter().flat_map(|p| p.lines()) {
            let tokens: Vec<&str> = line.split_whitespace().collect();
            for (i, t) in tokens.iter().enumerate() {
                // A line's last token may be a word broken at its end.
                if i + 1 == tokens.len() && t.ends_with(is_line_hyphen) {
                    continue;
                }
                let w = bare(t).to_lowercase();
                if w.contains(is_line_hyphen) {
                    v.compounds.insert(w);
                } else if !w.is_empty() {
                    v.words.insert(w);
                }
            }
        }
        v
    }

    /// The paragraph with words hyphenated across line ends joined: a line
    /// that ends in a letter and a hyphen, before a line that starts with a
    /// lower-case letter, is joined to it without the hyphen ("exam-\nple"
    /// → "example"). The hyphen stays when the broken word is a compound:
    /// the part before the hyphen or the one after it has a hyphen of its
    /// own ("state-of-\nthe-art"), or the document writes the hyphenated
    /// form inside a line and never the joined one ("cross-validation");
    /// and so it does before a capital or a digit ("X-\nRay", "GPT-\n4o").
    /// A compound kept is written whole on the first line ("state-of-the-art
    /// \n…"): a hyphen before a line break between two letters is, to
    /// validation, a word broken at its end.
    pub(super) fn join_hyphens(&self, para: &str) -> String {
        let lines: Vec<&str> = para.split('\n').collect();
        let mut out = String::with_capacity(para.len());
        // The next line's first word was moved up (a compound kept whole).
        let mut moved = false;
        let mut joined = false;
        for (i, line) in lines.iter().enumerate() {
            let mut line = if joined { line.trim_start() } else { line };
            if moved {
                let rest = line.trim_start();
                line = rest[rest.find(char::is_whitespace).unwrap_or(rest.len())..].trim_start();
                if line.is_empty() && i + 1 < lines.len() {
                    // Nothing left of the line: the compound ends the one
                    // before, and that one's break stands.
                    moved = false;
                    continue;
                }
            }
            joined = false;
            moved = false;
            let Some(next) = lines.get(i + 1) else {
                out.push_str(line);
                break;
            };
            let end = line.trim_end();
            let mut tail = end.chars().rev();
            let hyphen = tail.next().filter(|c| is_line_hyphen(*c));
            let before = tail.next();
            let letter_before = before.is_some_and(char::is_alphabetic);
            let next_word = next.split_whitespace().next().unwrap_or("");
            let lower_after = next_word.chars().next().is_some_and(char::is_lowercase);
            let Some(h) = hyphen else {
                out.push_str(line);
                out.push('\n');
                continue;
            };
            if letter_before && lower_after {
                let head = bare(end.split_whitespace().last().unwrap_or(""));
                let tail_word = bare(next_word);
                let chained = head.contains(is_line_hyphen) || tail_word.contains(is_line_hyphen);
                let compound = format!("{head}-{tail_word}").to_lowercase();
                let whole = format!("{head}{tail_word}").to_lowercase();
                let keep = h != '\u{00AD}'
                    && (chained
                        || (self.compounds.contains(&compound) && !self.words.contains(&whole)));
                if !keep {
                    out.push_str(&end[..end.len() - h.len_utf8()]);
                    joined = true;
                    continue;
                }
            }
            // A compound broken at its hyphen ("state-of-" / "the-art",
            // "X-" / "Ray", "GPT-" / "4o", "12-" / "15"): written whole on
            // the first line, as a reader quotes it. A hyphen and a line
            // break between letters would read as a word broken at its end.
            let word_before = letter_before || before.is_some_and(|c| c.is_ascii_digit());
            if h != '\u{00AD}' && word_before && next_word.starts_with(char::is_alphanumeric) {
                out.push_str(end);
                out.push_str(next_word);
                out.push('\n');
                moved = true;
                continue;
            }
            out.push_str(line);
            out.push('\n');
        }
        // The last line moved up whole leaves no line after its break.
        if out.ends_with('\n') && !para.ends_with('\n') {
            out.pop();
        }
        out
    }
}

/// A word hyphenated across a page break ("cur-" at the foot of one page,
/// "riculum" at the top of the next) moves whole to the first page, as a
/// line-end hyphenation there ("cur-\nriculum"), for [`Vocabulary::
/// join_hyphens`] to join: a page's passages never end or begin inside a
/// word, and a quote of the whole word reads across the page break.
pub(super) fn join_across_pages(pages: &mut [String]) {
    for i in 1..pages.len() {
        let (before, after) = pages.split_at_mut(i);
        let (prev, next) = (&mut before[i - 1], &mut after[0]);
        let end = prev.trim_end();
        let mut tail = end.chars().rev();
        let broken =
            tail.next().is_some_and(is_line_hyphen) && tail.next().is_some_and(char::is_alphabetic);
        let rest = next.trim_start();
        if !broken || !rest.starts_with(char::is_lowercase) {
            continue;
        }
        let word = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let moved = format!("{end}\n{}", &rest[..word]);
        *next = rest[word..].trim_start().to_string();
        *prev = moved;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_broken_across_a_page_moves_to_the_first_page() {
        let mut pages = [
            "We apply cur-\n".to_string(),
            "riculum learning here.\nMore.".to_string(),
            "The X-".to_string(),
            "Ray tube.".to_string(),
        ];
        join_across_pages(&mut pages);
        assert_eq!(pages[0], "We apply cur-\nriculum");
        assert_eq!(pages[1], "learning here.\nMore.");
        // Not a broken word: the next page starts with a capital.
        assert_eq!(pages[2], "The X-");
        let v = Vocabulary::of(&pages);
        assert_eq!(v.join_hyphens(&pages[0]), "We apply curriculum");
    }

    proptest::proptest! {
        /// Joining and moving words never adds, drops or reorders a letter
        /// or a digit.
        #[test]
        fn words_keep_their_letters_in_order(
            s in "(ab|re|X|12|4o|state|-| |\\n|\\u{AD}){0,24}"
        ) {
            let v = Vocabulary::of(&["a re-run".to_string()]);
            let out = v.join_hyphens(&s);
            let letters = |t: &str| t.chars().filter(|c| c.is_alphanumeric()).collect::<String>();
            proptest::prop_assert_eq!(letters(&out), letters(&s));
        }
    }

    #[test]
    fn words_hyphenated_at_line_ends_are_joined() {
        let pages = ["We ran cross-validation and a re-run.\nIt is sound.".to_string()];
        let v = Vocabulary::of(&pages);
        assert_eq!(v.join_hyphens("an exam-\nple of it"), "an example of it");
        assert_eq!(
            v.join_hyphens("an exam- \n  ple,\nand more"),
            "an example,\nand more"
        );
        // Compounds stay compounds: a chain of hyphens, or a hyphenated
        // form the document writes inside a line.
        // written whole on the first line, as a reader quotes them.
        for (kept, whole) in [
            ("a state-of-\nthe-art lamp", "a state-of-the-art\nlamp"),
            ("we ran cross-\nvalidation", "we ran cross-validation"),
            ("the X-\nRay tube\nworks", "the X-Ray\ntube\nworks"),
            ("pages 12-\n15", "pages 12-15"),
            ("a re-\nrun", "a re-run"),
            ("with GPT-\n4o and", "with GPT-4o\nand"),
        ] {
            assert_eq!(v.join_hyphens(kept), whole);
        }
        // A sentence's dash at a line end is no compound's.
        assert_eq!(
            v.join_hyphens("it failed -\nand then"),
            "it failed -\nand then"
        );
        // Unless it writes the joined form too.
        let v = Vocabulary::of(&["a rerun and a re-run".to_string()]);
        assert_eq!(v.join_hyphens("a re-\nrun"), "a rerun");
    }
}
