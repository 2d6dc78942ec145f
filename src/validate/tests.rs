use super::*;
use proptest::prelude::*;

const EDDY: &str = "The first Eddystone lighthouse was built by Henry Winstanley in 1698. \
It was an ornate wooden tower, and the great storm of 1703 swept it away with its builder. \
John Smeaton's tower of 1759 used dovetailed granite blocks and hydraulic lime. \
It stood until 1877, when erosion of the rock beneath it forced its replacement.";

const FRESNEL: &str = "Augustin Fresnel presented his lens to the Commission des Phares in 1822. \
By dividing a large lens into concentric rings of prisms, he cut its weight and its loss of light.";

fn chunks() -> Vec<ChunkRef<'static>> {
    vec![
        ChunkRef {
            id: "eddy#0",
            source_id: "eddystone",
            text: EDDY,
        },
        ChunkRef {
            id: "fresnel#0",
            source_id: "fresnel",
            text: FRESNEL,
        },
    ]
}

fn one(id: &'static str, source: &'static str, text: &'static str) -> Vec<ChunkRef<'static>> {
    vec![ChunkRef {
        id,
        source_id: source,
        text,
    }]
}

fn cfg() -> ValidateConfig {
    ValidateConfig::default()
}

/// Char range of the first occurrence of `needle` in `hay`.
fn char_range(hay: &str, needle: &str) -> (usize, usize) {
    let b = hay.find(needle).expect("needle in hay");
    let s = hay[..b].chars().count();
    (s, s + needle.chars().count())
}

/// copy_text is the chunk's own text at the spans.
fn check_copy(chunks: &[ChunkRef<'_>], v: &Validation) {
    let expected: Vec<String> = v
        .spans
        .iter()
        .map(|s| {
            let c = chunks.iter().find(|c| c.id == s.chunk_id).unwrap();
            super::reader::reader_text_within(c.text, s.start, s.end)
        })
        .collect();
    assert_eq!(v.copy_text.as_deref(), Some(expected.join(" … ").as_str()));
}

#[test]
fn verbatim_with_exact_span() {
    let cs = chunks();
    let q = "John Smeaton's tower of 1759 used dovetailed granite blocks";
    let v = validate(q, "eddystone", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::Verbatim);
    assert_eq!(v.status, Status::Validated);
    assert_eq!(v.similarity, 1.0);
    let (s, e) = char_range(EDDY, q);
    assert_eq!(
        v.spans,
        [Span {
            chunk_id: "eddy#0".into(),
            start: s,
            end: e
        }]
    );
    assert_eq!(v.copy_text.as_deref(), Some(q));
    assert_eq!(v.found_source_id.as_deref(), Some("eddystone"));
}

/// Normalized match: verdict, span slice = `expect`, and the slice
/// normalizes to the normalized snippet.
fn assert_normalized(source: &'static str, snippet: &str, expect: &str) {
    let cs = one("c#0", "s", source);
    let v = validate(snippet, "s", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::Normalized, "{snippet:?}: {v:?}");
    assert_eq!(v.status, Status::Validated);
    assert_eq!(v.spans.len(), 1);
    let (s, e) = char_range(source, expect);
    assert_eq!((v.spans[0].start, v.spans[0].end), (s, e), "{snippet:?}");
    assert_eq!(v.copy_text, Some(reader_text(expect)));
    assert_eq!(normalize(expect).text, normalize(snippet).text);
}

/// A plain-text edition's footnote markers against a word are left out
/// by the reader's quote; brackets that are the text's are not.
#[test]
fn footnote_markers_against_a_word_are_not_read() {
    for (source, quote) in [
        (
            "The advent of the Dionysian[06] festivals in Greece changed the chorus.",
            "The advent of the Dionysian festivals in Greece",
        ),
        (
            "as I have suggested elsewhere,[E] the musician's imagination works",
            "as I have suggested elsewhere, the musician's imagination works",
        ),
        (
            "He read it to them.[12] It was designed for the choir alone.",
            "He read it to them. It was designed for the choir alone.",
        ),
    ] {
        let cs = one("c#0", "s", source);
        let v = validate(quote, "s", &cs, &cfg());
        assert_eq!(v.status, Status::Validated, "{quote:?}: {v:?}");
    }
    for (source, quote) in [
        (
            "set items[10] to five and the rest to zero",
            "set items to five and the rest to zero",
        ),
        (
            "and x[1] is the first of the array here",
            "and x is the first of the array here",
        ),
        (
            "the keeper[A]s lamp was lit at dusk",
            "the keepers lamp was lit at dusk",
        ),
    ] {
        let cs = one("c#0", "s", source);
        let v = validate(quote, "s", &cs, &cfg());
        assert_ne!(v.status, Status::Validated, "{quote:?}: {v:?}");
    }
}

#[test]
fn normalized_variants() {
    assert_normalized(
        "He called it “the brightest light in the world” at once.",
        "called it \"the brightest light in the world\"",
        "called it “the brightest light in the world”",
    );
    assert_normalized(
        "The keeper’s log — kept daily — survives intact.",
        "The keeper's log - kept daily - survives",
        "The keeper’s log — kept daily — survives",
    );
    assert_normalized(
        "Fog Signals Were Sounded Every Minute.",
        "fog signals were sounded every minute",
        "Fog Signals Were Sounded Every Minute",
    );
    assert_normalized(
        "The lamp burned\ncolza oil  until\r\n the 1860s.",
        "The lamp burned colza oil until the 1860s.",
        "The lamp burned\ncolza oil  until\r\n the 1860s.",
    );
    assert_normalized(
        "A para\u{00AD}bolic reflector sat behind each lamp.",
        "A parabolic reflector sat behind each lamp",
        "A para\u{00AD}bolic reflector sat behind each lamp",
    );
    assert_normalized(
        "The light-\nhouse stood on the reef for a century.",
        "The lighthouse stood on the reef",
        "The light-\nhouse stood on the reef",
    );
    assert_normalized(
        "The light- \n   house stood on the reef for a century.",
        "the lighthouse stood on the reef",
        "The light- \n   house stood on the reef",
    );
    assert_normalized(
        "It weighed 8\u{00A0}tonnes in all, lens and frame.",
        "It weighed 8 tonnes in all",
        "It weighed 8\u{00A0}tonnes in all",
    );
    assert_normalized(
        "The ﬁrst order lens was ﬁtted in 1824 at Cordouan.",
        "The first order lens was fitted in 1824",
        "The ﬁrst order lens was ﬁtted in 1824",
    );
    assert_normalized(
        "He wrote… nothing more that night, then slept.",
        "He wrote... nothing more that night",
        "He wrote… nothing more that night",
    );
}

#[test]
fn unicode_spans_are_in_chars() {
    let src = "Le phare de Cordouan, « roi des phares », éclaire l’estuaire. \
               灯台の光は遠くまで届く。 Les marins 🚢 le voient de très loin.";
    let cs = one("u#0", "u", src);
    let q = "éclaire l’estuaire. 灯台の光は遠くまで届く。 Les marins 🚢 le voient";
    let v = validate(q, "u", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::Verbatim);
    let (s, e) = char_range(src, q);
    assert_eq!((v.spans[0].start, v.spans[0].end), (s, e));
    assert_ne!(src.find(q).unwrap(), s, "byte and char offsets differ here");
    // A normalized variant maps back to the same chars.
    let q2 = "ÉCLAIRE L'ESTUAIRE. 灯台の光は遠くまで届く。 les marins 🚢 le voient";
    let v = validate(q2, "u", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::Normalized);
    assert_eq!((v.spans[0].start, v.spans[0].end), (s, e));
    assert_eq!(v.copy_text.as_deref(), Some(q));
    // Decomposed accents in the source still match precomposed ones.
    let cs = one("d#0", "d", "Le phare e\u{0301}claire l'estuaire la nuit.");
    let v = validate("phare éclaire l'estuaire la", "d", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::Normalized);
    let (s, e) = char_range(cs[0].text, "phare e\u{0301}claire l'estuaire la");
    assert_eq!((s, e), (3, 31));
    assert_eq!((v.spans[0].start, v.spans[0].end), (s, e));
}

#[test]
fn snippet_splitting_a_cluster_is_not_validated() {
    // The source's "é" is e + U+0301; a snippet ending in the bare "e"
    // is an exact byte substring but not the same word.
    let src = "Le phare se dresse sur la cote\u{0301} sauvage.";
    let cs = one("d#0", "d", src);
    let v = validate("Le phare se dresse sur la cote", "d", &cs, &cfg());
    assert_ne!(v.status, Status::Validated, "{v:?}");
}

#[test]
fn reversed_sentences_are_non_contiguous() {
    let cs = chunks();
    let s1 = "The first Eddystone lighthouse was built by Henry Winstanley in 1698.";
    let s2 = "It was an ornate wooden tower, and the great storm of 1703 swept it away with its builder.";
    let v = validate(&format!("{s2} {s1}"), "eddystone", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::NonContiguous);
    assert_eq!(v.status, Status::Flagged);
    let r1 = char_range(EDDY, s1);
    let r2 = char_range(EDDY, s2);
    let got: Vec<(usize, usize)> = v.spans.iter().map(|s| (s.start, s.end)).collect();
    assert_eq!(got, [r2, r1]);
    assert!(
        v.note.contains("sentence 2 precedes sentence 1"),
        "{}",
        v.note
    );
    assert!(v.similarity < 1.0);
    check_copy(&cs, &v);
    assert_eq!(v.copy_text.unwrap(), format!("{s2} … {s1}"));
}

#[test]
fn skipped_sentence_is_non_contiguous() {
    let cs = chunks();
    let s1 = "The first Eddystone lighthouse was built by Henry Winstanley in 1698.";
    let s3 = "John Smeaton's tower of 1759 used dovetailed granite blocks and hydraulic lime.";
    let v = validate(&format!("{s1} {s3}"), "eddystone", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::NonContiguous);
    let got: Vec<(usize, usize)> = v.spans.iter().map(|s| (s.start, s.end)).collect();
    assert_eq!(got, [char_range(EDDY, s1), char_range(EDDY, s3)]);
    assert!(
        v.note.contains("between sentence 1 and sentence 2"),
        "{}",
        v.note
    );
    check_copy(&cs, &v);
    // An elision mark splits parts too.
    let v = validate(
        "The first Eddystone lighthouse … the great storm of 1703 swept it away",
        "eddystone",
        &cs,
        &cfg(),
    );
    assert_eq!(v.verdict, Verdict::NonContiguous);
    assert_eq!(v.spans.len(), 2);
    check_copy(&cs, &v);
}

#[test]
fn sentences_from_two_chunks_of_the_cited_source_are_non_contiguous() {
    let cs = vec![
        ChunkRef {
            id: "e#0",
            source_id: "e",
            text: "Winstanley built the first tower in 1698. It fell in 1703.",
        },
        ChunkRef {
            id: "e#1",
            source_id: "e",
            text: "Smeaton used granite and lime in 1759. His tower was moved to Plymouth Hoe.",
        },
    ];
    let v = validate(
        "Winstanley built the first tower in 1698. Smeaton used granite and lime in 1759.",
        "e",
        &cs,
        &cfg(),
    );
    assert_eq!(v.verdict, Verdict::NonContiguous);
    assert_eq!(v.spans[0].chunk_id, "e#0");
    assert_eq!(v.spans[1].chunk_id, "e#1");
    check_copy(&cs, &v);
}

#[test]
fn adjacent_sentences_with_odd_spacing_are_not_spliced() {
    let cs = one(
        "a#0",
        "a",
        "The lamp was lit at dusk.The keeper slept at dawn.",
    );
    let v = validate(
        "The lamp was lit at dusk. The keeper slept at dawn.",
        "a",
        &cs,
        &cfg(),
    );
    assert_eq!(v.verdict, Verdict::Fuzzy, "{v:?}");
}

#[test]
fn passage_of_another_source_is_misattributed() {
    let cs = chunks();
    let q = "he cut its weight and its loss of light";
    let v = validate(q, "eddystone", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::Misattributed);
    assert_eq!(v.status, Status::Flagged);
    assert_eq!(v.found_source_id.as_deref(), Some("fresnel"));
    assert_eq!(v.spans[0].chunk_id, "fresnel#0");
    let (s, e) = char_range(FRESNEL, q);
    assert_eq!((v.spans[0].start, v.spans[0].end), (s, e));
    check_copy(&cs, &v);
    // Also after normalization.
    let v = validate(
        "HE CUT ITS WEIGHT and its loss of light",
        "eddystone",
        &cs,
        &cfg(),
    );
    assert_eq!(v.verdict, Verdict::Misattributed);
    assert_eq!(v.copy_text.as_deref(), Some(q));
}

#[test]
fn unknown_cited_source_is_misattributed_when_found_elsewhere() {
    let cs = chunks();
    let v = validate(
        "used dovetailed granite blocks and hydraulic lime",
        "no-such-source",
        &cs,
        &cfg(),
    );
    assert_eq!(v.verdict, Verdict::Misattributed);
    assert_eq!(v.found_source_id.as_deref(), Some("eddystone"));
    assert!(
        v.note.contains("not among the retrieved sources"),
        "{}",
        v.note
    );
    check_copy(&cs, &v);
}

#[test]
fn paraphrase_and_fabrication_are_not_found() {
    let cs = chunks();
    let v = validate(
        "Smeaton built his 1759 tower from interlocking granite stones set in lime that hardens underwater.",
        "eddystone",
        &cs,
        &cfg(),
    );
    assert_eq!(v.verdict, Verdict::NotFound);
    assert_eq!(v.status, Status::Dropped);
    assert!(v.spans.is_empty() && v.copy_text.is_none());
    assert!(v.similarity > 0.0 && v.similarity < 0.85);
    let v = validate(
        "The Eddystone keepers kept a pet parrot that warned ships in thick fog.",
        "eddystone",
        &cs,
        &cfg(),
    );
    assert_eq!(v.verdict, Verdict::NotFound);
    assert!(v.similarity < 0.85);
}

#[test]
fn one_typo_is_fuzzy_with_the_real_span() {
    let cs = chunks();
    let real = "It was an ornate wooden tower, and the great storm of 1703 swept it away with its builder.";
    let typo = "It was an ornate wooden tower, and the great strom of 1703 swept it away with its builder.";
    let v = validate(typo, "eddystone", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::Fuzzy);
    assert_eq!(v.status, Status::Flagged);
    assert!(
        v.similarity > 0.85 && v.similarity < 1.0,
        "{}",
        v.similarity
    );
    let (s, e) = char_range(EDDY, real);
    assert_eq!((v.spans[0].start, v.spans[0].end), (s, e));
    assert_eq!(v.copy_text.as_deref(), Some(real));
    check_copy(&cs, &v);
    assert!(v.note.contains("2 edits"), "{}", v.note);
}

#[test]
fn short_and_empty_snippets_are_too_short() {
    let cs = chunks();
    for q in ["lighthouse", "", "   ", "— …"] {
        let v = validate(q, "eddystone", &cs, &cfg());
        assert_eq!(v.verdict, Verdict::TooShort, "{q:?}");
        assert_eq!(v.status, Status::Dropped);
    }
}

#[test]
fn no_chunks_at_all() {
    let v = validate("a snippet of several words here", "x", &[], &cfg());
    assert_eq!(v.verdict, Verdict::NotFound);
}

#[test]
fn serializes_snake_case() {
    let v = validate("lighthouse", "x", &[], &cfg());
    let j = serde_json::to_value(&v).unwrap();
    assert_eq!(j["verdict"], "too_short");
    assert_eq!(j["status"], "dropped");
    assert_eq!(
        serde_json::to_value(Verdict::NonContiguous).unwrap(),
        "non_contiguous"
    );
    let c: ValidateConfig = serde_json::from_str("{\"min_words\": 3}").unwrap();
    assert_eq!(c.fuzzy_threshold, 0.85);
    for v in [
        Verdict::Verbatim,
        Verdict::Normalized,
        Verdict::Fuzzy,
        Verdict::NonContiguous,
        Verdict::Misattributed,
        Verdict::NotFound,
        Verdict::TooShort,
    ] {
        assert!(!v.describe().is_empty());
    }
}

// ---- properties -------------------------------------------------------------

/// Words and separators with no combining marks or line-end hyphens, so any
/// char substring is a clean cut.
fn clean_text() -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec![
        "lamp",
        "Keeper",
        "café",
        "naïve",
        "灯台",
        "光",
        "🚢",
        "“quoted”",
        "l’île",
        "—",
        "ﬁne",
        "1877,",
        "rock.",
        "Fog!",
        "ÉTÉ",
        "straße",
        "x",
    ]);
    let sep = prop::sample::select(vec![
        " ", " ", " ", "  ", "\n", "\u{00A0}", "\t", "\r\n", " \n ",
    ]);
    prop::collection::vec((word, sep), 8..40)
        .prop_map(|v| v.into_iter().flat_map(|(w, s)| [w, s]).collect::<String>())
}

