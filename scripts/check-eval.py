#!/usr/bin/env python3
# Usage: python3 scripts/check-eval.py   (needs python-docx and poppler's pdftotext; exits 1 on any failure)
"""Validate eval/questions.json against sample-sources/.

For every answerable question, each expected phrase must occur verbatim in the
text of its expected source:
  .md/.txt/.rst  raw file, phrase within a single line (paragraphs are not hard-wrapped)
  .html          text with <script>/<style>/<nav> removed, tags stripped, entities decoded
  .pdf           scripts/sample-docs-src/<name>.txt (single line) AND `pdftotext` output
                 (whitespace-normalised; phrases crossing a PDF line wrap are reported)
  .docx          scripts/sample-docs-src/<name>.txt (single line) AND one python-docx paragraph
Also checks ids, field shapes, counts per kind/format, and that refusal questions
have no source/phrases.
"""

import html
import json
import os
import re
import subprocess
import sys
from collections import Counter

import docx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "sample-sources")
DOCSRC = os.path.join(ROOT, "scripts", "sample-docs-src")

errors = []
notes = []


def norm(s):
    return re.sub(r"\s+", " ", s).strip()


def html_text(path):
    t = open(path, encoding="utf-8").read()
    t = re.sub(r"<(script|style|nav)\b[\s\S]*?</\1>", " ", t, flags=re.I)
    t = re.sub(r"<[^>]+>", " ", t)
    return norm(html.unescape(t))


def script_lines(name):
    base = os.path.splitext(os.path.basename(name))[0]
    return open(os.path.join(DOCSRC, base + ".txt"), encoding="utf-8").read().split("\n")


def check(q):
    src = q["expected_source"]
    path = os.path.join(SRC, src)
    if not os.path.isfile(path):
        errors.append(f"{q['id']}: missing source {src}")
        return
    ext = os.path.splitext(src)[1]
    for ph in q["expected_phrases"]:
        nw = len(ph.split())
        if not 4 <= nw <= 12:
            notes.append(f"{q['id']}: phrase has {nw} words: {ph!r}")
        if ext in (".md", ".txt", ".rst"):
            lines = open(path, encoding="utf-8").read().split("\n")
            if not any(ph in l for l in lines):
                errors.append(f"{q['id']}: {ph!r} not on one line of {src}")
        elif ext == ".html":
            if ph not in html_text(path):
                errors.append(f"{q['id']}: {ph!r} not in {src}")
        elif ext == ".pdf":
            if not any(ph in l for l in script_lines(src)):
                errors.append(f"{q['id']}: {ph!r} not in script source of {src}")
            raw = subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True, check=True).stdout
            if ph not in norm(raw):
                errors.append(f"{q['id']}: {ph!r} not in pdftotext output of {src}")
            elif ph not in raw:
                notes.append(f"{q['id']}: {ph!r} crosses a line wrap in {src}")
        elif ext == ".docx":
            if not any(ph in l for l in script_lines(src)):
                errors.append(f"{q['id']}: {ph!r} not in script source of {src}")
            paras = [p.text for p in docx.Document(path).paragraphs]
            if not any(ph in p for p in paras):
                errors.append(f"{q['id']}: {ph!r} not in a paragraph of {src}")
        else:
            errors.append(f"{q['id']}: unknown format {src}")


def main():
    data = json.load(open(os.path.join(ROOT, "eval", "questions.json"), encoding="utf-8"))
    qs = data["questions"]
    ids = [q["id"] for q in qs]
    if len(ids) != len(set(ids)):
        errors.append("duplicate ids")
    kinds = Counter(q["kind"] for q in qs)
    per_src = Counter()
    for q in qs:
        if q["should_refuse"]:
            if q["expected_source"] is not None or q["expected_phrases"] or q["kind"] not in ("offtopic", "near_miss"):
                errors.append(f"{q['id']}: bad refusal entry")
        else:
            if q["kind"] not in ("keyword", "paraphrase") or not 1 <= len(q["expected_phrases"]) <= 2:
                errors.append(f"{q['id']}: bad answerable entry")
            per_src[q["expected_source"]] += 1
            check(q)
    all_src = sorted(
        os.path.relpath(os.path.join(d, f), SRC).replace(os.sep, "/")
        for d, _, fs in os.walk(SRC) for f in fs
    )
    for s in all_src:
        if s not in per_src:
            errors.append(f"no question for {s}")
    fmt = Counter(os.path.splitext(s)[1] for s in per_src.elements())
    print("kinds:", dict(kinds))
    print("answerable per format:", dict(fmt))
    for n in notes:
        print("NOTE", n)
    for e in errors:
        print("ERROR", e)
    print("OK" if not errors else f"{len(errors)} error(s)")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
