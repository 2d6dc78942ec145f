//! What the board shows: `TestBackend` snapshots of the main screens (text
//! with insta; colours checked on chosen cells) and the behaviour behind
//! the keys.

use super::app::{Action, App, Effect, Focus, IndexState, Popup, StatusKind};
use super::fixture::{answer_outcome, refusal_outcome};
use super::settings::{History, TuiConfig};
use super::theme::Theme;
use crate::index::{Progress, UpdateReport};
use crate::ingest::Skipped;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Color;

fn app_with(theme: Theme) -> App {
    let mut app = App::new(theme, TuiConfig::default(), History::load(None, 100));
    let report = UpdateReport {
        skipped: vec![Skipped {
            source_id: "broken.pdf".into(),
            reason: "the PDF has no text layer".into(),
        }],
        ..Default::default()
    };
    app.on_index_ready(52, Some(report));
    app
}

fn app() -> App {
    app_with(Theme::default())
}

/// A board with default settings, no history file and nothing asked yet.
fn blank_app() -> App {
    App::new(
        Theme::default(),
        TuiConfig::default(),
        History::load(None, 10),
    )
}

fn render(app: &mut App, w: u16, h: u16) -> Buffer {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    super::view::render(&mut term, app).unwrap();
    term.backend().buffer().clone()
}

