//! Extraction. The result has the structure the LLM is asked for; the
//! built-in extractive engine fills it with no network by selecting whole,
//! contiguous sentences from the gated chunks.

use crate::chunk::Chunk;
use crate::embed::{Embedder, dot};
use crate::text::{char_offset, sentences, shown_sentences};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use unicode_segmentation::UnicodeSegmentation;

/// Most snippets an extraction may return.
pub const MAX_SNIPPETS: usize = 8;

/// Where a snippet sits: char offsets into a chunk's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub chunk_id: String,
    pub start: usize,
    pub end: usize,
}

/// One quoted passage, as the extractor (engine or LLM) reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snippet {
    pub content: String,
    pub source_id: String,
    pub source_title: String,
    pub source_location: String,
    /// 0–1, the extractor's own estimate.
    pub relevance: f32,
    /// Where the engine took it from (the LLM gives none: validation finds it).
    pub span: Option<Span>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Extraction {
    pub snippets: Vec<Snippet>,
    /// Summary with citation markers [n] pointing at snippets (1-based).
    pub summary: String,
    pub no_results: bool,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExtractConfig {
    pub max_snippets: usize,
    /// Most sentences in one snippet (a quote for an event question may go
    /// on `event_sentences` more).
    pub max_sentences: usize,
    /// Most snippets from one chunk.
    pub per_chunk: usize,
    /// Weight of sentence–query vector similarity in a sentence's score.
    pub vector_weight: f32,
    /// Snippets scoring under this share of the best are not returned.
    pub min_relative_score: f32,
    /// Bonus for a passage holding what the question asks for (a name for
    /// "who", a date for "when", a number for "how many", a reason for
    /// "why"): the sentence that answers before one that only mentions the
    /// subject.
    pub answer_type_bonus: f32,
    /// Weight of the passage's late interaction with the question (each
    /// question word's best match in it, exact or related; see
    /// `Embedder::max_sim`).
    pub max_sim_weight: f32,
    /// A quote that sets the scene but does not name what the question's
    /// "what" or "which" asks for ("What salary came with the post…") is
    /// followed by a quote of the first sentence, within this many after
    /// it in the same passage, that does ("The post carried with it a good
    /// salary…"); 0 = never.
    pub follow_focus: usize,
    /// A question that asks what happened, or what someone did, said or
    /// found, or how they reacted ("What did they find him doing?"), is
    /// answered by the event, which a narrative tells after
    /// the scene the question's words describe: each quote goes on for up
    /// to this many sentences after the window that matched; 0 = never.
    pub event_sentences: usize,
    /// A quote of fewer words is never offered: validation could not check
    /// it. Not a setting of its own: the engine sets it from `[validate]
    /// min_words`.
    #[serde(skip)]
    pub min_words: usize,
}

impl Default for ExtractConfig {
    fn default() -> Self {
        ExtractConfig {
            max_snippets: MAX_SNIPPETS,
            max_sentences: 3,
            per_chunk: 2,
            vector_weight: 0.3,
            // With late interaction in the score, 0.7 keeps as many quotes per
            // answer as 0.6 did without it (docs/evaluation-log.md).
            min_relative_score: 0.7,
            answer_type_bonus: 0.15,
            // Calibrated on the dev halves and eval/questions.json (README).
            max_sim_weight: 1.0,
            // Calibrated on the dev halves (docs/evaluation-log.md).
            follow_focus: 5,
            // Calibrated on the dev halves (docs/evaluation-log.md).
            event_sentences: 4,
            min_words: crate::text::MIN_QUOTE_WORDS,
        }
    }
}

/// What a quote that ends on a question pays.
const QUESTION_COST: f32 = 0.15;

/// Does this sentence lean on the one before it: a pronoun for its subject
/// ("It also furnishes…", "He adds…"), or "this", "these", "such" among its
/// first words ("To this it must be attributed…", "The Germans called this
/// effect…")? Quoted alone, it does not say what it is about. English
/// only: in another language no sentence is taken to.
pub fn refers_back(sentence: &str) -> bool {
    let words: Vec<String> = sentence
        .unicode_words()
        .take(5)
        .map(str::to_lowercase)
        .collect();
    let opener = [
        "it",
        "its",
        "they",
        "their",
        "he",
        "his",
        "she",
        "her",
        "thus",
        "hence",
        "therefore",
    ];
    words.first().is_some_and(|w| opener.contains(&w.as_str()))
        || words
            .iter()
            .any(|w| matches!(w.as_str(), "this" | "these" | "such"))
}

/// Does this sentence go on from the one before it: it refers back to
/// it, or opens on a connective ("Finally the cook produced it; …",
/// "However, …")? A quote takes in such a sentence after it. (Before it,
/// only one that refers back: a sentence opening on "However" says what
/// it says without the one it turns from.)
pub fn goes_on(sentence: &str) -> bool {
    let connective = [
        "however",
        "but",
        "yet",
        "finally",
        "then",
        "eventually",
        "afterwards",
        "instead",
        "moreover",
        "furthermore",
        "consequently",
        "accordingly",
        "nevertheless",
        "nonetheless",
        "meanwhile",
    ];
    refers_back(sentence)
        || sentence
            .unicode_words()
            .next()
            .is_some_and(|w| connective.contains(&w.to_lowercase().as_str()))
}

struct Window {
    chunk: usize,
    /// First and last sentence (indices into the chunk's sentences).
    first: usize,
    last: usize,
    score: f32,
}

/// The built-in extractive engine.
///
/// `terms` are the analysed query terms with IDF weights, `analyze` the
/// index's analyzer (so stems match), `query_vector` the embedded query.
pub fn extractive(
    chunks: &[&Chunk],
    question: &str,
    terms: &[(String, f32)],
    analyze: &dyn Fn(&str) -> Vec<String>,
    embedder: Option<&dyn Embedder>,
    query_vector: Option<&[f32]>,
    cfg: &ExtractConfig,
) -> Result<Extraction> {
    let total_idf: f32 = terms.iter().map(|(_, w)| w).sum();
    let answer_type = AnswerType::of(question);
    let event = if question::asks_event(question) {
        cfg.event_sentences
    } else {
        0
    };
    let question_words: HashSet<String> = question
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let focus = crate::retrieve::normalize_query(question);
    let asked_for: HashSet<String> = focus_words(question)
        .iter()
        .flat_map(|w| analyze(w))
        .filter(|t| terms.iter().any(|(q, _)| q == t))
        .collect();
    let mut windows: Vec<Window> = Vec::new();
    let all_sents: Vec<Vec<std::ops::Range<usize>>> =
        chunks.iter().map(|c| shown_sentences(&c.text)).collect();
    // Each question word's best match in each sentence (late interaction),
    // for every chunk at once: a token's cosines are computed once. Each
    // chunk's title and heading chain come after all the sentences: like
    // the terms they hold, their matches count for every sentence of the
    // chunk, so that a sentence is not preferred for repeating the subject
    // its heading already names.
    let contexts: Vec<String> = chunks
        .iter()
        .map(|c| format!("{} {}", c.source_title, c.location))
        .collect();
    let n_sentences: usize = all_sents.iter().map(Vec::len).sum();
    let matches = embedder.filter(|_| cfg.max_sim_weight > 0.0).and_then(|e| {
        let texts: Vec<&str> = chunks
            .iter()
            .zip(&all_sents)
            .flat_map(|(c, ss)| ss.iter().map(|r| &c.text[r.clone()]))
            .chain(contexts.iter().map(String::as_str))
            .collect();
        e.token_matches(&focus, &texts)
    });
    let all_terms: Vec<Vec<HashSet<String>>> = chunks
        .iter()
        .zip(&all_sents)
        .map(|(c, ss)| {
            ss.iter()
                .map(|r| analyze(&c.text[r.clone()]).into_iter().collect())
                .collect()
        })
        .collect();
    let context_terms: Vec<HashSet<String>> = contexts
        .iter()
        .map(|c| analyze(c).into_iter().collect())
        .collect();
    let mut first_sentence = 0;
    for (ci, chunk) in chunks.iter().enumerate() {
        let sents = &all_sents[ci];
        let first = first_sentence;
        first_sentence += sents.len();
        // Title and heading chain are context every sentence of the chunk shares.
        let context = &context_terms[ci];
        let sent = |k: usize| &chunk.text[sents[k].clone()];
        let term_sets = &all_terms[ci];
        let capitals: Vec<bool> = sents
            .iter()
            .map(|r| not_prose(&chunk.text[r.clone()]))
            .collect();
        let sims: Vec<f32> = match (embedder, query_vector) {
            (Some(e), Some(q)) if cfg.vector_weight > 0.0 => {
                let texts: Vec<&str> = sents.iter().map(|r| &chunk.text[r.clone()]).collect();
                e.embed(&texts)?
                    .iter()
                    .map(|v| dot(q, v).max(0.0))
                    .collect()
            }
            _ => vec![0.0; sents.len()],
        };
        for i in 0..sents.len() {
            let mut covered: HashSet<&str> = context.iter().map(String::as_str).collect();
            let mut own: HashSet<&str> = HashSet::new();
            let mut best_sim: f32 = 0.0;
            let mut matched: Vec<f32> = matches
                .as_ref()
                .map(|m| m.best[n_sentences + ci].clone())
                .unwrap_or_default();
            // The window so far is too short to quote: extend it even when
            // the next sentence adds no question term ("Muss es sein?").
            let mut too_short = false;
            for j in i..(i + cfg.max_sentences).min(sents.len()) {
                if j > i && apart(&chunk.text, sents, j) {
                    break;
                }
                if let Some(m) = &matches {
                    for (a, b) in matched.iter_mut().zip(&m.best[first + j]) {
                        *a = a.max(*b);
                    }
                }
                let before = covered.len();
                covered.extend(term_sets[j].iter().map(String::as_str));
                own.extend(term_sets[j].iter().map(String::as_str));
                best_sim = best_sim.max(sims[j]);
                // A longer window must add a query term to be worth it.
                if j > i && covered.len() == before && !too_short {
                    break;
                }
                let window = &chunk.text[sents[i].start..sents[j].end];
                too_short = window.unicode_words().count() < cfg.min_words;
                if too_short {
                    continue;
                }
                // No quote begins or ends on a caption or heading.
                if capitals[i] || capitals[j] {
                    continue;
                }
                let share = |set: &HashSet<&str>| {
                    if total_idf > 0.0 {
                        terms
                            .iter()
                            .filter(|(t, _)| set.contains(t.as_str()))
                            .map(|(_, w)| w)
                            .sum::<f32>()
                            / total_idf
                    } else {
                        0.0
                    }
                };
                // Terms the sentences carry themselves count a little extra
                // over terms only the headings supply.
                let lex = share(&covered) + 0.15 * share(&own);
                if share(&own) == 0.0 && best_sim == 0.0 {
                    continue;
                }
                let typed = answer_type.is_some_and(|t| t.found_in(window, &question_words));
                // A window that ends on a question ("RQ1: How prevalent is
                // …?") repeats what is asked; the sentence that answers it
                // comes first.
                let asks = sent(j)
                    .trim_end_matches(|c: char| !c.is_alphanumeric() && c != '?')
                    .ends_with('?');
                let score = lex + cfg.vector_weight * best_sim - 0.08 * (j - i) as f32
                    + if typed { cfg.answer_type_bonus } else { 0.0 }
                    - if asks { QUESTION_COST } else { 0.0 }
                    + matches
                        .as_ref()
                        .map_or(0.0, |m| cfg.max_sim_weight * m.score(&matched));
                windows.push(Window {
                    chunk: ci,
                    first: i,
                    last: j,
                    score,
                });
            }
        }
    }
    windows.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.chunk.cmp(&b.chunk))
            .then(a.first.cmp(&b.first))
    });
    let best = windows.first().map_or(0.0, |w| w.score);
    let mut chosen: Vec<&Window> = Vec::new();
    // The sentences quoted so far, by source: overlapping chunks hold the
    // same sentences, and one sentence is quoted once.
    let mut quoted: HashSet<(&str, String)> = HashSet::new();
    for w in &windows {
        if chosen.len() >= cfg.max_snippets
            || w.score <= 0.0
            || w.score < best * cfg.min_relative_score
        {
            break;
        }
        let same_chunk = chosen.iter().filter(|c| c.chunk == w.chunk).count();
        let overlaps = chosen
            .iter()
            .any(|c| c.chunk == w.chunk && c.first <= w.last && w.first <= c.last);
        let chunk = chunks[w.chunk];
        let keys: Vec<(&str, String)> = all_sents[w.chunk][w.first..=w.last]
            .iter()
            .map(|r| {
                let key = crate::ingest::collapse_ws(&chunk.text[r.clone()]);
                (chunk.source_id.as_str(), key)
            })
            .collect();
        let repeats = keys.iter().any(|k| quoted.contains(k));
        if same_chunk < cfg.per_chunk && !overlaps && !repeats {
            chosen.push(w);
            quoted.extend(keys);
        }
    }
    let follows = follow_focus(&chosen, &all_terms, &asked_for, cfg);
    for w in &follows {
        let c = chunks[w.chunk];
        let sentence = &c.text[all_sents[w.chunk][w.first].clone()];
        let clear = !chosen
            .iter()
            .any(|o| o.chunk == w.chunk && o.first <= w.first && w.first <= o.last);
        if chosen.len() < cfg.max_snippets
            && clear
            && !not_prose(sentence)
            && !sentence.trim_end().ends_with('?')
            && sentence.unicode_words().count() >= cfg.min_words
            && quoted.insert((c.source_id.as_str(), crate::ingest::collapse_ws(sentence)))
        {
            chosen.push(w);
        }
    }
    // Quotes from passages about what the question names (its title or
    // headings name it) come before those that mention it from another
    // subject's page ("As at the Bell Rock, …" under Skerryvore): the
    // answer's first lines are about what was asked.
    let names: Vec<Vec<String>> = crate::retrieve::question_names(question)
        .iter()
        .map(|n| analyze(n))
        .filter(|t| !t.is_empty())
        .collect();
    let about: Vec<bool> = context_terms
        .iter()
        .map(|context| names.iter().any(|n| n.iter().all(|t| context.contains(t))))
        .collect();
    if chosen.iter().any(|w| about[w.chunk]) {
        chosen.sort_by_key(|w| !about[w.chunk]);
    }
    // A quote opening on a sentence that leans on the one before it takes
    // that sentence in too (chosen by its score all the same), as long as it
    // stays within max_sentences and clear of the chunk's other quotes, and
    // that sentence is one: a heading ("2.2 Results") is not what "This"
    // refers to.
    let ends_sentence = |s: &str| {
        s.trim_end_matches(['"', '\'', '”', '’', ')', ']'])
            .ends_with(['.', '!', '?', '…', ':', ';'])
    };
    let mut ranges: Vec<std::ops::Range<usize>> = Vec::with_capacity(chosen.len());
    for w in &chosen {
        let c = chunks[w.chunk];
        let (sents, text) = (&all_sents[w.chunk], &c.text);
        let taken = |k: usize| {
            chosen
                .iter()
                .any(|o| o.chunk == w.chunk && o.first <= k && k <= o.last)
        };
        let sent = |k: usize| &text[sents[k].clone()];
        // A sentence another quote holds (from an overlapping chunk) is
        // not taken in again.
        let mut claim =
            |k: usize| quoted.insert((c.source_id.as_str(), crate::ingest::collapse_ws(sent(k))));
        let mut first = w.first;
        while first > 0
            && w.last - first + 1 < cfg.max_sentences
            && refers_back(sent(first))
            && !apart(text, sents, first)
            && !taken(first - 1)
            && ends_sentence(sent(first - 1))
            && claim(first - 1)
        {
            first -= 1;
        }
        // A question about an event: the quote goes on to tell it, in
        // whole sentences (not onto a heading or a sentence cut short).
        let mut last = w.last;
        while last + 1 < sents.len()
            && last < w.last + event
            && !apart(text, sents, last + 1)
            && !taken(last + 1)
            && ends_sentence(sent(last))
            && ends_sentence(sent(last + 1))
            && !not_prose(sent(last + 1))
            && !sent(last + 1).trim_end().ends_with('?')
            && claim(last + 1)
        {
            last += 1;
        }
        // And the sentence after it, when that one goes on about it ("To
        // mitigate this, we use…"): the thought the quote opened ends there.
        while last + 1 < sents.len()
            && last - first + 1 < cfg.max_sentences
            && goes_on(sent(last + 1))
            && !apart(text, sents, last + 1)
            && !taken(last + 1)
            && ends_sentence(sent(last))
            && ends_sentence(sent(last + 1))
            && !sent(last + 1).trim_end().ends_with('?')
            && claim(last + 1)
        {
            last += 1;
        }
        ranges.push(sents[first].start..sents[last].end);
    }
    let snippets: Vec<Snippet> = chosen
        .iter()
        .zip(ranges)
        .map(|(w, r)| {
            let c = chunks[w.chunk];
            Snippet {
                content: c.text[r.clone()].to_string(),
                source_id: c.source_id.clone(),
                source_title: c.source_title.clone(),
                source_location: c.location.clone(),
                relevance: (w.score / best.max(1e-6)).clamp(0.0, 1.0),
                span: Some(Span {
                    chunk_id: c.id.clone(),
                    start: char_offset(&c.text, r.start),
                    end: char_offset(&c.text, r.end),
                }),
            }
        })
        .collect();
    let summary = summarize(&snippets, event > 0);
    Ok(Extraction {
        no_results: snippets.is_empty(),
        snippets,
        summary,
    })
}

