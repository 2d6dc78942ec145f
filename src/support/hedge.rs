//! Hedged wording for a claim its quotes support only in part: the
//! sentence may not state as shown what the source only bears out in part.

/// Verbs that state a finding as settled, and their hedged forms.
const ASSERTIVE: &[(&str, &str)] = &[
    ("shows", "suggests"),
    ("show", "suggest"),
    ("showed", "suggested"),
    ("shown", "suggested"),
    ("demonstrates", "suggests"),
    ("demonstrate", "suggest"),
    ("demonstrated", "suggested"),
    ("proves", "suggests"),
    ("prove", "suggest"),
    ("proved", "suggested"),
    ("proven", "suggested"),
    ("establishes", "suggests"),
    ("confirms", "suggests"),
    ("confirm", "suggest"),
    ("reveals", "suggests"),
    ("reveal", "suggest"),
    ("revealed", "suggested"),
];

/// Words that state certainty; a hedged sentence leaves them out.
const CERTAIN: &[&str] = &[
    "clearly",
    "definitively",
    "definitely",
    "conclusively",
    "certainly",
    "undoubtedly",
    "unquestionably",
];

/// Words that already hedge a sentence.
const HEDGES: &[&str] = &[
    "suggest",
    "suggests",
    "suggested",
    "may",
    "might",
    "perhaps",
    "possibly",
    "apparently",
    "appears",
    "likely",
    "according",
];

/// The words of `s` with their byte offsets.
fn words(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c.is_alphanumeric() {
            start.get_or_insert(i);
        } else if let Some(b) = start.take() {
            out.push((b, &s[b..i]));
        }
    }
    if let Some(b) = start {
        out.push((b, &s[b..]));
    }
    out
}

/// `claim` in hedged wording, or None when it is hedged already. A verb
/// that states the finding as settled becomes "suggests" and words of
/// certainty go; a sentence with neither opens with "The source
/// suggests that …"; an attributed quotation ("Title, place: “…”", the
/// extractive engine's line) becomes "Title, place, suggests: “…”".
/// The byte ranges of `s` between quotation marks (“…”, "…"), marks
/// included; an opening mark never closed runs to the end.
fn quoted(s: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut open: Option<(usize, char)> = None;
    for (i, c) in s.char_indices() {
        match (open, c) {
            (None, '“' | '"') => open = Some((i, c)),
            (Some((a, '“')), '”') | (Some((a, '"')), '"') => {
                out.push(a..i + c.len_utf8());
                open = None;
            }
            _ => {}
        }
    }
    if let Some((a, _)) = open {
        out.push(a..s.len());
    }
    out
}

pub fn hedge(claim: &str) -> Option<String> {
    if words(claim)
        .iter()
        .any(|(_, w)| HEDGES.contains(&w.to_lowercase().as_str()))
    {
        return None;
    }
    let mut out = String::with_capacity(claim.len() + 24);
    let mut at = 0;
    let mut changed = false;
    // Words between quotation marks are the source's: never changed.
    let quoted = quoted(claim);
    for (i, w) in words(claim) {
        if quoted.iter().any(|q| q.contains(&i)) {
            continue;
        }
        let lower = w.to_lowercase();
        if let Some((_, soft)) = ASSERTIVE.iter().find(|(a, _)| *a == lower) {
            out.push_str(&claim[at..i]);
            if w.starts_with(char::is_uppercase) {
                out.push_str(&soft[..1].to_uppercase());
                out.push_str(&soft[1..]);
            } else {
                out.push_str(soft);
            }
            at = i + w.len();
            changed = true;
        } else if CERTAIN.contains(&lower.as_str()) {
            out.push_str(&claim[at..i]);
            // The word and the space after it.
            at = i + w.len();
            if claim[at..].starts_with(' ') {
                at += 1;
            } else if out.ends_with(' ') {
                out.pop();
            }
            changed = true;
        }
    }
    out.push_str(&claim[at..]);
    if changed {
        return Some(out);
    }
    // An attributed quotation: "Title, place: “…” [1]".
    if let Some(i) = claim.find(": “").or_else(|| claim.find(": \"")) {
        let (source, rest) = claim.split_at(i);
        return Some(format!("{source}, suggests{rest}"));
    }
    let first = claim.split_whitespace().next().unwrap_or("");
    let common = super::lexicon::STOP.contains(&first.to_lowercase().as_str())
        || super::lexicon::OPENERS.contains(&first.to_lowercase().as_str());
    let body = if common {
        let mut c = claim.chars();
        c.next()
            .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
            .unwrap_or_default()
    } else {
        claim.to_string()
    };
    Some(format!("The source suggests that {body}"))
}
