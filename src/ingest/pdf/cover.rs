//! Text a box is drawn over: a black bar over words (a redaction done by
//! drawing, not by removing the text) or a white one (a whiteout). The
//! words are still in the file, and a reader of the page does not see them.
//!
//! A filled box hides a character drawn *before* it when it covers the
//! middle of the character over at least the height of a small letter,
//! and it is opaque and near black or white. A thin bar (an underline, a table
//! rule, a line struck through words) hides nothing; neither does a
//! coloured or translucent box (a highlight or shading: the reader sees
//! the text through it), nor a box drawn before the text (a background).
//!
//! pdf-extract reports fills in drawing order but does not follow the
//! usual colour operators (`g`, `rg`, `k`) nor transparency, so
//! [`mark_fills`] first rewrites each page's content: before every fill
//! it sets a colour that says whether the fill hides ([`HIDES`] grey) or
//! not, and it makes every kind of fill one pdf-extract reports.

use super::layers::deref;
use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Object, ObjectId};
use pdf_extract::{ColorSpace, Path, PathOp, Transform};

/// The grey set before a fill that hides; any other fill gets [`SHOWS`].
const HIDES: f64 = 0.0;
const SHOWS: f64 = 0.5;

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
        let fill_after = ops
            .iter()
            .position(|o| o.operator == "BT")
            .is_some_and(|t| ops[t..].iter().any(|o| is_fill(&o.operator)));
        if !fill_after {
            continue;
        }
        let alphas = fill_alphas(doc, &super::layers::page_resources(doc, page));
        let marked = marked(content.operations, &alphas);
        if let Ok(encoded) = (Content { operations: marked }).encode() {
            let _ = doc.change_page_content(page, encoded);
        }
    }
}

/// The fill opacity (`/ca`) of each graphics state these resources name
/// (none with a blend mode that mixes).
fn fill_alphas(doc: &Document, resources: &[&Dictionary]) -> Vec<(Vec<u8>, f64)> {
    fn dict<'a>(doc: &'a Document, o: &'a Object) -> Option<&'a Dictionary> {
        deref(doc, o).as_dict().ok()
    }
    let mut out = Vec::new();
    for res in resources {
        let Some(states) = res.get(b"ExtGState").ok().and_then(|o| dict(doc, o)) else {
            continue;
        };
        for (name, o) in states.iter() {
            let state = dict(doc, o);
            let ca = state
                .and_then(|s| s.get(b"ca").ok().and_then(|v| v.as_float().ok()))
                .map_or(1.0, f64::from);
            // A blend mode other than the normal one (Multiply, Screen…)
            // mixes the box with the text under it: it hides nothing.
            let blends = state
                .and_then(|s| s.get(b"BM").ok())
                .and_then(|bm| bm.as_name().ok())
                .is_some_and(|n| n != b"Normal" && n != b"Compatible");
            let ca = if blends { 0.0 } else { ca };
            out.push((name.clone(), ca));
        }
    }
    out
}

/// The operations with a grey set before each fill: [`HIDES`] when the
/// fill is opaque and near black or white, [`SHOWS`] otherwise.
fn marked(ops: Vec<Operation>, alphas: &[(Vec<u8>, f64)]) -> Vec<Operation> {
    let num = |o: &Object| o.as_float().map(f64::from).ok();
    // Fill luminance (None: unknown, a pattern) and opacity.
    let mut state: (Option<f64>, f64) = (Some(0.0), 1.0);
    let mut saved = Vec::new();
    let mut out = Vec::with_capacity(ops.len() + 8);
    for op in ops {
        let nums: Vec<f64> = op.operands.iter().filter_map(num).collect();
        match op.operator.as_str() {
            "q" => saved.push(state),
            "Q" => state = saved.pop().unwrap_or(state),
            "g" | "rg" | "k" | "sc" | "scn" => state.0 = luminance(&nums),
            "cs" => state.0 = Some(0.0),
            "gs" => {
                let name = op.operands.first().and_then(|n| n.as_name().ok());
                if let Some((_, a)) = alphas.iter().find(|(n, _)| Some(n.as_slice()) == name) {
                    state.1 = *a;
                }
            }
            f if is_fill(f) => {
                let hides = state.1 >= 0.9 && state.0.is_some_and(|l| !(0.2..=0.97).contains(&l));
                let grey = if hides { HIDES } else { SHOWS };
                out.push(Operation::new(
                    "cs",
                    vec![Object::Name(b"DeviceGray".to_vec())],
                ));
                out.push(Operation::new("sc", vec![Object::Real(grey as f32)]));
                out.push(Operation::new("f", Vec::new()));
                continue;
            }
            _ => {}
        }
        out.push(op);
    }
    out
}

/// Operators that fill the current path.
fn is_fill(op: &str) -> bool {
    matches!(op, "f" | "F" | "f*" | "B" | "B*" | "b" | "b*")
}

/// The luminance of a grey, RGB or CMYK colour given by its components.
fn luminance(c: &[f64]) -> Option<f64> {
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
    matches!(space, ColorSpace::DeviceGray) && colour == [HIDES]
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