/// Sentence `k` of `text` and the one before it stand either side of text
/// the source does not show (its [`crate::text::HIDDEN_MARK`]): no quote
/// takes in both.
fn apart(text: &str, sents: &[std::ops::Range<usize>], k: usize) -> bool {
    k > 0 && text[sents[k - 1].end..sents[k].start].contains(crate::text::HIDDEN_MARK)
}

/// For each chosen quote that holds none of the `asked_for` terms, the
/// first of the next `cfg.follow_focus` sentences of its passage that does,
/// as a one-sentence window scored like the quote it follows.
fn follow_focus(
    chosen: &[&Window],
    terms: &[Vec<HashSet<String>>],
    asked_for: &HashSet<String>,
    cfg: &ExtractConfig,
) -> Vec<Window> {
    if asked_for.is_empty() || cfg.follow_focus == 0 {
        return Vec::new();
    }
    let holds = |ci: usize, k: usize| asked_for.iter().any(|t| terms[ci][k].contains(t));
    chosen
        .iter()
        .filter(|w| !(w.first..=w.last).any(|k| holds(w.chunk, k)))
        .filter_map(|w| {
            let end = (w.last + cfg.follow_focus).min(terms[w.chunk].len() - 1);
            (w.last + 1..=end)
                .find(|&k| holds(w.chunk, k))
                .map(|k| Window {
                    chunk: w.chunk,
                    first: k,
                    last: k,
                    score: w.score,
                })
        })
        .collect()
}