fn text(buf: &Buffer) -> String {
    let w = buf.area.width as usize;
    buf.content
        .chunks(w)
        .map(|row| {
            let mut line = String::new();
            let mut skip = 0;
            for c in row {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                line.push_str(c.symbol());
                skip = super::view::wrap::char_width(c.symbol().chars().next().unwrap_or(' '))
                    .saturating_sub(1);
            }
            line.trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Position of the first cell whose symbol is `sym` inside rows `rows`.
fn find(buf: &Buffer, sym: &str, rows: std::ops::Range<u16>) -> Option<(u16, u16)> {
    for y in rows {
        for x in 0..buf.area.width {
            if buf[(x, y)].symbol() == sym {
                return Some((x, y));
            }
        }
    }
    None
}

fn key(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn with_answer() -> App {
    let mut app = app();
    app.set_outcome(answer_outcome(6, 8), vec![]);
    app.focus = Focus::Snippets;
    app
}

fn no_controls(buf: &Buffer) {
    for c in &buf.content {
        assert!(
            !c.symbol()
                .chars()
                .any(|ch| ch.is_control() || ('\u{80}'..='\u{9f}').contains(&ch)),
            "control character in a cell: {:?}",
            c.symbol()
        );
    }
}

#[test]
fn empty_screen() {
    let mut app = app();
    let buf = render(&mut app, 80, 24);
    insta::assert_snapshot!("empty", text(&buf));
}

#[test]
fn indexing_shows_progress() {
    let mut app = blank_app();
    app.on_index_progress(Progress::Reading {
        done: 5,
        total: 13,
        chunks: 40,
    });
    let buf = render(&mut app, 80, 24);
    let t = text(&buf);
    assert!(t.contains("reading files 5/13 · 40 new chunks"), "{t}");
    insta::assert_snapshot!("indexing", t);
}

#[test]
fn answer_with_validated_flagged_and_dropped_quotes() {
    let mut app = with_answer();
    let buf = render(&mut app, 120, 36);
    let t = text(&buf);
    insta::assert_snapshot!("answer", t);
    assert!(t.contains("Snippets ✓3 ⚠3 ✗2"), "{t}");
    assert!(t.contains("Gate pass"));
    assert!(t.contains("⚑ no citation"));
    // Colours by meaning: the first snippet row's ✓ and the fuzzy quote's ~.
    let theme = Theme::default();
    let snip = app.areas.snippets;
    let rows = snip.y + 1..snip.bottom();
    let (x, y) = find(&buf, "✓", rows.clone()).expect("a ✓ in the Snippets pane");
    assert_eq!(buf[(x, y)].fg, theme.verdict_validated_fg);
    let (x, y) = find(&buf, "~", rows.clone()).expect("a ~ in the Snippets pane");
    assert_eq!(buf[(x, y)].fg, theme.verdict_flagged_fg);
    let (x, y) = find(&buf, "✗", rows).expect("a ✗ in the Snippets pane");
    assert_eq!(buf[(x, y)].fg, theme.verdict_dropped_fg);
    // The selected quote is highlighted in the preview.
    let prev = app.areas.preview;
    let hl = (prev.y..prev.bottom())
        .flat_map(|y| (prev.x..prev.right()).map(move |x| (x, y)))
        .filter(|p| buf[*p].bg == theme.highlight_bg)
        .count();
    assert!(hl > 20, "highlighted cells: {hl}");
    no_controls(&buf);
}

#[test]
fn answer_is_usable_at_80x24() {
    let mut app = with_answer();
    let buf = render(&mut app, 80, 24);
    let t = text(&buf);
    insta::assert_snapshot!("answer_80x24", t);
    for pane in [
        "Chunks (6)",
        "Snippets ✓3",
        "Gate pass",
        "Answer",
        "Preview",
    ] {
        assert!(t.contains(pane), "{pane} missing:\n{t}");
    }
}

#[test]
fn refusal_shows_the_fixed_text_and_why() {
    let mut app = app();
    app.set_outcome(refusal_outcome(), vec![]);
    let buf = render(&mut app, 100, 30);
    let t = text(&buf);
    insta::assert_snapshot!("refusal", t);
    assert!(t.contains("This is not addressed in the provided sources."));
    assert!(t.contains("Gate refuse"));
    assert!(t.contains("REFUSE"));
    // The gate in words; its numbers only on request (n).
    assert!(t.contains("Japan"), "{t}");
    assert!(!t.contains("unknown_names"), "{t}");
    assert!(!t.contains("top score 0.120"), "{t}");
    assert!(t.contains("n shows the numbers"), "{t}");
    let theme = Theme::default();
    let (x, y) = find(&buf, "R", app.areas.gate.y..app.areas.gate.bottom()).unwrap();
    assert_eq!(buf[(x, y)].bg, theme.gate_refuse_bg);
    app.apply(Action::ToggleNumbers);
    let t = text(&render(&mut app, 100, 30));
    assert!(t.contains("top score 0.120 < min 0.200"), "{t}");
    assert!(!t.contains("n shows the numbers"), "{t}");
}

#[test]
fn help_overlay_lists_keys_and_verdicts() {
    let mut app = with_answer();
    key(&mut app, KeyCode::Char('?'));
    assert_eq!(app.popup, Some(Popup::Help));
    let buf = render(&mut app, 100, 44);
    let t = text(&buf);
    insta::assert_snapshot!("help", t);
    for s in [
        "✓ verbatim",
        "≈ normalized",
        "~ fuzzy",
        "⋯ non-contiguous",
        "⇄ misattributed",
        "✗ not found",
        "· too short",
    ] {
        assert!(t.contains(s), "{s} missing");
    }
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.popup, None);
}

#[test]
fn dropped_and_flagged_list() {
    let mut app = with_answer();
    key(&mut app, KeyCode::Char('d'));
    let buf = render(&mut app, 100, 36);
    let t = text(&buf);
    insta::assert_snapshot!("inspect", t);
    assert!(t.contains("not found in the retrieved sources"));
    assert!(t.contains("each sentence is in the source, but not side by side"));
    assert!(t.contains("budget dropped chunk"));
}

#[test]
fn monochrome_theme_uses_no_colour() {
    let mut app = app_with(Theme::builtin("mono").unwrap());
    app.set_outcome(answer_outcome(6, 8), vec![]);
    app.focus = Focus::Snippets;
    let buf = render(&mut app, 100, 30);
    insta::assert_snapshot!("mono", text(&buf));
    for c in &buf.content {
        assert_eq!(
            (c.fg, c.bg),
            (Color::Reset, Color::Reset),
            "{:?}",
            c.symbol()
        );
    }
    // The selection is still visible: reverse video.
    assert!(
        buf.content
            .iter()
            .any(|c| c.modifier.contains(ratatui::style::Modifier::REVERSED))
    );
}

#[test]
fn hostile_source_text_cannot_reach_the_terminal() {
    let mut app = with_answer();
    app.apply(Action::FocusPane(Focus::Chunks));
    app.sel_chunk = 3; // notes/hostile.md
    let buf = render(&mut app, 120, 36);
    let t = text(&buf);
    assert!(t.contains("A hostile note."), "{t}");
    assert!(t.contains("Hostile"));
    no_controls(&buf);
    // Even a raw control written into the buffer is scrubbed.
    let mut b = buf.clone();
    b[(0, 0)].set_symbol("\u{1b}");
    super::view::scrub(&mut b);
    no_controls(&b);
}

#[test]
fn fuzzy_quote_marks_the_differing_characters() {
    let mut app = with_answer();
    app.select_snippet(2);
    let buf = render(&mut app, 120, 36);
    let t = text(&buf);
    assert!(
        t.contains("the quote as extracted (differences marked)"),
        "{t}"
    );
    let theme = Theme::default();
    let diff = buf.content.iter().filter(|c| c.bg == theme.diff_bg).count();
    // "records" vs "recorded", "talents" vs "talent": a few chars each side.
    assert!((3..20).contains(&diff), "diff cells: {diff}");
}

#[test]
fn non_contiguous_pieces_are_highlighted_with_the_gap_dimmed() {
    let mut app = with_answer();
    app.select_snippet(3);
    let buf = render(&mut app, 120, 36);
    let theme = Theme::default();
    let gap = buf
        .content
        .iter()
        .filter(|c| c.fg == theme.gap_fg && c.symbol() != " ")
        .count();
    assert!(gap > 50, "gap cells: {gap}");
    let t = text(&buf);
    assert!(t.contains("not side by side"));
}

#[test]
fn misattributed_quote_shows_the_real_source() {
    let mut app = with_answer();
    app.select_snippet(4);
    let t = text(&render(&mut app, 120, 36));
    assert!(t.contains("really in: tower-of-hercules.pdf"), "{t}");
    assert!(t.contains("The Tower of Hercules at A Coruna › p. 1"));
    assert_eq!(app.sel_chunk, 2, "the real chunk is selected");
}

#[test]
fn citations_in_the_answer_select_their_quote() {
    let mut app = with_answer();
    key(&mut app, KeyCode::Tab); // Gate
    key(&mut app, KeyCode::Tab); // Answer
    assert_eq!(app.focus, Focus::Answer);
    key(&mut app, KeyCode::Char('j'));
    assert_eq!(app.sel_snippet, Some(0));
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Char('j'));
    assert_eq!(app.sel_snippet, Some(2), "third citation is [3]");
    assert_eq!(app.sel_chunk, 1);
    let _ = render(&mut app, 100, 30);
}

#[test]
fn selecting_a_chunk_lists_its_quotes() {
    let mut app = with_answer();
    app.apply(Action::FocusPane(Focus::Chunks));
    let t = text(&render(&mut app, 120, 36));
    assert!(t.contains("quotes here: ✓[1] ≈[2] ⋯[4]"), "{t}");
    assert!(t.contains("bm25 16.00 (#1)"));
}

/// A passage found in two files (a paper saved twice) is one chunk, and
/// the preview names the other file, terminal-safe.
#[test]
fn the_preview_names_the_other_copies_of_a_passage() {
    let mut app = app();
    let mut o = answer_outcome(6, 8);
    o.candidates[0].also_in = vec!["pharos (copy).md\u{1b}[2J".into()];
    app.set_outcome(o, vec![]);
    app.apply(Action::FocusPane(Focus::Chunks));
    let buf = render(&mut app, 140, 36);
    no_controls(&buf);
    let t = text(&buf);
    assert!(
        t.contains("the same text is also in pharos (copy).md"),
        "{t}"
    );
}

/// A quote whose file has changed since the answer on screen is not
/// copied, alone or with the others: its words may no longer be the file's.
#[test]
fn a_quote_of_a_file_changed_since_the_answer_is_not_copied() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pharos.md");
    std::fs::write(&file, "The architect was Sostratus of Cnidus.").unwrap();
    let mut o = answer_outcome(6, 8);
    o.snippets[0].read_as = crate::index::FileStamp::of(&file);
    let mut app = app();
    app.set_outcome(o, vec![]);
    app.focus = Focus::Snippets;
    key(&mut app, KeyCode::Char('y'));
    assert!(matches!(app.effects.pop(), Some(Effect::Copy(_))));
    std::fs::write(&file, "The architect was someone else entirely.").unwrap();
    key(&mut app, KeyCode::Char('y'));
    assert!(app.effects.is_empty(), "{:?}", app.effects);
    assert_eq!(app.status_kind, StatusKind::Error);
    assert!(app.status.contains("has changed"), "{}", app.status);
}

#[test]
fn an_answer_on_screen_is_flagged_when_its_file_changes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pharos.md");
    std::fs::write(&file, "The architect was Sostratus of Cnidus.").unwrap();
    let mut o = answer_outcome(6, 8);
    o.snippets[0].read_as = crate::index::FileStamp::of(&file);
    o.answer.confidence = crate::answer::Confidence::High;
    let validated = o.counts.validated;
    let mut app = app();
    app.set_outcome(o, vec![]);
    let before = text(&render(&mut app, 120, 40));
    assert!(before.contains("confidence high"), "{before}");
    app.on_folder_changed(std::slice::from_ref(&file));
    assert_eq!(
        app.board.as_ref().unwrap().snippets[0].status,
        crate::validate::Status::Validated
    );

    std::fs::write(&file, "The architect was someone else entirely.").unwrap();
    app.on_folder_changed(std::slice::from_ref(&file));
    let b = app.board.as_ref().unwrap();
    assert_eq!(b.snippets[0].status, crate::validate::Status::Flagged);
    assert_eq!(b.outcome.counts.validated, validated - 1);
    assert!(
        b.snippets[0].note.contains("changed since"),
        "{}",
        b.snippets[0].note
    );
    let after = text(&render(&mut app, 120, 40));
    assert!(after.contains("confidence medium"), "{after}");
    assert!(after.contains("changed since: flagged"), "{after}");
    // The row and the preview say so, not "exact words".
    assert!(after.contains("⚠ [1]"), "{after}");
    app.select_snippet(0);
    let after = text(&render(&mut app, 120, 40));
    assert!(after.contains("the file has changed since"), "{after}");
    assert!(!after.contains("✓ Exact words"), "{after}");

    // And with no word from the watcher: the periodic check finds it.
    let mut o = answer_outcome(6, 8);
    o.snippets[0].read_as = crate::index::FileStamp::of(&file);
    app.set_outcome(o, vec![]);
    std::fs::remove_file(&file).unwrap();
    for _ in 0..super::app::RECHECK_TICKS {
        app.tick();
    }
    assert_eq!(
        app.board.as_ref().unwrap().snippets[0].status,
        crate::validate::Status::Flagged
    );
}

