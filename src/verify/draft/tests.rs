use super::*;

/// Each quotation of a draft with its citation's key and page.
fn cited(draft: &str) -> Vec<(String, Option<String>, Option<String>)> {
    draft_quotes(draft, 4)
        .check
        .into_iter()
        .map(|q| {
            let c = q.citation;
            (
                q.quote,
                c.as_ref().and_then(|c| c.key.clone()),
                c.and_then(|c| c.page),
            )
        })
        .collect()
}

/// Each quotation's citation key and page only.
fn keys_pages(draft: &str) -> Vec<(Option<String>, Option<String>)> {
    cited(draft).into_iter().map(|(_, k, p)| (k, p)).collect()
}

fn s(x: &str) -> Option<String> {
    Some(x.to_string())
}

#[test]
fn long_and_cjk_quotations_are_checked() {
    let long = "the keeper wrote in the log every night ".repeat(60);
    let draft = format!("As he said, “{long}” and\n“灯塔看守人从来没有点亮过灯塔的灯”.");
    let q = draft_quotes(&draft, 4);
    assert_eq!(q.check.len(), 2, "{:?}", q.too_short);
    assert!(q.check[0].quote.len() > 2000);
    assert_eq!(q.check[1].quote, "灯塔看守人从来没有点亮过灯塔的灯");
}

#[test]
fn quotation_marks_of_other_languages_are_read() {
    let draft = "Il écrit « le gardien allume la lampe chaque soir » puis. \
                 Er schrieb „der Wärter zündet die Lampe an“ und »der Turm steht noch heute«. \
                 Pisał „latarnik zapala lampę co wieczór”. \
                 Il dit ‹ la tour tient toujours debout ›. \
                 彼は「灯台守は毎晩ランプを灯した」と書き、『灯台は今も立っている』と続けた。";
    let q: Vec<String> = draft_quotes(draft, 4)
        .check
        .into_iter()
        .map(|q| q.quote)
        .collect();
    assert_eq!(
        q,
        [
            "le gardien allume la lampe chaque soir",
            "der Wärter zündet die Lampe an",
            "der Turm steht noch heute",
            "latarnik zapala lampę co wieczór",
            "la tour tient toujours debout",
            "灯台守は毎晩ランプを灯した",
            "灯台は今も立っている",
        ]
    );
}

/// Single quotation marks, as British drafts use them, are read; an
/// apostrophe ("don’t", "keepers’", "'tis") neither opens nor closes
/// one. A “ closed by a straight " is read too.
#[test]
fn single_quotation_marks_are_read_and_apostrophes_are_not() {
    let draft = "She wrote ‘the keepers don’t leave the rock in winter’ and \
                 'the lamp was lit at dusk every evening', then the keepers’ wives \
                 said nothing. ’Tis said “the tower stood for a century\" anyway.";
    let q: Vec<String> = draft_quotes(draft, 4)
        .check
        .into_iter()
        .map(|q| q.quote)
        .collect();
    assert_eq!(
        q,
        [
            "the keepers don’t leave the rock in winter",
            "the lamp was lit at dusk every evening",
            "the tower stood for a century"
        ]
    );
}

/// A narrative citation before its quotation cites it ("As @key [p. 9]
/// writes, “…”"), and one introducing a block quote cites the block; a
/// citation of another sentence, or a line that cites the block above,
/// does not.
#[test]
fn a_citation_before_its_quotation_is_read() {
    let draft = "As @stevenson [p. 9] writes, “the light was first exhibited in 1811”.\n\
                 @reid notes that “the keeper trimmed the wick at night” [@smith, p. 4].\n\
                 We read @hay [p. 2] closely. Then “the boat came round the point” again.\n\
                 “Q one is a long quotation” [@a, p. 3] and “Q two is another long one”.\n\n\
                 In @bell [p. 12] the keeper says:\n\n\
                 > The lamp was lit at dusk.\n\
                 — [@bell, p. 13]\n\n\
                 > The relief boat came on Friday.\n";
    let cited = cited(draft);
    assert_eq!(
        cited,
        [
            (
                "the light was first exhibited in 1811".into(),
                s("stevenson"),
                s("9")
            ),
            (
                "the keeper trimmed the wick at night".into(),
                s("smith"),
                s("4")
            ),
            ("the boat came round the point".into(), None, None),
            ("Q one is a long quotation".into(), s("a"), s("3")),
            ("Q two is another long one".into(), None, None),
            ("The lamp was lit at dusk.".into(), s("bell"), s("13")),
            ("The relief boat came on Friday.".into(), None, None),
        ]
    );
    let intro = "In @bell [p. 12] the keeper says:\n\n> The lamp was lit at dusk.\n";
    let q = draft_quotes(intro, 4).check;
    assert_eq!(q[0].citation.as_ref().and_then(|c| c.page.clone()), s("12"));
}

