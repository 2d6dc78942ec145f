//! Ingest: find source files, read them safely and extract their text.
//!
//! Every loader returns an [`Extracted`]: the document text exactly as
//! extracted (citations point at char offsets into it) and the structural
//! blocks found in it (headings and paragraphs, with pages for PDFs). A file
//! that cannot be used is reported as a [`Skipped`] with a reason; nothing
//! here aborts a run, and nothing here writes to the sources folder.

pub mod decode;
pub(crate) use pdf::roman as roman_numeral;
mod bidi;
mod css;
mod docx;
mod epub;
mod html;
mod ids;
mod kinds;
mod markdown;
pub mod metadata;
mod pdf;
mod plain;
mod read;
mod sheet;
pub mod worker;
pub use ids::{source_id, source_path};
pub use read::read_limited;

use std::path::{Path, PathBuf};

/// A heading or a paragraph-like block, by byte range in the extracted text.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Block {
    pub kind: BlockKind,
    pub start: usize,
    pub end: usize,
    /// 1-based page number, for paginated formats.
    pub page: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum BlockKind {
    Heading {
        level: u8,
        text: String,
    },
    Para,
    /// A note shown apart from the text (a Markdown footnote's
    /// definition): a passage of its own, never read as running on into
    /// the text either side ([`crate::chunk::is_note`]).
    Note,
    /// Apparatus (licence boilerplate, contents, markers): kept in the
    /// text, never chunked, searched or quoted ([`kinds`]).
    Aside,
}

/// Text and structure extracted from one file.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Extracted {
    pub text: String,
    pub blocks: Vec<Block>,
    pub title: Option<String>,
    /// The work's author, when its metadata names one ([`metadata`]).
    #[serde(default)]
    pub author: Option<String>,
    /// How a text format's bytes were decoded ([`decode`]).
    #[serde(default)]
    pub decoding: Option<decode::Decoding>,
    /// The text is the file's own text (Markdown, plain text, RST), so a
    /// line of it is a line of the file.
    #[serde(default)]
    pub text_is_file: bool,
    /// The printed label of each physical page (index 0 = page 1), when a
    /// paged document declares them (PDF `/PageLabels`: "i", "ii", "1").
    #[serde(default)]
    pub page_labels: Option<Vec<String>>,
    /// The page numbers the pages print (a PDF's folios, read where it
    /// declares no labels); empty where not known.
    #[serde(default)]
    pub folios: Option<Vec<String>>,
    /// How many physical pages a paged document has.
    #[serde(default)]
    pub pages: Option<u32>,
}

impl Extracted {
    /// Append a block of text, separated from the previous one by a blank line.
    pub(crate) fn push(&mut self, kind: BlockKind, text: &str, page: Option<u32>) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if !self.text.is_empty() {
            self.text.push_str("\n\n");
        }
        let start = self.text.len();
        self.text.push_str(text);
        self.blocks.push(Block {
            kind,
            start,
            end: self.text.len(),
            page,
        });
    }

    fn has_words(&self) -> bool {
        self.blocks.iter().any(|b| {
            matches!(b.kind, BlockKind::Para | BlockKind::Note)
                && self.text[b.start..b.end].chars().any(char::is_alphanumeric)
        })
    }
}

/// Supported input formats, by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Markdown,
    Text,
    Rst,
    Html,
    Pdf,
    Docx,
    Epub,
}

impl Format {
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "md" | "markdown" => Format::Markdown,
            "txt" | "text" => Format::Text,
            "rst" => Format::Rst,
            "html" | "htm" => Format::Html,
            "pdf" => Format::Pdf,
            "docx" => Format::Docx,
            "epub" => Format::Epub,
            _ => return None,
        })
    }
}

/// A candidate source file found under the sources folder.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Stable id: the path relative to the sources folder, with `/`.
    pub source_id: String,
    pub path: PathBuf,
    pub format: Format,
    pub size: u64,
    /// Modification time, ns since the epoch.
    pub modified: Option<u64>,
}

