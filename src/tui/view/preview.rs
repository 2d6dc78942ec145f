//! The Preview pane: the selected quote's verdict and why, its chunk's
//! source and scores, and the chunk text with the quote highlighted.

use super::pane_block;
use super::panes::{inner, status_style, trim_scroll};
use super::wrap::{Seg, Wrapped};
use crate::tui::app::{App, Focus};
use crate::tui::model::{Board, SnippetView, verdict_name};
use crate::tui::theme::Theme;
use crate::validate::{Status, Verdict};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

fn scores_line(b: &Board, c: usize, t: &Theme) -> Vec<Seg> {
    let Some(ci) = b.chunks[c].candidate else {
        return vec![Seg::new("not among the retrieved chunks", t.dim())];
    };
    let c = &b.outcome.candidates[ci];
    let opt = |x: Option<f32>, r: Option<usize>, d: usize| match (x, r) {
        (Some(x), Some(r)) => format!("{x:.d$} (#{r})"),
        (Some(x), None) => format!("{x:.d$}"),
        _ => "–".into(),
    };
    vec![
        Seg::new(format!("#{} ", c.rank), t.key()),
        Seg::new(
            format!(
                "bm25 {} · vector {} · fused {:.4} · coverage {:.2} · evidence {:.2}",
                opt(c.bm25, c.bm25_rank, 2),
                opt(c.vector, c.vector_rank, 3),
                c.fused,
                c.coverage,
                c.evidence
            ),
            t.base(),
        ),
        Seg::new(
            c.rerank
                .map(|r| format!(" · rerank {r}/3"))
                .unwrap_or_default(),
            t.key(),
        ),
        Seg::new(
            if c.kept { " · kept" } else { " · not kept" },
            if c.kept { t.gate_pass() } else { t.dim() },
        ),
        Seg::new(
            if c.also_in.is_empty() {
                String::new()
            } else {
                // File names are the user's, and untrusted.
                let names = crate::text::sanitize_for_terminal(&c.also_in.join(", "), false);
                format!(" · the same text is also in {names}")
            },
            t.dim(),
        ),
    ]
}

/// Per-char styles of chunk `c`'s text with the snippet's spans marked.
fn chunk_styles(b: &Board, c: usize, shown: &[&SnippetView], t: &Theme) -> Vec<(Style, bool)> {
    let text = &b.chunks[c].text;
    let n = text.chars().count();
    let mut styles = vec![(t.base(), false); n];
    for s in shown {
        let mut pieces: Vec<_> = s.spans.iter().filter(|sp| sp.chunk == c).collect();
        pieces.sort_by_key(|sp| sp.start);
        if s.verdict == Verdict::NonContiguous {
            for w in pieces.windows(2) {
                for st in styles
                    .iter_mut()
                    .take(w[1].start.min(n))
                    .skip(w[0].end.min(n))
                {
                    *st = (t.gap(), st.1);
                }
            }
        }
        let hl = if s.status == Status::Validated {
            t.highlight()
        } else {
            t.highlight().patch(t.flagged())
        };
        for (pi, sp) in pieces.iter().enumerate() {
            let (a, e) = (sp.start.min(n), sp.end.min(n));
            for (k, cell) in styles.iter_mut().enumerate().take(e).skip(a) {
                let mut st = hl;
                if pi == 0
                    && let Some(d) = &s.diff
                    && d.a_differs.get(k - sp.start).copied().unwrap_or(false)
                {
                    st = t.diff();
                }
                *cell = (st, true);
            }
        }
    }
    styles
}

fn push_styled_text(w: &mut Wrapped, text: &str, styles: &[(Style, bool)], width: usize) {
    let mut k = 0;
    for line in text.split('\n') {
        let mut segs: Vec<Seg> = Vec::new();
        for ch in line.chars() {
            let (st, mark) = styles.get(k).copied().unwrap_or_default();
            match segs.last_mut() {
                Some(last) if last.style == st && last.mark == mark => last.text.push(ch),
                _ => segs.push(Seg {
                    text: ch.to_string(),
                    style: st,
                    mark,
                }),
            }
            k += 1;
        }
        k += 1; // the '\n'
        w.push(&segs, width);
    }
}

/// The Preview pane as it will be drawn: the header lines (verdict, source,
/// scores) that stay put, and the chunk text below that scrolls.
struct PreviewText {
    title: Line<'static>,
    head: Vec<Line<'static>>,
    lines: Vec<Line<'static>>,
    /// The first highlighted line of `lines`.
    mark: Option<usize>,
    head_area: Rect,
    text_area: Rect,
}