#[test]
fn copy_validated_flagged_and_dropped() {
    let mut app = with_answer();
    key(&mut app, KeyCode::Char('y'));
    assert_eq!(
        app.effects.pop(),
        Some(Effect::Copy(
            "\"The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.\" (The Pharos of Alexandria, Origins › The architect and the inscription)".into()
        ))
    );
    // Flagged: confirmation first, then the source's words.
    app.select_snippet(2);
    key(&mut app, KeyCode::Char('y'));
    assert_eq!(app.popup, Some(Popup::ConfirmCopy(2)));
    assert!(app.effects.is_empty());
    let t = text(&render(&mut app, 100, 30));
    assert!(t.contains("Copy the source's own words"), "{t}");
    key(&mut app, KeyCode::Char('y'));
    assert_eq!(
        app.effects.pop(),
        Some(Effect::Copy(
            "\"Pliny the Elder records that it cost eight hundred talents\" (The Pharos of Alexandria, Origins › A harbour that needed a mark)".into()
        ))
    );
    // n declines.
    key(&mut app, KeyCode::Char('y'));
    key(&mut app, KeyCode::Char('n'));
    assert!(app.effects.is_empty() && app.popup.is_none());
    // Misattributed: cited with where the words really are.
    app.select_snippet(4);
    key(&mut app, KeyCode::Char('y'));
    key(&mut app, KeyCode::Char('y'));
    let Some(Effect::Copy(c)) = app.effects.pop() else {
        panic!("no copy")
    };
    assert_eq!(
        c,
        "\"Gaius Sevius Lupus, an architect from Aeminium\" (The Tower of Hercules at A Coruna, p. 1 · The architect's inscription)"
    );
    // Dropped: refused, with the reason.
    app.select_snippet(5);
    key(&mut app, KeyCode::Char('y'));
    assert!(app.effects.is_empty());
    assert_eq!(app.status_kind, StatusKind::Error);
    assert!(app.status.contains("cannot be copied"), "{}", app.status);
    // Y: every validated quote, one per line.
    key(&mut app, KeyCode::Char('Y'));
    let Some(Effect::Copy(all)) = app.effects.pop() else {
        panic!("no copy")
    };
    assert_eq!(all.lines().count(), 3, "{all}");
}

