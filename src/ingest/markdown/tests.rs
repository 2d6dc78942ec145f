use super::*;

/// Is `quote` validated, word for word, in the extracted text?
fn validated(ex: &Extracted, quote: &str) -> bool {
    use crate::validate::{ChunkRef, Status, ValidateConfig, validate};
    let cs = [ChunkRef {
        id: "m#0",
        source_id: "m",
        text: &ex.text,
    }];
    let cfg = ValidateConfig {
        min_words: 1,
        ..Default::default()
    };
    validate(quote, "m", &cs, &cfg).status == Status::Validated
}

/// The passages (paragraphs) of the extracted text, spaces collapsed.
fn paras(ex: &Extracted) -> Vec<String> {
    ex.blocks
        .iter()
        .filter(|b| matches!(b.kind, BlockKind::Para))
        .map(|b| crate::text::collapse_ws(&ex.text[b.start..b.end]))
        .collect()
}

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
    let ex = extract(
        "The keepers can<!-- note -->not leave the rock. \
         The boat<!-- x --> left the rock<!-- y -->\nat dawn.\n",
    );
    for (quote, shown) in [
        ("not leave the rock.", false),
        ("The keepers can", false),
        ("The boat", true),
        ("left the rock", true),
        ("at dawn.", true),
    ] {
        assert_eq!(validated(&ex, quote), shown, "{quote}");
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

/// An HTML block between paragraphs, hiding what it holds in one
/// block, or holding words only in its attributes, is not read; a
/// shown one is a passage (the red team's notes).
#[test]
fn an_html_block_shows_only_what_a_page_shows() {
    let src = "# Log\n\nIntro paragraph about the keeper.\n<div hidden>\n\
               Theta: the keeper secretly left the tower.\n</div>\n\
               The closing paragraph.\n\n\
               <div style=\"display:none\">Alpha: the keeper sold the oil.</div>\n\n\
               <template>Beta: the keeper burned the letters.</template>\n\n\
               <p hidden>Gamma: the keeper slept.</p>\n\n\
               <input type=\"hidden\" value=\"the keeper forged the journal\">\n\n\
               <div data-note=\"the keeper hid the lenses\"></div>\n\n\
               <DIV HIDDEN>Delta: the keeper lied.</DIV>\n\n\
               <details><summary>More</summary>Epsilon: the keeper wept.</details>\n\n\
               <p>The keeper was <del>never</del> <s>always</s> paid.</p>\n\n\
               <div>\nZeta: the lamp was lit at dusk.\n</div>\n\nThe end.\n";
    let ex = extract(src);
    assert_eq!(ex.text.len(), src.len());
    for gone in [
        "Theta", "Alpha", "Beta", "Gamma", "forged", "lenses", "Delta", "Epsilon", "never",
        "always", "<div", "<p>",
    ] {
        assert!(!ex.text.contains(gone), "{gone}: {}", ex.text);
    }
    let paras = paras(&ex);
    assert!(
        paras.contains(&"Zeta: the lamp was lit at dusk.".to_string()),
        "{paras:?}"
    );
    for (quote, shown) in [
        ("the keeper secretly left the tower", false),
        ("the keeper forged the journal", false),
        ("The keeper was paid", false),
        ("Zeta: the lamp was lit at dusk.", true),
        ("The closing paragraph.", true),
    ] {
        assert_eq!(validated(&ex, quote), shown, "{quote}");
    }
}

/// An element that hides what it holds hides the Markdown inside it
/// whichever tag of its block it is, struck or closed ones too, and
/// however its style is spaced (the red team's second round).
#[test]
fn hidden_elements_hide_the_markdown_they_hold() {
    let src = "Intro.\n\n<div style = \"display:none\">Delta sold the charts.</div>\n\n\
               <section>\n<div hidden>\n\nFoxtrot sold the charts.\n\n</div>\n</section>\n\n\
               <del>\n\nCharlie sold the charts.\n\n</del>\n\n\
               <details><summary>More</summary>\n\nBravo sold the charts.\n\n</details>\n\n\
               <div hidden title=\"</div>\">\n\nGolf sold the charts.\n\n</div>\n\n\
               Kilo watched <span style = \"display:none\">never</span> the sea.\n\nThe end.\n";
    let ex = extract(src);
    assert_eq!(ex.text.len(), src.len());
    for gone in ["Delta", "Foxtrot", "Charlie", "Bravo", "Golf", "never"] {
        assert!(!ex.text.contains(gone), "{gone}: {}", ex.text);
    }
    for kept in ["Intro.", "Kilo watched", "the sea.", "The end."] {
        assert!(ex.text.contains(kept), "{kept}: {}", ex.text);
    }
    let paras = paras(&ex);
    assert!(paras.iter().any(|p| p == "The end."), "{paras:?}");
    assert!(!paras.iter().any(|p| p.contains("sold")), "{paras:?}");
}

/// A link reference definition is not shown, so not read.
#[test]
fn link_reference_definitions_are_not_text() {
    let src = "The [pilot][p] sold nothing.\n\n[p]: http://example.com \"Hotel the pilot sold the charts\"\n\nThe end.\n";
    let ex = extract(src);
    assert_eq!(ex.text.len(), src.len());
    assert!(!ex.text.contains("Hotel"), "{}", ex.text);
    assert!(ex.text.contains("The end."), "{}", ex.text);
}

/// The document's own style sheet hides what its rules hide in its raw
/// HTML (the red team's `<style>.x { display: none }</style>`).
#[test]
fn the_documents_style_sheet_hides_its_raw_html() {
    let src = "<style>\n.secret { display: none }\np#gone { visibility: hidden }\n</style>\n\n\
               The pilot <span class=\"note secret\">sold the charts</span> at dawn.\n\n\
               <p id=\"gone\">Hotel hidden by id.</p>\n\n<span class=\"shown\">Kilo shown.</span>\n";
    let ex = extract(src);
    for gone in ["sold", "Hotel", "display"] {
        assert!(!ex.text.contains(gone), "{gone}: {}", ex.text);
    }
    assert!(ex.text.contains("Kilo shown."), "{}", ex.text);
    assert!(ex.text.contains("at dawn."), "{}", ex.text);
}

/// A slash closes no element that is not void: `<div hidden/>` hides what
/// follows it, as a browser reads it (the red team's third round).
#[test]
fn a_self_closed_hidden_div_stays_open() {
    let ex = extract("Intro.\n\n<div hidden/>\n\nHotel sold the charts.\n");
    assert!(!ex.text.contains("Hotel"), "{}", ex.text);
    assert!(ex.text.contains("Intro."), "{}", ex.text);
}

/// A hidden element ends where an element around it ends, and a hidden
/// paragraph where the next paragraph begins, as a browser reads them
/// (the red team's fourth round).
#[test]
fn hidden_elements_end_with_what_holds_them() {
    let ex = extract(
        "<blockquote>\n<div hidden/>\n\nHotel hidden.\n\n</blockquote>\n\nKilo shown after.\n\n\
         <p hidden>\nIndia hidden.\n\nJuliet shown.\n",
    );
    for gone in ["Hotel", "India"] {
        assert!(!ex.text.contains(gone), "{gone}: {}", ex.text);
    }
    for kept in ["Kilo shown after.", "Juliet shown."] {
        assert!(
            paras(&ex).iter().any(|p| p == kept),
            "{kept}: {:?}",
            paras(&ex)
        );
    }
}
