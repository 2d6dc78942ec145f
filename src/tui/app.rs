//! The board's state and what input does to it. Keys and mouse events map to
//! an [`Action`]; applying one changes state and may queue an [`Effect`]
//! (run a query, copy text) that the event loop carries out. Nothing here
//! touches the terminal, so tests drive it directly. The key bindings are
//! in `app/keys.rs`, copying quotes in `app/copy.rs`; the panes' areas and
//! scroll offsets are fitted by `view::layout` before each frame.

mod copy;
mod indexing;
mod input;
mod keys;

use super::model::{Board, ExtraChunk};
use super::settings::{History, TuiConfig};
use super::theme::Theme;
use crate::index::{Progress, UpdateReport};
use crate::pipeline::QueryOutcome;
use crate::validate::Status;
use crossterm::event::{KeyEvent, MouseEvent};
use input::too_long;
pub use input::{Input, MAX_QUESTION};
pub use keys::Action;

use ratatui::layout::{Position, Rect};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Input,
    Chunks,
    Snippets,
    Gate,
    Answer,
    Preview,
}

impl Focus {
    /// Tab order; a pane's number key is its place here (1 = Chunks).
    pub const ORDER: [Focus; 6] = [
        Focus::Input,
        Focus::Chunks,
        Focus::Snippets,
        Focus::Gate,
        Focus::Answer,
        Focus::Preview,
    ];

    /// The pane's number key, shown in its title (none for the Ask line).
    pub fn number(self) -> Option<usize> {
        Self::ORDER
            .iter()
            .position(|f| *f == self)
            .filter(|i| *i > 0)
    }

    fn step(self, d: isize) -> Focus {
        let i = Self::ORDER.iter().position(|f| *f == self).unwrap_or(0) as isize;
        let n = Self::ORDER.len() as isize;
        Self::ORDER[(i + d).rem_euclid(n) as usize]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Popup {
    Help,
    /// Everything dropped or flagged, with the reason.
    Inspect,
    /// Files the indexer skipped, with the reason.
    Skipped,
    /// Copy a flagged snippet's source text? (snippet index)
    ConfirmCopy(usize),
}

#[derive(Debug, Clone)]
pub enum IndexState {
    Indexing(Option<Progress>),
    Ready {
        chunks: usize,
        report: Option<UpdateReport>,
    },
    Failed(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusKind {
    Info,
    Ok,
    Error,
}

/// Work for the event loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    RunQuery {
        generation: u64,
        query: String,
    },
    /// Abandon the running query's LLM calls.
    Cancel(u64),
    Copy(String),
    /// Open a source at a quote.
    Open(super::open::Target),
}

/// Where each part of the board goes, laid out before each frame
/// (`view::layout`): drawing and mouse hit-testing use them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Areas {
    pub input: Rect,
    pub progress: Rect,
    pub chunks: Rect,
    pub snippets: Rect,
    pub gate: Rect,
    pub answer: Rect,
    pub preview: Rect,
    pub status: Rect,
}

pub struct App {
    pub theme: Theme,
    pub settings: TuiConfig,
    pub focus: Focus,
    pub popup: Option<Popup>,
    pub input: Input,
    pub history: History,
    pub index: IndexState,
    /// A question typed while the index was still building.
    pub pending_query: Option<String>,
    /// Chunks of the previous index, open for questions while the update
    /// runs (the sources changed since it was built).
    pub previous_index: Option<usize>,
    pub generation: u64,
    /// The running query: generation and text.
    pub running: Option<(u64, String)>,
    pub board: Option<Board>,
    /// Row selected in the Chunks pane (candidate index).
    pub sel_chunk: usize,
    /// Selected snippet (index into the board's snippets).
    pub sel_snippet: Option<usize>,
    /// Position in the answer's citation list.
    pub sel_citation: Option<usize>,
    /// Hide flagged and dropped snippets from the Snippets pane.
    pub hide_flagged: bool,
    /// Ticks since the status line was set.
    pub status_age: u32,
    /// Ticks since the board started (wrapping).
    ticks: u32,
    /// The Gate pane shows the numbers behind the decision (`n`).
    pub show_numbers: bool,
    pub chunks_offset: usize,
    pub snippets_offset: usize,
    pub gate_scroll: u16,
    pub answer_scroll: u16,
    pub preview_scroll: u16,
    pub popup_scroll: u16,
    /// The list the Preview follows: Chunks (the selected chunk) or
    /// Snippets/Answer (the selected quote's chunk).
    pub preview_of: Focus,
    /// Scroll the preview to the highlight on the next draw.
    pub preview_follow: bool,
    pub status: String,
    pub status_kind: StatusKind,
    pub spinner: usize,
    pub areas: Areas,
    pub quit: bool,
    pub dirty: bool,
    pub effects: Vec<Effect>,
    pub sources_label: String,
}

impl App {
    pub fn new(theme: Theme, settings: TuiConfig, history: History) -> App {
        App {
            theme,
            settings,
            focus: Focus::Input,
            popup: None,
            input: Input::default(),
            history,
            index: IndexState::Indexing(None),
            pending_query: None,
            previous_index: None,
            generation: 0,
            running: None,
            board: None,
            sel_chunk: 0,
            sel_snippet: None,
            sel_citation: None,
            hide_flagged: false,
            status_age: 0,
            ticks: 0,
            show_numbers: false,
            chunks_offset: 0,
            snippets_offset: 0,
            gate_scroll: 0,
            answer_scroll: 0,
            preview_scroll: 0,
            popup_scroll: 0,
            preview_of: Focus::Snippets,
            preview_follow: false,
            status: "Type a question and press Enter. ? for help.".into(),
            status_kind: StatusKind::Info,
            spinner: 0,
            areas: Areas::default(),
            quit: false,
            dirty: true,
            effects: Vec::new(),
            sources_label: String::new(),
        }
    }

