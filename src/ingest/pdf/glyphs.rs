//! Glyphs a typesetter draws apart, put back together: an accent set as
//! its own glyph beside its letter ("Jim´enez", "M¨uller", "G ¨unes¸",
//! TeX's way) becomes the accented letter ("Jiménez", "Müller", "Güneş"),
//! and a ligature glyph ("ﬁ", "ﬀ") becomes its letters. The text then reads
//! as printed: a quote naming these people matches, a search for
//! "specific" finds "speciﬁc", and a copied quote holds no presentation
//! forms.

use unicode_normalization::UnicodeNormalization;

/// The combining mark of a spacing accent, and whether the accent is drawn
/// after its letter (a cedilla or an ogonek sits under it and comes after
/// it in the text) rather than before.
fn combining(c: char) -> Option<(char, bool)> {
    Some(match c {
        '\u{00A8}' => ('\u{0308}', false), // ¨ diaeresis
        '\u{00B4}' => ('\u{0301}', false), // ´ acute
        '\u{02C6}' => ('\u{0302}', false), // ˆ circumflex
        '\u{02DC}' => ('\u{0303}', false), // ˜ tilde
        '\u{02C7}' => ('\u{030C}', false), // ˇ caron
        '\u{02D8}' => ('\u{0306}', false), // ˘ breve
        '\u{02DA}' => ('\u{030A}', false), // ˚ ring
        '\u{02D9}' => ('\u{0307}', false), // ˙ dot above
        '\u{00AF}' => ('\u{0304}', false), // ¯ macron
        '\u{02DD}' => ('\u{030B}', false), // ˝ double acute
        '\u{02CB}' => ('\u{0300}', false), // ˋ grave
        '\u{00B8}' => ('\u{0327}', true),  // ¸ cedilla
        '\u{02DB}' => ('\u{0328}', true),  // ˛ ogonek
        _ => return None,
    })
}

/// The one letter `base` and `mark` make, if Unicode has it: "e" + acute
/// → "é"; a dotless i or j takes the mark as i or j ("ı" + acute → "í").
fn compose(base: char, mark: char) -> Option<char> {
    let base = match base {
        'ı' => 'i',
        'ȷ' => 'j',
        b => b,
    };
    if !base.is_alphabetic() {
        return None;
    }
    let mut one = [base, mark].into_iter().nfc();
    let c = one.next()?;
    (one.next().is_none() && c != base).then_some(c)
}

/// A ligature's letters, for the Latin ligatures of the Alphabetic
/// Presentation Forms block.
fn ligature(c: char) -> Option<&'static str> {
    Some(match c {
        'ﬀ' => "ff",
        'ﬁ' => "fi",
        'ﬂ' => "fl",
        'ﬃ' => "ffi",
        'ﬄ' => "ffl",
        'ﬅ' | 'ﬆ' => "st",
        _ => return None,
    })
}

/// The page's text with accents drawn apart composed onto their letters and
/// ligatures spelt out. An accent is composed only with a letter it makes
/// one Unicode letter with, so "´" anywhere else (a prime, an apostrophe
/// drawn as an acute) stays. A space the layout put between a word's piece
/// and the accent of its next letter ("G ¨unes", "C ˘at ˘alin") goes: the
/// piece is a lone letter, or holds an accent just composed. Before any
/// other word the space is the text's ("the ´Ecole" → "the École").
///
/// Stacked accents ("´¨ı" → "ḯ") compose one per pass, the inner first.
pub(super) fn tidy(page: &str) -> String {
    if !page
        .chars()
        .any(|c| combining(c).is_some() || ligature(c).is_some())
    {
        return page.to_string();
    }
    let mut out = pass(page);
    for _ in 0..2 {
        let again = pass(&out);
        if again == out {
            break;
        }
        out = again;
    }
    out
}

