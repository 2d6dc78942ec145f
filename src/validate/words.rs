//! Word boundaries of the source, as the invariant reads them.
//!
//! A validated quote begins and ends on a word boundary of its source: "can"
//! is not a quote of "cannot", "181" not of "1811", "£1" not of "£12,000".
//! A position is *inside a word* when the chars on both sides belong to one
//! word, read past zero-width chars and Markdown markup as normalization
//! reads them ("can\u{200B}not", "*can*'t", "[im](url)possible"): two word
//! chars (letters, digits, combining marks), or a word char and a joiner
//! that links it to the next word char — an apostrophe or a hyphen or range
//! dash between word chars ("can't", "non-violent", "18–65"; any of
//! Unicode's dashes but the clause dashes), a separator between digits
//! ("12,000", "10.5", "1/4", "١٢٫٥", "１，２００"; any space but a plain one,
//! and a plain one that groups thousands: "12 000"), an exponent's sign
//! ("10⁻⁶"), a soft hyphen; a sign or decimal point that starts a number
//! ("−40", ".5"), a math symbol, a unit or a currency sign that holds one
//! (in any width or script: "p<0.05", "p＜0.05", "√2", "50%", "50％",
//! "20°", "6€", "฿500"); a hyphen that ends a line inside a word
//! ("light-⏎house", on both sides); an underscore of a name, not emphasis
//! ("TYPE_CHECKING", "__init__"); and markup the page does not show,
//! written between two word chars, where normalization keeps it as text:
//! an HTML tag or character reference (`un<b>safe</b>`, `un&#115;afe`), a
//! link's or image's brackets (`[un][1]safe`, `un![img](x.png)safe`), a
//! strikethrough (`~~un~~safe`), a reStructuredText escaped space
//! (`un\ *safe*`), a Markdown comment as ingest blanks it ("can￼   not").

use super::markup;
use super::normalize::zero_width;
use crate::text::byte_offset;
use unicode_normalization::char::is_combining_mark;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Chars a word is read past: those of no width, and the bidi controls,
/// which reorder what is shown but are no space ("can\u{2066}not" shows
/// "cannot"; a quote read across one is flagged by normalization).
fn invisible(c: char) -> bool {
    zero_width(c) || crate::text::is_bidi_control(c)
}

fn word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// Does `j` join `l` and `r` into one word?
fn joins(l: char, j: char, r: char) -> bool {
    match j {
        // Between digits: "12,000", "10.5", "1·5", "12/05/1811", "1:1000",
        // "3×4", "10^6"; thousands grouped by a space (below).
        // A Catalan middle dot ("col·lecció"), an ampersand ("AT&T").
        '\u{00B7}' if l.is_alphabetic() && r.is_alphabetic() => true,
        '&' => word_char(l) && (word_char(r) || r == '#'),
        // Markup the page does not show, written inside a word: an HTML tag
        // or character reference in Markdown ("un<b>safe</b>",
        // "10<sup>6</sup>", "un&shy;safe").
        // Or a comparison in a formula ("p<0.05": "p" is not a quote of it).
        '<' => word_char(l) && (r.is_ascii_alphabetic() || r == '/' || r == '!' || r.is_numeric()),
        '>' | ';' => (l.is_ascii_alphanumeric() || matches!(l, '"' | '\'' | '/')) && word_char(r),
        // A Markdown link's or image's markup the page does not show, when
        // it is not read past (a reference "[un][1]safe", a shortcut
        // "[un]safe", a title "[un](url \"t\")safe", "un![img](x.png)safe").
        ']' => word_char(l) && (word_char(r) || matches!(r, '[' | '(')),
        ')' => (word_char(l) || matches!(l, '"' | '\'' | ')')) && word_char(r),
        '!' => word_char(l) && (word_char(r) || r == '['),
        // Strikethrough inside a word ("~~un~~safe").
        '~' => (word_char(l) || l == '~') && (word_char(r) || r == '~'),
        ','
        | '.'
        | '\u{00B7}'
        | '/'
        | '\u{2044}'
        | ':'
        | '\u{00D7}'
        | '^'
        // The same in other scripts and widths: an Arabic decimal or
        // thousands separator ("١٢٫٥", "١٬٢٠٠"), a full-width or small
        // comma or full stop ("１，２００", "３．５"), a one-dot leader.
        | '\u{066B}'
        | '\u{066C}'
        | '\u{FF0C}'
        | '\u{FF0E}'
        | '\u{FE50}'
        | '\u{FE52}'
        | '\u{2024}' => l.is_numeric() && r.is_numeric(),
        // Apostrophes, as normalization folds them ("can't", "can‘t", and
        // the rarer ones: "can‵t", "can᾿t", "can՚t"), and hyphens and the
        // dashes of ranges and compounds ("18–65", "Franco–Prussian",
        // "non⁃violent", "18֊65"), not the sentence dash.
        '\'' | '\u{2019}' | '\u{2018}' | '\u{201B}' | '\u{2032}' | '\u{00B4}' | '`'
        | '\u{FF07}' | '\u{FF40}' | '\u{2035}' | '\u{1FBD}' | '\u{1FBF}' | '\u{055A}'
        | '\u{2043}' | '\u{2212}' | '\u{00AD}' => word_char(l) && word_char(r),
        j if joining_dash(j) => word_char(l) && word_char(r),
        // A superscript sign in an exponent ("10⁻⁶").
        '\u{207A}' | '\u{207B}' | '\u{208A}' | '\u{208B}' => word_char(l) && r.is_numeric(),
        // Any space but the ASCII one groups digits ("10 000" with a thin,
        // hair, no-break or ideographic space).
        j if spacing(j) && j != ' ' => l.is_numeric() && r.is_numeric(),
        // A math symbol holds a formula together ("1÷4", "2+2", "p≤0.01").
        j if math(j) => word_char(l) && r.is_numeric(),
        _ => false,
    }
}

