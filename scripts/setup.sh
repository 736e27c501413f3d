#!/usr/bin/env bash
# npm run setup: checks what this machine can do, installs what the kit needs and is missing, and
# nothing twice. It asks for capabilities (a library the loader finds, a pkg-config module, a
# binary), never for a package by name: Debian 13 and Ubuntu 24.04 renamed libcurl4 to libcurl4t64
# (the 64-bit time transition), and a user on those must be able to finish.
#
# Required (setup stops with the one command that adds them):
#  - Node 20.19 or later and npm, then `npm ci` (skipped while node_modules matches package-lock.json);
#  - canvas (the charts): built from source against cairo and pango's headers, or its prebuilt
#    binary where the platform has one (macOS); no prebuilt binary can be fetched on the machines
#    this kit is built on, so on Linux the headers are required;
#  - on Linux, the shared libraries mongod loads (libcurl, libcrypto, liblzma), which the tarball
#    mongodb-memory-server downloads does not carry (MongoDB's "Install MongoDB Community on Debian
#    using .tgz Tarball" installs libcurl4, openssl and liblzma5 first): without them `embedded`
#    cannot start mongod.
# Optional (each skipped in one line that says what it would add and how to add it; setup goes on
# and exits 0):
#  - PostgreSQL's server binaries: the SQL baseline (log-inserts) and `ferretdb-pg`;
#  - Go 1.21 or later: FerretDB v1.24.0 (`ferretdb`, `ferretdb-pg`) built from the Go module proxy
#    into .tools/ferretdb, and FerretDB 2.7 for `ferretdb2`; `go install ...@v1.24.0` is refused
#    for that module, so it is built the long way (a throwaway module, go mod vendor, the version
#    file written by hand);
#  - root: `ferretdb2` (scripts/setup-ferretdb2.sh: a Debian sid root file system with DocumentDB);
#  - a Chromium: the test that opens report.html in a browser;
#  - libmongoc (pkg-config libmongoc-1.0): `npm run bench`'s compiled client;
#  - a CJK font (fc-list :lang=zh): report.html's Chinese text (embedded-comments' article).
# As root on Debian or Ubuntu, the missing packages are installed (apt-get update only then); as
# a user, setup prints one `sudo apt-get install` line with this release's package names.
#
# For the tests only (test/integration/setup.test.js), so that each branch runs on one machine:
#   CLASSICS_SETUP_PLATFORM=darwin|linux  taken instead of `uname -s`
#   CLASSICS_SETUP_NOT_ROOT=1             root taken for a user: print the root line, install nothing
#   CLASSICS_SETUP_OS_RELEASE=FILE        read instead of /etc/os-release
set -euo pipefail
cd "$(dirname "$0")/.."

FERRETDB_VERSION=v1.24.0
say() { printf 'setup: %s\n' "$*"; }
has() { command -v "$1" >/dev/null 2>&1; }
. scripts/setup-cache.sh

# what apt, npm and Go print goes to this log, not to the screen (a cold setup printed 163 lines,
# most of them Go's "go: downloading"); a step that fails is quoted from it in the lines that say why
mkdir -p .tools
log=.tools/setup.log
: > "$log"
# the lines of the log that say why a step failed (apt's "E:", npm's "ERR!", an error), else its last ones
quote_log() {
  local lines
  lines=$(tail -n 60 "$log" | grep -E '^(E|W): |ERR!|[Ee]rror|[Ff]ailed|[Cc]annot|[Nn]ot found|[Dd]enied|[Nn]o space' | tail -n 2)
  [ -n "$lines" ] || lines=$(grep -v '^[[:space:]]*$' "$log" | tail -n 2)
  [ -z "$lines" ] || sed 's/^/setup:   | /' <<<"$lines"
}
# a process and every process below it, by PID, newest first
kill_tree() { local p; for p in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$p"; done; kill -TERM "$1" 2>/dev/null || true; }
bg=
# (waiting for it: ferretdb2's setup undoes its mounts as it ends)
trap '[ -z "$bg" ] || { kill_tree "$bg"; wait "$bg"; }; exit 130' INT
trap '[ -z "$bg" ] || { kill_tree "$bg"; wait "$bg"; }; exit 143' TERM
# logged WHAT CMD...: CMD with its output in the log, run in the background so that Ctrl-C or a
# kill stops it at once (and so that set -e holds inside a function it runs); fails as CMD does,
# saying WHAT failed and quoting the log
logged() {
  local what=$1 status=0; shift
  "$@" >>"$log" 2>&1 </dev/null & bg=$!
  wait "$bg" || status=$?
  bg=
  if [ "$status" != 0 ]; then say "$what failed (exit $status); $log says:"; quote_log; fi
  return "$status"
}

case "${CLASSICS_SETUP_PLATFORM:-$(uname -s)}" in
  [Dd]arwin) platform=darwin ;;
  [Ll]inux) platform=linux ;;
  *) platform=other ;;
