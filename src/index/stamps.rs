//! Stamps (size and modification time) of the files an update would
//! otherwise read whole to check: a side file or a Tantivy segment file
//! whose stamp is the one recorded when it was written is taken as intact
//! (files of a generation are written once and never changed in place; an
//! edit, a truncation or a copy over it changes the stamp). Opening an
//! index for questions still checks every checksum.

use std::collections::BTreeMap;
use std::path::Path;

/// A file's size and modification time (ns since the epoch).
pub(super) fn stamp(path: &Path) -> Option<(u64, u64)> {
    let m = std::fs::metadata(path).ok()?;
    let t = m
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some((m.len(), t.as_nanos() as u64))
}

/// The stamps of Tantivy's segment files (written once, never changed in
/// place), recorded before the commit that makes them the index's.
pub(super) fn tantivy_stamps(tdir: &Path) -> BTreeMap<String, (u64, u64)> {
    let Ok(rd) = std::fs::read_dir(tdir) else {
        return BTreeMap::new();
    };
    rd.flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let meta = name.ends_with(".json") || name.ends_with(".lock");
            (!meta).then(|| Some((name, stamp(&e.path())?)))?
        })
        .collect()
}

/// Whether every file of the committed segments has the stamp the
/// previous update recorded: then Tantivy's checksums (a read of the whole
/// index) are not checked again. A file written since (a merge's) or
/// changed means they are.
pub(super) fn tantivy_unchanged(index: &tantivy::Index, tdir: &Path, m: &super::Manifest) -> bool {
    let Ok(segments) = index.searchable_segment_metas() else {
        return false;
    };
    let ids: Vec<String> = segments.iter().map(|s| s.id().uuid_string()).collect();
    let Ok(rd) = std::fs::read_dir(tdir) else {
        return false;
    };
    !m.tantivy_stamps.is_empty()
        // Every file recorded is still there, as it was written.
        && m.tantivy_stamps
            .iter()
            .all(|(name, st)| stamp(&tdir.join(name)).as_ref() == Some(st))
        && rd.flatten().all(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            !ids.iter().any(|id| name.starts_with(id.as_str()))
                || m.tantivy_stamps.get(&name).copied() == stamp(&e.path())
        })
}
