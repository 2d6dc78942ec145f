//! The audit log: one JSON line per query, always on, rotated by size. With
//! `--debug`, a second log receives the whole pipeline outcome. Neither ever
//! contains an API key: nothing that holds one is passed in here.

use crate::pipeline::QueryOutcome;
use anyhow::Result;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Rotate a log when it grows past this many bytes (one old file is kept).
pub const MAX_LOG_BYTES: u64 = 5 * 1024 * 1024;

#[derive(Debug, Serialize)]
struct AuditLine<'a> {
    timestamp: String,
    query: &'a str,
    engine: &'a str,
    refused: bool,
    reason: crate::gate::Reason,
    chunks_retrieved: usize,
    chunks_used: usize,
    validated: usize,
    flagged: usize,
    dropped: usize,
    tokens_in: usize,
    tokens_out: usize,
    latency_ms: f64,
}

/// Where the logs live: `RESEARCH_BOARD_LOG_DIR`, else `logs/` next to an
/// index the user placed with `--index-dir` (`index_dir`), else
/// `<data dir>/research-board/logs`.
pub fn log_dir(index_dir: Option<&Path>) -> Option<PathBuf> {
    std::env::var_os("RESEARCH_BOARD_LOG_DIR")
        .map(PathBuf::from)
        .or_else(|| index_dir.map(|d| d.join("logs")))
        .or_else(|| {
            directories::ProjectDirs::from("", "", "research-board")
                .map(|d| d.data_dir().join("logs"))
        })
}

fn now() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

/// Append one line for `o` to `dir/audit.jsonl`, and the whole outcome to
/// `dir/debug.jsonl` when `debug` is set.
pub fn record(dir: &Path, o: &QueryOutcome, debug: bool) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let line = AuditLine {
        timestamp: now(),
        query: &o.query,
        engine: &o.engine,
        refused: o.answer.refused,
        reason: o.gate.reason,
        chunks_retrieved: o.candidates.len(),
        chunks_used: o.budget.as_ref().map_or(0, |b| b.kept.len()),
        validated: o.counts.validated,
        flagged: o.counts.flagged,
        dropped: o.counts.dropped,
        tokens_in: o.usage.prompt_tokens.unwrap_or(0) as usize,
        tokens_out: o.usage.completion_tokens.unwrap_or(0) as usize,
        latency_ms: o.timings_ms.total,
    };
    append(&dir.join("audit.jsonl"), &serde_json::to_string(&line)?)?;
    if debug {
        #[derive(Serialize)]
        struct Debug<'a> {
            timestamp: String,
            outcome: &'a QueryOutcome,
        }
        append(
            &dir.join("debug.jsonl"),
            &serde_json::to_string(&Debug {
                timestamp: now(),
                outcome: o,
            })?,
        )?;
    }
    Ok(())
}

fn append(path: &Path, line: &str) -> Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| m.len() + line.len() as u64 > MAX_LOG_BYTES) {
        std::fs::rename(path, path.with_extension("jsonl.1"))?;
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    writeln!(f, "{line}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_and_rotates() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("audit.jsonl");
        let big = "x".repeat(1024 * 1024);
        for _ in 0..6 {
            append(&p, &big).unwrap();
        }
        assert!(p.with_extension("jsonl.1").exists());
        assert!(std::fs::metadata(&p).unwrap().len() <= MAX_LOG_BYTES);
    }
}
