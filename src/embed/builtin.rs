//! The builtin semantic embedder: a static token table distilled from
//! all-MiniLM-L6-v2, in the style of Model2Vec.
//!
//! `scripts/distill-builtin.py` ran every WordPiece token of the teacher through
//! the full transformer (`[CLS] t [SEP]`, mean-pooled), reduced the table to 256
//! dimensions with PCA and folded a Zipf/SIF weight into each row.  Embedding a
//! text here is therefore: BERT-uncased tokenisation (BasicTokenizer +
//! WordPiece, reimplemented below), the mean of the rows of its tokens, L2
//! normalisation.  No transformer runs at query time.
//!
//! Model file (`models/builtin-minilm-256.bin`, all integers little-endian):
//!
//! ```text
//! 8 bytes   magic "RBEMB001"
//! u32       vocab size V   (row i is token id i of the teacher's tokenizer.json)
//! u32       dim D
//! V times:  u16 byte length + UTF-8 bytes of the token ("##" marks a continuation)
//! V*D f16   IEEE-754 binary16, row-major
//! ```
//!
//! Tokeniser settings are those of the teacher's `tokenizer.json`: lowercase,
//! strip accents (NFD, drop Mn), clean control characters, isolate CJK
//! ideographs, split on whitespace and punctuation, greedy longest-match-first
//! WordPiece with `##` continuations, `[UNK]` for words over 100 characters or
//! with an unmatchable piece.  Character classes come from Unicode 14 tables
//! (generated with Python's `unicodedata`, see the bottom of this file); the one
//! known gap is unassigned code points (category Cn), which BERT deletes and
//! this keeps (they then become `[UNK]`, which is skipped, so the embedding is
//! the same).

use super::{Embedder, normalize};
use anyhow::{Context, Result, bail, ensure};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

const MAGIC: &[u8; 8] = b"RBEMB001";
const MAX_INPUT_CHARS_PER_WORD: usize = 100;
const UNK: &str = "[UNK]";
const CLS: &str = "[CLS]";
const SEP: &str = "[SEP]";
const CONTINUATION: &str = "##";

static DEFAULT_MODEL: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/models/builtin-minilm-256.bin"
));

/// Static-embedding model distilled from all-MiniLM-L6-v2 (256 dimensions).
pub struct BuiltinEmbedder {
    id: String,
    dim: usize,
    /// Token string -> id (continuations keep their `##` prefix).
    vocab: HashMap<Box<str>, u32, FxBuild>,
    /// Id -> token string.
    tokens: Vec<Box<str>>,
    /// `tokens.len() * dim` weights, row-major, decoded from f16.
    matrix: Vec<f32>,
    unk: u32,
    /// Ids never averaged: `[UNK]`, `[CLS]`, `[SEP]` (the last two when present).
    skip: [u32; 3],
    /// Longest vocabulary entry in chars (without `##`): bounds the WordPiece search.
    max_piece_chars: usize,
}

impl std::fmt::Debug for BuiltinEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinEmbedder")
            .field("id", &self.id)
            .field("dim", &self.dim)
            .field("vocab", &self.tokens.len())
            .finish()
    }
}

impl BuiltinEmbedder {
    /// The model compiled into the binary (`models/builtin-minilm-256.bin`).
    pub fn load_default() -> Result<Self> {
        Self::from_bytes(DEFAULT_MODEL).context("loading the builtin embedding model")
    }

    /// Parse a model file in the `RBEMB001` format (see the module docs).
    /// Truncated or corrupt input is an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader { bytes, pos: 0 };
        let magic = r.take(8, "magic")?;
        ensure!(
            magic == MAGIC,
            "not a builtin embedding model: magic is {:?}, expected \"RBEMB001\"",
            String::from_utf8_lossy(magic)
        );
        let vocab_size = r.u32("vocab size")? as usize;
        let dim = r.u32("dimension")? as usize;
        ensure!(vocab_size > 0, "corrupt model: vocab size is 0");
        ensure!(
            (1..=65_536).contains(&dim),
            "corrupt model: dimension {dim} out of range"
        );
        // Each vocab entry takes at least 2 bytes: reject absurd sizes before allocating.
        ensure!(
            vocab_size <= bytes.len() / 2,
            "corrupt model: vocab size {vocab_size} exceeds what a {}-byte file can hold",
            bytes.len()
        );

