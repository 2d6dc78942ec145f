//! BERT-uncased tokenisation: BasicTokenizer + WordPiece over a fixed
//! vocabulary, reimplemented (the builtin and `minilm` embedders both use it;
//! it is tested against HF tokenizers in `builtin.rs`).
//!
//! Tokeniser settings are those of all-MiniLM-L6-v2's `tokenizer.json`:
//! lowercase, strip accents (NFD, drop Mn), clean control characters, isolate
//! CJK ideographs, split on whitespace and punctuation, greedy
//! longest-match-first WordPiece with `##` continuations, `[UNK]` for words
//! over 100 characters or with an unmatchable piece.  Character classes come
//! from Unicode 14 tables (generated with Python's `unicodedata`, in
//! `wordpiece/tables.rs`); the one known gap is unassigned code points
//! (category Cn), which BERT deletes and this keeps (they then become
//! `[UNK]`, which the embedders skip, so the embedding is the same).

mod tables;

use anyhow::{Context, Result, bail, ensure};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use tables::{NONSPACING_MARK, OTHER_CONTROL, PUNCTUATION};

const MAX_INPUT_CHARS_PER_WORD: usize = 100;
const UNK: &str = "[UNK]";
/// The prefix of a continuation piece.
const CONTINUATION: &str = "##";

/// A vocabulary read token by token, in id order.
pub struct VocabBuilder {
    vocab: HashMap<Box<str>, u32, FxBuild>,
    tokens: Vec<Box<str>>,
    max_piece_chars: usize,
}

impl VocabBuilder {
    /// An empty vocabulary with room for `n` tokens.
    pub fn with_capacity(n: usize) -> Self {
        VocabBuilder {
            vocab: HashMap::with_capacity_and_hasher(n, FxBuild::default()),
            tokens: Vec::with_capacity(n),
            max_piece_chars: 1,
        }
    }

    /// Add `token` (continuations keep their `##` prefix) with the next id.
    /// An empty token or one already in the vocabulary is an error.
    pub fn push(&mut self, token: &str) -> Result<()> {
        let id = self.tokens.len();
        ensure!(!token.is_empty(), "token {id} is empty");
        let piece = token.strip_prefix(CONTINUATION).unwrap_or(token);
        self.max_piece_chars = self.max_piece_chars.max(piece.chars().count());
        let s: Box<str> = token.into();
        if self.vocab.insert(s.clone(), id as u32).is_some() {
            bail!("token {s:?} appears twice in the vocab");
        }
        self.tokens.push(s);
        Ok(())
    }

    /// The tokenizer over this vocabulary, which must hold `[UNK]`.
    pub fn build(self) -> Result<WordPiece> {
        let unk = *self.vocab.get(UNK).context("vocab has no [UNK] token")?;
        Ok(WordPiece {
            vocab: self.vocab,
            tokens: self.tokens,
            unk,
            max_piece_chars: self.max_piece_chars,
        })
    }
}

/// A BERT-uncased WordPiece tokenizer (see the module docs).
pub struct WordPiece {
    /// Token string -> id (continuations keep their `##` prefix).
    vocab: HashMap<Box<str>, u32, FxBuild>,
    /// Id -> token string.
    tokens: Vec<Box<str>>,
    unk: u32,
    /// Longest vocabulary entry in chars (without `##`): bounds the WordPiece search.
    max_piece_chars: usize,
}

impl std::fmt::Debug for WordPiece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WordPiece")
            .field("vocab", &self.tokens.len())
            .finish()
    }
}

impl WordPiece {
    /// Vocabulary size.
    pub fn vocab_size(&self) -> usize {
        self.tokens.len()
    }

