//! BibTeX that would crash or exhaust the parser, refused before it is
//! parsed: `@string` macros that refer to themselves or to one defined
//! after them (the parser recurses without end and the process aborts),
//! macros whose expansion grows past a bound (each doubling the last: a
//! few lines ask for gigabytes), braces nested deeper than any real entry,
//! and a file too large to hold in memory as entries.

use anyhow::{Result, bail};
use std::collections::{HashMap, HashSet};

/// Largest bibliography read (a library of a hundred thousand entries is
/// about 50 MB of BibTeX).
const MAX_BYTES: usize = 64 << 20;
/// Deepest brace nesting (real titles protect a word or an accent: a few).
const MAX_DEPTH: usize = 64;
/// Most chars all the macro uses of the file may expand to.
const MAX_EXPANDED: usize = 64 << 20;

/// Refuse BibTeX text whose parsing would not end well (module docs).
pub fn check(text: &str) -> Result<()> {
    if text.len() > MAX_BYTES {
        bail!(
            "{} MB is more than a bibliography holds (at most {} MB)",
            text.len() >> 20,
            MAX_BYTES >> 20
        );
    }
    let mut depth = 0usize;
    for (line, l) in text.lines().enumerate() {
        for c in l.bytes() {
            match c {
                b'{' => depth += 1,
                b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if depth > MAX_DEPTH {
                bail!(
                    "line {}: braces nested more than {MAX_DEPTH} deep",
                    line + 1
                );
            }
        }
    }
    // Each macro's expanded length, from those defined before it.
    let defined: Vec<(String, Vec<Part>)> = macros(text).collect();
    let names: HashSet<&str> = defined.iter().map(|(n, _)| n.as_str()).collect();
    let mut size: HashMap<String, usize> = HashMap::new();
    for (name, parts) in &defined {
        let mut n = 0usize;
        for part in parts {
            n = n.saturating_add(match part {
                Part::Text(len) => *len,
                Part::Macro(m) if m == name => {
                    bail!("@string {{{name}}} refers to itself")
                }
                // A month (`jan`), or a macro defined later: a later one
                // may refer back to this one, without end.
                Part::Macro(m) => match size.get(m) {
                    Some(&s) => s,
                    None if names.contains(m.as_str()) => {
                        bail!("@string {{{name}}} uses {m}, defined after it")
                    }
                    None => 0,
                },
            });
        }
        if n > MAX_EXPANDED {
            bail!("@string {{{name}}} expands to more than {MAX_EXPANDED} characters");
        }
        size.insert(name.clone(), n);
    }
    // Every use of a macro anywhere in the file (an upper bound).
    let used = text
        .split(|c: char| !(c.is_alphanumeric() || "_-:.".contains(c)))
        .filter_map(|w| size.get(&w.to_lowercase()))
        .fold(0usize, |a, &s| a.saturating_add(s));
    if used > MAX_EXPANDED {
        bail!("its @string macros expand to more than {MAX_EXPANDED} characters");
    }
    Ok(())
}

enum Part {
    /// A quoted or braced string, or a number: its length.
    Text(usize),
    /// A macro's name, lower-cased.
    Macro(String),
}

/// The `@string{name = part # part …}` definitions of `text`, in order.
fn macros(text: &str) -> impl Iterator<Item = (String, Vec<Part>)> + '_ {
    let lower = text.to_ascii_lowercase();
    let starts: Vec<usize> = lower.match_indices("@string").map(|(i, _)| i).collect();
    starts.into_iter().filter_map(move |at| {
        let rest = text[at + 7..].trim_start();
        let body = rest.strip_prefix(['{', '('])?;
        let (name, value) = body.split_once('=')?;
        let name = name.trim().to_lowercase();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || "_-:.".contains(c))
        {
            return None;
        }
        Some((name, parts(value)))
    })
}

/// The parts of a macro's value, up to the brace or parenthesis that
/// closes the definition.
fn parts(value: &str) -> Vec<Part> {
    let mut out = Vec::new();
    let mut chars = value.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                let len = value[i + 1..].find('"').unwrap_or(value.len() - i - 1);
                out.push(Part::Text(len));
                for _ in 0..=len {
                    chars.next();
                }
            }
            '{' => {
                let mut depth = 1usize;
                let mut len = 0usize;
                for (_, d) in chars.by_ref() {
                    match d {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                    len += 1;
                }
                out.push(Part::Text(len));
            }
            '}' | ')' => break,
            c if c.is_alphanumeric() || c == '_' => {
                let mut word = String::from(c);
                while let Some(&(_, d)) = chars.peek() {
                    if !(d.is_alphanumeric() || "_-:.".contains(d)) {
                        break;
                    }
                    word.push(d);
                    chars.next();
                }
                if word.chars().all(|d| d.is_ascii_digit()) {
                    out.push(Part::Text(word.len()));
                } else {
                    out.push(Part::Macro(word.to_lowercase()));
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macro_bombs_are_refused_and_real_macros_pass() {
        let ok = "@string{jp = \"Journal of Pharos\"}\n@string{full = jp # \", \" # {Vol} # 2}\n\
                  @article{k, title = {The {Bell} Rock}, journal = full, month = jan, year = 1810}";
        assert!(check(ok).is_ok(), "{:?}", check(ok));
        let refused = [
            ("@string{a = a}\n@book{k, title = a}", "itself"),
            (
                "@string{a = b}\n@string{b = a}\n@book{k, title = a}",
                "defined after",
            ),
        ];
        for (text, why) in refused {
            let e = check(text).unwrap_err().to_string();
            assert!(e.contains(why), "{e}");
        }
        let mut bomb = String::from("@string{s0 = \"xxxxxxxx\"}\n");
        for i in 1..40 {
            bomb.push_str(&format!("@string{{s{i} = s{} # s{}}}\n", i - 1, i - 1));
        }
        assert!(check(&bomb).unwrap_err().to_string().contains("expands"));
        let deep = format!(
            "@book{{k, title = {}x{}}}",
            "{".repeat(200),
            "}".repeat(200)
        );
        assert!(check(&deep).unwrap_err().to_string().contains("nested"));
    }
}
