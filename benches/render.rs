//! Drawing speed of the board: a full 160×48 frame with 12 chunks, 8
//! snippets (every verdict, a fuzzy diff) and an answer, against the empty
//! board drawn in the same run as the baseline. Target: under 2 ms a frame.
//!
//! `cargo bench --bench render`. Each iteration selects another snippet, so
//! the preview, the linked chunk and the highlights are rebuilt every frame.

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use research_board::tui::App;
use research_board::tui::app::Focus;
use research_board::tui::fixture::answer_outcome;
use research_board::tui::settings::{History, TuiConfig};
use research_board::tui::theme::Theme;
use research_board::tui::view;

fn board() -> App {
    let mut app = App::new(
        Theme::default(),
        TuiConfig::default(),
        History::load(None, 10),
    );
    app.on_index_ready(123, None);
    app
}

fn render(c: &mut Criterion) {
    let mut g = c.benchmark_group("render");

    let mut empty = board();
    let mut term = Terminal::new(TestBackend::new(160, 48)).unwrap();
    g.bench_function("160x48 baseline: empty board", |b| {
        b.iter(|| {
            empty.dirty = true;
            view::render(&mut term, &mut empty).unwrap();
        })
    });

    let mut app = board();
    app.set_outcome(answer_outcome(12, 8), vec![]);
    app.focus = Focus::Snippets;
    let mut term = Terminal::new(TestBackend::new(160, 48)).unwrap();
    let mut i = 0usize;
    g.bench_function("160x48 answer: 12 chunks, 8 snippets", |b| {
        b.iter(|| {
            i = (i + 1) % 8;
            app.select_snippet(i);
            view::render(&mut term, &mut app).unwrap();
        })
    });

    let mut small = board();
    small.set_outcome(answer_outcome(12, 8), vec![]);
    small.focus = Focus::Snippets;
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    g.bench_function("80x24 answer: 12 chunks, 8 snippets", |b| {
        b.iter(|| {
            i = (i + 1) % 8;
            small.select_snippet(i);
            view::render(&mut term, &mut small).unwrap();
        })
    });
    g.finish();
}

criterion_group!(benches, render);
criterion_main!(benches);