/// A sign, a decimal point or an "about" that belongs to the number after
/// it: "−40", "-500", ".5", "~40" (not after a word char: "COVID-19" and
/// "10.5" are joins).
fn signs(c: char) -> bool {
    matches!(c, '+' | '.' | '\u{00B1}' | '~' | '\u{2248}')
        || super::normalize::dash_kind(c) == Some(false)
        || currency(c)
}

/// A currency sign (any: "$5", "＄5", "฿5", "5€") or a number sign
/// ("#3", "＃3") before a number.
fn currency(c: char) -> bool {
    number_sign(c) || c.general_category() == GeneralCategory::CurrencySymbol
}

/// A number sign ("#3", "＃3"): before a number only, never after one.
fn number_sign(c: char) -> bool {
    matches!(c, '#' | '\u{FF03}' | '\u{FE5F}')
}

/// A hyphen or dash that joins what it stands between (any of Unicode's
/// dashes: "-", "‐", "–", "֊", "⸗", "゠", "〜", "－"), but the dashes that
/// set a clause apart ("—", "―", "⸺", "⸻", "﹘" and the vertical ones).
fn joining_dash(c: char) -> bool {
    c.general_category() == GeneralCategory::DashPunctuation
        && !matches!(
            c,
            '\u{2014}'
                | '\u{2015}'
                | '\u{2E3A}'
                | '\u{2E3B}'
                | '\u{FE58}'
                | '\u{FE31}'
                | '\u{FE32}'
        )
}

/// A math symbol ("<", "＜", "≤", "√", "÷", "±").
fn math(c: char) -> bool {
    c.general_category() == GeneralCategory::MathSymbol
}

/// A space of any width ("\u{2009}", "\u{3000}", " ").
fn spacing(c: char) -> bool {
    c.general_category() == GeneralCategory::SpaceSeparator
}

/// A unit written right after a number, as part of it: a per cent or per
/// mille sign in any width or script ("50%", "50％", "٥٠٪", "5‱"), a
/// degree ("20°", "20℃"), a prime ("5′").
fn unit(c: char) -> bool {
    matches!(
        c,
        '%' | '\u{FF05}'
            | '\u{FE6A}'
            | '\u{066A}'
            | '‰'
            | '‱'
            | '°'
            | '\u{02DA}'
            | '\u{2103}'
            | '\u{2109}'
            | '\u{2032}'
            | '\u{2033}'
            | '\u{2034}'
    )
}

