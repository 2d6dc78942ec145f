//! Annotations a viewer draws over a page that hide the words under them:
//! a box drawn with the comment tools to black words out, a text box with
//! a background typed over them, a stamp, a thick pen stroke.

use super::cover::{colour, fill_grey, marked};
use super::layers::deref;
use super::unseen::Named;
use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object, ObjectId};

/// The boxes a page's annotations draw over it that hide what is under
/// them (left, bottom, right, top, on the page), for annotations shown on
/// screen and opaque:
/// - one whose appearance paints an opaque box over most of it, or an
///   opaque picture (a stamp, a text box with a background, a shape);
/// - without an appearance, a square, circle or polygon filled (`/IC`),
///   as a viewer draws it, or a square's thick border;
/// - thick ink (a pen stroke over words), lines and polylines: a box over
///   each stroke.
///
/// Markup (highlights, underlines), links, pop-ups and note icons are not
/// boxes.
pub(super) fn annotation_boxes(doc: &Document, page: ObjectId) -> Vec<[f64; 4]> {
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
    for a in annots.iter().take(10_000) {
        let Ok(a) = deref(doc, a).as_dict() else {
            continue;
        };
        let num = |key: &[u8]| {
            a.get(key)
                .ok()
                .and_then(|v| deref(doc, v).as_float().ok())
                .map(f64::from)
        };
        let subtype = a.get(b"Subtype").and_then(Object::as_name).unwrap_or(b"");
        // Hidden (2) or not shown on screen (32).
        let shown = num(b"F").is_none_or(|f| (f as i64) & (2 | 32) == 0);
        let opaque = num(b"CA").is_none_or(|ca| ca >= 0.9);
        let markup = matches!(
            subtype,
            b"Highlight"
                | b"Underline"
                | b"StrikeOut"
                | b"Squiggly"
                | b"Link"
                | b"Popup"
                | b"Text"
                | b"Caret"
                | b"FileAttachment"
                | b"Sound"
        );
        let &[x0, y0, x1, y1] = nums(a.get(b"Rect").ok()).as_slice() else {
            continue;
        };
        if !shown || !opaque || markup {
            continue;
        }
        let rect = [x0.min(x1), y0.min(y1), x0.max(x1), y0.max(y1)];
        let width = a
            .get(b"BS")
            .ok()
            .and_then(|bs| deref(doc, bs).as_dict().ok())
            .and_then(|bs| bs.get(b"W").ok())
            .and_then(|w| deref(doc, w).as_float().ok())
            .map(f64::from)
            // The older form: `/Border [h v width]`.
            .or_else(|| nums(a.get(b"Border").ok()).get(2).copied())
            .map_or(1.0, f64::abs);
        if matches!(subtype, b"Ink" | b"Line" | b"PolyLine") {
            // Each stroke of the pen (or the line's points), thick and in
            // a colour, covers a band.
            if width >= 2.0 && colour(&nums(a.get(b"C").ok())) {
                let strokes: Vec<Vec<f64>> = match subtype {
                    b"Ink" => a
                        .get(b"InkList")
                        .ok()
                        .and_then(|l| deref(doc, l).as_array().ok())
                        .into_iter()
                        .flatten()
                        .take(1_000)
                        .map(|stroke| nums(Some(stroke)))
                        .collect(),
                    b"Line" => vec![nums(a.get(b"L").ok())],
                    _ => vec![nums(a.get(b"Vertices").ok())],
                };
                for pts in strokes {
                    for w in pts.chunks(2).collect::<Vec<_>>().windows(2).take(10_000) {
                        if let (&[xa, ya], &[xb, yb]) = (w[0], w[1]) {
                            let h = width / 2.0;
                            out.push([
                                xa.min(xb) - h,
                                ya.min(yb) - h,
                                xa.max(xb) + h,
                                ya.max(yb) + h,
                            ]);
                        }
                    }
                }
            }
            continue;
        }
        let shape = matches!(subtype, b"Square" | b"Circle" | b"Polygon");
        let appearance = appearance_hides(doc, a);
        // A square drawn with a thick border in a colour and no fill: its
        // border is four bars inside its rectangle.
        if appearance.is_none()
            && subtype == b"Square"
            && !colour(&nums(a.get(b"IC").ok()))
            && width >= 2.0
            && colour(&nums(a.get(b"C").ok()))
        {
            let [l, b, r, t] = rect;
            out.extend([
                [l, b, r, b + width],
                [l, t - width, r, t],
                [l, b, l + width, t],
                [r - width, b, r, t],
            ]);
            continue;
        }
        let hides = match appearance {
            Some(h) => h,
            None => shape && colour(&nums(a.get(b"IC").ok())),
        };
        if !hides {
            continue;
        }
        // A square is drawn inside its rectangle by `/RD` (left, top,
        // right, bottom); a circle fills the middle of its own.
        let rd = match nums(a.get(b"RD").ok()).as_slice() {
            &[l, t, r, b] => [l, t, r, b].map(|v| v.max(0.0)),
            _ => [0.0; 4],
        };
        let mut r = [
            rect[0] + rd[0],
            rect[1] + rd[3],
            rect[2] - rd[2],
            rect[3] - rd[1],
        ];
        if subtype == b"Circle" {
            let (dx, dy) = ((r[2] - r[0]) * 0.15, (r[3] - r[1]) * 0.15);
            r = [r[0] + dx, r[1] + dy, r[2] - dx, r[3] - dy];
        }
        out.push(r);
    }
    out
}

