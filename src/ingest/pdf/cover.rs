//! Text a box is drawn over: a black bar over words (a redaction done by
//! drawing, not by removing the text) or a white one (a whiteout). The
//! words are still in the file, and a reader of the page does not see them.
//!
//! A filled box hides a character drawn *before* it when it covers the
//! middle of the character over at least the height of a small letter,
//! and it is opaque: whatever its colour, the page shows the box. A thin
//! bar (an underline, a table rule, a line struck through words) hides
//! nothing; neither does a translucent, soft-masked or blended box (a
//! highlighter multiplies with the page: the reader sees the text through
//! it), nor a box drawn before the text (a background).
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
        let Some(text) = ops.iter().position(|o| o.operator == "BT") else {
            continue;
        };
        let fill_after = ops[text..]
            .iter()
            .any(|o| is_fill(&o.operator) || o.operator == "S");
        let boxes = annotation_boxes(doc, page);
        if !fill_after && boxes.is_empty() {
            continue;
        }
        let alphas = fill_alphas(doc, &super::layers::page_resources(doc, page));
        let mut ops = marked(content.operations, &alphas);
        // The page's boxes drawn last, on the page as it was at the start.
        if !boxes.is_empty() {
            ops.insert(0, Operation::new("q", Vec::new()));
            ops.push(Operation::new("Q", Vec::new()));
            for [x0, y0, x1, y1] in boxes {
                set_grey(&mut ops, true);
                let r = [x0, y0, x1 - x0, y1 - y0];
                ops.push(Operation::new(
                    "re",
                    r.iter().map(|v| Object::Real(*v as f32)).collect(),
                ));
                ops.push(Operation::new("f", Vec::new()));
            }
        }
        if let Ok(encoded) = (Content { operations: ops }).encode() {
            let _ = doc.change_page_content(page, encoded);
        }
    }
}

