//! Containment for third-party parsers.
//!
//! A hostile PDF can make a parser loop forever, recurse until the stack
//! overflows (an abort no `catch_unwind` can stop) or inflate a few
//! megabytes into gigabytes. So binary formats are parsed in a child process
//! of the same binary (`research-board __extract FORMAT`, file bytes on
//! stdin, the [`Extracted`] as JSON on stdout) under a wall-clock timeout, a
//! CPU-time limit and an address-space limit — what Tika's forked parser and
//! browsers' content processes do. A child that dies, hangs or runs out of
//! memory costs one file, skipped with the reason; nothing else is lost.
//!
//! The worker is the running program's own executable, whatever it is
//! named (its `main` says so), or the path in `RESEARCH_BOARD_WORKER`;
//! elsewhere (library tests) parsing runs in process, still behind
//! `catch_unwind`.

use super::{Extracted, Format, Limits};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The hidden subcommand the worker runs as.
pub const SUBCOMMAND: &str = "__extract";

/// Formats parsed in the worker: the binary ones, read by third-party
/// parsers.
pub fn isolated(format: Format) -> bool {
    matches!(format, Format::Pdf | Format::Docx | Format::Epub)
}

/// Set by the program's `main` ([`serve_from_this_binary`]): this binary
/// runs the worker, whatever its file is named.
static THIS_BINARY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Called by the program's `main`: parse isolated formats in a worker run
/// from this binary (a library user, a test binary, has none unless
/// `RESEARCH_BOARD_WORKER` names one). Not tied to the file's name: a
/// renamed or wrapped install is as protected as `research-board`.
pub fn serve_from_this_binary() {
    THIS_BINARY.store(true, std::sync::atomic::Ordering::SeqCst);
}

fn worker_exe() -> Option<&'static PathBuf> {
    static EXE: OnceLock<Option<PathBuf>> = OnceLock::new();
    EXE.get_or_init(|| {
        if let Some(p) = std::env::var_os("RESEARCH_BOARD_WORKER") {
            return Some(PathBuf::from(p));
        }
        THIS_BINARY
            .load(std::sync::atomic::Ordering::SeqCst)
            .then(|| std::env::current_exe().ok())
            .flatten()
    })
    .as_ref()
}

/// A format's name on the worker's command line: its serde name ("pdf").
fn format_name(f: Format) -> String {
    serde_json::to_value(f)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn parse_format(s: &str) -> Option<Format> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
}

/// Files larger than this are parsed in the worker whatever their format:
/// a 2 MB HTML file of nested elements or a 30 MB line without spaces takes
/// a parser minutes and gigabytes, and only the worker's limits stop it.
const ISOLATED_FROM_BYTES: usize = 256 << 10;

/// Extract `bytes` in the worker when one is available and the format is
/// isolated or the file large; in process otherwise. `page`: where the
/// bytes were read, when known (an HTML page's linked style sheets are
/// beside it; the worker is told too).
pub fn extract(
    format: Format,
    bytes: &[u8],
    limits: &Limits,
    page: Option<&std::path::Path>,
) -> Result<Extracted, String> {
    let page = page.filter(|_| format == Format::Html);
    match worker_exe() {
        Some(exe) if isolated(format) || bytes.len() > ISOLATED_FROM_BYTES => {
            run_worker(exe, format, bytes, limits, page)
        }
        _ => super::extract_at(format, bytes, limits, page),
    }
}

#[derive(serde::Serialize, serde::Deserialize)]
enum Reply {
    Ok(Extracted),
    Err(String),
}

