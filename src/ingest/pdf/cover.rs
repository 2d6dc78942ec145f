//! Text a box is drawn over: a black bar over words (a redaction done by
//! drawing, not by removing the text) or a white one (a whiteout). The
//! words are still in the file, and a reader of the page does not see them.
//!
//! A filled box hides a character drawn *before* it when it covers the
//! middle of the character over at least the height of a small letter,
//! and it is opaque: whatever its colour, the page shows the box. A thin
//! bar (an underline, a table rule, a line struck through words) hides
//! nothing; neither does a translucent or soft-masked box, nor a box
//! mixed with the page (a highlighter multiplies with it: the reader sees
//! the text through it) unless the mix leaves it as it is (black
//! multiplied, white screened), nor a box drawn before the text (a
//! background).
//!
//! pdf-extract reports fills in drawing order but does not follow the
//! usual colour operators (`g`, `rg`, `k`) nor transparency, so
//! [`mark_fills`] first rewrites each page's content: before every fill
//! it sets a colour that says whether the fill hides ([`HIDES`] grey) or
//! not, and it makes every kind of fill one pdf-extract reports.

use super::layers::deref;
use super::unseen::{
    Named, Sign, Space, Under, XObject, invisible_text, may_draw_unseen_text, sign, sign_path,
    unit_square,
};
use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Object, ObjectId};
use pdf_extract::{ColorSpace, Path, PathOp, Transform};

/// The grey set before a fill that hides; any other fill gets [`SHOWS`].
/// Each has a second grey that says what the fill leaves under white text
/// drawn on it later ([`Under`]): a dark fill that hides is [`HIDES`], a
/// light one [`HIDES_LIGHT`]; one that does not hide is dark
/// ([`SHOWS_DARK`]), of a look not known ([`SHOWS_LIGHT`]) or clear.
pub(super) const HIDES: f64 = 0.0;
const HIDES_LIGHT: f64 = 0.0625;
const SHOWS: f64 = 0.5;
const SHOWS_DARK: f64 = 0.5625;
const SHOWS_LIGHT: f64 = 0.625;

/// Does a fill in this grey hide (see [`set_grey`]), and what does it
/// leave under text drawn on it later? `None`: no fill [`marked`] set.
pub(super) fn fill_grey(grey: f64) -> Option<(bool, Under)> {
    [
        (HIDES, (true, Under::Dark)),
        (HIDES_LIGHT, (true, Under::Light)),
        (SHOWS, (false, Under::Clear)),
        (SHOWS_DARK, (false, Under::Dark)),
        (SHOWS_LIGHT, (false, Under::Light)),
    ]
    .into_iter()
    .find(|g| g.0 == grey)
    .map(|g| g.1)
}

