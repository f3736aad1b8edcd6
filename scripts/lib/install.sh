# shellcheck shell=bash
# Idempotent installer shared by scripts/run and scripts/test (source it; do not run it).
#
# Each `ensure_*` function checks first and installs only what is missing, so running it again on a
# ready machine changes nothing and takes well under a second. What the project needs from Debian /
# Ubuntu goes into the two package lists below (build: to build and run; test: to run every suite).

# Debian/Ubuntu packages needed to build and run the app (Tauri on WebKitGTK 4.1; DESIGN.md, "Known
# pitfalls": libappindicator3-dev does not exist on bookworm, the ayatana one does).
SPECDESK_APT_BUILD=(
  build-essential pkg-config libssl-dev
  libwebkit2gtk-4.1-dev libayatana-appindicator3-dev librsvg2-dev libxdo-dev
)
# Debian/Ubuntu packages needed only by the test suites: a real Secret Service in a private D-Bus
# session (tests/keychain.rs), a display and WebDriver for the real app, GStreamer's decoders for
# the media WebKitGTK plays (H.264 video: libav; the .deb depends on them too), and Chromium for
# the UI's screen tests (playwright-core drives /usr/bin/chromium; ui/playwright).
SPECDESK_APT_TEST=(
  dbus dbus-x11 gnome-keyring libsecret-tools
  xvfb xauth webkit2gtk-driver xclip xdotool
  gstreamer1.0-plugins-good gstreamer1.0-libav
  chromium
)

# Oldest rustc the workspace builds with (`rust-version` in Cargo.toml).
SPECDESK_MIN_RUST="1.88"

if [ -t 1 ]; then
  _bold=$'\033[1m' _red=$'\033[1;31m' _plain=$'\033[0m'
else
  _bold='' _red='' _plain=''
fi

section() {
  printf '\n%s==> %s%s\n' "$_bold" "$*" "$_plain"
}

note() {
  printf '    %s\n' "$*"
}

die() {
  printf '\n%sERROR:%s %s\n' "$_red" "$_plain" "$*" >&2
  exit 1
}

# Runs a command as root: directly when we are root, through sudo otherwise.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "'$*' needs root and sudo is not installed. Run it as root, then run this script again."
  fi
}

_apt_updated=0

