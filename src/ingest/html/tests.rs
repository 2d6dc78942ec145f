use super::*;

/// An EPUB's page with the book's sheets `css`, linking none.
fn styled_page(text: &str, css: &str) -> Extracted {
    extract_styled(text, "page.xhtml", css, &mut |_, _| None)
}

/// Issue 9, item 7: deep nesting is walked without recursion.
#[test]
fn item_7_deeply_nested_html_does_not_overflow_the_stack() {
    let n = 40_000;
    let src = format!(
        "<html><body><h1>{}Deep heading{}</h1><p>{}deep text here{}</p></body></html>",
        "<i>".repeat(n),
        "</i>".repeat(n),
        "<span>".repeat(n),
        "</span>".repeat(n)
    );
    // A small stack, as the board's worker threads have.
    let ex = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || extract(&src))
        .unwrap()
        .join()
        .unwrap();
    assert!(
        ex.text.contains("Deep heading"),
        "{}",
        &ex.text[..ex.text.len().min(200)]
    );
    assert!(ex.text.contains("deep text here"));
}

/// Superscripts and subscripts read as the page shows them, text the
/// page hides is not read, and a button or a drawing in a sentence
/// leaves a mark, so the words either side never join into a quote.
#[test]
fn shifted_hidden_and_unread_elements_read_as_the_page_shows() {
    let ex = extract(
        "<p>A culture of 10<sup>6</sup> cells drank H<sub>2</sub>O, 10<sup>-4</sup>, \
         19<sup>th</sup> century<sup><a href=\"#f\">1</a></sup>.</p>\
         <p>Keepers were <span hidden>not</span> paid; the lamp <span \
         style=\"display: none\">never</span> burned.</p>\
         <p>The vaccine is <button>not</button> recommended.</p>\
         <p>It is <img src=\"n.png\" alt=\"not\"> safe to <input value=\"never\"> swim\
         <input type=\"hidden\" value=\"x\"><img hidden src=\"y.png\"> here.</p>\
         <p>The lamp was <del>not</del> <s>never</s> safe.</p>\
         <p>It cost 12&#8239;000 francs and 3&nbsp;500 books, for&nbsp;all.</p>",
    );
    assert_eq!(
        ex.text,
        "A culture of 10⁶ cells drank H₂O, 10⁻⁴, 19th century¹.\n\n\
         Keepers were \u{FFFC} paid; the lamp \u{FFFC} burned.\n\n\
         The vaccine is \u{FFFC} recommended.\n\n\
         It is \u{FFFC} safe to \u{FFFC} swim \u{FFFC} here.\n\n\
         The lamp was \u{FFFC} \u{FFFC} safe.\n\n\
         It cost 12\u{202F}000 francs and 3\u{00A0}500 books, for all."
    );
}

/// Text styled invisible by opacity or size zero is not read; a
/// half-transparent or small one is.
#[test]
fn text_of_no_opacity_or_size_is_not_read() {
    let ex = extract(
        "<p>The keepers were <span style=\"opacity:0\">never</span> paid, \
         <span style=\"font-size: 0px !important\">not</span> at all \
         <span style=\"opacity: 0.5; font-size: 0.8em\">in gold</span>.</p>",
    );
    assert_eq!(
        ex.text,
        "The keepers were \u{FFFC} paid, \u{FFFC} at all in gold."
    );
}

/// A style that hides what it styles (the idioms are listed in
/// `css.rs`'s tests) leaves a mark; one that shows it does not; text
/// drawn right to left (`<bdo dir="rtl">`) is not read as written.
#[test]
fn text_moved_clipped_or_reversed_is_not_read() {
    let para = |tag: &str, attrs: &str| {
        extract(&format!(
            "<p>The keepers were <{tag} {attrs}>never</{tag}> paid.</p>"
        ))
        .text
    };
    let (hidden, shown) = (
        "The keepers were \u{FFFC} paid.",
        "The keepers were never paid.",
    );
    assert_eq!(
        para("span", "style=\"position:absolute; left:-9999px\""),
        hidden
    );
    assert_eq!(para("span", "style=\"left: -2px\""), shown);
    assert_eq!(para("bdo", "dir=\"rtl\""), hidden);
    assert_eq!(para("bdo", "dir=\"ltr\""), shown);
}

/// A footnote or endnote the reader shows apart stands between marks:
/// quoted alone it reads, but no quote runs from it into the text.
#[test]
fn notes_stand_apart_from_the_text() {
    let ex = extract(
        "<p>The tower was rebuilt in stone<a epub:type=\"noteref\" href=\"#n1\">1</a> after the fire.</p>\
         <aside epub:type=\"footnote\" id=\"n1\"><p>The stone came from Aberdeen.</p></aside>\
         <p>Afterwards the keepers lived below.</p>\
         <div role=\"doc-endnote\">An endnote.</div><p>The end.</p>",
    );
    assert_eq!(
        ex.text,
        "The tower was rebuilt in stone1 after the fire.\n\n\u{FFFC}\n\nThe stone came from Aberdeen.\n\n\
         \u{FFFC}\n\nAfterwards the keepers lived below.\n\n\u{FFFC}\n\nAn endnote.\n\n\u{FFFC}\n\nThe end."
    );
}

/// A class the page's own style sheet hides is hidden (and leaves a
/// mark in a sentence).
#[test]
fn classes_the_style_sheet_hides_are_not_text() {
    let ex = extract(
        "<html><head><style>.sec, span.gone { display : none } .loud{color:red}\
         .pagenum { /* visibility: hidden; */ }</style></head>\
         <body><p>Keepers were <span class=\"sec\">never</span> paid <span class=\"loud\">well</span>\
         <span class=\"pagenum\" style=\"/* display:none */ color:red\">[Pg 5]</span>.</p>\
         <h2>The <span class=\"gone\">Secret</span> <b class=\"gone\">Shown</b> Light</h2></body></html>",
    );
    // `span.gone` hides a span of that class, not a `<b>` (a browser
    // shows it).
    assert_eq!(
        ex.text,
        "Keepers were \u{FFFC} paid well[Pg 5].\n\nThe Shown Light"
    );
}

