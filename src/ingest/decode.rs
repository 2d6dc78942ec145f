//! Decoding text files as browsers and editors read them.
//!
//! In order: a byte-order mark (UTF-8, UTF-16LE, UTF-16BE); valid UTF-8;
//! the charset the file declares (HTML `<meta charset>` or `http-equiv`, an
//! XML declaration), when the bytes decode under it without error; else a
//! guess by `chardetng`, the detector Firefox uses, decoded by
//! `encoding_rs`. Valid UTF-8 is preferred to a declared legacy charset
//! because a file that decodes as UTF-8 was almost certainly written so (a
//! "mislabelled" page). No text file is refused for its encoding; a file
//! with NUL bytes and no UTF-16 mark is binary.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};
use std::borrow::Cow;

/// How a file's bytes were read.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Decoding {
    /// The encoding's WHATWG name ("UTF-8", "windows-1252", "UTF-16LE").
    pub encoding: String,
    /// How it was chosen: "bom", "utf-8", "declared" or "guessed".
    pub how: String,
}

impl Decoding {
    fn new(e: &'static Encoding, how: &str) -> Decoding {
        Decoding {
            encoding: e.name().to_string(),
            how: how.to_string(),
        }
    }

    /// Worth telling the user: the encoding was guessed.
    pub fn guessed(&self) -> bool {
        self.how == "guessed"
    }
}

/// The text of `bytes`, and how it was decoded.
pub fn decode(bytes: &[u8]) -> Result<(Cow<'_, str>, Decoding), String> {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let (text, _) = enc.decode_without_bom_handling(&bytes[bom_len..]);
        // A second mark after the first (a file saved twice with one) is
        // no more text than the first: "# Title" after it is a heading.
        let text = if text.starts_with('\u{FEFF}') {
            Cow::Owned(text.trim_start_matches('\u{FEFF}').to_string())
        } else {
            text
        };
        return Ok((text, Decoding::new(enc, "bom")));
    }
    if let Some(enc) = utf16_without_bom(bytes)
        && let Some(text) = enc.decode_without_bom_handling_and_without_replacement(bytes)
        && readable(&text)
    {
        return Ok((text, Decoding::new(enc, "guessed")));
    }
    if bytes.iter().take(8192).any(|b| *b == 0) {
        return Err("binary file (contains NUL bytes)".into());
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Ok((Cow::Borrowed(s), Decoding::new(UTF_8, "utf-8")));
    }
    if let Some(enc) = declared(bytes)
        && enc != UTF_8
        && enc != UTF_16LE
        && enc != UTF_16BE
        && let Some(text) = enc.decode_without_bom_handling_and_without_replacement(bytes)
    {
        return Ok((text, Decoding::new(enc, "declared")));
    }
    let mut det = chardetng::EncodingDetector::new();
    det.feed(bytes, true);
    let enc = western_unless_in_words(bytes, det.guess(None, true));
    let (text, _) = enc.decode_without_bom_handling(bytes);
    Ok((text, Decoding::new(enc, "guessed")))
}

/// `guess`, unless the text is Western after all: windows-1252. chardetng,
/// made for web pages with many accented letters, reads an English file's
/// "£12 a year" as windows-1250's "Ł12 a year", a letter where an editor
/// shows a pound sign. Where every byte on which the guess and
/// windows-1252 differ stands outside a word under both (no letter beside
/// it), nothing says the guess's letters are letters: windows-1252, the
/// encoding of Western text without a label. A guess whose letters sit
/// in words ("był", "Dvořák") stands.
fn western_unless_in_words(bytes: &[u8], guess: &'static Encoding) -> &'static Encoding {
    use encoding_rs::WINDOWS_1252;
    if guess == WINDOWS_1252 || !guess.is_single_byte() {
        return guess;
    }
    let high = |enc: &'static Encoding| -> Vec<char> {
        let upper: Vec<u8> = (0x80..=0xFF).collect();
        enc.decode_without_bom_handling(&upper).0.chars().collect()
    };
    let (theirs, western) = (high(guess), high(WINDOWS_1252));
    if theirs.len() != 128 || western.len() != 128 {
        return guess;
    }
    let in_word = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphabetic() || *b >= 0x80);
    let mut differ = false;
    for (i, &b) in bytes.iter().enumerate() {
        if b < 0x80 || theirs[usize::from(b - 0x80)] == western[usize::from(b - 0x80)] {
            continue;
        }
        if in_word(i.checked_sub(1).and_then(|j| bytes.get(j))) || in_word(bytes.get(i + 1)) {
            return guess;
        }
        differ = true;
    }
    if differ { WINDOWS_1252 } else { guess }
}

