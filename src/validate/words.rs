//! Word boundaries of the source, as the invariant reads them.
//!
//! A validated quote begins and ends on a word boundary of its source: "can"
//! is not a quote of "cannot", "181" not of "1811", "£1" not of "£12,000".
//! A position is *inside a word* when the chars on both sides belong to one
//! word: two word chars (letters, digits, combining marks), or a word char
//! and a joiner that links it to the next word char — an apostrophe or a
//! hyphen between word chars ("can't", "non-violent"), a comma or full stop
//! between digits ("12,000", "10.5"), a soft hyphen; and an underscore
//! of a name, not emphasis ("TYPE_CHECKING", "__init__").

use super::markup;
use crate::text::byte_offset;
use unicode_normalization::char::is_combining_mark;

fn word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// Does `j` join `l` and `r` into one word?
fn joins(l: char, j: char, r: char) -> bool {
    match j {
        ',' | '.' => l.is_numeric() && r.is_numeric(),
        '\'' | '\u{2019}' | '-' | '\u{2010}' | '\u{2011}' | '\u{00AD}' => {
            word_char(l) && word_char(r)
        }
        _ => false,
    }
}

/// Is the underscore at byte `b` of `s` part of a name (`TYPE_CHECKING`,
/// `__init__`) rather than emphasis markup (`_italic_`)? Read as
/// validation's normalization reads it
/// ([`markup::markup_run`] on the run that holds it).
fn name_underscore(s: &str, b: usize) -> bool {
    let start = b - s.as_bytes()[..b]
        .iter()
        .rev()
        .take_while(|&&x| x == b'_')
        .count();
    // Normalization reads on past code markers with the char before them.
    let before = s[..start].trim_end_matches('`');
    let prev = before.chars().next_back().unwrap_or('\0');
    markup::markup_run(s, start, prev).is_none()
}

/// Is char position `p` of `s` inside a word (see the module docs)?
/// Positions 0 and the end are not.
pub fn inside_word(s: &str, p: usize) -> bool {
    let b = byte_offset(s, p);
    let mut before = s[..b].chars().rev();
    let mut after = s[b..].chars();
    let (Some(a), Some(c)) = (before.next(), after.next()) else {
        return false;
    };
    if word_char(a) && word_char(c) {
        return true;
    }
    // An underscore of a name is part of it: "CHECKING" is not a quote of
    // "TYPE_CHECKING", nor "slots" of "__slots__".
    let name_a = word_char(a) || (a == '_' && name_underscore(s, b - 1));
    if name_a && (word_char(c) || (c == '_' && name_underscore(s, b))) {
        return true;
    }
    if word_char(a) && after.next().is_some_and(|d| joins(a, c, d)) {
        return true;
    }
    word_char(c) && before.next().is_some_and(|z| joins(z, a, c))
}

/// Does the char range `start..end` of `s` cut a word at either end?
pub fn cuts_word(s: &str, start: usize, end: usize) -> bool {
    inside_word(s, start) || inside_word(s, end)
}

/// `start..end` widened to whole words of `s` (at most 64 chars each way).
pub fn widen(s: &str, mut start: usize, mut end: usize) -> (usize, usize) {
    let len = s.chars().count();
    for _ in 0..64 {
        if start == 0 || !inside_word(s, start) {
            break;
        }
        start -= 1;
    }
    for _ in 0..64 {
        if end >= len || !inside_word(s, end) {
            break;
        }
        end += 1;
    }
    (start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str, marker: &str) -> usize {
        s[..s.find(marker).unwrap()].chars().count()
    }

    #[test]
    fn cut_words_numbers_and_contractions() {
        let s = "The keeper cannot leave; he can't. £12,000 in 10.5 years, non-violent.";
        assert!(inside_word(s, at(s, "not leave")));
        assert!(inside_word(s, at(s, "'t.")));
        assert!(inside_word(s, at(s, "t.")));
        assert!(inside_word(s, at(s, ",000")));
        assert!(inside_word(s, at(s, "000")));
        assert!(inside_word(s, at(s, ".5")));
        assert!(inside_word(s, at(s, "-violent")));
        assert!(inside_word(s, at(s, "violent")));
        assert!(!inside_word(s, at(s, " leave")));
        assert!(!inside_word(s, at(s, "leave")));
        assert!(!inside_word(s, at(s, "; he")));
        assert!(!inside_word(s, at(s, " years")));
        assert!(!inside_word(s, at(s, "£")));
        assert!(!inside_word(s, 0));
        assert!(!inside_word(s, s.chars().count()));
    }

    #[test]
    fn widening_reaches_whole_words() {
        let s = "as much as a builder.";
        let b = at(s, "uilder");
        assert_eq!(widen(s, 0, b), (0, at(s, ".")));
        assert_eq!(
            widen(s, at(s, "uch"), at(s, " as a")),
            (at(s, "much"), at(s, " as a"))
        );
    }
}