    /// Text pasted into the terminal (bracketed paste, one event): into
    /// the question line, cut at [`MAX_QUESTION`].
    pub fn paste(&mut self, text: &str) {
        if self.popup.is_some() {
            return;
        }
        self.focus = Focus::Input;
        if !self.input.paste(text) {
            self.set_status(StatusKind::Error, too_long());
        }
        self.history.reset_browse();
    }

    pub fn set_status(&mut self, kind: StatusKind, msg: impl Into<String>) {
        self.status = super::model::clean(&msg.into());
        self.status_kind = kind;
        self.status_age = 0;
        self.dirty = true;
    }

    pub fn busy(&self) -> bool {
        self.running.is_some() || matches!(self.index, IndexState::Indexing(_))
    }

    // ---- events from the workers -------------------------------------

    /// A query finished; ignored unless it is the one still wanted.
    pub fn on_query_done(
        &mut self,
        generation: u64,
        result: Result<Box<(QueryOutcome, Vec<ExtraChunk>)>, String>,
    ) {
        if self.running.as_ref().map(|r| r.0) != Some(generation) {
            return;
        }
        self.running = None;
        match result {
            Ok(done) => {
                let (outcome, extra) = *done;
                self.set_outcome(outcome, extra)
            }
            Err(e) => self.set_status(StatusKind::Error, format!("The query failed: {e}")),
        }
    }

    /// Show `outcome` in the panes.
    pub fn set_outcome(&mut self, outcome: QueryOutcome, extra: Vec<ExtraChunk>) {
        let board = Board::new(outcome, extra);
        let o = &board.outcome;
        let msg = if o.answer.refused {
            format!(
                "Refused: {} ({:.0} ms)",
                o.gate.reason.describe(),
                o.timings_ms.total
            )
        } else {
            format!(
                "{} validated, {} flagged, {} dropped · {:.0} ms",
                o.counts.validated, o.counts.flagged, o.counts.dropped, o.timings_ms.total
            )
        };
        let (kind, msg) = match o.works.as_ref().and_then(|w| w.error.as_deref()) {
            // The bibliography could not be used: say so, it stays.
            Some(e) => (StatusKind::Error, format!("{msg} · not cited: {e}")),
            None if o.answer.refused => (StatusKind::Info, msg),
            None => (StatusKind::Ok, msg),
        };
        self.sel_chunk = 0;
        self.chunks_offset = 0;
        self.snippets_offset = 0;
        self.gate_scroll = 0;
        self.answer_scroll = 0;
        self.preview_scroll = 0;
        self.sel_citation = None;
        self.sel_snippet = None;
        self.board = Some(board);
        if let Some(&first) = self.visible_snippets().first() {
            self.select_snippet(first);
        }
        self.set_status(kind, msg);
    }

