//! The rules of the deterministic tier that read words in order: what
//! counts as a shared word (acronyms, a clause the quote covers), the scope
//! of a negation, a relation whose sides are swapped, a different count of
//! the same thing, and a name in another name's place. Each rule returns the
//! evidence for its finding in words.

use super::lexicon::{
    CLAUSE_WORDS, CUES, GAINS, IDIOMS, LESSER, NEGATIVE_VERBS, PREFIXES, SCOPE_ENDS, STOP,
};
use super::text::{Facts, Tok, is_name};
use std::collections::BTreeSet;

// ---- shared words ---------------------------------------------------------

/// The claim's content stems that the quote has: the same stem, or spelled
/// out on one side and abbreviated on the other ("LTM" / "long-term
/// memory").
pub(super) fn shared_words(c: &Facts, q: &Facts) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = c
        .words
        .iter()
        .filter(|w| q.words.contains(*w))
        .cloned()
        .collect();
    for t in q.toks.iter().filter(|t| t.acronym) {
        if let Some(run) = spelled_out(&t.raw, c) {
            out.extend(run);
        }
    }
    for t in c.toks.iter().filter(|t| t.acronym) {
        if spelled_out(&t.raw, q).is_some() {
            out.extend(t.parts.iter().cloned());
        }
    }
    out
}

/// Stems of consecutive content words of `f` whose initials spell `acronym`.
fn spelled_out(acronym: &str, f: &Facts) -> Option<Vec<String>> {
    let letters: Vec<char> = acronym.to_lowercase().chars().collect();
    let parts: Vec<&String> = f
        .toks
        .iter()
        .filter(|t| t.content() && !t.acronym)
        .flat_map(|t| t.parts.iter())
        .collect();
    if letters.len() < 2 || parts.len() < letters.len() {
        return None;
    }
    (0..=parts.len() - letters.len()).find_map(|s| {
        let run = &parts[s..s + letters.len()];
        run.iter()
            .zip(&letters)
            .all(|(p, l)| p.starts_with(*l))
            .then(|| run.iter().map(|p| p.to_string()).collect())
    })
}

/// A clause of the claim (two content words or more) whose every content
/// word the quote has: the claim is about the quote, even when the rest of
/// it adds much ("He was dismissed in 1749 over a practical joke | and
/// immediately found a post …").
pub(super) fn covered_clause(claim: &str, c: &Facts, shared: &BTreeSet<String>) -> Option<String> {
    let mut clauses: Vec<Vec<&Tok>> = vec![Vec::new()];
    for t in &c.toks {
        if t.brk || CLAUSE_WORDS.contains(&t.lower.as_str()) {
            clauses.push(Vec::new());
        }
        if let Some(last) = clauses.last_mut() {
            last.push(t);
        }
    }
    clauses.into_iter().find_map(|cl| {
        let words: Vec<&String> = cl
            .iter()
            .filter(|t| t.content())
            .flat_map(|t| t.parts.iter())
            .filter(|p| !STOP.contains(&p.as_str()) && !p.chars().all(|c| c.is_ascii_digit()))
            .collect();
        let covered = words.len() >= 2 && words.iter().all(|w| shared.contains(*w));
        let (first, last) = (cl.first()?, cl.last()?);
        covered.then(|| claim[first.span.start..last.span.end].to_string())
    })
}

// ---- negation --------------------------------------------------------------

/// What a side negates (each stem with the words that negate it) and what
/// it states outside any negation.
struct Polarity {
    negated: Vec<(String, std::ops::Range<usize>)>,
    stated: BTreeSet<String>,
}

