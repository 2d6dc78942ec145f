//! Source ids: a file's path under the sources folder as one line of
//! text, and back. The id is what the index, the JSON output and citations
//! name a source by; [`source_path`] finds the file again, so a name the id
//! had to encode (`100%.md`, a control character, bytes that are not
//! UTF-8) is still the file it was read from.

use std::path::{Path, PathBuf};

/// The stable source id of `path` under `root`: its components joined
/// with `/`. Total and unique over every name the OS allows: `%`, control
/// chars (a newline) and bytes that are not UTF-8 are percent-encoded
/// (`%25`, `%0A`, `%FF`), so no two files share an id and an id is one line.
pub fn source_id(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| encode_name(c.as_os_str()))
        .collect::<Vec<_>>()
        .join("/")
}

/// The file `id` names under `root`: the inverse of [`source_id`].
pub fn source_path(root: &Path, id: &str) -> PathBuf {
    let mut path = root.to_path_buf();
    for name in id.split('/') {
        path.push(decode_name(name));
    }
    path
}

fn encode_name(name: &std::ffi::OsStr) -> String {
    #[cfg(unix)]
    let bytes: std::borrow::Cow<'_, [u8]> = {
        use std::os::unix::ffi::OsStrExt;
        name.as_bytes().into()
    };
    #[cfg(not(unix))]
    let bytes: std::borrow::Cow<'_, [u8]> = name.to_string_lossy().into_owned().into_bytes().into();
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '%' || c.is_control() {
                let mut b = [0u8; 4];
                for x in c.encode_utf8(&mut b).bytes() {
                    out.push_str(&format!("%{x:02X}"));
                }
            } else {
                out.push(c);
            }
        }
        for x in chunk.invalid() {
            out.push_str(&format!("%{x:02X}"));
        }
    }
    out
}

/// A name as [`encode_name`] wrote it, decoded: every `%` starts two hex
/// digits (a `%` not followed by them, which no id holds, stays as it is).
fn decode_name(name: &str) -> std::ffi::OsString {
    let b = name.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b.get(i + 1..i + 3).and_then(|h| {
            let h = std::str::from_utf8(h).ok()?;
            u8::from_str_radix(h, 16).ok()
        });
        match (b[i], hex) {
            (b'%', Some(x)) => {
                out.push(x);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        std::ffi::OsString::from_vec(out)
    }
    #[cfg(not(unix))]
    {
        String::from_utf8_lossy(&out).into_owned().into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 9, item 8: a newline in a name, and names differing only in
    /// bytes that are not UTF-8, give distinct one-line ids.
    #[cfg(unix)]
    #[test]
    fn item_8_source_ids_are_unique_and_one_line() {
        use std::os::unix::ffi::OsStrExt;
        let root = Path::new("/src");
        let id = |b: &[u8]| source_id(root, &root.join(std::ffi::OsStr::from_bytes(b)));
        let a = id(b"bad\xff\xfename.md");
        let b = id(b"bad\xfe\xffname.md");
        assert_ne!(a, b);
        assert_eq!(a, "bad%FF%FEname.md");
        assert_eq!(id(b"two\nlines.md"), "two%0Alines.md");
        assert_ne!(id(b"two%0Alines.md"), id(b"two\nlines.md"));
        assert_eq!(id("café/notes.md".as_bytes()), "café/notes.md");
    }

    /// Every name the OS allows comes back from its id as the same path,
    /// so a source whose name holds `%` or a control character is still
    /// the file that is checked for changes and opened.
    #[cfg(unix)]
    #[test]
    fn an_id_leads_back_to_its_file() {
        use proptest::prelude::*;
        use std::os::unix::ffi::OsStrExt;
        let root = Path::new("/src");
        let name = proptest::collection::vec(
            prop_oneof![
                Just(b'%'),
                Just(b'\n'),
                Just(0x1b),
                Just(0xff),
                Just(b'2'),
                Just(b'5'),
                Just(b'A'),
                (1u8..=255).prop_filter("no slash", |b| *b != b'/'),
            ],
            1..12,
        );
        let names = proptest::collection::vec(name, 1..4);
        let cfg = crate::cases(256);
        proptest::test_runner::TestRunner::new(cfg)
            .run(&names, |names| {
                let mut path = root.to_path_buf();
                for n in &names {
                    path.push(std::ffi::OsStr::from_bytes(n));
                }
                let id = source_id(root, &path);
                prop_assert!(!id.contains('\n'));
                prop_assert_eq!(source_path(root, &id), path);
                Ok(())
            })
            .unwrap();
        for (name, file) in [
            ("keepers 100%.md", "keepers 100%.md"),
            ("log\x1b.md", "log\x1b.md"),
        ] {
            let id = source_id(root, &root.join(name));
            assert_eq!(source_path(root, &id), root.join(file), "{id}");
        }
    }
}
