//! Small text utilities shared by the stages: sentence boundaries, token
//! counts, char/byte offset conversion and terminal-safe display.

use std::ops::Range;
use std::sync::OnceLock;
use unicode_segmentation::UnicodeSegmentation;

/// Hyphens that may end a line inside a hyphenated word (validation reads
/// a line break after one as no break; PDF reading joins such words).
pub fn is_line_hyphen(c: char) -> bool {
    matches!(c, '-' | '\u{2010}' | '\u{2011}' | '\u{00AD}')
}

/// The fewest words a quote may have by default: fewer are too short to
/// check (`[validate] min_words`), so no engine offers them.
pub const MIN_QUOTE_WORDS: usize = 4;

/// Words after which a period does not end a sentence: among them the
/// titles a name follows, French and military ones too ("Mdlle. Rose",
/// "Mme. Schumann", "Messrs. Broadwood", "Maj. Ross"), and "Op." before
/// an opus number.
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "st", "capt", "col", "gen", "lt", "rev", "sr", "jr", "prof", "no",
    "vol", "pp", "p", "fig", "cf", "e.g", "i.e", "etc", "vs", "c", "ca", "approx", "mt", "ft",
    "mdlle", "mlle", "mme", "messrs", "mons", "hon", "sgt", "maj", "adm", "gov", "op", "nos",
    "viz",
];

/// Byte ranges of the sentences of `s`, trailing whitespace excluded.
/// UAX #29 sentence boundaries, except after common abbreviations and
/// single-letter initials ("J. Smeaton"), where the sentence continues.
pub fn sentences(s: &str) -> Vec<Range<usize>> {
    // A single line break is a wrapped line (PDF text, hard-wrapped prose),
    // not the end of a sentence; only a blank line is. Replacing it with a
    // space keeps every byte offset.
    let unwrapped = unwrap_lines(s);
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut glue = false;
    for (start, piece) in unwrapped.split_sentence_bound_indices() {
        let piece = &s[start..start + piece.len()];
        let trimmed = piece.trim_end();
        if trimmed.is_empty() {
            continue;
        }
        let lead = piece.len() - piece.trim_start().len();
        let range = start + lead..start + trimmed.len();
        if range.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some(last) if glue => last.end = range.end,
            _ => out.push(range),
        }
        glue = ends_with_abbreviation(trimmed);
    }
    // UAX #29 counts an opening bracket or quote after a full stop with the
    // sentence it follows ("…of Corelli.[" | "109] In 1728…"): it opens the
    // next one.
    for i in 1..out.len() {
        let (prev, next) = (out[i - 1].clone(), out[i].clone());
        let Some(open) = s[prev.clone()]
            .chars()
            .next_back()
            .filter(|c| matches!(c, '(' | '[' | '{' | '“' | '‘' | '«'))
        else {
            continue;
        };
        let at = prev.end - open.len_utf8();
        let end = s[prev.start..at].trim_end().len() + prev.start;
        if end > prev.start && s[prev.end..next.start].trim().is_empty() {
            out[i - 1].end = end;
            out[i].start = at;
        }
    }
    out
}

/// Capital Roman numerals only ("IV", "XVIII"), as chapters and sections
/// are numbered; not empty.
pub fn roman_numeral(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| "IVXLC".contains(c))
}

/// A line's sentences as claims: a quotation of several sentences is kept
/// whole (“S1. S2.” [1] is one claim, citing [1], not an uncited “S1. and a
/// cited S2.” [1]), and a section number ends none. A citation marker
/// followed by a full stop always ends a claim, whatever comes next
/// (“… 1844 [1]. 1844 was also …” is two claims, each with its own
/// citation).
pub fn claim_sentences(line: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    for r in joined_claims(line) {
        let mut start = r.start;
        for end in cited_ends(&line[r.clone()]) {
            let end = r.start + end;
            if end < r.end && !line[end..r.end].trim().is_empty() {
                out.push(start..end);
                start = end + (line[end..].len() - line[end..].trim_start().len());
            }
        }
        out.push(start..r.end);
    }
    out
}

/// Where a sentence ends right after a citation marker: the byte offsets
/// just past "[2]." (or "[1, 3]!") that whitespace follows.
fn cited_ends(s: &str) -> Vec<usize> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    for (i, _) in s.match_indices(']') {
        let Some(open) = s[..i].rfind('[') else {
            continue;
        };
        let inner = &s[open + 1..i];
        let marker = !inner.trim().is_empty()
            && inner
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, ',' | ';' | ' ' | '-' | '–'));
        let stop = matches!(b.get(i + 1), Some(b'.' | b'!' | b'?'));
        let space = b.get(i + 2).is_some_and(u8::is_ascii_whitespace);
        if marker && stop && space {
            out.push(i + 2);
        }
    }
    out
}