#[test]
fn hiding_flagged_and_dropped_quotes() {
    let mut app = with_answer();
    app.select_snippet(2);
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(app.visible_snippets(), [0, 1, 7]);
    assert_eq!(app.sel_snippet, Some(0));
    let t = text(&render(&mut app, 100, 30));
    assert!(t.contains("(validated only)"));
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(app.visible_snippets().len(), 8);
}

#[test]
fn queries_carry_generations_and_esc_cancels() {
    let mut app = app();
    assert_eq!(app.focus, Focus::Input, "the board opens ready to type");
    for c in "lamp oil".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    key(&mut app, KeyCode::Enter);
    let Some(Effect::RunQuery { generation: g1, .. }) = app.effects.pop() else {
        panic!("no query")
    };
    // A second query makes the first stale.
    app.apply(Action::FocusInput);
    key(&mut app, KeyCode::Enter);
    let Some(Effect::RunQuery { generation: g2, .. }) = app.effects.pop() else {
        panic!("no query")
    };
    app.on_query_done(g1, Ok(Box::new((answer_outcome(4, 2), vec![]))));
    assert!(app.board.is_none(), "stale result dropped");
    key(&mut app, KeyCode::Esc);
    assert!(app.status.contains("cancelled"), "{}", app.status);
    app.on_query_done(g2, Ok(Box::new((answer_outcome(4, 2), vec![]))));
    assert!(app.board.is_none(), "cancelled result dropped");
    // History: ↑ brings the question back.
    app.apply(Action::FocusInput);
    key(&mut app, KeyCode::Char('z'));
    key(&mut app, KeyCode::Up);
    assert_eq!(app.input.text, "lamp oil");
    key(&mut app, KeyCode::Down);
    assert_eq!(app.input.text, "lamp oilz");
    // q types in the input; quits outside it.
    key(&mut app, KeyCode::Char('q'));
    assert!(!app.quit);
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('q'));
    assert!(app.quit);
}

