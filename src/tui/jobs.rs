//! The board's background jobs: thin calls into the [`Session`] on blocking
//! threads, reported back to the event loop as [`Msg`]s.

use super::model::ExtraChunk;
use super::terminal;
use crate::index::{Index, Progress, UpdateReport};
use crate::pipeline::QueryOutcome;
use crate::provider::Cancel;
use crate::session::Session;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// Messages from the workers.
pub(super) enum Msg {
    Progress(Progress),
    /// An index of an earlier run (this many chunks) answers while the
    /// update runs.
    PreviousIndex(usize),
    /// The updated index is open: its chunk count and the update's report.
    IndexReady(Result<(usize, UpdateReport), IndexFailure>),
    QueryDone(u64, Result<Box<(QueryOutcome, Vec<ExtraChunk>)>, String>),
    /// Files in the sources folder changed (saved, added, renamed, deleted).
    FolderChanged(Vec<PathBuf>),
}

/// Why an update failed; `busy` when another process held the index (the
/// board tries again).
#[derive(Debug)]
pub(super) struct IndexFailure {
    pub msg: String,
    pub busy: bool,
}

/// Run `work` on a blocking thread marked as a worker (so a panic there is
/// reported instead of tearing down the terminal); a panic becomes `Err`.
async fn in_worker<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    let handle = tokio::task::spawn_blocking(move || {
        terminal::mark_worker_thread();
        work()
    });
    match handle.await {
        Ok(r) => r,
        Err(e) if e.is_panic() => Err(format!(
            "internal error (a bug): {}",
            terminal::panic_message(e.into_panic())
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// Bring the index up to date; an index from an earlier run (built with
/// the same embedder) answers meanwhile.
pub(super) fn spawn_index(tx: mpsc::UnboundedSender<Msg>, session: Arc<Session>) {
    let ptx = tx.clone();
    tokio::spawn(async move {
        let r = in_worker(move || {
            if let Some(previous) = session.previous() {
                let _ = ptx.send(Msg::PreviousIndex(previous.chunk_count()));
            }
            let mut last: Option<Progress> = None;
            let mut progress = |p: Progress| {
                if last.as_ref() != Some(&p) {
                    last = Some(p.clone());
                    let _ = ptx.send(Msg::Progress(p));
                }
            };
            Ok(session
                .update(&mut progress)
                .and_then(|report| Ok((session.index()?.chunk_count(), report))))
        })
        .await;
        let r = match r {
            Ok(Ok(ready)) => Ok(ready),
            Ok(Err(e)) => Err(IndexFailure {
                busy: crate::index::is_busy(&e),
                msg: format!("{e:#}"),
            }),
            Err(msg) => Err(IndexFailure { msg, busy: false }),
        };
        let _ = tx.send(Msg::IndexReady(r));
    });
}

/// Watch the sources folder as the board's settings say; changes arrive as
/// [`Msg::FolderChanged`] once the folder has been quiet for a second.
pub(super) fn watch_folder(
    tx: mpsc::UnboundedSender<Msg>,
    session: &Session,
    setting: super::settings::WatchSetting,
    poll_interval_s: f64,
) -> anyhow::Result<Option<crate::watch::FolderWatch>> {
    use super::settings::WatchSetting;
    use crate::watch::Mode;
    let poll = Duration::from_secs_f64(poll_interval_s.clamp(0.2, 3600.0));
    let mode = match setting {
        WatchSetting::Off => return Ok(None),
        WatchSetting::Events => Mode::Events,
        WatchSetting::Poll => Mode::Poll(poll),
    };
    let send = move |paths: Vec<PathBuf>| {
        let _ = tx.send(Msg::FolderChanged(paths));
    };
    let w = crate::watch::watch(
        session.sources(),
        vec![session.index_dir().to_path_buf()],
        mode,
        Duration::from_secs(1),
        send,
    )?;
    Ok(Some(w))
}

/// Ask `query` (generation `generation`); the audit log is best effort here.
pub(super) fn spawn_query(
    tx: mpsc::UnboundedSender<Msg>,
    session: Arc<Session>,
    generation: u64,
    query: String,
    cancel: Cancel,
) {
    tokio::spawn(async move {
        let r = in_worker(move || {
            let answered = session
                .ask(&query, Some(&cancel))
                .map_err(|e| format!("{e:#}"))?;
            let extra = extra_chunks(&answered.index, &answered.outcome);
            Ok(Box::new((answered.outcome, extra)))
        })
        .await;
        let _ = tx.send(Msg::QueryDone(generation, r));
    });
}

/// Chunks that validated spans point at outside the retrieved set (a
/// misattributed quote found in another source), for the preview.
fn extra_chunks(index: &Index, o: &QueryOutcome) -> Vec<ExtraChunk> {
    let mut out: Vec<ExtraChunk> = Vec::new();
    for sp in o.snippets.iter().flat_map(|s| &s.spans) {
        if o.candidates.iter().any(|c| c.id == sp.chunk_id)
            || out.iter().any(|c| c.id == sp.chunk_id)
        {
            continue;
        }
        if let Ok(Some((c, _))) = index.chunk(&sp.chunk_id) {
            out.push(ExtraChunk {
                id: c.id,
                source_id: c.source_id,
                title: c.source_title,
                location: c.location,
                text: c.text,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Overrides;

    /// The board's query job answers exactly as a direct call of
    /// `Session::ask` does (the CLI's path), and reports the generation.
    #[test]
    fn the_board_job_gives_the_sessions_outcome() {
        let idx = tempfile::tempdir().unwrap();
        let cfg = tempfile::NamedTempFile::new().unwrap();
        let sources = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sources");
        let o = Overrides {
            config_file: Some(cfg.path().to_path_buf()),
            index_dir: Some(idx.path().to_path_buf()),
            ..Default::default()
        };
        let session = Arc::new(Session::open(&sources, &o).unwrap());
        let q = "Where was the first Fresnel lens installed?";
        let (tx, mut rx) = mpsc::unbounded_channel();
        let rt = crate::provider::runtime();
        let (chunks, from_board) = rt.block_on(async {
            spawn_index(tx.clone(), session.clone());
            let chunks = loop {
                match rx.recv().await.unwrap() {
                    Msg::IndexReady(r) => break r.unwrap().0,
                    _ => continue,
                }
            };
            spawn_query(tx, session.clone(), 7, q.into(), Cancel::default());
            match rx.recv().await.unwrap() {
                Msg::QueryDone(7, r) => (chunks, r.unwrap().0),
                _ => panic!("expected the answer of generation 7"),
            }
        });
        assert!(chunks > 0);
        let direct = session.ask(q, None).unwrap().outcome;
        let strip = |o: &QueryOutcome| {
            let mut v = serde_json::to_value(o).unwrap();
            v.as_object_mut().unwrap().remove("timings_ms");
            v
        };
        assert!(direct.counts.validated > 0);
        assert_eq!(strip(&from_board), strip(&direct));
    }
}
