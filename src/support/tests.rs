use super::*;

/// The extractive engine's summary lines are attributed quotations; the
/// board showed "contradicted: the claim says 1852, the quote says 1871"
/// for one, because the attribution named a heading with dates.
#[test]
fn a_verbatim_quotation_asserts_nothing_beyond_its_source() {
    let q = "Within a decade almost every American light had been refitted with a Fresnel lens.";
    let claim = format!(
        "From the Lighthouse Board to the Coast Guard, The Lighthouse Board, 1852–1910 › Reform: “{q}”"
    );
    assert_eq!(assertion(&claim, q), "");
    // An attribution with an abbreviation in it ("p. 1") goes whole.
    let ins = "The inscription is one of the very few ancient records of a lighthouse architect.";
    assert_eq!(
        assertion(
            &format!(
                "The Tower of Hercules at A Coruna, p. 1 · The architect's inscription: “{ins}”"
            ),
            ins
        ),
        ""
    );
    // So does one with a section number ("II.") in its heading.
    assert_eq!(
        assertion(
            &format!("Attrition, p. 2 · II. LITERATURE REVIEW: “{ins}”"),
            ins
        ),
        ""
    );
    // A sentence before the attribution stays the claim's.
    assert_eq!(
        assertion(
            &format!("It was rebuilt in 1791. The Tower, p. 1 · Origins: “{ins}”"),
            ins
        ),
        "It was rebuilt in 1791."
    );
    // Commentary around a quotation is still the claim's own.
    assert_eq!(
        assertion(
            "In 1899 the Board said \"almost every American light had been refitted\".",
            q
        ),
        "In 1899 the Board said ."
    );
    // A quotation that is not the source's words stays in.
    let bent = "In 1899 the Board said “every light was refitted”.";
    assert_eq!(assertion(bent, q), bent);
}

fn label(claim: &str, quote: &str) -> Support {
    judge(claim, quote, None, &SupportConfig::default()).label
}

const PEP: &str = "In 3.7 we will transform them to proper keywords.";

#[test]
fn the_issues_three_claims() {
    // Supported (the quote does not name Python: partial at most).
    assert!(!label("They become proper keywords in Python 3.7.", PEP).unsupported());
    let j = judge(
        "They become proper keywords in Python 3.5.",
        PEP,
        None,
        &SupportConfig::default(),
    );
    assert_eq!(j.label, Support::Contradicts);
    assert!(
        j.reason.contains("3.5") && j.reason.contains("3.7"),
        "{}",
        j.reason
    );
    assert_eq!(
        label(
            "The global interpreter lock was removed from CPython in 1996.",
            PEP
        ),
        Support::Irrelevant
    );
}

#[test]
fn a3_two_claims_disagree_on_a_date() {
    assert!(
        inconsistent(
            "Fresnel was born in 1788.",
            "Fresnel was born in 1789 in Broglie."
        )
        .is_some()
    );
    assert!(inconsistent("Fresnel was born in 1788.", "The lens was shown in 1822.").is_none());
    assert!(inconsistent("Fresnel was born in 1788.", "Fresnel was born in Normandy.").is_none());
    // A figure's or a cited work's number is no value.
    assert!(
        inconsistent(
            "Work by Wellawatte et al. 9 presents a generator of local chemical spaces.",
            "Figure 3 illustrates the generated local chemical space."
        )
        .is_none()
    );
    assert!(
        inconsistent(
            "The local chemical space has 500 molecules [12].",
            "The local chemical space has 300 molecules."
        )
        .is_some()
    );
}

#[test]
fn dates_negations_directions_and_names() {
    let q = "Augustin Fresnel was born in 1788 in Broglie, Normandy.";
    assert_eq!(label("Fresnel was born in 1789.", q), Support::Contradicts);
    assert_eq!(
        label("Fresnel was born in 1788 in Normandy.", q),
        Support::Entails
    );
    let q = "The keeper was paid for his years on the rock.";
    assert_eq!(
        label("The keeper was never paid for his years on the rock.", q),
        Support::Contradicts
    );
    let q = "The new lamp made the light brighter and increased its range.";
    assert_eq!(
        label("The new lamp decreased the light's range.", q),
        Support::Contradicts
    );
    let q = "Haydn gave the sonata form its classical balance.";
    assert_eq!(
        label("Mozart gave the sonata form its classical balance.", q),
        Support::Contradicts
    );
    assert_eq!(
        label(
            "Haydn gave the sonata form its balance and invented the symphony in 1750.",
            q
        ),
        Support::Partial
    );
}

