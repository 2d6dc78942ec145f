//! Footnotes (`word/footnotes.xml`): each is read after the paragraph that
//! refers to it, between marks, so that it is cited under that paragraph's
//! headings (Word prints it at the foot of that page) and no quote runs
//! from it into the text or into another note.

use super::{HiddenStyles, attr, parse_document};
use crate::ingest::{BlockKind, Extracted};
use quick_xml::events::Event;
use std::collections::HashMap;

/// The paragraphs of each note of a notes part, by the note's id, in the
/// part's order.
#[derive(Default)]
pub(crate) struct Notes {
    by_id: HashMap<String, Vec<String>>,
    order: Vec<String>,
}

impl Notes {
    /// The notes of `xml` (a `w:footnotes` or `w:endnotes` part), each read
    /// as the document's paragraphs are.
    pub(super) fn read(xml: &str, styles: &HiddenStyles) -> Notes {
        let mut notes = Notes::default();
        let mut r = quick_xml::Reader::from_str(xml);
        let mut open: Option<(String, usize)> = None;
        loop {
            let before = r.buffer_position() as usize;
            match r.read_event() {
                Ok(Event::Start(e))
                    if matches!(e.local_name().as_ref(), b"footnote" | b"endnote") =>
                {
                    open = Some((attr(&e, b"id").unwrap_or_default(), before));
                }
                Ok(Event::End(e))
                    if matches!(e.local_name().as_ref(), b"footnote" | b"endnote") =>
                {
                    let end = r.buffer_position() as usize;
                    if let Some((id, start)) = open.take()
                        && let Some(part) = xml.get(start..end)
                        && let Ok(ex) = parse_document(part, styles, &mut Notes::default())
                    {
                        let paras: Vec<String> = ex
                            .blocks
                            .iter()
                            .map(|b| ex.text[b.start..b.end].to_string())
                            .collect();
                        if !paras.is_empty() && !notes.by_id.contains_key(&id) {
                            notes.order.push(id.clone());
                            notes.by_id.insert(id, paras);
                        }
                    }
                }
                Ok(Event::Eof) | Err(_) => break,
                _ => {}
            }
        }
        notes
    }

    /// Read the notes `refs` names (those not read yet) into `out`, after
    /// what it holds, each paragraph between marks.
    pub(super) fn place(&mut self, out: &mut Extracted, refs: &mut Vec<String>) {
        for id in refs.drain(..) {
            if let Some(paras) = self.by_id.remove(&id) {
                put_apart(out, &paras);
            }
        }
    }

    /// The notes no paragraph referred to, in their order, as `place`
    /// reads them.
    pub(super) fn place_rest(mut self, out: &mut Extracted) {
        for id in std::mem::take(&mut self.order) {
            if let Some(paras) = self.by_id.remove(&id) {
                put_apart(out, &paras);
            }
        }
    }
}

/// Each of `paras` between marks.
fn put_apart(out: &mut Extracted, paras: &[String]) {
    for p in paras {
        out.push(BlockKind::Para, "\u{FFFC}", None);
        out.push(BlockKind::Para, p, None);
    }
    out.push(BlockKind::Para, "\u{FFFC}", None);
}
