//! Opening a source at a quote (`o`): a PDF at its page, a text file at
//! its line. The command is built as an argument list (never a shell line),
//! so a file name cannot run anything.
//!
//! - Text formats: `[open] text` from `tui.toml`, else `$VISUAL`/`$EDITOR`
//!   as `EDITOR +LINE FILE` — a program that runs in this terminal: the
//!   board steps aside until it exits.
//! - PDFs: `[open] pdf` (for example `"zathura --page={page} {path}"` or
//!   `"evince -i {page} {path}"`), else the platform's opener on the file
//!   (it cannot be told a page; the status line says so).
//! - Everything else: the platform's opener (`xdg-open`, `open`).

use std::path::Path;

/// Where to open: the source file, and the page or line of the quote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub source_id: String,
    /// Physical page (PDF viewers count pages from 1 in the file).
    pub page: Option<u32>,
    pub line: Option<usize>,
}

impl Target {
    /// From a place as the pipeline gives it: "p. 12" or "line 412".
    pub fn at(source_id: &str, place: Option<&str>) -> Target {
        let num =
            |prefix: &str| -> Option<u32> { place?.strip_prefix(prefix)?.trim().parse().ok() };
        Target {
            source_id: source_id.to_string(),
            page: num("p."),
            line: num("line").map(|l| l as usize),
        }
    }
}

/// `[open]` in `tui.toml`: command templates with `{path}`, `{page}`,
/// `{line}`.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OpenConfig {
    pub text: Option<String>,
    pub pdf: Option<String>,
}

/// A command to run, and whether it runs in this terminal (an editor) or
/// on its own (a viewer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    pub argv: Vec<String>,
    pub in_terminal: bool,
    /// What the status line says ("at page 12", "at the start: set [open]
    /// pdf to open at the page").
    pub note: String,
}

fn platform_opener() -> &'static str {
    if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    }
}

/// Fill a template word by word: each whitespace-separated word is one
/// argument, so a path with spaces stays one argument.
fn fill(template: &str, path: &str, page: u32, line: usize) -> Vec<String> {
    template
        .split_whitespace()
        .map(|w| {
            w.replace("{path}", path)
                .replace("{page}", &page.to_string())
                .replace("{line}", &line.to_string())
        })
        .collect()
}

/// The command that opens `t` (a file under `sources`), given the config
/// and the editor (`$VISUAL`, else `$EDITOR`).
pub fn command(t: &Target, sources: &Path, cfg: &OpenConfig, editor: Option<&str>) -> Command {
    let path = crate::ingest::source_path(sources, &t.source_id)
        .to_string_lossy()
        .into_owned();
    let is_pdf = t.source_id.to_ascii_lowercase().ends_with(".pdf");
    let page = t.page.unwrap_or(1);
    let line = t.line.unwrap_or(1);
    if is_pdf {
        return match &cfg.pdf {
            Some(tpl) => Command {
                argv: fill(tpl, &path, page, line),
                in_terminal: false,
                note: format!("at page {page}"),
            },
            None => Command {
                argv: vec![platform_opener().into(), path],
                in_terminal: false,
                note: format!(
                    "(the viewer opens at its start; the quote is on page {page}: set [open] pdf \
                     in tui.toml to open at the page)"
                ),
            },
        };
    }
    let plain = matches!(
        Path::new(&t.source_id)
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("md" | "markdown" | "txt" | "text" | "rst" | "html" | "htm")
    );
    match (&cfg.text, editor.filter(|e| !e.trim().is_empty())) {
        (Some(tpl), _) if plain => Command {
            argv: fill(tpl, &path, page, line),
            in_terminal: true,
            note: format!("at line {line}"),
        },
        (None, Some(ed)) if plain => {
            let mut argv: Vec<String> = ed.split_whitespace().map(str::to_string).collect();
            argv.push(format!("+{line}"));
            argv.push(path);
            Command {
                argv,
                in_terminal: true,
                note: format!("at line {line}"),
            }
        }
        _ => Command {
            argv: vec![platform_opener().into(), path],
            in_terminal: false,
            note: String::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_become_pages_and_lines() {
        assert_eq!(Target::at("a.pdf", Some("p. 12")).page, Some(12));
        assert_eq!(Target::at("a.md", Some("line 412")).line, Some(412));
        assert_eq!(
            Target::at("a.md", None),
            Target {
                source_id: "a.md".into(),
                page: None,
                line: None
            }
        );
    }

    #[test]
    fn commands_for_text_and_pdf() {
        let src = Path::new("/books/my sources");
        let cfg = OpenConfig::default();
        let t = Target::at("notes/ch 1.md", Some("line 7"));
        let c = command(&t, src, &cfg, Some("nvim -u NONE"));
        assert_eq!(
            c.argv,
            [
                "nvim",
                "-u",
                "NONE",
                "+7",
                "/books/my sources/notes/ch 1.md"
            ]
        );
        assert!(c.in_terminal);
        // No editor: the platform opener, on its own.
        let c = command(&t, src, &cfg, None);
        assert_eq!(c.argv[1], "/books/my sources/notes/ch 1.md");
        assert!(!c.in_terminal);
        // A PDF: the template at the page; the path stays one argument.
        let cfg = OpenConfig {
            text: None,
            pdf: Some("zathura --page={page} {path}".into()),
        };
        let c = command(
            &Target::at("paper.pdf", Some("p. 3")),
            src,
            &cfg,
            Some("vi"),
        );
        assert_eq!(
            c.argv,
            ["zathura", "--page=3", "/books/my sources/paper.pdf"]
        );
        assert!(!c.in_terminal);
        // A file name cannot inject arguments or commands.
        let c = command(&Target::at("x; rm -rf ~.md", None), src, &cfg, Some("vi"));
        assert_eq!(c.argv, ["vi", "+1", "/books/my sources/x; rm -rf ~.md"]);
    }
}