        let mut tokens = Vec::with_capacity(vocab_size);
        let mut vocab = HashMap::with_capacity_and_hasher(vocab_size, FxBuild::default());
        let mut max_piece_chars = 1;
        for i in 0..vocab_size {
            let what = || format!("vocab entry {i} of {vocab_size}");
            let len = r.u16(&what())? as usize;
            let raw = r.take(len, &what())?;
            let s = std::str::from_utf8(raw)
                .map_err(|e| anyhow::anyhow!("corrupt model: {} is not UTF-8: {e}", what()))?;
            ensure!(!s.is_empty(), "corrupt model: {} is empty", what());
            let piece = s.strip_prefix(CONTINUATION).unwrap_or(s);
            max_piece_chars = max_piece_chars.max(piece.chars().count());
            let s: Box<str> = s.into();
            if vocab.insert(s.clone(), i as u32).is_some() {
                bail!("corrupt model: token {s:?} appears twice in the vocab");
            }
            tokens.push(s);
        }

        let n = vocab_size
            .checked_mul(dim)
            .context("corrupt model: vocab size * dimension overflows")?;
        let need = n
            .checked_mul(2)
            .context("corrupt model: matrix size overflows")?;
        let raw = r.take(need, "weight matrix")?;
        ensure!(
            r.pos == bytes.len(),
            "corrupt model: {} unexpected trailing bytes after the weight matrix",
            bytes.len() - r.pos
        );
        let mut matrix = Vec::with_capacity(n);
        for (k, h) in raw.chunks_exact(2).enumerate() {
            let v = f16_to_f32(u16::from_le_bytes([h[0], h[1]]));
            ensure!(
                v.is_finite(),
                "corrupt model: non-finite weight at row {} column {}",
                k / dim,
                k % dim
            );
            matrix.push(v);
        }