/// The boxes a page's annotations draw over it that hide what is under
/// them: a square one (a rectangle drawn with a viewer's comment tools,
/// often used to black out words) filled opaque, and shown. Left, bottom,
/// right, top, on the page.
fn annotation_boxes(doc: &Document, page: ObjectId) -> Vec<[f64; 4]> {
    let nums = |o: Option<&Object>| -> Vec<f64> {
        o.map(|o| deref(doc, o))
            .and_then(|o| o.as_array().ok())
            .map(|a| {
                a.iter()
                    .filter_map(|v| deref(doc, v).as_float().ok().map(f64::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let Some(annots) = doc
        .get_dictionary(page)
        .ok()
        .and_then(|p| p.get(b"Annots").ok())
        .and_then(|a| deref(doc, a).as_array().ok())
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for a in annots {
        let Ok(a) = deref(doc, a).as_dict() else {
            continue;
        };
        let num = |key: &[u8]| {
            a.get(key)
                .ok()
                .and_then(|v| deref(doc, v).as_float().ok())
                .map(f64::from)
        };
        let square = a
            .get(b"Subtype")
            .and_then(Object::as_name)
            .is_ok_and(|n| n == b"Square");
        // Hidden (2) or not shown on screen (32).
        let shown = num(b"F").is_none_or(|f| (f as i64) & (2 | 32) == 0);
        let opaque = num(b"CA").is_none_or(|ca| ca >= 0.9);
        let filled = colour(&nums(a.get(b"IC").ok()));
        if let (true, &[x0, y0, x1, y1]) = (
            square && shown && opaque && filled,
            nums(a.get(b"Rect").ok()).as_slice(),
        ) {
            out.push([x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1)]);
        }
    }
    out
}

/// Set the grey a fill carries: [`HIDES`] or [`SHOWS`].
fn set_grey(out: &mut Vec<Operation>, hiding: bool) {
    let grey = if hiding { HIDES } else { SHOWS };
    out.push(Operation::new(
        "cs",
        vec![Object::Name(b"DeviceGray".to_vec())],
    ));
    out.push(Operation::new("sc", vec![Object::Real(grey as f32)]));
}

/// The fill opacity (`/ca`) of each graphics state these resources name
/// (none with a blend mode that mixes).
fn fill_alphas(doc: &Document, resources: &[&Dictionary]) -> Vec<(Vec<u8>, f64, f64)> {
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
            let alpha = |key: &[u8]| {
                state
                    .and_then(|s| s.get(key).ok().and_then(|v| v.as_float().ok()))
                    .map_or(1.0, f64::from)
            };
            let (ca, stroke) = (alpha(b"ca"), alpha(b"CA"));
            // A blend mode other than the normal one (Multiply, Screen…)
            // mixes the box with the text under it: it hides nothing.
            let blends = state
                .and_then(|s| s.get(b"BM").ok())
                .and_then(|bm| bm.as_name().ok())
                .is_some_and(|n| n != b"Normal" && n != b"Compatible");
            // So does a soft mask: how much of the box shows is not known.
            let masked = state
                .and_then(|s| s.get(b"SMask").ok())
                .is_some_and(|m| m.as_name().map_or(true, |n| n != b"None"));
            let (ca, stroke) = if blends || masked {
                (0.0, 0.0)
            } else {
                (ca, stroke)
            };
            out.push((name.clone(), ca, stroke));
        }
    }
    out
}

/// The operations with a grey set before each fill: [`HIDES`] when the
/// fill is opaque in a known colour, [`SHOWS`] otherwise (a pattern). A
/// straight line stroked thick (two units or more) and opaque is a bar
/// too: a hiding box of its extent is filled where it is stroked.
fn marked(ops: Vec<Operation>, alphas: &[(Vec<u8>, f64, f64)]) -> Vec<Operation> {
    let num = |o: &Object| o.as_float().map(f64::from).ok();
    let hides = |(colour, alpha): (bool, f64)| colour && alpha >= 0.9;
    // Whether the fill and stroke colours are known (not a pattern), their
    // opacity, and the line width.
    #[derive(Clone, Copy)]
    struct State {
        fill: (bool, f64),
        stroke: (bool, f64),
        width: f64,
    }
    let mut state = State {
        fill: (true, 1.0),
        stroke: (true, 1.0),
        width: 1.0,
    };
    let mut saved = Vec::new();
    // The current path's points while it is one straight segment.
    let mut segment: Option<Vec<(f64, f64)>> = Some(Vec::new());
    let mut out = Vec::with_capacity(ops.len() + 8);
    for op in ops {
        let nums: Vec<f64> = op.operands.iter().filter_map(num).collect();
        match op.operator.as_str() {
            "q" => saved.push(state),
            "Q" => state = saved.pop().unwrap_or(state),
            "g" | "rg" | "k" | "sc" | "scn" => state.fill.0 = colour(&nums),
            "G" | "RG" | "K" | "SC" | "SCN" => state.stroke.0 = colour(&nums),
            "cs" => state.fill.0 = true,
            "CS" => state.stroke.0 = true,
            "w" => state.width = nums.first().copied().unwrap_or(1.0).abs(),
            "gs" => {
                let name = op.operands.first().and_then(|n| n.as_name().ok());
                if let Some((_, fill, stroke)) =
                    alphas.iter().find(|(n, _, _)| Some(n.as_slice()) == name)
                {
                    state.fill.1 = *fill;
                    state.stroke.1 = *stroke;
                }
            }
            "m" | "l" => {
                if let (Some(pts), &[x, y]) = (segment.as_mut(), nums.as_slice()) {
                    // A new "m" starts another subpath: no longer one line.
                    if op.operator == "m" && !pts.is_empty() {
                        segment = None;
                    } else {
                        pts.push((x, y));
                    }
                }
            }
            "re" | "c" | "v" | "y" | "h" => segment = None,
            "S" => {
                let bar = segment.take().filter(|pts| pts.len() == 2).and_then(|pts| {
                    let ((x1, y1), (x2, y2)) = (pts[0], pts[1]);
                    let half = state.width / 2.0;
                    (state.width >= 2.0 && hides(state.stroke)).then_some(
                        if (y1 - y2).abs() < 1e-6 {
                            [x1.min(x2), y1 - half, (x1 - x2).abs(), state.width]
                        } else if (x1 - x2).abs() < 1e-6 {
                            [x1 - half, y1.min(y2), state.width, (y1 - y2).abs()]
                        } else {
                            return None;
                        },
                    )
                });
                if let Some(r) = bar {
                    set_grey(&mut out, true);
                    out.push(Operation::new(
                        "re",
                        r.iter().map(|v| Object::Real(*v as f32)).collect(),
                    ));
                    out.push(Operation::new("f", Vec::new()));
                }
                segment = Some(Vec::new());
            }
            f if is_fill(f) => {
                set_grey(&mut out, hides(state.fill));
                out.push(Operation::new("f", Vec::new()));
                segment = Some(Vec::new());
                continue;
            }
            "n" | "s" => segment = Some(Vec::new()),
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

/// Do these components give a colour (grey, RGB, CMYK or one ink), not a
/// pattern, whose look is not known?
fn colour(c: &[f64]) -> bool {
    (1..=4).contains(&c.len())
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