/// A file that was not indexed, and why.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Skipped {
    pub source_id: String,
    pub reason: String,
}

/// Limits that protect the indexer from hostile or accidental inputs.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Files larger than this are skipped.
    pub max_file_bytes: u64,
    /// Extracted text longer than this (bytes) is skipped.
    pub max_text_bytes: usize,
    /// A binary file's parser is stopped after this long ([`worker`]).
    pub worker_timeout: std::time::Duration,
    /// Address space a binary file's parser may use ([`worker`]).
    pub worker_memory_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 64 * 1024 * 1024,
            max_text_bytes: 32 * 1024 * 1024,
            worker_timeout: std::time::Duration::from_secs(60),
            worker_memory_bytes: 2048 * 1024 * 1024,
        }
    }
}

/// Walk `root` (not following symlinks, skipping hidden entries and the
/// folders in `exclude`, such as an index kept inside the sources folder)
/// and return the supported files in a stable order plus the files skipped
/// up front.
pub fn discover(
    root: &Path,
    limits: &Limits,
    exclude: &[&Path],
) -> (Vec<SourceFile>, Vec<Skipped>) {
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    let exclude: Vec<PathBuf> = exclude
        .iter()
        .map(|p| p.canonicalize().unwrap_or_else(|_| p.to_path_buf()))
        .collect();
    let root_real = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let walker = walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| {
            if e.depth() == 0 {
                return true;
            }
            if e.file_name().to_string_lossy().starts_with('.') {
                return false;
            }
            !(e.file_type().is_dir()
                && e.path()
                    .strip_prefix(root)
                    .is_ok_and(|rel| exclude.iter().any(|x| *x == root_real.join(rel))))
        });
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(err) => {
                let id = err
                    .path()
                    .map(|p| source_id(root, p))
                    .unwrap_or_else(|| "?".into());
                skipped.push(Skipped {
                    source_id: id,
                    reason: format!("cannot read: {}", io_reason(err.io_error())),
                });
                continue;
            }
        };
        let path = entry.path();
        let ft = entry.file_type();
        if ft.is_dir() {
            continue;
        }
        if !ft.is_file() {
            // Named in the skipped list rather than silently left out.
            let reason = if ft.is_symlink() {
                "a symbolic link (links are not followed)"
            } else {
                "not a regular file (a pipe, socket or device)"
            };
            if Format::from_path(path).is_some() {
                skipped.push(Skipped {
                    source_id: source_id(root, path),
                    reason: reason.into(),
                });
            }
            continue;
        }
        let id = source_id(root, path);
        let Some(format) = Format::from_path(path) else {
            skipped.push(Skipped {
                source_id: id,
                reason: "unsupported file type".into(),
            });
            continue;
        };
        let meta = entry.metadata().ok();
        let size = meta.as_ref().map_or(0, |m| m.len());
        let modified = meta
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos() as u64);
        if size > limits.max_file_bytes {
            skipped.push(Skipped {
                source_id: id,
                reason: format!(
                    "too large ({:.1} MB; the limit is {:.1} MB)",
                    mb(size),
                    mb(limits.max_file_bytes)
                ),
            });
            continue;
        }
        files.push(SourceFile {
            source_id: id,
            path: path.to_path_buf(),
            format,
            size,
            modified,
        });
    }
    // In source-id order, whatever order the directory lists them in
    // (sorted here once rather than directory by directory as they are
    // walked: a tenth of an update's time on a 40,000-file folder).
    files.sort_unstable_by(|a, b| a.source_id.cmp(&b.source_id));
    skipped.sort_by(|a, b| a.source_id.cmp(&b.source_id));
    (files, skipped)
}

/// A file's name without its extension, as a title: on one line (a name
/// may hold a line break or a tab).
pub fn file_title(p: &Path) -> String {
    p.file_stem()
        .map(|s| collapse_ws(&s.to_string_lossy()))
        .unwrap_or_default()
}

