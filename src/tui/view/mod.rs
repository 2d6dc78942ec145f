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
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, LineGauge, Paragraph};
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

/// A pane's frame: border and title coloured by focus.
pub fn pane_block<'a>(app: &App, focus: Focus, title: Line<'a>) -> Block<'a> {
    let focused = app.focus == focus && app.popup.is_none();
    Block::new()
        .borders(Borders::ALL)
        .border_style(app.theme.border(focused))
        .title(title.style(app.theme.title(focused)))
}

const SPINNER: &[&str] = &["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

fn draw_input(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let focused = app.focus == Focus::Input && app.popup.is_none();
    let prompt = " Ask ❯ ";
    let mut spans = vec![Span::styled(
        prompt,
        t.border(focused).fg(t.input_prompt_fg),
    )];
    let text = super::model::clean(&app.input.text);
    if text.is_empty() && !focused {
        spans.push(Span::styled(
            "press / to type a question, ? for help",
            t.dim(),
        ));
    } else {
        spans.push(Span::styled(text.clone(), Style::new().fg(t.input_fg)));
    }
    // Keep the cursor visible on long input: show the tail.
    let avail = area.width.saturating_sub(prompt.chars().count() as u16 + 1) as usize;
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
        spans[1] = Span::styled(tail, Style::new().fg(t.input_fg));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
    if focused {
        let x = area.x + prompt.chars().count() as u16 + (before_w - shift) as u16;
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
    let right = match &app.index {
        IndexState::Indexing(_) => match app.previous_index {
            Some(chunks) => format!("{spin} updating · searching {chunks} chunks · ? help "),
            None => format!("{spin} indexing · ? help "),
        },
        IndexState::Ready { chunks, .. } => {
            format!("{spin} {chunks} chunks · ? help · q quit ")
        }
        IndexState::Failed(_) => "no index · ? help · q quit ".into(),
    };
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