/// The page's own style sheets hide by any selector (an id, an
/// element, an attribute, a descendant, inside `@media` for screens),
/// raise superscripts, and write text before or after elements, which
/// leaves a mark; a formula and a ruby annotation are not read in the
/// line. An EPUB's linked sheet counts as the page's own.
#[test]
fn what_the_pages_style_sheets_do_is_read_as_shown() {
    let page = |css: &str, body: &str| {
        styled_page(
            &format!("<html><head><style>{css}</style></head><body>{body}</body></html>"),
            "",
        )
        .text
    };
    for css in [
        "#x { display: none }",
        "p span { visibility: hidden }",
        "span[data-n] { display: none }",
        "span.a.b { display: none }",
        "@media screen { span { display: none } }",
    ] {
        let t = page(
            css,
            "<p>The keepers were <span id=\"x\" data-n=\"1\" class=\"a b\">never</span> paid.</p>",
        );
        assert!(!t.contains("never"), "{css}: {t}");
        assert!(t.contains('\u{FFFC}'), "{css}: {t}");
    }
    let t = page(
        "@media print { span { display: none } }",
        "<p>were <span>never</span> paid</p>",
    );
    assert!(t.contains("were never paid"), "{t}");
    let t = page(
        ".neg::before { content: 'not ' }",
        "<p>was <span class=\"neg\"></span>allowed</p>",
    );
    assert!(!t.contains("was allowed"), "{t}");
    let t = page(
        ".sup { vertical-align: super }",
        "<p>10<span class=\"sup\">6</span> times</p>",
    );
    assert!(t.contains("10⁶ times"), "{t}");
    let t = page(
        "",
        "<p>10<span style=\"vertical-align: super\">6</span> times</p>",
    );
    assert!(t.contains("10⁶ times"), "{t}");
    let t = page(
        "",
        "<p>It was <math><mfrac><mn>1</mn><mn>2</mn></mfrac></math> of it.</p>",
    );
    assert!(!t.contains("12") && t.contains('\u{FFFC}'), "{t}");
    // An override where the direction, set or inherited, is right to
    // left: the page shows the digits reversed.
    for body in [
        "<p>lit in <span dir=\"rtl\" style=\"unicode-bidi: bidi-override\">1585</span> by</p>",
        "<p dir=\"rtl\">lit in <span style=\"unicode-bidi: bidi-override\">1586</span> by</p>",
    ] {
        let t = page("", body);
        assert!(!t.contains("158"), "{t}");
    }
    let t = page(
        "",
        "<p>lit in <span style=\"unicode-bidi: bidi-override\">1587</span> by</p>",
    );
    assert!(t.contains("1587"), "{t}");
    let t = page("", "<p>A <ruby>light<rt>house</rt></ruby> keeper.</p>");
    assert_eq!(t, "A light keeper.");
    // A poem's lines: spans the sheet makes blocks, line breaks it
    // hides (Project Gutenberg's style).
    let t = page(
        ".poem br { display: none } .poem span.i0 { display: block }",
        "<div class=\"poem\"><span class=\"i0\">Der Abend dämmert<br/></span>\
         <span class=\"i0\">Da sind zwei Herzen<br/></span></div>",
    );
    assert_eq!(t, "Der Abend dämmert\n\nDa sind zwei Herzen");
    let t = page(
        "",
        "<p>The keepers wrote <textarea>never</textarea> in the log.</p>\
         <details><summary>More</summary><p>The cook was never sober.</p></details>",
    );
    assert!(!t.contains("never"), "{t}");
    assert!(t.contains("More"), "{t}");
    let t = page(
        ".n { & .h { display: none } } @layer base { .l { display: none } }",
        "<p class=\"n\">The keeper saw <span class=\"h\">never</span> <span class=\"l\">never</span> \
         <video src=\"x.mp4\">never</video><datalist><option>never</option></datalist> it.</p>",
    );
    assert!(!t.contains("never"), "{t}");
    let t = page(
        ".w::before { content: attr(data-w) }",
        "<p>saw <span class=\"w\" data-w=\"not\"></span>larks</p>",
    );
    assert!(!t.contains("saw larks"), "{t}");
    let t = page(
        "",
        "<details open><summary>More</summary><p>Shown.</p></details>",
    );
    assert!(t.contains("Shown."), "{t}");
    // Pseudo-elements in capitals and a part of the element's text, a
    // query list that applies on screen, old browser fallbacks, a sheet's
    // override with the element's direction, note marks raised by other
    // means than vertical-align: super.
    for (css, body) in [
        (
            ".x::BEFORE { content: 'not ' }",
            "<p>was <span class=\"x\">never</span></p>",
        ),
        (
            "p::first-line { color: transparent }",
            "<p>The keeper was never paid.</p>",
        ),
        (
            "@media print, (min-width: 0px) { .x { display: none } }",
            "<p>was <span class=\"x\">never</span></p>",
        ),
        (
            "",
            "<p>was <noembed>never</noembed><noframes>never</noframes></p>",
        ),
        (
            ".x { unicode-bidi: bidi-override }",
            "<p>was <span class=\"x\" dir=\"rtl\">never</span></p>",
        ),
    ] {
        let t = page(css, body);
        assert!(!t.contains("was never"), "{css} {body}: {t}");
    }
    for css in [
        ".fn { position: relative; top: -0.5em; font-size: 70% }",
        ".fn { vertical-align: top; font-size: 60% }",
        ".fn { vertical-align: 0.6em }",
    ] {
        let t = page(
            css,
            "<p>a population of 1200<span class=\"fn\">3</span> souls</p>",
        );
        assert!(t.contains("1200³"), "{css}: {t}");
    }
    let linked = styled_page(
        "<html><body><p>The keepers were <span class=\"h\">never</span> paid.</p></body></html>",
        ".h { display: none }",
    );
    assert!(!linked.text.contains("never"), "{}", linked.text);
}

