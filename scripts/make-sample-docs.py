#!/usr/bin/env python3
# Usage: pip install fpdf2 python-docx && python3 scripts/make-sample-docs.py   (run from the repo root or anywhere)
"""Generate the PDF and DOCX files of the sample corpus.

Source text lives in scripts/sample-docs-src/<name>.txt, one block per line:

    # Title                 -> document title (Heading 1 / large bold)
    ## Section              -> Heading 2
    ### Subsection          -> Heading 3
    <<<PAGEBREAK>>>         -> page break
    any other line          -> one body paragraph (paragraphs are never hard-wrapped)

Outputs (overwritten on every run, byte-for-byte deterministic):

    sample-sources/automation-and-decommissioning.pdf   (fpdf2, Helvetica)
    sample-sources/tower-of-hercules.pdf                (fpdf2, Helvetica)
    sample-sources/keepers/keepers-daily-life.docx      (python-docx, Heading 1/2/3 styles)
    sample-sources/heritage-preservation.docx           (python-docx, Heading 1/2/3 styles)

PDFs use only the built-in Helvetica core font (WinAnsi encoding) so that
text extractors such as pdftotext, lopdf or pdf-extract read them cleanly;
the source text is therefore kept to plain ASCII.
"""

import datetime
import io
import os
import sys
import zipfile

from fpdf import FPDF
import docx
from docx.enum.text import WD_BREAK

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "scripts", "sample-docs-src")
OUT = os.path.join(ROOT, "sample-sources")

FIXED_DATE = datetime.datetime(2024, 1, 1, 12, 0, 0, tzinfo=datetime.timezone.utc)
AUTHOR = "research-board sample corpus"

PDFS = {
    "automation-and-decommissioning.txt": "automation-and-decommissioning.pdf",
    "tower-of-hercules.txt": "tower-of-hercules.pdf",
}
DOCXS = {
    "keepers-daily-life.txt": "keepers/keepers-daily-life.docx",
    "heritage-preservation.txt": "heritage-preservation.docx",
}

PAGEBREAK = "<<<PAGEBREAK>>>"


def parse(path):
    """Return a list of (kind, text) blocks; kind in h1/h2/h3/p/break."""
    blocks = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            if line.strip() == PAGEBREAK:
                blocks.append(("break", ""))
            elif line.startswith("### "):
                blocks.append(("h3", line[4:].strip()))
            elif line.startswith("## "):
                blocks.append(("h2", line[3:].strip()))
            elif line.startswith("# "):
                blocks.append(("h1", line[2:].strip()))
            else:
                blocks.append(("p", line.strip()))
    for kind, text in blocks:
        if not text.isascii():
            sys.exit(f"{path}: non-ASCII text in {kind!r} block: {text[:60]!r}")
    return blocks


def make_pdf(blocks, out_path):
    title = next(t for k, t in blocks if k == "h1")
    pdf = FPDF(format="A4", unit="mm")
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_title(title)
    pdf.set_author(AUTHOR)
    pdf.set_creator("scripts/make-sample-docs.py")
    pdf.set_producer("fpdf2")
    pdf.set_margins(22, 22, 22)
    pdf.set_auto_page_break(True, margin=22)
    pdf.add_page()
    for kind, text in blocks:
        if kind == "break":
            pdf.add_page()
        elif kind == "h1":
            pdf.set_font("Helvetica", "B", 18)
            pdf.multi_cell(0, 9, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4)
        elif kind == "h2":
            pdf.set_font("Helvetica", "B", 14)
            pdf.ln(2)
            pdf.multi_cell(0, 7, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif kind == "h3":
            pdf.set_font("Helvetica", "B", 11.5)
            pdf.multi_cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        else:
            pdf.set_font("Helvetica", "", 11)
            # left-aligned (not justified) so extractors see single spaces between words
            pdf.multi_cell(0, 5.5, text, align="L", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
    pdf.output(out_path)
    return pdf.pages_count


def make_docx(blocks, out_path):
    title = next(t for k, t in blocks if k == "h1")
    d = docx.Document()
    cp = d.core_properties
    cp.title = title
    cp.author = AUTHOR
    cp.last_modified_by = AUTHOR
    cp.created = FIXED_DATE.replace(tzinfo=None)
    cp.modified = FIXED_DATE.replace(tzinfo=None)
    cp.revision = 1
    for kind, text in blocks:
        if kind == "break":
            d.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
        elif kind in ("h1", "h2", "h3"):
            d.add_heading(text, level=int(kind[1]))
        else:
            d.add_paragraph(text)
    buf = io.BytesIO()
    d.save(buf)
    # python-docx stamps zip entries with the current time; rewrite with a fixed one
    zin = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    with zipfile.ZipFile(out_path, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            info = zipfile.ZipInfo(item.filename, date_time=(2024, 1, 1, 12, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zout.writestr(info, zin.read(item.filename))


def main():
    for src, dst in PDFS.items():
        out = os.path.join(OUT, dst)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        pages = make_pdf(parse(os.path.join(SRC, src)), out)
        print(f"wrote {os.path.relpath(out, ROOT)} ({pages} pages)")
    for src, dst in DOCXS.items():
        out = os.path.join(OUT, dst)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        make_docx(parse(os.path.join(SRC, src)), out)
        print(f"wrote {os.path.relpath(out, ROOT)}")


if __name__ == "__main__":
    main()