#[test]
fn a_question_typed_while_indexing_runs_when_ready() {
    let mut app = blank_app();
    app.apply(Action::FocusInput);
    key(&mut app, KeyCode::Char('x'));
    key(&mut app, KeyCode::Enter);
    assert!(app.effects.is_empty());
    app.on_index_ready(10, None);
    assert!(matches!(app.effects.pop(), Some(Effect::RunQuery { .. })));
}

#[test]
fn esc_cancels_the_running_query_and_its_llm_calls() {
    let mut app = blank_app();
    app.on_index_ready(10, None);
    app.apply(Action::FocusInput);
    key(&mut app, KeyCode::Char('x'));
    key(&mut app, KeyCode::Enter);
    let Some(Effect::RunQuery { generation, .. }) = app.effects.pop() else {
        panic!("no query started");
    };
    key(&mut app, KeyCode::Esc);
    assert!(
        matches!(app.effects.pop(), Some(Effect::Cancel(g)) if g == generation),
        "{:?}",
        app.effects
    );
    assert!(app.status.contains("cancelled"), "{}", app.status);
}

#[test]
fn while_updating_questions_search_the_previous_index() {
    let mut app = blank_app();
    app.on_index_progress(Progress::Reading {
        done: 1,
        total: 9,
        chunks: 3,
    });
    app.on_previous_index(120);
    let t = text(&render(&mut app, 100, 20));
    assert!(t.contains("searching 120 chunks"), "{t}");
    assert!(t.contains("questions search the previous index"), "{t}");
    app.apply(Action::FocusInput);
    key(&mut app, KeyCode::Char('x'));
    key(&mut app, KeyCode::Enter);
    assert!(matches!(app.effects.pop(), Some(Effect::RunQuery { .. })));
    // A failed update keeps the previous index in force.
    app.on_index_failed("disk full".into());
    assert!(matches!(app.index, IndexState::Ready { chunks: 120, .. }));
    assert!(app.status.contains("disk full"), "{}", app.status);
}