/// Rewrite the content of every page that fills a shape after drawing
/// text, so that each fill carries whether it hides (see the module).
/// Forms are left as they are: pdf-extract draws a form without the
/// page's transformation, so where its box falls is not known.
pub(super) fn mark_fills(doc: &mut Document) {
    let pages: Vec<ObjectId> = doc.get_pages().into_values().collect();
    for page in pages {
        let Ok(bytes) = doc.get_page_content(page) else {
            continue;
        };
        let Ok(content) = Content::decode(&bytes) else {
            continue;
        };
        // No fill after text: nothing to hide, the content stays as it is.
        let ops = &content.operations;
        let Some(text) = ops.iter().position(|o| o.operator == "BT") else {
            continue;
        };
        let fill_after = ops[text..]
            .iter()
            .any(|o| is_fill(&o.operator) || matches!(o.operator.as_str(), "S" | "s"));
        let boxes = super::annots::annotation_boxes(doc, page);
        let unseen = may_draw_unseen_text(ops);
        if !fill_after && boxes.is_empty() && !unseen {
            continue;
        }
        let named = Named::of(doc, &super::layers::page_resources(doc, page));
        let mut ops = marked(content.operations, &named);
        // Rewritten for unseen text alone, but none is: left as it was.
        let signed = || {
            ops.iter().any(|o| {
                o.operator == "sc"
                    && o.operands
                        .first()
                        .and_then(|g| g.as_float().ok())
                        .is_some_and(|g| {
                            Sign::of(f64::from(g)).is_some_and(|s| s == Sign::Unseen || s.unless())
                        })
            })
        };
        if !fill_after && boxes.is_empty() && !signed() {
            continue;
        }
        // The page's boxes drawn last, on the page as it was at the start.
        if !boxes.is_empty() {
            ops.insert(0, Operation::new("q", Vec::new()));
            ops.push(Operation::new("Q", Vec::new()));
            for [x0, y0, x1, y1] in boxes {
                set_grey(&mut ops, true, Under::Light);
                let r = [x0, y0, x1 - x0, y1 - y0];
                ops.push(Operation::new(
                    "re",
                    r.iter().map(|v| Object::Real(*v as f32)).collect(),
                ));
                ops.push(Operation::new("f", Vec::new()));
            }
        }
        // A stream of its own: pages may share one, and not their boxes.
        if let Ok(encoded) = (Content { operations: ops }).encode() {
            let stream = doc.add_object(lopdf::Stream::new(lopdf::Dictionary::new(), encoded));
            if let Ok(p) = doc.get_dictionary_mut(page) {
                p.set("Contents", stream);
            }
        }
    }
}

/// A device grey, RGB or CMYK colour too light to see on white paper.
pub(super) fn white(c: &[f64]) -> bool {
    luminance(c).is_some_and(|l| l >= 0.97)
}

/// Set the grey a fill carries: [`HIDES`] or [`SHOWS`], or one of their
/// second greys by what it leaves `under` (see [`fill_grey`]).
fn set_grey(out: &mut Vec<Operation>, hiding: bool, under: Under) {
    let grey = match (hiding, under) {
        (true, Under::Dark) => HIDES,
        (true, _) => HIDES_LIGHT,
        (false, Under::Dark) => SHOWS_DARK,
        (false, Under::Light) => SHOWS_LIGHT,
        (false, Under::Clear) => SHOWS,
    };
    out.push(Operation::new(
        "cs",
        vec![Object::Name(b"DeviceGray".to_vec())],
    ));
    out.push(Operation::new("sc", vec![Object::Real(grey as f32)]));
}

/// How a graphics state mixes what it paints with the page.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Blend {
    Normal,
    /// Multiply, Darken: a black box stays black.
    Darkens,
    /// Screen, Lighten: a white box stays white.
    Lightens,
    /// HardLight: a black box stays black, a white one white.
    Keeps,
    /// Any other mix, or a soft mask: how much shows is not known.
    Mixes,
}

/// What a named graphics state (`/GS1 gs`) sets; `None` for what it leaves
/// as it was.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct GState {
    fill_alpha: Option<f64>,
    stroke_alpha: Option<f64>,
    blend: Option<Blend>,
    /// The line width it sets (`/LW`).
    width: Option<f64>,
}

