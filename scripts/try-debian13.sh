#!/usr/bin/env bash
# Not part of CI (about 6 minutes here, and a root file system of its own under /tmp, 4.3 GB by its
# end with every optional part, Go's and npm's caches, removed unless CLASSICS_TRY_KEEP=1): the README's path, tried as a new user on a
# fresh Debian 13 (trixie). As root on this machine, it builds a trixie root file system with
# debootstrap (as scripts/setup-ferretdb2.sh builds sid's), installs Debian's own nodejs and npm
# (no Go), makes a user who is not root with a clone of this repository's HEAD, and runs:
#   1. as the user: npm run setup            (expected: the one root line, exit 1)
#   2. as root:     the line it printed
#   3. as the user: npm run setup            (expected: done, the optional parts skipped in one line each)
#   4. as root:     the Go line step 3 printed (Debian 13's golang-go), so that FerretDB can be built:
#                   no real mongod can be had on these machines, and a main job needs a server
#   5. as the user: npm run setup            (expected: builds FerretDB v1.24.0 from the Go module proxy)
#   6. as the user: npx orchestrate --size smoke --server ferretdb   (the main job at the smoke size,
#                   on FerretDB 1.24 on SQLite; log-inserts' SQL baseline has no PostgreSQL there)
#   7. as root:     the line step 3 printed for every optional package (PostgreSQL, Chromium, ...)
#   8. as the user: npm run setup            (expected: each optional part present)
#   9. as the user: npx orchestrate run log-inserts --size smoke --server ferretdb-pg
#                   (with its SQL baseline on Debian 13's PostgreSQL)
# and says which passed. CLASSICS_TRY_FERRETDB=host skips steps 4 and 5 and copies this machine's
# built .tools/ferretdb instead (faster); CLASSICS_TRY_KEEP=1 keeps the root file system.
# Everything goes to the terminal; the long outputs go to files in the work folder it names.
set -euo pipefail
cd "$(dirname "$0")/.."

[ "$(id -u)" = 0 ] || { echo "try-debian13: needs root (debootstrap, chroot, mount)"; exit 2; }
command -v debootstrap >/dev/null || { echo "try-debian13: needs debootstrap (apt-get install debootstrap)"; exit 2; }
repo=$PWD
work=$(mktemp -d /tmp/classics-trixie-XXXXXX)
root=$work/root
user=classics
home=/home/$user
say() { printf 'try-debian13: %s\n' "$*"; }
results=()
pass() { results+=("PASS  $*"); say "PASS: $*"; }
fail() { results+=("FAIL  $*"); say "FAIL: $*"; }
summary() {
  say "what passed, on Debian 13 (trixie) as a user who is not root ($((SECONDS - started)) s in all):"
  printf '  %s\n' "${results[@]}"
  ! printf '%s\n' "${results[@]}" | grep -q '^FAIL'
}
# a step that failed leaves nothing for the next ones to try
stop_if_failed() { if printf '%s\n' "${results[@]}" | grep -q '^FAIL'; then summary || exit 1; fi; }

# never leave anything mounted, nor remove a folder while something is (--one-file-system)
cleanup() {
  local m
  for m in dev/shm dev proc; do if mountpoint -q "$root/$m" 2>/dev/null; then umount -l "$root/$m" || true; fi; done
  if [ -z "${CLASSICS_TRY_KEEP:-}" ]; then rm -rf --one-file-system "$work"; else say "kept $work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started=$SECONDS
say "building a Debian 13 (trixie) root file system in $root (debootstrap --variant=minbase, log: $work/debootstrap.log)"
debootstrap --variant=minbase trixie "$root" >"$work/debootstrap.log" 2>&1
say "debootstrap took $((SECONDS - started)) s"
mount -t proc proc "$root/proc"
# device nodes: debootstrap makes them where it may; the host's otherwise
[ -c "$root/dev/null" ] || mount --bind /dev "$root/dev"
mkdir -p "$root/dev/shm" && mount -t tmpfs -o size=256m tmpfs "$root/dev/shm"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# where this machine's network re-signs TLS with a CA of its own (these machines' does), its users
# trust that CA: the root file system gets the host's extra certificates, and Node is told of them
extra_ca=(/usr/local/share/ca-certificates/*.crt)
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d" && chmod 755 "$root/usr/sbin/policy-rc.d"

as_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 bash -c "$1"; }
# a login as the user would have it: Debian's user PATH (no /sbin), the user's home
as_user() {
  chroot --userspec="$user:$user" "$root" env -i HOME="$home" USER="$user" LANG=C.UTF-8 TERM=dumb \
    ${NODE_EXTRA_CA_CERTS:+NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt} \
    PATH=/usr/local/bin:/usr/bin:/bin bash -c "cd ~/mongo-classics && $1"
}

t=$SECONDS
as_root 'apt-get update -qq && apt-get install -y -qq --no-install-recommends nodejs npm ca-certificates >/dev/null' >"$work/apt-node.log" 2>&1
if [ -e "${extra_ca[0]}" ]; then
  cp "${extra_ca[@]}" "$root/usr/local/share/ca-certificates/"
  as_root 'update-ca-certificates' >>"$work/apt-node.log" 2>&1
  say "added this machine's extra CA certificates (${extra_ca[*]##*/}) to the root file system, as its users have them"
