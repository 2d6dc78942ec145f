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