#[test]
fn mouse_selects_panes_and_rows() {
    let mut app = with_answer();
    let _ = render(&mut app, 100, 30);
    let c = app.areas.chunks;
    app.apply(Action::Click(c.x + 3, c.y + 3));
    assert_eq!(app.focus, Focus::Chunks);
    assert_eq!(app.sel_chunk, 2);
    let s = app.areas.snippets;
    app.apply(Action::Click(s.x + 3, s.y + 2));
    assert_eq!((app.focus, app.sel_snippet), (Focus::Snippets, Some(1)));
    app.apply(Action::ScrollDown(s.x + 3, s.y + 2));
    assert_eq!(app.sel_snippet, Some(4));
    let p = app.areas.preview;
    app.apply(Action::ScrollDown(p.x + 3, p.y + 2));
    let _ = render(&mut app, 100, 30);
}

#[test]
fn resizing_down_to_tiny_does_not_panic() {
    let mut app = with_answer();
    for (w, h) in [(80, 24), (40, 12), (10, 5), (1, 1), (200, 60)] {
        let _ = render(&mut app, w, h);
        key(&mut app, KeyCode::Char('?'));
        let _ = render(&mut app, w, h);
        key(&mut app, KeyCode::Esc);
    }
}

/// Issue 15: q closes help instead of quitting; G scrolls help to its end;
/// Ctrl-X is not x.
#[test]
fn modal_keys_act_on_the_popup_and_modified_keys_do_nothing() {
    let mut app = with_answer();
    key(&mut app, KeyCode::Char('?'));
    assert_eq!(app.popup, Some(Popup::Help));
    key(&mut app, KeyCode::Char('G'));
    assert_eq!(app.popup, Some(Popup::Help), "G closed help");
    let _ = render(&mut app, 80, 24);
    assert!(app.popup_scroll > 0, "G did not scroll help");
    key(&mut app, KeyCode::Char('q'));
    assert!(!app.quit, "q in help quit the app");
    assert_eq!(app.popup, None);
    let hidden = app.hide_flagged;
    app.on_key(KeyEvent::new(KeyCode::Char('x'), KeyModifiers::CONTROL));
    assert_eq!(app.hide_flagged, hidden, "Ctrl-X acted like x");
    key(&mut app, KeyCode::Char('x'));
    assert_ne!(app.hide_flagged, hidden);
    key(&mut app, KeyCode::Char('q'));
    assert!(app.quit);
}

/// A confirmation fades from the status line after a few seconds; an error
/// stays until something replaces it.
#[test]
fn confirmations_fade_and_errors_stay() {
    let mut app = app();
    app.set_status(StatusKind::Ok, "Copied to clipboard: The architect was");
    for _ in 0..49 {
        app.tick();
    }
    assert!(app.status.starts_with("Copied"));
    app.tick();
    assert!(app.status.is_empty());
    app.set_status(StatusKind::Error, "Copy failed: no display");
    for _ in 0..200 {
        app.tick();
    }
    assert_eq!(app.status, "Copy failed: no display");
}

/// Number keys jump to panes; Enter in a list opens the selection in
/// Preview (it never moves the focus to the Ask line, where the next letter
/// would land in the question); the status line names the focused pane's
/// keys.
#[test]
fn number_keys_jump_and_enter_reads_the_selection_in_preview() {
    let mut app = with_answer();
    key(&mut app, KeyCode::Char('1'));
    assert_eq!(app.focus, Focus::Chunks);
    let t = text(&render(&mut app, 160, 40));
    assert!(t.contains("j/k move · Enter preview"), "{t}");
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Char('j'));
    assert_eq!(app.sel_chunk, 2);
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.focus, Focus::Preview);
    assert!(app.input.text.is_empty());
    // Preview shows chunk 3 (the Tower of Hercules), not quote [1]'s chunk.
    let t = text(&render(&mut app, 160, 40));
    assert!(t.contains("5 Preview ━"), "{t}");
    assert!(t.contains("The Tower of Hercules at A Coruna ›"), "{t}");
    assert!(t.contains("j/k scroll · g/G ends"), "{t}");
    key(&mut app, KeyCode::Char('2'));
    assert_eq!(app.focus, Focus::Snippets);
    key(&mut app, KeyCode::Enter);
    let t = text(&render(&mut app, 160, 40));
    assert!(t.contains("5 Preview ✓ [1] verbatim"), "{t}");
    // Enter does nothing in Gate or Preview; typed letters go nowhere.
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('w'));
    assert_eq!(app.focus, Focus::Gate);
    assert!(app.input.text.is_empty());
    key(&mut app, KeyCode::Char('4'));
    assert_eq!(app.focus, Focus::Answer);
    key(&mut app, KeyCode::Char('5'));
    assert_eq!(app.focus, Focus::Preview);
}

