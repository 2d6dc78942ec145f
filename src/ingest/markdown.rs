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
    // Raw HTML in blocks of their own (an element may hide the Markdown
    // between them), and in lines of text.
    let mut blocks_html = RawHtml::default();
    let mut inline = RawHtml::default();
    // Front matter (YAML `---` or TOML `+++` at the top) is metadata: its
    // title and author name the work, and it is not read as text (without
    // the option its lines would read as a heading).
    let options = Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS
        | Options::ENABLE_FOOTNOTES;
    // The document's own style sheets (`<style>` blocks), for its raw
    // HTML: a rule that hides `.secret` hides `<span class="secret">`.
    let mut css = String::new();
    let mut in_style = false;
    for (event, _) in Parser::new_ext(text, options).into_offset_iter() {
        if let Event::Html(t) = event {
            let lower = t.to_ascii_lowercase();
            if lower.trim_start().starts_with("<style") {
                in_style = true;
            }
            if in_style {
                let body = t
                    .split_once('>')
                    .filter(|_| lower.trim_start().starts_with("<style"));
                css.push_str(body.map_or(&t[..], |(_, b)| b));
                css.push('\n');
            }
            if lower.contains("</style") {
                in_style = false;
            }
        }
    }
    let css = css.replace("</style>", "").replace("</STYLE>", "");
    blocks_html.sheet = super::sheet::hiding_selectors(&css);
    inline.sheet = blocks_html.sheet.clone();
    let parser = Parser::new_ext(text, options);
    // A link reference definition (`[id]: http://… "Title"`) is not
    // shown: its text is no passage's.
    for (_, def) in parser.reference_definitions().iter() {
        comments.push((def.span.clone(), false));
    }
    for (event, range) in parser.into_offset_iter() {
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
                // Its tags and what a hiding element holds are not text;
                // an element left open hides the Markdown after it up to
                // its end tag in a later block. What it shows is a passage
                // (a `<div>` of text).
                let hid_before = blocks_html.hide.is_some();
                let before = blocks_html.unseen.len();
                scan_html(&mut blocks_html, text, range.start, range.end);
                // A paragraph left open ends before the next one (a
                // Markdown paragraph is a `<p>`, which closes it).
                if blocks_html.hide.as_ref().is_some_and(|h| h.0 == "p") {
                    blocks_html.close(range.end);
                }
                let block = &text[range.clone()];
                let unseen: Vec<_> = blocks_html.unseen[before..]
                    .iter()
                    .map(|(r, m)| {
                        (
                            r.start.max(range.start) - range.start
                                ..r.end.min(range.end) - range.start,
                            *m,
                        )
                    })
                    .collect();
                let shown = crate::text::blank_out(block.to_string(), &unseen);
                if para_depth == 0
                    && !hid_before
                    && blocks_html.hide.is_none()
                    && shown.chars().any(char::is_alphanumeric)
                {
                    para(&mut out, text, range.start, range.end);
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
            // A tag in a line of text (`<span hidden>never</span>`): not
            // text, nor what a hiding element holds.
            Event::InlineHtml(_) => inline.tag(text, range.start, range.end),
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
                inline.close(range.end);
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
    blocks_html.close(text.len());
    let hidden = &blocks_html.unseen;
    out.blocks.retain(|b| {
        !hidden
            .iter()
            .any(|(h, _)| h.start <= b.start && b.end <= h.end)
    });
    inline.close(text.len());
    comments.extend(inline.unseen);
    comments.extend(blocks_html.unseen);
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
    // `style="…"`, spaces around the `=` allowed.
    let value = attrs.match_indices("style").find_map(|(i, _)| {
        let before = attrs[..i].chars().next_back();
        let rest = attrs[i + 5..].trim_start().strip_prefix('=')?;
        before
            .is_some_and(char::is_whitespace)
            .then(|| rest.trim_start())
    });
    let style = value.is_some_and(|v| {
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

const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];
/// Elements that show something that is not text: a mark in their place.
const SHOWS: &[&str] = &[
    "img", "input", "button", "select", "textarea", "video", "audio", "canvas", "svg", "iframe",
    "object", "embed",
];
/// Elements the page never shows in the line: no mark.
const UNSEEN: &[&str] = &["script", "style", "template", "noscript", "title", "head"];

/// A tag's name, lower-cased, and whether it closes (`</p>`); `None` for
/// what is no tag.
fn tag_name(tag: &str) -> Option<(bool, String)> {
    let rest = tag.strip_prefix('<')?;
    let closing = rest.starts_with('/');
    let name: String = rest[usize::from(closing)..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        .then_some((closing, name))
}

/// Does this opening `tag` (named `name`) hide what it holds: `hidden`, a
/// hiding style, a template, a script or a style sheet, struck-out text,
/// a closed `<details>`?
fn hides_its_content(tag: &str, name: &str, sheet: &[String]) -> bool {
    // A slash closes no element that is not void: `<div hidden/>` stays
    // open, as a browser reads it.
    !VOID.contains(&name)
        && (hiding_element(tag).is_some()
            || sheet.iter().any(|sel| matches_simple(sel, tag, name))
            || UNSEEN.contains(&name)
            || matches!(name, "del" | "s" | "strike")
            || (name == "details" && !tag.to_ascii_lowercase().contains(" open")))
}

/// Tags of raw HTML and the elements that hide what they hold, read in
/// order: the ranges of the file a page does not show, and whether each
/// leaves a mark (a tag that shows something, an image or a form field,
/// and a hidden element with text), so the words either side never join.
#[derive(Default)]
struct RawHtml {
    unseen: Vec<(std::ops::Range<usize>, bool)>,
    /// Selectors of the document's own style sheets that hide.
    sheet: Vec<String>,
    /// The element hiding what follows: its name, nesting depth, start,
    /// and how many other elements are open inside it.
    hide: Option<(String, usize, usize, usize)>,
}

impl RawHtml {
    /// The tag at `at..end` of `text`, the file.
    fn tag(&mut self, text: &str, at: usize, end: usize) {
        let tag = &text[at..end];
        // Inside a word ("F<b>resnel</b>"): a mark keeps "F" from reading
        // as a word of its own.
        let inside_word = text[..at].ends_with(char::is_alphanumeric)
            && text[end..].starts_with(char::is_alphanumeric);
        let Some((closing, name)) = tag_name(tag) else {
            return;
        };
        if let Some((open, depth, start, inner)) = self.hide.as_mut() {
            if *open == name && !VOID.contains(&name.as_str()) {
                *depth = if closing { *depth - 1 } else { *depth + 1 };
            } else if !VOID.contains(&name.as_str()) {
                if !closing {
                    *inner += 1;
                } else if *inner == 0 {
                    // The end of an element around it (`</blockquote>`
                    // after `<div hidden/>`): it ends there too.
                    let mark = !UNSEEN.contains(&open.as_str());
                    self.unseen.push((*start..at, mark));
                    self.unseen.push((at..end, false));
                    self.hide = None;
                    return;
                } else {
                    *inner -= 1;
                }
            }
            if *depth == 0 {
                let mark = !UNSEEN.contains(&open.as_str());
                self.unseen.push((*start..end, mark));
                self.hide = None;
            }
        } else if !closing && hides_its_content(tag, &name, &self.sheet) {
            self.hide = Some((name, 1, at, 0));
        } else {
            let mark = inside_word || (!closing && SHOWS.contains(&name.as_str()));
            self.unseen.push((at..end, mark));
        }
    }

    /// A comment at `at..end`.
    fn comment(&mut self, at: usize, end: usize) {
        if self.hide.is_none() {
            self.unseen.push((at..end, false));
        }
    }

    /// The end of the text an element may hide to (its block's end).
    fn close(&mut self, end: usize) {
        if let Some((open, _, start, _)) = self.hide.take() {
            let mark = !UNSEEN.contains(&open.as_str());
            self.unseen.push((start..end, mark));
        }
    }
}

/// Read the tags of the HTML block at `at..end` of `text` into `raw`
/// (see [`RawHtml`]).
fn scan_html(raw: &mut RawHtml, text: &str, at: usize, end: usize) {
    let block = &text[at..end];
    let b = block.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'<' {
            i += 1;
            continue;
        }
        if block[i..].starts_with("<!--") {
            let end = block[i..].find("-->").map_or(b.len(), |e| i + e + 3);
            raw.comment(at + i, at + end);
            i = end;
            continue;
        }
        if tag_name(&block[i..]).is_none() {
            i += 1;
            continue;
        }
        // The tag's end: its `>`, outside quoted attribute values.
        let mut end = i + 1;
        let mut quote = None;
        while end < b.len() {
            match (quote, b[end]) {
                (None, b'>') => break,
                (None, q @ (b'"' | b'\'')) => quote = Some(q),
                (Some(q), c) if c == q => quote = None,
                _ => {}
            }
            end += 1;
        }
        let end = (end + 1).min(b.len());
        raw.tag(text, at + i, at + end);
        i = end;
    }
}

/// Does a simple selector (`.secret`, `#note`, `span.secret`) match this
/// opening tag? Selectors with combinators or attributes match nothing
/// here.
fn matches_simple(selector: &str, tag: &str, name: &str) -> bool {
    if selector.contains([' ', '>', '+', '~', '[', ':', '*']) {
        return false;
    }
    let attr = |key: &str| -> Option<String> {
        let lower = tag.to_ascii_lowercase();
        let at = lower.match_indices(key).find(|(i, _)| {
            lower[..*i].ends_with(char::is_whitespace)
                && lower[i + key.len()..].trim_start().starts_with('=')
        })?;
        let rest = tag[at.0 + key.len()..].trim_start()[1..].trim_start();
        let q = rest.chars().next()?;
        Some(if q == '"' || q == '\'' {
            rest[1..].split(q).next().unwrap_or("").to_string()
        } else {
            rest.split(|c: char| c.is_whitespace() || c == '>')
                .next()
                .unwrap_or("")
                .to_string()
        })
    };
    let classes = attr("class").unwrap_or_default();
    let id = attr("id").unwrap_or_default();
    // The selector's parts: its element name, then each `.class`, `#id`.
    let mut parts: Vec<(char, String)> = Vec::new();
    let (mut kind, mut part) = ('t', String::new());
    for c in selector.chars() {
        if c == '.' || c == '#' {
            parts.push((kind, std::mem::take(&mut part)));
            kind = c;
        } else {
            part.push(c);
        }
    }
    parts.push((kind, part));
    !selector.is_empty()
        && parts.iter().all(|(k, v)| match k {
            't' => v.is_empty() || v.eq_ignore_ascii_case(name),
            '.' => classes.split_whitespace().any(|c| c == v),
            _ => id == *v,
        })
}

#[cfg(test)]
mod tests;
