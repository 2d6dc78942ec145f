//! Reading order of a PDF page. pdf-extract hands over each character with
//! its position, in the order the content stream draws them; its
//! `PlainTextOutput` writes them in that order, which is the reading order of
//! most single-column pages and of many LaTeX papers — but not of a
//! two-column page whose stream draws the columns' lines alternately, or
//! draws headers, footnotes and figure labels wherever it likes.
//!
//! [`Recorder`] keeps both: the plain text exactly as `PlainTextOutput`
//! writes it, and the same characters as [`Run`]s (pieces of one line, with
//! their extent). [`two_columns`] looks for a column gutter — a vertical band
//! near the middle of the page that text on most lines does not cross — and,
//! when there is one, writes the page as full-width blocks (title, abstract,
//! a wide figure, a footer) in vertical order, with the left column's lines
//! and then the right column's lines between them. A page without a gutter
//! keeps the plain text, character for character.

use super::cover;
use pdf_extract::{
    ColorSpace, ConvertToFmt, MediaBox, OutputDev, OutputError, Path, PlainTextOutput, Transform,
};
use std::cell::RefCell;
use std::rc::Rc;

/// A run of text on one line, as the content stream draws it: broken where
/// `PlainTextOutput` would start a new line, and at a wide horizontal jump
/// (a gutter between columns, a gap between table cells).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Run {
    /// Left and right end, in PDF units.
    pub x0: f64,
    pub x1: f64,
    /// Baseline, from the top of the page down.
    pub y: f64,
    /// Font size on the page.
    pub size: f64,
    /// Its place in the stream.
    pub index: usize,
    /// Upright text (not rotated, as an arXiv stamp in the margin is).
    pub upright: bool,
    /// Where its last character ends, and that character's baseline.
    pub end: f64,
    pub end_y: f64,
    pub text: String,
}

/// A jump to the right wider than this many font sizes starts a new run:
/// wider than a stretched word space, narrower than a column gutter.
const GAP_EM: f64 = 1.2;
/// A jump back to the left on the same line of more than this starts one too.
const BACK_EM: f64 = 1.0;

/// The text `PlainTextOutput` writes, kept where the reader can take it
/// (the output owns its writer).
#[derive(Clone, Default)]
pub(crate) struct Written(Rc<RefCell<String>>);

impl Written {
    pub fn take(&self) -> String {
        std::mem::take(&mut self.0.borrow_mut())
    }
}

impl std::fmt::Write for Written {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.borrow_mut().push_str(s);
        Ok(())
    }
}

impl ConvertToFmt for Written {
    type Writer = Written;
    fn convert(self) -> Written {
        self
    }
}

/// What the content stream drew on the page, kept until the page ends: a
/// box drawn later may hide a character drawn before it ([`cover`]).
enum Drawn {
    Char {
        trm: Transform,
        width: f64,
        spacing: f64,
        font_size: f64,
        text: String,
        hidden: bool,
    },
    BeginWord,
    EndWord,
    EndLine,
}

/// An `OutputDev` that writes `PlainTextOutput`'s text and records runs.
pub(crate) struct Recorder {
    drawn: Vec<Drawn>,
    plain: PlainTextOutput<Written>,
    height: f64,
    /// The page's media box: left, bottom, right, top.
    pub page: (f64, f64, f64, f64),
    pub runs: Vec<Run>,
    first_char: bool,
    last_end: f64,
    last_y: f64,
    /// Baseline and size of the line's last character set on it (not
    /// raised or lowered): what a superscript is raised from.
    base: Option<(f64, f64)>,
    /// The last character was a digit (set on the line, or raised).
    after_digit: bool,
}

impl Recorder {
    pub fn new(text: Written) -> Self {
        Recorder {
            drawn: Vec::new(),
            plain: PlainTextOutput::new(text),
            height: 0.0,
            page: (0.0, 0.0, 0.0, 0.0),
            runs: Vec::new(),
            first_char: false,
            last_end: 0.0,
            last_y: 0.0,
            base: None,
            after_digit: false,
        }
    }
}