/// Focus reads without colour: the focused pane has a thick border and a
/// reversed title; the Ask line's prompt is reversed only while typing.
#[test]
fn focus_is_shown_by_border_title_and_the_ask_prompt() {
    use ratatui::style::Modifier;
    let mut app = with_answer();
    let buf = render(&mut app, 120, 36);
    let snippets = find(&buf, "┏", 0..36).expect("a thick corner");
    let title = find(&buf, "2", snippets.1..snippets.1 + 1).unwrap();
    assert!(buf[title].modifier.contains(Modifier::REVERSED));
    let chunks = find(&buf, "1", 1..2).unwrap();
    assert!(!buf[chunks].modifier.contains(Modifier::REVERSED));
    assert_eq!(buf[(0, 1)].symbol(), "┌", "unfocused Chunks is thin");
    assert!(!buf[(1, 0)].modifier.contains(Modifier::REVERSED));
    key(&mut app, KeyCode::Char('/'));
    let buf = render(&mut app, 120, 36);
    assert!(
        buf[(1, 0)].modifier.contains(Modifier::REVERSED),
        "Ask focused"
    );
    assert_eq!(buf[(0, 1)].symbol(), "┌");
    assert!(find(&buf, "┏", 0..36).is_none(), "no pane looks focused");
    insta::assert_snapshot!("focus_on_input", text(&buf));
}

/// The Snippets pane at 160 and 80 columns: the verdict mark, the quote's
/// own words first ("…" where cut), the source after it when there is room,
/// and the position in the list.
#[test]
fn snippets_pane_at_160_and_80_columns() {
    for w in [160u16, 80] {
        let mut app = with_answer();
        key(&mut app, KeyCode::Char('j'));
        let buf = render(&mut app, w, 40);
        let a = app.areas.snippets;
        let rows: Vec<String> = text(&buf)
            .lines()
            .skip(a.y as usize)
            .take(a.height as usize)
            .map(|l| l.chars().take(a.width as usize).collect())
            .collect();
        let t = rows.join("\n");
        assert!(t.contains("2/8"), "{t}");
        insta::assert_snapshot!(format!("snippets_{w}"), t);
    }
}

/// A validated quote is listed in the source's words, as it is copied, not
/// in the model's: those may hold what validation folds (a link's target,
/// a full-width letter).
#[test]
fn a_validated_quote_is_listed_in_the_sources_words() {
    let mut o = answer_outcome(6, 8);
    o.snippets[0].content =
        "Ｔｈｅ [architect](http://evil.example/x) was Sostratus of Cnidus".into();
    let mut app = app();
    app.set_outcome(o, vec![]);
    app.focus = Focus::Snippets;
    let t = text(&render(&mut app, 160, 40));
    assert!(
        t.contains("✓ [1] The architect was Sostratus of Cnidus"),
        "{t}"
    );
    assert!(!t.contains("evil.example") && !t.contains('Ｔ'), "{t}");
}

/// Help longer than the screen shows where it is ("12/40").
#[test]
fn help_shows_its_scroll_position() {
    let mut app = with_answer();
    key(&mut app, KeyCode::Char('?'));
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Char('j'));
    let t = text(&render(&mut app, 80, 24));
    assert!(t.contains(" 3/"), "{t}");
    assert!(t.contains("j/k scroll · q/Esc close"), "{t}");
    insta::assert_snapshot!("help_80x24_scrolled", t);
}

