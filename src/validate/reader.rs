//! The source's text as a reader sees it: what a quote copies.

use super::{is_line_hyphen, markup, normalize};
use crate::text::byte_offset;

/// Source text as a reader sees it, for quotes and the clipboard: no
/// control characters (a pasted escape sequence could act on the author's
/// terminal; a CR is layout), no bidi overrides, and line wrapping from the
/// source (PDF lines, hard-wrapped prose, CRLF files) joined with single
/// spaces; a word hyphenated across a line break is joined, as validation
/// reads it. The words themselves are never changed.
///
/// A star or underscore no partner pairs in its paragraph is text
/// ([`markup::unpaired_runs`]), so a copy read again reads the same.
pub fn reader_text(s: &str) -> String {
    reader_text_with(s, &markup::unpaired_runs(s))
}

/// Chars `start..end` of a source's text `s` as a reader sees them there,
/// an emphasis run with no partner in its paragraph kept as text (what
/// [`normalize::normalize_within`] reads): what a located quote copies.
pub fn reader_text_within(s: &str, start: usize, end: usize) -> String {
    let range = byte_offset(s, start)..byte_offset(s, end);
    let literal = normalize::within(s, &markup::unpaired_runs(s), range.clone());
    reader_text_with(&s[range], &literal)
}

/// `literal`: byte offsets of emphasis runs read as text (ascending).
fn reader_text_with(s: &str, literal: &[usize]) -> String {
    let mut out = String::with_capacity(s.len());
    let (mut space, mut line_break) = (false, 0usize);
    let (mut prev, mut prev_ws) = ('\0', '\0');
    let mut skip = 0usize;
    for (b, c) in s.char_indices() {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        // Emphasis and code markers and link markup are not words ("*not*"
        // is "not", "[Robert Stevenson](url)" is "Robert Stevenson").
        if let Some((n, shown)) = markup::rst_role(s, b, prev) {
            skip = n - 1;
            if !shown.is_empty() {
                if space {
                    out.push(' ');
                }
                out.push_str(shown.trim_end());
                space = true;
            }
            prev = ' ';
            line_break = 0;
            continue;
        }
        if let Some(n) = markup::rst_link_target(s, b) {
            skip = s[b..b + n].chars().count() - 1;
            line_break = 0;
            space &= s[b + n..].starts_with(char::is_alphanumeric);
            continue;
        }
        if let Some(shown) = markup::literal_block_mark(s, b, prev) {
            skip = 1;
            if shown {
                out.push(':');
                space = false;
            }
            prev = ':';
            line_break = 0;
            continue;
        }
        if literal.binary_search(&b).is_err()
            && let Some(n) = markup::markup_run(s, b, prev).or_else(|| markup::link_markup(s, b))
        {
            skip = s[b..b + n].chars().count() - 1;
            // A hyphen ends a word across a line only when a letter comes
            // straight after the break, as validation reads it: "light-\n
            // *house*" stays "light- house".
            line_break = 0;
            continue;
        }
        prev = c;
        if c.is_whitespace() {
            space = !out.is_empty();
            line_break += usize::from(normalize::new_line(prev_ws, c));
            prev_ws = c;
            continue;
        }
        // The index's mark for text the source does not show is no
        // character to paste: the copy marks the omission, once a run.
        if c == crate::text::HIDDEN_MARK {
            if !out.trim_end().ends_with(OMITTED) {
                if space {
                    out.push(' ');
                }
                out.push_str(OMITTED);
            }
            (space, line_break, prev_ws) = (false, 0, '\0');
            continue;
        }
        // Zero-width joiners stay: they shape emoji and some scripts.
        if c.is_control()
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{00AD}')
            || (normalize::zero_width(c) && !matches!(c, '\u{200C}' | '\u{200D}'))
        {
            continue;
        }
        // As normalization reads it: one line break, a letter before the
        // hyphen ("10-\nfold" keeps its hyphen).
        let mut tail = out.chars().rev();
        let joins = line_break == 1
            && c.is_alphabetic()
            && tail.next().is_some_and(is_line_hyphen)
            && tail.next().is_some_and(char::is_alphabetic);
        if joins {
            out.pop();
        } else if space {
            out.push(' ');
        }
        (space, line_break, prev_ws) = (false, 0, '\0');
        // A typesetting ligature (a PDF's "ﬁ") is its letters, as the reader
        // reads them and a manuscript's spelling checker and search need.
        match ligature(c) {
            Some(letters) => out.push_str(letters),
            None => out.push(c),
        }
    }
    out
}

/// What a copy holds where the source has text it does not show (struck
/// through, hidden, unreadable): the editor's mark of an omission.
pub const OMITTED: &str = "[…]";

/// The letters of a Latin typesetting ligature (U+FB00–U+FB06).
fn ligature(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{FB00}' => "ff",
        '\u{FB01}' => "fi",
        '\u{FB02}' => "fl",
        '\u{FB03}' => "ffi",
        '\u{FB04}' => "ffl",
        '\u{FB05}' | '\u{FB06}' => "st",
        _ => return None,
    })
}
