//! `ask --engine llm` end to end: the real binary against a mock
//! OpenAI-compatible server whose extraction reply mixes every kind of
//! unfaithful snippet. Validation must catch each one.

mod common;
use common::*;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

fn samples() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample-sources")
        .to_string_lossy()
        .into_owned()
}

fn is_rerank(r: &Request) -> bool {
    r.json()["messages"]
        .as_array()
        .is_some_and(|m| m.len() == 1)
        && r.body.contains("Score the passage")
}

fn extraction_reply() -> String {
    let s = |content: &str, source: &str| {
        json!({"content": content, "sourceId": source, "sourceTitle": "The Pharos of Alexandria",
               "sourceLocation": "Origins", "relevance": 0.9})
    };
    json!({
        "snippets": [
            // 1. verbatim
            s("The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.", "pharos-of-alexandria.md"),
            // 2. paraphrase
            s("Sostratus, a rich courtier from Cnidus, was the man who designed the great lighthouse.", "pharos-of-alexandria.md"),
            // 3. two real sentences, reversed
            s("A later and probably invented story claims that Sostratus carved his own name into the stone and then covered it with plaster bearing the king’s name, knowing the plaster would crumble within a generation and reveal the true builder to posterity. The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.", "pharos-of-alexandria.md"),
            // 4. real, but from another source
            s("Grace Darling was, for a few years in the late 1830s, the most famous young woman in Britain.", "pharos-of-alexandria.md"),
            // 5. invented
            s("The Pharos was cast entirely in bronze by Sostratus in the year 1200 BC for the Pharaoh.", "pharos-of-alexandria.md"),
            // 6. one word
            s("Sostratus", "pharos-of-alexandria.md"),
            // 7. curly vs straight quotes, case: normalized
            s("the architect was sostratus of cnidus, a wealthy courtier and diplomat as much as a builder.", "pharos-of-alexandria.md"),
        ],
        "summary": "The architect was Sostratus of Cnidus [1]. He designed it in bronze [5]. Everyone agrees he was rich.",
        "noResults": false
    })
    .to_string()
}

fn ask(mock: &Mock, extra: &[&str]) -> Value {
    ask_about(
        mock,
        "Who was the architect of the Pharos of Alexandria?",
        extra,
    )
}