/// The graphics states these resources name.
pub(super) fn gstates(doc: &Document, resources: &[&Dictionary]) -> Vec<(Vec<u8>, GState)> {
    fn dict<'a>(doc: &'a Document, o: &'a Object) -> Option<&'a Dictionary> {
        deref(doc, o).as_dict().ok()
    }
    let mut out = Vec::new();
    for res in resources {
        let Some(states) = res.get(b"ExtGState").ok().and_then(|o| dict(doc, o)) else {
            continue;
        };
        for (name, o) in states.iter() {
            let Some(state) = dict(doc, o) else {
                continue;
            };
            let alpha = |key: &[u8]| {
                state
                    .get(key)
                    .ok()
                    .and_then(|v| deref(doc, v).as_float().ok())
                    .map(f64::from)
            };
            // A blend mode's name, or the first of an array of them.
            let mode = state
                .get(b"BM")
                .ok()
                .map(|bm| deref(doc, bm))
                .and_then(|bm| match bm {
                    Object::Name(n) => Some(n.clone()),
                    Object::Array(a) => {
                        a.first().and_then(|n| n.as_name().ok()).map(<[u8]>::to_vec)
                    }
                    _ => None,
                });
            let mut blend = mode.map(|n| match n.as_slice() {
                b"Normal" | b"Compatible" => Blend::Normal,
                b"Multiply" | b"Darken" => Blend::Darkens,
                b"Screen" | b"Lighten" => Blend::Lightens,
                // Black keeps its luminosity black, white white.
                b"HardLight" | b"Luminosity" => Blend::Keeps,
                _ => Blend::Mixes,
            });
            let masked = state
                .get(b"SMask")
                .ok()
                .map(|m| m.as_name().map_or(true, |n| n != b"None"));
            match masked {
                Some(true) => blend = Some(Blend::Mixes),
                // `/SMask /None` ends a mask: the mode set, or normal.
                Some(false) if blend.is_none() => blend = Some(Blend::Normal),
                _ => {}
            }
            out.push((
                name.clone(),
                GState {
                    fill_alpha: alpha(b"ca"),
                    stroke_alpha: alpha(b"CA"),
                    blend,
                    width: alpha(b"LW").map(f64::abs),
                },
            ));
        }
    }
    out
}