/// Is the ASCII space at byte `b` of `s` one that groups a number's
/// digits: one to three digits before it (after no digit or word char),
/// three after it and then no further digit ("12 000", "1 200 000"; not
/// "1811 200", nor "chapter 3 10")? The three after may be followed by
/// another group.
fn groups_digits(s: &str, b: usize) -> bool {
    if s.as_bytes().get(b) != Some(&b' ') {
        return false;
    }
    let left: Vec<char> = s[..b].chars().rev().take(5).collect();
    let lead = left.iter().take_while(|c| c.is_numeric()).count();
    let group = |cs: &[char], lead: usize| {
        (1..=3).contains(&lead) && !cs.get(lead).is_some_and(|&c| word_char(c))
    };
    // Before: one to three digits, or a group of three after another
    // grouping space ("1 200| 000").
    let before_ok =
        group(&left, lead) || (lead == 3 && left.get(3) == Some(&' ') && groups_digits(s, b - 4));
    let right: Vec<char> = s[b + 1..].chars().take(4).collect();
    let trail = right.iter().take_while(|c| c.is_numeric()).count();
    before_ok && trail == 3 && !right.get(3).is_some_and(|&c| word_char(c))
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
    markup::markup_run(s, start, prev).is_none() || markup::is_unpaired(s, start)
}

/// The visible chars of `s` before byte `b`, nearest first: invisible
/// chars and markup (emphasis and code markers, a Markdown link's `[` and
/// `](target)`) are read past, as normalization reads them ("*can*'t" is
/// "can't", "[im](url)possible" is "impossible").
fn before(s: &str, mut b: usize) -> impl Iterator<Item = char> + '_ {
    std::iter::from_fn(move || {
        loop {
            let c = s[..b].chars().next_back()?;
            let at = b - c.len_utf8();
            if invisible(c) {
                b = at;
                continue;
            }
            if let Some(start) = markup_ending_at(s, b) {
                b = start;
                continue;
            }
            b = at;
            return Some(c);
        }
    })
}

/// The visible chars of `s` from byte `b` on (see [`before`]).
fn after(s: &str, mut b: usize) -> impl Iterator<Item = char> + '_ {
    std::iter::from_fn(move || {
        loop {
            let c = s[b..].chars().next()?;
            let prev = before(s, b).next().unwrap_or('\0');
            if invisible(c) {
                b += c.len_utf8();
            } else if let Some(n) = markup_at(s, b, prev) {
                b += n;
            } else {
                b += c.len_utf8();
                return Some(c);
            }
        }
    })
}

/// Is there a hyphen at byte `b` of `s` that ends its line (only spaces
/// after it, then a line break or the end of the text)?
fn broken_at_line_end(s: &str, b: usize) -> bool {
    let mut rest = s[b..].chars();
    rest.next().is_some_and(crate::text::is_line_hyphen)
        && rest
            .find(|c| !matches!(c, ' ' | '\t'))
            .is_none_or(|c| c == '\n' || c == '\r')
}

/// Is byte `b` of `s` inside a range, compound or number whose joining
/// dash or separator ends a line ("18–⏎65", "10-⏎fold", "£12,⏎000"): the
/// rest is on the next line, so "18", "10" and "£12" are not quotes of it.
/// Normalization keeps such a dash ("10- fold"); the words it joins are
/// one all the same.
fn joined_across_line_end(s: &str, b: usize) -> bool {
    let gap = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    let one_break = |g: &str| g.replace("\r\n", "\n").matches(['\n', '\r']).count() == 1;
    let left = s[..b].trim_end_matches(gap);
    let right = s[b..].trim_start_matches(gap);
    let spaces = &s[left.len()..b + (s.len() - b - right.len())];
    let mut l = left.chars().rev();
    if spaces.is_empty() {
        // Before the joiner: "18|–⏎65".
        let mut r = right.chars();
        let (Some(_), Some(j)) = (l.next(), r.next()) else {
            return false;
        };
        let rest = r.as_str();
        let after = rest.trim_start_matches(gap);
        return one_break(&rest[..rest.len() - after.len()]) && line_end_join(left, j, after);
    }
    // After the joiner or the break: "18–|⏎65", "18–⏎|65".
    match l.next() {
        Some(j) => one_break(spaces) && line_end_join(&left[..left.len() - j.len_utf8()], j, right),
        None => false,
    }
}

