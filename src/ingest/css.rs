//! Does a style hide what it styles? The CSS declarations (an inline
//! `style`, or a class rule of the page's own style sheet) by which pages
//! hide text: not displayed, invisible, transparent, too small to see,
//! moved far off the page, clipped, squeezed or scaled to nothing, or
//! drawn right to left so that the page does not show it as written; or
//! struck through (`text-decoration: line-through`), shown as deleted,
//! which is read as `<s>` is: not text, a mark in its place.
//! Comments are not declarations (`/* visibility: hidden */`, as Project
//! Gutenberg's style sheets leave it for page numbers).

mod unreadable;

pub(super) use unreadable::important_ink;

/// A style's declarations, read once: (property, value without
/// `!important`), tidied.
pub(super) struct Style(Vec<(String, String)>);

/// Does this inline style or rule hide what it styles?
pub(super) fn hides(style: &str) -> bool {
    Style::parse(style).hides()
}

impl Style {
    pub(super) fn parse(style: &str) -> Style {
        Style(
            tidy(&without_comments(style))
                .split(';')
                .filter_map(|decl| decl.split_once(':'))
                .map(|(prop, value)| {
                    let value = value.trim_end_matches("!important").trim();
                    (prop.trim().to_string(), value.to_string())
                })
                .collect(),
        )
    }

    /// The values `prop` is given, in order.
    fn values<'a>(&'a self, prop: &'a str) -> impl Iterator<Item = &'a str> {
        self.0
            .iter()
            .filter(move |(p, _)| p == prop)
            .map(|(_, v)| v.as_str())
    }

