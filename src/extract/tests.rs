use super::*;

fn chunk(id: &str, text: &str) -> Chunk {
    Chunk::for_test(id, text)
}

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The snippet is `c`'s text at the span it reports.
fn assert_at_span(c: &Chunk, s: &Snippet) {
    let span = s.span.as_ref().unwrap();
    assert_eq!(
        crate::text::slice_chars(&c.text, span.start, span.end),
        s.content
    );
}

/// The engine on words alone (no embedder, no question vector).
fn lexical(
    chunks: &[&Chunk],
    question: &str,
    terms: &[(String, f32)],
    cfg: &ExtractConfig,
) -> Extraction {
    extractive(chunks, question, terms, &words, None, None, cfg).unwrap()
}

#[test]
fn answer_types_from_questions_and_in_passages() {
    use AnswerType::*;
    assert_eq!(
        AnswerType::of("Who was the architect of the Pharos?"),
        Some(Person)
    );
    assert_eq!(AnswerType::of("When was the light first lit?"), Some(Time));
    assert_eq!(
        AnswerType::of("How many keepers lived there?"),
        Some(Number)
    );
    assert_eq!(AnswerType::of("Why did the tower fall?"), Some(Reason));
    assert_eq!(AnswerType::of("What did the keeper eat?"), None);
    let q: HashSet<String> = ["who", "was", "the", "architect", "of", "pharos"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert!(Person.found_in("The architect was Sostratus of Cnidus.", &q));
    assert!(!Person.found_in("The Pharos was tall.", &q));
    assert!(Time.found_in("It was first lit in 1811.", &q));
    assert!(Number.found_in("It cost eight hundred talents.", &q));
    assert!(Reason.found_in("It fell because the rock eroded.", &q));
}

#[test]
fn picks_the_sentences_that_answer_with_exact_spans() {
    let a = chunk(
        "a.md#0",
        "The tower was lit in 1759. Smeaton’s mortar set under water. It was hydraulic lime.",
    );
    let b = chunk("b.md#0", "Keepers trimmed the wicks nightly.");
    let terms = vec![
        ("smeaton".to_string(), 2.0),
        ("mortar".to_string(), 2.0),
        ("lime".to_string(), 1.0),
    ];
    let ex = lexical(
        &[&a, &b],
        "What mortar did Smeaton use?",
        &terms,
        &ExtractConfig::default(),
    );
    assert!(!ex.no_results);
    let s = &ex.snippets[0];
    assert_eq!(
        s.content,
        "Smeaton’s mortar set under water. It was hydraulic lime."
    );
    assert_at_span(&a, s);
    assert!(ex.summary.contains("[1]"));
    assert!(ex.snippets.iter().all(|s| s.source_id == "a.md"));
}

/// A sentence too short for validation to check ("Muss es sein?") is
/// never a quote on its own: its window grows to a sentence next to it,
/// even one that adds no question term.
#[test]
fn no_quote_is_too_short_to_validate() {
    let a = chunk(
        "a.md#0",
        "The finale has curious words over it. Muss es sein? Es muss sein! They turn on the rent.",
    );
    let terms: Vec<(String, f32)> = ["muss", "es", "sein"]
        .iter()
        .map(|t| (t.to_string(), 1.0))
        .collect();
    let ex = lexical(&[&a], "Muss es sein?", &terms, &ExtractConfig::default());
    assert!(!ex.snippets.is_empty());
    for s in &ex.snippets {
        assert!(s.content.unicode_words().count() >= 4, "{:?}", s.content);
    }
    for said in ["Muss es sein?", "Es muss sein!"] {
        assert!(
            ex.snippets.iter().any(|s| s.content.contains(said)),
            "{said}: {:?}",
            ex.snippets
        );
    }
}

#[test]
fn nothing_relevant_means_no_results() {
    let a = chunk("a.md#0", "Keepers trimmed the wicks nightly.");
    let terms = vec![("sourdough".to_string(), 3.0)];
    let ex = lexical(&[&a], "", &terms, &ExtractConfig::default());
    assert!(ex.no_results);
    assert!(ex.snippets.is_empty());
}

fn builtin() -> &'static crate::embed::BuiltinEmbedder {
    static M: std::sync::OnceLock<crate::embed::BuiltinEmbedder> = std::sync::OnceLock::new();
    M.get_or_init(|| crate::embed::BuiltinEmbedder::load_default().unwrap())
}

