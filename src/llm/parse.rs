//! Reading what the model wrote, leniently but safely.
//!
//! Models wrap JSON in code fences, put prose before it, omit `noResults`,
//! give relevance as "high", return too many snippets. All of that is
//! tolerated; anything that is not an object with a `snippets` array (or
//! `noResults: true`) is a [`LlmError::Schema`], and nothing panics.

use crate::extract::{Extraction, MAX_SNIPPETS, Snippet};
use crate::provider::LlmError;
use serde_json::{Map, Value};

/// Parse the model's extraction reply.
///
/// `span` is `None` on every snippet: validation locates them. When the
/// model says `noResults: true` its snippets are still returned (the gate
/// refuses on `no_results` anyway, and the panes can show what was dropped).
pub fn parse_extraction(reply: &str) -> Result<Extraction, LlmError> {
    let value = first_json_object(reply)?;
    let Value::Object(obj) = value else {
        return Err(LlmError::Schema {
            reason: format!("the reply is {}, not an object", kind(&value)),
        });
    };
    let no_results = field(&obj, &["noResults", "no_results", "noresults"]).and_then(boolish);
    let items = match field(&obj, &["snippets"]) {
        Some(Value::Array(items)) => items.as_slice(),
        None | Some(Value::Null) if no_results == Some(true) => &[],
        Some(other) => {
            return Err(LlmError::Schema {
                reason: format!(
                    "\"snippets\" is {}, not an array of {{content, sourceId, ...}}",
                    kind(other)
                ),
            });
        }
        None => {
            return Err(LlmError::Schema {
                reason: format!(
                    "expected an object with a \"snippets\" array, got one with keys {}",
                    keys(&obj)
                ),
            });
        }
    };
    // Every item keeps its place (the summary cites quotes by it): one
    // with no quote text stands for no passage, and validation drops it.
    let snippets: Vec<Snippet> = items
        .iter()
        .map(|item| snippet(item).unwrap_or_else(no_quote))
        .take(MAX_SNIPPETS)
        .collect();
    let summary = match field(&obj, &["summary"]) {
        Some(Value::String(s)) => s.trim().to_string(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    };
    Ok(Extraction {
        no_results: no_results.unwrap_or(snippets.is_empty()),
        snippets,
        summary,
    })
}

/// A rerank reply: `{"score": n}` with n in 0–3 (a fraction rounded down),
/// or a bare number. `None` when it is anything else.
pub fn parse_score(reply: &str) -> Option<u8> {
    let number = match first_json_object(reply) {
        Ok(Value::Object(obj)) => match field(&obj, &["score", "relevance", "rating"])? {
            Value::Number(n) => n.as_f64()?,
            Value::String(s) => s.trim().parse::<f64>().ok()?,
            _ => return None,
        },
        _ => {
            let inner = fenced(reply).unwrap_or(reply);
            inner
                .trim()
                .trim_matches(|c: char| c == '"' || c == '\'' || c == '.' || c.is_whitespace())
                .parse::<f64>()
                .ok()?
        }
    };
    // A fractional score is the lower one: 2.5 does not say "contains the
    // answer" (3), which the reranked gate asks for.
    (number.is_finite() && (-0.25..=3.25).contains(&number))
        .then(|| (number + 1e-6).floor().clamp(0.0, 3.0) as u8)
}

/// The first balanced top-level JSON object of `reply` that parses: inside
/// a code fence first, then anywhere in the text.
pub fn first_json_object(reply: &str) -> Result<Value, LlmError> {
    let mut first_err: Option<LlmError> = None;
    let candidates = fenced(reply).into_iter().chain(std::iter::once(reply));
    for text in candidates {
        match scan_objects(text) {
            Ok(v) => return Ok(v),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.unwrap_or_else(|| LlmError::Parse {
        reason: "no JSON object in the reply".into(),
    }))
}

fn scan_objects(text: &str) -> Result<Value, LlmError> {
    let mut pos = 0;
    let mut parse_error: Option<String> = None;
    while let Some(off) = text[pos..].find('{') {
        let start = pos + off;
        let Some(end) = matching_brace(text.as_bytes(), start) else {
            return Err(LlmError::Parse {
                reason: format!(
                    "the JSON object starting at byte {start} never closes (the reply was cut \
                     off, or its braces do not balance){}",
                    parse_error
                        .map(|e| format!("; an earlier object failed: {e}"))
                        .unwrap_or_default()
                ),
            });
        };
        match serde_json::from_str::<Value>(&text[start..=end]) {
            Ok(v) => return Ok(v),
            Err(e) => {
                parse_error.get_or_insert_with(|| e.to_string());
            }
        }
        pos = end + 1;
    }
    Err(LlmError::Parse {
        reason: match parse_error {
            Some(e) => format!("the JSON object in the reply is malformed ({e})"),
            None => format!("no JSON object in the reply: {:?}", excerpt(text, 80)),
        },
    })
}

/// Byte index of the `}` closing the `{` at `start`, skipping braces inside
/// strings (with their escapes).
fn matching_brace(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate().skip(start) {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The text inside the first code fence (to the closing fence, or to the
/// end when it never closes).
fn fenced(reply: &str) -> Option<&str> {
    let open = reply.find("```")?;
    let after = &reply[open + 3..];
    // Skip the info string ("json") up to the end of the line.
    let body_start = after.find('\n').map(|i| i + 1).unwrap_or(after.len());
    let info = &after[..body_start];
    // "```{...}```" on one line: no info string.
    let body = if info.trim_start().starts_with('{') {
        after
    } else {
        &after[body_start..]
    };
    Some(match body.find("```") {
        Some(close) => &body[..close],
        None => body,
    })
}

/// An item of the reply with no quote text in it.
fn no_quote() -> Snippet {
    Snippet {
        content: "(the model gave an item with no quote text)".into(),
        source_id: String::new(),
        source_title: String::new(),
        source_location: String::new(),
        relevance: 0.0,
        span: None,
    }
}

fn snippet(item: &Value) -> Option<Snippet> {
    let (content, obj) = match item {
        Value::String(s) => (s.as_str(), None),
        Value::Object(obj) => match field(obj, &["content"]) {
            Some(Value::String(s)) => (s.as_str(), Some(obj)),
            _ => return None,
        },
        _ => return None,
    };
    let content = content.trim();
    if content.is_empty() {
        return None;
    }
    let text = |names: &[&str]| -> String {
        match obj.and_then(|o| field(o, names)) {
            Some(Value::String(s)) => s.trim().to_string(),
            Some(Value::Number(n)) => n.to_string(),
            _ => String::new(),
        }
    };
    Some(Snippet {
        content: content.to_string(),
        source_id: text(&["sourceId", "source_id", "sourceID"]),
        source_title: text(&["sourceTitle", "source_title"]),
        source_location: text(&["sourceLocation", "source_location", "location"]),
        relevance: relevance(obj.and_then(|o| field(o, &["relevance"]))),
        span: None,
    })
}

/// The model's relevance, whatever its form, in [0, 1] (0.5 when absent or
/// unreadable).
fn relevance(v: Option<&Value>) -> f32 {
    const UNKNOWN: f64 = 0.5;
    let scale = |n: f64| -> f64 {
        if !n.is_finite() {
            UNKNOWN
        } else if n <= 1.0 {
            n
        } else if n <= 10.0 {
            n / 10.0
        } else if n <= 100.0 {
            n / 100.0
        } else {
            1.0
        }
    };
    let r = match v {
        Some(Value::Number(n)) => n.as_f64().map(scale).unwrap_or(UNKNOWN),
        Some(Value::Bool(b)) => f64::from(u8::from(*b)),
        Some(Value::String(s)) => {
            let s = s.trim().to_lowercase();
            if let Some(p) = s.strip_suffix('%') {
                p.trim()
                    .parse::<f64>()
                    .map(|n| n / 100.0)
                    .unwrap_or(UNKNOWN)
            } else if let Ok(n) = s.parse::<f64>() {
                scale(n)
            } else {
                match s.as_str() {
                    "very high" | "highest" | "critical" => 1.0,
                    "high" | "strong" => 0.9,
                    "medium" | "moderate" | "mid" => 0.6,
                    "low" | "weak" => 0.3,
                    "very low" | "none" => 0.1,
                    _ => UNKNOWN,
                }
            }
        }
        _ => UNKNOWN,
    };
    (if r.is_finite() { r } else { UNKNOWN }).clamp(0.0, 1.0) as f32
}

fn field<'a>(obj: &'a Map<String, Value>, names: &[&str]) -> Option<&'a Value> {
    names.iter().find_map(|n| obj.get(*n))
}

fn boolish(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_lowercase().as_str() {
            "true" | "yes" => Some(true),
            "false" | "no" => Some(false),
            _ => None,
        },
        Value::Number(n) => n.as_f64().map(|n| n != 0.0),
        _ => None,
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn keys(obj: &Map<String, Value>) -> String {
    if obj.is_empty() {
        return "(none)".into();
    }
    let mut names: Vec<String> = obj.keys().take(8).map(|k| excerpt(k, 40)).collect();
    if obj.len() > 8 {
        names.push("…".into());
    }
    names.join(", ")
}

fn excerpt(s: &str, max: usize) -> String {
    let mut out: String = s.chars().take(max).collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const CLEAN: &str = r#"{"snippets":[{"content":"The river rose in March.","sourceId":"notes.md","sourceTitle":"Notes","sourceLocation":"Floods","relevance":0.9}],"summary":"It rose in March [1].","noResults":false}"#;

    #[test]
    fn clean_reply() {
        let e = parse_extraction(CLEAN).unwrap();
        assert!(!e.no_results);
        assert_eq!(e.summary, "It rose in March [1].");
        let s = &e.snippets[0];
        assert_eq!(s.content, "The river rose in March.");
        assert_eq!(s.source_id, "notes.md");
        assert_eq!(s.source_title, "Notes");
        assert_eq!(s.source_location, "Floods");
        assert!((s.relevance - 0.9).abs() < 1e-6);
        assert_eq!(s.span, None);
    }

    #[test]
    fn fences_prose_and_braces_in_strings() {
        let fenced = format!("Here you go:\n```json\n{CLEAN}\n```\nHope that helps {{!}}");
        assert_eq!(parse_extraction(&fenced).unwrap().snippets.len(), 1);
        let one_line = format!("```{CLEAN}```");
        assert_eq!(parse_extraction(&one_line).unwrap().snippets.len(), 1);
        let prose = format!("Sure {{here}} is the JSON: {CLEAN} and {{more}}");
        assert_eq!(parse_extraction(&prose).unwrap().snippets.len(), 1);
        let tricky = r#"{"snippets":[{"content":"a } brace and a \" quote {"}]}"#;
        let e = parse_extraction(tricky).unwrap();
        assert_eq!(e.snippets[0].content, "a } brace and a \" quote {");
        assert!(!e.no_results, "derived from the non-empty list");
    }

    #[test]
    fn lenient_fields() {
        let r = r#"{"snippets":[
            {"content":"  one  ","relevance":"high","sourceId":7},
            {"content":"two","relevance":"0.8"},
            {"content":"three","relevance":8},
            {"content":"four","relevance":"75%"},
            {"content":"five","relevance":"whatever"},
            "six",
            {"content":""},
            null
        ]}"#;
        let e = parse_extraction(r).unwrap();
        let got: Vec<(&str, f32)> = e
            .snippets
            .iter()
            .map(|s| (s.content.as_str(), s.relevance))
            .collect();
        // An item with no quote text keeps its place, so that the
        // summary's [7] is still the model's seventh item.
        let none = ("(the model gave an item with no quote text)", 0.0);
        assert_eq!(
            got,
            vec![
                ("one", 0.9),
                ("two", 0.8),
                ("three", 0.8),
                ("four", 0.75),
                ("five", 0.5),
                ("six", 0.5),
                none,
                none,
            ]
        );
        assert_eq!(e.snippets[0].source_id, "7");
        assert_eq!(e.summary, "");
    }

    #[test]
    fn no_results_forms() {
        let e = parse_extraction(r#"{"noResults": true}"#).unwrap();
        assert!(e.no_results && e.snippets.is_empty());
        let e = parse_extraction(r#"{"snippets": [], "summary": ""}"#).unwrap();
        assert!(e.no_results, "derived from the empty list");
        let e = parse_extraction(r#"{"snippets": null, "noResults": "true"}"#).unwrap();
        assert!(e.no_results);
    }

    #[test]
    fn schema_and_parse_errors() {
        for bad in [
            r#"{"answer": "Paris"}"#,
            r#"{"snippets": "none"}"#,
            r#"{"snippets": {"content": "x"}}"#,
            r#"{"noResults": false}"#,
        ] {
            assert!(
                matches!(parse_extraction(bad), Err(LlmError::Schema { .. })),
                "{bad}"
            );
        }
        for bad in [
            "",
            "I could not find anything.",
            r#"{"snippets": [{"content": "cut"#,
            r#"{"snippets": [],}"#,
            "[1, 2, 3]",
        ] {
            assert!(
                matches!(parse_extraction(bad), Err(LlmError::Parse { .. })),
                "{bad}"
            );
        }
        let e = parse_extraction(r#"{"answer": 1, "sources": []}"#).unwrap_err();
        assert!(e.to_string().contains("answer, sources"), "{e}");
    }

    #[test]
    fn at_most_eight_snippets() {
        let items: Vec<String> = (0..12)
            .map(|i| format!(r#"{{"content":"s{i}"}}"#))
            .collect();
        let r = format!(r#"{{"snippets":[{}]}}"#, items.join(","));
        let e = parse_extraction(&r).unwrap();
        assert_eq!(e.snippets.len(), MAX_SNIPPETS);
        assert_eq!(e.snippets[7].content, "s7");
    }

    #[test]
    fn scores() {
        assert_eq!(parse_score(r#"{"score": 3}"#), Some(3));
        assert_eq!(parse_score("```json\n{\"score\": 2}\n```"), Some(2));
        assert_eq!(parse_score(r#"The score: {"score": "1"}"#), Some(1));
        assert_eq!(parse_score(r#"{"score": 2.0}"#), Some(2));
        assert_eq!(parse_score(r#"{"score": 2.5}"#), Some(2));
        assert_eq!(parse_score(r#"{"score": 2.99}"#), Some(2));
        assert_eq!(parse_score("0"), Some(0));
        assert_eq!(parse_score(" 3.\n"), Some(3));
        assert_eq!(parse_score(r#"{"score": 7}"#), None);
        assert_eq!(parse_score(r#"{"score": -1}"#), None);
        assert_eq!(parse_score(r#"{"verdict": "relevant"}"#), None);
        assert_eq!(parse_score("relevant"), None);
        assert_eq!(parse_score(""), None);
    }

    #[test]
    fn every_truncation_of_a_reply_is_handled() {
        let reply = format!("Réponse « ok »:\n```json\n{CLEAN}\n```");
        for (i, _) in reply.char_indices() {
            let _ = parse_extraction(&reply[..i]);
            let _ = parse_score(&reply[..i]);
        }
    }

    proptest! {
        #[test]
        fn never_panics(s in any::<String>()) {
            let _ = parse_extraction(&s);
            let _ = parse_score(&s);
        }

        #[test]
        fn never_panics_on_json_like_text(s in r#"[{}\[\]":,\\ a-z0-9`\n]{0,200}"#) {
            let _ = parse_extraction(&s);
            let _ = parse_score(&s);
            let wrapped = format!("{{\"snippets\":[{s}");
            let _ = parse_extraction(&wrapped);
        }
    }
}
