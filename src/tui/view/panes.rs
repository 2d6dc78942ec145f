//! The list panes (Chunks, Snippets), the Gate pane, and what the panes
//! share; the Answer and Preview panes have files of their own.

use super::pane_block;
use super::wrap::{Seg, Wrapped};
use crate::gate::Decision;
use crate::tui::app::{App, Focus};
use crate::tui::model::Board;
use crate::tui::theme::Theme;
use crate::validate::Status;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn status_style(t: &Theme, s: Status) -> Style {
    match s {
        Status::Validated => t.validated(),
        Status::Flagged => t.flagged(),
        Status::Dropped => t.dropped(),
    }
}

/// Keep `sel` inside a window of `height` rows starting at `offset`.
fn window(sel: usize, height: usize, offset: &mut usize) {
    if height == 0 {
        return;
    }
    if sel < *offset {
        *offset = sel;
    } else if sel >= *offset + height {
        *offset = sel + 1 - height;
    }
}

pub(super) fn inner(area: Rect) -> Rect {
    Rect {
        x: area.x + 1,
        y: area.y + 1,
        width: area.width.saturating_sub(2),
        height: area.height.saturating_sub(2),
    }
}

pub(super) fn trim_scroll(scroll: &mut u16, lines: usize, height: u16) {
    let max = lines.saturating_sub(height as usize) as u16;
    if *scroll > max {
        *scroll = max;
    }
}

pub fn chunks(app: &App, f: &mut Frame, area: Rect) {
    let n = app.board.as_ref().map_or(0, Board::candidate_count);
    let title = Line::from(format!(" Chunks ({n}) "));
    let mut block = pane_block(app, Focus::Chunks, title);
    if n > 0 {
        block = block.title_bottom(super::position(app.sel_chunk + 1, n));
    }
    let body = inner(area);
    f.render_widget(block, area);
    let Some(b) = &app.board else {
        return;
    };
    let t = &app.theme;
    let lines: Vec<Line> = b
        .outcome
        .candidates
        .iter()
        .enumerate()
        .skip(app.chunks_offset)
        .take(body.height as usize)
        .map(|(i, c)| {
            let v = &b.chunks[i];
            let mut style = if c.kept { t.base() } else { t.dim() };
            let sel = i == app.sel_chunk;
            if sel {
                style = style.patch(t.selected());
            }
            let mut spans = vec![
                Span::styled(format!("{:>2} ", c.rank), style.patch(t.dim())),
                Span::styled(format!("{:.3} ", c.fused), style),
            ];
            // Title, then location, cut with "…" where the pane ends.
            let used: usize = spans.iter().map(Span::width).sum();
            let room = (body.width as usize).saturating_sub(used);
            let title = fit(&v.title, room);
            let left = room.saturating_sub(Span::raw(title.as_str()).width());
            let cut = title.ends_with('…') && title != v.title;
            spans.push(Span::styled(title, style.add_modifier(Modifier::BOLD)));
            if !v.location.is_empty() && !cut && left > 4 {
                spans.push(Span::styled(
                    fit(&format!(" › {}", v.location), left),
                    style,
                ));
            }
            let w: usize = spans.iter().map(Span::width).sum();
            if sel && w < body.width as usize {
                spans.push(Span::styled(" ".repeat(body.width as usize - w), style));
            }
            Line::from(spans)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), body);
}

/// Keep the selected chunk inside the Chunks pane's window.
pub fn layout_chunks(app: &mut App) {
    if app.board.is_none() {
        return;
    }
    let body = inner(app.areas.chunks);
    window(app.sel_chunk, body.height as usize, &mut app.chunks_offset);
}

