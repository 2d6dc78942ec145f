//! Recording a PDF page as pdf-extract draws it: the plain text as its
//! `PlainTextOutput` writes it, and the characters as [`Run`]s for the
//! reading order ([`super::layout`]). Characters are kept until the page
//! ends, since a box drawn later may hide them ([`super::cover`]); text too
//! small to see is dropped, and a digit raised right after a digit is read
//! as a superscript.

use super::cover;
use super::layout::Run;
use super::unseen::{Regions, Sign};
use pdf_extract::{
    ColorSpace, ConvertToFmt, MediaBox, OutputDev, OutputError, Path, PlainTextOutput, Transform,
};
use std::cell::RefCell;
use std::rc::Rc;

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
        /// How much of its height boxes drawn after it cover.
        covered: f64,
        /// Text that shows only on what lies under it
        /// ([`Sign::unless`]).
        unless: Option<Sign>,
    },
    BeginWord,
    EndWord,
    EndLine,
}

/// An `OutputDev` that writes `PlainTextOutput`'s text and records runs.
pub(crate) struct Recorder {
    drawn: Vec<Drawn>,
    /// Boxes that hide, each with how many things were drawn before it
    /// (it covers those only).
    boxes: Vec<(cover::Rect, usize)>,
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
    /// The sign of the text being drawn, when a reader may not see it
    /// ([`Sign::Unseen`], or one that shows only on what lies under it),
    /// and whether the page drew any.
    unseen: Option<Sign>,
    any_unseen: bool,
    /// Where the page painted what such text may show on.
    regions: Regions,
}

