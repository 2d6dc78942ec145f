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
