//! Entering and leaving the board's terminal mode, and the panic hook that
//! restores the terminal before anything is printed.

use crossterm::cursor::Show;
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::cell::Cell;
use std::io::Stdout;
use std::sync::Once;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

thread_local! {
    static WORKER: Cell<bool> = const { Cell::new(false) };
}

/// Mark the current thread as a worker: a panic here is caught by the
/// board and shown in the status line, so the terminal stays as it is.
pub fn mark_worker_thread() {
    WORKER.with(|w| w.set(true));
}

/// Install (once) a panic hook that restores the terminal and then runs
/// the previous hook. Panics on worker threads are left to the board.
pub fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if WORKER.with(Cell::get) {
                // Reported through the worker's JoinError; printing here
                // would scribble over the board.
                return;
            }
            leave();
            previous(info);
        }));
    });
}

/// Raw mode, alternate screen, mouse capture, bracketed paste.
pub fn enter() -> anyhow::Result<Term> {
    enable_raw_mode().map_err(|e| anyhow::anyhow!("cannot use this terminal: {e}"))?;
    let mut out = std::io::stdout();
    if let Err(e) = execute!(
        out,
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    ) {
        leave();
        anyhow::bail!("cannot use this terminal: {e}");
    }
    match Terminal::new(CrosstermBackend::new(out)) {
        Ok(t) => Ok(t),
        Err(e) => {
            leave();
            Err(e.into())
        }
    }
}

/// Undo [`enter`]; safe to call more than once and from the panic hook.
pub fn leave() {
    let _ = disable_raw_mode();
    let _ = execute!(
        std::io::stdout(),
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        Show
    );
}

/// Run `argv` in this terminal (an editor): the board steps aside (normal
/// screen, cooked mode) until it exits, then comes back and redraws.
pub fn run_in_terminal(
    term: &mut Term,
    argv: &[String],
) -> anyhow::Result<std::process::ExitStatus> {
    leave();
    let status = std::process::Command::new(&argv[0])
        .args(&argv[1..])
        .status();
    enable_raw_mode().map_err(|e| anyhow::anyhow!("cannot use this terminal: {e}"))?;
    execute!(
        std::io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    )?;
    // The new screen is blank: make the next frame draw everything. (Not
    // `Terminal::clear`, which asks the terminal where its cursor is and
    // waits when the terminal does not answer.)
    term.draw(|f| f.render_widget(ratatui::widgets::Clear, f.area()))?;
    status.map_err(|e| anyhow::anyhow!("cannot run {}: {e}", argv[0]))
}

/// The message of a panic payload.
pub fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".into()
    }
}
