//! The research board: a terminal view over the pipeline's `QueryOutcome`.
//!
//! One task `select!`s over terminal events (key presses, mouse, resize), a
//! tick, a render interval and the workers' messages. Indexing and queries
//! run on blocking threads; every query carries a generation id and a stale
//! or cancelled result is dropped. The terminal is restored on exit, on
//! error and on panic; a panic in a worker is reported in the status line.

pub mod app;
pub mod clipboard;
pub mod diff;
#[doc(hidden)]
pub mod fixture;
pub mod model;
pub mod settings;
pub mod terminal;
pub mod theme;
pub mod view;

#[cfg(test)]
mod tests;

pub use app::App;

use crate::config::Config;
use crate::embed::Embedder;
use crate::index::{self, Index, Progress, UpdateOptions, UpdateReport};
use crate::llm::Cancel;
use crate::pipeline::QueryOutcome;
use anyhow::Result;
use crossterm::event::{Event, EventStream, KeyEventKind};
use futures::StreamExt;
use model::ExtraChunk;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// What the board needs to start.
pub struct Options {
    pub sources: PathBuf,
    pub index_dir: PathBuf,
    /// Where the audit log goes ([`crate::audit::log_dir`]).
    pub log_dir: Option<PathBuf>,
    pub config: Config,
    pub embedder: Option<Box<dyn Embedder>>,
    /// `--theme`: a built-in name or a file.
    pub theme: Option<String>,
    /// `--debug`: the audit log also gets the whole outcome.
    pub debug: bool,
    /// The LLM engine (client and prompts), when configured; `None` runs
    /// the built-in extractive engine.
    pub llm: Option<(crate::llm::LlmClient, crate::llm::Prompts)>,
}

/// Messages from the workers.
enum Msg {
    Progress(Progress),
    /// The index of an earlier run, searchable while the update runs.
    PreviousIndex(Arc<Index>),
    IndexReady(Result<(Arc<Index>, UpdateReport), String>),
    QueryDone(u64, Result<Box<(QueryOutcome, Vec<ExtraChunk>)>, String>),
}