/// Late interaction counts a chunk's title and headings for every one
/// of its sentences, as the term share does: a sentence under a heading
/// that names the subject scores as high as one that repeats the
/// subject's words itself (here everything else is equal, and the tie
/// goes to the first chunk; without the headings it would lose).
#[test]
fn the_heading_names_the_subject_for_late_interaction() {
    let mut a = chunk("pharos.md#1", "The architect was Sostratus.");
    a.source_title = "The Pharos of Alexandria".into();
    let b = chunk(
        "notes.md#0",
        "The architect came to Pharos from Alexandria.",
    );
    let question = "architect Pharos Alexandria";
    let terms = vec![("architect".to_string(), 1.0)];
    let e = builtin();
    let cfg = ExtractConfig {
        vector_weight: 0.0,
        answer_type_bonus: 0.0,
        ..ExtractConfig::default()
    };
    let ex = extractive(
        &[&a, &b],
        question,
        &terms,
        &words,
        Some(e as &dyn Embedder),
        None,
        &cfg,
    )
    .unwrap();
    assert_eq!(ex.snippets[0].source_id, "pharos.md", "{:?}", ex.snippets);
}

use proptest::strategy::Strategy as _;

proptest::proptest! {
    #![proptest_config(crate::cases(64))]

    /// Whatever the passages and the question, with late interaction
    /// and sentence vectors scoring the windows, every snippet the
    /// engine offers is its chunk's own text at the span it reports:
    /// contiguous, in bounds, never stitched.
    #[test]
    fn snippets_are_their_chunks_text_at_their_span(
        texts in proptest::collection::vec(
            proptest::collection::vec(proptest::sample::select(vec![
                "The keeper", "lit the lamp", "in 1759.", "Smeaton’s", "mortar", "set.",
                "Why?", "because", "灯台", "🚢", "naïve", "\r\n", "  ", "ﬁne", "—", "x",
                "Grace Darling", "rowed out!", "e\u{301}", "\u{1b}[31m", "3.5%", "\n\n",
                "It was", "This lamp", "such", "He adds", "\u{FFFC}",
            ]), 1..40).prop_map(|ws| ws.join(" ")),
            1..4,
        ),
        question in proptest::collection::vec(proptest::sample::select(vec![
            "who", "when", "how many", "why", "keeper", "lamp", "mortar", "Smeaton", "灯台",
            "rowed", "1759", "fine", "?", "what", "which lamp", "what kind of mortar",
            "what happened", "what did", "say", "how did", "react",
        ]), 0..8).prop_map(|ws| ws.join(" ")),
        overlapping in proptest::bool::ANY,
    ) {
        // Overlapping chunks of one source: each starts with the one
        // before it, as the chunker's overlap makes them.
        let chunks: Vec<Chunk> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| match (overlapping, i) {
                (true, 0) => chunk("s.md#0", t),
                (true, _) => chunk(&format!("s.md#{i}"), &format!("{}\n\n{t}", texts[i - 1])),
                (false, _) => chunk(&format!("s{i}.md#0"), t),
            })
            .collect();
        let refs: Vec<&Chunk> = chunks.iter().collect();
        let e = builtin();
        let qv = e.embed_one(&question);
        let terms: Vec<(String, f32)> = words(&question).into_iter().map(|w| (w, 1.0)).collect();
        let ex = extractive(
            &refs, &question, &terms, &words, Some(e as &dyn Embedder), Some(&qv),
            &ExtractConfig::default(),
        )
        .unwrap();
        for s in &ex.snippets {
            let span = s.span.as_ref().unwrap();
            let c = chunks.iter().find(|c| c.id == span.chunk_id).unwrap();
            proptest::prop_assert!(span.start < span.end && span.end <= c.text.chars().count());
            proptest::prop_assert_eq!(
                crate::text::slice_chars(&c.text, span.start, span.end),
                s.content.as_str()
            );
            proptest::prop_assert_eq!(&s.source_id, &c.source_id);
            // Long enough for validation to check.
            proptest::prop_assert!(s.content.unicode_words().count() >= 4, "{:?}", s.content);
            // Never across text the source does not show.
            proptest::prop_assert!(!s.content.contains(crate::text::HIDDEN_MARK), "{:?}", s.content);
        }
        // No sentence is quoted twice from one source, overlapping chunks
        // or not.
        let mut seen: HashSet<(String, String)> = HashSet::new();
        for sn in &ex.snippets {
            let own: HashSet<(String, String)> = sentences(&sn.content)
                .into_iter()
                .map(|r| (sn.source_id.clone(), crate::ingest::collapse_ws(&sn.content[r])))
                .collect();
            proptest::prop_assert!(own.is_disjoint(&seen), "{:?} twice in {:#?}", own.intersection(&seen).collect::<Vec<_>>(), ex.snippets);
            seen.extend(own);
        }
        // A quote that took in the sentence it refers to still overlaps no
        // other quote of its chunk.
        for (i, a) in ex.snippets.iter().enumerate() {
            for b in &ex.snippets[i + 1..] {
                let (x, y) = (a.span.as_ref().unwrap(), b.span.as_ref().unwrap());
                proptest::prop_assert!(
                    x.chunk_id != y.chunk_id || x.end <= y.start || y.end <= x.start,
                    "{:?} {:?}", a.content, b.content
                );
            }
        }
    }
}