/// A table's row is one passage with its cells apart.
#[test]
fn a_tables_cells_never_join_into_a_sentence() {
    let ex = extract(
        "<table><tr><td>Lima keepers are allowed</td><td>to leave on Sunday.</td></tr>\
         <tr><th>Year</th><th>Keeper</th></tr><tr><td><em>1811</em></td><td>Reid</td></tr></table>",
    );
    assert_eq!(
        ex.text,
        "Lima keepers are allowed | to leave on Sunday.\n\nYear | Keeper\n\n1811 | Reid"
    );
}

/// Inline elements add no space: punctuation stays on its word and a
/// word split by markup stays one word, so quotes read as the page does.
#[test]
fn inline_elements_add_no_space() {
    let ex = extract(
        "<p>The boat came in <em>spring</em>. A<span>ugustin</span> <b>Fresnel</b>'s lens.</p>\
         <h2>The <i>Bell</i>-Rock<br>Light</h2>",
    );
    assert_eq!(
        ex.text,
        "The boat came in spring. Augustin Fresnel's lens.\n\nThe Bell-Rock Light"
    );
}

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

proptest::proptest! {
    /// The text of a paragraph is what a reader sees, whatever inline
    /// markup wraps parts of it: a quote validated against it is the
    /// page's own words.
    #[test]
    fn inline_markup_never_changes_the_text(
        parts in proptest::collection::vec(
            ("[A-Za-z0-9’,.;:!?()-]{1,8}", 0usize..4, proptest::bool::ANY),
            1..30,
        )
    ) {
        let mut html = String::from("<p>");
        let mut plain = String::new();
        for (i, (word, wrap, space)) in parts.iter().enumerate() {
            if i > 0 && *space {
                html.push(' ');
                plain.push(' ');
            }
            let tag = ["", "em", "span", "a"][*wrap];
            if tag.is_empty() {
                html.push_str(word);
            } else {
                html.push_str(&format!("<{tag}>{word}</{tag}>"));
            }
            plain.push_str(word);
        }
        html.push_str("</p>");
        let ex = extract(&html);
        proptest::prop_assert_eq!(ex.text, super::super::collapse_ws(&plain));
    }

    /// What the page shows between two words that is not text (an
    /// image, a form field, a button, a drawing) leaves a mark between
    /// them, which no quote of words matches: the words either side
    /// never read as one passage, and nothing else is marked.
    #[test]
    fn words_either_side_of_a_shown_element_never_join(
        words in proptest::collection::vec(0usize..6, 1..16),
        shown in proptest::collection::vec(proptest::option::weighted(0.3, 0usize..8), 16),
    ) {
        const W: [&str; 6] = ["keeper", "lamp", "never", "not", "safe", "tower"];
        const E: [&str; 8] = [
            "<img src=\"a.png\" alt=\"not\">", "<input value=\"never\">",
            "<button>not</button>", "<select><option>no</option></select>",
            "<svg><text>not</text></svg>", "<canvas>never</canvas>",
            "<iframe src=\"x\"></iframe>", "<object data=\"x\">not</object>",
        ];
        let mut html = String::from("<p>Here");
        // The words between two shown elements, as the page shows them.
        let mut runs = vec![vec!["Here"]];
        for (i, w) in words.iter().enumerate() {
            html.push(' ');
            html.push_str(W[*w]);
            runs.last_mut().unwrap().push(W[*w]);
            if let Some(e) = shown[i] {
                html.push(' ');
                html.push_str(E[e]);
                runs.push(Vec::new());
            }
        }
        html.push_str(" here.</p>");
        runs.last_mut().unwrap().push("here.");
        let ex = extract(&html);
        let read: Vec<Vec<&str>> =
            ex.text.split('\u{FFFC}').map(|r| r.split_whitespace().collect()).collect();
        proptest::prop_assert_eq!(read, runs);
    }

    /// Words a reader cannot see on the white page (white, near white,
    /// translucent white text) leave a mark in their place and no word of
    /// theirs; words in a colour that shows are read in place.
    #[test]
    fn words_in_a_colour_no_reader_sees_are_not_read(
        words in proptest::collection::vec((0usize..6, proptest::option::weighted(0.4, 0usize..9)), 1..16),
    ) {
        const W: [&str; 6] = ["keeper", "lamp", "never", "not", "safe", "tower"];
        // The first five cannot be seen on white; the others can.
        const C: [&str; 9] = [
            "color:#fff", "color: white", "color:rgb(254,254,254)", "color:#ffffff80",
            "color:hsla(0,0%,100%,0.9)", "color:#333", "color:navy", "color:#ffff00", "color:#ccc",
        ];
        let mut html = String::from("<p>Here");
        let mut runs = vec![vec!["Here"]];
        for (w, colour) in &words {
            html.push(' ');
            match colour {
                Some(c) if *c < 5 => {
                    html.push_str(&format!("<span style=\"{}\">{}</span>", C[*c], W[*w]));
                    runs.push(Vec::new());
                }
                Some(c) => {
                    html.push_str(&format!("<span style=\"{}\">{}</span>", C[*c], W[*w]));
                    runs.last_mut().unwrap().push(W[*w]);
                }
                None => {
                    html.push_str(W[*w]);
                    runs.last_mut().unwrap().push(W[*w]);
                }
            }
        }
        html.push_str(" here.</p>");
        runs.last_mut().unwrap().push("here.");
        let ex = extract(&html);
        let read: Vec<Vec<&str>> =
            ex.text.split('\u{FFFC}').map(|r| r.split_whitespace().collect()).collect();
        proptest::prop_assert_eq!(read, runs, "{}", html);
    }
    /// However a hiding style is written (escaped as CSS allows, text too
    /// small to read), its words leave a mark and none of theirs; a style
    /// that shows (escaped too, or small but legible) is read in place.
    #[test]
    fn words_a_style_hides_however_written_are_not_read(
        words in proptest::collection::vec((0usize..6, proptest::option::weighted(0.4, 0usize..10)), 1..16),
    ) {
        const W: [&str; 6] = ["keeper", "lamp", "never", "not", "safe", "tower"];
        // The first six hide; the others show.
        const S: [&str; 10] = [
            "display:n\\one", "display: \\6e one", "font-size:0.1em", "font-size: 2px",
            "vi\\sibility:hidden", "font-size:15%", "display:\\69nline", "font-size:0.3em",
            "font-size:5px", "col\\or: navy",
        ];
        let spans: Vec<_> = words
            .iter()
            .map(|(w, style)| (W[*w], style.map(|s| (format!("style=\"{}\"", S[s]), s < 6))))
            .collect();
        let (html, runs) = spans_page("", &spans, "");
        let read = extract(&html).text;
        proptest::prop_assert_eq!(runs_read(&read), runs, "{}", html);
    }
}

