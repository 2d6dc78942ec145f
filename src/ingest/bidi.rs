//! Text a right-to-left override (U+202E … U+202C) draws reversed: "\u{202E}
//! deid ton" shows as "not died". Its stored letters are not what the page
//! shows, so a run of left-to-right letters or digits under an override
//! is replaced by a mark (`￼`, padded with spaces to the run's length, so
//! every offset into the text stays where it was). A run of Hebrew or
//! Arabic under an override shows as it always does and is kept.

const RLO: char = '\u{202E}';
/// What ends an override: POP DIRECTIONAL FORMATTING (its own), or the
/// paragraph.
fn ends(c: char) -> bool {
    matches!(c, '\u{202C}' | '\n' | '\u{2029}')
}

/// Letters of the scripts written right to left.
fn right_to_left(c: char) -> bool {
    matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
}

/// Replace every reversed run of `text` by a mark of the same length.
pub(super) fn hide_reversed(text: &mut String) {
    if !text.contains(RLO) {
        return;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(RLO) {
        out.push_str(&rest[..at]);
        let run = &rest[at..];
        // The override lasts until its own POP (embeddings and overrides
        // opened inside it are closed by theirs first) or the paragraph.
        let mut depth = 0usize;
        let len = run
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '\u{202A}' | '\u{202B}' | '\u{202D}' | '\u{202E}' => depth += 1,
                    '\u{202C}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                ends(c) && (c != '\u{202C}' || depth == 0)
            })
            .map_or(run.len(), |(i, c)| {
                if c == '\u{202C}' { i + c.len_utf8() } else { i }
            });
        let reversed = run[..len]
            .chars()
            .any(|c| c.is_alphanumeric() && !right_to_left(c));
        if reversed {
            out.push('\u{FFFC}');
            out.extend(std::iter::repeat_n(' ', len - '\u{FFFC}'.len_utf8()));
        } else {
            out.push_str(&run[..len]);
        }
        rest = &run[len..];
    }
    out.push_str(rest);
    *text = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reversed_latin_is_a_mark_and_offsets_stay() {
        let mut t = "he \u{202E}deid ton did\u{202C} that night\nnext \u{202E}\u{5E9}\u{5DC}\u{5D5}\u{5DD}\u{202C}".to_string();
        let before = t.len();
        hide_reversed(&mut t);
        assert_eq!(t.len(), before);
        assert!(t.starts_with("he \u{FFFC} "), "{t:?}");
        assert!(!t.contains("deid"), "{t:?}");
        assert!(t.contains(" that night\nnext \u{202E}\u{5E9}"), "{t:?}");
        // An embedding inside the override is closed by its own POP; the
        // override goes on to the next.
        let mut t = "in \u{202E}\u{202A}\u{202C} 1581 \u{202C} by".to_string();
        hide_reversed(&mut t);
        assert!(!t.contains("1581") && t.ends_with(" by"), "{t:?}");
        // An override that is never ended ends with its paragraph.
        let mut t = "a \u{202E}ton\nb".to_string();
        hide_reversed(&mut t);
        assert!(t.ends_with("\nb") && !t.contains("ton"), "{t:?}");
    }
}
