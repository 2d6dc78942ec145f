#!/usr/bin/env python3
"""Fit the built-in static table to sentences: `models/builtin-minilm-256.bin`, v3.

`scripts/distill-builtin.py` makes the v1 table: each WordPiece token run
through all-MiniLM-L6-v2 on its own. A sentence's vector is then the mean of
its tokens' rows, and nothing taught the rows how the teacher reads tokens
together. This script (the idea of Model2Vec's "tokenlearn") starts from the
v1 table and moves the rows so that, over general-English texts, the cosine
of two texts' static vectors (normalise(sum of rows), exactly what
`src/embed/builtin.rs` computes) matches the cosine of the teacher's
sentence embeddings.

The texts are general English, none from the corpora the question sets are
written over: WordNet 3.0's synsets (words, gloss and examples; Debian
`wordnet-base`) and the entries of the GCIDE dictionary (Webster 1913 and
later, with its quotations from literature; Debian `dict-gcide`). Shuffled
with seed 7; all 365,569 are used, the first 4,000 held out (v2, the
round's first table, used the first 150,000).

HOW TO RUN (from the repository root; the fit needs torch, the teacher runs
in torch when transformers is installed, else in distill-builtin.py's numpy
BERT, about 7x slower):

    apt-get install wordnet-base dict-gcide
    python3 -m venv /tmp/tl-venv
    /tmp/tl-venv/bin/pip install torch transformers tokenizers numpy
    scripts/fetch-minilm.sh /tmp/minilm
    /tmp/tl-venv/bin/python scripts/tokenlearn-builtin.py --minilm /tmp/minilm

It writes the table over models/builtin-minilm-256.bin. Start from the v1
table (`git show 4039e0b:models/builtin-minilm-256.bin > /tmp/v1.bin`,
then `--init /tmp/v1.bin`): the output, sha256
ec37919769af8ce68dad119179dcca48978ab8a66b306c614d68927301d96702, is the
table shipped, bit for bit (rerun on the build machine from the teacher's
cached embeddings). On its 2 cores the teacher took 35 min (torch) and
the fit two minutes. Held-out texts, cosine of the static
vectors against the teacher's (Pearson r over all pairs) and how often a
text's nearest neighbour by the teacher is in its static top 10: v1 0.453 /
0.483, v2 0.760 / 0.706, v3 0.798 / 0.762.
"""
import argparse
import gzip
import importlib.util
import json
import os
import random
import re
import struct
import time

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP = {0, 100, 101, 102}  # [PAD] [UNK] [CLS] [SEP]: never summed at run time


def texts():
    out = []
    for pos in ["noun", "verb", "adj", "adv"]:
        for line in open(f"/usr/share/wordnet/data.{pos}", encoding="latin-1"):
            if line.startswith("  "):
                continue  # licence header
            head, _, gloss = line.partition("| ")
            f = head.split()
            words = [re.sub(r"\(.*\)$", "", f[4 + 2 * i].replace("_", " ")) for i in range(int(f[3], 16))]
            gloss = gloss.strip()
            out.append(", ".join(words) + ": " + gloss)
            # the gloss's parts of five words or more after the first
            # (mostly its quoted examples)
            parts = [p.strip().strip('"') for p in gloss.split(";")]
            out += [e for e in parts if len(e.split()) >= 5][1:]
    raw = gzip.open("/usr/share/dictd/gcide.dict.dz", "rt", encoding="utf-8", errors="replace").read()
    raw = re.sub(r"\[1913 Webster\]|\[PJC\]|\[Obs\.\]|\[R\.\]|\[Colloq\.\]", "", raw)
    for para in re.split(r"\n\s*\n", raw):
        t = " ".join(l.strip() for l in para.split("\n") if l.strip())
        t = re.sub(r"\{([^}]*)\}", r"\1", t)  # cross-references
        t = re.sub(r"\\[^\\]*\\", "", t)  # pronunciation
        t = re.sub(r"\[[^\]]*\]", "", t)  # etymology, labels
        t = re.sub(r"--[A-Z][\w. ]*$", "", t)  # a quotation's author
        t = re.sub(r"\s+", " ", t).strip(" ,.;")
        if len(t.split()) >= 5 and sum(c.isalpha() for c in t) >= 0.7 * len(t):
            out.append(t[:600])
    random.seed(7)
    random.shuffle(out)
    return out


