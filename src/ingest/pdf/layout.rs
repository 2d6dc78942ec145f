//! Reading order of a PDF page. pdf-extract hands over each character with
//! its position, in the order the content stream draws them; its
//! `PlainTextOutput` writes them in that order, which is the reading order of
//! most single-column pages and of many LaTeX papers — but not of a
//! two-column page whose stream draws the columns' lines alternately, or
//! draws headers, footnotes and figure labels wherever it likes.
//!
//! [`super::recorder::Recorder`] keeps both: the plain text exactly as
//! `PlainTextOutput` writes it, and the same characters as [`Run`]s (pieces of one line, with
//! their extent). [`two_columns`] looks for a column gutter — a vertical band
//! near the middle of the page that text on most lines does not cross — and,
//! when there is one, writes the page as full-width blocks (title, abstract,
//! a wide figure, a footer) in vertical order, with the left column's lines
//! and then the right column's lines between them. A page without a gutter
//! keeps the plain text, character for character.

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
