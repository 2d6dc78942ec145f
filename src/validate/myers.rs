//! Approximate infix (semi-global) alignment: Myers' bit-parallel edit
//! distance in Hyyrö's multi-word (block) form, over chars.
//!
//! The pattern must be matched whole; the text's start and end are free.
//! [`Pattern::search`] finds the lowest edit distance and where the best
//! alignment ends; [`best_alignment`] then finds where it starts with a
//! reverse pass of the reversed pattern over the reversed text prefix.

use std::collections::HashMap;

/// A pattern prepared for searching: one bit-vector per distinct char.
pub struct Pattern {
    m: usize,
    words: usize,
    /// `peq[sym * words + w]`; symbol 0 is "not in the pattern" (all zero).
    peq: Vec<u64>,
    ascii: [u32; 128],
    other: HashMap<char, u32>,
}

impl Pattern {
    pub fn new(pattern: &[char]) -> Pattern {
        let m = pattern.len();
        let words = m.div_ceil(64).max(1);
        let mut ascii = [0u32; 128];
        let mut other = HashMap::new();
        let mut syms = 1u32;
        let mut ids = Vec::with_capacity(m);
        for &c in pattern {
            let slot = if (c as u32) < 128 {
                &mut ascii[c as usize]
            } else {
                other.entry(c).or_insert(0)
            };
            if *slot == 0 {
                *slot = syms;
                syms += 1;
            }
            ids.push(*slot);
        }
        let mut peq = vec![0u64; syms as usize * words];
        for (i, &s) in ids.iter().enumerate() {
            peq[s as usize * words + i / 64] |= 1u64 << (i % 64);
        }
        Pattern {
            m,
            words,
            peq,
            ascii,
            other,
        }
    }

    pub fn len(&self) -> usize {
        self.m
    }

    pub fn is_empty(&self) -> bool {
        self.m == 0
    }

    #[inline]
    fn sym(&self, c: char) -> usize {
        if (c as u32) < 128 {
            self.ascii[c as usize] as usize
        } else {
            self.other.get(&c).copied().unwrap_or(0) as usize
        }
    }

    /// Lowest edit distance of the whole pattern against any substring of
    /// `text`, and the (exclusive) end, in chars, of the first alignment
    /// reaching it. For an empty text the distance is `m`, ending at 0.
    pub fn search<I: IntoIterator<Item = char>>(&self, text: I) -> (usize, usize) {
        let w = self.words;
        let mut pv = vec![!0u64; w];
        let mut mv = vec![0u64; w];
        let last_bit = 1u64 << ((self.m.max(1) - 1) % 64);
        let mut score = self.m;
        let (mut best, mut best_end) = (self.m, 0);
        for (j, c) in text.into_iter().enumerate() {
            let s = self.sym(c) * w;
            let eqs = &self.peq[s..s + w];
            // Horizontal delta entering the block from above, as two bits
            // (+1, -1); row 0 is all zeros (free start): none enters block 0.
            let (mut hp, mut hn) = (0u64, 0u64);
            let (pv_head, pv_last) = pv.split_at_mut(w - 1);
            let (mv_head, mv_last) = mv.split_at_mut(w - 1);
            for ((p, mm), &e) in pv_head.iter_mut().zip(mv_head.iter_mut()).zip(eqs) {
                let (np, nm, op, on) = step(*p, *mm, e, hp, hn, 1 << 63);
                *p = np;
                *mm = nm;
                hp = op;
                hn = on;
            }
            let (np, nm, op, on) = step(pv_last[0], mv_last[0], eqs[w - 1], hp, hn, last_bit);
            pv_last[0] = np;
            mv_last[0] = nm;
            score = score + op as usize - on as usize;
            if score < best {
                best = score;
                best_end = j + 1;
                if best == 0 {
                    break;
                }
            }
        }
        (best, best_end)
    }