/// The operations with a grey set before each fill: [`HIDES`] when the
/// fill hides what is under it (see [`hides`]), [`SHOWS`] otherwise. A
/// path stroked thick (two units or more) that hides is a bar too: a
/// hiding box is filled over each of its straight segments across or
/// down the page.
///
/// It also leaves the signs [`super::unseen`] reads: around text a reader
/// may not see, and where pictures, paint whose look is not known and
/// clips lie.
pub(super) fn marked(ops: Vec<Operation>, named: &Named) -> Vec<Operation> {
    let states = &named.states;
    let num = |o: &Object| o.as_float().map(f64::from).ok();
    // The fill and stroke luminance (None: a pattern, whose look is not
    // known) and opacity, the blend mode and the line width.
    #[derive(Clone, Copy)]
    struct State {
        fill: (Option<f64>, f64),
        stroke: (Option<f64>, f64),
        blend: Blend,
        width: f64,
        /// How much the transformation scales a line's width.
        scale: f64,
        /// The text rendering mode (`Tr`), and whether the fill and the
        /// stroke colour are white (`1 g`, `1 1 1 rg`, `/DeviceRGB cs 1 1 1
        /// sc`), in the fill and stroke colour spaces.
        mode: u8,
        white: (bool, bool),
        space: (Space, Space),
    }
    // Does paint of this luminance and opacity hide what is under it?
    let hides = |(lum, alpha): (Option<f64>, f64), blend: Blend| {
        alpha >= 0.9
            && lum.is_some_and(|l| match blend {
                Blend::Normal => true,
                Blend::Darkens => l <= 0.05,
                Blend::Lightens => l >= 0.95,
                Blend::Keeps => !(0.05..0.95).contains(&l),
                Blend::Mixes => false,
            })
    };
    let mut state = State {
        fill: (Some(0.0), 1.0),
        stroke: (Some(0.0), 1.0),
        blend: Blend::Normal,
        width: 1.0,
        scale: 1.0,
        mode: 0,
        white: (false, false),
        space: (Space::Device, Space::Device),
    };
    // What a fill of the current colour leaves under text drawn on it.
    let under = |s: &State| match s.fill {
        (_, a) if a < 0.05 => Under::Clear,
        (Some(l), a) if s.blend != Blend::Mixes => {
            if s.blend == Blend::Lightens || a * l + (1.0 - a) >= 0.9 {
                if hides(s.fill, s.blend) {
                    Under::Light
                } else {
                    Under::Clear
                }
            } else {
                Under::Dark
            }
        }
        _ => Under::Light,
    };
    // A colour's luminance and whether it is white: device operators, or
    // `sc` in the space set (one not known: guessed, never white).
    let colour = |space: Space, nums: &[f64]| match space.luminance(nums) {
        Some(l) => (Some(l), l >= 0.97),
        None => (luminance(nums), false),
    };
    let mut saved = Vec::new();
    // The path being built, as built (a clip's is signed once it is set).
    let mut path: Vec<Operation> = Vec::new();
    let mut clipping = false;
    // The straight segments of the path being built, the current point and
    // the start of its subpath.
    let mut segments: Vec<((f64, f64), (f64, f64))> = Vec::new();
    let mut current = (0.0, 0.0);
    let mut start = (0.0, 0.0);
    let mut out = Vec::with_capacity(ops.len() + 8);
    for op in ops {
        let nums: Vec<f64> = op.operands.iter().filter_map(num).collect();
        let name = op.operands.first().and_then(|n| n.as_name().ok());
        if matches!(
            op.operator.as_str(),
            "m" | "l" | "c" | "v" | "y" | "re" | "h"
        ) {
            path.push(op.clone());
        }
        match (op.operator.as_str(), nums.as_slice()) {
            ("q", _) => {
                saved.push(state);
                out.push(op);
                sign(&mut out, Sign::Save);
                continue;
            }
            ("Q", _) => {
                state = saved.pop().unwrap_or(state);
                out.push(op);
                sign(&mut out, Sign::Restore);
                continue;
            }
            ("g" | "rg" | "k", _) => {
                state.space.0 = Space::Device;
                (state.fill.0, state.white.0) = colour(Space::Device, &nums);
            }
            ("sc" | "scn", _) => (state.fill.0, state.white.0) = colour(state.space.0, &nums),
            ("G" | "RG" | "K", _) => {
                state.space.1 = Space::Device;
                (state.stroke.0, state.white.1) = colour(Space::Device, &nums);
            }
            ("SC" | "SCN", _) => (state.stroke.0, state.white.1) = colour(state.space.1, &nums),
            // A space's first colour is black (or full ink).
            ("cs", _) => {
                state.space.0 = name.map_or(Space::Unknown, |n| named.space(n));
                (state.fill.0, state.white.0) = (Some(0.0), false);
            }
            ("CS", _) => {
                state.space.1 = name.map_or(Space::Unknown, |n| named.space(n));
                (state.stroke.0, state.white.1) = (Some(0.0), false);
            }
            ("Tr", &[m]) => state.mode = if (0.0..=7.0).contains(&m) { m as u8 } else { 0 },
            // An inline image: its sign (below), and the image left out
            // (pdf-extract draws no image, and lopdf writes one back as no
            // content stream can read it).
            ("BI", _) => {
                if state.fill.1 >= 0.05 {
                    let s = if state.blend == Blend::Mixes {
                        Sign::Unknown
                    } else {
                        Sign::Picture
                    };
                    sign_path(&mut out, s, unit_square());
                }
                continue;
            }
            // A picture's box, for the text over it; one whose look is
            // not known (masked, mixed with the page) shows nothing known.
            ("Do", _) if state.fill.1 >= 0.05 => {
                let found = named
                    .xobjects
                    .iter()
                    .find(|(n, _)| Some(n.as_slice()) == name);
                match found.map(|x| &x.1) {
                    Some(XObject::Image { masked: false }) if state.blend != Blend::Mixes => {
                        sign_path(&mut out, Sign::Picture, unit_square())
                    }
                    Some(XObject::Image { .. }) => {
                        sign_path(&mut out, Sign::Unknown, unit_square())
                    }
                    Some(XObject::Form { bbox, matrix }) => {
                        let reals = |v: &[f64]| v.iter().map(|x| Object::Real(*x as f32)).collect();
                        let [x0, y0, x1, y1] = *bbox;
                        out.push(Operation::new("q", Vec::new()));
                        out.push(Operation::new("cm", reals(matrix)));
                        let rect = Operation::new("re", reals(&[x0, y0, x1 - x0, y1 - y0]));
                        sign_path(&mut out, Sign::Unknown, vec![rect]);
                        out.push(Operation::new("Q", Vec::new()));
                    }
                    _ => {}
                }
            }
            // A shading paints all the clip, in colours not looked at.
            ("sh", _) => sign(&mut out, Sign::Unknown),
            ("W" | "W*", _) => clipping = true,
            ("Tj" | "TJ" | "'" | "\"", _) => {
                if let Some(s) = invisible_text(
                    state.mode,
                    (state.white.0, state.fill.1),
                    (state.white.1, state.stroke.1),
                ) {
                    sign(&mut out, s);
                    out.push(op);
                    sign(&mut out, Sign::End);
                    continue;
                }
            }
            ("w", _) => state.width = nums.first().copied().unwrap_or(1.0).abs(),
            ("cm", &[a, b, c, d, _, _]) => {
                let det = (a * d - b * c).abs().sqrt();
                if det.is_finite() {
                    state.scale *= det;
                }
            }
            ("gs", _) => {
                let name = op.operands.first().and_then(|n| n.as_name().ok());
                if let Some((_, g)) = states.iter().find(|(n, _)| Some(n.as_slice()) == name) {
                    state.fill.1 = g.fill_alpha.unwrap_or(state.fill.1);
                    state.stroke.1 = g.stroke_alpha.unwrap_or(state.stroke.1);
                    state.blend = g.blend.unwrap_or(state.blend);
                    state.width = g.width.unwrap_or(state.width);
                }
            }
            ("m", &[x, y]) => {
                current = (x, y);
                start = (x, y);
            }
            ("l", &[x, y]) => {
                segments.push((current, (x, y)));
                current = (x, y);
            }
            ("re", &[x, y, w, h]) => {
                let corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)];
                for k in 0..4 {
                    segments.push((corners[k], corners[(k + 1) % 4]));
                }
                current = (x, y);
                start = (x, y);
            }
            // A curve drawn straight (its control points on its chord).
            ("c" | "v" | "y", _) if nums.len() >= 4 => {
                let end = (nums[nums.len() - 2], nums[nums.len() - 1]);
                let controls: Vec<(f64, f64)> = nums[..nums.len() - 2]
                    .chunks(2)
                    .map(|c| (c[0], c[1]))
                    .collect();
                let on_chord = |p: &(f64, f64)| {
                    (p.0 - current.0).abs() < 1e-6 && (end.0 - current.0).abs() < 1e-6
                        || (p.1 - current.1).abs() < 1e-6 && (end.1 - current.1).abs() < 1e-6
                };
                if controls.iter().all(on_chord) {
                    segments.push((current, end));
                }
                current = end;
            }
            ("h", _) => {
                segments.push((current, start));
                current = start;
            }
            // Stroked (`S`, `s`), or filled and stroked (`B`, `b`): a thick
            // outline that hides is a bar over each straight segment; a
            // path closed by the operator (`s`, `b`) has its last one.
            ("S" | "s" | "B" | "B*" | "b" | "b*", _) => {
                if op.operator.starts_with(['s', 'b']) {
                    segments.push((current, start));
                }
                // The path itself first: filled (`B`, `b`), or ended
                // unpainted (a stroke hides nothing of its inside).
                if op.operator.starts_with(['B', 'b']) {
                    set_grey(&mut out, hides(state.fill, state.blend), under(&state));
                    out.push(Operation::new("f", Vec::new()));
                } else {
                    out.push(Operation::new("n", Vec::new()));
                }
                if state.width * state.scale >= 2.0 && hides(state.stroke, state.blend) {
                    for bar in segments.iter().filter_map(|&(a, b)| bar(a, b, state.width)) {
                        set_grey(&mut out, true, Under::Light);
                        out.push(Operation::new(
                            "re",
                            bar.iter().map(|v| Object::Real(*v as f32)).collect(),
                        ));
                        out.push(Operation::new("f", Vec::new()));
                    }
                }
                segments.clear();
                end_path(&mut out, &mut path, &mut clipping);
                continue;
            }
            (f, _) if is_fill(f) => {
                set_grey(&mut out, hides(state.fill, state.blend), under(&state));
                out.push(Operation::new("f", Vec::new()));
                segments.clear();
                end_path(&mut out, &mut path, &mut clipping);
                continue;
            }
            ("n", _) => {
                segments.clear();
                out.push(op);
                end_path(&mut out, &mut path, &mut clipping);
                continue;
            }
            _ => {}
        }
        out.push(op);
    }
    out
}

