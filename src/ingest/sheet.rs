//! A page's own style sheets (its `<style>` elements, and an EPUB's style
//! sheets): which elements their rules hide, which they raise or lower as
//! superscripts and subscripts, and which get text the sheet writes before
//! or after them (`::before { content: "not " }`). Selectors are matched
//! as a browser matches them (any selector `scraper` reads: ids, element
//! names, attributes, descendants); rules inside `@media` apply unless the
//! query is for print only. A page a browser reads in quirks mode (an
//! HTML file without a doctype) has its class and id selectors matched in
//! any case, as the browser matches them.

use scraper::{Html, Selector};
use std::collections::{HashMap, HashSet};

/// What the sheets do to the page's elements, by node id.
#[derive(Default)]
pub(super) struct Styled {
    pub hidden: HashSet<ego_tree::NodeId>,
    pub raised: HashSet<ego_tree::NodeId>,
    pub lowered: HashSet<ego_tree::NodeId>,
    /// Elements with text written before or after them by the sheet.
    pub generated: HashSet<ego_tree::NodeId>,
    /// Elements the sheet sets apart as blocks (`display: block`, a
    /// poem's lines).
    pub blocks: HashSet<ego_tree::NodeId>,
    /// Elements whose direction the sheet overrides (`unicode-bidi:
    /// bidi-override`): reversed where the direction is right to left.
    pub overrides: HashSet<ego_tree::NodeId>,
    /// Elements the sheet takes out of the line of text (placed in the
    /// margin, floated beside it).
    pub apart: HashSet<ego_tree::NodeId>,
    /// A rule sets a text colour somewhere: an element's colour is then
    /// not known to be the default black.
    pub inks: bool,
    /// The text colour and the background rules set on elements (the last
    /// matching rule's; `None`: a colour not read), by node id.
    pub inked: HashMap<ego_tree::NodeId, Option<String>>,
    pub backed: HashMap<ego_tree::NodeId, Option<String>>,
    /// Elements whose text colour a rule sets `!important`: it beats the
    /// element's inline style.
    pub important: HashSet<ego_tree::NodeId>,
}

/// Read the page's `<style>` elements and `extra` (style sheets the page
/// links, as an EPUB's package holds them). `as_html`: the page is read as
/// a browser reads an HTML file (an EPUB's pages are XML, never in quirks
/// mode).
pub(super) fn styled(doc: &Html, extra: &str, as_html: bool) -> Styled {
    let quirks = as_html && doc.quirks_mode == html5ever::tree_builder::QuirksMode::Quirks;
    let mut css = extra.to_string();
    if let Ok(sel) = Selector::parse("style") {
        for sheet in doc.select(&sel) {
            css.push('\n');
            css.extend(sheet.text());
        }
    }
    let mut out = Styled::default();
    if css.trim().is_empty() {
        return out;
    }
    for (selectors, body) in rules(&super::css::without_comments(&css)) {
        let body = body.as_str();
        let style = super::css::Style::parse(body);
        out.inks |= style.ink().is_some();
        let hides = style.hides();
        let shift = style.shift();
        let writes = generates_text(body);
        let block = style.block();
        let reverses = style.overrides();
        let apart = style.out_of_flow();
        let (ink, backdrop) = (style.ink(), style.backdrop());
        let important = super::css::important_ink(body);
        if !hides
            && shift.is_none()
            && !writes
            && !block
            && !reverses
            && !apart
            && ink.is_none()
            && backdrop.is_none()
        {
            continue;
        }
        for s in selectors.split(',') {
            let s = s.trim();
            let lower = s.to_ascii_lowercase();
            // Pseudo-elements (their names in any case): text written
            // before or after the element, or a part of its own text
            // (`::first-line`), which counts as the element.
            let part = |names: &[&str]| {
                names
                    .iter()
                    .find_map(|p| lower.ends_with(p).then(|| &s[..s.len() - p.len()]))
            };
            let (target, generated) = match part(&["::before", "::after", ":before", ":after"]) {
                Some(base) => (base, true),
                None => (
                    part(&[
                        "::first-line",
                        "::first-letter",
                        ":first-line",
                        ":first-letter",
                    ])
                    .unwrap_or(s),
                    false,
                ),
            };
            let Some(target) = as_loaded(if target.is_empty() { "*" } else { target }) else {
                continue;
            };
            let Ok(mut sel) = Selector::parse(&target) else {
                continue;
            };
            if quirks {
                match Selector::parse(&any_case(&target)) {
                    Ok(s) => sel = s,
                    Err(_) => continue,
                }
            }
            for el in doc.select(&sel) {
                let id = el.id();
                if generated {
                    if writes {
                        out.generated.insert(id);
                    }
                    continue;
                }
                if hides {
                    out.hidden.insert(id);
                }
                if block {
                    out.blocks.insert(id);
                }
                if reverses {
                    out.overrides.insert(id);
                }
                if apart {
                    out.apart.insert(id);
                }
                // An `!important` colour is kept over any later one that
                // is not.
                if let Some(c) = &ink
                    && (important || !out.important.contains(&id))
                {
                    out.inked.insert(id, c.clone());
                    if important {
                        out.important.insert(id);
                    }
                }
                if let Some(c) = &backdrop {
                    out.backed.insert(id, c.clone());
                }
                match shift {
                    Some(true) => out.raised.insert(id),
                    Some(false) => out.lowered.insert(id),
                    None => false,
                };
            }
        }
    }
    out
}

