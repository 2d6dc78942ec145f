//! The documented normalization (see the module docs of [`crate::validate`])
//! with a map from every normalized char back to the original text.

use super::markup::{
    link_markup, literal_block_mark, markup_run, note_marker, rst_link_target, rst_role,
};
use std::ops::Range;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// A normalized text and, for each of its chars, where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Normalized {
    /// The normalized text.
    pub text: String,
    /// `map[i]`: index (in chars) of the original char that normalized char
    /// `i` came from: the first char of its cluster, or the first whitespace
    /// char of a collapsed run.
    pub map: Vec<usize>,
    /// `ends[i]`: one past the last original char of that cluster, so that
    /// `map[i]..ends[i]` always covers whole original chars (a ligature such
    /// as 'ﬁ' gives "fi": both chars map to the same one-char range; "e" +
    /// U+0301 gives "é", mapped to the two-char range).
    pub ends: Vec<usize>,
}

impl Normalized {
    /// Number of normalized chars.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Original char range covered by normalized chars `start..end`
    /// (`start < end`).
    pub fn original_range(&self, start: usize, end: usize) -> (usize, usize) {
        (self.map[start], self.ends[end - 1])
    }
}

const ZWJ: char = '\u{200D}';

/// Chars that are dropped before anything else looks at the text.
fn is_invisible(c: char) -> bool {
    c == '\u{00AD}' || zero_width(c)
}