/// A path is painted (or ended): if it was made a clip, the sign of the
/// clip, its path drawn again.
fn end_path(out: &mut Vec<Operation>, path: &mut Vec<Operation>, clipping: &mut bool) {
    if std::mem::take(clipping) {
        sign_path(out, Sign::Clip, std::mem::take(path));
    }
    path.clear();
}

/// The box (left, bottom, width, height) a segment from `a` to `b`
/// stroked `width` wide covers, when it runs across or down the page.
fn bar(a: (f64, f64), b: (f64, f64), width: f64) -> Option<[f64; 4]> {
    let ((x1, y1), (x2, y2)) = (a, b);
    let half = width / 2.0;
    if (y1 - y2).abs() < 1e-6 {
        Some([x1.min(x2), y1 - half, (x1 - x2).abs(), width])
    } else if (x1 - x2).abs() < 1e-6 {
        Some([x1 - half, y1.min(y2), width, (y1 - y2).abs()])
    } else {
        None
    }
}

/// Operators that fill the current path.
fn is_fill(op: &str) -> bool {
    matches!(op, "f" | "F" | "f*" | "B" | "B*" | "b" | "b*")
}

/// Do these components give a colour (grey, RGB, CMYK or one ink), not a
/// pattern, whose look is not known?
pub(super) fn colour(c: &[f64]) -> bool {
    (1..=4).contains(&c.len())
}

