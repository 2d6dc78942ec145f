//! Reading an index from a folder the program cannot write to (a read-only
//! mount, a shared drive, a snapshot).
//!
//! Tantivy's reader takes a short-lived lock file while it loads the list of
//! segments, so that a concurrent writer's garbage collection cannot delete
//! a file under it. Where that lock file cannot be created at all (an I/O
//! error, not a busy lock), no writer can be running in that folder either,
//! so reading proceeds without it.

use std::path::Path;
use std::sync::Arc;
use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, Lock, MmapDirectory, WatchCallback, WatchHandle, WritePtr,
};

#[derive(Clone, Debug)]
pub struct ReadTolerant(MmapDirectory);

impl ReadTolerant {
    pub fn open(path: &Path) -> tantivy::Result<ReadTolerant> {
        Ok(ReadTolerant(MmapDirectory::open(path)?))
    }
}

impl Directory for ReadTolerant {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        self.0.get_file_handle(path)
    }
    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        self.0.delete(path)
    }
    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.0.exists(path)
    }
    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        self.0.open_write(path)
    }
    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.0.atomic_read(path)
    }
    fn atomic_write(&self, path: &Path, data: &[u8]) -> std::io::Result<()> {
        self.0.atomic_write(path, data)
    }
    fn sync_directory(&self) -> std::io::Result<()> {
        self.0.sync_directory()
    }
    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.0.watch(watch_callback)
    }
    fn acquire_lock(&self, lock: &Lock) -> Result<DirectoryLock, LockError> {
        match self.0.acquire_lock(lock) {
            // The lock file cannot be created: nothing can write here.
            Err(LockError::IoError(_)) => Ok(DirectoryLock::from(Box::new(()))),
            other => other,
        }
    }
}