    /// The token string for `id`, if it is in the vocabulary.
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(|s| &**s)
    }

    /// The id of `token`, if it is in the vocabulary.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.vocab.get(token).copied()
    }

    /// The id of `[UNK]`.
    pub fn unk(&self) -> u32 {
        self.unk
    }

    /// BERT-uncased token ids of `text`, without `[CLS]`/`[SEP]`.
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        self.for_each_token(text, |id| out.push(id));
        out
    }

    /// Run the BasicTokenizer + WordPiece over `text`, calling `f` per token id.
    pub fn for_each_token(&self, text: &str, mut f: impl FnMut(u32)) {
        let mut st = WordState::default();
        for c in text.chars() {
            if c.is_ascii() {
                match c {
                    ' ' | '\t' | '\n' | '\r' => self.flush(&mut st, &mut f),
                    // Other C0 controls and DEL (including \x0b, \x0c) are removed.
                    '\0'..='\x1f' | '\x7f' => {}
                    _ if c.is_ascii_punctuation() => {
                        self.flush(&mut st, &mut f);
                        self.single(c, &mut st, &mut f);
                    }
                    _ => st.word.push(c.to_ascii_lowercase()),
                }
                continue;
            }
            if c == '\u{fffd}' || is_control(c) {
                continue;
            }
            if c.is_whitespace() {
                self.flush(&mut st, &mut f);
                continue;
            }
            // NFD, drop nonspacing marks, lowercase; then classify what is left.
            unicode_normalization::char::decompose_canonical(c, |d| {
                if in_table(d, NONSPACING_MARK) {
                    return;
                }
                for l in d.to_lowercase() {
                    if l.is_whitespace() {
                        self.flush(&mut st, &mut f);
                    } else if is_punctuation(l) || is_cjk(l) {
                        self.flush(&mut st, &mut f);
                        self.single(l, &mut st, &mut f);
                    } else {
                        st.word.push(l);
                    }
                }
            });
        }
        self.flush(&mut st, &mut f);
    }

    /// A one-character word (punctuation, CJK ideograph).
    fn single(&self, c: char, st: &mut WordState, f: &mut impl FnMut(u32)) {
        st.word.push(c);
        self.flush(st, f);
    }

    /// WordPiece the pending word (if any) and clear it.
    fn flush(&self, st: &mut WordState, f: &mut impl FnMut(u32)) {
        if st.word.is_empty() {
            return;
        }
        let word = std::mem::take(&mut st.word);
        self.wordpiece(&word, st, f);
        st.word = word;
        st.word.clear();
    }

    fn wordpiece(&self, word: &str, st: &mut WordState, f: &mut impl FnMut(u32)) {
        // Fast path: the whole word is a token.
        if let Some(&id) = self.vocab.get(word) {
            f(id);
            return;
        }
        st.bounds.clear();
        st.bounds.extend(word.char_indices().map(|(i, _)| i));
        let n = st.bounds.len();
        if n > MAX_INPUT_CHARS_PER_WORD {
            f(self.unk);
            return;
        }
        st.bounds.push(word.len());
        st.pieces.clear();
        let mut start = 0;
        while start < n {
            let mut end = n.min(start + self.max_piece_chars);
            let mut found = None;
            while end > start {
                let sub = &word[st.bounds[start]..st.bounds[end]];
                let hit = if start == 0 {
                    self.vocab.get(sub)
                } else {
                    st.scratch.clear();
                    st.scratch.push_str(CONTINUATION);
                    st.scratch.push_str(sub);
                    self.vocab.get(st.scratch.as_str())
                };
                if let Some(&id) = hit {
                    found = Some(id);
                    break;
                }
                end -= 1;
            }
            match found {
                Some(id) => {
                    st.pieces.push(id);
                    start = end;
                }
                None => {
                    f(self.unk);
                    return;
                }
            }
        }
        st.pieces.iter().for_each(|&id| f(id));
    }
}

/// Buffers reused across the words of one text.
#[derive(Default)]
struct WordState {
    word: String,
    scratch: String,
    bounds: Vec<usize>,
    pieces: Vec<u32>,
}

/// FxHash (rustc's hasher): fast for the short keys of a fixed vocabulary.
#[derive(Default, Clone, Copy)]
struct FxHasher {
    hash: u64,
}

type FxBuild = BuildHasherDefault<FxHasher>;

impl FxHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.hash = (self.hash.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

// ------------------------------------------------------------ character classes

/// BERT's `_is_control`: categories Cc, Cf, Cs, Co (tab/newline/CR are whitespace).
fn is_control(c: char) -> bool {
    c.is_control() || in_table(c, OTHER_CONTROL)
}

/// BERT's `_is_punctuation`: ASCII punctuation (incl. `$+<=>^`|~`) or category P*.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || in_table(c, PUNCTUATION)
}

/// BERT's `_is_chinese_char`: CJK Unified Ideographs and their extensions and
/// compatibility blocks (not kana or hangul).
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x20000..=0x2A6DF
        | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F
        | 0x2B820..=0x2CEAF
        | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}

fn in_table(c: char, table: &[(u32, u32)]) -> bool {
    let c = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab(tokens: &[&str]) -> Result<WordPiece> {
        let mut v = VocabBuilder::with_capacity(tokens.len());
        for t in tokens {
            v.push(t)?;
        }
        v.build()
    }

    #[test]
    fn a_small_vocabulary() {
        let wp = vocab(&["[UNK]", "ship", "##wr", "##eck", ",", "ecole"]).unwrap();
        assert_eq!(wp.vocab_size(), 6);
        assert_eq!(
            (wp.unk(), wp.id("##eck"), wp.token(4)),
            (0, Some(3), Some(","))
        );
        assert_eq!(wp.tokenize("Shipwreck, ÉCOLE"), vec![1, 2, 3, 4, 5]);
        assert_eq!(wp.tokenize("shipyard"), vec![0]);
    }

    #[test]
    fn a_bad_vocabulary_is_an_error() {
        let err = |t: &[&str]| vocab(t).unwrap_err().to_string();
        assert!(err(&["[UNK]", "a", "a"]).contains("twice"));
        assert!(err(&["[UNK]", ""]).contains("empty"));
        assert!(err(&["a", "b"]).contains("[UNK]"));
    }
}
