//! The styles of a Word document (`word/styles.xml`): what each style
//! does to the runs it is given to, resolved through the styles it is
//! based on and the document's defaults.

use super::attr;
use quick_xml::events::Event;

/// The styles of `word/styles.xml` that hide their text (`w:vanish` in
/// their run properties, in a style they are based on, or in the
/// document's defaults `w:docDefaults` when neither says otherwise) or
/// strike it through (`w:strike`, `w:dstrike`), and whether the default
/// paragraph style (or the defaults) does so to every paragraph that names
/// no style.
pub(super) fn hidden_styles(xml: &str, theme: super::theme::Theme) -> HiddenStyles {
    let off = |e: &quick_xml::events::BytesStart<'_>| {
        matches!(attr(e, b"val").as_deref(), Some("0" | "false" | "off"))
    };
    let mut r = quick_xml::Reader::from_str(xml);
    let mut styles: Vec<StyleProps> = Vec::new();
    let mut default_paragraph = None;
    let mut in_rpr = false;
    // Inside `w:docDefaults`, and what its run properties set.
    let mut in_defaults = false;
    let mut defaults = StyleProps::default();
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"style" => {
                let id = attr(&e, b"styleId").unwrap_or_default();
                if attr(&e, b"type").as_deref() == Some("paragraph")
                    && matches!(attr(&e, b"default").as_deref(), Some("1" | "true" | "on"))
                {
                    default_paragraph = Some(id.clone());
                }
                styles.push(StyleProps {
                    id,
                    ..StyleProps::default()
                });
            }
            Event::Start(e) if e.local_name().as_ref() == b"rPr" => in_rpr = true,
            Event::End(e) if e.local_name().as_ref() == b"rPr" => in_rpr = false,
            Event::Start(e) if e.local_name().as_ref() == b"docDefaults" => in_defaults = true,
            Event::End(e) if e.local_name().as_ref() == b"docDefaults" => in_defaults = false,
            // `<x/>` and `<x></x>` are the same element.
            Event::Empty(e) | Event::Start(e) => {
                let target = if in_defaults {
                    Some(&mut defaults)
                } else {
                    styles.last_mut()
                };
                match (e.local_name().as_ref(), target) {
                    (b"basedOn", Some(s)) if !in_defaults => s.based_on = attr(&e, b"val"),
                    // A heading by its outline level or its built-in name,
                    // which Word writes in English whatever the language
                    // of the style's id ("Überschrift1" is "heading 1").
                    (b"name", Some(s)) if !in_defaults => {
                        s.name_level = attr(&e, b"val").and_then(|v| super::style_level(&v))
                    }
                    (b"outlineLvl", Some(s)) if !in_rpr && !in_defaults => {
                        s.outline = number(&e).map(|v| v as u8)
                    }
                    (b"vanish", Some(s)) if in_rpr => s.vanish = Some(!off(&e)),
                    (b"strike" | b"dstrike", Some(s)) if in_rpr => s.strike = Some(!off(&e)),
                    (b"color", Some(s)) if in_rpr => {
                        s.ink = theme.colour(&e, b"val", super::THEME_INK)
                    }
                    (b"vertAlign", Some(s)) if in_rpr => s.raised = Some(vert_align(&e)),
                    (b"sz", Some(s)) if in_rpr => {
                        s.tiny = Some(number(&e).is_some_and(|v| v < 4.0))
                    }
                    (b"w", Some(s)) if in_rpr => {
                        s.squeezed = Some(number(&e).is_some_and(|v| v < 10.0))
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    // What a style sets, else what the style it is based on does (a chain
    // is short; a loop ends), else the defaults.
    fn chain<T>(
        styles: &[StyleProps],
        defaults: &StyleProps,
        id: &str,
        get: &dyn Fn(&StyleProps) -> Option<T>,
    ) -> Option<T> {
        let mut at = styles.iter().find(|s| s.id == id);
        for _ in 0..32 {
            let Some(s) = at else { break };
            if let Some(v) = get(s) {
                return Some(v);
            }
            at = s
                .based_on
                .as_deref()
                .and_then(|b| styles.iter().find(|s| s.id == b));
        }
        get(defaults)
    }
    let resolve = |id: &str, get: &dyn Fn(&StyleProps) -> Option<bool>| -> bool {
        chain(&styles, &defaults, id, get).unwrap_or(false)
    };
    // A paragraph's look falls back on the defaults; a character style's
    // sets only what it (or a style it is based on) sets, over the
    // paragraph's.
    let none = StyleProps::default();
    let look_of = |id: Option<&str>, base: &StyleProps| -> Look {
        let id = id.unwrap_or("\u{0}");
        Look {
            ink: chain(&styles, base, id, &|s| s.ink.clone()),
            raised: chain(&styles, base, id, &|s| s.raised).flatten(),
            tiny: chain(&styles, base, id, &|s| s.tiny).unwrap_or(false),
            squeezed: chain(&styles, base, id, &|s| s.squeezed).unwrap_or(false),
        }
    };
    let looks = |base: &StyleProps| {
        styles
            .iter()
            .map(|s| (s.id.clone(), look_of(Some(&s.id), base)))
            .collect()
    };
    let set = |get: &dyn Fn(&StyleProps) -> Option<bool>| -> std::collections::HashSet<String> {
        styles
            .iter()
            .filter(|s| resolve(&s.id, get))
            .map(|s| s.id.clone())
            .collect()
    };
    let (vanish, strike) = (|s: &StyleProps| s.vanish, |s: &StyleProps| s.strike);
    let default_of = |get: &dyn Fn(&StyleProps) -> Option<bool>| match &default_paragraph {
        Some(d) => resolve(d, get),
        None => get(&defaults).unwrap_or(false),
    };
    // A style's heading level: its outline level (9 is body text), else
    // its name's, else the style it is based on's.
    let levels = styles
        .iter()
        .filter_map(|s| {
            let level = chain(&styles, &none, &s.id, &|s| {
                s.outline.map(|o| o.saturating_add(1)).or(s.name_level)
            })?;
            (1..=9)
                .contains(&level)
                .then(|| (s.id.clone(), level.min(6)))
        })
        .collect();
    HiddenStyles {
        levels,
        default_paragraph: default_of(&vanish),
        default_struck: default_of(&strike),
        ids: set(&vanish),
        struck: set(&strike),
        default_look: look_of(default_paragraph.as_deref(), &defaults),
        looks: looks(&defaults),
        char_looks: looks(&none),
        theme,
    }
}

/// The run properties a style (or the document's defaults) sets.
#[derive(Default)]
struct StyleProps {
    id: String,
    based_on: Option<String>,
    vanish: Option<bool>,
    strike: Option<bool>,
    /// Text colour (`w:color`), raised or lowered (`w:vertAlign`), too
    /// small to read (`w:sz` under 2 pt), squeezed to nothing (`w:w`
    /// under 10 %).
    ink: Option<String>,
    raised: Option<Option<bool>>,
    tiny: Option<bool>,
    squeezed: Option<bool>,
    /// The outline level (`w:outlineLvl`, 0-based), and the heading level
    /// of the style's name ("heading 2").
    outline: Option<u8>,
    name_level: Option<u8>,
}

/// How a style draws its runs, resolved through the styles it is based on
/// and the document's defaults (what [`super::parse_document`] reads from a run's
/// own properties, when a style sets it instead).
#[derive(Default, Clone)]
pub(super) struct Look {
    pub(super) ink: Option<String>,
    pub(super) raised: Option<bool>,
    pub(super) tiny: bool,
    pub(super) squeezed: bool,
}

/// The styles that hide their text and those that strike it through, by
/// id, and whether the default paragraph style (a paragraph's that names
/// none) does either.
#[derive(Default)]
pub(super) struct HiddenStyles {
    pub(super) ids: std::collections::HashSet<String>,
    pub(super) struck: std::collections::HashSet<String>,
    pub(super) default_paragraph: bool,
    pub(super) default_struck: bool,
    /// How each style draws its runs, and the default paragraph style
    /// (or the defaults, when there is none).
    pub(super) looks: std::collections::HashMap<String, Look>,
    pub(super) char_looks: std::collections::HashMap<String, Look>,
    pub(super) default_look: Look,
    /// The theme's colours, for what is coloured by it.
    pub(super) theme: super::theme::Theme,
    /// The heading level of each paragraph style that is a heading.
    pub(super) levels: std::collections::HashMap<String, u8>,
}

/// A `w:vertAlign`: Some(true) for superscript, Some(false) subscript.
pub(super) fn vert_align(e: &quick_xml::events::BytesStart<'_>) -> Option<bool> {
    match attr(e, b"val").as_deref() {
        Some("superscript") => Some(true),
        Some("subscript") => Some(false),
        _ => None,
    }
}

/// An element's `w:val` as a number.
pub(super) fn number(e: &quick_xml::events::BytesStart<'_>) -> Option<f64> {
    attr(e, b"val").and_then(|v| v.parse::<f64>().ok())
}
