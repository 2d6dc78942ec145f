//! Optional content (layers) that is off when the document opens: text a
//! reader is not shown (draft notes, another language's layer, a hidden
//! watermark) is not read.
//!
//! The document's default configuration (`/OCProperties /D`) says which
//! groups are off (`/OFF`, or all but `/ON` when `/BaseState /OFF`). Text
//! drawn inside a page's `/OC /name BDC … EMC` section of such a group, or
//! by a form XObject whose `/OC` is such a group, is dropped from the
//! page's content before it is read. Only the text-showing operators go:
//! the graphics state around them stays as it was, so the rest of the page
//! is read as before.

use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Object, ObjectId};
use std::collections::HashSet;

/// Drop the text of layers that are off from every page's content.
pub(super) fn hide_off_layers(doc: &mut Document) {
    let off = off_groups(doc);
    if off.is_empty() {
        return;
    }
    let pages: Vec<ObjectId> = doc.get_pages().into_values().collect();
    for page in pages {
        let (names, forms) = off_names(doc, page, &off);
        if names.is_empty() && forms.is_empty() {
            continue;
        }
        let Ok(bytes) = doc.get_page_content(page) else {
            continue;
        };
        let Ok(content) = Content::decode(&bytes) else {
            continue;
        };
        let kept = without_hidden_text(content.operations, &names, &forms);
        if let Ok(encoded) = (Content { operations: kept }).encode() {
            let _ = doc.change_page_content(page, encoded);
        }
    }
}

/// The optional content groups the default configuration turns off.
fn off_groups(doc: &Document) -> HashSet<ObjectId> {
    let refs = |o: Option<&Object>| -> HashSet<ObjectId> {
        o.and_then(|o| deref(doc, o).as_array().ok())
            .map(|a| a.iter().filter_map(|x| x.as_reference().ok()).collect())
            .unwrap_or_default()
    };
    let Some(props) = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"OCProperties").ok())
        .and_then(|o| deref(doc, o).as_dict().ok())
    else {
        return HashSet::new();
    };
    let Some(d) = props
        .get(b"D")
        .ok()
        .and_then(|o| deref(doc, o).as_dict().ok())
    else {
        return HashSet::new();
    };
    let base_off = d
        .get(b"BaseState")
        .ok()
        .and_then(|o| o.as_name().ok())
        .is_some_and(|n| n == b"OFF");
    if base_off {
        let on = refs(d.get(b"ON").ok());
        refs(props.get(b"OCGs").ok())
            .into_iter()
            .filter(|g| !on.contains(g))
            .collect()
    } else {
        refs(d.get(b"OFF").ok())
    }
}

/// A page's property names (`/Properties`) that stand for a group that is
/// off (or a membership dictionary all of whose groups are), and its form
/// XObjects whose `/OC` is one.
fn off_names(
    doc: &Document,
    page: ObjectId,
    off: &HashSet<ObjectId>,
) -> (HashSet<Vec<u8>>, HashSet<Vec<u8>>) {
    let hidden = |o: &Object| -> bool {
        match o {
            Object::Reference(id) if off.contains(id) => true,
            other => deref(doc, other).as_dict().ok().is_some_and(|m| {
                // An optional content membership dictionary: off when
                // every group it names is.
                let groups: Vec<ObjectId> = match m.get(b"OCGs").ok().map(|g| deref(doc, g)) {
                    Some(Object::Array(a)) => {
                        a.iter().filter_map(|x| x.as_reference().ok()).collect()
                    }
                    Some(Object::Reference(id)) => vec![*id],
                    _ => Vec::new(),
                };
                !groups.is_empty() && groups.iter().all(|g| off.contains(g))
            }),
        }
    };
    let (mut names, mut forms) = (HashSet::new(), HashSet::new());
    for res in page_resources(doc, page) {
        let dict = |key: &[u8]| res.get(key).ok().and_then(|o| deref(doc, o).as_dict().ok());
        if let Some(props) = dict(b"Properties") {
            for (name, o) in props.iter() {
                if hidden(o) {
                    names.insert(name.clone());
                }
            }
        }
        if let Some(xobjects) = dict(b"XObject") {
            for (name, o) in xobjects.iter() {
                let oc = deref(doc, o)
                    .as_stream()
                    .ok()
                    .and_then(|s| s.dict.get(b"OC").ok());
                if oc.is_some_and(hidden) {
                    forms.insert(name.clone());
                }
            }
        }
    }
    (names, forms)
}