/// Anything goes: the nasty cases of the normalization.
fn nasty_text() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "lamp",
        "Keeper",
        "light-\nhouse",
        "light- \n house",
        "para\u{00AD}bolic",
        "e\u{0301}",
        "ﬁ",
        "“",
        "”",
        "’",
        "'",
        "\"",
        "—",
        "-",
        "…",
        "...",
        "\u{200B}",
        "\u{FEFF}",
        "\u{00A0}",
        " ",
        "  ",
        "\n",
        "İ",
        "Σ",
        "ß",
        "¨",
        "ｆｕｌｌ",
        "👨\u{200D}👩",
        "a\u{0332}",
        "灯",
        ".",
        "x",
        "ab",
        "*",
        "**",
        "_",
        "`",
        "snake_case",
        "5 * 3",
        "[",
        "]",
        "](u)",
        "[link](https://x.y/z)",
        "[link](https://x.y/z \"a title\")",
        "[link](<x y>)",
    ]);
    prop::collection::vec(piece, 4..60).prop_map(|v| v.concat())
}

/// A char substring widened to whitespace on both sides (whole words).
fn word_sub(s: &str, a: usize, b: usize) -> String {
    let cs: Vec<char> = s.chars().collect();
    let n = cs.len();
    let (a, b) = (a % (n + 1), b % (n + 1));
    let (mut a, mut b) = (a.min(b), a.max(b));
    while a > 0 && a < n && !cs[a - 1].is_whitespace() && !cs[a].is_whitespace() {
        a -= 1;
    }
    while b > 0 && b < n && !cs[b - 1].is_whitespace() && !cs[b].is_whitespace() {
        b += 1;
    }
    cs[a..b].iter().collect()
}

fn char_sub(s: &str, a: usize, b: usize) -> String {
    let n = s.chars().count();
    let (a, b) = (a % (n + 1), b % (n + 1));
    let (a, b) = (a.min(b), a.max(b));
    s.chars().skip(a).take(b - a).collect()
}

/// Random edits that the normalization should absorb, and some it should not.
fn mutate(s: &str, seed: u64) -> String {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = String::new();
    for c in s.chars() {
        match rng.u8(0..40) {
            0 => out.extend(c.to_uppercase()),
            1 if c == ' ' => out.push('\n'),
            2 if c == '\'' => out.push('’'),
            3 => {
                out.push(c);
                out.push('\u{00AD}')
            }
            4 => {}
            5 => {
                out.push(c);
                out.push('e')
            }
            _ => out.push(c),
        }
    }
    out
}

proptest! {
    #![proptest_config(crate::cases(256))]

    /// Footnote markers set against words ("Dionysian[06]") never make a
    /// quote of other words valid: the quote without them validates, one
    /// with a word changed does not.
    #[test]
    fn footnote_markers_hide_no_words(
        text in clean_text(), at in prop::collection::vec(0usize..10_000, 1..4),
        mark in prop::sample::select(vec!["[06]", "[E]", "[AB]", "[012]"]),
        seed in any::<u64>(),
    ) {
        let words: Vec<&str> = text.split(' ').collect();
        prop_assume!(words.len() >= 6);
        let mut marked: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        for a in &at {
            let k = a % marked.len();
            if marked[k].ends_with(char::is_alphabetic) {
                marked[k].push_str(mark);
            }
        }
        let source = marked.join(" ");
        let cs = vec![ChunkRef { id: "c#0", source_id: "s", text: &source }];
        let v = validate(&text, "s", &cs, &cfg());
        prop_assert_eq!(v.status, Status::Validated, "{:?} in {:?}", text, source);
        let changed = mutate(&text, seed);
        prop_assume!(normalize(&changed).text != normalize(&text).text);
        let v = validate(&changed, "s", &cs, &cfg());
        prop_assert!(
            v.status != Status::Validated || normalize(&source).text.contains(&normalize(&changed).text),
            "{:?} validated in {:?}", changed, source
        );
    }

    #[test]
    fn exact_substrings_are_verbatim(
        texts in prop::collection::vec(clean_text(), 1..4),
        pick in 0usize..4, a in 0usize..10_000, b in 0usize..10_000,
    ) {
        let pick = pick % texts.len();
        let mut sub = word_sub(&texts[pick], a, b);
        if word_count(&sub) < 4 {
            sub = texts[pick].clone();
        }
        prop_assume!(word_count(&sub) >= 4);
        let ids: Vec<String> = (0..texts.len()).map(|i| format!("c#{i}")).collect();
        let cs: Vec<ChunkRef<'_>> = texts
            .iter()
            .zip(&ids)
            .map(|(t, id)| ChunkRef { id, source_id: "s", text: t })
            .collect();
        let v = validate(&sub, "s", &cs, &cfg());
        prop_assert_eq!(v.verdict, Verdict::Verbatim, "{:?} in {:?}", sub, texts);
        let sp = &v.spans[0];
        let chunk = cs.iter().find(|c| c.id == sp.chunk_id).unwrap();
        prop_assert_eq!(slice_chars(chunk.text, sp.start, sp.end), sub.as_str());
        // The first chunk holding it, at its first occurrence.
        let first = cs.iter().position(|c| c.text.contains(&sub)).unwrap();
        prop_assert_eq!(&sp.chunk_id, &ids[first]);
        prop_assert_eq!(sp.start, char_offset(chunk.text, chunk.text.find(&sub).unwrap()));
    }

    #[test]
    fn validated_means_normalized_substring(
        text in nasty_text(), other in nasty_text(),
        a in 0usize..10_000, b in 0usize..10_000, seed in any::<u64>(), kind in 0u8..4,
    ) {
        let snippet = match kind {
            0 => char_sub(&text, a, b),
            1 => mutate(&char_sub(&text, a, b), seed),
            // An author's bracketed insertion between two of its words.
            2 => {
                let sub = char_sub(&text, a, b);
                let spaces: Vec<usize> = sub.match_indices(' ').map(|(i, _)| i).collect();
                match spaces.get(seed as usize % spaces.len().max(1)) {
                    Some(&at) => format!("{} [the keeper]{}", &sub[..at], &sub[at..]),
                    None => format!("{sub} [sic]"),
                }
            }
            _ => char_sub(&other, a, b),
        };
        let cs = vec![
            ChunkRef { id: "c#0", source_id: "s", text: &text },
            ChunkRef { id: "o#0", source_id: "o", text: &other },
        ];
        let cfg = ValidateConfig { min_words: 1, ..cfg() };
        let v = validate(&snippet, "s", &cs, &cfg);
        // A quote is read literally, in its own context and run by run;
        // a source is read in its context.
        let readings = [
            normalize(&snippet).text,
            normalize_literal(&snippet).text,
            normalize::normalize_within(
                &snippet, 0..snippet.len(), &markup::unpaired_runs(&snippet),
            ).text,
        ];
        if v.status == Status::Validated {
            // The source as its reader sees it, in context, holds one of
            // the snippet's readings, and reads so at the span.
            let literal = markup::unpaired_runs(&text);
            let read = |r: std::ops::Range<usize>| {
                normalize::normalize_within(&text, r, &literal).text
            };
            let whole = read(0..text.len());
            prop_assert!(readings.iter().any(|r| whole.contains(r.as_str())), "{:?} / {:?}", snippet, text);
            let sp = &v.spans[0];
            prop_assert_eq!(&sp.chunk_id, "c#0");
            let at = read(crate::text::byte_offset(&text, sp.start)..crate::text::byte_offset(&text, sp.end));
            // Up to emphasis or code marks at its ends: a span read alone
            // loses the context after it (a star before a backtick is text
            // in the whole, a closing mark at the span's end).
            let edges = |r: &str| r.trim_matches(|c: char| matches!(c, '*' | '_' | '`' | ' ')).to_string();
            prop_assert!(readings.iter().any(|r| edges(r) == edges(&at)), "{:?} / {:?}", snippet, at);
        }
        // Whatever the verdict, spans point inside their chunk and
        // copy_text is the chunk's text there.
        for sp in &v.spans {
            let c = cs.iter().find(|c| c.id == sp.chunk_id).unwrap();
            prop_assert!(sp.start <= sp.end && sp.end <= c.text.chars().count());
        }
        if !v.spans.is_empty() {
            check_copy(&cs, &v);
        }
        if matches!(v.verdict, Verdict::Misattributed) {
            let whole = normalize::normalize_within(&other, 0..other.len(), &markup::unpaired_runs(&other)).text;
            prop_assert!(readings.iter().any(|r| whole.contains(r.as_str())), "{:?} / {:?}", snippet, other);
        }
    }

    #[test]
    fn normalize_map_is_monotonic_and_in_bounds(text in nasty_text()) {
        let n = normalize(&text);
        let len = text.chars().count();
        prop_assert_eq!(n.text.chars().count(), n.map.len());
        prop_assert_eq!(n.map.len(), n.ends.len());
        for i in 0..n.map.len() {
            prop_assert!(n.map[i] < n.ends[i] && n.ends[i] <= len);
            if i > 0 {
                prop_assert!(n.map[i - 1] <= n.map[i]);
            }
        }
        prop_assert!(!n.text.starts_with(' ') && !n.text.ends_with(' ') && !n.text.contains("  "));
    }
}