fn polarity(f: &Facts, other: &Facts) -> Polarity {
    let toks = &f.toks;
    let mut scoped = vec![false; toks.len()];
    let mut negated = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let prev = i.checked_sub(1).map_or("", |p| toks[p].lower.as_str());
        let next = toks.get(i + 1).map_or("", |n| n.lower.as_str());
        let cue = ((CUES.contains(&t.lower.as_str()) || t.nt) && !IDIOMS.contains(&next))
            || (t.lower == "than" && prev == "rather")
            || (t.lower == "of" && prev == "instead");
        if NEGATIVE_VERBS.contains(&t.lower.as_str()) {
            // "the sacraments were denied them": the whole clause.
            let start = (0..=i).rev().find(|&k| toks[k].brk).unwrap_or(0);
            let end = (i + 1..toks.len())
                .find(|&k| toks[k].brk)
                .unwrap_or(toks.len());
            for (k, u) in toks.iter().enumerate().take(end).skip(start) {
                scoped[k] = true;
                if u.content() && k != i {
                    for p in &u.parts {
                        negated.push((p.clone(), toks[start].span.start..toks[end - 1].span.end));
                    }
                }
            }
            continue;
        }
        if !cue {
            continue;
        }
        scoped[i] = true;
        let contrast = prev == "rather" || prev == "instead";
        let from = if contrast {
            toks[i - 1].span.start
        } else {
            t.span.start
        };
        // What comes before a negation in its clause is neither stated nor
        // negated ("their children were not permitted to inherit").
        if !contrast {
            for k in (0..i).rev() {
                scoped[k] = true;
                if toks[k].brk || SCOPE_ENDS.contains(&toks[k].lower.as_str()) {
                    break;
                }
            }
        }
        let mut seen = 0;
        for (k, u) in toks.iter().enumerate().skip(i + 1) {
            // "without rights, sacraments, or property": a list goes on.
            if u.comma && list_goes_on(toks, k) {
                seen = 0;
            } else if u.brk || SCOPE_ENDS.contains(&u.lower.as_str()) || seen == 4 {
                break;
            }
            if u.content() {
                scoped[k] = true;
                seen += 1;
                for p in &u.parts {
                    negated.push((p.clone(), from..u.span.end));
                }
            }
        }
    }
    // A word with a negative prefix whose plain form the other side has
    // ("uninterpretable" / "interpretable").
    for (i, t) in toks.iter().enumerate() {
        for p in PREFIXES {
            let Some(plain) = t.lower.strip_prefix(p) else {
                continue;
            };
            if plain.len() > 3
                && other.toks.iter().any(|o| o.lower == plain)
                && !toks.iter().any(|o| o.lower == plain)
            {
                scoped[i] = true;
                for s in super::text::stems(plain) {
                    negated.push((s, t.span.clone()));
                }
            }
        }
    }
    let stated = toks
        .iter()
        .zip(&scoped)
        .filter(|(t, s)| !**s && t.content())
        .flat_map(|(t, _)| t.parts.iter().cloned())
        .collect();
    Polarity { negated, stated }
}

/// Does the comma before `toks[k]` go on with a list that ends in "or" /
/// "nor" (within four items)?
fn list_goes_on(toks: &[Tok], k: usize) -> bool {
    let mut items = 0;
    for u in &toks[k..] {
        if u.brk {
            if !u.comma || items == 4 {
                return false;
            }
            items += 1;
            if matches!(u.lower.as_str(), "or" | "nor") {
                return true;
            }
        }
    }
    false
}

/// A word one side negates and the other states without a negation.
pub(super) fn negation(claim: &str, quote: &str, c: &Facts, q: &Facts) -> Option<String> {
    let (pc, pq) = (polarity(c, q), polarity(q, c));
    let negates = |p: &Polarity, w: &String| p.negated.iter().any(|(x, _)| x == w);
    let word = |f: &Facts, text: &str, w: &String| {
        f.toks
            .iter()
            .find(|t| t.parts.contains(w))
            .map_or(w.clone(), |t| text[t.span.clone()].to_string())
    };
    for (w, span) in &pq.negated {
        if pc.stated.contains(w) && !negates(&pc, w) {
            return Some(format!(
                "the quote says \"{}\", the claim says \"{}\"",
                &quote[span.clone()],
                word(c, claim, w)
            ));
        }
    }
    for (w, span) in &pc.negated {
        if pq.stated.contains(w) && !negates(&pq, w) {
            return Some(format!(
                "the claim says \"{}\", the quote says \"{}\"",
                &claim[span.clone()],
                word(q, quote, w)
            ));
        }
    }
    None
}

// ---- relations whose sides are swapped ---------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Rel {
    Before,
    After,
    Exceeds,
}

struct Relation {
    rel: Rel,
    /// Turned round by a word of [`LESSER`].
    lesser: bool,
    /// Keys of the content words before the marker (in its sentence) and
    /// after it (up to the clause's end, four at most).
    before: BTreeSet<String>,
    after: BTreeSet<String>,
    /// Byte range of the marker and its object, for the reason.
    span: std::ops::Range<usize>,
}

