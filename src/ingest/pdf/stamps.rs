//! The stamp arXiv prints down the margin of a preprint's first page
//! ("arXiv:2501.10120v1  [cs.IR]  17 Jan 2025"): the repository's, not the
//! paper's words. Read into the text it lands beside a footnote or glued to
//! a page number ("1arXiv:2509.15517v1 [cs.LG] 19 Sep 2025"), where it
//! would be indexed as prose; it is taken out. An arXiv identifier the
//! paper cites ("see arXiv:2501.10120") has no category after it and stays.

/// `page` without its arXiv stamps.
pub(super) fn strip_stamps(page: &str) -> String {
    if !page.contains("arXiv:") {
        return page.to_string();
    }
    let mut lines: Vec<String> = Vec::new();
    for line in page.split('\n') {
        let mut out = String::with_capacity(line.len());
        let mut rest = line;
        let mut stamped = false;
        while let Some(at) = rest.find("arXiv:") {
            match stamp_len(&rest[at..]) {
                Some(n) => {
                    out.push_str(&rest[..at]);
                    rest = &rest[at + n..];
                    stamped = true;
                }
                None => {
                    out.push_str(&rest[..at + 6]);
                    rest = &rest[at + 6..];
                }
            }
        }
        out.push_str(rest);
        // A line the stamp was alone on goes with it.
        if !(stamped && out.trim().is_empty()) {
            lines.push(out);
        }
    }
    let mut text = lines.join("\n");
    while text.contains("\n\n\n") {
        text = text.replace("\n\n\n", "\n\n");
    }
    text
}

/// The length of the stamp at the start of `s`: "arXiv:", an identifier
/// (`2501.10120`, `2501.10120v1`), a category in brackets, and the date
/// (optional).
fn stamp_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 6;
    let digits = |i: &mut usize| {
        let from = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - from
    };
    if digits(&mut i) != 4 || b.get(i) != Some(&b'.') {
        return None;
    }
    i += 1;
    if !(4..=5).contains(&digits(&mut i)) {
        return None;
    }
    if b.get(i) == Some(&b'v') {
        i += 1;
        digits(&mut i);
    }
    let spaces = |i: &mut usize| {
        while *i < b.len() && (b[*i] == b' ' || b[*i] == b'\t') {
            *i += 1;
        }
    };
    spaces(&mut i);
    // The category: "[cs.IR]", "[stat.ML]", "[q-bio.NC]".
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let close = s[i..].find(']').filter(|&n| n <= 20)?;
    let cat = &s[i + 1..i + close];
    if !cat.contains('.')
        || !cat
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-.".contains(c))
    {
        return None;
    }
    i += close + 1;
    // The date: "17 Jan 2025".
    let mut j = i;
    spaces(&mut j);
    let day = digits(&mut j);
    if (1..=2).contains(&day) && b.get(j) == Some(&b' ') {
        let month = &b[j + 1..];
        if month.len() >= 8 && month[..3].iter().all(u8::is_ascii_alphabetic) && month[3] == b' ' {
            let mut k = j + 5;
            if digits(&mut k) == 4 {
                i = k;
            }
        }
    }
    Some(i)
}

#[cfg(test)]
mod tests {
    use super::strip_stamps;

    proptest::proptest! {
        /// Whatever the page holds, taking stamps out only takes text out:
        /// what is left is the page's, in its order.
        #[test]
        fn only_text_is_taken_out(
            s in "(arXiv:|2501\\.|10120|v1|\\[cs\\.IR\\]| |\\n|17 Jan 2025|é|x){0,16}"
        ) {
            let out = strip_stamps(&s);
            let mut rest = s.chars();
            proptest::prop_assert!(out.chars().all(|c| rest.any(|d| d == c)), "{:?} → {:?}", s, out);
        }
    }

    #[test]
    fn the_margin_stamp_goes_and_a_cited_identifier_stays() {
        assert_eq!(
            strip_stamps(
                "Text of the page.\n\narXiv:2501.10120v1  [cs.IR]  17 Jan 2025\n\nMore text."
            ),
            "Text of the page.\n\nMore text."
        );
        assert_eq!(
            strip_stamps("1arXiv:2509.15517v1  [cs.LG]  19 Sep 2025"),
            "1"
        );
        assert_eq!(
            strip_stamps("June 29, 2022arXiv:2109.12345v2 [cs.SE] 3 Oct 2022\nnext"),
            "June 29, 2022\nnext"
        );
        for keep in [
            "as shown in arXiv:2501.10120, the agent",
            "arXiv: a repository",
            "arXiv:25.10120 [cs.IR]",
        ] {
            assert_eq!(strip_stamps(keep), keep);
        }
    }
}
