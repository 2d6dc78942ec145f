//! The prompts: `system.md`, `user.md` (placeholders `{question}` and
//! `{context}`), `rerank.md` (`{question}` and `{passage}`), `support.md`
//! (`{claim}` and `{quote}`), and the pointer mode's `pointers-system.md`
//! and `pointers-user.md` (`{question}` and `{context}`), read at run time
//! from a prompts directory, with the same text compiled in as the fallback.

use crate::budget::format_chunk;
use crate::chunk::Chunk;
use crate::provider::LlmConfig;
use std::path::{Path, PathBuf};

pub const SYSTEM: &str = include_str!("../../prompts/system.md");
pub const USER: &str = include_str!("../../prompts/user.md");
pub const RERANK: &str = include_str!("../../prompts/rerank.md");
pub const SUPPORT: &str = include_str!("../../prompts/support.md");
pub const POINTERS_SYSTEM: &str = include_str!("../../prompts/pointers-system.md");
pub const POINTERS_USER: &str = include_str!("../../prompts/pointers-user.md");

#[derive(Debug, Clone, PartialEq)]
pub struct Prompts {
    pub system: String,
    /// Template with `{question}` and `{context}`.
    pub user: String,
    /// Template with `{question}` and `{passage}`.
    pub rerank: String,
    /// Template with `{claim}` and `{quote}`: the claim-support judge.
    pub support: String,
    /// Pointer mode's system prompt (`llm.extraction = "pointers"`).
    pub pointers_system: String,
    /// Pointer mode's template with `{question}` and `{context}` (the
    /// numbered sentences).
    pub pointers_user: String,
    /// The directory files were read from, if any.
    pub dir: Option<PathBuf>,
}

impl Default for Prompts {
    fn default() -> Self {
        Prompts::builtin()
    }
}

struct File {
    name: &'static str,
    builtin: &'static str,
    placeholders: &'static [&'static str],
}

const FILES: [File; 6] = [
    File {
        name: "system.md",
        builtin: SYSTEM,
        placeholders: &[],
    },
    File {
        name: "user.md",
        builtin: USER,
        placeholders: &["{question}", "{context}"],
    },
    File {
        name: "rerank.md",
        builtin: RERANK,
        placeholders: &["{question}", "{passage}"],
    },
    File {
        name: "support.md",
        builtin: SUPPORT,
        placeholders: &["{claim}", "{quote}"],
    },
    File {
        name: "pointers-system.md",
        builtin: POINTERS_SYSTEM,
        placeholders: &[],
    },
    File {
        name: "pointers-user.md",
        builtin: POINTERS_USER,
        placeholders: &["{question}", "{context}"],
    },
];

impl Prompts {
    /// The compiled-in prompts.
    pub fn builtin() -> Self {
        Self::from_texts(FILES.map(|f| f.builtin.to_string()), None)
    }

    /// The prompts from their texts, in the order of [`FILES`].
    fn from_texts(texts: [String; FILES.len()], dir: Option<PathBuf>) -> Self {
        let [
            system,
            user,
            rerank,
            support,
            pointers_system,
            pointers_user,
        ] = texts;
        Prompts {
            system,
            user,
            rerank,
            support,
            pointers_system,
            pointers_user,
            dir,
        }
    }

    /// The prompts for these settings: `llm.prompts_dir` when set, else
    /// `prompts/` in the current directory when it exists, else the
    /// compiled-in text. Returns warnings to show the user (a configured
    /// directory that is missing, a file that cannot be read or lacks a
    /// placeholder); each of those falls back to the compiled-in text.
    pub fn for_config(cfg: &LlmConfig) -> (Self, Vec<String>) {
        match &cfg.prompts_dir {
            Some(dir) => Self::load(dir, true),
            None => {
                let dir = Path::new("prompts");
                if dir.is_dir() {
                    Self::load(dir, false)
                } else {
                    (Self::builtin(), Vec::new())
                }
            }
        }
    }