impl Recorder {
    /// A character as drawn, when nothing hid it.
    fn emit_character(
        &mut self,
        trm: &Transform,
        width: f64,
        spacing: f64,
        font_size: f64,
        char: &str,
    ) -> Result<(), OutputError> {
        // Position and size as PlainTextOutput reckons them (its y axis
        // flipped: from the top of the page down).
        let (x, y) = (trm.m31, self.height - trm.m32);
        let (vx, vy) = (
            font_size * (trm.m11 + trm.m21),
            font_size * (trm.m12 + trm.m22),
        );
        let size = (vx * vy).abs().sqrt();
        // Text set smaller than half a point no reader can see (a way to
        // plant words in a file): not read. Its glyphs' width and height
        // each count, however it is turned (a line squashed flat is no
        // more legible than a tiny one).
        let (wide, tall) = (
            font_size.abs() * trm.m11.hypot(trm.m12),
            font_size.abs() * trm.m21.hypot(trm.m22),
        );
        if wide.min(tall) < 0.5 {
            return Ok(());
        }
        let size = if size.is_finite() && size > 0.0 {
            size
        } else {
            1.0
        };
        let upright = trm.m12.abs() < 1e-6 && trm.m21.abs() < 1e-6 && trm.m11 > 0.0;
        // A digit set smaller and raised (or lowered) right after a digit
        // of the line, with no space between, is an exponent or a note
        // mark: "10⁶", "1811²", not the number "106" or "18112". (Other
        // raised characters stay as they are; none of them is the line's
        // base. A raised number after a word or a space, as most citation
        // marks are set, cannot run into a number and is read as it was.)
        let shift = self
            .base
            .filter(|_| upright && self.after_digit)
            .filter(|&(_, base_size)| {
                size < 0.85 * base_size && (x - self.last_end).abs() < 0.15 * base_size
            })
            .and_then(|(base_y, base_size)| {
                let rise = base_y - y;
                (rise.abs() > 0.15 * base_size).then_some(rise > 0.0)
            });
        let shifted = shift
            .filter(|_| {
                char.chars()
                    .all(|c| c.is_ascii_digit() || "+-−=".contains(c))
            })
            .and_then(|sup| crate::text::shifted(char, sup));
        let char = shifted.as_deref().unwrap_or(char);
        if shift.is_none() && upright {
            self.base = Some((y, size));
        }
        self.after_digit = shifted.is_some() || char.chars().all(|c| c.is_ascii_digit());
        self.plain
            .output_character(trm, width, spacing, font_size, char)?;
        if !x.is_finite() || !y.is_finite() {
            return Ok(());
        }
        let new_run = match self.runs.last() {
            None => true,
            Some(r) if self.first_char => {
                let dy = (y - self.last_y).abs();
                r.upright != upright
                    || dy > size * 1.5
                    || (x < self.last_end && dy > size * 0.5)
                    || x > self.last_end + size * GAP_EM
                    || x < self.last_end - size * BACK_EM
            }
            Some(_) => false,
        };
        if new_run {
            self.runs.push(Run {
                x0: x,
                x1: x,
                y,
                size,
                index: self.runs.len(),
                upright,
                end: x,
                end_y: y,
                text: String::new(),
            });
        }
        let space = self.first_char && !new_run && x > self.last_end + size * 0.1;
        let end = x + width * size;
        if let Some(r) = self.runs.last_mut() {
            if space {
                r.text.push(' ');
            }
            r.text.push_str(char);
            r.x0 = r.x0.min(x);
            r.x1 = r.x1.max(end);
            r.end = end;
            r.end_y = y;
        }
        self.first_char = false;
        self.last_y = y;
        self.last_end = end;
        Ok(())
    }
}

impl OutputDev for Recorder {
    fn begin_page(
        &mut self,
        page_num: u32,
        media_box: &MediaBox,
        art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        self.height = media_box.ury - media_box.lly;
        self.page = (media_box.llx, media_box.lly, media_box.urx, media_box.ury);
        self.plain.begin_page(page_num, media_box, art_box)
    }

