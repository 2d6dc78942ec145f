//! How the CLI prints outcomes: plain text for people, JSON for programs.

use crate::index::UpdateReport;
use crate::pipeline::QueryOutcome;
use anyhow::Result;
use std::io::Write;

/// Print `value` as pretty JSON on stdout. A closed pipe (`| head`) ends
/// the program quietly with success, as ripgrep does, instead of a panic.
pub(super) fn emit_json<T: serde::Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        r => Ok(r?),
    }
}
/// OSC 8 hyperlinks to sources (`file://…#page=N`) when stdout is a
/// terminal that is not `dumb`; `RESEARCH_BOARD_HYPERLINKS=1` or `0` decides
/// instead.
pub(super) struct Links {
    root: Option<std::path::PathBuf>,
}

impl Links {
    pub(super) fn new(sources: &std::path::Path) -> Links {
        use std::io::IsTerminal;
        let on = match std::env::var("RESEARCH_BOARD_HYPERLINKS").as_deref() {
            Ok("1") => true,
            Ok("0") => false,
            _ => {
                std::io::stdout().is_terminal()
                    && std::env::var("TERM").map_or(true, |t| t != "dumb")
            }
        };
        Links {
            root: on.then(|| {
                sources
                    .canonicalize()
                    .unwrap_or_else(|_| sources.to_path_buf())
            }),
        }
    }

    /// `text` (already terminal-safe) as a link to `source_id`, at `page`.
    fn to(&self, source_id: &str, page: Option<&str>, text: &str) -> String {
        let Some(root) = &self.root else {
            return text.to_string();
        };
        let path = crate::ingest::source_path(root, source_id);
        let mut url = String::from("file://");
        // Percent-encode everything but unreserved characters and '/': no
        // control character or terminator can reach the terminal.
        for b in path.to_string_lossy().bytes() {
            if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
                url.push(b as char);
            } else {
                url.push_str(&format!("%{b:02X}"));
            }
        }
        if let Some(n) = page
            .and_then(|p| p.strip_prefix("p. "))
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        {
            url.push_str("#page=");
            url.push_str(n);
        }
        format!("\x1b]8;;{url}\x1b\\{text}\x1b]8;;\x1b\\")
    }
}

