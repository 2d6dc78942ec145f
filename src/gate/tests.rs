use super::*;

fn cand(coverage: f32) -> Evidence {
    Evidence {
        coverage,
        vector: Some(0.9),
    }
}

#[test]
fn retrieval_tier_reasons() {
    let cfg = GateConfig {
        min_top_score: 0.5,
        clear_winner_ratio: 1.2,
        vector_weight: 0.0,
        unknown_penalty: 0.0,
        ..Default::default()
    };
    let gate = |kept: &[Evidence], terms: usize, cfg: &GateConfig| {
        let input = GateInput {
            kept,
            query_terms: terms,
            ..GateInput::default()
        };
        retrieval_gate(&input, cfg)
    };
    let d = gate(&[], 2, &cfg);
    assert_eq!(
        (d.decision, d.reason),
        (Decision::Refuse, Reason::NoChunksRetrieved)
    );
    assert_eq!(gate(&[cand(1.0)], 0, &cfg).reason, Reason::EmptyQuery);
    let d = gate(&[cand(0.3), cand(0.1)], 2, &cfg);
    assert_eq!(d.reason, Reason::TopScoreTooLow);
    assert_eq!(d.numbers["top_score"], 0.3);
    assert_eq!(d.numbers["min_top_score"], 0.5);
    let d = gate(&[cand(0.8), cand(0.75)], 2, &cfg);
    assert_eq!(d.reason, Reason::NoClearWinner);
    let d = gate(&[cand(0.9), cand(0.5)], 2, &cfg);
    assert_eq!((d.decision, d.tier), (Decision::Pass, Tier::Retrieval));
    // The coverage of the passage with the best evidence, for confidence
    // (not the best coverage of any passage).
    let vec_cfg = GateConfig {
        vector_weight: 0.75,
        ..cfg
    };
    let strong = Evidence {
        coverage: 0.4,
        vector: Some(0.95),
    };
    let wordy = Evidence {
        coverage: 0.9,
        vector: Some(0.1),
    };
    let d = gate(&[wordy, strong], 2, &vec_cfg);
    assert_eq!(d.numbers["top_coverage"], 0.4);

    // A name the sources never mention refuses, and says which.
    let names = vec!["Japan".to_string()];
    let input = GateInput {
        kept: &[cand(0.9)],
        query_terms: 2,
        unknown_names: &names,
        unknown_name_share: 0.4,
        unknown_share: 0.4,
        ..GateInput::default()
    };
    let d = retrieval_gate(&input, &cfg);
    assert_eq!(d.reason, Reason::UnknownNames);
    assert!(d.message.ends_with("Japan"), "{}", d.message);
    // ...but not when the name is a small part of the question: then the
    // evidence decides.
    let passing = GateInput {
        unknown_name_share: 0.1,
        ..input
    };
    let d = retrieval_gate(&passing, &cfg);
    assert_eq!(d.reason, Reason::Passed);
    assert_eq!(d.numbers["unknown_name_share"], 0.1);
    assert_eq!(d.numbers["unknown_names_min_share"], 0.25);
    // A name with a word no source uses ("Peri's Dafne") refuses at a
    // smaller share than a phrase the sources never write whole ("Bishop
    // Elfeg"), but not when it is a small part of the question either.
    let absent = GateInput {
        unknown_name_share: 0.18,
        absent_name_share: 0.18,
        ..passing
    };
    assert_eq!(retrieval_gate(&absent, &cfg).reason, Reason::UnknownNames);
    let phrase = GateInput {
        absent_name_share: 0.0,
        ..absent
    };
    assert_eq!(retrieval_gate(&phrase, &cfg).reason, Reason::Passed);
    let small = GateInput {
        unknown_name_share: 0.1,
        absent_name_share: 0.1,
        ..absent
    };
    assert_eq!(retrieval_gate(&small, &cfg).reason, Reason::Passed);
    assert_eq!(d.numbers["absent_names_min_share"], 0.15);
    // An identifier the sources never use refuses whatever its share
    // ("In SMOTE, how many nearest neighbours…"), unless turned off.
    let ids = vec!["SMOTE".to_string()];
    let identifier = GateInput {
        unknown_identifiers: &ids,
        ..passing
    };
    let d = retrieval_gate(&identifier, &cfg);
    assert_eq!(d.reason, Reason::UnknownNames);
    assert_eq!(d.numbers["unknown_identifiers"], 1.0);
    let off = GateConfig {
        refuse_unknown_identifiers: false,
        ..cfg
    };
    assert_eq!(retrieval_gate(&identifier, &off).reason, Reason::Passed);
    // An identifier the sources use but no kept passage names refuses
    // in the retrieval tier, and says which.
    let auroc = vec!["AUROC".to_string()];
    let unseen = GateInput {
        unseen_identifiers: &auroc,
        ..passing
    };
    let d = retrieval_gate(&unseen, &cfg);
    assert_eq!(d.reason, Reason::UnseenIdentifiers);
    assert!(d.message.ends_with("AUROC"), "{}", d.message);
    let off = GateConfig {
        refuse_unseen_identifiers: false,
        ..cfg
    };
    assert_eq!(retrieval_gate(&unseen, &off).reason, Reason::Passed);
    // A question asking for a sum no kept passage states refuses in the
    // retrieval tier, however strong the evidence, unless turned off.
    let unstated = GateInput {
        unstated_amount: true,
        ..passing
    };
    let d = retrieval_gate(&unstated, &cfg);
    assert_eq!(d.reason, Reason::UnstatedAmount);
    assert_eq!(d.numbers["unstated_amount"], 1.0);
    let off = GateConfig {
        refuse_unstated_amount: false,
        ..cfg
    };
    assert_eq!(retrieval_gate(&unstated, &off).reason, Reason::Passed);
    // A question that asks for advice needs a closer
    // match than others: a top score between 0.3 and 0.55 answers a neutral
    // question and refuses one asking advice; a passage holding 0.9 of the
    // question's terms answers either.
    let pcfg = GateConfig {
        min_top_score: 0.3,
        advice_min_score: 0.55,
        ..cfg
    };
    let advice = GateInput {
        asks_advice: true,
        ..passing
    };
    assert_eq!(retrieval_gate(&advice, &pcfg).reason, Reason::Passed);
    let loose = [Evidence {
        coverage: 0.3,
        vector: Some(0.6),
    }];
    let advice_loose = GateInput {
        kept: &loose,
        ..advice
    };
    let d = retrieval_gate(&advice_loose, &pcfg);
    assert_eq!(d.reason, Reason::AdviceQuestion);
    assert_eq!(d.numbers["asks_advice"], 1.0);
    let top = d.numbers["top_score"];
    assert!((0.3..0.55).contains(&top), "{top}");
    let neutral = GateInput {
        asks_advice: false,
        ..advice_loose
    };
    assert_eq!(retrieval_gate(&neutral, &pcfg).reason, Reason::Passed);
    let off = GateConfig {
        advice_min_score: 0.0,
        ..pcfg
    };
    assert_eq!(retrieval_gate(&advice_loose, &off).reason, Reason::Passed);
    // The unknown share lowers the top score by the penalty.
    let cfg2 = GateConfig {
        unknown_penalty: 1.0,
        refuse_unknown_names: false,
        ..cfg
    };
    let input = GateInput {
        kept: &[cand(0.9)],
        query_terms: 2,
        unknown_names: &names,
        unknown_name_share: 0.5,
        unknown_share: 0.5,
        ..GateInput::default()
    };
    let d = retrieval_gate(&input, &cfg2);
    assert_eq!(d.reason, Reason::TopScoreTooLow);
    assert_eq!(d.numbers["top_score"], 0.4);
}

