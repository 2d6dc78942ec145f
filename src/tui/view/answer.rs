//! The Answer pane: the answer (Markdown-light, citations, flagged claims),
//! or the refusal and why, or what to do before a question.

use super::panes::{inner, trim_scroll};
use super::wrap::{Seg, Wrapped};
use super::{SPINNER, pane_block, progress_label};
use crate::answer::{Confidence, citation_markers};
use crate::tui::app::{App, Focus, IndexState};
use crate::tui::model::Board;
use crate::tui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// One answer line as styled segments: Markdown-light (headings, **bold**,
/// *italics*), citation markers, and claims with an issue marked ⚑.
fn answer_line(
    app: &App,
    b: &Board,
    li: usize,
    text: &str,
    t: &Theme,
    selected: Option<(usize, usize)>,
) -> Vec<Seg> {
    let (text, base) = match text.trim_start().strip_prefix('#') {
        Some(rest) => (rest.trim_start_matches('#').trim_start(), t.heading()),
        None => (text, t.base()),
    };
    // Byte ranges of claims with issues, and where their flag goes.
    let mut issue_ranges: Vec<(usize, usize, &str)> = Vec::new();
    for (claim, words) in &b.issues {
        if claim.is_empty() {
            continue;
        }
        if let Some(p) = text.find(claim.as_str()) {
            issue_ranges.push((p, p + claim.len(), words));
        }
    }
    let markers = citation_markers(text);
    let mut segs: Vec<Seg> = Vec::new();
    let mut bold = false;
    let mut italic = false;
    let mut i = 0;
    let bytes = text.as_bytes();
    let mut buf = String::new();
    let mut buf_style = base;
    let style_at = |pos: usize, bold: bool, italic: bool| {
        let mut s = base;
        if issue_ranges.iter().any(|(a, e, _)| pos >= *a && pos < *e) {
            s = s.patch(t.claim_issue());
        }
        if bold {
            s = s.add_modifier(Modifier::BOLD);
        }
        if italic {
            s = s.add_modifier(Modifier::ITALIC);
        }
        s
    };
    let push = |segs: &mut Vec<Seg>, buf: &mut String, style: Style| {
        if !buf.is_empty() {
            segs.push(Seg::new(std::mem::take(buf), style));
        }
    };
    while i < text.len() {
        // Flags go right after the claim they mark.
        for (_, e, words) in issue_ranges.iter().filter(|(_, e, _)| *e == i) {
            let _ = e;
            push(&mut segs, &mut buf, buf_style);
            segs.push(Seg::new(
                format!(" ⚑ {words}"),
                t.claim_issue().add_modifier(Modifier::BOLD),
            ));
        }
        if let Some((r, _)) = markers.iter().find(|(r, _)| r.start == i) {
            push(&mut segs, &mut buf, buf_style);
            let nums: Vec<usize> = markers
                .iter()
                .filter(|(r2, _)| r2 == r)
                .map(|(_, n)| *n)
                .collect();
            let is_sel = selected.is_some_and(|(sl, sn)| sl == li && nums.contains(&sn));
            let mut st = t.citation();
            if is_sel {
                st = st.add_modifier(Modifier::REVERSED);
            }
            let seg = if is_sel {
                Seg::marked(&text[r.clone()], st)
            } else {
                Seg::new(&text[r.clone()], st)
            };
            segs.push(seg);
            i = r.end;
            continue;
        }
        if bytes[i] == b'*' {
            let double = bytes.get(i + 1) == Some(&b'*');
            let toggles_ok = {
                // Only a pair that closes later on the line toggles.
                let rest = &text[i + if double { 2 } else { 1 }..];
                let needle = if double { "**" } else { "*" };
                (double && bold) || (!double && italic) || rest.contains(needle)
            };
            if toggles_ok {
                push(&mut segs, &mut buf, buf_style);
                if double {
                    bold = !bold;
                    i += 2;
                } else {
                    italic = !italic;
                    i += 1;
                }
                buf_style = style_at(i, bold, italic);
                continue;
            }
        }
        let ch = text[i..].chars().next().expect("char boundary");
        let st = style_at(i, bold, italic);
        if st != buf_style {
            push(&mut segs, &mut buf, buf_style);
            buf_style = st;
        }
        buf.push(ch);
        i += ch.len_utf8();
    }
    push(&mut segs, &mut buf, buf_style);
    for (_, e, words) in issue_ranges.iter().filter(|(_, e, _)| *e >= text.len()) {
        let _ = (e, app);
        segs.push(Seg::new(
            format!(" ⚑ {words}"),
            t.claim_issue().add_modifier(Modifier::BOLD),
        ));
    }
    segs
}

