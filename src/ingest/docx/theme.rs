//! The colours of a Word document's theme (`word/theme/theme1.xml`, mapped
//! by `w:clrSchemeMapping` in `word/settings.xml`). A run, a shading or
//! the page coloured by the theme (`w:themeColor="background1"`,
//! `w:themeFill`) is drawn in the theme's colour and its `w:val` ignored
//! (ECMA-376 17.3.2.6): "000000" written beside `background1` is white.

use super::{attr, word_colour};
use quick_xml::events::{BytesStart, Event};
use std::collections::HashMap;

/// The theme's colours by slot ("lt1" → "ffffff") and the document's
/// mapping of its names onto them ("bg1" → "light1").
#[derive(Default, Clone)]
pub(super) struct Theme {
    slots: HashMap<String, String>,
    mapping: HashMap<String, String>,
}

/// Office's default theme, for a slot the document's theme lacks.
const DEFAULT_SLOTS: &[(&str, &str)] = &[
    ("dk1", "000000"),
    ("lt1", "ffffff"),
    ("dk2", "44546a"),
    ("lt2", "e7e6e6"),
    ("accent1", "4472c4"),
    ("accent2", "ed7d31"),
    ("accent3", "a5a5a5"),
    ("accent4", "ffc000"),
    ("accent5", "5b9bd5"),
    ("accent6", "70ad47"),
    ("hlink", "0563c1"),
    ("folHlink", "954f72"),
];

/// The slots of a theme's colour scheme.
const SLOTS: &[&str] = &[
    "dk1", "lt1", "dk2", "lt2", "accent1", "accent2", "accent3", "accent4", "accent5", "accent6",
    "hlink", "folHlink",
];

impl Theme {
    /// The theme from its part and the settings part (either may be
    /// missing: Office's defaults then).
    pub(super) fn read(theme: Option<&str>, settings: Option<&str>) -> Theme {
        let mut t = Theme::default();
        if let Some(xml) = theme {
            let mut r = quick_xml::Reader::from_str(xml);
            let mut slot: Option<String> = None;
            let mut in_scheme = false;
            while let Ok(ev) = r.read_event() {
                match ev {
                    Event::Start(e) | Event::Empty(e) => {
                        let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                        match name.as_str() {
                            // The first scheme is the document's.
                            "clrScheme" if t.slots.is_empty() => in_scheme = true,
                            s if in_scheme && SLOTS.contains(&s) => slot = Some(name),
                            "srgbClr" | "sysClr" => {
                                let value = if name == "srgbClr" {
                                    attr(&e, b"val")
                                } else {
                                    attr(&e, b"lastClr").or_else(|| {
                                        match attr(&e, b"val").as_deref() {
                                            Some("window") => Some("ffffff".into()),
                                            Some("windowText") => Some("000000".into()),
                                            _ => None,
                                        }
                                    })
                                };
                                if let (Some(s), Some(v)) = (slot.take(), value) {
                                    t.slots.insert(s, v.to_ascii_lowercase());
                                }
                            }
                            _ => {}
                        }
                    }
                    Event::End(e) if e.local_name().as_ref() == b"clrScheme" => in_scheme = false,
                    Event::Eof => break,
                    _ => {}
                }
            }
        }
        if let Some(xml) = settings {
            let mut r = quick_xml::Reader::from_str(xml);
            while let Ok(ev) = r.read_event() {
                match ev {
                    Event::Start(e) | Event::Empty(e)
                        if e.local_name().as_ref() == b"clrSchemeMapping" =>
                    {
                        for a in e.attributes().flatten() {
                            let key =
                                String::from_utf8_lossy(a.key.local_name().as_ref()).into_owned();
                            let value = String::from_utf8_lossy(&a.value).into_owned();
                            t.mapping.insert(key, value);
                        }
                    }
                    Event::Eof => break,
                    _ => {}
                }
            }
        }
        t
    }

    /// The colour an element draws in, as `word_colour` gives it: the
    /// theme's when the element names one (`theme`, with its `tint` and
    /// `shade`), else its own (`own`).
    pub(super) fn colour(
        &self,
        e: &BytesStart<'_>,
        own: &[u8],
        [theme, tint, shade]: [&[u8]; 3],
    ) -> Option<String> {
        match attr(e, theme).filter(|n| n != "none") {
            Some(name) => Some(self.resolve(&name, attr(e, tint), attr(e, shade))),
            None => attr(e, own).map(|v| word_colour(&v)),
        }
    }

