//! The reducer's part for the index: progress, an earlier run's index
//! answering meanwhile, ready, failed, and a changed folder.

use super::{App, IndexState, StatusKind};
use crate::index::{Progress, UpdateReport};

impl App {
    /// The answer on screen was validated against the files as the index
    /// read them: a quote whose file has changed since is flagged, on
    /// screen as in the answer, and not copied.
    pub fn recheck_answer(&mut self) {
        let Some(b) = &mut self.board else {
            return;
        };
        let flagged = b.outcome.flag_changed_files();
        for &i in &flagged {
            let (s, v) = (&b.outcome.snippets[i], &mut b.snippets[i]);
            v.status = s.status;
            v.note = crate::tui::model::clean(&s.note);
        }
        if !flagged.is_empty() {
            let n = flagged.len();
            self.set_status(
                StatusKind::Error,
                format!(
                    "{n} validated quote{} of this answer {} from a file changed since: flagged; ask again.",
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "is" } else { "are" },
                ),
            );
            self.dirty = true;
        }
    }

    pub fn on_index_progress(&mut self, p: Progress) {
        self.index = IndexState::Indexing(Some(p));
        self.dirty = true;
    }

    /// Files in the folder changed: the index updates in the background
    /// and questions keep going to the generation in force meanwhile.
    pub fn on_folder_changed(&mut self, paths: &[std::path::PathBuf]) {
        if let IndexState::Ready { chunks, .. } = self.index {
            self.previous_index = Some(chunks);
        }
        self.index = IndexState::Indexing(None);
        let what = match paths {
            [] => "Trying again".to_string(),
            [one] => one
                .file_name()
                .map(|n| format!("{} changed", n.to_string_lossy()))
                .unwrap_or_default(),
            many => format!("{} files changed", many.len()),
        };
        self.set_status(
            StatusKind::Ok,
            format!("{what}: updating the index (questions use the current one meanwhile)"),
        );
        self.recheck_answer();
        self.dirty = true;
    }

    /// The index from an earlier run opened: questions go to it until the
    /// update finishes.
    pub fn on_previous_index(&mut self, chunks: usize) {
        self.previous_index = Some(chunks);
        if let Some(q) = self.pending_query.take() {
            self.start_query(q);
        }
        self.dirty = true;
    }

    pub fn on_index_ready(&mut self, chunks: usize, report: Option<UpdateReport>) {
        self.previous_index = None;
        let skipped = report.as_ref().map_or(0, |r| r.skipped.len());
        let mut msg = format!("Index ready: {chunks} chunks.");
        if skipped > 0 {
            msg.push_str(&format!(
                " {skipped} file{} skipped (s shows why).",
                if skipped == 1 { "" } else { "s" }
            ));
        }
        // A watched update that found nothing new says nothing over an
        // answer on screen.
        let quiet = self.board.is_some() && report.as_ref().is_some_and(|r| r.up_to_date);
        self.index = IndexState::Ready { chunks, report };
        if let Some(q) = self.pending_query.take() {
            self.start_query(q);
        } else if !quiet {
            self.set_status(StatusKind::Ok, msg);
        }
        self.recheck_answer();
        self.dirty = true;
    }

    pub fn on_index_failed(&mut self, msg: String) {
        if let Some(chunks) = self.previous_index.take() {
            // Keep answering from the index that is still in force.
            self.set_status(
                StatusKind::Error,
                format!("Updating the index failed: {msg} (searching the previous index)"),
            );
            self.index = IndexState::Ready {
                chunks,
                report: None,
            };
            self.recheck_answer();
            return;
        }
        self.set_status(StatusKind::Error, format!("Indexing failed: {msg}"));
        self.index = IndexState::Failed(msg);
        self.pending_query = None;
    }
}
