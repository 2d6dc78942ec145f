use super::names::capitalised_runs;
use super::*;

fn runs(q: &str) -> Vec<(String, bool)> {
    capitalised_runs(q)
        .into_iter()
        .map(|r| (r.words.join(" "), r.sentence_start))
        .collect()
}

#[test]
fn names_are_runs_of_capitalised_words() {
    let own = |v: &[(&str, bool)]| -> Vec<(String, bool)> {
        v.iter().map(|(s, b)| (s.to_string(), *b)).collect()
    };
    assert_eq!(
        runs("Who designed the Hook Head lighthouse in Ireland?"),
        own(&[("Hook Head", false), ("Ireland", false)])
    );
    // Possessives are stripped; punctuation and lower-case words end a run.
    assert_eq!(
        runs("Tell me Grace Darling’s story, Smeaton's too. Eddystone Winstanley"),
        own(&[
            ("Grace Darling", false),
            ("Smeaton", false),
            ("Eddystone Winstanley", true)
        ])
    );
    assert_eq!(
        runs("George R. Putnam"),
        own(&[("George R", true), ("Putnam", true)])
    );
    assert!(runs("what is a lens?").is_empty());
    // A number after a name is part of it and ends it.
    assert_eq!(
        runs("What did PEP 572 change in Python 3.8 for 2 users?"),
        own(&[("PEP 572", false), ("Python 3", false)])
    );
    // A possessive ends a name.
    assert_eq!(
        runs("in Kuhnau's 'Bible' Sonatas"),
        own(&[("Kuhnau", false), ("Bible Sonatas", false)])
    );
}

fn cand(id: &str, bm25: Option<(f32, usize)>, vector: Option<(f32, usize)>) -> Candidate {
    let mut c = blank(Chunk::for_test(id, "x"));
    c.bm25 = bm25.map(|b| b.0);
    c.bm25_rank = bm25.map(|b| b.1);
    c.vector = vector.map(|v| v.0);
    c.vector_rank = vector.map(|v| v.1);
    c
}

#[test]
fn a_passage_in_two_files_takes_one_place() {
    let c = |id: &str, text: &str| blank(Chunk::for_test(id, text));
    let mut cs = vec![
        c("paper.pdf#3", "Deep learning for defects."),
        c("notes.md#0", "Something else."),
        c("paper (1).pdf#3", "Deep learning for defects.\n"),
        c("paper.pdf#9", "Deep learning for defects."),
    ];
    fold_copies(&mut cs);
    let ids: Vec<&str> = cs.iter().map(|c| c.chunk.id.as_str()).collect();
    assert_eq!(ids, ["paper.pdf#3", "notes.md#0"]);
    // The copy in another file is named; the repeat in the same file is not.
    assert_eq!(cs[0].also_in, ["paper (1).pdf"]);
    assert!(cs[1].also_in.is_empty());
}

#[test]
fn convex_fusion_weighs_normalised_scores() {
    let cfg = RetrieveConfig {
        bm25_weight: 0.2,
        ..Default::default()
    };
    // A: best BM25, weak vector. B: no BM25 hit, best vector. C: middling both.
    let mut cs = vec![
        cand("a", Some((12.0, 1)), Some((0.30, 9))),
        cand("b", None, Some((0.70, 1))),
        cand("c", Some((6.0, 2)), Some((0.50, 2))),
    ];
    fuse(&mut cs, &cfg);
    let f: Vec<f32> = cs.iter().map(|c| c.fused).collect();
    assert!((f[0] - 0.2).abs() < 1e-6, "{f:?}");
    assert!((f[1] - 0.8).abs() < 1e-6, "{f:?}");
    assert!((f[2] - 0.4).abs() < 1e-6, "{f:?}");
    // Reciprocal-rank fusion ranks C, in both lists, above B.
    let rrf = RetrieveConfig {
        fusion: Fusion::Rrf,
        ..cfg
    };
    fuse(&mut cs, &rrf);
    assert!(cs[2].fused > cs[1].fused);
    assert!((cs[1].fused - 1.0 / 61.0).abs() < 1e-6);
    // One score, or equal scores, normalise to 1, never NaN.
    let mut one = vec![cand("a", Some((3.0, 1)), None)];
    fuse(&mut one, &cfg);
    assert!((one[0].fused - 0.2).abs() < 1e-6);
}