fn ask_about(mock: &Mock, question: &str, extra: &[&str]) -> Value {
    let idx = tempfile::tempdir().unwrap();
    let logs = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_research-board"))
        .args(["ask", &samples(), question, "--json", "--engine", "llm"])
        .args([
            "--base-url",
            &mock.base_url(),
            "--model",
            "mock-model",
            "--index-dir",
        ])
        .arg(idx.path())
        .args(extra)
        .env("XDG_CONFIG_HOME", logs.path())
        .env("RESEARCH_BOARD_LOG_DIR", logs.path())
        .env("OPENAI_API_KEY", "sk-mock-key")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let audit = std::fs::read_to_string(logs.path().join("audit.jsonl")).unwrap();
    assert!(!audit.contains("sk-mock-key"));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `ask --engine llm --no-rerank` about the architect, as text (no
/// `--json`), against the server at `base_url`.
fn ask_text(base_url: &str) -> std::process::Output {
    let idx = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_research-board"))
        .args(["ask", &samples(), "Who was the architect of the Pharos?"])
        .args(["--engine", "llm", "--no-rerank", "--base-url", base_url])
        .args(["--model", "m", "--index-dir"])
        .arg(idx.path())
        .env("RESEARCH_BOARD_LOG_DIR", idx.path())
        .env("OPENAI_API_KEY", "sk-mock-key")
        .output()
        .unwrap()
}

#[test]
fn every_unfaithful_snippet_is_caught_and_explained() {
    let mock = Mock::with(|r| {
        if is_rerank(r) {
            let score = if r.body.contains("Sostratus") { 3 } else { 1 };
            ok(&json!({ "score": score }).to_string())
        } else {
            ok(&extraction_reply())
        }
    });
    let o = ask(&mock, &[]);
    assert_eq!(o["gate"]["tier"], "reranked", "{:#}", o["gate"]);
    assert_eq!(o["gate"]["decision"], "pass");
    assert!(
        o["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["rerank"].is_u64())
    );
    let verdicts: Vec<&str> = o["snippets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        [
            "verbatim",
            "not_found",
            "non_contiguous",
            "misattributed",
            "not_found",
            "too_short",
            "normalized"
        ]
    );
    let s = &o["snippets"];
    assert_eq!(s[2]["spans"].as_array().unwrap().len(), 2);
    assert_eq!(s[3]["found_source_id"], "keepers/grace-darling.md");
    // Copying a flagged snippet copies the source's own words.
    assert_eq!(
        s[3]["copy_text"],
        "Grace Darling was, for a few years in the late 1830s, the most famous young woman in Britain."
    );
    assert_eq!(
        s[6]["copy_text"],
        "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder."
    );
    assert_eq!(o["counts"]["validated"], 2);
    assert_eq!(o["counts"]["flagged"], 2);
    assert_eq!(o["counts"]["dropped"], 3);
    // Claims: [1] fine, [5] cites a dropped snippet, the last is uncited.
    let issues: Vec<Value> = o["answer"]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["issue"].clone())
        .collect();
    assert_eq!(
        issues,
        [Value::Null, json!("cites_dropped_only"), json!("uncited")]
    );
    assert_eq!(o["answer"]["confidence"], "low");
    assert_eq!(o["usage"]["prompt_tokens"].as_u64().unwrap() % 321, 0);
    // The extraction request used JSON mode and carried the key.
    let ex = mock.requests().into_iter().find(|r| !is_rerank(r)).unwrap();
    assert_eq!(ex.json()["response_format"]["type"], "json_object");
    assert_eq!(ex.header("authorization"), Some("Bearer sk-mock-key"));
}

#[test]
fn a_failed_reranker_falls_back_to_the_retrieval_tier() {
    let mock = Mock::with(|r| {
        if is_rerank(r) {
            status(400, "{\"error\": \"bad\"}")
        } else {
            ok(&extraction_reply())
        }
    });
    let o = ask(&mock, &[]);
    assert_eq!(o["gate"]["tier"], "retrieval");
    assert!(
        o["rerank_error"].as_str().unwrap().contains("400"),
        "{}",
        o["rerank_error"]
    );
    assert_eq!(o["counts"]["validated"], 2);
}

#[test]
fn reranker_scores_below_threshold_refuse_before_extraction() {
    let mock = Mock::with(|r| {
        if is_rerank(r) {
            ok("{\"score\": 1}")
        } else {
            ok(&extraction_reply())
        }
    });
    let o = ask(&mock, &[]);
    assert_eq!(o["gate"]["decision"], "refuse");
    assert_eq!(o["gate"]["reason"], "no_chunk_above_threshold");
    assert_eq!(o["answer"]["refused"], true);
    assert!(
        mock.requests().iter().all(is_rerank),
        "extraction must not run after a refusal"
    );
}

/// A model that scores every passage 3 (a weak one, or one following an
/// instruction planted in a source) gets an off-topic question answered,
/// but never with high confidence: "high" needs retrieval's strong
/// evidence in every tier.
#[test]
fn a_reranker_alone_never_makes_an_answer_high() {
    let mock = Mock::with(|r| {
        if is_rerank(r) {
            ok("{\"score\": 3}")
        } else {
            ok(&json!({
                "snippets": [{"content": "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.",
                              "sourceId": "pharos-of-alexandria.md", "sourceTitle": "The Pharos of Alexandria",
                              "sourceLocation": "Origins", "relevance": 0.9}],
                "summary": "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder [1].",
                "noResults": false
            })
            .to_string())
        }
    });
    let o = ask_about(
        &mock,
        "What temperature should olive oil reach in a deep fryer?",
        &[],
    );
    assert_eq!(o["gate"]["tier"], "reranked", "{o:#}");
    assert_eq!(o["counts"]["validated"], 1, "{o:#}");
    assert_ne!(o["answer"]["confidence"], "high", "{o:#}");
    // The same model on a question the passages answer: high.
    let o = ask(&mock, &[]);
    assert_eq!(o["answer"]["confidence"], "high", "{o:#}");
}

/// A reply that is not the JSON asked for (broken, cut off at the token
/// limit, an object of another shape) loses no answer: the built-in
/// extractor quotes the same passages, and the outcome says why.
#[test]
fn a_malformed_reply_falls_back_to_the_built_in_extractor() {
    let cut = r#"{"snippets": [{"content": "The architect was"#;
    for (reply, finish, why) in [
        (cut, "stop", "not valid JSON"),
        (cut, "length", "cut off at max_tokens"),
        (r#"{"answer": "Sostratus"}"#, "stop", "expected shape"),
    ] {
        let mock = Mock::with(move |r| {
            if is_rerank(r) {
                ok("{\"score\": 3}")
            } else {
                Action::Reply {
                    status: 200,
                    headers: vec![],
                    body: completion(reply, finish),
                }
            }
        });
        let o = ask(&mock, &[]);
        assert!(
            o["extract_error"].as_str().unwrap_or("").contains(why),
            "{why}: {o:#}"
        );
        assert!(o["counts"]["validated"].as_u64().unwrap() >= 1, "{o:#}");
    }
}

#[test]
fn no_results_and_all_dropped_are_refusals() {
    let mock = Mock::with(|r| {
        if is_rerank(r) {
            ok("{\"score\": 3}")
        } else {
            ok("{\"snippets\": [], \"summary\": \"\", \"noResults\": true}")
        }
    });
    let o = ask(&mock, &[]);
    assert_eq!(o["gate"]["reason"], "no_results");
    let fabricated = json!({"snippets": [{"content": "The Pharos was cast entirely in bronze by Sostratus in the year 1200 BC.", "sourceId": "pharos-of-alexandria.md"}], "summary": "Bronze [1].", "noResults": false}).to_string();
    let mock = Mock::with(move |r| {
        if is_rerank(r) {
            ok("{\"score\": 3}")
        } else {
            ok(&fabricated)
        }
    });
    let o = ask(&mock, &["--no-rerank"]);
    assert_eq!(o["gate"]["reason"], "all_snippets_dropped");
    assert_eq!(
        o["answer"]["text"],
        "This is not addressed in the provided sources."
    );
    assert!(
        mock.requests().iter().all(|r| !is_rerank(r)),
        "--no-rerank must not rerank"
    );

    // "No results" with a quote: printed as found, not as an answer.
    let quoted = json!({"snippets": [{"content": "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.", "sourceId": "pharos-of-alexandria.md"}], "summary": "", "noResults": true}).to_string();
    let mock = Mock::with(move |_| ok(&quoted));
    let out = ask_text(&mock.base_url());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Gate: refused"), "{text}");
    assert!(
        text.contains("Quotes found, not an answer (the question was refused): 1 validated"),
        "{text}"
    );
}

#[test]
fn an_unreachable_server_is_a_clear_error_not_a_crash() {
    let out = ask_text("http://127.0.0.1:9/v1");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("127.0.0.1:9"), "{err}");
    // With the reranker on, the error comes from it: no extraction call is
    // made to a server that does not answer (a stalled one cost the time
    // limit and its attempts twice over).
    let idx = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_research-board"))
        .args([
            "ask",
            &samples(),
            "Who was the architect of the Pharos?",
            "--engine",
            "llm",
        ])
        .args(["--base-url", "http://127.0.0.1:9/v1", "--index-dir"])
        .arg(idx.path())
        .env("RESEARCH_BOARD_LOG_DIR", idx.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("reranking") && err.contains("127.0.0.1:9"),
        "{err}"
    );
}

/// Issue 9, items 1 and 3 through `ask --engine llm`: a snippet cut inside a
/// word is not validated (and copies whole words), and the title and
/// location shown for a validated quote are the index's, never the model's.
#[test]
fn item_1_and_3_cut_words_and_the_models_own_citation() {
    let reply = json!({
        "snippets": [
            {"content": "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.",
             "sourceId": "pharos-of-alexandria.md", "sourceTitle": "Royal Commission Report 1859",
             "sourceLocation": "p. 42", "relevance": 0.9},
            {"content": "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a bui",
             "sourceId": "pharos-of-alexandria.md", "sourceTitle": "The Pharos of Alexandria",
             "sourceLocation": "Origins", "relevance": 0.8}
        ],
        "summary": "The architect was Sostratus of Cnidus [1].",
        "noResults": false
    })
    .to_string();
    let mock = Mock::with(move |r| {
        if is_rerank(r) {
            ok(&json!({ "score": 3 }).to_string())
        } else {
            ok(&reply)
        }
    });
    let o = ask(&mock, &[]);
    let s = &o["snippets"];
    assert_eq!(s[0]["verdict"], "verbatim", "{s:#}");
    assert_ne!(s[0]["source_title"], "Royal Commission Report 1859");
    assert_ne!(s[0]["location"], "p. 42");
    assert!(
        s[0]["source_title"].as_str().unwrap().contains("Pharos"),
        "{s:#}"
    );
    assert_eq!(s[0]["model_source_title"], "Royal Commission Report 1859");
    assert_eq!(s[0]["model_source_location"], "p. 42");
    // Cut inside "builder": at best flagged, with the whole word copied.
    assert_ne!(s[1]["status"], "validated", "{s:#}");
    assert!(
        s[1]["copy_text"]
            .as_str()
            .unwrap()
            .ends_with("as much as a builder"),
        "{s:#}"
    );
}

/// Issue 16: each claim is judged against the quote it cites, through
/// `ask --engine llm`; unsupported and inconsistent claims are marked and
/// lower the confidence, and no quote's status changes because of it.
#[test]
fn claims_are_judged_against_what_they_cite() {
    let reply = json!({
        "snippets": [
            {"content": "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.",
             "sourceId": "pharos-of-alexandria.md", "sourceTitle": "x", "sourceLocation": "y", "relevance": 0.9},
            {"content": "The work took roughly twelve years and was finished under his son, Ptolemy II Philadelphus, around 280 BC.",
             "sourceId": "pharos-of-alexandria.md", "sourceTitle": "x", "sourceLocation": "y", "relevance": 0.8}
        ],
        "summary": "The architect was Sostratus of Cnidus [1]. The architect was Sostratus of Rhodes [1]. The keepers ate fish every Friday [1]. The tower was finished around 280 BC [2]. The tower was finished around 270 BC [2].",
        "noResults": false
    })
    .to_string();
    let mock = Mock::with(move |r| {
        if is_rerank(r) {
            ok(&json!({ "score": 3 }).to_string())
        } else {
            ok(&reply)
        }
    });
    let o = ask(&mock, &[]);
    let claims = o["answer"]["claims"].as_array().unwrap();
    let support: Vec<&str> = claims
        .iter()
        .map(|c| c["support"].as_str().unwrap_or("-"))
        .collect();
    assert_eq!(
        support,
        [
            "entails",
            "contradicts",
            "irrelevant",
            "entails",
            "contradicts"
        ],
        "{claims:#?}"
    );
    assert!(
        claims[4]["support_reason"]
            .as_str()
            .unwrap()
            .contains("270"),
        "{claims:#?}"
    );
    // A3: the two dates for the same finish contradict each other.
    assert_eq!(claims[3]["inconsistent_with"][0][0], 5, "{claims:#?}");
    assert_eq!(claims[4]["inconsistent_with"][0][0], 4, "{claims:#?}");
    assert_eq!(o["answer"]["confidence"], "low");
    // Quotes keep their verdicts.
    assert_eq!(o["counts"]["validated"], 2);
}

/// Issue 16: with an LLM, its judge refines the deterministic labels; it
/// never overrules a deterministic `contradicts`, and a failed judge call
/// leaves the deterministic label in place.
#[test]
fn the_llm_judge_refines_but_never_overrules_a_contradiction() {
    let reply = json!({
        "snippets": [
            {"content": "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.",
             "sourceId": "pharos-of-alexandria.md", "sourceTitle": "x", "sourceLocation": "y", "relevance": 0.9}
        ],
        "summary": "The architect was Sostratus of Cnidus [1]. The architect was Sostratus of Rhodes [1]. The keepers ate fish every Friday [1].",
        "noResults": false
    })
    .to_string();
    let mock = Mock::with(move |r| {
        if is_rerank(r) {
            return ok(&json!({ "score": 3 }).to_string());
        }
        if r.body.contains("check whether a quotation") {
            let label = if r.body.contains("of Cnidus [1]") || r.body.contains("of Cnidus.") {
                "partial"
            } else if r.body.contains("Rhodes") {
                "entails"
            } else {
                return status(500, "judge down");
            };
            return ok(&json!({ "label": label, "reason": "scripted" }).to_string());
        }
        ok(&reply)
    });
    let o = ask(&mock, &["--no-rerank"]);
    let claims = o["answer"]["claims"].as_array().unwrap();
    let support: Vec<&str> = claims
        .iter()
        .map(|c| c["support"].as_str().unwrap_or("-"))
        .collect();
    assert_eq!(
        support,
        ["partial", "contradicts", "irrelevant"],
        "{claims:#?}"
    );
    assert!(
        claims[0]["support_reason"]
            .as_str()
            .unwrap()
            .contains("model"),
        "{claims:#?}"
    );
    assert_eq!(o["counts"]["validated"], 1);
}

/// A claim that cites a quote validation dropped (a model's invention)
/// beside a validated one is not lifted by a generous judge: its
/// substance may be the invention's. It stays marked, and the answer low.
#[test]
fn a_judge_never_lifts_a_claim_that_leans_on_an_invention() {
    let reply = json!({
        "snippets": [
            {"content": "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.",
             "sourceId": "pharos-of-alexandria.md", "sourceTitle": "x", "sourceLocation": "y", "relevance": 0.9},
            {"content": "The keepers mutinied and burned the tower to the ground in 1844.",
             "sourceId": "pharos-of-alexandria.md", "sourceTitle": "x", "sourceLocation": "y", "relevance": 0.8}
        ],
        "summary": "The keepers mutinied and burned the tower in 1844 [1, 2].",
        "noResults": false
    })
    .to_string();
    let mock = Mock::with(move |r| {
        if is_rerank(r) {
            return ok(&json!({ "score": 3 }).to_string());
        }
        if r.body.contains("check whether a quotation") {
            return ok(&json!({ "label": "entails", "reason": "generous" }).to_string());
        }
        ok(&reply)
    });
    let o = ask(&mock, &["--no-rerank"]);
    let claims = o["answer"]["claims"].as_array().unwrap();
    assert_eq!(o["counts"]["dropped"], 1, "{o:#}");
    assert_eq!(claims[0]["support"], "irrelevant", "{claims:#?}");
    assert_eq!(o["answer"]["confidence"], "low", "{o:#}");
}

/// Issue 16: a claim its quote supports only in part is hedged in the
/// answer ("suggest", not "show") and keeps the answer from high
/// confidence; an entailed claim keeps its words. And support is about
/// claims: whatever the summary claims — entailed, partial, contradicted,
/// irrelevant — every quote keeps the same verdict, status and copy.
#[test]
fn a_partial_claim_is_hedged_and_no_quote_changes_with_the_claims() {
    let run = |summary: &str| {
        let reply = json!({
            "snippets": [
                {"content": "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.",
                 "sourceId": "pharos-of-alexandria.md", "sourceTitle": "x", "sourceLocation": "y", "relevance": 0.9},
                {"content": "The work took roughly twelve years and was finished under his son, Ptolemy II Philadelphus, around 280 BC.",
                 "sourceId": "pharos-of-alexandria.md", "sourceTitle": "x", "sourceLocation": "y", "relevance": 0.8}
            ],
            "summary": summary,
            "noResults": false
        })
        .to_string();
        let mock = Mock::with(move |r| {
            if is_rerank(r) {
                ok(&json!({ "score": 3 }).to_string())
            } else {
                ok(&reply)
            }
        });
        ask(&mock, &[])
    };
    let support = |o: &Value| -> Vec<String> {
        o["answer"]["claims"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["support"].as_str().unwrap_or("-").to_string())
            .collect()
    };
    let entailed =
        run("The architect was Sostratus of Cnidus [1]. The work took roughly twelve years [2].");
    assert_eq!(
        support(&entailed),
        ["entails", "entails"],
        "{:#}",
        entailed["answer"]
    );
    assert_eq!(
        entailed["answer"]["text"],
        "The architect was Sostratus of Cnidus [1]. The work took roughly twelve years [2]."
    );
    assert_eq!(entailed["answer"]["confidence"], "high");

    let partial = run(
        "The architect was Sostratus of Cnidus [1]. Surveys show the work took roughly twelve years and employed thousands of slaves and masons [2].",
    );
    assert_eq!(
        support(&partial),
        ["entails", "partial"],
        "{:#}",
        partial["answer"]
    );
    assert_eq!(
        partial["answer"]["text"],
        "The architect was Sostratus of Cnidus [1]. Surveys suggest the work took roughly twelve years and employed thousands of slaves and masons [2].",
    );
    assert_eq!(
        partial["answer"]["claims"][1]["text"],
        "Surveys suggest the work took roughly twelve years and employed thousands of slaves and masons [2]."
    );
    assert_eq!(partial["answer"]["confidence"], "medium");

    let unsupported = run(
        "The architect was Sostratus of Rhodes [1]. The keepers ate fish every Friday [1]. The work took roughly twenty years [2].",
    );
    assert_eq!(
        support(&unsupported),
        ["contradicts", "irrelevant", "contradicts"],
        "{:#}",
        unsupported["answer"]
    );
    assert_eq!(unsupported["answer"]["confidence"], "low");

    // The quotes, verdict for verdict, whatever the claims.
    let quotes = |o: &Value| -> Vec<Value> {
        o["snippets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                json!([
                    s["verdict"],
                    s["status"],
                    s["similarity"],
                    s["copy_text"],
                    s["spans"]
                ])
            })
            .collect()
    };
    assert_eq!(quotes(&entailed).len(), 2);
    assert_eq!(entailed["counts"]["validated"], 2);
    assert_eq!(quotes(&partial), quotes(&entailed));
    assert_eq!(quotes(&unsupported), quotes(&entailed));
    assert_eq!(partial["counts"], entailed["counts"]);
    assert_eq!(unsupported["counts"], entailed["counts"]);
}