pub(super) fn print_verify(results: &[crate::verify::QuoteResult], links: &Links) {
    use crate::text::sanitize_for_terminal as clean;
    let mut out = std::io::stdout().lock();
    for r in results {
        let line = r.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        let _ = writeln!(
            out,
            "{line}{:?} ({:?}, similarity {:.2})",
            r.verdict, r.status, r.similarity
        );
        let _ = writeln!(out, "    “{}”", clean(&r.quote, false));
        if let (Some(id), Some(loc)) = (&r.source_id, &r.location) {
            let loc = if loc.is_empty() {
                r.source_title.as_deref().unwrap_or("")
            } else {
                loc
            };
            // The place an author cites ("p. 12", "line 412"), else the
            // char span.
            let span = match &r.place {
                Some(p) if !new_place(loc, p) => String::new(),
                Some(p) => format!(", {p}"),
                None => r
                    .spans
                    .first()
                    .map(|s| format!(" [chars {}–{} of {}]", s.start, s.end, s.chunk_id))
                    .unwrap_or_default(),
            };
            let _ = writeln!(
                out,
                "    in {} — {}{}",
                links.to(id, r.place.as_deref(), &clean(id, false)),
                clean(loc, false),
                span
            );
        }
        if r.status != crate::validate::Status::Validated {
            let _ = writeln!(out, "    {}", clean(&r.note, false));
            if !r.piece_places.is_empty() {
                let _ = writeln!(
                    out,
                    "    the pieces, in the quote's order, are at: {}",
                    clean(&r.piece_places.join("; "), false)
                );
            }
            if let Some(t) = &r.copy_text {
                let _ = writeln!(out, "    source text: “{}”", clean(t, false));
            }
        }
        super::citations::print_result(&mut out, r);
    }
    let n = |s: crate::validate::Status| results.iter().filter(|r| r.status == s).count();
    let _ = writeln!(
        out,
        "\n{} quotes: {} validated, {} flagged, {} not found",
        results.len(),
        n(crate::validate::Status::Validated),
        n(crate::validate::Status::Flagged),
        n(crate::validate::Status::Dropped)
    );
    super::citations::print_summary(&mut out, results);
}
pub(super) fn print_index_report(r: &UpdateReport) {
    let mut out = std::io::stdout().lock();
    if r.files_seen == 0 {
        eprintln!(
            "warning: no files in this folder; add your notes, articles, books, PDFs or Word files \
             (.md .txt .rst .html .pdf .docx .epub) and run index again"
        );
    }
    if r.up_to_date {
        let _ = writeln!(
            out,
            "Index is up to date: {} files, {} chunks ({:.0} ms).",
            r.files_unchanged, r.chunks_total, r.elapsed_ms
        );
    } else {
        let _ = writeln!(
            out,
            "Indexed {} files ({} unchanged, {} removed): {} chunks, {} new, in {:.0} ms.",
            r.files_indexed,
            r.files_unchanged,
            r.files_removed,
            r.chunks_total,
            r.chunks_added,
            r.elapsed_ms
        );
    }
    let _ = writeln!(out, "Index: {}", r.index_dir.display());
    if !r.guessed_encodings.is_empty() {
        let _ = writeln!(
            out,
            "Read {} files in a guessed encoding (no mark or declaration said which):",
            r.guessed_encodings.len()
        );
        for (id, enc) in &r.guessed_encodings {
            let _ = writeln!(
                out,
                "  {}: {enc}",
                crate::text::sanitize_for_terminal(id, false)
            );
        }
    }
    if !r.files_busy.is_empty() {
        let _ = writeln!(
            out,
            "{} files changed while they were read (still being saved?); \
             left as they were until the next update:",
            r.files_busy.len()
        );
        for id in &r.files_busy {
            let _ = writeln!(out, "  {}", crate::text::sanitize_for_terminal(id, false));
        }
    }
    if !r.skipped.is_empty() {
        let _ = writeln!(out, "Skipped {} files:", r.skipped.len());
        for s in &r.skipped {
            let _ = writeln!(
                out,
                "  {}: {}",
                crate::text::sanitize_for_terminal(&s.source_id, false),
                s.reason
            );
        }
    }
}
pub(super) fn print_outcome(o: &QueryOutcome, debug: bool, links: &Links) {
    use crate::text::sanitize_for_terminal as clean;
    let mut out = std::io::stdout().lock();
    let g = &o.gate;
    let verdict = match g.decision {
        crate::gate::Decision::Pass => "answered",
        crate::gate::Decision::Refuse => "refused",
    };
    let _ = writeln!(out, "Gate: {verdict}: {}", clean(&o.gate_in_words(), false));
    if let Some(e) = &o.extract_error {
        let _ = writeln!(
            out,
            "Note: quoted by the built-in extractor; {}",
            clean(e, false)
        );
    }
    if debug {
        // The numbers behind the decision, for calibration.
        let nums: Vec<String> = g
            .numbers
            .iter()
            .map(|(k, v)| format!("{k}={v:.4}"))
            .collect();
        let _ = writeln!(out, "      ({:?} tier; {})", g.tier, nums.join(", "));
    }
    let _ = writeln!(out, "Confidence: {:?}", o.answer.confidence);
    let _ = writeln!(out);
    let _ = writeln!(out, "{}", clean(&o.answer.text, true));
    for c in o.answer.claims.iter().filter(|c| c.flagged()) {
        let why = match (c.issue, c.support) {
            (Some(i), _) => i.describe().to_string(),
            (None, Some(s)) if s.unsupported() => format!(
                "{} ({})",
                match s {
                    crate::support::Support::Contradicts => "contradicted by its quote",
                    _ => "its quote does not support it",
                },
                c.support_reason.as_deref().unwrap_or("")
            ),
            (None, _) => c
                .inconsistent_with
                .iter()
                .map(|(n, why)| format!("inconsistent with claim {n} ({why})"))
                .collect::<Vec<_>>()
                .join("; "),
        };
        let _ = writeln!(out, "  ⚑ {}: {}", clean(&why, false), clean(&c.text, false));
    }
    if !o.snippets.is_empty() {
        // A refusal's quotes are what was found, not an answer.
        let heading = if o.answer.refused {
            "Quotes found, not an answer (the question was refused)"
        } else {
            "Quotes"
        };
        let _ = writeln!(
            out,
            "\n{heading}: {} validated, {} flagged, {} dropped",
            o.counts.validated, o.counts.flagged, o.counts.dropped
        );
        for s in &o.snippets {
            let _ = writeln!(
                out,
                "[{}] {:?} ({:?}, similarity {:.2}) {}{}",
                s.n,
                s.verdict,
                s.status,
                s.similarity,
                links.to(
                    &s.source_id,
                    s.place.as_deref(),
                    &clean(&s.source_title, false)
                ),
                where_in(&clean(&s.location, false), s.place.as_deref()),
            );
            let _ = writeln!(
                out,
                "    “{}”",
                clean(s.copy_text.as_deref().unwrap_or(&s.content), false)
            );
            if s.status != crate::validate::Status::Validated {
                let _ = writeln!(out, "    {}", clean(&s.note, false));
            }
            if s.model_source_title.is_some() || s.model_source_location.is_some() {
                let _ = writeln!(
                    out,
                    "    (the model said: {} — {})",
                    clean(s.model_source_title.as_deref().unwrap_or("-"), false),
                    clean(s.model_source_location.as_deref().unwrap_or("-"), false)
                );
            }
            if let Some(c) = &s.cite {
                let _ = writeln!(out, "    cite as: {}", clean(&c.text, false));
            }
        }
    }
    if let Some(w) = o.works.as_ref().filter(|w| !w.references.is_empty()) {
        let _ = writeln!(
            out,
            "
References"
        );
        for (_, r) in &w.references {
            let _ = writeln!(out, "  {}", clean(r, false));
        }
    }
}