#[test]
fn vector_weight_blends_evidence() {
    let cfg = GateConfig {
        vector_weight: 0.5,
        ..Default::default()
    };
    assert!((cand(0.2).score(&cfg) - 0.55).abs() < 1e-6);
}

#[test]
fn reranked_tier_needs_a_chunk_that_answers() {
    let cfg = GateConfig::default();
    let input = GateInput {
        kept: &[],
        query_terms: 3,
        ..GateInput::default()
    };
    // "2 = relevant, but does not directly answer" is not an answer.
    assert_eq!(
        reranked_gate(&[2, 1, 0], &input, &cfg).reason,
        Reason::NoChunkAboveThreshold
    );
    let d = reranked_gate(&[3, 1], &input, &cfg);
    assert_eq!((d.decision, d.tier), (Decision::Pass, Tier::Reranked));
    // A question about a name the sources never mention is refused
    // whatever the model scored, as the retrieval tier refuses it.
    let names = vec!["Japan".to_string()];
    let japan = GateInput {
        unknown_names: &names,
        unknown_identifiers: &[],
        unseen_identifiers: &[],
        unstated_amount: false,
        asks_advice: false,
        unknown_name_share: 0.5,
        ..input
    };
    let d = reranked_gate(&[3, 3], &japan, &cfg);
    assert_eq!((d.reason, d.tier), (Reason::UnknownNames, Tier::Reranked));
    assert!(d.message.ends_with("Japan"), "{}", d.message);
    let empty = GateInput {
        query_terms: 0,
        ..input
    };
    assert_eq!(reranked_gate(&[3], &empty, &cfg).reason, Reason::EmptyQuery);
}

/// Issue 15: the gate says what it found or missed in words, with the
/// one number that decided it; no parameter names, no negative zero.
#[test]
fn decisions_in_words() {
    let nums = |t: f64| BTreeMap::from([("top_score".into(), t), ("min_top_score".into(), 0.3)]);
    let pass = GateDecision::new(Decision::Pass, Tier::Retrieval, Reason::Passed, nums(0.65));
    assert_eq!(
        pass.in_words(&[], 3),
        "strong match in 3 sources (evidence 0.65, needs 0.30)"
    );
    let names = GateDecision::new(
        Decision::Refuse,
        Tier::Retrieval,
        Reason::UnknownNames,
        nums(-0.0),
    );
    assert_eq!(
        names.in_words(&["Japan".into()], 1),
        "nothing in your sources mentions Japan"
    );
    let low = GateDecision::new(
        Decision::Refuse,
        Tier::Retrieval,
        Reason::TopScoreTooLow,
        nums(0.05),
    );
    assert!(low.in_words(&[], 1).contains("evidence 0.05, needs 0.30"));
    let mut personal_numbers = nums(0.42);
    personal_numbers.insert("advice_min_score".into(), 0.55);
    let personal = GateDecision::new(
        Decision::Refuse,
        Tier::Retrieval,
        Reason::AdviceQuestion,
        personal_numbers,
    );
    assert_eq!(
        personal.in_words(&[], 1),
        "the question asks for advice, and no passage matches it closely \
         (evidence 0.42, needs 0.55)"
    );
    let auroc = vec!["AUROC".to_string()];
    let unseen = retrieval_gate(
        &GateInput {
            kept: &[Evidence {
                coverage: 0.9,
                vector: None,
            }],
            query_terms: 2,
            unseen_identifiers: &auroc,
            ..GateInput::default()
        },
        &GateConfig::default(),
    );
    assert_eq!(
        unseen.in_words(&[], 1),
        "no passage found names what the question asks about: AUROC"
    );
}
