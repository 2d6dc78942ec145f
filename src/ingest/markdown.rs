//! Markdown: CommonMark structure from pulldown-cmark's offset iterator; the
//! document text is the file text itself, so offsets point into the file.

use super::{Block, BlockKind, Extracted};
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

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
    // Regions a hiding HTML element holds, and the one open: its start,
    // tag and nesting depth.
    let mut hidden: Vec<std::ops::Range<usize>> = Vec::new();
    let mut hiding: Option<(usize, String, usize)> = None;
    // Front matter (YAML `---` or TOML `+++` at the top) is metadata: its
    // title and author name the work, and it is not read as text (without
    // the option its lines would read as a heading).
    let options = Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS
        | Options::ENABLE_FOOTNOTES;
    for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
        match event {
            Event::Start(Tag::MetadataBlock(_)) => {
                if text[..range.start]
                    .trim_start_matches('\u{FEFF}')
                    .is_empty()
                {
                    let (title, author) = super::metadata::front_matter(&text[range.clone()]);
                    out.title = out.title.take().or(title);
                    out.author = out.author.take().or(author);
                }
                comments.push((range, false));
            }
            Event::Start(Tag::HtmlBlock) => {
                let block = &text[range.clone()];
                // An element that hides what it holds, closed in a later
                // HTML block: the Markdown between is not shown either.
                if let Some((start, tag, depth)) = hiding.as_mut() {
                    *depth = nesting(block, tag, *depth);
                    if *depth == 0 {
                        hidden.push(*start..range.end);
                        hiding = None;
                    }
                } else if let Some(tag) = hiding_element(block) {
                    let depth = nesting(block, &tag, 0);
                    if depth > 0 {
                        hiding = Some((range.start, tag, depth));
                    }
                }
                // A comment, a script or a style sheet: nothing the page shows.
                if unseen_block(block) {
                    comments.push((range, false));
                }
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
            // A footnote's definition: shown at the end of the page, a
            // passage of its own (its paragraphs are not blocks apart).
            Event::Start(Tag::FootnoteDefinition(_)) => {
                if para_depth == 0 {
                    let end = trim_end(text, range.start, range.end);
                    if end > range.start {
                        out.blocks.push(Block {
                            kind: BlockKind::Note,
                            start: range.start,
                            end,
                            page: None,
                        });
                    }
                }
                para_depth += 1;
            }
            Event::End(TagEnd::FootnoteDefinition) => {
                para_depth = para_depth.saturating_sub(1);
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
    // Left open, it hides the rest of the document.
    if let Some((start, _, _)) = hiding {
        hidden.push(start..text.len());
    }
    out.blocks
        .retain(|b| !hidden.iter().any(|h| h.start <= b.start && b.end <= h.end));
    comments.extend(hidden.into_iter().map(|h| (h, false)));
    comments.sort_by_key(|c| c.0.start);
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

/// The tag of the element an HTML block opens with, when it hides what it
/// holds: a `hidden` attribute, or a style that hides (`display: none`).
fn hiding_element(block: &str) -> Option<String> {
    let b = block.trim_start();
    let tag_end = b.find('>')?;
    let tag = b[..tag_end].strip_prefix('<')?.to_ascii_lowercase();
    let name: String = tag
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    if name.is_empty() {
        return None;
    }
    let attrs = &tag[name.len()..];
    let flag = attrs
        .split(|c: char| c.is_whitespace() || c == '/')
        .any(|a| a == "hidden" || a.starts_with("hidden="));
    let style = attrs.split_once("style=").is_some_and(|(_, v)| {
        let q = v.chars().next().unwrap_or(' ');
        let v = if q == '"' || q == '\'' {
            v[1..].split(q).next().unwrap_or("")
        } else {
            v.split_whitespace().next().unwrap_or("")
        };
        super::css::hides(v)
    });
    (flag || style || name == "template").then_some(name)
}

/// The nesting depth of `tag` elements after `block`, from `depth` before
/// it; tags inside comments do not count.
fn nesting(block: &str, tag: &str, depth: usize) -> usize {
    let mut b = block.to_ascii_lowercase();
    while let Some(open) = b.find("<!--") {
        let end = b[open..].find("-->").map_or(b.len(), |e| open + e + 3);
        b.replace_range(open..end, "");
    }
    let count = |pat: &str| {
        b.match_indices(pat)
            .filter(|(i, _)| !b[i + pat.len()..].starts_with(|c: char| c.is_ascii_alphanumeric()))
            .count()
    };
    (depth + count(&format!("<{tag}"))).saturating_sub(count(&format!("</{tag}")))
}

/// An HTML block the page does not show: a comment, a `<script>`, a
/// `<style>` or a `<template>` element.
fn unseen_block(block: &str) -> bool {
    let b = block.trim_start().to_ascii_lowercase();
    b.starts_with("<!--")
        || b.starts_with("<script")
        || b.starts_with("<style")
        || b.starts_with("<template")
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

    /// Markdown inside a hiding HTML element opened and closed in blocks
    /// of their own is not shown, so not read; a shown one is.
    #[test]
    fn markdown_inside_a_hidden_element_is_not_text() {
        let src = "Before.\n\n<div style=\"display:none\">\n\nThe cook was never allowed ashore.\n\n\
                   <div>\n\nNested and never seen.\n\n</div>\n\n</div>\n\nBetween.\n\n<div hidden>\n\n\
                   The keeper was never sober.\n\n</div>\n\n<div class=\"note\">\n\nShown in a div.\n\n</div>\n\n\
                   <div hidden>\n\nDraft one.\n\n<!-- old layout: </div> -->\n\nNever sober.\n\n</div>\n\n\
                   <template>\n\nA template.\n\n</template>\n\n\
                   <div style=\"max-height:0; overflow:hidden\">\n\nSqueezed.\n\n</div>\n\n\
                   <details hidden=\"\">\n\nHidden to the end.\n";
        let ex = extract(src);
        assert_eq!(ex.text.len(), src.len());
        for gone in [
            "cook",
            "Nested",
            "sober",
            "to the end",
            "Draft one",
            "Never sober",
            "template",
            "Squeezed",
        ] {
            assert!(!ex.text.contains(gone), "{gone}: {}", ex.text);
        }
        for kept in ["Before.", "Between.", "Shown in a div."] {
            assert!(ex.text.contains(kept), "{kept}: {}", ex.text);
        }
        let paras: Vec<&str> = ex
            .blocks
            .iter()
            .filter(|b| matches!(b.kind, BlockKind::Para))
            .map(|b| &ex.text[b.start..b.end])
            .collect();
        assert_eq!(paras, ["Before.", "Between.", "Shown in a div."]);
    }

    /// Front matter names the work and is not text: its lines are neither
    /// a heading nor a passage to quote.
    #[test]
    fn front_matter_is_metadata_not_text() {
        for (src, title) in [
            (
                "---\ntitle: \"Fog Signals\"\nauthor: A. Keeper\ntags: [secret plans]\n---\n\nThe horn sounded.\n",
                "Fog Signals",
            ),
            (
                "+++\ntitle = \"Fog Signals\"\nauthor = \"A. Keeper\"\ntags = [\"secret plans\"]\n+++\n\nThe horn sounded.\n",
                "Fog Signals",
            ),
        ] {
            let ex = extract(src);
            assert_eq!(ex.text.len(), src.len());
            assert_eq!(ex.title.as_deref(), Some(title));
            assert_eq!(ex.author.as_deref(), Some("A. Keeper"));
            assert!(
                !ex.text.contains("secret") && !ex.text.contains("Keeper"),
                "{}",
                ex.text
            );
            assert!(ex.text.contains("The horn sounded."));
            assert!(
                ex.blocks
                    .iter()
                    .all(|b| !matches!(b.kind, BlockKind::Heading { .. })),
                "{:?}",
                ex.blocks
            );
        }
        // Further down, such a block is metadata too (as Pandoc reads it),
        // but names nothing.
        let ex = extract("# The Light\n\nIntro.\n\n---\ntitle: Other\n---\n");
        assert!(!ex.text.contains("Other"), "{}", ex.text);
        assert_eq!(ex.title.as_deref(), Some("The Light"));
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
                BlockKind::Note => format!("note:{}", &src[b.start..b.end]),
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