    // ---- queries ------------------------------------------------------

    fn start_query(&mut self, q: String) {
        self.generation += 1;
        self.running = Some((self.generation, q.clone()));
        self.effects.push(Effect::RunQuery {
            generation: self.generation,
            query: q,
        });
        self.set_status(StatusKind::Info, "Searching… (Esc cancels)");
    }

    fn submit(&mut self) {
        let q = self.input.text.trim().to_string();
        if q.is_empty() {
            self.set_status(StatusKind::Info, "Type a question first.");
            return;
        }
        if let Some(err) = self.history.push(&q) {
            self.set_status(StatusKind::Error, err);
        }
        self.focus = Focus::Snippets;
        match &self.index {
            IndexState::Ready { .. } => self.start_query(q),
            IndexState::Indexing(_) if self.previous_index.is_some() => self.start_query(q),
            IndexState::Indexing(_) => {
                self.pending_query = Some(q);
                self.set_status(
                    StatusKind::Info,
                    "The index is still building; the question will run when it is ready.",
                );
            }
            IndexState::Failed(e) => {
                let e = e.clone();
                self.set_status(StatusKind::Error, format!("No index to search: {e}"));
            }
        }
    }

    fn cancel(&mut self) -> bool {
        if let Some((generation, q)) = self.running.take() {
            self.effects.push(Effect::Cancel(generation));
            self.set_status(StatusKind::Info, format!("Query cancelled: {q}"));
            return true;
        }
        if self.pending_query.take().is_some() {
            self.set_status(StatusKind::Info, "Query cancelled.");
            return true;
        }
        false
    }

    // ---- selection ----------------------------------------------------

    /// Snippet indexes the Snippets pane lists.
    pub fn visible_snippets(&self) -> Vec<usize> {
        let Some(b) = &self.board else {
            return Vec::new();
        };
        b.snippets
            .iter()
            .enumerate()
            .filter(|(_, s)| !self.hide_flagged || s.status == Status::Validated)
            .map(|(i, _)| i)
            .collect()
    }

    /// Select snippet `i`: its chunk becomes the selected chunk.
    pub fn select_snippet(&mut self, i: usize) {
        let Some(b) = &self.board else { return };
        let Some(s) = b.snippets.get(i) else { return };
        self.sel_snippet = Some(i);
        if let Some(c) = s.chunk()
            && b.chunks[c].candidate.is_some()
        {
            self.sel_chunk = c;
        }
        self.preview_scroll = 0;
        self.preview_follow = true;
        self.dirty = true;
    }

    /// The chunk the preview shows.
    pub fn preview_chunk(&self) -> Option<usize> {
        let b = self.board.as_ref()?;
        if self.preview_of != Focus::Chunks
            && let Some(s) = self.sel_snippet.and_then(|i| b.snippets.get(i))
        {
            return s.chunk();
        }
        (self.sel_chunk < b.candidate_count()).then_some(self.sel_chunk)
    }

    fn move_selection(&mut self, d: isize) {
        let Some(b) = &self.board else { return };
        match self.focus {
            Focus::Chunks => {
                let n = b.candidate_count();
                if n > 0 {
                    self.sel_chunk = step(self.sel_chunk, d, n);
                    self.preview_scroll = 0;
                    self.preview_follow = true;
                }
            }
            Focus::Snippets => {
                let vis = self.visible_snippets();
                if vis.is_empty() {
                    return;
                }
                let pos = self
                    .sel_snippet
                    .and_then(|s| vis.iter().position(|v| *v == s));
                let next = match pos {
                    Some(p) => step(p, d, vis.len()),
                    None => 0,
                };
                self.select_snippet(vis[next]);
            }
            Focus::Answer => {
                let n = b.citations.len();
                if n == 0 {
                    self.answer_scroll = scroll(self.answer_scroll, d);
                    return;
                }
                let next = match self.sel_citation {
                    Some(p) => step(p, d, n),
                    None => 0,
                };
                self.sel_citation = Some(next);
                let (_, num) = b.citations[next];
                if let Some(i) = b.snippets.iter().position(|s| s.n == num) {
                    self.select_snippet(i);
                }
            }
            Focus::Gate => self.gate_scroll = scroll(self.gate_scroll, d),
            Focus::Preview => self.preview_scroll = scroll(self.preview_scroll, d),
            Focus::Input => {}
        }
        self.dirty = true;
    }