pub fn snippets(app: &App, f: &mut Frame, area: Rect) {
    let t = app.theme.clone();
    let title = match &app.board {
        Some(b) => {
            let c = &b.outcome.counts;
            let mut spans = vec![
                Span::raw(" Snippets "),
                Span::styled(format!("✓{}", c.validated), t.validated()),
                Span::raw(" "),
                Span::styled(format!("⚠{}", c.flagged), t.flagged()),
                Span::raw(" "),
                Span::styled(format!("✗{}", c.dropped), t.dropped()),
            ];
            if app.hide_flagged {
                spans.push(Span::styled(" (validated only)", t.dim()));
            }
            spans.push(Span::raw(" "));
            Line::from(spans)
        }
        None => Line::from(" Snippets "),
    };
    let mut block = pane_block(app, Focus::Snippets, title);
    let vis = app.visible_snippets();
    if let Some(p) = app
        .sel_snippet
        .and_then(|s| vis.iter().position(|v| *v == s))
    {
        block = block.title_bottom(super::position(p + 1, vis.len()));
    }
    let body = inner(area);
    f.render_widget(block, area);
    let Some(b) = &app.board else { return };
    if vis.is_empty() {
        let msg = if b.snippets.is_empty() {
            "No quotes."
        } else {
            "All quotes hidden (x shows them)."
        };
        f.render_widget(Paragraph::new(Span::styled(msg, t.dim())), body);
        return;
    }
    // Snippets located in the selected chunk get a marker.
    let in_chunk = if app.focus == Focus::Chunks {
        b.snippets_in(app.sel_chunk)
    } else {
        Vec::new()
    };
    let lines: Vec<Line> = vis
        .iter()
        .skip(app.snippets_offset)
        .take(body.height as usize)
        .map(|&i| {
            let s = &b.snippets[i];
            let sel = Some(i) == app.sel_snippet;
            let base = if sel { t.selected() } else { t.base() };
            let mark = if in_chunk.contains(&i) { "▸" } else { " " };
            let mut spans = vec![
                Span::styled(mark, base.patch(t.key())),
                Span::styled(s.symbol(), base.patch(status_style(&t, s.status))),
                Span::styled(format!(" [{}] ", s.n), base.patch(t.citation())),
            ];
            // The quote's own words first, cut with "…"; the source after
            // it, dimmed, when there is room.
            let used: usize = spans.iter().map(Span::width).sum();
            let room = (body.width as usize).saturating_sub(used);
            let quote = fit(&s.first_line, room);
            let quote_w = Span::raw(quote.as_str()).width();
            spans.push(Span::styled(quote, base));
            let tail = format!(" — {}", s.title);
            if quote_w + Span::raw(tail.as_str()).width() <= room {
                spans.push(Span::styled(tail, base.patch(t.dim())));
            }
            let w: usize = spans.iter().map(Span::width).sum();
            if sel && w < body.width as usize {
                spans.push(Span::styled(" ".repeat(body.width as usize - w), base));
            }
            Line::from(spans)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), body);
}

/// Keep the selected snippet inside the Snippets pane's window.
pub fn layout_snippets(app: &mut App) {
    let vis = app.visible_snippets();
    if app.board.is_none() || vis.is_empty() {
        return;
    }
    let pos = app
        .sel_snippet
        .and_then(|s| vis.iter().position(|v| *v == s))
        .unwrap_or(0);
    let body = inner(app.areas.snippets);
    window(pos, body.height as usize, &mut app.snippets_offset);
}

/// `s` cut to at most `width` columns, ending in "…" when cut.
pub fn fit(s: &str, width: usize) -> String {
    let total: usize = s.chars().map(super::wrap::char_width).sum();
    if total <= width {
        return s.to_string();
    }
    let mut out = String::new();
    let mut w = 0;
    for c in s.chars() {
        let cw = super::wrap::char_width(c);
        if w + cw + 1 > width {
            break;
        }
        out.push(c);
        w += cw;
    }
    if width > 0 {
        out.push('…');
    }
    out
}

fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e6 {
        format!("{x:.0}")
    } else if x >= 1e8 {
        "∞".into()
    } else {
        format!("{x:.3}")
    }
}

