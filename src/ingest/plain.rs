//! Plain text and reStructuredText: paragraphs are runs of non-blank lines;
//! headings are lines underlined (and optionally overlined) with a repeated
//! punctuation character. In plain text a short ALL-CAPS line on its own is a
//! heading too. The document text is the file text itself.

use super::{Block, BlockKind, Extracted};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    Text,
    Rst,
}

/// The flavor of a `.txt` file: reStructuredText when at least two of its
/// lines are explicit markup (a directive `.. note::`, a target `.. _name:`
/// or a footnote `.. [1]`), as in PEPs and the `.rst.txt` sources of
/// Sphinx sites; plain text otherwise.
pub fn sniff(text: &str) -> Flavor {
    if text.lines().filter(|l| explicit_markup(l)).nth(1).is_some() {
        Flavor::Rst
    } else {
        Flavor::Text
    }
}

/// A line of reStructuredText explicit markup other than a comment: a
/// directive `.. note::`, a target `.. _name:`, a footnote or citation
/// `.. [1]`, a substitution `.. |name| image::`.
fn explicit_markup(line: &str) -> bool {
    let Some(rest) = line.strip_prefix(".. ") else {
        return false;
    };
    let label = |r: &str| {
        r.strip_prefix('[')
            .and_then(|r| r.split_once(']'))
            .is_some_and(|(l, _)| !l.is_empty() && !l.contains(char::is_whitespace))
    };
    directive_name(line).is_some()
        || (rest.starts_with('_') && rest.trim_end().ends_with(':'))
        || label(rest)
        || rest.starts_with('|')
}

/// The name of the directive a line opens (`.. note::`, `.. py:function::`,
/// `.. Note::`), lower-cased, as docutils reads names.
fn directive_name(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix(".. ")?;
    let (name, _) = rest.split_once("::")?;
    let ok = !name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.' | '+'));
    ok.then(|| name.to_ascii_lowercase())
}

/// A directive whose argument and body the page never shows as text:
/// markup for another output (`raw`, `only:: latex`), settings (`meta`,
/// `highlight`, `index` entries, a picture and its alternative text),
/// text shown only under a condition (`ifconfig`), or a file's contents.
fn directive_never_shown(first: &str) -> bool {
    const NEVER: &[&str] = &[
        "raw",
        "todo",
        "meta",
        "index",
        "highlight",
        "ifconfig",
        "image",
        "include",
        "literalinclude",
        "default-role",
        "role",
        "title",
        "toctree",
        "tabularcolumns",
        "sectnum",
        "class",
    ];
    let Some(rest) = first.strip_prefix("..").map(str::trim_start) else {
        return false;
    };
    // A substitution's definition (`.. |name| replace:: …`, `.. |logo|
    // image:: path`) shows nothing where it stands.
    if rest.starts_with('|') {
        return true;
    }
    let Some((name, argument)) = rest.split_once("::") else {
        return false;
    };
    let name = name.trim().to_ascii_lowercase();
    let argument = argument.to_ascii_lowercase();
    NEVER.contains(&name.as_str())
        || (name == "only" && (!argument.contains("html") || argument.contains("not")))
}

/// One line with its byte range (without the line terminator).
struct Line<'a> {
    s: &'a str,
    start: usize,
    end: usize,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut pos = 0;
    for raw in text.split_inclusive('\n') {
        let s = raw.trim_end_matches(['\n', '\r']);
        out.push(Line {
            s,
            start: pos,
            end: pos + s.len(),
        });
        pos += raw.len();
    }
    out
}

fn adornment(s: &str) -> Option<char> {
    let t = s.trim_end();
    let c = t.chars().next()?;
    if t.chars().count() >= 3 && "=-~^*+#\"'`:._".contains(c) && t.chars().all(|x| x == c) {
        Some(c)
    } else {
        None
    }
}

fn is_blank(s: &str) -> bool {
    s.trim().is_empty()
}

