//! Reading a source file's bytes, bounded, and only from a regular file.

use std::io::Read;
use std::path::Path;

/// Read at most `limit + 1` bytes of a file: enough to tell that it is too
/// large. Only a regular file is read: a named pipe or a device put where a
/// file was (after the folder was listed) would block or never end; it is
/// opened without waiting and refused.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let mut open = std::fs::OpenOptions::new();
    open.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut open, libc::O_NONBLOCK);
    let f = open.open(path).map_err(|e| format!("cannot read: {e}"))?;
    let meta = f.metadata().map_err(|e| format!("cannot read: {e}"))?;
    if meta.is_dir() {
        return Err("cannot read: a folder".into());
    }
    if !meta.is_file() {
        return Err("cannot read: not a regular file (a pipe or a device)".into());
    }
    let mut buf = Vec::new();
    f.take(limit + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("cannot read: {e}"))?;
    if buf.len() as u64 > limit {
        return Err(format!(
            "too large (more than {:.1} MB)",
            limit as f64 / (1024.0 * 1024.0)
        ));
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_file_is_reported() {
        // A path that opens but cannot be read (a directory) stands in for a
        // permission error, which root (as in CI) would not see.
        let dir = tempfile::tempdir().unwrap();
        let e = read_limited(dir.path(), 1024).unwrap_err();
        assert!(e.starts_with("cannot read"), "{e}");
    }

    /// A named pipe where a file was is refused at once, not waited on.
    #[cfg(unix)]
    #[test]
    fn a_pipe_is_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("notes.md");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let e = read_limited(&fifo, 1024).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        assert!(read_limited(Path::new("/dev/zero"), 1024).is_err());
    }
}
