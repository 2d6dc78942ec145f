//! Names in a question: capitalised words and runs of them, and which of
//! them the sources never mention.

use super::{Candidate, FILLER};
use crate::index::Index;
use std::collections::HashSet;

/// Names in `query` the sources never mention: a run of capitalised words
/// ("Kneisel Quartet") one of whose words none of the sources use (the whole
/// run is the name), or whose words all occur but never together ("Hook
/// Head"). A known word that begins a sentence is not part of the name.
pub(super) fn unknown_names(index: &Index, query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for run in capitalised_runs(query) {
        let flags: Vec<bool> = run.words.iter().map(|w| unknown_word(index, w)).collect();
        // A sentence's first word is capitalised anyway.
        let from = usize::from(run.sentence_start && !flags[0]);
        let name = run.words[from..].join(" ");
        let found = if flags.contains(&true) {
            true
        } else {
            run.words.len() - from > 1 && index.phrase_freq(&name) == 0
        };
        if found && !name.is_empty() && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

#[derive(Default)]
pub(super) struct Run<'a> {
    pub words: Vec<&'a str>,
    /// The run's first word begins the question or a sentence of it.
    pub sentence_start: bool,
}

/// Runs of adjacent capitalised, non-filler words of `query`, possessives
/// stripped, with the number that follows them; a lower-case word,
/// punctuation, a possessive or a number ends a run.
pub(super) fn capitalised_runs(query: &str) -> Vec<Run<'_>> {
    let in_word = |c: char| c.is_alphanumeric() || matches!(c, '\'' | '’' | '-');
    let mut runs = Vec::new();
    let mut sentence_start = true;
    for clause in query.split_inclusive(|c: char| !(in_word(c) || c.is_whitespace())) {
        let mut at_start = sentence_start;
        let mut run = Run::default();
        for word in clause.split(|c: char| !in_word(c)) {
            let (w, owner) = bare(word);
            if w.is_empty() {
                continue;
            }
            if w.chars().next().is_some_and(char::is_uppercase)
                && !FILLER.contains(&w.to_lowercase().as_str())
            {
                if run.words.is_empty() {
                    run.sentence_start = at_start;
                }
                run.words.push(w);
                // A possessive ends a name: "Kuhnau's Bible Sonatas" names
                // Kuhnau and his Bible Sonatas.
                if owner {
                    runs.push(std::mem::take(&mut run));
                }
            } else if !run.words.is_empty() {
                // A number after a name is part of it, and ends it: "PEP
                // 572", "Form 1040", "Python 3".
                if w.chars().all(|c| c.is_ascii_digit()) {
                    run.words.push(w);
                }
                runs.push(std::mem::take(&mut run));
            }
            at_start = false;
        }
        if !run.words.is_empty() {
            runs.push(run);
        }
        sentence_start = clause.trim_end().ends_with(['.', '?', '!']);
    }
    runs
}

/// A word without the punctuation around it or its possessive "'s", and
/// whether it had one.
fn bare(word: &str) -> (&str, bool) {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric());
    match ["'s", "’s"].iter().find_map(|p| w.strip_suffix(p)) {
        Some(owner) => (owner, true),
        None => (w, false),
    }
}

/// `names` without those whose every word the sources never use is an
/// abbreviation a candidate passage spells out ("IBM HR" where a passage
/// says "Human Resource"): the sources name it in full.
pub(super) fn drop_spelled_out(
    index: &Index,
    mut names: Vec<String>,
    candidates: &[Candidate],
) -> Vec<String> {
    names.retain(|name| {
        let unknown: Vec<&str> = name.split(' ').filter(|w| unknown_word(index, w)).collect();
        // A reference, or a phrase the sources never hold together ("Hook
        // Head"), stays.
        is_reference(name)
            || unknown.is_empty()
            || unknown
                .iter()
                .any(|w| !(is_identifier(w) && spelled_out(candidates, w)))
    });
    names
}

/// None of the sources uses `word`, or, for a word of several terms
/// ("SST-2", "Radon-Nikodym"), one of its terms with a letter: a number
/// beside a name the sources lack does not make it theirs.
fn unknown_word(index: &Index, word: &str) -> bool {
    let terms = index.analyze(word);
    let unknown = |t: &String| index.doc_freq(t) == 0;
    !terms.is_empty()
        && (terms.iter().all(unknown)
            || terms
                .iter()
                .any(|t| t.chars().any(char::is_alphabetic) && unknown(t)))
}

/// A candidate passage (its text or its source's title) spells `word` out.
fn spelled_out(candidates: &[Candidate], word: &str) -> bool {
    candidates
        .iter()
        .any(|c| spells_out(&c.chunk.text, word) || spells_out(&c.chunk.source_title, word))
}

