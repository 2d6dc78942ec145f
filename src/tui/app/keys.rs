//! Key bindings: the [`Action`]s, and which one a key press or a mouse
//! event means, given the focus and any open popup.

use super::{App, Focus, Popup};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Quit,
    FocusNext,
    FocusPrev,
    FocusInput,
    /// To the question line for a new question: a question already asked
    /// is cleared from it, a draft is kept.
    AskNew,
    /// Jump to a pane (number keys 1–5).
    FocusPane(Focus),
    /// Enter in Chunks, Snippets or Answer: show the selection in Preview.
    Preview,
    /// `o`: open the selected quote's (or chunk's) source at its place.
    OpenSource,
    Up,
    Down,
    Top,
    Bottom,
    PageUp,
    PageDown,
    Submit,
    /// Esc: close a popup, cancel a running query, or leave the input.
    Escape,
    Char(char),
    Backspace,
    Delete,
    CursorLeft,
    CursorRight,
    Home,
    End,
    ClearInput,
    HistoryPrev,
    HistoryNext,
    CopySelected,
    CopyAll,
    ConfirmYes,
    ConfirmNo,
    ToggleHelp,
    ToggleInspect,
    ToggleSkipped,
    ToggleHideFlagged,
    ToggleNumbers,
    Click(u16, u16),
    ScrollUp(u16, u16),
    ScrollDown(u16, u16),
    Resize,
}

impl App {
    /// What a key press means here.
    pub fn action_for_key(&self, key: KeyEvent) -> Option<Action> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c')) {
            return Some(Action::Quit);
        }
        if let Some(p) = self.popup {
            return Some(match (p, key.code) {
                (Popup::ConfirmCopy(_), KeyCode::Char('y' | 'Y') | KeyCode::Enter) => {
                    Action::ConfirmYes
                }
                (Popup::ConfirmCopy(_), _) => Action::ConfirmNo,
                (_, KeyCode::Char('j') | KeyCode::Down) => Action::Down,
                (_, KeyCode::Char('k') | KeyCode::Up) => Action::Up,
                (_, KeyCode::PageDown) => Action::PageDown,
                (_, KeyCode::PageUp) => Action::PageUp,
                (_, KeyCode::Char('g') | KeyCode::Home) => Action::Top,
                (_, KeyCode::Char('G') | KeyCode::End) => Action::Bottom,
                // q and Esc close a popup; they never quit from one.
                (_, KeyCode::Char('q')) => Action::Escape,
                (Popup::Help, KeyCode::Char('?')) => Action::ToggleHelp,
                (Popup::Inspect, KeyCode::Char('d')) => Action::ToggleInspect,
                (Popup::Skipped, KeyCode::Char('s')) => Action::ToggleSkipped,
                _ => Action::Escape,
            });
        }
        if self.focus == Focus::Input {
            return match key.code {
                KeyCode::Enter => Some(Action::Submit),
                KeyCode::Esc => Some(Action::Escape),
                KeyCode::Tab => Some(Action::FocusNext),
                KeyCode::BackTab => Some(Action::FocusPrev),
                KeyCode::Backspace => Some(Action::Backspace),
                KeyCode::Delete => Some(Action::Delete),
                KeyCode::Left => Some(Action::CursorLeft),
                KeyCode::Right => Some(Action::CursorRight),
                KeyCode::Home => Some(Action::Home),
                KeyCode::End => Some(Action::End),
                KeyCode::Up => Some(Action::HistoryPrev),
                KeyCode::Down => Some(Action::HistoryNext),
                KeyCode::Char('a') if ctrl => Some(Action::Home),
                KeyCode::Char('e') if ctrl => Some(Action::End),
                KeyCode::Char('u') if ctrl => Some(Action::ClearInput),
                // "/" asks (as the key list says), also where the question
                // line already has the focus: no question starts with it.
                KeyCode::Char('/') if self.input.text.is_empty() => Some(Action::FocusInput),
                KeyCode::Char(c) if !ctrl => Some(Action::Char(c)),
                _ => None,
            };
        }
        // Unbound modified keys do nothing (Ctrl-X is not x).
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SUPER);
        if !plain && !matches!(key.code, KeyCode::Char('d' | 'u')) {
            return None;
        }
        Some(match key.code {
            KeyCode::Char('q') => Action::Quit,
            KeyCode::Tab | KeyCode::Char('l') | KeyCode::Right => Action::FocusNext,
            KeyCode::BackTab | KeyCode::Char('h') | KeyCode::Left => Action::FocusPrev,
            KeyCode::Char('/') => Action::AskNew,
            KeyCode::Char('i') => Action::FocusInput,
            KeyCode::Char('j') | KeyCode::Down => Action::Down,
            KeyCode::Char('k') | KeyCode::Up => Action::Up,
            KeyCode::Char('g') | KeyCode::Home => Action::Top,
            KeyCode::Char('G') | KeyCode::End => Action::Bottom,
            KeyCode::PageDown => Action::PageDown,
            KeyCode::PageUp => Action::PageUp,
            KeyCode::Char('d') if ctrl => Action::PageDown,
            KeyCode::Char('u') if ctrl => Action::PageUp,
            KeyCode::Char('y') => Action::CopySelected,
            KeyCode::Char('Y') => Action::CopyAll,
            KeyCode::Char('?') => Action::ToggleHelp,
            KeyCode::Char('d') => Action::ToggleInspect,
            KeyCode::Char('s') => Action::ToggleSkipped,
            KeyCode::Char('x') => Action::ToggleHideFlagged,
            KeyCode::Char('n') => Action::ToggleNumbers,
            KeyCode::Esc => Action::Escape,
            KeyCode::Char(c @ '1'..='5') => {
                Action::FocusPane(Focus::ORDER[(c as u8 - b'0') as usize])
            }
            KeyCode::Enter
                if matches!(self.focus, Focus::Chunks | Focus::Snippets | Focus::Answer) =>
            {
                Action::Preview
            }
            KeyCode::Char('o') => Action::OpenSource,
            _ => return None,
        })
    }

    pub fn action_for_mouse(&self, m: MouseEvent) -> Option<Action> {
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => Some(Action::Click(m.column, m.row)),
            MouseEventKind::ScrollUp => Some(Action::ScrollUp(m.column, m.row)),
            MouseEventKind::ScrollDown => Some(Action::ScrollDown(m.column, m.row)),
            _ => None,
        }
    }
}