    fn end_page(&mut self) -> Result<(), OutputError> {
        for d in std::mem::take(&mut self.drawn) {
            match d {
                Drawn::Char {
                    trm,
                    width,
                    spacing,
                    font_size,
                    text,
                    hidden: false,
                } => self.emit_character(&trm, width, spacing, font_size, &text)?,
                Drawn::Char { .. } => {}
                Drawn::BeginWord => {
                    self.first_char = true;
                    self.plain.begin_word()?
                }
                Drawn::EndWord => self.plain.end_word()?,
                Drawn::EndLine => self.plain.end_line()?,
            }
        }
        self.plain.end_page()
    }

    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        spacing: f64,
        font_size: f64,
        char: &str,
    ) -> Result<(), OutputError> {
        self.drawn.push(Drawn::Char {
            trm: *trm,
            width,
            spacing,
            font_size,
            text: char.to_string(),
            hidden: false,
        });
        Ok(())
    }

    fn fill(
        &mut self,
        ctm: &Transform,
        space: &ColorSpace,
        colour: &[f64],
        path: &Path,
    ) -> Result<(), OutputError> {
        for r in cover::hiding_rects(ctm, space, colour, path) {
            for d in &mut self.drawn {
                if let Drawn::Char {
                    trm,
                    width,
                    font_size,
                    hidden,
                    ..
                } = d
                {
                    let size = font_size.abs() * trm.m11.abs().max(trm.m22.abs());
                    *hidden |= cover::covers(&r, trm, *width, size);
                }
            }
        }
        Ok(())
    }

    fn begin_word(&mut self) -> Result<(), OutputError> {
        self.drawn.push(Drawn::BeginWord);
        Ok(())
    }

    fn end_word(&mut self) -> Result<(), OutputError> {
        self.drawn.push(Drawn::EndWord);
        Ok(())
    }

    fn end_line(&mut self) -> Result<(), OutputError> {
        self.drawn.push(Drawn::EndLine);
        Ok(())
    }
}

/// Fewest lines each column needs for the page to be read as two columns.
const MIN_COLUMN_LINES: usize = 5;

/// The page in reading order when it is laid out in two columns, None when
/// it is not (the stream's order is kept then).
/// `page`: the page's media box (left, bottom, right, top); text drawn
/// outside it (a figure's labels past the edge, clipped away) is left out
/// of the layout and written last.
/// A first page's title as a reader sees it: the upright text set in the
/// largest size in the top half of the page, in reading order, when that
/// size stands out from the body text (at least 1.3 times the size most
/// characters are set in) and it reads as a title (2 to 30 words).
pub(crate) fn display_title(runs: &[Run], page: (f64, f64, f64, f64)) -> Option<String> {
    let upright: Vec<&Run> = runs
        .iter()
        .filter(|r| r.upright && r.text.chars().any(char::is_alphanumeric))
        .collect();
    // The body size: the size at least half the characters are set in or under.
    let mut sizes: Vec<(f64, usize)> = upright
        .iter()
        .map(|r| (r.size, r.text.chars().count()))
        .collect();
    sizes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: usize = sizes.iter().map(|(_, n)| n).sum();
    let mut seen = 0;
    let body = sizes.iter().find_map(|(size, n)| {
        seen += n;
        (seen * 2 >= total).then_some(*size)
    })?;
    let half = (page.3 - page.1).abs() / 2.0;
    let top: Vec<&Run> = upright.into_iter().filter(|r| r.y <= half).collect();
    let max = top.iter().map(|r| r.size).fold(0.0, f64::max);
    if max < body * 1.3 {
        return None;
    }
    let mut lines: Vec<&Run> = top.into_iter().filter(|r| r.size >= max * 0.95).collect();
    lines.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x0.total_cmp(&b.x0)));
    // A line of names set in the title's size ("Ganesh V, Abinaya M, …")
    // ends the title.
    if let Some(at) = lines
        .iter()
        .position(|r| names_line(&r.text))
        .filter(|&at| at > 0)
    {
        let y = lines[at].y;
        lines.retain(|r| r.y < y - r.size * 0.5);
    }
    let text = lines
        .iter()
        .flat_map(|r| r.text.split_whitespace())
        .collect::<Vec<_>>()
        .join(" ");
    (2..=30)
        .contains(&text.split_whitespace().count())
        .then_some(text)
}