fn relations(f: &Facts) -> Vec<Relation> {
    let toks = &f.toks;
    let lower = |i: usize| toks.get(i).map_or("", |t| t.lower.as_str());
    let mut out = Vec::new();
    let mut sentence = 0;
    for i in 0..toks.len() {
        if toks[i].sentence_start {
            sentence = i;
        }
        let earlier = &toks[sentence..i];
        let has = |list: &[&str]| {
            earlier.iter().any(|t| {
                t.parts
                    .iter()
                    .any(|p| list.iter().any(|w| p.starts_with(w)))
            })
        };
        let w = lower(i);
        let (rel, end) = match w {
            "before" => (Rel::Before, i),
            "prior" if lower(i + 1) == "to" => (Rel::Before, i + 1),
            "after" => (Rel::After, i),
            "than" if lower(i.wrapping_sub(1)) == "earlier" => (Rel::Before, i),
            "than" if lower(i.wrapping_sub(1)) == "later" => (Rel::After, i),
            "than"
                if lower(i.wrapping_sub(1)) != "rather"
                    && toks.get(i + 1).is_some_and(|n| n.cardinal.is_none()) =>
            {
                (Rel::Exceeds, i)
            }
            "over" if has(GAINS) => (Rel::Exceeds, i),
            "compared" | "relative" if matches!(lower(i + 1), "to" | "with") => {
                (Rel::Exceeds, i + 1)
            }
            "versus" | "vs" => (Rel::Exceeds, i),
            _ if ["outperform", "surpass", "exceed", "beat"]
                .iter()
                .any(|v| toks[i].parts.first().is_some_and(|p| p.starts_with(v))) =>
            {
                (Rel::Exceeds, i)
            }
            _ => continue,
        };
        let before: BTreeSet<String> = earlier
            .iter()
            .filter(|t| !t.stop)
            .map(|t| t.key.clone())
            .collect();
        let mut after = BTreeSet::new();
        let mut last = end;
        for (k, t) in toks.iter().enumerate().skip(end + 1) {
            if t.brk || after.len() == 4 {
                break;
            }
            if !t.stop {
                after.insert(t.key.clone());
                last = k;
            }
        }
        if before.is_empty() || after.is_empty() {
            continue;
        }
        out.push(Relation {
            rel,
            lesser: rel == Rel::Exceeds && has(LESSER),
            before,
            after,
            span: toks[i].span.start..toks[last].span.end,
        });
    }
    out
}

/// The same relation with its two sides the other way round: "A before
/// B" against "B before A", "A more efficient than B" against "an increase
/// of B over A".
pub(super) fn reversed(claim: &str, quote: &str, c: &Facts, q: &Facts) -> Option<String> {
    let (rc, rq) = (relations(c), relations(q));
    for x in &rc {
        for y in rq.iter().filter(|y| y.rel == x.rel && y.lesser == x.lesser) {
            let only_c: Vec<&String> = x.after.difference(&y.after).collect();
            let only_q: Vec<&String> = y.after.difference(&x.after).collect();
            let swapped = only_c.iter().any(|w| y.before.contains(*w))
                && only_q.iter().any(|w| x.before.contains(*w));
            if swapped {
                return Some(format!(
                    "the claim says \"{}\", the quote says \"{}\": the other way round",
                    &claim[x.span.clone()],
                    &quote[y.span.clone()]
                ));
            }
        }
    }
    None
}

// ---- quantities ------------------------------------------------------------------

/// A count of something in the claim that the quote counts differently
/// ("two octaves" / "an octave").
pub(super) fn other_count(claim: &str, quote: &str, c: &Facts, q: &Facts) -> Option<String> {
    for w in c.toks.windows(2) {
        let (n, thing) = (&w[0], &w[1]);
        let Some(value) = &n.cardinal else {
            continue;
        };
        if !thing.content() || thing.brk || q.numbers.contains(value) {
            continue;
        }
        for v in q.toks.windows(2) {
            let (m, same) = (&v[0], &v[1]);
            if same.brk || same.parts.first() != thing.parts.first() {
                continue;
            }
            let other = match &m.cardinal {
                Some(x) => x.as_str(),
                None if matches!(m.lower.as_str(), "a" | "an") => "1",
                None => continue,
            };
            if other != value {
                return Some(format!(
                    "the claim says \"{}\", the quote says \"{}\"",
                    &claim[n.span.start..thing.span.end],
                    &quote[m.span.start..same.span.end]
                ));
            }
        }
    }
    None
}

// ---- names -------------------------------------------------------------------------

/// The same name, allowing one letter's difference in a long one
/// ("Budapest" / "Budapesth").
fn close(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().min(b.len()) < 5 || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    // One letter replaced, added or left out.
    head + tail + 1 >= a.len().max(b.len())
}

fn has_name(keys: &BTreeSet<String>, k: &str) -> bool {
    keys.iter().any(|x| close(x, k))
}

/// A run of names ("Christian Gottlob Neefe", "St. Mark").
struct Group {
    keys: Vec<String>,
    first: usize,
    last: usize,
}

fn groups(f: &Facts, other: &Facts) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    for (i, t) in f.toks.iter().enumerate() {
        if !is_name(t, &f.lower, &other.lower) {
            continue;
        }
        match out.last_mut() {
            Some(g) if g.last + 1 == i && !t.brk && !f.toks[g.last].possessive => {
                g.keys.push(t.key.clone());
                g.last = i;
            }
            _ => out.push(Group {
                keys: vec![t.key.clone()],
                first: i,
                last: i,
            }),
        }
    }
    out
}