        let unk = *vocab
            .get(UNK)
            .context("corrupt model: vocab has no [UNK] token")?;
        let skip = [
            unk,
            vocab.get(CLS).copied().unwrap_or(unk),
            vocab.get(SEP).copied().unwrap_or(unk),
        ];
        Ok(Self {
            id: format!("builtin-minilm-static-v1-{dim}"),
            dim,
            vocab,
            tokens,
            matrix,
            unk,
            skip,
            max_piece_chars,
        })
    }

    /// Vocabulary size.
    pub fn vocab_size(&self) -> usize {
        self.tokens.len()
    }

    /// The token string for `id`, if it is in the vocabulary.
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(|s| &**s)
    }

    /// BERT-uncased token ids of `text`, without `[CLS]`/`[SEP]`.
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        self.for_each_token(text, |id| out.push(id));
        out
    }

    /// Embed one text: normalise(mean of its token rows); zeros if it has no
    /// known token.
    pub fn embed_one(&self, text: &str) -> Vec<f32> {
        let mut sum = vec![0.0f32; self.dim];
        let mut count = 0usize;
        self.for_each_token(text, |id| {
            if self.skip.contains(&id) {
                return;
            }
            let start = id as usize * self.dim;
            let row = &self.matrix[start..start + self.dim];
            for (s, w) in sum.iter_mut().zip(row) {
                *s += w;
            }
            count += 1;
        });
        if count > 0 {
            // Scaling by 1/count does not change the direction: normalising the
            // sum gives the normalised mean.
            normalize(&mut sum);
        }
        sum
    }

    /// Run the BasicTokenizer + WordPiece over `text`, calling `f` per token id.
    fn for_each_token(&self, text: &str, mut f: impl FnMut(u32)) {
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

impl Embedder for BuiltinEmbedder {
    fn id(&self) -> &str {
        &self.id
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        Ok(texts.iter().map(|t| self.embed_one(t)).collect())
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

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            bail!(
                "truncated model: {what} needs {n} bytes at offset {}, file has {}",
                self.pos,
                self.bytes.len()
            );
        };
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn u16(&mut self, what: &str) -> Result<u16> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// IEEE-754 binary16 -> binary32 (exact).
fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h as u32) & 0x8000) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    let bits = match exp {
        0 if mant == 0 => sign,
        0 => {
            // Subnormal: mant * 2^-24.
            let v = mant as f32 * (1.0 / 16_777_216.0);
            return if sign != 0 { -v } else { v };
        }
        0x1f => sign | 0x7f80_0000 | (mant << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (mant << 13),
    };
    f32::from_bits(bits)
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

// Tables generated with Python 3.11 `unicodedata` (Unicode 14.0.0):
// contiguous runs of code points whose general category matches.

/// General category P* (Unicode 14.0.0).
const PUNCTUATION: &[(u32, u32)] = &[
    (0x21, 0x23),
    (0x25, 0x2A),
    (0x2C, 0x2F),
    (0x3A, 0x3B),
    (0x3F, 0x40),
    (0x5B, 0x5D),
    (0x5F, 0x5F),
    (0x7B, 0x7B),
    (0x7D, 0x7D),
    (0xA1, 0xA1),
    (0xA7, 0xA7),
    (0xAB, 0xAB),
    (0xB6, 0xB7),
    (0xBB, 0xBB),
    (0xBF, 0xBF),
    (0x37E, 0x37E),
    (0x387, 0x387),
    (0x55A, 0x55F),
    (0x589, 0x58A),
    (0x5BE, 0x5BE),
    (0x5C0, 0x5C0),
    (0x5C3, 0x5C3),
    (0x5C6, 0x5C6),
    (0x5F3, 0x5F4),
    (0x609, 0x60A),
    (0x60C, 0x60D),
    (0x61B, 0x61B),
    (0x61D, 0x61F),
    (0x66A, 0x66D),
    (0x6D4, 0x6D4),
    (0x700, 0x70D),
    (0x7F7, 0x7F9),
    (0x830, 0x83E),
    (0x85E, 0x85E),
    (0x964, 0x965),
    (0x970, 0x970),
    (0x9FD, 0x9FD),
    (0xA76, 0xA76),
    (0xAF0, 0xAF0),
    (0xC77, 0xC77),
    (0xC84, 0xC84),
    (0xDF4, 0xDF4),
    (0xE4F, 0xE4F),
    (0xE5A, 0xE5B),
    (0xF04, 0xF12),
    (0xF14, 0xF14),
    (0xF3A, 0xF3D),
    (0xF85, 0xF85),
    (0xFD0, 0xFD4),
    (0xFD9, 0xFDA),
    (0x104A, 0x104F),
    (0x10FB, 0x10FB),
    (0x1360, 0x1368),
    (0x1400, 0x1400),
    (0x166E, 0x166E),
    (0x169B, 0x169C),
    (0x16EB, 0x16ED),
    (0x1735, 0x1736),
    (0x17D4, 0x17D6),
    (0x17D8, 0x17DA),
    (0x1800, 0x180A),
    (0x1944, 0x1945),
    (0x1A1E, 0x1A1F),
    (0x1AA0, 0x1AA6),
    (0x1AA8, 0x1AAD),
    (0x1B5A, 0x1B60),
    (0x1B7D, 0x1B7E),
    (0x1BFC, 0x1BFF),
    (0x1C3B, 0x1C3F),
    (0x1C7E, 0x1C7F),
    (0x1CC0, 0x1CC7),
    (0x1CD3, 0x1CD3),
    (0x2010, 0x2027),
    (0x2030, 0x2043),
    (0x2045, 0x2051),
    (0x2053, 0x205E),
    (0x207D, 0x207E),
    (0x208D, 0x208E),
    (0x2308, 0x230B),
    (0x2329, 0x232A),
    (0x2768, 0x2775),
    (0x27C5, 0x27C6),
    (0x27E6, 0x27EF),
    (0x2983, 0x2998),
    (0x29D8, 0x29DB),
    (0x29FC, 0x29FD),
    (0x2CF9, 0x2CFC),
    (0x2CFE, 0x2CFF),
    (0x2D70, 0x2D70),
    (0x2E00, 0x2E2E),
    (0x2E30, 0x2E4F),
    (0x2E52, 0x2E5D),
    (0x3001, 0x3003),
    (0x3008, 0x3011),
    (0x3014, 0x301F),
    (0x3030, 0x3030),
    (0x303D, 0x303D),
    (0x30A0, 0x30A0),
    (0x30FB, 0x30FB),
    (0xA4FE, 0xA4FF),
    (0xA60D, 0xA60F),
    (0xA673, 0xA673),
    (0xA67E, 0xA67E),
    (0xA6F2, 0xA6F7),
    (0xA874, 0xA877),
    (0xA8CE, 0xA8CF),
    (0xA8F8, 0xA8FA),
    (0xA8FC, 0xA8FC),
    (0xA92E, 0xA92F),
    (0xA95F, 0xA95F),
    (0xA9C1, 0xA9CD),
    (0xA9DE, 0xA9DF),
    (0xAA5C, 0xAA5F),
    (0xAADE, 0xAADF),
    (0xAAF0, 0xAAF1),
    (0xABEB, 0xABEB),
    (0xFD3E, 0xFD3F),
    (0xFE10, 0xFE19),
    (0xFE30, 0xFE52),
    (0xFE54, 0xFE61),
    (0xFE63, 0xFE63),
    (0xFE68, 0xFE68),
    (0xFE6A, 0xFE6B),
    (0xFF01, 0xFF03),
    (0xFF05, 0xFF0A),
    (0xFF0C, 0xFF0F),
    (0xFF1A, 0xFF1B),
    (0xFF1F, 0xFF20),
    (0xFF3B, 0xFF3D),
    (0xFF3F, 0xFF3F),
    (0xFF5B, 0xFF5B),
    (0xFF5D, 0xFF5D),
    (0xFF5F, 0xFF65),
    (0x10100, 0x10102),
    (0x1039F, 0x1039F),
    (0x103D0, 0x103D0),
    (0x1056F, 0x1056F),
    (0x10857, 0x10857),
    (0x1091F, 0x1091F),
    (0x1093F, 0x1093F),
    (0x10A50, 0x10A58),
    (0x10A7F, 0x10A7F),
    (0x10AF0, 0x10AF6),
    (0x10B39, 0x10B3F),
    (0x10B99, 0x10B9C),
    (0x10EAD, 0x10EAD),
    (0x10F55, 0x10F59),
    (0x10F86, 0x10F89),
    (0x11047, 0x1104D),
    (0x110BB, 0x110BC),
    (0x110BE, 0x110C1),
    (0x11140, 0x11143),
    (0x11174, 0x11175),
    (0x111C5, 0x111C8),
    (0x111CD, 0x111CD),
    (0x111DB, 0x111DB),
    (0x111DD, 0x111DF),
    (0x11238, 0x1123D),
    (0x112A9, 0x112A9),
    (0x1144B, 0x1144F),
    (0x1145A, 0x1145B),
    (0x1145D, 0x1145D),
    (0x114C6, 0x114C6),
    (0x115C1, 0x115D7),
    (0x11641, 0x11643),
    (0x11660, 0x1166C),
    (0x116B9, 0x116B9),
    (0x1173C, 0x1173E),
    (0x1183B, 0x1183B),
    (0x11944, 0x11946),
    (0x119E2, 0x119E2),
    (0x11A3F, 0x11A46),
    (0x11A9A, 0x11A9C),
    (0x11A9E, 0x11AA2),
    (0x11C41, 0x11C45),
    (0x11C70, 0x11C71),
    (0x11EF7, 0x11EF8),
    (0x11FFF, 0x11FFF),
    (0x12470, 0x12474),
    (0x12FF1, 0x12FF2),
    (0x16A6E, 0x16A6F),
    (0x16AF5, 0x16AF5),
    (0x16B37, 0x16B3B),
    (0x16B44, 0x16B44),
    (0x16E97, 0x16E9A),
    (0x16FE2, 0x16FE2),
    (0x1BC9F, 0x1BC9F),
    (0x1DA87, 0x1DA8B),
    (0x1E95E, 0x1E95F),
];

/// General categories Cf, Cs, Co (Unicode 14.0.0); Cc is `char::is_control`.
const OTHER_CONTROL: &[(u32, u32)] = &[
    (0xAD, 0xAD),
    (0x600, 0x605),
    (0x61C, 0x61C),
    (0x6DD, 0x6DD),
    (0x70F, 0x70F),
    (0x890, 0x891),
    (0x8E2, 0x8E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xD800, 0xF8FF),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x13438),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
    (0xF0000, 0xFFFFD),
    (0x100000, 0x10FFFD),
];