#[test]
fn the_focus_is_what_the_question_asks_for() {
    assert_eq!(
        focus_words("What salary came with the Kapellmeister post?"),
        ["salary", "came"]
    );
    assert_eq!(
        focus_words("In ART 2-A, what kind of algorithm does the system become?"),
        ["algorithm"]
    );
    assert_eq!(
        focus_words("Which existing tool does DEEPLY build on?"),
        ["existing", "tool"]
    );
    assert!(focus_words("What did Beethoven write on the card?").is_empty());
    assert!(focus_words("Who built the tower?").is_empty());
}

/// The sentence that sets the scene matches the question best, but the
/// one that names what it asks for (the salary) comes three sentences
/// later: it is quoted too, on its own, and nothing between is.
#[test]
fn a_quote_that_sets_the_scene_is_followed_by_the_one_naming_what_is_asked() {
    let c = chunk(
        "b.md#0",
        "An offer of the post of Kapellmeister by the King of Westphalia in 1809 \
         brought about a quarrel with his friends. Ries was the victim on that occasion. \
         Napoleon's brother ruled the new kingdom from Cassel. \
         The post carried with it a good salary however, six hundred ducats a year. \
         A comfortable maintenance was assured with time for composing.",
    );
    let q =
        "What salary came with the Kapellmeister post offered by the King of Westphalia in 1809?";
    let terms: Vec<(String, f32)> = words(q).into_iter().map(|w| (w, 1.0)).collect();
    let on = lexical(&[&c], q, &terms, &ExtractConfig::default());
    let quotes: Vec<&str> = on.snippets.iter().map(|s| s.content.as_str()).collect();
    assert!(quotes[0].starts_with("An offer of the post"), "{quotes:?}");
    assert!(
        quotes.contains(
            &"The post carried with it a good salary however, six hundred ducats a year."
        ),
        "{quotes:?}"
    );
    assert!(!quotes.iter().any(|q| q.contains("Ries")), "{quotes:?}");
    for s in &on.snippets {
        assert_at_span(&c, s);
    }
    let off = ExtractConfig {
        follow_focus: 0,
        ..ExtractConfig::default()
    };
    let quotes: Vec<String> = lexical(&[&c], q, &terms, &off)
        .snippets
        .into_iter()
        .map(|s| s.content)
        .collect();
    assert!(!quotes.iter().any(|q| q.contains("salary")), "{quotes:?}");
}

