#!/usr/bin/env bash
# npm run setup: installs what the kit needs and is missing, and nothing twice.
#  1. Debian packages: canvas builds from source (no prebuilt binary can be fetched here),
#     ferretdb-pg starts a private PostgreSQL cluster from Debian's binaries, and the test of
#     report.html opens it in Debian's Chromium (playwright-core cannot download a browser here).
#     mongod's runtime libraries, which the tarball mongodb-memory-server downloads does not carry:
#     MongoDB's "Install MongoDB Community on Debian using .tgz Tarball" (8.0 and 8.2) has
#     `apt-get install libcurl4 openssl liblzma5` first; without them mongod cannot start on a slim
#     image and `embedded` falls back to FerretDB;
#     npm run bench builds its compiled client on libmongoc-dev (the C driver), not this script.
#  2. npm ci, skipped while node_modules matches package-lock.json.
#  3. FerretDB v1.24.0 from the Go module proxy into .tools/ferretdb (git-ignored).
#     `go install ...@v1.24.0` is refused for this module, so it is built the long way:
#     a throwaway module, go get, go mod vendor, the version file written by hand.
#  4. The ferretdb2 server kind (FerretDB 2.7.0 on PostgreSQL 18 with DocumentDB, in a Debian sid
#     root file system): scripts/setup-ferretdb2.sh, as root only; where it cannot be installed,
#     one line says why and the rest of the kit works without it.
set -euo pipefail
cd "$(dirname "$0")/.."

FERRETDB_VERSION=v1.24.0
DEBIAN_PACKAGES=(build-essential pkg-config libcairo2-dev libpango1.0-dev libjpeg-dev libgif-dev
  librsvg2-dev postgresql procps chromium libmongoc-dev
  libcurl4 openssl liblzma5)
say() { printf 'setup: %s\n' "$*"; }

missing=()
for p in "${DEBIAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    say "missing Debian packages: ${missing[*]}"
    say "install them as root: apt-get install ${missing[*]}"
    exit 1
  fi
else
  say "Debian packages present"
fi

lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f node_modules/.setup-lock-sum ] && [ "$(cat node_modules/.setup-lock-sum)" = "$lock_sum" ]; then
  say "node_modules matches package-lock.json"
else
  say "npm ci"
  npm ci --no-audit --no-fund
  echo "$lock_sum" > node_modules/.setup-lock-sum
fi

tools=$PWD/.tools/ferretdb
bin=$tools/bin/ferretdb
# the version is read into a variable first: piping it into grep -q or head would end ferretdb
# with SIGPIPE, which pipefail turns into a failure
built_version=$([ -x "$bin" ] && "$bin" --version 2>/dev/null || true)
if [[ "$built_version" == *"version: $FERRETDB_VERSION"* ]]; then
  say "FerretDB $FERRETDB_VERSION present at $bin"
else
  command -v go >/dev/null || { say "Go is needed to build FerretDB and was not found on PATH"; exit 1; }
  say "building FerretDB $FERRETDB_VERSION (about 2 minutes)"
  src=$tools/src
  rm -rf "$src" && mkdir -p "$src" "$tools/bin"
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
  built_version=$("$bin" --version)
  say "built FerretDB ${built_version%%$'\n'*}"
fi
if [ "$(id -u)" != 0 ]; then
  say "ferretdb2 not installed: it needs root (debootstrap and chroot, for a Debian sid root file system with postgresql-18-documentdb): run npm run setup as root to add it; the other servers work without it"
elif ! bash scripts/setup-ferretdb2.sh; then
  say "ferretdb2 not installed: its setup failed (see .tools/documentdb/setup.log); the other servers work without it"
fi
say "done"