/// A short summary built from the best snippets, one cited line for each
/// of the first three: its first sentence and those after it that go on
/// about it — or, for a question about an event (`whole`), the whole
/// quote, whose first sentence is the scene and the event comes after.
fn summarize(snippets: &[Snippet], whole: bool) -> String {
    snippets
        .iter()
        .enumerate()
        .take(3)
        .map(|(i, s)| {
            // The first sentence, and those after it that go on about it
            // (a quote that took in what its sentence refers to reads whole).
            let sents = sentences(&s.content);
            let lead = if whole {
                sents.len().max(1)
            } else {
                1 + sents
                    .iter()
                    .skip(1)
                    .take_while(|r| goes_on(&s.content[(*r).clone()]))
                    .count()
            };
            let first = match (sents.first(), sents.get(lead - 1)) {
                (Some(a), Some(b)) => s.content[a.start..b.end].to_string(),
                _ => s.content.clone(),
            };
            let where_ = if s.source_location.is_empty() {
                s.source_title.clone()
            } else {
                format!("{}, {}", s.source_title, s.source_location)
            };
            // A "[1]" in a title or heading is not a citation marker.
            let where_ = where_.replace('[', "(").replace(']', ")");
            format!(
                "{where_}: “{}” [{}]",
                crate::ingest::collapse_ws(&first),
                i + 1
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Not a statement to quote: a line in capitals throughout (two letters
/// or more), a caption or a heading ("MONUMENT OF BERNARDO PASQUINI IN THE
/// CHURCH OF…"); or a record's field (reStructuredText's ":Subject:
/// Scottish lighthouse engineering", a document's docinfo), shown as a
/// table of facts about the work.
fn not_prose(t: &str) -> bool {
    let mut letters = t.chars().filter(|c| c.is_alphabetic());
    let two = letters.clone().nth(1).is_some();
    let capitals = two && letters.all(char::is_uppercase);
    let field = t
        .trim_start()
        .strip_prefix(':')
        .filter(|rest| rest.starts_with(char::is_alphabetic))
        .and_then(|rest| rest.find(':').map(|at| &rest[at + 1..]))
        .is_some_and(|after| after.is_empty() || after.starts_with(char::is_whitespace));
    capitals || field
}

mod question;
pub use question::{AnswerType, focus_words};

#[cfg(test)]
mod tests;
