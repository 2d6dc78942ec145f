//! The question line: the text typed or pasted, and the cursor.

/// The longest question the line takes, in characters: a paste of a
/// whole chapter is cut there, not read into the line a character at a
/// time for minutes.
pub const MAX_QUESTION: usize = 2_000;

/// The query line editor.
#[derive(Debug, Default, Clone)]
pub struct Input {
    pub text: String,
    /// Cursor position in chars.
    pub cursor: usize,
}

impl Input {
    fn byte(&self, c: usize) -> usize {
        crate::text::byte_offset(&self.text, c)
    }
    pub(super) fn set(&mut self, s: &str) {
        self.text = s.to_string();
        self.cursor = self.text.chars().count();
    }
    /// Insert `ch` at the cursor; false when the question is as long as a
    /// question may be ([`MAX_QUESTION`]).
    pub(super) fn insert(&mut self, ch: char) -> bool {
        if self.text.chars().count() >= MAX_QUESTION {
            return false;
        }
        let b = self.byte(self.cursor);
        self.text.insert(b, ch);
        self.cursor += 1;
        true
    }
    /// Insert pasted text, its line breaks as spaces and without control
    /// characters, up to [`MAX_QUESTION`]; false when some was left out.
    pub(super) fn paste(&mut self, s: &str) -> bool {
        let room = MAX_QUESTION.saturating_sub(self.text.chars().count());
        let mut clean = s
            .chars()
            .map(|c| if c == '\n' || c == '\t' { ' ' } else { c })
            .filter(|c| !c.is_control() && *c != '\r');
        let taken: String = clean.by_ref().take(room).collect();
        let b = self.byte(self.cursor);
        self.text.insert_str(b, &taken);
        self.cursor += taken.chars().count();
        clean.next().is_none()
    }
    pub(super) fn backspace(&mut self) {
        if self.cursor > 0 {
            self.cursor -= 1;
            let b = self.byte(self.cursor);
            self.text.remove(b);
        }
    }
    pub(super) fn delete(&mut self) {
        if self.cursor < self.text.chars().count() {
            let b = self.byte(self.cursor);
            self.text.remove(b);
        }
    }
}

/// The status when a question would be longer than [`MAX_QUESTION`].
pub(super) fn too_long() -> String {
    format!("A question is at most {MAX_QUESTION} characters; the rest was left out.")
}
