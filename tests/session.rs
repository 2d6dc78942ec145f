//! The CLI and the board answer through one `Session`: the same question
//! gives the same outcome whichever front end asks it.

mod common;
use common::bin;

use research_board::session::{Overrides, Session};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sources")
}

/// The outcome without what differs from run to run (timings).
fn stable(mut v: Value) -> Value {
    let o = v.as_object_mut().expect("an outcome is an object");
    o.remove("timings_ms");
    o.remove("usage");
    v
}

/// The first place where `a` and `b` differ, as a JSON path with values.
fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => x
            .keys()
            .chain(y.keys())
            .find_map(|k| first_difference(&x[k], &y[k], &format!("{path}.{k}"))),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, &format!("{path}[{i}]"))),
        _ if a == b => None,
        _ => Some(format!("{path}: {a} vs {b}")),
    }
}

#[test]
fn the_cli_and_an_in_process_session_give_the_same_outcome() {
    let idx = tempfile::tempdir().unwrap();
    let cfg = tempfile::NamedTempFile::new().unwrap();
    let logs = tempfile::tempdir().unwrap();
    let overrides = Overrides {
        config_file: Some(cfg.path().to_path_buf()),
        index_dir: Some(idx.path().to_path_buf()),
        ..Default::default()
    };
    let session = Session::open(&samples(), &overrides).unwrap();
    let report = session.update(&mut |_| {}).unwrap();
    assert!(report.chunks_total > 0);
    for q in [
        "Where was the first Fresnel lens installed?",
        "What did keepers eat in winter?",
        "Who won the 1998 football World Cup?",
    ] {
        let out = bin()
            .args([
                "ask",
                samples().to_str().unwrap(),
                q,
                "--json",
                "--no-update",
            ])
            .arg("--index-dir")
            .arg(idx.path())
            .arg("--config")
            .arg(cfg.path())
            .env("RESEARCH_BOARD_LOG_DIR", logs.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
        let answered = session.ask(q, None).unwrap();
        // Through JSON text, as the CLI prints it (f32s print shortest).
        let here: Value =
            serde_json::from_str(&serde_json::to_string(&answered.outcome).unwrap()).unwrap();
        let diff = first_difference(&stable(cli), &stable(here), "");
        assert_eq!(diff, None, "question {q:?}");
    }
}

#[test]
fn a_session_refuses_an_index_built_with_another_embedder() {
    let idx = tempfile::tempdir().unwrap();
    let cfg = tempfile::NamedTempFile::new().unwrap();
    let base = Overrides {
        config_file: Some(cfg.path().to_path_buf()),
        index_dir: Some(idx.path().to_path_buf()),
        ..Default::default()
    };
    let none = Overrides {
        embedder: Some("none".parse().unwrap()),
        ..base.clone()
    };
    Session::open(&samples(), &none)
        .unwrap()
        .update(&mut |_| {})
        .unwrap();
    let builtin = Session::open(&samples(), &base).unwrap();
    let err = builtin.ask("Where was the first Fresnel lens installed?", None);
    let msg = format!(
        "{:#}",
        err.err().expect("a mismatched embedder is an error")
    );
    assert!(msg.contains("re-embed"), "{msg}");
    // Updating re-embeds, after which the session answers.
    builtin.update(&mut |_| {}).unwrap();
    let ok = builtin
        .ask("Where was the first Fresnel lens installed?", None)
        .unwrap();
    assert!(ok.outcome.counts.validated > 0);
}