pub fn extract(text: &str, flavor: Flavor) -> Extracted {
    let ls = lines(text);
    let mut out = Extracted {
        text: text.to_string(),
        text_is_file: true,
        ..Default::default()
    };
    // Adornment styles in order of first appearance: (char, overlined).
    let mut styles: Vec<(char, bool)> = Vec::new();
    let mut comments: Vec<std::ops::Range<usize>> = Vec::new();
    let mut i = 0;
    while i < ls.len() {
        if is_blank(ls[i].s) {
            i += 1;
            continue;
        }
        // Overline + title + underline.
        if let Some(c) = adornment(ls[i].s)
            && i + 2 < ls.len()
            && !is_blank(ls[i + 1].s)
            && adornment(ls[i + 1].s).is_none()
            && adornment(ls[i + 2].s) == Some(c)
        {
            heading(
                &mut out,
                &mut styles,
                flavor,
                (c, true),
                &ls[i + 1],
                ls[i].start,
                ls[i + 2].end,
            );
            i += 3;
            continue;
        }
        // Title + underline.
        if i + 1 < ls.len()
            && adornment(ls[i].s).is_none()
            && let Some(c) = adornment(ls[i + 1].s)
            && ls[i + 1].s.trim_end().chars().count() * 2 >= ls[i].s.trim().chars().count()
            && (i == 0 || is_blank(ls[i - 1].s))
        {
            heading(
                &mut out,
                &mut styles,
                flavor,
                (c, false),
                &ls[i],
                ls[i].start,
                ls[i + 1].end,
            );
            i += 2;
            continue;
        }
        // A paragraph: up to the next blank line or underlined heading.
        let start = i;
        let mut j = i;
        while j < ls.len() && !is_blank(ls[j].s) {
            if j > start
                && j + 1 < ls.len()
                && adornment(ls[j + 1].s).is_some()
                && adornment(ls[j].s).is_none()
            {
                break;
            }
            j += 1;
        }
        let first = ls[start].s.trim();
        let single = j == start + 1;
        if flavor == Flavor::Rst && first.starts_with("..") {
            // Comment or directive: not prose. A comment is not shown at
            // all: its chars become spaces (its lines and every offset
            // stay), so no passage quotes it.
            // So is a raw block: markup for another output (LaTeX, HTML),
            // not text as the page shows it.
            let raw = directive_never_shown(first);
            let indent = |l: &str| l.len() - l.trim_start().len();
            let own = indent(ls[start].s);
            let comment = (first == ".." || first.starts_with(".. ")) && !explicit_markup(first);
            if !raw && !comment {
                // A directive's options (`:alt:`, `:target:`, a value
                // going on on deeper lines) are settings, not text the page
                // shows, but for a caption or a table's header.
                let mut k = start + 1;
                let mut option_indent = None;
                while k < j {
                    let l = ls[k].s;
                    let t = l.trim_start();
                    if t.starts_with(':') && indent(l) > own {
                        let shown = [":caption:", ":header:"].iter().any(|o| t.starts_with(o));
                        if !shown {
                            comments.push(ls[k].start..ls[k].end);
                        }
                        option_indent = Some(indent(l));
                    } else if option_indent.is_some_and(|o| indent(l) > o) {
                        comments.push(ls[k].start..ls[k].end);
                    } else {
                        break;
                    }
                    k += 1;
                }
                // The text it shows from its own lines (an admonition's
                // "`.. note:: Kilo …`", or its body right under it) is a
                // passage; an argument that names a file or a language is
                // not text.
                let marker_end = ls[start].s.find("::").map_or(ls[start].s.len(), |e| e + 2);
                let argument = ls[start].s[marker_end..].trim();
                let named = argument.split_whitespace().count() <= 1
                    && (argument.contains(['.', '/'])
                        || directive_name(first).is_some_and(|n| {
                            matches!(
                                n.as_str(),
                                "code-block" | "code" | "sourcecode" | "highlight"
                            )
                        }));
                let from = if argument.is_empty() || named {
                    (k < j).then(|| ls[k].start)
                } else {
                    Some(
                        ls[start].start + ls[start].s.len()
                            - ls[start].s[marker_end..].trim_start().len(),
                    )
                };
                if let Some(from) = from {
                    out.blocks.push(Block {
                        kind: BlockKind::Para,
                        start: from,
                        end: ls[j - 1].end,
                        page: None,
                    });
                }
            }
            if raw || comment {
                // Its body goes on over blank lines while indented deeper
                // than it is.
                let mut end = j - 1;
                let mut k = j;
                while k < ls.len() && (is_blank(ls[k].s) || indent(ls[k].s) > own) {
                    if !is_blank(ls[k].s) {
                        end = k;
                    }
                    k += 1;
                }
                comments.push(ls[start].start..ls[end].end);
                j = end + 1;
            }
        } else if flavor == Flavor::Text && single && is_roman(first) {
            // A chapter number alone ("IV"), with the title on the next line
            // of its own ("_The Modern Orchestra_") when there is one: one
            // heading, "IV The Modern Orchestra".
            let next = (j..ls.len()).find(|&k| !is_blank(ls[k].s));
            let titled = next.filter(|&k| {
                let t = ls[k].s.trim();
                (k + 1 == ls.len() || is_blank(ls[k + 1].s))
                    && t.split_whitespace().count() <= 10
                    && !t.ends_with(['.', ',', ';', ':', ']'])
                    && !is_roman(t)
            });
            let end = titled.map_or(ls[start].end, |k| ls[k].end);
            let text = match titled {
                Some(k) => format!("{first} {}", ls[k].s.trim().trim_matches('_')),
                None => first.to_string(),
            };
            let line = Line {
                s: &text,
                start: ls[start].start,
                end,
            };
            heading(
                &mut out,
                &mut styles,
                flavor,
                ('\u{0}', false),
                &line,
                line.start,
                line.end,
            );
            i = titled.map_or(j, |k| k + 1);
            continue;
        } else if flavor == Flavor::Text && single && is_caps_heading(first) {
            let l = &ls[start];
            heading(
                &mut out,
                &mut styles,
                flavor,
                ('\u{0}', false),
                l,
                l.start,
                l.end,
            );
        } else if j > start {
            out.blocks.push(Block {
                kind: BlockKind::Para,
                start: ls[start].start,
                end: ls[j - 1].end,
                page: None,
            });
        }
        i = j.max(i + 1);
    }
    if !comments.is_empty() {
        let comments: Vec<_> = comments.into_iter().map(|r| (r, false)).collect();
        out.text = crate::text::blank_out(std::mem::take(&mut out.text), &comments);
    }
    out
}

