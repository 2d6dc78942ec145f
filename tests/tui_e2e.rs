//! The real board in a pseudo-terminal: index `sample-sources/`, ask a
//! question, see the four panes fill, copy a quote through OSC 52 (no
//! clipboard here), quit cleanly. Waits poll the emulated screen for the
//! last thing a frame draws; nothing sleeps for correctness.

mod common;

use base64::Engine;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_research-board");
const QUESTION: &str = "Who was the architect of the Pharos of Alexandria?";
const ROWS: u16 = 30;
const COLS: u16 = 100;

fn timeout() -> Duration {
    Duration::from_secs(if cfg!(debug_assertions) { 120 } else { 60 })
}

fn sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-sources")
}

/// The environment both runs share: nothing touches the real home.
fn env(tmp: &Path) -> Vec<(&'static str, String)> {
    let p = |s: &str| tmp.join(s).to_string_lossy().into_owned();
    vec![
        ("HOME", p("home")),
        ("XDG_CONFIG_HOME", p("config")),
        ("XDG_DATA_HOME", p("data")),
        ("XDG_CACHE_HOME", p("cache")),
        ("RESEARCH_BOARD_LOG_DIR", p("logs")),
        ("RESEARCH_BOARD_CLIPBOARD", "osc52".into()),
        // `o` opens a text source in $EDITOR: a script that notes its
        // arguments (made by the test that presses `o`).
        ("EDITOR", p("editor.sh")),
        ("VISUAL", String::new()),
        ("TERM", "xterm-256color".into()),
    ]
}

struct Board {
    rx: mpsc::Receiver<Vec<u8>>,
    raw: Vec<u8>,
    parser: vt100::Parser,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
}

impl Board {
    fn pump(&mut self, wait: Duration) {
        if let Ok(bytes) = self.rx.recv_timeout(wait) {
            self.parser.process(&bytes);
            self.raw.extend_from_slice(&bytes);
        }
        while let Ok(bytes) = self.rx.try_recv() {
            self.parser.process(&bytes);
            self.raw.extend_from_slice(&bytes);
        }
    }

    fn screen(&self) -> String {
        self.parser.screen().contents()
    }

