//! Chunking: section-aware, bounded in tokens, never inside a sentence.
//!
//! Headings start a new chunk and form the chunk's location ("Chapter 3 ›
//! Methods"); paragraphs of one section are packed together up to the token
//! bound; a paragraph over the bound is split between sentences. Only a single
//! sentence longer than [`ChunkConfig::hard_max_tokens`] (pathological input
//! such as a megabyte with no punctuation) is cut between words.

use crate::ingest::{BlockKind, Extracted};
use crate::text::{count_tokens, sentences};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chunk {
    /// `source_id#ordinal`, unique in the index.
    pub id: String,
    pub source_id: String,
    pub source_title: String,
    /// Heading chain ("Chapter 3 › Methods"), with the page for PDFs.
    pub location: String,
    pub text: String,
    /// Char offsets of `text` in the document text.
    pub start: usize,
    pub end: usize,
    pub ordinal: u32,
    pub tokens: u32,
    /// 1-based line of the file where the chunk starts (text formats).
    #[serde(default)]
    pub line: Option<u32>,
    /// 1-based page of the chunk (paged formats; a chunk never crosses a
    /// page, so this is the page of every quote in it).
    #[serde(default)]
    pub page: Option<u32>,
}

/// Where a quote is whose spans lie in `chunks` (in the quote's order):
/// "pp. 2–3" when it runs over a page break of its source, else the first
/// chunk's place of `start` ("p. 2", "line 412").
pub fn place_of_spans(chunks: &[&Chunk], start: usize) -> Option<String> {
    let first = chunks.first()?;
    let pages: Vec<u32> = chunks
        .iter()
        .filter(|c| c.source_id == first.source_id)
        .filter_map(|c| c.page)
        .collect();
    match (pages.iter().min(), pages.iter().max()) {
        (Some(a), Some(b)) if a != b => Some(format!("pp. {a}–{b}")),
        _ => first.place_of(start),
    }
}

/// A chunk of a note shown apart from the text (a Markdown footnote's
/// definition, `[^1]: …`, chunked alone): no quote runs from it into the
/// chunks either side.
pub fn is_note(text: &str) -> bool {
    text.strip_prefix("[^")
        .and_then(|t| t.split_once("]:"))
        .is_some_and(|(label, _)| !label.is_empty() && !label.contains(char::is_whitespace))
}

impl Chunk {
    /// Where the chars `start..` of this chunk are, for an author: "p. 12"
    /// or "line 412" (or None when the format has neither).
    pub fn place_of(&self, start: usize) -> Option<String> {
        if let Some(p) = self.page {
            return Some(format!("p. {p}"));
        }
        let first = self.line?;
        let before = crate::text::slice_chars(&self.text, 0, start);
        Some(format!(
            "line {}",
            first as usize + before.matches('\n').count()
        ))
    }
}