#[test]
fn normalization_strips_question_phrasing() {
    assert_eq!(
        normalize_query("What did John Smeaton use to make his mortar set under water?"),
        "john smeaton use make mortar set water"
    );
    assert_eq!(
        normalize_query("Tell me about Grace Darling’s rescue, please."),
        "grace darling rescue"
    );
    assert_eq!(normalize_query("Who? What? Why?"), "");
    assert_eq!(
        normalize_query("the 1838 Forfarshire wreck"),
        "1838 forfarshire wreck"
    );
}

#[test]
fn identifiers_and_what_spells_them_out() {
    use super::names::{is_identifier, shouted, spells_out};
    for w in ["SMOTE", "AlphaFold", "HR", "GPT4", "LeRaC", "Mono2Micro"] {
        assert!(is_identifier(w), "{w}");
    }
    for w in [
        "Moroccan",
        "Smeaton",
        "VIII",
        "II",
        "1991",
        "lens",
        "New",
        "MacDowell",
        "McCartney",
        "O'Brien",
        "DeMille",
    ] {
        assert!(!is_identifier(w), "{w}");
    }
    assert!(spells_out("drawn from the Human Resources records", "HR"));
    assert!(spells_out("a learning rate curriculum (ours)", "LeRaC"));
    assert!(spells_out("the Department of Energy said", "DOE"));
    assert!(spells_out(
        "Synthetic Minority Over-sampling TEchnique",
        "SMOT"
    ));
    assert!(!spells_out("minority classes were oversampled", "SMOTE"));
    // The initials must be consecutive words, small words aside.
    assert!(!spells_out("human error in the resource plan", "HR"));
    assert!(!spells_out("GPT4 and friends", "GPT4"));
    // A compound name is not an abbreviation.
    assert!(!spells_out("a large speech corpus", "LibriSpeech"));
    // Words of no content give no letter unless capitalised: any page has
    // "study shows that" somewhere.
    assert!(!spells_out("this study shows that it works", "SST"));
    assert!(!spells_out("the step size set to one", "SST"));
    assert!(spells_out("the Stanford Sentiment Treebank", "SST"));
    assert!(spells_out("on The Hague Tribunal", "THT"));
    assert!(!is_identifier("Kuhnau Bible Sonatas"));
    assert!(super::names::is_reference("PEP 572"));
    assert!(!super::names::is_reference("572"));
    assert!(!super::names::is_reference("Hook Head"));
    assert!(shouted("WHO BUILT THE EDDYSTONE LIGHT?"));
    assert!(!shouted("How does SMOTE pick its neighbours?"));
}

/// A name is the whole run of capitalised words: one word the sources never
/// use makes the run unknown ("Kneisel Quartet", though quartets abound);
/// known words that never stand together make it unknown too ("Hook
/// Head"); a known word that begins the question is not part of it.
#[test]
fn unknown_names_are_whole_runs() {
    let work = tempfile::tempdir().unwrap();
    let (src, idx) = (work.path().join("src"), work.path().join("idx"));
    std::fs::create_dir(&src).unwrap();
    std::fs::write(
        src.join("a.md"),
        "The Boston Quartet played at the Hook of the bay. Its head \
         violinist came from Wexford. The Human Resource office kept the \
         records.\n",
    )
    .unwrap();
    let index = index_folder(&src, &idx);
    let names = |q: &str| super::names::unknown_names(&index, q);
    assert_eq!(names("Who led the Kneisel Quartet?"), ["Kneisel Quartet"]);
    assert_eq!(names("Who built Hook Head?"), ["Hook Head"]);
    assert!(names("Who led the Boston Quartet from Wexford?").is_empty());
    assert_eq!(names("Boston Kneisel players?"), ["Kneisel"]);
    assert_eq!(names("Kneisel Quartet players?"), ["Kneisel Quartet"]);
    // An identifier inside an unknown name, and a reference, are unknown
    // identifiers; a shouted question has none.
    let lacking = |q: &str| {
        let r = retrieve(&index, None, q, &RetrieveConfig::default()).unwrap();
        (r.unknown_identifiers, r.unseen_identifiers)
    };
    assert_eq!(
        lacking("How does the SMOTE Algorithm pick neighbours in Wexford?").0,
        ["SMOTE"]
    );
    assert_eq!(
        lacking("What does PEP 572 say about Wexford?").0,
        ["PEP 572"]
    );
    assert!(
        lacking("HOW DOES SMOTE PICK NEIGHBOURS IN WEXFORD?")
            .0
            .is_empty()
    );
    // The absent share counts only the names' words no source uses: none
    // for two known words never written together, all of a name no source
    // writes, the unknown word alone of a run with a known one.
    let shares = |q: &str| {
        let r = retrieve(&index, None, q, &RetrieveConfig::default()).unwrap();
        (r.unknown_name_share, r.absent_name_share)
    };
    let (named, absent) = shares("Who built Hook Head?");
    assert!(named > 0.0 && absent == 0.0, "{named} {absent}");
    let (named, absent) = shares("Who led Kneisel?");
    assert!(
        absent > 0.0 && (named - absent).abs() < 1e-6,
        "{named} {absent}"
    );
    let (named, absent) = shares("Who led the Kneisel Quartet?");
    assert!(absent > 0.0 && absent < named, "{named} {absent}");
}