    /// Poll until `pred` holds on the screen; panic with the screen if not.
    fn wait_for(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout();
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {what}; the screen:\n{s}");
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                self.pump(Duration::from_millis(50));
                panic!(
                    "the board exited ({status:?}) while waiting for {what}; the screen:\n{}",
                    self.screen()
                );
            }
            self.pump(Duration::from_millis(100));
        }
    }

    /// Wait for the board to exit (after `q`).
    fn exit_status(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + timeout();
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            assert!(Instant::now() < deadline, "the board did not quit");
            self.pump(Duration::from_millis(50));
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
    }

    /// Rows `top..bottom`, columns `left..right` of the screen.
    fn region(&self, top: u16, bottom: u16, left: u16, right: u16) -> String {
        let screen = self.parser.screen();
        (top..bottom)
            .map(|r| screen.contents_between(r, left, r, right))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn start(tmp: &Path, index_dir: &Path) -> Board {
    start_on(tmp, &sources(), index_dir)
}

fn start_on(tmp: &Path, sources: &Path, index_dir: &Path) -> Board {
    start_with(tmp, sources, index_dir, &[])
}

/// The board on `sources` with extra command-line arguments.
fn start_with(tmp: &Path, sources: &Path, index_dir: &Path, args: &[&str]) -> Board {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("a pseudo-terminal");
    let mut cmd = CommandBuilder::new(BIN);
    cmd.arg(sources);
    cmd.arg("--index-dir");
    cmd.arg(index_dir);
    for a in args {
        cmd.arg(a);
    }
    cmd.cwd(tmp);
    cmd.env_remove("NO_COLOR");
    for (k, v) in env(tmp) {
        cmd.env(k, v);
    }
    let child = pair.slave.spawn_command(cmd).expect("start the board");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let writer = pair.master.take_writer().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _master = pair.master; // keep the pty open while reading
        let mut buf = [0u8; 8192];
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    Board {
        rx,
        raw: Vec::new(),
        parser: vt100::Parser::new(ROWS, COLS, 0),
        writer,
        child,
    }
}

/// The OSC 52 payloads in `raw`, decoded.
fn osc52_payloads(raw: &[u8]) -> Vec<String> {
    let start = b"\x1b]52;c;";
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = raw[i..]
        .windows(start.len())
        .position(|w| w == start)
        .map(|p| p + i)
    {
        let body = p + start.len();
        let Some(end) = raw[body..]
            .iter()
            .position(|b| *b == 0x07)
            .map(|e| e + body)
        else {
            break;
        };
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&raw[body..end])
            .expect("valid base64 in OSC 52");
        out.push(String::from_utf8(bytes).expect("UTF-8 payload"));
        i = end;
    }
    out
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn ask_see_the_panes_copy_a_quote_and_quit() {
    let tmp = tempfile::tempdir().unwrap();
    let index_dir = tmp.path().join("index");
    let mut board = start(tmp.path(), &index_dir);

    // Indexing runs in the background, then the status line says ready.
    board.wait_for("the index to be ready", |s| s.contains("Index ready:"));

    // The input has focus at start: type the question and run it.
    board.send(QUESTION.as_bytes());
    board.wait_for("the typed question", |s| {
        s.contains("architect of the Pharos")
    });
    board.send(b"\r");
    let screen = board.wait_for("the answer", |s| {
        // The status line is the last row a frame draws.
        s.contains("Snippets ✓") && s.contains(" validated, ") && s.contains("confidence")
    });

    eprintln!("{screen}");
    // Four panes show the result. Layout: left 42% (Chunks, Snippets,
    // Gate), right 58% (Answer, Preview).
    let left = COLS * 42 / 100;
    let chunks = board.region(2, 11, 0, left);
    assert!(
        chunks.contains(" 1 ") && chunks.contains("The Pharos of Alexandria")
            || chunks.contains("The Tower of Hercules"),
        "chunk list:\n{chunks}\n\nscreen:\n{screen}"
    );
    let snippets_title = screen
        .lines()
        .find(|l| l.contains("Snippets ✓"))
        .expect("snippets title");
    assert!(!snippets_title.contains("Snippets ✓0"), "{snippets_title}");
    assert!(screen.contains("✓ [1]"), "a validated snippet:\n{screen}");
    assert!(screen.contains("Gate pass"), "gate decision:\n{screen}");
    assert!(screen.contains("PASS"), "gate decision:\n{screen}");
    let answer = board.region(1, 14, left, COLS);
    assert!(
        answer.contains("Sostratus"),
        "answer pane:\n{answer}\n\nscreen:\n{screen}"
    );

    // The Snippets pane has focus after a query; y copies snippet [1].
    let before = board.raw.len();
    board.send(b"y");
    board.wait_for("the copy message", |s| {
        s.contains("Sent to terminal clipboard (OSC 52)")
    });
    let payloads = osc52_payloads(&board.raw[before..]);
    assert_eq!(payloads.len(), 1, "one OSC 52 sequence");
    let copied = payloads[0].clone();

    // q quits, the terminal is restored, exit code 0.
    board.send(b"q");
    let status = board.exit_status();
    board.pump(Duration::from_millis(200));
    assert!(status.success(), "exit status {status:?}");
    let tail = String::from_utf8_lossy(&board.raw[board.raw.len().saturating_sub(200)..]);
    assert!(
        tail.contains("\x1b[?1049l"),
        "left the alternate screen: {tail:?}"
    );

    // The payload is snippet [1] of the same query, as `ask --json` reports
    // it: the source's words and the citation.
    let mut cmd = std::process::Command::new(BIN);
    cmd.args(["ask"])
        .arg(sources())
        .arg(QUESTION)
        .arg("--json")
        .arg("--index-dir")
        .arg(&index_dir)
        .env_remove("NO_COLOR");
    for (k, v) in env(tmp.path()) {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let o: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &o["snippets"][0];
    assert_eq!(s["status"], "validated");
    let quote = s["copy_text"].as_str().or(s["content"].as_str()).unwrap();
    let loc = s["location"].as_str().unwrap();
    let title = s["source_title"].as_str().unwrap();
    let expected = if loc.is_empty() {
        format!("\"{}\" ({title})", collapse(quote))
    } else {
        format!("\"{}\" ({title}, {loc})", collapse(quote))
    };
    assert_eq!(copied, expected);
}

/// The chunk count of the last "Index ready: N chunks" on the screen.
fn ready_chunks(screen: &str) -> Option<usize> {
    let i = screen.rfind("Index ready: ")?;
    let rest = &screen[i + "Index ready: ".len()..];
    rest.split_whitespace().next()?.parse().ok()
}

#[test]
fn the_board_notices_a_new_file_and_answers_from_it() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("sources");
    std::fs::create_dir(&src).unwrap();
    for name in ["pharos-of-alexandria.md", "fresnel-lens.md"] {
        std::fs::copy(sources().join(name), src.join(name)).unwrap();
    }
    let index_dir = tmp.path().join("index");
    let mut board = start_on(tmp.path(), &src, &index_dir);
    let screen = board.wait_for("the index to be ready", |s| ready_chunks(s).is_some());
    let before = ready_chunks(&screen).unwrap();

    // A file saved into the folder while the board is open.
    std::fs::write(
        src.join("tide-bell.md"),
        "# The Tide Bell\n\nThe tide bell at Dunmore Head was cast in 1867 by the \
         bell founder Sarah Whitcombe of Bristol, and it rang at every high water \
         until the great storm of 1903 tore it from its frame.\n",
    )
    .unwrap();
    board.wait_for("the update after the change", |s| {
        ready_chunks(s).is_some_and(|n| n > before)
    });

    board.send(b"Who cast the tide bell at Dunmore Head?");
    board.send(b"\r");
    let screen = board.wait_for("the answer from the new file", |s| {
        // The Snippets pane lists the quote (the status line may be
        // telling of a later update meanwhile).
        s.contains("Snippets ✓1") && s.contains("✓ [1] The tide bell") && s.contains("Whitcombe")
    });
    assert!(screen.contains("✓ [1]"), "a validated snippet:\n{screen}");
    board.send(b"q");
    board.exit_status();
}

/// Another process holds the index when the folder changes (an `index` or
/// `ask` in another terminal): the board says so and tries again until the
/// lock is free, then answers from the file.
#[test]
fn the_board_tries_again_when_another_process_holds_the_index() {
    use fs2::FileExt;
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("sources");
    std::fs::create_dir(&src).unwrap();
    std::fs::copy(
        sources().join("pharos-of-alexandria.md"),
        src.join("pharos-of-alexandria.md"),
    )
    .unwrap();
    let index_dir = tmp.path().join("index");
    let mut board = start_on(tmp.path(), &src, &index_dir);
    let screen = board.wait_for("the index to be ready", |s| ready_chunks(s).is_some());
    let before = ready_chunks(&screen).unwrap();

    let lock = std::fs::OpenOptions::new()
        .write(true)
        .open(index_dir.join("index.lock"))
        .unwrap();
    lock.lock_exclusive().unwrap();
    std::fs::write(
        src.join("tide-bell.md"),
        "# The Tide Bell\n\nThe tide bell at Dunmore Head was cast in 1867 by the \
         bell founder Sarah Whitcombe of Bristol.\n",
    )
    .unwrap();
    board.wait_for("the update to find the index held", |s| {
        s.contains("another research-board process")
    });
    drop(lock);
    board.wait_for("the update once the index is free", |s| {
        ready_chunks(s).is_some_and(|n| n > before)
    });
    board.send(b"Who cast the tide bell at Dunmore Head?\r");
    board.wait_for("the answer from the new file", |s| {
        s.contains("✓ [1] The tide bell") && s.contains("Whitcombe")
    });
    board.send(b"q");
    board.exit_status();
}

/// Keys as a new user presses them (issue 15): `q` in help closes help, not
/// the board; `Enter` in Chunks reads the chunk in Preview and types nothing;
/// `Ctrl-X` is not `x`; a flagged quote copies the source's whole words (the
/// model said "as much as a bard", the source "as much as a builder").
#[test]
fn modal_keys_and_a_flagged_copy_in_whole_words() {
    use common::{Mock, ok};
    let reply = serde_json::json!({
        "snippets": [
            {"content": "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.",
             "sourceId": "pharos-of-alexandria.md"},
            {"content": "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a bard.",
             "sourceId": "pharos-of-alexandria.md"}
        ],
        "summary": "The architect was Sostratus of Cnidus [1].",
        "noResults": false
    })
    .to_string();
    let mock = Mock::with(move |_| ok(&reply));
    let tmp = tempfile::tempdir().unwrap();
    let index_dir = tmp.path().join("index");
    let url = mock.base_url();
    let args = [
        "--engine",
        "llm",
        "--no-rerank",
        "--base-url",
        url.as_str(),
        "--model",
        "mock-model",
    ];
    let mut board = start_with(tmp.path(), &sources(), &index_dir, &args);
    board.wait_for("the index to be ready", |s| s.contains("Index ready:"));
    board.send(QUESTION.as_bytes());
    board.send(b"\r");
    board.wait_for("the answer", |s| s.contains("Snippets ✓1 ⚠1"));

    // q in help closes help; the board stays.
    board.send(b"?");
    board.wait_for("help", |s| s.contains("Help — keys and verdicts"));
    board.send(b"q");
    board.wait_for("help to close", |s| !s.contains("Help — keys and verdicts"));
    assert!(board.child.try_wait().unwrap().is_none(), "q in help quit");

    // Ctrl-X does nothing (x would show "validated only").
    board.send(b"\x18");
    board.send(b"?");
    board.wait_for("help again", |s| s.contains("Help — keys and verdicts"));
    board.send(b"\x1b");
    let s = board.wait_for("help closed", |s| !s.contains("Help — keys"));
    assert!(!s.contains("(validated only)"), "Ctrl-X acted as x:\n{s}");

    // 1 then Enter: Chunks, then its chunk in Preview; nothing typed.
    board.send(b"1");
    board.wait_for("Chunks' keys", |s| s.contains("Enter preview"));
    board.send(b"\rw");
    let s = board.wait_for("Preview's keys", |s| s.contains("g/G ends"));
    let ask_line = s.lines().next().unwrap_or_default().to_string();
    assert!(
        ask_line.trim_end().ends_with("Alexandria?"),
        "Enter sent focus to the Ask line: {ask_line:?}"
    );

    // The flagged quote [2]: y asks, y copies the source's whole words.
    board.send(b"2j");
    board.wait_for("quote 2 selected", |s| s.contains(" 2/2 "));
    board.send(b"y");
    board.wait_for("the confirmation", |s| s.contains("Copy a flagged quote?"));
    let before = board.raw.len();
    board.send(b"y");
    board.wait_for("the copy message", |s| s.contains("clipboard"));
    let payloads = osc52_payloads(&board.raw[before..]);
    assert_eq!(payloads.len(), 1, "one OSC 52 sequence");
    let copied = collapse(&payloads[0]);
    assert!(
        copied.contains("diplomat as much as a builder\""),
        "copied: {copied}"
    );
    assert!(
        !copied.contains("bard") && !copied.contains(" a b\""),
        "{copied}"
    );
    board.send(b"q");
    board.exit_status();
}

/// Issue 14: `o` opens the selected quote's source in `$EDITOR` at the
/// line the quote is on; the board steps aside and comes back.
#[test]
fn o_opens_the_source_at_the_quote_in_the_editor() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let args_file = tmp.path().join("editor-args");
    let script = tmp.path().join("editor.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho \"$@\" > '{}'\n", args_file.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let index_dir = tmp.path().join("index");
    let mut board = start(tmp.path(), &index_dir);
    board.wait_for("the index to be ready", |s| s.contains("Index ready:"));
    board.send(QUESTION.as_bytes());
    board.send(b"\r");
    board.wait_for("the answer", |s| {
        s.contains("Snippets ✓") && s.contains(" validated, ")
    });
    board.send(b"o");
    let s = board.wait_for("the board back after the editor", |s| s.contains("Opened "));
    assert!(s.contains("at line"), "{s}");
    let args = std::fs::read_to_string(&args_file).expect("the editor ran");
    let mut words = args.split_whitespace();
    let line: usize = words
        .next()
        .and_then(|w| w.strip_prefix('+'))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no +LINE in {args:?}"));
    let path = words.collect::<Vec<_>>().join(" ");
    assert!(path.starts_with(sources().to_str().unwrap()), "{path}");
    // The line holds the start of quote [1].
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.lines().nth(line - 1).unwrap_or_default();
    assert!(at.contains("Sostratus"), "line {line} of {path}: {at:?}");
    // The board answers keys again.
    board.send(b"?");
    board.wait_for("help", |s| s.contains("Help — keys and verdicts"));
    board.send(b"qq");
    board.exit_status();
}
