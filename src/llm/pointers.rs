//! Pointer mode (`llm.extraction = "pointers"`): every sentence of the
//! context is numbered ("[S12] …"), the model answers with ranges of those
//! ids, and each quote is the source's own text for its range. A quote is
//! therefore verbatim by construction; validation still checks it, as it
//! checks every snippet.
//!
//! A pointer that names no sentence of the context, or a range that crosses
//! from one chunk into another, cannot be turned into source text. It is
//! kept as a snippet that says what the model pointed at, so that the
//! summary's citation numbers stay right and validation drops it with the
//! other unfounded quotes, where the author can see it.

use super::parse::first_json_object;
use crate::budget::format_header;
use crate::chunk::Chunk;
use crate::extract::{Extraction, MAX_SNIPPETS, Snippet, Span};
use crate::provider::LlmError;
use crate::text::{char_offset, sentences, shown_sentences};
use serde_json::{Map, Value, json};
use std::ops::Range;

/// Most sentences one quote may span; a longer range is cut to its first
/// this many sentences (still one contiguous passage of the source).
pub const MAX_QUOTE_SENTENCES: usize = 6;

/// The chunks of a request with their sentences numbered S1, S2, … in the
/// order they are shown.
pub struct Numbered<'a> {
    chunks: &'a [&'a Chunk],
    /// Sentence S(n+1): its chunk's index and its byte range in the text.
    sentences: Vec<(usize, Range<usize>)>,
}

impl<'a> Numbered<'a> {
    pub fn new(chunks: &'a [&'a Chunk]) -> Self {
        let sentences = chunks
            .iter()
            .enumerate()
            .flat_map(|(ci, c)| shown_sentences(&c.text).into_iter().map(move |r| (ci, r)))
            .collect();
        Numbered { chunks, sentences }
    }

    /// The ids, in order: "S1", "S2", ….
    pub fn ids(&self) -> Vec<String> {
        (1..=self.sentences.len())
            .map(|n| format!("S{n}"))
            .collect()
    }

    /// The context the model reads: each chunk's header, then its
    /// sentences one per line behind their ids.
    pub fn context(&self) -> String {
        let mut out = String::new();
        let mut n = 0;
        for (ci, chunk) in self.chunks.iter().enumerate() {
            let ranges = self.sentences.iter().filter(|(c, _)| *c == ci);
            n = write_chunk(&mut out, chunk, ranges.map(|(_, r)| r.clone()), n);
        }
        out
    }

    /// The extraction the model's pointers stand for. Reply order is kept
    /// (the summary cites quotes by their place in it), at most
    /// [`MAX_SNIPPETS`] quotes.
    pub fn resolve(&self, reply: PointerReply) -> Extraction {
        let snippets: Vec<Snippet> = reply
            .quotes
            .iter()
            .take(MAX_SNIPPETS)
            .enumerate()
            .map(|(i, p)| self.snippet(p, i))
            .collect();
        Extraction {
            no_results: reply.no_results.unwrap_or(snippets.is_empty()),
            snippets,
            summary: reply.summary,
        }
    }

    fn snippet(&self, p: &Pointer, place: usize) -> Snippet {
        let relevance = p
            .relevance
            .unwrap_or(1.0 - 0.1 * place as f32)
            .clamp(0.0, 1.0);
        let at = |id: &str| {
            sentence_number(id)
                .and_then(|n| n.checked_sub(1))
                .filter(|&i| i < self.sentences.len())
        };
        if let Some(why) = p.unusable {
            return unfounded(p, why, relevance);
        }
        let (Some(a), Some(b)) = (at(&p.from), at(&p.to)) else {
            return unfounded(p, "names a sentence that is not in the context", relevance);
        };
        let (first, last) = (a.min(b), a.max(b));
        let ci = self.sentences[first].0;
        if self.sentences[last].0 != ci {
            return unfounded(p, "runs from one source passage into another", relevance);
        }
        let last = last.min(first + MAX_QUOTE_SENTENCES - 1);
        let chunk = self.chunks[ci];
        let (start, end) = (self.sentences[first].1.start, self.sentences[last].1.end);
        if chunk.text[start..end].contains(crate::text::HIDDEN_MARK) {
            return unfounded(p, "runs across text the source does not show", relevance);
        }
        Snippet {
            content: chunk.text[start..end].to_string(),
            source_id: chunk.source_id.clone(),
            source_title: chunk.source_title.clone(),
            source_location: chunk.location.clone(),
            relevance,
            // Spans count chars, as every engine's do.
            span: Some(Span {
                chunk_id: chunk.id.clone(),
                start: char_offset(&chunk.text, start),
                end: char_offset(&chunk.text, end),
            }),
        }
    }
}