#[test]
fn a_reused_validator_gives_the_same_verdicts() {
    let cs = chunks();
    let v = Validator::new(&cs);
    for q in [
        "John Smeaton's tower of 1759 used dovetailed granite blocks",
        "JOHN SMEATON’S TOWER of 1759 used dovetailed granite blocks",
        "he cut its weight and its loss of light",
        "It was an ornate wooden tower, and the great strom of 1703 swept it away.",
        "The Eddystone keepers kept a pet parrot that warned ships in thick fog.",
        "lighthouse",
    ] {
        assert_eq!(
            v.validate(q, "eddystone", &cfg()),
            validate(q, "eddystone", &cs, &cfg())
        );
    }
}

// ---- the invariant under attack (issue 9) -----------------------------------

const KEEPER: &str = "In winter the old keeper cannot leave the rock. \
The keeper was unable to reach the rock in 1811. He was never dishonest, and it was \
impossible to pay him £12,000 for 10.5 years of non-violent service; he can't.";

#[test]
fn item_1_quotes_cut_inside_a_word_are_not_validated() {
    let cs = one("k#0", "k", KEEPER);
    for (quote, whole) in [
        (
            "In winter the old keeper can",
            "In winter the old keeper cannot",
        ),
        (
            "able to reach the rock in 181",
            "unable to reach the rock in 1811",
        ),
        ("He was never dishon", "He was never dishonest"),
        ("ever dishonest, and it was", "never dishonest, and it was"),
        ("possible to pay him", "impossible to pay him"),
        ("to pay him £1", "to pay him £12,000"),
        ("to pay him £12", "to pay him £12,000"),
        ("£12,000 for 10", "£12,000 for 10.5"),
        ("violent service; he can", "non-violent service; he can't"),
    ] {
        let v = validate(
            quote,
            "k",
            &cs,
            &ValidateConfig {
                min_words: 3,
                ..cfg()
            },
        );
        assert_ne!(v.status, Status::Validated, "{quote:?} → {v:?}");
        // At best flagged, with the source's whole words, and the note
        // says which word is cut (not "0 edits"); its similarity counts the
        // chars left off.
        if let Some(copy) = &v.copy_text {
            assert!(
                copy.contains(whole),
                "{quote:?}: copy {copy:?} lacks {whole:?}"
            );
        }
        if v.verdict == Verdict::Fuzzy {
            assert!(v.note.contains("inside a word"), "{quote:?}: {}", v.note);
            assert!(v.similarity < 1.0, "{quote:?}: {v:?}");
        }
    }
    // The source's own punctuation may end a quote; whole words validate.
    for quote in [
        "the old keeper cannot leave the rock.",
        "was unable to reach the rock in 1811",
        "£12,000 for 10.5 years of non-violent service; he can't.",
    ] {
        let v = validate(quote, "k", &cs, &cfg());
        assert_eq!(v.verdict, Verdict::Verbatim, "{quote:?} → {v:?}");
    }
}

#[test]
fn item_2_superscripts_subscripts_and_fractions_keep_their_digits() {
    let src = "A lamp of 10⁶ candela was lit in 1811² by ½ the crew, \
the ﬁrst with H₂O cooling and ① a spare wick; ｆｕｌｌ power at １２ knots.";
    let cs = one("s#0", "s", src);
    for quote in [
        "A lamp of 106 candela",
        "was lit in 18112 by",
        "by 1⁄2 the crew",
        "by 1/2 the crew",
        "with H2O cooling and",
        "cooling and 1 a spare wick",
    ] {
        let v = validate(
            quote,
            "s",
            &cs,
            &ValidateConfig {
                min_words: 3,
                ..cfg()
            },
        );
        assert_ne!(v.status, Status::Validated, "{quote:?} → {v:?}");
    }
    // Typography still folds: ligatures, full-width letters and digits.
    for quote in ["the first with H₂O cooling", "full power at 12 knots"] {
        let v = validate(
            quote,
            "s",
            &cs,
            &ValidateConfig {
                min_words: 3,
                ..cfg()
            },
        );
        assert_eq!(v.verdict, Verdict::Normalized, "{quote:?} → {v:?}");
    }
}

#[test]
fn item_5_word_processor_dashes_and_ellipses_are_typography() {
    let plain = "The light--a fixed white one--was shown at dusk... and the bell rang -- twice.";
    let typed = "The light—a fixed white one—was shown at dusk… and the bell rang — twice.";
    for (src, quote) in [(plain, typed), (typed, plain)] {
        let cs = one("d#0", "d", src);
        let v = validate(quote, "d", &cs, &cfg());
        assert_eq!(
            v.verdict,
            Verdict::Normalized,
            "{quote:?} in {src:?} → {v:?}"
        );
        assert_eq!(v.copy_text.as_deref(), Some(src));
    }
    // Spaced en dash and spaced hyphen are sentence dashes too.
    let cs = one(
        "d#0",
        "d",
        "The light – a fixed white one – was shown at dusk.",
    );
    let v = validate(
        "The light - a fixed white one - was shown",
        "d",
        &cs,
        &cfg(),
    );
    assert_eq!(v.verdict, Verdict::Normalized, "{v:?}");
    let v = validate("The light—a fixed white one—was shown", "d", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::Normalized, "{v:?}");
    // A hyphen inside a word stays a hyphen: not a sentence dash.
    let cs = one("d#0", "d", "a well-known light of 1811–1820 fame");
    let v = validate("a well-known light of 1811-1820 fame", "d", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::Normalized, "{v:?}");
    let v = validate("a well — known light of 1811-1820 fame", "d", &cs, &cfg());
    assert_ne!(v.status, Status::Validated, "{v:?}");
}

/// Words that invite cuts: prefixes, contractions, numbers with separators.
fn cuttable_text() -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec![
        "cannot",
        "can",
        "can't",
        "never",
        "ever",
        "impossible",
        "possible",
        "£12,000",
        "£1",
        "10.5",
        "10",
        "1811",
        "181",
        "non-violent",
        "violent",
        "unable",
        "able",
        "keeper",
        "rock.",
        "the",
        "dishonest",
        "honest",
    ]);
    let sep = prop::sample::select(vec![" ", " ", "\n", ", ", "; "]);
    prop::collection::vec((word, sep), 6..30)
        .prop_map(|v| v.into_iter().flat_map(|(w, s)| [w, s]).collect::<String>())
}

/// Text with chars that compatibility folding would turn into digits.
fn numeric_text() -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec![
        "10⁶", "106", "1811²", "18112", "½", "1⁄2", "1/2", "H₂O", "H2O", "①", "1", "Ⅻ", "XII",
        "１２", "12", "m²", "㎡", "m2", "lamp", "candela", "ﬁne", "fine", "x",
    ]);
    let sep = prop::sample::select(vec![" ", " ", "\n"]);
    prop::collection::vec((word, sep), 4..24)
        .prop_map(|v| v.into_iter().flat_map(|(w, s)| [w, s]).collect::<String>())
}

/// Swap some numeric look-alikes for others.
fn swap_numerals(s: &str, seed: u64) -> String {
    let mut rng = fastrand::Rng::with_seed(seed);
    let pairs = [
        ("⁶", "6"),
        ("²", "2"),
        ("½", "1⁄2"),
        ("₂", "2"),
        ("①", "1"),
        ("Ⅻ", "XII"),
        ("１２", "12"),
        ("㎡", "m2"),
        ("ﬁ", "fi"),
    ];
    let mut out = s.to_string();
    for (a, b) in pairs {
        if rng.bool() {
            out = out.replace(a, b);
        }
    }
    out
}

fn numerals(s: &str) -> Vec<char> {
    s.chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            c => c,
        })
        .filter(|c| c.is_numeric())
        .collect()
}

