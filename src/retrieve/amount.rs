//! Questions that ask for a sum of money ("How much did the coble cost?",
//! "What fee…", "What did her father pay…"), and whether the passages
//! found state one about what the question names. A passage about the
//! subject that states no sum does not answer such a question, however
//! closely it matches it.

use super::Candidate;
use crate::index::Index;
use std::collections::HashSet;
use unicode_segmentation::UnicodeSegmentation;

/// Nouns that ask for a sum wherever they stand in a question.
const SUM_NOUNS: &[&str] = &[
    "fee",
    "fees",
    "salary",
    "salaries",
    "wage",
    "wages",
    "stipend",
    "stipends",
    "honorarium",
    "price",
    "prices",
    "fare",
    "fares",
    "ransom",
    "royalties",
];

/// Verbs that ask for a sum after "how much" ("How much did it cost?").
const SUM_VERBS: &[&str] = &[
    "cost", "costs", "costing", "pay", "paid", "pays", "earn", "earned", "earns", "charge",
    "charged", "charges", "spend", "spent", "sell", "sold", "buy", "bought", "fetch", "fetched",
];

/// Words that name a currency or say that something costs nothing.
const CURRENCIES: &[&str] = &[
    "dollar",
    "dollars",
    "cent",
    "cents",
    "pound",
    "pounds",
    "shilling",
    "shillings",
    "pence",
    "penny",
    "pennies",
    "guinea",
    "guineas",
    "sovereign",
    "sovereigns",
    "crown",
    "crowns",
    "franc",
    "francs",
    "mark",
    "marks",
    "florin",
    "florins",
    "gulden",
    "guilder",
    "guilders",
    "ducat",
    "ducats",
    "thaler",
    "thalers",
    "taler",
    "talers",
    "kreutzer",
    "kreutzers",
    "kreuzer",
    "kreuzers",
    "groschen",
    "livre",
    "livres",
    "sou",
    "sous",
    "ecu",
    "ecus",
    "écu",
    "écus",
    "euro",
    "euros",
    "rupee",
    "rupees",
    "yen",
    "yuan",
    "lira",
    "lire",
    "rouble",
    "roubles",
    "ruble",
    "rubles",
    "peso",
    "pesos",
    "krone",
    "kroner",
    "kronor",
    "gratis",
    "free",
    "unpaid",
];

fn words(text: &str) -> Vec<String> {
    text.unicode_words().map(str::to_lowercase).collect()
}

/// Whether the question asks for a sum of money: "how much" with a word
/// of paying or a sum's name ("How much did it cost?", "How much is the
/// fee?"), "what" or "which" followed closely by a sum's name ("What
/// yearly salary…", "what was the fee…"; not "What features predict house
/// prices?"), or what someone paid.
pub(super) fn asks_for_money(question: &str) -> bool {
    let w = words(question);
    let is = |x: &String, set: &[&str]| set.contains(&x.as_str());
    let after = |at: usize, n: usize| {
        w[at + 1..]
            .iter()
            .filter(|x| !is(x, &["is", "was", "were", "are", "the", "a", "an"]))
            .take(n)
    };
    w.iter().enumerate().any(|(i, x)| match x.as_str() {
        "much" if i > 0 && w[i - 1] == "how" => w[i + 1..]
            .iter()
            .any(|y| is(y, SUM_NOUNS) || is(y, SUM_VERBS) || y == "money"),
        "what" | "which" => after(i, 3).any(|y| is(y, SUM_NOUNS)),
        _ => false,
    }) || (w.iter().any(|x| x == "what") && w.iter().any(|x| is(x, &["pay", "paid", "pays"])))
}

/// Whether `text` names a sum: a currency sign or a currency's name ("600
/// ducats", "£400", "free of charge"); "per cent" is not one.
fn names_a_sum(text: &str) -> bool {
    if text.contains(['$', '£', '€', '¥', '₹']) {
        return true;
    }
    let w = words(text);
    w.iter().enumerate().any(|(i, x)| {
        CURRENCIES.contains(&x.as_str())
            && !(matches!(x.as_str(), "cent" | "cents") && i > 0 && w[i - 1] == "per")
    })
}

/// Whether a question asking for a sum goes without one: none of the top
/// `top_k` passages names a sum in a sentence that, with the sentences
/// either side of it, holds one of the question's own words (neither the
/// sum's words nor numbers: "fee" or "1145" beside "$15.00" in another
/// document's copyright notice is not the fee asked about). False for any
/// other question.
pub(super) fn unstated_amount(
    index: &Index,
    question: &str,
    terms: &[(String, f32)],
    candidates: &[Candidate],
    top_k: usize,
) -> bool {
    if !asks_for_money(question) {
        return false;
    }
    let asked: HashSet<String> = index
        .analyze(&[SUM_NOUNS, SUM_VERBS, &["money"]].concat().join(" "))
        .into_iter()
        .collect();
    let about: HashSet<&str> = terms
        .iter()
        .map(|(t, _)| t.as_str())
        .filter(|t| !asked.contains(*t))
        // A number or a letter alone ("G-1145" gives "g" and "1145") turns
        // up in a DOI or a date as readily as beside the sum asked about.
        .filter(|t| t.chars().count() > 1 && !t.chars().all(|c| c.is_ascii_digit()))
        .collect();
    if about.is_empty() {
        return false;
    }
    !candidates.iter().take(top_k).any(|c| {
        let text = c.chunk.text.as_str();
        let sentences = crate::text::sentences(text);
        (0..sentences.len()).any(|i| {
            names_a_sum(&text[sentences[i].clone()]) && {
                let from = sentences[i.saturating_sub(1)].start;
                let to = sentences[(i + 1).min(sentences.len() - 1)].end;
                index
                    .analyze(&text[from..to])
                    .iter()
                    .any(|t| about.contains(t.as_str()))
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_that_ask_for_a_sum() {
        for q in [
            "How much is the filing fee for Form G-1145?",
            "What did Grace Darling's father pay for the coble?",
            "What salary came with the Kapellmeister post?",
            "How much did the Statue of Liberty cost to build?",
            "How much money did Paderewski earn from his recitals?",
            "Who was Prince Galitzin, and what fee did Beethoven set?",
            "What was the filing fee for the form?",
        ] {
            assert!(asks_for_money(q), "{q}");
        }
        for q in [
            "In hypergradient descent, what is its memory cost?",
            "Which woman took charge of the beacon?",
            "How much smaller should the first layer's step size be?",
            "How many keepers lived on the rock?",
            "What features predict house prices best?",
            "Did the permission to copy require a fee?",
        ] {
            assert!(!asks_for_money(q), "{q}");
        }
    }

    #[test]
    fn sums_are_signs_and_currencies_not_percentages() {
        assert!(names_a_sum("a good salary, 600 ducats (about $1,400)"));
        assert!(names_a_sum("He was paid £400 a year."));
        assert!(names_a_sum("The lessons were given free of charge."));
        assert!(names_a_sum("fifty florins a quarter"));
        assert!(!names_a_sum("Accuracy rose by 12 per cent."));
        assert!(!names_a_sum("The keeper was paid a good wage."));
    }
}
