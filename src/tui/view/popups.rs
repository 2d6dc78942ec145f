//! Overlays: help, the dropped/flagged list, skipped files, copy confirmation.

use super::panes::status_style;
use super::wrap::{Seg, Wrapped};
use crate::tui::app::{App, IndexState, Popup};
use crate::tui::model::{clean, symbol, verdict_name};
use crate::validate::{Status, Verdict};
use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// Every key, for the help overlay: (keys, what they do).
pub const KEYS: &[(&str, &str)] = &[
    (
        "/",
        "type a new question (Enter runs it, Esc leaves the input)",
    ),
    ("i", "edit the question line as it is"),
    ("↑ ↓", "in the input: browse earlier questions"),
    ("Ctrl-U", "in the input: clear it"),
    ("Tab  Shift-Tab", "next / previous pane (also l h, → ←)"),
    (
        "1 2 3 4 5",
        "jump to Chunks, Snippets, Gate, Answer, Preview",
    ),
    (
        "Enter",
        "in a list or Answer: show the selection in Preview",
    ),
    ("j k  ↓ ↑", "move in a list; scroll a text pane"),
    ("g G  Home End", "first / last"),
    ("PgUp PgDn  Ctrl-U Ctrl-D", "page up / down"),
    ("Answer: j k", "step through citations [n]; selects quote n"),
    ("y", "copy the selected quote with its citation"),
    (
        "Y",
        "copy all validated quotes, one per line (and their references)",
    ),
    ("o", "open the quote's source at its line ($EDITOR) or page"),
    ("x", "hide / show flagged and dropped quotes"),
    ("n", "show / hide the numbers behind the gate's decision"),
    ("d", "list everything dropped or flagged, with the reason"),
    ("s", "list files the indexer skipped, with the reason"),
    ("Esc", "cancel a running query; close a popup"),
    ("mouse", "click selects a pane or row; the wheel scrolls"),
    ("?", "this help"),
    ("q  Ctrl-C", "quit"),
];