/// A quote opening on a sentence that leans on the one before it ("The
/// Germans called this effect…") takes that sentence in: quoted alone it
/// does not say what the effect is. A sentence that stands on its own is
/// quoted alone.
#[test]
fn a_quote_that_refers_back_takes_in_what_it_refers_to() {
    let text = "The tangent stayed on the string while the key was down. \
        By gently rocking the hand, a tremulous motion reached the string. \
        The Germans called this effect Bebung, and wrote it as dots under a slur. \
        Bebung was taught in every clavichord school of the period.";
    let a = chunk("a.md#0", text);
    let terms = vec![("bebung".to_string(), 3.0), ("germans".to_string(), 1.0)];
    let run = |question: &str| {
        lexical(
            &[&a],
            question,
            &terms,
            &ExtractConfig {
                per_chunk: 1,
                ..ExtractConfig::default()
            },
        )
    };
    let ex = run("What did the Germans call Bebung?");
    let s = &ex.snippets[0];
    assert!(
        s.content.starts_with("By gently rocking the hand"),
        "{:?}",
        s.content
    );
    assert_at_span(&a, s);
    // The summary quotes the sentence the quote was chosen for, with the
    // one it refers to.
    assert!(
        ex.summary.contains("By gently rocking") && ex.summary.contains("this effect Bebung"),
        "{}",
        ex.summary
    );
    // A heading before it is not what it refers to.
    let h = chunk(
        "h.md#0",
        "Playing the clavichord\n\nThe Germans called this effect Bebung, and wrote it as dots under a slur.",
    );
    let ex = lexical(
        &[&h],
        "What did the Germans call Bebung?",
        &terms,
        &ExtractConfig::default(),
    );
    assert!(
        ex.snippets[0].content.starts_with("The Germans"),
        "{:?}",
        ex.snippets
    );
    assert!(refers_back("It also furnishes one explanation."));
    assert!(refers_back(
        "To this it must be attributed that the sonatas…"
    ));
    assert!(!refers_back(
        "Bebung was taught in every clavichord school of the period."
    ));
    assert!(!refers_back("Das ist die Bebung."));
}

/// Overlapping chunks of one source hold the same sentences; a sentence
/// is quoted once. And a sentence that asks ("RQ1: How prevalent is…?")
/// does not come before the one that answers.
#[test]
fn one_sentence_is_quoted_once_and_questions_do_not_answer() {
    let shared = "RQ1: How prevalent is brittleness in microservice partitioning? \
        Brittleness in microservice partitioning is found in four of five tools.";
    let a = Chunk {
        source_id: "deeply.pdf".into(),
        ..chunk(
            "deeply.pdf#0",
            &format!("We study partitioning tools. {shared}"),
        )
    };
    let b = Chunk {
        source_id: "deeply.pdf".into(),
        ..chunk(
            "deeply.pdf#1",
            &format!("{shared} The rest is future work."),
        )
    };
    let terms = vec![
        ("brittleness".to_string(), 3.0),
        ("prevalent".to_string(), 2.0),
        ("microservice".to_string(), 1.0),
        ("partitioning".to_string(), 1.0),
    ];
    let ex = lexical(
        &[&a, &b],
        "How prevalent is brittleness in microservice partitioning?",
        &terms,
        &ExtractConfig {
            min_relative_score: 0.0,
            ..ExtractConfig::default()
        },
    );
    let mut seen = HashSet::new();
    for s in &ex.snippets {
        for r in sentences(&s.content) {
            assert!(seen.insert(s.content[r].to_string()), "{:#?}", ex.snippets);
        }
    }
    assert!(
        !ex.snippets[0].content.trim_end().ends_with('?'),
        "{:#?}",
        ex.snippets
    );
}