fn joined_claims(line: &str) -> Vec<std::ops::Range<usize>> {
    // A straight mark right after a digit is an inch sign (`12"`), no
    // quotation mark.
    let open = |s: &str| {
        let straight = s
            .char_indices()
            .filter(|&(i, c)| c == '"' && !s[..i].ends_with(|p: char| p.is_ascii_digit()))
            .count();
        s.matches('“').count() > s.matches('”').count() || straight % 2 == 1
    };
    // A section number ends no claim: "p. 2 · II. LITERATURE REVIEW: “…”"
    // is one.
    // (A Roman numeral, or a number right after the location's "·"; a
    // year ends a sentence.)
    let numbered = |s: &str| {
        let mut words = s.split_whitespace().rev();
        let n = words.next().and_then(|w| w.strip_suffix('.')).unwrap_or("");
        let after_dot = words.next() == Some("·");
        !n.is_empty()
            && n.len() <= 5
            && (roman_numeral(n) || (after_dot && n.chars().all(|c| c.is_ascii_digit())))
    };
    let mut out = Vec::new();
    let mut from: Option<usize> = None;
    for r in sentences(line) {
        let start = from.unwrap_or(r.start);
        if open(&line[start..r.end]) || numbered(&line[start..r.end]) {
            from = Some(start);
        } else {
            out.push(start..r.end);
            from = None;
        }
    }
    if let Some(start) = from {
        out.push(start..line.trim_end().len().max(start));
    }
    out
}

fn unwrap_lines(s: &str) -> String {
    // In every run of ASCII whitespace holding fewer than two line feeds,
    // turn the line breaks into spaces.
    let b = s.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b[start..i].iter().filter(|&&c| c == b'\n').count() < 2 {
            for c in &mut out[start..i] {
                if *c == b'\n' || *c == b'\r' {
                    *c = b' ';
                }
            }
        }
    }
    String::from_utf8(out).expect("only ASCII bytes were replaced")
}

fn ends_with_abbreviation(s: &str) -> bool {
    let Some(body) = s.strip_suffix('.') else {
        return false;
    };
    let last = body
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("");
    if last.chars().count() == 1 && last.chars().all(char::is_uppercase) {
        return true;
    }
    // Letters joined by full stops: "U.S.", "e.g.", "U.S.A.".
    let initials = last.split('.').collect::<Vec<_>>();
    if initials.len() > 1
        && initials
            .iter()
            .all(|p| p.chars().count() == 1 && p.chars().all(char::is_alphabetic))
    {
        return true;
    }
    ABBREVIATIONS.contains(&last.to_lowercase().as_str())
}

/// cl100k_base token count.
pub fn count_tokens(s: &str) -> usize {
    static BPE: OnceLock<&'static tiktoken_rs::CoreBPE> = OnceLock::new();
    BPE.get_or_init(tiktoken_rs::cl100k_base_singleton)
        .encode_ordinary(s)
        .len()
}

/// Char offset of byte offset `b` in `s`.
pub fn char_offset(s: &str, b: usize) -> usize {
    s[..b].chars().count()
}

/// Byte offset of char offset `c` in `s` (clamped to the end).
pub fn byte_offset(s: &str, c: usize) -> usize {
    s.char_indices().nth(c).map(|(b, _)| b).unwrap_or(s.len())
}

/// Slice `s` by char offsets.
pub fn slice_chars(s: &str, start: usize, end: usize) -> &str {
    let b0 = byte_offset(s, start);
    let b1 = b0 + byte_offset(&s[b0..], end.saturating_sub(start));
    &s[b0..b1]
}

/// Replace control characters (including ESC, so no terminal escape sequence
/// survives) with visible placeholders; keeps `\n` and `\t` when `keep_lines`.
pub fn sanitize_for_terminal(s: &str, keep_lines: bool) -> String {
    s.chars()
        .map(|c| match c {
            '\n' | '\t' if keep_lines => c,
            '\n' | '\t' | '\r' => ' ',
            c if c.is_control() => '\u{FFFD}',
            // Bidi overrides can reorder what the author sees.
            c if is_bidi_control(c) => '\u{FFFD}',
            c => c,
        })
        .collect()
}

/// Bidi embeddings, overrides and isolates: they reorder what a reader
/// sees without being seen.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The object mark ingest leaves where a source holds text a reader is not
/// shown (struck through, hidden, unreadable): no quote runs across it.
pub const HIDDEN_MARK: char = '\u{FFFC}';

/// [`sentences`], each cut at the [`HIDDEN_MARK`]s inside it: the pieces
/// either side are quoted apart, never across what the page does not show.
pub fn shown_sentences(s: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for r in sentences(s) {
        let mut start = r.start;
        let pieces = s[r.clone()]
            .match_indices(HIDDEN_MARK)
            .map(|(i, m)| (r.start + i, r.start + i + m.len()))
            .chain(std::iter::once((r.end, r.end)));
        for (at, next) in pieces {
            let piece = &s[start..at];
            let lead = piece.len() - piece.trim_start().len();
            let trimmed = piece.trim();
            if !trimmed.is_empty() {
                out.push(start + lead..start + lead + trimmed.len());
            }
            start = next;
        }
    }
    out
}