/// `j` ends a line between the end of `left` and the start of `right`, of
/// one word: a hyphen or range dash ("10-⏎fold", "18–⏎65") or a comma that
/// groups thousands ("12,⏎000": one to three digits, then three); not a
/// full stop ("in 1811.⏎1812…" ends a sentence), a list's comma
/// ("1877,⏎1878") nor markup.
fn line_end_join(left: &str, j: char, right: &str) -> bool {
    let (Some(x), Some(y)) = (left.chars().next_back(), right.chars().next()) else {
        return false;
    };
    let digits = |s: &mut dyn Iterator<Item = char>| s.take_while(|c| c.is_numeric()).count();
    let joiner = if matches!(j, ',' | '\u{066C}' | '\u{FF0C}' | '\u{FE50}') {
        (1..=3).contains(&digits(&mut left.chars().rev())) && digits(&mut right.chars()) == 3
    } else {
        j.general_category() == GeneralCategory::DashPunctuation
    };
    joiner && word_char(x) && joins(x, j, y)
}

/// Does `before` end with a word broken at the end of the line before
/// (a letter and a hyphen, one line break, spaces)? Normalization joins the
/// word ("light-⏎house"), so its second half does not start a quote.
fn continues_a_broken_word(before: &str) -> bool {
    let t = before.trim_end_matches([' ', '\t']);
    let Some(t) = t
        .strip_suffix('\n')
        .map(|t| t.strip_suffix('\r').unwrap_or(t))
    else {
        return false;
    };
    let mut tail = t.trim_end_matches([' ', '\t']).chars().rev();
    tail.next().is_some_and(crate::text::is_line_hyphen)
        && tail.next().is_some_and(char::is_alphabetic)
}

/// Markup at byte `b` (after the visible char `prev`): its length. An
/// emphasis run with no partner is text, as the source reads it.
fn markup_at(s: &str, b: usize, prev: char) -> Option<usize> {
    markup::markup_run(s, b, prev)
        .filter(|_| !markup::is_unpaired(s, b))
        .or_else(|| markup::link_markup(s, b))
}

/// The start of markup that ends right at byte `b`: a run of `*`, `_` or
/// `` ` ``, a link's `[` or its `](target)`.
fn markup_ending_at(s: &str, b: usize) -> Option<usize> {
    let bytes = s.as_bytes();
    let last = *bytes[..b].last()?;
    let start = if matches!(last, b'*' | b'_' | b'`') {
        b - bytes[..b].iter().rev().take_while(|&&x| x == last).count()
    } else if last == b'[' {
        b - 1
    } else if last == b')' {
        let from = b.saturating_sub(600);
        let from = (from..b).find(|&k| s.is_char_boundary(k))?;
        from + s[from..b].rfind("](")?
    } else {
        return None;
    };
    let prev = s[..start]
        .trim_end_matches(['`', '*', '_'])
        .chars()
        .next_back()
        .unwrap_or('\0');
    (markup_at(s, start, prev)? == b - start).then_some(start)
}

