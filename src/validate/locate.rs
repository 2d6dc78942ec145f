//! Locating a snippet (or one of its parts) in one chunk: exactly, or after
//! normalization, and only where the source's own text at the span
//! normalizes to the same words (module docs of `validate`).

use super::markup::unpaired_runs;
use super::normalize::{self, normalize_within};
use super::{Normalized, Validator, char_offset, slice_chars, words};
use crate::text::byte_offset;

/// For each chunk, the one that directly follows it in its document: same
/// source, its start at most `gap` chars after this one's end. `spans` are
/// the chunks' (source id, document char start, document char end).
pub fn adjacency(spans: &[(&str, usize, usize)], gap: usize) -> Vec<Option<usize>> {
    spans
        .iter()
        .map(|&(src, _, end)| {
            spans
                .iter()
                .position(|&(s2, start2, _)| s2 == src && start2 >= end && start2 - end <= gap)
        })
        .collect()
}

/// Where a piece was found: chunk index, original char range, normalized
/// char range.
#[derive(Debug, Clone, Copy)]
pub(super) struct Hit {
    pub(super) chunk: usize,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) nstart: usize,
    pub(super) nend: usize,
}

/// Most candidate occurrences checked per search (repeats of a short piece).
const MAX_TRIES: usize = 64;

impl Validator<'_, '_> {
    pub(super) fn norm(&self, i: usize) -> &Normalized {
        &self.read(i).0
    }

    fn read(&self, i: usize) -> &(Normalized, Vec<usize>) {
        self.norm[i].get_or_init(|| {
            let text = self.chunks[i].text;
            let literal = unpaired_runs(text);
            (normalize::normalize_with(text, true, &literal), literal)
        })
    }

    /// Chars `start..end` of chunk `i` normalized as the whole chunk reads
    /// them (an emphasis run with no partner stays text).
    pub(super) fn reads(&self, i: usize, start: usize, end: usize) -> Normalized {
        let text = self.chunks[i].text;
        let range = byte_offset(text, start)..byte_offset(text, end);
        normalize_within(text, range, &self.read(i).1)
    }

    /// `content` as an exact substring of chunk `i` whose normalized form is
    /// the same run of the chunk's normalized text.
    pub(super) fn exact(&self, i: usize, content: &str, needle: &Normalized) -> Option<Hit> {
        let text = self.chunks[i].text;
        let nchars = content.chars().count();
        let mut from = 0;
        for _ in 0..MAX_TRIES {
            let b = from + text[from..].find(content)?;
            let start = char_offset(text, b);
            let end = start + nchars;
            let norm = self.norm(i);
            // Normalized chars whose cluster starts inside start..end.
            let ns = norm.map.partition_point(|&m| m < start);
            let ne = norm.map.partition_point(|&m| m < end);
            let (mut s, mut e) = (ns, ne);
            if s < e && norm.text_char(s) == ' ' {
                s += 1;
            }
            if s < e && norm.text_char(e - 1) == ' ' {
                e -= 1;
            }
            if e - s == needle.len()
                && s < e
                && norm.ends[e - 1] <= end
                && norm.slice(s, e) == needle.text
                && !words::cuts_word(text, start, end)
            {
                return Some(Hit {
                    chunk: i,
                    start,
                    end,
                    nstart: s,
                    nend: e,
                });
            }
            from = b + content.chars().next().map_or(1, char::len_utf8);
        }
        None
    }

    /// `needle` (normalized) in chunk `i`'s normalized text at or after
    /// normalized char `from`, accepted only when the original text at the
    /// mapped span normalizes to exactly `needle`.
    pub(super) fn normalized(&self, i: usize, needle: &Normalized, from: usize) -> Option<Hit> {
        if needle.is_empty() {
            return None;
        }
        let norm = self.norm(i);
        let hay = &norm.text;
        let mut b = byte_of_char(hay, from)?;
        for _ in 0..MAX_TRIES {
            let at = b + hay[b..].find(needle.text.as_str())?;
            let ns = char_offset(hay, at);
            let ne = ns + needle.len();
            let (start, end) = norm.original_range(ns, ne);
            // Not half of a cluster (a ligature, a letter without its
            // accent); the spaces a dash is written with are not a cluster.
            let clean =
                (ns == 0 || norm.map[ns - 1] != norm.map[ns] || norm.text_char(ns - 1) == ' ')
                    && (ne == norm.len()
                        || norm.map[ne] != norm.map[ne - 1]
                        || norm.text_char(ne) == ' ');
            let text = self.chunks[i].text;
            if clean
                && !words::cuts_word(text, start, end)
                && self.reads(i, start, end).text == needle.text
            {
                return Some(Hit {
                    chunk: i,
                    start,
                    end,
                    nstart: ns,
                    nend: ne,
                });
            }
            b = at + hay[at..].chars().next().map_or(1, char::len_utf8);
        }
        None
    }

    /// A normalized occurrence, and whether the source's text there is
    /// exactly the (trimmed) snippet.
    pub(super) fn exact_or_normalized(
        &self,
        i: usize,
        content: &str,
        needle: &Normalized,
    ) -> Option<(Hit, bool)> {
        let h = self.normalized(i, needle, 0)?;
        let exact = slice_chars(self.chunks[i].text, h.start, h.end) == content.trim();
        Some((h, exact))
    }
}

impl Normalized {
    pub(super) fn text_char(&self, i: usize) -> char {
        // Only used on short, ASCII-heavy checks; the text is small.
        self.text.chars().nth(i).unwrap_or('\0')
    }

    pub(super) fn slice(&self, s: usize, e: usize) -> &str {
        let b0 = byte_of_char(&self.text, s).unwrap_or(self.text.len());
        let b1 = b0 + byte_of_char(&self.text[b0..], e - s).unwrap_or(self.text.len() - b0);
        &self.text[b0..b1]
    }
}

/// Byte offset of char `c` in `s` (`s.len()` for the end); None past it.
fn byte_of_char(s: &str, c: usize) -> Option<usize> {
    if c == 0 {
        return Some(0);
    }
    match s.char_indices().nth(c) {
        Some((b, _)) => Some(b),
        None if s.chars().count() == c => Some(s.len()),
        None => None,
    }
}