/// A footnote reference after a quotation (or at a block quote's end)
/// cites it with the footnote's citation, in Pandoc's or author-date
/// form.
#[test]
fn a_footnotes_citation_cites_its_quotation() {
    let draft = "He complained that “the keeper mended the roof with sailcloth.”[^1]\n\
                 Later the board noted “it was rung by hand every thirty seconds”.[^b]\n\
                 And “a note with no citation in it at all”[^3] ends it.\n\n\
                 > The lamp was lit at dusk every day.[^4]\n\n\
                 [^1]: [@lamp1900, p. 1].\n\
                 [^b]: See @lamp1900, p. 4.\n\
                 [^3]: A comment of mine.\n\
                 [^4]: Smith 2020, 12.\n";
    let cited = keys_pages(draft);
    assert_eq!(
        cited,
        [
            (s("lamp1900"), s("1")),
            (s("lamp1900"), s("4")),
            (None, None),
            (None, s("12")),
        ]
    );
    let q = draft_quotes(draft, 4).check;
    assert_eq!(q[3].quote, "The lamp was lit at dusk every day.");
    let bare = draft_quotes(
        "“it was rung by hand every thirty seconds”[^2]\n\n[^2]: @lamp1900, p. 4.\n",
        4,
    );
    let c = bare.check[0].citation.clone().expect("read");
    assert_eq!(
        (c.key.as_deref(), c.page.as_deref()),
        (Some("lamp1900"), Some("4"))
    );
    assert!(q[3].citation.as_ref().unwrap().text.contains("Smith 2020"));
}

/// A LaTeX draft's quotations are read, with their citations:
/// ``…'', \enquote, \textquote with its citation argument, and the
/// quote environments.
#[test]
fn a_latex_drafts_quotations_and_citations_are_read() {
    let draft = "Smith says ``the keeper did not leave the tower'' \\cite[p.~9]{smith}.\n\
                 He adds \\enquote{the lamp was never allowed to go dark} \\parencite[see][12]{smith, jones}.\n\
                 And \\textquote[\\cite[p.~3]{reid}]{the boat came round the point at dawn}.\n\
                 \\begin{quote}\n\
                 The relief boat came on Friday with the oil. \\cite[p.~4]{reid}\n\
                 \\end{quote}\n\
                 \\begin{displayquote}[\\autocite[7]{hay}]\n\
                 The wick was trimmed every four hours.\n\
                 \\end{displayquote}\n";
    let cited = cited(draft);
    assert_eq!(
        cited,
        [
            (
                "the keeper did not leave the tower".into(),
                s("smith"),
                s("9")
            ),
            (
                "the lamp was never allowed to go dark".into(),
                s("smith"),
                s("12")
            ),
            (
                "the boat came round the point at dawn".into(),
                s("reid"),
                s("3")
            ),
            (
                "The relief boat came on Friday with the oil.".into(),
                s("reid"),
                s("4")
            ),
            (
                "The wick was trimmed every four hours.".into(),
                s("hay"),
                s("7")
            ),
        ]
    );
}

/// Citations as LaTeX writers put them: after a tie (`''~\cite`), in a
/// footnote (`\footnote{\cite…}`), before the quotation (`As
/// \textcite{key} writes`); a narrative one opening the next sentence
/// is that sentence's subject, not the quotation's citation.
#[test]
fn latex_citations_where_writers_put_them() {
    let draft = "Smith notes ``the keeper trimmed the wick every four hours''~\\cite[p.~9]{jones}.\n\
                 Ness writes ``the keepers wrote their logs by lamplight''\\footnote{\\cite[p.~3]{ness}.}\n\
                 As \\textcite[p.~4]{reid} writes, ``the boat came round the point at dawn''.\n\
                 Smith says ``the relief boat came on Friday with the oil'' \\citet{jones} disagrees.\n\
                 \\begin{quote}\n\
                 The lamp was lit at dusk every day of the year.\n\
                 \\end{quote}\n\
                 \\textcite[2]{ness} tells a different story.\n";
    let cited = keys_pages(draft);
    assert_eq!(
        cited,
        [
            (s("jones"), s("9")),
            (s("ness"), s("3")),
            (s("reid"), s("4")),
            (None, None),
            (None, None),
        ]
    );
}