/// The nearest content word before and after a run, in its clause.
fn neighbours(toks: &[Tok], first: usize, last: usize) -> (Option<&Tok>, Option<&Tok>) {
    let mut before = None;
    if !toks[first].brk {
        for k in (0..first).rev() {
            if !toks[k].stop {
                before = Some(&toks[k]);
                break;
            }
            if toks[k].brk {
                break;
            }
        }
    }
    let mut after = None;
    for t in &toks[last + 1..] {
        if t.brk {
            break;
        }
        if !t.stop {
            after = Some(t);
            break;
        }
    }
    (before, after)
}

/// The words `first..=last` as written, a possessive "'s" left out.
fn text_of(text: &str, toks: &[Tok], first: usize, last: usize) -> String {
    let last = &toks[last];
    let end = if last.possessive {
        last.span.start + last.raw.len()
    } else {
        last.span.end
    };
    text[toks[first].span.start..end].to_string()
}

/// A name of the claim where the quote has another name, in the same place
/// (the same word next to it: "born in Salzburg" / "born at Rohrau"), or
/// another word between the same two words ("Beethoven's Pastoral
/// symphony" / "Beethoven's choral symphony").
pub(super) fn name_in_place(claim: &str, quote: &str, c: &Facts, q: &Facts) -> Option<String> {
    let (gc, gq) = (groups(c, q), groups(q, c));
    let same = |a: Option<&Tok>, b: Option<&Tok>| match (a, b) {
        (Some(a), Some(b)) => a.key == b.key,
        _ => false,
    };
    for g in &gc {
        let (before, after) = neighbours(&c.toks, g.first, g.last);
        let name = text_of(claim, &c.toks, g.first, g.last);
        for h in &gq {
            let new = h.keys.iter().any(|k| !has_name(&c.keys, k));
            let differs = g.keys.iter().any(|k| !h.keys.iter().any(|x| close(x, k)));
            let (b, a) = neighbours(&q.toks, h.first, h.last);
            // The quote giving the claim's name next to the other one ("in
            // Broglie, Normandy") adds a detail, it swaps nothing.
            let together = q.toks.iter().enumerate().any(|(k, t)| {
                g.keys.iter().any(|x| close(x, &t.key)) && k + 3 >= h.first && k <= h.last + 3
            });
            if new && differs && !together && (same(before, b) || same(after, a)) {
                return Some(format!(
                    "the claim names {name} where the quote names {}",
                    text_of(quote, &q.toks, h.first, h.last)
                ));
            }
        }
        // Another word between the same two words.
        if g.keys.iter().all(|k| has_name(&q.keys, k)) {
            continue;
        }
        let (Some(before), Some(after)) = (before, after) else {
            continue;
        };
        for k in 0..q.toks.len() {
            let t = &q.toks[k];
            if t.stop || t.brk || c.keys.contains(&t.key) || t.cardinal.is_some() {
                continue;
            }
            let (b, a) = neighbours(&q.toks, k, k);
            if same(Some(before), b) && same(Some(after), a) {
                return Some(format!(
                    "the claim names {name} where the quote says \"{}\"",
                    text_of(quote, &q.toks, k, k)
                ));
            }
        }
    }
    None
}

/// The claim's names the quote lacks (`found`: the claim's words the quote
/// has, [`shared_words`]), and the quote's names the claim
/// lacks (a name of the quote run together with one the claim gives in
/// full — "Christian Gottlob Neefe" for "Neefe" — is not another name).
pub(super) fn unmatched_names(
    claim: &str,
    quote: &str,
    c: &Facts,
    q: &Facts,
    found: &BTreeSet<String>,
) -> (Vec<String>, Vec<String>) {
    let (gc, gq) = (groups(c, q), groups(q, c));
    let present = |k: &String, f: &Facts| has_name(&f.keys, k) || f.words.contains(k);
    let mut missing = Vec::new();
    for g in &gc {
        for i in g.first..=g.last {
            let t = &c.toks[i];
            // Found through an acronym ("Long-term" in "LTM") counts.
            if !present(&t.key, q) && !t.parts.iter().all(|p| found.contains(p)) {
                missing.push(text_of(claim, &c.toks, i, i));
            }
        }
    }
    let full: Vec<&Group> = gc
        .iter()
        .filter(|g| g.keys.iter().all(|k| present(k, q)))
        .collect();
    let mut other = Vec::new();
    for h in &gq {
        if full
            .iter()
            .any(|g| g.keys.iter().any(|k| h.keys.contains(k)))
        {
            continue;
        }
        for i in h.first..=h.last {
            let t = &q.toks[i];
            if !present(&t.key, c) {
                other.push(text_of(quote, &q.toks, i, i));
            }
        }
    }
    (missing, other)
}