def teacher(minilm, ids):
    """Mean-pooled, L2-normalised all-MiniLM-L6-v2 embeddings of token id lists."""
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    emb = np.zeros((len(ids), 384), np.float32)
    try:
        from transformers import AutoModel

        model = AutoModel.from_pretrained(minilm).eval()

        def run(batch):
            L = max(map(len, batch))
            x = torch.zeros((len(batch), L), dtype=torch.long)
            m = torch.zeros_like(x)
            for r, i in enumerate(batch):
                x[r, : len(i)] = torch.tensor(i)
                m[r, : len(i)] = 1
            with torch.inference_mode():
                h = model(input_ids=x, attention_mask=m).last_hidden_state
            e = (h * m[..., None]).sum(1) / m.sum(1, keepdim=True)
            return torch.nn.functional.normalize(e, dim=1).numpy()
    except ImportError:
        spec = importlib.util.spec_from_file_location("distill", os.path.join(ROOT, "scripts", "distill-builtin.py"))
        d = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(d)
        bert = d.Bert(d.parse_safetensors(open(os.path.join(minilm, "model.safetensors"), "rb").read()))
        d.self_check(bert)
        run = lambda batch: d.sentence_embed(bert, batch)
    t0 = time.time()
    for s in range(0, len(order), 256):
        idx = order[s : s + 256]
        emb[idx] = run([ids[i] for i in idx])
        print(f"\r  teacher {s + len(idx)}/{len(order)}  {time.time() - t0:.0f}s", end="", flush=True)
    print()
    return emb


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minilm", required=True, help="folder with model.safetensors, config.json, tokenizer.json")
    ap.add_argument("--init", default=os.path.join(ROOT, "models", "builtin-minilm-256.bin"))
    ap.add_argument("--out", default=os.path.join(ROOT, "models", "builtin-minilm-256.bin"))
    ap.add_argument("--texts", type=int, default=365_569)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--teacher-cache", help="a .npy file to keep the teacher's embeddings in between runs")
    a = ap.parse_args()
    torch.manual_seed(0)
    np.random.seed(0)
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(os.path.join(a.minilm, "tokenizer.json"))
    tok.enable_truncation(64)
    tok.no_padding()
    ids = [e.ids for e in tok.encode_batch(texts()[: a.texts])]
    if a.teacher_cache and os.path.exists(a.teacher_cache):
        target = np.load(a.teacher_cache)
        assert target.shape == (len(ids), 384), "teacher cache is for other texts"
    else:
        target = teacher(a.minilm, ids)
        if a.teacher_cache:
            np.save(a.teacher_cache, target)

    buf = open(a.init, "rb").read()
    assert buf[:8] == b"RBEMB001"
    V, D = struct.unpack("<II", buf[8:16])
    p = 16
    for _ in range(V):
        p += 2 + struct.unpack("<H", buf[p : p + 2])[0]
    R = torch.nn.Parameter(torch.tensor(np.frombuffer(buf[p:], "<f2").astype(np.float32).reshape(V, D)))

    ids = [[t for t in x if t not in SKIP] for x in ids]
    keep = [i for i, x in enumerate(ids) if x]
    ids, target = [ids[i] for i in keep], torch.tensor(target[keep])
    nval = 4000

    def encode(batch):
        flat = torch.tensor([t for x in batch for t in x])
        off = torch.tensor([0] + list(np.cumsum([len(x) for x in batch])[:-1]))
        return torch.nn.functional.normalize(torch.nn.functional.embedding_bag(flat, R, off, mode="sum"), dim=1)

    def held_out():
        with torch.no_grad():
            s = encode(ids[:nval])
            S, T = s @ s.T, target[:nval] @ target[:nval].T
            iu = torch.triu_indices(nval, nval, 1)
            r = torch.corrcoef(torch.stack([S[iu[0], iu[1]], T[iu[0], iu[1]]]))[0, 1].item()
            S.fill_diagonal_(-9)
            T.fill_diagonal_(-9)
            hit = (S.topk(10, dim=1).indices == T.argmax(1)[:, None]).any(1).float().mean().item()
            return r, hit

    print("held out before: r %.3f, teacher's neighbour in top 10 %.3f" % held_out())
    opt = torch.optim.Adam([R], lr=a.lr)
    train = list(range(nval, len(ids)))
    for ep in range(a.epochs):
        perm = np.random.permutation(train)
        for s in range(0, len(perm) - 1023, 1024):
            idx = perm[s : s + 1024]
            sv, tv = encode([ids[i] for i in idx]), target[idx]
            loss = ((sv @ sv.T - tv @ tv.T) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {ep}: r %.3f, teacher's neighbour in top 10 %.3f" % held_out())
    open(a.out, "wb").write(buf[:p] + R.detach().numpy().astype("<f2").tobytes())
    print("wrote", a.out)


if __name__ == "__main__":
    main()
