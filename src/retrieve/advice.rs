//! Questions that ask for advice: about the asker's own circumstances
//! ("How do I descale my espresso machine?", "Should I pay off my car loan
//! early?") or for the best or right way to do something ("What's a good
//! recipe for banana bread?", "Is it safe to…", "Which monitor to buy?").
//! Sources are not written as advice to their reader, and static vectors
//! find everyday words loosely similar to any text: the gate asks such a
//! question for a closer match than others (`gate.advice_min_score`). A
//! question about the asker's work with the sources ("For my chapter I need
//! the passage where…", "the best way to listen, according to Krehbiel")
//! is about the sources and is judged as any other.

/// Words of an author's work with their sources: a question in the first
/// person that holds one ("For my chapter I need the passage where…",
/// "Where do my sources describe…") asks about the sources, not about the
/// asker's own circumstances.
const RESEARCH: &[&str] = &[
    "source",
    "sources",
    "passage",
    "passages",
    "quote",
    "quotes",
    "quotation",
    "line",
    "lines",
    "author",
    "authors",
    "writer",
    "book",
    "books",
    "paper",
    "papers",
    "article",
    "articles",
    "text",
    "texts",
    "chapter",
    "chapters",
    "essay",
    "essays",
    "draft",
    "drafts",
    "manuscript",
    "note",
    "notes",
    "thesis",
    "dissertation",
    "report",
    "reports",
    "writing",
    "write",
    "wrote",
    "cite",
    "citing",
    "citation",
    "reference",
    "references",
    "remember",
    "recall",
    "read",
    "reading",
    "says",
    "said",
    "say",
    "mention",
    "mentions",
    "mentioned",
    "describe",
    "describes",
    "described",
    "claim",
    "claims",
    "document",
    "documents",
    "library",
    "folder",
    "file",
    "files",
    "research",
    "bibliography",
    "according",
    "study",
    "studies",
    "section",
    "summary",
    "summarising",
    "summarizing",
];

/// Words that, capitalised in a title-case question ("How Do I…"), stand
/// before the pronoun "I", not before a numeral.
const BEFORE_PRONOUN: &[&str] = &[
    "do", "can", "should", "could", "would", "will", "shall", "may", "must", "did", "am", "have",
    "when", "where", "how", "what", "why", "if", "and", "but", "so", "then",
];

/// The first-person singular words that put the asker in the question.
const FIRST_PERSON: &[&str] = &["i", "i'm", "i've", "i'd", "i'll", "my", "myself"];

/// Whether the question asks for advice — it speaks of the asker (a
/// first-person singular word; "mine" is too often a pit to count) or asks
/// for the best way, whether it is safe, what to buy — outside double
/// quotes, and not about the asker's work with the sources. "I" as a
/// numeral after a capitalised word ("Part I", "Napoleon I") and inside a
/// hyphenated name ("Form I-797C"), or as an initial ("I. M. Pei"), does
/// not count.
pub(super) fn asks_advice(query: &str) -> bool {
    let mut asker = false;
    let mut words: Vec<String> = Vec::new();
    let mut quoted = false;
    let mut previous: Option<&str> = None;
    // Whitespace-separated, not `unicode_words` as question analysis
    // splits: quotes must be seen, and "I-797C" must stay one word.
    let count = query.split_whitespace().count();
    for (n, raw) in query.split_whitespace().enumerate() {
        let inside = quoted || raw.contains(['"', '“', '”']);
        for c in raw.chars() {
            match c {
                '“' => quoted = true,
                '”' => quoted = false,
                '"' => quoted = !quoted,
                _ => {}
            }
        }
        let word = raw
            .trim_matches(|c: char| !c.is_alphanumeric())
            .replace('’', "'")
            .to_lowercase();
        // A capitalised word before "I" other than the question's first
        // ("Part I"), or "I." within the question: an initial ("I. M. Pei").
        let numeral = word == "i"
            && ((n > 1
                && previous.is_some_and(|p| {
                    p.starts_with(char::is_uppercase)
                        && p.ends_with(char::is_alphanumeric)
                        && !BEFORE_PRONOUN.contains(&p.to_lowercase().as_str())
                }))
                || (raw == "I." && n + 1 < count));
        if RESEARCH.contains(&word.as_str()) {
            return false;
        }
        asker |= !inside && !numeral && FIRST_PERSON.contains(&word.as_str());
        if !inside && !word.is_empty() {
            words.push(word);
        }
        previous = Some(raw);
    }
    asker || advice_phrase(&words)
}

