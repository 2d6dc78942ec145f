//! Copying quotes: only the source's own text is ever copied, with its
//! citation; a flagged quote after confirmation, a dropped one never.

use super::{App, Effect, Popup, StatusKind};
use crate::tui::settings::format_copy;
use crate::validate::Status;

impl App {
    pub(super) fn format_snippet(&self, i: usize) -> Option<String> {
        let b = self.board.as_ref()?;
        let s = b.outcome.snippets.get(i)?;
        // Nor the words of a file that has changed since the answer.
        if s.file_changed() {
            return None;
        }
        // Only the source's own text is ever copied, never the model's words.
        let quote = match s.status {
            Status::Validated | Status::Flagged => s.copy_text.as_deref()?,
            Status::Dropped => return None,
        };
        // A validated quote of a work in the bibliography: cited in the
        // configured style (only ever with the source's own words).
        if s.status == Status::Validated
            && let Some(c) = &s.cite
        {
            return Some(c.text.clone());
        }
        let (title, location, source) = match (&s.found_source_id, s.spans.first()) {
            (Some(found), Some(sp)) if *found != s.source_id => {
                // Misattributed: cite where the words really are.
                let c = b.chunks.iter().find(|c| c.id == sp.chunk_id);
                match c {
                    Some(c) => (c.title.clone(), c.location.clone(), found),
                    None => (found.clone(), String::new(), found),
                }
            }
            _ => (s.source_title.clone(), s.location.clone(), &s.source_id),
        };
        Some(format_copy(
            &self.settings.copy_format,
            quote,
            &title,
            &location,
            source,
            s.n,
        ))
    }

    pub(super) fn copy_selected(&mut self) {
        let Some(b) = &self.board else {
            self.set_status(StatusKind::Info, "Nothing to copy yet: ask a question.");
            return;
        };
        let Some(i) = self.sel_snippet else {
            self.set_status(
                StatusKind::Info,
                "Select a quote in the Snippets pane first.",
            );
            return;
        };
        let s = &b.outcome.snippets[i];
        // The folder changed under the answer on screen: its words may no
        // longer be the file's.
        if s.status != Status::Dropped && s.file_changed() {
            self.set_status(
                StatusKind::Error,
                format!(
                    "Quote [{}] is not copied: its file has changed since this answer; ask again.",
                    s.n
                ),
            );
            return;
        }
        match s.status {
            Status::Validated => {
                if let Some(t) = self.format_snippet(i) {
                    self.effects.push(Effect::Copy(t));
                }
            }
            Status::Flagged => {
                if s.copy_text.is_none() {
                    self.set_status(
                        StatusKind::Error,
                        format!("Quote [{}] is flagged and has no source text to copy.", s.n),
                    );
                } else {
                    self.popup = Some(Popup::ConfirmCopy(i));
                    self.dirty = true;
                }
            }
            Status::Dropped => {
                let why = crate::tui::model::clean(&s.note);
                self.set_status(
                    StatusKind::Error,
                    format!(
                        "Quote [{}] failed validation and cannot be copied: {why}",
                        s.n
                    ),
                );
            }
        }
    }

    /// `o`: the selected quote's source at its place (the selected chunk's
    /// when the Preview follows Chunks).
    pub(super) fn open_source(&mut self) {
        use crate::tui::open::Target;
        let Some(b) = &self.board else {
            self.set_status(StatusKind::Info, "Nothing to open yet: ask a question.");
            return;
        };
        let o = &b.outcome;
        let of_chunk = |i: usize| {
            let c = &o.candidates[i];
            Target::at(&c.source_id, c.place.as_deref())
        };
        let snippet = self
            .sel_snippet
            .filter(|_| self.preview_of != super::Focus::Chunks)
            .and_then(|i| o.snippets.get(i).zip(b.snippets.get(i)));
        let target = match snippet {
            Some((s, _)) if s.place.is_some() => Target::at(&s.source_id, s.place.as_deref()),
            Some((_, v)) => match v.chunk().and_then(|c| b.chunks[c].candidate) {
                Some(i) => of_chunk(i),
                None => match v.chunk() {
                    Some(c) => Target::at(&b.chunks[c].source_id, None),
                    None => {
                        self.set_status(
                            StatusKind::Info,
                            "This quote was not found in any source: nothing to open.",
                        );
                        return;
                    }
                },
            },
            None if self.sel_chunk < o.candidates.len() => of_chunk(self.sel_chunk),
            None => return,
        };
        self.effects.push(Effect::Open(target));
    }

    pub(super) fn copy_all(&mut self) {
        let Some(b) = &self.board else {
            self.set_status(StatusKind::Info, "Nothing to copy yet: ask a question.");
            return;
        };
        let validated: Vec<usize> = (0..b.outcome.snippets.len())
            .filter(|&i| b.outcome.snippets[i].status == Status::Validated)
            .collect();
        let lines: Vec<String> = validated
            .iter()
            .filter_map(|&i| self.format_snippet(i))
            .collect();
        if lines.is_empty() {
            let why = if validated.is_empty() {
                "No validated quotes to copy."
            } else {
                "Nothing copied: the files of these quotes have changed since this answer; ask again."
            };
            self.set_status(StatusKind::Info, why);
            return;
        }
        // Then the references of the works they cite.
        let mut text = lines.join("\n");
        if let Some(w) = b
            .outcome
            .works
            .as_ref()
            .filter(|w| !w.references.is_empty())
        {
            text.push_str("\n\nReferences\n");
            let refs: Vec<&str> = w.references.iter().map(|(_, r)| r.as_str()).collect();
            text.push_str(&refs.join("\n"));
        }
        self.effects.push(Effect::Copy(text));
    }
}