pub(super) fn print_claims(r: &crate::eval::ClaimsReport) {
    let mut out = std::io::stdout().lock();
    let labels = ["entails", "partial", "contradicts", "irrelevant"];
    let _ = writeln!(out, "{} pairs, accuracy {:.3}", r.pairs, r.accuracy);
    let _ = writeln!(out, "\nconfusion (rows: label, columns: judged)");
    let _ = writeln!(
        out,
        "  {:<12} {}",
        "",
        labels.map(|l| format!("{l:>11}")).join("")
    );
    for gold in labels {
        let row = r.confusion.get(gold);
        let cells =
            labels.map(|g| format!("{:>11}", row.and_then(|x| x.get(g)).copied().unwrap_or(0)));
        let _ = writeln!(out, "  {gold:<12} {}", cells.join(""));
    }
    let d = &r.hallucinated;
    let _ = writeln!(
        out,
        "\nunsupported claims (contradicts + irrelevant): recall {:.3}, precision {:.3}, F1 {:.3}",
        d.recall, d.precision, d.f1
    );
    let t = &r.topical;
    let _ = writeln!(
        out,
        "topically close only:                         recall {:.3}, precision {:.3}, F1 {:.3}",
        t.recall, t.precision, t.f1
    );
    for (how, rec) in &r.recall_by_how {
        let _ = writeln!(out, "  recall, {how:<16} {rec:.3}");
    }
}
pub(super) fn print_eval(r: &crate::eval::EvalReport) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{} questions ({} answerable, {} unanswerable)",
        r.questions, r.answerable, r.unanswerable
    );
    let _ = writeln!(out, "recall@{}:          {:.3}", r.k, r.recall_at_k);
    let _ = writeln!(out, "MRR:                {:.3}", r.mrr);
    let _ = writeln!(
        out,
        "quote recall:       {:.3} (quotes of {:.1} words on average)",
        r.quote_recall, r.mean_quote_words
    );
    if let Some(a) = r.refusal_accuracy_off_topic {
        let _ = writeln!(out, "refusal (off-topic): {a:.3}");
    }
    if let Some(a) = r.refusal_accuracy_near_miss {
        let _ = writeln!(out, "refusal (near-miss): {a:.3}");
    }
    let _ = writeln!(out, "refusal accuracy:   {:.3}", r.refusal_accuracy);
    if r.answerable == 0 {
        let _ = writeln!(out, "false-refusal rate: - (no answerable questions)");
    } else {
        let _ = writeln!(out, "false-refusal rate: {:.3}", r.false_refusal_rate);
    }
    let _ = writeln!(out, "verbatim rate:      {:.3}", r.verbatim_rate);
    let verdicts: Vec<String> = r.verdicts.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(out, "engine:             {}", r.engine);
    let _ = writeln!(out, "verdicts:           {}", verdicts.join(", "));
    let _ = writeln!(
        out,
        "validated but not in source: {}",
        r.validated_not_in_source
    );
    let _ = writeln!(out, "mean query time:    {:.1} ms", r.mean_query_ms);
    for (level, c) in &r.confidence {
        let level = serde_json::to_value(level)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "confidence {level:<7} answered={:<3} right={:<3} precision={}",
            c.answered,
            c.right,
            rate(c.precision)
        );
    }
    for (kind, s) in &r.by_kind {
        let _ = writeln!(
            out,
            "  {kind:<12} n={:<3} recall={} refused={}",
            s.questions,
            rate(s.recall),
            s.refused
        );
    }
    let _ = writeln!(out);
    for q in &r.results {
        let flag = match (q.should_refuse, q.refused, q.recall_hit) {
            (true, true, _) => "ok  ",
            (true, false, _) => "MISS",
            (false, true, _) => "FREF",
            (false, false, Some(false)) => "NORC",
            _ => "ok  ",
        };
        let _ = writeln!(
            out,
            "{flag} {:<5} {:<10} ev={:.2} rank={:<4} {:<22} {}",
            q.id,
            q.kind,
            q.top_evidence,
            q.expected_rank
                .map(|r| r.to_string())
                .unwrap_or_else(|| "-".into()),
            q.reason,
            q.question
        );
    }
    if let Some(rows) = &r.fusion_sweep {
        let _ = writeln!(out, "\nfusion sweep (recall@{} of retrieval alone):", r.k);
        for row in rows {
            let name = match row.bm25_weight {
                Some(w) => format!("convex, bm25 weight {w:.1}"),
                None => "reciprocal-rank fusion".into(),
            };
            let _ = writeln!(out, "  {name:<26} {:.3}", row.recall_at_k);
        }
    }
    if let Some(rows) = &r.confidence_sweep {
        let _ = writeln!(
            out,
            "\nconfidence sweep (answers called high, and how many were right):"
        );
        for row in rows {
            let _ = writeln!(
                out,
                "  high_confidence_score {:.2}: high={:<3} right={:<3} precision={}",
                row.high_confidence_score,
                row.high.answered,
                row.high.right,
                rate(row.high.precision)
            );
        }
    }
    if let Some(rows) = &r.sweep {
        let _ = writeln!(
            out,
            "\nsweep (best refusal accuracy at each false-refusal rate):"
        );
        let _ = writeln!(
            out,
            "  names name_share unknown_penalty vector_weight min_top_score refusal_accuracy false_refusal_rate"
        );
        let mut best: Vec<&crate::eval::SweepRow> = Vec::new();
        for row in rows {
            match best
                .iter_mut()
                .find(|b| b.false_refusal_rate == row.false_refusal_rate)
            {
                Some(b) if b.refusal_accuracy >= row.refusal_accuracy => {}
                Some(b) => *b = row,
                None => best.push(row),
            }
        }
        best.sort_by(|a, b| a.false_refusal_rate.total_cmp(&b.false_refusal_rate));
        for row in best {
            let _ = writeln!(
                out,
                "  {:<5} {:.2} {:.2} {:.2} {:.2} {:.3} {:.3}",
                row.refuse_unknown_names,
                row.unknown_names_min_share,
                row.unknown_penalty,
                row.vector_weight,
                row.min_top_score,
                row.refusal_accuracy,
                row.false_refusal_rate
            );
        }
    }
}

