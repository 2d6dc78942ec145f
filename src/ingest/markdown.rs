//! Markdown: CommonMark structure from pulldown-cmark's offset iterator; the
//! document text is the file text itself, so offsets point into the file.

use super::{Block, BlockKind, Extracted};
use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

pub fn extract(text: &str) -> Extracted {
    let mut out = Extracted {
        text: text.to_string(),
        text_is_file: true,
        ..Default::default()
    };
    // (start, end, heading level, heading text) of the open heading.
    let mut heading: Option<(usize, usize, u8, String)> = None;
    let mut para_depth = 0usize;
    // For list items: start offset, and whether a paragraph or nested list was seen.
    let mut items: Vec<(usize, bool)> = Vec::new();
    // HTML comments, which the page does not show, and whether each is
    // inside a line of text.
    let mut comments = Vec::new();
    let mut marks_at_end = Vec::new();
    for (event, range) in Parser::new(text).into_offset_iter() {
        match event {
            // A comment, a script or a style sheet: nothing the page shows.
            Event::Start(Tag::HtmlBlock) if unseen_block(&text[range.clone()]) => {
                comments.push((range, false));
            }
            // The mark stands where the comment touches a word: at its
            // start when a char follows it with no space ("can<!-- x
            // -->not" reads "can￼   not", one word for the word-boundary
            // check), else at its end ("can<!-- x --> not": "can   ￼ not").
            Event::InlineHtml(t) if t.starts_with("<!--") => {
                let glued = text[range.end..].starts_with(|c: char| !c.is_whitespace());
                if !glued && t.ends_with("-->") {
                    marks_at_end.push(range.end - 3);
                }
                comments.push((range, glued));
            }
            Event::Start(Tag::Heading { level, .. }) => {
                heading = Some((range.start, range.end, level_num(level), String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((s, e, level, t)) = heading.take() {
                    let t = super::collapse_ws(&t);
                    if t.is_empty() {
                        continue;
                    }
                    if level == 1 && out.title.is_none() {
                        out.title = Some(t.clone());
                    }
                    out.blocks.push(Block {
                        kind: BlockKind::Heading { level, text: t },
                        start: s,
                        end: trim_end(text, s, e),
                        page: None,
                    });
                }
            }
            Event::Text(t) | Event::Code(t) if heading.is_some() => {
                if let Some(h) = heading.as_mut() {
                    h.3.push_str(&t);
                }
            }
            Event::Start(Tag::Paragraph)
            | Event::Start(Tag::CodeBlock(_))
            | Event::Start(Tag::Table(_)) => {
                if let Some(item) = items.last_mut() {
                    item.1 = true;
                }
                if para_depth == 0 {
                    para(&mut out, text, range.start, range.end);
                }
                para_depth += 1;
            }
            Event::End(TagEnd::Paragraph)
            | Event::End(TagEnd::CodeBlock)
            | Event::End(TagEnd::Table) => {
                para_depth = para_depth.saturating_sub(1);
            }
            Event::Start(Tag::Item) => items.push((range.start, false)),
            Event::Start(Tag::List(_)) => {
                // A nested list ends the text of the item that holds it.
                if let Some(item) = items.last_mut()
                    && !item.1
                {
                    item.1 = true;
                    para(&mut out, text, item.0, range.start);
                }
            }
            Event::End(TagEnd::Item) => {
                if let Some((s, seen)) = items.pop()
                    && !seen
                {
                    para(&mut out, text, s, range.end);
                }
            }
            _ => {}
        }
    }
    out.blocks.sort_by_key(|b| b.start);
    out.text = crate::text::blank_out(out.text, &comments);
    for m in marks_at_end {
        out.text.replace_range(m..m + 3, "\u{FFFC}");
    }
    out
}

fn para(out: &mut Extracted, text: &str, s: usize, e: usize) {
    let e = trim_end(text, s, e);
    if e > s {
        out.blocks.push(Block {
            kind: BlockKind::Para,
            start: s,
            end: e,
            page: None,
        });
    }
}

fn trim_end(text: &str, s: usize, e: usize) -> usize {
    s + text[s..e].trim_end().len()
}

fn level_num(l: HeadingLevel) -> u8 {
    match l {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// An HTML block the page does not show: a comment, a `<script>` or a
/// `<style>` element.
fn unseen_block(block: &str) -> bool {
    let b = block.trim_start().to_ascii_lowercase();
    b.starts_with("<!--") || b.starts_with("<script") || b.starts_with("<style")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_comments_are_not_text() {
        let text = "# Notes\n\n<!-- a note\nto myself -->\n\nThe keepers can<!-- x -->not leave.\n\n`<!-- code -->` stays.\n\nThe keepers<!-- x --> left; the keepers <!-- y -->stayed<!-- z -->\nhome.\n";
        let ex = extract(text);
        assert_eq!(ex.text.len(), text.len());
        assert_eq!(ex.text.lines().count(), text.lines().count());
        assert!(
            !ex.text.contains("note") && !ex.text.contains("myself"),
            "{}",
            ex.text
        );
        assert!(
            ex.text.contains("The keepers can\u{FFFC}       not leave."),
            "{}",
            ex.text
        );
        assert!(ex.text.contains("`<!-- code -->` stays."), "{}", ex.text);
        let hidden = extract(
            "Before.\n\n<script>\nvar note = \"the keepers never slept\";\n</script>\n\n\
             <style>\np.hidden { color: red }\n</style>\n\nAfter.\n",
        );
        let h = &hidden.text;
        assert!(!h.contains("keepers") && !h.contains("color"), "{h}");
        assert!(h.contains("Before.") && h.contains("After."), "{h}");
        // Next to a space the mark is on that side: no word runs into it.
        assert!(
            ex.text.contains(
                "The keepers       \u{FFFC} left; the keepers \u{FFFC}       stayed       \u{FFFC}\nhome."
            ),
            "{}",
            ex.text
        );
    }

    /// A comment inside a word leaves it one word for validation; one next
    /// to a space leaves the words either side whole.
    #[test]
    fn a_comment_inside_a_word_is_no_word_boundary() {
        use crate::validate::{ChunkRef, Status, ValidateConfig, validate};
        let ex = extract(
            "The keepers can<!-- note -->not leave the rock. \
             The boat<!-- x --> left the rock<!-- y -->\nat dawn.\n",
        );
        let cs = [ChunkRef {
            id: "m#0",
            source_id: "m",
            text: &ex.text,
        }];
        let cfg = ValidateConfig {
            min_words: 1,
            ..Default::default()
        };
        for (quote, shown) in [
            ("not leave the rock.", false),
            ("The keepers can", false),
            ("The boat", true),
            ("left the rock", true),
            ("at dawn.", true),
        ] {
            let v = validate(quote, "m", &cs, &cfg);
            assert_eq!(v.status == Status::Validated, shown, "{quote}: {v:?}");
        }
    }

    #[test]
    fn headings_paragraphs_and_lists_keep_file_offsets() {
        let src = "# The Pharos\n\nIntro para.\n\n## Building\n\nFirst *para*.\nStill first.\n\n- item one\n- item two\n\n```\n# not a heading\n```\n";
        let ex = extract(src);
        assert_eq!(ex.text, src);
        assert_eq!(ex.title.as_deref(), Some("The Pharos"));
        let kinds: Vec<String> = ex
            .blocks
            .iter()
            .map(|b| match &b.kind {
                BlockKind::Heading { level, text } => format!("h{level}:{text}"),
                BlockKind::Para => format!("p:{}", &src[b.start..b.end]),
                BlockKind::Aside => "aside".into(),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "h1:The Pharos",
                "p:Intro para.",
                "h2:Building",
                "p:First *para*.\nStill first.",
                "p:- item one",
                "p:- item two",
                "p:```\n# not a heading\n```",
            ]
        );
    }
}
