//! Lightweight markup the reader does not see, as the published page shows
//! it: Markdown and reStructuredText emphasis and code markers, Markdown
//! links, reStructuredText roles, link targets and literal-block marks,
//! and a plain-text edition's footnote markers set against a word.
//! Each function decides at one byte of a text by looking at it and what
//! follows (and, for an underscore, the nearest underscore either side),
//! so that validation's normalization and the copied text read the same.

/// A Markdown link's markup at byte `b` of `s`: the `[` that opens link
/// text (a `](target)` follows on the same paragraph, within 300 bytes, with
/// no bracket between), or the `](target)` that closes it (a target with no
/// whitespace, or in angle brackets, and an optional title in quotes or
/// parentheses — `](url "The keeper")` —, within 500 bytes). Returns the
/// bytes to skip. Decided by looking ahead only, so a slice of the text
/// reads the same.
pub fn link_markup(s: &str, b: usize) -> Option<usize> {
    // At most `n` bytes of `t`, cut on a char boundary.
    fn head(t: &str, n: usize) -> &str {
        let mut n = n.min(t.len());
        while !t.is_char_boundary(n) {
            n -= 1;
        }
        &t[..n]
    }
    let rest = &s[b..];
    if let Some(after) = rest.strip_prefix("](") {
        return link_target(head(after, 500)).map(|n| n + 2);
    }
    if let Some(after) = rest.strip_prefix('[') {
        let text = head(after, 300);
        let end = text.find("](")?;
        let inner = &text[..end];
        let ok = !inner.contains(['[', ']']) && !inner.contains("\n\n") && !inner.is_empty();
        return (ok && link_markup(s, b + 1 + end).is_some()).then_some(1);
    }
    None
}

/// The length of a link's target and title up to its closing `)`
/// (included), as CommonMark reads them: a destination without
/// whitespace (or in `<…>`), then, after spaces or one line break, a title
/// in `"…"`, `'…'` or `(…)`.
fn link_target(t: &str) -> Option<usize> {
    let dest = if t.starts_with('<') {
        t.find('>')? + 1
    } else {
        t.find(|c: char| c.is_whitespace() || c == ')')?
    };
    let rest = &t[dest..];
    let gap = rest.len() - rest.trim_start().len();
    let after = &rest[gap..];
    if after.starts_with(')') {
        return (gap == 0 || !rest[..gap].contains("\n\n")).then_some(dest + gap + 1);
    }
    if gap == 0 || rest[..gap].matches('\n').count() > 1 {
        return None;
    }
    let close = match after.chars().next()? {
        '"' => '"',
        '\'' => '\'',
        '(' => ')',
        _ => return None,
    };
    let title = after[1..].find(close)? + 2;
    if after[1..title - 1].contains("\n\n") {
        return None;
    }
    let tail = &after[title..];
    let space = tail.len() - tail.trim_start_matches([' ', '\t']).len();
    tail[space..]
        .starts_with(')')
        .then_some(dest + gap + title + space + 1)
}

/// A reStructuredText role at byte `b` of `s`, after the char `prev`:
/// `:name:` (or `:domain:name:`) right before the backtick that opens its
/// text, at the start of a word. Returns the bytes to skip (the role and
/// the opening backtick) and what a reader sees instead: docutils renders
/// `:pep:`8`` as "PEP 8" and `:rfc:`2822`` as "RFC 2822"; any other role
/// (`:func:`len``, `:ref:`…``) as its text alone. Sphinx shows a target
/// marked `~` by its last component (`:func:`~curses.wrapper`` reads
/// "wrapper") and one marked `!` without the mark; both are skipped too.
pub fn rst_role(s: &str, b: usize, prev: char) -> Option<(usize, &'static str)> {
    let bytes = s.as_bytes();
    if bytes.get(b) != Some(&b':') || !(prev == '\0' || prev.is_whitespace() || prev == '(') {
        return None;
    }
    let mut e = b + 1;
    let mut colons = 0;
    while e < bytes.len() && e - b < 40 {
        match bytes[e] {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'+' => e += 1,
            b':' if colons < 1 && bytes.get(e + 1) != Some(&b'`') => {
                colons += 1;
                e += 1;
            }
            b':' if bytes.get(e + 1) == Some(&b'`') && e > b + 1 => {
                let name = s[b + 1..e].rsplit(':').next().unwrap_or("");
                let shown = match name.to_ascii_lowercase().as_str() {
                    "pep" | "pep-reference" => "PEP ",
                    "rfc" | "rfc-reference" => "RFC ",
                    _ => "",
                };
                return Some((e + 2 - b + target_prefix(&bytes[e + 2..]), shown));
            }
            _ => return None,
        }
    }
    None
}