    /// Read the prompts from `dir`, file by file, falling back to the
    /// compiled-in text. `explicit`: the user named this directory, so a
    /// missing directory or file is worth a warning.
    pub fn load(dir: &Path, explicit: bool) -> (Self, Vec<String>) {
        let mut warnings = Vec::new();
        if !dir.is_dir() {
            if explicit {
                warnings.push(format!(
                    "the prompts directory {} does not exist; using the built-in prompts",
                    dir.display()
                ));
            }
            return (Self::builtin(), warnings);
        }
        let texts = FILES.each_ref().map(|f| {
            let path = dir.join(f.name);
            match std::fs::read_to_string(&path) {
                Ok(t) if t.trim().is_empty() => {
                    warnings.push(format!(
                        "{} is empty; using the built-in {}",
                        path.display(),
                        f.name
                    ));
                    f.builtin.to_string()
                }
                Ok(t) => match f.placeholders.iter().find(|p| !t.contains(*p)) {
                    Some(missing) => {
                        warnings.push(format!(
                            "{} has no {missing} placeholder; using the built-in {}",
                            path.display(),
                            f.name
                        ));
                        f.builtin.to_string()
                    }
                    None => t,
                },
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    if explicit {
                        warnings.push(format!(
                            "{} not found; using the built-in {}",
                            path.display(),
                            f.name
                        ));
                    }
                    f.builtin.to_string()
                }
                Err(e) => {
                    warnings.push(format!(
                        "cannot read {} ({e}); using the built-in {}",
                        path.display(),
                        f.name
                    ));
                    f.builtin.to_string()
                }
            }
        });
        (Self::from_texts(texts, Some(dir.to_path_buf())), warnings)
    }

    /// Tokens of the system prompt and of the user template with the
    /// question but no context: what the budget holds back besides the
    /// answer reserve.
    pub fn overhead_tokens(&self, question: &str) -> usize {
        crate::text::count_tokens(&self.system)
            + crate::text::count_tokens(&self.user_message(question, &[]))
    }

    /// Pointer mode's user message around its numbered `context`.
    pub fn pointers_message(&self, question: &str, context: &str) -> String {
        fill(
            &self.pointers_user,
            &[("question", question), ("context", context)],
        )
    }

    /// Pointer mode's prompt tokens besides the numbered chunks.
    pub fn pointers_overhead_tokens(&self, question: &str) -> usize {
        crate::text::count_tokens(&self.pointers_system)
            + crate::text::count_tokens(&self.pointers_message(question, ""))
    }

    /// The extraction request's user message: the question and every chunk
    /// as [`format_chunk`] writes it (the header the model copies from).
    pub fn user_message(&self, question: &str, chunks: &[&Chunk]) -> String {
        let context: String = chunks.iter().map(|c| format_chunk(c)).collect();
        fill(&self.user, &[("question", question), ("context", &context)])
    }

    /// The support judge's message for one (claim, quote) pair.
    pub fn support_message(&self, claim: &str, quote: &str) -> String {
        fill(&self.support, &[("claim", claim), ("quote", quote)])
    }

    /// The rerank request for one chunk, its text cut to `max_chars` chars.
    pub fn rerank_message(&self, question: &str, chunk: &Chunk, max_chars: usize) -> String {
        let passage = if chunk.text.chars().count() > max_chars {
            let mut cut = chunk.clone();
            cut.text = chunk.text.chars().take(max_chars).collect();
            cut.text.push('…');
            format_chunk(&cut)
        } else {
            format_chunk(chunk)
        };
        fill(
            &self.rerank,
            &[("question", question), ("passage", &passage)],
        )
    }
}

/// Replace `{name}` placeholders in one pass, so a question or a source that
/// itself contains `{context}` is not expanded again. Other braces (the JSON
/// examples in the prompts) are left alone.
pub fn fill(template: &str, vars: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + vars.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let hit = vars
            .iter()
            .find(|(name, _)| after.starts_with(name) && after[name.len()..].starts_with('}'));
        match hit {
            Some((name, value)) => {
                out.push_str(value);
                rest = &after[name.len() + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(text: &str) -> Chunk {
        Chunk {
            id: "notes.md#0".into(),
            source_id: "notes.md".into(),
            source_title: "Notes".into(),
            location: "Floods".into(),
            text: text.into(),
            start: 0,
            end: text.chars().count(),
            ordinal: 0,
            tokens: 5,
            line: None,
            page: None,
        }
    }

    #[test]
    fn fill_is_one_pass() {
        let t = "Q: {question}\n{context}\n{\"noResults\": true} {other}";
        let out = fill(t, &[("question", "what is {context}?"), ("context", "C")]);
        assert_eq!(
            out,
            "Q: what is {context}?\nC\n{\"noResults\": true} {other}"
        );
    }

    #[test]
    fn builtin_prompts_say_what_matters() {
        let p = Prompts::builtin();
        for needle in [
            "verbatim",
            "contiguous",
            "at most 8",
            "noResults",
            "untrusted",
        ] {
            assert!(p.system.contains(needle), "system prompt lacks {needle:?}");
        }
        for d in [
            "0 = not relevant",
            "1 = tangential",
            "2 = relevant",
            "3 = contains the answer",
        ] {
            assert!(p.rerank.contains(d), "rerank prompt lacks {d:?}");
        }
        let c = chunk("The river rose in March.");
        let msg = p.user_message("When did the river rise?", &[&c]);
        assert!(msg.contains("When did the river rise?"));
        assert!(msg.contains(&format_chunk(&c)));
        assert!(!msg.contains("{context}") && !msg.contains("{question}"));
    }

    #[test]
    fn rerank_passage_is_capped() {
        let long = "word ".repeat(1000);
        let msg = Prompts::builtin().rerank_message("q", &chunk(&long), 2000);
        assert!(msg.contains("sourceId: notes.md"));
        assert!(msg.len() < 2000 + RERANK.len() + 200, "{}", msg.len());
        assert!(msg.contains('…'));
    }

    #[test]
    fn directory_overrides_and_fallbacks() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("system.md"), "Custom system.").unwrap();
        std::fs::write(dir.path().join("user.md"), "No placeholders here").unwrap();
        let (p, warnings) = Prompts::load(dir.path(), true);
        assert_eq!(p.system, "Custom system.");
        assert_eq!(p.user, USER, "a template without placeholders falls back");
        assert_eq!(p.rerank, RERANK, "a missing file falls back");
        assert_eq!(p.support, SUPPORT, "a missing file falls back");
        // user.md's placeholders, and rerank.md, support.md and the two
        // pointer prompts missing.
        assert_eq!(warnings.len(), 5, "{warnings:?}");
        let (p, warnings) = Prompts::load(&dir.path().join("nope"), true);
        assert_eq!(p, Prompts::builtin());
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn shipped_files_match_the_compiled_in_text() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts");
        let (p, warnings) = Prompts::load(&dir, true);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            (p.system, p.user, p.rerank, p.support),
            (SYSTEM.into(), USER.into(), RERANK.into(), SUPPORT.into())
        );
        assert_eq!(
            (p.pointers_system, p.pointers_user),
            (POINTERS_SYSTEM.into(), POINTERS_USER.into())
        );
    }
}
