//! Letters and labels a page sets apart from its words: a drop cap drawn
//! as a picture, and a note's reference beside the word it belongs to.

use super::{BLOCK, Hide, hidden};
use scraper::Node;

/// The letter of an image set as the first letter of a word: an `<img>`
/// whose alternative text is one letter, followed at once by the rest of
/// the word in small letters.
pub(super) fn drop_cap<'a>(
    node: ego_tree::NodeRef<'a, Node>,
    el: &'a scraper::node::Element,
) -> Option<&'a str> {
    let alt = pictured_letter(el)?;
    let rest = node.next_sibling()?;
    let rest = rest.value().as_text()?;
    rest.starts_with(char::is_lowercase).then_some(alt)
}

/// A note's reference set after the word or the stop it belongs to
/// (`(1740).<a href="#Footnote_56_56" class="fnanchor">[56]</a> Already`,
/// Project Gutenberg's): a link within the page whose text is a number or
/// a sign in brackets. Not read, as a Word document's note references are
/// not (the note is read where it stands): "[56] Already in his father's
/// house" is no sentence. (Only when it touches the word before it: with a
/// space before it, "[40]" may be a word of the sentence, and is read.)
pub(super) fn note_reference(
    node: ego_tree::NodeRef<'_, Node>,
    el: &scraper::node::Element,
) -> bool {
    if el.name() != "a" || !el.attr("href").is_some_and(|h| h.starts_with('#')) {
        return false;
    }
    let text: String = node
        .descendants()
        .filter_map(|d| d.value().as_text())
        .map(|t| &**t)
        .collect();
    let label = text.strip_prefix('[').and_then(|r| r.strip_suffix(']'));
    label.is_some_and(|l| {
        let n = l.chars().count();
        (1..=4).contains(&n) && l.chars().all(|c| c.is_ascii_digit())
            || n == 1
                && l.chars()
                    .all(|c| c.is_ascii_alphabetic() || "*†‡§".contains(c))
    })
}

/// The letter an `<img>` stands for: its alternative text, when that is
/// one letter.
fn pictured_letter(el: &scraper::node::Element) -> Option<&str> {
    let alt = el.attr("alt").filter(|_| el.name() == "img")?.trim();
    let mut chars = alt.chars();
    (chars.next().is_some_and(char::is_alphabetic) && chars.next().is_none()).then_some(alt)
}

/// A drop cap set as a picture in a block of its own, floated beside the
/// paragraph it begins (`<div class="figleft"><img alt="B"></div><p
/// class="noindent">eethoven visited`, Project Gutenberg's books): the
/// letter, when the block holds that one image and nothing else a reader
/// sees, and the next block's first words go on in small letters.
pub(super) fn initial_block<'a>(
    node: ego_tree::NodeRef<'a, Node>,
    el: &scraper::node::Element,
    hide: &Hide,
) -> Option<&'a str> {
    if !BLOCK.contains(&el.name()) || hidden(node, el, hide) {
        return None;
    }
    let mut letter = None;
    for d in node.descendants().skip(1) {
        match d.value() {
            Node::Text(t) if t.trim().is_empty() => {}
            Node::Comment(_) => {}
            Node::Element(e) if e.name() == "img" && letter.is_none() && !hidden(d, e, hide) => {
                letter = Some(pictured_letter(e)?);
            }
            Node::Element(e)
                if matches!(e.name(), "a" | "span" | "div" | "p") && !hidden(d, e, hide) => {}
            _ => return None,
        }
    }
    let next = node.next_siblings().find(|n| match n.value() {
        Node::Text(t) => !t.trim().is_empty(),
        Node::Comment(_) => false,
        _ => true,
    })?;
    let next_el = next.value().as_element()?;
    if !BLOCK.contains(&next_el.name()) || hidden(next, next_el, hide) {
        return None;
    }
    let first = next
        .descendants()
        .filter_map(|d| d.value().as_text())
        .find(|t| !t.trim().is_empty())?;
    first
        .trim_start()
        .starts_with(char::is_lowercase)
        .then_some(letter?)
}