/// A quote that refers back does not take in a sentence another quote
/// already holds from an overlapping chunk of the same source.
#[test]
fn taking_in_what_a_quote_refers_to_does_not_quote_a_sentence_twice() {
    let first = "The keeper lit the great lamp at dusk.";
    let b = chunk("s.md#0", first);
    let a = chunk(
        "s.md#1",
        &format!("{first} This lamp burned whale oil every night of the year."),
    );
    let terms = vec![("keeper".to_string(), 3.0), ("lamp".to_string(), 1.0)];
    let ex = lexical(
        &[&b, &a],
        "keeper lamp",
        &terms,
        &ExtractConfig {
            min_relative_score: 0.0,
            ..ExtractConfig::default()
        },
    );
    let with_first = ex
        .snippets
        .iter()
        .filter(|s| s.content.contains(first))
        .count();
    assert_eq!(with_first, 1, "{:#?}", ex.snippets);
    assert!(
        ex.snippets
            .iter()
            .any(|s| s.content.starts_with("This lamp")),
        "{:#?}",
        ex.snippets
    );
}

/// A quote followed by a sentence that goes on about it ("To mitigate
/// this, we use…") takes that sentence in: the problem the quote states
/// is answered there. A sentence that stands on its own is not taken, nor
/// one that asks.
#[test]
fn a_quote_takes_in_the_sentence_that_goes_on_about_it() {
    let text = "Here, alpha is a reward coefficient for each action. \
        The query set may only include a subset of the groundtruth papers, so rewards \
        based solely on matching papers could be sparse during training. \
        To mitigate this, we use the Selector as an auxiliary reward model. \
        The Crawler is trained with session-level PPO.";
    let a = chunk("a.md#0", text);
    let terms = vec![
        ("sparse".to_string(), 3.0),
        ("rewards".to_string(), 2.0),
        ("training".to_string(), 1.0),
    ];
    let cfg = ExtractConfig {
        per_chunk: 1,
        max_snippets: 1,
        ..ExtractConfig::default()
    };
    let question = "How are rewards kept from being sparse during training?";
    let s = &lexical(&[&a], question, &terms, &cfg).snippets[0];
    assert!(
        s.content.starts_with("The query set") && s.content.ends_with("auxiliary reward model."),
        "{:?}",
        s.content
    );
    assert_at_span(&a, s);
    // Followed by a sentence on its own, or by a question, the quote stays.
    for next in [
        "The Crawler is trained with session-level PPO.",
        "Is this a problem for the Crawler?",
    ] {
        let b = chunk(
            "b.md#0",
            &format!(
                "The query set may only include a subset of the groundtruth papers, so rewards \
                 based solely on matching papers could be sparse during training. {next}"
            ),
        );
        let s = &lexical(&[&b], question, &terms, &cfg).snippets[0];
        assert!(s.content.ends_with("during training."), "{:?}", s.content);
    }
}

