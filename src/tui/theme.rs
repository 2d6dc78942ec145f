//! Themes: TOML files naming colours by meaning. The built-in themes are
//! embedded; a user file is layered on top of the theme it `inherits` (dark
//! by default). A broken file never stops the board: the caller gets the
//! default theme plus a message for the status line.

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;
use std::path::Path;
use std::str::FromStr;

const DARK: &str = include_str!("../../themes/dark.toml");
const LIGHT: &str = include_str!("../../themes/light.toml");
const MONO: &str = include_str!("../../themes/mono.toml");

/// The built-in theme names.
pub const BUILTIN: &[&str] = &["dark", "light", "mono"];

fn builtin(name: &str) -> Option<&'static str> {
    match name {
        "dark" => Some(DARK),
        "light" => Some(LIGHT),
        "mono" | "monochrome" => Some(MONO),
        _ => None,
    }
}

macro_rules! theme_colours {
    ($($name:ident),* $(,)?) => {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Spec {
            #[serde(default)]
            mono: bool,
            #[serde(default)]
            #[allow(dead_code)]
            inherits: Option<String>,
            $($name: String,)*
        }

        /// Resolved colours, by meaning.
        #[derive(Debug, Clone, PartialEq)]
        pub struct Theme {
            pub name: String,
            /// No colours: marks use bold, underline, reverse and dim.
            pub mono: bool,
            $(pub $name: Color,)*
        }

        impl Spec {
            fn resolve(self, name: &str) -> Result<Theme, String> {
                Ok(Theme {
                    name: name.to_string(),
                    mono: self.mono,
                    $($name: parse_colour(stringify!($name), &self.$name)?,)*
                })
            }
        }
    };
}

theme_colours!(
    base_fg,
    base_bg,
    dim_fg,
    border_fg,
    border_focused_fg,
    title_fg,
    heading_fg,
    selected_fg,
    selected_bg,
    input_fg,
    input_prompt_fg,
    key_fg,
    status_fg,
    status_bg,
    status_ok_fg,
    status_error_fg,
    progress_fg,
    verdict_validated_fg,
    verdict_flagged_fg,
    verdict_dropped_fg,
    gate_pass_fg,
    gate_refuse_fg,
    gate_refuse_bg,
    highlight_fg,
    highlight_bg,
    diff_fg,
    diff_bg,
    gap_fg,
    citation_fg,
    claim_issue_fg,
    confidence_high_fg,
    confidence_medium_fg,
    confidence_low_fg,
);

fn parse_colour(key: &str, value: &str) -> Result<Color, String> {
    Color::from_str(value.trim()).map_err(|_| {
        format!("{key} = {value:?} is not a colour (use a name, a 0–255 index or #rrggbb)")
    })
}

fn parse_table(text: &str) -> Result<toml::Table, String> {
    text.parse::<toml::Table>().map_err(|e| {
        let msg = e.to_string();
        msg.lines().next().unwrap_or("invalid TOML").to_string()
    })
}

/// Parse `text` layered over the built-in theme it inherits (dark unless it
/// says otherwise).
pub fn parse(name: &str, text: &str) -> Result<Theme, String> {
    let user = parse_table(text)?;
    let parent = match user.get("inherits") {
        Some(toml::Value::String(p)) => {
            builtin(p).ok_or_else(|| format!("inherits = {p:?}: no such built-in theme"))?
        }
        Some(_) => return Err("inherits must be a theme name".into()),
        None => DARK,
    };
    let mut table = parse_table(parent).expect("built-in themes are valid TOML");
    for (k, v) in user {
        table.insert(k, v);
    }
    let spec: Spec = toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| e.message().to_string())?;
    spec.resolve(name)
}

impl Default for Theme {
    fn default() -> Self {
        Theme::builtin("dark").expect("dark theme")
    }
}

impl Theme {
    /// A built-in theme by name.
    pub fn builtin(name: &str) -> Option<Theme> {
        builtin(name).map(|t| parse(name, t).expect("built-in themes are valid"))
    }

    /// The theme for `choice` (a built-in name or a file path), or mono when
    /// `no_color` and no explicit choice; on any error the default theme and
    /// a message saying what was wrong.
    pub fn load(choice: Option<&str>, no_color: bool) -> (Theme, Option<String>) {
        let Some(choice) = choice else {
            let name = if no_color { "mono" } else { "dark" };
            return (Theme::builtin(name).unwrap_or_default(), None);
        };
        if let Some(t) = Theme::builtin(choice) {
            return (t, None);
        }
        let fallback = || {
            if no_color {
                Theme::builtin("mono").unwrap_or_default()
            } else {
                Theme::default()
            }
        };
        let path = Path::new(choice);
        if !path.exists() {
            return (
                fallback(),
                Some(format!(
                    "theme {choice:?} not found (built-in: {}; or a path to a .toml file); using the default",
                    BUILTIN.join(", ")
                )),
            );
        }
        match std::fs::read_to_string(path) {
            Ok(text) => match parse(choice, &text) {
                Ok(t) => (t, None),
                Err(e) => (
                    fallback(),
                    Some(format!("theme {}: {e}; using the default", path.display())),
                ),
            },
            Err(e) => (
                fallback(),
                Some(format!(
                    "cannot read theme {}: {e}; using the default",
                    path.display()
                )),
            ),
        }
    }

