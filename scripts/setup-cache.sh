# Sourced by scripts/setup.sh and scripts/setup-ferretdb2.sh: what setup builds (the FerretDB
# binaries, DocumentDB's root file system) kept once per machine and user, outside the clone, keyed
# by a hash of what made it, so that setup in a fresh clone reuses it instead of building it again
# (as CI caches keyed by their inputs' hashes do). A key's inputs are the version asked for, the
# machine's architecture and the recipe itself (the text of the function that builds it, by
# `declare -f`): change any of them and the key changes, so the thing is built again and kept
# under its new key. What is restored is checked as a fresh build is (its --version, the
# root file system's DocumentDB package) before it is used.
#
#   CLASSICS_SETUP_CACHE   the cache's folder (default: $XDG_CACHE_HOME/mongo-classics, else
#                          ~/.cache/mongo-classics); set it to an empty string to use no cache
cache_base() {
  if [ "${CLASSICS_SETUP_CACHE+set}" = set ]; then printf '%s' "$CLASSICS_SETUP_CACHE"
  else printf '%s' "${XDG_CACHE_HOME:-$HOME/.cache}/mongo-classics"; fi
}

# cache_key NAME INPUT...: NAME-<the first 12 hex digits of the inputs' SHA-256>
cache_key() {
  local name=$1; shift
  local sum
  sum=$(printf '%s\n' "$@" "$(uname -m)" | { sha256sum 2>/dev/null || shasum -a 256; } | cut -c1-12)
  printf '%s-%s' "$name" "$sum"
}

# cache_restore KEY DEST: DEST made from the kept copy (hard links where the cache is on the same
# file system, a copy elsewhere); fails where the cache holds no whole copy under KEY
cache_restore() {
  local base; base=$(cache_base)
  [ -n "$base" ] && [ -f "$base/$1/.complete" ] || return 1
  rm -rf --one-file-system "$2"
  mkdir -p "$(dirname "$2")"
  cp -al "$base/$1/item" "$2" 2>/dev/null || { rm -rf --one-file-system "$2"; cp -a "$base/$1/item" "$2"; }
}

# cache_store KEY SRC: keeps SRC under KEY (whole or not at all); a cache that cannot be written
# is skipped, since setup has what it built
cache_store() {
  local base; base=$(cache_base)
  [ -n "$base" ] || return 0
  local partial="$base/$1.partial.$$"
  {
    mkdir -p "$partial" &&
      { cp -al "$2" "$partial/item" 2>/dev/null || { rm -rf --one-file-system "$partial/item"; cp -a "$2" "$partial/item"; }; } &&
      date -u +%Y-%m-%dT%H:%M:%SZ > "$partial/.complete" &&
      rm -rf --one-file-system "${base:?}/$1" && mv "$partial" "$base/$1"
  } 2>/dev/null || { rm -rf --one-file-system "$partial"; return 0; }
}

# cache_when KEY: when the kept copy under KEY was made
cache_when() { cat "$(cache_base)/$1/.complete" 2>/dev/null; }

# reuse_ferretdb KEY BIN VERSION: BIN where it is that version already (kept for the next clone
# where the cache has none), else restored from the kept copy under KEY and checked by its own
# --version; says which in one line. Fails where neither holds: BIN is to be built.
reuse_ferretdb() {
  local key=$1 bin=$2 version=$3 got
  # the version is read into a variable first: piping it into grep -q or head would end ferretdb
  # with SIGPIPE, which pipefail turns into a failure
  got=$([ -x "$bin" ] && "$bin" --version 2>/dev/null || true)
  if [[ "$got" == *"version: $version"* ]]; then
    say "FerretDB $version present at $bin"
    [ -f "$(cache_base)/$key/.complete" ] || cache_store "$key" "$bin"
    return 0
  fi
  cache_restore "$key" "$bin" || return 1
  got=$("$bin" --version 2>/dev/null || true)
  [[ "$got" == *"version: $version"* ]] || { rm -f "$bin"; return 1; }
  say "FerretDB $version from the cache ($(cache_base)/$key, kept $(cache_when "$key")), not built again"
}
