#!/usr/bin/env python3
"""Baseline for benches/validate.rs: the reference designs' quote validation.

Usage: bench-validate-baseline.py CASES.json CASE METHOD [CAP_SECONDS]

CASES.json: {"cases": {NAME: {"quote": str, "chunks": [str, ...]}}}, chunks
ordered cited-first. METHOD is "difflib" or "rapidfuzz".

Reference approach: lowercase + whitespace collapse of quote and chunks; an
exact substring is found at once; otherwise
  difflib:   slide a window of the quote's length over each chunk, step 1
             char, SequenceMatcher(None, quote, window).ratio() >= 0.85
             (stops at the first window that passes);
  rapidfuzz: rapidfuzz.fuzz.partial_ratio(quote, chunk) >= 85 per chunk.
Prints one JSON line: method, case, seconds (time inside this process,
excluding interpreter start-up), found, best ratio, windows compared,
timed_out, and an estimate of the full time when the cap was hit.
"""

import difflib
import json
import re
import sys
import time


def norm(s):
    return re.sub(r"\s+", " ", s.lower()).strip()


def run_difflib(quote, chunks, cap):
    t0 = time.perf_counter()
    q = norm(quote)
    texts = [norm(c) for c in chunks]
    if any(q in t for t in texts):
        return dict(found=True, best=1.0, windows=0, timed_out=False,
                    seconds=time.perf_counter() - t0)
    n = len(q)
    total = sum(max(1, len(t) - n + 1) for t in texts)
    best, windows = 0.0, 0
    for t in texts:
        for i in range(max(1, len(t) - n + 1)):
            r = difflib.SequenceMatcher(None, q, t[i:i + n]).ratio()
            windows += 1
            best = max(best, r)
            if r >= 0.85:
                return dict(found=True, best=best, windows=windows,
                            timed_out=False,
                            seconds=time.perf_counter() - t0)
            if windows % 16 == 0:
                el = time.perf_counter() - t0
                if el > cap:
                    return dict(found=None, best=best, windows=windows,
                                timed_out=True, seconds=el,
                                estimate=el * total / windows)
    return dict(found=False, best=best, windows=windows, timed_out=False,
                seconds=time.perf_counter() - t0)


def run_rapidfuzz(quote, chunks, cap):
    from rapidfuzz import fuzz  # ImportError: the caller reports "skipped"

    t0 = time.perf_counter()
    q = norm(quote)
    texts = [norm(c) for c in chunks]
    if any(q in t for t in texts):
        return dict(found=True, best=1.0, windows=0, timed_out=False,
                    seconds=time.perf_counter() - t0)
    best = 0.0
    for k, t in enumerate(texts):
        r = fuzz.partial_ratio(q, t) / 100.0
        best = max(best, r)
        if r >= 0.85:
            return dict(found=True, best=best, windows=k + 1, timed_out=False,
                        seconds=time.perf_counter() - t0)
    return dict(found=False, best=best, windows=len(texts), timed_out=False,
                seconds=time.perf_counter() - t0)


def main():
    path, case, method = sys.argv[1:4]
    cap = float(sys.argv[4]) if len(sys.argv) > 4 else 30.0
    with open(path, encoding="utf-8") as f:
        c = json.load(f)["cases"][case]
    try:
        fn = {"difflib": run_difflib, "rapidfuzz": run_rapidfuzz}[method]
        out = fn(c["quote"], c["chunks"], cap)
    except ImportError as e:
        out = dict(skipped=str(e))
    out.update(method=method, case=case)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
