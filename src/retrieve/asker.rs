//! Questions about the asker's own circumstances ("How do I descale my
//! espresso machine?", "Should I pay off my car loan early?"). Sources are
//! not written to their reader, and static vectors find everyday words
//! loosely similar to any text: the gate asks such a question for a closer
//! match than others (`gate.asker_min_score`). A question in the first
//! person about the asker's work ("For my chapter I need the passage
//! where…") is about the sources and is judged as any other.

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
];

/// The first-person singular words that put the asker in the question.
const FIRST_PERSON: &[&str] = &["i", "i'm", "i've", "i'd", "i'll", "my", "myself"];

/// Whether the question speaks of the asker (a first-person singular word
/// outside double quotes; "mine" is too often a pit to count) and not of
/// the asker's work with the sources. "I" as a numeral after a capitalised word ("Part
/// I", "Napoleon I") and inside a hyphenated name ("Form I-797C") does not
/// count.
pub(super) fn about_asker(query: &str) -> bool {
    let mut asker = false;
    let mut quoted = false;
    let mut previous: Option<&str> = None;
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
        // A capitalised word before "I" other than the question's first.
        let numeral = word == "i"
            && n > 1
            && previous.is_some_and(|p| {
                p.starts_with(char::is_uppercase) && p.ends_with(char::is_alphanumeric)
            });
        if RESEARCH.contains(&word.as_str()) {
            return false;
        }
        asker |= !inside && !numeral && FIRST_PERSON.contains(&word.as_str());
        previous = Some(raw);
    }
    asker
}

#[cfg(test)]
mod tests {
    use super::{FIRST_PERSON, RESEARCH, about_asker};
    use proptest::prelude::*;

    fn plain_words() -> impl Strategy<Value = Vec<String>> {
        prop::collection::vec("[a-z]{1,9}", 1..12).prop_map(|ws| {
            ws.into_iter()
                .filter(|w| !FIRST_PERSON.contains(&w.as_str()) && !RESEARCH.contains(&w.as_str()))
                .collect()
        })
    }

    proptest! {
        /// Words in double quotes are a title or a citation, never the
        /// asker; an unquoted "my" is, unless the question is about the
        /// asker's work with the sources.
        #[test]
        fn quotes_never_and_my_always_unless_about_the_work(
            words in plain_words(),
            at in 0usize..12,
            research in prop::sample::select(RESEARCH),
        ) {
            let at = at.min(words.len());
            let mut quoted = words.clone();
            quoted.insert(at, "\"I my myself\"".to_string());
            prop_assert!(!about_asker(&quoted.join(" ")));
            let mut mine = words.clone();
            mine.insert(at, "my".to_string());
            let question = format!("How {}?", mine.join(" "));
            prop_assert!(about_asker(&question), "{}", question);
            mine.push(research.to_string());
            prop_assert!(!about_asker(&mine.join(" ")));
        }
    }

    #[test]
    fn the_asker_in_the_question_and_the_is_that_are_not() {
        for q in [
            "How do I descale my espresso machine?",
            "Should I pay off my car loan early?",
            "Is it safe to leave a slow cooker running while I'm out?",
            "How many days do I need in Lisbon?",
            "When I listen to a fugue, what should I follow?",
        ] {
            assert!(about_asker(q), "{q}");
        }
        for q in [
            "Who designed the Bell Rock lighthouse?",
            "When does USCIS send the Form I-797C notice?",
            "What did Napoleon I think of the symphony?",
            "What does Part I of the report cover?",
            "Which paper is titled \"I Know What You Did\"?",
            "What was found in the mine, and by whom?",
            "Can you tell me who built the Pharos?",
            "I’m writing a chapter on Beethoven; when did he go deaf?",
            "Where do my sources describe the lamp?",
        ] {
            assert!(!about_asker(q), "{q}");
        }
    }
}