/// The bytes of a role's text (`rest` starts after its opening backtick)
/// the reader does not see: a `!`, or a `~` with the dotted path before the
/// target's last component. Looks no further than the name, so a slice
/// that ends with the name reads the same.
fn target_prefix(rest: &[u8]) -> usize {
    match rest.first() {
        Some(b'!') => 1,
        Some(b'~') => {
            let name = rest[1..]
                .iter()
                .take(200)
                .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
                .count();
            // A full stop after the name ends a sentence, not a path.
            let name = &rest[1..1 + name];
            let name = &name[..name.iter().rposition(|&c| c != b'.').map_or(0, |k| k + 1)];
            1 + name.iter().rposition(|&c| c == b'.').map_or(0, |d| d + 1)
        }
        _ => 0,
    }
}

/// A reStructuredText "::" at byte `b` of `s` that introduces a literal
/// block: two colons, not three, followed by whitespace or the end. Whether
/// the reader sees one colon (after a word, `prev`) or none (after a space
/// or at the start). "std::vector" and "fe80::1" are not marks.
pub fn literal_block_mark(s: &str, b: usize, prev: char) -> Option<bool> {
    let rest = s.as_bytes().get(b..)?;
    let ends = rest.get(2).is_none_or(|c| c.is_ascii_whitespace());
    (rest.starts_with(b"::") && ends && prev != ':')
        .then_some(!(prev == '\0' || prev.is_whitespace()))
}

/// A reStructuredText hyperlink target at byte `b` of `s`: the `<url>`_ (or
/// `<url>`__) that ends `` `link text <url>`_ ``; the reader sees the link
/// text only. Returns the bytes to skip.
pub fn rst_link_target(s: &str, b: usize) -> Option<usize> {
    let rest = s.get(b..)?.strip_prefix('<')?;
    let close = rest.get(..rest.len().min(500))?.find('>')?;
    if close == 0 || rest[..close].chars().any(char::is_whitespace) {
        return None;
    }
    let after = &rest[close + 1..];
    let tail = if after.starts_with("`__") {
        3
    } else if after.starts_with("`_") {
        2
    } else {
        return None;
    };
    Some(1 + close + 1 + tail)
}

/// Lightweight markup the reader does not see: a run of one to three `*`,
/// `_` or `` ` `` (Markdown and reStructuredText emphasis, strong, code)
/// that opens a word (after whitespace, an opening bracket or quote, or the
/// start, and before a letter or digit) or closes one (after a letter,
/// digit or closing punctuation, and before whitespace, punctuation or the
/// end). `snake_case`, `5 * 3` and `2*3` are not markup. Returns the run's
/// length in bytes (the chars are ASCII) when the run at byte `b` of `s`,
/// after the char `prev`, is markup.
pub fn markup_run(s: &str, b: usize, prev: char) -> Option<usize> {
    let bytes = s.as_bytes();
    let c = *bytes.get(b)?;
    if !matches!(c, b'*' | b'_' | b'`') {
        return None;
    }
    let mut e = b;
    while e < bytes.len() && bytes[e] == c && e - b < 4 {
        e += 1;
    }
    if e - b > 3 {
        return None;
    }
    let next = s[e..].chars().next();
    let before_open = may_open_after(prev);
    if c == b'`' {
        // A code literal holds any text (``/proc/x``, ``--force``): it
        // opens before any non-space char and closes after one, as
        // reStructuredText and Markdown read it.
        let opens = before_open && next.is_some_and(|n| !n.is_whitespace() && n != '`');
        let closes = !prev.is_whitespace()
            && !matches!(prev, '\0' | '`')
            && next.is_none_or(|n| !n.is_alphanumeric() && n != '`');
        return (opens || closes).then_some(e - b);
    }
    // Emphasis may open on a code literal: *`--force`*.
    let opens = before_open && next.is_some_and(|n| n.is_alphanumeric() || n == '`');
    let before_close = (b > 0 && bytes[b - 1] == b'`')
        || prev.is_alphanumeric()
        || matches!(
            prev,
            '.' | ',' | ';' | ':' | '!' | '?' | ')' | '"' | '\'' | '\u{201D}' | '\u{2019}'
        );
    let closes = before_close && next.is_none_or(|n| !n.is_alphanumeric() && n != c as char);
    if (opens || closes) && in_code_literal(bytes, b, e) {
        return None;
    }
    if c == b'_' && (opens || closes) {
        return underscore_emphasis(s, b, e, opens).then_some(e - b);
    }
    (opens || closes).then_some(e - b)
}