/// A sentence opening on a connective ("Finally the cook produced it")
/// goes on from the quote before it and is taken in after it; a quote
/// that opens on one ("However, …") does not take in the sentence before.
#[test]
fn a_connective_goes_on_after_a_quote_but_does_not_reach_back() {
    let text = "He moved to Döbling for the summer in 1821. \
        On arriving he missed the manuscript of the Kyrie, and the most diligent search failed to find it. \
        Finally the cook produced it; she had used the sheets for wrapping kitchen utensils. \
        The Mass was finished two years later.";
    let a = chunk("a.md#0", text);
    let terms = vec![("manuscript".to_string(), 3.0), ("kyrie".to_string(), 2.0)];
    // (Not the event rule: that one would tell on to the Mass.)
    let cfg = ExtractConfig {
        per_chunk: 1,
        max_snippets: 1,
        event_sentences: 0,
        ..ExtractConfig::default()
    };
    let s = &lexical(
        &[&a],
        "What happened to the manuscript of the Kyrie?",
        &terms,
        &cfg,
    )
    .snippets[0];
    assert!(
        s.content.starts_with("On arriving") && s.content.ends_with("kitchen utensils."),
        "{:?}",
        s.content
    );
    let b = chunk(
        "b.md#0",
        "The servants cared little for his papers. \
         However, the manuscript of the Kyrie was found by the cook in the kitchen.",
    );
    let s = &lexical(
        &[&b],
        "Who found the manuscript of the Kyrie?",
        &terms,
        &cfg,
    )
    .snippets[0];
    assert!(s.content.starts_with("However"), "{:?}", s.content);
    assert!(
        goes_on("However, the manuscript was found.")
            && !refers_back("However, the manuscript was found.")
    );
}

/// A caption or heading in capitals throughout is not quoted, however many
/// of the question's words it holds; the sentence that states is.
#[test]
fn a_line_in_capitals_is_not_quoted() {
    let a = chunk(
        "a.md#0",
        "MONUMENT OF BERNARDO PASQUINI IN THE CHURCH OF SAN LORENZO IN ROME\n\n\
         The manuscripts of Bernardo Pasquini are kept in the British Museum.",
    );
    let terms: Vec<(String, f32)> = ["pasquini", "bernardo", "manuscripts", "church", "rome"]
        .iter()
        .map(|t| (t.to_string(), 2.0))
        .collect();
    let ex = lexical(
        &[&a],
        "Where are the Bernardo Pasquini manuscripts kept?",
        &terms,
        &ExtractConfig::default(),
    );
    assert!(!ex.snippets.is_empty());
    for s in &ex.snippets {
        assert!(!s.content.starts_with("MONUMENT"), "{}", s.content);
        assert_at_span(&a, s);
    }
}

/// A document's record (reStructuredText's docinfo fields) is not quoted:
/// the paragraph that states the answer is, though the record holds the
/// question's words too.
#[test]
fn a_records_fields_are_not_quoted() {
    let a = chunk(
        "a.rst#0",
        ":Subject: Scottish lighthouse engineering on the Bell Rock\n:Period: 1799-1811\n\n\
         The Bell Rock lighthouse was built by Robert Stevenson between 1807 and 1810.",
    );
    let terms: Vec<(String, f32)> = ["bell", "rock", "lighthouse", "built", "scottish"]
        .iter()
        .map(|t| (t.to_string(), 2.0))
        .collect();
    let ex = lexical(
        &[&a],
        "Who built the Scottish Bell Rock lighthouse?",
        &terms,
        &ExtractConfig::default(),
    );
    assert!(!ex.snippets.is_empty());
    for s in &ex.snippets {
        assert!(
            !s.content.contains(":Subject:") && !s.content.contains(":Period:"),
            "{}",
            s.content
        );
        assert_at_span(&a, s);
    }
    assert!(super::not_prose(":Date: 1811") && super::not_prose(":Abstract:"));
    assert!(!super::not_prose("Note: the light") && !super::not_prose(": not a field"));
}

