//! Drawing, in two steps. [`layout`] splits the screen into the panes'
//! areas (kept in the [`App`] for mouse hit-testing) and fits each pane's
//! list window and scroll offset to what it will show; [`draw`] then draws
//! each pane from the `App` into its area, changing nothing. The last step
//! scrubs the buffer so no control character can reach the terminal even if
//! some text escaped sanitising.

mod answer;
mod panes;
mod popups;
mod preview;
pub mod wrap;

use super::app::{App, Areas, Focus, IndexState, StatusKind};
use crate::index::Progress;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, LineGauge, Paragraph};
use ratatui::{Frame, Terminal};

/// One frame: lay the board out for the terminal's size, draw it, and mark
/// the app clean.
pub fn render<B: ratatui::backend::Backend>(
    term: &mut Terminal<B>,
    app: &mut App,
) -> Result<(), B::Error> {
    term.draw(|f| {
        layout(app, f.area());
        draw(app, f);
    })?;
    app.dirty = false;
    Ok(())
}

/// Lay the board out in `area` (the whole screen): the panes' areas, then
/// each pane's window or scroll fitted to its area and text.
pub fn layout(app: &mut App, area: Rect) {
    let indexing = matches!(app.index, IndexState::Indexing(_));
    let [input_a, progress_a, body, status_a] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(u16::from(indexing)),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(42), Constraint::Percentage(58)]).areas(body);
    let [chunks_a, snippets_a, gate_a] = Layout::vertical([
        Constraint::Percentage(37),
        Constraint::Percentage(33),
        Constraint::Min(0),
    ])
    .areas(left);
    let [answer_a, preview_a] =
        Layout::vertical([Constraint::Percentage(45), Constraint::Min(0)]).areas(right);
    app.areas = Areas {
        input: input_a,
        progress: progress_a,
        chunks: chunks_a,
        snippets: snippets_a,
        gate: gate_a,
        answer: answer_a,
        preview: preview_a,
        status: status_a,
    };
    panes::layout_chunks(app);
    panes::layout_snippets(app);
    panes::layout_gate(app);
    answer::layout(app);
    preview::layout(app);
    popups::layout(app, area);
}

/// Draw the whole board as [`layout`] laid it out.
pub fn draw(app: &App, f: &mut Frame) {
    let area = f.area();
    let theme = app.theme.clone();
    f.render_widget(Block::new().style(theme.base()), area);
    let a = app.areas;
    draw_input(app, f, a.input);
    if matches!(app.index, IndexState::Indexing(_)) {
        draw_progress(app, f, a.progress);
    }
    panes::chunks(app, f, a.chunks);
    panes::snippets(app, f, a.snippets);
    panes::gate(app, f, a.gate);
    answer::answer(app, f, a.answer);
    preview::preview(app, f, a.preview);
    draw_status(app, f, a.status);
    popups::draw(app, f, area);
    scrub(f.buffer_mut());
}

/// Replace any cell holding a control character (ESC, BEL, C1, …).
pub fn scrub(buf: &mut Buffer) {
    for cell in buf.content.iter_mut() {
        if cell.symbol().chars().any(|c| c.is_control()) {
            cell.set_symbol("\u{FFFD}");
        }
    }
}

/// A pane's frame: its number key before the title; the focused pane has a
/// thick border and its title shown reversed, so focus reads without colour.
pub fn pane_block<'a>(app: &App, focus: Focus, title: Line<'a>) -> Block<'a> {
    let focused = app.focus == focus && app.popup.is_none();
    let mut spans = Vec::with_capacity(title.spans.len() + 1);
    if let Some(n) = focus.number() {
        spans.push(Span::styled(format!(" {n}"), app.theme.key()));
    }
    spans.extend(title.spans);
    let mut title_style = app.theme.title(focused);
    if focused {
        title_style = title_style.add_modifier(Modifier::REVERSED);
    }
    Block::new()
        .borders(Borders::ALL)
        .border_type(if focused {
            BorderType::Thick
        } else {
            BorderType::Plain
        })
        .border_style(app.theme.border(focused))
        .title(Line::from(spans).style(title_style))
}

/// "3/12" at the bottom right of a frame: where the selection or the view
/// is in a list or text longer than it shows.
pub fn position<'a>(at: usize, of: usize) -> Line<'a> {
    Line::from(format!(" {at}/{of} ")).right_aligned()
}

/// The keys that act in the focused pane or open popup, for the status line.
pub fn key_hints(app: &App) -> &'static str {
    use super::app::Popup;
    match app.popup {
        Some(Popup::ConfirmCopy(_)) => "y copy · n cancel",
        Some(Popup::Help) => "j/k scroll · q/Esc close",
        Some(_) => "j/k scroll · q/Esc close · ? help",
        None => match app.focus {
            Focus::Input => "Enter ask · ↑↓ history · Esc panes · ? help",
            Focus::Chunks => "j/k move · Enter preview · o open · 1-5 panes · ? help",
            Focus::Snippets => "j/k move · y copy · Y all · o open · x flagged · d why · ? help",
            Focus::Gate => "n numbers · j/k scroll · ? help",
            Focus::Answer => "j/k citations · y copy · Enter preview · ? help",
            Focus::Preview => "j/k scroll · g/G ends · / ask · ? help",
        },
    }
}