/// A plain-text edition's footnote marker at byte `b` of `s`, set against
/// the word or the punctuation before it (`prev`): "Dionysian[06]
/// festivals", "elsewhere,[E] the", "meaning."[B]". A reader quoting the
/// sentence leaves it out, as the HTML edition's anchor is left out. The
/// marker is one to three capitals, or two or three digits with a leading
/// zero, or digits after punctuation ("to it.[12]"); and no word goes on
/// after it. "x[1]", "items[10]" and "[12] Smith" are text. Returns its
/// length in bytes.
pub fn note_marker(s: &str, b: usize, prev: char) -> Option<usize> {
    let rest = s.get(b..)?.strip_prefix('[')?;
    let close = rest.find(']')?;
    let inner = &rest[..close];
    let after_punct = matches!(
        prev,
        '.' | ',' | ';' | ':' | '!' | '?' | ')' | '"' | '\'' | '\u{201D}' | '\u{2019}'
    );
    let capitals = (1..=3).contains(&inner.len()) && inner.bytes().all(|c| c.is_ascii_uppercase());
    let digits = (1..=3).contains(&inner.len()) && inner.bytes().all(|c| c.is_ascii_digit());
    let padded = digits && inner.len() >= 2 && inner.starts_with('0');
    let marker =
        (prev.is_alphabetic() && (capitals || padded)) || (after_punct && (capitals || digits));
    let next = rest[close + 1..].chars().next();
    (marker && next.is_none_or(|n| !n.is_alphanumeric())).then_some(close + 2)
}

/// May a run of markup open a word after the char `prev`: after
/// whitespace, an opening bracket or quote, or at the start.
fn may_open_after(prev: char) -> bool {
    prev == '\0'
        || prev.is_whitespace()
        || matches!(prev, '(' | '[' | '{' | '"' | '\'' | '\u{201C}' | '\u{2018}')
}

/// The emphasis runs (`*`, `_`) of a source's text `s` that its reader sees
/// as text, as a Markdown renderer shows them: a run that opens with no
/// run of the same char closing after it in its paragraph, or a star that
/// closes with none opening before it (`run_all(*jobs)`, `f(*args,
/// **kwargs)`, `_private`, a footnote's star; a lone closing underscore
/// marks a reStructuredText reference). Byte offsets, ascending. Pairing
/// needs the whole paragraph, so only a source's text is read this way
/// ([`super::normalize::normalize_within`]); a quote, perhaps a slice
/// that cuts a pair, is read in several ways (module docs of `validate`).
pub fn unpaired_runs(s: &str) -> Vec<usize> {
    let mut literal = Vec::new();
    // Opening runs waiting for their partner: stars, underscores.
    let mut open: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    // As normalization reads it: `prev` is the char before, markup runs
    // skipped; `breaks` counts the line breaks of the current whitespace.
    let (mut prev, mut last_ws, mut breaks) = ('\0', '\0', 0usize);
    let mut b = 0;
    while let Some(c) = s[b..].chars().next() {
        if c.is_whitespace() {
            breaks += usize::from(super::normalize::new_line(last_ws, c));
            if breaks == 2 {
                literal.extend(open.iter_mut().flat_map(|o| o.drain(..)));
            }
            (prev, last_ws) = (c, c);
            b += c.len_utf8();
            continue;
        }
        (breaks, last_ws) = (0, '\0');
        if matches!(c, '*' | '_')
            && let Some(n) = markup_run(s, b, prev)
        {
            let next = s[b + n..].chars().next();
            let opens =
                may_open_after(prev) && next.is_some_and(|d| d.is_alphanumeric() || d == '`');
            let stack = &mut open[usize::from(c == '_')];
            // A closing underscore with no partner ends a reStructuredText
            // reference (`Cython_`): still not text.
            if opens {
                stack.push(b);
            } else if stack.pop().is_none() && c == '*' {
                literal.push(b);
            }
            b += n;
            continue;
        }
        prev = c;
        b += c.len_utf8();
    }
    literal.extend(open.into_iter().flatten());
    literal.sort_unstable();
    literal
}

