use super::*;
use crate::text::slice_chars;
use crate::validate::{ChunkRef, Status, ValidateConfig, Verdict, validate};
use proptest::prelude::*;

fn chunk(id: &str, source: &str, text: &str) -> Chunk {
    Chunk {
        id: id.into(),
        source_id: source.into(),
        source_title: format!("Title of {source}"),
        location: "Chapter 1".into(),
        text: text.into(),
        start: 0,
        end: text.chars().count(),
        ordinal: 0,
        tokens: 0,
        line: None,
        page: None,
    }
}

fn two() -> Vec<Chunk> {
    vec![
        chunk(
            "pharos.md#0",
            "pharos.md",
            "The Pharos stood at Alexandria. Its architect was\nSostratus of Cnidus. It fell in 1303.",
        ),
        chunk(
            "bell.md#0",
            "bell.md",
            "Bell Rock was first lit in 1811. Robert Stevenson built it.",
        ),
    ]
}

fn reply(json: &str) -> PointerReply {
    parse_pointers(json).unwrap()
}

#[test]
fn the_context_numbers_every_sentence_under_its_chunks_header() {
    let cs = two();
    let refs: Vec<&Chunk> = cs.iter().collect();
    let n = Numbered::new(&refs);
    assert_eq!(n.ids(), ["S1", "S2", "S3", "S4", "S5"]);
    let ctx = n.context();
    assert!(ctx.starts_with(
        "--- sourceId: pharos.md | sourceTitle: Title of pharos.md | sourceLocation: Chapter 1\n\
         [S1] The Pharos stood at Alexandria.\n\
         [S2] Its architect was Sostratus of Cnidus.\n\
         [S3] It fell in 1303.\n\
         --- sourceId: bell.md"
    ));
    assert!(
        ctx.ends_with("[S4] Bell Rock was first lit in 1811.\n[S5] Robert Stevenson built it.\n")
    );
    // What the budget counts is the same text, numbered from S1.
    assert!(
        ctx.ends_with(
            &format_chunk_numbered(&cs[1])
                .replace("S1]", "S4]")
                .replace("S2]", "S5]")
        )
    );
}

#[test]
fn a_range_is_the_sources_own_text_line_breaks_and_all() {
    let cs = two();
    let refs: Vec<&Chunk> = cs.iter().collect();
    let n = Numbered::new(&refs);
    let ex = n.resolve(reply(
        r#"{"quotes": [{"from": "S2", "to": "S3"}, {"from": "S5", "to": "S5"}],
            "summary": "Sostratus [1]; Stevenson [2].", "noResults": false}"#,
    ));
    assert!(!ex.no_results);
    assert_eq!(ex.summary, "Sostratus [1]; Stevenson [2].");
    let s = &ex.snippets[0];
    assert_eq!(
        s.content,
        "Its architect was\nSostratus of Cnidus. It fell in 1303."
    );
    assert_eq!(
        (s.source_id.as_str(), s.source_location.as_str()),
        ("pharos.md", "Chapter 1")
    );
    let span = s.span.as_ref().unwrap();
    assert_eq!(slice_chars(&cs[0].text, span.start, span.end), s.content);
    assert_eq!(ex.snippets[1].content, "Robert Stevenson built it.");
    assert_eq!(ex.snippets[1].source_id, "bell.md");
    assert!(ex.snippets[0].relevance > ex.snippets[1].relevance);
}

#[test]
fn pointers_that_stand_for_no_passage_say_so_and_keep_their_place() {
    let cs = two();
    let refs: Vec<&Chunk> = cs.iter().collect();
    let n = Numbered::new(&refs);
    let ex = n.resolve(reply(
        r#"{"quotes": [{"from": "S9", "to": "S9"}, {"from": "S3", "to": "S4"},
                       {"from": "S5", "to": "S4"}], "summary": "x [3].", "noResults": false}"#,
    ));
    assert_eq!(ex.snippets.len(), 3);
    assert!(
        ex.snippets[0].content.contains("\"S9\""),
        "{:?}",
        ex.snippets[0]
    );
    assert!(ex.snippets[0].content.contains("not in the context"));
    assert!(ex.snippets[0].span.is_none());
    // S3 is the Pharos chunk's last sentence, S4 the Bell Rock chunk's first.
    assert!(
        ex.snippets[1]
            .content
            .contains("one source passage into another")
    );
    // Reversed, the range is still one passage.
    assert_eq!(
        ex.snippets[2].content,
        "Bell Rock was first lit in 1811. Robert Stevenson built it."
    );
    // Nothing the model pointed at wrongly validates.
    let chunk_refs: Vec<ChunkRef<'_>> = cs.iter().map(ChunkRef::from).collect();
    for s in &ex.snippets[..2] {
        let v = validate(
            &s.content,
            &s.source_id,
            &chunk_refs,
            &ValidateConfig::default(),
        );
        assert_eq!(v.verdict.status(), Status::Dropped, "{s:?}");
    }
}

