//! A page pdf-extract cannot read (it panics on fonts encoded with one of
//! Adobe's predefined Unicode CMaps, such as `UniJIS-UCS2-H` in Japanese
//! patent PDFs) is read here from its content stream: with such a font the
//! string bytes are the text itself in UTF-16BE, no lookup table needed.
//! Strings in other fonts are kept only when they are printable ASCII
//! (a simple font's standard encoding); anything else is left out rather
//! than guessed. A new line starts where the text moves to a new line.

use lopdf::content::Content;
use lopdf::{Document, Object};
use std::collections::BTreeMap;

/// Whether a Type0 font's `/Encoding` is a predefined CMap whose codes are
/// UTF-16BE (`Uni…-UCS2-H`, `Uni…-UTF16-V`, …).
fn utf16_encoded(font: &lopdf::Dictionary) -> bool {
    let name = |k: &[u8]| {
        font.get(k)
            .and_then(Object::as_name)
            .ok()
            .map(<[u8]>::to_vec)
    };
    name(b"Subtype").as_deref() == Some(b"Type0".as_slice())
        && name(b"Encoding").is_some_and(|e| {
            let e = String::from_utf8_lossy(&e).into_owned();
            e.starts_with("Uni") && (e.contains("-UCS2-") || e.contains("-UTF16-"))
        })
}

fn utf16be(bytes: &[u8]) -> String {
    let units = bytes
        .chunks_exact(2)
        .map(|p| u16::from_be_bytes([p[0], p[1]]));
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .filter(|c| !c.is_control())
        .collect()
}

/// The text of page `n` (1-based), or `None` when it has none this reader
/// can decode.
pub fn page_text(doc: &Document, n: u32) -> Option<String> {
    let page = *doc.get_pages().get(&n)?;
    let fonts: BTreeMap<Vec<u8>, bool> = doc
        .get_page_fonts(page)
        .ok()?
        .into_iter()
        .map(|(name, font)| (name, utf16_encoded(font)))
        .collect();
    let content = Content::decode(&doc.get_page_content(page).ok()?).ok()?;
    let mut out = String::new();
    let mut utf16 = false;
    let show = |out: &mut String, s: &[u8], utf16: bool| {
        if utf16 {
            out.push_str(&utf16be(s));
        } else if s.iter().all(|b| (0x20..0x7f).contains(b)) {
            out.push_str(&String::from_utf8_lossy(s));
        }
    };
    let newline = |out: &mut String| {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
    };
    for op in &content.operations {
        let num = |i: usize| op.operands.get(i).and_then(|o| o.as_float().ok());
        match op.operator.as_str() {
            "Tf" => {
                let name = op.operands.first().and_then(|o| o.as_name().ok());
                utf16 = name.is_some_and(|n| fonts.get(n).copied().unwrap_or(false));
            }
            "Tj" | "'" | "\"" => {
                if op.operator != "Tj" {
                    newline(&mut out);
                }
                if let Some(Object::String(s, _)) = op.operands.last() {
                    show(&mut out, s, utf16);
                }
            }
            "TJ" => {
                for part in op
                    .operands
                    .first()
                    .and_then(|o| o.as_array().ok())
                    .into_iter()
                    .flatten()
                {
                    match part {
                        Object::String(s, _) => show(&mut out, s, utf16),
                        // A wide negative kern between words of a simple font.
                        _ if !utf16 && part.as_float().is_ok_and(|k| k < -200.0) => out.push(' '),
                        _ => {}
                    }
                }
            }
            "T*" => newline(&mut out),
            "Td" | "TD" if num(1).is_some_and(|dy| dy != 0.0) => newline(&mut out),
            "Tm" | "BT" => newline(&mut out),
            _ => {}
        }
    }
    let text = out.trim().to_string();
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::dictionary;

    /// A one-page PDF whose font /F1 is a Type0 font encoded with
    /// `UniJIS-UCS2-H` and whose stream shows `lines` (UTF-16BE strings).
    fn ucs2_pdf(lines: &[&str]) -> Document {
        let mut ops = b"BT /F1 12 Tf 72 700 Td ".to_vec();
        for (i, l) in lines.iter().enumerate() {
            if i > 0 {
                ops.extend_from_slice(b"0 -16 Td ");
            }
            ops.push(b'<');
            for u in l.encode_utf16() {
                ops.extend_from_slice(format!("{u:04X}").as_bytes());
            }
            ops.extend_from_slice(b"> Tj ");
        }
        ops.extend_from_slice(b"ET");
        let font = |doc: &mut Document| {
            let cid = doc.add_object(dictionary! {
                "Type" => "Font", "Subtype" => "CIDFontType0", "BaseFont" => "HeiseiMin-W3",
                "CIDSystemInfo" => dictionary! {
                    "Registry" => Object::string_literal("Adobe"),
                    "Ordering" => Object::string_literal("Japan1"), "Supplement" => 2,
                },
            });
            doc.add_object(dictionary! {
                "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "HeiseiMin-W3",
                "Encoding" => "UniJIS-UCS2-H", "DescendantFonts" => vec![cid.into()],
            })
        };
        super::super::reading_order_tests::pdf_with(font, ops)
    }

    #[test]
    fn utf16_strings_of_a_predefined_unicode_cmap_are_the_text() {
        let doc = ucs2_pdf(&["１ パワー半導体チップ", "２ 接合層"]);
        assert_eq!(
            page_text(&doc, 1).as_deref(),
            Some("１ パワー半導体チップ\n２ 接合層")
        );
        assert_eq!(page_text(&doc, 2), None, "no such page");
    }

    /// The Japanese patent page among the shared papers, on which
    /// pdf-extract panics, is indexed with its text (when the shared
    /// corpus is beside the repository, as in CI).
    #[test]
    fn the_shared_patent_pdf_is_read() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/corpora/papers/Cinnamon_libs_kotaemon_tests_resources_table.pdf");
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("skipped: {} is not here", path.display());
            return;
        };
        let ex = super::super::extract(&bytes).expect("indexed");
        for words in ["パワー半導体チップ", "放熱シート", "符号の説明"] {
            assert!(
                ex.text.contains(words),
                "{words} missing from {:?}",
                ex.text
            );
        }
    }
}
