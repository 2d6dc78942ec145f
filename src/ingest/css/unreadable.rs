//! Styles that leave text drawn but not readable, and colours written in
//! ways a colour parser does not read (red team, round 22): a filter that
//! inverts, brightens or blurs the letters, a blend mode that mixes black
//! ink into the white page, letters shown as dots, a transform that flattens
//! them to a line; the page's own background colour by its system name
//! (`Canvas`), `color(srgb 1 1 1)`, `light-dark(white, white)`. Where what
//! a style leaves cannot be told (a filter by `url()`), it hides: the
//! element is a mark, never read as if shown.

use super::{calls, length};

/// Does this declaration leave what it styles unreadable?
pub(super) fn hides(prop: &str, value: &str) -> bool {
    match prop {
        "filter" | "-webkit-filter" => value != "none" && !calls_all(value, keeps_letters),
        // Any mix but the plain one: black ink screened, lightened or
        // differenced with the white page is white.
        "mix-blend-mode" => !matches!(
            value,
            "normal" | "initial" | "unset" | "inherit" | "revert" | "revert-layer"
        ),
        // Each letter drawn as a dot (`disc`, `circle`, `square`).
        "-webkit-text-security" | "text-security" => value != "none",
        "transform" => calls(value).iter().any(|(f, args)| flattens(f, args)),
        _ => false,
    }
}

/// Is every part of the value a function call that `keep` passes (and no
/// word outside a call, as `url(#f)` or a name)?
fn calls_all(value: &str, keep: fn(&str, &[&str]) -> bool) -> bool {
    let calls = calls(value);
    let words_outside = value
        .split(')')
        .map(|part| part.split('(').next().unwrap_or(""))
        .filter(|w| !w.trim().is_empty())
        .count();
    !calls.is_empty() && words_outside == calls.len() && calls.iter().all(|(f, a)| keep(f, a))
}

/// A filter function that leaves black letters on white readable: grey,
/// sepia, a hue turned, a shadow, a contrast, a slight blur, a darkening,
/// an inversion by less than half (opacity is `css`'s own test).
fn keeps_letters(f: &str, args: &[&str]) -> bool {
    let amount = || {
        args.first()
            .and_then(|a| length(a))
            .map(|(x, unit)| if unit == "%" { x / 100.0 } else { x })
    };
    match f {
        "grayscale" | "sepia" | "saturate" | "hue-rotate" | "drop-shadow" | "contrast"
        | "opacity" => true,
        "brightness" => amount().is_none_or(|x| x <= 1.0),
        "invert" => amount().is_some_and(|x| x < 0.4),
        "blur" => args
            .first()
            .is_none_or(|a| length(a).is_some_and(|(x, unit)| x <= 1.0 && unit != "em")),
        _ => false,
    }
}

/// A transform that flattens what it draws to a line: a 3D matrix that
/// scales x and y to nothing, a skew by a right angle.
fn flattens(f: &str, args: &[&str]) -> bool {
    let num = |a: &str| length(a).map(|(x, _)| x);
    match f {
        "matrix3d" if args.len() == 16 => [0, 1, 4, 5]
            .iter()
            .all(|&i| num(args[i]).is_some_and(|x| x.abs() < 1e-3)),
        "skew" | "skewx" | "skewy" => args.iter().any(|a| {
            length(a).is_some_and(|(x, unit)| {
                let deg = match unit {
                    "rad" => x.to_degrees(),
                    "turn" => x * 360.0,
                    "grad" => x * 0.9,
                    _ => x,
                };
                ((deg.rem_euclid(180.0)) - 90.0).abs() < 1.0
            })
        }),
        _ => false,
    }
}

/// A colour written so that the parser does not read it, as `same_colour`
/// writes it: `Some(Some(c))`; `Some(None)` for one not known; `None`: not
/// one of these.
pub(super) fn colour(v: &str) -> Option<Option<String>> {
    // The system colours (CSS Color 4, and the old names that now mean
    // them), in the light scheme a page is shown in unless it asks.
    const WHITE: &[&str] = &[
        "canvas",
        "field",
        "window",
        "menu",
        "background",
        "infobackground",
        "appworkspace",
        "buttonhighlight",
        "threedhighlight",
    ];
    const BLACK: &[&str] = &[
        "canvastext",
        "fieldtext",
        "windowtext",
        "menutext",
        "buttontext",
        "captiontext",
        "infotext",
    ];
    if WHITE.contains(&v) {
        return Some(Some("white".into()));
    }
    if BLACK.contains(&v) {
        return Some(Some("black".into()));
    }
    // `light-dark(a, b)`: `a` in the light scheme.
    if let Some(inner) = v
        .strip_prefix("light-dark(")
        .and_then(|i| i.strip_suffix(')'))
    {
        let mut depth = 0;
        let split = inner.char_indices().find(|&(_, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            c == ',' && depth == 0
        });
        let light = split.map_or(inner, |(i, _)| &inner[..i]).trim();
        return Some(super::same_colour(light));
    }
    // `color(srgb r g b)` (or another RGB space, close enough for white):
    // as `rgb()`, with its alpha.
    if let Some(inner) = v.strip_prefix("color(").and_then(|i| i.strip_suffix(')')) {
        let parts: Vec<&str> = inner.split([' ', '/']).filter(|p| !p.is_empty()).collect();
        let rgb = [
            "srgb",
            "srgb-linear",
            "display-p3",
            "a98-rgb",
            "prophoto-rgb",
            "rec2020",
        ];
        if parts.len() >= 4 && rgb.contains(&parts[0]) {
            let value =
                |p: &str| length(p).map(|(x, unit)| if unit == "%" { x / 100.0 } else { x });
            let c: Option<Vec<f64>> = parts[1..4].iter().map(|p| value(p)).collect();
            let alpha = parts.get(4).and_then(|p| value(p)).unwrap_or(1.0);
            return Some(c.map(|c| {
                let byte = |x: f64| (x.clamp(0.0, 1.0) * 255.0).round();
                format!("rgba({},{},{},{alpha})", byte(c[0]), byte(c[1]), byte(c[2]))
            }));
        }
        return Some(None);
    }
    None
}

/// Does a rule's body set the text colour `!important` (which beats an
/// inline style that is not)?
pub(in crate::ingest) fn important_ink(body: &str) -> bool {
    super::tidy(&super::without_comments(body))
        .split(';')
        .filter_map(|d| d.split_once(':'))
        .any(|(p, v)| p.trim() == "color" && v.trim().ends_with("!important"))
}