/// Open the board and run it until the user quits.
pub fn run(opts: Options) -> Result<()> {
    terminal::install_panic_hook();
    let (tui_cfg, cfg_msg) = settings::TuiConfig::load();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let choice = opts.theme.clone().or_else(|| tui_cfg.theme.clone());
    let (theme, theme_msg) = theme::Theme::load(choice.as_deref(), no_color);
    // Questions are remembered per sources folder: next to its index.
    let history =
        settings::History::load(Some(opts.index_dir.join("history")), tui_cfg.history_size);
    let mut app = App::new(theme, tui_cfg, history);
    app.sources_label = model::clean(&opts.sources.display().to_string());
    if let Some(m) = cfg_msg.or(theme_msg) {
        app.set_status(app::StatusKind::Error, m);
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let mut term = terminal::enter()?;
    let result = rt.block_on(event_loop(&mut term, &mut app, opts));
    terminal::leave();
    // Workers still running (an index update, a query) are abandoned: an
    // update is safe to interrupt, a query has no side effects.
    rt.shutdown_timeout(Duration::from_millis(100));
    result
}

async fn event_loop(term: &mut terminal::Term, app: &mut App, opts: Options) -> Result<()> {
    let (tx, mut rx) = mpsc::unbounded_channel::<Msg>();
    let config = Arc::new(opts.config);
    let embedder: Option<Arc<dyn Embedder>> = opts.embedder.map(Arc::from);
    let llm = opts.llm.map(Arc::new);
    let mut index: Option<Arc<Index>> = None;
    // The running queries' cancel switches, by generation.
    let mut cancels: HashMap<u64, Cancel> = HashMap::new();
    spawn_index(
        tx.clone(),
        opts.sources.clone(),
        opts.index_dir.clone(),
        config.clone(),
        embedder.clone(),
    );

    let mut events = EventStream::new();
    let mut tick = tokio::time::interval(Duration::from_millis(120));
    let mut render = tokio::time::interval(Duration::from_millis(16));
    render.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut clip = clipboard::Clipboard::default();

    loop {
        tokio::select! {
            ev = events.next() => match ev {
                Some(Ok(Event::Key(k))) if k.kind == KeyEventKind::Press => app.on_key(k),
                Some(Ok(Event::Mouse(m))) => app.on_mouse(m),
                Some(Ok(Event::Resize(..))) => app.apply(app::Action::Resize),
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(anyhow::anyhow!("cannot read the terminal: {e}")),
                None => break,
            },
            _ = tick.tick() => app.tick(),
            _ = render.tick() => {
                if app.dirty {
                    view::render(term, app)?;
                }
            }
            Some(msg) = rx.recv() => match msg {
                Msg::Progress(p) => app.on_index_progress(p),
                Msg::PreviousIndex(idx) => {
                    let chunks = idx.chunk_count();
                    index = Some(idx);
                    app.on_previous_index(chunks);
                }
                Msg::IndexReady(Ok((idx, report))) => {
                    let chunks = idx.chunk_count();
                    index = Some(idx);
                    app.on_index_ready(chunks, Some(report));
                }
                Msg::IndexReady(Err(e)) => app.on_index_failed(e),
                Msg::QueryDone(generation, r) => {
                    cancels.remove(&generation);
                    app.on_query_done(generation, r)
                }
            },
        }
        for effect in std::mem::take(&mut app.effects) {
            match effect {
                app::Effect::RunQuery { generation, query } => match &index {
                    Some(idx) => {
                        let cancel = Cancel::default();
                        cancels.insert(generation, cancel.clone());
                        spawn_query(
                            tx.clone(),
                            generation,
                            query,
                            idx.clone(),
                            QueryCtx {
                                config: config.clone(),
                                embedder: embedder.clone(),
                                llm: llm.clone(),
                                debug: opts.debug,
                                log_dir: opts.log_dir.clone(),
                                cancel,
                            },
                        )
                    }
                    None => app.set_status(app::StatusKind::Error, "The index is not open."),
                },
                app::Effect::Cancel(generation) => {
                    if let Some(c) = cancels.remove(&generation) {
                        c.cancel();
                    }
                }
                app::Effect::Copy(text) => {
                    let msg = match clip.copy(&text, term.backend_mut()) {
                        Ok(how) => (app::StatusKind::Ok, how.describe().to_string()),
                        Err(e) => (app::StatusKind::Error, format!("Copy failed: {e}")),
                    };
                    let lines = text.lines().count();
                    let what = if lines > 1 {
                        format!("{} ({lines} quotes)", msg.1)
                    } else {
                        msg.1
                    };
                    app.set_status(msg.0, what);
                }
            }
        }
        if app.quit {
            break;
        }
    }
    Ok(())
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

fn spawn_index(
    tx: mpsc::UnboundedSender<Msg>,
    sources: PathBuf,
    dir: PathBuf,
    config: Arc<Config>,
    embedder: Option<Arc<dyn Embedder>>,
) {
    let ptx = tx.clone();
    tokio::spawn(async move {
        let r = in_worker(move || {
            // An index from an earlier run answers while this one updates,
            // if it was built with the same embedder (the query vectors
            // must match its vectors).
            let want = embedder.as_ref().map(|e| e.id().to_string());
            if let Ok(previous) = Index::open(&dir)
                && previous.manifest.embedder == want
            {
                let _ = ptx.send(Msg::PreviousIndex(Arc::new(previous)));
            }
            let opts = UpdateOptions {
                chunk: config.chunk,
                limits: config.limits.limits(),
                replace_other_sources: false,
            };
            let mut last: Option<Progress> = None;
            let mut progress = |p: Progress| {
                if last.as_ref() != Some(&p) {
                    last = Some(p.clone());
                    let _ = ptx.send(Msg::Progress(p));
                }
            };
            let report = index::update(&sources, &dir, &opts, embedder.as_deref(), &mut progress)
                .map_err(|e| format!("{e:#}"))?;
            let idx = Index::open(&dir).map_err(|e| format!("{e:#}"))?;
            Ok((Arc::new(idx), report))
        })
        .await;
        let _ = tx.send(Msg::IndexReady(r));
    });
}

/// What every query shares.
struct QueryCtx {
    config: Arc<Config>,
    embedder: Option<Arc<dyn Embedder>>,
    llm: Option<Arc<(crate::llm::LlmClient, crate::llm::Prompts)>>,
    debug: bool,
    log_dir: Option<PathBuf>,
    /// Set when the user cancels this query.
    cancel: Cancel,
}

fn spawn_query(
    tx: mpsc::UnboundedSender<Msg>,
    generation: u64,
    query: String,
    index: Arc<Index>,
    ctx: QueryCtx,
) {
    let QueryCtx {
        config,
        embedder,
        llm,
        debug,
        log_dir,
        cancel,
    } = ctx;
    tokio::spawn(async move {
        let r = in_worker(move || {
            let engine = match llm.as_deref() {
                Some((client, prompts)) => crate::pipeline::Engine::Llm {
                    client,
                    prompts,
                    rerank: config.rerank,
                    cancel: Some(&cancel),
                },
                None => crate::pipeline::Engine::Extractive,
            };
            let outcome =
                crate::pipeline::ask_with(&index, embedder.as_deref(), &config, &query, &engine)
                    .map_err(|e| format!("{e:#}"))?;
            if let Some(dir) = &log_dir {
                // The audit log is best effort here; the CLI reports failures.
                let _ = crate::audit::record(dir, &outcome, debug);
            }
            let extra = extra_chunks(&index, &outcome);
            Ok(Box::new((outcome, extra)))
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
