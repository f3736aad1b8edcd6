#!/usr/bin/env bash
# Runs the end-to-end tests of the real app: the app built with its UI embedded, driven by
# tauri-driver and WebKitWebDriver on a virtual display (Xvfb), with a real Secret Service
# (scripts/lib/keyring-session.sh) and its own temporary data folder.
# Usage: scripts/lib/e2e.sh [FILE...]  (test files of tests/e2e, e.g. specs-plans.test.mjs; default: all)
#        scripts/lib/e2e.sh --bench SCRIPT [ARG...]  (a benchmark of bench/ run with node in the same
#        setting instead of the tests, e.g. --bench bench/agents-events-webkit.mjs)
# SPECDESK_E2E_APP, when set, names the app binary to run (default: the debug build).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

if [ -z "${SPECDESK_IN_KEYRING_SESSION:-}" ]; then
  exec scripts/lib/keyring-session.sh bash "$0" "$@"
fi

target_dir="${CARGO_TARGET_DIR:-target}"
work=$(mktemp -d -t specdesk-e2e.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# A free display number.
display=99
while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 1400x900x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=":$display"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_port() {
  for _ in $(seq 200); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.05
  done
  echo "nothing listens on port $1" >&2
  return 1
}

# The app keeps everything it writes here (read by the tests to check no key was written).
export SPECDESK_DATA_DIR="$work/data"

driver_port=$(free_port)
native_port=$(free_port)
tauri-driver --port "$driver_port" --native-port "$native_port" \
  --native-driver "$(command -v WebKitWebDriver)" >"$work/tauri-driver.log" 2>&1 &
pids+=($!)
# tauri-driver listens before WebKitWebDriver does: wait for both (DESIGN.md, pitfalls).
wait_port "$driver_port"
wait_port "$native_port"

# A second sandbox, as the "real service" a user adds a profile for.
"$target_dir/debug/specdesk-sandbox" --addr 127.0.0.1:0 --time-scale 0 >"$work/sandbox.out" 2>&1 &
pids+=($!)
for _ in $(seq 200); do grep -q "listening on" "$work/sandbox.out" 2>/dev/null && break; sleep 0.05; done

export SPECDESK_E2E_DRIVER_PORT="$driver_port"
export SPECDESK_E2E_APP
SPECDESK_E2E_APP=${SPECDESK_E2E_APP:-$(cd "$target_dir/debug" && pwd)/specdesk}
export SPECDESK_E2E_WORK="$work"
export SPECDESK_E2E_SERVICE_URL
SPECDESK_E2E_SERVICE_URL=$(sed -n 's/^specdesk-sandbox listening on //p' "$work/sandbox.out" | head -n 1)

# The files run in name order on one data folder: app.test.mjs checks the first run's welcome and
# specs-plans.test.mjs counts the Sandbox's credits from 10,000, so the files that spend credits
# as they go are named to come after them (studio, task-acceptance, task-batches, webkit-ui).
if [ "${1:-}" = "--bench" ]; then
  node "${2:?--bench needs a script}" "${@:3}"
else
  (cd tests/e2e && npm test --silent -- "$@")
fi