proptest! {
    #![proptest_config(crate::cases(512))]

    /// Issue 9, item 1: no validated quote whose first or last word is a
    /// proper part of a source word.
    #[test]
    fn item_1_validated_quotes_begin_and_end_on_whole_words(
        text in cuttable_text(), a in 0usize..10_000, b in 0usize..10_000,
    ) {
        let quote = char_sub(&text, a, b);
        let cs = vec![ChunkRef { id: "c#0", source_id: "s", text: &text }];
        let v = validate(&quote, "s", &cs, &ValidateConfig { min_words: 1, ..cfg() });
        if v.status == Status::Validated {
            let chars: Vec<char> = text.chars().collect();
            let sp = &v.spans[0];
            let (s, e) = (sp.start, sp.end);
            // Independent oracle: no alphanumeric pair across either end,
            // and a number is never cut at its separator.
            let cut = |l: Option<&char>, r: Option<&char>, r2: Option<&char>| match (l, r) {
                (Some(l), Some(r)) => {
                    (l.is_alphanumeric() && r.is_alphanumeric())
                        || (l.is_ascii_digit() && matches!(r, ',' | '.' | '\'' | '-')
                            && r2.is_some_and(|c| c.is_alphanumeric()))
                }
                _ => false,
            };
            prop_assert!(!cut(s.checked_sub(1).and_then(|i| chars.get(i)), chars.get(s), chars.get(s + 1)),
                "starts inside a word: {:?} in {:?}", quote, text);
            prop_assert!(!cut(e.checked_sub(1).and_then(|i| chars.get(i)), chars.get(e), chars.get(e + 1)),
                "ends inside a word: {:?} in {:?}", quote, text);
        }
        // Copy text of anything located is whole words too.
        for sp in &v.spans {
            prop_assert!(!words::inside_word(&text, sp.start) && !words::inside_word(&text, sp.end),
                "copy cuts a word: {:?} → {:?}", quote, v);
        }
    }

    /// Issue 9, item 2: no validated quote whose digits differ from the
    /// source's.
    #[test]
    fn item_2_validated_quotes_keep_the_sources_digits(
        text in numeric_text(), a in 0usize..10_000, b in 0usize..10_000, seed in any::<u64>(),
    ) {
        let quote = swap_numerals(&word_sub(&text, a, b), seed);
        let cs = vec![ChunkRef { id: "c#0", source_id: "s", text: &text }];
        let v = validate(&quote, "s", &cs, &ValidateConfig { min_words: 1, ..cfg() });
        if v.status == Status::Validated {
            let sp = &v.spans[0];
            let src = slice_chars(&text, sp.start, sp.end);
            prop_assert_eq!(numerals(&quote), numerals(src), "{:?} validated as {:?}", quote, src);
        }
    }
}

/// Numbers written with signs, units and separators of other widths and
/// scripts, and words joined by rarer hyphens and apostrophes: each one
/// word, which no validated quote begins or ends inside.
fn whole_tokens() -> impl Strategy<Value = Vec<&'static str>> {
    let token = prop::sample::select(vec![
        "50％",
        "40﹪",
        "٥٠٪",
        "5‱",
        "50%",
        "＄500",
        "﹩700",
        "￥500",
        "￡900",
        "฿500",
        "p＜0.05",
        "p<0.05",
        "p⩽0.01",
        "√2",
        "1÷4",
        "20˚",
        "5′",
        "١٢٫٥",
        "١٬٢٠٠",
        "１，２００",
        "３．５",
        "4․5",
        "10\u{200A}000",
        "12\u{3000}000",
        "14\u{2005}500",
        "12 000",
        "1 200 000",
        "1∶1000",
        "3⋅10",
        "non⁃violent",
        "non⸗violent",
        "18֊65",
        "18〜65",
        "can‵t",
        "can᾿t",
        "can՚t",
        "cannot",
        "keeper",
        "the",
        "rock",
        "was",
        "paid",
        "1811",
    ]);
    prop::collection::vec(token, 4..20)
}

proptest! {
    #![proptest_config(crate::cases(512))]

    /// The red team's round 21: no validated quote starts or ends inside
    /// a number or word written with any of these (`whole_tokens`), and
    /// what is copied is whole tokens too.
    #[test]
    fn numbers_and_words_in_any_script_or_width_are_never_cut(
        tokens in whole_tokens(), seps in prop::collection::vec(0usize..3, 20), a in 0usize..10_000, b in 0usize..10_000,
    ) {
        const SEP: [&str; 3] = [" ", ", ", "\n"];
        let mut text = String::new();
        let mut inside = Vec::new();
        for (i, t) in tokens.iter().enumerate() {
            let start = text.chars().count();
            text.push_str(t);
            let end = text.chars().count();
            inside.extend(start + 1..end);
            text.push_str(SEP[seps[i]]);
        }
        let quote = char_sub(&text, a, b);
        let cs = vec![ChunkRef { id: "c#0", source_id: "s", text: &text }];
        let v = validate(&quote, "s", &cs, &ValidateConfig { min_words: 1, ..cfg() });
        if v.status == Status::Validated {
            let sp = &v.spans[0];
            prop_assert!(!inside.contains(&sp.start) && !inside.contains(&sp.end),
                "{:?} validated inside a token of {:?}", quote, text);
        }
        for sp in &v.spans {
            prop_assert!(!words::inside_word(&text, sp.start) && !words::inside_word(&text, sp.end),
                "copy cuts a word: {:?} → {:?}", quote, v);
        }
    }
}

/// Issue 9, item 14: a quote of Markdown emphasis reads as the reader sees
/// it, and its copy text carries no markup.
#[test]
fn item_14_markdown_emphasis_is_not_a_difference() {
    let src = "The keeper was *not* paid for the **winter** of `1811`, said the board.";
    let cs = one("m#0", "m", src);
    let v = validate(
        "The keeper was not paid for the winter of 1811",
        "m",
        &cs,
        &cfg(),
    );
    assert_eq!(v.verdict, Verdict::Normalized, "{v:?}");
    assert_eq!(
        v.copy_text.as_deref(),
        Some("The keeper was not paid for the winter of 1811")
    );
    // Dropping the emphasised word is still a different text.
    let v = validate(
        "The keeper was paid for the winter of 1811",
        "m",
        &cs,
        &cfg(),
    );
    assert_ne!(v.status, Status::Validated, "{v:?}");
}

/// Issue 9, item 14: a quote running across the boundary of two adjacent
/// chunks is one contiguous passage, not a splice; the same sentences from
/// chunks that are not adjacent are still non-contiguous.
#[test]
fn item_14_a_quote_across_a_chunk_boundary_is_contiguous() {
    let a = "The light was first shown in 1811. The keeper trimmed the wick at dusk.";
    let b = "He climbed the stair at midnight. The lamp never failed that winter.";
    let cs = vec![
        ChunkRef {
            id: "s#0",
            source_id: "s",
            text: a,
        },
        ChunkRef {
            id: "s#1",
            source_id: "s",
            text: b,
        },
    ];
    let q = "The keeper trimmed the wick at dusk. He climbed the stair at midnight.";
    let next = adjacency(
        &[
            ("s", 0, a.chars().count()),
            ("s", a.chars().count() + 2, 200),
        ],
        4,
    );
    let v = Validator::new(&cs)
        .with_adjacency(next)
        .validate(q, "s", &cfg());
    assert_eq!(v.status, Status::Validated, "{v:?}");
    assert_eq!(v.spans.len(), 2);
    assert_eq!(v.copy_text.as_deref(), Some(q));
    // Not adjacent (something lies between them): a splice, flagged.
    let far = adjacency(
        &[
            ("s", 0, a.chars().count()),
            ("s", a.chars().count() + 90, 300),
        ],
        4,
    );
    let v = Validator::new(&cs)
        .with_adjacency(far)
        .validate(q, "s", &cfg());
    assert_eq!(v.verdict, Verdict::NonContiguous, "{v:?}");
    // Reversed across the boundary: flagged.
    let rev = "He climbed the stair at midnight. The keeper trimmed the wick at dusk.";
    let next = adjacency(
        &[
            ("s", 0, a.chars().count()),
            ("s", a.chars().count() + 2, 200),
        ],
        4,
    );
    let v = Validator::new(&cs)
        .with_adjacency(next)
        .validate(rev, "s", &cfg());
    assert_ne!(v.status, Status::Validated, "{v:?}");
}

/// Issue 9, item 14: a quote of a Markdown link's text validates; its copy
/// text has no markup.
#[test]
fn item_14_markdown_links_read_as_their_text() {
    let src = "The tower was built by [Robert Stevenson](https://example.org/rs) in 1811.";
    let cs = one("l#0", "l", src);
    let v = validate(
        "The tower was built by Robert Stevenson in 1811.",
        "l",
        &cs,
        &cfg(),
    );
    assert_eq!(v.verdict, Verdict::Normalized, "{v:?}");
    assert_eq!(
        v.copy_text.as_deref(),
        Some("The tower was built by Robert Stevenson in 1811.")
    );
    // With a title, in any of its forms, or a target in angle brackets
    // (red team 22b: the markup, URL and title were copied).
    for link in [
        r#"[Robert Stevenson](https://example.org/rs "The engineer")"#,
        "[Robert Stevenson](https://example.org/rs 'The engineer')",
        "[Robert Stevenson](https://example.org/rs (The engineer))",
        "[Robert Stevenson](<https://example.org/a b>)",
        "[Robert Stevenson](https://example.org/rs\n  \"The engineer\")",
    ] {
        let src = format!("The tower was built by {link} in 1811.");
        let cs = [ChunkRef {
            id: "l#0",
            source_id: "l",
            text: &src,
        }];
        let v = validate(
            "The tower was built by Robert Stevenson in 1811.",
            "l",
            &cs,
            &cfg(),
        );
        assert_eq!(v.status, Status::Validated, "{src}: {v:?}");
        assert_eq!(
            v.copy_text.as_deref(),
            Some("The tower was built by Robert Stevenson in 1811."),
            "{src}"
        );
        let v = validate("The tower was built by Robert Stevens", "l", &cs, &cfg());
        assert_ne!(v.status, Status::Validated, "{src}: {v:?}");
    }
}

/// Issue 14: a quote cut inside a sentence by a page break (a PDF chunk
/// never crosses a page) is the contiguous passage it is; cut inside a
/// word, or across chunks that are not adjacent, it is not validated.
#[test]
fn a_sentence_cut_by_a_page_break_is_contiguous() {
    let a = "The first trials were disappointing. The keeper trimmed the wick and";
    let b = "climbed the stair at midnight to wind the clock. Nothing failed.";
    let cs = vec![
        ChunkRef {
            id: "s#0",
            source_id: "s",
            text: a,
        },
        ChunkRef {
            id: "s#1",
            source_id: "s",
            text: b,
        },
    ];
    let la = a.chars().count();
    let next = adjacency(&[("s", 0, la), ("s", la + 2, la + 200)], 4);
    let q = "the keeper trimmed the wick and climbed the stair at midnight";
    let v = Validator::new(&cs)
        .with_adjacency(next.clone())
        .validate(q, "s", &cfg());
    assert_eq!(v.verdict, Verdict::Normalized, "{v:?}");
    assert_eq!(v.spans.len(), 2);
    assert_eq!(
        (v.spans[0].chunk_id.as_str(), v.spans[1].chunk_id.as_str()),
        ("s#0", "s#1")
    );
    assert_eq!(
        slice_chars(b, v.spans[1].start, v.spans[1].end),
        "climbed the stair at midnight"
    );
    assert_eq!(
        v.copy_text.as_deref(),
        Some("The keeper trimmed the wick and climbed the stair at midnight")
    );
    // A word cut at the end of the second piece ("midnigh") is not a
    // boundary of the source's words.
    let v = Validator::new(&cs).with_adjacency(next.clone()).validate(
        "the keeper trimmed the wick and climbed the stair at midnigh",
        "s",
        &cfg(),
    );
    assert_ne!(v.status, Status::Validated, "{v:?}");
    // Words the source does not have at the break.
    let v = Validator::new(&cs).with_adjacency(next).validate(
        "the keeper trimmed the wick then climbed the stair at midnight",
        "s",
        &cfg(),
    );
    assert_ne!(v.status, Status::Validated, "{v:?}");
    // Not adjacent: flagged.
    let far = adjacency(&[("s", 0, la), ("s", la + 90, la + 300)], 4);
    let v = Validator::new(&cs)
        .with_adjacency(far)
        .validate(q, "s", &cfg());
    assert_ne!(v.status, Status::Validated, "{v:?}");
}

