//! Issue 12, the strong tier's wiring: `eval --engine llm` over the dev
//! halves of the papers and music sets against a mock server whose judge knows the answers (scripted
//! judgements). The reranker scores a passage 3 when it holds one of the
//! question's expected phrases, 2 when it shares two of the question's
//! longer words (on topic, not an answer), 1 otherwise; extraction runs in
//! pointer mode and names the sentences that hold an expected phrase, or,
//! failing those, up to two sentences on the subject (as a helpful model
//! would), so that refusing is the gate's job.
//!
//! What it shows is the wiring, not a model's quality: with a judge that
//! never calls an on-topic passage an answer, the reranked tier refuses
//! every near miss at the default threshold (3, "contains the answer") and
//! not at 2, and every quote it shows is the source's own text.

mod common;
use common::*;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Lower-case words, one space apart: how a phrase and a passage compare.
fn words(s: &str) -> String {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = s.find(start)? + start.len();
    let to = s[from..].find(end)? + from;
    Some(&s[from..to])
}

struct Judge {
    /// Question → its expected phrases, as words.
    answers: HashMap<String, Vec<String>>,
}

impl Judge {
    fn phrases(&self, question: &str) -> &[String] {
        self.answers.get(question.trim()).map_or(&[], Vec::as_slice)
    }

    fn score(&self, question: &str, passage: &str) -> u8 {
        let p = words(passage);
        if self
            .phrases(question)
            .iter()
            .any(|x| p.contains(x.as_str()))
        {
            return 3;
        }
        let passage_words: std::collections::HashSet<&str> = p.split(' ').collect();
        let shared = words(question)
            .split(' ')
            .filter(|w| w.len() >= 6 && passage_words.contains(w))
            .collect::<std::collections::HashSet<_>>()
            .len();
        if shared >= 2 { 2 } else { 1 }
    }

    fn reply(&self, r: &Request) -> Action {
        let body = r.json();
        let messages = body["messages"].as_array().unwrap();
        let user = messages.last().unwrap()["content"].as_str().unwrap();
        if user.contains("Score the passage") {
            let q = between(user, "Question: ", "\n").unwrap_or("");
            let passage = between(user, "Passage:\n", "\n--- end of passage").unwrap_or("");
            return ok(&json!({ "score": self.score(q, passage) }).to_string());
        }
        let q = between(user, "Question: ", "\n").unwrap_or("");
        let phrases = self.phrases(q);
        let sentences: Vec<(&str, String)> = user
            .lines()
            .filter_map(|l| {
                let (id, text) = l.strip_prefix('[')?.split_once("] ")?;
                Some((id, text.to_string()))
            })
            .collect();
        let answering: Vec<&str> = sentences
            .iter()
            .filter(|(_, t)| {
                let t = words(t);
                phrases.iter().any(|x| t.contains(x.as_str()))
            })
            .map(|(id, _)| *id)
            .collect();
        // Like a helpful model, with nothing that answers it quotes what is
        // on the subject: the gate is what must refuse.
        let ids: Vec<&str> = if answering.is_empty() {
            sentences
                .iter()
                .filter(|(_, t)| self.score(q, t) >= 2)
                .map(|(id, _)| *id)
                .take(2)
                .collect()
        } else {
            answering.into_iter().take(8).collect()
        };
        let quotes: Vec<Value> = ids.iter().map(|id| json!({"from": id, "to": id})).collect();
        let summary = if quotes.is_empty() {
            String::new()
        } else {
            "The sources say so [1].".into()
        };
        ok(
            &json!({"quotes": quotes, "summary": summary, "noResults": quotes.is_empty()})
                .to_string(),
        )
    }
}