/// Does an annotation's appearance (`/AP /N`, the state `/AS` names)
/// paint an opaque box over most (0.8) of its bounds, or an opaque
/// picture? `None` when it has none.
fn appearance_hides(doc: &Document, annot: &Dictionary) -> Option<bool> {
    let normal = annot
        .get(b"AP")
        .ok()
        .and_then(|ap| deref(doc, ap).as_dict().ok())?
        .get(b"N")
        .ok()
        .map(|n| deref(doc, n))?;
    let stream = match normal {
        Object::Stream(s) => s,
        Object::Dictionary(states) => {
            let name = annot.get(b"AS").and_then(Object::as_name).ok()?;
            deref(doc, states.get(name).ok()?).as_stream().ok()?
        }
        _ => return None,
    };
    let bbox: Vec<f64> = stream
        .dict
        .get(b"BBox")
        .ok()
        .and_then(|b| deref(doc, b).as_array().ok())
        .map(|a| {
            a.iter()
                .filter_map(|v| deref(doc, v).as_float().ok().map(f64::from))
                .collect()
        })
        .unwrap_or_default();
    let &[bx0, by0, bx1, by1] = bbox.as_slice() else {
        return Some(false);
    };
    let area = ((bx1 - bx0) * (by1 - by0)).abs();
    let content = stream
        .decompressed_content()
        .unwrap_or_else(|_| stream.content.clone());
    let ops = Content::decode(&content).ok()?.operations;
    let resources: Vec<&Dictionary> = stream
        .dict
        .get(b"Resources")
        .ok()
        .and_then(|r| deref(doc, r).as_dict().ok())
        .into_iter()
        .collect();
    let images: Vec<&[u8]> = resources
        .iter()
        .filter_map(|r| {
            r.get(b"XObject")
                .ok()
                .and_then(|x| deref(doc, x).as_dict().ok())
        })
        .flat_map(|x| x.iter())
        .filter(|(_, o)| {
            deref(doc, o).as_stream().is_ok_and(|s| {
                s.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image")
                    && s.dict.get(b"SMask").is_err()
            })
        })
        .map(|(n, _)| n.as_slice())
        .collect();
    let named = Named::of(doc, &resources);
    // The marks `marked` sets before each fill tell which fills hide.
    let mut hiding = false;
    let mut path: Vec<[f64; 4]> = Vec::new();
    for op in marked(ops, &named) {
        let n: Vec<f64> = op
            .operands
            .iter()
            .filter_map(|o| o.as_float().ok().map(f64::from))
            .collect();
        match (op.operator.as_str(), n.as_slice()) {
            ("sc", &[g]) => hiding = fill_grey(g).is_some_and(|f| f.0),
            ("re", &[x, y, w, h]) => path.push([x, y, x + w, y + h]),
            ("f", _) => {
                let covered: f64 = path
                    .drain(..)
                    .map(|[a, b, c, d]| ((c - a) * (d - b)).abs())
                    .sum();
                if hiding && area > 0.0 && covered >= 0.8 * area {
                    return Some(true);
                }
            }
            ("Do", _) => {
                let name = op.operands.first().and_then(|o| o.as_name().ok());
                if name.is_some_and(|n| images.contains(&n)) {
                    return Some(true);
                }
            }
            ("n" | "S" | "s", _) => path.clear(),
            _ => {}
        }
    }
    Some(false)
}