#[test]
fn identifiers_and_the_passages_that_name_them() {
    use super::names::identifiers;
    assert_eq!(
        identifiers("What AUROC did GHOST's LLM-driven G-1145 form give the US and AI?"),
        ["AUROC", "GHOST", "LLM-driven", "G-1145"]
    );
    let work = tempfile::tempdir().unwrap();
    let (src, idx) = (work.path().join("src"), work.path().join("idx"));
    std::fs::create_dir(&src).unwrap();
    std::fs::write(src.join("a.md"), "Nothing at all.\n").unwrap();
    let index = index_folder(&src, &idx);
    let names = |text: &str, w: &str| {
        let terms: HashSet<String> = index.analyze(text).into_iter().collect();
        super::names::passage_names(&index, &terms, text, w)
    };
    assert!(names("an LLM agent searched", "LLM-driven"));
    assert!(names("the auroc was 0.91", "AUROC"));
    assert!(names("Form G-1145 (e-Notification)", "G-1145"));
    assert!(names("records of Human Resources", "HR"));
    assert!(!names("accuracy was 0.91", "AUROC"));
    assert!(!names("Form G-28", "G-1145"));
}

proptest::proptest! {
    #![proptest_config(crate::cases(256))]

    /// Any question and any passage: reading names, or whether the
    /// question is about the asker, never panics, and an identifier found in
    /// a question is a word of it.
    #[test]
    fn names_of_any_text(q in "\\PC{0,80}", t in "\\PC{0,200}") {
        let _ = capitalised_runs(&q);
        let _ = super::names::shouted(&q);
        let _ = super::advice::asks_advice(&q);
        for w in super::names::identifiers(&q) {
            proptest::prop_assert!(q.contains(w));
            let _ = super::names::spells_out(&t, w);
        }
    }

    /// Words whose initials are an abbreviation's capitals, with small
    /// words and hyphenated parts between them, spell it out wherever they
    /// stand in a passage.
    #[test]
    fn initials_spell_out_their_abbreviation(
        letters in "[A-Z]{2,6}",
        tails in proptest::collection::vec("[a-z]{0,8}", 6),
        small in proptest::collection::vec(proptest::option::of("(of|and|the)"), 6),
        hyphen in proptest::collection::vec(proptest::option::of("[a-z]{1,6}"), 6),
        before in "[a-z ]{0,30}",
        after in "[a-z ]{0,30}",
    ) {
        let mut words = Vec::new();
        for (i, c) in letters.chars().enumerate() {
            let mut w = format!("{}{}", c.to_ascii_lowercase(), tails[i]);
            // A word of no content ("the", "a") gives its letter only
            // capitalised, as in a name.
            if super::FILLER.contains(&w.as_str()) {
                w = format!("{c}{}", tails[i]);
            }
            if let Some(h) = &hyphen[i] {
                w = format!("{w}-{h}");
            }
            words.push(w);
            if let Some(s) = &small[i] && i + 1 < letters.len() {
                words.push(s.clone());
            }
        }
        let text = format!("{before}. {} .{after}", words.join(" "));
        proptest::prop_assert!(super::names::spells_out(&text, &letters), "{text}");
    }
}