/// The operations with the text of hidden sections and hidden forms left
/// out.
fn without_hidden_text(
    ops: Vec<Operation>,
    names: &HashSet<Vec<u8>>,
    forms: &HashSet<Vec<u8>>,
) -> Vec<Operation> {
    // Depth of marked content inside a hidden section (0: not in one).
    let mut hidden_depth = 0usize;
    let name = |o: Option<&Object>| o.and_then(|o| o.as_name().ok()).map(<[u8]>::to_vec);
    ops.into_iter()
        .filter(|op| {
            match op.operator.as_str() {
                "BDC" | "BMC" if hidden_depth > 0 => hidden_depth += 1,
                "BDC" => {
                    let oc = name(op.operands.first()).is_some_and(|t| t == b"OC");
                    if oc && name(op.operands.get(1)).is_some_and(|n| names.contains(&n)) {
                        hidden_depth = 1;
                    }
                }
                "EMC" => hidden_depth = hidden_depth.saturating_sub(1),
                "Tj" | "TJ" | "'" | "\"" => return hidden_depth == 0,
                "Do" => {
                    return hidden_depth == 0
                        && !name(op.operands.first()).is_some_and(|n| forms.contains(&n));
                }
                _ => {}
            }
            true
        })
        .collect()
}

/// An object, or the one a reference points at.
pub(super) fn deref<'a>(doc: &'a Document, o: &'a Object) -> &'a Object {
    match o {
        Object::Reference(id) => doc.get_object(*id).unwrap_or(o),
        _ => o,
    }
}

/// A page's resource dictionaries: its own, then those it inherits.
pub(super) fn page_resources(doc: &Document, page: ObjectId) -> Vec<&Dictionary> {
    let Ok((own, inherited)) = doc.get_page_resources(page) else {
        return Vec::new();
    };
    own.into_iter()
        .chain(
            inherited
                .iter()
                .filter_map(|id| doc.get_dictionary(*id).ok()),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use lopdf::{Document, Object, Stream, dictionary};

    /// One page: a line outside any layer, one in layer L1 (off by
    /// default), one in L2 (on), and a form in layer L1.
    fn layered(base_off: bool) -> Vec<u8> {
        let mut doc = Document::with_version("1.5");
        let pages_id = doc.new_object_id();
        let font = doc.add_object(
            dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica" },
        );
        let l1 = doc.add_object(
            dictionary! { "Type" => "OCG", "Name" => Object::string_literal("Draft notes") },
        );
        let l2 = doc
            .add_object(dictionary! { "Type" => "OCG", "Name" => Object::string_literal("Text") });
        let form = doc.add_object(Stream::new(
            dictionary! {
                "Type" => "XObject", "Subtype" => "Form", "BBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
                "OC" => l1,
                "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
            },
            b"BT /F1 12 Tf 72 500 Td (The form says the keeper fled.) Tj ET".to_vec(),
        ));
        let ops = "BT /F1 12 Tf 72 700 Td (The keeper lit the lamp.) Tj ET \
                   /OC /P1 BDC BT /F1 12 Tf 72 650 Td (The keeper was hanged in 1815.) Tj ET EMC \
                   /OC /P2 BDC BT /F1 12 Tf 72 600 Td (The relief boat came on Friday.) Tj ET EMC \
                   /Fm1 Do";
        let content = doc.add_object(Stream::new(dictionary! {}, ops.as_bytes().to_vec()));
        let page = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content,
            "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            "Resources" => dictionary! {
                "Font" => dictionary! { "F1" => font },
                "Properties" => dictionary! { "P1" => l1, "P2" => l2 },
                "XObject" => dictionary! { "Fm1" => form },
            },
        });
        doc.objects.insert(
            pages_id,
            dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 }.into(),
        );
        let d = if base_off {
            dictionary! { "BaseState" => "OFF", "ON" => vec![l2.into()] }
        } else {
            dictionary! { "OFF" => vec![l1.into()] }
        };
        let catalog = doc.add_object(dictionary! {
            "Type" => "Catalog", "Pages" => pages_id,
            "OCProperties" => dictionary! { "OCGs" => vec![l1.into(), l2.into()], "D" => d },
        });
        doc.trailer.set("Root", catalog);
        let mut bytes = Vec::new();
        doc.save_to(&mut bytes).expect("saved");
        bytes
    }

    /// A layer that is off when the document opens is not read, whether
    /// turned off by name or by the base state; the rest of the page is.
    #[test]
    fn layers_that_are_off_are_not_read() {
        for base_off in [false, true] {
            let ex = super::super::extract(&layered(base_off)).expect("read");
            assert!(ex.text.contains("The keeper lit the lamp."), "{}", ex.text);
            assert!(
                ex.text.contains("The relief boat came on Friday."),
                "{}",
                ex.text
            );
            assert!(!ex.text.contains("hanged"), "{base_off}: {}", ex.text);
            assert!(!ex.text.contains("fled"), "{base_off}: {}", ex.text);
        }
    }
}