/// A footnote's citation on its continuation line is read; a block
/// quote's lazy continuation line is part of it; two single-quoted
/// quotations are two, though the first ends in an "s".
#[test]
fn continuation_lines_and_quotations_side_by_side() {
    let draft = "He wrote that “the relief boat came on Friday with the oil”[^1] then.\n\n\
                 > The keeper trimmed the wick every four hours\n\
                 through the storm and slept all through the day.\n\n\
                 As she says, ‘the keeper trimmed the wick every four hours’ and ‘the principal keeper kept the only key’.\n\n\
                 [^1]: On the relief boats generally, and on the oil they carried,\n    \
                 see @ness1901, p. 2.\n";
    let q = draft_quotes(draft, 4).check;
    let quotes: Vec<&str> = q.iter().map(|q| q.quote.as_str()).collect();
    assert_eq!(
        quotes,
        [
            "the relief boat came on Friday with the oil",
            "The keeper trimmed the wick every four hours through the storm and slept all through the day.",
            "the keeper trimmed the wick every four hours",
            "the principal keeper kept the only key",
        ]
    );
    let c = q[0].citation.clone().expect("read");
    assert_eq!(
        (c.key.as_deref(), c.page.as_deref()),
        (Some("ness1901"), Some("2"))
    );
}

/// An inch or second sign (`12"`) opens no quotation, and a plural's
/// apostrophe inside single marks does not close one.
#[test]
fn inch_signs_and_plural_apostrophes_leave_quotations_whole() {
    let draft = "Under its 12\" lens, Smith says \"the keeper left the tower in winter\" and \
                 \"the lamp was often allowed to go dark\".\n\n\
                 British style: ‘the keepers’ lamp was often allowed to go dark’, he wrote; \
                 ‘the ships’ she said.\n";
    let q: Vec<String> = draft_quotes(draft, 1)
        .check
        .into_iter()
        .map(|q| q.quote)
        .collect();
    assert_eq!(
        q,
        [
            "the keeper left the tower in winter",
            "the lamp was often allowed to go dark",
            "the keepers’ lamp was often allowed to go dark",
            "the ships",
        ]
    );
}

#[test]
fn extracts_quotations_and_block_quotes_from_a_draft() {
    let draft = "# Chapter\n\nAs Stevenson wrote, “the light was first exhibited\non 1 February 1811” and \"short one\" was not.\n\n> The keeper trimmed the wick\n> every four hours.\n\n```\n> not a quote in code\n```\n";
    let q = draft_quotes(draft, 4);
    let texts: Vec<_> = q.check.iter().map(|q| (q.quote.as_str(), q.line)).collect();
    assert_eq!(
        texts,
        [
            ("the light was first exhibited on 1 February 1811", Some(3)),
            ("The keeper trimmed the wick every four hours.", Some(6)),
        ]
    );
    let short: Vec<_> = q
        .too_short
        .iter()
        .map(|q| (q.quote.as_str(), q.line))
        .collect();
    assert_eq!(short, [("short one", Some(4))]);
}

/// Issue 9, item 13: finding quotations is linear in the draft (a
/// quadratic scan of this draft would not finish in any test run).
#[test]
fn item_13_a_long_draft_is_scanned_once() {
    let para = "He wrote “the keeper trimmed the wick every night” again.\n";
    let draft = para.repeat(100_000);
    let q = draft_quotes(&draft, 4).check;
    assert_eq!(q.len(), 100_000);
    assert_eq!(q[0].line, Some(1));
    assert_eq!(q[99_999].line, Some(100_000));
}

/// A LaTeX quotation is checked as it prints: its formatting commands,
/// ties, dashes and escaped signs are not the words quoted.
#[test]
fn latex_markup_in_a_quotation_is_read_as_printed() {
    let draft = "He wrote ``the \\emph{keeper}~trimmed the wick---every night---at 10\\% of the oil\\ldots''.\n\
                 \\begin{quote}\n\
                 The lamp was \\textbf{never} lit before dusk \\& never after dawn.\n\
                 \\end{quote}\n\
                 Plain “a -- b and \\emph{c} stay as written here”.\n";
    let q: Vec<String> = draft_quotes(draft, 4)
        .check
        .into_iter()
        .map(|q| q.quote)
        .collect();
    assert_eq!(
        q,
        [
            "the keeper trimmed the wick—every night—at 10% of the oil…",
            "The lamp was never lit before dusk & never after dawn.",
            "a -- b and \\emph{c} stay as written here",
        ]
    );
}