/// The draft's quotations left unchecked for being short, each with why;
/// with `--json` a one-line count on stderr (stdout stays the results).
pub fn print_too_short(short: &[crate::verify::QuoteInput], min_words: usize, json: bool) {
    if short.is_empty() {
        return;
    }
    if json {
        eprintln!(
            "note: {} quotation(s) under {min_words} words not checked (run without --json to list them)",
            short.len()
        );
        return;
    }
    println!(
        "\nNot checked: {} quotation(s) under {min_words} words (too short to tell a quote \
         from a phrase; [validate] min_words sets the limit)",
        short.len()
    );
    for q in short {
        let line = q.line.map_or(String::new(), |l| format!("line {l}: "));
        println!(
            "  {line}“{}”",
            crate::text::sanitize_for_terminal(&q.quote, false)
        );
    }
}

/// A rate to three places, or "-" where there was nothing to count.
fn rate(x: Option<f64>) -> String {
    x.map(|x| format!("{x:.3}")).unwrap_or_else(|| "-".into())
}

/// " — section (page)" after a quote's source: the section when it has
/// one (a passage before the first heading has none), the page or line
/// when the section does not already say it.
fn where_in(location: &str, place: Option<&str>) -> String {
    let place = place
        .filter(|p| new_place(location, p))
        .map(|p| format!(" ({p})"))
        .unwrap_or_default();
    if location.trim().is_empty() {
        place
    } else {
        format!(" — {location}{place}")
    }
}