    // ---- mouse ---------------------------------------------------------

    fn pane_at(&self, x: u16, y: u16) -> Option<(Focus, Rect)> {
        let p = Position::new(x, y);
        let a = self.areas;
        [
            (Focus::Input, a.input),
            (Focus::Chunks, a.chunks),
            (Focus::Snippets, a.snippets),
            (Focus::Gate, a.gate),
            (Focus::Answer, a.answer),
            (Focus::Preview, a.preview),
        ]
        .into_iter()
        .find(|(_, r)| r.contains(p))
    }

    fn click(&mut self, x: u16, y: u16) {
        if self.popup.is_some() {
            self.popup = None;
            return;
        }
        let Some((focus, r)) = self.pane_at(x, y) else {
            return;
        };
        self.focus = focus;
        // Rows inside the border.
        let row = y.saturating_sub(r.y + 1) as usize;
        if y <= r.y || y + 1 >= r.y + r.height {
            return;
        }
        match focus {
            Focus::Chunks => {
                let i = self.chunks_offset + row;
                if self.board.as_ref().is_some_and(|b| i < b.candidate_count()) {
                    self.sel_chunk = i;
                    self.preview_scroll = 0;
                }
            }
            Focus::Snippets => {
                let vis = self.visible_snippets();
                if let Some(&i) = vis.get(self.snippets_offset + row) {
                    self.select_snippet(i);
                }
            }
            _ => {}
        }
    }

    fn wheel(&mut self, x: u16, y: u16, d: isize) {
        let Some((focus, _)) = self.pane_at(x, y) else {
            return;
        };
        match focus {
            Focus::Gate => self.gate_scroll = scroll(self.gate_scroll, d),
            Focus::Answer => self.answer_scroll = scroll(self.answer_scroll, d),
            Focus::Preview => self.preview_scroll = scroll(self.preview_scroll, d),
            Focus::Chunks | Focus::Snippets => {
                let keep = self.focus;
                self.focus = focus;
                self.move_selection(d);
                self.focus = keep;
            }
            Focus::Input => {}
        }
    }

    // ---- applying actions ---------------------------------------------

    pub fn apply(&mut self, action: Action) {
        self.act(action);
        if matches!(self.focus, Focus::Chunks | Focus::Snippets | Focus::Answer) {
            self.preview_of = self.focus;
        }
    }