/// A line in capitals: a heading, unless it is a label ("FOOTNOTES:", whose
/// notes belong to the chapter before) or the end of a bracketed caption
/// ("VIOLIN--(CLIFFORD SCHMIDT)]").
fn is_caps_heading(s: &str) -> bool {
    s.chars().count() <= 80
        && s.chars().filter(|c| c.is_alphabetic()).count() >= 3
        && !s.chars().any(char::is_lowercase)
        && !s.ends_with(['.', ',', ';', ':', ']'])
}

/// A chapter number in Roman numerals alone on its line ("IV", "XVIII.").
/// A single letter with a full stop ("C.", "I.") heads a section of an
/// index, not a chapter.
fn is_roman(s: &str) -> bool {
    let s = s.trim();
    let t = s.trim_end_matches('.');
    t.len() <= 7 && crate::text::roman_numeral(t) && !(t.len() == 1 && s.len() > 1)
}

fn heading(
    out: &mut Extracted,
    styles: &mut Vec<(char, bool)>,
    flavor: Flavor,
    style: (char, bool),
    title: &Line<'_>,
    start: usize,
    end: usize,
) {
    let level = match flavor {
        Flavor::Text => match style.0 {
            '\u{0}' | '=' => 1,
            '-' => 2,
            '~' => 3,
            _ => 4,
        },
        Flavor::Rst => {
            let pos = styles.iter().position(|s| *s == style).unwrap_or_else(|| {
                styles.push(style);
                styles.len() - 1
            });
            (pos + 1).min(6) as u8
        }
    };
    let text = super::collapse_ws(title.s);
    if out.title.is_none() && level == 1 {
        out.title = Some(text.clone());
    }
    out.blocks.push(Block {
        kind: BlockKind::Heading { level, text },
        start,
        end,
        page: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reStructuredText comment is not shown, so not read; its lines
    /// stay, blank, and every other offset with them. Directives, targets
    /// and footnotes are not comments.
    #[test]
    fn rst_comments_are_not_text() {
        let src = "Title\n=====\n\nThe keepers were paid.\n\n.. The keepers were not paid\n   in gold — ever.\n\n.. note:: A note.\n\n.. _target:\n\nThe end.\n";
        let ex = extract(src, Flavor::Rst);
        assert_eq!(ex.text.len(), src.len());
        assert!(!ex.text.contains("not paid") && !ex.text.contains("gold"));
        assert!(ex.text.contains(".. note:: A note.") && ex.text.contains(".. _target:"));
        assert_eq!(ex.text.lines().count(), src.lines().count());
        assert_eq!(&ex.text[src.find("The end").unwrap()..][..7], "The end");
        // Plain text keeps its ".." lines.
        assert_eq!(extract(src, Flavor::Text).text, src);
        // A comment's body goes on over a blank line while indented.
        let src = ".. A comment about the station\n   that goes on.\n\n   The logs were forged.\n\nThe end.\n";
        let ex = extract(src, Flavor::Rst);
        assert!(
            !ex.text.contains("forged") && !ex.text.contains("goes on"),
            "{}",
            ex.text
        );
        assert!(ex.text.contains("The end."), "{}", ex.text);
        // A raw block is markup for another output, not text.
        let src = "Before.\n\n.. raw:: latex\n\n   \\textbf{The logs were forged.}\n\nThe end.\n";
        let ex = extract(src, Flavor::Rst);
        assert!(!ex.text.contains("forged"), "{}", ex.text);
        assert!(
            ex.text.contains("Before.") && ex.text.contains("The end."),
            "{}",
            ex.text
        );
    }

    fn shape(ex: &Extracted) -> Vec<String> {
        ex.blocks
            .iter()
            .map(|b| match &b.kind {
                BlockKind::Heading { level, text } => format!("h{level}:{text}"),
                BlockKind::Para => format!("p:{}", &ex.text[b.start..b.end]),
                BlockKind::Aside => "aside".into(),
                BlockKind::Note => "note".into(),
            })
            .collect()
    }

    #[test]
    fn a_text_file_with_rst_markup_reads_as_rst() {
        let howto = ".. _sortinghowto:\n\nSorting HOW TO\n**************\n\nLists sort.\n\n.. doctest::\n\n    >>> sorted([2, 1])\n";
        assert_eq!(sniff(howto), Flavor::Rst);
        let ex = extract(howto, sniff(howto));
        assert_eq!(ex.title.as_deref(), Some("Sorting HOW TO"));
        assert!(
            !shape(&ex).iter().any(|b| b.contains("..")),
            "{:?}",
            shape(&ex)
        );
        let pep = "PEP: 8\nTitle: Style\n\nBody [1]_.\n\n.. [1] A note.\n\n..\n   Local Variables:\n\n.. [2] Another.\n";
        assert_eq!(sniff(pep), Flavor::Rst);
        // One directive-like line, an ellipsis, a path: plain text.
        for text in [
            "He paused.\n\n.. note:: once\n\nThen.",
            ". . . and so on.\n.. and more ..\n.. so:: It\n",
            "See C:\\x .. [draft] notes.",
        ] {
            assert_eq!(sniff(text), Flavor::Text, "{text}");
        }
    }

    #[test]
    fn rst_levels_follow_first_appearance() {
        let src = "=========\nLighthouses\n=========\n\nIntro line one\nline two.\n\nFuels\n-----\n\nWhale oil.\n\n.. note:: shown too\n\nColza\n~~~~~\n\nRapeseed.\n\nLenses\n------\n\nFresnel.\n";
        let ex = extract(src, Flavor::Rst);
        assert_eq!(ex.title.as_deref(), Some("Lighthouses"));
        assert_eq!(
            shape(&ex),
            [
                "h1:Lighthouses",
                "p:Intro line one\nline two.",
                "h2:Fuels",
                "p:Whale oil.",
                "p:shown too",
                "h3:Colza",
                "p:Rapeseed.",
                "h2:Lenses",
                "p:Fresnel.",
            ]
        );
    }

    #[test]
    fn text_underlines_and_caps_headings() {
        let src = "KEEPERS OF THE LIGHT\n\nDaily Life\n==========\n\nThey trimmed wicks.\r\nAll night.\n\nNIGHT WATCH\n\nStayed awake.\n";
        let ex = extract(src, Flavor::Text);
        assert_eq!(
            shape(&ex),
            [
                "h1:KEEPERS OF THE LIGHT",
                "h1:Daily Life",
                "p:They trimmed wicks.\r\nAll night.",
                "h1:NIGHT WATCH",
                "p:Stayed awake.",
            ]
        );
        assert_eq!(ex.title.as_deref(), Some("KEEPERS OF THE LIGHT"));
    }

    /// A Gutenberg book: a chapter is a Roman numeral with its title on the
    /// next line; "FOOTNOTES:" is the label of the chapter's notes, not a
    /// heading the next chapter's text would be located under; a caption's
    /// closing line is no heading.
    #[test]
    fn gutenberg_chapters_and_footnotes() {
        let src = "III\n\nTHE ORCHESTRA\n\nStrings first.\n\nFOOTNOTES:\n\n[A] A note.\n\n\nIV\n\n_The Modern Orchestra_\n\n[Sidenote: _Bands._]\n\nThe most eloquent instrument.\n\nVIOLIN--(CLIFFORD SCHMIDT)]\n\nV\n\nIt ends.\n\nC.\n\n  Caccini, 177.\n";
        let ex = extract(src, Flavor::Text);
        assert_eq!(
            shape(&ex),
            [
                "h1:III THE ORCHESTRA",
                "p:Strings first.",
                "p:FOOTNOTES:",
                "p:[A] A note.",
                "h1:IV The Modern Orchestra",
                "p:[Sidenote: _Bands._]",
                "p:The most eloquent instrument.",
                "p:VIOLIN--(CLIFFORD SCHMIDT)]",
                "h1:V",
                "p:It ends.",
                "p:C.",
                "p:  Caccini, 177.",
            ]
        );
        // Every block is the file's own text at its offsets.
        for b in &ex.blocks {
            assert!(b.start <= b.end && b.end <= ex.text.len());
        }
    }

    /// What a directive sets but the page never shows is not text: its
    /// options, and the whole of `meta`, `index`, `highlight`, an image,
    /// `only` for another output and `ifconfig` (the red team's log).
    #[test]
    fn rst_settings_and_other_outputs_are_not_text() {
        let src = "Keeper Log\n==========\n\nIntro.\n\n.. meta::\n   :description: Alpha sold the oil\n\n\
                   .. index:: Gamma slept through the fog\n\n.. |logo| image:: logo.png\n   :alt: Delta stole the brass\n\n\
                   .. figure:: picture.png\n   :alt: Epsilon drank the rum\n\n   The caption is shown.\n\n\
                   .. only:: latex\n\n   Zeta forged the entries.\n\n.. only:: html\n\n   Shown on the web.\n\n\
                   .. ifconfig:: False\n\n   Eta lied.\n\n.. sidebar:: Side\n\n   Theta painted the rail.\n\n\
                   .. highlight:: Iota hid the lenses\n\nThe end.\n";
        let ex = extract(src, Flavor::Rst);
        assert_eq!(ex.text.len(), src.len());
        for gone in ["Alpha", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Iota"] {
            assert!(!ex.text.contains(gone), "{gone}: {}", ex.text);
        }
        for kept in [
            "Intro.",
            "The caption is shown.",
            "Shown on the web.",
            "Theta painted",
            "The end.",
        ] {
            assert!(ex.text.contains(kept), "{kept}: {}", ex.text);
        }
    }

    /// A directive's shown text is a passage wherever it stands: Sphinx's
    /// domain directives, names in capitals, an admonition's text on its
    /// own line or right under it; what a nested comment or raw block
    /// hides ends where the indentation does (the red team's pages).
    #[test]
    fn directive_text_is_read_and_hidden_as_shown() {
        let src = "Title\n=====\n\nIntro.\n\n.. py:function:: send(message)\n\n   Delta sends the message.\n\n\
                   .. Note::\n\n   Echo is shown.\n\n.. code-block:: python\n   :caption: Golf caption shown\n   :name: hidden-name\n\n   x = 1\n\n\
                   .. only:: not html\n\n   Alpha is for print.\n\n.. [Bravo the pilot] a comment.\n\n\
                   .. figure:: lamp.png\n   :alt:\n      Hotel alt text.\n\n   The caption.\n\n\
                   .. note::\n   Lima right under it.\n\n   .. raw:: latex\n\n      \\hidden\n\n   Kilo after the raw.\n\n\
                   .. warning:: Mike on its own line.\n\n.. todo:: Oscar is a todo.\n\n\
                   .. |sub| replace:: Hotel never used.\n";
        let ex = extract(src, Flavor::Rst);
        assert_eq!(ex.text.len(), src.len());
        for gone in ["Alpha", "Bravo", "Hotel", "hidden", "Oscar"] {
            assert!(!ex.text.contains(gone), "{gone}: {}", ex.text);
        }
        let paras: Vec<String> = ex
            .blocks
            .iter()
            .filter(|b| matches!(b.kind, BlockKind::Para))
            .map(|b| crate::text::collapse_ws(&ex.text[b.start..b.end]))
            .collect();
        for shown in [
            "Delta sends the message.",
            "Echo is shown.",
            "The caption.",
            "Lima right under it.",
            "Kilo after the raw.",
            "Mike on its own line.",
        ] {
            assert!(paras.iter().any(|p| p == shown), "{shown}: {paras:?}");
        }
        assert!(ex.text.contains("Golf caption shown"), "{}", ex.text);
    }
}