    /// Like [`Pattern::search`], but only alignments with at most `k` edits
    /// count: None when there is none. Ukkonen's cut-off in block form (as
    /// in edlib): only the blocks down to the last one that can still hold
    /// a value ≤ `k` are computed, so a small `k` costs a few blocks per
    /// column instead of all of them.
    pub fn search_within<I: IntoIterator<Item = char>>(
        &self,
        text: I,
        k: usize,
    ) -> Option<(usize, usize)> {
        let w = self.words;
        let m = self.m.max(1);
        let height = |b: usize| if b + 1 == w { m - 64 * (w - 1) } else { 64 };
        let last_bit = 1u64 << (height(w - 1) - 1);
        let mut pv = vec![!0u64; w];
        let mut mv = vec![0u64; w];
        // Score at the bottom row of each block (row index = its distance
        // at column 0).
        let mut score: Vec<usize> = (0..w).map(|b| 64 * b + height(b)).collect();
        let mut last = (k + 1).div_ceil(64).clamp(1, w) - 1;
        // Deleting the whole pattern: m edits, "ending" before the text.
        let mut best: Option<(usize, usize)> = (self.m <= k).then_some((self.m, 0));
        for (j, c) in text.into_iter().enumerate() {
            let s = self.sym(c) * w;
            let eqs = &self.peq[s..s + w];
            // Horizontal delta entering the block from above as two bits
            // (+1, -1); row 0 is all zeros (free start): none enters block 0.
            let (mut hp, mut hn) = (0u64, 0u64);
            // Blocks above `last` carry out of their top bit...
            for (((p, mm), sc), &e) in pv[..last]
                .iter_mut()
                .zip(&mut mv[..last])
                .zip(&mut score[..last])
                .zip(&eqs[..last])
            {
                let (np, nm, op, on) = step(*p, *mm, e, hp, hn, 1 << 63);
                *p = np;
                *mm = nm;
                *sc = *sc + op as usize - on as usize;
                hp = op;
                hn = on;
            }
            // ...and `last` reports its bottom row (row m for the last block).
            let bit = if last + 1 == w { last_bit } else { 1 << 63 };
            let (np, nm, op, on) = step(pv[last], mv[last], eqs[last], hp, hn, bit);
            pv[last] = np;
            mv[last] = nm;
            score[last] = score[last] + op as usize - on as usize;
            hp = op;
            hn = on;
            // Grow the band by one block when the cell below it may be ≤ k.
            if last + 1 < w
                && score[last] + hn as usize <= k + hp as usize
                && ((eqs[last + 1] & 1) != 0 || hn != 0)
            {
                let prev = score[last] + hn as usize - hp as usize;
                last += 1;
                let bit = if last + 1 == w { last_bit } else { 1 << 63 };
                let (p, mm, op, on) = step(!0, 0, eqs[last], hp, hn, bit);
                pv[last] = p;
                mv[last] = mm;
                score[last] = prev + height(last) + op as usize - on as usize;
            }
            // Shrink it past blocks whose every cell is > k.
            while last > 0 && score[last] >= k + height(last) {
                last -= 1;
            }
            if last + 1 == w && score[w - 1] <= k && best.is_none_or(|(d, _)| score[w - 1] < d) {
                best = Some((score[w - 1], j + 1));
                if score[w - 1] == 0 {
                    break;
                }
            }
        }
        best
    }
}

/// One block of one column (Hyyrö's step, as in edlib's `calculateBlock`):
/// new (Pv, Mv) and the horizontal delta at row `bit` as (+1, -1) bits.
#[inline(always)]
fn step(pv: u64, mv: u64, eq: u64, hin_pos: u64, hin_neg: u64, bit: u64) -> (u64, u64, u64, u64) {
    let xv = eq | mv;
    let eq = eq | hin_neg;
    let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
    let ph = mv | !(xh | pv);
    let mh = pv & xh;
    let (out_pos, out_neg) = (((ph & bit) != 0) as u64, ((mh & bit) != 0) as u64);
    let ph = (ph << 1) | hin_pos;
    let mh = (mh << 1) | hin_neg;
    (mh | !(xv | ph), ph & xv, out_pos, out_neg)
}

/// Best infix alignment of `pattern` in `text`: (edit distance, start, end)
/// in chars of `text`. The end comes from the forward pass; the start from
/// [`alignment_start`].
pub fn best_alignment(pattern: &[char], text: &[char]) -> (usize, usize, usize) {
    let fwd = Pattern::new(pattern);
    let (dist, end) = fwd.search(text.iter().copied());
    (dist, alignment_start(pattern, text, dist, end), end)
}