/// The question's identifiers and references the sources lack: (those no
/// source uses and no candidate passage spells out, those the sources use
/// but none of the first `top_k` candidates names). None when the question
/// is shouted.
pub(super) fn lacking_identifiers(
    index: &Index,
    query: &str,
    unknown_names: &[String],
    candidates: &[Candidate],
    top_k: usize,
) -> (Vec<String>, Vec<String>) {
    if shouted(query) {
        return (Vec::new(), Vec::new());
    }
    let mut unknown: Vec<String> = Vec::new();
    for name in unknown_names {
        if is_reference(name) {
            unknown.push(name.clone());
            continue;
        }
        for w in name.split(' ') {
            if is_identifier(w)
                && unknown_word(index, w)
                && !spelled_out(candidates, w)
                && !unknown.iter().any(|u| u == w)
            {
                unknown.push(w.to_string());
            }
        }
    }
    let mut unseen: Vec<String> = identifiers(query)
        .into_iter()
        .filter(|w| !unknown_names.iter().any(|n| n.split(' ').any(|p| p == *w)))
        .map(str::to_string)
        .collect();
    if !unseen.is_empty() {
        let top: Vec<(HashSet<String>, String)> = candidates
            .iter()
            .take(top_k.max(1))
            .map(|c| {
                let full = format!(
                    "{} {} {}",
                    c.chunk.source_title, c.chunk.location, c.chunk.text
                );
                (index.analyze(&full).into_iter().collect(), full)
            })
            .collect();
        unseen.retain(|w| {
            !top.iter()
                .any(|(terms, full)| passage_names(index, terms, full, w))
        });
        unseen.retain(|w| !(as_maker(query, w) && front_matter_names(index, candidates, top_k, w)));
    }
    (unknown, unseen)
}

/// Nouns that, after an organisation's name, make it the maker of the work
/// asked about ("the ByteDance team", "the IBM researchers").
const MAKERS: &[&str] = &[
    "team",
    "teams",
    "group",
    "groups",
    "lab",
    "labs",
    "laboratory",
    "researchers",
    "authors",
    "engineers",
    "scientists",
];

/// `word` stands in the question as the maker of what it asks about:
/// possessive ("IBM's monolith-splitting tool") or before a maker noun
/// ("the ByteDance team"). A maker is who wrote the source, which its
/// passages seldom repeat: its front matter names it, once.
pub(super) fn as_maker(query: &str, word: &str) -> bool {
    let words: Vec<&str> = query.split_whitespace().collect();
    words.iter().enumerate().any(|(i, raw)| {
        let (w, possessive) = bare(raw);
        // A possessive with a digit is a model's or a version's ("GPT4's
        // accuracy"): what is asked about, not who made it.
        let possessive = possessive && !w.chars().any(|c| c.is_ascii_digit());
        if w != word {
            return false;
        }
        if possessive {
            return true;
        }
        // The rest of the maker's name may follow ("the BITS Pilani
        // authors", "IBM Research's team").
        for next in words.iter().skip(i + 1).take(3) {
            let (n, possessive) = bare(next);
            if MAKERS.contains(&n.to_lowercase().as_str()) {
                return true;
            }
            if !n.starts_with(char::is_uppercase) {
                return false;
            }
            if possessive {
                return true;
            }
        }
        false
    })
}

/// Chunks at the head of a source that hold its front matter (title,
/// authors, affiliations).
const FRONT_MATTER_CHUNKS: usize = 3;

/// The front matter of some source of the first `top_k` candidates names
/// `word` (its terms, not a spelling-out: across a whole page some words
/// always have the right initials).
fn front_matter_names(index: &Index, candidates: &[Candidate], top_k: usize, word: &str) -> bool {
    let terms = word_terms(index, word);
    if terms.is_empty() {
        return false;
    }
    let mut seen: Vec<&str> = Vec::new();
    candidates.iter().take(top_k.max(1)).any(|c| {
        let source = c.chunk.source_id.as_str();
        if seen.contains(&source) {
            return false;
        }
        seen.push(source);
        (0..FRONT_MATTER_CHUNKS).any(|n| {
            index
                .chunk(&format!("{source}#{n}"))
                .ok()
                .flatten()
                .is_some_and(|(ch, _)| {
                    let held: HashSet<String> = index
                        .analyze(&format!("{} {}", ch.source_title, ch.text))
                        .into_iter()
                        .collect();
                    // Or written in capitals against a PDF's affiliation
                    // mark ("bIBM Research"): a maker's name as it is.
                    terms.iter().all(|t| held.contains(t)) || ch.text.contains(word)
                })
        })
    })
}

/// An identifier: a word with two or more capitals ("SMOTE", "AlphaFold",
/// "HR") or with a capital and a digit ("GPT4"), and not a Roman numeral
/// ("VIII"). It names one thing: a method, a dataset, a product.
pub(super) fn is_identifier(word: &str) -> bool {
    if word.contains(char::is_whitespace) {
        return false;
    }
    let capitals = word.chars().filter(|c| c.is_uppercase()).count();
    let digits = word.chars().any(|c| c.is_ascii_digit());
    let roman = word.chars().all(|c| "IVXLCDM".contains(c));
    (capitals >= 2 || (capitals == 1 && digits)) && !roman && !surname(word)
}