fn preview_text(app: &App, area: Rect) -> PreviewText {
    let t = app.theme.clone();
    let body = inner(area);
    let width = body.width as usize;
    let mut w = Wrapped::default();
    let mut title = Line::from(" Preview ");
    // Lines before `split` (verdict, source, scores) stay put; the chunk
    // text below scrolls.
    let mut split: Option<usize> = None;
    let chunk = app.preview_chunk();
    if let Some(b) = &app.board {
        let snippet_mode = app.preview_of != Focus::Chunks;
        let sel = app
            .sel_snippet
            .and_then(|i| b.snippets.get(i))
            .filter(|_| snippet_mode);
        if let Some(s) = sel {
            title = Line::from(vec![
                Span::raw(" Preview "),
                Span::styled(s.symbol(), status_style(&t, s.status)),
                Span::raw(format!(" [{}] {} ", s.n, verdict_name(s.verdict))),
            ]);
            w.push(
                &[
                    Seg::new(format!("{} ", s.symbol()), status_style(&t, s.status)),
                    Seg::new(s.meaning(), t.base()),
                ],
                width,
            );
            if s.status != Status::Validated && !s.note.is_empty() {
                w.push(
                    &[Seg::new(
                        format!("why: {}", s.note),
                        status_style(&t, s.status),
                    )],
                    width,
                );
            }
            if s.verdict == Verdict::Misattributed {
                let real = s.found_source_id.clone().unwrap_or_else(|| "?".into());
                w.push(
                    &[
                        Seg::new("cited: ", t.key()),
                        Seg::new(format!("{} · ", s.source_id), t.dropped()),
                        Seg::new("really in: ", t.key()),
                        Seg::new(real, t.validated()),
                    ],
                    width,
                );
            }
        }
        match chunk {
            Some(c) => {
                let cv = &b.chunks[c];
                let mut head = vec![Seg::new(cv.title.clone(), t.heading())];
                if !cv.location.is_empty() {
                    head.push(Seg::new(format!(" › {}", cv.location), t.base()));
                }
                w.push(&head, width);
                w.push(&scores_line(b, c, &t), width);
                let shown: Vec<&SnippetView> = match sel {
                    Some(s) => vec![s],
                    None => b
                        .snippets_in(c)
                        .into_iter()
                        .map(|i| &b.snippets[i])
                        .collect(),
                };
                if sel.is_none() {
                    let mut segs = vec![Seg::new("quotes here: ", t.key())];
                    if shown.is_empty() {
                        segs.push(Seg::new("none", t.dim()));
                    }
                    for s in &shown {
                        segs.push(Seg::new(s.symbol(), status_style(&t, s.status)));
                        segs.push(Seg::new(format!("[{}] ", s.n), t.citation()));
                    }
                    w.push(&segs, width);
                }
                w.push(&[Seg::new("─".repeat(width), t.dim())], width);
                split = Some(w.lines.len());
                let styles = chunk_styles(b, c, &shown, &t);
                push_styled_text(&mut w, &cv.text, &styles, width);
                if let Some(s) = sel
                    && let Some(d) = &s.diff
                {
                    w.push(&[], width);
                    w.push(
                        &[Seg::new(
                            "the quote as extracted (differences marked):",
                            t.key(),
                        )],
                        width,
                    );
                    let styles: Vec<(Style, bool)> = d
                        .b_differs
                        .iter()
                        .map(|&x| (if x { t.diff() } else { t.flagged() }, false))
                        .collect();
                    push_styled_text(&mut w, &s.content, &styles, width);
                }
            }
            None => {
                if let Some(s) = sel {
                    w.push(&[Seg::new("─".repeat(width), t.dim())], width);
                    w.push(
                        &[Seg::new(
                            "the quote as extracted (not found in the sources):",
                            t.key(),
                        )],
                        width,
                    );
                    w.push_text(&s.content, status_style(&t, s.status), width);
                } else {
                    w.push(&[Seg::new("Select a chunk or a quote.", t.dim())], width);
                }
            }
        }
    } else {
        w.push(
            &[Seg::new(
                "The selected chunk's text shows here, with the quote highlighted.",
                t.dim(),
            )],
            width,
        );
    }
    let (head, lines, mark) = match split {
        Some(k) => {
            let rest = w.lines.split_off(k.min(w.lines.len()));
            (w.lines, rest, w.first_mark.and_then(|m| m.checked_sub(k)))
        }
        None => (Vec::new(), w.lines, w.first_mark),
    };
    let head_h = (head.len() as u16).min(body.height / 2);
    let head_area = Rect {
        height: head_h,
        ..body
    };
    let text_area = Rect {
        y: body.y + head_h,
        height: body.height - head_h,
        ..body
    };
    PreviewText {
        title,
        head,
        lines,
        mark,
        head_area,
        text_area,
    }
}

pub fn preview(app: &App, f: &mut Frame, area: Rect) {
    let PreviewText {
        title,
        head,
        lines,
        head_area,
        text_area,
        ..
    } = preview_text(app, area);
    let mut block = pane_block(app, Focus::Preview, title);
    if lines.len() > text_area.height as usize {
        block = block.title_bottom(super::position(
            app.preview_scroll as usize + 1,
            lines.len(),
        ));
    }
    f.render_widget(block, area);
    let head_h = head_area.height;
    if head_h > 0 {
        // Keep the separator when the header is cut short.
        let mut head = head;
        if head.len() > head_h as usize {
            let sep = head.pop();
            head.truncate(head_h as usize - 1);
            head.extend(sep);
        }
        f.render_widget(Paragraph::new(head), head_area);
    }
    f.render_widget(
        Paragraph::new(lines).scroll((app.preview_scroll, 0)),
        text_area,
    );
}

/// Scroll the preview to the highlight once after a new selection, and
/// keep the scroll within the chunk text.
pub fn layout(app: &mut App) {
    let p = preview_text(app, app.areas.preview);
    if app.preview_follow {
        app.preview_follow = false;
        if let Some(m) = p.mark {
            let h = p.text_area.height as usize;
            if m + 1 >= h {
                app.preview_scroll = m.saturating_sub(1) as u16;
            }
        }
    }
    trim_scroll(&mut app.preview_scroll, p.lines.len(), p.text_area.height);
}
