//! HTML: headings and block elements in document order, inline text collapsed;
//! scripts, styles, navigation and other chrome are ignored. The document text
//! is the extracted blocks joined by blank lines.

use super::{BlockKind, Extracted};
use scraper::{Html, Node};

/// Not text: chrome, deleted text (`<del>`, `<s>`, `<strike>`: struck
/// out, as a Word document's tracked deletions are), what the page shows
/// that is not text (an image, a form field, a button, a drawing, a
/// formula: MathML's ½ is no "12"), and ruby annotations.
const SKIP: &[&str] = &[
    "script", "style", "noscript", "template", "nav", "head", "svg", "iframe", "object", "button",
    "select", "form", "footer", "del", "s", "strike", "img", "input", "canvas", "math", "rt", "rp",
    "textarea", "video", "audio", "datalist", "title", "noembed", "noframes", "progress", "meter",
];
/// Skipped elements a reader never sees in the line: no mark. (A ruby
/// annotation `<rt>` is set above its base text, not in the line.)
const NEVER_SHOWN: &[&str] = &[
    "script", "style", "noscript", "template", "head", "rt", "rp", "datalist", "title", "noembed",
    "noframes",
];
const BLOCK: &[&str] = &[
    "p",
    "div",
    "li",
    "ul",
    "ol",
    "blockquote",
    "pre",
    "dd",
    "dt",
    "dl",
    "tr",
    "table",
    "figcaption",
    "caption",
    "address",
    "section",
    "article",
    "main",
    "body",
    "header",
    "aside",
    "br",
    "hr",
    "figure",
];

pub fn extract(text: &str) -> Extracted {
    read(text, "", None, true)
}

/// An HTML file named `page`, with the style sheets it links (and they
/// import) read where `fetch` finds them: a saved page's
/// `page_files/style.css` hides text as the browser opening it does.
pub fn extract_linked(text: &str, page: &str, fetch: &mut Fetch<'_>) -> Extracted {
    read(text, "", Some((page, fetch)), true)
}

/// An EPUB's page named `page` (XHTML, read as XML: never in quirks
/// mode), with the book's style sheets (`css`) and those it links read as
/// its own.
pub fn extract_styled(text: &str, page: &str, css: &str, fetch: &mut Fetch<'_>) -> Extracted {
    read(text, css, Some((page, fetch)), false)
}

type Fetch<'a> = super::sheet::Fetch<'a>;