/// At most this many sheets are read for one page, links and imports
/// together, nested at most this deep: a sheet that imports itself, or a
/// chain of thousands, costs a few reads.
const MAX_SHEETS: usize = 32;
const MAX_DEPTH: usize = 8;

/// Where a page's linked sheets come from: `fetch(from, href)` reads the
/// sheet `href` names relative to the file named `from` and gives its own
/// name (what its imports resolve against) and its text, or `None` when it
/// cannot be read (left out: the page reads as without it).
pub(super) type Fetch<'a> = dyn FnMut(&str, &str) -> Option<(String, String)> + 'a;

/// The style sheets the page named `page` links (`<link rel="stylesheet"
/// href>`, not an alternate, disabled or print-only one) and those they
/// and its `<style>` elements `@import`, as one sheet in cascade order (an
/// imported sheet before the one that imports it), as a reader or a
/// browser loads them: text they hide is hidden on the screen.
pub(super) fn linked(doc: &Html, page: &str, fetch: &mut Fetch<'_>) -> String {
    let mut out = Linked::default();
    if let Ok(sel) = Selector::parse("link[rel][href]") {
        for link in doc.select(&sel) {
            let el = link.value();
            let rel = el.attr("rel").unwrap_or_default().to_ascii_lowercase();
            let rel: Vec<&str> = rel.split_whitespace().collect();
            let media = el.attr("media").unwrap_or_default().to_ascii_lowercase();
            if rel.contains(&"stylesheet")
                && !rel.contains(&"alternate")
                && el.attr("disabled").is_none()
                && !print_only(&media)
            {
                out.follow(page, el.attr("href").unwrap_or_default(), 0, fetch);
            }
        }
    }
    if let Ok(sel) = Selector::parse("style") {
        for style in doc.select(&sel) {
            for href in imports(&style.text().collect::<String>()) {
                out.follow(page, &href, 0, fetch);
            }
        }
    }
    out.css
}

/// A sheet (named `name`) with the sheets it imports before it.
pub(super) fn with_imports(name: &str, css: &str, fetch: &mut Fetch<'_>) -> String {
    let mut out = Linked::default();
    out.seen.insert(name.to_string());
    out.sheet(name, css, 0, fetch);
    out.css
}

#[derive(Default)]
struct Linked {
    css: String,
    seen: HashSet<String>,
    fetched: usize,
}

impl Linked {
    fn follow(&mut self, from: &str, href: &str, depth: usize, fetch: &mut Fetch<'_>) {
        if depth > MAX_DEPTH || self.fetched >= MAX_SHEETS || href.trim().is_empty() {
            return;
        }
        self.fetched += 1;
        let Some((name, css)) = fetch(from, href.trim()) else {
            return;
        };
        if self.seen.insert(name.clone()) {
            self.sheet(&name, &css, depth, fetch);
        }
    }

