//! Watching a sources folder: a saved, added, renamed or deleted file is
//! reported once the folder has been quiet for a moment (a file still being
//! written keeps it busy, so a partial save is not reported half-way).
//!
//! Change events come from the operating system (inotify, FSEvents,
//! ReadDirectoryChanges); where those are unavailable (a network drive, an
//! exhausted inotify limit) or asked for, the folder is polled instead.
//! Hidden files, editor backups (`name~`) and the index folder (when it
//! lives inside the sources) are ignored, as indexing ignores them.
//!
//! A folder deleted and made again, or replaced by another (a sync tool,
//! `mv new sources`), loses its operating-system watch: the watch looks at
//! the folder's identity every few seconds and attaches again, reporting
//! the folder as changed.
//!
//! An event is not a change: inotify also reports a file being opened, so
//! any program reading the folder (the indexer itself, a backup, another
//! board) would look like an edit. A path counts only when its size,
//! modification time or existence differs from what was last seen.

use anyhow::{Context, Result};
use notify::{PollWatcher, RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{Config, DebounceEventResult, Debouncer, new_debouncer_opt};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// What a path looked like: size, modification time, folder or not; `None`
/// when it does not exist.
type Signature = Option<(u64, Option<SystemTime>, bool)>;

fn signature(p: &Path) -> Signature {
    let m = std::fs::symlink_metadata(p).ok()?;
    Some((m.len(), m.modified().ok(), m.is_dir()))
}

/// The last seen signature of every path under the folder; `None` until the
/// first look at the folder is done (every event counts until then).
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<Option<HashMap<PathBuf, Signature>>>>);

impl Seen {
    /// Look at every path under `root` once, in the background.
    fn start(root: PathBuf, ignore: Vec<PathBuf>) -> Seen {
        let seen = Seen::default();
        let fill = seen.clone();
        std::thread::spawn(move || {
            let map: HashMap<PathBuf, Signature> = walkdir::WalkDir::new(&root)
                .into_iter()
                .filter_entry(|e| relevant(e.path(), &root, &ignore))
                .filter_map(|e| e.ok())
                .map(|e| (e.path().to_path_buf(), signature(e.path())))
                .collect();
            let mut g = fill.0.lock().unwrap_or_else(|e| e.into_inner());
            match g.as_mut() {
                // Events seen meanwhile are newer than the walk.
                Some(newer) => {
                    for (k, v) in map {
                        newer.entry(k).or_insert(v);
                    }
                }
                None => *g = Some(map),
            }
        });
        seen
    }

    /// Did `p` change since it was last seen? Records what it is now.
    fn changed(&self, p: &Path) -> bool {
        let now = signature(p);
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let ready = g.is_some();
        let map = g.get_or_insert_with(HashMap::new);
        let before = map.insert(p.to_path_buf(), now);
        if !ready {
            return true;
        }
        match before {
            Some(old) => old != now,
            // Never seen: a new path, unless it is already gone again.
            None => now.is_some(),
        }
    }
}

/// How the folder is watched.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    /// Operating-system change events, falling back to polling.
    Events,
    /// Look at the folder every this often.
    Poll(Duration),
}

/// A running watch; dropping it stops watching.
pub struct FolderWatch {
    _events: Option<Arc<Mutex<Debouncer<RecommendedWatcher>>>>,
    _poll: Option<Arc<Mutex<Debouncer<PollWatcher>>>>,
    /// Polling, with the interval (because asked, or events failed).
    pub polling: Option<Duration>,
}

/// Which folder a path is: a folder deleted and made again under the same
/// name is another one. `None` when there is none.
fn identity(p: &Path) -> Option<(u64, u64)> {
    let m = std::fs::metadata(p).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let created = m.created().ok()?;
        let nanos = created.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some((0, nanos.as_nanos() as u64))
    }
}

/// Every `every`, while the watch lives: when `root` is another folder
/// than before (made again, or replaced), watch it again and report it.
fn reattach<W: notify::Watcher + Send + 'static>(
    debouncer: &Arc<Mutex<Debouncer<W>>>,
    root: PathBuf,
    every: Duration,
    on_change: impl Fn(Vec<PathBuf>) + Send + 'static,
) {
    let weak = Arc::downgrade(debouncer);
    let mut known = identity(&root);
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(every);
            let Some(d) = weak.upgrade() else { return };
            let now = identity(&root);
            if now == known {
                continue;
            }
            known = now;
            if now.is_some() {
                let mut d = d.lock().unwrap_or_else(|e| e.into_inner());
                let w = d.watcher();
                let _ = w.unwatch(&root);
                let _ = w.watch(&root, RecursiveMode::Recursive);
                drop(d);
                on_change(vec![root.clone()]);
            }
        }
    });
}

