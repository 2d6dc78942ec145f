//! The LLM provider against an in-process mock OpenAI-compatible server
//! that returns scripted replies and records the requests it gets.

use research_board::chunk::Chunk;
use research_board::extract::MAX_SNIPPETS;
use research_board::llm::{self, LlmClient, LlmConfig, LlmError, Prompts, llm_extract, rerank};
use serde_json::{Value, json};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

mod common;
use common::*;

fn chunk(id: &str, source: &str, title: &str, location: &str, text: &str) -> Chunk {
    Chunk {
        id: id.into(),
        source_id: source.into(),
        source_title: title.into(),
        location: location.into(),
        text: text.into(),
        start: 0,
        end: text.chars().count(),
        ordinal: 0,
        tokens: 20,
        line: None,
        page: None,
    }
}

fn chunks() -> Vec<Chunk> {
    vec![
        chunk(
            "notes.md#0",
            "notes.md",
            "Field notes",
            "Floods",
            "The river rose in March. Farmers moved their sheep to the hills. \
             By April the water had gone.",
        ),
        chunk(
            "letters.txt#1",
            "letters.txt",
            "Letters",
            "Section 2 of 5",
            "My dear Anne, the bridge at Elm Ford was swept away on the ninth.",
        ),
    ]
}

fn snippet(content: &str, source: &str, title: &str, location: &str) -> Value {
    json!({"content": content, "sourceId": source, "sourceTitle": title,
           "sourceLocation": location, "relevance": 0.9})
}

fn reply(snippets: Vec<Value>, summary: &str) -> String {
    json!({"snippets": snippets, "summary": summary, "noResults": false}).to_string()
}

const Q: &str = "When did the river rise?";

async fn extract_with(mock: &Mock) -> Result<llm::Usage, LlmError> {
    let owned = chunks();
    let refs: Vec<&Chunk> = owned.iter().collect();
    llm_extract(&mock.client(), Q, &refs, &Prompts::builtin())
        .await
        .map(|(_, u)| u)
}

async fn extract_one(content: &str) -> Result<research_board::extract::Extraction, LlmError> {
    let mock = Mock::script(vec![ok(content)]);
    let owned = chunks();
    let refs: Vec<&Chunk> = owned.iter().collect();
    let out = llm_extract(&mock.client(), Q, &refs, &Prompts::builtin()).await;
    assert_eq!(mock.requests().len(), 1);
    out.map(|(e, _)| e)
}

// ----------------------------------------------------------- extraction tests

#[tokio::test]
async fn clean_verbatim_reply_and_what_the_request_carries() {
    let content = reply(
        vec![snippet(
            "The river rose in March.",
            "notes.md",
            "Field notes",
            "Floods",
        )],
        "The river rose in March [1].",
    );
    let mock = Mock::script(vec![ok(&content)]);
    let owned = chunks();
    let refs: Vec<&Chunk> = owned.iter().collect();
    let (ex, usage) = llm_extract(&mock.client(), Q, &refs, &Prompts::builtin())
        .await
        .unwrap();
    assert!(!ex.no_results);
    assert_eq!(ex.summary, "The river rose in March [1].");
    assert_eq!(ex.snippets.len(), 1);
    let s = &ex.snippets[0];
    assert_eq!(s.content, "The river rose in March.");
    assert_eq!(
        (
            s.source_id.as_str(),
            s.source_title.as_str(),
            s.source_location.as_str()
        ),
        ("notes.md", "Field notes", "Floods")
    );
    assert_eq!(s.span, None, "LLM snippets are located by validation");
    assert_eq!(usage.prompt_tokens, Some(321));
    assert_eq!(usage.completion_tokens, Some(45));
    assert_eq!(usage.attempts, 1);

    let reqs = mock.requests();
    assert_eq!(reqs.len(), 1);
    let r = &reqs[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.header("authorization"), None, "no key, no Authorization");
    let body = r.json();
    assert_eq!(body["model"], "mock-model");
    assert_eq!(body["response_format"], json!({"type": "json_object"}));
    assert_eq!(body["temperature"], 0.0);
    assert_eq!(body["max_tokens"], 2048);
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages[0]["role"], "system");
    assert!(
        messages[0]["content"]
            .as_str()
            .unwrap()
            .contains("verbatim")
    );
    assert_eq!(messages[1]["role"], "user");
    let user = messages[1]["content"].as_str().unwrap();
    assert!(user.contains(Q));
    assert!(user.contains(
        "--- sourceId: letters.txt | sourceTitle: Letters | sourceLocation: Section 2 of 5\n\
         My dear Anne,"
    ));
}