/// A paragraph "Here … here." of `words` inside `head` and `tail`, each
/// word bare or in a `<span ATTR>` that hides it or not; and the runs of
/// words a reader sees between the marks hidden words leave.
fn spans_page<'a>(
    head: &str,
    words: &[(&'a str, Option<(String, bool)>)],
    tail: &str,
) -> (String, Vec<Vec<&'a str>>) {
    let mut html = format!("{head}<p>Here");
    let mut runs = vec![vec!["Here"]];
    for (word, span) in words {
        html.push(' ');
        match span {
            Some((attr, hides)) => {
                html.push_str(&format!("<span {attr}>{word}</span>"));
                if *hides {
                    runs.push(Vec::new());
                    continue;
                }
            }
            None => html.push_str(word),
        }
        runs.last_mut().unwrap().push(word);
    }
    html.push_str(&format!(" here.</p>{tail}"));
    runs.last_mut().unwrap().push("here.");
    (html, runs)
}

/// The words of `text` in runs between marks.
fn runs_read(text: &str) -> Vec<Vec<&str>> {
    text.split('\u{FFFC}')
        .map(|r| r.split_whitespace().collect())
        .collect()
}

proptest::proptest! {
    /// A page without a doctype (quirks mode) hides by a class or id rule
    /// whatever the case of the name, as a browser does; a page with one
    /// only where the case is the rule's. Either way a hidden word leaves
    /// a mark and none of its own, and a shown one reads in place.
    #[test]
    fn class_and_id_rules_hide_in_the_case_the_page_is_read_in(
        doctype in proptest::bool::ANY,
        words in proptest::collection::vec((0usize..4, proptest::option::weighted(0.6, 0usize..6)), 1..12),
    ) {
        const W: [&str; 4] = ["keeper", "never", "not", "tower"];
        // (attribute, whether it matches `.Veil` or `#Gone` exactly, in any case)
        const A: [(&str, bool, bool); 6] = [
            ("class=\"Veil\"", true, true),
            ("class=\"veil\"", false, true),
            ("class=\"x VEIL\"", false, true),
            ("id=\"gone\"", false, true),
            ("id=\"Gone\"", true, true),
            ("class=\"veiled\"", false, false),
        ];
        let spans: Vec<_> = words
            .iter()
            .map(|(w, attr)| {
                (W[*w], attr.map(|a| {
                    let (attr, exact, any) = A[a];
                    (attr.to_string(), exact || (any && !doctype))
                }))
            })
            .collect();
        let head = format!(
            "{}<html><head><style>.Veil {{ display: none }} #Gone {{ visibility: hidden }}</style></head><body>",
            if doctype { "<!DOCTYPE html>" } else { "" }
        );
        let (html, runs) = spans_page(&head, &spans, "</body></html>");
        let read = extract(&html).text;
        proptest::prop_assert_eq!(runs_read(&read), runs, "{}", html);
    }
}

/// An inline quotation reads with the quotation marks a browser draws
/// around it, single ones inside another: a quote of its words is a
/// quote of a quotation, as the page shows it.
#[test]
fn inline_quotations_read_with_their_marks() {
    let ex = extract("<p>He wrote <q>the light is <q>not</q> lit</q>, she said.</p>");
    assert_eq!(
        ex.text.trim(),
        "He wrote “the light is ‘not’ lit”, she said."
    );
}

/// Words struck through by a style are read as `<s>` is: a mark; a mark
/// takes the rest of a word it touches; a drop cap set as a picture reads
/// as its letter (the red team's Project Gutenberg pages).
#[test]
fn struck_words_touched_words_and_pictured_initials_read_as_shown() {
    let ex = extract(
        "<style>.strike { text-decoration: line-through red }</style>\
         <p>The lamp was <span style=\"text-decoration: line-through\">never</span> lit.</p>\
         <p>The stores were <span class=\"strike\">stolen and</span> counted.</p>\
         <p>The tower was <s>un</s>safe in winter, <img src=\"x.png\">here and Here.</p>\
         <p><img src=\"t.jpg\" class=\"drop\" alt=\"T\">here is no record.</p>\
         <p><img src=\"i.png\" alt=\"I\"> saw it. <img src=\"a.png\" alt=\"A\"> ship.</p>\
         <p>Underlined <span style=\"text-decoration: underline\">words</span> read.</p>",
    );
    assert_eq!(
        ex.text,
        "The lamp was \u{FFFC} lit.\n\n\
         The stores were \u{FFFC} counted.\n\n\
         The tower was \u{FFFC} in winter, \u{FFFC} and Here.\n\n\
         There is no record.\n\n\
         saw it. \u{FFFC} ship.\n\n\
         Underlined words read."
    );
}

/// A drop cap in a block of its own beside its paragraph (Project
/// Gutenberg's `figleft` initials) reads as the first letter of the
/// paragraph's first word: "Beethoven visited", not "eethoven visited"
/// read on from the line before.
#[test]
fn a_pictured_initial_in_its_own_block_begins_its_paragraph() {
    let ex = extract(
        "<p class=\"citation\">&mdash;Herder: <em>Apotheosis of Humanity</em>.</p>\
         <div class=\"figleft\">\n<img src=\"images/b2.png\" alt=\"B\" title=\"B\" />\n</div>\n\
         <p class=\"noindent\">eethoven visited Carlsbad.</p>\
         <div class=\"figleft\"><img src=\"i.png\" alt=\"I\"></div><p>n Vienna he wrote.</p>\
         <div><img src=\"f.png\" alt=\"F\"></div><p>Figure one.</p>\
         <div><img src=\"x.png\" alt=\"X\">ray</div><p>eethoven.</p>",
    );
    assert_eq!(
        ex.text,
        "—Herder: Apotheosis of Humanity.\n\n\
         Beethoven visited Carlsbad.\n\n\
         In Vienna he wrote.\n\n\
         Figure one.\n\n\
         Xray\n\n\
         eethoven."
    );
}

proptest::proptest! {
    /// However the initial's block is written, its letter joins only the
    /// rest of a word that begins the very next block: never a word that
    /// starts anew, never a later block, never the text before it.
    #[test]
    fn a_pictured_initial_joins_only_the_word_it_begins(
        paras in proptest::collection::vec(
            (proptest::option::of(0usize..4), 0usize..4, "[a-z]{1,6}( [a-z]{1,6}){0,3}"),
            1..8,
        )
    ) {
        const BLOCKS: [&str; 4] = [
            "<div class=\"figleft\"><img src=\"a.png\" alt=\"L\"></div>",
            "<div>\n  <img src=\"a.png\" alt=\"L\" />\n</div>\n",
            "<p><a href=\"#x\"><img alt=\" L \"></a></p><!-- c -->",
            "<div><span><img alt=\"L\"></span></div>",
        ];
        // How the next block begins: the rest of the word, a capital, a
        // space then the rest, a digit.
        const STARTS: [&str; 4] = ["", "W", " ", "7"];
        let mut html = String::from("<p>Before.</p>");
        let mut want = vec!["Before.".to_string()];
        for (block, start, words) in &paras {
            let text = format!("{}{words}", STARTS[*start]);
            if let Some(b) = block {
                html.push_str(BLOCKS[*b]);
            }
            html.push_str(&format!("<p>{text}</p>"));
            let joins = block.is_some() && matches!(*start, 0 | 2);
            let text = text.trim_start();
            want.push(if joins { format!("L{text}") } else { text.to_string() });
        }
        let ex = extract(&html);
        proptest::prop_assert_eq!(ex.text, want.join("\n\n"));
    }
}

/// A note's reference set against the word or stop before it (Project
/// Gutenberg's `fnanchor` links) is not read: the sentence after it does
/// not begin "[56]". A bracketed number with a space before it, or a link
/// out of the page, is read as written.
#[test]
fn a_notes_reference_is_not_a_word_of_the_text() {
    let ex = extract(
        "<p>He went to Berlin (1740).<a name=\"FNanchor_56_56\"></a><a href=\"#Footnote_56_56\" class=\"fnanchor\">[56]</a> \
         Already in his father's house<a href=\"#fn-a\">[A]</a>, he met them.</p>\
         <p>The keeper was paid <a href=\"#n\">[40]</a> pounds, see <a href=\"b.html\">[3]</a>.</p>",
    );
    assert_eq!(
        ex.text,
        "He went to Berlin (1740). Already in his father's house, he met them.\n\n\
         The keeper was paid [40] pounds, see [3]."
    );
}

proptest::proptest! {
    /// A note reference against a word is left out and nothing else: the
    /// words, their stops and every other link read as written.
    #[test]
    fn only_a_note_reference_against_a_word_is_left_out(
        parts in proptest::collection::vec(
            ("[A-Za-z]{1,8}", proptest::option::weighted(0.3, 0usize..4), proptest::bool::ANY),
            1..20,
        )
    ) {
        const LINKS: [&str; 4] = ["[12]", "[*]", "[b]", "[ 7 ]"];
        let mut html = String::from("<p>Start");
        let mut plain = String::from("Start");
        for (word, link, stop) in &parts {
            html.push(' ');
            plain.push(' ');
            html.push_str(word);
            plain.push_str(word);
            if *stop {
                html.push('.');
                plain.push('.');
            }
            if let Some(l) = link {
                html.push_str(&format!("<a href=\"#fn{l}\">{}</a>", LINKS[*l]));
                // "[ 7 ]" is no note's label: read.
                if *l == 3 {
                    plain.push_str(LINKS[3]);
                }
            }
        }
        html.push_str("</p>");
        let ex = extract(&html);
        proptest::prop_assert_eq!(ex.text, plain);
    }
}

/// A page number placed in the margin, a poem's line number and a
/// sidenote floated beside the text are out of the line: the words either
/// side read as the one sentence the page shows, and the sidenote is read
/// after its paragraph (Project Gutenberg's markup).
#[test]
fn what_stands_beside_the_line_is_read_apart() {
    let ex = extract(
        "<style>.pagenum { position: absolute; left: 92%; }\
         .linenum { position: absolute; top: auto; left: 4%; }\
         .sidenote { float: right; width: 20% }</style>\
         <p>So, <span class=\"pagenum\"><a id=\"Page_2\">[Pg 2]</a></span>too, with the \
         sonata, into<span class=\"pagenum\">[Pg 12]</span> ternary form.</p>\
         <p>When all the winds are still<span class=\"linenum\">10</span><br>\
         And blesses those.</p>\
         <p>Keepers earned forty pounds a year<span class=\"sidenote\">Salaries were \
         never raised</span> and a ration of coal.</p>\
         <p>A <span style=\"position: fixed\">banner</span>line.</p>\
         <p><span style=\"float: left\">T</span>he keeper, <span class=\"sidenote\">W</span> \
         was.</p>",
    );
    assert_eq!(
        ex.text,
        "So, too, with the sonata, into ternary form.\n\n\
         When all the winds are still\n\n10\n\nAnd blesses those.\n\n\
         Keepers earned forty pounds a year and a ration of coal.\n\n\
         Salaries were never raised\n\nA line.\n\nbanner\n\nThe keeper, was.\n\nW"
    );
    // The margin's page numbers are not read; the anchor names the page.
    assert_eq!(ex.page_labels, Some(vec!["2".to_string()]));
    assert_eq!(ex.blocks[0].page, Some(1));
}

/// A footnote's label set in the margin beside it is read before its
/// note, not after it (where it would seem the next note's).
#[test]
fn a_notes_label_in_the_margin_starts_its_note() {
    let ex = extract(
        "<style>.footnote .label { position: absolute; right: 84%; }</style>\
         <div class=\"footnote\"><p><a name=\"Footnote_1_1\"></a><a href=\"#FNanchor_1_1\">\
         <span class=\"label\">[1]</span></a> Musikalisches Lexicon.</p></div>\
         <div class=\"footnote\"><p><a href=\"#FNanchor_2\"><span class=\"label\">[B]</span></a> \
         Among the sonatas.</p></div>",
    );
    assert_eq!(
        ex.text,
        "[1] Musikalisches Lexicon.\n\n[B] Among the sonatas."
    );
}

/// The anchors an edition sets where the book's pages began name the page
/// each block starts on, for citations ("p. 5"); a page the book does not
/// number ("Page_-6") has no label.
#[test]
fn page_anchors_give_each_block_its_printed_page() {
    let ex = extract(
        "<p>Title page.</p><p><a name=\"Page_-6\"></a>Dedication.</p>\
         <p><a name=\"Page_5\" id=\"Page_5\"></a>Begins on five.</p>\
         <h2><a id=\"Page_6\"></a>CHAPTER I</h2>\
         <p>Starts on six and Kapellm<a name=\"Page_7\"></a>eister runs on.</p><p>On seven.</p>",
    );
    assert_eq!(
        ex.page_labels,
        Some(vec![String::new(), "5".into(), "6".into(), "7".into()])
    );
    let pages: Vec<(String, Option<u32>)> = ex
        .blocks
        .iter()
        .map(|b| (ex.text[b.start..b.end].to_string(), b.page))
        .collect();
    assert_eq!(
        pages,
        [
            ("Title page.".to_string(), None),
            ("Dedication.".to_string(), Some(1)),
            ("Begins on five.".to_string(), Some(2)),
            ("CHAPTER I".to_string(), Some(3)),
            (
                "Starts on six and Kapellmeister runs on.".to_string(),
                Some(3)
            ),
            ("On seven.".to_string(), Some(4)),
        ]
    );
}

/// The red team's second round: what a popover, a progress bar or a
/// meter holds, text on its own colour, a rule that hides until the
/// reader acts, a word in capitals a mark touches, and a page's width of
/// indent are not read; a rule that applies only on hover hides nothing.
#[test]
fn what_shows_only_when_asked_or_on_itself_is_not_read() {
    let ex = extract(
        "<style>.redacted { background: #000; color: #000 }\
         #t:not(:checked) ~ .answer { display: none }\
         .card:not(:hover) .back { visibility: hidden }\
         .tip:hover { display: none }\
         .kellum { text-indent: 100%; white-space: nowrap; overflow: hidden }</style>\
         <p>One <span popover>Alpha</span> two <progress>Bravo</progress> three \
         <meter>Charlie</meter> four.</p>\
         <p>The pilot <span class=\"redacted\">sold the charts</span> at dawn.</p>\
         <input type=\"checkbox\" id=\"t\"><p class=\"answer\">Delta hidden answer.</p>\
         <div class=\"card\"><p class=\"back\">Echo on the back.</p></div>\
         <p class=\"tip\">Foxtrot shown until hovered.</p>\
         <p>It is <s>UN</s>SAFE TO SWIM; it is <s>un</s>&#8203;safe too.</p>\
         <p class=\"kellum\">Golf replaced by an image.</p>",
    );
    for gone in [
        "Alpha", "Bravo", "Charlie", "sold", "Delta", "Echo", "SAFE", "safe", "Golf",
    ] {
        assert!(!ex.text.contains(gone), "{gone}: {}", ex.text);
    }
    for kept in ["One", "four.", "at dawn.", "Foxtrot shown until hovered."] {
        assert!(ex.text.contains(kept), "{kept}: {}", ex.text);
    }
}

/// A black background under text left in the page's default black, or a
/// colour set around it, is a bar (the red team's third round); white text
/// on it, or a link's, shows.
#[test]
fn text_on_a_background_of_its_own_colour_is_not_read() {
    let ex = extract(
        "<p>One <span style=\"background:#000\">victor hidden</span> two.</p>\
         <p>Three <mark style=\"background:black\">whiskey hidden</mark> four.</p>\
         <div style=\"color:#000\"><p style=\"background:#000\">alpha hidden</p></div>\
         <p style=\"background:#000\"><span style=\"color:#000\">bravo hidden</span></p>\
         <p style=\"background:#000; color:#fff\">charlie shown</p>\
         <p><a href=\"#x\" style=\"background:#000\">delta link shown</a></p>\
         <p><a name=\"n\" style=\"background:#000\">foxtrot anchor hidden</a></p>",
    );
    for gone in ["victor", "whiskey", "alpha", "bravo", "foxtrot"] {
        assert!(!ex.text.contains(gone), "{gone}: {}", ex.text);
    }
    for kept in ["One", "two.", "charlie shown", "delta link shown"] {
        assert!(ex.text.contains(kept), "{kept}: {}", ex.text);
    }
    // A page whose style sheet sets colours: the default is not known.
    let ex =
        extract("<style>body { color: #eee }</style><p style=\"background:#000\">echo shown</p>");
    assert!(ex.text.contains("echo shown"), "{}", ex.text);
}

/// Red team, round 15, finding 01: white or near-white text on the page's
/// default white (inline, `<font color>`, a style sheet's class, any way
/// of writing white, translucent white) is not read, and the word after it
/// is kept; white text on a dark background, from a style or a sheet, and
/// light colours that can be seen, are read.
#[test]
fn light_text_on_the_default_white_page_is_not_read() {
    let hidden = [
        "<span style=\"color:#fff\">not </span>",
        "<span style=\"color:white\">not </span>",
        "<font color=\"#FFFFFF\">not </font>",
        "<span style=\"color:rgb(255, 255, 255)\">not </span>",
        "<span style=\"color:hsl(0,0%,100%)\">not </span>",
        "<span style=\"color:#FFF8\">not </span>",
        "<span style=\"color:#fefefe\">not </span>",
        "<span class=\"w\">not </span>",
    ];
    for h in hidden {
        let ex = extract(&format!(
            "<style>.w {{ color: #ffffff }}</style><p>The keeper was {h}a sailor by trade.</p>"
        ));
        assert_eq!(ex.text, "The keeper was \u{FFFC} a sailor by trade.", "{h}");
    }
    for (page, h) in [
        (
            "<body style=\"background:#222\">",
            "<span style=\"color:#fff\">not </span>",
        ),
        (
            "<body bgcolor=\"#000000\" text=\"#ffffff\">",
            "<font color=\"#ffffff\">not </font>",
        ),
        (
            "<style>body { background: #111 } .w { color: #fff }</style><body>",
            "<span class=\"w\">not </span>",
        ),
        ("<body>", "<span style=\"color:#ffff00\">not </span>"),
        ("<body>", "<span style=\"color:#ddd\">not </span>"),
    ] {
        let ex = extract(&format!(
            "{page}<p>The keeper was {h}a sailor by trade.</p></body>"
        ));
        assert!(
            ex.text.contains("was not a sailor"),
            "{page}{h}: {}",
            ex.text
        );
    }
}

/// The red team's page (round 22), with `span` for the word "not".
fn verdict(head: &str, span: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head><title>t</title>{head}</head><body><p>The jury found \
         that the keeper was {span}guilty of neglecting the lamp on the night of the \
         wreck.</p></body></html>"
    )
}