/// The luminance of a grey (or one ink's tint), RGB or CMYK colour given
/// by its components; `None` for a pattern.
pub(super) fn luminance(c: &[f64]) -> Option<f64> {
    let rgb = |r: f64, g: f64, b: f64| 0.2126 * r + 0.7152 * g + 0.0722 * b;
    match *c {
        [g] => Some(g),
        [r, g, b] => Some(rgb(r, g, b)),
        [c, m, y, k] => Some(rgb(
            (1.0 - c) * (1.0 - k),
            (1.0 - m) * (1.0 - k),
            (1.0 - y) * (1.0 - k),
        )),
        _ => None,
    }
}

/// A rectangle on the page, in the page's units: left, bottom, right, top.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rect(pub f64, pub f64, pub f64, pub f64);

/// The rectangles a fill paints that hide text: none unless
/// [`mark_fills`] marked the fill as hiding. A rectangle is an `re`, or a
/// closed path of four corners at right angles to the page; a turned
/// rectangle counts when it is turned by right angles.
pub(crate) fn hiding_rects(
    ctm: &Transform,
    space: &ColorSpace,
    colour: &[f64],
    path: &Path,
) -> Vec<Rect> {
    let square = (ctm.m12.abs() < 1e-6 && ctm.m21.abs() < 1e-6)
        || (ctm.m11.abs() < 1e-6 && ctm.m22.abs() < 1e-6);
    if !hides(space, colour) || !square {
        return Vec::new();
    }
    let at = |x: f64, y: f64| {
        (
            x * ctm.m11 + y * ctm.m21 + ctm.m31,
            x * ctm.m12 + y * ctm.m22 + ctm.m32,
        )
    };
    let bounds = |corners: &[(f64, f64)]| -> Option<Rect> {
        let pts: Vec<(f64, f64)> = corners.iter().map(|&(x, y)| at(x, y)).collect();
        let r = Rect(
            pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min),
            pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min),
            pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max),
            pts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max),
        );
        [r.0, r.1, r.2, r.3]
            .iter()
            .all(|v| v.is_finite())
            .then_some(r)
    };
    let mut out = Vec::new();
    // The points of the subpath being drawn (a curve's control points
    // too). A closed shape that fills most of its bounds (a rectangle, one
    // with rounded corners or an extra point on a side) is a box; an
    // arrowhead or a dot shaped otherwise is not.
    let mut lines: Option<Vec<(f64, f64)>> = None;
    let close = |lines: &mut Option<Vec<(f64, f64)>>, out: &mut Vec<Rect>| {
        if let Some(pts) = lines.take()
            && pts.len() >= 3
            && fills_its_bounds(&pts)
        {
            out.extend(bounds(&pts));
        }
    };
    for op in &path.ops {
        match *op {
            PathOp::Rect(x, y, w, h) => {
                close(&mut lines, &mut out);
                out.extend(bounds(&[(x, y), (x + w, y + h)]));
            }
            PathOp::MoveTo(x, y) => {
                close(&mut lines, &mut out);
                lines = Some(vec![(x, y)]);
            }
            PathOp::LineTo(x, y) => {
                if let Some(pts) = lines.as_mut() {
                    pts.push((x, y));
                }
            }
            PathOp::CurveTo(a, b, c, d, x, y) => {
                if let Some(pts) = lines.as_mut() {
                    pts.extend([(a, b), (c, d), (x, y)]);
                }
            }
            PathOp::Close => close(&mut lines, &mut out),
        }
    }
    close(&mut lines, &mut out);
    out
}

