use super::*;
use std::io::Write;

pub(crate) fn make_docx(body: &str) -> Vec<u8> {
    make_docx_styled(body, None)
}

/// A document with `body`, and `styles` as its `word/styles.xml`.
fn make_docx_styled(body: &str, styles: Option<&str>) -> Vec<u8> {
    let mut buf = Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default();
        z.start_file("word/document.xml", opts).unwrap();
        write!(
            z,
            r#"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
        )
        .unwrap();
        if let Some(styles) = styles {
            z.start_file("word/styles.xml", opts).unwrap();
            write!(z, r#"<?xml version="1.0"?><w:styles>{styles}</w:styles>"#).unwrap();
        }
        z.finish().unwrap();
    }
    buf.into_inner()
}

/// Text a style hides (directly, through the style it is based on, or
/// the paragraph's style) is not text, as Word does not show it.
#[test]
fn text_a_style_hides_is_not_read() {
    let styles = r#"<w:style w:type="character" w:styleId="Secret"><w:rPr><w:vanish/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Derived"><w:basedOn w:val="Secret"/></w:style>
<w:style w:type="character" w:styleId="Shown"><w:rPr><w:vanish w:val="0"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="HiddenPara"><w:rPr><w:vanish/></w:rPr></w:style>"#;
    let body = r#"<w:p><w:r><w:t xml:space="preserve">The oil was </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Derived"/></w:rPr><w:t xml:space="preserve">rarely </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Shown"/></w:rPr><w:t xml:space="preserve">always </w:t></w:r><w:r><w:t>delivered.</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="HiddenPara"/></w:pPr><w:r><w:t>The keeper kept a secret.</w:t></w:r></w:p>
<w:p><w:r><w:t>Shown again.</w:t></w:r></w:p>"#;
    let ex = extract(&make_docx_styled(body, Some(styles)), 1 << 20).unwrap();
    assert_eq!(ex.text, "The oil was always delivered.\n\nShown again.");
    let (body, styles) = (long_form(body), long_form(styles));
    let ex = extract(&make_docx_styled(&body, Some(&styles)), 1 << 20).unwrap();
    assert_eq!(ex.text, "The oil was always delivered.\n\nShown again.");
    // The default paragraph style applies where a paragraph names none.
    let styles = r#"<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:rPr><w:vanish/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Body"><w:rPr><w:vanish w:val="0"/></w:rPr></w:style>"#;
    let body = r#"<w:p><w:r><w:t>The keeper was never sober.</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr><w:r><w:t>Shown in its own style.</w:t></w:r></w:p>"#;
    let ex = extract(&make_docx_styled(body, Some(styles)), 1 << 20).unwrap();
    assert_eq!(ex.text, "Shown in its own style.");
}