/// A surname whose prefix takes a capital after it ("MacDowell",
/// "McCartney", "O'Brien", "DeMille", "LaGuardia", "VanDyke"): a person,
/// not an identifier.
fn surname(word: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "Mac", "Mc", "Fitz", "O'", "O’", "De", "Di", "Da", "Du", "La", "Le", "Van", "Von",
    ];
    PREFIXES.iter().any(|p| {
        word.strip_prefix(p).is_some_and(|rest| {
            let mut cs = rest.chars();
            cs.next().is_some_and(char::is_uppercase) && cs.all(char::is_lowercase)
        })
    })
}

/// The question is written in capitals throughout (more than half its
/// words): its capitals say nothing about names.
pub(super) fn shouted(query: &str) -> bool {
    let words: Vec<&str> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().any(char::is_alphabetic))
        .collect();
    let caps = words
        .iter()
        .filter(|w| {
            w.chars()
                .filter(|c| c.is_alphabetic())
                .all(char::is_uppercase)
        })
        .count();
    2 * caps > words.len()
}

/// A reference: a name and its number ("PEP 572", "Form 1040"). Like an
/// identifier, it names one thing.
pub(super) fn is_reference(name: &str) -> bool {
    let mut words = name.rsplit(' ');
    let last = words.next().unwrap_or_default();
    words.next().is_some() && !last.is_empty() && last.chars().all(|c| c.is_ascii_digit())
}

/// Words too small to count in an abbreviation ("Department *of* Energy").
const SMALL: &[&str] = &[
    "a", "an", "and", "for", "in", "of", "on", "the", "to", "with",
];

/// `text` spells out the abbreviation `word`: consecutive words whose
/// initials are its capitals, in order ("Human Resources" for "HR",
/// "Learning Rate Curriculum" for "LeRaC"), small words between them
/// skipped; the parts of a hyphenated word after its first may count or
/// not ("Over-sampling").
pub(super) fn spells_out(text: &str, word: &str) -> bool {
    let letters: Vec<char> = word
        .chars()
        .filter(|c| c.is_uppercase())
        .flat_map(char::to_lowercase)
        .collect();
    // An abbreviation is mostly capitals; "LibriSpeech" or "AlphaFold" is
    // a compound name, spelled out nowhere.
    let all = word.chars().filter(|c| c.is_alphabetic()).count();
    if letters.len() < 2 || 2 * letters.len() < all {
        return false;
    }
    // (word, may be skipped, may give a letter, is small): a word of no
    // content ("study shows that" for "SST") gives none unless it is
    // capitalised, or any page would spell out any short abbreviation; a
    // small word may give one inside the name ("Department of Energy").
    let words: Vec<(String, bool, bool, bool)> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .flat_map(|w| {
            w.split('-')
                .filter(|p| !p.is_empty())
                .enumerate()
                .map(|(i, p)| {
                    let capital = p.starts_with(char::is_uppercase);
                    let p = p.to_lowercase();
                    let small = SMALL.contains(&p.as_str());
                    let gives = capital || !FILLER.contains(&p.as_str());
                    (p, i > 0 || small, gives, small)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    // Every way through the words at once: the set of how many letters a
    // run ending at the current word has matched (a small word or a later
    // hyphenated part may match its letter or be passed over).
    let mut matched: Vec<usize> = Vec::new();
    for (w, skip, gives, small) in &words {
        let initial = w.chars().next();
        let mut next: Vec<usize> = Vec::new();
        for k in std::iter::once(0).chain(matched.iter().copied()) {
            let inside = k > 0 && k + 1 < letters.len();
            if (*gives || (*small && inside)) && initial == Some(letters[k]) {
                if k + 1 == letters.len() {
                    return true;
                }
                next.push(k + 1);
            }
            if k > 0 && *skip {
                next.push(k);
            }
        }
        next.sort_unstable();
        next.dedup();
        matched = next;
    }
    false
}

/// The identifiers of `query` ("AUROC", "G-1145", "LLM-driven") longer than
/// two characters: "US" or "AI" is too often a word, or too loosely used, to
/// say what a passage is about.
pub(super) fn identifiers(query: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for word in query.split(|c: char| !(c.is_alphanumeric() || matches!(c, '\'' | '’' | '-'))) {
        let (w, _) = bare(word);
        if w.chars().filter(|c| c.is_alphanumeric()).count() > 2
            && is_identifier(w)
            && !out.contains(&w)
        {
            out.push(w);
        }
    }
    out
}

/// `text` names the identifier `word`: every term of its parts that carry a
/// capital or a digit ("LLM" of "LLM-driven") occurs in it, or it spells
/// the identifier out.
pub(super) fn passage_names(
    index: &Index,
    text_terms: &HashSet<String>,
    text: &str,
    word: &str,
) -> bool {
    let terms = word_terms(index, word);
    (!terms.is_empty() && terms.iter().all(|t| text_terms.contains(t))) || spells_out(text, word)
}

/// The terms of an identifier's parts that carry a capital or a digit.
fn word_terms(index: &Index, word: &str) -> Vec<String> {
    word.split('-')
        .filter(|p| p.chars().any(|c| c.is_uppercase() || c.is_ascii_digit()))
        .flat_map(|p| index.analyze(p))
        .collect()
}