fn why(claim: &str, quote: &str) -> Judgement {
    judge(claim, quote, None, &SupportConfig::default())
}

#[test]
fn a_negation_counts_only_for_the_words_it_governs() {
    // The quote's negation is about something the claim does not say.
    let q = "The flute, which needs no description, is agile and blends well.";
    assert_eq!(
        label("The flute is agile and blends well.", q),
        Support::Entails
    );
    // "not only", "no doubt" negate nothing.
    let q = "The keeper was no doubt paid for his years on the rock.";
    assert_eq!(
        label("The keeper was paid for his years on the rock.", q),
        Support::Entails
    );
    // A negated list runs on to its "or".
    let q = "Keepers had no pensions; their families were not permitted to keep the cottage.";
    assert!(
        !label(
            "Keepers served without pay, leave, or a cottage for their families, and had no pensions.",
            q
        )
        .unsupported()
    );
    // The quote negates what the claim states: the evidence names both.
    let q = "Her deafness was not total, and she heard the applause.";
    let j = why("By then she was totally deaf.", q);
    assert_eq!(j.label, Support::Contradicts);
    assert!(
        j.reason.contains("not total") && j.reason.contains("totally"),
        "{}",
        j.reason
    );
    // A verb that negates its clause.
    let q = "The sailors were denied shore leave that winter.";
    assert_eq!(
        label("The sailors were given shore leave that winter.", q),
        Support::Contradicts
    );
    assert_eq!(
        label("Shore leave was refused to the sailors that winter.", q),
        Support::Entails
    );
}

#[test]
fn rather_than_and_negative_prefixes() {
    let q = "At the festival the prize was awarded to the poet.";
    let j = why(
        "At the festival the prize was awarded to the actor rather than the poet.",
        q,
    );
    assert_eq!(j.label, Support::Contradicts);
    assert!(j.reason.contains("rather than the poet"), "{}", j.reason);
    assert_ne!(
        label(
            "At the festival the prize was awarded to the poet rather than the actor.",
            q
        ),
        Support::Contradicts
    );
    let q = "First, we train an accurate but uninterpretable model.";
    assert_eq!(
        label("First, we train an accurate interpretable model.", q),
        Support::Contradicts
    );
    assert_ne!(
        label(
            "First, we train an accurate model that is not interpretable.",
            q
        ),
        Support::Contradicts
    );
}

#[test]
fn a_relation_the_other_way_round() {
    let q = "The lens was installed before the old lamp was replaced.";
    let j = why(
        "The old lamp was replaced before the lens was installed.",
        q,
    );
    assert_eq!(j.label, Support::Contradicts);
    assert!(j.reason.contains("other way round"), "{}", j.reason);
    assert_eq!(
        label(
            "The lens was installed before the old lamp was replaced.",
            q
        ),
        Support::Entails
    );
    let q = "The new engine gives an increase in speed of three times over the Mark I engine.";
    assert_eq!(
        label(
            "The Mark I engine is three times faster than the new engine.",
            q
        ),
        Support::Contradicts
    );
    assert_ne!(
        label(
            "The new engine is three times faster than the Mark I engine.",
            q
        ),
        Support::Contradicts
    );
}

#[test]
fn a_different_count_of_the_same_thing() {
    let q = "The horn sounds an octave lower than written.";
    let j = why("The horn sounds two octaves lower than written.", q);
    assert_eq!(j.label, Support::Contradicts);
    assert!(
        j.reason.contains("two octaves") && j.reason.contains("an octave"),
        "{}",
        j.reason
    );
    // "the one hand" counts nothing.
    let q = "On the one hand, the traces stay below threshold.";
    assert_ne!(
        label("In model 2 the traces stay below threshold.", q),
        Support::Contradicts
    );
}

#[test]
fn a_name_in_another_names_place() {
    let q = "The first lens was ground in Paris by Fresnel's workmen.";
    let j = why(
        "The first lens was ground in London by Fresnel's workmen.",
        q,
    );
    assert_eq!(j.label, Support::Contradicts);
    assert!(
        j.reason.contains("London") && j.reason.contains("Paris"),
        "{}",
        j.reason
    );
    // Another word between the same two words.
    let q = "He called Beethoven's choral symphony a turning-point.";
    assert_eq!(
        label(
            "He called Beethoven's Pastoral symphony a turning-point.",
            q
        ),
        Support::Contradicts
    );
    // One letter's difference is the same name; so is a name run together
    // with the one the claim gives.
    let q = "The armies reached the gates of Budapesth in 1400.";
    assert_eq!(
        label("The armies reached the gates of Budapest in 1400.", q),
        Support::Entails
    );
    let q = "At Bonn, under his master Christian Gottlob Neefe, he learned the fugues.";
    assert!(!label("Taught by Neefe at Bonn, he learned the fugues.", q).unsupported());
}