fn eval(mock: &Mock, sources: &Path, questions: &Path, index: &Path, config: &Path) -> Value {
    let logs = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_research-board"))
        .arg("eval")
        .arg(sources)
        .arg("--questions")
        .arg(questions)
        .args([
            "--split",
            "dev",
            "--json",
            "--engine",
            "llm",
            "--extraction",
            "pointers",
        ])
        .args([
            "--base-url",
            &mock.base_url(),
            "--model",
            "judge",
            "--index-dir",
        ])
        .arg(index)
        .arg("--config")
        .arg(config)
        .env("RESEARCH_BOARD_LOG_DIR", logs.path())
        .env_remove("OPENAI_API_KEY")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_reranked_tier_refuses_what_no_passage_answers() {
    let corpora = root().join("../shared/corpora");
    // The shared corpora sit beside the repository in CI; a clone alone
    // has only the sample sources.
    if !corpora.join("papers").is_dir() || !corpora.join("music-library").is_dir() {
        eprintln!("skipped: {} is not here", corpora.display());
        return;
    }
    let papers = reranked_tier_on(
        &corpora.join("papers"),
        &root().join("eval/papers-questions.json"),
    );
    // Some of the papers' near misses are about what the papers do
    // mention (Isolation Forest): at 2, a passage on the subject that does
    // not answer lets them through. (The music set's near misses name people
    // the books never mention: refused at either threshold.)
    assert!(
        papers["refusal_accuracy_near_miss"].as_f64().unwrap() < 1.0,
        "{:#}",
        papers["refusal_accuracy_near_miss"]
    );
    reranked_tier_on(
        &corpora.join("music-library"),
        &root().join("eval/music-questions.json"),
    );
}

/// Evaluate the set at thresholds 3 and 2, check what holds at both, and
/// return the report at 2.
fn reranked_tier_on(sources: &Path, questions: &Path) -> Value {
    let set: Value = serde_json::from_str(&std::fs::read_to_string(questions).unwrap()).unwrap();
    let answers: HashMap<String, Vec<String>> = set["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let phrases = q["expected_phrases"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| words(p.as_str().unwrap()))
                .collect();
            (q["question"].as_str().unwrap().to_string(), phrases)
        })
        .collect();
    let judge = std::sync::Arc::new(Judge { answers });
    let j = judge.clone();
    let mock = Mock::with(move |r| j.reply(r));
    let index = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let strict = dir.path().join("strict.toml");
    std::fs::write(&strict, "").unwrap();
    let loose = dir.path().join("loose.toml");
    std::fs::write(&loose, "[gate]\nrerank_threshold = 2\n").unwrap();

    let at3 = eval(&mock, sources, questions, index.path(), &strict);
    let at2 = eval(&mock, sources, questions, index.path(), &loose);
    let set = sources.file_name().unwrap().to_string_lossy();
    for (name, r) in [("threshold 3", &at3), ("threshold 2", &at2)] {
        eprintln!(
            "{set}, {name}: recall@5 {} quote recall {} off-topic {} near-miss {} false refusals {} \
             validated-not-in-source {}",
            r["recall_at_k"],
            r["quote_recall"],
            r["refusal_accuracy_off_topic"],
            r["refusal_accuracy_near_miss"],
            r["false_refusal_rate"],
            r["validated_not_in_source"]
        );
        assert_eq!(r["validated_not_in_source"], 0, "{set}, {name}");
        assert_eq!(r["errors"], json!([]), "{set}, {name}: {r:#}");
    }
    // The judge never scores an off-topic or near-miss passage 3.
    assert_eq!(at3["refusal_accuracy_off_topic"], 1.0, "{set}");
    assert_eq!(at3["refusal_accuracy_near_miss"], 1.0, "{set}");
    // Answerable questions pass when retrieval found the passage, and
    // their quotes hold the answer.
    assert!(
        at3["false_refusal_rate"].as_f64().unwrap() <= 0.2,
        "{at3:#}"
    );
    assert!(at3["quote_recall"].as_f64().unwrap() >= 0.7, "{at3:#}");
    // Every refusal is the reranked tier's (or a name the sources lack).
    for r in at3["results"].as_array().unwrap() {
        if r["refused"] == true {
            let reason = r["reason"].as_str().unwrap();
            assert!(
                ["NoChunkAboveThreshold", "UnknownNames", "NoResults"].contains(&reason),
                "{r:#}"
            );
        }
    }
    at2
}