esac
if [ "$(id -u)" = 0 ] && [ -z "${CLASSICS_SETUP_NOT_ROOT:-}" ]; then root=yes; else root=; fi

# ---- this release's package names (Debian 12/13, Ubuntu 22.04/24.04; others by what apt knows)
os_id= os_version= os_name=
os_release=${CLASSICS_SETUP_OS_RELEASE:-/etc/os-release}
if [ "$platform" = linux ] && [ -r "$os_release" ]; then
  os_id=$(. "$os_release"; echo "${ID:-}")
  os_version=$(. "$os_release"; echo "${VERSION_ID:-}")
  os_name=$(. "$os_release"; echo "${PRETTY_NAME:-${ID:-Linux}}")
fi
apt=
[ "$platform" = linux ] && has apt-get && apt=yes
# since the 64-bit time transition (Debian 13, Ubuntu 24.04) libcurl4 is libcurl4t64 and libssl3
# is libssl3t64; the old names are only names the new packages provide
t64=
case "$os_id" in
  debian) case "$os_version" in ''|1[3-9]|[2-9][0-9]) t64=yes ;; esac ;; # testing and sid carry no VERSION_ID
  ubuntu) [ "${os_version%%.*}" -ge 24 ] 2>/dev/null && t64=yes ;;
  *) [ -n "$apt" ] && apt-cache show libcurl4t64 >/dev/null 2>&1 && t64=yes ;;
esac
# mongod's libraries as the loader names them, each with the package that carries it here
if [ -n "$t64" ]; then MONGOD_LIBS=(libcurl.so.4=libcurl4t64 libcrypto.so.3=libssl3t64 liblzma.so.5=liblzma5)
else MONGOD_LIBS=(libcurl.so.4=libcurl4 libcrypto.so.3=libssl3 liblzma.so.5=liblzma5); fi
CANVAS_BUILD=(build-essential pkg-config python3 libcairo2-dev libpango1.0-dev libjpeg-dev libgif-dev librsvg2-dev)
sudo_line() { printf 'sudo apt-get install -y --no-install-recommends %s' "$*"; }

# ---- capabilities
node_ok() { has node && node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)'; }
lock_sum() { node -e 'process.stdout.write(require("crypto").createHash("sha256").update(require("fs").readFileSync("package-lock.json")).digest("hex"))'; }
modules_current() { [ -f node_modules/.setup-lock-sum ] && [ "$(cat node_modules/.setup-lock-sum)" = "$(lock_sum)" ]; }
canvas_loads() { node -e 'require("canvas")' >/dev/null 2>&1; }
# what canvas's binding.gyp asks pkg-config for, and a compiler and Python for node-gyp
canvas_headers() {
  has pkg-config && has make && { has c++ || has g++; } && has python3 &&
    pkg-config --exists pixman-1 cairo libpng pangocairo freetype2
}
ldconfig_p() { if has ldconfig; then ldconfig -p; elif [ -x /sbin/ldconfig ]; then /sbin/ldconfig -p; fi 2>/dev/null || true; }
# the packages of mongod's libraries the loader does not find (its cache names each library it
# finds as "libcurl.so.4 (libc6,x86-64) => /path")
mongod_libs_missing() {
  local found lib; found=$(ldconfig_p)
  for lib in "${MONGOD_LIBS[@]}"; do grep -Eq "^[[:space:]]*${lib%%=*} " <<<"$found" || printf '%s\n' "$lib"; done
}
mongod_lib_packages() { mongod_libs_missing | sed 's/.*=//'; }
mongod_libs() { [ -z "$(mongod_libs_missing)" ]; }
postgres_bin() {
  local d
  for d in ${CLASSICS_PG_BINDIR:+"$CLASSICS_PG_BINDIR"} /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && [ -x "$d/postgres" ] && return 0
  done
  has initdb && has postgres
}
# PostgreSQL refuses to run as root: as root, the kit runs it as the postgres user Debian's package makes
postgres_ok() { postgres_bin && { [ -z "$root" ] || id -u postgres >/dev/null 2>&1; }; }
chromium_ok() { [ -x "${CLASSICS_CHROMIUM:-/usr/bin/chromium}" ]; }
libmongoc_ok() { has pkg-config && pkg-config --exists libmongoc-1.0; }
cjk_font_ok() { has fc-list && [ -n "$(fc-list :lang=zh family 2>/dev/null)" ]; }
# Go 1.21 and later fetch the toolchain a module asks for (FerretDB 1.24: go 1.22, 2.7: go 1.24)
go_ok() { has go && [[ "$(go env GOVERSION 2>/dev/null)" =~ ^go1\.(2[1-9]|[3-9][0-9]) ]]; }