/// A pointer that stands for no passage: its text says what the model
/// pointed at, and validation finds it in no source.
fn unfounded(p: &Pointer, why: &str, relevance: f32) -> Snippet {
    let range = if p.from.is_empty() {
        "an item".to_string()
    } else if p.from == p.to {
        clip(&p.from)
    } else if p.unusable.is_some() {
        format!("{} … {}", clip(&p.from), clip(&p.to))
    } else {
        format!("{} to {}", clip(&p.from), clip(&p.to))
    };
    Snippet {
        content: format!("(the model pointed at {range}, which {why})"),
        source_id: String::new(),
        source_title: String::new(),
        source_location: String::new(),
        relevance,
        span: None,
    }
}

/// A model's id as shown to the author: at most 20 chars.
fn clip(id: &str) -> String {
    let mut s: String = id.chars().take(20).collect();
    if id.chars().count() > 20 {
        s.push('…');
    }
    format!("{s:?}")
}

/// Write one chunk's header and its sentences numbered from `n + 1`;
/// returns the last number written.
fn write_chunk(
    out: &mut String,
    chunk: &Chunk,
    ranges: impl Iterator<Item = Range<usize>>,
    mut n: usize,
) -> usize {
    out.push_str(&format_header(chunk));
    for r in ranges {
        n += 1;
        out.push_str(&format!("[S{n}] "));
        // One line per sentence: a wrapped line inside it becomes a space.
        out.push_str(&crate::ingest::collapse_ws(&chunk.text[r]));
        out.push('\n');
    }
    n
}

/// A chunk as pointer mode shows it, numbered from S1: what the budget
/// counts (ids further on are at most a token longer each).
pub fn format_chunk_numbered(chunk: &Chunk) -> String {
    let mut out = String::new();
    write_chunk(&mut out, chunk, sentences(&chunk.text).into_iter(), 0);
    out
}

/// "S12", "s12", "[S12]", "12" → 12.
fn sentence_number(id: &str) -> Option<usize> {
    let t = id.trim().trim_matches(|c| c == '[' || c == ']').trim();
    let digits = t.strip_prefix(['S', 's']).unwrap_or(t);
    digits.parse().ok()
}

/// One quote as the model gave it: the ids of its first and last sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Pointer {
    pub from: String,
    pub to: String,
    pub relevance: Option<f32>,
    /// Why the item stands for no passage (ids that are not one run, an
    /// item with no id): it keeps its place, so the summary's numbers
    /// still name the quotes the model meant.
    pub unusable: Option<&'static str>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct PointerReply {
    pub quotes: Vec<Pointer>,
    pub summary: String,
    pub no_results: Option<bool>,
}

/// The schema sent with `llm.json_schema` on: ids restricted to those of
/// the context, so a grammar-constrained server cannot name another.
pub fn schema(ids: &[String]) -> Value {
    let id = json!({"type": "string", "enum": ids});
    json!({
        "type": "object",
        "properties": {
            "quotes": {
                "type": "array",
                "maxItems": MAX_SNIPPETS,
                "items": {
                    "type": "object",
                    "properties": {"from": id, "to": id},
                    "required": ["from", "to"]
                }
            },
            "summary": {"type": "string"},
            "noResults": {"type": "boolean"}
        },
        "required": ["quotes", "summary", "noResults"]
    })
}