    fn act(&mut self, action: Action) {
        self.dirty = true;
        match action {
            Action::Quit => self.quit = true,
            Action::Resize => {}
            Action::Escape => {
                if self.popup.take().is_some() {
                    return;
                }
                if self.cancel() {
                    return;
                }
                if self.focus == Focus::Input {
                    self.history.reset_browse();
                    self.focus = Focus::Snippets;
                }
            }
            Action::FocusNext => self.focus = self.focus.step(1),
            Action::FocusPrev => self.focus = self.focus.step(-1),
            Action::FocusInput => self.focus = Focus::Input,
            Action::AskNew => {
                let asked = self.history.entries.last().map(String::as_str);
                if asked == Some(self.input.text.trim()) {
                    self.input.set("");
                }
                self.focus = Focus::Input;
            }
            Action::FocusPane(f) => self.focus = f,
            Action::Preview => self.focus = Focus::Preview,
            Action::OpenSource => self.open_source(),
            Action::Up => self.up_down(-1),
            Action::Down => self.up_down(1),
            Action::PageUp => self.up_down(-10),
            Action::PageDown => self.up_down(10),
            Action::Top => self.up_down(-10_000),
            Action::Bottom => self.up_down(10_000),
            Action::Submit => self.submit(),
            Action::Char(c) => {
                if !self.input.insert(c) {
                    self.set_status(StatusKind::Error, too_long());
                }
                self.history.reset_browse();
            }

            Action::Backspace => self.input.backspace(),
            Action::Delete => self.input.delete(),
            Action::CursorLeft => self.input.cursor = self.input.cursor.saturating_sub(1),
            Action::CursorRight => {
                self.input.cursor = (self.input.cursor + 1).min(self.input.text.chars().count())
            }
            Action::Home => self.input.cursor = 0,
            Action::End => self.input.cursor = self.input.text.chars().count(),
            Action::ClearInput => self.input.set(""),
            Action::HistoryPrev => {
                if let Some(q) = self.history.older(&self.input.text).map(str::to_string) {
                    self.input.set(&q);
                }
            }
            Action::HistoryNext => {
                if let Some(q) = self.history.newer().map(str::to_string) {
                    self.input.set(&q);
                }
            }
            Action::CopySelected => self.copy_selected(),
            Action::CopyAll => self.copy_all(),
            Action::ConfirmYes => {
                if let Some(Popup::ConfirmCopy(i)) = self.popup.take()
                    && let Some(t) = self.format_snippet(i)
                {
                    self.effects.push(Effect::Copy(t));
                }
            }
            Action::ConfirmNo => {
                self.popup = None;
                self.set_status(StatusKind::Info, "Not copied.");
            }
            Action::ToggleHelp => self.toggle(Popup::Help),
            Action::ToggleInspect => self.toggle(Popup::Inspect),
            Action::ToggleSkipped => self.toggle(Popup::Skipped),
            Action::ToggleHideFlagged => {
                self.hide_flagged = !self.hide_flagged;
                self.snippets_offset = 0;
                let vis = self.visible_snippets();
                if let Some(s) = self.sel_snippet
                    && !vis.contains(&s)
                {
                    self.sel_snippet = None;
                    if let Some(&f) = vis.first() {
                        self.select_snippet(f);
                    }
                }
                let msg = if self.hide_flagged {
                    "Showing validated quotes only (x shows all)."
                } else {
                    "Showing all quotes, flagged and dropped too (x hides them)."
                };
                self.set_status(StatusKind::Info, msg);
            }
            Action::ToggleNumbers => {
                self.show_numbers = !self.show_numbers;
                self.dirty = true;
            }
            Action::Click(x, y) => self.click(x, y),
            Action::ScrollUp(x, y) => self.wheel(x, y, -3),
            Action::ScrollDown(x, y) => self.wheel(x, y, 3),
        }
    }

    fn up_down(&mut self, d: isize) {
        if self.popup.is_some() {
            self.popup_scroll = scroll(self.popup_scroll, d);
        } else {
            self.move_selection(d);
        }
    }

    fn toggle(&mut self, p: Popup) {
        self.popup_scroll = 0;
        self.popup = if self.popup == Some(p) { None } else { Some(p) };
    }

    /// Apply a key press.
    pub fn on_key(&mut self, key: KeyEvent) {
        if let Some(a) = self.action_for_key(key) {
            self.apply(a);
        }
    }

    pub fn on_mouse(&mut self, m: MouseEvent) {
        if let Some(a) = self.action_for_mouse(m) {
            self.apply(a);
        }
    }

    pub fn tick(&mut self) {
        // A confirmation ("Copied …", "Index ready") fades after about six
        // seconds (ticks of 120 ms); information and errors stay.
        self.status_age = self.status_age.saturating_add(1);
        if self.status_kind == StatusKind::Ok && self.status_age == STATUS_TICKS {
            self.status.clear();
            self.dirty = true;
        }
        if self.busy() {
            self.spinner = self.spinner.wrapping_add(1);
            self.dirty = true;
        }
        // The watcher may miss a change (a folder deleted and made again):
        // the quotes on screen are checked against their files anyway.
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(RECHECK_TICKS) {
            self.recheck_answer();
        }
    }
}

/// Ticks (120 ms) between checks of the answer's files.
pub(crate) const RECHECK_TICKS: u32 = 16;

/// Ticks (120 ms) a confirmation stays in the status line.
const STATUS_TICKS: u32 = 50;

/// Move `i` by `d` within `0..n`, clamped.
fn step(i: usize, d: isize, n: usize) -> usize {
    (i as isize + d).clamp(0, n as isize - 1) as usize
}

fn scroll(s: u16, d: isize) -> u16 {
    (s as isize + d).clamp(0, u16::MAX as isize) as u16
}
