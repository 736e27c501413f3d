#!/usr/bin/env bash
# The ferretdb2 server kind: FerretDB 2.7.0 on PostgreSQL 18 with Microsoft's DocumentDB extension,
# installed into .tools/ (git-ignored) and nothing twice. scripts/setup.sh runs this as a process of
# its own, so that a failure here stops only this part: it prints one line and the rest of the kit
# is unaffected.
#  - DocumentDB: Debian ships it only in sid (postgresql-18-documentdb needs libc6 >= 2.38, newer than
#    bookworm's), so it goes into a minimal sid root file system of its own, .tools/documentdb/root,
#    in which the kit runs initdb and postgres through chroot. Root only (debootstrap, chroot).
#  - FerretDB 2.7.0: `go install` from the Go module proxy into .tools/ferretdb2/bin; it runs on
#    the host and talks to that PostgreSQL over TCP. FerretDB 2.7 expects DocumentDB 0.107, Debian
#    ships 1.0: FerretDB starts all the same and says so in getLog startupWarnings, which the kit
#    records with every run.
# Everything it prints goes to .tools/documentdb/setup.log; the terminal gets one line per part.
set -euo pipefail
cd "$(dirname "$0")/.."

FERRETDB2_VERSION=v2.7.0
# debootstrap's own default mirror, unless CLASSICS_SID_MIRROR names another (a local mirror, or
# one that does not answer, to try the failure path)
SID_MIRROR=(${CLASSICS_SID_MIRROR:+"$CLASSICS_SID_MIRROR"})
# the versions the kit was tested with; where sid no longer has them, the current ones are
# installed and the line says so (FerretDB's server record names the DocumentDB that ran)
PINS=(postgresql-18-documentdb=1.0-0-1 postgresql-18=18.6-3)
say() { printf 'setup: %s\n' "$*"; }
. scripts/setup-cache.sh

tools=$PWD/.tools
root=$tools/documentdb/root
bin=$tools/ferretdb2/bin/ferretdb
log=$tools/documentdb/setup.log
# FerretDB 2.7 from the Go module proxy into .tools/ferretdb2/bin
build_ferretdb2() {
  GOBIN=$tools/ferretdb2/bin go install "github.com/FerretDB/FerretDB/v2/cmd/ferretdb@$FERRETDB2_VERSION" >>"$log" 2>&1
}
ferretdb2_key=$(cache_key "ferretdb-$FERRETDB2_VERSION" "$FERRETDB2_VERSION" "$(declare -f build_ferretdb2)")
# the version is read into a variable first: piping it into grep -q would end ferretdb with SIGPIPE.
# FerretDB 2 not built, not in the cache, and no Go to build it (scripts/setup.sh says so in its
# one line about Go): exit 3 before a minute of debootstrap that could not be used
built_version=$([ -x "$bin" ] && "$bin" --version 2>/dev/null || true)
if [[ "$built_version" != *"version: $FERRETDB2_VERSION"* ]] && [ -n "${CLASSICS_SETUP_NO_GO:-}" ] && ! [ -f "$(cache_base)/$ferretdb2_key/.complete" ]; then exit 3; fi
mkdir -p "$tools/documentdb" "$tools/ferretdb2/bin"
# the log is of the last run that did something: one that finds everything present keeps it
new_log() { [ -n "${log_new:-}" ] || { : > "$log"; log_new=1; }; }

# the sid suite this machine's mirror serves can be a frozen snapshot whose Release file has
# expired: apt must not refuse it for that
APT=(-o Acquire::Check-Valid-Until=false -o APT::Install-Recommends=false -o Dpkg::Options::=--force-confold -q -y)
documentdb_version() {
  [ -d "$root/var/lib/dpkg" ] || return 0
  chroot "$root" dpkg-query -W -f='${Version}' postgresql-18-documentdb 2>/dev/null || true
}