    fn sheet(&mut self, name: &str, css: &str, depth: usize, fetch: &mut Fetch<'_>) {
        for href in imports(css) {
            self.follow(name, &href, depth + 1, fetch);
        }
        self.css.push_str(css);
        self.css.push('\n');
    }
}

/// The hrefs a sheet `@import`s (`@import url("a.css") screen;`,
/// `@import "a.css";`), but for one for print only.
fn imports(css: &str) -> Vec<String> {
    let css = super::css::without_comments(css);
    let lower = css.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = lower[from..].find("@import") {
        let start = from + i + "@import".len();
        let stmt = css[start..].trim_start();
        let (href, rest) = if stmt.len() >= 4 && stmt[..4].eq_ignore_ascii_case("url(") {
            let inner = &stmt[4..];
            let close = inner.find(')').unwrap_or(inner.len());
            let href = inner[..close].trim().trim_matches(['"', '\'']);
            (href, inner.get(close + 1..).unwrap_or(""))
        } else if let Some(q) = stmt.chars().next().filter(|c| matches!(c, '"' | '\'')) {
            let inner = &stmt[1..];
            let close = inner.find(q).unwrap_or(inner.len());
            (&inner[..close], inner.get(close + 1..).unwrap_or(""))
        } else {
            from = start;
            continue;
        };
        let end = rest.find([';', '{']).unwrap_or(rest.len());
        if !href.is_empty() && !print_only(&rest[..end].to_ascii_lowercase()) {
            out.push(href.to_string());
        }
        from = css.len() - rest.len() + end;
    }
    out
}

/// Is a list of media queries (lower case) for print only: each of them?
/// (None, or an empty one: for every medium.)
fn print_only(queries: &str) -> bool {
    queries.split(',').all(|q| {
        let q = q.trim();
        q.contains("print") && !q.contains("screen") && !q.contains("not print")
    })
}

