#!/usr/bin/env bash
# Removes what ./install.sh installed, and nothing else: the files its manifest lists, then
# the folders it made, each only if empty.
#
#   ./uninstall.sh                       # what ./install.sh installed for you
#   sudo ./uninstall.sh --prefix /usr/local
set -euo pipefail

die() { printf 'uninstall.sh: %s\n' "$*" >&2; exit 1; }

prefix=""
while (($#)); do
    case $1 in
        --prefix) [[ $# -ge 2 ]] || die "--prefix needs a folder"; prefix=$2; shift ;;
        --prefix=*) prefix=${1#--prefix=} ;;
        -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        *) die "unknown argument $1 (see --help)" ;;
    esac
    shift
done
if [[ -z $prefix ]]; then
    [[ -n ${HOME:-} ]] || die "HOME is not set: give --prefix"
    share=$HOME/.local/share
else
    [[ $prefix == /* ]] || die "the prefix must be an absolute path, not '$prefix'"
    share=${prefix%/}/share
fi
manifest=$share/toneshaper/install-manifest
[[ -f $manifest ]] || die "nothing to remove: no $manifest"

folders=()
count=0
while IFS= read -r line; do
    path=${line#? }
    [[ $path == /* && /$path/ != */../* ]] || continue
    case $line in
        "f "*) if [[ -f $path || -L $path ]]; then rm -f "$path"; count=$((count + 1)); fi ;;
        "d "*) folders=("$path" "${folders[@]+"${folders[@]}"}") ;;
    esac
done <"$manifest"
rm -f "$manifest"
# The deepest first (the manifest lists each folder after the one it is in).
for folder in "${folders[@]+"${folders[@]}"}"; do rmdir "$folder" 2>/dev/null || true; done
rmdir "$share/toneshaper" 2>/dev/null || true
printf 'Removed ToneShaper (%s files)\n' "$count"