fn pass(page: &str) -> String {
    let chars: Vec<char> = page.chars().collect();
    let mut out = String::with_capacity(page.len());
    // Where in `out` the last composed letter was written.
    let mut composed: Option<usize> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if let Some(l) = ligature(c) {
            out.push_str(l);
            i += 1;
            continue;
        }
        if let Some((mark, after)) = combining(c) {
            if after {
                // The letter it goes under is the one just written.
                if let Some(base) = out.chars().next_back()
                    && let Some(one) = compose(base, mark)
                {
                    out.pop();
                    composed = Some(out.len());
                    out.push(one);
                    i += 1;
                    continue;
                }
            } else if let Some(one) = chars.get(i + 1).and_then(|&b| compose(b, mark)) {
                if let Some(piece) = out.strip_suffix(' ') {
                    let start = piece.rfind(char::is_whitespace).map_or(0, |at| at + 1);
                    let word = &piece[start..];
                    // "C", "Nicolae-C": a name's last piece a lone letter.
                    let part = word.rsplit('-').next().unwrap_or(word);
                    let lone = part.chars().count() == 1 && part.chars().all(char::is_alphabetic);
                    let broken = !word.is_empty() && composed.is_some_and(|at| at >= start);
                    if lone || broken {
                        out.pop();
                    }
                }
                composed = Some(out.len());
                out.push(one);
                i += 2;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::tidy;

    #[test]
    fn accents_drawn_apart_join_their_letters() {
        assert_eq!(tidy("Jim´enez-Luna and M¨uller"), "Jiménez-Luna and Müller");
        assert_eq!(tidy("Atılım G ¨unes¸ Baydin"), "Atılım Güneş Baydin");
        assert_eq!(tidy("David Mart´ınez Rubio"), "David Martínez Rubio");
        assert_eq!(tidy("Nicolae-C ˘at ˘alin Ristea"), "Nicolae-Cătălin Ristea");
        assert_eq!(
            tidy("ˇStrumbelj, Univerist´e de Montr´eal"),
            "Štrumbelj, Univeristé de Montréal"
        );
        assert_eq!(tidy("Franc¸ois"), "François");
        // A word that starts with an accented letter keeps its space.
        assert_eq!(tidy("the ´Ecole de Montr´eal"), "the École de Montréal");
        assert_eq!(tidy("ˆy and ˆy"), "ŷ and ŷ");
    }

    #[test]
    fn an_accent_with_no_letter_to_make_stays() {
        // A prime, an accent before a digit or a space, a cedilla after a
        // space: no letter is made, nothing changes.
        for s in ["f´(x) = 2", "the ´ sign", "x ¸ y", "5¨ 3", "ˆ", "´"] {
            assert_eq!(tidy(s), s);
        }
        // A hat over a letter Unicode has no single character for keeps
        // its accent where it was.
        assert_eq!(tidy("ˆVϕ"), "ˆVϕ");
        assert_eq!(tidy("the prediction ˆy"), "the prediction ŷ");
    }

    /// The letters, accents aside, and the spaces between words.
    fn letters(s: &str) -> String {
        use unicode_normalization::UnicodeNormalization;
        s.chars()
            .flat_map(|c| super::ligature(c).map_or(vec![c], |l| l.chars().collect()))
            .filter(|c| super::combining(*c).is_none())
            .collect::<String>()
            .nfd()
            .filter(|c| !unicode_normalization::char::is_combining_mark(*c) && *c != ' ')
            .map(|c| match c {
                'ı' => 'i',
                'ȷ' => 'j',
                c => c,
            })
            .collect()
    }

    proptest::proptest! {
        /// Putting glyphs together never adds, drops or moves a letter: the
        /// text's letters, accents aside, are the page's.
        #[test]
        fn no_letter_is_added_dropped_or_moved(
            s in "[ aeiouncsgyCGEı´¨ˆ˜ˇ˘¸˛ﬁﬀ.,0-9\n]{0,40}"
        ) {
            let out = tidy(&s);
            proptest::prop_assert_eq!(letters(&out), letters(&s));
            // And nothing is left for a second pass to compose.
            proptest::prop_assert_eq!(tidy(&out).chars().filter(|c| super::combining(*c).is_some()).count(),
                out.chars().filter(|c| super::combining(*c).is_some()).count());
        }
    }

    #[test]
    fn ligatures_are_spelt_out() {
        assert_eq!(
            tidy("speciﬁc diﬃculty, Wolﬀ, ﬂexible"),
            "specific difficulty, Wolff, flexible"
        );
    }
}