/// Read the model's reply, leniently: `{"quotes": [...]}` (or `snippets`,
/// `sentences`), each quote `{"from", "to"}` (or `start`/`end`,
/// `first`/`last`, `id`, a list of `ids`), a string ("S3", "S3-S5") or a
/// number. Each item is one quote, in its place: a list of ids that are
/// not consecutive, or an item with no id, stands for no passage (never one
/// stitched passage, and never several quotes, which would renumber the
/// rest).
pub fn parse_pointers(reply: &str) -> Result<PointerReply, LlmError> {
    let Value::Object(obj) = first_json_object(reply)? else {
        return Err(LlmError::Schema {
            reason: "the reply is not a JSON object".into(),
        });
    };
    let get = |names: &[&str]| field(&obj, names);
    let no_results = match get(&["noResults", "no_results", "noresults"]) {
        Some(Value::Bool(b)) => Some(*b),
        Some(Value::String(s)) => s.trim().parse::<bool>().ok(),
        _ => None,
    };
    let quotes = match get(&["quotes", "snippets", "sentences", "pointers"]) {
        Some(Value::Array(items)) => items.iter().map(pointer_of).collect(),
        None | Some(Value::Null) if no_results == Some(true) => Vec::new(),
        _ => {
            return Err(LlmError::Schema {
                reason: "expected an object with a \"quotes\" array of {from, to}".into(),
            });
        }
    };
    let summary = match get(&["summary"]) {
        Some(Value::String(s)) => s.trim().to_string(),
        _ => String::new(),
    };
    Ok(PointerReply {
        quotes,
        summary,
        no_results,
    })
}

fn pointer_of(item: &Value) -> Pointer {
    let one = |from: String, to: String, relevance: Option<f32>| Pointer {
        from,
        to,
        relevance,
        unusable: None,
    };
    let none = |why: &'static str| Pointer {
        from: String::new(),
        to: String::new(),
        relevance: None,
        unusable: Some(why),
    };
    match item {
        Value::String(s) => match split_range(s) {
            Some((a, b)) => one(a.into(), b.into(), None),
            None => one(s.clone(), s.clone(), None),
        },
        Value::Number(n) => one(n.to_string(), n.to_string(), None),
        Value::Array(ids) => run(ids.iter().filter_map(id_text).collect(), None),
        Value::Object(o) => {
            let relevance = field(o, &["relevance", "score"])
                .and_then(Value::as_f64)
                .map(|x| x as f32);
            if let Some(Value::Array(ids)) = field(o, &["ids", "sentences"]) {
                return run(ids.iter().filter_map(id_text).collect(), relevance);
            }
            let from = field(o, &["from", "start", "first", "id", "sentence"]).and_then(id_text);
            let to = field(o, &["to", "end", "last"]).and_then(id_text);
            match (from, to) {
                (Some(a), Some(b)) => one(a, b, relevance),
                (Some(a), None) | (None, Some(a)) => match split_range(&a) {
                    Some((x, y)) => one(x.into(), y.into(), relevance),
                    None => one(a.clone(), a, relevance),
                },
                (None, None) => none("gives no sentence id"),
            }
        }
        _ => none("gives no sentence id"),
    }
}

fn field<'v>(o: &'v Map<String, Value>, names: &[&str]) -> Option<&'v Value> {
    names.iter().find_map(|n| o.get(*n))
}

fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// "S3-S5", "S3–S5", "S3 to S5" → ("S3", "S5").
fn split_range(s: &str) -> Option<(&str, &str)> {
    ["-", "–", "—", " to ", ".."]
        .iter()
        .find_map(|sep| s.split_once(sep))
        .map(|(a, b)| (a.trim(), b.trim()))
        .filter(|(a, b)| sentence_number(a).is_some() && sentence_number(b).is_some())
}

/// A list of ids as one quote: its first to its last id when they are
/// consecutive numbers, else a quote that stands for no passage.
fn run(ids: Vec<String>, relevance: Option<f32>) -> Pointer {
    let numbers: Vec<Option<usize>> = ids.iter().map(|id| sentence_number(id)).collect();
    let consecutive = numbers
        .windows(2)
        .all(|w| matches!(w, [Some(a), Some(b)] if *b == a + 1));
    let (Some(from), Some(to)) = (ids.first(), ids.last()) else {
        return Pointer {
            from: String::new(),
            to: String::new(),
            relevance,
            unusable: Some("gives no sentence id"),
        };
    };
    Pointer {
        from: from.clone(),
        to: to.clone(),
        relevance,
        unusable: (!consecutive).then_some("are not one passage of consecutive sentences"),
    }
}