#[test]
fn attributions_acronyms_and_a_covered_clause() {
    // The quote is Krehbiel's own words: it never names him.
    let q = "The oboe is pre-eminently a melody instrument.";
    assert_eq!(
        strip_attribution("Krehbiel notes that the oboe is a melody instrument.", q).0,
        "the oboe is a melody instrument."
    );
    assert_eq!(
        label(
            "Krehbiel notes that the oboe is pre-eminently a melody instrument.",
            q
        ),
        Support::Entails
    );
    assert_eq!(
        strip_attribution("In Krehbiel's terminology, the oboe sings.", q).0,
        "the oboe sings."
    );
    // A name the quote has is the claim's subject, not an attribution.
    let q = "Schumann called the symphony a turning-point.";
    assert_eq!(
        strip_attribution("Schumann called the symphony a turning-point.", q).1,
        None
    );
    // An acronym on one side, spelled out on the other.
    let q = "LTM traces that fall below threshold remain below threshold.";
    assert!(
        !label(
            "Long-term memory traces that drop below threshold remain there.",
            q
        )
        .unsupported()
    );
    assert_eq!(
        label("Long-term memory traces remain below threshold.", q),
        Support::Entails
    );
    // One clause all in the quote: on topic, even with much added.
    let q = "In 1749 he was dismissed over a practical joke.";
    let j = why(
        "He was dismissed in 1749 over a practical joke and soon sailed to Lisbon to open a school of fencing.",
        q,
    );
    assert_eq!(j.label, Support::Partial, "{}", j.reason);
}

#[test]
fn hedged_wording() {
    assert_eq!(
        hedge("The survey clearly shows that keepers were paid [1].").as_deref(),
        Some("The survey suggests that keepers were paid [1].")
    );
    assert_eq!(
        hedge("Fresnel proved the lens could be built [2].").as_deref(),
        Some("Fresnel suggested the lens could be built [2].")
    );
    // Neither verb nor certainty to soften: the sentence opens with it.
    assert_eq!(
        hedge("The keepers were paid in gold [1].").as_deref(),
        Some("The source suggests that the keepers were paid in gold [1].")
    );
    assert_eq!(
        hedge("Fresnel built the lens [1].").as_deref(),
        Some("The source suggests that Fresnel built the lens [1].")
    );
    // The extractive engine's line, an attributed quotation.
    assert_eq!(
        hedge("The Lighthouse Board, Reform: “Every light was refitted.” [1]").as_deref(),
        Some("The Lighthouse Board, Reform, suggests: “Every light was refitted.” [1]")
    );
    // Words in quotation marks are the source's, never softened.
    assert_eq!(
        hedge("The team recorded: \"The survey of 1834 proved that the reef could not hold\" [1].")
            .as_deref(),
        Some(
            "The team recorded, suggests: \"The survey of 1834 proved that the reef could not hold\" [1]."
        )
    );
    assert_eq!(
        hedge("It notes “The engineers clearly preferred granite” and clearly so [2].").as_deref(),
        Some("It notes “The engineers clearly preferred granite” and so [2].")
    );
    // Hedged already.
    assert_eq!(
        hedge("The records suggest the keepers were paid [1]."),
        None
    );
    assert_eq!(
        hedge("According to the Board, it may have been lit [1]."),
        None
    );
}

/// Red team, round 15, finding 06: the figure a claim adds to its quote is
/// found, its citation and the quote's own words aside.
#[test]
fn a_figure_the_quote_lacks_is_found() {
    let quote = "The keepers could not leave the rock during winter storms.";
    assert_eq!(
        figure_missing(
            "The keepers could not leave the rock in winter, and each was paid £500 a year.",
            quote
        )
        .as_deref(),
        Some("500")
    );
    assert_eq!(
        figure_missing("The keepers stayed on the rock in winter storms.", quote),
        None
    );
    assert_eq!(
        figure_missing("The tower was lit in 1810.", "It was first lit in 1810."),
        None
    );
}