proptest! {
    #![proptest_config(crate::cases(256))]

    /// Any word-aligned passage of a text split into two adjacent chunks at
    /// a space validates, with the source's own words as its copy text;
    /// the same two chunks not adjacent never validate a passage that
    /// neither chunk holds alone.
    #[test]
    fn passages_across_a_chunk_boundary(
        ws in prop::collection::vec(prop::sample::select(vec![
            "lamp", "Keeper", "café", "naïve", "灯台", "🚢", "“quoted”", "l’île", "—",
            "ﬁne", "1877,", "rock.", "Fog!", "ÉTÉ", "straße", "x", "well-known", "*not*",
        ]), 6..30),
        cut in 0usize..10_000, a in 0usize..10_000, b in 0usize..10_000,
    ) {
        let text = ws.join(" ");
        let spaces: Vec<usize> = text.match_indices(' ').map(|(i, _)| i).collect();
        let at = spaces[cut % spaces.len()];
        let (left, right) = (&text[..at], &text[at + 1..]);
        let words: Vec<&str> = text.split(' ').collect();
        let nl = left.split(' ').count();
        // A passage that starts in the left chunk and ends in the right one.
        let s = a % nl;
        let e = nl + 1 + b % (words.len() - nl).max(1);
        let e = e.min(words.len());
        prop_assume!(e > nl && e - s >= 2);
        let quote = words[s..e].join(" ");
        // A run of dashes is no quote (too short, whatever its length).
        prop_assume!(word_count(&quote) >= 1);
        let cfg = ValidateConfig { min_words: 1, ..cfg() };
        let cs = vec![
            ChunkRef { id: "s#0", source_id: "s", text: left },
            ChunkRef { id: "s#1", source_id: "s", text: right },
        ];
        let ll = left.chars().count();
        let next = adjacency(&[("s", 0, ll), ("s", ll + 1, ll + 1 + right.chars().count())], 4);
        let v = Validator::new(&cs).with_adjacency(next).validate(&quote, "s", &cfg);
        prop_assert_eq!(v.status, Status::Validated, "{:?} in {:?} | {:?}", quote, left, right);
        prop_assert_eq!(
            normalize(v.copy_text.as_deref().unwrap_or("")).text,
            normalize(&quote).text
        );
        let alone = normalize(left).text.contains(&normalize(&quote).text)
            || normalize(right).text.contains(&normalize(&quote).text);
        let far = adjacency(&[("s", 0, ll), ("s", ll + 50, ll + 50 + right.chars().count())], 4);
        let v = Validator::new(&cs).with_adjacency(far).validate(&quote, "s", &cfg);
        if !alone {
            prop_assert_ne!(v.status, Status::Validated, "{:?}", quote);
        }
    }
}

/// A literal that opens with punctuation (``/proc/x``) loses both its
/// marks, never only the closing one: found on the kernel's documentation,
/// where the copy read "If ``/proc/dynamic_debug/control exists".
#[test]
fn a_literal_opening_with_punctuation_is_read_whole() {
    let src = "If ``/proc/dynamic_debug/control`` exists, your kernel has dynamic\ndebug.";
    let cs = [ChunkRef {
        id: "dd.rst#0",
        source_id: "dd.rst",
        text: src,
    }];
    let rendered = "If /proc/dynamic_debug/control exists, your kernel has dynamic debug.";
    assert_eq!(reader_text(src), rendered);
    for quote in [rendered, src] {
        let v = validate(quote, "dd.rst", &cs, &cfg());
        assert_eq!(v.status, Status::Validated, "{quote}: {v:?}");
        assert_eq!(
            v.copy_text.as_deref().map(reader_text).as_deref(),
            Some(rendered)
        );
    }
    // Dropping the path is not the same passage.
    let v = validate(
        "If exists, your kernel has dynamic debug.",
        "dd.rst",
        &cs,
        &cfg(),
    );
    assert_ne!(v.status, Status::Validated, "{v:?}");
}

/// reStructuredText inline markup reads as docutils shows it: a role's
/// text (`:pep:` and `:rfc:` as "PEP 8", "RFC 2822"), literals and
/// emphasis without their marks, a link without its `<target>`_. A quote
/// of the rendered page and a quote of the source both validate, and the
/// copy is what a reader sees.
#[test]
fn rst_roles_literals_and_links_read_as_rendered() {
    let src = "The ``TYPE_CHECKING`` constant is described in :pep:`484`, see also \
               :rfc:`2822` and :func:`typing.get_type_hints`; read `the guide \
               <https://example.org/guide>`_ first.";
    let cs = [ChunkRef {
        id: "pep.rst#0",
        source_id: "pep.rst",
        text: src,
    }];
    let rendered = "The TYPE_CHECKING constant is described in PEP 484, see also RFC 2822 \
                    and typing.get_type_hints; read the guide first.";
    for quote in [rendered, src] {
        let v = validate(quote, "pep.rst", &cs, &cfg());
        assert_eq!(v.status, Status::Validated, "{quote}: {v:?}");
        assert_eq!(
            v.copy_text.as_deref().map(reader_text).as_deref(),
            Some(rendered)
        );
    }
    // Not roles: a time, a URL, a dictionary literal.
    assert_eq!(
        reader_text("at 10:30 see http://x.org/a:b `c`"),
        "at 10:30 see http://x.org/a:b c"
    );
    let v = validate("described in 484", "pep.rst", &cs, &cfg());
    assert_ne!(
        v.verdict,
        Verdict::Verbatim,
        "PEP is part of what the reader sees"
    );
}

/// What Sphinx shows of a role's target marked `~` (its last component) or
/// `!` (no mark), a link whose target is on the next line, and a
/// paragraph's closing "::" is what validates and what is copied.
#[test]
fn rst_role_prefixes_link_spaces_and_literal_marks_read_as_rendered() {
    let src = "The :func:`~curses.wrapper` function takes a callable;                :func:`!wrapper` also calls it (the technical term is `lazy                evaluation\n<https://example.org/lazy>`__). Use the decorator::\n\n                   @unique\n\nOr this ::\n\n    code\n\nC++ has std::vector and fe80::1 too.";
    let cs = [ChunkRef {
        id: "howto.rst#0",
        source_id: "howto.rst",
        text: src,
    }];
    for (quote, copied) in [
        (
            "The wrapper function takes a callable; wrapper also calls it",
            "The wrapper function takes a callable; wrapper also calls it",
        ),
        (
            "the technical term is lazy evaluation). Use the decorator:",
            "the technical term is lazy evaluation). Use the decorator:",
        ),
        (
            "@unique Or this code C++ has",
            "@unique Or this code C++ has",
        ),
        (
            "wrapper function takes a callable",
            "wrapper function takes a callable",
        ),
        (
            "C++ has std::vector and fe80::1 too.",
            "C++ has std::vector and fe80::1 too.",
        ),
    ] {
        let v = validate(quote, "howto.rst", &cs, &cfg());
        assert_eq!(v.status, Status::Validated, "{quote}: {v:?}");
        assert_eq!(v.copy_text.as_deref(), Some(copied), "{quote}");
    }
    // The path Sphinx hides is not a word the reader sees, nor the mark.
    for quote in [
        "The curses.wrapper function takes a callable",
        "The wrapper function takes a callable: wrapper also calls it",
        "std:vector and fe80::1 too",
    ] {
        let v = validate(quote, "howto.rst", &cs, &cfg());
        assert_ne!(v.verdict, Verdict::Verbatim, "{quote}: {v:?}");
        assert_ne!(v.verdict, Verdict::Normalized, "{quote}: {v:?}");
    }
}

proptest! {
    #![proptest_config(crate::cases(256))]

    /// With reStructuredText markup around random words, the rendered
    /// words of any window validate and copy as rendered; changing one word
    /// of the window never validates.
    #[test]
    fn rst_markup_never_validates_other_words(
        words in proptest::collection::vec(0usize..8, 6..24),
        marks in proptest::collection::vec(0usize..10, 24),
        from in 0usize..6, len in 4usize..10, swap in 0usize..10,
    ) {
        // (A number of four digits: "484 484" may be one number grouped
        // by a space, "1811 1811" is not.)
        const W: [&str; 8] = ["keeper", "light", "1811", "fog", "signal", "rock", "Leith", "tower"];
        let mut src = Vec::new();
        let mut shown = Vec::new();
        for (k, w) in words.iter().enumerate() {
            let w = W[*w];
            let (raw, seen) = match marks[k] {
                1 => (format!("``{w}``"), w.to_string()),
                2 => (format!(":pep:`{w}`"), format!("PEP {w}")),
                3 => (format!(":func:`{w}`"), w.to_string()),
                4 => (format!("`{w} <https://x.org/{w}>`_"), w.to_string()),
                5 => (format!(":meth:`~pkg.mod.{w}`"), w.to_string()),
                6 => (format!(":func:`!{w}`"), w.to_string()),
                7 => (format!("`{w}\n<https://x.org/{w}>`__,"), format!("{w},")),
                8 => (format!("{w}::"), format!("{w}:")),
                9 => (format!("{w} ::"), w.to_string()),
                _ => (w.to_string(), w.to_string()),
            };
            src.push(raw);
            shown.extend(seen.split(' ').map(str::to_string));
        }
        let text = src.join(" ");
        let cs = [ChunkRef { id: "p.rst#0", source_id: "p.rst", text: &text }];
        let end = (from + len).min(shown.len());
        prop_assume!(end >= from + 4);
        let window = shown[from..end].join(" ");
        let v = validate(&window, "p.rst", &cs, &cfg());
        prop_assert_eq!(v.status, Status::Validated, "{} in {}", window, text);
        let copied = reader_text(v.copy_text.as_deref().unwrap());
        prop_assert_eq!(crate::validate::normalize::normalize(&copied).text,
            crate::validate::normalize::normalize(&window).text);
        // One word changed to a word the source does not have.
        let mut other = shown[from..end].to_vec();
        let at = swap % other.len();
        other[at] = "lantern".into();
        let v = validate(&other.join(" "), "p.rst", &cs, &cfg());
        prop_assert_ne!(v.status, Status::Validated);
    }
}

/// Underscores that are part of a name are words the reader sees: a dunder,
/// a name in a code literal, a method call keep them in the copy, and a
/// quote without them does not validate; an underscore pair around words
/// (Markdown and Gutenberg italics) is still emphasis.
#[test]
fn names_keep_their_underscores_and_italics_do_not() {
    let src = "Define __init__ and __slots__ in the class; ``_private`` names and \
               obj.__len__() too. _The Modern Orchestra_ is italic, __very bold__ too, \
               snake_case_ stays. The TYPE_CHECKING constant is set.";
    let cs = one("u#0", "u", src);
    for (quote, copied) in [
        (
            "Define __init__ and __slots__ in the class",
            "Define __init__ and __slots__ in the class",
        ),
        (
            "``_private`` names and obj.__len__() too.",
            "_private names and obj.__len__() too.",
        ),
        (
            "_private names and obj.__len__() too.",
            "_private names and obj.__len__() too.",
        ),
        (
            "The Modern Orchestra is italic, very bold too, snake_case_ stays.",
            "The Modern Orchestra is italic, very bold too, snake_case_ stays.",
        ),
        ("Modern Orchestra is italic", "Modern Orchestra is italic"),
    ] {
        let v = validate(quote, "u", &cs, &cfg());
        assert_eq!(v.status, Status::Validated, "{quote}: {v:?}");
        assert_eq!(v.copy_text.as_deref(), Some(copied), "{quote}");
    }
    for quote in [
        "Define init and slots in the class",
        "Define __init and __slots in the class",
        "private names and obj.len() too.",
        "private names and obj.__len__() too.",
        "CHECKING constant is set",
        "very bold too, snake_case stays.",
    ] {
        let v = validate(quote, "u", &cs, &cfg());
        assert_ne!(v.status, Status::Validated, "{quote}: {v:?}");
    }
}