/// The Gate pane's title and text, `width` columns wide.
fn gate_text(app: &App, width: usize) -> (Line<'static>, Wrapped) {
    let t = app.theme.clone();
    let mut w = Wrapped::default();
    let title = match &app.board {
        Some(b) => {
            let g = &b.outcome.gate;
            let (label, style) = match g.decision {
                Decision::Pass => (" PASS ", t.gate_pass()),
                Decision::Refuse => (" REFUSE ", t.gate_refuse()),
            };
            let tier = match g.tier {
                crate::gate::Tier::Retrieval => "retrieval tier",
                crate::gate::Tier::Reranked => "reranked tier",
            };
            w.push(
                &[
                    Seg::new(label, style),
                    Seg::new(format!(" {tier}"), t.dim()),
                ],
                width,
            );
            w.push(
                &[Seg::new(
                    crate::tui::model::clean(&b.outcome.gate_in_words()),
                    t.base(),
                )],
                width,
            );
            if !app.show_numbers {
                w.push(&[Seg::new("n shows the numbers", t.dim())], width);
            }
            // The decisive numbers first, then the rest (with `n`).
            let n = if app.show_numbers {
                g.numbers.clone()
            } else {
                Default::default()
            };
            let n = &n;
            let mut segs = Vec::new();
            if let Some(top) = n.get("top_score") {
                let min = n.get("min_top_score").copied().unwrap_or(0.0);
                let ok = *top >= min;
                segs.push(Seg::new(
                    format!(
                        "top score {} {} min {}",
                        fmt_num(*top),
                        if ok { "≥" } else { "<" },
                        fmt_num(min)
                    ),
                    if ok { t.gate_pass() } else { t.dropped() },
                ));
            }
            if let Some(r) = n.get("top_ratio") {
                let min = n.get("clear_winner_ratio").copied().unwrap_or(1.0);
                segs.push(Seg::new(
                    format!(" · ratio {} (need {})", fmt_num(*r), fmt_num(min)),
                    t.base(),
                ));
            }
            if !segs.is_empty() {
                w.push(&segs, width);
            }
            let rest: Vec<String> = n
                .iter()
                .filter(|(k, _)| {
                    !matches!(
                        k.as_str(),
                        "top_score" | "min_top_score" | "top_ratio" | "clear_winner_ratio"
                    )
                })
                .map(|(k, v)| format!("{k} {}", fmt_num(*v)))
                .collect();
            match b.outcome.budget.as_ref().filter(|_| app.show_numbers) {
                Some(bu) => w.push(
                    &[Seg::new(
                        format!(
                            "budget: {} kept, {} dropped · {}/{} tokens",
                            bu.kept.len(),
                            bu.dropped.len(),
                            bu.context_tokens,
                            bu.limit
                        ),
                        t.base(),
                    )],
                    width,
                ),
                None if app.show_numbers => {
                    w.push(&[Seg::new("budget: not reached", t.dim())], width)
                }
                None => {}
            }
            if !rest.is_empty() {
                w.push(&[Seg::new(rest.join(" · "), t.dim())], width);
            }
            for (what, e) in [
                ("reranker", &b.outcome.rerank_error),
                ("quotes by the built-in extractor", &b.outcome.extract_error),
            ] {
                if let Some(e) = e {
                    w.push(
                        &[Seg::new(
                            format!("{what}: {}", crate::tui::model::clean(e)),
                            t.flagged(),
                        )],
                        width,
                    );
                }
            }
            let style = match g.decision {
                Decision::Pass => t.gate_pass(),
                Decision::Refuse => t.dropped(),
            };
            Line::from(vec![
                Span::raw(" Gate "),
                Span::styled(
                    match g.decision {
                        Decision::Pass => "pass",
                        Decision::Refuse => "refuse",
                    },
                    style,
                ),
                Span::raw(" "),
            ])
        }
        None => Line::from(" Gate "),
    };
    (title, w)
}

pub fn gate(app: &App, f: &mut Frame, area: Rect) {
    let body = inner(area);
    let (title, w) = gate_text(app, body.width as usize);
    let block = pane_block(app, Focus::Gate, title);
    f.render_widget(block, area);
    f.render_widget(Paragraph::new(w.lines).scroll((app.gate_scroll, 0)), body);
}

/// Keep the Gate pane's scroll within its text.
pub fn layout_gate(app: &mut App) {
    let body = inner(app.areas.gate);
    let (_, w) = gate_text(app, body.width as usize);
    trim_scroll(&mut app.gate_scroll, w.lines.len(), body.height);
}