# apt_install PKG... : installs the Debian packages that are not installed yet.
apt_install() {
  local missing=() pkg
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  command -v apt-get >/dev/null 2>&1 ||
    die "these packages are missing and this is not a Debian/Ubuntu machine: ${missing[*]}"
  note "installing with apt-get: ${missing[*]}"
  if [ "$_apt_updated" -eq 0 ]; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    _apt_updated=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# True when version $1 >= version $2 (dotted numbers).
_version_at_least() {
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

# ensure_rust: cargo and rustc (via rustup) at least SPECDESK_MIN_RUST, with rustfmt and clippy.
ensure_rust() {
  # rustup's default home, when this shell has not put it on PATH yet.
  if ! command -v cargo >/dev/null 2>&1 && [ -x "${CARGO_HOME:-$HOME/.cargo}/bin/cargo" ]; then
    export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
  fi
  if ! command -v cargo >/dev/null 2>&1; then
    note "no Rust toolchain: installing rustup and the stable toolchain"
    apt_install ca-certificates curl build-essential pkg-config
    if ! command -v rustup >/dev/null 2>&1; then
      curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs |
        sh -s -- -y --profile minimal --default-toolchain stable -c rustfmt -c clippy
    fi
    export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
    command -v cargo >/dev/null 2>&1 || die "Rust was installed but cargo is not on PATH"
  fi

  local have
  have=$(rustc --version | awk '{print $2}')
  if ! _version_at_least "$have" "$SPECDESK_MIN_RUST"; then
    command -v rustup >/dev/null 2>&1 ||
      die "rustc $have is older than $SPECDESK_MIN_RUST and was not installed by rustup: install Rust with rustup (https://rustup.rs)"
    note "rustc $have is older than $SPECDESK_MIN_RUST: updating the stable toolchain"
    rustup toolchain install stable --profile minimal -c rustfmt -c clippy
    export RUSTUP_TOOLCHAIN=stable
  fi

  local component
  for component in rustfmt clippy; do
    if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
      if command -v rustup >/dev/null 2>&1; then
        note "adding the $component component"
        rustup component add "$component"
      else
        apt_install "${component/clippy/rust-clippy}"
      fi
    fi
  done
}

# Oldest Node.js the UI's tools run on (Vite 8: ^20.19).
SPECDESK_MIN_NODE="20.19"

# ensure_node: node and npm at least SPECDESK_MIN_NODE.
ensure_node() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    apt_install nodejs npm
  fi
  local have
  have=$(node --version | tr -d v)
  _version_at_least "$have" "$SPECDESK_MIN_NODE" ||
    die "Node.js $have is older than $SPECDESK_MIN_NODE, which the UI's build tools need. Install a newer Node.js (https://nodejs.org), then run this again."
}

# npm_ci DIR: installs DIR's npm packages from its lock file when they are missing or the lock
# file changed since the last install.
npm_ci() {
  local dir=$1 stamp="$1/node_modules/.specdesk-lock"
  if [ -f "$stamp" ] && cmp -s "$dir/package-lock.json" "$stamp"; then
    return 0
  fi
  note "installing npm packages in $dir"
  # `npm ci` refuses a lock file that lacks an optional package of another platform (the Tauri
  # CLI's macOS and Windows binaries are not on every registry mirror); `npm install` then
  # installs the same locked versions for this platform.
  (cd "$dir" && { npm ci --no-audit --no-fund --loglevel=error 2>/dev/null ||
    npm install --no-audit --no-fund --loglevel=error; })
  cp "$dir/package-lock.json" "$stamp"
}

# ensure_node_packages: the Tauri CLI (root) and the UI's packages (ui/).
ensure_node_packages() {
  ensure_node
  npm_ci .
  npm_ci ui
}

# ensure_build_deps: everything scripts/run needs.
ensure_build_deps() {
  if [ ${#SPECDESK_APT_BUILD[@]} -gt 0 ]; then
    apt_install "${SPECDESK_APT_BUILD[@]}"
  fi
  ensure_rust
  ensure_node_packages
}

# ensure_tauri_driver: tauri-driver 2.x, the WebDriver bridge for the end-to-end tests (from
# crates.io; it needs WebKitWebDriver from webkit2gtk-driver).
ensure_tauri_driver() {
  if command -v tauri-driver >/dev/null 2>&1; then
    return 0
  fi
  note "installing tauri-driver 2.x with cargo"
  cargo install tauri-driver --version "^2.1" --locked --quiet
}

# ensure_test_deps: everything scripts/test needs.
ensure_test_deps() {
  ensure_build_deps
  if [ ${#SPECDESK_APT_TEST[@]} -gt 0 ]; then
    apt_install "${SPECDESK_APT_TEST[@]}"
  fi
  ensure_tauri_driver
  npm_ci tests/e2e
  ensure_windows_target
}

# The Windows target scripts/test compiles and lints the workspace for (DESIGN.md, "Releases"):
# Rust's GNU target and Debian's MinGW-w64 C toolchain (SQLite, ring and the app's resource file
# are built with it).
SPECDESK_WINDOWS_TARGET=x86_64-pc-windows-gnu

# ensure_windows_target: the Rust target for Windows and the MinGW-w64 compiler it links C with.
ensure_windows_target() {
  apt_install gcc-mingw-w64-x86-64
  if ! rustup target list --installed 2>/dev/null | grep -qx "$SPECDESK_WINDOWS_TARGET"; then
    command -v rustup >/dev/null 2>&1 ||
      die "the $SPECDESK_WINDOWS_TARGET target needs rustup: install Rust with rustup (https://rustup.rs)"
    note "adding the Rust target $SPECDESK_WINDOWS_TARGET"
    rustup target add "$SPECDESK_WINDOWS_TARGET"
  fi
}
