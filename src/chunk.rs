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
        let page = match (first_page, last_page) {
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
mod tests {
    use super::*;
    use crate::ingest::{Format, Limits, extract};
    use crate::text::slice_chars;

    fn chunks_of(src: &str, max_tokens: usize) -> (Extracted, Vec<Chunk>) {
        let ex = extract(Format::Markdown, src.as_bytes(), &Limits::default()).unwrap();
        let cfg = ChunkConfig {
            max_tokens,
            hard_max_tokens: max_tokens * 2,
        };
        let chunks = chunk_document("notes/a.md", "A", &ex, cfg);
        (ex, chunks)
    }

    #[test]
    fn headings_start_chunks_and_form_locations() {
        let src = "# Lights\n\nIntro.\n\n## Eddystone\n\nSmeaton’s tower.\n\nSecond para.\n\n### Stump\n\nIt still stands.\n\n## Bell Rock\n\nStevenson.\n";
        let (ex, chunks) = chunks_of(src, 200);
        let locs: Vec<_> = chunks.iter().map(|c| c.location.as_str()).collect();
        assert_eq!(
            locs,
            [
                "Lights",
                "Lights › Eddystone",
                "Lights › Eddystone › Stump",
                "Lights › Bell Rock"
            ]
        );
        // The title heading is left out of the chain.
        let ex2 = extract(Format::Markdown, src.as_bytes(), &Limits::default()).unwrap();
        let titled = chunk_document("a.md", "Lights", &ex2, ChunkConfig::default());
        assert_eq!(
            titled
                .iter()
                .map(|c| c.location.as_str())
                .collect::<Vec<_>>(),
            ["", "Eddystone", "Eddystone › Stump", "Bell Rock"]
        );
        assert_eq!(chunks[1].text, "Smeaton’s tower.\n\nSecond para.");
        assert_eq!(chunks[1].id, "notes/a.md#1");
        for c in &chunks {
            assert_eq!(
                slice_chars(&ex.text, c.start, c.end),
                c.text,
                "offsets of {}",
                c.id
            );
        }
    }

    /// A Markdown footnote's definition is a passage of its own: quoted
    /// alone it validates, but no quote runs from it into the paragraph
    /// after it (the page shows the note at its foot), nor into it.
    #[test]
    fn a_footnote_is_a_passage_apart() {
        use crate::validate::{ChunkRef, Status, Validator, adjacency};
        let src = "# Tower\n\nThe tower was rebuilt in stone[^1] after the fire.\n\n\
                   [^1]: The stone came from the quarry at Aberdeen, cut by hand over three summers.\n\n\
                   Afterwards the keepers lived in the new cottages below the rock.\n";
        let (_, chunks) = chunks_of(src, 200);
        let notes: Vec<bool> = chunks.iter().map(|c| is_note(&c.text)).collect();
        assert_eq!(notes, [false, true, false], "{chunks:?}");
        let refs: Vec<ChunkRef<'_>> = chunks.iter().map(ChunkRef::from).collect();
        let places: Vec<(&str, usize, usize)> = chunks
            .iter()
            .map(|c| (c.source_id.as_str(), c.start, c.end))
            .collect();
        let v = Validator::new(&refs).with_adjacency(adjacency(&places, 4));
        let cfg = Default::default();
        for (quote, shown) in [
            ("cut by hand over three summers.", true),
            ("Afterwards the keepers lived in the new cottages", true),
            (
                "cut by hand over three summers. Afterwards the keepers lived",
                false,
            ),
            ("after the fire. The stone came from the quarry", false),
        ] {
            let r = v.validate(quote, "notes/a.md", &cfg);
            assert_eq!(r.status == Status::Validated, shown, "{quote}: {r:?}");
        }
        // A note longer than a passage is still one passage apart.
        let long = format!(
            "# Tower\n\nRebuilt[^1].\n\n[^1]: {}cut by hand over three summers.\n\n\
             Afterwards the keepers lived below the rock.\n",
            "The stone came from the quarry at Aberdeen. ".repeat(30)
        );
        let (_, chunks) = chunks_of(&long, 200);
        let notes: Vec<bool> = chunks.iter().map(|c| is_note(&c.text)).collect();
        assert_eq!(notes, [false, true, false], "{chunks:?}");
    }

    /// A quote over a page break is placed on both pages; one on a page,
    /// or in a text file, as before.
    #[test]
    fn a_quote_over_a_page_break_is_placed_on_both_pages() {
        let chunk = |id: &str, page: Option<u32>, line: Option<u32>| Chunk {
            id: id.into(),
            source_id: id.split('#').next().unwrap().into(),
            source_title: String::new(),
            location: String::new(),
            text: "The keeper\nlit the lamp.".into(),
            start: 0,
            end: 24,
            ordinal: 0,
            tokens: 5,
            line,
            page,
        };
        let (a, b, c) = (
            chunk("p.pdf#3", Some(2), None),
            chunk("p.pdf#4", Some(3), None),
            chunk("q.pdf#0", Some(9), None),
        );
        assert_eq!(place_of_spans(&[&a, &b], 0).as_deref(), Some("pp. 2–3"));
        assert_eq!(place_of_spans(&[&a], 0).as_deref(), Some("p. 2"));
        assert_eq!(place_of_spans(&[&a, &c], 0).as_deref(), Some("p. 2"));
        let t = chunk("t.md#0", None, Some(7));
        assert_eq!(place_of_spans(&[&t], 11).as_deref(), Some("line 8"));
    }

    #[test]
    fn long_paragraphs_split_between_sentences_within_bound() {
        let para: String = (0..60)
            .map(|i| format!("Sentence number {i} tells of the keeper’s lamp. "))
            .collect();
        let src = format!("# T\n\n{}\n", para.trim_end());
        let (ex, chunks) = chunks_of(&src, 50);
        assert!(chunks.len() > 5);
        for c in &chunks {
            assert!(c.tokens <= 50, "{} has {} tokens", c.id, c.tokens);
            assert!(c.text.starts_with("Sentence number"), "{}", c.text);
            assert!(c.text.ends_with("lamp."), "{}", c.text);
            assert_eq!(slice_chars(&ex.text, c.start, c.end), c.text);
        }
    }

    #[test]
    fn a_megabyte_without_punctuation_is_cut_between_words() {
        let src = "word ".repeat(200_000);
        let ex = extract(Format::Text, src.as_bytes(), &Limits::default()).unwrap();
        let chunks = chunk_document("x.txt", "x", &ex, ChunkConfig::default());
        assert!(chunks.len() > 100);
        for c in &chunks {
            assert!(c.tokens as usize <= ChunkConfig::default().hard_max_tokens);
            assert!(!c.text.starts_with(' ') && !c.text.ends_with(' '));
            assert!(c.text.split(' ').all(|w| w == "word"));
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::cases(64))]
        /// The red team's round 21: Chinese or Japanese written without
        /// spaces, in sentences longer than a chunk, is cut only where
        /// validation reads a word boundary (after "，" or "、"), never
        /// between "不" and "可能": a chunk's edge is a boundary to
        /// validation, so a quote starting there must not start a word's
        /// second half.
        #[test]
        fn unspaced_text_is_cut_between_words_as_validation_reads_them(
            runs in proptest::collection::vec((1usize..60, 0usize..3), 10..80),
            seed in proptest::prelude::any::<u64>(),
        ) {
            let letters: Vec<char> = "不可能守住这座灯塔をることはできない".chars().collect();
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut src = String::new();
            for (n, sep) in runs {
                for _ in 0..n {
                    src.push(letters[rng.usize(..letters.len())]);
                }
                src.push(['，', '、', '」'][sep]);
            }
            let ex = extract(Format::Text, src.as_bytes(), &Limits::default()).unwrap();
            let cfg = ChunkConfig { max_tokens: 50, hard_max_tokens: 100 };
            let chunks = chunk_document("zh.txt", "zh", &ex, cfg);
            let total = ex.text.chars().count();
            for c in &chunks {
                proptest::prop_assert_eq!(slice_chars(&ex.text, c.start, c.end), c.text.as_str());
                for at in [c.start, c.end] {
                    proptest::prop_assert!(
                        at == 0 || at == total || !crate::validate::words::inside_word(&ex.text, at),
                        "{} cut inside a word at {}: {:?}", c.id, at, c.text
                    );
                }
            }
            proptest::prop_assert!(chunks.len() > 1 || total < 200);
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::cases(64))]
        /// The red team's round 22: a sentence longer than a chunk is cut
        /// at whitespace only where validation reads a word boundary, not
        /// inside "£12 000", "light-⏎house" or "18–⏎65" (a chunk's edge is
        /// a boundary to validation: "£12" and "house keeper" had been
        /// validated at the edges of two chunks).
        #[test]
        fn long_sentences_are_cut_between_words_as_validation_reads_them(
            words in proptest::collection::vec(0usize..13, 200..700),
        ) {
            const WORDS: [&str; 13] = [
                "the", "keeper", "lamp,", "£12 000", "light-\nhouse", "18–\n65",
                "10-\nfold", "12,\n000", "can\u{200B}not", "1 200", "wick", "un\\ *safe*",
                "rock",
            ];
            let src: String = words.iter().map(|&w| WORDS[w]).collect::<Vec<_>>().join(" ");
            let ex = extract(Format::Text, src.as_bytes(), &Limits::default()).unwrap();
            let cfg = ChunkConfig { max_tokens: 50, hard_max_tokens: 100 };
            let chunks = chunk_document("n.txt", "n", &ex, cfg);
            let total = ex.text.chars().count();
            for c in &chunks {
                for at in [c.start, c.end] {
                    proptest::prop_assert!(
                        at == 0 || at == total || !crate::validate::words::inside_word(&ex.text, at),
                        "{} cut inside a word at {}: {:?}", c.id, at, c.text
                    );
                }
            }
        }
    }

    /// Issue 11: a text file's quotes are cited by line; a Gutenberg
    /// banner and a contents list are never chunked (so never quoted); the
    /// quote text of a CRLF file has no CR and no doubled spaces.
    #[test]
    fn lines_banners_contents_and_crlf() {
        let src = "Project Gutenberg's Fog, by A. Keeper\r\n\r\nThis eBook is for the use of anyone anywhere.\r\n\r\n*** START OF THIS PROJECT GUTENBERG EBOOK FOG ***\r\n\r\nCONTENTS\r\n\r\n    Bells  ....... 3\r\n    Horns  ....... 9\r\n\r\nCHAPTER I\r\n\r\nThe bell was rung by hand\r\nin  thick weather.\r\n\r\n*** END OF THIS PROJECT GUTENBERG EBOOK FOG ***\r\n";
        let ex = extract(Format::Text, src.as_bytes(), &Limits::default()).unwrap();
        let cs = chunk_document("fog.txt", "Fog", &ex, ChunkConfig::default());
        let all: String = cs.iter().map(|c| c.text.as_str()).collect();
        assert!(
            !all.contains("START OF") && !all.contains("eBook is for"),
            "{all:?}"
        );
        assert!(!all.contains("Horns"), "{all:?}");
        let c = cs
            .iter()
            .find(|c| c.text.contains("bell was rung"))
            .unwrap();
        assert_eq!(c.line, Some(14));
        let at = c.text.chars().position(|x| x == 'i').unwrap();
        let v = crate::validate::validate(
            "rung by hand in thick weather",
            "fog.txt",
            &[crate::validate::ChunkRef {
                id: &c.id,
                source_id: &c.source_id,
                text: &c.text,
            }],
            &Default::default(),
        );
        assert_eq!(
            v.copy_text.as_deref(),
            Some("rung by hand in thick weather")
        );
        assert_eq!(c.place_of(at).as_deref(), Some("line 15"));
    }
}