/// The answer's first lines are about what the question names: a quote
/// from a page about another subject that mentions it in passing ("As at
/// the Bell Rock, …" under Skerryvore) comes after the quotes from the
/// pages about it, however well it scores; none is left out.
#[test]
fn quotes_about_what_is_named_come_first() {
    let mut other = chunk(
        "skerryvore.rst#3",
        "As at the Bell Rock, the first task was to build a barrack on legs where the workmen building the lighthouse could live.",
    );
    other.source_title = "Skerryvore".into();
    other.location = "Design and Construction".into();
    let mut own = chunk(
        "bell-rock.rst#2",
        "Stevenson moored a light vessel near the reef and built the lighthouse course by course.",
    );
    own.source_title = "Robert Stevenson and the Bell Rock Light".into();
    own.location = "Building the Tower".into();
    let terms: Vec<(String, f32)> = ["bell", "rock", "built", "build", "lighthouse", "workmen"]
        .iter()
        .map(|t| (t.to_string(), 2.0))
        .collect();
    let cfg = ExtractConfig {
        min_relative_score: 0.0,
        ..ExtractConfig::default()
    };
    let ex = lexical(
        &[&other, &own],
        "Who built the Bell Rock lighthouse?",
        &terms,
        &cfg,
    );
    let ids: Vec<&str> = ex.snippets.iter().map(|s| s.source_id.as_str()).collect();
    assert_eq!(ids, [own.source_id.as_str(), other.source_id.as_str()]);
    assert!(
        ex.summary.find("Stevenson moored") < ex.summary.find("As at the Bell Rock"),
        "{}",
        ex.summary
    );
    // A question that names nothing keeps the quotes in score order.
    let ex = lexical(&[&other, &own], "Who built the lighthouse?", &terms, &cfg);
    assert_eq!(ex.snippets[0].source_id, other.source_id);
}

/// A question about an event is answered by the sentences after the
/// scene its words describe: the quote goes on to tell what they found,
/// four sentences on at most (the Beethoven anecdote tells it in the
/// fourth), not on to the rest of the story.
/// A question about the scene itself is quoted as before.
#[test]
fn a_quote_for_an_event_goes_on_to_tell_it() {
    let c = chunk(
        "b.md#0",
        "The poet and the doctor called at the composer's house one hot afternoon. \
         Their knocking met with no answer, though they heard the piano. \
         Finding the door open, they went in and searched the rooms. \
         At last they came upon him in a room at the back. \
         He was writing his ideas on the wall. \
         They left without a word. \
         Years later the wall was whitewashed by the landlord.",
    );
    let run = |q: &str| {
        let terms: Vec<(String, f32)> = words(q).into_iter().map(|w| (w, 1.0)).collect();
        let cfg = ExtractConfig {
            per_chunk: 1,
            ..ExtractConfig::default()
        };
        lexical(&[&c], q, &terms, &cfg)
    };
    let answer = run(
        "The poet and the doctor called at the composer's house one hot afternoon. What did they find him doing?",
    );
    // The answer's summary line tells the event too, not only the scene.
    assert!(
        answer.summary.contains("writing his ideas on the wall"),
        "{}",
        answer.summary
    );
    let event = answer.snippets;
    assert!(
        event[0].content.contains("writing his ideas on the wall"),
        "{:?}",
        event[0].content
    );
    assert!(
        !event[0].content.contains("whitewashed"),
        "{:?}",
        event[0].content
    );
    assert_at_span(&c, &event[0]);
    // Not onto a heading: the event is told in sentences.
    let h = chunk(
        "h.md#0",
        "The poet and the doctor called at the composer's house one hot afternoon. \
         They found him writing his ideas on the wall.\n\nCHAPTER XII\n\n\
         Next morning the landlord came.",
    );
    let terms: Vec<(String, f32)> = words("poet doctor called composer house hot afternoon")
        .into_iter()
        .map(|w| (w, 1.0))
        .collect();
    let q = "The poet and the doctor called at the composer's house one hot afternoon. What did they find him doing?";
    let cfg = ExtractConfig {
        per_chunk: 1,
        ..ExtractConfig::default()
    };
    let quote = &lexical(&[&h], q, &terms, &cfg).snippets[0].content;
    assert!(quote.ends_with("on the wall."), "{quote:?}");
    let scene =
        run("Which poet and doctor called at the composer's house one hot afternoon?").snippets;
    assert!(
        !scene[0].content.contains("writing his ideas"),
        "{:?}",
        scene[0].content
    );
}