/// Does the page read "was not guilty" (true), or a mark in place of the
/// word (false)? Never "was guilty": the words either side never meet.
fn reads_not(ex: &Extracted) -> bool {
    let text = crate::ingest::collapse_ws(&ex.text);
    assert!(!text.contains("was guilty"), "{text}");
    if text.contains("was not guilty") {
        return true;
    }
    assert!(text.contains("was \u{FFFC} guilty"), "{text}");
    false
}

/// Red team, round 22, finding 04: an element with a declarative shadow
/// root (`<template shadowrootmode>`) shows its shadow content and its
/// own children only where a slot places them: not read either way, it
/// is a mark, so no quote joins the words either side of it.
#[test]
fn red_team_22_a_declarative_shadow_root_is_a_mark() {
    for span in [
        "<span><template shadowrootmode=\"open\">not </template></span>",
        "<span><template shadowrootmode=\"open\"></template>not </span>",
        "<span><template shadowrootmode=\"closed\"></template>not </span>",
        "<span><template shadowroot=\"open\"></template>not </span>",
        "<span><template shadowrootmode=\"open\"><slot name=\"a\"></slot></template>\
         <b slot=\"b\">not </b></span>",
    ] {
        let ex = extract(&verdict("", span));
        assert!(!reads_not(&ex), "{span}: {}", ex.text);
        let ex = styled_page(&verdict("", span), "");
        assert!(!reads_not(&ex), "epub {span}: {}", ex.text);
    }
    // An inert template is no shadow root: never shown, no mark.
    let ex = extract(&verdict("", "not <template>x</template>"));
    assert!(reads_not(&ex), "{}", ex.text);
}