# a Debian sid root file system with DocumentDB, made into $root (the folder is replaced whole)
build_documentdb_root() {
  new_log
  command -v debootstrap >/dev/null || {
    say "installing debootstrap (Debian package)"
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends debootstrap; } >>"$log" 2>&1
  }
  say "installing a Debian sid root file system with postgresql-18-documentdb into $root (about a minute)"
  partial=$tools/documentdb/root.partial
  # postgresql-common's set-up runs systemd-tmpfiles, which needs /proc: mounted for the install
  # only, and never left mounted (nor removed with rm while it is)
  unmount_proc() { if mountpoint -q "$partial/proc"; then umount "$partial/proc"; fi; }
  unmount_proc 2>/dev/null || true
  # a failed install leaves nothing half-made behind (--one-file-system: never into a mounted /proc)
  trap 'unmount_proc; rm -rf --one-file-system "$partial"' EXIT
  rm -rf --one-file-system "$partial" "$root"
  debootstrap --variant=minbase sid "$partial" "${SID_MIRROR[@]}" >>"$log" 2>&1
  # no service starts inside the chroot, and no cluster is made at install: the kit makes its own
  printf '#!/bin/sh\nexit 101\n' > "$partial/usr/sbin/policy-rc.d"
  chmod 755 "$partial/usr/sbin/policy-rc.d"
  mkdir -p "$partial/etc/postgresql-common/createcluster.d"
  echo 'create_main_cluster = false' > "$partial/etc/postgresql-common/createcluster.d/classics.conf"
  printf 'Acquire::Check-Valid-Until "false";\nAPT::Install-Recommends "false";\n' > "$partial/etc/apt/apt.conf.d/99classics"
  mount -t proc proc "$partial/proc"
  in_root() { chroot "$partial" env DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@" >>"$log" 2>&1; }
  in_root apt-get "${APT[@]}" update
  if ! in_root apt-get "${APT[@]}" install "${PINS[@]}"; then
    say "sid no longer has ${PINS[*]}: installing its current postgresql-18-documentdb instead"
    in_root apt-get "${APT[@]}" install postgresql-18-documentdb
  fi
  in_root apt-get clean
  unmount_proc
  rm -rf "$partial/var/lib/apt/lists/"*
  mv "$partial" "$root"
  installed=$(documentdb_version)
  echo "$installed" > "$root/.classics-ready"
}
root_key=$(cache_key documentdb-root "${PINS[*]}" "${SID_MIRROR[*]:-}" "$(declare -f build_documentdb_root)")

installed=$(documentdb_version)
if [ -n "$installed" ] && [ -f "$root/.classics-ready" ]; then
  say "DocumentDB $installed present in $root (Debian sid)"
  # kept for the next clone where the cache has none (hard links: no second copy on this disk)
  [ -f "$(cache_base)/$root_key/.complete" ] || cache_store "$root_key" "$root"
elif cache_restore "$root_key" "$root" && [ -f "$root/.classics-ready" ] && [ -n "$(documentdb_version)" ]; then
  installed=$(documentdb_version)
  say "DocumentDB $installed in $root from the cache ($(cache_base)/$root_key, kept $(cache_when "$root_key")), not installed again"
else
  rm -rf --one-file-system "$root"
  build_documentdb_root
  cache_store "$root_key" "$root"
  say "installed DocumentDB $installed on PostgreSQL $(chroot "$root" dpkg-query -W -f='${Version}' postgresql-18) in $root ($(du -sh "$root" | cut -f1))"
fi

if ! reuse_ferretdb "$ferretdb2_key" "$bin" "$FERRETDB2_VERSION"; then
  new_log
  command -v go >/dev/null || { say "Go is needed to build FerretDB $FERRETDB2_VERSION and was not found on PATH"; exit 1; }
  say "building FerretDB $FERRETDB2_VERSION (about a minute)"
  build_ferretdb2
  built_version=$("$bin" --version)
  cache_store "$ferretdb2_key" "$bin"
  say "built FerretDB ${built_version%%$'\n'*}"
fi
