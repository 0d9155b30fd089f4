#!/usr/bin/env bash
# Installs ToneShaper from this folder (see INSTALL):
#
#   ./install.sh                         # for you: ~/.local (program, shapes, man page,
#                                        # completions, menu entry), ~/.lv2, ~/.clap, ~/.vst3
#   sudo ./install.sh --prefix /usr/local   # PREFIX/bin, PREFIX/share, PREFIX/lib/lv2, PREFIX/lib/clap, PREFIX/lib/vst3
#
# It writes down what it installed (SHARE/toneshaper/install-manifest), which ./uninstall.sh
# removes. Installing again over an install replaces it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

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
    bin=$HOME/.local/bin share=$HOME/.local/share lv2=$HOME/.lv2 clap=$HOME/.clap vst3=$HOME/.vst3
    program=$bin/toneshaper
else
    [[ $prefix == /* ]] || die "the prefix must be an absolute path, not '$prefix'"
    prefix=${prefix%/}
    bin=$prefix/bin share=$prefix/share lv2=$prefix/lib/lv2 clap=$prefix/lib/clap vst3=$prefix/lib/vst3
    case $prefix in /usr|/usr/local) program=toneshaper ;; *) program=$bin/toneshaper ;; esac
fi
[[ $program =~ ^[A-Za-z0-9/._+-]+$ ]] || program=toneshaper

manifest=$share/toneshaper/install-manifest
# An earlier install is removed first, so that nothing of it stays behind.
if [[ -f $manifest ]]; then
    "$here/uninstall.sh" ${prefix:+--prefix "$prefix"} >/dev/null
fi

created=() installed=()
make_dir() {
    local path=$1 missing=()
    while [[ ! -d $path ]]; do missing=("$path" "${missing[@]}"); path=$(dirname "$path"); done
    for path in "${missing[@]}"; do mkdir "$path"; created+=("$path"); done
}
put() { # SOURCE DESTINATION MODE
    make_dir "$(dirname "$2")"
    install -m "$3" "$1" "$2"
    installed+=("$2")
}
write_manifest() {
    make_dir "$(dirname "$manifest")"
    {
        echo "# ToneShaper install manifest: what ./uninstall.sh removes (f: a file; d: a folder the install made)."
        for path in "${created[@]+"${created[@]}"}"; do echo "d $path"; done
        for path in "${installed[@]+"${installed[@]}"}"; do echo "f $path"; done
    } >"$manifest.new"
    mv "$manifest.new" "$manifest"
}
trap 'write_manifest 2>/dev/null || true' EXIT

put "$here/bin/toneshaper" "$bin/toneshaper" 755
while IFS= read -r file; do
    relative=${file#"$here/share/"}
    if [[ $relative == applications/toneshaper.desktop ]]; then
        # The menu entry names the program by its path when it is not on every PATH.
        entry=$(mktemp)
        sed -e "s|^Exec=toneshaper |Exec=$program |" -e "s|^TryExec=toneshaper$|TryExec=$program|" "$file" >"$entry"
        put "$entry" "$share/$relative" 644
        rm -f "$entry"
    else
        put "$file" "$share/$relative" 644
    fi
done < <(find "$here/share" -type f | sort)
while IFS= read -r file; do
    put "$file" "$lv2/${file#"$here/lib/lv2/"}" 644
done < <(find "$here/lib/lv2" -type f | sort)
put "$here/lib/clap/toneshaper.clap" "$clap/toneshaper.clap" 644
while IFS= read -r file; do
    put "$file" "$vst3/${file#"$here/lib/vst3/"}" 644
done < <(find "$here/lib/vst3" -type f | sort)
write_manifest
trap - EXIT
installed+=("$manifest")

printf 'Installed ToneShaper: %s, %s/toneshaper.lv2, %s/toneshaper.clap, %s/toneshaper.vst3 (%s files; ./uninstall.sh%s removes them)\n' \
    "$bin/toneshaper" "$lv2" "$clap" "$vst3" "${#installed[@]}" "${prefix:+ --prefix $prefix}"
[[ :$PATH: == *:$bin:* ]] || printf 'Note: %s is not on your PATH\n' "$bin"
if [[ -n $prefix && $prefix != /usr ]]; then
    printf 'Note: CLAP hosts find %s/toneshaper.clap through CLAP_PATH: export CLAP_PATH=%s\n' "$clap" "$clap"
fi
