//! What an update that failed (a full disk, an error, a kill) left behind:
//! side files of a generation never committed, and Tantivy segment files
//! no committed segment uses. They are removed at the start of the next
//! update, and right after a failure, so that a full disk is not kept full
//! by the files of the very update that filled it.

use super::{MANIFEST_FORMAT, Manifest};
use anyhow::Result;
use std::collections::HashSet;
use std::path::Path;
use tantivy::TantivyDocument;

/// The manifest of the generation `payload` (Tantivy's commit payload)
/// names, when it is there and of this format.
pub(super) fn manifest_of(dir: &Path, payload: Option<&str>) -> Option<Manifest> {
    payload
        .and_then(|p| std::fs::read(dir.join(format!("{p}.manifest.json"))).ok())
        .and_then(|b| serde_json::from_slice::<Manifest>(&b).ok())
        .filter(|m| m.format == MANIFEST_FORMAT)
}

/// Remove side files of generations other than those in `keep`.
pub(super) fn remove_stale(dir: &Path, keep: &[u64]) {
    let keep: Vec<String> = keep.iter().map(|g| format!("gen-{g}.")).collect();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if super::guard::is_generation_file(&name)
            && !keep.iter().any(|k| name.starts_with(k.as_str()))
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Segment files in `tdir` that no committed segment uses: what a failed
/// or killed commit wrote (new segments, or a deletes file of a live
/// segment that the next commit would write again under the same name).
fn tantivy_leftovers(index: &tantivy::Index, tdir: &Path) -> Result<bool> {
    let metas = index.searchable_segment_metas()?;
    let live: HashSet<String> = metas.iter().map(|m| m.id().uuid_string()).collect();
    let deletes: HashSet<String> = metas
        .iter()
        .filter(|m| m.delete_opstamp().is_some())
        .map(|m| {
            m.relative_path(tantivy::index::SegmentComponent::Delete)
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let Ok(rd) = std::fs::read_dir(tdir) else {
        return Ok(false);
    };
    Ok(rd.flatten().any(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        let stem = name.split('.').next().unwrap_or("");
        let segment_file = stem.len() == 32 && stem.bytes().all(|b| b.is_ascii_hexdigit());
        segment_file
            && (!live.contains(stem) || (name.ends_with(".del") && !deletes.contains(&name)))
    }))
}

/// Remove Tantivy's leftovers, when there are any, by its own garbage
/// collection (which keeps every file a committed segment uses).
pub(super) fn collect_tantivy(index: &tantivy::Index, tdir: &Path) -> Result<()> {
    if tantivy_leftovers(index, tdir)? {
        // One thread, Tantivy's least memory budget (15 MB): nothing is added.
        let writer: tantivy::IndexWriter<TantivyDocument> =
            index.writer_with_num_threads(1, 15_000_000)?;
        writer.garbage_collect_files().wait()?;
    }
    Ok(())
}

/// After a failed update: remove what it left, as the next update would,
/// when the index folder can be locked (best effort; errors are ignored,
/// the failure's own error is what the user sees).
pub(super) fn after_failure(dir: &Path) {
    let Ok(_lock) = super::lock::lock(dir) else {
        return;
    };
    let tdir = dir.join("tantivy");
    let index = tdir
        .join("meta.json")
        .exists()
        .then(|| super::no_panic(&tdir, dir, || Ok(tantivy::Index::open_in_dir(&tdir)?)).ok())
        .flatten();
    let Some(index) = index else {
        // Nothing committed (a first build): no generation is in force.
        remove_stale(dir, &[]);
        return;
    };
    super::schema::register(&index);
    let Ok(metas) = index.load_metas() else {
        return;
    };
    let committed = manifest_of(dir, metas.payload.as_deref());
    remove_stale(dir, &committed.map_or(Vec::new(), |m| m.in_use()));
    let _ = collect_tantivy(&index, &tdir);
}