    fn m(&self, s: Style, m: Modifier) -> Style {
        if self.mono { s.add_modifier(m) } else { s }
    }

    pub fn base(&self) -> Style {
        Style::new().fg(self.base_fg).bg(self.base_bg)
    }
    pub fn dim(&self) -> Style {
        self.m(Style::new().fg(self.dim_fg), Modifier::DIM)
    }
    pub fn border(&self, focused: bool) -> Style {
        if focused {
            self.m(Style::new().fg(self.border_focused_fg), Modifier::BOLD)
        } else {
            Style::new().fg(self.border_fg)
        }
    }
    pub fn title(&self, focused: bool) -> Style {
        let s = Style::new().fg(self.title_fg);
        if focused {
            s.add_modifier(Modifier::BOLD)
        } else {
            s
        }
    }
    pub fn heading(&self) -> Style {
        Style::new()
            .fg(self.heading_fg)
            .add_modifier(Modifier::BOLD)
    }
    pub fn selected(&self) -> Style {
        self.m(
            Style::new().fg(self.selected_fg).bg(self.selected_bg),
            Modifier::REVERSED,
        )
    }
    pub fn key(&self) -> Style {
        Style::new().fg(self.key_fg).add_modifier(Modifier::BOLD)
    }
    pub fn status(&self) -> Style {
        Style::new().fg(self.status_fg).bg(self.status_bg)
    }
    pub fn validated(&self) -> Style {
        self.m(Style::new().fg(self.verdict_validated_fg), Modifier::BOLD)
    }
    pub fn flagged(&self) -> Style {
        self.m(
            Style::new().fg(self.verdict_flagged_fg),
            Modifier::UNDERLINED,
        )
    }
    pub fn dropped(&self) -> Style {
        self.m(
            Style::new().fg(self.verdict_dropped_fg),
            Modifier::CROSSED_OUT,
        )
    }
    pub fn highlight(&self) -> Style {
        self.m(
            Style::new().fg(self.highlight_fg).bg(self.highlight_bg),
            Modifier::BOLD | Modifier::UNDERLINED,
        )
    }
    pub fn diff(&self) -> Style {
        self.m(
            Style::new()
                .fg(self.diff_fg)
                .bg(self.diff_bg)
                .add_modifier(Modifier::BOLD),
            Modifier::REVERSED,
        )
    }
    pub fn gap(&self) -> Style {
        Style::new().fg(self.gap_fg).add_modifier(Modifier::DIM)
    }
    pub fn citation(&self) -> Style {
        Style::new()
            .fg(self.citation_fg)
            .add_modifier(Modifier::BOLD)
    }
    pub fn claim_issue(&self) -> Style {
        self.m(Style::new().fg(self.claim_issue_fg), Modifier::UNDERLINED)
    }
    pub fn gate_pass(&self) -> Style {
        Style::new()
            .fg(self.gate_pass_fg)
            .add_modifier(Modifier::BOLD)
    }
    pub fn gate_refuse(&self) -> Style {
        self.m(
            Style::new()
                .fg(self.gate_refuse_fg)
                .bg(self.gate_refuse_bg)
                .add_modifier(Modifier::BOLD),
            Modifier::REVERSED,
        )
    }
    pub fn ok(&self) -> Style {
        Style::new().fg(self.status_ok_fg).bg(self.status_bg)
    }
    pub fn error(&self) -> Style {
        self.m(
            Style::new()
                .fg(self.status_error_fg)
                .bg(self.status_bg)
                .add_modifier(Modifier::BOLD),
            Modifier::REVERSED,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_parse_and_user_files_layer_over_them() {
        for name in BUILTIN {
            assert!(Theme::builtin(name).is_some(), "{name}");
        }
        let t = parse("mine", "verdict_flagged_fg = \"#ff0000\"\n").unwrap();
        assert_eq!(t.verdict_flagged_fg, Color::Rgb(255, 0, 0));
        assert_eq!(t.base_fg, Theme::default().base_fg);
        let t = parse("mine", "inherits = \"light\"\n").unwrap();
        assert_eq!(t.base_fg, Theme::builtin("light").unwrap().base_fg);
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let e = parse("x", "verdict_flagged_fg = \"purplish\"\n").unwrap_err();
        assert!(e.contains("verdict_flagged_fg"), "{e}");
        let e = parse("x", "verdict_flaged_fg = \"red\"\n").unwrap_err();
        assert!(e.contains("verdict_flaged_fg"), "{e}");
        assert!(parse("x", "= nonsense").is_err());
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.toml");
        std::fs::write(&p, "base_fg = 12 12").unwrap();
        let (t, msg) = Theme::load(Some(p.to_str().unwrap()), false);
        assert_eq!(t, Theme::default());
        assert!(msg.unwrap().contains("using the default"));
        let (t, msg) = Theme::load(None, true);
        assert!(t.mono && msg.is_none());
    }
}