proptest! {
    #![proptest_config(crate::cases(256))]

    /// Random words as plain words, italics (`_w_`), dunders (`__w__`), names
    /// in code literals, method calls and snake-case names (`TYPE_w`): the
    /// words the reader sees of any window validate and copy as seen; the
    /// same window with one name's underscores dropped, or begun inside a
    /// name ("w" of "TYPE_w"), never validates.
    #[test]
    fn underscores_of_names_are_never_dropped(
        words in proptest::collection::vec(0usize..8, 6..24),
        marks in proptest::collection::vec(0usize..6, 24),
        from in 0usize..6, len in 4usize..10,
    ) {
        // (A number of four digits: "484 484" may be one number grouped
        // by a space, "1811 1811" is not.)
        const W: [&str; 8] = ["keeper", "light", "1811", "fog", "signal", "rock", "Leith", "tower"];
        let mut src = Vec::new();
        let mut shown: Vec<(String, Option<String>)> = Vec::new();
        for (k, w) in words.iter().enumerate() {
            let w = W[*w];
            let dunder = format!("__{w}__");
            let (raw, seen) = match marks[k] {
                1 => (format!("_{w}_"), w.to_string()),
                2 => (dunder.clone(), dunder),
                3 => (format!("``__{w}__``"), dunder),
                4 => (format!("obj.__{w}__()"), format!("obj.__{w}__()")),
                5 => (format!("TYPE_{w}"), format!("TYPE_{w}")),
                _ => (w.to_string(), w.to_string()),
            };
            src.push(raw);
            let bare = seen.contains('_').then(|| seen.replace("__", "").replace("TYPE_", ""));
            shown.push((seen, bare));
        }
        let text = src.join(" ");
        let cs = [ChunkRef { id: "u#0", source_id: "u", text: &text }];
        let end = (from + len).min(shown.len());
        prop_assume!(end >= from + 4);
        let window: Vec<&str> = shown[from..end].iter().map(|(s, _)| s.as_str()).collect();
        let quote = window.join(" ");
        let v = validate(&quote, "u", &cs, &cfg());
        prop_assert_eq!(v.status, Status::Validated, "{} in {}", quote, text);
        prop_assert_eq!(v.copy_text.as_deref(), Some(quote.as_str()), "{}", text);
        if let Some(at) = shown[from..end].iter().position(|(_, bare)| bare.is_some()) {
            let mut other = window.clone();
            let bare = shown[from + at].1.clone().unwrap();
            other[at] = &bare;
            let v = validate(&other.join(" "), "u", &cs, &cfg());
            prop_assert_ne!(v.status, Status::Validated, "{} in {}", other.join(" "), text);
        }
    }
}

/// A star or underscore that no partner pairs in its paragraph is text, as
/// a Markdown page shows it (in code, a footnote, `_private`): a quote that
/// drops it is not the source's, and the copy keeps it. Paired emphasis is
/// still markup, and a lone closing underscore is a reStructuredText
/// reference's mark.
#[test]
fn stars_no_partner_pairs_are_text() {
    let unpaired = markup::unpaired_runs;
    let s = "Run run_all(*jobs) and stop(*jobs).";
    assert_eq!(
        unpaired(s),
        [s.find("*jobs").unwrap(), s.rfind("*jobs").unwrap()]
    );
    assert!(unpaired("was *not* paid, **twice** over, _very_ much").is_empty());
    assert!(unpaired("*two\nwords* and __init__ and Cython_ and snake_case").is_empty());
    assert_eq!(unpaired("*one\n\ntwo*"), [0, 9]);
    assert_eq!(unpaired("_private and f(**kw)"), [0, 15]);
    assert_eq!(unpaired("note* here"), [4]);

    let text = "```python\nreturn func(*args, **kwargs) if ready else fallback(*extra)\n```\n\n\
                The keeper was *not* paid that year.";
    let cs = [ChunkRef {
        id: "c#0",
        source_id: "c",
        text,
    }];
    let cfg = ValidateConfig {
        min_words: 1,
        ..cfg()
    };
    let shown = "return func(*args, **kwargs) if ready else fallback(*extra)";
    let v = validate(shown, "c", &cs, &cfg);
    assert_eq!(v.verdict, Verdict::Verbatim, "{v:?}");
    assert_eq!(v.copy_text.as_deref(), Some(shown));
    for wrong in [
        "return func(args, kwargs) if ready else fallback(extra)",
        "func(args, **kwargs)",
        "else fallback(extra)",
    ] {
        let v = validate(wrong, "c", &cs, &cfg);
        assert_ne!(v.status, Status::Validated, "{wrong}: {v:?}");
    }
    for right in ["The keeper was not paid", "was *not* paid that year."] {
        let v = validate(right, "c", &cs, &cfg);
        assert_eq!(v.status, Status::Validated, "{right}: {v:?}");
        assert_eq!(
            v.copy_text.as_deref(),
            Some(right.replace('*', "").as_str())
        );
    }
    // A name's leading underscore: "private" is not a quote of "_private".
    let text = "Call _private helper now";
    let cs = [ChunkRef {
        id: "c#0",
        source_id: "c",
        text,
    }];
    assert_ne!(
        validate("private helper now", "c", &cs, &cfg).status,
        Status::Validated
    );
    assert_eq!(
        validate("_private helper now", "c", &cs, &cfg).status,
        Status::Validated
    );
}

/// In a code literal a star or an underscore is a char the reader sees:
/// ``` ``*args`` ``` reads "*args", and a quote of it copies "*args", whether
/// it was given with the backticks or as the page shows it; emphasis
/// outside literals is still markup.
#[test]
fn code_literals_keep_their_stars_and_underscores() {
    let src = "In a signature, ``*args`` collects positional arguments and ``**kwargs``\n\
               collects *keyword* arguments, so `f(*args, **kwargs)` forwards everything; \
               ``_cache`` is private.";
    let cs = one("c#0", "c", src);
    for (quote, copied) in [
        (
            "``*args`` collects positional arguments",
            "*args collects positional arguments",
        ),
        (
            "*args collects positional arguments and **kwargs collects keyword arguments",
            "*args collects positional arguments and **kwargs collects keyword arguments",
        ),
        (
            "so f(*args, **kwargs) forwards everything; _cache is private.",
            "so f(*args, **kwargs) forwards everything; _cache is private.",
        ),
        (
            "so `f(*args, **kwargs)` forwards everything",
            "so f(*args, **kwargs) forwards everything",
        ),
    ] {
        let v = validate(quote, "c", &cs, &cfg());
        assert_eq!(v.status, Status::Validated, "{quote}: {v:?}");
        assert_eq!(v.copy_text.as_deref(), Some(copied), "{quote}");
        // The copy is a quote of the source too.
        let again = validate(copied, "c", &cs, &cfg());
        assert_eq!(again.copy_text.as_deref(), Some(copied), "{copied}");
    }
    // Emphasis around a literal is not in it.
    let cs3 = one(
        "e#0",
        "e",
        "Pass *`--force`* or **`__init__`** to the tool.",
    );
    let v = validate("Pass --force or __init__ to the tool.", "e", &cs3, &cfg());
    assert_eq!(
        v.copy_text.as_deref(),
        Some("Pass --force or __init__ to the tool."),
        "{v:?}"
    );
    // A reference's mark after a literal is not in it.
    let cs2 = one(
        "r#0",
        "r",
        "The `Cython`_ and `CFFI docs`_ libraries wrap the C API.",
    );
    let v = validate("The Cython and CFFI docs libraries wrap", "r", &cs2, &cfg());
    assert_eq!(
        v.copy_text.as_deref(),
        Some("The Cython and CFFI docs libraries wrap"),
        "{v:?}"
    );
    for quote in [
        "forwards everything; cache is private",
        "*keyword* arguments, so f(args",
    ] {
        let v = validate(quote, "c", &cs, &cfg());
        assert_ne!(v.status, Status::Validated, "{quote}: {v:?}");
    }
}

proptest! {
    #![proptest_config(crate::cases(256))]

    /// Random words as plain words, emphasis, code literals holding stars
    /// and underscores, and stars and underscores no partner pairs (text,
    /// as a Markdown page shows them): the words the reader sees of any window
    /// validate and copy exactly as seen, given as seen or as written; a
    /// window with a literal's underscore or a text star dropped never
    /// validates.
    #[test]
    fn code_literals_read_as_shown(
        words in proptest::collection::vec(0usize..8, 6..24),
        marks in proptest::collection::vec(0usize..10, 24),
        from in 0usize..6, len in 4usize..10,
    ) {
        // (A number of four digits: "484 484" may be one number grouped
        // by a space, "1811 1811" is not.)
        const W: [&str; 8] = ["keeper", "light", "1811", "fog", "signal", "rock", "Leith", "tower"];
        // (written, seen, seen without the literal's underscore)
        let mut shown: Vec<(String, String, Option<String>)> = Vec::new();
        for (k, w) in words.iter().enumerate() {
            let w = W[*w];
            shown.push(match marks[k] {
                1 => (format!("*{w}*"), w.to_string(), None),
                2 => (format!("``*{w}``"), format!("*{w}"), None),
                3 => (format!("`**{w}`"), format!("**{w}"), None),
                4 => (format!("``_{w}``"), format!("_{w}"), Some(w.to_string())),
                5 => (format!("`f(*{w})`,"), format!("f(*{w}),"), None),
                6 => (format!("``{w}_``"), format!("{w}_"), Some(w.to_string())),
                // Stars and an underscore no partner pairs: text.
                7 => (format!("run(*{w})"), format!("run(*{w})"), Some(format!("run({w})"))),
                8 => (format!("f(**{w}),"), format!("f(**{w}),"), Some(format!("f({w}),"))),
                9 => (format!("_{w}"), format!("_{w}"), Some(w.to_string())),
                _ => (w.to_string(), w.to_string(), None),
            });
        }
        let text = shown.iter().map(|s| s.0.as_str()).collect::<Vec<_>>().join(" ");
        let cs = [ChunkRef { id: "c#0", source_id: "c", text: &text }];
        let end = (from + len).min(shown.len());
        prop_assume!(end >= from + 4);
        let window = &shown[from..end];
        let seen = window.iter().map(|s| s.1.as_str()).collect::<Vec<_>>().join(" ");
        let written = window.iter().map(|s| s.0.as_str()).collect::<Vec<_>>().join(" ");
        for quote in [&seen, &written] {
            let v = validate(quote, "c", &cs, &cfg());
            prop_assert_eq!(v.status, Status::Validated, "{} in {}", quote, text);
            prop_assert_eq!(v.copy_text.as_deref(), Some(seen.as_str()), "{} in {}", quote, text);
        }
        if let Some(at) = window.iter().position(|s| s.2.is_some()) {
            let mut other: Vec<&str> = window.iter().map(|s| s.1.as_str()).collect();
            other[at] = window[at].2.as_deref().unwrap();
            let v = validate(&other.join(" "), "c", &cs, &cfg());
            prop_assert_ne!(v.status, Status::Validated, "{} in {}", other.join(" "), text);
        }
    }
}

