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
mod jobs;
pub mod model;
pub mod open;
pub mod settings;
pub mod terminal;
pub mod theme;
pub mod view;

#[cfg(test)]
mod tests;

pub use app::App;

use crate::provider::Cancel;
use crate::session::Session;
use anyhow::Result;
use crossterm::event::{Event, EventStream, KeyEventKind};
use futures::StreamExt;
use jobs::Msg;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// Open the board and run it until the user quits.
pub fn run(session: Session, theme: Option<String>) -> Result<()> {
    terminal::install_panic_hook();
    let (tui_cfg, cfg_msg) = settings::TuiConfig::load();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let choice = theme.or_else(|| tui_cfg.theme.clone());
    let (theme, theme_msg) = theme::Theme::load(choice.as_deref(), no_color);
    // Questions are remembered per sources folder: next to its index.
    let history = settings::History::load(
        Some(session.index_dir().join("history")),
        tui_cfg.history_size,
    );
    let tui_cfg_watch = (tui_cfg.watch, tui_cfg.poll_interval_s);
    let mut app = App::new(theme, tui_cfg, history);
    app.sources_label = model::clean(&session.sources().display().to_string());
    if let Some(m) = cfg_msg.or(theme_msg) {
        app.set_status(app::StatusKind::Error, m);
    }
    let mut term = terminal::enter()?;
    // The process's one runtime (the LLM calls of the workers run on it
    // too). Workers still running when the user quits (an index update, a
    // query) are abandoned with the process: an update is safe to
    // interrupt, a query has no side effects.
    let watch = (tui_cfg_watch.0, tui_cfg_watch.1);
    let result = crate::provider::runtime().block_on(event_loop(
        &mut term,
        &mut app,
        Arc::new(session),
        watch,
    ));
    terminal::leave();
    result
}

async fn event_loop(
    term: &mut terminal::Term,
    app: &mut App,
    session: Arc<Session>,
    watch: (settings::WatchSetting, f64),
) -> Result<()> {
    let (tx, mut rx) = mpsc::unbounded_channel::<Msg>();
    // An index generation is open (an earlier run's, or the updated one).
    let mut ready = false;
    // The running queries' cancel switches, by generation.
    let mut cancels: HashMap<u64, Cancel> = HashMap::new();
    jobs::spawn_index(tx.clone(), session.clone());
    // One update at a time; a change seen during one asks for another.
    let mut updating = true;
    let mut changed_meanwhile = false;
    let _watch = match jobs::watch_folder(tx.clone(), &session, watch.0, watch.1) {
        Ok(w) => w,
        Err(e) => {
            app.set_status(
                app::StatusKind::Error,
                format!("Not watching the folder for changes: {e:#}"),
            );
            None
        }
    };

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
                Some(Ok(Event::Paste(text))) => app.paste(&text),
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
                Msg::PreviousIndex(chunks) => {
                    ready = true;
                    app.on_previous_index(chunks);
                }
                Msg::IndexReady(r) => {
                    updating = false;
                    match r {
                        Ok((chunks, report)) => {
                            ready = true;
                            // A file saved while it was read: look again
                            // once it has had a moment to finish.
                            if !report.files_busy.is_empty() {
                                let busy: Vec<std::path::PathBuf> =
                                    report.files_busy.iter().map(Into::into).collect();
                                let tx = tx.clone();
                                tokio::spawn(async move {
                                    tokio::time::sleep(Duration::from_secs(1)).await;
                                    let _ = tx.send(Msg::FolderChanged(busy));
                                });
                            }
                            app.on_index_ready(chunks, Some(report));
                        }
                        Err(e) => {
                            // Another process holds the index: try again
                            // once it may be done.
                            if e.busy {
                                let tx = tx.clone();
                                tokio::spawn(async move {
                                    tokio::time::sleep(Duration::from_secs(2)).await;
                                    let _ = tx.send(Msg::FolderChanged(Vec::new()));
                                });
                            }
                            app.on_index_failed(e.msg);
                        }
                    }
                    if std::mem::take(&mut changed_meanwhile) {
                        updating = true;
                        jobs::spawn_index(tx.clone(), session.clone());
                    }
                }
                Msg::FolderChanged(paths) => {
                    if updating {
                        changed_meanwhile = true;
                    } else {
                        updating = true;
                        app.on_folder_changed(&paths);
                        jobs::spawn_index(tx.clone(), session.clone());
                    }
                }
                Msg::QueryDone(generation, r) => {
                    cancels.remove(&generation);
                    app.on_query_done(generation, r)
                }
            },
        }
        for effect in std::mem::take(&mut app.effects) {
            match effect {
                app::Effect::RunQuery { generation, query } if ready => {
                    let cancel = Cancel::default();
                    cancels.insert(generation, cancel.clone());
                    jobs::spawn_query(tx.clone(), session.clone(), generation, query, cancel);
                }
                app::Effect::RunQuery { .. } => {
                    app.set_status(app::StatusKind::Error, "The index is not open.")
                }
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
                    // Say what was copied: its opening words, or how many.
                    let lines = text.lines().count();
                    let what = if lines > 1 {
                        format!("{} ({lines} quotes)", msg.1)
                    } else if msg.0 == app::StatusKind::Ok {
                        let head: String = text.chars().take(48).collect();
                        let more = if head.len() < text.len() { "…" } else { "" };
                        format!("{}: {head}{more}", msg.1)
                    } else {
                        msg.1
                    };
                    app.set_status(msg.0, what);
                }
                app::Effect::Open(target) => {
                    open_source(term, &mut events, app, session.sources(), &target)
                }
            }
        }
        if app.quit {
            break;
        }
    }
    Ok(())
}

/// `o`: open `target` with the command [`open::command`] picks; an editor
/// runs in this terminal, with the board's keyboard reading stopped until
/// it exits. The status line says what happened.
fn open_source(
    term: &mut terminal::Term,
    events: &mut EventStream,
    app: &mut App,
    sources: &std::path::Path,
    target: &open::Target,
) {
    let editor = std::env::var("VISUAL")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .or_else(|| std::env::var("EDITOR").ok());
    let cmd = open::command(target, sources, &app.settings.open, editor.as_deref());
    let name = cmd.argv[0].clone();
    let result = if cmd.in_terminal {
        // Dropping the stream stops its reader, so the editor gets the keys;
        // the new one reads nothing until the loop polls it again.
        *events = EventStream::new();
        terminal::run_in_terminal(term, &cmd.argv).and_then(|s| {
            s.success()
                .then_some(())
                .ok_or_else(|| anyhow::anyhow!("{name} exited with {s}"))
        })
    } else {
        std::process::Command::new(&name)
            .args(&cmd.argv[1..])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map(|_| ())
            .map_err(|e| anyhow::anyhow!("cannot run {name}: {e}"))
    };
    match result {
        Ok(()) => app.set_status(
            app::StatusKind::Ok,
            format!("Opened {} {} with {name}", target.source_id, cmd.note).replace("  ", " "),
        ),
        Err(e) => app.set_status(
            app::StatusKind::Error,
            format!("Could not open {}: {e:#}", target.source_id),
        ),
    }
}
