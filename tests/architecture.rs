//! The layering rules of ARCHITECTURE.md, checked on the source tree: no
//! import circle between top-level modules, and no domain module that knows
//! about terminals or arguments.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const FRONT_ENDS: &[&str] = &["cli", "tui", "main"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The file's code without comments and without its test module (tests may
/// reach anywhere).
fn code(text: &str) -> String {
    let body = match text.find("#[cfg(test)]\nmod ") {
        Some(i) => &text[..i],
        None => text,
    };
    body.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Top-level modules named by `crate::NAME`, including inside
/// `use crate::{a::X, b};` groups.
fn references(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect()
    };
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find("};").unwrap_or(group.len());
            let mut depth = 0;
            let mut start = true;
            for (k, c) in group[..end].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if c.is_whitespace() => {}
                    _ if start && depth == 0 => {
                        let name = ident(&group[k..]);
                        if !name.is_empty() {
                            out.insert(name);
                        }
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        // A test module in a file of its own (`tests.rs`,
        // `reading_order_tests.rs`) is test code: it may reach anywhere.
        let name = f.file_name().unwrap().to_string_lossy();
        if name == "tests.rs" || name.ends_with("_tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let refs = references(&code(&text));
        let entry = g.entry(top.clone()).or_default();
        entry.extend(refs.into_iter().filter(|r| *r != top && r != "self"));
    }
    g
}

#[test]
fn no_import_circle_between_top_level_modules() {
    let g = graph();
    // Depth-first search for a back edge.
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == n) {
            let mut cycle = path[i..].to_vec();
            cycle.push(n.to_string());
            return Some(cycle);
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for m in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, g, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for n in g.keys() {
        if let Some(cycle) = visit(n, &g, &mut Vec::new(), &mut done) {
            panic!("import circle: {}", cycle.join(" → "));
        }
    }
    // The check sees real edges (it would pass vacuously otherwise).
    assert!(g["session"].contains("pipeline"));
    assert!(g["embed"].contains("provider"));
    assert!(g["llm"].contains("provider"));
}

#[test]
fn the_domain_knows_nothing_of_terminals_or_arguments() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut checked = 0;
    for f in files {
        let rel = f.strip_prefix(&src).unwrap().to_string_lossy().to_string();
        let top = rel.split('/').next().unwrap().trim_end_matches(".rs");
        if FRONT_ENDS.contains(&top) || top == "lib" {
            continue;
        }
        checked += 1;
        let c = code(&std::fs::read_to_string(&f).unwrap());
        for banned in [
            "ratatui::",
            "crossterm::",
            "arboard::",
            "clap::",
            "crate::tui",
            "crate::cli",
        ] {
            assert!(!c.contains(banned), "{rel} uses {banned}");
        }
    }
    assert!(checked > 20, "only {checked} domain files found");
}

#[test]
fn references_reads_use_groups() {
    let r = references("use crate::{a::X, b, c::{d, e}};\nlet x = crate::f::g();");
    let want: BTreeSet<String> = ["a", "b", "c", "f"].iter().map(|s| s.to_string()).collect();
    assert_eq!(r, want);
}

/// No source file over 700 lines (test files excepted): a file that long
/// hides a second module.
#[test]
fn no_source_file_over_700_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let long: Vec<String> = files
        .iter()
        .filter(|f| f.file_name().is_some_and(|n| n != "tests.rs"))
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (n > 700).then(|| format!("{} ({n} lines)", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "split these: {long:?}");
    assert!(files.len() > 40);
}