/// `text` with what a reader is never shown (a comment) blanked: every
/// byte of each range but line breaks becomes a space, so lines and byte
/// offsets stay; a range marked `true` (inside a line of text) starts with
/// an object mark `\u{FFFC}` instead, so the words either side never read
/// as one passage. Ranges hold whole chars; a marked one at least 3 bytes.
pub fn blank_out(text: String, ranges: &[(Range<usize>, bool)]) -> String {
    let mut bytes = text.into_bytes();
    for (r, mark) in ranges {
        for b in &mut bytes[r.clone()] {
            if !matches!(*b, b'\n' | b'\r') {
                *b = b' ';
            }
        }
        if *mark && r.len() >= 3 {
            bytes[r.start..r.start + 3].copy_from_slice("\u{FFFC}".as_bytes());
        }
    }
    String::from_utf8(bytes).expect("spaces and marks for whole chars")
}

/// Runs of whitespace as one space, trimmed. A no-break, narrow no-break,
/// figure or thin space between digits stays: it groups thousands ("12 000"
/// is one number, not "12" and "000").
pub fn collapse_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let groups = matches!(c, '\u{00A0}' | '\u{2007}'..='\u{2009}' | '\u{202F}')
            && !pending
            && out.ends_with(|d: char| d.is_ascii_digit())
            && chars.peek().is_some_and(char::is_ascii_digit);
        if c.is_whitespace() && !groups {
            pending = !out.is_empty();
            continue;
        }
        if std::mem::take(&mut pending) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// Superscript or subscript text as the reader sees it, in the Unicode
/// superscript or subscript digits and signs (HTML's "10<sup>6</sup>" is "10⁶",
/// not 106; "H<sub>2</sub>O" is "H₂O"), when every char has one.
pub fn shifted(text: &str, sup: bool) -> Option<String> {
    const SUP: &str = "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ";
    const SUB: &str = "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₙᵢ";
    let t = text.trim();
    (!t.is_empty())
        .then(|| {
            t.chars()
                .map(|c| {
                    let k = "0123456789+-=()ni"
                        .find(c)
                        .or_else(|| (c == '\u{2212}').then_some(11))?;
                    (if sup { SUP } else { SUB }).chars().nth(k)
                })
                .collect()
        })
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sents(s: &str) -> Vec<&str> {
        sentences(s).into_iter().map(|r| &s[r]).collect()
    }

    #[test]
    fn splits_sentences_but_not_abbreviations_or_initials() {
        let s = "Mr. Smeaton used lime. J. Smeaton tested it, e.g. in water! Was it new? Yes.";
        assert_eq!(
            sents(s),
            [
                "Mr. Smeaton used lime.",
                "J. Smeaton tested it, e.g. in water!",
                "Was it new?",
                "Yes."
            ]
        );
        let s = "Mozart replied: \"I mean to make it exactly like Mdlle. Rose herself.\" Mme. Schumann played the Sonata, Op. 11. Then she rested.";
        assert_eq!(
            sents(s),
            [
                "Mozart replied: \"I mean to make it exactly like Mdlle. Rose herself.\"",
                "Mme. Schumann played the Sonata, Op. 11.",
                "Then she rested."
            ]
        );
        let s = "Use it when U.S. Citizenship and Immigration Services accepts it. Then wait.";
        assert_eq!(
            sents(s),
            [
                "Use it when U.S. Citizenship and Immigration Services accepts it.",
                "Then wait."
            ]
        );
    }

    #[test]
    fn an_opening_bracket_opens_the_next_sentence() {
        let s = "They imitated Corelli.[109] In 1728 a sonata appeared. He said (so it runs) no.";
        assert_eq!(
            sents(s),
            [
                "They imitated Corelli.",
                "[109] In 1728 a sonata appeared.",
                "He said (so it runs) no."
            ]
        );
        let q = "It ended.“Next,” he said.";
        assert_eq!(sents(q), ["It ended.", "“Next,” he said."]);
    }

    #[test]
    fn wrapped_lines_do_not_end_sentences_but_blank_lines_do() {
        let s = "It was a lighthouse\narchitect, and a builder. Next one.\n\nNew para";
        assert_eq!(
            sents(s),
            [
                "It was a lighthouse\narchitect, and a builder.",
                "Next one.",
                "New para"
            ]
        );
        let w = "One line\r\nwrapped here. Two.\r\n\r\nThree";
        assert_eq!(sents(w), ["One line\r\nwrapped here.", "Two.", "Three"]);
    }

    #[test]
    fn char_offsets_roundtrip_on_unicode() {
        let s = "Fresnel’s lens — “échelon” ✓";
        for (ci, (bi, _)) in s.char_indices().enumerate() {
            assert_eq!(char_offset(s, bi), ci);
            assert_eq!(byte_offset(s, ci), bi);
        }
        assert_eq!(slice_chars(s, 10, 14), "lens");
    }

    #[test]
    fn terminal_escapes_are_neutralised() {
        let s = "ok\x1b]52;c;SGVsbG8=\x07 \x1b[2J done\nnext";
        let t = sanitize_for_terminal(s, true);
        assert!(!t.contains('\x1b') && !t.contains('\x07'));
        assert!(t.ends_with("done\nnext"));
        assert!(!sanitize_for_terminal(s, false).contains('\n'));
    }

    #[test]
    fn counts_tokens() {
        assert_eq!(count_tokens("hello world"), 2);
    }
}