/// Issue 12, pointer mode: the context numbers each sentence, the model
/// answers with ids, and each quote is the source's own text. An id that is
/// not in the context, or a range from one passage into another, stands for
/// no text: it is shown as dropped, never as a quote. With `json_schema`
/// on, the ids the model may use are the context's.
#[test]
fn pointer_mode_quotes_the_sources_own_sentences() {
    let mock = Mock::with(|r| {
        if is_rerank(r) {
            return ok(&json!({ "score": 3 }).to_string());
        }
        let body = r.json();
        let user = body["messages"].as_array().unwrap().last().unwrap()["content"]
            .as_str()
            .unwrap()
            .to_string();
        let ids: Vec<(String, String)> = user
            .lines()
            .filter_map(|l| {
                let (id, text) = l.strip_prefix('[')?.split_once("] ")?;
                Some((id.to_string(), text.to_string()))
            })
            .collect();
        let architect = ids
            .iter()
            .find(|(_, t)| t.starts_with("The architect was Sostratus"))
            .map(|(id, _)| id.clone())
            .unwrap_or_default();
        let (first, last) = (&ids[0].0, &ids[ids.len() - 1].0);
        ok(&json!({
            "quotes": [
                {"from": architect, "to": architect},
                {"from": "S999", "to": "S999"},
                {"from": first, "to": last}
            ],
            "summary": "The architect was Sostratus of Cnidus [1].",
            "noResults": false
        })
        .to_string())
    });
    let cfg = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(cfg.path(), "[llm]\njson_schema = true\n").unwrap();
    let cfg = cfg.path().to_str().unwrap().to_string();
    let o = ask(&mock, &["--extraction", "pointers", "--config", &cfg]);
    assert!(
        o["engine"].as_str().unwrap().ends_with("(pointers)"),
        "{}",
        o["engine"]
    );
    let s = o["snippets"].as_array().unwrap();
    assert_eq!(s.len(), 3, "{s:#?}");
    assert_eq!(s[0]["status"], "validated", "{:#}", s[0]);
    assert_eq!(s[0]["verdict"], "verbatim");
    assert!(
        s[0]["content"]
            .as_str()
            .unwrap()
            .starts_with("The architect was Sostratus of Cnidus, a wealthy courtier"),
        "{:#}",
        s[0]
    );
    assert!(s[0]["source_title"].as_str().unwrap().contains("Pharos"));
    for bad in &s[1..] {
        assert_eq!(bad["status"], "dropped", "{bad:#}");
        assert!(
            bad["content"]
                .as_str()
                .unwrap()
                .starts_with("(the model pointed at")
        );
    }
    assert!(s[1]["content"].as_str().unwrap().contains("\"S999\""));
    assert!(!o["answer"]["refused"].as_bool().unwrap());
    assert!(o["answer"]["text"].as_str().unwrap().contains("Sostratus"));
    // The request: the pointer prompt, and a schema holding the context's ids.
    let extraction = mock
        .requests()
        .into_iter()
        .find(|r| !is_rerank(r))
        .unwrap()
        .json();
    let system = extraction["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("[S1], [S2]"), "{system}");
    let ids = &extraction["response_format"]["schema"]["properties"]["quotes"]["items"]["properties"]
        ["from"]["enum"];
    assert_eq!(ids[0], "S1", "{ids}");
    assert!(ids.as_array().unwrap().len() > 10);
}
