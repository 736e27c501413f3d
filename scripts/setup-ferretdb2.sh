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
. scripts/setup-root.sh

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
partial=$tools/documentdb/root.partial
# the log is of the last run that did something: one that finds everything present keeps it
new_log() { [ -n "${log_new:-}" ] || { : > "$log"; log_new=1; }; }

# one setup at a time in this checkout: a second one would remove the first's root.partial under it
pidfile=$tools/documentdb/.setup.pid
other=$(cat "$pidfile" 2>/dev/null || true)
if [ -n "$other" ] && [ "$other" != $$ ] && tr '\0' ' ' 2>/dev/null <"/proc/$other/cmdline" | grep -q 'setup-ferretdb2\.sh'; then
  say "another npm run setup (pid $other) is installing ferretdb2 in this checkout: this one leaves it to that one"
  exit 1
fi
echo $$ > "$pidfile"

# what an earlier setup that was killed (or an older one, whose unmount lost a race) left mounted:
# in root.partial, with whatever still runs inside it; in root, the mounts only (a server of the
# kit's runs in root in a mount namespace of its own, which this one does not see)
release_root "${partial#"$PWD/"}" kill || true
[ -z "$RELEASED" ] || say "an earlier npm run setup left mounts behind: $RELEASED"
# its half-made root, once nothing is mounted in it (never into a mount: --one-file-system)
[ ! -d "$partial" ] || rm -rf --one-file-system "$partial" 2>/dev/null || true
release_root "${root#"$PWD/"}" || true
[ -z "$RELEASED" ] || say "an earlier npm run setup left mounts behind: $RELEASED"

# a step that fails is quoted from the log, in the lines that say why (apt's "E:" lines, an error),
# else its last lines: one or two of them, beside the log's path
step=
quote_log() {
  local lines
  lines=$(tail -n 40 "$log" 2>/dev/null | grep -E '^(E|W): |[Ee]rror|[Ff]ailed|[Cc]annot|[Nn]ot found|[Dd]enied|[Nn]o space' | tail -n 2)
  [ -n "$lines" ] || lines=$(grep -v '^[[:space:]]*$' "$log" 2>/dev/null | tail -n 2)
  [ -z "$lines" ] || sed 's/^/setup:   | /' <<<"$lines"
}
on_exit() {
  local status=$?
  if [ -n "${bg:-}" ]; then kill -TERM "$bg" 2>/dev/null || true; wait "$bg" 2>/dev/null || true; fi
  # nothing stays mounted, and nothing half-made stays behind (--one-file-system: never into a
  # mount that could not be undone)
  if [ -d "$partial" ]; then
    release_root "$partial" kill || true
    [ -z "$RELEASED" ] || printf '%s\n' "$RELEASED" >>"$log"
    rm -rf --one-file-system "$partial" 2>/dev/null || true
  fi
  if [ "$status" != 0 ] && [ "$status" != 3 ] && [ -z "${signalled:-}" ]; then
    if [ -n "$step" ]; then say "ferretdb2's setup failed in $step; ${log#"$PWD/"} says:"; quote_log
    else say "ferretdb2's setup failed (exit $status; the lines above say why)"; fi
  fi
  rm -f "$pidfile"
}
trap on_exit EXIT
# killed (Ctrl-C, kill): the EXIT trap above undoes the mounts; the step in progress runs in the
# background so that the signal is seen now, not once that step ends
trap 'signalled=1; exit 130' INT
trap 'signalled=1; exit 143' TERM
# run "$@" in the background and wait for it, so that a signal to this script is handled at once
waited() { "$@" & bg=$!; local status=0; wait "$bg" || status=$?; bg=; return "$status"; }

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
  say "installing a Debian sid root file system with postgresql-18-documentdb into ${root#"$PWD/"} (about a minute)"
  rm -rf --one-file-system "$partial" "$root"
  # debootstrap mounts /proc and /sys in the root while it installs and unmounts them as it ends
  step="debootstrap (the sid root file system)"
  waited debootstrap --variant=minbase sid "$partial" "${SID_MIRROR[@]}" >>"$log" 2>&1
  # no service starts inside the chroot, and no cluster is made at install: the kit makes its own
  printf '#!/bin/sh\nexit 101\n' > "$partial/usr/sbin/policy-rc.d"
  chmod 755 "$partial/usr/sbin/policy-rc.d"
  mkdir -p "$partial/etc/postgresql-common/createcluster.d"
  echo 'create_main_cluster = false' > "$partial/etc/postgresql-common/createcluster.d/classics.conf"
  printf 'Acquire::Check-Valid-Until "false";\nAPT::Install-Recommends "false";\n' > "$partial/etc/apt/apt.conf.d/99classics"
  # postgresql-common's set-up runs systemd-tmpfiles, which needs /proc: mounted for the install
  # only, and undone (with whatever the install left running in the root) before the root is moved
  mount -t proc proc "$partial/proc"
  in_root() { waited chroot "$partial" env DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@" >>"$log" 2>&1; }
  step="apt-get update in the sid root"
  in_root apt-get "${APT[@]}" update
  step="apt-get install ${PINS[*]} in the sid root"
  if ! in_root apt-get "${APT[@]}" install "${PINS[@]}"; then
    say "sid no longer has ${PINS[*]}: installing its current postgresql-18-documentdb instead"
    step="apt-get install postgresql-18-documentdb in the sid root"
    in_root apt-get "${APT[@]}" install postgresql-18-documentdb
  fi
  in_root apt-get clean
  # the install is done: what it left running (gpg-agent, dirmngr, a trigger) is ended and the
  # mounts undone; one that stays busy is detached lazily, never a reason to call the install failed
  step=
  release_root "${partial#"$PWD/"}" kill || true
  printf 'after the install: %s\n' "${RELEASED:-nothing was left mounted or running in the root}" >>"$log"
  case "$RELEASED" in *lazily*) say "$RELEASED" ;; esac
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
  say "installed DocumentDB $installed on PostgreSQL $(chroot "$root" dpkg-query -W -f='${Version}' postgresql-18) in ${root#"$PWD/"} ($(du -sh "$root" | cut -f1))"
fi

if ! reuse_ferretdb "$ferretdb2_key" "$bin" "$FERRETDB2_VERSION"; then
  new_log
  command -v go >/dev/null || { say "Go is needed to build FerretDB $FERRETDB2_VERSION and was not found on PATH"; exit 1; }
  say "building FerretDB $FERRETDB2_VERSION (about a minute)"
  step="go install of FerretDB $FERRETDB2_VERSION"
  build_ferretdb2
  step=
  built_version=$("$bin" --version)
  cache_store "$ferretdb2_key" "$bin"
  say "built FerretDB ${built_version%%$'\n'*}"
fi