/// Chars of no width the reader does not see (Unicode's default-ignorable
/// format characters, and the other invisible ones of category Cf):
/// zero-width spaces and joiners, direction marks, the word joiner and
/// invisible operators, the deprecated format controls, the byte-order
/// mark, variation selectors and the grapheme joiner, interlinear
/// annotation controls, shorthand and musical format controls, tags.
/// Normalization drops them; they neither end a word nor join one
/// ("can\u{200B}not" reads "cannot"). Not the bidi embeddings, overrides
/// and isolates: they reorder what is shown, so a quote read across one is
/// not what the reader sees (normalization keeps them; they are inside a
/// word all the same, `words`). The Hangul fillers, default-ignorable too,
/// are letters, and join as letters do.
pub fn zero_width(c: char) -> bool {
    matches!(
        c,
        '\u{034F}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2060}'..='\u{2065}'
            | '\u{206A}'..='\u{206F}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// The invisible characters in `s` that can make two texts differ though
/// they print alike (controls, bidi controls, zero-width characters), each
/// once, as `U+202E`.
pub(super) fn invisible_chars(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in s.chars() {
        let hidden = (c.is_control() && !matches!(c, '\n' | '\t' | '\r'))
            || zero_width(c)
            || crate::text::is_bidi_control(c);
        let name = format!("U+{:04X}", c as u32);
        if hidden && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

pub use crate::text::is_line_hyphen;

pub fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Punctuation folding: quotes. Applied before and after NFKC (NFKC would
/// turn '″' into two primes). Dashes are handled apart ([`dash_kind`]).
fn fold_punct(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{00AB}'
        | '\u{00BB}' => '"',
        c => c,
    }
}

/// Dashes: `Some(true)` for the sentence dashes (em dash, horizontal bar,
/// two- and three-em dashes), `Some(false)` for the hyphen-like ones
/// (hyphen, non-breaking hyphen, figure dash, en dash, minus, bullet hyphen,
/// small and full-width hyphen-minus).
pub fn dash_kind(c: char) -> Option<bool> {
    match c {
        '\u{2014}' | '\u{2015}' | '\u{2E3A}' | '\u{2E3B}' | '\u{FE58}' => Some(true),
        '-' | '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2212}' | '\u{2043}'
        | '\u{FE63}' | '\u{FF0D}' => Some(false),
        _ => None,
    }
}

/// Chars that compatibility folding (NFKC) would turn into *other* digits or
/// letters: superscripts and subscripts ("10⁶" is not "106"), vulgar
/// fractions ("½" is not "1⁄2"), circled and parenthesised numbers, Roman
/// numeral signs, modifier letters and squared unit signs ("㎡"). They keep
/// their identity; only full-width digits fold to ASCII digits.
pub fn keeps_identity(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    (c.is_numeric() && !matches!(c, '\u{FF10}'..='\u{FF19}'))
        || matches!(
            c,
            '\u{00AA}'
                | '\u{00BA}'
                | '\u{02B0}'..='\u{02FF}'
                | '\u{1D2C}'..='\u{1D6A}'
                | '\u{1D78}'
                | '\u{1D9B}'..='\u{1DBF}'
                | '\u{2070}'..='\u{209F}'
                | '\u{2C7C}'
                | '\u{2C7D}'
                | '\u{3371}'..='\u{33FF}'
                | '\u{A770}'
                | '\u{A7F8}'
                | '\u{A7F9}'
                | '\u{AB5C}'..='\u{AB5F}'
        )
}

/// Does `d` (following `prev`) belong to the same cluster as `prev`?
/// Combining marks, joiners, variation selectors, emoji modifiers, and the
/// char after a zero-width joiner stay with the char they modify. Only
/// looks forward, so a slice cut at cluster boundaries clusters the same.
fn extends(prev: char, d: char) -> bool {
    if d.is_ascii() {
        return false;
    }
    is_combining_mark(d)
        || d == ZWJ
        || (prev == ZWJ && !d.is_whitespace())
        || matches!(d, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' | '\u{1F3FB}'..='\u{1F3FF}')
        // Hangul medial vowels and final consonants compose with what precedes.
        || matches!(d, '\u{1160}'..='\u{11FF}')
}

struct Out {
    n: Normalized,
    /// Original range of the first whitespace char of a pending run.
    pending_ws: Option<(usize, usize)>,
}

impl Out {
    #[inline(always)]
    fn ws(&mut self, start: usize, end: usize) {
        if self.pending_ws.is_none() {
            self.pending_ws = Some((start, end));
        }
    }

    /// Emit the pending whitespace run as one space (none at the start).
    #[inline(always)]
    fn flush_ws(&mut self) {
        if let Some((ws, we)) = self.pending_ws.take()
            && !self.n.map.is_empty()
        {
            self.n.text.push(' ');
            self.n.map.push(ws);
            self.n.ends.push(we);
        }
    }

    #[inline(always)]
    fn push(&mut self, c: char, start: usize, end: usize) {
        self.flush_ws();
        self.n.text.push(c);
        self.n.map.push(start);
        self.n.ends.push(end);
    }
}

/// After a hyphen at byte `from` of `s` (the hyphen excluded): whitespace
/// containing a line break, then a letter? Returns (byte, chars) skipped.
/// A line break only: a blank line between (the end of a paragraph, a
/// table cell, a list item) ends the word, "re-" and "sign" stay apart.
fn line_hyphen_tail(s: &str, from: usize) -> Option<(usize, usize)> {
    let (mut breaks, mut last) = (0, '\0');
    let mut n = 0;
    for (b, c) in s[from..].char_indices() {
        if c.is_whitespace() {
            breaks += usize::from(new_line(last, c));
            last = c;
            n += 1;
        } else {
            return (breaks == 1 && c.is_alphabetic()).then_some((b, n));
        }
    }
    None
}

/// Does `c`, after `last`, start a new line? A CR LF pair is one.
pub fn new_line(last: char, c: char) -> bool {
    is_line_break(c) && !(c == '\n' && last == '\r')
}

/// ASCII, not whitespace, not a hyphen, not an emphasis marker, not the
/// start of reStructuredText markup (`:role:`, `<target>`).
#[inline(always)]
fn is_word_byte(x: u8) -> bool {
    x < 0x80
        && !matches!(
            x,
            b'-' | b'*'
                | b'_'
                | b'`'
                | b'['
                | b']'
                | b':'
                | b'<'
                | b' '
                | b'\t'
                | b'\n'
                | b'\r'
                | 0x0B
                | 0x0C
        )
}

#[inline]
fn char_at(s: &str, b: usize) -> char {
    s[b..].chars().next().unwrap_or('\0')
}

/// Normalize `s` (see the module docs) keeping the char map.
pub fn normalize(s: &str) -> Normalized {
    normalize_with(s, true, &[])
}

/// Bytes `range` of a source's text `s` normalized as its reader sees
/// them in context: as [`normalize`], but the emphasis runs with no
/// partner in their paragraph are text ("run_all(*jobs)" keeps its star);
/// `literal` is [`super::markup::unpaired_runs`] of the whole `s`.
pub fn normalize_within(s: &str, range: Range<usize>, literal: &[usize]) -> Normalized {
    normalize_with(&s[range.clone()], true, &within(s, literal, range))
}

/// The offsets of `literal` (runs of `s`) inside `range`, from its start;
/// a range starting inside a literal run (the second star of a "**" read
/// as text) starts with the rest of it.
pub fn within(s: &str, literal: &[usize], range: Range<usize>) -> Vec<usize> {
    let from = literal.partition_point(|&b| b < range.start);
    let to = literal.partition_point(|&b| b < range.end);
    let mut out: Vec<usize> = literal[from..to].iter().map(|b| b - range.start).collect();
    let bytes = s.as_bytes();
    if range.start < range.end
        && let Some(&run) = from.checked_sub(1).and_then(|i| literal.get(i))
        && bytes[run..=range.start].iter().all(|&x| x == bytes[run])
    {
        out.insert(0, 0);
    }
    out
}

/// `s` normalized as literal text: every markup char is a char ("*args",
/// "_private", backticks). A quote is read this way too, as the reader's
/// own words: a copied "*args collects…" is what the page shows.
pub fn normalize_literal(s: &str) -> Normalized {
    normalize_with(s, false, &[])
}

/// `literal`: byte offsets of emphasis runs read as text (ascending).
pub(super) fn normalize_with(s: &str, markup: bool, literal: &[usize]) -> Normalized {
    let bytes = s.as_bytes();
    let len = bytes.len();
    let mut out = Out {
        n: Normalized {
            text: String::with_capacity(len),
            map: Vec::with_capacity(len),
            ends: Vec::with_capacity(len),
        },
        pending_ws: None,
    };
    let mut buf: Vec<char> = Vec::new();
    let mut cluster: Vec<char> = Vec::new();
    // Byte and char position; the original char before them.
    let (mut b, mut i) = (0usize, 0usize);
    let mut prev = '\0';
    let mut low: Vec<u8> = Vec::new();
    while b < len {
        let x = bytes[b];
        // reStructuredText: a role reads as what docutils shows ("PEP 8"),
        // a link's `<target>`_ not at all. The markup is ASCII.
        if markup
            && x == b':'
            && let Some((n, shown)) = rst_role(s, b, prev)
        {
            for c in shown.chars() {
                if c == ' ' {
                    out.ws(i, i + n);
                } else {
                    out.push(c.to_ascii_lowercase(), i, i + n);
                }
            }
            b += n;
            i += n;
            prev = ' ';
            continue;
        }
        if markup
            && x == b'<'
            && let Some(n) = rst_link_target(s, b)
        {
            let n_chars = s[b..b + n].chars().count();
            b += n;
            i += n_chars;
            // The space before the target is not the reader's: "`lazy
            // evaluation\n<url>`__." reads "lazy evaluation.".
            if !char_at(s, b).is_alphanumeric() {
                out.pending_ws = None;
            }
            continue;
        }
        // A paragraph's closing "::" (it introduces a literal block) reads
        // as ":" after a word and not at all after a space.
        if markup
            && x == b':'
            && let Some(shown) = literal_block_mark(s, b, prev)
        {
            if shown {
                out.push(':', i, i + 2);
            }
            b += 2;
            i += 2;
            prev = ':';
            continue;
        }
        // Fastest path: a run of ASCII word chars, with single spaces and
        // hyphens between them, that no combining char follows: it
        // normalizes to itself, lowercased, char for char.
        if is_word_byte(x) {
            let mut e = b + 1;
            while e < len {
                let y = bytes[e];
                if is_word_byte(y) {
                    e += 1;
                } else if (y == b' ' || y == b'-') && e + 1 < len && is_word_byte(bytes[e + 1]) {
                    e += 2;
                } else {
                    break;
                }
            }
            if e < len && bytes[e] >= 0x80 {
                e -= 1; // its last char may take a combining mark
            }
            if e > b {
                let n = e - b;
                out.flush_ws();
                low.clear();
                low.extend(bytes[b..e].iter().map(u8::to_ascii_lowercase));
                out.n
                    .text
                    .push_str(std::str::from_utf8(&low).expect("ASCII"));
                out.n.map.extend(i..i + n);
                out.n.ends.extend(i + 1..i + n + 1);
                prev = bytes[e - 1] as char;
                b = e;
                i += n;
                continue;
            }
        }
        // Dashes: a hyphen ending a line inside a word is dropped with the
        // line break; a run of dashes, an em dash, or a dash followed by
        // whitespace is a sentence dash, written " - " whatever its form
        // ("--", "---", "—", " – "); any other dash is "-".
        if let Some(em) = dash_kind(if x < 0x80 { x as char } else { char_at(s, b) }) {
            let c = char_at(s, b);
            if is_line_hyphen(c)
                && prev.is_alphabetic()
                && let Some((skip_b, skip_c)) = line_hyphen_tail(s, b + c.len_utf8())
            {
                b += c.len_utf8() + skip_b;
                i += 1 + skip_c;
                prev = ' ';
                continue;
            }
            let (mut nb, mut k, mut run, mut last) = (b, i, 0usize, c);
            let mut em = em;
            while nb < len {
                let d = char_at(s, nb);
                match dash_kind(d) {
                    Some(e) => {
                        em |= e;
                        run += 1;
                        nb += d.len_utf8();
                        k += 1;
                        last = d;
                    }
                    None => break,
                }
            }
            let next = char_at(s, nb);
            if em || run > 1 || nb == len || next.is_whitespace() {
                out.ws(i, k);
                out.push('-', i, k);
                out.pending_ws = Some((i, k));
            } else {
                out.push('-', i, k);
            }
            prev = last;
            b = nb;
            i = k;
            continue;
        }
        // Emphasis and code markers, link brackets and targets: not text.
        if markup
            && literal.binary_search(&b).is_err()
            && let Some(n) = markup_run(s, b, prev)
                .or_else(|| link_markup(s, b))
                .or_else(|| note_marker(s, b, prev))
        {
            let n_chars = s[b..b + n].chars().count();
            b += n;
            i += n_chars;
            continue;
        }
        // Fast path: an ASCII char that no combining char follows.
        if x < 0x80
            && (b + 1 == len || bytes[b + 1] < 0x80 || !extends(x as char, char_at(s, b + 1)))
        {
            match x {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C => out.ws(i, i + 1),
                _ => out.push(x.to_ascii_lowercase() as char, i, i + 1),
            }
            prev = x as char;
            b += 1;
            i += 1;
            continue;
        }
        let c = char_at(s, b);
        if c == '\u{00AD}'
            && prev.is_alphabetic()
            && let Some((skip_b, skip_c)) = line_hyphen_tail(s, b + c.len_utf8())
        {
            b += c.len_utf8() + skip_b;
            i += 1 + skip_c;
            prev = ' ';
            continue;
        }
        // The cluster: c and what extends it.
        cluster.clear();
        cluster.push(c);
        let mut nb = b + c.len_utf8();
        while nb < len {
            let d = char_at(s, nb);
            if !extends(*cluster.last().unwrap(), d) {
                break;
            }
            cluster.push(d);
            nb += d.len_utf8();
        }
        let k = i + cluster.len();
        buf.clear();
        let folded = cluster
            .iter()
            .copied()
            .filter(|&c| !is_invisible(c))
            .map(fold_punct);
        if cluster.len() == 1
            && unicode_normalization::is_nfkc_quick(folded.clone())
                == unicode_normalization::IsNormalized::Yes
        {
            buf.extend(folded);
        } else if cluster.iter().any(|&c| keeps_identity(c)) {
            buf.extend(folded.nfc());
        } else {
            buf.extend(folded.nfkc());
        }
        for &d in &buf {
            let d = fold_punct(d);
            if is_invisible(d) {
                continue;
            }
            if let Some(em) = dash_kind(d) {
                // A dash that came out of compatibility folding (e.g. "﹘").
                if em {
                    out.ws(i, k);
                    out.push('-', i, k);
                    out.pending_ws = Some((i, k));
                } else {
                    out.push('-', i, k);
                }
                continue;
            }
            for e in d.to_lowercase() {
                // Greek final sigma is sigma: "ΟΔΟΣ" lowercases to "οδος".
                let e = if e == 'ς' { 'σ' } else { e };
                if e.is_whitespace() {
                    out.ws(i, k);
                } else {
                    out.push(e, i, k);
                }
            }
        }
        prev = *cluster.last().unwrap();
        b = nb;
        i = k;
    }
    out.n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_every_char_back() {
        let s = "  The “ﬁne” Light-\n  house\u{00A0}— café  ";
        let n = normalize(s);
        assert_eq!(n.text, "the \"fine\" lighthouse - café");
        assert_eq!(n.text.chars().count(), n.map.len());
        let orig: Vec<char> = s.chars().collect();
        // 'f' and 'i' both come from the ligature.
        let f = n.text.chars().position(|c| c == 'f').unwrap();
        assert_eq!(orig[n.map[f]], 'ﬁ');
        assert_eq!(n.map[f], n.map[f + 1]);
        assert_eq!(n.ends[f], n.map[f] + 1);
        // 'h' of "house" maps after the line break.
        let h = n.text.find("house").unwrap();
        let h = n.text[..h].chars().count();
        assert_eq!(orig[n.map[h]], 'h');
    }

    #[test]
    fn emphasis_and_code_markers_are_not_text() {
        assert_eq!(normalize("was *not* paid").text, "was not paid");
        assert_eq!(
            normalize("a **bold** and _it_ and ``TYPE_CHECKING``.").text,
            "a bold and it and type_checking."
        );
        assert_eq!(
            normalize("snake_case and 5 * 3 and 2*3").text,
            "snake_case and 5 * 3 and 2*3"
        );
        assert_eq!(normalize("_Introduction_").text, "introduction");
        // A literal that starts with punctuation loses both its markers.
        assert_eq!(
            normalize("If ``/proc/dynamic_debug/control`` exists, use `.git`.").text,
            "if /proc/dynamic_debug/control exists, use .git."
        );
        assert_eq!(normalize("don`t and a ` b").text, "don`t and a ` b");
        assert_eq!(
            normalize("built by [Robert Stevenson](https://x.org/rs) in 1811").text,
            "built by robert stevenson in 1811"
        );
        assert_eq!(
            normalize("a [note] and (aside)").text,
            "a [note] and (aside)"
        );
    }

    #[test]
    fn decomposed_accents_compose_into_one_cluster() {
        let s = "cafe\u{0301} au lait";
        let n = normalize(s);
        assert_eq!(n.text, "café au lait");
        assert_eq!((n.map[3], n.ends[3]), (3, 5));
    }

    #[test]
    fn ellipsis_primes_and_invisibles() {
        assert_eq!(normalize("wait…  ″x″ ′y′").text, "wait... \"x\" 'y'");
        assert_eq!(
            normalize("zero\u{200B}width\u{FEFF} soft\u{00AD}hy").text,
            "zerowidth softhy"
        );
        assert_eq!(normalize("a \u{200B} b").text, "a b");
        assert_eq!(normalize("light\u{00AD}\nhouse").text, "lighthouse");
        assert_eq!(normalize("well-known").text, "well-known");
        assert_eq!(normalize("1 -\n2").text, "1 - 2");
    }
}