/// Red team, round 22, finding 05: the repros, each an inline style (or a
/// sheet's rule) that leaves the word unseen or unreadable.
#[test]
fn red_team_22_styles_that_leave_text_unreadable_are_marks() {
    for style in [
        "color: Canvas",
        "color: Window",
        "color: color(srgb 1 1 1)",
        "color: light-dark(white, white)",
        "filter: invert(1)",
        "color:#777; filter: brightness(100)",
        "filter: blur(30px)",
        "mix-blend-mode: screen",
        "mix-blend-mode: lighten",
        "mix-blend-mode: difference",
        "transform: matrix3d(0,0,0,0,0,0,0,0,0,0,1,0,0,0,0,1)",
        "transform: skewX(90deg)",
        "-webkit-text-security: disc",
        "font-size: 0.01vmin",
    ] {
        let ex = extract(&verdict(
            "",
            &format!("<span style=\"{style}\">not </span>"),
        ));
        assert!(!reads_not(&ex), "{style}: {}", ex.text);
    }
    for (sheet, span) in [
        (
            "<style>.x { color: white !important }</style>",
            "<span class=\"x\" style=\"color:black\">not </span>",
        ),
        (
            "<style>.i { filter: invert(100%) }</style>",
            "<span class=\"i\">not </span>",
        ),
    ] {
        let ex = extract(&verdict(sheet, span));
        assert!(!reads_not(&ex), "{sheet}: {}", ex.text);
    }
    // Styles that leave black text readable are read.
    for style in [
        "filter: none",
        "filter: grayscale(1) drop-shadow(1px 1px 2px red)",
        "filter: blur(0.5px)",
        "mix-blend-mode: normal",
        "-webkit-text-security: none",
        "color: CanvasText",
        "color: light-dark(black, white)",
        "transform: skewX(10deg)",
        "font-size: 2vmin",
    ] {
        let ex = extract(&verdict(
            "",
            &format!("<span style=\"{style}\">not </span>"),
        ));
        assert!(reads_not(&ex), "{style}: {}", ex.text);
    }
    let ex = extract(&verdict(
        "<style>.x { color: white }</style>",
        "<span class=\"x\" style=\"color:black\">not </span>",
    ));
    assert!(reads_not(&ex), "{}", ex.text);
}

