#!/usr/bin/env bash
# The one entry point of tapeviz:
#   ./run.sh test [pytest args]     set up, then run the test suite
#   ./run.sh test --fast [args]     the same without the browser and slow tests (a quick loop)
#   ./run.sh gallery [args]         set up, then serve the demo gallery
#   ./run.sh bench [args]           set up (with the bench extra), then run benchmarks/run.py;
#                                   a whole run also writes docs/performance.md's figures
#                                   (--tf: with tensorflow-cpu too; --help: its options)
#   ./run.sh setup                  set up only
# Set-up is idempotent and fast on a second run: system packages (graphviz, chromium) only when
# missing, .venv only when missing, pip only when pyproject.toml changed since the last install.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
export PIP_DISABLE_PIP_VERSION_CHECK=1

say()  { printf '[run.sh] %s\n' "$*" >&2; }
warn() { printf '[run.sh] WARNING: %s\n' "$*" >&2; }

usage() {
    sed -n '2,8p' "$ROOT/run.sh" | sed 's/^# \{0,1\}//' >&2
}

# --- system packages -----------------------------------------------------------------------
setup_system() {
    local missing=()
    command -v dot >/dev/null 2>&1 || missing+=(dot)
    command -v chromium >/dev/null 2>&1 || missing+=(chromium)
    if [ ${#missing[@]} -eq 0 ]; then
        return 0
    fi
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
            sudo=(sudo -n)
        else
            warn "missing ${missing[*]} and cannot run apt-get (not root, no sudo)."
            warn "install them with: apt-get install graphviz chromium"
            warn "graph layout falls back to graphviz-pure; browser tests will be reported as failures."
            return 0
        fi
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        warn "missing ${missing[*]} and this is not a Debian-like system (no apt-get)."
        warn "graph layout falls back to graphviz-pure; browser tests will be reported as failures."
        return 0
    fi
    say "installing graphviz and chromium with apt-get (missing: ${missing[*]}; about a minute)..."
    local t0=$SECONDS
    local apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300)
    if "${apt[@]}" update -q >/dev/null && "${apt[@]}" install -y -q graphviz chromium >/dev/null; then
        say "apt-get done in $((SECONDS - t0)) s"
    else
        warn "apt-get failed; continuing without it."
        warn "graph layout falls back to graphviz-pure; browser tests will be reported as failures."
    fi
}

# --- virtual environment -------------------------------------------------------------------
setup_venv() {
    if [ -x "$PY" ] && "$PY" -c 'import sys' >/dev/null 2>&1; then
        return 0
    fi
    if [ -e "$VENV" ]; then
        say "removing broken .venv"
        rm -rf "$VENV"
    fi
    say "creating .venv with $(command -v python3) ($(python3 --version 2>&1))"
    python3 -m venv "$VENV"
    "$PY" -m pip install -q --upgrade pip setuptools wheel 2>&1 | { grep -v 'is ignored: it is neither a file nor a directory' || true; }
}

# What an install depends on: pyproject.toml, and the package's presence (an editable install
# made before tapeviz/ existed cannot find it later).
install_state() {
    { sha256sum pyproject.toml 2>/dev/null || true
      ls -d tapeviz/__init__.py 2>/dev/null || true; } \
        | sha256sum | cut -d' ' -f1
}

# Install the package (editable) with the given extras when install_state changed since the
# last install of those extras.
pip_install() {
    local extras="$1"
    local stamp="$VENV/.tapeviz-installed-${extras//,/-}"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(install_state)" ]; then
        return 0
    fi
    say "pip install -e '.[$extras]' (first install, or pyproject.toml changed)..."
    local t0=$SECONDS
    rm -f "$stamp"
    # (a pip config may name local wheel folders that do not exist: drop that noise)
    # (and setuptools' warning that an editable install is an editable install)
    "$PY" -m pip install -q -e ".[$extras]" 2>&1 | { grep -v -E 'is ignored: it is neither a file nor a directory|BuildBackendWarning: Editable installation|^ *!!$|^ *\*{20,}$|Please be careful with folders in your working directory|name as your package as they may take precedence|with strategy, WheelFile|^ *$' || true; }
    install_state > "$stamp"
    say "pip done in $((SECONDS - t0)) s"
}

setup() {
    local more_extras="${1:-}"
    # One set-up at a time per checkout (several engineers or terminals may run this at once).
    local lock="${TMPDIR:-/tmp}/tapeviz-setup-$(printf '%s' "$ROOT" | sha256sum | cut -c1-12).lock"
    if command -v flock >/dev/null 2>&1; then
        exec 9>"$lock"
        flock 9
    fi
    setup_system
    setup_venv
    pip_install "test,demos"
    if [ -n "$more_extras" ]; then
        pip_install "test,demos,$more_extras"
    fi
    # Byte-compile the package once: with PYTHONDONTWRITEBYTECODE set (as on these machines)
    # every `import tapeviz` would otherwise compile every module again.
    "$PY" -m compileall -q "$ROOT/tapeviz" >/dev/null || true
    if command -v flock >/dev/null 2>&1; then
        exec 9>&-
    fi
    say "set-up ok: $("$PY" --version), dot: $(command -v dot || echo 'missing, using graphviz-pure'), chromium: $(command -v chromium || echo missing)"
}

cmd="${1:-}"
[ $# -gt 0 ] && shift
case "$cmd" in
    setup)
        setup
        ;;
    test)
        setup
        if [ "${1:-}" = "--fast" ]; then
            # the quick loop while editing: everything but the real-browser and slow tests
            shift
            exec "$PY" -m pytest -m "not browser and not slow" "$@"
        fi
        exec "$PY" -m pytest "$@"
        ;;
    gallery)
        setup
        exec "$VENV/bin/tapeviz" gallery "$@"
        ;;
    bench)
        # --tf: also the bench-tf extra (tensorflow-cpu, several hundred MB)
        if [[ " $* " == *" --tf "* ]]; then setup bench,bench-tf; else setup bench; fi
        # a whole run rewrites the figures of docs/performance.md; a partial one only prints
        docs=(--write-docs=docs/performance.md)
        for a in "$@"; do
            case "$a" in --quick|--engine-only|--no-*|--profile|--in-process) docs=() ;; esac
        done
        exec "$PY" benchmarks/run.py "${docs[@]}" "$@"
        ;;
    -h|--help|help)
        usage
        ;;
    *)
        usage
        exit 2
        ;;
esac