fn mb(b: u64) -> f64 {
    b as f64 / (1024.0 * 1024.0)
}

fn io_reason(e: Option<&std::io::Error>) -> String {
    e.map(|e| e.to_string())
        .unwrap_or_else(|| "unknown error".into())
}

/// Extract text and structure from a file's bytes. Errors are reasons to skip.
pub fn extract(format: Format, bytes: &[u8], limits: &Limits) -> Result<Extracted, String> {
    extract_at(format, bytes, limits, None)
}

/// [`extract`] the file at `path` (when known): an HTML page's linked
/// local style sheets are read beside it ([`html::local_sheets`]).
pub fn extract_at(
    format: Format,
    bytes: &[u8],
    limits: &Limits,
    path: Option<&Path>,
) -> Result<Extracted, String> {
    if bytes.is_empty() {
        return Err("empty file".into());
    }
    let extracted = match format {
        Format::Markdown | Format::Text | Format::Rst | Format::Html => {
            let (text, decoding) = decode::decode(bytes)?;
            let mut ex = match format {
                Format::Markdown => markdown::extract(&text),
                Format::Text => plain::extract(&text, plain::sniff(&text)),
                Format::Rst => plain::extract(&text, plain::Flavor::Rst),
                _ => match path.and_then(|p| Some((p.parent()?, p.file_name()?.to_str()?))) {
                    Some((dir, name)) => {
                        html::extract_linked(&text, name, &mut html::local_sheets(dir))
                    }
                    None => html::extract(&text),
                },
            };
            ex.decoding = Some(decoding);
            ex
        }
        Format::Pdf => guarded("PDF", || pdf::extract(bytes))?,
        Format::Docx => guarded("DOCX", || docx::extract(bytes, limits.max_text_bytes))?,
        Format::Epub => guarded("EPUB", || epub::extract(bytes, limits.max_text_bytes))?,
    };
    let mut extracted = extracted;
    bidi::hide_reversed(&mut extracted.text);
    kinds::classify(&mut extracted);
    if extracted.text.len() > limits.max_text_bytes {
        return Err(format!(
            "too much text ({:.1} MB extracted; the limit is {:.1} MB)",
            mb(extracted.text.len() as u64),
            mb(limits.max_text_bytes as u64)
        ));
    }
    if !extracted.has_words() {
        return Err(match format {
            Format::Pdf => "no text layer (scanned PDF?) or no text".into(),
            _ => "no text".into(),
        });
    }
    Ok(extracted)
}

/// Run a third-party parser, turning its panics into a skip reason.
///
/// The panic is expected and handled, so it must not reach the panic hook:
/// the default hook would print over the board, and the board's hook would
/// restore the terminal as if the program were dying. The first call wraps
/// whatever hook is installed by then with a filter that stays silent while
/// this thread is inside a guarded parser.
fn guarded<F>(what: &str, f: F) -> Result<Extracted, String>
where
    F: FnOnce() -> Result<Extracted, String> + std::panic::UnwindSafe,
{
    thread_local!(static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });
    static FILTER: std::sync::Once = std::sync::Once::new();
    FILTER.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let result = std::panic::catch_unwind(f);
    QUIET.with(|q| q.set(false));
    match result {
        Ok(r) => r,
        Err(_) => Err(format!("malformed {what}: the parser failed on this file")),
    }
}

/// An XML element's attribute by local name (any namespace), unescaped.
pub(crate) fn xml_attr(e: &quick_xml::events::BytesStart<'_>, local: &[u8]) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == local)
        .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
}

