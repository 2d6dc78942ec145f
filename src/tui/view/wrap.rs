//! Word wrapping of styled text, done here rather than by `Paragraph` so the
//! panes know which wrapped line a highlight or citation landed on (to
//! scroll it into view).

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// A run of text in one style; `mark` flags text to scroll into view.
#[derive(Debug, Clone)]
pub struct Seg {
    pub text: String,
    pub style: Style,
    pub mark: bool,
}

impl Seg {
    pub fn new(text: impl Into<String>, style: Style) -> Seg {
        Seg {
            text: text.into(),
            style,
            mark: false,
        }
    }
    pub fn marked(text: impl Into<String>, style: Style) -> Seg {
        Seg {
            text: text.into(),
            style,
            mark: true,
        }
    }
}

pub fn char_width(c: char) -> usize {
    if c.is_ascii() {
        return usize::from(!c.is_ascii_control());
    }
    let mut b = [0u8; 4];
    Span::raw(&*c.encode_utf8(&mut b)).width()
}

/// Wrapped lines plus the index of the first line holding marked text.
#[derive(Default)]
pub struct Wrapped {
    pub lines: Vec<Line<'static>>,
    pub first_mark: Option<usize>,
}

impl Wrapped {
    pub fn push_line(&mut self, line: Line<'static>) {
        self.lines.push(line);
    }

    /// Wrap one logical line (no `\n` inside) to `width` columns.
    pub fn push(&mut self, segs: &[Seg], width: usize) {
        let width = width.max(1);
        let mut line: Vec<Span<'static>> = Vec::new();
        let mut cur = String::new();
        let mut cur_style = Style::default();
        let mut col = 0usize;
        let mut line_marked = false;
        // Flatten into words: (chars with their seg index), spaces kept.
        let chars: Vec<(char, usize)> = segs
            .iter()
            .enumerate()
            .flat_map(|(i, s)| s.text.chars().map(move |c| (c, i)))
            .collect();
        let mut i = 0;
        let flush = |cur: &mut String, style: Style, line: &mut Vec<Span<'static>>| {
            if !cur.is_empty() {
                line.push(Span::styled(std::mem::take(cur), style));
            }
        };
        let mut emitted_any = false;
        while i < chars.len() {
            // The next word and the spaces after it.
            let start = i;
            while i < chars.len() && !chars[i].0.is_whitespace() {
                i += 1;
            }
            let word_end = i;
            while i < chars.len() && chars[i].0.is_whitespace() {
                i += 1;
            }
            let word_w: usize = chars[start..word_end]
                .iter()
                .map(|(c, _)| char_width(*c))
                .sum();
            if col > 0 && col + word_w > width {
                flush(&mut cur, cur_style, &mut line);
                self.finish(&mut line, &mut line_marked);
                col = 0;
            }
            for (k, &(c, si)) in chars[start..i].iter().enumerate() {
                let is_space = start + k >= word_end;
                let w = char_width(c);
                if col + w > width {
                    if is_space {
                        // Trailing spaces at a break are dropped.
                        continue;
                    }
                    flush(&mut cur, cur_style, &mut line);
                    self.finish(&mut line, &mut line_marked);
                    col = 0;
                }
                if col == 0 && is_space && emitted_any {
                    continue;
                }
                let st = segs[si].style;
                if st != cur_style {
                    flush(&mut cur, cur_style, &mut line);
                    cur_style = st;
                }
                cur.push(c);
                col += w;
                emitted_any = true;
                line_marked |= segs[si].mark;
            }
        }
        flush(&mut cur, cur_style, &mut line);
        self.finish(&mut line, &mut line_marked);
    }

    fn finish(&mut self, line: &mut Vec<Span<'static>>, marked: &mut bool) {
        if *marked && self.first_mark.is_none() {
            self.first_mark = Some(self.lines.len());
        }
        *marked = false;
        self.lines.push(Line::from(std::mem::take(line)));
    }

    /// Wrap text that may hold `\n` in one style.
    pub fn push_text(&mut self, text: &str, style: Style, width: usize) {
        for l in text.split('\n') {
            self.push(&[Seg::new(l, style)], width);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(w: &Wrapped) -> Vec<String> {
        w.lines
            .iter()
            .map(|l| l.to_string().trim_end().to_string())
            .collect()
    }

    #[test]
    fn wraps_on_words_and_tracks_marks() {
        let mut w = Wrapped::default();
        let segs = [
            Seg::new("the quick brown ", Style::default()),
            Seg::marked("fox jumps", Style::default()),
            Seg::new(" over", Style::default()),
        ];
        w.push(&segs, 10);
        assert_eq!(text(&w), ["the quick", "brown fox", "jumps over"]);
        assert_eq!(w.first_mark, Some(1));
        let mut w = Wrapped::default();
        w.push(&[Seg::new("abcdefghijkl", Style::default())], 5);
        assert_eq!(text(&w), ["abcde", "fghij", "kl"]);
        let mut w = Wrapped::default();
        w.push(&[Seg::new("", Style::default())], 5);
        assert_eq!(text(&w), [""]);
    }
}