use proptest::strategy::Strategy as _;

proptest::proptest! {
    #![proptest_config(crate::cases(64))]

    /// Red team, round 22, finding 05: any way of writing white (a system
    /// colour of the page, `color()`, `light-dark()`), any inverting,
    /// brightening or blurring filter, any blend mode but normal and any
    /// text security but none leaves a mark, never the word.
    #[test]
    fn unreadable_styles_in_any_form_are_marks(
        style in proptest::prop_oneof![
            proptest::sample::select(vec!["Canvas", "canvas", "Window", "Field", "CANVAS"])
                .prop_map(|c| format!("color: {c}")),
            (0.985f64..=1.0).prop_map(|x| format!("color: color(srgb {x:.3} 1 {x:.3})")),
            proptest::sample::select(vec!["white", "#fff", "Canvas", "rgb(255,255,255)"])
                .prop_map(|c| format!("color: light-dark({c}, {c})")),
            (0.6f64..=1.0).prop_map(|x| format!("filter: invert({x:.2})")),
            (60u32..=100).prop_map(|x| format!("filter: grayscale(0) invert({x}%)")),
            (3u32..=200).prop_map(|x| format!("color:#777; filter: brightness({x})")),
            (3u32..=80).prop_map(|x| format!("filter: blur({x}px)")),
            proptest::sample::select(vec![
                "screen", "lighten", "difference", "exclusion", "color-dodge", "plus-lighter",
                "overlay", "soft-light", "luminosity",
            ])
            .prop_map(|m| format!("mix-blend-mode: {m}")),
            proptest::sample::select(vec!["disc", "circle", "square"])
                .prop_map(|s| format!("-webkit-text-security: {s}")),
            (0.0f64..0.2).prop_map(|x| format!("font-size: {x:.3}vmin")),
            (0.0f64..0.2).prop_map(|x| format!("font-size: {x:.3}vmax")),
            proptest::sample::select(vec!["skewX(90deg)", "skewY(-90deg)", "skew(90deg, 0)"])
                .prop_map(|t| format!("transform: {t}")),
        ],
    ) {
        let ex = extract(&verdict("", &format!("<span style=\"{style}\">not </span>")));
        proptest::prop_assert!(!reads_not(&ex), "{}: {}", style, ex.text);
    }
}

