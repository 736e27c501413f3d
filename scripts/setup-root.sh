#!/usr/bin/env bash
# Sourced by scripts/setup-ferretdb2.sh (and run as a command by `orchestrate clean`): undoes the
# mounts inside a root file system the way debootstrap and schroot do, so that nothing stays
# mounted whatever ended the install. An install inside a chroot leaves processes behind that hold
# what is mounted there (gpg-agent and dirmngr started by apt's key handling, a package's trigger
# still finishing): unmounting /proc under them fails with "target is busy". So, in order:
#  1. end the processes whose root (/proc/PID/root) lies in the root file system, TERM then KILL
#     (schroot's 15killprocs does the same); only where asked, since a root file system in use by a
#     server of the kit's must not be emptied of its processes;
#  2. unmount every mount point in it, deepest first (`umount -R`, as debootstrap's and schroot's
#     teardown), trying again for a few seconds while something still holds one;
#  3. as a last resort a lazy unmount (`umount -R -l`): detached now, undone by the kernel once the
#     last user lets go; said so.
#
#   release_root DIR [kill]   sets RELEASED (a sentence of what was done, empty when nothing was
#                             there) and returns 0, or 1 where a mount could not be undone at all
#   scripts/setup-root.sh DIR [kill]   the same as a command: prints RELEASED when not empty

# the mount points of this mount namespace at DIR or below it, deepest first
mounts_under() {
  local dir=$1
  # field 5 of mountinfo is the mount point, with a space written as \040
  awk -v d="$dir" '{ m = $5; gsub(/\\040/, " ", m); if (m == d || index(m, d "/") == 1) print m }' /proc/self/mountinfo 2>/dev/null | sort -r
}

# the processes whose root directory is DIR or below it (chrooted into it)
processes_rooted_in() {
  local dir=$1
  # one find for all of them (find -lname reads each link; its * matches a / too)
  find /proc -mindepth 2 -maxdepth 2 -name root \( -lname "$dir" -o -lname "$dir/*" -o -lname "$dir (deleted)" \) 2>/dev/null |
    sed -n 's|^/proc/\([0-9][0-9]*\)/root$|\1|p'
}

# end_processes_in DIR: TERM, then KILL for what is left after 2 s; sets ENDED (how many)
end_processes_in() {
  local dir=$1 pids i
  ENDED=0
  pids=$(processes_rooted_in "$dir")
  [ -n "$pids" ] || return 0
  ENDED=$(wc -w <<<"$pids")
  # shellcheck disable=SC2086
  kill -TERM $pids 2>/dev/null || true
  for i in $(seq 20); do
    [ -n "$(processes_rooted_in "$dir")" ] || return 0
    sleep 0.1
  done
  pids=$(processes_rooted_in "$dir")
  # shellcheck disable=SC2086
  [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
  for i in $(seq 20); do
    [ -n "$(processes_rooted_in "$dir")" ] || return 0
    sleep 0.1
  done
}

release_root() {
  local dir kill=${2:-} mounts try m names lazy=() ended=0
  RELEASED=
  dir=$(readlink -f "$1" 2>/dev/null) || return 0
  [ -d "$dir" ] || return 0
  if [ "$kill" = kill ]; then end_processes_in "$dir"; ended=$ENDED; fi
  mounts=$(mounts_under "$dir")
  [ -n "$mounts" ] || { [ "$ended" = 0 ] || RELEASED="ended $ended process(es) left running in $1"; return 0; }
  names=$(while read -r m; do printf '%s ' "${m#"$dir"}"; done <<<"$mounts" | sed 's/ $//; s/^ *$/(the folder itself)/')
  # `umount -R` on the shallowest ones takes the ones below with them; a busy one is tried again
  # for up to 5 s, the processes in it ended again each time (one may have started since)
  for try in $(seq 25); do
    while read -r m; do
      [ -n "$m" ] && umount -R "$m" 2>/dev/null || true
    done <<<"$(mounts_under "$dir" | sort)"
    [ -n "$(mounts_under "$dir")" ] || break
    if [ "$kill" = kill ]; then end_processes_in "$dir"; ended=$((ended + ENDED)); fi
    sleep 0.2
  done
  while read -r m; do
    if [ -n "$m" ] && umount -R -l "$m" 2>/dev/null; then lazy+=("${m#"$dir"}"); fi
  done <<<"$(mounts_under "$dir" | sort)"
  RELEASED="unmounted $names in $1"
  [ "$ended" = 0 ] || RELEASED+=" after ending $ended process(es) left running in it"
  [ ${#lazy[@]} = 0 ] || RELEASED+="; ${lazy[*]} still busy after 5 s, detached lazily (umount -l: the kernel finishes once its last user lets go)"
  [ -z "$(mounts_under "$dir")" ]
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  status=0
  release_root "$1" "${2:-}" || status=1
  [ -z "$RELEASED" ] || printf '%s\n' "$RELEASED"
  exit $status
fi