# ---- required: Node
if ! node_ok; then
  say "Node 20.19 or later is needed (found: $(node --version 2>/dev/null || echo none)); Debian 13's nodejs package is 20.19; elsewhere use NodeSource, nvm or Homebrew's node, then run npm run setup again"
  exit 1
fi

# ---- packages: what is missing, as this release names it
required=() optional=()
need_canvas=
modules_current && canvas_loads || need_canvas=yes
if [ "$platform" = linux ]; then
  [ -n "$need_canvas" ] && ! canvas_headers && required+=("${CANVAS_BUILD[@]}")
  for p in $(mongod_lib_packages); do required+=("$p"); done
  postgres_ok || optional+=(postgresql)
  [ "$os_id" = ubuntu ] || chromium_ok || optional+=(chromium) # Ubuntu's chromium is a snap
  libmongoc_ok || optional+=(libmongoc-dev)
  cjk_font_ok || optional+=(fonts-noto-cjk)
fi
if [ -n "$root" ] && [ -n "$apt" ] && [ $((${#required[@]} + ${#optional[@]})) -gt 0 ]; then
  packages=(${required[@]+"${required[@]}"} ${optional[@]+"${optional[@]}"})
  say "installing ${os_name:-Linux}'s packages: ${packages[*]}"
  export DEBIAN_FRONTEND=noninteractive
  logged "apt-get update" apt-get update -qq
  if [ ${#required[@]} -gt 0 ]; then logged "apt-get install" apt-get install -y -qq --no-install-recommends "${required[@]}"; fi
  # an optional package this release lacks stops nothing: its part is skipped below, in its line
  if [ ${#optional[@]} -gt 0 ] && ! logged "apt-get install ${optional[*]}" apt-get install -y -qq --no-install-recommends "${optional[@]}"; then
    say "the parts ${optional[*]} add are skipped"
  fi
  required=() optional=()
elif [ ${#required[@]} -gt 0 ]; then
  what=()
  if [ -n "$need_canvas" ] && ! canvas_headers; then what+=("canvas's build (a C++ compiler, make, Python, pkg-config, cairo's and pango's headers)"); fi
  if ! mongod_libs; then what+=("the libraries mongod loads ($(mongod_libs_missing | sed 's/=.*//' | paste -sd, - | sed 's/,/, /g'))"); fi
  joined=$(printf '%s; ' "${what[@]}")
  say "missing: ${joined%; }"
  if [ -n "$apt" ]; then
    say "install them as root, then run npm run setup again: $(sudo_line "${required[@]}")"
  else
    say "install them with this system's package manager, then run npm run setup again"
  fi
  exit 1
fi

# ---- required: npm ci (canvas built, or its prebuilt binary fetched)
if modules_current; then
  say "node_modules matches package-lock.json"
else
  say "npm ci"
  logged "npm ci" npm ci --no-audit --no-fund
  # npm's own last word ("added 412 packages in 1m")
  added=$(grep -E '^added [0-9]+ packages?' "$log" | tail -n 1 || true)
  [ -z "$added" ] || say "npm ci: $added"
  lock_sum > node_modules/.setup-lock-sum
fi
canvas_loads || { say "canvas does not load (node -e \"require('canvas')\"): the charts need it; npm ci's output is in $log"; exit 1; }

# ---- optional parts: each present, or one line saying what it would add and how to add it
how() { # how to add a package on this platform: $1 apt name, $2 Homebrew name
  case "$platform" in
    darwin) echo "brew install $2" ;;
    linux) if [ -n "$apt" ]; then sudo_line "$1"; else echo "this system's $1"; fi ;;
    *) echo "this system's $1" ;;
  esac
}
# what is present is said once, in the table at the end (scripts/setup-summary.js), which is also
# given the command that adds each part on this platform (CLASSICS_SETUP_ADD_<PART>)
case "$platform" in
  darwin) add="brew install postgresql@17, then CLASSICS_PG_BINDIR=\$(brew --prefix postgresql@17)/bin" ;;
  *) add="$(how postgresql postgresql@17) (or set CLASSICS_PG_BINDIR)" ;;
esac
export CLASSICS_SETUP_ADD_POSTGRES=$add CLASSICS_SETUP_ADD_FERRETDB_PG=$add
postgres_ok || say "skipped PostgreSQL: it adds the SQL baseline (log-inserts) and ferretdb-pg; add it with: $add"
case "$platform/$os_id" in
  darwin/*) add="a Chrome or Chromium, then CLASSICS_CHROMIUM=its binary (\"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome\")" ;;
  linux/ubuntu) add="sudo snap install chromium, then CLASSICS_CHROMIUM=/snap/bin/chromium" ;;
  *) add="$(how chromium chromium) (or set CLASSICS_CHROMIUM)" ;;
esac
export CLASSICS_SETUP_ADD_CHROMIUM=$add
chromium_ok || say "skipped Chromium: it adds the test that opens report.html in a browser; add it with: $add"
export CLASSICS_SETUP_ADD_LIBMONGOC="$(how libmongoc-dev mongo-c-driver)"
libmongoc_ok || say "skipped libmongoc: it adds npm run bench's compiled client (the calibration loops in C); add it with: $CLASSICS_SETUP_ADD_LIBMONGOC"
export CLASSICS_SETUP_ADD_CJK="$(how fonts-noto-cjk font-noto-sans-cjk)"
[ "$platform" = darwin ] || cjk_font_ok ||
  say "skipped a CJK font: it adds report.html's Chinese text (embedded-comments' article); add it with: $CLASSICS_SETUP_ADD_CJK"

# ---- optional: the FerretDB kinds (Go), ferretdb2 (root, Linux)
no_go=()
bin=${CLASSICS_FERRETDB_BIN:-$PWD/.tools/ferretdb/bin/ferretdb}
# FerretDB v1.24.0 built the long way into $1 (`go install ...@v1.24.0` is refused for that module)
build_ferretdb1() {
  local bin=$1 src
  src=$(mktemp -d)
  # expanded now: by the time the script exits, the function's local src is gone, and under set -u
  # a trap naming it failed setup after a good build (Debian 13 as a user, scripts/try-debian13.sh)
  # shellcheck disable=SC2064
  trap "rm -rf '$src'" EXIT
  mkdir -p "$(dirname "$bin")"
  (
    cd "$src"
    go mod init classics.local/ferretdb-build >/dev/null 2>&1
    go get "github.com/FerretDB/FerretDB/cmd/ferretdb@$FERRETDB_VERSION"
    # the tools.go idiom keeps the command's module in go.mod through go mod tidy
    printf '//go:build tools\n\npackage tools\n\nimport _ "github.com/FerretDB/FerretDB/cmd/ferretdb"\n' > tools.go
    go mod tidy
    go mod vendor
    echo "$FERRETDB_VERSION" > vendor/github.com/FerretDB/FerretDB/build/version/version.txt
    go build -mod=vendor -o "$bin.tmp" github.com/FerretDB/FerretDB/cmd/ferretdb
  )
  mv "$bin.tmp" "$bin"
  rm -rf "$src"
  trap - EXIT
}
ferretdb1_key=$(cache_key "ferretdb-$FERRETDB_VERSION" "$FERRETDB_VERSION" "$(declare -f build_ferretdb1)")
if reuse_ferretdb "$ferretdb1_key" "$bin" "$FERRETDB_VERSION"; then
  : # present, or restored from the cache: said in its line
elif ! go_ok; then
  no_go+=(ferretdb ferretdb-pg)
else
  say "building FerretDB $FERRETDB_VERSION (about 2 minutes)"
  logged "building FerretDB $FERRETDB_VERSION" build_ferretdb1 "$bin"
  built_version=$("$bin" --version)
  cache_store "$ferretdb1_key" "$bin"
  say "built FerretDB ${built_version%%$'\n'*}"
fi
if [ "$platform" != linux ]; then
  export CLASSICS_SETUP_WHY_FERRETDB2="Linux only (chroot into a Debian root file system)"
  say "skipped ferretdb2: it runs PostgreSQL with DocumentDB in a Debian root file system through chroot, on Linux only; mongod and the other kinds work without it"
elif [ -z "$root" ]; then
  export CLASSICS_SETUP_WHY_FERRETDB2="it needs root (debootstrap and chroot)" CLASSICS_SETUP_ADD_FERRETDB2="npm run setup as root"
  say "skipped ferretdb2: it needs root (debootstrap and chroot, for a Debian sid root file system with postgresql-18-documentdb); add it by running npm run setup as root; the other servers work without it"
else
  # exit 3: FerretDB 2 is not built and there is no Go to build it (said once, below, with the rest).
  # In the background, so that a Ctrl-C or kill reaches it now: its own traps undo its mounts.
  status=0
  CLASSICS_SETUP_NO_GO=$(go_ok || echo 1) bash scripts/setup-ferretdb2.sh </dev/null & bg=$!
  wait "$bg" || status=$?
  bg=
  if [ "$status" = 3 ]; then no_go+=(ferretdb2)
  elif [ "$status" != 0 ]; then
    export CLASSICS_SETUP_WHY_FERRETDB2="its setup failed (the lines above; .tools/documentdb/setup.log)" CLASSICS_SETUP_ADD_FERRETDB2="npm run setup, again"
    say "skipped ferretdb2: its setup failed (the lines above say why; all of it in .tools/documentdb/setup.log); the other servers work without it"
  fi
fi
if [ ${#no_go[@]} -gt 0 ]; then
  case "$platform/$os_id/$os_version" in
    darwin/*) add="brew install go" ;;
    linux/debian/12|linux/ubuntu/22.04) add="Go from https://go.dev/dl (this release's golang-go is older than 1.21)" ;;
    linux/*) if [ -n "$apt" ]; then add=$(sudo_line golang-go); else add="this system's Go"; fi ;;
    *) add="Go from https://go.dev/dl" ;;
  esac
  say "skipped the FerretDB kinds (${no_go[*]}): Go 1.21 or later builds them and was not found on PATH; add it with: $add, then run npm run setup again; mongod (embedded) works without them"
  export CLASSICS_SETUP_ADD_FERRETDB="$add, then npm run setup" CLASSICS_SETUP_ADD_FERRETDB_PG="$add, then npm run setup"
  for kind in "${no_go[@]}"; do
    case $kind in ferretdb) export CLASSICS_SETUP_WHY_FERRETDB="no Go 1.21 or later to build it" ;;
      ferretdb-pg) export CLASSICS_SETUP_WHY_FERRETDB_PG="no Go 1.21 or later to build it" ;;
      ferretdb2) export CLASSICS_SETUP_WHY_FERRETDB2="no Go 1.21 or later to build it" CLASSICS_SETUP_ADD_FERRETDB2="$add, then npm run setup" ;;
    esac
  done
fi
if [ ${#optional[@]} -gt 1 ] && [ -n "$apt" ] && [ -z "$root" ]; then
  say "every optional package above at once: $(sudo_line "${optional[@]}")"
fi
[ ! -s "$log" ] || say "what apt, npm and Go printed is in $log"
node scripts/setup-summary.js
say "done"