/// The XML with every empty element `<x …/>` written `<x …></x>`, as
/// some writers do: the same document.
fn long_form(xml: &str) -> String {
    let mut out = String::new();
    let mut rest = xml;
    while let Some(end) = rest.find("/>") {
        let open = rest[..end].rfind('<').expect("an element");
        let name: String = rest[open + 1..]
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '/')
            .collect();
        out.push_str(&rest[..end]);
        out.push_str(&format!("></{name}>"));
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// A table's row is one passage with its cells apart, as for HTML: a
/// quote never runs from one cell into the next.
#[test]
fn a_tables_cells_never_join_into_a_sentence() {
    let cell = |t: &str| format!("<w:tc><w:p><w:r><w:t>{t}</w:t></w:r></w:p></w:tc>");
    let body = format!(
        "<w:p><w:r><w:t>Before.</w:t></w:r></w:p><w:tbl><w:tr>{}{}</w:tr><w:tr>{}<w:tc><w:p/></w:tc>{}</w:tr></w:tbl>\
         <w:p><w:r><w:t>After.</w:t></w:r></w:p>",
        cell("1811"),
        cell("Reid never served at the rock station."),
        cell("Do not"),
        cell("light the lamp before sunset."),
    );
    let ex = extract(&make_docx(&body), 1 << 20).unwrap();
    assert_eq!(
        ex.text,
        "Before.\n\n1811 | Reid never served at the rock station.\n\n\
         Do not | light the lamp before sunset.\n\nAfter."
    );
}

#[test]
fn headings_and_paragraphs() {
    let body = r#"<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Skerryvore</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">Built by Alan </w:t></w:r><w:r><w:t>Stevenson &amp; crew.</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Heading2"/></w:pPr><w:r><w:t>Granite</w:t></w:r></w:p>
<w:p><w:r><w:t>Dovetailed.</w:t></w:r></w:p>"#;
    let ex = extract(&make_docx(body), 1 << 20).unwrap();
    assert_eq!(ex.title.as_deref(), Some("Skerryvore"));
    assert_eq!(
        ex.text,
        "Skerryvore\n\nBuilt by Alan Stevenson & crew.\n\nGranite\n\nDovetailed."
    );
    assert!(matches!(
        ex.blocks[2].kind,
        BlockKind::Heading { level: 2, .. }
    ));
}

#[test]
fn item_4_tracked_deletions_are_not_text() {
    // An empty <w:t/> before a deletion must not switch text on.
    let body = r#"<w:p><w:r><w:t xml:space="preserve">The keeper was </w:t><w:t/></w:r><w:del w:id="1" w:author="x"><w:r><w:delText>never </w:delText></w:r></w:del><w:r><w:t>paid in full.</w:t></w:r></w:p>
<w:p><w:del><w:r><w:t>Gone entirely.</w:t></w:r></w:del><w:r><w:t>Kept.</w:t></w:r></w:p>"#;
    let ex = extract(&make_docx(body), 1 << 20).unwrap();
    assert_eq!(ex.text, "The keeper was paid in full.\n\nKept.");
}

/// A picture or object in the line leaves a mark; a floating one does
/// not interrupt the text.
#[test]
fn a_picture_in_the_line_leaves_a_mark() {
    let pic = |how: &str| {
        format!(
            r#"<w:r><w:drawing><wp:{how}><a:graphic><a:graphicData><pic:pic/></a:graphicData></a:graphic></wp:{how}></w:drawing></w:r>"#
        )
    };
    let body = format!(
        r#"<w:p><w:r><w:t xml:space="preserve">The lamp is </w:t></w:r>{}<w:r><w:t xml:space="preserve"> safe; the </w:t></w:r>{}<w:r><w:t xml:space="preserve"> tower </w:t></w:r><w:r><w:object><v:shape/></w:object></w:r><w:r><w:t xml:space="preserve"> stands.</w:t></w:r></w:p>"#,
        pic("inline"),
        pic("anchor")
    );
    let ex = extract(&make_docx(&body), 1 << 20).unwrap();
    assert_eq!(
        crate::text::collapse_ws(&ex.text),
        "The lamp is \u{FFFC} safe; the tower \u{FFFC} stands."
    );
}

proptest::proptest! {
    /// A picture in the line leaves a mark between the words either
    /// side, which no quote of words matches, and nothing else does.
    #[test]
    fn words_either_side_of_a_picture_never_join(
        words in proptest::collection::vec(0usize..5, 1..12),
        pics in proptest::collection::vec(proptest::bool::weighted(0.3), 12),
    ) {
        const W: [&str; 5] = ["keeper", "lamp", "never", "not", "safe"];
        let mut body = String::from(r#"<w:p><w:r><w:t>Here</w:t></w:r>"#);
        // The words between two pictures, as Word shows them.
        let mut runs = vec![vec!["Here"]];
        for (i, w) in words.iter().enumerate() {
            body.push_str(&format!(r#"<w:r><w:t xml:space="preserve"> {}</w:t></w:r>"#, W[*w]));
            runs.last_mut().unwrap().push(W[*w]);
            if pics[i] {
                body.push_str(r#"<w:r><w:drawing><wp:inline><pic:pic/></wp:inline></w:drawing></w:r>"#);
                runs.push(Vec::new());
            }
        }
        body.push_str("</w:p>");
        let ex = extract(&make_docx(&body), 1 << 20).unwrap();
        let read: Vec<Vec<&str>> =
            ex.text.split('\u{FFFC}').map(|r| r.split_whitespace().collect()).collect();
        proptest::prop_assert_eq!(read, runs);
    }
}

/// A text box as Word saves it, with the copy for old versions of Word
/// (`mc:Fallback`): read once.
#[test]
fn a_text_box_is_read_once() {
    let box_p = r#"<w:txbxContent><w:p><w:r><w:t>Boxed words about the gallery.</w:t></w:r></w:p></w:txbxContent>"#;
    let body = format!(
        r#"<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wps:txbx>{box_p}</wps:txbx></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox>{box_p}</v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r><w:r><w:t>After it.</w:t></w:r></w:p>"#
    );
    let ex = extract(&make_docx(&body), 1 << 20).unwrap();
    assert_eq!(
        ex.text.matches("Boxed words about the gallery.").count(),
        1,
        "{}",
        ex.text
    );
    assert!(ex.text.contains("After it."), "{}", ex.text);
}

/// Word shows the first `mc:Choice` whose `Requires` it knows, else the
/// `mc:Fallback`: a choice requiring what Word does not know is not
/// the text on the page.
#[test]
fn the_alternate_word_shows_is_read() {
    let para = |t: &str| format!("<w:p><w:r><w:t>{t}</w:t></w:r></w:p>");
    let alt = |req: &str, choice: &str, fallback: &str| {
        format!(
            r#"<w:p><w:r><mc:AlternateContent xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:w14="urn:example:not-word"><mc:Choice Requires="{req}">{}</mc:Choice><mc:Fallback>{}</mc:Fallback></mc:AlternateContent></w:r></w:p>"#,
            para(choice),
            para(fallback)
        )
    };
    let body = format!(
        "{}{}{}",
        alt(
            "xyz",
            "The assistant was dismissed for theft.",
            "The assistant retired with honour."
        ),
        alt("wps", "The tower was lit.", "The tower was dark."),
        alt("wps xyz", "The boat sank.", "The boat came in."),
    ) + &alt(
        "w14",
        "The keeper drank the oil.",
        "The keeper guarded the oil.",
    );
    let ex = extract(&make_docx(&body), 1 << 20).unwrap();
    for shown in [
        "retired with honour",
        "The tower was lit.",
        "The boat came in.",
        "guarded",
    ] {
        assert!(ex.text.contains(shown), "{shown}: {}", ex.text);
    }
    for hidden in ["dismissed", "was dark", "sank", "drank"] {
        assert!(!ex.text.contains(hidden), "{hidden}: {}", ex.text);
    }
}

#[test]
fn item_4_a_text_box_keeps_the_text_before_it() {
    let body = r#"<w:p><w:r><w:t xml:space="preserve">Before the box, </w:t></w:r><w:r><w:pict><w:txbxContent><w:p><w:r><w:t>Boxed words.</w:t></w:r></w:p></w:txbxContent></w:pict></w:r><w:r><w:t>after it.</w:t></w:r></w:p>"#;
    let ex = extract(&make_docx(body), 1 << 20).unwrap();
    assert!(ex.text.contains("Before the box, after it."), "{}", ex.text);
    assert!(ex.text.contains("Boxed words."), "{}", ex.text);
}

/// What Word shows is read as shown: superscripts and subscripts,
/// non-breaking hyphens and symbols; hidden text is not read.
#[test]
fn runs_read_as_word_shows_them() {
    let body = r#"<w:p><w:r><w:t xml:space="preserve">A culture of 10</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:t>6</w:t></w:r><w:r><w:t xml:space="preserve"> cells; keepers were </w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t xml:space="preserve">not </w:t></w:r><w:r><w:t xml:space="preserve">paid to re</w:t><w:noBreakHyphen/><w:t xml:space="preserve">sign at </w:t><w:noBreakHyphen/><w:t xml:space="preserve">40, drift 5 </w:t><w:sym w:font="Symbol" w:char="F0B1"/><w:t xml:space="preserve"> 2, 5 </w:t><w:sym w:font="Symbol" w:char="006D"/><w:t xml:space="preserve">g, </w:t></w:r><w:r><w:rPr><w:b/><w:rPrChange w:id="1"><w:rPr><w:vanish/></w:rPr></w:rPrChange></w:rPr><w:t>shown</w:t></w:r><w:r><w:t xml:space="preserve"> and H</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="subscript"/></w:rPr><w:t>2</w:t></w:r><w:r><w:t>O.</w:t></w:r></w:p>"#;
    for body in [body.to_string(), long_form(body)] {
        let ex = extract(&make_docx(&body), 1 << 20).unwrap();
        assert_eq!(
            ex.text,
            "A culture of 10⁶ cells; keepers were paid to re\u{2011}sign at \u{2011}40, drift 5 ± 2, 5 μg, shown and H₂O.",
            "{body}"
        );
    }
}

#[test]
fn not_a_zip() {
    let e = extract(b"hello", 1 << 20).unwrap_err();
    assert!(e.starts_with("malformed DOCX"), "{e}");
}

/// A positional tab is a space between words; struck-through words are
/// shown crossed out, not as text (a mark, as HTML's `<s>`); the
/// document's default run properties can hide every paragraph.
#[test]
fn tabs_strikes_and_hidden_defaults_read_as_word_shows_them() {
    let body = r#"<w:p><w:r><w:t>The keeper was</w:t><w:ptab w:relativeTo="margin" w:alignment="center" w:leader="none"/><w:t>paid.</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">The boat was </w:t></w:r><w:r><w:rPr><w:strike/></w:rPr><w:t xml:space="preserve">not </w:t></w:r><w:r><w:t>late.</w:t></w:r></w:p>"#;
    let ex = extract(&make_docx(body), 1 << 20).unwrap();
    assert!(ex.text.contains("The keeper was\tpaid."), "{}", ex.text);
    assert!(
        ex.text.contains("The boat was  \u{FFFC} late."),
        "{}",
        ex.text
    );
    assert!(!ex.text.contains("not"), "{}", ex.text);
    let styles = r#"</w:styles><w:docDefaults><w:rPrDefault><w:rPr><w:vanish/></w:rPr></w:rPrDefault></w:docDefaults><w:styles>"#;
    let body = r#"<w:p><w:r><w:t>The keeper was never sober.</w:t></w:r></w:p>
<w:p><w:r><w:rPr><w:vanish w:val="0"/></w:rPr><w:t>Shown.</w:t></w:r></w:p>"#;
    let ex = extract(&make_docx_styled(body, Some(styles)), 1 << 20).unwrap();
    assert_eq!(ex.text, "Shown.");
}

/// Footnotes and endnotes are read after the text, each apart: a quote of
/// a note validates, one running from the text into a note does not.
#[test]
fn footnotes_and_endnotes_are_read_apart() {
    let mut buf = Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default();
        let w = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;
        z.start_file("word/document.xml", opts).unwrap();
        write!(z, r#"<w:document {w}><w:body><w:p><w:r><w:t>The keeper lit the lamp.</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p></w:body></w:document>"#).unwrap();
        z.start_file("word/footnotes.xml", opts).unwrap();
        write!(z, r#"<w:footnotes {w}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:id="1"><w:p><w:r><w:t>Logbook of 1811, folio 4.</w:t></w:r></w:p></w:footnote></w:footnotes>"#).unwrap();
        z.start_file("word/endnotes.xml", opts).unwrap();
        write!(z, r#"<w:endnotes {w}><w:endnote w:id="1"><w:p><w:r><w:t>See the Board's minutes.</w:t></w:r></w:p></w:endnote></w:endnotes>"#).unwrap();
        z.finish().unwrap();
    }
    let ex = extract(&buf.into_inner(), 1 << 20).unwrap();
    assert_eq!(
        ex.text,
        "The keeper lit the lamp.\n\n\u{FFFC}\n\nLogbook of 1811, folio 4.\n\n\u{FFFC}\n\n\u{FFFC}\n\nSee the Board's minutes.\n\n\u{FFFC}"
    );
}

/// Styles apply as Word applies them: a styled paragraph is hidden by the
/// document's hidden defaults unless its style shows it, and a character
/// or paragraph style that strikes through leaves marks, not text.
#[test]
fn hiding_and_striking_come_through_styles() {
    let styles = r#"</w:styles><w:docDefaults><w:rPrDefault><w:rPr><w:vanish/></w:rPr></w:rPrDefault></w:docDefaults><w:styles>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"/>
<w:style w:type="paragraph" w:styleId="BodyText"><w:basedOn w:val="Normal"/><w:rPr><w:sz w:val="24"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Visible"><w:rPr><w:vanish w:val="0"/></w:rPr></w:style>"#;
    let body = r#"<w:p><w:pPr><w:pStyle w:val="BodyText"/></w:pPr><w:r><w:t>The keeper sold the brass.</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="Visible"/></w:pPr><w:r><w:t>Shown.</w:t></w:r></w:p>"#;
    let ex = extract(&make_docx_styled(body, Some(styles)), 1 << 20).unwrap();
    assert_eq!(ex.text, "Shown.");
    let styles = r#"<w:style w:type="character" w:styleId="Struck"><w:rPr><w:strike/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="StruckPara"><w:rPr><w:dstrike/></w:rPr></w:style>"#;
    let body = r#"<w:p><w:r><w:t xml:space="preserve">The keeper did </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Struck"/></w:rPr><w:t xml:space="preserve">not </w:t></w:r><w:r><w:t>leave.</w:t></w:r></w:p>
<w:p><w:pPr><w:pStyle w:val="StruckPara"/></w:pPr><w:r><w:t>The inspector never came.</w:t></w:r></w:p>"#;
    let ex = extract(&make_docx_styled(body, Some(styles)), 1 << 20).unwrap();
    assert!(ex.text.contains("did  \u{FFFC} leave."), "{}", ex.text);
    assert!(
        !ex.text.contains("not") && !ex.text.contains("inspector"),
        "{}",
        ex.text
    );
}

/// A tracked change of a paragraph's style keeps the old style inside
/// `w:pPrChange`: the paragraph is shown in its new style.
#[test]
fn a_tracked_style_change_reads_the_new_style() {
    let styles = r#"<w:style w:type="paragraph" w:styleId="Secret"><w:rPr><w:vanish/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Body"/>"#;
    let body = r#"<w:p><w:pPr><w:pStyle w:val="Secret"/><w:pPrChange w:id="1"><w:pPr><w:pStyle w:val="Body"/></w:pPr></w:pPrChange></w:pPr><w:r><w:t>The keeper sold the brass.</w:t></w:r></w:p>
<w:p><w:r><w:t>Shown.</w:t></w:r></w:p>"#;
    let ex = extract(&make_docx_styled(body, Some(styles)), 1 << 20).unwrap();
    assert_eq!(ex.text, "Shown.");
}

/// A table row deleted under tracked changes, and a text box in a drawing
/// Word hides, are not text.
#[test]
fn deleted_rows_and_hidden_drawings_are_not_read() {
    let body = r#"<w:tbl><w:tr><w:trPr><w:del w:id="3" w:author="A"/></w:trPr><w:tc><w:p><w:r><w:t>1811 | Reid never paid</w:t></w:r></w:p></w:tc></w:tr>
<w:tr><w:tc><w:p><w:r><w:t>1812</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Smith</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
<w:p><w:r><w:t xml:space="preserve">The keeper </w:t></w:r><w:r><w:drawing><wp:anchor><wp:docPr id="1" name="Box" hidden="1"/><a:graphic><a:graphicData><wps:wsp><wps:txbx><w:txbxContent><w:p><w:r><w:t>never</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r><w:r><w:t>slept.</w:t></w:r></w:p>"#;
    let ex = extract(&make_docx(body), 1 << 20).unwrap();
    assert!(!ex.text.contains("never"), "{}", ex.text);
    assert!(ex.text.contains("1812 | Smith"), "{}", ex.text);
    assert!(ex.text.contains("The keeper slept."), "{}", ex.text);
}

/// A table style that hides or strikes through hides or marks its cells'
/// text, as Word shows it.
#[test]
fn table_styles_hide_and_strike() {
    let styles = r#"<w:style w:type="table" w:styleId="Secret"><w:rPr><w:vanish/></w:rPr></w:style>
<w:style w:type="table" w:styleId="Struck"><w:rPr><w:strike/></w:rPr></w:style>"#;
    let body = r#"<w:tbl><w:tblPr><w:tblStyle w:val="Secret"/></w:tblPr><w:tr><w:tc><w:p><w:r><w:t>1811</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>never paid</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
<w:tbl><w:tblPr><w:tblStyle w:val="Struck"/></w:tblPr><w:tr><w:tc><w:p><w:r><w:t>1812</w:t></w:r><w:r><w:t>never</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
<w:p><w:r><w:t>Shown.</w:t></w:r></w:p>"#;
    let ex = extract(&make_docx_styled(body, Some(styles)), 1 << 20).unwrap();
    assert_eq!(ex.text, "Shown.");
}

/// Text in the colour of its own highlight or shading (black on black, a
/// redaction in Word), squeezed to nothing or drawn over itself is not
/// read; auto-coloured text on a dark shading is (Word draws it light).
#[test]
fn text_drawn_as_a_bar_is_not_read() {
    let run = |props: &str, text: &str| {
        format!(r#"<w:r><w:rPr>{props}</w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>"#)
    };
    let body = [
        run("", "The pilot "),
        run(
            r#"<w:color w:val="000000"/><w:highlight w:val="black"/>"#,
            "sold the charts",
        ),
        run("", " at dawn; he "),
        run(
            r#"<w:color w:val="000000"/><w:shd w:val="clear" w:fill="000000"/>"#,
            "never",
        ),
        run("", " came, "),
        run(r#"<w:w w:val="1"/>"#, "squeezed"),
        run("", " and "),
        run(r#"<w:spacing w:val="-1584"/>"#, "stacked"),
        run("", " but "),
        run(
            r#"<w:color w:val="auto"/><w:shd w:val="clear" w:fill="000000"/>"#,
            "light on dark",
        ),
        run("", " shows."),
    ]
    .concat();
    let more = [
        // Shaded as a paragraph; a dark blue highlight; a solid pattern.
        r#"<w:p><w:pPr><w:shd w:val="clear" w:fill="000000"/></w:pPr>"#.to_string()
            + &run(r#"<w:color w:val="000000"/>"#, "alpha hidden")
            + "</w:p>",
        format!(
            "<w:p>{}{}{}</w:p>",
            run(r#"<w:color w:val="000080"/><w:highlight w:val="darkBlue"/>"#, "delta hidden"),
            run(r#"<w:color w:val="000000"/><w:shd w:val="solid" w:color="000000" w:fill="FFFFFF"/>"#, "golf hidden"),
            run("", "The end."),
        ),
    ]
    .concat();
    let ex = extract(&make_docx(&format!("<w:p>{body}</w:p>{more}")), 1 << 20).unwrap();
    for gone in [
        "sold", "never", "squeezed", "stacked", "alpha", "delta", "golf",
    ] {
        assert!(!ex.text.contains(gone), "{gone}: {}", ex.text);
    }
    assert!(ex.text.contains("light on dark shows."), "{}", ex.text);
}

/// Red team, round 15, finding 02: white (or near-white) text on Word's
/// white page, letters too small to read and letters moved far off their
/// line are not read as the line's words; a mark keeps the words either
/// side apart. White text on a dark shading, and on a dark page, is read.
#[test]
fn text_a_reader_cannot_see_on_the_page_is_not_read() {
    let run = |props: &str, text: &str| {
        format!(r#"<w:r><w:rPr>{props}</w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>"#)
    };
    let para = |props: &str| {
        format!(
            "<w:p>{}{}{}</w:p>",
            run("", "The keeper was "),
            run(props, "not "),
            run("", "a trained man of the sea.")
        )
    };
    let body = [
        para(r#"<w:color w:val="FFFFFF"/>"#),
        para(r#"<w:color w:val="FEFEFE"/>"#),
        para(r#"<w:color w:val="white"/><w:highlight w:val="none"/>"#),
        para(r#"<w:sz w:val="1"/><w:szCs w:val="1"/>"#),
        para(r#"<w:position w:val="-2000"/>"#),
    ]
    .concat();
    let ex = extract(&make_docx(&body), 1 << 20).unwrap();
    assert!(!ex.text.contains("not"), "{}", ex.text);
    assert_eq!(ex.text.matches('\u{FFFC}').count(), 5, "{}", ex.text);
    // Seen: white on a dark shading; small but legible; raised a little.
    let seen = [
        para(r#"<w:color w:val="FFFFFF"/><w:shd w:val="clear" w:fill="000000"/>"#),
        para(r#"<w:sz w:val="12"/>"#),
        para(r#"<w:position w:val="6"/>"#),
    ]
    .concat();
    let ex = extract(&make_docx(&seen), 1 << 20).unwrap();
    assert_eq!(
        ex.text.matches("was not a trained").count(),
        3,
        "{}",
        ex.text
    );
    // White text on a dark page is read.
    let dark = format!(
        r#"<w:background w:color="000000"/>{}"#,
        para(r#"<w:color w:val="FFFFFF"/>"#)
    );
    let ex = extract(&make_docx(&dark), 1 << 20).unwrap();
    assert!(ex.text.contains("was not a trained"), "{}", ex.text);
}

/// Styles of the red team's round 21: a white character style, one too
/// small to read, one squeezed to nothing, a superscript one, a shown one;
/// a white paragraph style.
const LOOKS: &str = r#"<w:style w:type="character" w:styleId="Ghost"><w:rPr><w:color w:val="FFFFFF"/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Tiny"><w:rPr><w:sz w:val="2"/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Squeeze"><w:rPr><w:w w:val="1"/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Exponent"><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Ink"><w:rPr><w:color w:val="1F3864"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="GhostPara"><w:rPr><w:color w:val="FFFFFF"/></w:rPr></w:style>
<w:style w:type="character" w:styleId="ThemeGhost"><w:rPr><w:color w:val="000000" w:themeColor="background1"/></w:rPr></w:style>"#;

/// Characters written as references (`&#110;`) in `s`.
fn refs(s: &str) -> String {
    s.chars().map(|c| format!("&#{};", c as u32)).collect()
}

proptest::proptest! {
    /// However a run is hidden, struck, whitened or reversed (directly
    /// or through a style, its text written as characters or as
    /// references, inside `w:bdo`), none of its words is read, and the
    /// words Word shows are read in their order.
    #[test]
    fn words_word_does_not_show_are_not_read_however_written(
        words in proptest::collection::vec((0usize..6, 0usize..17), 1..14),
    ) {
        const W: [&str; 6] = ["keeper", "lamp", "never", "not", "safe", "tower"];
        let mut body = String::from("<w:p><w:r><w:t>Here</w:t></w:r>");
        let mut shown = vec!["Here"];
        for (w, how) in &words {
            let word = W[*w];
            let t = |text: &str| format!(r#"<w:t xml:space="preserve"> {text} </w:t>"#);
            let run = |rpr: &str, text: &str| format!("<w:r><w:rPr>{rpr}</w:rPr>{}</w:r>", t(text));
            let (xml, shows) = match how {
                0 => (run("", word), true),
                1 => (run("", &refs(word)), true),
                2 => (run("<w:rStyle w:val=\"Ink\"/>", &refs(word)), true),
                3 => (run("<w:strike/>", &refs(word)), false),
                4 => (run("<w:color w:val=\"FFFFFF\"/>", &refs(word)), false),
                5 => (run("<w:rStyle w:val=\"Ghost\"/>", word), false),
                6 => (run("<w:rStyle w:val=\"Tiny\"/>", &refs(word)), false),
                7 => (run("<w:rStyle w:val=\"Squeeze\"/>", word), false),
                8 => (format!("<w:bdo w:val=\"rtl\">{}</w:bdo>", run("", word)), false),
                9 => (format!("<w:bdo w:val=\"ltr\">{}</w:bdo>", run("", &refs(word))), true),
                // Coloured by the theme, whatever the value says (red
                // team 22): white on the page, black, white on a shading
                // the theme makes white, white through a style.
                10 => (run("<w:color w:val=\"000000\" w:themeColor=\"background1\"/>", word), false),
                11 => (run("<w:color w:val=\"FFFFFF\" w:themeColor=\"text1\"/>", word), true),
                12 => (
                    run(
                        "<w:color w:val=\"FFFFFF\"/><w:shd w:val=\"clear\" w:fill=\"000000\" w:themeFill=\"background1\"/>",
                        word,
                    ),
                    false,
                ),
                13 => (run("<w:rStyle w:val=\"ThemeGhost\"/>", &refs(word)), false),
                // A field's code, however written, is not shown; its
                // result is.
                14 => (
                    format!(
                        "<w:r><w:fldChar w:fldCharType=\"begin\"/></w:r>{}<w:r><w:fldChar w:fldCharType=\"separate\"/></w:r><w:r><w:fldChar w:fldCharType=\"end\"/></w:r>",
                        run("", word)
                    ),
                    false,
                ),
                15 => (
                    format!(
                        "<w:r><w:fldChar w:fldCharType=\"begin\"/></w:r><w:r><w:instrText> QUOTE </w:instrText></w:r><w:r><w:fldChar w:fldCharType=\"separate\"/></w:r>{}<w:r><w:fldChar w:fldCharType=\"end\"/></w:r>",
                        run("", word)
                    ),
                    true,
                ),
                _ => (run("<w:color w:val=\"FFFFFF\" w:themeColor=\"accent1\" w:themeShade=\"80\"/>", word), true),
            };
            body.push_str(&xml);
            if shows {
                shown.push(word);
            }
        }
        body.push_str("<w:r><w:t xml:space=\"preserve\"> here.</w:t></w:r></w:p>");
        shown.push("here.");
        let ex = extract(&make_docx_styled(&body, Some(LOOKS)), 1 << 20).unwrap();
        let read: Vec<&str> = ex.text.split(|c: char| c.is_whitespace() || c == '\u{FFFC}')
            .filter(|w| !w.is_empty()).collect();
        proptest::prop_assert_eq!(read, shown, "{}", body);
    }
}

/// A paragraph style in white is not read; digits raised by a character
/// style, or written as references, read raised; a cell deleted as a
/// tracked change is not read (the red team's round 21).
#[test]
fn styles_references_and_deleted_cells_read_as_word_shows_them() {
    let body = r#"<w:p><w:pPr><w:pStyle w:val="GhostPara"/></w:pPr><w:r><w:t>The board secretly resolved to close it.</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">Built of 10</w:t></w:r><w:r><w:rPr><w:rStyle w:val="Exponent"/></w:rPr><w:t>6</w:t></w:r><w:r><w:t xml:space="preserve"> blocks and 10</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:t>&#51;</w:t></w:r><w:r><w:t xml:space="preserve"> stones.</w:t></w:r></w:p>
<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Keeper</w:t></w:r></w:p></w:tc><w:tc><w:tcPr><w:cellDel w:id="1" w:author="A" w:date="2020-01-01T00:00:00Z"/></w:tcPr><w:p><w:r><w:t>The keeper was dismissed.</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Reid</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"#;
    let ex = extract(&make_docx_styled(body, Some(LOOKS)), 1 << 20).unwrap();
    assert!(!ex.text.contains("secretly"), "{}", ex.text);
    assert!(
        ex.text.contains("Built of 10⁶ blocks and 10³ stones."),
        "{}",
        ex.text
    );
    assert!(!ex.text.contains("dismissed"), "{}", ex.text);
    assert!(ex.text.contains("Keeper | Reid"), "{}", ex.text);
}

/// A document with `body`, `styles` and a `word/footnotes.xml` holding
/// `notes` (id, text).
fn make_docx_noted(body: &str, styles: Option<&str>, notes: &[(String, String)]) -> Vec<u8> {
    let mut buf = Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut buf);
        let opts = zip::write::SimpleFileOptions::default();
        z.start_file("word/document.xml", opts).unwrap();
        write!(
            z,
            r#"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
        )
        .unwrap();
        if let Some(styles) = styles {
            z.start_file("word/styles.xml", opts).unwrap();
            write!(z, r#"<?xml version="1.0"?><w:styles>{styles}</w:styles>"#).unwrap();
        }
        z.start_file("word/footnotes.xml", opts).unwrap();
        write!(z, r#"<?xml version="1.0"?><w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>"#).unwrap();
        for (id, text) in notes {
            write!(
                z,
                r#"<w:footnote w:id="{id}"><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:footnote>"#
            )
            .unwrap();
        }
        write!(z, "</w:footnotes>").unwrap();
        z.finish().unwrap();
    }
    buf.into_inner()
}

proptest::proptest! {
    /// A footnote is read after the paragraph that first refers to it,
    /// between marks (so cited under that paragraph's headings, and no
    /// quote runs into it); one nothing refers to, after the text; each
    /// once, the paragraphs in their order (the red team's round 22: every
    /// note was cited under the document's last heading).
    #[test]
    fn footnotes_follow_the_paragraph_that_refers_to_them(
        paras in proptest::collection::vec(proptest::option::of(0usize..4), 1..10),
    ) {
        let notes: Vec<(String, String)> =
            (0..4).map(|n| (format!("{}", n + 1), format!("Note number {n} says so."))).collect();
        let mut body = String::new();
        let mut expect: Vec<String> = Vec::new();
        let mut placed = [false; 4];
        for (i, r) in paras.iter().enumerate() {
            body.push_str(&format!("<w:p><w:r><w:t>Paragraph {i} here.</w:t></w:r>"));
            if let Some(n) = r {
                body.push_str(&format!(r#"<w:r><w:footnoteReference w:id="{}"/></w:r>"#, n + 1));
            }
            body.push_str("</w:p>");
            expect.push(format!("Paragraph {i} here."));
            if let Some(n) = r && !placed[*n] {
                placed[*n] = true;
                expect.extend(["\u{FFFC}".to_string(), notes[*n].1.clone(), "\u{FFFC}".to_string()]);
            }
        }
        for n in 0..4 {
            if !placed[n] {
                expect.extend(["\u{FFFC}".to_string(), notes[n].1.clone(), "\u{FFFC}".to_string()]);
            }
        }
        let ex = extract(&make_docx_noted(&body, None, &notes), 1 << 20).unwrap();
        let read: Vec<String> = ex.blocks.iter().map(|b| ex.text[b.start..b.end].to_string()).collect();
        proptest::prop_assert_eq!(read, expect);
    }
}

/// A heading is a heading whatever the language of its style's id: by the
/// style's built-in name ("heading 1"), its outline level, the style it is
/// based on, or the paragraph's own outline level (the red team's round
/// 22: a German document's "Überschrift1" sections were not headings).
#[test]
fn headings_in_any_language_or_style_are_headings() {
    let styles = r#"<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Titre2"><w:name w:val="heading 2"/></w:style>
<w:style w:type="paragraph" w:styleId="Kapitel"><w:name w:val="Kapitel"/><w:basedOn w:val="berschrift1"/></w:style>
<w:style w:type="paragraph" w:styleId="Body"><w:name w:val="Body"/><w:pPr><w:outlineLvl w:val="9"/></w:pPr></w:style>"#;
    let p = |style: &str, text: &str| {
        format!(
            r#"<w:p><w:pPr><w:pStyle w:val="{style}"/></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
        )
    };
    let body = [
        p("berschrift1", "Erster Teil"),
        p("Body", "The keeper arrived."),
        p("Titre2", "Deuxième partie"),
        p("Kapitel", "Drittes Kapitel"),
        r#"<w:p><w:pPr><w:outlineLvl w:val="2"/></w:pPr><w:r><w:t>Outlined</w:t></w:r></w:p>"#
            .to_string(),
        p("Body", "The boat was late."),
    ]
    .concat();
    let ex = extract(&make_docx_styled(&body, Some(styles)), 1 << 20).unwrap();
    let kinds: Vec<Option<u8>> = ex
        .blocks
        .iter()
        .map(|b| match b.kind {
            BlockKind::Heading { level, .. } => Some(level),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, [Some(1), None, Some(2), Some(1), Some(3), None]);
}