/// A question asking what something cost goes without an answer when the
/// passages about it state no sum, or state one only about something else
/// (a copyright notice's "$15.00" beside a DOI holding the question's
/// number); a passage stating the sum beside what was bought answers it.
#[test]
fn a_sum_asked_for_is_stated_beside_what_was_bought_or_goes_without() {
    let work = tempfile::tempdir().unwrap();
    let (src, idx) = (work.path().join("src"), work.path().join("idx"));
    std::fs::create_dir(&src).unwrap();
    let write = |name: &str, text: &str| std::fs::write(src.join(name), text).unwrap();
    write(
        "coble.md",
        "William Darling bought a coble for the rescue work. The coble was \
         built of larch at North Sunderland.\n",
    );
    write(
        "notice.md",
        "Permission to copy is granted. ACM ISBN 978-1-4503. . . $15.00 \
         https://doi.org/10.1145/3468264.\n",
    );
    let unstated = |q: &str| {
        let index = index_folder(&src, &idx);
        retrieve(&index, None, q, &RetrieveConfig::default())
            .unwrap()
            .unstated_amount
    };
    let asked = "What did William Darling pay for the coble in 1145?";
    assert!(unstated(asked));
    // Questions that ask for no sum are never held to one.
    assert!(!unstated("What was the coble built of?"));
    write(
        "price.md",
        "For the coble William Darling paid fourteen pounds to the builder.\n",
    );
    assert!(!unstated(asked));
}

/// An organisation named as the maker of the work ("the ByteDance team",
/// "ByteDance's agent") is seen when the source of a kept passage names it
/// anywhere (its front matter, once); named otherwise, it must be in a kept
/// passage.
#[test]
fn a_maker_named_in_the_front_matter_is_seen() {
    let work = tempfile::tempdir().unwrap();
    let (src, idx) = (work.path().join("src"), work.path().join("idx"));
    std::fs::create_dir(&src).unwrap();
    let filler = "Tables and figures follow the usual layout of the venue. ".repeat(60);
    std::fs::write(
        src.join("paper.md"),
        format!(
            "PaSa, a paper search agent. Written at ByteDance Research.\n\n{filler}\n\n\
             The crawler agent was first trained by imitation on crawler \
             sessions, then the crawler agent was trained further with \
             reinforcement learning.\n"
        ),
    )
    .unwrap();
    let index = index_folder(&src, &idx);
    let cfg = RetrieveConfig {
        top_k: 1,
        ..Default::default()
    };
    let unseen = |q: &str| retrieve(&index, None, q, &cfg).unwrap().unseen_identifiers;
    for q in [
        "How was the ByteDance team's crawler agent trained first, by imitation?",
        "How was ByteDance's crawler agent trained first, by imitation?",
    ] {
        assert!(unseen(q).is_empty(), "{q}");
    }
    assert_eq!(
        unseen("How was the crawler agent of ByteDance trained first, by imitation?"),
        vec!["ByteDance".to_string()]
    );
    // A PDF's affiliation mark glued to the name ("bByteDance Research")
    // still names it.
    let text = std::fs::read_to_string(src.join("paper.md")).unwrap();
    std::fs::write(
        src.join("paper.md"),
        text.replace("at ByteDance", "at bByteDance"),
    )
    .unwrap();
    let index = index_folder(&src, &idx);
    let q = "How was the ByteDance team's crawler agent trained first, by imitation?";
    assert!(
        retrieve(&index, None, q, &cfg)
            .unwrap()
            .unseen_identifiers
            .is_empty()
    );
}