fi
say "installed Debian's nodejs $(as_root 'node --version') and npm $(as_root 'npm --version') in $((SECONDS - t)) s; Go: $(as_root 'command -v go || echo none')"
as_root "useradd --create-home --shell /bin/bash $user"
# a clone of what is committed here, as a user would have it
git clone -q --no-hardlinks "$repo" "$root$home/mongo-classics"
git -C "$root$home/mongo-classics" checkout -q "$(git -C "$repo" rev-parse HEAD)"
as_root "chown -R $user:$user $home"
say "cloned $(git -C "$repo" rev-parse --short HEAD) into $home/mongo-classics, for user $user (uid $(as_root "id -u $user"))"

# npm run setup as the user, its lines shown: "$1" passes where it exits $3 and prints a line
# starting with $4 (log: $work/$2.log)
user_setup() {
  local t=$SECONDS rc=0
  as_user 'npm run setup' >"$work/$2.log" 2>&1 || rc=$?
  grep '^setup:' "$work/$2.log" | sed 's/^/  | /' || true
  if [ "$rc" = "$3" ] && grep -q "^setup: $4" "$work/$2.log"; then pass "$1: exit $rc ($((SECONDS - t)) s)"
  else fail "$1: exit $rc, no line 'setup: $4'"; grep -v '^setup:' "$work/$2.log" | tail -20 | sed 's/^/  | /'; fi
}
# a `sudo apt-get install ...` line setup printed (in $work/$2.log, on a line matching $3), run as
# root: there is no sudo here
run_root_line() {
  local t=$SECONDS line
  line=$(grep -e "$3" "$work/$2.log" | grep -o 'sudo apt-get install [^,]*' | head -1 || true)
  if [ -n "$line" ] && as_root "${line#sudo }" >"$work/$2-root.log" 2>&1; then pass "$1: ${line#sudo } ($((SECONDS - t)) s)"
  else fail "$1: ${line:-no such line printed} (see $work/$2-root.log)"; fi
}
# the main job at the smoke size as the user, and its verdicts
smoke() {
  local t=$SECONDS rc=0 md
  as_user "npx orchestrate $2" >"$work/$3.log" 2>&1 || rc=$?
  grep -v '^\s*$' "$work/$3.log" | grep -v '^wrote ' | tail -40 | sed 's/^/  | /'
  if [ "$rc" = 0 ]; then pass "$1. npx orchestrate $2 as $user: exit 0 ($((SECONDS - t)) s)"
  else fail "$1. npx orchestrate $2 as $user: exit $rc ($((SECONDS - t)) s)"; fi
  md=$(ls -dt "$root$home"/mongo-classics/reports/runs/*/summary.md 2>/dev/null | head -1 || true)
  [ -n "$md" ] || return 0
  say "its verdicts (${md#"$root"}):"
  grep "^| " "$md" | grep -E 'holds|does not hold|inconclusive|cannot be tested' | cut -c1-240 | sed 's/^/  | /' || true
}

user_setup "1. npm run setup as $user" setup-1 1 'install them as root'
run_root_line "2. as root, the line it printed" setup-1 'sudo apt-get install'
user_setup "3. npm run setup as $user again: done, npm ci and canvas's build included" setup-2 0 done
stop_if_failed
if [ "${CLASSICS_TRY_FERRETDB:-}" = host ]; then
  mkdir -p "$root$home/mongo-classics/.tools/ferretdb/bin"
  cp .tools/ferretdb/bin/ferretdb "$root$home/mongo-classics/.tools/ferretdb/bin/"
  as_root "chown -R $user:$user $home/mongo-classics/.tools"
  say "copied this machine's FerretDB v1.24.0 binary into the clone's .tools (CLASSICS_TRY_FERRETDB=host)"
else
  run_root_line "4. as root, setup's Go line" setup-2 'skipped the FerretDB kinds'
  say "Go on PATH now: $(as_root 'go env GOVERSION')"
  user_setup "5. npm run setup as $user with Go: FerretDB built" setup-3 0 'built FerretDB'
fi
stop_if_failed
smoke 6 '--size smoke --server ferretdb' smoke
stop_if_failed

# the optional parts: setup's last line installs them all; then the SQL baseline runs
run_root_line "7. as root, setup's line for every optional package" setup-2 'every optional package'
user_setup "8. npm run setup as $user: PostgreSQL, Chromium, libmongoc and the CJK font present" setup-4 0 'PostgreSQL present'
smoke 9 'run log-inserts --size smoke --server ferretdb-pg' smoke-pg

say "the root file system took $(du -sh --one-file-system "$root" | cut -f1) at the end"
summary