/// Is char position `p` of `s` inside a word (see the module docs)?
/// Positions 0 and the end are not.
pub fn inside_word(s: &str, p: usize) -> bool {
    let b = byte_offset(s, p);
    // An underscore of a name is part of it: "CHECKING" is not a quote of
    // "TYPE_CHECKING", nor "slots" of "__slots__".
    let raw_a = s[..b].chars().next_back();
    let raw_c = s[b..].chars().next();
    if let (Some(a), Some(c)) = (raw_a, raw_c) {
        let name_a = word_char(a) || (a == '_' && name_underscore(s, b - 1));
        if name_a && (word_char(c) || (c == '_' && name_underscore(s, b))) {
            return true;
        }
    }
    // Single letters joined by full stops: "p.m.", "e.g.", "U.S.".
    if (raw_c == Some('.') && abbreviation_dot(s, b))
        || (raw_a == Some('.') && abbreviation_dot(s, b - 1))
    {
        return true;
    }
    // Stars between two word chars with no space: emphasis inside a word
    // ("**im**possible" reads "impossible") or a product ("2*3"): one word.
    let (l, r) = (s[..b].trim_end_matches('*'), s[b..].trim_start_matches('*'));
    if l.len() + r.len() < s.len()
        && l.chars().next_back().is_some_and(word_char)
        && r.chars().next().is_some_and(word_char)
    {
        return true;
    }
    if markup_joins(s, b) {
        return true;
    }
    let mut left = before(s, b);
    let mut right = after(s, b);
    let (Some(a), Some(c)) = (left.next(), right.next()) else {
        return false;
    };
    if word_char(a) && word_char(c) {
        return true;
    }
    if word_char(a) && right.next().is_some_and(|d| joins(a, c, d)) {
        return true;
    }
    if joined_across_line_end(s, b) {
        return true;
    }
    // A word broken at a line's end whose rest is not on the next line
    // (a page's last word, "pre-", before a figure): "pre" is not a word.
    if (a.is_alphabetic() && broken_at_line_end(s, b))
        || (c.is_alphabetic() && continues_a_broken_word(&s[..b]))
    {
        return true;
    }
    let z = left.next();
    (word_char(c) && z.is_some_and(|z| joins(z, a, c)))
        // A sign or decimal point that starts the number cut after it.
        || (c.is_numeric() && signs(a) && !z.is_some_and(word_char))
        // A number's comparison or operator ("p<0.05", "p＜0.05", "√2")
        // and its unit ("50%", "20°", "6€").
        || (c.is_numeric() && math(a))
        || (a.is_numeric() && (unit(c) || (currency(c) && !number_sign(c))))
        // Digits grouped by a plain space, cut at it ("12 000").
        || (a.is_numeric() && c == ' ' && groups_digits(s, b))
        || (c.is_numeric() && a == ' ' && groups_digits(s, b - 1))
}

/// Is byte `b` of `s` inside markup that joins the word chars either side
/// (read past markup as [`before`] and [`after`] do)? A reStructuredText
/// escaped space: docutils drops a backslash and the whitespace char after
/// it, so `un\ *safe*` and `*im*\ possible` read "unsafe", "impossible".
/// An object mark written right after a word char, then whitespace: a
/// Markdown comment inside a word, as ingest blanks it ("can￼   not" from
/// `can<!-- note -->not`; a comment after a space, or before one, leaves a
/// space before the mark).
fn markup_joins(s: &str, b: usize) -> bool {
    let l: Vec<char> = before(s, b).take(3).collect();
    let r: Vec<char> = after(s, b).take(3).collect();
    let seq: Vec<char> = l.iter().rev().chain(&r).copied().collect();
    let cut = l.len();
    let escaped = seq.windows(4).enumerate().any(|(i, w)| {
        i < cut
            && cut < i + 4
            && word_char(w[0])
            && w[1] == '\\'
            && w[2].is_whitespace()
            && word_char(w[3])
    });
    if escaped {
        return true;
    }
    const MARK: char = '\u{FFFC}';
    let left = s[..b].trim_end_matches(char::is_whitespace);
    let m = if s[b..].starts_with(MARK) {
        b
    } else if left.ends_with(MARK) {
        left.len() - MARK.len_utf8()
    } else {
        return false;
    };
    s[..m].chars().next_back().is_some_and(word_char)
        && s[m + MARK.len_utf8()..]
            .trim_start_matches(char::is_whitespace)
            .starts_with(word_char)
}

/// Is the byte `d` of `s` a full stop between two single letters ("p.m.",
/// "e.g.", "U.S."), not a path's ("curses.wrapper") or a sentence's end?
fn abbreviation_dot(s: &str, d: usize) -> bool {
    fn single(mut chars: impl Iterator<Item = char>) -> bool {
        chars.next().is_some_and(char::is_alphabetic)
            && !chars.next().is_some_and(char::is_alphabetic)
    }
    s.as_bytes().get(d) == Some(&b'.') && single(s[..d].chars().rev()) && single(s[d + 1..].chars())
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
        // A word broken at a line's end: joined on the next line, or left
        // at a page's end ("pre-" before a figure).
        let s = "the light-\nhouse keeper and the pre-\n\nFigure 2 and the pre- and post-war";
        assert!(inside_word(s, at(s, "-\nhouse")));
        assert!(inside_word(s, at(s, "house")));
        assert!(inside_word(s, at(s, "-\n\nFigure")));
        assert!(!inside_word(s, at(s, "- and")));
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