/// A name with a number ("SST-2") is unknown when its word is, though the
/// sources use the number; and no passage spells it out by chance ("study
/// shows that").
#[test]
fn a_numbered_name_the_sources_lack_is_unknown() {
    let work = tempfile::tempdir().unwrap();
    let (src, idx) = (work.path().join("src"), work.path().join("idx"));
    std::fs::create_dir(&src).unwrap();
    std::fs::write(
        src.join("paper.md"),
        "LeRaC reaches 2 points more on CIFAR-10. This study shows that the \
         curriculum helps on every image data set we tried.\n",
    )
    .unwrap();
    let index = index_folder(&src, &idx);
    let r = retrieve(
        &index,
        None,
        "What accuracy did LeRaC reach on SST-2 with the curriculum?",
        &RetrieveConfig::default(),
    )
    .unwrap();
    assert_eq!(r.unknown_names, vec!["SST-2".to_string()]);
    assert_eq!(r.unknown_identifiers, vec!["SST-2".to_string()]);
    let known = retrieve(
        &index,
        None,
        "How many points more does LeRaC reach on CIFAR-10?",
        &RetrieveConfig::default(),
    )
    .unwrap();
    assert!(known.unknown_names.is_empty(), "{:?}", known.unknown_names);
}

/// Index the folder `src` into `idx` (only its files) and open the index.
fn index_folder(src: &std::path::Path, idx: &std::path::Path) -> Index {
    let opts = crate::index::UpdateOptions {
        replace_other_sources: true,
        ..Default::default()
    };
    crate::index::update(src, idx, &opts, None, &mut |_| {}).unwrap();
    Index::open(idx).unwrap()
}

/// Who made the work is named possessively or before a maker noun; a
/// model's or a version's possessive is what is asked about.
#[test]
fn makers_are_possessive_organisations_or_come_before_a_team() {
    use super::names::as_maker;
    assert!(as_maker(
        "What did the ByteDance team train first?",
        "ByteDance"
    ));
    assert!(as_maker("How do IBM's tool's users split services?", "IBM"));
    assert!(as_maker("Which IBM researchers wrote it?", "IBM"));
    assert!(!as_maker("How accurate is GPT4's answer?", "GPT4"));
    // The rest of the maker's name between.
    assert!(as_maker("What do the BITS Pilani authors call it?", "BITS"));
    assert!(as_maker(
        "What did the IBM Research group's tool do?",
        "IBM"
    ));
    assert!(!as_maker("What do the BITS Pilani results show?", "BITS"));
    assert!(!as_maker(
        "How was the crawler of ByteDance trained?",
        "ByteDance"
    ));
}

use proptest::strategy::Strategy as _;

/// The built-in model, with its token sums hidden: window scoring takes
/// the path every other embedder takes, embedding each window's text.
struct NoSums(&'static crate::embed::BuiltinEmbedder);

impl Embedder for NoSums {
    fn id(&self) -> &str {
        self.0.id()
    }
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        self.0.embed(texts)
    }
}

proptest::proptest! {
    #![proptest_config(crate::cases(32))]
    /// Scoring a pair of sentences by the sum of their token sums gives
    /// each passage the best window the pair's own text would: the two
    /// paths agree, passage by passage, for any passages.
    #[test]
    fn window_scores_by_token_sums_match_embedding_each_window(
        texts in proptest::collection::vec(
            proptest::collection::vec(proptest::sample::select(vec![
                "The keeper", "lit the lamp", "in 1759.", "Smeaton’s", "mortar", "set.",
                "Why?", "灯台", "naïve", "\n\n", "It was", "J. Smeaton", "e.g. this",
                "(see Fig. 2).", "“Quoted.”", "3.5%", "x",
            ]), 0..30).prop_map(|ws| ws.join(" ")),
            1..5,
        ),
        question in "[a-z ]{1,30}",
    ) {
        static M: std::sync::OnceLock<crate::embed::BuiltinEmbedder> = std::sync::OnceLock::new();
        let m = M.get_or_init(|| crate::embed::BuiltinEmbedder::load_default().unwrap());
        let qv = m.embed_one(&question);
        let fresh = || -> Vec<Candidate> {
            texts
                .iter()
                .enumerate()
                .map(|(i, t)| blank(Chunk::for_test(&format!("s{i}.md#0"), t)))
                .collect()
        };
        let (mut sums, mut each) = (fresh(), fresh());
        window_scores(&mut sums, m, &qv).unwrap();
        window_scores(&mut each, &NoSums(m), &qv).unwrap();
        for (a, b) in sums.iter().zip(&each) {
            match (a.window, b.window) {
                (Some(x), Some(y)) => proptest::prop_assert!((x - y).abs() < 1e-5, "{x} vs {y}"),
                (x, y) => proptest::prop_assert_eq!(x, y),
            }
        }
    }
}