    /// Does the style hide what it styles (see the module)?
    pub(super) fn hides(&self) -> bool {
        let decls: Vec<(&str, &str)> = self
            .0
            .iter()
            .map(|(p, v)| (p.as_str(), v.as_str()))
            .collect();
        let has =
            |p: &str, test: &dyn Fn(&str) -> bool| decls.iter().any(|&(q, v)| q == p && test(v));
        let overflow = |v: &str| v.starts_with("hidden") || v.starts_with("clip");
        let squeezed = (has("overflow", &overflow)
            || has("overflow-x", &overflow)
            || has("overflow-y", &overflow)
            || has("overflow-inline", &overflow)
            || has("overflow-block", &overflow))
            && [
                "width",
                "height",
                "max-width",
                "max-height",
                "inline-size",
                "block-size",
                "max-inline-size",
                "max-block-size",
            ]
            .iter()
            .any(|p| {
                has(p, &|v| {
                    length(v).is_some_and(|(x, unit)| {
                        x == 0.0 || (matches!(unit, "px" | "pt" | "") && x <= 1.0)
                    })
                })
            });
        let reversed = self.overrides() && self.direction() == Some(true);
        // Its text drawn in the colour of its own background (the
        // "redacted" bar: `background: #000; color: #000`).
        let colour_of = |props: &[&str]| {
            decls
                .iter()
                .rev()
                .find(|(p, _)| props.contains(p))
                .map(|(_, v)| same_colour(v))
        };
        let on_itself = match (
            colour_of(&["color"]),
            colour_of(&["background", "background-color"]),
        ) {
            (Some(Some(c)), Some(Some(b))) => c == b,
            _ => false,
        };
        // Turned to show its back, which is not drawn.
        let back_turned = has("backface-visibility", &|v| v == "hidden")
            && has("transform", &|v| {
                calls(v).iter().any(|(f, args)| {
                    matches!(*f, "rotatex" | "rotatey" | "rotate3d")
                        && args
                            .last()
                            .and_then(|a| length(a))
                            .is_some_and(|(x, unit)| {
                                unit == "deg" && ((x.rem_euclid(360.0) - 180.0).abs() < 90.0)
                            })
                })
            });
        // Indented a page's width away with what overflows hidden
        // (`text-indent: 100%; overflow: hidden`).
        let indented_away = has("overflow", &overflow)
            && has("text-indent", &|v| {
                length(v).is_some_and(|(x, unit)| (unit == "%" && x >= 100.0) || x >= 999.0)
            });
        squeezed
            || reversed
            || back_turned
            || on_itself
            || indented_away
            || decls.iter().any(|&(prop, value)| match prop {
                "display" => value == "none",
                // Struck through, as `<s>` is: words shown as deleted.
                "text-decoration" | "text-decoration-line" => {
                    value.split(' ').any(|w| w == "line-through")
                }
                "visibility" => matches!(value, "hidden" | "collapse"),
                "content-visibility" => value == "hidden",
                "opacity" => faint(value),
                "font-size" => too_small(value),
                // The shorthand's size: `font: 0/0 a`.
                "font" => value
                    .split(' ')
                    .find(|w| w.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
                    .is_some_and(|w| too_small(w.split('/').next().unwrap_or(w))),
                "zoom" => faint(value),
                // Letters drawn over each other.
                "letter-spacing" => length(value).is_some_and(|(x, unit)| match unit {
                    "em" | "rem" => x <= -0.5,
                    "px" | "pt" => x <= -8.0,
                    _ => false,
                }),
                "margin"
                | "inset"
                | "inset-inline-start"
                | "inset-block-start"
                | "inset-inline"
                | "inset-block"
                | "margin-inline-start"
                | "margin-block-start" => value.split(' ').any(far_off),
                "color" | "-webkit-text-fill-color" => transparent(value),
                "mask" | "mask-image" | "-webkit-mask" | "-webkit-mask-image" => masks_all(value),
                // The transform properties of their own.
                "scale" => value.split(' ').any(faint),
                // Turned edge-on about an axis in the page (`rotate: x 90deg`).
                "rotate" => {
                    value.split(' ').next().is_some_and(|a| matches!(a, "x" | "y"))
                        && value.split(' ').filter_map(length).any(|(x, unit)| {
                            unit == "deg" && ((x.abs() - 90.0).abs() < 1.0 || (x.abs() - 270.0).abs() < 1.0)
                        })
                }
                "translate" => value.split(' ').any(far_off),
                // Set far from the right or bottom edge: off the left or top.
                "right" | "bottom"
                    if length(value).is_some_and(|(x, unit)| {
                        matches!(unit, "px" | "pt" | "") && x >= 999.0
                    }) =>
                {
                    true
                }
                "left" | "top" | "right" | "bottom" | "text-indent" | "margin-left" | "margin-top" => {
                    far_off(value)
                }
                "clip" => calls(value).iter().any(|(f, args)| {
                    *f == "rect"
                        && args
                            .iter()
                            .all(|a| length(a).is_some_and(|(x, _)| x.abs() <= 1.0))
                }),
                "clip-path" => calls(value).iter().any(|(f, args)| match *f {
                    "inset" => inset_closes(args),
                    "circle" | "ellipse" => args.first().is_some_and(|a| zero(a)),
                    // Every corner at one point: nothing inside.
                    "polygon" => {
                        let points: Vec<Option<(f64, &str)>> = args.iter().map(|a| length(a)).collect();
                        points.len() >= 2 && points.iter().all(|p| p.is_some_and(|(x, _)| x == 0.0))
                    }
                    _ => false,
                }),
                "transform" => calls(value).iter().any(|(f, args)| {
                    (f.starts_with("scale") && args.iter().any(|a| faint(a)))
                        // A matrix that scales to nothing: `matrix(0, 0, 0, 0, …)`.
                        || (*f == "matrix"
                            && args.len() == 6
                            && args[..4].iter().all(|a| faint(a)))
                        // Turned edge-on.
                        || (matches!(*f, "rotatex" | "rotatey")
                            && args.first().and_then(|a| length(a)).is_some_and(|(x, unit)| {
                                unit == "deg"
                                    && ((x.abs() - 90.0).abs() < 1.0 || (x.abs() - 270.0).abs() < 1.0)
                            }))
                        || (f.starts_with("translate") && args.iter().any(|a| far_off(a)))
                }),
                "filter" => calls(value)
                    .iter()
                    .any(|(f, args)| *f == "opacity" && args.first().is_some_and(|a| faint(a))),
                _ => false,
            })
            || decls.iter().any(|&(prop, value)| unreadable::hides(prop, value))
    }

    /// The text colour it sets, written one way (see [`same_colour`]);
    /// `Some(None)` for one not known (`inherit`, a variable).
    pub(super) fn ink(&self) -> Option<Option<String>> {
        self.values("color").last().map(same_colour)
    }

    /// The colour of the background it paints, when it paints one.
    pub(super) fn backdrop(&self) -> Option<Option<String>> {
        self.0
            .iter()
            .rev()
            .find(|(p, v)| {
                (p == "background" || p == "background-color") && v != "transparent" && v != "none"
            })
            .map(|(_, v)| same_colour(v))
    }

    /// Set apart as a block (`display: block`, a list item, a table).
    pub(super) fn block(&self) -> bool {
        self.values("display").any(|v| {
            matches!(
                v,
                "block" | "list-item" | "table" | "flex" | "grid" | "table-row"
            )
        })
    }

    /// Out of the line of text: placed on its own (`position: absolute`
    /// or `fixed`, a page number in the margin) or floated beside it (a
    /// sidenote).
    pub(super) fn out_of_flow(&self) -> bool {
        self.values("position")
            .any(|v| v == "absolute" || v == "fixed")
            || self.values("float").any(|v| v != "none")
    }

    /// An override of the text's direction (`unicode-bidi:
    /// bidi-override`): drawn right to left when the direction there is.
    pub(super) fn overrides(&self) -> bool {
        self.values("unicode-bidi")
            .any(|v| v.starts_with("bidi-override") || v.starts_with("isolate-override"))
    }

    /// The direction the style sets: `Some(true)` for right to left.
    pub(super) fn direction(&self) -> Option<bool> {
        self.values("direction").find_map(|v| match v {
            "rtl" => Some(true),
            "ltr" => Some(false),
            _ => None,
        })
    }

    /// A superscript (`Some(true)`) or subscript (`Some(false)`):
    /// `vertical-align: super`, `top`, or a length up; or moved up by a
    /// relative offset (`position: relative; top: -0.5em`).
    pub(super) fn shift(&self) -> Option<bool> {
        let by_align = self.values("vertical-align").find_map(|v| match v {
            "super" | "top" | "text-top" => Some(true),
            "sub" | "bottom" | "text-bottom" => Some(false),
            _ => length(v).filter(|(x, _)| *x != 0.0).map(|(x, _)| x > 0.0),
        });
        let relative = self.values("position").any(|v| v == "relative");
        let by_offset = || {
            self.values("top")
                .find_map(|v| length(v).filter(|(x, _)| *x != 0.0).map(|(x, _)| x < 0.0))
                .filter(|_| relative)
        };
        by_align.or_else(by_offset)
    }
}

/// An `inset()` that clips everything: top and bottom, or left and right,
/// meet (`inset(50%)`, `inset(0 0 100% 0)`).
fn inset_closes(args: &[&str]) -> bool {
    let pct: Vec<f64> = args
        .iter()
        .take_while(|a| **a != "round")
        .map(|a| match length(a) {
            Some((x, "%")) => x,
            _ => 0.0,
        })
        .collect();
    let (top, right, bottom, left) = match pct[..] {
        [a] => (a, a, a, a),
        [a, b] => (a, b, a, b),
        [a, b, c] => (a, b, c, b),
        [a, b, c, d, ..] => (a, b, c, d),
        [] => return false,
    };
    top + bottom >= 100.0 || left + right >= 100.0
}

/// Zero, or so near it that nothing shows (an opacity or a scale of 0.01).
fn faint(v: &str) -> bool {
    length(v).is_some_and(|(x, unit)| match unit {
        "%" => x.abs() < 5.0,
        _ => x.abs() < 0.05,
    })
}

pub(super) fn without_comments(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find("/*") {
        out.push_str(&rest[..at]);
        rest = rest[at + 2..]
            .split_once("*/")
            .map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out
}

/// Lowercase, runs of whitespace as one space, none around punctuation:
/// `rgba( 0, 0 ,0,0 )` reads `rgba(0,0,0,0)`, `rgb(0 0 0 / 0)` keeps its
/// spaces between numbers.
fn tidy(s: &str) -> String {
    let lower = unescape(s).to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let mut out = String::new();
    for w in words {
        let glue =
            out.ends_with([':', ';', ',', '(', '/']) || w.starts_with([':', ';', ',', ')', '/']);
        if !out.is_empty() && !glue {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// CSS escapes read as the characters they stand for, as a browser reads
/// them: `n\one` is `none`, `\6e one` is `none` (up to six hex digits
/// and one space after them), an escaped line break is nothing.
fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let mut hex = String::new();
        while hex.len() < 6 && chars.peek().is_some_and(char::is_ascii_hexdigit) {
            hex.extend(chars.next());
        }
        if hex.is_empty() {
            match chars.next() {
                Some('\n' | '\r' | '\u{c}') | None => {}
                Some(other) => out.push(other),
            }
            continue;
        }
        if chars.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            chars.next();
        }
        let code = u32::from_str_radix(&hex, 16).unwrap_or(0);
        out.push(
            char::from_u32(code)
                .filter(|&c| c != '\0')
                .unwrap_or('\u{FFFD}'),
        );
    }
    out
}

/// A length or number and its unit: "0", "-9999px", "0.0em", "50%".
fn length(v: &str) -> Option<(f64, &str)> {
    // `calc(0px)`: the one value it holds; `calc(0 * 1px)`: nothing.
    if let Some(inner) = v.strip_prefix("calc(").and_then(|i| i.strip_suffix(')')) {
        let inner = inner.trim();
        if let Some((a, b)) = inner.split_once(" + ") {
            let (a, b) = (length(a.trim())?, length(b.trim())?);
            return (a.1 == b.1 || a.0 == 0.0 || b.0 == 0.0)
                .then_some((a.0 + b.0, if a.1.is_empty() { b.1 } else { a.1 }));
        }
        if let Some((a, b)) = inner.split_once('*') {
            let (a, b) = (length(a.trim())?, length(b.trim())?);
            let unit = if a.1.is_empty() { b.1 } else { a.1 };
            return Some((a.0 * b.0, unit));
        }
        return length(inner);
    }
    let n = v.trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == '%');
    n.parse::<f64>().ok().map(|x| (x, &v[n.len()..]))
}

fn zero(v: &str) -> bool {
    length(v).is_some_and(|(x, _)| x == 0.0)
}

/// A font size no reader can read: under 3 px or pt, or a fifth of the
/// surrounding size.
fn too_small(v: &str) -> bool {
    length(v).is_some_and(|(x, unit)| match unit {
        // Under 3 px (0.2 em of a 16 px page): dots, not letters.
        "" | "px" | "pt" => x < 3.0,
        "em" | "rem" | "ex" | "ch" => x < 0.2,
        // A share of the window (`0.01vmin`): under 3 px of a small one.
        "vw" | "vh" | "vmin" | "vmax" | "vi" | "vb" | "svw" | "svh" | "lvw" | "lvh" | "dvw"
        | "dvh" | "svmin" | "svmax" | "dvmin" | "dvmax" | "lvmin" | "lvmax" | "cqw" | "cqh"
        | "cqi" | "cqb" | "cqmin" | "cqmax" => x < 0.5,
        "%" => x < 20.0,
        _ => x == 0.0,
    })
}

/// Far off the page: the "visually hidden" idiom of -9999px.
fn far_off(v: &str) -> bool {
    length(v).is_some_and(|(x, unit)| match unit {
        "" | "px" | "pt" => x <= -999.0,
        "em" | "rem" | "ch" => x <= -99.0,
        "vw" | "vh" | "%" => x <= -100.0,
        _ => false,
    })
}

/// A colour with no opacity: `transparent`, an alpha of 0 (`rgba(0,0,0,0)`,
/// `rgb(0 0 0 / 0)`, `hsla(…, 0%)`), or `#0000` / `#rrggbb00`.
fn transparent(v: &str) -> bool {
    if v == "transparent" {
        return true;
    }
    if let Some(hex) = v.strip_prefix('#') {
        return matches!(hex.len(), 4 | 8)
            && hex.ends_with(if hex.len() == 4 { "0" } else { "00" });
    }
    calls(v).iter().any(|(f, args)| {
        matches!(
            *f,
            "rgb" | "rgba" | "hsl" | "hsla" | "hwb" | "lab" | "lch" | "oklab" | "oklch"
        ) && args.len() == 4
            && faint(args[3])
            // `color(srgb 0 0 0 / 0)`: the space, three values, the alpha.
            || *f == "color" && args.len() == 5 && faint(args[4])
            // `color-mix(in srgb, transparent 100%, red)`.
            || *f == "color-mix"
                && (args.windows(2).any(|w| w[0] == "transparent" && w[1] == "100%")
                    || args.windows(2).any(|w| w[0] != "transparent" && w[1] == "0%")
                    || args.iter().filter(|a| **a == "transparent").count() == 2)
    })
}

/// A plain colour, written one way for every way of writing it that is
/// black or white (`#000`, `black`, `rgb(0,0,0)`); others as written.
fn same_colour(v: &str) -> Option<String> {
    if let Some(c) = unreadable::colour(v) {
        return c;
    }
    let v = v
        .split(' ')
        .find(|w| !w.starts_with("url(") && *w != "none")?;
    // Keywords that name no colour of their own.
    if ["inherit", "initial", "unset", "revert", "currentcolor"].contains(&v)
        || v.starts_with("var(")
    {
        return None;
    }
    let black = ["#000", "#000000", "black", "rgb(0,0,0)"];
    let white = ["#fff", "#ffffff", "white", "rgb(255,255,255)"];
    Some(if black.contains(&v) {
        "black".into()
    } else if white.contains(&v) {
        "white".into()
    } else {
        v.to_string()
    })
}

/// Text in colour `ink` on `backdrop` (CSS colours, as written) cannot be
/// told from it: a contrast ratio under 1.05 (white on white, `#fefefe`
/// on `#fff`, translucent white on white); colours not read are apart.
pub(super) fn indistinct(ink: &str, backdrop: &str) -> bool {
    let (Ok(i), Ok(b)) = (csscolorparser::parse(ink), csscolorparser::parse(backdrop)) else {
        return false;
    };
    // The text blends into what is behind it by its opacity.
    let blend = |x: f32, y: f32| i.a * x + (1.0 - i.a) * y;
    let lum = |r: f32, g: f32, b: f32| {
        let lin = |c: f32| {
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    };
    let l1 = lum(blend(i.r, b.r), blend(i.g, b.g), blend(i.b, b.b));
    let l2 = lum(b.r, b.g, b.b);
    (l1.max(l2) + 0.05) / (l1.min(l2) + 0.05) < 1.05
}

/// A mask that lets nothing through: a gradient of transparent stops only.
fn masks_all(v: &str) -> bool {
    let directions = [
        "to", "left", "right", "top", "bottom", "center", "circle", "ellipse", "at",
    ];
    calls(v).iter().any(|(f, args)| {
        let colours: Vec<&&str> = args
            .iter()
            .filter(|a| length(a).is_none() && !directions.contains(a))
            .collect();
        f.ends_with("gradient") && !colours.is_empty() && colours.iter().all(|c| transparent(c))
    })
}

/// The function calls of a value, with their arguments: `scale(0)
/// rotate(10deg)` gives `[("scale", ["0"]), ("rotate", ["10deg"])]`.
fn calls(v: &str) -> Vec<(&str, Vec<&str>)> {
    let mut out = Vec::new();
    let mut rest = v;
    while let Some(open) = rest.find('(') {
        let name = rest[..open].rsplit([' ', ',']).next().unwrap_or("").trim();
        let Some(close) = rest[open..].find(')') else {
            break;
        };
        let args: Vec<&str> = rest[open + 1..open + close]
            .split([',', ' ', '/'])
            .filter(|a| !a.is_empty())
            .collect();
        out.push((name, args));
        rest = &rest[open + close + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::hides;

    #[test]
    fn styles_that_hide_and_styles_that_show() {
        for hiding in [
            "display:none",
            "visibility: collapse",
            "opacity: 0%",
            "font-size: 0.01px",
            "font-size: 0.05em",
            "font-size: 0.1em",
            "font-size: 2px",
            "font-size: 15%",
            // Escaped as CSS allows: read as a browser reads them.
            "display: n\\one",
            "display: \\6e one",
            "display: \\00006Eone",
            "vi\\sibility: hidden",
            "color: rgba(0, 0, 0, 0)",
            "color: rgb(0 0 0 / 0)",
            "color: #0000",
            "color: #ffffff00",
            "color: transparent",
            "transform: scaleX(0)",
            "transform: scale(0) rotate(10deg)",
            "transform: scale(1, 0)",
            "transform: translateX(-9999px)",
            "transform: translate(-200vw, 0)",
            "left: -100vw",
            "position:absolute; left:-9999px",
            "text-indent: -100em",
            "clip: rect(1px, 1px, 1px, 1px)",
            "width:1px;height:1px;overflow:hidden",
            "transform: scale(0)",
            "position:absolute;clip:rect(0 0 0 0)",
            "clip-path: circle(0)",
            "clip-path: inset(50%)",
            "max-height: 0; overflow: hidden",
            "filter: opacity(0)",
            "unicode-bidi: bidi-override; direction: rtl",
            "unicode-bidi: isolate-override; direction: rtl",
            "/* shown */ display: none",
            "height: 0; overflow-y: hidden",
            "clip-path: inset(0 0 100% 0)",
            "content-visibility: hidden",
            "opacity: 0.01",
            "transform: scale(0.01)",
            "-webkit-text-fill-color: transparent",
            "font: 0/0 a",
            "transform: matrix(0, 0, 0, 0, 0, 0)",
            "block-size: 0; overflow: hidden hidden",
            "inset-inline-start: -9999px",
            "margin: 0 0 0 -9999px",
            "color: color(srgb 0 0 0 / 0)",
            "color: rgba(0, 0, 0, 0.004)",
            "zoom: 0.01",
            "letter-spacing: -1em",
            "scale: 0",
            "translate: -9999px",
            "clip-path: polygon(0 0, 0 0, 0 0)",
            "transform: rotateY(90deg)",
            "text-decoration: line-through",
            "text-decoration: red wavy line-through",
            "text-decoration-line: underline line-through",
            "opacity: calc(0)",
            "font-size: calc(0px)",
            "font-size: calc(0 * 1px)",
            "mask-image: linear-gradient(transparent, transparent)",
            "-webkit-mask-image: linear-gradient(to right, transparent 0%, transparent 100%)",
            "color: color-mix(in srgb, transparent 100%, red)",
            "backface-visibility: hidden; transform: rotateY(180deg)",
            "background: #000; color: #000",
            "background-color: black; color: #000000",
            "text-indent: 100%; white-space: nowrap; overflow: hidden",
            "position: absolute; right: 9999px",
            "rotate: x 90deg",
            "color: color-mix(in srgb, transparent, transparent)",
            "color: color-mix(in srgb, red 0%, transparent)",
            "mask-image: linear-gradient(#0000, #0000)",
            "font-size: calc(0px + 0px)",
        ] {
            assert!(hides(hiding), "{hiding}");
        }
        for showing in [
            "display: block",
            "visibility: visible",
            "opacity: 0.5",
            "font-size: 0.8em",
            "font-size: 9px",
            "font-size: 0.25em",
            "font-size: 4px",
            "display: \\62lock",
            "display: n\\ot-none",
            "color: rgba(0, 0, 0, 0.5)",
            "color: #000",
            "color: #ffffff",
            "transform: scale(1.5) rotate(10deg)",
            "transform: translateX(-20px)",
            "left: -2px",
            "margin-left: -1em",
            "clip: rect(0 200px 50px 0)",
            "width: 1px",
            "transform: scale(1.5)",
            "color: red",
            "clip-path: circle(40%)",
            "clip-path: inset(10%)",
            "max-height: 300px; overflow: hidden",
            "filter: opacity(0.8)",
            "direction: rtl",
            "/* display: none */ color: red",
            "clip-path: inset(0 0 40% 0)",
            "content-visibility: auto",
            "opacity: 0.1",
            "transform: scale(0.5)",
            "scale: 1.2",
            "font: 12px/1.5 serif",
            "transform: matrix(1, 0, 0, 1, 5, 5)",
            "margin: 0 auto",
            "letter-spacing: 0.1em",
            "zoom: 1.5",
            "translate: 10px",
            "clip-path: polygon(0 0, 100% 0, 100% 100%)",
            "transform: rotateY(30deg)",
            "text-decoration: underline",
            "text-decoration: none",
            "opacity: calc(0.8)",
            "font-size: calc(1em + 2px)",
            "mask-image: linear-gradient(black, transparent)",
            "color: color-mix(in srgb, transparent 30%, red)",
            "backface-visibility: hidden; transform: rotateY(20deg)",
            "background: #000; color: #fff",
            "background: yellow; color: black",
            "text-indent: 2em; overflow: hidden",
            "right: 10px",
            "rotate: 20deg",
            "rotate: z 90deg",
            "font-size: calc(1em + 2px)",
            "background: inherit; color: inherit",
            "height: 1em; overflow: hidden",
        ] {
            assert!(!hides(showing), "{showing}");
        }
    }
}