fn read(text: &str, css: &str, links: Option<(&str, &mut Fetch<'_>)>, as_html: bool) -> Extracted {
    let doc = Html::parse_document(text);
    let mut css = css.to_string();
    if let Some((page, fetch)) = links {
        css.push('\n');
        css.push_str(&super::sheet::linked(&doc, page, fetch));
    }
    let mut out = Extracted::default();
    let title = scraper::Selector::parse("title")
        .ok()
        .and_then(|sel| doc.select(&sel).next())
        .map(|t| super::collapse_ws(&t.text().collect::<String>()))
        .filter(|t| !t.is_empty());
    let mut buf = String::new();
    let mut apart = Pending::default();
    let hide = super::sheet::styled(&doc, &css, as_html);
    walk(doc.tree.root(), &mut out, &mut buf, &mut apart, &hide);
    flush(&mut out, &mut buf, &mut apart);
    if !apart.pages.labels.is_empty() {
        out.page_labels = Some(std::mem::take(&mut apart.pages.labels));
    }
    out.title = title.or_else(|| {
        out.blocks.iter().find_map(|b| match &b.kind {
            BlockKind::Heading { level: 1, text } => Some(text.clone()),
            _ => None,
        })
    });
    out
}

/// The largest style sheet read beside a page.
const MAX_SHEET_BYTES: u64 = 4 << 20;

/// How a page in the folder `dir` reads the style sheets it links: by
/// names relative to `dir` ([`super::sheet::relative`]: never above it,
/// never a URL or an absolute path), each a regular file reached through
/// no symbolic link (the sources are read without following links), of
/// at most [`MAX_SHEET_BYTES`]. One that cannot be read is left out.
pub fn local_sheets(dir: &std::path::Path) -> impl FnMut(&str, &str) -> Option<(String, String)> {
    let dir = dir.to_path_buf();
    move |from, href| {
        let name = super::sheet::relative(from, href)?;
        let mut path = dir.clone();
        for part in name.split('/') {
            path.push(part);
            if std::fs::symlink_metadata(&path)
                .ok()?
                .file_type()
                .is_symlink()
            {
                return None;
            }
        }
        let bytes = super::read_limited(&path, MAX_SHEET_BYTES).ok()?;
        let css = super::decode::decode(&bytes).ok()?.0.into_owned();
        Some((name, css))
    }
}

/// What a block's end writes besides its words: the text taken out of its
/// line (a sidenote), and the pages the book's edition marks.
#[derive(Default)]
struct Pending {
    texts: Vec<String>,
    pages: pages::Pages,
}

/// End the block being read; then the text taken out of its line (a
/// sidenote), each a block of its own. Each is on the page it starts on.
fn flush(out: &mut Extracted, buf: &mut String, apart: &mut Pending) {
    let t = super::collapse_ws(buf);
    let page = apart.pages.take_start();
    out.push(BlockKind::Para, &t, page);
    buf.clear();
    let here = apart.pages.current();
    for t in apart.texts.drain(..) {
        out.push(BlockKind::Para, &t, here);
    }
}

/// What is left to do while walking the tree: visit a node, or end a
/// block element's block.
enum Step<'a> {
    Visit(ego_tree::NodeRef<'a, Node>),
    Flush,
    /// The end of a note ([`is_note`]): its closing mark.
    EndNote,
    /// The end of an element the style sheet writes text after: a mark.
    Mark,
    /// The end of a `<q>`: the closing quotation mark a browser draws.
    Text(&'static str),
}

/// The blocks of the document, in order. Iterative, with an explicit stack:
/// a document nested 100,000 elements deep cannot overflow the call stack.
fn walk(
    root: ego_tree::NodeRef<'_, Node>,
    out: &mut Extracted,
    buf: &mut String,
    apart: &mut Pending,
    hide: &Hide,
) {
    let mut stack: Vec<Step<'_>> = root.children().rev().map(Step::Visit).collect();
    // The letter of a pictured initial in a block of its own
    // ([`initial_block`]), read before the next block's first words.
    let mut initial: Option<&str> = None;
    while let Some(step) = stack.pop() {
        let child = match step {
            Step::Flush => {
                initial = None;
                flush(out, buf, apart);
                continue;
            }
            Step::EndNote => {
                flush(out, buf, apart);
                out.push(BlockKind::Para, "\u{FFFC}", apart.pages.current());
                continue;
            }
            Step::Mark => {
                buf.push_str(" \u{FFFC} ");
                continue;
            }
            Step::Text(t) => {
                buf.push_str(t);
                continue;
            }
            Step::Visit(n) => n,
        };
        match child.value() {
            Node::Text(t) if initial.is_some() && !t.trim().is_empty() => {
                let rest = t.trim_start();
                if let Some(letter) = initial
                    .take()
                    .filter(|_| rest.starts_with(char::is_lowercase))
                {
                    buf.push_str(letter);
                }
                buf.push_str(rest);
            }
            Node::Text(t) if buf.ends_with("\u{FFFC} ") => {
                // A mark takes the rest of the word it touches: under
                // `<s>un</s>safe` or `<img>here` the page shows no word
                // "safe" or "here" (a word starting anew is kept).
                let rest = t
                    .text
                    .trim_start_matches(['\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}']);
                let touched = rest
                    .find(|c: char| !c.is_alphanumeric())
                    .unwrap_or(rest.len());
                // A word goes on in small letters or digits, or, set in
                // capitals, in capitals ("<s>UN</s>SAFE").
                let word = &rest[..touched];
                let capitals = word.chars().count() > 1 && !word.chars().any(char::is_lowercase);
                let continues =
                    rest.starts_with(|c: char| c.is_lowercase() || c.is_numeric()) || capitals;
                buf.push_str(if continues { &rest[touched..] } else { &t.text });
            }
            Node::Text(t) => buf.push_str(&t.text),
            Node::Element(el) => {
                let name = el.name();
                // An initial set as a picture (`<img alt="T">here is`, a
                // book's drop cap) reads as its letter: "There is".
                if let Some(letter) = drop_cap(child, el).filter(|_| !hidden(child, el, hide)) {
                    buf.push_str(letter);
                    continue;
                }
                if let Some(label) = pages::marker(el) {
                    apart.pages.begin(label, buf.trim().is_empty());
                }
                if let Some(letter) = initial_block(child, el, hide) {
                    initial = Some(letter);
                    continue;
                }
                if note_reference(child, el) && buf.ends_with(|c: char| !c.is_whitespace()) {
                    continue;
                }
                if SKIP.contains(&name) || hidden(child, el, hide) {
                    // Not read as text, but maybe shown (a button, an
                    // image, struck-out words, an element whose hiding
                    // style a stylesheet or a later declaration undoes):
                    // an object mark stands in its place, so that the words
                    // either side never read as one passage ("is
                    // <button>not</button> recommended" is not "is
                    // recommended").
                    let field = name == "input" && el.attr("type") == Some("hidden");
                    // A hidden element that holds no text (a line break
                    // a poem's style sheet hides) hides no words.
                    let empty = !SKIP.contains(&name)
                        && child.descendants().all(|d| match d.value() {
                            Node::Text(t) => t.trim().is_empty(),
                            _ => true,
                        });
                    if !NEVER_SHOWN.contains(&name) && !field && !empty && !buf.trim().is_empty() {
                        // Hidden words that end in a space end their word
                        // ("<s>not </s>a"): the next word is not the rest
                        // of one the mark touches (two spaces say so).
                        let spaced = child
                            .descendants()
                            .filter_map(|d| d.value().as_text())
                            .filter(|t| !t.is_empty())
                            .last()
                            .is_some_and(|t| t.ends_with(char::is_whitespace));
                        buf.push_str(if spaced { " \u{FFFC}  " } else { " \u{FFFC} " });
                    }
                    continue;
                }
                if let Some(shifted) = shift(child.id(), el, hide)
                    .and_then(|sup| crate::text::shifted(&collect_text(child, hide), sup))
                {
                    buf.push_str(&shifted);
                    continue;
                }
                // Out of the line (a page number in the margin, a
                // sidenote floated beside it): the words either side are
                // one sentence on the page, and it is read after it.
                if !BLOCK.contains(&name)
                    && heading_level(name).is_none()
                    && out_of_flow(child, el, hide)
                {
                    // Its page anchor ("<span class=pagenum><a
                    // name=Page_2>[Pg 2]</a></span>") begins the page.
                    begin_pages(child, apart, buf.trim().is_empty());
                    let text = super::collapse_ws(&collect_text(child, hide));
                    // A drop cap floated beside its word (`<span
                    // style="float: left">T</span>he`) is the word's
                    // initial: read in place.
                    let initial = text.chars().count() == 1
                        && text.chars().all(char::is_alphabetic)
                        && child
                            .next_sibling()
                            .and_then(|n| {
                                n.value()
                                    .as_text()
                                    .map(|t| t.starts_with(char::is_lowercase))
                            })
                            .unwrap_or(false);
                    // A note's label set in the margin beside the note it
                    // starts ("[1]", "[A]"): read where it stands, not after
                    // the note, where it would seem the next one's.
                    let label = buf.trim().is_empty() && is_note_label(&text);
                    if initial || label {
                        buf.push_str(&text);
                        if label {
                            buf.push(' ');
                        }
                    } else if !pages::is_page_number(&text) {
                        apart.texts.push(text);
                    }
                    continue;
                }
                // Text the style sheet writes before or after it
                // (`::before { content: "not " }`) is not read: a mark on
                // either side keeps the words around it apart.
                if hide.generated.contains(&child.id()) {
                    buf.push_str(" \u{FFFC} ");
                    stack.push(Step::Mark);
                }
                if let Some(level) = heading_level(name) {
                    flush(out, buf, apart);
                    // A page that begins at the heading (its anchor inside).
                    begin_pages(child, apart, true);
                    let t = super::collapse_ws(&collect_text(child, hide));
                    let page = apart.pages.take_start();
                    if !t.is_empty() {
                        out.push(
                            BlockKind::Heading {
                                level,
                                text: t.clone(),
                            },
                            &t,
                            page,
                        );
                    }
                } else if is_note(el) {
                    // Shown apart (a pop-up, the end of the book): a mark
                    // either side, so no quote runs from it into the text.
                    flush(out, buf, apart);
                    out.push(BlockKind::Para, "\u{FFFC}", apart.pages.current());
                    stack.push(Step::EndNote);
                    stack.extend(child.children().rev().map(Step::Visit));
                } else if name == "details" && el.attr("open").is_none() {
                    // Closed: the page shows its summary, and a mark for
                    // the rest.
                    flush(out, buf, apart);
                    stack.push(Step::Flush);
                    stack.push(Step::Mark);
                    stack.extend(
                        child
                            .children()
                            .filter(|c| {
                                c.value()
                                    .as_element()
                                    .is_some_and(|e| e.name() == "summary")
                            })
                            .rev()
                            .map(Step::Visit),
                    );
                } else if BLOCK.contains(&name)
                    || hide.blocks.contains(&child.id())
                    || el
                        .attr("style")
                        .is_some_and(|s| super::css::Style::parse(s).block())
                {
                    flush(out, buf, apart);
                    stack.push(Step::Flush);
                    stack.extend(child.children().rev().map(Step::Visit));
                } else if matches!(name, "td" | "th") {
                    // A table's row is one passage, its cells apart: words
                    // of two cells never read as one sentence.
                    if !buf.trim().is_empty() {
                        buf.push_str(" | ");
                    }
                    stack.extend(child.children().rev().map(Step::Visit));
                } else if name == "q" {
                    // An inline quotation: drawn between quotation marks
                    // (single ones inside another), so read with them.
                    let inner = child
                        .ancestors()
                        .any(|a| a.value().as_element().is_some_and(|e| e.name() == "q"));
                    let (open, close) = if inner {
                        ("‘", "’")
                    } else {
                        ("“", "”")
                    };
                    buf.push_str(open);
                    stack.push(Step::Text(close));
                    stack.extend(child.children().rev().map(Step::Visit));
                } else {
                    // Inline (em, a, span): no space of its own, as a
                    // browser renders it — "<em>spring</em>." is "spring.",
                    // "F<span>resnel</span>" is one word.
                    stack.extend(child.children().rev().map(Step::Visit));
                }
            }
            _ => {}
        }
    }
}

/// The text under `node`, skipping chrome; iterative like [`walk`].
/// A note's label in brackets: "[12]", "[A]". (A bare number in the
/// margin is a line's.)
fn is_note_label(t: &str) -> bool {
    t.strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .is_some_and(|inner| {
            (1..=3).contains(&inner.chars().count())
                && (inner.chars().all(|c| c.is_ascii_digit())
                    || inner.chars().all(|c| c.is_ascii_uppercase()))
        })
}

/// The pages whose anchors stand inside `node`, begun
/// ([`pages::Pages::begin`]).
fn begin_pages(node: ego_tree::NodeRef<'_, Node>, apart: &mut Pending, fresh: bool) {
    // Past the node itself: its own anchor is read as it is visited.
    for label in node
        .descendants()
        .skip(1)
        .filter_map(|d| d.value().as_element().and_then(pages::marker))
    {
        apart.pages.begin(label, fresh);
    }
}

fn collect_text(node: ego_tree::NodeRef<'_, Node>, hide: &Hide) -> String {
    use ego_tree::iter::Edge;
    let mut out = String::new();
    // Depth inside a skipped element (0: not skipping).
    let mut skipping = 0usize;
    for edge in node.traverse() {
        match edge {
            Edge::Open(n) if n.id() == node.id() => {}
            Edge::Open(n) => match n.value() {
                Node::Element(el)
                    if skipping > 0 || SKIP.contains(&el.name()) || hidden(n, el, hide) =>
                {
                    skipping += 1
                }
                Node::Element(el)
                    if BLOCK.contains(&el.name()) || matches!(el.name(), "td" | "th") =>
                {
                    out.push(' ')
                }
                Node::Text(t) if skipping == 0 => out.push_str(&t.text),
                _ => {}
            },
            Edge::Close(n) => {
                if skipping > 0 && matches!(n.value(), Node::Element(_)) {
                    skipping -= 1;
                }
            }
        }
    }
    out
}

type Hide = super::sheet::Styled;

mod letters;
mod pages;
use letters::{drop_cap, initial_block, note_reference};

/// An element the page does not show as written: `hidden`, styled
/// `display: none`, `visibility: hidden`, `opacity: 0`, `font-size: 0`,
/// transparent, moved far off the page, clipped or squeezed to a pixel,
/// scaled to nothing, or drawn right to left (`<bdo dir="rtl">`, a bidi
/// override), or hidden by a rule of the page's style sheets.
/// (Where a stylesheet shows it after all, the mark it leaves keeps the
/// words either side apart.) A shadow host too: see [`shadow_host`].
fn hidden(node: ego_tree::NodeRef<'_, Node>, el: &scraper::node::Element, hide: &Hide) -> bool {
    let id = node.id();
    el.attr("hidden").is_some()
        || shadow_host(node)
        || (el.name() == "bdo"
            && el
                .attr("dir")
                .is_some_and(|d| d.eq_ignore_ascii_case("rtl")))
        || (el.name() == "dialog" && el.attr("open").is_none())
        // Shown only when opened (`popover`), as a closed dialog.
        || el.attr("popover").is_some()
        || on_its_own_colour(node, hide)
        || el.attr("style").is_some_and(super::css::hides)
        || hide.hidden.contains(&id)
        || ((el
            .attr("style")
            .is_some_and(|s| super::css::Style::parse(s).overrides())
            || hide.overrides.contains(&id))
            && right_to_left(node))
}

/// Does the element hold a declarative shadow root (`<template
/// shadowrootmode="open">`, or the older `shadowroot`)? A browser then
/// shows the template's content in its place, and its own children only
/// where a `<slot>` of that content places them; the parser reads the
/// template as an inert one. Neither is read: the element is a mark, so
/// no quote joins the words either side of what the page shows there.
fn shadow_host(node: ego_tree::NodeRef<'_, Node>) -> bool {
    node.children().any(|c| {
        c.value().as_element().is_some_and(|e| {
            e.name() == "template"
                && ["shadowrootmode", "shadowroot"].iter().any(|a| {
                    e.attr(a).is_some_and(|m| {
                        m.trim().eq_ignore_ascii_case("open")
                            || m.trim().eq_ignore_ascii_case("closed")
                    })
                })
        })
    })
}

/// Is the element's text drawn in the colour of the background behind it,
/// or one too close to tell apart (a black bar: `<p style="background:
/// #000">` in the page's default black; white or near-white text on the
/// page's default white)? Each read from the nearest element that sets it:
/// its inline style, `<font color>`, `<body text>` or `bgcolor`, else a rule of the page's
/// style sheets; the default text colour counts as black only when no
/// style sheet sets colours, and the default background as white.
fn on_its_own_colour(node: ego_tree::NodeRef<'_, Node>, hide: &Hide) -> bool {
    let colours = |n: ego_tree::NodeRef<'_, Node>| {
        let e = n.value().as_element();
        let style = e
            .and_then(|e| e.attr("style"))
            .map(super::css::Style::parse);
        let attr = |name: &str, tag: Option<&str>| {
            e.filter(|e| tag.is_none_or(|t| e.name() == t))
                .and_then(|e| e.attr(name))
                .map(|v| Some(v.trim().to_ascii_lowercase()))
        };
        let sheet_ink = hide.inked.get(&n.id()).cloned();
        // A sheet's `!important` colour beats the inline style's.
        let ink = if hide.important.contains(&n.id()) {
            sheet_ink
        } else {
            style
                .as_ref()
                .and_then(|s| s.ink())
                .or_else(|| attr("color", Some("font")))
                .or_else(|| attr("text", Some("body")))
                .or(sheet_ink)
        };
        let backdrop = style
            .as_ref()
            .and_then(|s| s.backdrop())
            .or_else(|| attr("bgcolor", None))
            .or_else(|| hide.backed.get(&n.id()).cloned());
        (ink, backdrop)
    };
    let (own_ink, own_backdrop) = colours(node);
    if own_ink.is_none() && own_backdrop.is_none() {
        return false;
    }
    let (mut ink, mut backdrop) = (None, None);
    for n in std::iter::successors(Some(node), |n| n.parent()).take(64) {
        let (i, b) = colours(n);
        ink = ink.or(i);
        backdrop = backdrop.or(b);
    }
    // A link is drawn in the browser's link colour, not black.
    let in_link = std::iter::successors(Some(node), |n| n.parent())
        .take(64)
        .any(|n| {
            n.value()
                .as_element()
                .is_some_and(|e| e.name() == "a" && e.attr("href").is_some())
        });
    let ink = match ink {
        Some(known) => known,
        None if !hide.inks && !in_link => Some("black".to_string()),
        None => None,
    };
    let backdrop = backdrop.unwrap_or_else(|| Some("white".to_string()));
    match (ink, backdrop) {
        (Some(i), Some(b)) => i == b || super::css::indistinct(&i, &b),
        _ => false,
    }
}

/// Is the element taken out of the line of text, by its style or a
/// rule of the page's style sheets?
fn out_of_flow(
    node: ego_tree::NodeRef<'_, Node>,
    el: &scraper::node::Element,
    hide: &Hide,
) -> bool {
    hide.apart.contains(&node.id())
        || el
            .attr("style")
            .is_some_and(|s| super::css::Style::parse(s).out_of_flow())
}

/// Is the direction at `node` right to left: its own `dir` or `direction`,
/// else its nearest ancestor's that sets one?
fn right_to_left(node: ego_tree::NodeRef<'_, Node>) -> bool {
    std::iter::successors(Some(node), |n| n.parent())
        .filter_map(|n| n.value().as_element())
        .find_map(|el| {
            el.attr("style")
                .and_then(|s| super::css::Style::parse(s).direction())
                .or_else(|| match el.attr("dir")?.to_ascii_lowercase().as_str() {
                    "rtl" => Some(true),
                    "ltr" => Some(false),
                    _ => None,
                })
        })
        .unwrap_or(false)
}

/// A superscript (`Some(true)`) or subscript: `<sup>`, `<sub>`, or
/// `vertical-align` in its style or the page's style sheets.
fn shift(id: ego_tree::NodeId, el: &scraper::node::Element, hide: &Hide) -> Option<bool> {
    match el.name() {
        "sup" => return Some(true),
        "sub" => return Some(false),
        _ => {}
    }
    if let Some(s) = el
        .attr("style")
        .and_then(|s| super::css::Style::parse(s).shift())
    {
        return Some(s);
    }
    if hide.raised.contains(&id) {
        Some(true)
    } else {
        hide.lowered.contains(&id).then_some(false)
    }
}

/// A footnote or endnote, which a reader shows apart from the text: EPUB's
/// `epub:type` or ARIA's `role`.
fn is_note(el: &scraper::node::Element) -> bool {
    el.attr("epub:type").is_some_and(|t| {
        t.split_whitespace().any(|w| {
            matches!(
                w,
                "footnote" | "endnote" | "rearnote" | "note" | "footnotes" | "endnotes"
            )
        })
    }) || el.attr("role").is_some_and(|r| {
        matches!(
            r,
            "doc-footnote" | "doc-endnote" | "doc-footnotes" | "doc-endnotes"
        )
    })
}

fn heading_level(name: &str) -> Option<u8> {
    match name {
        "h1" => Some(1),
        "h2" => Some(2),
        "h3" => Some(3),
        "h4" => Some(4),
        "h5" => Some(5),
        "h6" => Some(6),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
