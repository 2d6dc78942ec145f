//! research-board: a terminal research board for authors.
//!
//! The domain modules (one per pipeline stage) never touch terminals or
//! arguments; `cli` and `tui` are the only views.

pub mod answer;
pub mod audit;
pub mod budget;
pub mod chunk;
pub mod cite;
pub mod citing;
pub mod config;
pub mod embed;
pub mod eval;
pub mod extract;
pub mod gate;
pub mod index;
pub mod ingest;
pub mod llm;
pub mod pipeline;
pub mod provider;
pub mod retrieve;
pub mod session;
pub mod support;
pub mod text;
pub mod validate;
pub mod verify;
pub mod watch;

pub mod cli;
pub mod tui;

/// A property test's cases: `n`, times `PROPTEST_SCALE` when it is set (a
/// long run: `PROPTEST_SCALE=30 cargo test --lib`).
#[cfg(test)]
pub(crate) fn cases(n: u32) -> proptest::prelude::ProptestConfig {
    let scale: u32 = std::env::var("PROPTEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let scale = scale.max(1);
    proptest::prelude::ProptestConfig {
        max_global_rejects: 1024 * scale,
        ..proptest::prelude::ProptestConfig::with_cases(n * scale)
    }
}
