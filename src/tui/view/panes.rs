//! The five linked panes: Chunks, Snippets, Gate, Answer, Preview.

use super::wrap::{Seg, Wrapped};
use super::{SPINNER, pane_block, progress_label};
use crate::answer::{Confidence, citation_markers};
use crate::gate::Decision;
use crate::tui::app::{App, Focus, IndexState};
use crate::tui::model::{Board, SnippetView, symbol, verdict_name};
use crate::tui::theme::Theme;
use crate::validate::{Status, Verdict};
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

fn inner(area: Rect) -> Rect {
    Rect {
        x: area.x + 1,
        y: area.y + 1,
        width: area.width.saturating_sub(2),
        height: area.height.saturating_sub(2),
    }
}

fn trim_scroll(scroll: &mut u16, lines: usize, height: u16) {
    let max = lines.saturating_sub(height as usize) as u16;
    if *scroll > max {
        *scroll = max;
    }
}

pub fn chunks(app: &mut App, f: &mut Frame, area: Rect) {
    let n = app.board.as_ref().map_or(0, Board::candidate_count);
    let title = Line::from(format!(" Chunks ({n}) "));
    let block = pane_block(app, Focus::Chunks, title);
    let body = inner(area);
    f.render_widget(block, area);
    let Some(b) = &app.board else {
        return;
    };
    let t = &app.theme;
    window(app.sel_chunk, body.height as usize, &mut app.chunks_offset);
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

pub fn snippets(app: &mut App, f: &mut Frame, area: Rect) {
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
    let block = pane_block(app, Focus::Snippets, title);
    let body = inner(area);
    f.render_widget(block, area);
    let vis = app.visible_snippets();
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
    let pos = app
        .sel_snippet
        .and_then(|s| vis.iter().position(|v| *v == s))
        .unwrap_or(0);
    window(pos, body.height as usize, &mut app.snippets_offset);
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
                Span::styled(symbol(s.verdict), base.patch(status_style(&t, s.status))),
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

pub fn gate(app: &mut App, f: &mut Frame, area: Rect) {
    let t = app.theme.clone();
    let body = inner(area);
    let width = body.width as usize;
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
            let reason = serde_json::to_value(g.reason)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            w.push(
                &[
                    Seg::new(format!("{reason}: "), t.key()),
                    Seg::new(crate::tui::model::clean(&g.message), t.base()),
                ],
                width,
            );
            // The decisive numbers first, then the rest.
            let n = &g.numbers;
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
            match &b.outcome.budget {
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
                None => w.push(&[Seg::new("budget: not reached", t.dim())], width),
            }
            w.push(&[Seg::new(rest.join(" · "), t.dim())], width);
            if let Some(e) = &b.outcome.rerank_error {
                w.push(
                    &[Seg::new(
                        format!("reranker: {}", crate::tui::model::clean(e)),
                        t.flagged(),
                    )],
                    width,
                );
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
    let block = pane_block(app, Focus::Gate, title);
    f.render_widget(block, area);
    trim_scroll(&mut app.gate_scroll, w.lines.len(), body.height);
    f.render_widget(Paragraph::new(w.lines).scroll((app.gate_scroll, 0)), body);
}

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

pub fn answer(app: &mut App, f: &mut Frame, area: Rect) {
    let t = app.theme.clone();
    let body = inner(area);
    let width = body.width as usize;
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
    let block = pane_block(app, Focus::Answer, Line::from(title));
    f.render_widget(block, area);
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
    f.render_widget(Paragraph::new(w.lines).scroll((app.answer_scroll, 0)), body);
}

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

pub fn preview(app: &mut App, f: &mut Frame, area: Rect) {
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
        let snippet_mode = app.focus != Focus::Chunks;
        let sel = app
            .sel_snippet
            .and_then(|i| b.snippets.get(i))
            .filter(|_| snippet_mode);
        if let Some(s) = sel {
            title = Line::from(vec![
                Span::raw(" Preview "),
                Span::styled(symbol(s.verdict), status_style(&t, s.status)),
                Span::raw(format!(" [{}] {} ", s.n, verdict_name(s.verdict))),
            ]);
            w.push(
                &[
                    Seg::new(
                        format!("{} ", symbol(s.verdict)),
                        status_style(&t, s.status),
                    ),
                    Seg::new(s.verdict.describe(), t.base()),
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
                        segs.push(Seg::new(symbol(s.verdict), status_style(&t, s.status)));
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
    let block = pane_block(app, Focus::Preview, title);
    f.render_widget(block, area);
    let (head, mut lines, mark) = match split {
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
    if app.preview_follow {
        app.preview_follow = false;
        if let Some(m) = mark {
            let h = text_area.height as usize;
            if m + 1 >= h {
                app.preview_scroll = m.saturating_sub(1) as u16;
            }
        }
    }
    trim_scroll(&mut app.preview_scroll, lines.len(), text_area.height);
    let lines = std::mem::take(&mut lines);
    f.render_widget(
        Paragraph::new(lines).scroll((app.preview_scroll, 0)),
        text_area,
    );
}