#[cfg(test)]
impl Chunk {
    /// A chunk for tests: `id` is `source#n`, the text spans the document.
    pub fn for_test(id: &str, text: &str) -> Chunk {
        Chunk {
            id: id.into(),
            source_id: id.split('#').next().unwrap_or(id).into(),
            source_title: "Title".into(),
            location: "Loc".into(),
            text: text.into(),
            start: 0,
            end: text.chars().count(),
            ordinal: 0,
            tokens: 0,
            line: None,
            page: None,
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChunkConfig {
    /// Target upper bound of a chunk, in cl100k tokens.
    pub max_tokens: usize,
    /// A single sentence longer than this is cut between words.
    pub hard_max_tokens: usize,
}

impl Default for ChunkConfig {
    fn default() -> Self {
        ChunkConfig {
            max_tokens: 256,
            hard_max_tokens: 1024,
        }
    }
}

/// A piece of text (byte range) with its token count and page.
#[derive(Clone, Copy)]
struct Piece {
    start: usize,
    end: usize,
    tokens: usize,
    page: Option<u32>,
}

struct Builder<'a> {
    ex: &'a Extracted,
    source_id: &'a str,
    title: &'a str,
    cfg: ChunkConfig,
    chunks: Vec<Chunk>,
    current: Vec<Piece>,
    current_tokens: usize,
    headings: Vec<(u8, String)>,
    // Incremental byte -> char offset conversion (chunks arrive in order).
    last_byte: usize,
    last_char: usize,
    // The same for lines.
    line_byte: usize,
    line: u32,
}

impl Builder<'_> {
    /// 1-based line of byte `b` (incremental: chunks arrive in order).
    fn line_at(&mut self, b: usize) -> u32 {
        if b < self.line_byte {
            (self.line_byte, self.line) = (0, 1);
        }
        self.line += self.ex.text[self.line_byte..b].matches('\n').count() as u32;
        self.line_byte = b;
        self.line
    }

    fn char_at(&mut self, b: usize) -> usize {
        if b < self.last_byte {
            self.last_byte = 0;
            self.last_char = 0;
        }
        self.last_char += self.ex.text[self.last_byte..b].chars().count();
        self.last_byte = b;
        self.last_char
    }

    fn location(&self, first_page: Option<u32>, last_page: Option<u32>) -> String {
        // The document's own title heading adds nothing to its location.
        let chain = self
            .headings
            .iter()
            .enumerate()
            .filter(|(i, (_, t))| !(*i == 0 && t == self.title))
            .map(|(_, (_, t))| t.as_str())
            .collect::<Vec<_>>()
            .join(" › ");
        // A work with no physical pages (an HTML or EPUB edition) is cited
        // by the printed book's pages its anchors name.
        let name = |p: Option<u32>| -> Option<String> {
            let p = p?;
            match (&self.ex.page_labels, self.ex.pages) {
                (Some(labels), None) => labels
                    .get((p as usize).checked_sub(1)?)
                    .filter(|l| !l.is_empty())
                    .cloned(),
                _ => Some(p.to_string()),
            }
        };
        let page = match (name(first_page), name(last_page)) {
            (Some(a), Some(b)) if a != b => format!("pp. {a}–{b}"),
            (Some(a), _) => format!("p. {a}"),
            _ => String::new(),
        };
        match (page.is_empty(), chain.is_empty()) {
            (true, true) => String::new(),
            (true, false) => chain,
            (false, true) => page,
            (false, false) => format!("{page} · {chain}"),
        }
    }

    fn flush(&mut self) {
        if self.current.is_empty() {
            return;
        }
        let first = self.current[0];
        let last = *self.current.last().expect("non-empty");
        let location = self.location(first.page, last.page);
        let start = self.char_at(first.start);
        let text = self.ex.text[first.start..last.end].to_string();
        let end = start + text.chars().count();
        let ordinal = self.chunks.len() as u32;
        let line = self.ex.text_is_file.then(|| self.line_at(first.start));
        self.chunks.push(Chunk {
            id: format!("{}#{}", self.source_id, ordinal),
            source_id: self.source_id.to_string(),
            source_title: self.title.to_string(),
            location,
            text,
            start,
            end,
            ordinal,
            tokens: self.current_tokens as u32,
            line,
            page: first.page,
        });
        self.current.clear();
        self.current_tokens = 0;
    }

    fn add(&mut self, p: Piece) {
        // Full, or a new page: a chunk never crosses a page.
        if !self.current.is_empty()
            && (self.current_tokens + p.tokens > self.cfg.max_tokens
                || self.current.last().is_some_and(|l| l.page != p.page))
        {
            self.flush();
        }
        self.current.push(p);
        self.current_tokens += p.tokens;
    }

    fn add_paragraph(&mut self, start: usize, end: usize, page: Option<u32>) {
        let text = &self.ex.text[start..end];
        let tokens = count_tokens(text);
        if tokens <= self.cfg.max_tokens {
            self.add(Piece {
                start,
                end,
                tokens,
                page,
            });
            return;
        }
        // Over the bound: pack its sentences instead, starting a fresh chunk.
        self.flush();
        for r in sentences(text) {
            let (s, e) = (start + r.start, start + r.end);
            let t = count_tokens(&self.ex.text[s..e]);
            if t <= self.cfg.hard_max_tokens {
                self.add(Piece {
                    start: s,
                    end: e,
                    tokens: t,
                    page,
                });
            } else {
                self.flush();
                self.cut_between_words(s, e, page);
            }
        }
        self.flush();
    }

    /// Last resort for one enormous "sentence": cut at whitespace.
    fn cut_between_words(&mut self, start: usize, end: usize, page: Option<u32>) {
        // About four bytes per token for prose; cut on a char boundary at or
        // before the target, preferring the last whitespace.
        let target = self.cfg.max_tokens * 4;
        let mut s = start;
        while s < end {
            let mut e = (s + target).min(end);
            while !self.ex.text.is_char_boundary(e) {
                e -= 1;
            }
            if e < end {
                e = match last_space(&self.ex.text, s, e) {
                    Some(ws) => ws,
                    _ => between_words(&self.ex.text, s, e, (s + 16 * target).min(end)),
                };
            }
            if e <= s {
                e = (s + 1..=end)
                    .find(|&i| self.ex.text.is_char_boundary(i))
                    .unwrap_or(end);
            }
            let piece = &self.ex.text[s..e];
            let lead = piece.len() - piece.trim_start().len();
            let trimmed = piece.trim();
            if !trimmed.is_empty() {
                let ps = s + lead;
                let pe = ps + trimmed.len();
                let tokens = count_tokens(trimmed);
                self.current.push(Piece {
                    start: ps,
                    end: pe,
                    tokens,
                    page,
                });
                self.current_tokens = tokens;
                self.flush();
            }
            s = e;
        }
    }
}

/// Where to cut `text` between bytes `s` and `e` when the window holds no
/// whitespace (Chinese or Japanese written without spaces): after the last
/// punctuation in the window that validation never reads inside a word
/// ("，", "、", "」"; not "，" between digits), else after the first such
/// one past `e` before `limit`, else at `e`. A chunk's edge is a word
/// boundary to validation, so a cut between "不" and "可能" would let
/// "可能…" (possible) validate as a quote of "不可能…" (impossible).
/// The whitespace of `text[s..e]` (after `s`) to cut a long sentence at,
/// as validation reads words (a chunk's edge is a word boundary to it):
/// the last between two letters; else the last that is not inside a
/// number or a word as validation reads it ("£12 000", "light-⏎house",
/// "18–⏎65", a Markdown escaped space, a hidden mark's blank); else the
/// last of any kind.
fn last_space(text: &str, s: usize, e: usize) -> Option<usize> {
    let mut best: Option<(u8, usize)> = None;
    let mut prev: Option<char> = None;
    for (i, ch) in text[s..e].char_indices() {
        let at = s + i;
        if ch.is_whitespace() && i > 0 && !prev.is_some_and(char::is_whitespace) {
            let a = prev.unwrap_or(' ');
            let c = text[at..].trim_start().chars().next().unwrap_or(' ');
            let rank = if a.is_alphabetic() && c.is_alphabetic() {
                2
            } else {
                // A number's digits or a word joined across the space, as
                // validation reads them, rank below anything else.
                let joined = (a.is_numeric() && c.is_alphanumeric())
                    || is_dash(a)
                    || matches!(a, '\\' | ',' | crate::text::HIDDEN_MARK)
                    || c == crate::text::HIDDEN_MARK;
                u8::from(!joined)
            };
            if best.is_none_or(|(r, _)| rank >= r) {
                best = Some((rank, at));
            }
        }
        prev = Some(ch);
    }
    best.map(|(_, at)| at)
}

/// A hyphen or dash: one that ends a line may join the words either side.
fn is_dash(c: char) -> bool {
    c == '-' || ('\u{2010}'..='\u{2015}').contains(&c) || c == '\u{2212}' || c == '\u{00AD}'
}

fn between_words(text: &str, s: usize, e: usize, limit: usize) -> usize {
    const CLEAR: &str = "，、。；：！？」』）】》〉〕］｝…";
    let limit = (e..=limit)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(e);
    // A cut at `p`, right after one of those, with no digit either side.
    let clear = |p: usize| {
        let mut before = text[..p].chars().rev();
        let (Some(a), z) = (before.next(), before.next()) else {
            return false;
        };
        let c = text[p..].chars().next();
        CLEAR.contains(a) && !(z.is_some_and(char::is_numeric) && c.is_some_and(char::is_numeric))
    };
    let back = std::iter::once(e)
        .chain(text[s..e].char_indices().rev().map(|(i, _)| s + i))
        .find(|&p| p > s && clear(p));
    back.or_else(|| {
        text[e..limit]
            .char_indices()
            .map(|(i, _)| e + i)
            .find(|&p| p > e && clear(p))
    })
    .unwrap_or(e)
}

/// Split an extracted document into chunks.
pub fn chunk_document(
    source_id: &str,
    title: &str,
    ex: &Extracted,
    cfg: ChunkConfig,
) -> Vec<Chunk> {
    let mut b = Builder {
        ex,
        source_id,
        title,
        cfg,
        chunks: Vec::new(),
        current: Vec::new(),
        current_tokens: 0,
        headings: Vec::new(),
        last_byte: 0,
        last_char: 0,
        line_byte: 0,
        line: 1,
    };
    for block in &ex.blocks {
        match &block.kind {
            BlockKind::Heading { level, text } => {
                b.flush();
                while b.headings.last().is_some_and(|(l, _)| l >= level) {
                    b.headings.pop();
                }
                b.headings.push((*level, text.clone()));
            }
            BlockKind::Para => b.add_paragraph(block.start, block.end, block.page),
            // A passage of its own.
            // A passage of its own, whole up to the hard bound (only its
            // first passage starts with its label, which marks it apart).
            BlockKind::Note => {
                b.flush();
                let tokens = count_tokens(&ex.text[block.start..block.end]);
                if tokens <= cfg.hard_max_tokens {
                    b.add(Piece {
                        start: block.start,
                        end: block.end,
                        tokens,
                        page: block.page,
                    });
                } else {
                    b.add_paragraph(block.start, block.end, block.page);
                }
                b.flush();
            }
            // Apparatus ends the chunk before it and is not indexed.
            BlockKind::Aside => b.flush(),
        }
    }
    b.flush();
    b.chunks
}

#[cfg(test)]
mod tests;