/// A list of people's names: at least three parts between commas (or
/// "and"), each of one to four words that all begin with a capital letter,
/// most of them of two words or more ("Ganesh V", not "Reasoning").
fn names_line(text: &str) -> bool {
    let parts: Vec<&str> = text
        .split([',', ';'])
        .flat_map(|p| p.split(" and "))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    parts.len() >= 3
        && parts.iter().filter(|p| p.contains(' ')).count() * 2 >= parts.len()
        && parts.iter().all(|p| {
            let words: Vec<&str> = p.split_whitespace().collect();
            (1..=4).contains(&words.len())
                && words
                    .iter()
                    .all(|w| w.chars().next().is_some_and(char::is_uppercase))
        })
}

pub(crate) fn two_columns(runs: &[Run], page: (f64, f64, f64, f64)) -> Option<String> {
    let (left, bottom, right, top) = page;
    let on_page = |r: &Run| {
        // Back from PlainTextOutput's flipped y to the page's own.
        let y = (top - bottom) - r.y;
        r.x0 >= left - 1.0 && r.x1 <= right + 1.0 && y >= bottom - 1.0 && y <= top + 1.0
    };
    let laid_out = |r: &Run| r.upright && on_page(r);
    let body: Vec<&Run> = runs
        .iter()
        .filter(|r| laid_out(r) && !r.text.trim().is_empty())
        .collect();
    if body.len() < 2 * MIN_COLUMN_LINES {
        return None;
    }
    let xmin = body.iter().map(|r| r.x0).fold(f64::INFINITY, f64::min);
    let xmax = body.iter().map(|r| r.x1).fold(f64::NEG_INFINITY, f64::max);
    let width = xmax - xmin;
    if !(100.0..=100_000.0).contains(&width) {
        return None;
    }
    // How many runs cross each vertical line x = xmin + i (1 pt of slack
    // at either end of a run).
    let n = width.ceil() as usize + 2;
    let mut diff = vec![0i64; n + 1];
    for r in &body {
        let lo = (r.x0 - xmin + 1.0).ceil().max(0.0) as usize;
        let hi = (r.x1 - xmin - 1.0).floor();
        if hi >= lo as f64 {
            let hi = (hi as usize).min(n - 1);
            diff[lo.min(n)] += 1;
            diff[hi + 1] -= 1;
        }
    }
    let mut cover = Vec::with_capacity(n);
    let mut c = 0i64;
    for d in &diff[..n] {
        c += d;
        cover.push(c);
    }
    // The gutter: the widest band, in the middle 40 % of the text's width,
    // that the fewest runs cross.
    let (from, to) = ((0.3 * width) as usize, (0.7 * width) as usize);
    let least = *cover[from..=to].iter().min()?;
    let (mut best, mut start) = ((0, 0), None);
    // One position past the band closes a stretch that reaches its end.
    let marks = cover[from..=to].iter().map(|c| *c == least).chain([false]);
    for (i, inside) in (from..).zip(marks) {
        match (inside, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                if i - s > best.1 - best.0 {
                    best = (s, i);
                }
                start = None;
            }
            _ => {}
        }
    }
    if best.1 - best.0 < 3 {
        return None;
    }
    let g = xmin + (best.0 + best.1) as f64 / 2.0;
    let (left_w, right_w) = (g - xmin, xmax - g);
    let side = |r: &Run| -> Side {
        if r.x0 < g - 1.0 && r.x1 > g + 1.0 {
            // Reaching a quarter of a column into both: full-width text.
            if g - r.x0 >= 0.25 * left_w && r.x1 - g >= 0.25 * right_w {
                return Side::Across;
            }
        }
        // A narrow run across the gutter (a centred page number, a short
        // label) belongs with the side holding most of it.
        if (r.x0 + r.x1) / 2.0 < g {
            Side::Left
        } else {
            Side::Right
        }
    };
    // A column's line of body text runs over most of the column's width.
    let long = |r: &Run| match side(r) {
        Side::Left => r.x1 - r.x0 >= LONG * left_w,
        Side::Right => r.x1 - r.x0 >= LONG * right_w,
        Side::Across => false,
    };
    // The page's rows: runs at one baseline, across the whole width.
    let rows = rows(body);
    let kinds: Vec<Kind> = rows
        .iter()
        .map(|row| {
            if row.iter().any(|r| side(r) == Side::Across) {
                Kind::Full
            } else if row.iter().any(|r| long(r)) {
                Kind::Columns
            } else {
                Kind::Short
            }
        })
        .collect();
    // Two columns of body text side by side: enough long lines on each
    // side, over heights that overlap by half the shorter column, and
    // fewer full-width rows than rows of columns.
    let ys = |s: Side| -> Vec<f64> {
        rows.iter()
            .flatten()
            .filter(|r| side(r) == s && long(r))
            .map(|r| r.y)
            .collect()
    };
    let (ly, ry) = (ys(Side::Left), ys(Side::Right));
    if ly.len() < MIN_COLUMN_LINES || ry.len() < MIN_COLUMN_LINES {
        return None;
    }
    let span = |v: &[f64]| {
        (
            v.iter().copied().fold(f64::INFINITY, f64::min),
            v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    };
    let ((lt, lb), (rt, rb)) = (span(&ly), span(&ry));
    if lb.min(rb) - lt.max(rt) < 0.5 * (lb - lt).min(rb - rt) {
        return None;
    }
    let count = |k: Kind| kinds.iter().filter(|x| **x == k).count();
    if count(Kind::Full) >= count(Kind::Columns) {
        return None;
    }
    let kinds = settle(&rows, kinds);
    // Rows in vertical order: a full-width row as it is; a stretch of rows
    // of columns as the left column's lines, then the right column's.
    let mut out = String::new();
    // Each stretch is written in the order of the stream, with
    // PlainTextOutput's breaks between its runs; a stretch starts with a
    // blank line (split_paragraphs rejoins a sentence that runs on).
    let crosses_gutter = |a: &Run, b: &Run| {
        let (sa, sb) = (side(a), side(b));
        sa != sb && sa != Side::Across && sb != Side::Across
    };
    let emit = |part: Vec<&Run>, out: &mut String| {
        let mut last: Option<&Run> = None;
        for r in part {
            match last {
                None if !out.is_empty() => out.push_str("\n\n"),
                None => {}
                // Pieces on either side of the gutter in a full-width
                // stretch (a footnote beside a column's last line) are
                // not one line.
                Some(a) => match separator(a, r) {
                    "" | " " if crosses_gutter(a, r) => out.push('\n'),
                    sep => out.push_str(sep),
                },
            }
            out.push_str(&r.text);
            last = Some(r);
        }
    };
    let mut i = 0;
    while i < rows.len() {
        let columns = kinds[i] == Kind::Columns;
        let end = (i..rows.len())
            .find(|&j| (kinds[j] == Kind::Columns) != columns)
            .unwrap_or(rows.len());
        let stretch = rows[i..end].iter();
        if columns {
            for s in [Side::Left, Side::Right] {
                let mut part: Vec<&Run> = stretch
                    .clone()
                    .flatten()
                    .copied()
                    .filter(|r| side(r) == s)
                    .collect();
                part.sort_by_key(|r| r.index);
                emit(part, &mut out);
            }
        } else {
            // Full width (a figure, a table, a title block): as drawn.
            let mut part: Vec<&Run> = stretch.flatten().copied().collect();
            part.sort_by_key(|r| r.index);
            emit(part, &mut out);
        }
        i = end;
    }
    // Text set at an angle (a stamp in the margin) or off the page last,
    // as drawn.
    for t in runs
        .iter()
        .filter(|r| !laid_out(r) && !r.text.trim().is_empty())
    {
        out.push_str("\n\n");
        out.push_str(&t.text);
    }
    Some(out)
}