impl Recorder {
    pub fn new(text: Written) -> Self {
        Recorder {
            drawn: Vec::new(),
            boxes: Vec::new(),
            plain: PlainTextOutput::new(text),
            height: 0.0,
            page: (0.0, 0.0, 0.0, 0.0),
            runs: Vec::new(),
            first_char: false,
            last_end: 0.0,
            last_y: 0.0,
            base: None,
            after_digit: false,
            unseen: None,
            any_unseen: false,
            regions: Regions::default(),
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
        // Most pages draw no box over anything: nothing to work out.
        let boxes = std::mem::take(&mut self.boxes);
        // Text that shows only on what lies under it, and nothing shows
        // it: hidden as if a box covered it.
        let regions = std::mem::take(&mut self.regions);
        for (i, d) in self.drawn.iter_mut().enumerate() {
            if let Drawn::Char {
                trm,
                width,
                font_size,
                covered,
                unless: Some(sign),
                ..
            } = d
            {
                let (px, py) = (*width * *font_size / 2.0, 0.3 * *font_size);
                let at = (
                    px * trm.m11 + py * trm.m21 + trm.m31,
                    px * trm.m12 + py * trm.m22 + trm.m32,
                );
                if !regions.shows(*sign, at, i) {
                    *covered = f64::INFINITY;
                }
            }
        }
        let hidden = if boxes.is_empty() && !std::mem::take(&mut self.any_unseen) {
            vec![false; self.drawn.len()]
        } else {
            cover_characters(&mut self.drawn, &boxes);
            hidden_words(&self.drawn)
        };
        // Where boxes hide characters, a mark stands in their place, so the
        // words either side never read as one passage; so it does between
        // pieces drawn one after the other that the page does not show
        // side by side.
        let apart = false_joins(&self.drawn);
        let mut in_mark = false;
        for ((d, hide), apart) in std::mem::take(&mut self.drawn)
            .into_iter()
            .zip(hidden)
            .zip(apart)
        {
            if let (
                true,
                Drawn::Char {
                    trm,
                    width,
                    spacing,
                    font_size,
                    ..
                },
            ) = (apart, &d)
                && !in_mark
            {
                self.emit_character(trm, *width, *spacing, *font_size, "\u{FFFC}")?;
                in_mark = true;
            }
            match d {
                Drawn::Char {
                    trm,
                    width,
                    spacing,
                    font_size,
                    ..
                } if hide => {
                    if !in_mark {
                        self.emit_character(&trm, width, spacing, font_size, "\u{FFFC}")?;
                        in_mark = true;
                    }
                }
                Drawn::Char {
                    trm,
                    width,
                    spacing,
                    font_size,
                    text,
                    ..
                } => {
                    in_mark = false;
                    self.emit_character(&trm, width, spacing, font_size, &text)?
                }
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
            // Text no reader sees is hidden as if a box covered it.
            covered: if self.unseen == Some(Sign::Unseen) {
                f64::INFINITY
            } else {
                0.0
            },
            unless: self.unseen.filter(|s| s.unless()),
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
        let drawn = self.drawn.len();
        if let (ColorSpace::DeviceGray, [grey]) = (space, colour) {
            match Sign::of(*grey) {
                Some(Sign::End) => {
                    self.unseen = None;
                    return Ok(());
                }
                Some(s) if s == Sign::Unseen || s.unless() => {
                    (self.unseen, self.any_unseen) = (Some(s), true);
                    return Ok(());
                }
                Some(s) => {
                    self.regions.sign(s, ctm, path, drawn);
                    return Ok(());
                }
                None => {
                    if let Some((_, under)) = cover::fill_grey(*grey) {
                        self.regions.fill(under, ctm, path, drawn);
                    }
                }
            }
        }
        self.boxes.extend(
            cover::hiding_rects(ctm, space, colour, path)
                .into_iter()
                .map(|r| (r, drawn)),
        );
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

/// Where a mark goes before a character: it begins a piece of a line drawn
/// right after another piece of the same line that the page does not show
/// beside it — back to the left of it, or with a third piece of the line
/// between them ("…keeper was" and "guilty of neglect." drawn one after
/// the other, "not" drawn into the gap between them last). Drawing order
/// joins them; a reader does not.
fn false_joins(drawn: &[Drawn]) -> Vec<bool> {
    /// A run of characters drawn one after the other along one line.
    #[derive(Clone, Copy)]
    struct Piece {
        first: usize,
        left: f64,
        right: f64,
        baseline: f64,
        size: f64,
        blank: bool,
    }
    let mut pieces: Vec<Piece> = Vec::new();
    for (i, d) in drawn.iter().enumerate() {
        let Drawn::Char {
            trm,
            width,
            font_size,
            text,
            ..
        } = d
        else {
            continue;
        };
        let upright = trm.m12.abs() < 1e-6 && trm.m21.abs() < 1e-6 && trm.m11 > 0.0;
        let (x, y, size) = (trm.m31, trm.m32, glyph_size(trm, *font_size));
        if !upright || !x.is_finite() || !y.is_finite() || size.is_nan() || size <= 0.0 {
            continue;
        }
        let end = x + width * size;
        let blank = text.chars().all(char::is_whitespace);
        match pieces.last_mut() {
            Some(p)
                if (y - p.baseline).abs() <= 0.5 * size
                    && x >= p.right - size * BACK_EM
                    && x <= p.right + size * GAP_EM =>
            {
                p.right = p.right.max(end);
                p.blank &= blank;
            }
            _ => pieces.push(Piece {
                first: i,
                left: x,
                right: end,
                baseline: y,
                size,
                blank,
            }),
        }
    }
    let mut out = vec![false; drawn.len()];
    if pieces.len() < 2 {
        return out;
    }
    // The pieces of each row, by baseline.
    let mut by_y: Vec<usize> = (0..pieces.len()).collect();
    by_y.sort_by(|&a, &b| pieces[a].baseline.total_cmp(&pieces[b].baseline));
    let mut row_of = vec![0usize; pieces.len()];
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for &k in &by_y {
        match rows.last_mut() {
            Some(r)
                if (pieces[k].baseline - pieces[r[0]].baseline).abs()
                    <= 0.5 * pieces[r[0]].size =>
            {
                r.push(k)
            }
            _ => rows.push(vec![k]),
        }
        row_of[k] = rows.len() - 1;
    }
    for k in 1..pieces.len() {
        let (p, q) = (pieces[k - 1], pieces[k]);
        if row_of[k - 1] != row_of[k] || p.blank || q.blank {
            continue;
        }
        let slack = 0.1 * p.size.max(q.size);
        let back = q.right <= p.left + slack;
        let between = !back
            && rows[row_of[k]].iter().any(|&r| {
                let r = pieces[r];
                !r.blank
                    && r.first != p.first
                    && r.first != q.first
                    && r.left >= p.right - slack
                    && r.right <= q.left + slack
            });
        if back || between {
            out[q.first] = true;
        }
    }
    out
}

/// A glyph's size on the page, for an upright or turned character.
fn glyph_size(trm: &Transform, font_size: f64) -> f64 {
    font_size.abs() * trm.m11.hypot(trm.m12).max(trm.m21.hypot(trm.m22))
}

/// Add to each character what the boxes drawn after it cover of it. The
/// characters are sorted by where their middle is, so that each box meets
/// only those under its width (a page of a hundred thousand dots and
/// thousands of characters is quick).
fn cover_characters(drawn: &mut [Drawn], boxes: &[(cover::Rect, usize)]) {
    let mut middles: Vec<(f64, usize)> = drawn
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match d {
            Drawn::Char {
                trm,
                width,
                font_size,
                ..
            } => {
                let x = trm.m31 + width * glyph_size(trm, *font_size) / 2.0;
                x.is_finite().then_some((x, i))
            }
            _ => None,
        })
        .collect();
    middles.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (r, before) in boxes {
        let from = middles.partition_point(|m| m.0 < r.0);
        for &(_, i) in middles[from..].iter().take_while(|m| m.0 <= r.2) {
            if i >= *before {
                continue;
            }
            if let Drawn::Char {
                trm,
                width,
                font_size,
                covered,
                ..
            } = &mut drawn[i]
            {
                *covered += cover::covered(r, trm, *width, glyph_size(trm, *font_size));
            }
        }
    }
}

/// Which characters boxes hide: those covered over most of their line,
/// and the rest of any word one of them is in (a box over "un" of "unsafe"
/// leaves no "safe" as a word of its own).
fn hidden_words(drawn: &[Drawn]) -> Vec<bool> {
    let chars: Vec<Option<(&Transform, f64, f64, bool)>> = drawn
        .iter()
        .map(|d| match d {
            Drawn::Char {
                trm,
                width,
                font_size,
                text,
                covered,
                ..
            } => {
                let size = glyph_size(trm, *font_size);
                let blank = text.chars().all(char::is_whitespace);
                Some((
                    trm,
                    *width * size,
                    size,
                    !blank && *covered > 0.0 && *covered >= cover::HIDDEN * size,
                ))
            }
            _ => None,
        })
        .collect();
    let mut hidden: Vec<bool> = chars.iter().map(|c| c.is_some_and(|c| c.3)).collect();
    // Letters that touch on one baseline are one word.
    let touch = |a: usize, b: usize| -> bool {
        match (chars[a], chars[b]) {
            (Some((ta, wa, sa, _)), Some((tb, _, _, _))) => {
                let blank = |i: usize| match &drawn[i] {
                    Drawn::Char { text, .. } => text.chars().all(char::is_whitespace),
                    _ => true,
                };
                !blank(a)
                    && !blank(b)
                    && (ta.m32 - tb.m32).abs() < 0.3 * sa
                    && (tb.m31 - (ta.m31 + wa)).abs() < 0.15 * sa
            }
            _ => false,
        }
    };
    let idx: Vec<usize> = (0..drawn.len()).filter(|&i| chars[i].is_some()).collect();
    for pair in idx.windows(2) {
        if hidden[pair[0]] && touch(pair[0], pair[1]) {
            hidden[pair[1]] = true;
        }
    }
    for pair in idx.windows(2).rev() {
        if hidden[pair[1]] && touch(pair[0], pair[1]) {
            hidden[pair[0]] = true;
        }
    }
    hidden
}