const VERDICTS: &[Verdict] = &[
    Verdict::Verbatim,
    Verdict::Normalized,
    Verdict::Fuzzy,
    Verdict::NonContiguous,
    Verdict::Misattributed,
    Verdict::NotFound,
    Verdict::TooShort,
];

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let [v] = Layout::vertical([Constraint::Length(h.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [r] = Layout::horizontal([Constraint::Length(w.min(area.width))])
        .flex(Flex::Center)
        .areas(v);
    r
}

/// Popup `p`'s title, largest size and text, for a screen of `area`.
fn popup_text(app: &App, p: Popup, area: Rect) -> (&'static str, u16, u16, Wrapped) {
    let t = app.theme.clone();
    let (title, pw, ph) = match p {
        Popup::Help => (" Help — keys and verdicts (Esc closes) ", 84, 40),
        Popup::Inspect => (" Dropped and flagged (Esc closes) ", 90, 30),
        Popup::Skipped => (" Skipped files (Esc closes) ", 80, 20),
        Popup::ConfirmCopy(_) => (" Copy a flagged quote? ", 70, 12),
    };
    let r = centered(area, pw, ph);
    let inner_w = r.width.saturating_sub(2) as usize;
    let mut w = Wrapped::default();
    match p {
        Popup::Help => {
            let kw = 26.min(inner_w / 2);
            for (k, d) in KEYS {
                let pad = kw.saturating_sub(ratatui::text::Span::raw(*k).width());
                w.push(
                    &[
                        Seg::new(format!("{k}{}", " ".repeat(pad)), t.key()),
                        Seg::new(*d, t.base()),
                    ],
                    inner_w,
                );
            }
            w.push(&[], inner_w);
            w.push(&[Seg::new("Verdicts", t.heading())], inner_w);
            for v in VERDICTS {
                let st = status_style(&t, v.status());
                let status = match v.status() {
                    Status::Validated => "validated",
                    Status::Flagged => "flagged",
                    Status::Dropped => "dropped",
                };
                w.push(
                    &[
                        Seg::new(format!("{} ", symbol(*v)), st),
                        Seg::new(format!("{} ({status}): ", verdict_name(*v)), st),
                        Seg::new(v.describe(), t.base()),
                    ],
                    inner_w,
                );
            }
            w.push(&[], inner_w);
            w.push(
                &[Seg::new(
                    "Only ✓ and ≈ quotes are the source's words; a flagged quote copies the \
                     source's own text after you confirm; a dropped one cannot be copied.",
                    t.dim(),
                )],
                inner_w,
            );
        }
        Popup::Inspect => match &app.board {
            None => w.push(&[Seg::new("Ask a question first.", t.dim())], inner_w),
            Some(b) => {
                let mut any = false;
                for s in b.snippets.iter().filter(|s| s.status != Status::Validated) {
                    any = true;
                    let st = status_style(&t, s.status);
                    w.push(
                        &[
                            Seg::new(format!("{} [{}] ", s.symbol(), s.n), st),
                            Seg::new(
                                format!(
                                    "{} ({}) ",
                                    verdict_name(s.verdict),
                                    if s.status == Status::Flagged {
                                        "flagged"
                                    } else {
                                        "dropped"
                                    }
                                ),
                                st,
                            ),
                            Seg::new(format!("{} › {}", s.title, s.location), t.heading()),
                        ],
                        inner_w,
                    );
                    w.push(
                        &[Seg::new(format!("   why: {}", s.note), t.base())],
                        inner_w,
                    );
                    w.push(
                        &[Seg::new(format!("   “{}”", s.first_line), t.dim())],
                        inner_w,
                    );
                }
                for (claim, words) in &b.issues {
                    any = true;
                    w.push(
                        &[
                            Seg::new(format!("⚑ claim ({words}): "), t.claim_issue()),
                            Seg::new(claim.clone(), t.base()),
                        ],
                        inner_w,
                    );
                }
                if let Some(bu) = &b.outcome.budget {
                    for id in &bu.dropped {
                        any = true;
                        w.push(
                            &[
                                Seg::new("budget dropped chunk: ", t.key()),
                                Seg::new(clean(id), t.base()),
                            ],
                            inner_w,
                        );
                    }
                }
                if !any {
                    w.push(
                        &[Seg::new(
                            "Nothing was dropped or flagged: every quote validated.",
                            t.validated(),
                        )],
                        inner_w,
                    );
                }
            }
        },
        Popup::Skipped => {
            let report = match &app.index {
                IndexState::Ready { report, .. } => report.as_ref(),
                _ => None,
            };
            match report {
                Some(r) if !r.skipped.is_empty() => {
                    for s in &r.skipped {
                        w.push(
                            &[
                                Seg::new(format!("{}: ", clean(&s.source_id)), t.heading()),
                                Seg::new(clean(&s.reason), t.base()),
                            ],
                            inner_w,
                        );
                    }
                }
                Some(_) => w.push(&[Seg::new("No file was skipped.", t.validated())], inner_w),
                None => w.push(
                    &[Seg::new("Indexing has not finished yet.", t.dim())],
                    inner_w,
                ),
            }
        }
        Popup::ConfirmCopy(i) => {
            if let Some(s) = app.board.as_ref().and_then(|b| b.snippets.get(i)) {
                let st = status_style(&t, s.status);
                w.push(
                    &[
                        Seg::new(format!("{} [{}] is flagged: ", s.symbol(), s.n), st),
                        Seg::new(verdict_name(s.verdict), st),
                    ],
                    inner_w,
                );
                w.push(&[Seg::new(s.note.clone(), t.base())], inner_w);
                w.push(&[], inner_w);
                w.push(
                    &[Seg::new(
                        "Copy the source's own words for this passage (not the extracted text)?",
                        t.base(),
                    )],
                    inner_w,
                );
                w.push(&[], inner_w);
                w.push(
                    &[
                        Seg::new("y", t.key()),
                        Seg::new(" copy   ", t.base()),
                        Seg::new("n", t.key()),
                        Seg::new(" cancel", t.base()),
                    ],
                    inner_w,
                );
            }
        }
    }
    (title, pw, ph, w)
}

/// Where a popup of at most `pw` x `ph` with `lines` lines of text goes:
/// centred, as tall as its text.
fn popup_rect(area: Rect, pw: u16, ph: u16, lines: usize) -> Rect {
    // The status line (the keys that act here) stays visible below.
    let h = (lines as u16 + 2)
        .min(ph)
        .min(area.height.saturating_sub(2));
    centered(area, pw, h.max(3))
}

/// Keep the open popup's scroll within its text.
pub fn layout(app: &mut App, area: Rect) {
    let Some(p) = app.popup else { return };
    let (_, pw, ph, w) = popup_text(app, p, area);
    let r = popup_rect(area, pw, ph, w.lines.len());
    let max = w
        .lines
        .len()
        .saturating_sub(r.height.saturating_sub(2) as usize) as u16;
    app.popup_scroll = app.popup_scroll.min(max);
}

pub fn draw(app: &App, f: &mut Frame, area: Rect) {
    let Some(p) = app.popup else { return };
    let t = &app.theme;
    let (title, pw, ph, w) = popup_text(app, p, area);
    let r = popup_rect(area, pw, ph, w.lines.len());
    f.render_widget(Clear, r);
    let mut block = Block::new()
        .borders(Borders::ALL)
        .border_style(t.border(true))
        .title(Line::from(title).style(t.title(true).add_modifier(Modifier::BOLD)))
        .style(t.base());
    if w.lines.len() > r.height.saturating_sub(2) as usize {
        block = block.title_bottom(super::position(
            app.popup_scroll as usize + 1,
            w.lines.len(),
        ));
    }
    f.render_widget(
        Paragraph::new(w.lines)
            .block(block)
            .scroll((app.popup_scroll, 0)),
        r,
    );
}