/// What PlainTextOutput writes between two runs it draws one after the
/// other: a line break when the next goes down more than one and a half
/// font sizes, another when it goes back left and down half of one (a
/// blank line between paragraphs), a space when it moves right.
fn separator(a: &Run, b: &Run) -> &'static str {
    let dy = (b.y - a.end_y).abs();
    let down = dy > 1.5 * b.size;
    let back = b.x0 < a.end && dy > 0.5 * b.size;
    match (down, back) {
        (true, true) => "\n\n",
        (true, false) | (false, true) => "\n",
        (false, false) if b.x0 > a.end + 0.1 * b.size && !a.text.ends_with(' ') => " ",
        (false, false) => "",
    }
}

/// A body-text line runs over at least this share of its column's width.
const LONG: f64 = 0.7;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
    Across,
}

/// What a row of the page is: full-width text, a row of the two columns,
/// or short pieces only (a heading, a paragraph's last line, an equation,
/// a table row, a figure's labels, a running head) — settled by [`settle`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Full,
    Columns,
    Short,
}

/// A stretch of short rows belongs to the columns when it lies between
/// rows of columns (a heading, the last lines of paragraphs, an equation,
/// a table or figure in one column — a float across the page has a
/// caption across the gutter), or ends a stretch of them without a gap (up
/// to two rows, within three font sizes: the last line of a paragraph, a
/// heading above the first line); otherwise it is full-width (a table or
/// figure below a caption across the page, a running head, a footer).
fn settle(rows: &[Vec<&Run>], mut kinds: Vec<Kind>) -> Vec<Kind> {
    // The first or last row of the page, set apart from the next by more
    // than two and a half font sizes (a running head, a footer with the
    // page number), is full-width whatever it holds.
    let size = |row: &[&Run]| row.iter().map(|r| r.size).fold(0.0, f64::max);
    let n = rows.len();
    if n >= 2 && rows[1][0].y - rows[0][0].y > 2.5 * size(&rows[0]) {
        kinds[0] = Kind::Full;
    }
    if n >= 2 && rows[n - 1][0].y - rows[n - 2][0].y > 2.5 * size(&rows[n - 1]) {
        kinds[n - 1] = Kind::Full;
    }
    let mut i = 0;
    while i < kinds.len() {
        if kinds[i] != Kind::Short {
            i += 1;
            continue;
        }
        let end = (i..kinds.len())
            .find(|&j| kinds[j] != Kind::Short)
            .unwrap_or(kinds.len());
        let n = end - i;
        let above = i > 0 && kinds[i - 1] == Kind::Columns;
        let below = end < kinds.len() && kinds[end] == Kind::Columns;
        let near = |a: &[&Run], b: &[&Run]| {
            let size = a.iter().chain(b).map(|r| r.size).fold(0.0, f64::max);
            (b[0].y - a[0].y).abs() <= 3.0 * size
        };
        // Every row within three font sizes of the one before, from the
        // columns' row above to the last of the stretch: the columns run
        // on without a gap, as a column's last line does beside a
        // copyright box at the foot of the other.
        let unbroken = |from: usize, to: usize| (from..to).all(|j| near(&rows[j], &rows[j + 1]));
        let columns = (above && below)
            || (n <= 2
                && ((above && near(&rows[i - 1], &rows[i]))
                    || (below && near(&rows[end - 1], &rows[end]))))
            || (above && unbroken(i - 1, end - 1));
        let kind = if columns { Kind::Columns } else { Kind::Full };
        kinds[i..end].fill(kind);
        i = end;
    }
    kinds
}

/// Runs grouped into rows (baselines within half a font size), top down.
fn rows(mut runs: Vec<&Run>) -> Vec<Vec<&Run>> {
    runs.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x0.total_cmp(&b.x0)));
    let mut rows: Vec<Vec<&Run>> = Vec::new();
    for r in runs {
        match rows.last_mut() {
            Some(g) if (r.y - g[0].y).abs() <= 0.5 * g[0].size.max(r.size) => g.push(r),
            _ => rows.push(vec![r]),
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lines_are_lists_of_names() {
        assert!(names_line(
            " Ganesh V, Aishwaryalakshmi S, Aksshaya K, Abinaya M "
        ));
        assert!(names_line("Ada Keeper, Grace Darling and Tom Smith"));
        assert!(!names_line("Learning, Reasoning, and Acting"));
        assert!(!names_line(
            "Predicting Employee Attrition Using Machine Learning"
        ));
        assert!(!names_line("cats, dogs, and other animals"));
    }
}