/// UTF-16 without a byte-order mark, as Windows tools write it: in text
/// of Latin script one byte of each pair is NUL (the odd ones in little-
/// endian), the other almost never.
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(8192) & !1];
    let pairs = head.len() / 2;
    if pairs < 2 || !bytes.len().is_multiple_of(2) {
        return None;
    }
    let zeros = |k: usize| head.iter().skip(k).step_by(2).filter(|b| **b == 0).count();
    let (even, odd) = (zeros(0), zeros(1));
    let most = |n: usize| n * 10 >= pairs * 6;
    let few = |n: usize| n * 50 <= pairs;
    if most(odd) && few(even) {
        Some(UTF_16LE)
    } else if most(even) && few(odd) {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// Text, not binary read as text: almost no control chars but whitespace.
fn readable(text: &str) -> bool {
    let n = text.chars().take(4096).count().max(1);
    let bad = text
        .chars()
        .take(4096)
        .filter(|c| c.is_control() && !c.is_whitespace())
        .count();
    bad * 100 <= n
}

/// The charset a document declares in its first 2 KB: `<meta charset=…>`,
/// `<meta http-equiv=… content="…; charset=…">` or `<?xml … encoding="…"?>`.
fn declared(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(2048)];
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    for key in [&b"charset="[..], &b"encoding="[..]] {
        let mut from = 0;
        while let Some(at) = find(&lower[from..], key) {
            let mut v = &head[from + at + key.len()..];
            from += at + key.len();
            while let Some((&c, rest)) = v.split_first() {
                if c == b'"' || c == b'\'' || c == b' ' {
                    v = rest;
                } else {
                    break;
                }
            }
            let end = v
                .iter()
                .position(|c| {
                    !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b':' | b'.'))
                })
                .unwrap_or(v.len());
            if let Some(e) = Encoding::for_label(&v[..end]) {
                return Some(e);
            }
        }
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(b: &[u8]) -> (String, String, String) {
        let (t, d) = decode(b).unwrap();
        (t.into_owned(), d.encoding, d.how)
    }

    #[test]
    fn utf8_with_and_without_bom() {
        assert_eq!(
            dec("café".as_bytes()),
            ("café".into(), "UTF-8".into(), "utf-8".into())
        );
        assert_eq!(
            dec(b"\xEF\xBB\xBFcaf\xC3\xA9"),
            ("café".into(), "UTF-8".into(), "bom".into())
        );
        assert_eq!(
            dec(b"\xEF\xBB\xBF\xEF\xBB\xBF# T"),
            ("# T".into(), "UTF-8".into(), "bom".into())
        );
    }

    #[test]
    fn utf16le_with_bom() {
        let mut b = vec![0xFF, 0xFE];
        for u in "Phare — café".encode_utf16() {
            b.extend(u.to_le_bytes());
        }
        assert_eq!(
            dec(&b),
            ("Phare — café".into(), "UTF-16LE".into(), "bom".into())
        );
    }

    #[test]
    fn latin1_html_with_meta_charset() {
        let b = b"<html><head><meta charset=\"ISO-8859-1\"><title>Sonate</title></head><body><p>Caf\xe9 \xe0 la cr\xe8me, d\xe9j\xe0 vu.</p></body></html>";
        let (t, enc, how) = dec(b);
        assert!(t.contains("Café à la crème, déjà vu."), "{t}");
        // The WHATWG maps the ISO-8859-1 label to windows-1252.
        assert_eq!((enc.as_str(), how.as_str()), ("windows-1252", "declared"));
        let b = b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"><p>na\xefve</p>";
        assert!(dec(b).0.contains("naïve"));
    }

    #[test]
    fn windows_1252_text_without_a_declaration_is_guessed() {
        let b = b"The keeper said \x93never again\x94 \x97 and he meant it. Caf\xe9 cr\xe8me, na\xefve r\xe9sum\xe9 of the \xe9t\xe9 season at the lighthouse.";
        let (t, enc, how) = dec(b);
        assert!(
            t.contains("\u{201C}never again\u{201D} \u{2014} and"),
            "{t}"
        );
        assert!(t.contains("Café crème"), "{t}");
        assert_eq!((enc.as_str(), how.as_str()), ("windows-1252", "guessed"));
    }

    /// An English file's pound signs and fractions are what an editor
    /// shows (windows-1252), not windows-1250's letters; a Polish or Czech
    /// file's letters, and a Russian one's, are still theirs.
    #[test]
    fn a_pound_sign_is_not_a_polish_letter() {
        let b = b"The keeper was paid \xa312 a year, and 5\xbc gallons of oil cost \xa33 more.";
        let (t, enc, _) = dec(b);
        assert!(
            t.contains("paid £12 a year, and 5¼ gallons") && t.contains("£3"),
            "{t}"
        );
        assert_eq!(enc, "windows-1252");
        let (text, enc) = (
            "Ten człowiek był latarnikiem przez dwadzieścia lat. Światło paliło się każdej nocy.",
            encoding_rs::WINDOWS_1250,
        );
        let (t, e, _) = dec(&enc.encode(text).0);
        assert_eq!((t.as_str(), e.as_str()), (text, "windows-1250"));
        let text = "Антонин Дворжак написал симфонию «Из Нового света» в Америке.";
        let (t, e, _) = dec(&encoding_rs::WINDOWS_1251.encode(text).0);
        assert_eq!((t.as_str(), e.as_str()), (text, "windows-1251"));
    }

    proptest::proptest! {
        /// English prose with pound signs, fractions and degrees where a
        /// Western editor saves them (windows-1252, no label) reads back
        /// as written, and Polish prose in windows-1250 as written.
        #[test]
        fn western_and_central_european_text_read_back_as_written(
            words in proptest::collection::vec((0usize..12, 0usize..8), 8..40),
            polish in proptest::bool::ANY,
        ) {
            const EN: [&str; 12] = ["the", "keeper", "was", "paid", "a", "year", "lamp", "oil", "cost", "Board", "light", "1811"];
            const SIGNS: [&str; 8] = ["", "", "", " £12", " 5¼", " ½", " 30°", " ¥7"];
            const PL: [&str; 12] = ["latarnik", "był", "światło", "każdej", "nocy", "się", "paliło", "człowiek", "wieża", "morze", "łódź", "żółty"];
            let mut text = String::new();
            for (w, s) in &words {
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(if polish { PL[*w] } else { EN[*w] });
                if !polish {
                    text.push_str(SIGNS[*s]);
                }
            }
            text.push('.');
            let enc = if polish { encoding_rs::WINDOWS_1250 } else { encoding_rs::WINDOWS_1252 };
            let bytes = enc.encode(&text).0;
            let (t, _, _) = dec(&bytes);
            if bytes.iter().any(|b| *b >= 0x80) {
                proptest::prop_assert_eq!(t, text);
            }
        }
    }

    #[test]
    fn a_mislabelled_file_is_read_by_its_bytes() {
        // Declares Latin-1 but is UTF-8: read as UTF-8 (no mojibake).
        let b = "<meta charset=\"iso-8859-1\"><p>déjà vu</p>".as_bytes();
        assert!(dec(b).0.contains("déjà vu"));
        // Declares UTF-8 but is Latin-1: the declaration fails, the guess reads it.
        let b = b"<meta charset=\"utf-8\"><p>The caf\xe9 was open; d\xe9j\xe0 vu for the cr\xe8me of Paris.</p>";
        let (t, _, how) = dec(b);
        assert!(t.contains("café") && t.contains("déjà"), "{t}");
        assert_eq!(how, "guessed");
    }

    #[test]
    fn utf16_without_a_mark_is_read() {
        let text = "The keeper's log, 1811: fog at dusk.\n";
        for (bytes, enc) in [
            (
                text.encode_utf16()
                    .flat_map(u16::to_le_bytes)
                    .collect::<Vec<u8>>(),
                "UTF-16LE",
            ),
            (
                text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
                "UTF-16BE",
            ),
        ] {
            let (t, e, how) = dec(&bytes);
            assert_eq!(
                (t.as_str(), how.as_str(), e.as_str()),
                (text, "guessed", enc)
            );
        }
    }

    #[test]
    fn nul_bytes_without_a_utf16_mark_are_binary() {
        assert!(decode(b"abc\0def").unwrap_err().starts_with("binary"));
        assert!(
            decode(&[1, 0, 2, 0, 3, 0, 4, 0])
                .unwrap_err()
                .starts_with("binary")
        );
    }
}