const SPINNER: &[&str] = &["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

fn draw_input(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let focused = app.focus == Focus::Input && app.popup.is_none();
    let prompt = " Ask ❯";
    // Focused: the prompt reversed and the text bright; otherwise both dim.
    let (prompt_style, text_style) = if focused {
        (
            t.border(true)
                .fg(t.input_prompt_fg)
                .add_modifier(Modifier::REVERSED),
            Style::new().fg(t.input_fg),
        )
    } else {
        (t.dim(), t.dim())
    };
    let mut spans = vec![Span::styled(prompt, prompt_style), Span::raw(" ")];
    let text = super::model::clean(&app.input.text);
    if text.is_empty() && !focused {
        spans.push(Span::styled(
            "press / to type a question, ? for help",
            t.dim(),
        ));
    } else {
        spans.push(Span::styled(text.clone(), text_style));
    }
    // Keep the cursor visible on long input: show the tail.
    let lead = prompt.chars().count() as u16 + 1;
    let avail = area.width.saturating_sub(lead + 1) as usize;
    let before: String = text.chars().take(app.input.cursor).collect();
    let before_w = Span::raw(&*before).width();
    let shift = before_w.saturating_sub(avail);
    if shift > 0 {
        let tail: String = text
            .chars()
            .skip_while({
                let mut w = 0;
                move |c| {
                    w += wrap::char_width(*c);
                    w <= shift
                }
            })
            .collect();
        spans[2] = Span::styled(tail, text_style);
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
    if focused {
        let x = area.x + lead + (before_w - shift) as u16;
        f.set_cursor_position((x.min(area.right().saturating_sub(1)), area.y));
    }
}

pub fn progress_label(p: &Option<Progress>) -> (f64, String) {
    match p {
        None => (0.0, "Indexing: looking at the sources…".into()),
        Some(Progress::Reading {
            done,
            total,
            chunks,
        }) => (
            ratio(*done, *total) * 0.6,
            format!("Indexing: reading files {done}/{total} · {chunks} new chunks"),
        ),
        Some(Progress::Embedding { done, total }) => (
            0.6 + ratio(*done, *total) * 0.3,
            format!("Indexing: embedding chunks {done}/{total}"),
        ),
        Some(Progress::BuildingGraph { vectors }) => (
            0.92,
            format!("Indexing: building the vector graph ({vectors} vectors)"),
        ),
        Some(Progress::Committing) => (0.98, "Indexing: saving".into()),
        Some(Progress::Rebuilding { damaged }) => (
            0.0,
            format!(
                "The index was damaged ({}): rebuilding it",
                crate::text::sanitize_for_terminal(&damaged.display().to_string(), false)
            ),
        ),
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        (a as f64 / b as f64).clamp(0.0, 1.0)
    }
}

fn draw_progress(app: &App, f: &mut Frame, area: Rect) {
    let IndexState::Indexing(p) = &app.index else {
        return;
    };
    let (r, label) = progress_label(p);
    let t = &app.theme;
    f.render_widget(
        LineGauge::default()
            .ratio(r)
            .label(Span::styled(
                format!(" {label} "),
                Style::new().fg(t.progress_fg),
            ))
            .filled_style(Style::new().fg(t.progress_fg))
            .unfilled_style(t.dim()),
        area,
    );
}

fn draw_status(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let style = match app.status_kind {
        StatusKind::Info => t.status(),
        StatusKind::Ok => t.ok(),
        StatusKind::Error => t.error(),
    };
    let spin = if app.busy() {
        SPINNER[app.spinner % SPINNER.len()]
    } else {
        " "
    };
    let index = match &app.index {
        IndexState::Indexing(_) => match app.previous_index {
            Some(chunks) => format!("updating · searching {chunks} chunks"),
            None => "indexing".into(),
        },
        IndexState::Ready { chunks, .. } => format!("{chunks} chunks"),
        IndexState::Failed(_) => "no index".into(),
    };
    // The focused pane's keys, then the index size, as far as the message
    // leaves room.
    let hints = key_hints(app);
    let room = (area.width as usize).saturating_sub(Span::raw(app.status.as_str()).width() + 2);
    let short = format!("{spin} {index} · ? help ");
    let indexing = matches!(app.index, IndexState::Indexing(_));
    // While the index updates, saying so comes before the keys.
    let mut choices = vec![format!("{spin} {hints} │ {index} ")];
    if indexing {
        choices.push(short.clone());
    }
    choices.push(format!("{spin} {hints} "));
    let right = choices
        .into_iter()
        .find(|r| Span::raw(r.as_str()).width() <= room)
        .unwrap_or(short);
    let rw = Span::raw(&*right).width() as u16;
    let [l, r] = Layout::horizontal([Constraint::Min(0), Constraint::Length(rw)]).areas(area);
    f.render_widget(Block::new().style(t.status()), area);
    f.render_widget(
        Paragraph::new(Line::from(Span::styled(format!(" {}", app.status), style)))
            .style(t.status()),
        l,
    );
    f.render_widget(Paragraph::new(right).style(t.status()), r);
}