/// General category Mn (Unicode 14.0.0).
const NONSPACING_MARK: &[(u32, u32)] = &[
    (0x300, 0x36F),
    (0x483, 0x487),
    (0x591, 0x5BD),
    (0x5BF, 0x5BF),
    (0x5C1, 0x5C2),
    (0x5C4, 0x5C5),
    (0x5C7, 0x5C7),
    (0x610, 0x61A),
    (0x64B, 0x65F),
    (0x670, 0x670),
    (0x6D6, 0x6DC),
    (0x6DF, 0x6E4),
    (0x6E7, 0x6E8),
    (0x6EA, 0x6ED),
    (0x711, 0x711),
    (0x730, 0x74A),
    (0x7A6, 0x7B0),
    (0x7EB, 0x7F3),
    (0x7FD, 0x7FD),
    (0x816, 0x819),
    (0x81B, 0x823),
    (0x825, 0x827),
    (0x829, 0x82D),
    (0x859, 0x85B),
    (0x898, 0x89F),
    (0x8CA, 0x8E1),
    (0x8E3, 0x902),
    (0x93A, 0x93A),
    (0x93C, 0x93C),
    (0x941, 0x948),
    (0x94D, 0x94D),
    (0x951, 0x957),
    (0x962, 0x963),
    (0x981, 0x981),
    (0x9BC, 0x9BC),
    (0x9C1, 0x9C4),
    (0x9CD, 0x9CD),
    (0x9E2, 0x9E3),
    (0x9FE, 0x9FE),
    (0xA01, 0xA02),
    (0xA3C, 0xA3C),
    (0xA41, 0xA42),
    (0xA47, 0xA48),
    (0xA4B, 0xA4D),
    (0xA51, 0xA51),
    (0xA70, 0xA71),
    (0xA75, 0xA75),
    (0xA81, 0xA82),
    (0xABC, 0xABC),
    (0xAC1, 0xAC5),
    (0xAC7, 0xAC8),
    (0xACD, 0xACD),
    (0xAE2, 0xAE3),
    (0xAFA, 0xAFF),
    (0xB01, 0xB01),
    (0xB3C, 0xB3C),
    (0xB3F, 0xB3F),
    (0xB41, 0xB44),
    (0xB4D, 0xB4D),
    (0xB55, 0xB56),
    (0xB62, 0xB63),
    (0xB82, 0xB82),
    (0xBC0, 0xBC0),
    (0xBCD, 0xBCD),
    (0xC00, 0xC00),
    (0xC04, 0xC04),
    (0xC3C, 0xC3C),
    (0xC3E, 0xC40),
    (0xC46, 0xC48),
    (0xC4A, 0xC4D),
    (0xC55, 0xC56),
    (0xC62, 0xC63),
    (0xC81, 0xC81),
    (0xCBC, 0xCBC),
    (0xCBF, 0xCBF),
    (0xCC6, 0xCC6),
    (0xCCC, 0xCCD),
    (0xCE2, 0xCE3),
    (0xD00, 0xD01),
    (0xD3B, 0xD3C),
    (0xD41, 0xD44),
    (0xD4D, 0xD4D),
    (0xD62, 0xD63),
    (0xD81, 0xD81),
    (0xDCA, 0xDCA),
    (0xDD2, 0xDD4),
    (0xDD6, 0xDD6),
    (0xE31, 0xE31),
    (0xE34, 0xE3A),
    (0xE47, 0xE4E),
    (0xEB1, 0xEB1),
    (0xEB4, 0xEBC),
    (0xEC8, 0xECD),
    (0xF18, 0xF19),
    (0xF35, 0xF35),
    (0xF37, 0xF37),
    (0xF39, 0xF39),
    (0xF71, 0xF7E),
    (0xF80, 0xF84),
    (0xF86, 0xF87),
    (0xF8D, 0xF97),
    (0xF99, 0xFBC),
    (0xFC6, 0xFC6),
    (0x102D, 0x1030),
    (0x1032, 0x1037),
    (0x1039, 0x103A),
    (0x103D, 0x103E),
    (0x1058, 0x1059),
    (0x105E, 0x1060),
    (0x1071, 0x1074),
    (0x1082, 0x1082),
    (0x1085, 0x1086),
    (0x108D, 0x108D),
    (0x109D, 0x109D),
    (0x135D, 0x135F),
    (0x1712, 0x1714),
    (0x1732, 0x1733),
    (0x1752, 0x1753),
    (0x1772, 0x1773),
    (0x17B4, 0x17B5),
    (0x17B7, 0x17BD),
    (0x17C6, 0x17C6),
    (0x17C9, 0x17D3),
    (0x17DD, 0x17DD),
    (0x180B, 0x180D),
    (0x180F, 0x180F),
    (0x1885, 0x1886),
    (0x18A9, 0x18A9),
    (0x1920, 0x1922),
    (0x1927, 0x1928),
    (0x1932, 0x1932),
    (0x1939, 0x193B),
    (0x1A17, 0x1A18),
    (0x1A1B, 0x1A1B),
    (0x1A56, 0x1A56),
    (0x1A58, 0x1A5E),
    (0x1A60, 0x1A60),
    (0x1A62, 0x1A62),
    (0x1A65, 0x1A6C),
    (0x1A73, 0x1A7C),
    (0x1A7F, 0x1A7F),
    (0x1AB0, 0x1ABD),
    (0x1ABF, 0x1ACE),
    (0x1B00, 0x1B03),
    (0x1B34, 0x1B34),
    (0x1B36, 0x1B3A),
    (0x1B3C, 0x1B3C),
    (0x1B42, 0x1B42),
    (0x1B6B, 0x1B73),
    (0x1B80, 0x1B81),
    (0x1BA2, 0x1BA5),
    (0x1BA8, 0x1BA9),
    (0x1BAB, 0x1BAD),
    (0x1BE6, 0x1BE6),
    (0x1BE8, 0x1BE9),
    (0x1BED, 0x1BED),
    (0x1BEF, 0x1BF1),
    (0x1C2C, 0x1C33),
    (0x1C36, 0x1C37),
    (0x1CD0, 0x1CD2),
    (0x1CD4, 0x1CE0),
    (0x1CE2, 0x1CE8),
    (0x1CED, 0x1CED),
    (0x1CF4, 0x1CF4),
    (0x1CF8, 0x1CF9),
    (0x1DC0, 0x1DFF),
    (0x20D0, 0x20DC),
    (0x20E1, 0x20E1),
    (0x20E5, 0x20F0),
    (0x2CEF, 0x2CF1),
    (0x2D7F, 0x2D7F),
    (0x2DE0, 0x2DFF),
    (0x302A, 0x302D),
    (0x3099, 0x309A),
    (0xA66F, 0xA66F),
    (0xA674, 0xA67D),
    (0xA69E, 0xA69F),
    (0xA6F0, 0xA6F1),
    (0xA802, 0xA802),
    (0xA806, 0xA806),
    (0xA80B, 0xA80B),
    (0xA825, 0xA826),
    (0xA82C, 0xA82C),
    (0xA8C4, 0xA8C5),
    (0xA8E0, 0xA8F1),
    (0xA8FF, 0xA8FF),
    (0xA926, 0xA92D),
    (0xA947, 0xA951),
    (0xA980, 0xA982),
    (0xA9B3, 0xA9B3),
    (0xA9B6, 0xA9B9),
    (0xA9BC, 0xA9BD),
    (0xA9E5, 0xA9E5),
    (0xAA29, 0xAA2E),
    (0xAA31, 0xAA32),
    (0xAA35, 0xAA36),
    (0xAA43, 0xAA43),
    (0xAA4C, 0xAA4C),
    (0xAA7C, 0xAA7C),
    (0xAAB0, 0xAAB0),
    (0xAAB2, 0xAAB4),
    (0xAAB7, 0xAAB8),
    (0xAABE, 0xAABF),
    (0xAAC1, 0xAAC1),
    (0xAAEC, 0xAAED),
    (0xAAF6, 0xAAF6),
    (0xABE5, 0xABE5),
    (0xABE8, 0xABE8),
    (0xABED, 0xABED),
    (0xFB1E, 0xFB1E),
    (0xFE00, 0xFE0F),
    (0xFE20, 0xFE2F),
    (0x101FD, 0x101FD),
    (0x102E0, 0x102E0),
    (0x10376, 0x1037A),
    (0x10A01, 0x10A03),
    (0x10A05, 0x10A06),
    (0x10A0C, 0x10A0F),
    (0x10A38, 0x10A3A),
    (0x10A3F, 0x10A3F),
    (0x10AE5, 0x10AE6),
    (0x10D24, 0x10D27),
    (0x10EAB, 0x10EAC),
    (0x10F46, 0x10F50),
    (0x10F82, 0x10F85),
    (0x11001, 0x11001),
    (0x11038, 0x11046),
    (0x11070, 0x11070),
    (0x11073, 0x11074),
    (0x1107F, 0x11081),
    (0x110B3, 0x110B6),
    (0x110B9, 0x110BA),
    (0x110C2, 0x110C2),
    (0x11100, 0x11102),
    (0x11127, 0x1112B),
    (0x1112D, 0x11134),
    (0x11173, 0x11173),
    (0x11180, 0x11181),
    (0x111B6, 0x111BE),
    (0x111C9, 0x111CC),
    (0x111CF, 0x111CF),
    (0x1122F, 0x11231),
    (0x11234, 0x11234),
    (0x11236, 0x11237),
    (0x1123E, 0x1123E),
    (0x112DF, 0x112DF),
    (0x112E3, 0x112EA),
    (0x11300, 0x11301),
    (0x1133B, 0x1133C),
    (0x11340, 0x11340),
    (0x11366, 0x1136C),
    (0x11370, 0x11374),
    (0x11438, 0x1143F),
    (0x11442, 0x11444),
    (0x11446, 0x11446),
    (0x1145E, 0x1145E),
    (0x114B3, 0x114B8),
    (0x114BA, 0x114BA),
    (0x114BF, 0x114C0),
    (0x114C2, 0x114C3),
    (0x115B2, 0x115B5),
    (0x115BC, 0x115BD),
    (0x115BF, 0x115C0),
    (0x115DC, 0x115DD),
    (0x11633, 0x1163A),
    (0x1163D, 0x1163D),
    (0x1163F, 0x11640),
    (0x116AB, 0x116AB),
    (0x116AD, 0x116AD),
    (0x116B0, 0x116B5),
    (0x116B7, 0x116B7),
    (0x1171D, 0x1171F),
    (0x11722, 0x11725),
    (0x11727, 0x1172B),
    (0x1182F, 0x11837),
    (0x11839, 0x1183A),
    (0x1193B, 0x1193C),
    (0x1193E, 0x1193E),
    (0x11943, 0x11943),
    (0x119D4, 0x119D7),
    (0x119DA, 0x119DB),
    (0x119E0, 0x119E0),
    (0x11A01, 0x11A0A),
    (0x11A33, 0x11A38),
    (0x11A3B, 0x11A3E),
    (0x11A47, 0x11A47),
    (0x11A51, 0x11A56),
    (0x11A59, 0x11A5B),
    (0x11A8A, 0x11A96),
    (0x11A98, 0x11A99),
    (0x11C30, 0x11C36),
    (0x11C38, 0x11C3D),
    (0x11C3F, 0x11C3F),
    (0x11C92, 0x11CA7),
    (0x11CAA, 0x11CB0),
    (0x11CB2, 0x11CB3),
    (0x11CB5, 0x11CB6),
    (0x11D31, 0x11D36),
    (0x11D3A, 0x11D3A),
    (0x11D3C, 0x11D3D),
    (0x11D3F, 0x11D45),
    (0x11D47, 0x11D47),
    (0x11D90, 0x11D91),
    (0x11D95, 0x11D95),
    (0x11D97, 0x11D97),
    (0x11EF3, 0x11EF4),
    (0x16AF0, 0x16AF4),
    (0x16B30, 0x16B36),
    (0x16F4F, 0x16F4F),
    (0x16F8F, 0x16F92),
    (0x16FE4, 0x16FE4),
    (0x1BC9D, 0x1BC9E),
    (0x1CF00, 0x1CF2D),
    (0x1CF30, 0x1CF46),
    (0x1D167, 0x1D169),
    (0x1D17B, 0x1D182),
    (0x1D185, 0x1D18B),
    (0x1D1AA, 0x1D1AD),
    (0x1D242, 0x1D244),
    (0x1DA00, 0x1DA36),
    (0x1DA3B, 0x1DA6C),
    (0x1DA75, 0x1DA75),
    (0x1DA84, 0x1DA84),
    (0x1DA9B, 0x1DA9F),
    (0x1DAA1, 0x1DAAF),
    (0x1E000, 0x1E006),
    (0x1E008, 0x1E018),
    (0x1E01B, 0x1E021),
    (0x1E023, 0x1E024),
    (0x1E026, 0x1E02A),
    (0x1E130, 0x1E136),
    (0x1E2AE, 0x1E2AE),
    (0x1E2EC, 0x1E2EF),
    (0x1E8D0, 0x1E8D6),
    (0x1E944, 0x1E94A),
    (0xE0100, 0xE01EF),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::dot;

    fn model() -> BuiltinEmbedder {
        BuiltinEmbedder::load_default().expect("builtin model loads")
    }

    /// A model file in the RBEMB001 format, for the corruption tests.
    fn encode(tokens: &[&str], dim: usize, weights: &[u16]) -> Vec<u8> {
        let mut b = MAGIC.to_vec();
        b.extend((tokens.len() as u32).to_le_bytes());
        b.extend((dim as u32).to_le_bytes());
        for t in tokens {
            b.extend((t.len() as u16).to_le_bytes());
            b.extend(t.as_bytes());
        }
        for w in weights {
            b.extend(w.to_le_bytes());
        }
        b
    }

    #[test]
    fn loads_with_expected_id_and_dim() {
        let m = model();
        assert_eq!(m.id(), "builtin-minilm-static-v1-256");
        assert_eq!(m.dim(), 256);
        assert_eq!(m.vocab_size(), 30522);
        assert_eq!(m.token(1996), Some("the"));
    }

    #[test]
    fn vectors_are_unit_or_zero() {
        let m = model();
        let texts = [
            "The Fresnel lens focused the lamp's light.",
            "a",
            "...",
            "海", // a CJK ideograph in the vocab (灯塔 is not: [UNK] [UNK])
            "灯塔",
            "",
            "   \n\t ",
            "\u{1F30A}\u{1F6A2}", // emoji only: [UNK] only
        ];
        let v = m.embed(&texts).unwrap();
        assert_eq!(v.len(), texts.len());
        for (t, e) in texts.iter().zip(&v) {
            assert_eq!(e.len(), 256);
            let n = dot(e, e).sqrt();
            let empty = t.trim().is_empty() || t.starts_with('\u{1F30A}') || *t == "灯塔";
            if empty {
                assert_eq!(n, 0.0, "{t:?} should embed to zeros");
            } else {
                assert!((n - 1.0).abs() < 1e-5, "{t:?}: norm {n}");
            }
        }
        // Deterministic.
        assert_eq!(m.embed(&[texts[0]]).unwrap()[0], v[0]);
    }

    #[test]
    fn tokenizer_matches_hf_tokenizers_fixture() {
        let fixture: serde_json::Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/wordpiece.json"
        )))
        .unwrap();
        let m = model();
        let cases = fixture["cases"].as_array().unwrap();
        assert!(cases.len() >= 15);
        for case in cases {
            let text = case["text"].as_str().unwrap();
            let want: Vec<&str> = case["tokens"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            let want_ids: Vec<u32> = case["ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_u64().unwrap() as u32)
                .collect();
            let ids = m.tokenize(text);
            let got: Vec<&str> = ids.iter().map(|&i| m.token(i).unwrap()).collect();
            assert_eq!(got, want, "tokens of {text:?}");
            assert_eq!(ids, want_ids, "ids of {text:?}");
        }
    }

    #[test]
    fn wordpiece_edge_cases() {
        let m = model();
        let toks = |t: &str| -> Vec<String> {
            m.tokenize(t)
                .iter()
                .map(|&i| m.token(i).unwrap().to_string())
                .collect()
        };
        assert_eq!(toks("shipwreck"), ["ship", "##wr", "##eck"]);
        // 100 chars is still WordPiece'd, 101 is [UNK].
        assert!(!toks(&"a".repeat(100)).contains(&"[UNK]".to_string()));
        assert_eq!(toks(&"a".repeat(101)), ["[UNK]"]);
        assert_eq!(toks("ÉCOLE"), ["ecole"]);
        assert_eq!(toks("a\u{0}b\u{fffd}c"), toks("abc"));
    }

    #[test]
    fn semantic_sanity() {
        let m = model();
        let v = m
            .embed(&[
                "the keeper rowed out to rescue the survivors of the shipwreck",
                "a lighthouse attendant saved people from a wrecked ship",
                "the price of wheat rose sharply in the spring market",
            ])
            .unwrap();
        let related = dot(&v[0], &v[1]);
        let unrelated = dot(&v[0], &v[2]);
        assert!(
            related > unrelated,
            "related {related} <= unrelated {unrelated}"
        );
    }

    #[test]
    fn corrupt_or_truncated_files_are_errors() {
        let good = encode(
            &["[UNK]", "a", "##b"],
            2,
            &[0, 0, 0x3c00, 0xbc00, 0x3800, 0x0001],
        );
        let m = BuiltinEmbedder::from_bytes(&good).unwrap();
        assert_eq!(m.dim(), 2);
        assert_eq!(m.tokenize("ab"), vec![1, 2]);
        // Every truncation fails cleanly.
        for n in 0..good.len() {
            assert!(
                BuiltinEmbedder::from_bytes(&good[..n]).is_err(),
                "prefix {n}"
            );
        }
        let err = |b: &[u8]| BuiltinEmbedder::from_bytes(b).unwrap_err().to_string();
        let mut trailing = good.clone();
        trailing.push(0);
        assert!(err(&trailing).contains("trailing"));
        let mut magic = good.clone();
        magic[0] = b'X';
        assert!(err(&magic).contains("magic"));
        assert!(err(&encode(&["a", "b"], 1, &[0, 0])).contains("[UNK]"));
        assert!(err(&encode(&["[UNK]", "a", "a"], 1, &[0, 0, 0])).contains("twice"));
        assert!(err(&encode(&["[UNK]"], 1, &[0x7c00])).contains("non-finite"));
        assert!(err(&encode(&["[UNK]"], 0, &[])).contains("dimension"));
        let mut utf8 = encode(&["[UNK]", "ab"], 1, &[0, 0]);
        let at = utf8.len() - 4 - 2;
        utf8[at] = 0xff;
        assert!(err(&utf8).contains("UTF-8"));
        // Huge declared sizes do not allocate or panic.
        let mut huge = MAGIC.to_vec();
        huge.extend(u32::MAX.to_le_bytes());
        huge.extend(u32::MAX.to_le_bytes());
        assert!(BuiltinEmbedder::from_bytes(&huge).is_err());
        // The real file, cut short, also fails cleanly.
        for n in [0, 7, 12, 16, 1000, 200_000, DEFAULT_MODEL.len() - 1] {
            assert!(
                BuiltinEmbedder::from_bytes(&DEFAULT_MODEL[..n]).is_err(),
                "real prefix {n}"
            );
        }
    }

    #[test]
    fn f16_decoding() {
        assert_eq!(f16_to_f32(0x0000), 0.0);
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x3555), 0.333_251_95);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0x0001), 5.960_464_5e-8);
        assert_eq!(f16_to_f32(0x8400), -6.103_515_6e-5);
        assert!(f16_to_f32(0x7c00).is_infinite());
        assert!(f16_to_f32(0x7e00).is_nan());
    }

    /// Throughput: `cargo test --release --lib embed::builtin -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn throughput() {
        let m = model();
        let words: Vec<&str> = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/wordpiece.json"))
            .split_whitespace()
            .chain("The keeper trimmed the wicks, polished the Fresnel lens and wound the clockwork that turned the optic; in fog he sounded the signal every thirty seconds until dawn.".split(' '))
            .collect();
        // ~1,000-char chunks of pseudo-random word sequences (fixed LCG seed).
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let chunks: Vec<String> = (0..2000)
            .map(|_| {
                let mut s = String::new();
                while s.len() < 1000 {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    s.push_str(words[(seed >> 33) as usize % words.len()]);
                    s.push(' ');
                }
                s
            })
            .collect();
        let refs: Vec<&str> = chunks.iter().map(String::as_str).collect();
        m.embed(&refs[..100]).unwrap();
        let t = std::time::Instant::now();
        let v = m.embed(&refs).unwrap();
        let secs = t.elapsed().as_secs_f64();
        let chars: usize = chunks.iter().map(|c| c.chars().count()).sum();
        println!(
            "{} chunks ({} chars avg) in {secs:.3}s: {:.0} chunks/s, {:.1} MB/s (one thread)",
            v.len(),
            chars / chunks.len(),
            v.len() as f64 / secs,
            chunks.iter().map(|c| c.len()).sum::<usize>() as f64 / secs / 1e6
        );
    }
}
