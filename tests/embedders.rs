//! The `minilm` and `openai` embedders: reference embeddings, re-embedding
//! on a switch, and the OpenAI-compatible `/embeddings` protocol against the
//! in-process mock server.
//!
//! The minilm tests need the model folder in `RESEARCH_BOARD_MINILM_DIR`
//! (`scripts/fetch-minilm.sh DIR`; `.ci/run` does it). Without it they print
//! why and pass — except under CI (`CI` set), where they fail.

mod common;

use common::{Action, Mock, status};
use research_board::embed::{Embedder, OpenAiEmbedder, dot};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_research-board"));
    c.env(
        "XDG_CONFIG_HOME",
        std::env::temp_dir().join("rb-test-no-config"),
    );
    c.env("XDG_DATA_HOME", std::env::temp_dir().join("rb-test-data"));
    c
}

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sources")
}

fn json_of(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "exit {:?}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

// ------------------------------------------------------------------ minilm

/// The minilm embedder is built only with `--features minilm` (CI turns it on).
#[cfg(feature = "minilm")]
mod minilm {
    use super::*;
    use research_board::embed::{MINILM_DIR_ENV, MinilmEmbedder};

    fn minilm_dir() -> Option<PathBuf> {
        match std::env::var_os(MINILM_DIR_ENV).filter(|v| !v.is_empty()) {
            Some(d) => Some(PathBuf::from(d)),
            None => {
                assert!(
                    std::env::var_os("CI").is_none(),
                    "CI is set but {MINILM_DIR_ENV} is not: .ci/run must install the model \
                     (scripts/fetch-minilm.sh)"
                );
                eprintln!(
                    "skipped: {MINILM_DIR_ENV} is not set (get the model with \
                     scripts/fetch-minilm.sh DIR, then export {MINILM_DIR_ENV}=DIR)"
                );
                None
            }
        }
    }

    fn reference() -> Value {
        serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/minilm-reference.json"
        )))
        .unwrap()
    }

    #[test]
    fn minilm_matches_the_reference_embeddings() {
        let Some(dir) = minilm_dir() else { return };
        let m = MinilmEmbedder::load(&dir).expect("the minilm model loads");
        assert_eq!(m.id(), "minilm-l6-v2-384");
        assert_eq!(m.dim(), 384);
        let fixture = reference();
        let cases = fixture["cases"].as_array().unwrap();
        assert!(cases.len() >= 6);
        let texts: Vec<&str> = cases.iter().map(|c| c["text"].as_str().unwrap()).collect();
        // Small batches, so the cases are padded against one another in
        // different combinations.
        let got = m.with_batch(3).embed(&texts).unwrap();
        let mut worst = f32::INFINITY;
        for (case, v) in cases.iter().zip(&got) {
            let text = case["text"].as_str().unwrap();
            let want: Vec<f32> = case["embedding"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap() as f32)
                .collect();
            assert_eq!(v.len(), 384);
            assert!((dot(v, v) - 1.0).abs() < 1e-4, "not unit length: {text:?}");
            let cos = dot(v, &want) / dot(&want, &want).sqrt();
            assert!(cos >= 0.999, "cosine {cos} with the reference for {text:?}");
            worst = worst.min(cos);
        }
        eprintln!("lowest cosine with the reference: {worst:.7}");
        // The sentence-transformers quickstart similarities.
        for ((a, b), published) in [((0, 1), 0.6660), ((0, 2), 0.1046), ((1, 2), 0.1411)] {
            let s = dot(&got[a], &got[b]);
            assert!(
                (s - published).abs() < 2e-3,
                "cos({a},{b}) = {s}, published {published}"
            );
        }
    }

    #[test]
    fn minilm_tokens_and_truncation_match_the_reference() {
        let Some(dir) = minilm_dir() else { return };
        let m = MinilmEmbedder::load(&dir).unwrap();
        for case in reference()["cases"].as_array().unwrap() {
            let text = case["text"].as_str().unwrap();
            let want: Vec<u32> = case["ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect();
            assert_eq!(m.input_ids(text), want, "input ids of {text:?}");
        }
        // A long document is cut at 256 tokens: what follows does not matter.
        let long = "The keeper trimmed the wicks and wound the clockwork. ".repeat(200);
        assert_eq!(m.input_ids(&long).len(), 256);
        let v = m
            .embed(&[
                &long,
                &format!("{long} Something else entirely at the end."),
            ])
            .unwrap();
        assert!(dot(&v[0], &v[1]) > 0.99999);
    }

    #[test]
    fn minilm_batches_blanks_and_order() {
        let Some(dir) = minilm_dir() else { return };
        let m = MinilmEmbedder::load(&dir).unwrap().with_batch(2);
        let texts = [
            "a short one",
            "",
            "The Bell Rock lighthouse stands on a reef in the North Sea off Angus, Scotland.",
            "   ",
            "fog signals",
        ];
        let together = m.embed(&texts).unwrap();
        assert_eq!(together.len(), texts.len());
        for (t, v) in texts.iter().zip(&together) {
            if t.trim().is_empty() {
                assert!(v.iter().all(|&x| x == 0.0), "{t:?} should embed to zeros");
            } else {
                let alone = &m.embed(&[t]).unwrap()[0];
                assert!(dot(v, alone) > 0.9999, "{t:?}: batched differs from alone");
            }
        }
    }

    #[test]
    fn a_wrong_or_missing_model_folder_is_a_clear_error() {
        let out = bin()
            .args(["index", samples().to_str().unwrap(), "--embedder", "minilm"])
            .args(["--model-dir", "/nonexistent/minilm-model"])
            .args([
                "--index-dir",
                tempfile::tempdir().unwrap().path().to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("scripts/fetch-minilm.sh"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("model.safetensors"), b"\0\0\0\0\0\0\0\0{}").unwrap();
        let e = MinilmEmbedder::load(dir.path()).unwrap_err().to_string();
        assert!(e.contains("sha256"), "{e}");
    }

    fn index(idx: &Path, args: &[&str], env: &[(&str, &str)]) -> Value {
        let mut c = bin();
        c.args([
            "index",
            samples().to_str().unwrap(),
            "--json",
            "--index-dir",
        ])
        .arg(idx)
        .args(args);
        for (k, v) in env {
            c.env(k, v);
        }
        json_of(&c.output().unwrap())
    }

    #[test]
    fn switching_builtin_to_minilm_re_embeds_once() {
        let Some(dir) = minilm_dir() else { return };
        let idx = tempfile::tempdir().unwrap();
        let env = [(MINILM_DIR_ENV, dir.to_str().unwrap())];
        let first = index(idx.path(), &["--embedder", "builtin"], &env);
        let total = first["chunks_total"].as_u64().unwrap();
        assert!(total > 50);
        assert_eq!(first["chunks_embedded"].as_u64(), Some(total));

        let switched = index(idx.path(), &["--embedder", "minilm"], &env);
        assert_eq!(switched["up_to_date"], false);
        assert_eq!(switched["chunks_total"].as_u64(), Some(total));
        assert_eq!(
            switched["chunks_embedded"].as_u64(),
            Some(total),
            "{switched}"
        );

        // The same through --model-dir, with the variable unset: nothing to do.
        let mut c = bin();
        c.env_remove(MINILM_DIR_ENV)
            .args([
                "index",
                samples().to_str().unwrap(),
                "--json",
                "--index-dir",
            ])
            .arg(idx.path())
            .args(["--embedder", "minilm", "--model-dir"])
            .arg(&dir);
        let again = json_of(&c.output().unwrap());
        assert_eq!(again["up_to_date"], true, "{again}");
        assert_eq!(again["chunks_embedded"].as_u64(), Some(0));

        // Asking with the minilm index works (the stored embedder id matches).
        let mut c = bin();
        c.env(MINILM_DIR_ENV, &dir)
            .args(["ask", samples().to_str().unwrap()])
            .arg("Who designed the second Eddystone lighthouse?")
            .args([
                "--json",
                "--no-update",
                "--embedder",
                "minilm",
                "--index-dir",
            ])
            .arg(idx.path());
        let out = c.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Without the feature, asking for minilm says how to get it (no panic, no
/// silent fallback to another embedder).
#[cfg(not(feature = "minilm"))]
#[test]
fn minilm_without_the_feature_is_a_clear_error() {
    let idx = tempfile::tempdir().unwrap();
    let out = bin()
        .args([
            "index",
            samples().to_str().unwrap(),
            "--embedder",
            "minilm",
            "--index-dir",
        ])
        .arg(idx.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--features minilm"), "{err}");
}

// ------------------------------------------------------------------ openai

/// A deterministic fake embedding of `text` (not unit length: the embedder
/// normalises).
fn fake_vector(text: &str) -> Vec<f32> {
    let b = text.as_bytes();
    vec![
        b.len() as f32,
        1.0,
        f32::from(b.first().copied().unwrap_or(0)),
    ]
}

fn embeddings_body(inputs: &[String], reverse: bool) -> String {
    let mut data: Vec<Value> = inputs
        .iter()
        .enumerate()
        .map(|(i, t)| json!({"object": "embedding", "index": i, "embedding": fake_vector(t)}))
        .collect();
    if reverse {
        data.reverse();
    }
    json!({"object": "list", "data": data, "model": "embed-model",
           "usage": {"prompt_tokens": 5, "total_tokens": 5}})
    .to_string()
}

fn inputs_of(req: &common::Request) -> Vec<String> {
    req.json()["input"]
        .as_array()
        .expect("input is an array")
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// Replies to every /embeddings request with [`fake_vector`]s, in reverse
/// order (the `index` field must decide).
fn fake_server() -> Mock {
    Mock::with(|req| Action::Reply {
        status: 200,
        headers: vec![],
        body: embeddings_body(&inputs_of(req), true),
    })
}

fn unit(v: Vec<f32>) -> Vec<f32> {
    let n = dot(&v, &v).sqrt();
    v.into_iter().map(|x| x / n).collect()
}

#[test]
fn openai_request_body_batching_and_index_order() {
    let mock = fake_server();
    let e = OpenAiEmbedder::new(&mock.config(), "embed-model", 2).unwrap();
    assert_eq!(e.id(), "openai:embed-model");
    assert_eq!(e.dim(), 3);
    assert_eq!(e.url(), format!("{}/embeddings", mock.base_url()));
    let texts = ["alpha", "beta gamma", "", "delta", "epsilon zeta eta"];
    let got = e.embed(&texts).unwrap();
    assert_eq!(got.len(), 5);
    for (t, v) in texts.iter().zip(&got) {
        if t.is_empty() {
            assert_eq!(
                v,
                &vec![0.0; 3],
                "blank text is not sent and embeds to zeros"
            );
        } else {
            let want = unit(fake_vector(t));
            assert!(dot(v, &want) > 0.99999, "{t:?}: {v:?} vs {want:?}");
        }
    }
    let reqs = mock.requests();
    // The dimension probe, then the 4 non-blank texts in batches of 2.
    assert_eq!(reqs.len(), 3, "{reqs:?}");
    for r in &reqs {
        assert_eq!(r.method, "POST");
        assert_eq!(r.path, "/v1/embeddings");
        let body = r.json();
        assert_eq!(body["model"], "embed-model");
        assert_eq!(body["encoding_format"], "float");
    }
    assert_eq!(inputs_of(&reqs[0]).len(), 1);
    assert_eq!(inputs_of(&reqs[1]), ["alpha", "beta gamma"]);
    assert_eq!(inputs_of(&reqs[2]), ["delta", "epsilon zeta eta"]);
}

#[test]
fn openai_retries_429_and_5xx_then_fails_clearly() {
    let ok = |inputs: &[&str]| Action::Reply {
        status: 200,
        headers: vec![],
        body: embeddings_body(
            &inputs.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            false,
        ),
    };
    let mock = Mock::script(vec![
        ok(&["dimension probe"]),
        Action::Reply {
            status: 429,
            headers: vec![("Retry-After", "0".into())],
            body: r#"{"error":{"message":"rate limited"}}"#.into(),
        },
        status(503, "overloaded"),
        ok(&["one", "two"]),
    ]);
    let e = OpenAiEmbedder::new(&mock.config(), "embed-model", 8).unwrap();
    let v = e.embed(&["one", "two"]).unwrap();
    assert!(dot(&v[0], &unit(fake_vector("one"))) > 0.99999);
    assert!(dot(&v[1], &unit(fake_vector("two"))) > 0.99999);
    let reqs = mock.requests();
    assert_eq!(reqs.len(), 4);
    assert_eq!(
        inputs_of(&reqs[1]),
        inputs_of(&reqs[3]),
        "the retry resends the batch"
    );

    // Attempts run out (max_attempts = 3): the error says what happened.
    let mock = Mock::script(vec![
        ok(&["dimension probe"]),
        status(429, "slow down"),
        status(429, "slow down"),
        status(429, "slow down"),
    ]);
    let e = OpenAiEmbedder::new(&mock.config(), "embed-model", 8).unwrap();
    let err = format!("{:#}", e.embed(&["x"]).unwrap_err());
    assert!(
        err.contains("429") && err.contains("after 3 attempts"),
        "{err}"
    );
    assert!(err.contains("/v1/embeddings"), "{err}");

    // A 404 at construction is not retried and names the endpoint.
    let mock = Mock::script(vec![status(404, "no such route")]);
    let err = format!(
        "{:#}",
        OpenAiEmbedder::new(&mock.config(), "embed-model", 8).unwrap_err()
    );
    assert!(
        err.contains("404") && err.contains("/v1/embeddings"),
        "{err}"
    );
    assert_eq!(mock.requests().len(), 1);
}

#[test]
fn openai_embedder_indexes_through_the_cli_with_config() {
    let mock = fake_server();
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config.toml");
    std::fs::write(
        &config,
        "[embed]\nopenai_model = \"from-config\"\nbatch_size = 100\n",
    )
    .unwrap();
    let idx = tmp.path().join("idx");
    let mut c = bin();
    c.env_remove("OPENAI_API_KEY")
        .args([
            "index",
            samples().to_str().unwrap(),
            "--json",
            "--index-dir",
        ])
        .arg(&idx)
        .args([
            "--embedder",
            "openai",
            "--base-url",
            &mock.base_url(),
            "--config",
        ])
        .arg(&config);
    let report = json_of(&c.output().unwrap());
    let total = report["chunks_total"].as_u64().unwrap() as usize;
    assert_eq!(report["chunks_embedded"].as_u64(), Some(total as u64));
    let reqs = mock.requests();
    assert!(reqs.iter().all(|r| r.json()["model"] == "from-config"));
    let sent: usize = reqs[1..].iter().map(|r| inputs_of(r).len()).sum();
    assert_eq!(sent, total);
    assert!(reqs[1..].iter().all(|r| inputs_of(r).len() <= 100));
}