/// Words that ask for the best way to do something ("What's a good
/// recipe for…", "the best way to…")...
const ADVICE_QUALITIES: &[&str] = &[
    "best", "good", "safest", "quickest", "easiest", "cheapest", "ideal",
];
const ADVICE_NOUNS: &[&str] = &["way", "ways", "recipe", "recipes", "method", "methods"];
/// ...or the best time or place ("the best time of year to…"): not "a good
/// time" or "the right time signature", which are what is asked about.
const BEST: &[&str] = &["best", "ideal"];
const BEST_NOUNS: &[&str] = &["time", "place", "brand"];
/// "Is it safe to…", "Is it worth…".
const ADVICE_JUDGEMENTS: &[&str] = &["safe", "okay", "ok", "worth", "better", "wise", "bad"];

/// The question asks for advice without naming the asker, in its opening
/// words (the best way or time, whether it is safe or worth it, what
/// "you" recommend) or its last (what "to buy"). Further in, such words
/// are part of what is asked about.
fn advice_phrase(words: &[String]) -> bool {
    const OPENING: usize = 5;
    let pair = |i: usize, a: &[&str], b: &[&str]| {
        words.get(i).is_some_and(|w| a.contains(&w.as_str()))
            && words.get(i + 1).is_some_and(|w| b.contains(&w.as_str()))
    };
    (0..OPENING).any(|i| {
        pair(i, ADVICE_QUALITIES, ADVICE_NOUNS)
            || pair(i, BEST, BEST_NOUNS)
            || pair(i, &["you"], &["recommend"])
            || (pair(i, &["is"], &["it"]) && pair(i + 1, &["it"], ADVICE_JUDGEMENTS))
    }) || words.ends_with(&["to".to_string(), "buy".to_string()])
}

#[cfg(test)]
mod tests {
    use super::asks_advice;
    use super::{ADVICE_JUDGEMENTS, ADVICE_NOUNS, ADVICE_QUALITIES, FIRST_PERSON, RESEARCH};
    use proptest::prelude::*;

    fn plain_words() -> impl Strategy<Value = Vec<String>> {
        prop::collection::vec("[a-z]{1,9}", 1..12).prop_map(|ws| {
            ws.into_iter()
                .filter(|w| {
                    let w = w.as_str();
                    ![
                        FIRST_PERSON,
                        RESEARCH,
                        ADVICE_QUALITIES,
                        ADVICE_NOUNS,
                        ADVICE_JUDGEMENTS,
                    ]
                    .iter()
                    .any(|list| list.contains(&w))
                        && !["to", "you", "is"].contains(&w)
                })
                .collect()
        })
    }

    proptest! {
        /// Words in double quotes are a title or a citation, never advice
        /// asked for; an unquoted "my" is, and so is "best way" among the
        /// opening words, unless the question is about the asker's work
        /// with the sources.
        #[test]
        fn quotes_never_and_my_always_unless_about_the_work(
            words in plain_words(),
            at in 0usize..12,
            research in prop::sample::select(RESEARCH),
        ) {
            let at = at.min(words.len());
            let mut quoted = words.clone();
            quoted.insert(at, "\"I my myself best way is it safe\"".to_string());
            prop_assert!(!asks_advice(&quoted.join(" ")));
            let mut mine = words.clone();
            mine.insert(at, "my".to_string());
            let question = format!("How {}?", mine.join(" "));
            prop_assert!(asks_advice(&question), "{}", question);
            mine.push(research.to_string());
            prop_assert!(!asks_advice(&mine.join(" ")));
            let mut best = words.clone();
            best.insert(at.min(3), "best way".to_string());
            prop_assert!(asks_advice(&best.join(" ")));
        }
    }

    #[test]
    fn advice_asked_for_and_questions_that_only_look_like_it() {
        for q in [
            "How do I descale my espresso machine?",
            "Should I pay off my car loan early?",
            "Is it safe to leave a slow cooker running while I'm out?",
            "How many days do I need in Lisbon?",
            "When I listen to a fugue, what should I follow?",
            "What's a good recipe for banana bread without eggs?",
            "When is the best time of year to prune roses?",
            "Which blood pressure monitor is the most accurate to buy?",
            "Is it worth repairing an old boiler?",
            "How Do I Descale An Espresso Machine?",
            "Which kettle is the most reliable to buy ?",
        ] {
            assert!(asks_advice(q), "{q}");
        }
        for q in [
            "Who designed the Bell Rock lighthouse?",
            "When does USCIS send the Form I-797C notice?",
            "What did Napoleon I think of the symphony?",
            "Which building did I. M. Pei design for the museum?",
            "What does Part I of the report cover?",
            "Which paper is titled \"I Know What You Did\"?",
            "What was found in the mine, and by whom?",
            "Can you tell me who built the Pharos?",
            "I’m writing a chapter on Beethoven; when did he go deaf?",
            "Where do my sources describe the lamp?",
            "What is the best way to listen to a fugue, according to Krehbiel?",
            "Which paper is titled \"The Best Way to Buy\"?",
            "What did Beethoven buy in Vienna, and was it a good time for him?",
            "Did Beethoven have a good time in Vienna?",
            "What is the right time signature for a minuet?",
        ] {
            assert!(!asks_advice(q), "{q}");
        }
    }
}
