//! Character differences between a fuzzy quote and the source text it was
//! matched to: a longest-common-subsequence over chars, comparing case- and
//! whitespace-insensitively (the differences validation already forgives).

/// Which chars of `a` and of `b` are not in their common subsequence.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CharDiff {
    pub a_differs: Vec<bool>,
    pub b_differs: Vec<bool>,
}

/// Longest inputs (product of lengths) diffed; beyond it nothing is marked.
const MAX_CELLS: usize = 4_000_000;

fn same(x: char, y: char) -> bool {
    (x.is_whitespace() && y.is_whitespace())
        || x == y
        || x.to_lowercase().eq(y.to_lowercase())
        || fold(x) == fold(y)
}

fn fold(c: char) -> char {
    match c {
        '‘' | '’' | '‚' | '′' => '\'',
        '“' | '”' | '„' | '″' => '"',
        '‐' | '‑' | '‒' | '–' | '—' | '―' => '-',
        c => c,
    }
}

pub fn char_diff(a: &str, b: &str) -> CharDiff {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (n, m) = (a.len(), b.len());
    if n == 0 || m == 0 || n.saturating_mul(m) > MAX_CELLS {
        return CharDiff {
            a_differs: vec![n * m <= MAX_CELLS && m == 0; n],
            b_differs: vec![n * m <= MAX_CELLS && n == 0; m],
        };
    }
    // lcs[i][j] = LCS length of a[i..], b[j..]
    let w = m + 1;
    let mut lcs = vec![0u16; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * w + j] = if same(a[i], b[j]) {
                lcs[(i + 1) * w + j + 1].saturating_add(1)
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let mut out = CharDiff {
        a_differs: vec![true; n],
        b_differs: vec![true; m],
    };
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if same(a[i], b[j]) {
            out.a_differs[i] = false;
            out.b_differs[j] = false;
            i += 1;
            j += 1;
        } else if lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_the_differing_characters_only() {
        let src = "the light was lit in 1810";
        let quote = "The light was first lit in 1811";
        let d = char_diff(src, quote);
        let marked = |v: &[bool]| v.iter().filter(|x| **x).count();
        assert_eq!(marked(&d.a_differs), 1);
        assert!(d.a_differs[src.len() - 1]);
        assert_eq!(marked(&d.b_differs), "first ".len() + 1);
        assert!(d.b_differs[quote.len() - 1]);
        assert!(!d.b_differs[0], "case is not a difference");
        assert!(char_diff("", "x").b_differs[0]);
    }
}