/// Start of the best alignment that ends at `end` with `dist` edits (the
/// first such end, as [`Pattern::search`] reports it): a reverse pass of the
/// reversed pattern over the reversed prefix `text[..end]`, taking the
/// nearest start that reaches `dist` (so the shortest region).
pub fn alignment_start(pattern: &[char], text: &[char], dist: usize, end: usize) -> usize {
    if end == 0 {
        return 0;
    }
    let rev: Vec<char> = pattern.iter().rev().copied().collect();
    let bwd = Pattern::new(&rev);
    // An alignment with `dist` edits spans at most m + dist text chars.
    let reach = (pattern.len() + dist).min(end);
    let (rdist, rlen) = bwd.search(text[end - reach..end].iter().rev().copied());
    debug_assert_eq!(rdist, dist);
    end - rlen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    /// Plain O(nm) semi-global DP for cross-checking.
    fn dp(p: &[char], t: &[char]) -> usize {
        let m = p.len();
        let mut col: Vec<usize> = (0..=m).collect();
        let mut best = m;
        for &c in t {
            let mut prev_diag = col[0];
            col[0] = 0;
            for i in 1..=m {
                let tmp = col[i];
                col[i] = (prev_diag + (p[i - 1] != c) as usize)
                    .min(col[i] + 1)
                    .min(col[i - 1] + 1);
                prev_diag = tmp;
            }
            best = best.min(col[m]);
        }
        best
    }

    #[test]
    fn finds_exact_and_approximate_infixes() {
        let t = chars("the keeper lit the lamp at dusk");
        assert_eq!(best_alignment(&chars("lit the lamp"), &t), (0, 11, 23));
        let (d, s, e) = best_alignment(&chars("lit teh lamp"), &t);
        assert_eq!((d, s, e), (2, 11, 23));
        assert_eq!(best_alignment(&chars("xyz"), &chars("")).0, 3);
    }

    #[test]
    fn multi_word_patterns_agree_with_dp() {
        let mut rng = fastrand::Rng::with_seed(7);
        let alpha = chars("abcdé ");
        for _ in 0..600 {
            let n = rng.usize(0..300);
            let t: Vec<char> = (0..n).map(|_| alpha[rng.usize(..alpha.len())]).collect();
            let m = rng.usize(1..200);
            let p: Vec<char> = if n > m && rng.bool() {
                let s = rng.usize(0..n - m);
                let mut p = t[s..s + m].to_vec();
                for _ in 0..rng.usize(0..5) {
                    let i = rng.usize(..p.len());
                    p[i] = alpha[rng.usize(..alpha.len())];
                }
                p
            } else {
                (0..m).map(|_| alpha[rng.usize(..alpha.len())]).collect()
            };
            let (d, s, e) = best_alignment(&p, &t);
            assert_eq!(d, dp(&p, &t), "p={p:?} t={t:?}");
            assert_eq!(Pattern::new(&p).search(t.iter().copied()), (d, e));
            // The banded search agrees whenever the distance is within k.
            let pat = Pattern::new(&p);
            for k in [0, 1, 3, 10, 40, 70, 130, m] {
                let got = pat.search_within(t.iter().copied(), k);
                if d <= k {
                    assert_eq!(got.map(|x| x.0), Some(d), "k={k} p={p:?} t={t:?}");
                    assert_eq!(got.map(|x| x.1), Some(e), "k={k}");
                } else {
                    assert_eq!(got, None, "k={k}");
                }
            }
            if e > 0 {
                assert_eq!(dp(&p, &t[s..e]), d);
                // The aligned region alone reaches the distance end to end.
                assert_eq!(global(&p, &t[s..e]), d);
            }
        }
    }

    fn global(p: &[char], t: &[char]) -> usize {
        let m = p.len();
        let mut col: Vec<usize> = (0..=m).collect();
        for (j, &c) in t.iter().enumerate() {
            let mut prev_diag = col[0];
            col[0] = j + 1;
            for i in 1..=m {
                let tmp = col[i];
                col[i] = (prev_diag + (p[i - 1] != c) as usize)
                    .min(col[i] + 1)
                    .min(col[i - 1] + 1);
                prev_diag = tmp;
            }
        }
        col[m]
    }
}
