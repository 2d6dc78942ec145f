#!/usr/bin/env python3
"""PDF extraction benchmark: how much of each paper's text the indexer reads.

For every PDF in PAPERS_DIR, runs the product's own contained parser worker
(`research-board __extract pdf MAX_BYTES`, the file on stdin, exactly what
`index` runs) and compares its text with pdftotext's text of the same file in
REFERENCE_DIR (same base name, .txt). Reports, per file and in total: whether
the worker crashed or timed out, whether the file would be indexed, word
recall against the reference (multiset overlap of lower-cased words over the
reference's word count), order (ORDER: the share of the reference's word
4-grams, as a multiset, that also occur in ours — bag-of-words recall cannot
see whether columns are read one after the other or line by line across the
page), and milliseconds per page.

Usage:
    scripts/pdf-recall.py [BINARY] [PAPERS_DIR] [REFERENCE_DIR]
Defaults: target/release/research-board, ../shared/corpora/papers,
../shared/corpora/papers-reference-text.
"""

import collections
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/release/research-board")
PAPERS = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "../shared/corpora/papers")
REF = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "../shared/corpora/papers-reference-text")

WORD = re.compile(r"[^\W_]+", re.UNICODE)


def tokens(text):
    # Ligatures and hyphenation are folded as validation folds them.
    text = text.replace("\ufb01", "fi").replace("\ufb02", "fl").replace("\ufb00", "ff")
    text = re.sub(r"(\w)-\s*\n\s*(\w)", r"\1\2", text)
    return [w.lower() for w in WORD.findall(text)]


def words(text):
    return collections.Counter(tokens(text))


def grams(toks, n=4):
    return collections.Counter(tuple(toks[i:i + n]) for i in range(len(toks) - n + 1))


def overlap(ref, ours):
    """Multiset overlap of two Counters over the reference's total: (recall, total)."""
    n = sum(ref.values())
    return (sum(min(c, ours[k]) for k, c in ref.items()) / n if n else None), n


def main():
    rows = []
    for name in sorted(os.listdir(PAPERS)):
        if not name.lower().endswith(".pdf"):
            continue
        ref_path = os.path.join(REF, name[:-4] + ".txt")
        ref = open(ref_path, encoding="utf-8", errors="replace").read() if os.path.exists(ref_path) else ""
        data = open(os.path.join(PAPERS, name), "rb").read()
        t0 = time.perf_counter()
        try:
            p = subprocess.run([BIN, "__extract", "pdf", str(32 << 20)], input=data,
                               capture_output=True, timeout=120)
            crashed = p.returncode != 0
            out = p.stdout
        except subprocess.TimeoutExpired:
            crashed, out = True, b""
        ms = (time.perf_counter() - t0) * 1e3
        text, pages, error = "", 0, None
        if not crashed:
            reply = json.loads(out)
            if "Ok" in reply:
                text = reply["Ok"]["text"]
                pages = max([b.get("page") or 0 for b in reply["Ok"]["blocks"]] + [0])
            else:
                error = reply.get("Err")
        rt, gt = tokens(ref), tokens(text)
        recall, n = overlap(collections.Counter(rt), collections.Counter(gt))
        order, n4 = overlap(grams(rt), grams(gt))
        rows.append({"file": name, "crashed": crashed, "error": error, "ref_words": n,
                     "recall": recall, "order": order, "ref_grams": n4, "pages": pages, "ms": ms})
    readable = [r for r in rows if r["ref_words"] > 30]
    indexed = [r for r in readable if r["recall"] and not r["crashed"] and not r["error"]]
    total_ref = sum(r["ref_words"] for r in readable)
    pooled = sum((r["recall"] or 0) * r["ref_words"] for r in readable) / total_ref if total_ref else 0
    total_grams = sum(r["ref_grams"] for r in readable)
    pooled_order = (sum((r["order"] or 0) * r["ref_grams"] for r in readable) / total_grams
                    if total_grams else 0)
    pages = sum(r["pages"] for r in rows)
    print(f"{'file':<66} {'words':>6} {'recall':>7} {'pages':>5} {'ms':>7} {'order':>6}")
    for r in rows:
        rec = "-" if r["recall"] is None else f"{r['recall']:.3f}"
        order = "-" if r["order"] is None else f"{r['order']:.3f}"
        flag = " CRASH" if r["crashed"] else (f" ({r['error']})" if r["error"] else "")
        print(f"{r['file'][:66]:<66} {r['ref_words']:>6} {rec:>7} {r['pages']:>5} {r['ms']:>7.0f}"
              f" {order:>6}{flag}")
    print(f"\nPDFs: {len(rows)}; crashed or timed out: {sum(r['crashed'] for r in rows)}")
    print(f"with more than 30 words of reference text: {len(readable)}; indexed: {len(indexed)}")
    print(f"word recall against pdftotext (pooled over those): {pooled:.3f}")
    print(f"order: word 4-gram recall against pdftotext (pooled over those): {pooled_order:.3f}")
    if pages:
        print(f"time per page: {sum(r['ms'] for r in rows) / pages:.1f} ms (including process start)")


if __name__ == "__main__":
    main()