/// A sheet's `href` as a name relative to the folder at the root of the
/// names (`from` is the name of the file that links it): `None` for a URL
/// (`http:`, `data:`, `//host/`), an absolute path, or one whose `..`
/// climbs above that folder. Percent-decoded, without a query or a
/// fragment.
pub(super) fn relative(from: &str, href: &str) -> Option<String> {
    let href = href.split(['#', '?']).next().unwrap_or_default();
    let decoded = percent_decode(href);
    // A URL (`http:`, `file:`), a drive (`C:`), a Windows separator, an
    // absolute path (`/`, `//host/`): however spelt, not a name inside
    // the folder.
    if href.is_empty() || href.starts_with('/') || decoded.contains([':', '\\']) {
        return None;
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop(); // the linking file's own name
    for seg in decoded.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    parts.retain(|p| !p.is_empty() && *p != ".");
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// `%20` and friends in an href, as bytes (an invalid escape is kept).
pub(super) fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Does a rule's body write text (`content: "not "`, `attr(data-w)`, a
/// counter), not nothing (`""`, `none`) or an image?
fn generates_text(body: &str) -> bool {
    body.split(';').any(|decl| {
        decl.split_once(':').is_some_and(|(p, v)| {
            let v = v.trim().to_ascii_lowercase();
            p.trim().eq_ignore_ascii_case("content")
                && (v.contains("attr(")
                    || v.contains("counter")
                    || v.split(['"', '\''])
                        .skip(1)
                        .step_by(2)
                        .any(|quoted| quoted.chars().any(char::is_alphanumeric)))
        })
    })
}

/// The style rules of a sheet: (selectors, declarations). The bodies of
/// `@media` (unless for print only), `@supports`, `@layer`, `@scope` and
/// `@container` are read as rules; other at-rules (`@font-face`, `@page`,
/// `@keyframes`) are not. A rule nested in another (`.a { & .b { … } }`)
/// is read with its parent's selectors.
fn rules(css: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (head, body) in blocks(css) {
        if let Some(at) = head.strip_prefix('@') {
            let lower = at.to_ascii_lowercase();
            // A list of queries applies when any does: print only when
            // each is for print.
            let print_only = lower.starts_with("media") && print_only(&lower["media".len()..]);
            let transparent = ["supports", "layer", "scope", "container"]
                .iter()
                .any(|k| lower.starts_with(k));
            if (lower.starts_with("media") && !print_only) || transparent {
                out.extend(rules(body));
            }
            continue;
        }
        // Declarations, and the rules nested among them.
        let mut own = String::new();
        let mut rest = body;
        while let Some(open) = rest.find('{') {
            let start = rest[..open].rfind([';', '}']).map_or(0, |i| i + 1);
            own.push_str(&rest[..start]);
            let close = block_end(rest, open);
            let nested = &rest[start..close.min(rest.len())];
            for (sel, decls) in rules(&format!("{nested}}}")) {
                out.push((nest(head, &sel), decls));
            }
            rest = rest.get(close + 1..).unwrap_or("");
        }
        own.push_str(rest);
        out.push((head.to_string(), own));
    }
    out
}

/// A nested rule's selectors in full: `&` is the parent, else the
/// nested selector is a descendant of it.
fn nest(parent: &str, nested: &str) -> String {
    let mut out = Vec::new();
    for p in parent.split(',').map(str::trim) {
        for n in nested.split(',').map(str::trim) {
            out.push(if n.contains('&') {
                n.replace('&', p)
            } else {
                format!("{p} {n}")
            });
        }
    }
    out.join(", ")
}

/// The top-level blocks of `css`: (what stands before `{`, what is inside).
fn blocks(css: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = css;
    while let Some(open) = rest.find('{') {
        // What ends a previous declaration-less statement (`@import …;`).
        let head = rest[..open].trim();
        let head = head.rsplit([';', '}']).next().unwrap_or(head).trim();
        let close = block_end(rest, open);
        out.push((head, &rest[(open + 1).min(close)..close.min(rest.len())]));
        rest = rest.get(close + 1..).unwrap_or("");
    }
    out
}

/// Where the block opened at `open` ends, nested blocks counted (the end
/// of `s` when it is never closed).
fn block_end(s: &str, open: usize) -> usize {
    let mut depth = 0usize;
    for (i, c) in s[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i;
                }
            }
            _ => {}
        }
    }
    s.len()
}

/// The selectors of the rules of `css` that hide what they match, as the
/// page is loaded (for raw HTML in Markdown, matched by hand).
pub(super) fn hiding_selectors(css: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (selectors, body) in rules(&super::css::without_comments(css)) {
        if !super::css::Style::parse(&body).hides() {
            continue;
        }
        out.extend(selectors.split(',').filter_map(|s| as_loaded(s.trim())));
    }
    out
}