/// Collapse runs of whitespace to single spaces and trim.
pub(crate) use crate::text::collapse_ws;

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits::default()
    }

    #[test]
    fn refuses_binary_empty_and_invalid_utf8() {
        assert_eq!(
            extract(Format::Text, b"", &limits()).unwrap_err(),
            "empty file"
        );
        assert!(
            extract(Format::Text, b"abc\0def", &limits())
                .unwrap_err()
                .starts_with("binary")
        );
        // Not UTF-8 is not refused: it is decoded (see decode.rs).
        let ex = extract(
            Format::Markdown,
            b"caf\xe9 au lait, cr\xe8me br\xfbl\xe9e",
            &limits(),
        )
        .unwrap();
        assert!(ex.text.contains("café au lait"), "{}", ex.text);
        assert!(ex.decoding.unwrap().guessed());
        assert_eq!(
            extract(Format::Text, b"  \n\n  ", &limits()).unwrap_err(),
            "no text"
        );
    }

    #[test]
    fn a_file_names_title_is_one_line() {
        assert_eq!(file_title(Path::new("/s/two\nlines\t x.md")), "two lines x");
        assert_eq!(file_title(Path::new("/s/notes.md")), "notes");
    }

    #[test]
    fn malformed_pdf_and_docx_are_reported_not_fatal() {
        let e = extract(Format::Pdf, b"%PDF-1.4 garbage", &limits()).unwrap_err();
        assert!(e.contains("PDF"), "{e}");
        let e = extract(Format::Docx, b"PK\x03\x04 not really a zip", &limits()).unwrap_err();
        assert!(e.contains("DOCX"), "{e}");
    }

    /// Runs in a child process (the panic hook is process-wide): a parser
    /// panic becomes a skip reason without reaching the hook, while a real
    /// panic still does.
    #[test]
    fn parser_panic_child() {
        if std::env::var_os("RB_PANIC_CHILD").is_none() {
            return;
        }
        let r = guarded("PDF", || panic!("parser bug"));
        assert_eq!(
            r.unwrap_err(),
            "malformed PDF: the parser failed on this file"
        );
        let _ = std::panic::catch_unwind(|| panic!("a real panic"));
    }

    #[test]
    fn a_parser_panic_is_a_skip_reason_and_stays_quiet() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "ingest::tests::parser_panic_child",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("RB_PANIC_CHILD", "1")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(!stderr.contains("parser bug"), "{stderr}");
        assert!(stderr.contains("a real panic"), "{stderr}");
    }

    #[test]
    fn too_much_text_is_skipped() {
        let l = Limits {
            max_file_bytes: 1 << 20,
            max_text_bytes: 10,
            ..Limits::default()
        };
        let e = extract(Format::Text, b"a long enough paragraph of text", &l).unwrap_err();
        assert!(e.starts_with("too much text"), "{e}");
    }

    #[test]
    fn discover_reports_unsupported_and_oversized_and_skips_hidden() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "# A\n\nText.").unwrap();
        std::fs::write(dir.path().join("b.xyz"), "x").unwrap();
        std::fs::write(dir.path().join("big.txt"), vec![b'a'; 2048]).unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        std::fs::write(dir.path().join(".git/c.md"), "# hidden").unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/d.rst"), "Title\n=====\n\nBody.").unwrap();
        let l = Limits {
            max_file_bytes: 1024,
            max_text_bytes: 1 << 20,
            ..Limits::default()
        };
        let (files, skipped) = discover(dir.path(), &l, &[]);
        let ids: Vec<_> = files.iter().map(|f| f.source_id.as_str()).collect();
        assert_eq!(ids, ["a.md", "sub/d.rst"]);
        assert_eq!(skipped.len(), 2);
        assert_eq!(skipped[0].source_id, "b.xyz");
        assert_eq!(skipped[0].reason, "unsupported file type");
        assert_eq!(skipped[1].source_id, "big.txt");
        assert!(skipped[1].reason.starts_with("too large"));
    }
}

/// Fuzzing of every loader, driven by proptest so that it runs, bounded, in
/// every `cargo test`: markup-shaped and random inputs never panic, and
/// what a loader returns is well formed (blocks inside the text, on char
/// boundaries), through title settling and chunking.
#[cfg(test)]
mod fuzz {
    use super::*;
    use proptest::prelude::*;

