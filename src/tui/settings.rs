//! The board's own settings (`tui.toml` next to `config.toml`, so the
//! pipeline's strict config stays untouched) and the persisted query history.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The default copy format: `"quote" (Source Title, location)`.
pub const DEFAULT_COPY_FORMAT: &str = "\"{quote}\" ({title}, {location})";

#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct TuiConfig {
    /// Template for a copied quote: `{quote}`, `{title}`, `{location}`,
    /// `{source}` (file id) and `{n}` are replaced.
    pub copy_format: String,
    /// A built-in theme name or a path to a theme file.
    pub theme: Option<String>,
    /// How many queries the history keeps.
    pub history_size: usize,
    /// Watch the sources folder and update the index when a file changes:
    /// `"events"` (the operating system's change events, polling where
    /// there are none), `"poll"` (look every `poll_interval_s`; for network
    /// drives) or `"off"`.
    pub watch: WatchSetting,
    /// Seconds between looks at the folder when polling.
    pub poll_interval_s: f64,
    /// How `o` opens a source at the quote (`[open]`: `text`, `pdf`).
    pub open: super::open::OpenConfig,
}

/// See [`TuiConfig::watch`].
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Default)]
#[serde(rename_all = "lowercase")]
pub enum WatchSetting {
    #[default]
    Events,
    Poll,
    Off,
}

impl Default for TuiConfig {
    fn default() -> Self {
        TuiConfig {
            copy_format: DEFAULT_COPY_FORMAT.into(),
            theme: None,
            history_size: 500,
            watch: WatchSetting::Events,
            poll_interval_s: 2.0,
            open: Default::default(),
        }
    }
}

fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "research-board")
}

impl TuiConfig {
    pub fn default_path() -> Option<PathBuf> {
        project_dirs().map(|d| d.config_dir().join("tui.toml"))
    }

    /// Load the default file if it exists; on an error, the defaults and a
    /// message for the status line.
    pub fn load() -> (TuiConfig, Option<String>) {
        match Self::default_path() {
            Some(p) if p.exists() => Self::load_from(&p),
            _ => (TuiConfig::default(), None),
        }
    }

    pub fn load_from(path: &Path) -> (TuiConfig, Option<String>) {
        let parsed = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| toml::from_str::<TuiConfig>(&t).map_err(|e| e.message().to_string()));
        match parsed {
            Ok(c) => (c, None),
            Err(e) => (
                TuiConfig::default(),
                Some(format!("{}: {e}; using the defaults", path.display())),
            ),
        }
    }
}

/// Fill the copy template for one quote.
pub fn format_copy(
    template: &str,
    quote: &str,
    title: &str,
    location: &str,
    source: &str,
    n: usize,
) -> String {
    // "(Title, )" reads badly: without a location, drop it from the
    // template (never from the filled text: the quote must stay as it is).
    let template = if location.trim().is_empty() {
        template
            .replace("{location}", "")
            .replace(", )", ")")
            .replace(" ()", "")
    } else {
        template.to_string()
    };
    // One pass: a quote holding "{title}" is not expanded.
    crate::llm::fill(
        &template,
        &[
            ("quote", &clean_for_copy(quote)),
            ("title", &clean_for_copy(title)),
            ("location", &clean_for_copy(location)),
            ("source", &clean_for_copy(source)),
            ("n", &n.to_string()),
        ],
    )
}

/// What goes on the clipboard: the source's words as a reader sees them
/// ([`crate::validate::reader_text`]).
pub fn clean_for_copy(s: &str) -> String {
    crate::validate::reader_text(s)
}

/// Queries typed before, newest last; persisted one per line.
#[derive(Debug, Default)]
pub struct History {
    pub entries: Vec<String>,
    /// Position while browsing with ↑/↓.
    pos: Option<usize>,
    /// What was typed before browsing started.
    draft: String,
    path: Option<PathBuf>,
    limit: usize,
}

impl History {
    pub fn default_path() -> Option<PathBuf> {
        project_dirs().map(|d| d.data_dir().join("history"))
    }

