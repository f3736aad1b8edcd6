#!/usr/bin/env bash
# Runs "$@" inside a private D-Bus session with an unlocked GNOME Keyring (a real Secret Service)
# and a temporary HOME, so tests exercise the OS keychain without touching the user's own.
# Usage: scripts/lib/keyring-session.sh COMMAND [ARGS...]
set -euo pipefail

if [ -z "${SPECDESK_IN_KEYRING_SESSION:-}" ]; then
  exec dbus-run-session -- env SPECDESK_IN_KEYRING_SESSION=1 bash "$0" "$@"
fi

tmp=$(mktemp -d -t specdesk-keyring.XXXXXX)
cleanup() {
  [ -n "${keyring_pid:-}" ] && kill "$keyring_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# Rust's homes stay where they are; everything else goes to the temporary HOME.
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/home/.local/share" XDG_CONFIG_HOME="$tmp/home/.config"
export XDG_CACHE_HOME="$tmp/home/.cache" XDG_RUNTIME_DIR="$tmp/run"
mkdir -p "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

# --unlock reads the login keyring's password on stdin (creating the keyring unlocked).
eval "$(printf 'specdesk-test\n' | gnome-keyring-daemon --unlock --components=secrets)"
keyring_pid="${GNOME_KEYRING_PID:-}"

for _ in $(seq 100); do
  if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then
    break
  fi
  sleep 0.1
done

"$@"