/// The Answer pane's title and text, `width` columns wide (with the
/// running question on top while it runs).
fn answer_text(app: &App, width: usize) -> (Vec<Span<'static>>, Wrapped) {
    let t = app.theme.clone();
    let mut w = Wrapped::default();
    let mut title = vec![Span::raw(" Answer ")];
    match (&app.board, &app.index) {
        (None, IndexState::Indexing(p)) => {
            let (_, label) = progress_label(p);
            let then = match app.previous_index {
                Some(_) => {
                    "The sources changed since the last index; until the update is done, \
                     questions search the previous index."
                }
                None => "You can type your question now; it runs as soon as the index is ready.",
            };
            w.push_text(&format!("{label}\n\n{then}"), t.dim(), width);
        }
        (None, IndexState::Failed(e)) => {
            w.push_text(
                &format!(
                    "The sources could not be indexed:\n{}",
                    crate::tui::model::clean(e)
                ),
                t.dropped(),
                width,
            );
        }
        (None, _) => {
            w.push_text(
                "Ask a question about your sources: press / (or i), type, Enter.\n\n\
                 Every quote is checked against the source it cites: ✓ exact, ≈ same words \
                 up to spacing and punctuation. Flagged (~ ⋯ ⇄) and dropped (✗ ·) quotes are \
                 shown with the reason. y copies a quote with its citation; ? lists every key.",
                t.dim(),
                width,
            );
        }
        (Some(b), _) => {
            let a = &b.outcome.answer;
            let (conf, style) = match a.confidence {
                Confidence::High => ("high", Style::new().fg(t.confidence_high_fg)),
                Confidence::Medium => ("medium", Style::new().fg(t.confidence_medium_fg)),
                Confidence::Low => ("low", Style::new().fg(t.confidence_low_fg)),
                Confidence::None => ("none", t.dim()),
            };
            title.push(Span::raw("· confidence "));
            title.push(Span::styled(conf, style.add_modifier(Modifier::BOLD)));
            title.push(Span::raw(" "));
            if a.refused {
                let msg = crate::tui::model::clean(a.refusal_message.as_deref().unwrap_or(&a.text));
                w.push(&[Seg::new(msg, t.gate_refuse())], width);
                w.push(&[], width);
                w.push(
                    &[
                        Seg::new("Why: ", t.key()),
                        Seg::new(b.outcome.gate.reason.describe(), t.base()),
                    ],
                    width,
                );
                w.push(
                    &[Seg::new(
                        "Check the sources directly; the Chunks pane shows what was found.",
                        t.dim(),
                    )],
                    width,
                );
            } else {
                let sel = app.sel_citation.and_then(|i| b.citations.get(i)).copied();
                for (li, line) in b.answer.iter().enumerate() {
                    let segs = answer_line(app, b, li, &line.text, &t, sel);
                    w.push(&segs, width);
                }
                let n = b.issues.len() - b.unsupported;
                if b.unsupported > 0 {
                    w.push(&[], width);
                    let u = b.unsupported;
                    w.push(
                        &[Seg::new(
                            format!(
                                "⚑ {u} claim{} not supported by what {} cite{}",
                                if u == 1 { "" } else { "s" },
                                if u == 1 { "it" } else { "they" },
                                if u == 1 { "s" } else { "" }
                            ),
                            t.claim_issue(),
                        )],
                        width,
                    );
                }
                if n > 0 {
                    w.push(&[], width);
                    w.push(
                        &[Seg::new(
                            format!(
                                "⚑ {n} claim{} without a valid citation",
                                if n == 1 { "" } else { "s" }
                            ),
                            t.claim_issue(),
                        )],
                        width,
                    );
                }
            }
        }
    }
    if let Some((_, q)) = &app.running {
        let spin = SPINNER[app.spinner % SPINNER.len()];
        let mut lines = vec![Line::from(Span::styled(
            format!(
                "{spin} Searching: {}  (Esc cancels)",
                crate::tui::model::clean(q)
            ),
            t.key(),
        ))];
        lines.append(&mut w.lines);
        w.lines = lines;
        w.first_mark = w.first_mark.map(|m| m + 1);
    }
    (title, w)
}

pub fn answer(app: &App, f: &mut Frame, area: Rect) {
    let body = inner(area);
    let (title, w) = answer_text(app, body.width as usize);
    let block = pane_block(app, Focus::Answer, Line::from(title));
    f.render_widget(block, area);
    f.render_widget(Paragraph::new(w.lines).scroll((app.answer_scroll, 0)), body);
}

/// Scroll the Answer pane to the selected citation when it is focused, and
/// keep the scroll within its text.
pub fn layout(app: &mut App) {
    let body = inner(app.areas.answer);
    let (_, w) = answer_text(app, body.width as usize);
    if let Some(m) = w.first_mark
        && app.focus == Focus::Answer
    {
        let h = body.height as usize;
        let s = app.answer_scroll as usize;
        if m < s || m >= s + h {
            app.answer_scroll = m.saturating_sub(h / 2) as u16;
        }
    }
    trim_scroll(&mut app.answer_scroll, w.lines.len(), body.height);
}
