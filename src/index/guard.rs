//! Which folder may hold an index. Updating an index deletes the files of
//! old generations and, when the index is damaged, its Tantivy folder; so
//! the index folder must be one the tool made (or a new or empty one), and
//! never the sources folder or a folder that holds it.

use anyhow::{Result, bail};
use std::path::{Path, PathBuf};

/// Is `name` a file of an index generation ("gen-3.manifest.json",
/// "gen-3.vectors", or one of them being written), which updates may
/// delete? "gen-thesis.docx", "gen-1.png" and "gen-2019.pdf" are not.
pub(super) fn is_generation_file(name: &str) -> bool {
    const KINDS: &[&str] = &[
        "manifest.json",
        "manifest.tmp",
        "vectors",
        "delta",
        "hnsw.data",
        "hnsw.graph",
        "hnsw.tmp",
        "tmp",
    ];
    name.strip_prefix("gen-")
        .and_then(|rest| rest.split_once('.'))
        .is_some_and(|(n, kind)| {
            !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && KINDS.contains(&kind)
        })
}

/// What an index folder holds besides generation files.
const OURS: &[&str] = &["index.lock", "tantivy", "logs", "history"];

/// The path made absolute and free of `..` and links, as far as it exists.
fn real(p: &Path) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut missing = Vec::new();
    let mut cur = abs.as_path();
    loop {
        if let Ok(r) = cur.canonicalize() {
            return missing.iter().rev().fold(r, |acc: PathBuf, m| acc.join(m));
        }
        match (cur.parent(), cur.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name.to_os_string());
                cur = parent;
            }
            _ => return abs,
        }
    }
}

/// Refuse an index folder that is the sources folder or holds it, or that
/// holds files the tool did not make (with no index of its own). A new
/// folder inside the sources folder is fine: it is not indexed.
pub(super) fn check_index_dir(sources: &Path, dir: &Path) -> Result<()> {
    let (src, ix) = (real(sources), real(dir));
    if src.starts_with(&ix) {
        bail!(
            "the index folder {} would be {} the sources folder {}: the index is kept apart \
             from your sources, and your sources are never written to. Choose another \
             --index-dir (or leave it out for the default)",
            dir.display(),
            if ix == src {
                "the same as"
            } else {
                "a folder that holds"
            },
            sources.display()
        );
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(()); // New (or unreadable: creating it will say why).
    };
    let names: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let ours = |n: &String| OURS.contains(&n.as_str()) || is_generation_file(n);
    if !names.iter().any(|n| n == "index.lock") && !names.iter().all(ours) {
        let other = names.iter().find(|n| !ours(n)).cloned().unwrap_or_default();
        bail!(
            "the folder {} holds files that are not an index (such as \"{other}\"); \
             research-board keeps its index in a folder of its own and deletes old index \
             files there. Choose a new or empty --index-dir",
            dir.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_files_are_told_from_the_users() {
        for n in [
            "gen-1.vectors",
            "gen-12.manifest.json",
            "gen-3.hnsw.data",
            "gen-3.hnsw.graph",
            "gen-2.delta",
            "gen-4.tmp",
            "gen-4.manifest.tmp",
        ] {
            assert!(is_generation_file(n), "{n}");
        }
        for n in [
            "gen-thesis.docx",
            "gen-1.png",
            "gen-2019.pdf",
            "gen-1.md.bak",
            "gen-1902-notes.md",
            "gen-.x",
            "gen-1",
            "notes.txt",
        ] {
            assert!(!is_generation_file(n), "{n}");
        }
    }

    /// The folders an index must not go in are refused, and nothing in
    /// them is touched; a new, empty or existing index folder is fine.
    #[test]
    fn an_index_folder_is_never_the_users() {
        let root = tempfile::tempdir().unwrap();
        let src = root.path().join("sources");
        std::fs::create_dir_all(src.join("chapters")).unwrap();
        let err = |d: &Path| check_index_dir(&src, d).unwrap_err().to_string();
        assert!(err(&src).contains("the same as"), "{}", err(&src));
        assert!(err(root.path()).contains("holds"));
        check_index_dir(&src, &src.join("chapters/index")).unwrap();
        assert!(err(&src.join("../sources/.")).contains("the same as"));
        let docs = root.path().join("docs");
        std::fs::create_dir_all(docs.join("tantivy")).unwrap();
        std::fs::write(docs.join("gen-thesis.docx"), b"mine").unwrap();
        assert!(err(&docs).contains("gen-thesis.docx"), "{}", err(&docs));
        for ok in ["new", "empty", "index"] {
            std::fs::create_dir_all(root.path().join("empty")).unwrap();
            let ix = root.path().join("index");
            std::fs::create_dir_all(ix.join("tantivy")).unwrap();
            std::fs::write(ix.join("index.lock"), b"").unwrap();
            std::fs::write(ix.join("gen-1.vectors"), b"").unwrap();
            check_index_dir(&src, &root.path().join(ok)).unwrap();
        }
        // What the board keeps there (its question history), alone: the
        // folder was deleted under it and it wrote its history again.
        let board = root.path().join("board");
        std::fs::create_dir_all(&board).unwrap();
        std::fs::write(board.join("history"), b"Who built it?\n").unwrap();
        check_index_dir(&src, &board).unwrap();
    }
}
