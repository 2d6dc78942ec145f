//! Copying: the system clipboard through arboard, and where there is none
//! (SSH, headless, CI) an OSC 52 escape that asks the terminal to do it.
//! `RESEARCH_BOARD_CLIPBOARD=osc52` forces OSC 52.

use base64::Engine;
use std::io::Write;

/// How a copy reached the clipboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Copied {
    System,
    Osc52,
}

impl Copied {
    pub fn describe(self) -> &'static str {
        match self {
            Copied::System => "Copied to clipboard",
            Copied::Osc52 => "Sent to terminal clipboard (OSC 52)",
        }
    }
}

/// The OSC 52 sequence that sets the clipboard to `text`.
pub fn osc52(text: &str) -> Vec<u8> {
    let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    let mut out = Vec::with_capacity(b64.len() + 8);
    out.extend_from_slice(b"\x1b]52;c;");
    out.extend_from_slice(b64.as_bytes());
    out.push(0x07);
    out
}

/// The system clipboard, opened lazily and kept open (on X11 the copied
/// text lives as long as its owner).
#[derive(Default)]
pub struct Clipboard {
    system: Option<arboard::Clipboard>,
    unavailable: bool,
}

impl Clipboard {
    fn forced_osc52() -> bool {
        std::env::var("RESEARCH_BOARD_CLIPBOARD")
            .map(|v| v.eq_ignore_ascii_case("osc52"))
            .unwrap_or(false)
    }

    /// Copy `text`: the system clipboard if it works, else OSC 52 written to
    /// `terminal`.
    pub fn copy(&mut self, text: &str, terminal: &mut dyn Write) -> std::io::Result<Copied> {
        if !Self::forced_osc52() && !self.unavailable {
            if self.system.is_none() {
                match arboard::Clipboard::new() {
                    Ok(c) => self.system = Some(c),
                    Err(_) => self.unavailable = true,
                }
            }
            if let Some(c) = self.system.as_mut() {
                if c.set_text(text.to_string()).is_ok() {
                    return Ok(Copied::System);
                }
                self.system = None;
                self.unavailable = true;
            }
        }
        terminal.write_all(&osc52(text))?;
        terminal.flush()?;
        Ok(Copied::Osc52)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_encodes_the_text() {
        assert_eq!(osc52("hi “x”"), b"\x1b]52;c;aGkg4oCceOKAnQ==\x07");
    }
}