fn run_worker(
    exe: &PathBuf,
    format: Format,
    bytes: &[u8],
    limits: &Limits,
    page: Option<&std::path::Path>,
) -> Result<Extracted, String> {
    let mut cmd = Command::new(exe);
    cmd.arg(SUBCOMMAND)
        .arg(format_name(format))
        .arg(limits.max_text_bytes.to_string());
    // The worker reads its arguments as text: a path that is not is left
    // out (the page reads without its sheets).
    if let Some(p) = page.filter(|p| p.to_str().is_some()) {
        cmd.arg(p);
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let memory = limits.worker_memory_bytes;
        let cpu = limits.worker_timeout.as_secs().saturating_add(5);
        // SAFETY: only async-signal-safe calls (setrlimit) between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                let set = |res, v: u64| {
                    let l = libc::rlimit {
                        rlim_cur: v as libc::rlim_t,
                        rlim_max: v as libc::rlim_t,
                    };
                    libc::setrlimit(res, &l);
                };
                set(libc::RLIMIT_AS, memory);
                set(libc::RLIMIT_CPU, cpu);
                set(libc::RLIMIT_CORE, 0);
                Ok(())
            });
        }
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start the parser worker {} ({e})", exe.display()))?;
    let mut stdin = child.stdin.take().expect("piped");
    let input = bytes.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("piped");
    let cap = limits
        .max_text_bytes
        .saturating_mul(4)
        .saturating_add(1 << 20);
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = (&mut stdout).take(cap as u64 + 1).read_to_end(&mut out);
        out
    });
    let deadline = Instant::now() + limits.worker_timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if Instant::now() >= deadline => break None,
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("the parser worker failed ({e})")),
        }
    };
    let Some(status) = status else {
        let _ = child.kill();
        let _ = child.wait();
        let _ = writer.join();
        let _ = reader.join();
        return Err(format!(
            "the parser took longer than {} s on this file (stopped)",
            limits.worker_timeout.as_secs()
        ));
    };
    let _ = writer.join();
    let out = reader.join().unwrap_or_default();
    let what = match format {
        Format::Pdf => "PDF",
        Format::Docx => "DOCX",
        Format::Epub => "EPUB",
        _ => "file",
    };
    if !status.success() {
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            if status.signal() == Some(libc::SIGXCPU) {
                return Err(format!(
                    "the parser took longer than {} s on this file (stopped)",
                    limits.worker_timeout.as_secs()
                ));
            }
        }
        return Err(format!(
            "malformed {what}: the parser crashed on this file (it may need more than {} MB \
             of memory, or nest too deeply)",
            limits.worker_memory_bytes >> 20
        ));
    }
    match serde_json::from_slice::<Reply>(&out) {
        Ok(Reply::Ok(ex)) => Ok(ex),
        Ok(Reply::Err(reason)) => Err(reason),
        Err(_) if out.len() > cap => Err("too much text extracted".into()),
        Err(_) => Err(format!(
            "malformed {what}: the parser worker gave no result"
        )),
    }
}

/// The worker's side: `__extract FORMAT MAX_TEXT_BYTES [PATH]`, bytes on
/// stdin (`PATH`: where an HTML page was read, [`extract`]).
/// Returns the process exit code.
pub fn worker_main(args: &[String]) -> i32 {
    let (Some(format), Some(max_text)) = (
        args.first().and_then(|f| parse_format(f)),
        args.get(1).and_then(|n| n.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: research-board {SUBCOMMAND} FORMAT MAX_TEXT_BYTES [PATH]");
        return 2;
    };
    let page = args.get(2).map(std::path::PathBuf::from);
    let mut bytes = Vec::new();
    if std::io::stdin().read_to_end(&mut bytes).is_err() {
        return 1;
    }
    let limits = Limits {
        max_text_bytes: max_text,
        ..Limits::default()
    };
    // A large stack: deep but finite structures parse; infinite recursion
    // still ends (in an abort the parent reports).
    let handle = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || super::extract_at(format, &bytes, &limits, page.as_deref()));
    let reply = match handle.map(|h| h.join()) {
        Ok(Ok(r)) => match r {
            Ok(ex) => Reply::Ok(ex),
            Err(e) => Reply::Err(e),
        },
        _ => return 1,
    };
    let mut out = std::io::stdout().lock();
    if serde_json::to_writer(&mut out, &reply).is_err() || out.flush().is_err() {
        return 1;
    }
    0
}