/// Each item of the reply is one quote in its place, so the summary's
/// numbers name the quotes the model meant: a list of ids that are not one
/// run, or an item with no id, stands for no passage.
#[test]
fn lenient_replies_never_stitch_nor_renumber() {
    let r = reply(
        r#"{"quotes": ["S1-S2", 4, {"ids": ["S1", "S2", "S4", "S5"]}, null, {"sentence": "[S3]"}, {"ids": ["S4", "S5"]}], "summary": ""}"#,
    );
    let got: Vec<(&str, &str, bool)> = r
        .quotes
        .iter()
        .map(|p| (p.from.as_str(), p.to.as_str(), p.unusable.is_some()))
        .collect();
    assert_eq!(
        got,
        [
            ("S1", "S2", false),
            ("4", "4", false),
            ("S1", "S5", true),
            ("", "", true),
            ("[S3]", "[S3]", false),
            ("S4", "S5", false),
        ]
    );
    let cs = two();
    let refs: Vec<&Chunk> = cs.iter().collect();
    let ex = Numbered::new(&refs).resolve(r);
    assert_eq!(ex.snippets.len(), 6);
    assert!(
        ex.snippets[2].content.contains("not one passage"),
        "{:?}",
        ex.snippets[2]
    );
    assert!(
        ex.snippets[3].content.contains("no sentence id"),
        "{:?}",
        ex.snippets[3]
    );
    assert!(ex.snippets[2].span.is_none() && ex.snippets[3].span.is_none());
    assert!(ex.snippets[4].span.is_some());
    assert_eq!(r.no_results, None);
    // A fenced reply, prose around it, a range in "from".
    let r = reply(
        "Here:\n```json\n{\"snippets\": [{\"from\": \"S2–S3\"}], \"noResults\": \"false\"}\n```",
    );
    assert_eq!(
        (r.quotes[0].from.as_str(), r.quotes[0].to.as_str()),
        ("S2", "S3")
    );
    assert_eq!(r.no_results, Some(false));
    // Nothing to point at.
    let r = reply(r#"{"noResults": true}"#);
    assert!(r.quotes.is_empty());
    assert!(parse_pointers(r#"{"answer": "Sostratus"}"#).is_err());
    assert!(parse_pointers("no json here").is_err());
}

#[test]
fn long_ranges_are_cut_and_replies_capped() {
    let text: String = (1..=10)
        .map(|i| format!("Sentence number {i} is here. "))
        .collect();
    let cs = [chunk("a#0", "a", text.trim_end())];
    let refs: Vec<&Chunk> = cs.iter().collect();
    let n = Numbered::new(&refs);
    let ex = n.resolve(reply(r#"{"quotes": [{"from": "S1", "to": "S10"}]}"#));
    assert!(
        ex.snippets[0].content.ends_with("number 6 is here."),
        "{:?}",
        ex.snippets[0].content
    );
    let many: Vec<String> = (1..=10).map(|i| format!("\"S{i}\"")).collect();
    let ex = n.resolve(reply(&format!("{{\"quotes\": [{}]}}", many.join(","))));
    assert_eq!(ex.snippets.len(), MAX_SNIPPETS);
}

#[test]
fn the_schema_allows_only_the_contexts_ids() {
    let s = schema(&["S1".into(), "S2".into()]).to_string();
    assert!(s.contains(r#""enum":["S1","S2"]"#), "{s}");
    assert!(s.find("\"quotes\"").unwrap() < s.find("\"noResults\"").unwrap());
}

fn text_strategy() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "The keeper",
            "lit the lamp",
            "in 1759.",
            "Smeaton’s",
            "mortar",
            "set.",
            "Why?",
            "because",
            "灯台",
            "🚢",
            "naïve",
            "\r\n",
            "\u{FFFC}",
            "  ",
            "ﬁne",
            "—",
            "Dr.",
            "J.",
            "e\u{301}",
            "\u{1b}[31m",
            "3.5%",
            "\n\n",
            "[S2]",
            "S1-S3",
            "\"quotes\"",
        ]),
        1..40,
    )
    .prop_map(|ws| ws.join(" "))
}

fn pointer_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        (0usize..30, 0usize..30).prop_map(|(a, b)| format!(r#"{{"from": "S{a}", "to": "S{b}"}}"#)),
        (0usize..30).prop_map(|a| format!("\"S{a}\"")),
        (0usize..30, 0usize..30).prop_map(|(a, b)| format!("\"S{a}-S{b}\"")),
        prop::collection::vec(0usize..30, 0..5).prop_map(|v| format!("{{\"ids\": {v:?}}}")),
        Just(r#"{"from": "S", "to": "banana"}"#.to_string()),
    ]
}

proptest! {
    #![proptest_config(crate::cases(128))]

    /// Whatever the model points at, a quote with a span is its chunk's own
    /// text there, and whatever validation passes is in the sources: a
    /// pointer that stands for no passage never validates.
    #[test]
    fn every_pointer_quote_is_its_sources_text(
        texts in prop::collection::vec(text_strategy(), 1..4),
        pointers in prop::collection::vec(pointer_strategy(), 0..10),
    ) {
        let cs: Vec<Chunk> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| chunk(&format!("s{i}.md#0"), &format!("s{i}.md"), t))
            .collect();
        let refs: Vec<&Chunk> = cs.iter().collect();
        let n = Numbered::new(&refs);
        let ex = n.resolve(reply(&format!("{{\"quotes\": [{}]}}", pointers.join(","))));
        prop_assert!(ex.snippets.len() <= MAX_SNIPPETS);
        let chunk_refs: Vec<ChunkRef<'_>> = cs.iter().map(ChunkRef::from).collect();
        for s in &ex.snippets {
            let v = validate(&s.content, &s.source_id, &chunk_refs, &ValidateConfig::default());
            match &s.span {
                Some(span) => {
                    let c = cs.iter().find(|c| c.id == span.chunk_id).unwrap();
                    prop_assert!(span.start < span.end);
                    prop_assert_eq!(slice_chars(&c.text, span.start, span.end), s.content.as_str());
                    prop_assert_eq!(&s.source_id, &c.source_id);
                    // Never across text the source does not show.
                    prop_assert!(!s.content.contains(crate::text::HIDDEN_MARK), "{:?}", s.content);
                    prop_assert!(
                        v.verdict.status() == Status::Validated || v.verdict == Verdict::TooShort,
                        "{:?}", v.verdict
                    );
                }
                None => prop_assert_ne!(v.verdict.status(), Status::Validated, "{:?}", s),
            }
        }
    }
}
