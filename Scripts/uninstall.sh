#!/usr/bin/env bash
# Removes what Scripts/install.sh installed under PREFIX (default /usr/local), and nothing
# else: the files its manifest (PREFIX/share/toneshaper/install-manifest) lists, then the
# directories the install created, each only if it is empty. DESTDIR is honoured as by
# install.sh. Your own shapes (~/.local/share/toneshaper/shapes, and the older ~/.local/share/toneshaper/library) are never touched.
#
# Usage: Scripts/uninstall.sh [PREFIX]
set -euo pipefail

say() { printf '==> %s\n' "$*"; }
die() { printf 'uninstall.sh: %s\n' "$*" >&2; exit 1; }

prefix=/usr/local
while (($#)); do
    case $1 in
        -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        -*) die "unknown option $1 (see --help)" ;;
        *) prefix=$1 ;;
    esac
    shift
done

[[ $prefix == /* ]] || die "PREFIX must be an absolute path, not '$prefix'"
while [[ $prefix == */ && $prefix != / ]]; do prefix=${prefix%/}; done
[[ $prefix == / ]] && prefix=""
root=${DESTDIR:-}
root=${root%/}

manifest_path="$prefix/share/toneshaper/install-manifest"
manifest=$root$manifest_path
[[ -f $manifest ]] || die "no manifest at $manifest: nothing was installed there by Scripts/install.sh"
grep -qxF "# prefix: ${prefix:-/}" "$manifest" \
    || die "$manifest was written for another prefix; give that prefix"

# A path the manifest may name: absolute, no "." or ".." steps, and inside the prefix
# (directories may also be the prefix itself or above it, when the install created them).
inside_prefix() {
    [[ $1 == /* && /$1/ != */./* && /$1/ != */../* ]] || return 1
    [[ $1 == "$prefix"/* ]] || { [[ $2 == dir ]] && [[ $prefix/ == "$1"/* ]]; }
}

files=()
dirs=()
while IFS= read -r line; do
    case $line in
        "#"*|"") ;;
        "f "*) inside_prefix "${line#f }" file || die "refusing a manifest entry outside $prefix: $line"
               files+=("${line#f }") ;;
        "d "*) inside_prefix "${line#d }" dir || die "refusing a manifest entry outside $prefix: $line"
               dirs+=("${line#d }") ;;
        *) die "unreadable manifest line: $line" ;;
    esac
done <"$manifest"

say "Removing ToneShaper from ${root:+$root (DESTDIR) + }${prefix:-/}"
removed=0
for file in "${files[@]+"${files[@]}"}"; do
    if [[ -f $root$file || -L $root$file ]]; then
        rm -f "$root$file"
        removed=$((removed + 1))
    elif [[ -e $root$file ]]; then
        say "Leaving $root$file: it is not a file any more"
    fi
done
rm -f "$manifest"

# Deepest first (the manifest lists parents before children); a directory that holds
# anything else stays.
for ((i = ${#dirs[@]} - 1; i >= 0; i--)); do
    dir=$root${dirs[i]}
    if [[ -d $dir && ! -L $dir ]]; then
        rmdir "$dir" 2>/dev/null || say "Leaving $dir: it holds other files"
    fi
done
say "Removed $removed files"
