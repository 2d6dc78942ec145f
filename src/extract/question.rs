//! What a question asks for: the type of its answer (a name for "who",
//! a date for "when") and the words its "what" or "which" asks about.

use std::collections::HashSet;
use unicode_segmentation::UnicodeSegmentation;

/// What a question asks for, from its first words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerType {
    Person,
    Time,
    Number,
    Place,
    Reason,
}

impl AnswerType {
    pub fn of(question: &str) -> Option<AnswerType> {
        let q = question.trim().to_lowercase();
        let starts = |p: &[&str]| {
            p.iter()
                .any(|x| q.starts_with(x) || q.contains(&format!(", {x}")))
        };
        let has = |p: &[&str]| p.iter().any(|x| q.contains(x));
        if has(&[
            "how many",
            "how much",
            "how long",
            "how far",
            "how tall",
            "how high",
            "how old",
            "how large",
            "how big",
            "what percentage",
            "what proportion",
            "what share",
            "by how much",
            "what accuracy",
            "what size",
            "how fast",
            "what speed",
        ]) {
            return Some(AnswerType::Number);
        }
        if starts(&["when"])
            || has(&[
                "what year",
                "which year",
                "what date",
                "what century",
                "in what year",
            ])
        {
            return Some(AnswerType::Time);
        }
        if starts(&["who", "whom", "whose"])
            || has(&[
                "which person",
                "what person",
                "which composer",
                "which author",
            ])
        {
            return Some(AnswerType::Person);
        }
        if starts(&["where"])
            || has(&[
                "in which city",
                "which country",
                "what city",
                "in what city",
            ])
        {
            return Some(AnswerType::Place);
        }
        if starts(&["why"])
            || has(&[
                "what reason",
                "for what reason",
                "what was the rationale",
                "what is the rationale",
            ])
        {
            return Some(AnswerType::Reason);
        }
        None
    }

    /// Does `text` hold an answer of this type that is not just the
    /// question's own words (`question` lower-cased words)?
    pub fn found_in(self, text: &str, question: &HashSet<String>) -> bool {
        let words: Vec<&str> = text
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .filter(|w| !w.is_empty())
            .collect();
        // A capitalised word that is not the first of its sentence (every
        // sentence's first word is capitalised).
        let new_name = || {
            crate::text::sentences(text).into_iter().any(|r| {
                text[r]
                    .split(|c: char| !(c.is_alphanumeric() || c == '\''))
                    .filter(|w| !w.is_empty())
                    .skip(1)
                    .any(|w| {
                        w.chars().next().is_some_and(char::is_uppercase)
                            && w.chars().skip(1).any(char::is_lowercase)
                            && !question.contains(&w.to_lowercase())
                    })
            })
        };
        let lower = text.to_lowercase();
        match self {
            AnswerType::Person | AnswerType::Place => new_name(),
            AnswerType::Time => {
                words.iter().any(|w| {
                    w.len() == 4 && w.chars().all(|c| c.is_ascii_digit()) && !question.contains(*w)
                }) || [
                    "century",
                    "january",
                    "february",
                    "march",
                    "april",
                    "june",
                    "july",
                    "august",
                    "september",
                    "october",
                    "november",
                    "december",
                ]
                .iter()
                .any(|m| lower.contains(m) && !question.contains(*m))
            }
            AnswerType::Number => words.iter().any(|w| {
                (w.chars().any(|c| c.is_ascii_digit()) && !question.contains(*w))
                    || [
                        "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                        "twelve", "twenty", "hundred", "thousand", "million", "half", "dozen",
                    ]
                    .contains(&w.to_lowercase().as_str())
            }),
            AnswerType::Reason => [
                "because",
                "since ",
                "so that",
                "in order to",
                "due to",
                "as a result",
                "therefore",
                "reason",
                "owing to",
                "thus",
                "hence",
            ]
            .iter()
            .any(|m| lower.contains(m)),
        }
    }
}