    /// Load from `path` (missing file = empty history).
    pub fn load(path: Option<PathBuf>, limit: usize) -> History {
        let entries = path
            .as_deref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .map(|t| {
                t.lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        let mut h = History {
            entries,
            path,
            limit: limit.max(1),
            ..Default::default()
        };
        h.trim();
        h
    }

    fn trim(&mut self) {
        if self.entries.len() > self.limit {
            let extra = self.entries.len() - self.limit;
            self.entries.drain(..extra);
        }
    }

    /// Remember `q` and save; returns an error message if saving failed.
    pub fn push(&mut self, q: &str) -> Option<String> {
        self.pos = None;
        let q = clean_for_copy(q);
        if q.is_empty() {
            return None;
        }
        self.entries.retain(|e| *e != q);
        self.entries.push(q);
        self.trim();
        let path = self.path.as_ref()?;
        let save = || -> std::io::Result<()> {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let mut text = self.entries.join("\n");
            text.push('\n');
            std::fs::write(path, text)
        };
        save()
            .err()
            .map(|e| format!("cannot save the history in {}: {e}", path.display()))
    }

    /// ↑: the previous entry (older), keeping `current` as the draft.
    pub fn older(&mut self, current: &str) -> Option<&str> {
        if self.entries.is_empty() {
            return None;
        }
        let pos = match self.pos {
            None => {
                self.draft = current.to_string();
                self.entries.len() - 1
            }
            Some(0) => 0,
            Some(p) => p - 1,
        };
        self.pos = Some(pos);
        Some(&self.entries[pos])
    }

    /// ↓: the next entry (newer), or back to the draft.
    pub fn newer(&mut self) -> Option<&str> {
        let p = self.pos?;
        if p + 1 < self.entries.len() {
            self.pos = Some(p + 1);
            Some(&self.entries[p + 1])
        } else {
            self.pos = None;
            Some(&self.draft)
        }
    }

    pub fn reset_browse(&mut self) {
        self.pos = None;
    }
}

#[cfg(test)]
mod tests {
    /// The README's tui.toml block is a valid file, and says the defaults.
    #[test]
    fn the_readme_tui_toml_is_valid_and_the_defaults() {
        let readme =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
        let start = readme
            .find("```toml\n# research-board/tui.toml")
            .expect("the README shows tui.toml");
        let body = &readme[start + "```toml\n".len()..];
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("tui.toml");
        std::fs::write(&p, &body[..body.find("```").unwrap()]).unwrap();
        let (c, err) = super::TuiConfig::load_from(&p);
        assert_eq!(err, None);
        let d = super::TuiConfig::default();
        assert_eq!(c.copy_format, d.copy_format);
        assert_eq!(c.history_size, d.history_size);
        assert_eq!(c.poll_interval_s, d.poll_interval_s);
        assert_eq!(c.theme, d.theme);
    }

    /// `[open]` in tui.toml sets how `o` opens text and PDF sources; a
    /// misspelt key there is reported, not ignored.
    #[test]
    fn the_open_table_of_tui_toml() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("tui.toml");
        std::fs::write(&p, "[open]\npdf = \"zathura --page={page} {path}\"\n").unwrap();
        let (c, err) = super::TuiConfig::load_from(&p);
        assert_eq!(err, None);
        assert_eq!(c.open.pdf.as_deref(), Some("zathura --page={page} {path}"));
        std::fs::write(&p, "[open]\npfd = \"x\"\n").unwrap();
        let (_, err) = super::TuiConfig::load_from(&p);
        assert!(err.is_some_and(|e| e.contains("pfd")));
    }

    use super::*;

    #[test]
    fn copy_format_fills_the_template_and_cleans_text() {
        let s = format_copy(
            DEFAULT_COPY_FORMAT,
            "It was\nlit in 1810.\x1b[2J",
            "Bell Rock",
            "Ch. 2 › Light",
            "bell.rst",
            1,
        );
        assert_eq!(s, "\"It was lit in 1810.[2J\" (Bell Rock, Ch. 2 › Light)");
        let s = format_copy(DEFAULT_COPY_FORMAT, "Q", "T", "", "t.md", 1);
        assert_eq!(s, "\"Q\" (T)");
        let s = format_copy("{n}: {quote} — {source}", "Q", "T", "L", "t.md", 3);
        assert_eq!(s, "3: Q — t.md");
        // The quote is never rewritten by the template: placeholders in it
        // stay, and an empty location trims only the template.
        let s = format_copy(
            DEFAULT_COPY_FORMAT,
            "f(a, ) is {title} ()",
            "T",
            "",
            "t.md",
            1,
        );
        assert_eq!(s, "\"f(a, ) is {title} ()\" (T)");
        // A word hyphenated at a line break is joined, as validation reads it;
        // a hyphen before an ordinary space is kept.
        assert_eq!(
            clean_for_copy("light-\nhouse keep- er"),
            "lighthouse keep- er"
        );
    }

    #[test]
    fn history_browses_and_persists() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/history");
        let mut h = History::load(Some(path.clone()), 3);
        assert!(h.older("x").is_none());
        for q in ["one", "two", "three", "two", "four"] {
            assert!(h.push(q).is_none());
        }
        assert_eq!(h.entries, ["three", "two", "four"]);
        assert_eq!(h.older("draft"), Some("four"));
        assert_eq!(h.older("draft"), Some("two"));
        assert_eq!(h.newer(), Some("four"));
        assert_eq!(h.newer(), Some("draft"));
        let h2 = History::load(Some(path), 10);
        assert_eq!(h2.entries, ["three", "two", "four"]);
    }

    #[test]
    fn config_file_errors_fall_back_to_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("tui.toml");
        std::fs::write(&p, "copy_format = \"{quote} — {title}\"\n").unwrap();
        assert_eq!(TuiConfig::load_from(&p).0.copy_format, "{quote} — {title}");
        std::fs::write(&p, "copy_fromat = 1\n").unwrap();
        let (c, msg) = TuiConfig::load_from(&p);
        assert_eq!(c, TuiConfig::default());
        assert!(msg.unwrap().contains("copy_fromat"));
    }
}