/// Words joined by what the reader reads as part of them (source, what the
/// page shows, its head and its tail as a cut quote would give them).
const JOINED: &[(&str, &str, Option<&str>, Option<&str>)] = &[
    ("can\u{200B}not", "cannot", Some("can"), Some("not")),
    ("can\u{2060}not", "cannot", Some("can"), Some("not")),
    // Every kind of invisible format character (red team 22).
    ("can\u{206A}not", "cannot", Some("can"), Some("not")),
    ("can\u{206F}not", "cannot", Some("can"), Some("not")),
    ("can\u{034F}not", "cannot", Some("can"), Some("not")),
    ("can\u{FE0F}not", "cannot", Some("can"), Some("not")),
    ("can\u{FFF9}not", "cannot", Some("can"), Some("not")),
    ("can\u{FFFB}not", "cannot", Some("can"), Some("not")),
    ("can\u{1BCA0}not", "cannot", Some("can"), Some("not")),
    ("can\u{1D173}not", "cannot", Some("can"), Some("not")),
    ("can\u{E0001}not", "cannot", Some("can"), Some("not")),
    ("can\u{E0020}not", "cannot", Some("can"), Some("not")),
    ("can\u{E007F}not", "cannot", Some("can"), Some("not")),
    // A range, compound or number broken at a line's end after a digit.
    ("18–\n65", "18– 65", Some("18"), Some("65")),
    ("10-\nfold", "10- fold", Some("10"), Some("fold")),
    ("£12,\n000", "£12, 000", Some("£12"), Some("000")),
    ("12,\r\n000", "12, 000", Some("12"), Some("000")),
    ("18–65", "18–65", Some("18"), Some("65")),
    (
        "Franco–Prussian",
        "Franco–Prussian",
        Some("Franco"),
        Some("Prussian"),
    ),
    ("non‒violent", "non‒violent", Some("non"), Some("violent")),
    ("can‘t", "can‘t", Some("can"), None),
    ("can′t", "can′t", Some("can"), None),
    ("can＇t", "can＇t", Some("can"), None),
    ("can‛t", "can‛t", Some("can"), None),
    ("can\u{200E}not", "cannot", Some("can"), Some("not")),
    ("12\u{2007}000", "12\u{2007}000", Some("12"), Some("000")),
    ("‑40", "‑40", None, Some("40")),
    ("–30", "–30", None, Some("30")),
    ("12/05/1811", "12/05/1811", Some("12/05"), Some("05/1811")),
    ("1:1000", "1:1000", Some("1"), Some("1000")),
    ("3×4", "3×4", Some("3"), Some("4")),
    ("10^6", "10^6", Some("10"), Some("6")),
    ("12\u{202F}000", "12\u{202F}000", Some("12"), Some("000")),
    ("3\u{00A0}500", "3\u{00A0}500", Some("3"), Some("500")),
    ("10⁻⁶", "10⁻⁶", Some("10"), Some("⁶")),
    ("*can*'t", "can't", Some("can"), None),
    (
        "[im](https://x.org/i)possible",
        "impossible",
        Some("im"),
        Some("possible"),
    ),
    ("light-\nhouse", "lighthouse", Some("light"), Some("house")),
    ("−40", "−40", None, Some("40")),
    ("-500", "-500", None, Some("500")),
    (".5", ".5", None, Some("5")),
    ("~40", "~40", None, Some("40")),
    ("p<0.05", "p<0.05", None, Some("0.05")),
    ("50%", "50%", Some("50"), None),
    ("20°", "20°", Some("20"), None),
    (
        "**im**possible",
        "**im**possible",
        Some("**im"),
        Some("possible"),
    ),
    ("*un*safe", "*un*safe", Some("*un"), Some("safe")),
    ("$5", "$5", None, Some("5")),
    ("€12", "€12", None, Some("12")),
    ("#3", "#3", None, Some("3")),
    ("p.m.", "p.m.", Some("p"), Some("m.")),
    ("col·lecció", "col·lecció", Some("col"), Some("lecció")),
    ("AT&T", "AT&T", Some("AT"), Some("T")),
    ("un&shy;safe", "un&shy;safe", Some("un"), Some("safe")),
    ("un<b>safe</b>", "un<b>safe</b>", Some("un"), None),
    ("10<sup>6</sup>", "10<sup>6</sup>", Some("10"), None),
    // reStructuredText's escaped space is not shown: "unsafe", "impossible".
    ("un\\ *safe*", "un\\ *safe*", Some("un"), Some("safe")),
    (
        "*im*\\ possible",
        "*im*\\ possible",
        Some("*im"),
        Some("possible"),
    ),
    ("un\\ ``able``", "un\\ ``able``", Some("un"), Some("able")),
    // (A Markdown comment inside a word, as ingest blanks it, leaves its
    // mark: no quote runs across it, `no_validated_quote_runs_across_hidden_text`.)
    // Markdown links by reference, with a title; a character reference;
    // an image.
    ("[un][1]safe", "[un][1]safe", Some("[un"), Some("safe")),
    ("[un]safe", "[un]safe", Some("[un"), Some("safe")),
    (
        "[un](http://x \"t\")safe",
        "[un](http://x \"t\")safe",
        Some("[un"),
        Some("safe"),
    ),
    ("un&#115;afe", "un&#115;afe", Some("un"), Some("afe")),
    (
        "un![img](x.png)safe",
        "un![img](x.png)safe",
        Some("un"),
        Some("safe"),
    ),
    ("~~un~~safe", "~~un~~safe", Some("~~un"), Some("safe")),
    // A currency sign after the number.
    ("6€", "6€", Some("6"), None),
    ("keeper", "keeper", None, None),
    ("light", "light", None, None),
    ("rock", "rock", None, None),
];

proptest! {
    #![proptest_config(crate::cases(512))]

    /// Words joined by invisible chars, dashes of ranges, other apostrophes,
    /// number separators, exponents, signs and Markdown markup: a quote of
    /// whole words validates; one that keeps only the head of its last word
    /// or the tail of its first never does ("can" of "can\u{200B}not", "65"
    /// of "18–65", "40" of "−40", "can" of "*can*'t").
    #[test]
    fn joined_words_are_never_cut(
        words in proptest::collection::vec(0usize..JOINED.len(), 4..16),
        from in 0usize..4, len in 3usize..8,
    ) {
        let text = words.iter().map(|&w| JOINED[w].0).collect::<Vec<_>>().join(" ");
        let cs = [ChunkRef { id: "j#0", source_id: "j", text: &text }];
        let cfg = ValidateConfig { min_words: 1, ..cfg() };
        let end = (from + len).min(words.len());
        prop_assume!(end > from + 1);
        let window: Vec<&str> = words[from..end].iter().map(|&w| JOINED[w].1).collect();
        let v = validate(&window.join(" "), "j", &cs, &cfg);
        prop_assert_eq!(v.status, Status::Validated, "{:?} in {:?}", window, text);
        if let Some(head) = JOINED[words[end - 1]].2 {
            let mut cut = window.clone();
            *cut.last_mut().unwrap() = head;
            let v = validate(&cut.join(" "), "j", &cs, &cfg);
            prop_assert_ne!(v.status, Status::Validated, "{:?} in {:?}", cut, text);
        }
        if let Some(tail) = JOINED[words[from]].3 {
            let mut cut = window.clone();
            cut[0] = tail;
            let v = validate(&cut.join(" "), "j", &cs, &cfg);
            prop_assert_ne!(v.status, Status::Validated, "{:?} in {:?}", cut, text);
        }
    }
}

/// A range, compound or number broken at a line's end after a digit is cut
/// neither before its dash nor after the break (red team 22: "aged 18",
/// "was 10", "paid £12" were validated); two line breaks end it.
#[test]
fn a_number_broken_at_a_line_end_is_not_cut() {
    let src = "The keepers were aged 18–\n65 when they joined. The lamp was 10-\n\
               fold brighter. The keeper was paid £12,\n000 in all. Paragraph 12-\n\n\
               Fold the map twice.";
    let cs = one("n#0", "n", src);
    for q in [
        "The keepers were aged 18",
        "65 when they joined.",
        "The lamp was 10",
        "fold brighter.",
        "The keeper was paid £12",
        "000 in all.",
    ] {
        let v = validate(q, "n", &cs, &cfg());
        assert_ne!(v.status, Status::Validated, "{q}: {v:?}");
    }
    let v = validate("Fold the map twice.", "n", &cs, &cfg());
    assert_eq!(v.status, Status::Validated, "{v:?}");
}

/// A bidi embedding or isolate inside a word is no space: neither half of
/// the word is a quote of it, at either end (red team 22).
#[test]
fn a_word_is_not_cut_at_a_bidi_control() {
    for c in [
        '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{2066}', '\u{2067}', '\u{2068}',
        '\u{2069}',
    ] {
        let src = format!("The keeper can{c}not leave the rock in the winter storms of 18{c}11.");
        let cs = [ChunkRef {
            id: "b#0",
            source_id: "b",
            text: &src,
        }];
        for q in [
            "not leave the rock in the winter",
            "The keeper can",
            "storms of 18",
            "11.",
        ] {
            let cfg = ValidateConfig {
                min_words: 1,
                ..cfg()
            };
            let v = validate(q, "b", &cs, &cfg);
            assert_ne!(v.status, Status::Validated, "{q} in {src:?}: {v:?}");
        }
    }
}

/// A line-end hyphen joins a word only across one line break and after a
/// letter, in validation and in the copy alike: "10-\nfold" keeps its
/// hyphen, and "re-" at the end of a paragraph is not "resign".
#[test]
fn a_hyphen_joins_across_one_line_break_after_a_letter() {
    assert_eq!(reader_text("a 10-\nfold rise"), "a 10- fold rise");
    assert_eq!(reader_text("light-\r\nhouse"), "lighthouse");
    assert_eq!(reader_text("a\rlight-\nhouse"), "a lighthouse");
    assert_eq!(reader_text("will re-\n\nsign it"), "will re- sign it");
    let src = "The players will re-\n\nsign their contracts. A 10-\nfold rise.";
    let cs = one("h#0", "h", src);
    let v = validate("The players will resign their contracts", "h", &cs, &cfg());
    assert_ne!(v.status, Status::Validated, "{v:?}");
    let v = validate("A 10- fold rise.", "h", &cs, &cfg());
    assert_eq!(v.status, Status::Validated, "{v:?}");
    assert_eq!(v.copy_text.as_deref(), Some("A 10- fold rise."));
}

/// The mark ingest leaves where a page shows something that is not text (an
/// image, a button) keeps the words either side apart.
#[test]
fn an_object_mark_keeps_words_apart() {
    let text = "The vaccine is \u{FFFC} recommended for every keeper.";
    let cs = [ChunkRef {
        id: "c#0",
        source_id: "c",
        text,
    }];
    let v = validate(
        "The vaccine is recommended for every keeper.",
        "c",
        &cs,
        &cfg(),
    );
    assert_ne!(v.status, Status::Validated, "{v:?}");
    let v = validate("recommended for every keeper.", "c", &cs, &cfg());
    assert_eq!(v.status, Status::Validated, "{v:?}");
}

/// A copy spells a typesetting ligature out (a PDF's "ﬁ"), and still
/// validates as the source's words.
#[test]
fn a_copy_spells_ligatures_out() {
    assert_eq!(
        reader_text("the ﬁrst ﬂoor, eﬀort"),
        "the first floor, effort"
    );
    let text = "The ﬁrst light was shown from the ﬂoor above the store.";
    let cs = [ChunkRef {
        id: "c#0",
        source_id: "c",
        text,
    }];
    let v = validate("The first light was shown", "c", &cs, &cfg());
    assert_eq!(v.status, Status::Validated, "{v:?}");
    assert_eq!(v.copy_text.as_deref(), Some("The first light was shown"));
    let copy = v.copy_text.unwrap();
    assert_eq!(validate(&copy, "c", &cs, &cfg()).status, Status::Validated);
}