/// With a bibliography, the board puts each work's author and year before
/// its title, `y` copies a validated quote cited in the configured style,
/// `Y` adds the references of the works cited; a flagged quote still copies
/// the source's words with the plain template (it is not cited as the work).
#[test]
fn copies_cite_the_work_when_a_bibliography_names_it() {
    use crate::pipeline::{AnswerWorks, QuoteCite};
    let mut o = answer_outcome(6, 8);
    let mut works = AnswerWorks::default();
    works
        .by_source
        .insert("pharos-of-alexandria.md".into(), "Forster 1922".into());
    works.references.push((
        "forster1922".into(),
        "Forster, E. M. 1922. Alexandria: A History and a Guide. Alexandria: Whitehead Morris."
            .into(),
    ));
    o.works = Some(works);
    let words = o.snippets[0].copy_text.clone().unwrap();
    o.snippets[0].cite = Some(QuoteCite {
        key: "forster1922".into(),
        author_year: "Forster 1922".into(),
        page: Some("12".into()),
        text: format!("“{words}” [@forster1922, p. 12]"),
    });
    let mut app = app();
    app.set_outcome(o, vec![]);
    app.apply(Action::FocusPane(Focus::Snippets));
    let t = text(&render(&mut app, 160, 40));
    assert!(
        t.contains("Forster 1922 · The Pharos of Alexandria ›"),
        "{t}"
    );
    key(&mut app, KeyCode::Char('y'));
    assert_eq!(
        app.effects.pop(),
        Some(Effect::Copy(format!("“{words}” [@forster1922, p. 12]")))
    );
    app.select_snippet(2);
    key(&mut app, KeyCode::Char('y'));
    key(&mut app, KeyCode::Char('y'));
    let Some(Effect::Copy(flagged)) = app.effects.pop() else {
        panic!("no copy")
    };
    assert!(flagged.starts_with("\"Pliny the Elder"), "{flagged}");
    assert!(!flagged.contains("@forster1922"), "{flagged}");
    key(&mut app, KeyCode::Char('Y'));
    let Some(Effect::Copy(all)) = app.effects.pop() else {
        panic!("no copy")
    };
    assert!(
        all.starts_with(&format!("“{words}” [@forster1922, p. 12]\n")),
        "{all}"
    );
    assert!(
        all.ends_with("\n\nReferences\nForster, E. M. 1922. Alexandria: A History and a Guide. Alexandria: Whitehead Morris."),
        "{all}"
    );
}

/// The board opens on the question line; pressing "/" there, as the key
/// list says, asks rather than typing a "/" (a "/" inside a question is
/// typed).
#[test]
fn slash_on_the_empty_question_line_is_no_character() {
    let mut app = app();
    key(&mut app, KeyCode::Char('/'));
    for c in "a/b".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    assert_eq!(app.input.text, "a/b");
}

/// After a question is asked, `/` from a pane starts a new one (the asked
/// question is cleared from the line, it stays in the history); `i`
/// edits it; a draft not yet asked is never cleared.
#[test]
fn slash_starts_a_new_question_and_i_edits_the_last() {
    let mut app = app();
    key(&mut app, KeyCode::Char('/'));
    for c in "Who lit it?".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    key(&mut app, KeyCode::Enter);
    assert_ne!(app.focus, Focus::Input);
    key(&mut app, KeyCode::Char('i'));
    assert_eq!(app.input.text, "Who lit it?");
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Char('/'));
    assert_eq!(app.focus, Focus::Input);
    assert_eq!(app.input.text, "");
    for c in "When".chars() {
        key(&mut app, KeyCode::Char(c));
    }
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Char('/'));
    assert_eq!(app.input.text, "When", "a draft is kept");
}

/// A paste arrives as one event and is cut at the longest question, with
/// a word why; its line breaks are spaces. (A megabyte read into the line
/// a character at a time took the red team's board nine minutes.)
#[test]
fn a_huge_paste_is_cut_at_once_with_a_word_why() {
    let mut app = app();
    key(&mut app, KeyCode::Tab);
    app.paste("Who lit\nthe lamp?");
    assert_eq!(app.focus, Focus::Input);
    assert_eq!(app.input.text, "Who lit the lamp?");
    let started = std::time::Instant::now();
    app.paste(&"lamp light tower ".repeat(60_000));
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
    assert_eq!(
        app.input.text.chars().count(),
        crate::tui::app::MAX_QUESTION
    );
    assert!(app.status.contains("at most"), "{}", app.status);
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(
        app.input.text.chars().count(),
        crate::tui::app::MAX_QUESTION
    );
}
