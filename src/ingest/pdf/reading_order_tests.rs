//! Reading order on synthetic PDFs: a two-column page whose stream
//! interleaves the columns' lines, and a one-column page.

use super::*;

/// A one-page PDF (US Letter, Helvetica as /F1) whose content stream
/// is `ops`.
fn one_page_pdf(ops: &str) -> Vec<u8> {
    use lopdf::dictionary;
    let mut doc = pdf_with(
        |doc| {
            doc.add_object(
                dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica" },
            )
        },
        ops.as_bytes().to_vec(),
    );
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).unwrap();
    bytes
}

/// A one-page US Letter document whose font /F1 is the object `font` adds
/// and whose content stream is `ops`.
pub(super) fn pdf_with(
    font: impl FnOnce(&mut Document) -> lopdf::ObjectId,
    ops: Vec<u8>,
) -> Document {
    use lopdf::{Stream, dictionary};
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = font(&mut doc);
    let content = doc.add_object(Stream::new(dictionary! {}, ops));
    let page = doc.add_object(dictionary! {
        "Type" => "Page",
        "Parent" => pages_id,
        "Contents" => content,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font } },
        "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
    });
    doc.objects.insert(
        pages_id,
        dictionary! { "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1 }.into(),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    doc
}

/// Content-stream operators drawing each (x, y, size, text) line.
fn draw(lines: &[(f64, f64, f64, &str)]) -> String {
    let mut ops = String::from("BT\n");
    for (x, y, size, text) in lines {
        ops.push_str(&format!("/F1 {size} Tf 1 0 0 1 {x} {y} Tm ({text}) Tj\n"));
    }
    ops.push_str("ET\n");
    ops
}

const LEFT: [&str; 8] = [
    "The keeper climbed the stair at dusk to light",
    "the great lamp, as every keeper had done for",
    "a hundred years before him, and he wound the",
    "clockwork that turned the lens all the night",
    "long, so that ships far out on the dark wa-",
    "ter could see the flash and count the seconds",
    "to know which light it was and where the rocks",
    "lay hidden under the waves of the cold sea.",
];
const RIGHT: [&str; 8] = [
    "In the morning the keeper trimmed the wicks,",
    "polished the brass and the glass of the lens,",
    "wrote the weather in the log and slept until",
    "the afternoon, when the supply boat came out",
    "from the harbour with oil, bread and letters",
    "and news of the town, which he read slowly by",
    "the window while the gulls cried on the rocks",
    "and the tide ran in over the long grey reef.",
];

/// A two-column page whose stream draws a title across both columns
/// and then the columns' lines alternately (left, right, left, …)
/// reads title, left column, right column — the word hyphenated at the
/// end of a line whole — and the footer, drawn first, last.
#[test]
fn two_columns_read_column_by_column() {
    let title = "The Lighthouse Keeper and the Long Night Watch";
    let footer = "Journal of Lights, volume 12, issue 3, pages 201 to 230";
    let mut lines = vec![
        (72.0, 60.0, 8.0, footer),
        (530.0, 60.0, 8.0, "7"),
        (150.0, 740.0, 16.0, title),
    ];
    for i in 0..8 {
        let y = 700.0 - 12.0 * i as f64;
        lines.push((72.0, y, 10.0, LEFT[i]));
        lines.push((320.0, y, 10.0, RIGHT[i]));
    }
    let out = extract(&one_page_pdf(&draw(&lines))).unwrap();
    let left = LEFT.join("\n").replace("wa-\nter", "water");
    let right = RIGHT.join("\n");
    assert_eq!(
        out.text,
        format!("{title}\n\n{left}\n\n{right}\n\n{footer}\n7")
    );
    assert_eq!(out.title.as_deref(), Some(title));
    assert_eq!(out.blocks.len(), 4);
    assert!(out.blocks.iter().all(|b| b.page == Some(1)));
}

/// A column's last line set beside a small box at the foot of the other
/// column (a copyright notice, drawn with its column) is read with its
/// column, not after the box: the sentence it ends stays whole.
#[test]
fn a_columns_last_line_beside_a_box_in_the_other_stays_with_its_column() {
    let notice = [
        "(c) 2021 The Lighthouse Society.",
        "ISBN 978-1-4503-8562-6",
        "https://doi.org/10.1/keeper",
    ];
    let last = "and the keeper slept.";
    let mut lines = Vec::new();
    for (i, l) in LEFT.iter().enumerate() {
        lines.push((72.0, 700.0 - 12.0 * i as f64, 10.0, *l));
    }
    for (i, n) in notice.iter().enumerate() {
        lines.push((72.0, 604.0 - 8.0 * i as f64, 7.0, *n));
    }
    for (i, r) in RIGHT.iter().enumerate() {
        lines.push((320.0, 700.0 - 12.0 * i as f64, 10.0, *r));
    }
    lines.push((320.0, 604.0, 10.0, last));
    let out = extract(&one_page_pdf(&draw(&lines))).unwrap();
    let at = |s: &str| {
        out.text
            .find(s)
            .unwrap_or_else(|| panic!("{s:?} in {:?}", out.text))
    };
    assert!(
        out.text.contains(&format!("{}\n{last}", RIGHT[7])),
        "{:?}",
        out.text
    );
    assert!(
        at(LEFT[7]) < at(notice[0]) && at(notice[2]) < at(RIGHT[0]),
        "{:?}",
        out.text
    );
}

/// A page in one column is read as PlainTextOutput reads it, character
/// for character.
#[test]
fn one_column_reads_as_the_stream() {
    let long: Vec<String> = LEFT
        .iter()
        .zip(RIGHT)
        .map(|(l, r)| format!("{l} {r}"))
        .collect();
    let lines: Vec<(f64, f64, f64, &str)> = long
        .iter()
        .enumerate()
        .map(|(i, t)| (72.0, 700.0 - 12.0 * i as f64, 10.0, t.as_str()))
        .collect();
    let doc = Document::load_mem(&one_page_pdf(&draw(&lines))).unwrap();
    let mut plain = String::new();
    let mut out = pdf_extract::PlainTextOutput::new(&mut plain);
    pdf_extract::output_doc_page(&doc, &mut out, 1).unwrap();
    assert_eq!(read_pages(&doc).0, [plain]);
}

/// The title is what is set largest at the top of the first page — here
/// two lines, neither of which looks like a heading alone — not the first
/// heading below it; a page set in one size has no such title.
#[test]
fn the_title_is_the_largest_type_at_the_top_of_the_first_page() {
    let mut lines = vec![
        (
            72.0,
            740.0,
            9.0,
            "Published as a conference paper at ICLR 2018",
        ),
        (90.0, 700.0, 20.0, "ONLINE LEARNING RATE ADAPTATION WITH"),
        (150.0, 676.0, 20.0, "HYPERGRADIENT DESCENT"),
        (200.0, 640.0, 10.0, "A. Keeper, University of the Rock"),
        (72.0, 610.0, 10.0, "1 INTRODUCTION"),
    ];
    for (i, l) in LEFT.iter().enumerate() {
        lines.push((72.0, 590.0 - 12.0 * i as f64, 10.0, l));
    }
    let out = extract(&one_page_pdf(&draw(&lines))).unwrap();
    assert_eq!(
        out.title.as_deref(),
        Some("ONLINE LEARNING RATE ADAPTATION WITH HYPERGRADIENT DESCENT")
    );
    // A line of authors' names in the title's size is not the title.
    let mut with_names = lines.clone();
    with_names.insert(
        3,
        (150.0, 660.0, 20.0, "Ada Keeper, Grace Darling, Tom Smith"),
    );
    let out = extract(&one_page_pdf(&draw(&with_names))).unwrap();
    assert_eq!(
        out.title.as_deref(),
        Some("ONLINE LEARNING RATE ADAPTATION WITH HYPERGRADIENT DESCENT")
    );
    // All in one size: nothing stands out, and the heading rule decides.
    let same: Vec<(f64, f64, f64, &str)> =
        lines.iter().map(|&(x, y, _, t)| (x, y, 10.0, t)).collect();
    let out = extract(&one_page_pdf(&draw(&same))).unwrap();
    assert_ne!(
        out.title.as_deref(),
        Some("ONLINE LEARNING RATE ADAPTATION WITH HYPERGRADIENT DESCENT")
    );
}

proptest::proptest! {
    #![proptest_config(crate::cases(128))]

    /// Whatever the page — lines in either column or across it, at any
    /// baselines and sizes, short or long, drawn in any order — a page read
    /// as two columns holds every character drawn on it exactly as often
    /// as it was drawn: reading order moves text, never loses or repeats it.
    #[test]
    fn a_page_read_in_columns_keeps_every_character_once(
        lines in proptest::collection::vec(
            (0u8..3, 0usize..60, 6.0f64..12.0, 0.2f64..1.0, 1usize..8),
            10..80,
        ),
        order in proptest::collection::vec(proptest::num::usize::ANY, 80),
    ) {
        let mut n = 0;
        let mut runs: Vec<layout::Run> = lines
            .iter()
            .map(|&(side, row, size, share, words)| {
                let (x0, full) = match side {
                    0 => (72.0, 230.0),
                    1 => (320.0, 230.0),
                    _ => (72.0, 478.0),
                };
                let x1 = x0 + full * share;
                let text = (0..words)
                    .map(|_| {
                        n += 1;
                        format!("w{n}")
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                let y = 60.0 + 11.0 * row as f64;
                layout::Run { x0, x1, y, size, index: 0, upright: true, end: x1, end_y: y, text }
            })
            .collect();
        // The stream draws them in any order.
        let len = runs.len();
        for (i, o) in order.iter().enumerate().take(len) {
            runs.swap(i, o % len);
        }
        for (i, r) in runs.iter_mut().enumerate() {
            r.index = i;
        }
        if let Some(text) = layout::two_columns(&runs, (0.0, 0.0, 612.0, 792.0)) {
            // Characters, not words: runs drawn over one another on a
            // line are written without a space between them, as
            // PlainTextOutput writes them.
            let chars = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<Vec<char>>();
            let mut got = chars(&text);
            let mut drawn: Vec<char> = runs.iter().flat_map(|r| chars(&r.text)).collect();
            got.sort_unstable();
            drawn.sort_unstable();
            proptest::prop_assert_eq!(got, drawn);
        }
    }

    /// Whatever the runs of a first page (sizes, places, rotation, text),
    /// a title found by type size is made of their words, 2 to 30 of them;
    /// a page set in one size has none.
    #[test]
    fn a_display_title_is_made_of_the_pages_own_words(
        runs in proptest::collection::vec(
            (0.0f64..612.0, 0.0f64..792.0, 1.0f64..40.0, proptest::bool::ANY,
             "[A-Za-z0-9 .,:–é]{0,40}"),
            0..25,
        ),
        one_size in proptest::bool::ANY,
    ) {
        let runs: Vec<layout::Run> = runs
            .into_iter()
            .enumerate()
            .map(|(index, (x, y, size, upright, text))| layout::Run {
                x0: x,
                x1: x + 10.0,
                y,
                size: if one_size { 10.0 } else { size },
                index,
                upright,
                end: x + 10.0,
                end_y: y,
                text,
            })
            .collect();
        let title = layout::display_title(&runs, (0.0, 0.0, 612.0, 792.0));
        if one_size {
            proptest::prop_assert_eq!(title, None);
        } else if let Some(t) = title {
            let words: std::collections::HashSet<&str> =
                runs.iter().flat_map(|r| r.text.split_whitespace()).collect();
            let n = t.split_whitespace().count();
            proptest::prop_assert!((2..=30).contains(&n), "{:?}", t);
            proptest::prop_assert!(t.split_whitespace().all(|w| words.contains(w)), "{:?}", t);
        }
    }
}
