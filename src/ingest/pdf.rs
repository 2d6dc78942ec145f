//! PDF: the text layer, page by page (pdf-extract). Paragraphs are separated
//! by blank lines in the extracted text; a short single-line paragraph with no
//! closing punctuation is taken as a heading. Every block keeps its page.

use super::{BlockKind, Extracted};

pub fn extract(bytes: &[u8]) -> Result<Extracted, String> {
    let pages = pdf_extract::extract_text_from_mem_by_pages(bytes)
        .map_err(|e| format!("malformed PDF: {e}"))?;
    let mut out = Extracted::default();
    for (i, page) in pages.iter().enumerate() {
        let page_no = Some(i as u32 + 1);
        let page = page.replace("\r\n", "\n");
        for para in split_paragraphs(&page) {
            let para = para.as_str();
            let single_line = !para.contains('\n');
            if single_line && looks_like_heading(para) {
                let level = if out.title.is_none() && i == 0 { 1 } else { 2 };
                let text = super::collapse_ws(para);
                if level == 1 {
                    out.title = Some(text.clone());
                }
                out.push(BlockKind::Heading { level, text }, para, page_no);
            } else {
                out.push(BlockKind::Para, para, page_no);
            }
        }
    }
    // The document's own title and author (Info dictionary), when they
    // name the work rather than the file it was made from.
    if let Ok(meta) = lopdf::Document::load_metadata_from(std::io::Cursor::new(bytes)) {
        if let Some(t) = meta
            .title
            .map(|t| super::collapse_ws(&t))
            .filter(|t| real_title(t))
        {
            out.title = Some(t);
        }
        out.author = meta
            .author
            .map(|a| super::collapse_ws(&a))
            .filter(|a| a.chars().any(char::is_alphabetic));
    }
    Ok(out)
}

/// An Info title that names a work, not a file or a template.
fn real_title(t: &str) -> bool {
    let l = t.to_lowercase();
    t.chars().filter(|c| c.is_alphabetic()).count() >= 4
        && ![
            ".doc",
            ".tex",
            ".dvi",
            ".pdf",
            ".indd",
            "untitled",
            "microsoft word",
            "powerpoint",
            "slide 1",
            "title",
            "document",
        ]
        .iter()
        .any(|bad| l.contains(bad) && (bad.starts_with('.') || l.len() < 40 || bad.contains(' ')))
}

/// The page's paragraphs. PDF text layers often put a blank line inside a
/// paragraph; two pieces are one paragraph when the first ends in a word
/// hyphenated at the line end ("state-of-" + "the-art") or runs on without
/// closing punctuation into a piece that starts in lower case.
fn split_paragraphs(page: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in page.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
        let joins = out.last().is_some_and(|prev: &String| {
            let mut tail = prev.chars().rev();
            let (last, before) = (tail.next().unwrap_or(' '), tail.next().unwrap_or(' '));
            let first = piece.chars().next().unwrap_or(' ');
            (last == '-' && before.is_alphabetic() && first.is_alphabetic())
                || (first.is_lowercase()
                    && !matches!(last, '.' | '!' | '?' | ':' | ';' | '"' | '\u{201D}'))
        });
        match out.last_mut() {
            Some(prev) if joins => {
                prev.push('\n');
                prev.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out
}

fn looks_like_heading(s: &str) -> bool {
    let s = s.trim();
    let n = s.chars().count();
    (2..=80).contains(&n)
        && s.chars()
            .next()
            .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
        && !s.ends_with(['.', ',', ';', ':', '?', '!', '"', '\u{201d}'])
        && s.split_whitespace().count() <= 12
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heading_heuristic() {
        assert!(looks_like_heading("The Bell Rock Light"));
        assert!(looks_like_heading("2. Construction"));
        assert!(!looks_like_heading("It was finished in 1810."));
        assert!(!looks_like_heading(
            "and then the keepers went home to rest after a long and weary watch of the night"
        ));
    }

    #[test]
    fn paragraphs_broken_by_blank_lines_are_joined() {
        let page = "The method outperforms state-of-\n\nthe-art baselines by the Radon\n\nderivative.\n\nA new paragraph.";
        assert_eq!(
            split_paragraphs(page),
            [
                "The method outperforms state-of-\nthe-art baselines by the Radon\nderivative.",
                "A new paragraph."
            ]
        );
    }

    #[test]
    fn info_titles_that_name_files_are_not_titles() {
        assert!(real_title("Learning Rate Curriculum"));
        assert!(!real_title("Microsoft Word - paper_final.docx"));
        assert!(!real_title("main.tex"));
        assert!(!real_title("untitled"));
        assert!(!real_title("Title"));
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(extract(b"%PDF-1.7\nnot a pdf").is_err());
    }
}