/// Should a changed path make the index update? Not for hidden files or
/// folders, editor backups, or anything in the index folder.
pub fn relevant(path: &Path, sources: &Path, ignore: &[PathBuf]) -> bool {
    if ignore.iter().any(|i| path.starts_with(i)) {
        return false;
    }
    let rel = path.strip_prefix(sources).unwrap_or(path);
    let hidden = rel
        .components()
        .any(|c| c.as_os_str().to_string_lossy().starts_with('.'));
    let name = rel.file_name().map(|n| n.to_string_lossy().into_owned());
    let backup = name
        .as_deref()
        .is_some_and(|n| n.ends_with('~') || (n.starts_with('#') && n.ends_with('#')));
    !hidden && !backup
}

/// How often the watch looks whether the folder was made again.
const REATTACH: Duration = Duration::from_secs(2);

/// Watch `sources` (recursively); `on_change` gets the changed paths once
/// the folder has been quiet for `settle`. `ignore` lists folders whose
/// changes do not count (the index folder).
pub fn watch(
    sources: &Path,
    ignore: Vec<PathBuf>,
    mode: Mode,
    settle: Duration,
    on_change: impl Fn(Vec<PathBuf>) + Send + Clone + 'static,
) -> Result<FolderWatch> {
    let sources = sources.canonicalize().unwrap_or_else(|_| sources.into());
    let ignore: Vec<PathBuf> = ignore
        .into_iter()
        .map(|p| p.canonicalize().unwrap_or(p))
        .collect();
    let seen = Seen::start(sources.clone(), ignore.clone());
    let report = on_change.clone();
    let handler = {
        let sources = sources.clone();
        move |r: DebounceEventResult| {
            // An error of the backend (an overflowed queue) may hide a
            // change: treat it as one, the update finds what changed.
            let paths: Vec<PathBuf> = match r {
                Ok(events) => events
                    .into_iter()
                    .map(|e| e.path)
                    .filter(|p| relevant(p, &sources, &ignore) && seen.changed(p))
                    .collect(),
                Err(_) => vec![sources.clone()],
            };
            if !paths.is_empty() {
                on_change(paths);
            }
        }
    };
    let config = |poll: Duration| {
        Config::default()
            .with_timeout(settle)
            .with_batch_mode(true)
            .with_notify_config(notify::Config::default().with_poll_interval(poll))
    };
    let poll = |interval: Duration| -> Result<FolderWatch> {
        let mut d: Debouncer<PollWatcher> = new_debouncer_opt(config(interval), handler.clone())
            .context("cannot poll the sources folder")?;
        d.watcher()
            .watch(&sources, RecursiveMode::Recursive)
            .with_context(|| format!("cannot watch {}", sources.display()))?;
        let d = Arc::new(Mutex::new(d));
        reattach(&d, sources.clone(), REATTACH, report.clone());
        Ok(FolderWatch {
            _events: None,
            _poll: Some(d),
            polling: Some(interval),
        })
    };
    match mode {
        Mode::Poll(interval) => poll(interval),
        Mode::Events => {
            let events = new_debouncer_opt::<_, RecommendedWatcher>(
                config(Duration::from_secs(2)),
                handler.clone(),
            )
            .and_then(|mut d| {
                d.watcher().watch(&sources, RecursiveMode::Recursive)?;
                Ok(d)
            });
            match events {
                Ok(d) => {
                    let d = Arc::new(Mutex::new(d));
                    reattach(&d, sources.clone(), REATTACH, report.clone());
                    Ok(FolderWatch {
                        _events: Some(d),
                        _poll: None,
                        polling: None,
                    })
                }
                // No events here (inotify limit, unsupported filesystem).
                Err(_) => poll(Duration::from_secs(2)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    fn changes(mode: Mode) {
        let dir = tempfile::tempdir().unwrap();
        let index = dir.path().join("index");
        std::fs::create_dir(&index).unwrap();
        let (tx, rx) = mpsc::channel::<Vec<PathBuf>>();
        let send = move |p: Vec<PathBuf>| {
            let _ = tx.send(p);
        };
        let _w = watch(
            dir.path(),
            vec![index.clone()],
            mode,
            Duration::from_millis(300),
            send,
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        // Ignored: the index folder, hidden files, editor backups.
        std::fs::write(index.join("gen-1.vectors"), "x").unwrap();
        std::fs::write(dir.path().join(".notes.md.swp"), "x").unwrap();
        std::fs::write(dir.path().join("notes.md~"), "x").unwrap();
        // Seen: a new source file.
        std::fs::write(dir.path().join("notes.md"), "The keeper's log.").unwrap();
        // Polling also sees the folder itself change (its entries did),
        // possibly in a batch of its own.
        let folder = dir.path().canonicalize().unwrap();
        let mut got = Vec::new();
        while !got.iter().any(|p: &PathBuf| p.ends_with("notes.md")) {
            got.extend(rx.recv_timeout(Duration::from_secs(10)).expect("a change"));
        }
        assert!(
            got.iter().all(|p| p.ends_with("notes.md") || *p == folder),
            "only the source file counts: {got:?}"
        );
    }

    /// Reading a file (another program indexing the folder) is not a
    /// change; writing it is.
    #[test]
    fn reading_a_file_is_not_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("notes.md");
        std::fs::write(&file, "The keeper's log.").unwrap();
        let (tx, rx) = mpsc::channel::<Vec<PathBuf>>();
        let send = move |p: Vec<PathBuf>| {
            let _ = tx.send(p);
        };
        let _w = watch(
            dir.path(),
            vec![],
            Mode::Events,
            Duration::from_millis(200),
            send,
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(500));
        for _ in 0..3 {
            let _ = std::fs::read(&file).unwrap();
            let _ = std::fs::read_dir(dir.path()).unwrap().count();
        }
        let got = rx.recv_timeout(Duration::from_millis(1500));
        assert!(got.is_err(), "a read was reported as a change: {got:?}");
        std::fs::write(&file, "The keeper's log, amended.").unwrap();
        let got = rx.recv_timeout(Duration::from_secs(10)).expect("a change");
        assert!(got.iter().any(|p| p.ends_with("notes.md")), "{got:?}");
    }

    #[test]
    fn a_new_file_is_reported_and_the_index_folder_is_not() {
        changes(Mode::Events);
    }

    #[test]
    fn polling_sees_the_same_change() {
        changes(Mode::Poll(Duration::from_millis(200)));
    }

    /// A folder deleted and made again (a sync tool, `mv new sources`) is
    /// watched again: a file saved in the new folder is reported.
    #[test]
    fn a_folder_made_again_is_watched_again() {
        for mode in [Mode::Events, Mode::Poll(Duration::from_millis(200))] {
            let dir = tempfile::tempdir().unwrap();
            let sources = dir.path().join("sources");
            std::fs::create_dir(&sources).unwrap();
            let (tx, rx) = mpsc::channel::<Vec<PathBuf>>();
            let send = move |p: Vec<PathBuf>| {
                let _ = tx.send(p);
            };
            let _w = watch(&sources, vec![], mode, Duration::from_millis(200), send).unwrap();
            std::thread::sleep(Duration::from_millis(300));
            std::fs::rename(&sources, dir.path().join("old")).unwrap();
            std::fs::create_dir(&sources).unwrap();
            // Long enough for the watch to see the new folder.
            std::thread::sleep(REATTACH * 2);
            std::fs::write(sources.join("notes.md"), "The keeper's log.").unwrap();
            let deadline = std::time::Instant::now() + Duration::from_secs(15);
            let mut got = Vec::new();
            while !got.iter().any(|p: &PathBuf| p.ends_with("notes.md")) {
                let left = deadline.saturating_duration_since(std::time::Instant::now());
                match rx.recv_timeout(left) {
                    Ok(p) => got.extend(p),
                    Err(_) => panic!("{mode:?}: no change reported in the new folder: {got:?}"),
                }
            }
        }
    }

    #[test]
    fn relevance_of_paths() {
        let s = Path::new("/books");
        let ig = vec![PathBuf::from("/books/.idx")];
        assert!(relevant(Path::new("/books/a/ch1.md"), s, &ig));
        assert!(!relevant(Path::new("/books/.git/HEAD"), s, &ig));
        assert!(!relevant(Path::new("/books/ch1.md~"), s, &ig));
        assert!(!relevant(Path::new("/books/#ch1.md#"), s, &ig));
        assert!(!relevant(Path::new("/books/.idx/gen-2.ids"), s, &ig));
    }
}