    fn markupish() -> impl Strategy<Value = String> {
        let token = prop::sample::select(vec![
            "<p>",
            "</p>",
            "<span>",
            "</span>",
            "<h1>",
            "</h1>",
            "<title>",
            "</title>",
            "<meta charset=\"latin1\">",
            "<br>",
            "<table><tr><td>",
            "&amp;",
            "&#x1F600;",
            "&bogus;",
            "<w:p>",
            "</w:p>",
            "<w:t>",
            "</w:t>",
            "<w:t/>",
            "<w:del>",
            "</w:del>",
            "<w:r>",
            "</w:r>",
            "<w:txbxContent>",
            "<w:pStyle w:val=\"Heading1\"/>",
            "# ",
            "## ",
            "\n",
            "\n\n",
            "\r\n",
            "===",
            "---",
            "~~~",
            ".. note::",
            "`",
            "``lit``",
            "*",
            "**",
            "_",
            "[",
            "](u)",
            "Title: ",
            "Author: ",
            "*** START OF THIS PROJECT GUTENBERG EBOOK X ***",
            "*** END OF THIS PROJECT GUTENBERG EBOOK X ***",
            "CONTENTS",
            "_Page 3_",
            "  xii",
            "[Sidenote: x]",
            "\u{FEFF}",
            "\u{0}",
            "\u{1b}[2J",
            "é",
            "e\u{301}",
            "ﬁ",
            "—",
            "–",
            "…",
            "10⁶",
            "½",
            "灯台",
            "👨\u{200D}👩",
            "word",
            "The keeper lit the lamp.",
            " ",
            "    ",
        ]);
        (prop::collection::vec(token, 0..200), 1usize..120)
            .prop_map(|(v, rep)| v.concat().repeat(if rep > 100 { rep } else { 1 }))
    }

    fn check(ex: &mut Extracted) {
        for b in &ex.blocks {
            assert!(b.start <= b.end && b.end <= ex.text.len());
            assert!(ex.text.is_char_boundary(b.start) && ex.text.is_char_boundary(b.end));
        }
        metadata::settle(ex, "stem");
        assert!(ex.title.as_deref().is_some_and(|t| !t.is_empty()));
        let chunks = crate::chunk::chunk_document("s", "t", ex, Default::default());
        for c in chunks {
            assert!(c.start <= c.end);
        }
    }

    proptest! {
        #![proptest_config(crate::cases(96))]

        #[test]
        fn every_text_format_survives_markup_and_bytes(
            text in markupish(),
            bytes in prop::collection::vec(any::<u8>(), 0..2048),
        ) {
            let limits = Limits::default();
            for format in [Format::Markdown, Format::Text, Format::Rst, Format::Html] {
                for input in [text.as_bytes(), &bytes[..]] {
                    if let Ok(mut ex) = extract(format, input, &limits) {
                        check(&mut ex);
                    }
                }
            }
        }

        #[test]
        fn docx_survives_arbitrary_bodies(text in markupish()) {
            let bytes = docx::tests::make_docx(&text);
            if let Ok(mut ex) = extract(Format::Docx, &bytes, &Limits::default()) {
                check(&mut ex);
            }
        }

        #[test]
        fn epub_survives_arbitrary_chapters(a in markupish(), b in markupish()) {
            let bytes = epub::tests::make_epub(&a, &b, &[&a, &b]);
            if let Ok(mut ex) = extract(Format::Epub, &bytes, &Limits::default()) {
                check(&mut ex);
            }
        }

        #[test]
        fn pdf_survives_arbitrary_bytes(
            head in prop::sample::select(vec!["%PDF-1.4\n", "%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n", ""]),
            bytes in prop::collection::vec(any::<u8>(), 0..1024),
        ) {
            let mut input = head.as_bytes().to_vec();
            input.extend(bytes);
            if let Ok(mut ex) = extract(Format::Pdf, &input, &Limits::default()) {
                check(&mut ex);
            }
        }
    }
}
