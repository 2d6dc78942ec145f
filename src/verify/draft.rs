//! Quotations in an author's draft and the citations written with them:
//! inline quotations in the marks of several languages, `>` block quotes,
//! and the citation after a quotation, before it in its sentence, or in a
//! footnote.

use super::{QuoteInput, Quotes};
use crate::cite::Citation;

/// Longest inline quotation looked for, in chars (a long one belongs in a
/// block quote, but some are written inline: about 1,500 words).
const MAX_INLINE: usize = 10_000;

/// Quotations in a draft: "…" and “…” spans and `>` block quotes; those of
/// fewer than `min_words` words apart.
pub fn draft_quotes(text: &str, min_words: usize) -> Quotes {
    let mut out = Vec::new();
    // Words as validation counts them: a Chinese or Japanese sentence is
    // many, not one.
    let words = |s: &str| unicode_segmentation::UnicodeSegmentation::unicode_words(s).count();
    // Block quotes: runs of lines starting with '>'.
    let mut block: Vec<&str> = Vec::new();
    let mut block_line = 0;
    // A citation that introduces the block ("As @key [p. 9] writes:").
    let mut introduced: Option<Citation> = None;
    let mut in_code = false;
    let all: Vec<&str> = text.lines().collect();
    // Footnotes' citations, by label (`[^1]: [@key, p. 4].`), read over
    // the note's continuation lines too.
    let notes: std::collections::HashMap<String, Citation> = all
        .iter()
        .enumerate()
        .filter_map(|(n, l)| {
            let (label, first) = l.trim_start().strip_prefix("[^")?.split_once("]:")?;
            let mut note = first.to_string();
            for (k, next) in all.iter().enumerate().skip(n + 1) {
                let indented = next.starts_with([' ', '\t']);
                let lazy = !next.trim().is_empty() && !all[k - 1].trim().is_empty();
                let more = all.get(k + 1).is_some_and(|x| x.starts_with([' ', '\t']));
                if next.trim_start().starts_with("[^")
                    || !(indented || lazy || (next.trim().is_empty() && more))
                {
                    break;
                }
                note.push(' ');
                note.push_str(next.trim());
            }
            Some((label.to_string(), crate::cite::check::parse_note(&note)?))
        })
        .collect();
    for (i, l) in all.iter().enumerate() {
        let t = l.trim_start();
        if t.starts_with("```") {
            in_code = !in_code;
        }
        if !in_code && let Some(rest) = t.strip_prefix('>') {
            if block.is_empty() {
                block_line = i + 1;
                introduced = all[..i]
                    .iter()
                    .rev()
                    .take(2)
                    .find(|l| !l.trim().is_empty())
                    .and_then(|l| {
                        let chars: Vec<char> = l.trim_end().chars().collect();
                        // Words besides the citation: a line that is only
                        // one cites the block above it.
                        crate::cite::check::parse_before(&chars)
                            .filter(|c| l.replace(&c.text, "").chars().any(char::is_alphabetic))
                    });
            }
            block.push(rest.trim());
            continue;
        }
        if !block.is_empty() {
            // A line that is only a citation right after the block cites it.
            let next = crate::cite::check::split_trailing(t).1.filter(|c| {
                let rest = t.trim().trim_start_matches(['—', '–', '-']).trim();
                rest == c.text
            });
            // Any other line of text right after one of the block's goes on
            // with its paragraph (Markdown's lazy continuation).
            if next.is_none() && !t.trim().is_empty() && block.last().is_some_and(|l| !l.is_empty())
            {
                block.push(t.trim());
                continue;
            }
            push_block(
                &mut out,
                &block,
                block_line,
                next.or(introduced.take()),
                &notes,
            );
            block.clear();
        }
    }
    if !block.is_empty() {
        push_block(&mut out, &block, block_line, introduced.take(), &notes);
    }
    let in_env = latex_blocks(&all, &mut out);
    // Inline quotations, outside block quotes; they may span lines.
    let prose: String = all
        .iter()
        .enumerate()
        .map(|(n, l)| {
            if l.trim_start().starts_with('>') || in_env[n] {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let chars: Vec<char> = prose.chars().collect();
    // Line numbers counted as the scan moves forward: linear in the draft.
    let (mut line, mut counted) = (1usize, 0usize);
    let mut line_of = |ci: usize| {
        line += chars[counted..ci].iter().filter(|c| **c == '\n').count();
        counted = ci;
        line
    };
    let mut i = 0;
    while i < chars.len() {
        let Some((start, end, resume, own)) = quotation_at(&chars, i) else {
            i += 1;
            continue;
        };
        let q: String = chars[start..end].iter().collect();
        // A LaTeX quotation's markup is not the words quoted.
        let latex = chars[i] == '\\' || chars[i] == '`';
        let q = if latex { latex_plain(&q) } else { q };
        let q = q.split_whitespace().collect::<Vec<_>>().join(" ");
        if !q.is_empty() {
            let after = &chars[resume.min(chars.len())..];
            let after = &after[..after.len().min(320)];
            out.push(QuoteInput {
                quote: q,
                source: None,
                line: Some(line_of(i)),
                citation: own
                    .or_else(|| crate::cite::check::parse_after(after).map(|(c, _)| c))
                    .or_else(|| footnote_ref(after).and_then(|l| notes.get(&l).cloned()))
                    .or_else(|| crate::cite::check::parse_before(&chars[..i])),
            });
        }
        i = resume;
    }
    out.sort_by_key(|q| q.line);
    let (check, too_short) = out.into_iter().partition(|q| words(&q.quote) >= min_words);
    Quotes { check, too_short }
}

/// LaTeX's block quotations (`quote`, `quotation` and csquotes'
/// `displayquote` environments), each with the citation it ends with
/// (`… \cite[p.~9]{key}`), its `displayquote[\cite{key}]` argument, or one
/// right after `\end{quote}`. Returns which lines they take.
fn latex_blocks(all: &[&str], out: &mut Vec<QuoteInput>) -> Vec<bool> {
    let mut taken = vec![false; all.len()];
    let mut n = 0;
    while n < all.len() {
        let t = all[n].trim();
        let Some(env) = ["quote", "quotation", "displayquote"]
            .into_iter()
            .find(|e| t.starts_with(&format!("\\begin{{{e}}}")))
        else {
            n += 1;
            continue;
        };
        let end_tag = format!("\\end{{{env}}}");
        let Some(last) = (n..all.len()).find(|&k| all[k].contains(&end_tag)) else {
            break;
        };
        let joined: String = all[n..=last].join(" ");
        let body_start = joined.find('}').map_or(0, |b| b + 1);
        let body_end = joined.rfind(&end_tag).unwrap_or(joined.len());
        let mut body: Vec<char> = joined[body_start..body_end].chars().collect();
        // displayquote's citation argument.
        let mut cite = None;
        if body.first() == Some(&'[')
            && let Some(len) = braced(&body[1..], '[', ']')
        {
            cite = crate::cite::check::parse_after(&body[1..1 + len]).map(|(c, _)| c);
            body.drain(..len + 2);
        }
        // A citation command ending the quotation.
        if cite.is_none()
            && let Some(at) = body.iter().rposition(|&c| c == '\\')
            && let Some((c, len)) = crate::cite::check::parse_after(&body[at..])
            && body[at + len..]
                .iter()
                .all(|c| c.is_whitespace() || ".,;".contains(*c))
        {
            cite = Some(c);
            body.truncate(at);
        }
        if cite.is_none() {
            let rest = &joined[body_end + end_tag.len()..];
            let next = all.get(last + 1).copied().unwrap_or("");
            let after: Vec<char> = format!("{rest}\n{next}").chars().collect();
            cite = crate::cite::check::parse_after(&after).map(|(c, _)| c);
        }
        let quote = latex_plain(&body.iter().collect::<String>())
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if !quote.is_empty() {
            out.push(QuoteInput {
                quote,
                source: None,
                line: Some(n + 1),
                citation: cite,
            });
        }
        taken[n..=last].iter_mut().for_each(|x| *x = true);
        n = last + 1;
    }
    taken
}

/// A quotation opening at `i`: its text's char range, where the scan goes
/// on, and a citation written inside its markup (LaTeX's `\textquote[\cite
/// {key}]{…}`).
///
/// English, French («…», ‹…›), German („…“, »…«), Polish („…”) and
/// Chinese and Japanese (「…」, 『…』) marks;
/// single marks (‘…’, '…') where they are no apostrophe; a straight double
/// mark that is no inch or second sign (`12"`); and LaTeX's ``…'',
/// `\enquote{…}` and `\textquote{…}`.
fn quotation_at(chars: &[char], i: usize) -> Option<(usize, usize, usize, Option<Citation>)> {
    let window = |from: usize| &chars[from.min(chars.len())..(from + MAX_INLINE).min(chars.len())];
    if chars[i] == '`' && chars.get(i + 1) == Some(&'`') {
        let len = window(i + 2).windows(2).position(|w| w == ['\'', '\''])?;
        return Some((i + 2, i + 2 + len, i + 4 + len, None));
    }
    if chars[i] == '\\' {
        return latex_quotation(chars, i);
    }
    let close: &[char] = match chars[i] {
        '“' => &['”', '"'],
        '"' if opens_double(chars, i) => &['"'],
        '＂' => &['＂'],
        '«' => &['»'],
        '‹' => &['›'],
        '「' => &['」'],
        '『' => &['』'],
        '„' => &['“', '”'],
        '»' => &['«'],
        '‘' | '\'' if opens_single(chars, i) => &['’', '\''],
        _ => return None,
    };
    let single = matches!(chars[i], '‘' | '\'');
    let closes = |k: usize| {
        let at = i + 1 + k;
        close.contains(&chars[at]) && (!single || closes_single(chars, at))
    };
    let len = if single {
        // A single mark after an "s" and before a word may be a plural's
        // apostrophe ("‘the keepers’ lamp was lit’"): a later closing
        // mark in the paragraph is taken first, but not past the next
        // opening one ("‘… four hours’ and ‘…’" are two quotations).
        let para = window(i + 1)
            .windows(2)
            .position(|w| w == ['\n', '\n'])
            .map_or(window(i + 1).len(), |p| p);
        let para = (0..para)
            .find(|&k| {
                chars[i + 1 + k] == '‘'
                    || (chars[i + 1 + k] == '\'' && opens_single(chars, i + 1 + k) && !closes(k))
            })
            .map_or(para, |next_open| next_open);
        let mut found = (0..para).filter(|&k| closes(k));
        let first = found.next()?;
        let possessive = |k: usize| {
            let at = i + 1 + k;
            matches!(chars[at - 1], 's' | 'S')
                && chars.get(at + 1) == Some(&' ')
                && chars.get(at + 2).is_some_and(|c| c.is_lowercase())
        };
        if possessive(first) {
            std::iter::once(first)
                .chain(found)
                .find(|&k| !possessive(k))
                .unwrap_or(first)
        } else {
            first
        }
    } else {
        (0..window(i + 1).len()).find(|&k| closes(k))?
    };
    Some((i + 1, i + 1 + len, i + 2 + len, None))
}

/// A LaTeX quotation's text as it prints: formatting commands give their
/// argument (`\emph{keeper}`), ties and `\ ` are spaces, `---`, `--`,
/// `\ldots` and escaped signs are their characters.
fn latex_plain(q: &str) -> String {
    let mut out = String::with_capacity(q.len());
    let chars: Vec<char> = q.chars().collect();
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        if c == '\\' {
            let name: String = chars[k + 1..]
                .iter()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            let after = k + 1 + name.len();
            match name.as_str() {
                "emph" | "textit" | "textbf" | "textsc" | "textsl" | "textup" | "textrm"
                | "textsf" | "texttt" | "underline" | "mbox" | "enquote"
                    if chars.get(after) == Some(&'{') =>
                {
                    // The argument stays; its closing brace is dropped below.
                    k = after + 1;
                    continue;
                }
                "ldots" | "dots" | "textellipsis" => out.push('…'),
                "" => match chars.get(after) {
                    Some(e @ ('&' | '%' | '$' | '#' | '_' | '{' | '}')) => out.push(*e),
                    Some(' ' | '\\') => out.push(' '),
                    _ => out.push('\\'),
                },
                _ => {
                    // Another command: kept as written (the quote is then
                    // flagged, not passed).
                    out.push('\\');
                    out.push_str(&name);
                }
            }
            k = after + usize::from(name.is_empty() && after < chars.len());
            continue;
        }
        if c == '-' && chars.get(k + 1) == Some(&'-') {
            let em = chars.get(k + 2) == Some(&'-');
            out.push(if em { '—' } else { '–' });
            k += if em { 3 } else { 2 };
            continue;
        }
        match c {
            '~' => out.push(' '),
            '{' | '}' => {}
            _ => out.push(c),
        }
        k += 1;
    }
    out
}

/// `\enquote{…}`, `\enquote*{…}` or `\textquote[cite][punct]{…}` at `i`.
fn latex_quotation(chars: &[char], i: usize) -> Option<(usize, usize, usize, Option<Citation>)> {
    let name: String = chars[i + 1..]
        .iter()
        .take(9)
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    if !matches!(name.as_str(), "enquote" | "textquote") {
        return None;
    }
    let mut j = i + 1 + name.len();
    if chars.get(j) == Some(&'*') {
        j += 1;
    }
    let mut own = None;
    while chars.get(j) == Some(&'[') {
        let end = j + 1 + braced(&chars[j + 1..], '[', ']')?;
        let arg: Vec<char> = chars[j + 1..end].to_vec();
        own = own.or_else(|| crate::cite::check::parse_after(&arg).map(|(c, _)| c));
        j = end + 1;
    }
    if chars.get(j) != Some(&'{') {
        return None;
    }
    let end = j + 1 + braced(&chars[j + 1..], '{', '}')?;
    Some((j + 1, end, end + 1, own))
}

/// The length of a bracketed argument's text up to its closing bracket,
/// nested brackets inside.
fn braced(s: &[char], open: char, close: char) -> Option<usize> {
    let mut depth = 0usize;
    for (k, &c) in s.iter().take(MAX_INLINE).enumerate() {
        if c == open {
            depth += 1;
        } else if c == close {
            if depth == 0 {
                return Some(k);
            }
            depth -= 1;
        }
    }
    None
}

/// A straight double mark at `i` opens a quotation: not after a letter or
/// digit (`12"` is twelve inches), and a word follows.
fn opens_double(chars: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).map(|b| chars[b]);
    !before.is_some_and(|c| c.is_alphanumeric())
        && chars.get(i + 1).is_some_and(|c| !c.is_whitespace())
}

/// The label of a footnote reference right after a quotation (`[^1]`,
/// after at most a closing punctuation mark or two).
fn footnote_ref(after: &[char]) -> Option<String> {
    let skip = after
        .iter()
        .take(2)
        .take_while(|c| matches!(c, '.' | ',' | ';' | ':'))
        .count();
    let rest = after.get(skip..)?;
    if rest.first() != Some(&'[') || rest.get(1) != Some(&'^') {
        return None;
    }
    let len = rest[2..].iter().take(64).position(|&c| c == ']')?;
    let label: String = rest[2..2 + len].iter().collect();
    (!label.is_empty() && !label.contains(char::is_whitespace)).then_some(label)
}

/// A single quotation mark at `i` opens a quotation: not inside a word
/// ("don't", "'tis" after a letter), and a word follows.
fn opens_single(chars: &[char], i: usize) -> bool {
    let before = i.checked_sub(1).map(|b| chars[b]);
    !before.is_some_and(|c| c.is_alphanumeric())
        && chars.get(i + 1).is_some_and(|c| c.is_alphanumeric())
}

/// A single quotation mark at `i` closes one: after a word or its
/// punctuation, with no letter after it ("don’t" goes on).
fn closes_single(chars: &[char], i: usize) -> bool {
    !chars[i - 1].is_whitespace() && !chars.get(i + 1).is_some_and(|c| c.is_alphanumeric())
}

/// A block quote (its lines), with the citation at its end or on the line
/// after it; a footnote reference at its end reads the footnote's citation.
fn push_block(
    out: &mut Vec<QuoteInput>,
    block: &[&str],
    line: usize,
    next: Option<Citation>,
    notes: &std::collections::HashMap<String, Citation>,
) {
    let joined = block.join(" ");
    let (mut q, mut own) = crate::cite::check::split_trailing(joined.trim());
    if own.is_none()
        && let Some(at) = q.trim_end().rfind("[^")
    {
        let tail: Vec<char> = q[at..].trim_end().chars().collect();
        if let Some(label) = footnote_ref(&tail).filter(|l| tail.len() == l.chars().count() + 3) {
            own = notes.get(&label).cloned();
            q.truncate(at);
        }
    }
    let q = q.trim().to_string();
    if !q.is_empty() {
        out.push(QuoteInput {
            quote: q,
            source: None,
            line: Some(line),
            citation: own.or(next),
        });
    }
}

#[cfg(test)]
mod tests;