/// The verdict page of finding 09, linking `href`.
fn saved_page(href: &str) -> String {
    format!(
        "<html><head><link rel=\"stylesheet\" href=\"{href}\"></head><body><h1>Trial</h1>\
         <p>The jury met at noon. The keeper was <span class=\"x\">not</span> guilty of the \
         charge that day.</p></body></html>"
    )
}

/// A page as the index reads it: its bytes read from the file, then
/// extracted as the file at that path.
fn indexed(path: &std::path::Path) -> Extracted {
    let limits = crate::ingest::Limits::default();
    let bytes = crate::ingest::read_limited(path, limits.max_file_bytes).unwrap();
    crate::ingest::worker::extract(crate::ingest::Format::Html, &bytes, &limits, Some(path))
        .unwrap()
}

/// Red team, round 22, finding 09: a saved "web page, complete" links
/// `page_files/style.css`; the browser opening it applies the sheet (and
/// what it imports), so the text it hides is not read.
#[test]
fn red_team_22_a_saved_pages_linked_sheet_hides_text() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    std::fs::create_dir(dir.path().join("page_files")).unwrap();
    std::fs::write(&page, saved_page("page_files/style.css")).unwrap();
    std::fs::write(dir.path().join("page_files/style.css"), ".x{display:none}").unwrap();
    let ex = indexed(&page);
    assert!(
        ex.text.contains("The keeper was \u{FFFC} guilty"),
        "{}",
        ex.text
    );
    // Imported by the linked sheet, relative to it.
    std::fs::write(
        dir.path().join("page_files/style.css"),
        "@import url(\"more.css?v=2\");",
    )
    .unwrap();
    std::fs::write(dir.path().join("page_files/more.css"), ".x{display:none}").unwrap();
    assert!(!indexed(&page).text.contains("not"));
    // Bytes of no known place have no sheets.
    let other = saved_page("page_files/style.css");
    let ex = crate::ingest::worker::extract(
        crate::ingest::Format::Html,
        other.as_bytes(),
        &Default::default(),
        None,
    )
    .unwrap();
    assert!(ex.text.contains("was not guilty"), "{}", ex.text);
}

/// A page's sheets are read from its own folder only: not above it, not
/// by an absolute path or a URL, not through a symbolic link; one that
/// cannot be read leaves the page read as without it.
#[test]
fn red_team_22_a_pages_sheets_are_read_inside_its_folder_only() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside.css");
    std::fs::write(&outside, ".x{display:none}").unwrap();
    let folder = dir.path().join("sources");
    std::fs::create_dir(&folder).unwrap();
    let mut hrefs = vec![
        "../outside.css".to_string(),
        "a/../../outside.css".into(),
        "%2e%2e/outside.css".into(),
        outside.display().to_string(),
        format!("file://{}", outside.display()),
        "missing.css".into(),
        "page_files".into(),
    ];
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&outside, folder.join("link.css")).unwrap();
        std::os::unix::fs::symlink(dir.path(), folder.join("up")).unwrap();
        hrefs.extend(["link.css".into(), "up/outside.css".into()]);
    }
    std::fs::create_dir(folder.join("page_files")).unwrap();
    for href in &hrefs {
        let page = folder.join("page.html");
        std::fs::write(&page, saved_page(href)).unwrap();
        let ex = indexed(&page);
        assert!(ex.text.contains("was not guilty"), "{href}: {}", ex.text);
    }
}

proptest::proptest! {
    #![proptest_config(crate::cases(256))]

    /// Whatever the href, the name it resolves to stays inside the
    /// page's folder: no `..`, no empty or absolute part.
    #[test]
    fn red_team_22_a_linked_sheets_name_never_leaves_the_folder(
        from in proptest::sample::select(vec!["page.html", "page_files/style.css", "a/b/c.css"]),
        parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "..", ".", "a", "b%2F..", "%2e%2e", "%2E%2E%2F", "", "\\", "http:", "x.css#f", "?q", "C:",
            ]),
            0..8,
        ),
        lead in proptest::sample::select(vec!["", "/", "//", "./"]),
    ) {
        let href = format!("{lead}{}", parts.join("/"));
        if let Some(name) = super::super::sheet::relative(from, &href) {
            proptest::prop_assert!(
                name.split('/').all(|p| !p.is_empty() && p != "." && p != ".."),
                "{} from {}: {}", href, from, name
            );
            proptest::prop_assert!(!name.contains(['\\', ':']), "{} {}", href, name);
        }
    }
}