/// Is the emphasis run at byte `b` of a source's text `s` read as text
/// ([`unpaired_runs`])?
pub fn is_unpaired(s: &str, b: usize) -> bool {
    matches!(s.as_bytes().get(b), Some(b'*' | b'_')) && unpaired_runs(s).binary_search(&b).is_ok()
}

/// Is the run at bytes `b..e` in a word of a code literal? Inside
/// ``` ``*args`` ```, `` `f(*args, **kwargs)` `` or ``` ``_private`` ```
/// a star or an underscore is a char the reader sees, not emphasis. Decided
/// within the whitespace-delimited token that holds the run, so a slice of
/// whole words reads as the text around it does: the run is inside when
/// the nearest backtick before it in the token opens a literal (at the
/// token's start, after opening brackets or a role's colon), or, with none
/// before it, a backtick after it closes one. The `_` after `` `Cython`_ ``
/// is not (a reference's mark), nor the stars of `` *`--force`* ``, nor a
/// word inside a literal of three or more words (`` `a *b* c` ``).
fn in_code_literal(bytes: &[u8], b: usize, e: usize) -> bool {
    let token = |x: &&u8| !x.is_ascii_whitespace();
    let start = b - bytes[..b].iter().rev().take(200).take_while(token).count();
    let end = e + bytes[e..].iter().take(200).take_while(token).count();
    match bytes[start..b].iter().rposition(|&x| x == b'`') {
        Some(k) => {
            let run = start + k + 1
                - bytes[start..=start + k]
                    .iter()
                    .rev()
                    .take_while(|&&x| x == b'`')
                    .count();
            bytes[start..run].iter().all(opening) || (run > start && bytes[run - 1] == b':')
        }
        // A backtick after it closes a literal unless only brackets or
        // markup come before it in the token (`*`--force`*` is emphasis
        // around code).
        None => bytes[e..end]
            .iter()
            .position(|&x| x == b'`')
            .is_some_and(|k| {
                !bytes[start..e + k]
                    .iter()
                    .all(|x| opening(x) || matches!(x, b'*' | b'_'))
            }),
    }
}

/// An opening bracket or quote (ASCII).
fn opening(x: &u8) -> bool {
    matches!(x, b'(' | b'[' | b'{' | b'"' | b'\'')
}

/// Is the run of underscores at bytes `b..e` of `s` (opening a word when
/// `opens`, else closing one) emphasis? Decided within the word that holds
/// it (letters, digits, underscores), so a quote of whole words reads as
/// the text around it does: `__init__` and `obj.__len__()` (a name wrapped
/// in runs of the same length) and `snake_case_` (an underscore inside the
/// name) keep their underscores — the reader sees them, and a quote that
/// drops them names something else — while `_italic_`, `_two words_` and
/// `__bold words__` are emphasis. (`_private` reads as emphasis too: within
/// its word it cannot be told from the start of `_two words_`.)
fn underscore_emphasis(s: &str, b: usize, e: usize, opens: bool) -> bool {
    let bytes = s.as_bytes();
    let word = |x: &&u8| x.is_ascii_alphanumeric() || **x == b'_' || **x >= 0x80;
    let run = e - b;
    // The rest of the word after an opening run, or its start before a
    // closing one: the underscores at its far end and the name between.
    let (far, name) = if opens {
        let end = e + bytes[e..].iter().take_while(word).count();
        let far = bytes[e..end]
            .iter()
            .rev()
            .take_while(|&&x| x == b'_')
            .count();
        (far, &bytes[e..end - far])
    } else {
        let start = b - bytes[..b].iter().rev().take_while(word).count();
        let far = bytes[start..b].iter().take_while(|&&x| x == b'_').count();
        (far, &bytes[start + far..b])
    };
    !(name.contains(&b'_') || (run >= 2 && far == run && !name.is_empty()))
}