#[test]
fn a_quote_of_another_sources_unpaired_star_is_misattributed() {
    // Found by CI: the star before "note" has no partner in its paragraph
    // ("5 * 3" is no emphasis), so the other source shows it, and the
    // quote is that source's text.
    let other = "*¨ note of the keeper, as 5 * 3 says";
    let cs = vec![
        ChunkRef {
            id: "c#0",
            source_id: "s",
            text: "lamplamplamplamp",
        },
        ChunkRef {
            id: "o#0",
            source_id: "o",
            text: other,
        },
    ];
    let v = validate("*¨ note of the keeper", "s", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::Misattributed);
    assert_eq!(v.spans[0].chunk_id, "o#0");
}

#[test]
fn a_quote_from_inside_a_run_shown_as_text_reads_so_at_its_span() {
    // Found by a long property run: "**" with no partner is text; a quote
    // starting at its second star is the page's text, and the span reads
    // so, star and all.
    let text = "\u{201c}**I\u{a0}*a fine light";
    let cs = vec![ChunkRef {
        id: "c#0",
        source_id: "s",
        text,
    }];
    let v = validate(
        "*I *a fine light",
        "s",
        &cs,
        &ValidateConfig {
            min_words: 1,
            ..cfg()
        },
    );
    assert_eq!(v.status, Status::Validated);
    assert_eq!(v.copy_text.as_deref(), Some("*I *a fine light"));
}

/// An author's bracketed insertion ("[the keeper]", "[sic]") is never the
/// source's words: the quote is flagged, its note names the insertion,
/// and its copy is the source's words without it; an elision `[…]` stays
/// an elision.
#[test]
fn bracketed_insertions_are_named_and_never_validated() {
    let cs = one(
        "k#0",
        "k",
        "He wrote in his log that the lamp was never allowed to go dark. \
         The oil was rationed by the spoonful in the winter months.",
    );
    for (quote, copy) in [
        (
            "He [the keeper] wrote in his log that the lamp was never allowed to go dark.",
            "He wrote in his log that the lamp was never allowed to go dark.",
        ),
        (
            "the oil was rationed by the spoonful [sic]",
            "The oil was rationed by the spoonful",
        ),
        (
            "[The keeper] wrote in his log […] the lamp was never allowed to go dark",
            "wrote in his log … the lamp was never allowed to go dark",
        ),
    ] {
        let v = validate(quote, "k", &cs, &cfg());
        assert_eq!(v.status, Status::Flagged, "{quote}: {v:?}");
        assert!(v.note.contains("bracketed"), "{quote}: {}", v.note);
        assert!(v.similarity < 1.0, "{quote}: {v:?}");
        assert_eq!(v.copy_text.as_deref(), Some(copy), "{quote}: {v:?}");
    }
    // Not in the source without it either: not found.
    let v = validate("[He] burned the log in the winter months", "k", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::NotFound, "{v:?}");
}

/// Greek capitals lowercase with a final sigma at a word's end: "ΟΔΟΣ"
/// and "οδος" are the same word, as are "Σ" and "σ" inside one.
#[test]
fn greek_final_sigma_is_sigma() {
    let cs = one("g#0", "g", "Η ΟΔΟΣ ΠΡΟΣ ΤΟΝ ΦΑΡΟ ήταν στενή.");
    for quote in ["Η οδος προς τον φαρο", "Η ΟΔΟΣ ΠΡΟΣ ΤΟΝ ΦΑΡΟ"] {
        let v = validate(
            quote,
            "g",
            &cs,
            &ValidateConfig {
                min_words: 1,
                ..cfg()
            },
        );
        assert_eq!(v.status, Status::Validated, "{quote}: {v:?}");
    }
}

/// A difference no one sees in print (a bidi override in the source, a
/// backspace in the quote) is named in the note of a flagged quote.
#[test]
fn invisible_differences_are_named() {
    let cs = one(
        "k#0",
        "k",
        "The keeper wrote the sum \u{202E}0021\u{202C} pounds in the ledger.",
    );
    let v = validate(
        "The keeper wrote the sum 0021 pounds in the ledger",
        "k",
        &cs,
        &cfg(),
    );
    assert_eq!(v.verdict, Verdict::Fuzzy, "{v:?}");
    assert!(
        v.note
            .contains("the source has invisible characters: U+202E, U+202C"),
        "{}",
        v.note
    );
    let cs = one(
        "t#0",
        "t",
        "The keeper used tabs and carriage returns and lamps.",
    );
    let v = validate(
        "The keeper used tabs and\u{8} carriage returns and lamps",
        "t",
        &cs,
        &cfg(),
    );
    assert_eq!(v.verdict, Verdict::Fuzzy, "{v:?}");
    assert!(
        v.note
            .contains("the quote has invisible characters: U+0008"),
        "{}",
        v.note
    );
}

proptest! {
    #![proptest_config(crate::cases(256))]

    /// Red team, round 15: where ingest leaves its object mark (struck,
    /// hidden or unreadable text), no quote across it validates — neither
    /// one that copies the mark nor one that reads it as nothing or as a
    /// space ("was ￼ guilty" → "was guilty") — wherever the two chunks of
    /// a source part; a quote on either side of it still does.
    #[test]
    fn no_validated_quote_runs_across_hidden_text(
        words in prop::collection::vec(prop::sample::select(vec![
            "The", "keeper", "was", "not", "guilty", "of", "the", "crime", "at", "rock.",
            "It", "never", "cannot", "lamp", "“lit”", "—", "light-\nhouse", "1859,",
        ]), 6..40),
        marks in prop::collection::vec(0usize..40, 1..4),
        a in 0usize..10_000, b in 0usize..10_000, kind in 0u8..4, split in 0usize..40,
    ) {
        let mut pieces: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        for m in &marks {
            let at = m % (pieces.len() + 1);
            pieces.insert(at, crate::text::HIDDEN_MARK.to_string());
        }
        let text = pieces.join(" ");
        let quote = char_sub(&text, a, b);
        let quote = match kind {
            0 => quote,
            1 => quote.replace(&format!("{} ", crate::text::HIDDEN_MARK), ""),
            2 => quote.replace(crate::text::HIDDEN_MARK, " "),
            _ => quote.replace(crate::text::HIDDEN_MARK, ""),
        };
        // One chunk, or two adjacent chunks of the source split at a word.
        let ws: Vec<usize> = text.match_indices(' ').map(|(i, _)| i).collect();
        let at = ws.get(split % ws.len().max(1)).copied().unwrap_or(0);
        let (head, tail) = (text[..at].to_string(), text[at..].trim_start().to_string());
        let two = [
            ChunkRef { id: "s#0", source_id: "s", text: &head },
            ChunkRef { id: "s#1", source_id: "s", text: &tail },
        ];
        let one = [ChunkRef { id: "s#0", source_id: "s", text: &text }];
        let cfg = ValidateConfig { min_words: 1, ..cfg() };
        for (cs, next) in [(&one[..], vec![None]), (&two[..], vec![Some(1), None])] {
            let v = Validator::new(cs).with_adjacency(next).validate(&quote, "s", &cfg);
            if v.status == Status::Validated {
                for sp in &v.spans {
                    let c = cs.iter().find(|c| c.id == sp.chunk_id).unwrap();
                    prop_assert!(
                        !slice_chars(c.text, sp.start, sp.end).contains(crate::text::HIDDEN_MARK),
                        "{:?} validated across a mark in {:?}: {:?}", quote, text, v
                    );
                }
                prop_assert!(!v.copy_text.as_deref().unwrap_or("").contains(crate::text::HIDDEN_MARK));
                // Nor does the quote join words the mark keeps apart.
                let joined = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
                let sides: Vec<String> = text
                    .split(crate::text::HIDDEN_MARK)
                    .map(joined)
                    .collect();
                let q = joined(&quote);
                prop_assert!(
                    sides.iter().any(|s| crate::validate::normalize(s).text
                        .contains(&crate::validate::normalize(&q).text)),
                    "{:?} validated but on no one side of the marks in {:?}", quote, text
                );
            }
        }
    }
}

/// Red team, round 15, finding 05: "<s>not</s>" leaves a mark; the quote
/// across it, with the mark or without, is flagged; a quote beside it is
/// validated.
#[test]
fn a_quote_across_struck_text_is_flagged() {
    let text = "The jury found that the keeper was \u{FFFC} guilty of the crime at the rock.";
    let cs = [ChunkRef {
        id: "t#0",
        source_id: "t",
        text,
    }];
    for q in [
        "The jury found that the keeper was \u{FFFC} guilty of the crime at the rock.",
        "The jury found that the keeper was guilty of the crime at the rock.",
        "keeper was guilty of the crime",
    ] {
        let v = validate(q, "t", &cs, &cfg());
        assert_ne!(v.status, Status::Validated, "{q:?}: {v:?}");
    }
    let v = validate("The jury found that the keeper was", "t", &cs, &cfg());
    assert_eq!(v.verdict, Verdict::Verbatim, "{v:?}");
}

proptest! {
    #![proptest_config(crate::cases(256))]

    /// Red team 22b, finding 06: whatever a quote over text with marks
    /// (hidden, struck or unreadable text) is judged, its copy never holds
    /// the index's mark, which would paste as an invisible object
    /// character; each run of marks it spans copies as one "[…]", and the
    /// words around it as the source has them.
    #[test]
    fn a_copy_never_holds_the_index_mark(
        words in proptest::collection::vec(0usize..6, 8..16),
        marks in proptest::collection::vec(0usize..4, 8..16),
        from in 0usize..4, len in 4usize..12, drop in proptest::bool::ANY,
    ) {
        const W: [&str; 6] = ["keeper", "light", "guilty", "fog", "signal", "rock"];
        let mut src = Vec::new();
        let mut shown = Vec::new();
        for (k, w) in words.iter().enumerate() {
            let w = W[*w];
            match marks.get(k).copied().unwrap_or(0) {
                1 => src.push(format!("{w} \u{FFFC}")),
                2 => src.push(format!("{w}\u{FFFC}\u{FFFC}")),
                _ => src.push(w.to_string()),
            }
            shown.push(w);
        }
        let text = src.join(" ") + ".";
        let cs = [ChunkRef { id: "t#0", source_id: "t", text: &text }];
        let end = (from + len).min(shown.len());
        let quote = if drop {
            shown[from..end].join(" ")
        } else {
            src[from..end].join(" ")
        };
        let v = validate(&quote, "t", &cs, &cfg());
        if let Some(copy) = &v.copy_text {
            prop_assert!(!copy.contains('\u{FFFC}'), "{:?} -> {:?}", quote, copy);
            prop_assert!(!copy.contains("[…] […]") && !copy.contains("[…][…]"), "{:?}", copy);
        }
    }
}

#[test]
fn a_flagged_quote_over_hidden_text_copies_the_omission() {
    let text = "The jury met at noon. The keeper was \u{FFFC} guilty of the charge that day.";
    let cs = [ChunkRef {
        id: "t#0",
        source_id: "t",
        text,
    }];
    let v = validate(
        "The keeper was guilty of the charge that day.",
        "t",
        &cs,
        &cfg(),
    );
    assert_ne!(v.status, Status::Validated, "{v:?}");
    assert_eq!(
        v.copy_text.as_deref(),
        Some("The keeper was […] guilty of the charge that day.")
    );
    assert_eq!(
        reader_text("The wage was 10\u{FFFC}3 shillings"),
        "The wage was 10[…]3 shillings"
    );
}