/// The place a quote is cited at ("p. 2", "line 13") says something the
/// location does not: the location does not already start with it ("p. 2 ·
/// 1 Introduction").
fn new_place(location: &str, place: &str) -> bool {
    location != place && !location.starts_with(&format!("{place} ·"))
}

#[cfg(test)]
mod tests {
    use super::{Links, new_place, where_in};

    /// A passage before a document's first heading has no section: its
    /// source is followed by its line, not by a dash and nothing.
    #[test]
    fn a_quote_with_no_section_has_no_empty_dash() {
        assert_eq!(where_in("", Some("line 8")), " (line 8)");
        assert_eq!(
            where_in("Life › The keepers", Some("line 47")),
            " — Life › The keepers (line 47)"
        );
        assert_eq!(where_in("p. 2 · Intro", Some("p. 2")), " — p. 2 · Intro");
        assert_eq!(where_in("", None), "");
    }

    /// A quote's page is not said twice when its location starts with it;
    /// a later page, or a line, is.
    #[test]
    fn a_place_already_in_the_location_is_not_repeated() {
        assert!(!new_place("p. 2 · 1 Introduction", "p. 2"));
        assert!(!new_place("p. 2", "p. 2"));
        assert!(new_place("p. 2 · 1 Introduction", "p. 3"));
        assert!(new_place("p. 21 · Results", "p. 2"));
        assert!(new_place("Origins › The architect", "line 13"));
    }

    /// A link's URL is percent-encoded: no ESC, BEL or space from a file
    /// name reaches the terminal; a PDF page becomes `#page=N`.
    #[test]
    fn hyperlinks_are_encoded() {
        let l = Links {
            root: Some("/books/my notes".into()),
        };
        let s = l.to("a\u{1b}]0;x\u{7}.pdf", Some("p. 12"), "A");
        assert_eq!(
            s,
            "\u{1b}]8;;file:///books/my%20notes/a%1B%5D0%3Bx%07.pdf#page=12\u{1b}\\A\u{1b}]8;;\u{1b}\\"
        );
        assert_eq!(
            l.to("n.md", Some("line 4"), "B").matches('\u{1b}').count(),
            4
        );
        assert_eq!(Links { root: None }.to("n.md", None, "C"), "C");
    }
}