    /// A theme colour's name as six hex digits, tinted (towards white) or
    /// shaded (towards black) by a hex byte as Word writes them.
    fn resolve(&self, name: &str, tint: Option<String>, shade: Option<String>) -> String {
        // The document's names of the background and text colours go
        // through its mapping; the scheme's own names stand for themselves.
        let key = match name {
            "background1" => "bg1",
            "text1" => "t1",
            "background2" => "bg2",
            "text2" => "t2",
            other => other,
        };
        let index = self
            .mapping
            .get(key)
            .map(String::as_str)
            .unwrap_or(match key {
                "bg1" => "light1",
                "t1" => "dark1",
                "bg2" => "light2",
                "t2" => "dark2",
                other => other,
            });
        let slot = match index {
            "dark1" => "dk1",
            "light1" => "lt1",
            "dark2" => "dk2",
            "light2" => "lt2",
            "hyperlink" => "hlink",
            "followedHyperlink" => "folHlink",
            other => other,
        };
        let hex = self.slots.get(slot).map(String::as_str).or_else(|| {
            DEFAULT_SLOTS
                .iter()
                .find(|(s, _)| *s == slot)
                .map(|(_, v)| *v)
        });
        let Some(rgb) = hex.and_then(|h| u32::from_str_radix(h, 16).ok()) else {
            // A name no theme defines: nothing to compare ("auto").
            return "auto".into();
        };
        let byte = |v: Option<String>| v.and_then(|v| u8::from_str_radix(&v, 16).ok());
        let (tint, shade) = (byte(tint), byte(shade));
        let channel = |c: u32| {
            let mut c = c as f64;
            if let Some(t) = tint {
                c = c * t as f64 / 255.0 + 255.0 * (1.0 - t as f64 / 255.0);
            }
            if let Some(s) = shade {
                c = c * s as f64 / 255.0;
            }
            c.round().clamp(0.0, 255.0) as u32
        };
        let (r, g, b) = (
            channel(rgb >> 16),
            channel((rgb >> 8) & 0xff),
            channel(rgb & 0xff),
        );
        format!("{:06x}", (r << 16) | (g << 8) | b)
    }
}

/// The theme part named by the document's relationships
/// (`word/_rels/document.xml.rels`), as a path in the package.
pub(super) fn part(rels: &str) -> Option<String> {
    let mut r = quick_xml::Reader::from_str(rels);
    while let Ok(ev) = r.read_event() {
        match ev {
            Event::Start(e) | Event::Empty(e)
                if e.local_name().as_ref() == b"Relationship"
                    && attr(&e, b"Type").is_some_and(|t| t.ends_with("/theme")) =>
            {
                let target = attr(&e, b"Target")?;
                return Some(match target.strip_prefix('/') {
                    Some(absolute) => absolute.to_string(),
                    None => format!("word/{target}"),
                });
            }
            Event::Eof => break,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn colour(theme: &Theme, xml: &str) -> Option<String> {
        let mut r = quick_xml::Reader::from_str(xml);
        loop {
            match r.read_event().unwrap() {
                Event::Empty(e) | Event::Start(e) => {
                    return theme.colour(&e, b"val", [b"themeColor", b"themeTint", b"themeShade"]);
                }
                Event::Eof => return None,
                _ => {}
            }
        }
    }

    #[test]
    fn theme_colours_are_the_themes_not_the_written_value() {
        let none = Theme::read(None, None);
        let w = r#"<w:color w:val="000000" w:themeColor="background1"/>"#;
        assert_eq!(colour(&none, w).as_deref(), Some("ffffff"));
        let t = r#"<w:color w:val="FFFFFF" w:themeColor="text1"/>"#;
        assert_eq!(colour(&none, t).as_deref(), Some("000000"));
        assert_eq!(
            colour(&none, r#"<w:color w:val="FF0000"/>"#).as_deref(),
            Some("ff0000")
        );
        // A shade darkens, a tint lightens.
        let shaded = r#"<w:color w:val="000000" w:themeColor="background1" w:themeShade="80"/>"#;
        assert_eq!(colour(&none, shaded).as_deref(), Some("808080"));
        let tinted = r#"<w:color w:themeColor="text1" w:themeTint="00"/>"#;
        assert_eq!(colour(&none, tinted).as_deref(), Some("ffffff"));
        // The document's theme and its mapping decide.
        let theme = r#"<a:theme><a:themeElements><a:clrScheme name="x">
            <a:dk1><a:srgbClr val="FEFEFE"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1>
            </a:clrScheme></a:themeElements></a:theme>"#;
        let settings =
            r#"<w:settings><w:clrSchemeMapping w:bg1="dark1" w:t1="light1"/></w:settings>"#;
        let mapped = Theme::read(Some(theme), Some(settings));
        assert_eq!(colour(&mapped, t).as_deref(), Some("ffffff"));
        assert_eq!(colour(&mapped, w).as_deref(), Some("fefefe"));
    }
}