/// Does the polygon through `pts` cover most (0.8) of its bounding box?
fn fills_its_bounds(pts: &[(f64, f64)]) -> bool {
    let n = pts.len();
    let twice: f64 = (0..n)
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    let (x0, x1) = pts
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            (l.min(p.0), h.max(p.0))
        });
    let (y0, y1) = pts
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            (l.min(p.1), h.max(p.1))
        });
    let bounds = (x1 - x0) * (y1 - y0);
    bounds > 0.0 && (twice / 2.0).abs() >= 0.8 * bounds
}

/// Did [`mark_fills`] mark this fill as one that hides?
fn hides(space: &ColorSpace, colour: &[f64]) -> bool {
    matches!(space, ColorSpace::DeviceGray)
        && matches!(colour, [g] if fill_grey(*g).is_some_and(|f| f.0))
}

/// How much of the upright character drawn at `trm` (its advance `width`
/// in text units, its size on the page `size`) `r` covers: the height of
/// the rectangle across the middle of the character, within its line. A
/// character is hidden when the boxes over it cover as much as a small
/// letter's height ([`HIDDEN`] of its size), one bar or several stacked.
pub(crate) fn covered(r: &Rect, trm: &Transform, width: f64, size: f64) -> f64 {
    let upright = trm.m12.abs() < 1e-6 && trm.m21.abs() < 1e-6 && trm.m11 > 0.0;
    let cx = trm.m31 + width * size / 2.0;
    if !(upright && r.0 <= cx && cx <= r.2) {
        return 0.0;
    }
    let (low, high) = (trm.m32 - 0.2 * size, trm.m32 + 0.8 * size);
    (r.3.min(high) - r.1.max(low)).max(0.0)
}

/// The share of a character's size that boxes must cover to hide it.
pub(crate) const HIDDEN: f64 = 0.45;
