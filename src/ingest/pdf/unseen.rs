//! Text a reader may not see, decided where it lies on the page. White
//! text shows only on something dark painted under it, and text drawn in
//! a mode that paints nothing (`3 Tr`) is a scan's recognised words only
//! over the scan's picture. A page-wide test ("the page paints something
//! dark somewhere", "the page has a picture") is beaten by one decoy in a
//! corner (red team, round 22), so [`super::cover::marked`] signs where
//! pictures, fills and clips lie, and the recorder asks [`Regions`], at
//! the end of the page, what lies under each such character.
//!
//! A sign is an empty (or unpainted) fill in a grey of its own: pdf-extract
//! reports fills with their path and transformation, so the recorder gets
//! each box on the page as the viewer places it.

use lopdf::content::Operation;
use lopdf::{Dictionary, Document, Object};
use pdf_extract::{Path, PathOp, Transform};

use super::cover::{GState, Rect, gstates, white};
use super::layers::deref;

/// The signs [`super::cover::marked`] leaves for the recorder, by grey.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Sign {
    /// Text up to [`Sign::End`] no reader sees (transparent).
    Unseen,
    /// Text up to [`Sign::End`] painted in no ink: seen only as the
    /// picture under it (a scan's recognised words).
    UnlessPictured,
    /// White text up to [`Sign::End`]: seen only on a dark fill drawn
    /// under it before it.
    UnlessDark,
    End,
    /// The path is the box of an image.
    Picture,
    /// The path (or, empty, the clip) is paint whose look is not known: a
    /// form, a shading, a masked image.
    Unknown,
    /// The path clips what follows, up to the [`Sign::Restore`] of the
    /// [`Sign::Save`] before it.
    Clip,
    Save,
    Restore,
}

const SIGNS: [(Sign, f64); 9] = [
    (Sign::Unseen, 0.25),
    (Sign::UnlessPictured, 0.3125),
    (Sign::UnlessDark, 0.4375),
    (Sign::End, 0.75),
    (Sign::Picture, 0.875),
    (Sign::Unknown, 0.9375),
    (Sign::Clip, 0.125),
    (Sign::Save, 0.375),
    (Sign::Restore, 0.8125),
];

impl Sign {
    pub fn grey(self) -> f64 {
        SIGNS.iter().find(|s| s.0 == self).map_or(0.25, |s| s.1)
    }
    pub fn of(grey: f64) -> Option<Sign> {
        SIGNS.iter().find(|s| s.1 == grey).map(|s| s.0)
    }
    /// Does text this sign opens need [`Regions::shows`] to be read?
    pub fn unless(self) -> bool {
        matches!(self, Sign::UnlessPictured | Sign::UnlessDark)
    }
}

/// What a real fill leaves under text drawn over it later (the grey
/// [`super::cover::marked`] sets before the fill says it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Under {
    /// Dark paint: white text on it shows.
    Dark,
    /// Light paint, or paint whose look is not known: white text on it
    /// does not show, or may not.
    Light,
    /// Nothing that changes what is under it (transparent).
    Clear,
}

/// A colour space a fill colour is given in, as far as its whiteness goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Space {
    /// Grey, RGB or CMYK by the number of components (device, calibrated,
    /// ICC based).
    Device,
    /// CIE L*a*b*: the first component is the lightness, 0 to 100.
    Lab,
    /// Inks (Separation, DeviceN): a tint of 0 puts no ink on the paper.
    Tints,
    /// A pattern, or a space not known (indexed): its look is not known.
    Unknown,
}

impl Space {
    /// The luminance of a colour in this space (`None`: not known).
    pub fn luminance(self, c: &[f64]) -> Option<f64> {
        match self {
            Space::Device => super::cover::luminance(c),
            Space::Lab => c.first().map(|l| l / 100.0),
            Space::Tints if !c.is_empty() => {
                Some(1.0 - c.iter().copied().fold(0.0, f64::max).clamp(0.0, 1.0))
            }
            _ => None,
        }
    }
}

/// What a named XObject is, for the box it paints.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum XObject {
    /// An image (its unit square), and whether a mask makes what it shows
    /// not known.
    Image { masked: bool },
    /// A form: its box, and the matrix that places it.
    Form { bbox: [f64; 4], matrix: [f64; 6] },
}