/// A selector as it matches the page as loaded, before the reader does
/// anything: nothing hovered, focused, checked or targeted. `:not(:hover)`
/// always holds then (it is dropped); a selector that needs `:hover` never
/// does (`None`).
fn as_loaded(selector: &str) -> Option<String> {
    const STATES: &[&str] = &[
        "hover",
        "focus-within",
        "focus-visible",
        "focus",
        "active",
        "checked",
        "target",
        "visited",
        "popover-open",
    ];
    let mut s = selector.to_string();
    for state in STATES {
        s = s.replace(&format!(":not(:{state})"), "");
    }
    let lower = s.to_ascii_lowercase();
    if STATES.iter().any(|state| {
        lower.match_indices(&format!(":{state}")).any(|(i, m)| {
            !lower[i + m.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
        })
    }) {
        return None;
    }
    // `#t ~ .answer` once `:not(:checked)` is gone: a bare combinator at
    // either end reads as nothing.
    let s = s
        .trim()
        .trim_start_matches(['~', '+', '>'])
        .trim()
        .to_string();
    Some(if s.is_empty() { "*".to_string() } else { s })
}

/// A selector whose class and id parts (`.Note`, `#Gloss`) match in any
/// ASCII case, as in a page read in quirks mode: each written as the
/// attribute selector that does (`[class~="Note" i]`, `[id="Gloss" i]`).
/// Text in brackets or quotes (`[href$=".pdf"]`) is left as it is; a
/// name's escapes (`.\31 a`) are the same in a CSS string.
fn any_case(selector: &str) -> String {
    let name_char = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '\\') || !c.is_ascii();
    let chars: Vec<char> = selector.chars().collect();
    let mut out = String::new();
    let (mut bracket, mut quote) = (0usize, None::<char>);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match (quote, c) {
            (Some(q), _) => {
                out.push(c);
                if c == '\\' && i + 1 < chars.len() {
                    i += 1;
                    out.push(chars[i]);
                } else if c == q {
                    quote = None;
                }
            }
            (None, '"' | '\'') => {
                quote = Some(c);
                out.push(c);
            }
            (None, '[') => {
                bracket += 1;
                out.push(c);
            }
            (None, ']') => {
                bracket = bracket.saturating_sub(1);
                out.push(c);
            }
            (None, '.' | '#') if bracket == 0 => {
                let mut j = i + 1;
                while j < chars.len() && name_char(chars[j]) {
                    if chars[j] != '\\' {
                        j += 1;
                        continue;
                    }
                    // An escape: up to six hex digits and a space after
                    // them, or the one character after it.
                    let hex = chars[j + 1..]
                        .iter()
                        .take(6)
                        .take_while(|c| c.is_ascii_hexdigit())
                        .count();
                    j += 1 + hex.max(1);
                    if hex > 0 && chars.get(j).is_some_and(|c| c.is_whitespace()) {
                        j += 1;
                    }
                }
                let j = j.min(chars.len());
                let name: String = chars[i + 1..j].iter().collect();
                if !name.is_empty() && !name.contains('"') {
                    let attr = if c == '.' { "class~" } else { "id" };
                    out.push_str(&format!("[{attr}=\"{name}\" i]"));
                    i = j;
                    continue;
                }
                out.push(c);
            }
            _ => out.push(c),
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_of_a_sheet_with_at_rules() {
        let css = "@import url(x.css); p.a, #b { display: none } \
                   @media screen and (min-width: 1px) { span[data-x] { visibility: hidden } } \
                   @media print { .c { display: none } } \
                   @font-face { font-family: X; src: url(x.woff) } .d::before { content: 'not ' }";
        let got = rules(css);
        let selectors: Vec<&str> = got.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(selectors, ["p.a, #b", "span[data-x]", ".d::before"]);
        let css = ".n { color: red; & .h { display: none } .k { display: none } } \
                   @layer base { .l { display: none } } @media not print { .m { display: none } } \
                   @scope (p) { .s { display: none } }";
        let got = rules(css);
        let selectors: Vec<&str> = got.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(selectors, [".n .h", ".n .k", ".n", ".l", ".m", ".s"]);
        assert_eq!(got[2].1.trim(), "color: red;");
    }

    #[test]
    fn class_and_id_names_in_any_case() {
        assert_eq!(
            any_case("p.Note > #G-1"),
            "p[class~=\"Note\" i] > [id=\"G-1\" i]"
        );
        assert_eq!(
            any_case("a[href$=\".pdf\"].x"),
            "a[href$=\".pdf\"][class~=\"x\" i]"
        );
        assert_eq!(any_case(":not(.a) ~ span"), ":not([class~=\"a\" i]) ~ span");
        assert_eq!(any_case(".\\31 a b"), "[class~=\"\\31 a\" i] b");
        assert_eq!(any_case("span"), "span");
    }

    #[test]
    fn text_written_by_the_sheet() {
        assert!(generates_text("content: 'not '"));
        assert!(generates_text("color: red; content: \"[1]\""));
        assert!(!generates_text("content: ''"));
        assert!(!generates_text("content: url(x.png)"));
        assert!(generates_text("content: attr(data-w)"));
        assert!(!generates_text("content: none"));
        assert!(!generates_text("color: red"));
    }
}
