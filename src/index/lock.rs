//! One writer at a time: an update holds the index folder's lock file.

use anyhow::{Context, Result};
use std::path::Path;

/// Did `e` come of another process holding the index's lock? It will be
/// free again when that process ends.
pub fn is_busy(e: &anyhow::Error) -> bool {
    let contended = fs2::lock_contended_error().raw_os_error();
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.raw_os_error() == contended)
    })
}

pub(super) fn lock(dir: &Path) -> Result<std::fs::File> {
    use fs2::FileExt;
    let path = dir.join("index.lock");
    let mut open = std::fs::OpenOptions::new();
    open.create(true).truncate(false).write(true);
    // A named pipe put there would block the open for good.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut open, libc::O_NONBLOCK);
    let f = open.open(&path).with_context(|| {
        format!(
            "cannot write to the index folder {} (its lock file {})",
            dir.display(),
            path.display()
        )
    })?;
    if !f.metadata()?.is_file() {
        anyhow::bail!(
            "{} is not a lock file (a pipe or a device); remove it",
            path.display()
        );
    }
    f.try_lock_exclusive().with_context(|| {
        format!(
            "another research-board process is indexing {}; wait for it to finish",
            dir.display()
        )
    })?;
    Ok(f)
}