/// What a page's content names: graphics states, colour spaces, XObjects.
#[derive(Debug, Default)]
pub(crate) struct Named {
    pub states: Vec<(Vec<u8>, GState)>,
    pub spaces: Vec<(Vec<u8>, Space)>,
    pub xobjects: Vec<(Vec<u8>, XObject)>,
}

impl Named {
    pub fn of(doc: &Document, resources: &[&Dictionary]) -> Named {
        let mut out = Named {
            states: gstates(doc, resources),
            ..Named::default()
        };
        let nums = |o: Option<&Object>| -> Vec<f64> {
            o.and_then(|o| deref(doc, o).as_array().ok())
                .map(|a| {
                    a.iter()
                        .filter_map(|v| deref(doc, v).as_float().ok().map(f64::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        for res in resources {
            let dict = |key: &[u8]| res.get(key).ok().and_then(|o| deref(doc, o).as_dict().ok());
            for (name, o) in dict(b"ColorSpace").iter().flat_map(|d| d.iter()) {
                out.spaces.push((name.clone(), space(doc, deref(doc, o))));
            }
            for (name, o) in dict(b"XObject").iter().flat_map(|d| d.iter()) {
                let Ok(s) = deref(doc, o).as_stream() else {
                    continue;
                };
                let subtype = s.dict.get(b"Subtype").and_then(Object::as_name).ok();
                let x = match subtype {
                    Some(b"Image") => XObject::Image {
                        masked: s.dict.has(b"SMask") || s.dict.has(b"Mask"),
                    },
                    Some(b"Form") => {
                        let bbox = nums(s.dict.get(b"BBox").ok());
                        let matrix = nums(s.dict.get(b"Matrix").ok());
                        let Ok(bbox) = <[f64; 4]>::try_from(bbox) else {
                            continue;
                        };
                        let matrix =
                            <[f64; 6]>::try_from(matrix).unwrap_or([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
                        XObject::Form { bbox, matrix }
                    }
                    _ => continue,
                };
                out.xobjects.push((name.clone(), x));
            }
        }
        out
    }

    /// The space `cs`/`CS` names: a device space by its name, or one of
    /// the page's.
    pub fn space(&self, name: &[u8]) -> Space {
        match name {
            b"DeviceGray" | b"DeviceRGB" | b"DeviceCMYK" | b"G" | b"RGB" | b"CMYK" => Space::Device,
            b"Pattern" => Space::Unknown,
            _ => self
                .spaces
                .iter()
                .find(|(n, _)| n == name)
                .map_or(Space::Unknown, |s| s.1),
        }
    }
}

/// A colour space object: a name, or an array whose first item names it.
fn space(doc: &Document, o: &Object) -> Space {
    let (family, rest) = match o {
        Object::Name(n) => (n.as_slice(), &[][..]),
        Object::Array(a) => match a.split_first() {
            Some((Object::Name(n), rest)) => (n.as_slice(), rest),
            _ => return Space::Unknown,
        },
        _ => return Space::Unknown,
    };
    match family {
        b"DeviceGray" | b"DeviceRGB" | b"DeviceCMYK" | b"CalGray" | b"CalRGB" => Space::Device,
        b"ICCBased" => {
            // Its number of components says grey, RGB or CMYK.
            let n = rest
                .first()
                .and_then(|s| deref(doc, s).as_stream().ok())
                .and_then(|s| s.dict.get(b"N").ok().and_then(|n| n.as_i64().ok()));
            if matches!(n, Some(1 | 3 | 4)) {
                Space::Device
            } else {
                Space::Unknown
            }
        }
        b"Lab" => Space::Lab,
        b"Separation" | b"DeviceN" => Space::Tints,
        _ => Space::Unknown,
    }
}

/// Does the content set a text rendering mode, a graphics state (which may
/// make text transparent), a colour in a colour space (`sc`: the space
/// decides whether it is white) or a white device colour (in which text
/// may be drawn unseen on the white page)?
pub(super) fn may_draw_unseen_text(ops: &[Operation]) -> bool {
    ops.iter().any(|o| {
        let nums: Vec<f64> = o
            .operands
            .iter()
            .filter_map(|o| o.as_float().map(f64::from).ok())
            .collect();
        matches!(
            o.operator.as_str(),
            "Tr" | "gs" | "sc" | "scn" | "SC" | "SCN"
        ) || (matches!(o.operator.as_str(), "g" | "rg" | "k" | "G" | "RG" | "K") && white(&nums))
    })
}

/// Text drawn so that a reader may see nothing of it: transparent
/// ([`Sign::Unseen`]); in a mode that paints no glyph (`3 Tr`, invisible;
/// `7 Tr`, a clip), seen only as a picture under it shows it (a scan's
/// recognised text is drawn so over the scan, which shows the same
/// words); or in white (or near white), seen only on dark paint under it.
/// Where each lies is the recorder's to tell (this module): a page
/// that paints something dark or a picture elsewhere shows nothing of it.
pub(super) fn invisible_text(mode: u8, fill: (bool, f64), stroke: (bool, f64)) -> Option<Sign> {
    let unseen = |(white, alpha): (bool, f64)| {
        if alpha < 0.05 {
            Some(Sign::Unseen)
        } else {
            white.then_some(Sign::UnlessDark)
        }
    };
    match mode {
        3 | 7 => Some(Sign::UnlessPictured),
        1 | 5 => unseen(stroke),
        2 | 6 => match (unseen(fill), unseen(stroke)) {
            (Some(Sign::Unseen), other) | (other, Some(Sign::Unseen)) => other,
            (Some(_), Some(_)) => Some(Sign::UnlessDark),
            _ => None,
        },
        _ => unseen(fill),
    }
}

/// An empty fill in the grey of `sign`: a sign to the recorder, nothing
/// drawn.
pub(super) fn sign(out: &mut Vec<Operation>, sign: Sign) {
    let origin = || vec![Object::Integer(0), Object::Integer(0)];
    let path = vec![Operation::new("m", origin()), Operation::new("l", origin())];
    sign_path(out, sign, path);
}

/// A fill of `path` in the grey of `sign`: where something lies, for the
/// recorder (this module).
pub(super) fn sign_path(out: &mut Vec<Operation>, sign: Sign, path: Vec<Operation>) {
    out.push(Operation::new(
        "cs",
        vec![Object::Name(b"DeviceGray".to_vec())],
    ));
    out.push(Operation::new("sc", vec![Object::Real(sign.grey() as f32)]));
    out.extend(path);
    out.push(Operation::new("f", Vec::new()));
}

/// The path of the unit square (an image's box).
pub(super) fn unit_square() -> Vec<Operation> {
    let at = |x: i64, y: i64| vec![Object::Integer(x), Object::Integer(y)];
    vec![
        Operation::new("m", at(0, 0)),
        Operation::new("l", at(1, 0)),
        Operation::new("l", at(1, 1)),
        Operation::new("l", at(0, 1)),
        Operation::new("h", Vec::new()),
    ]
}

/// What was painted where on a page, as far as text drawn unseen needs.
#[derive(Default)]
pub(super) struct Regions {
    painted: Vec<Region>,
    /// The bounds of the clip in force (`None`: the whole page), and those
    /// of each saved graphics state.
    clip: Option<Rect>,
    saved: Vec<Option<Rect>>,
}

/// Paint on the page: what it is, the subpaths it fills (none: all its
/// bounds), their bounds within the clip, and how many things were drawn
/// before it.
struct Region {
    kind: Kind,
    rings: Vec<Vec<(f64, f64)>>,
    bounds: Rect,
    before: usize,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Picture,
    Dark,
    Light,
}

/// More paint than this on a page and white or invisible text is not
/// looked up under it (each character would meet every region): it is a
/// mark, as text whose look is not known.
const MOST: usize = 20_000;

impl Regions {
    /// A sign of a picture, of paint not known, or of a clip, or a real
    /// fill that leaves `under`.
    pub fn sign(&mut self, sign: Sign, ctm: &Transform, path: &Path, before: usize) {
        match sign {
            Sign::Save => self.saved.push(self.clip),
            Sign::Restore => self.clip = self.saved.pop().unwrap_or(None),
            Sign::Clip => {
                let b = bounds(&rings(ctm, path));
                self.clip = match (self.clip, b) {
                    (Some(c), Some(b)) => {
                        Some(Rect(c.0.max(b.0), c.1.max(b.1), c.2.min(b.2), c.3.min(b.3)))
                    }
                    (c, b) => c.or(b),
                };
            }
            Sign::Picture => self.paint(Kind::Picture, ctm, path, before, false),
            // A shading's sign has no area: it paints all the clip.
            Sign::Unknown => self.paint(Kind::Light, ctm, path, before, true),
            _ => {}
        }
    }

    pub fn fill(&mut self, under: Under, ctm: &Transform, path: &Path, before: usize) {
        match under {
            Under::Dark => self.paint(Kind::Dark, ctm, path, before, false),
            Under::Light => self.paint(Kind::Light, ctm, path, before, false),
            Under::Clear => {}
        }
    }

    /// Paint over the path, or over all the clip when the path has no
    /// area and `or_clip`; a path with no area paints nothing otherwise.
    fn paint(&mut self, kind: Kind, ctm: &Transform, path: &Path, before: usize, or_clip: bool) {
        if self.painted.len() > MOST {
            return;
        }
        let rings = rings(ctm, path);
        let all = Rect(
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::INFINITY,
        );
        let b = match bounds(&rings) {
            Some(b) => b,
            None if or_clip => all,
            None => return,
        };
        let c = self.clip.unwrap_or(all);
        let bounds = Rect(b.0.max(c.0), b.1.max(c.1), b.2.min(c.2), b.3.min(c.3));
        if bounds.0 <= bounds.2 && bounds.1 <= bounds.3 {
            self.painted.push(Region {
                kind,
                rings,
                bounds,
                before,
            });
        }
    }

    /// Is text signed `sign`, the `index`th thing drawn, shown at `at`: a
    /// picture anywhere under it ([`Sign::UnlessPictured`]), or dark paint
    /// the last drawn under it before it ([`Sign::UnlessDark`])?
    pub fn shows(&self, sign: Sign, at: (f64, f64), index: usize) -> bool {
        if self.painted.len() > MOST {
            return false;
        }
        let mut under = self.painted.iter().filter(|r| r.covers(at));
        match sign {
            Sign::UnlessPictured => under.any(|r| r.kind == Kind::Picture),
            Sign::UnlessDark => under
                .rfind(|r| r.before <= index)
                .is_some_and(|r| r.kind == Kind::Dark),
            _ => false,
        }
    }
}

impl Region {
    /// Is the point inside the region (even-odd: where the path's rule is
    /// not known, the smaller inside)?
    fn covers(&self, (x, y): (f64, f64)) -> bool {
        let b = &self.bounds;
        if !(b.0 <= x && x <= b.2 && b.1 <= y && y <= b.3) {
            return false;
        }
        if self.rings.is_empty() {
            return true;
        }
        let mut inside = false;
        for ring in &self.rings {
            for (i, &(x1, y1)) in ring.iter().enumerate() {
                let (x2, y2) = ring[(i + 1) % ring.len()];
                if (y1 > y) != (y2 > y) && x < x1 + (y - y1) / (y2 - y1) * (x2 - x1) {
                    inside = !inside;
                }
            }
        }
        inside
    }
}

/// The subpaths of a path on the page (a curve by its control points).
fn rings(ctm: &Transform, path: &Path) -> Vec<Vec<(f64, f64)>> {
    let at = |x: f64, y: f64| {
        (
            x * ctm.m11 + y * ctm.m21 + ctm.m31,
            x * ctm.m12 + y * ctm.m22 + ctm.m32,
        )
    };
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    for op in &path.ops {
        match *op {
            PathOp::Rect(x, y, w, h) => {
                out.push(vec![at(x, y), at(x + w, y), at(x + w, y + h), at(x, y + h)]);
                out.push(Vec::new());
            }
            PathOp::MoveTo(x, y) => out.push(vec![at(x, y)]),
            PathOp::LineTo(x, y) => match out.last_mut() {
                Some(r) => r.push(at(x, y)),
                None => out.push(vec![at(x, y)]),
            },
            PathOp::CurveTo(a, b, c, d, x, y) => {
                if let Some(r) = out.last_mut() {
                    r.extend([at(a, b), at(c, d), at(x, y)]);
                }
            }
            PathOp::Close => out.push(Vec::new()),
        }
    }
    out.retain(|r| r.len() >= 3);
    out
}

fn bounds(rings: &[Vec<(f64, f64)>]) -> Option<Rect> {
    let pts = || rings.iter().flatten();
    let r = Rect(
        pts().map(|p| p.0).fold(f64::INFINITY, f64::min),
        pts().map(|p| p.1).fold(f64::INFINITY, f64::min),
        pts().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max),
        pts().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max),
    );
    [r.0, r.1, r.2, r.3]
        .iter()
        .all(|v| v.is_finite())
        .then_some(r)
}
