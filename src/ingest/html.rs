//! HTML: headings and block elements in document order, inline text collapsed;
//! scripts, styles, navigation and other chrome are ignored. The document text
//! is the extracted blocks joined by blank lines.

use super::{BlockKind, Extracted};
use scraper::{Html, Node};

const SKIP: &[&str] = &[
    "script", "style", "noscript", "template", "nav", "head", "svg", "iframe", "object", "button",
    "select", "form", "footer",
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
    "td",
    "th",
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
    let doc = Html::parse_document(text);
    let mut out = Extracted::default();
    let title = scraper::Selector::parse("title")
        .ok()
        .and_then(|sel| doc.select(&sel).next())
        .map(|t| super::collapse_ws(&t.text().collect::<String>()))
        .filter(|t| !t.is_empty());
    let mut buf = String::new();
    walk(doc.tree.root(), &mut out, &mut buf);
    flush(&mut out, &mut buf);
    out.title = title.or_else(|| {
        out.blocks.iter().find_map(|b| match &b.kind {
            BlockKind::Heading { level: 1, text } => Some(text.clone()),
            _ => None,
        })
    });
    out
}

fn flush(out: &mut Extracted, buf: &mut String) {
    let t = super::collapse_ws(buf);
    out.push(BlockKind::Para, &t, None);
    buf.clear();
}

fn walk(node: ego_tree::NodeRef<'_, Node>, out: &mut Extracted, buf: &mut String) {
    for child in node.children() {
        match child.value() {
            Node::Text(t) => buf.push_str(&t.text),
            Node::Element(el) => {
                let name = el.name();
                if SKIP.contains(&name) {
                    continue;
                }
                if let Some(level) = heading_level(name) {
                    flush(out, buf);
                    let mut t = String::new();
                    collect_text(child, &mut t);
                    let t = super::collapse_ws(&t);
                    if !t.is_empty() {
                        out.push(
                            BlockKind::Heading {
                                level,
                                text: t.clone(),
                            },
                            &t,
                            None,
                        );
                    }
                } else if BLOCK.contains(&name) {
                    flush(out, buf);
                    walk(child, out, buf);
                    flush(out, buf);
                } else {
                    buf.push(' ');
                    walk(child, out, buf);
                    buf.push(' ');
                }
            }
            _ => {}
        }
    }
}

fn collect_text(node: ego_tree::NodeRef<'_, Node>, out: &mut String) {
    for child in node.children() {
        match child.value() {
            Node::Text(t) => out.push_str(&t.text),
            Node::Element(el) if !SKIP.contains(&el.name()) => {
                out.push(' ');
                collect_text(child, out);
            }
            _ => {}
        }
    }
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
mod tests {
    use super::*;

    #[test]
    fn blocks_in_order_without_chrome() {
        let src = r#"<html><head><title>Fog Signals</title><script>var x = "<p>no</p>";</script></head>
<body><nav><a href="/">Home</a></nav><h1>Fog <em>Signals</em></h1>
<p>Bells were <b>rung</b>
 by hand.</p><div>Loose text<ul><li>Horns</li><li>Guns &amp; rockets</li></ul></div>
<h2>Sirens</h2><p>Louder.</p></body></html>"#;
        let ex = extract(src);
        assert_eq!(ex.title.as_deref(), Some("Fog Signals"));
        assert_eq!(
            ex.text,
            "Fog Signals\n\nBells were rung by hand.\n\nLoose text\n\nHorns\n\nGuns & rockets\n\nSirens\n\nLouder."
        );
        assert!(matches!(
            ex.blocks[0].kind,
            BlockKind::Heading { level: 1, .. }
        ));
        assert!(matches!(
            ex.blocks[5].kind,
            BlockKind::Heading { level: 2, .. }
        ));
    }
}