/// The words a question asks for: the head of the noun phrase after its
/// "what" or "which" ("What salary came…" → salary, "which existing tool
/// does…" → existing tool, "what kind of algorithm…" → algorithm), at most
/// two words; none when the wh-word is followed by a verb ("What did…").
pub fn focus_words(question: &str) -> Vec<String> {
    const SKIP: &[&str] = &[
        "kind", "type", "sort", "form", "of", "the", "a", "an", "exact",
    ];
    const STOP: &[&str] = &[
        "is", "are", "was", "were", "be", "do", "does", "did", "has", "have", "had", "can",
        "could", "would", "will", "should", "may", "might", "must", "in", "on", "at", "by", "for",
        "with", "from", "to", "about", "and", "or", "that", "than", "as", "if", "when",
    ];
    let words: Vec<String> = question.unicode_words().map(str::to_lowercase).collect();
    let Some(at) = words.iter().position(|w| w == "what" || w == "which") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for w in &words[at + 1..] {
        if out.is_empty() && SKIP.contains(&w.as_str()) {
            continue;
        }
        if STOP.contains(&w.as_str()) || out.len() == 2 {
            break;
        }
        out.push(w.clone());
    }
    out
}

/// Does the question ask what happened, or what someone did, said or
/// found, or how they reacted ("What did they find him doing?", "How did
/// she respond…?", "What exactly happened?"), or what someone thinks of a
/// thing or how they describe or explain it ("What does the critic think
/// of…?")? Its answer is the event or the view, which a narrative tells
/// after the scene the question's words describe. The verb must be what
/// the question asks about: "what … happened", a verb of doing or saying
/// after "what did" and before any "to" ("What did they use to see the
/// cells?" is not one), of thinking or saying after "what do", "does" or
/// "did", a verb of reacting, describing or explaining after "how" ("How
/// many patients responded…" is not one).
pub fn asks_event(question: &str) -> bool {
    const DID: &[&str] = &[
        "do", "doing", "find", "write", "say", "reply", "answer", "tell", "see", "hear",
    ];
    const REACT: &[&str] = &[
        "react",
        "respond",
        "reply",
        "reacted",
        "responded",
        "replied",
    ];
    // What someone thinks or says of a thing, or how they describe or
    // explain it: the view is told after the sentence that names the thing.
    const VIEW: &[&str] = &["think", "believe", "feel", "consider", "say", "write"];
    const DESCRIBE: &[&str] = &[
        "describe",
        "explain",
        "regard",
        "view",
        "characterize",
        "characterise",
    ];
    let words: Vec<String> = question.unicode_words().map(str::to_lowercase).collect();
    // A word of `verbs` after `at`, before any "to" or question word.
    let verb_after = |at: usize, verbs: &[&str]| {
        words[at..]
            .iter()
            .take_while(|w| !matches!(w.as_str(), "to" | "what" | "how" | "why" | "which"))
            .any(|w| verbs.contains(&w.as_str()))
    };
    words.iter().enumerate().any(|(i, w)| match w.as_str() {
        "what" => {
            words[i + 1..].iter().take(3).any(|h| h == "happened")
                || (words.get(i + 1).is_some_and(|d| d == "did") && verb_after(i + 2, DID))
                || (words
                    .get(i + 1)
                    .is_some_and(|d| matches!(d.as_str(), "do" | "does" | "did"))
                    && verb_after(i + 2, VIEW))
        }
        "how" => {
            !words
                .get(i + 1)
                .is_some_and(|m| matches!(m.as_str(), "many" | "much" | "often"))
                && (verb_after(i + 1, REACT) || verb_after(i + 1, DESCRIBE))
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::asks_event;

    #[test]
    fn an_event_question_asks_what_happened_or_what_someone_did() {
        for q in [
            "What happened to the three keepers in December 1900?",
            "What did they find him doing?",
            "What did Wagner say about the Ninth Symphony?",
            "How did the young composer respond when told of it?",
            "I remember how Madame Gerster reacted. What exactly happened?",
            "What nearly happened to the only manuscript of the first movement?",
            "What did a man of letters catch the composer doing when they came in?",
            "What does the New York critic think of boys singing in church choirs?",
            "According to Krehbiel, how does Archbishop Trench explain the term?",
            "Who played, and how did Beethoven describe that concert to the Archduke?",
        ] {
            assert!(asks_event(q), "{q}");
        }
        for q in [
            "What did the Germans call Bebung?",
            "Why does catastrophic forgetting happen?",
            "What would happen if the learning rate were doubled?",
            "How often does mode collapse happen?",
            "How many patients responded to the treatment?",
            "Which metals reacted with the acid?",
            "How did they take the measurements?",
            "How did the lab receive its funding?",
            "What did the researchers use to see the cells?",
            "What did the paper propose for curriculum learning?",
            "How did the method perform on ImageNet?",
            "Who built the first Eddystone lighthouse?",
            "What do the authors find?",
            "What does the paper propose for curriculum learning?",
            "How does the method perform on ImageNet?",
        ] {
            assert!(!asks_event(q), "{q}");
        }
    }
}