#[tokio::test]
async fn bearer_key_only_when_configured() {
    let mock = Mock::script(vec![ok(r#"{"noResults": true}"#)]);
    let cfg = LlmConfig {
        api_key: Some("test-key".into()),
        ..mock.config()
    };
    LlmClient::new(cfg)
        .unwrap()
        .chat_json("s", "u")
        .await
        .unwrap();
    assert_eq!(
        mock.requests()[0].header("authorization"),
        Some("Bearer test-key")
    );
}

#[tokio::test]
async fn unfaithful_replies_parse_and_are_left_to_validation() {
    let cases = [
        (
            "paraphrased",
            snippet(
                "In March the river came up.",
                "notes.md",
                "Field notes",
                "Floods",
            ),
        ),
        (
            "non-contiguous",
            snippet(
                "The river rose in March. By April the water had gone.",
                "notes.md",
                "Field notes",
                "Floods",
            ),
        ),
        (
            "misattributed",
            snippet(
                "the bridge at Elm Ford was swept away on the ninth.",
                "notes.md",
                "Field notes",
                "Floods",
            ),
        ),
        (
            "fabricated",
            snippet("The dam burst at midnight.", "diary.md", "Diary", "Day 3"),
        ),
    ];
    for (name, s) in cases {
        let expected = s["content"].as_str().unwrap().to_string();
        let source = s["sourceId"].as_str().unwrap().to_string();
        let ex = extract_one(&reply(vec![s], "Claim [1]."))
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(ex.snippets.len(), 1, "{name}");
        assert_eq!(ex.snippets[0].content, expected, "{name}");
        assert_eq!(ex.snippets[0].source_id, source, "{name}");
        assert_eq!(ex.snippets[0].span, None, "{name}");
    }
}

#[tokio::test]
async fn fenced_json_and_json_after_prose() {
    let inner = reply(
        vec![snippet(
            "The river rose in March.",
            "notes.md",
            "Field notes",
            "Floods",
        )],
        "[1]",
    );
    for wrapped in [
        format!("```json\n{inner}\n```"),
        format!(
            "Sure! Here is the JSON you asked for {{as requested}}:\n\n{inner}\n\nLet me know."
        ),
    ] {
        let ex = extract_one(&wrapped).await.unwrap();
        assert_eq!(ex.snippets[0].content, "The river rose in March.");
    }
}

#[tokio::test]
async fn malformed_json_is_a_parse_error() {
    for bad in [
        r#"{"snippets": [{"content": "The river rose in March.", }], "noResults": false"#,
        r#"{"snippets": [{"content": "The river rose"#,
        "I'm sorry, I cannot help with that.",
    ] {
        let e = extract_one(bad).await.unwrap_err();
        assert!(matches!(e, LlmError::Parse { .. }), "{bad}: {e:?}");
        assert!(e.to_string().contains("not valid JSON"), "{e}");
    }
    let e = extract_one(r#"{"answer": "March"}"#).await.unwrap_err();
    assert!(matches!(e, LlmError::Schema { .. }), "{e:?}");
    assert!(e.to_string().contains("snippets"), "{e}");
}

#[tokio::test]
async fn missing_no_results_is_derived() {
    let with = json!({"snippets": [snippet("The river rose in March.", "notes.md", "Field notes", "Floods")],
                      "summary": "[1]"});
    let ex = extract_one(&with.to_string()).await.unwrap();
    assert!(!ex.no_results);
    assert_eq!(ex.snippets.len(), 1);
    let ex = extract_one(r#"{"snippets": [], "summary": ""}"#)
        .await
        .unwrap();
    assert!(ex.no_results && ex.snippets.is_empty());
}

#[tokio::test]
async fn more_than_eight_snippets_are_capped() {
    let many: Vec<Value> = (0..11)
        .map(|i| {
            snippet(
                &format!("Passage {i}."),
                "notes.md",
                "Field notes",
                "Floods",
            )
        })
        .collect();
    let ex = extract_one(&reply(many, "")).await.unwrap();
    assert_eq!(ex.snippets.len(), MAX_SNIPPETS);
    assert_eq!(ex.snippets[0].content, "Passage 0.");
}

#[tokio::test]
async fn finish_reason_length_is_truncated_and_not_retried() {
    let mock = Mock::script(vec![Action::Reply {
        status: 200,
        headers: vec![],
        body: completion(r#"{"snippets": [{"content": "The riv"#, "length"),
    }]);
    let e = extract_with(&mock).await.unwrap_err();
    assert!(
        matches!(e, LlmError::Truncated { max_tokens: 2048 }),
        "{e:?}"
    );
    assert!(e.to_string().contains("max_tokens"), "{e}");
    assert_eq!(mock.requests().len(), 1);
}

#[tokio::test]
async fn json_schema_extension_and_system_in_user() {
    let mock = Mock::script(vec![
        ok(r#"{"noResults": true}"#),
        ok(r#"{"noResults": true}"#),
    ]);
    let owned = chunks();
    let refs: Vec<&Chunk> = owned.iter().collect();
    let cfg = LlmConfig {
        json_schema: true,
        system_in_user: true,
        ..mock.config()
    };
    let client = LlmClient::new(cfg).unwrap();
    let (ex, _) = llm_extract(&client, Q, &refs, &Prompts::builtin())
        .await
        .unwrap();
    assert!(ex.no_results);
    let body = mock.requests()[0].json();
    assert_eq!(body["response_format"]["type"], "json_object");
    assert_eq!(
        body["response_format"]["schema"]["required"],
        json!(["snippets", "summary", "noResults"])
    );
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(
        messages.len(),
        1,
        "the system prompt rides in the user message"
    );
    assert_eq!(messages[0]["role"], "user");
    let text = messages[0]["content"].as_str().unwrap();
    assert!(text.starts_with(Prompts::builtin().system.as_str()));
    assert!(text.contains(Q));
    // chat_json never sends a schema.
    client.chat_json("s", "u").await.unwrap();
    assert_eq!(
        mock.requests()[1].json()["response_format"],
        json!({"type": "json_object"})
    );
}

// -------------------------------------------------------------- HTTP failures

#[tokio::test]
async fn rate_limited_then_success_honours_retry_after() {
    let mock = Mock::script(vec![
        Action::Reply {
            status: 429,
            headers: vec![("Retry-After", "1".into())],
            body: r#"{"error": {"message": "Rate limit reached"}}"#.into(),
        },
        ok(r#"{"noResults": true}"#),
    ]);
    let t = Instant::now();
    let usage = extract_with(&mock).await.unwrap();
    let elapsed = t.elapsed();
    assert_eq!(mock.requests().len(), 2);
    assert_eq!(usage.attempts, 2);
    assert!(elapsed >= Duration::from_millis(950), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(3), "{elapsed:?}");
}

#[tokio::test]
async fn retry_after_is_capped() {
    let mock = Mock::script(vec![
        Action::Reply {
            status: 503,
            headers: vec![("Retry-After", "3600".into())],
            body: "busy".into(),
        },
        ok(r#"{"noResults": true}"#),
    ]);
    let cfg = LlmConfig {
        retry_after_cap_s: 0.2,
        ..mock.config()
    };
    let t = Instant::now();
    LlmClient::new(cfg)
        .unwrap()
        .chat_json("s", "u")
        .await
        .unwrap();
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_eq!(mock.requests().len(), 2);
}

#[tokio::test]
async fn server_errors_exhaust_the_attempts() {
    let fail = status(500, r#"{"error": "model crashed"}"#);
    let mock = Mock::script(vec![fail.clone(), fail.clone(), fail.clone(), ok("{}")]);
    let e = extract_with(&mock).await.unwrap_err();
    assert_eq!(mock.requests().len(), 3, "max_attempts = 3");
    match &e {
        LlmError::Http {
            status,
            body,
            attempts,
            ..
        } => {
            assert_eq!((*status, *attempts), (500, 3));
            assert!(body.contains("model crashed"), "{body}");
        }
        other => panic!("expected Http, got {other:?}"),
    }
    let msg = e.to_string();
    assert!(
        msg.contains("HTTP 500") && msg.contains("after 3 attempts"),
        "{msg}"
    );
}

#[tokio::test]
async fn client_errors_are_not_retried() {
    let mock = Mock::script(vec![status(404, "no such model"), ok("{}")]);
    let e = extract_with(&mock).await.unwrap_err();
    assert!(matches!(e, LlmError::Http { status: 404, .. }), "{e:?}");
    assert!(e.to_string().contains("base URL"), "{e}");
    assert_eq!(mock.requests().len(), 1);
}

#[tokio::test]
async fn a_hang_times_out_within_the_configured_timeout() {
    let mock = Mock::script(vec![Action::Hang(Duration::from_secs(10))]);
    let cfg = LlmConfig {
        timeout_s: 0.5,
        max_attempts: 1,
        ..mock.config()
    };
    let t = Instant::now();
    let e = LlmClient::new(cfg)
        .unwrap()
        .chat_json("s", "u")
        .await
        .unwrap_err();
    let elapsed = t.elapsed();
    assert!(matches!(e, LlmError::Timeout { .. }), "{e:?}");
    assert!(elapsed >= Duration::from_millis(450), "{elapsed:?}");
    assert!(elapsed < Duration::from_millis(1500), "{elapsed:?}");
    assert!(e.to_string().contains("0.5 s"), "{e}");
}

/// The board's Esc: a call in flight is abandoned at once, not after the
/// timeout.
#[test]
fn a_cancelled_call_returns_at_once() {
    let mock = Mock::script(vec![Action::Hang(Duration::from_secs(10))]);
    let cfg = LlmConfig {
        timeout_s: 30.0,
        max_attempts: 1,
        ..mock.config()
    };
    let client = LlmClient::new(cfg).unwrap();
    let cancel = llm::Cancel::default();
    let switch = cancel.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        switch.cancel();
    });
    let t = Instant::now();
    let r = llm::block_on_until(client.chat_json("s", "u"), Some(&cancel));
    assert_eq!(r.unwrap_err(), llm::Cancelled);
    let elapsed = t.elapsed();
    assert!(elapsed >= Duration::from_millis(250), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(3), "{elapsed:?}");
    // Without a cancel switch the call runs to its own end.
    let ok = Mock::script(vec![ok(r#"{"noResults": true}"#)]);
    let client = LlmClient::new(ok.config()).unwrap();
    assert!(
        llm::block_on_until(client.chat_json("s", "u"), None)
            .unwrap()
            .is_ok()
    );
}

#[tokio::test]
async fn a_hang_is_retried() {
    let mock = Mock::script(vec![
        Action::Hang(Duration::from_secs(10)),
        ok(r#"{"noResults": true}"#),
    ]);
    let cfg = LlmConfig {
        timeout_s: 0.4,
        ..mock.config()
    };
    let reply = LlmClient::new(cfg)
        .unwrap()
        .chat("", "u", None)
        .await
        .unwrap();
    assert_eq!(reply.usage.attempts, 2);
    assert_eq!(mock.requests().len(), 2);
}

#[tokio::test]
async fn a_truncated_body_is_an_error() {
    let body = completion(r#"{"noResults": true}"#, "stop");
    let cut = body[..body.len() / 2].to_string();
    let mock = Mock::script(vec![Action::Truncated {
        claimed: body.len(),
        body: cut.clone(),
    }]);
    let cfg = LlmConfig {
        max_attempts: 1,
        ..mock.config()
    };
    let e = LlmClient::new(cfg)
        .unwrap()
        .chat_json("s", "u")
        .await
        .unwrap_err();
    assert!(matches!(e, LlmError::Network { .. }), "{e:?}");
    assert!(e.to_string().contains("failed mid-reply"), "{e}");
    // With attempts left, the next reply is used.
    let mock = Mock::script(vec![
        Action::Truncated {
            claimed: body.len(),
            body: cut,
        },
        ok(r#"{"noResults": true}"#),
    ]);
    mock.client().chat_json("s", "u").await.unwrap();
    assert_eq!(mock.requests().len(), 2);
}

#[tokio::test]
async fn connection_refused_names_the_server() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let cfg = LlmConfig {
        base_url: format!("http://127.0.0.1:{port}/v1"),
        api_key: Some("test-key".into()),
        max_attempts: 2,
        backoff_base_ms: 10,
        ..LlmConfig::default()
    };
    let e = LlmClient::new(cfg)
        .unwrap()
        .chat_json("s", "u")
        .await
        .unwrap_err();
    assert!(matches!(e, LlmError::Connect { attempts: 2, .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains(&format!("127.0.0.1:{port}")), "{msg}");
    assert!(msg.contains("is the server running"), "{msg}");
    assert!(!msg.contains("test-key") && !format!("{e:?}").contains("test-key"));
}

#[tokio::test]
async fn the_key_never_appears_in_errors() {
    let echo = r#"{"error": {"message": "Incorrect API key provided: test-key."}}"#;
    let mock = Mock::script(vec![
        status(401, echo),
        ok("test-key is not JSON"),
        ok(r#"{"test-key": 1}"#),
    ]);
    let cfg = LlmConfig {
        api_key: Some("test-key".into()),
        ..mock.config()
    };
    let client = LlmClient::new(cfg).unwrap();
    let owned = chunks();
    let refs: Vec<&Chunk> = owned.iter().collect();
    let mut errors = Vec::new();
    for _ in 0..3 {
        errors.push(
            llm_extract(&client, Q, &refs, &Prompts::builtin())
                .await
                .unwrap_err(),
        );
    }
    assert!(matches!(errors[0], LlmError::Http { status: 401, .. }));
    assert!(errors[0].to_string().contains("API key"), "{}", errors[0]);
    for e in &errors {
        let (display, debug) = (e.to_string(), format!("{e:?}"));
        assert!(!display.contains("test-key"), "{display}");
        assert!(!debug.contains("test-key"), "{debug}");
    }
    assert!(!format!("{client:?}").contains("test-key"));
    assert_eq!(mock.requests().len(), 3, "401 is not retried");
}

// -------------------------------------------------------------------- rerank

fn rerank_chunks() -> Vec<Chunk> {
    ["ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO"]
        .iter()
        .enumerate()
        .map(|(i, word)| {
            chunk(
                &format!("doc.md#{i}"),
                "doc.md",
                "Doc",
                "Part",
                &format!("Chunk {word} text."),
            )
        })
        .collect()
}

/// Scores by the word in the passage, after a short delay so calls overlap.
fn scorer(req: &Request) -> Action {
    let body = req.json();
    let text = body["messages"][0]["content"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let reply = if text.contains("ALPHA") {
        ok(r#"{"score": 3}"#)
    } else if text.contains("BRAVO") {
        ok("```json\n{\"score\": 2}\n```")
    } else if text.contains("CHARLIE") {
        ok("1")
    } else if text.contains("DELTA") {
        ok(r#"{"score": "0"}"#)
    } else if text.contains("ECHO") {
        ok(r#"Score: {"score": 2}"#)
    } else {
        status(400, "unexpected")
    };
    Action::Delay(Duration::from_millis(40), Box::new(reply))
}

#[tokio::test]
async fn rerank_scores_in_order_with_bounded_concurrency() {
    let mock = Mock::with(scorer);
    let owned = rerank_chunks();
    let refs: Vec<&Chunk> = owned.iter().collect();
    let out = rerank(
        &mock.client(),
        "Which chunk?",
        &refs,
        &Prompts::builtin(),
        2,
    )
    .await;
    assert_eq!(out.error, None);
    assert_eq!(out.scores, Some(vec![3, 2, 1, 0, 2]));
    assert_eq!(out.usage.prompt_tokens, Some(5 * 321));
    let reqs = mock.requests();
    assert_eq!(reqs.len(), 5);
    assert!(mock.max_in_flight.load(Ordering::SeqCst) <= 2);
    let body = reqs[0].json();
    assert_eq!(body["response_format"], json!({"type": "json_object"}));
    let msg = body["messages"][0]["content"].as_str().unwrap();
    assert!(msg.contains("Which chunk?") && msg.contains("3 = contains the answer"));
    assert!(msg.contains("--- sourceId: doc.md | sourceTitle: Doc | sourceLocation: Part"));
}

#[tokio::test]
async fn rerank_failure_means_no_scores() {
    // One call fails with a non-retryable status.
    let mock = Mock::with(|req| {
        if req.body.contains("CHARLIE") {
            status(400, "bad request")
        } else {
            scorer(req)
        }
    });
    let owned = rerank_chunks();
    let refs: Vec<&Chunk> = owned.iter().collect();
    let out = rerank(&mock.client(), "q", &refs, &Prompts::builtin(), 4).await;
    assert_eq!(out.scores, None);
    let err = out.error.unwrap();
    assert!(
        err.contains("doc.md#2") && err.contains("HTTP 400"),
        "{err}"
    );

    // One reply has no readable score.
    let mock = Mock::with(|req| {
        if req.body.contains("DELTA") {
            ok("This passage is quite relevant.")
        } else {
            scorer(req)
        }
    });
    let out = rerank(&mock.client(), "q", &refs, &Prompts::builtin(), 4).await;
    assert_eq!(out.scores, None);
    assert!(out.error.unwrap().contains("doc.md#3"));

    // No chunks: nothing to score, no calls.
    let out = rerank(&mock.client(), "q", &[], &Prompts::builtin(), 4).await;
    assert_eq!(out.scores, Some(vec![]));
}

// ------------------------------------------------------------ blocking facade

#[test]
fn block_on_drives_the_async_api_from_sync_code() {
    let content = reply(
        vec![snippet(
            "The river rose in March.",
            "notes.md",
            "Field notes",
            "Floods",
        )],
        "[1]",
    );
    let mock = Mock::script(vec![ok(&content), ok(r#"{"score": 3}"#)]);
    let client = mock.client();
    let owned = chunks();
    let refs: Vec<&Chunk> = owned.iter().collect();
    let (ex, _) = llm::block_on(llm_extract(&client, Q, &refs, &Prompts::builtin())).unwrap();
    assert_eq!(ex.snippets[0].content, "The river rose in March.");
    // The same client, a second blocking call.
    let out = llm::block_on(rerank(&client, Q, &refs[..1], &Prompts::builtin(), 1));
    assert_eq!(out.scores, Some(vec![3]));
}
