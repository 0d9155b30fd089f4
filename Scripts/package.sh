#!/usr/bin/env bash
# Builds what a user downloads, ToneShaper without a Swift toolchain:
#
#   .build-pkg/dist/toneshaper_VERSION_amd64.deb               (sudo apt install ./toneshaper_*.deb)
#   .build-pkg/dist/toneshaper-VERSION-linux-x86_64.tar.xz     (./install.sh: ~/.local, ~/.lv2, ~/.clap)
#
# Usage: bash Scripts/package.sh               # from the last commit (git archive HEAD), reproducibly
#        bash Scripts/package.sh COMMIT        # from another commit
#        bash Scripts/package.sh --from-tree   # from this working tree's builds, into .build-pkg/tree-dist
#                                              # (what Scripts/test-package.sh tests in CI: no second build)
#
# By default the commit is exported (git archive HEAD, so nothing uncommitted gets in) into
# .build-pkg/src, the same folder every time: only the files that changed since the last run
# are written there, so SwiftPM builds again only what they touch, and no path of this
# checkout's is in the binaries. There the program is built (release, the Swift runtime
# linked in statically, no $ORIGIN run path, build paths mapped to "."), the plugins
# (Scripts/build-lv2.sh, Scripts/build-clap.sh), and Scripts/install.sh lays the files out
# (DESTDIR) under /usr for the package and under one folder for the tarball. Both are
# reproducible: SOURCE_DATE_EPOCH is the commit's time, every file's time is set to it, the
# archives are sorted with numeric owner 0, and two runs from one commit give the same bytes.
# The package's Depends is computed from the binaries by dpkg-shlibdeps; lintian is run on it
# when installed. Needs no network (the Swift packages come from SwiftPM's cache, pinned by
# this checkout's Package.resolved).
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$PWD

say() { printf '==> %s\n' "$*"; }
die() { printf 'package.sh: %s\n' "$*" >&2; exit 1; }

# The Debian package's maintainer and homepage: the LV2 description's (PackageVersionTests).
maintainer='ToneShaper maintainers <maintainers@users.noreply.a-seed-e8127782.example>'
homepage='https://a-seed-e8127782.example/toneshaper'

from_tree=0
commit=HEAD
case ${1:-} in
    --from-tree) from_tree=1 ;;
    "") ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    -*) die "unknown argument $1 (see --help)" ;;
    *) commit=$1 ;;
esac
commit=$(git rev-parse --verify "$commit^{commit}") || die "no commit $commit"

for tool in dpkg-deb dpkg-shlibdeps xz objdump strip python3; do
    command -v "$tool" >/dev/null || die "$tool is missing (Debian: apt-get install dpkg-dev xz-utils binutils, or bash Scripts/setup.sh)"
done
[[ $(dpkg --print-architecture) == amd64 ]] || die "builds the amd64 package only, on amd64"

export SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct "$commit")
export TZ=UTC LC_ALL=C
umask 022

work=$repository/.build-pkg
if ((from_tree)); then
    src=$repository
    dist=$work/tree-dist
else
    dist=$work/dist
    src=$work/src
    # --- The commit, exported into the same folder as last time ------------------------
    say "Exporting ${commit:0:12} into $src"
    rm -rf "$work/export"
    mkdir -p "$work/export" "$src"
    git archive --format=tar "$commit" | tar -x -C "$work/export"
    # The pins of the Swift packages (Package.resolved is not committed): this checkout's.
    [[ -f Package.resolved ]] || die "no Package.resolved: run swift package resolve first"
    cp Package.resolved "$work/export/"
    # Files that differ are copied (new time: SwiftPM builds them again), files the commit no
    # longer has are removed, and the rest are left alone with their times.
    (cd "$work/export" && find . -type f -o -type l | sort) >"$work/files"
    while IFS= read -r file; do
        if ! cmp -s "$work/export/$file" "$src/$file" 2>/dev/null; then
            mkdir -p "$src/$(dirname "$file")"
            rm -f "$src/$file"
            cp -P "$work/export/$file" "$src/$file"
        fi
    done <"$work/files"
    (cd "$src" && find . -path ./.build -prune -o \( -type f -o -type l \) -print | sort) |
        comm -23 - "$work/files" | while IFS= read -r stale; do rm -f "$src/$stale"; done
    rm -rf "$work/export"
fi
cd "$src"

version=$(sed -n 's/.*static let string = "\([0-9.]*\)".*/\1/p' Sources/toneshaper/Version.swift)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "no version in Sources/toneshaper/Version.swift"
say "ToneShaper $version (SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH, $(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ))"

# --- Building -----------------------------------------------------------------------------

if ((from_tree)); then
    # Scripts/install.sh takes this tree's release build, and builds it first when stale.
    binary=""
else
    # -disable-incremental-llvm-codegen: no .swift_modhash section, a hash that differed from
    # one build to the next (of the same sources, at the same path) while the code did not.
    say "swift build -c release --static-swift-stdlib (no \$ORIGIN run path, bound now, build paths mapped to .)"
    swift build -c release --static-swift-stdlib --disable-local-rpath --product toneshaper \
        -Xswiftc -file-prefix-map -Xswiftc "$src=." -Xcc -ffile-prefix-map="$src=." -Xlinker -z -Xlinker now \
        -Xswiftc -Xfrontend -Xswiftc -disable-incremental-llvm-codegen \
        --disable-automatic-resolution
    binary=$(swift build -c release --show-bin-path)/toneshaper
    # The plugins (Scripts/build-lv2.sh, Scripts/build-clap.sh, Scripts/build-vst3.sh) and the man page tool are
    # built by Scripts/install.sh below, when missing or older than their sources.
fi
[[ -z $binary || $("$binary" --version) == "$version" ]] || die "$binary --version is not $version"

stage=$work/stage
rm -rf "$stage"
mkdir -p "$stage" "$dist"

# The linker's build ID hashes the debug information too, which differs from one build of
# the program to the next (the code does not): once stripped, a binary's build ID is made
# the SHA-1 of the binary itself (with the ID zeroed), so it names the bytes shipped.
settle_build_id() {
    python3 - "$1" <<'PY'
import hashlib, struct, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
assert data[:6] == b"\x7fELF\x02\x01", "not a 64-bit little-endian ELF file"
shoff = struct.unpack_from("<Q", data, 0x28)[0]
entsize, count, names = struct.unpack_from("<HHH", data, 0x3A)
header = lambda i: struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * entsize)
table = header(names)[4]
for i in range(count):
    name_at, _, _, _, offset, size = header(i)[:6]
    name = bytes(data[table + name_at : data.index(0, table + name_at)])
    if name == b".note.gnu.build-id":
        name_size, id_size = struct.unpack_from("<II", data, offset)
        start = offset + 12 + ((name_size + 3) & ~3)
        data[start : start + id_size] = bytes(id_size)
        data[start : start + id_size] = hashlib.sha1(data).digest()[:id_size]
        open(path, "wb").write(data)
PY
}

# dh_strip's way: no symbols but those needed, no .comment (the compilers' versions).
strip_all() {
    local file
    while IFS= read -r file; do
        if [[ $(head -c 4 "$file" | od -An -c | tr -d ' ') == 177ELF ]]; then
            strip --remove-section=.comment --remove-section=.note --strip-unneeded "$file"
            settle_build_id "$file"
        fi
    done < <(find "$1" -type f | sort)
}

# Every file's time the commit's, so that the archives do not depend on when they were made.
settle() {
    find "$1" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
}

# --- The Debian package -------------------------------------------------------------------

root=$stage/deb
say "Laying out the package: DESTDIR=$root Scripts/install.sh /usr"
TONESHAPER_BINARY=$binary DESTDIR=$root bash Scripts/install.sh /usr >"$stage/install-deb.log" 2>&1 ||
    { cat "$stage/install-deb.log" >&2; die "install.sh failed"; }
[[ $("$root/usr/bin/toneshaper" --version) == "$version" ]] || die "the program installed is not version $version"
[[ -n $binary ]] || binary=$root/usr/bin/toneshaper   # --from-tree: the one install.sh took
# dpkg keeps the list of files: no install manifest. Debian's zsh reads vendor-completions.
rm "$root/usr/share/toneshaper/install-manifest"
mkdir -p "$root/usr/share/zsh/vendor-completions"
mv "$root/usr/share/zsh/site-functions/_toneshaper" "$root/usr/share/zsh/vendor-completions/"
rmdir "$root/usr/share/zsh/site-functions"
gzip -9n "$root/usr/share/man/man1/toneshaper.1"
# A completion script is sourced, not run: no #! line (swift-argument-parser writes one).
sed -i '1{/^#!/d}' "$root/usr/share/bash-completion/completions/toneshaper"
strip_all "$root"

doc=$root/usr/share/doc/toneshaper
mkdir -p "$doc"
first_year=$(git -C "$repository" log --reverse --format=%cd --date=format:%Y "$commit" | sed -n 1p)
last_year=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y)
years=$first_year
[[ $first_year == "$last_year" ]] || years="$first_year-$last_year"
cat >"$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: ToneShaper for JACK
Upstream-Contact: $maintainer
Source: $homepage

Files: *
Copyright: $years ToneShaper maintainers
License: ISC

Files: usr/lib/lv2/toneshaper.lv2/* usr/lib/clap/toneshaper.clap usr/lib/vst3/toneshaper.vst3/*
Copyright: $years ToneShaper maintainers
 2014-2021 Swift project authors (the Embedded Swift standard library, linked in)
License: ISC and Apache-2.0 with Runtime Library Exception

Files: usr/bin/toneshaper
Copyright: $years ToneShaper maintainers
 2014-2025 Swift project authors (the Swift standard library and Foundation, linked in)
 2020-2025 Apple Inc. (swift-argument-parser, swift-log, linked in)
 2022-2025 Simon Whitty (FlyingFox, linked in)
License: ISC and Apache-2.0 with Runtime Library Exception and Apache-2.0 and MIT

License: ISC
 Permission to use, copy, modify, and/or distribute this software for any
 purpose with or without fee is hereby granted, provided that the above
 copyright notice and this permission notice appear in all copies.
 .
 THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
 WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
 MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
 ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
 WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
 ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
 OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.

License: Apache-2.0
 On Debian systems, the full text of the Apache License, Version 2.0 is in
 /usr/share/common-licenses/Apache-2.0.

License: Apache-2.0 with Runtime Library Exception
 Licensed under the Apache License, Version 2.0; on Debian systems, its full
 text is in /usr/share/common-licenses/Apache-2.0.
 .
 Runtime Library Exception to the Apache 2.0 License:
 .
 As an exception, if you use this Software to compile your source code and
 portions of this Software are embedded into the binary product as a result,
 you may redistribute such product without providing attribution as would
 otherwise be required by Sections 4(a), 4(b) and 4(d) of the License.

License: MIT
 Permission is hereby granted, free of charge, to any person obtaining a copy
 of this software and associated documentation files (the "Software"), to deal
 in the Software without restriction, including without limitation the rights
 to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 copies of the Software, and to permit persons to whom the Software is
 furnished to do so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included in
 all copies or substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
 THE SOFTWARE.
EOF

# A native package (the project packages itself; no Debian revision): changelog.gz, one
# entry a version, dated by the commit.
{
    printf 'toneshaper (%s) unstable; urgency=medium\n\n' "$version"
    printf '  * Release %s: the program (a JACK client, offline render to WAV, FLAC\n' "$version"
    printf '    and Ogg/Vorbis), the LV2 and CLAP instruments, built from commit\n    %s.\n\n' "${commit:0:12}"
    printf ' -- %s  %s\n' "$maintainer" "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} >"$doc/changelog"
gzip -9n "$doc/changelog"

# lintian reports no error and no warning (below), so there are no overrides.

# Depends: what the binaries link, by dpkg-shlibdeps (it wants a debian/control to read).
mkdir -p "$stage/shlibdeps/debian"
printf 'Source: toneshaper\n\nPackage: toneshaper\nArchitecture: amd64\n' >"$stage/shlibdeps/debian/control"
elves=()
while IFS= read -r file; do
    [[ $(head -c 4 "$file" | od -An -c | tr -d ' ') == 177ELF ]] && elves+=("$file")
done < <(find "$root" -type f | sort)
depends=$(cd "$stage/shlibdeps" && dpkg-shlibdeps -O "${elves[@]}" 2>"$stage/shlibdeps.log") ||
    { cat "$stage/shlibdeps.log" >&2; die "dpkg-shlibdeps failed"; }
depends=${depends#shlibs:Depends=}
[[ -n $depends ]] || die "dpkg-shlibdeps found no dependency"

mkdir -p "$root/DEBIAN"
installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: toneshaper
Version: $version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: jackd2, avahi-daemon
Suggests: lv2-host, liblo-tools
Provides: lv2-plugin
Section: sound
Priority: optional
Homepage: $homepage
Description: tone shape player for JACK, and LV2 and CLAP instrument
 ToneShaper plays tone shapes: a curve of frequency over time, drawn once
 and repeated, played through a sine, square, triangle or sawtooth wave
 (or band-limited versions of them). It makes sirens, chirps, bird calls,
 drones and sweeps.
 .
 The program runs as a JACK client that plays from a MIDI keyboard and is
 changed while it plays over OSC or in a browser editor, and renders the
 same sound offline to WAV, FLAC or Ogg/Vorbis files.
 .
 The package also holds the LV2 plugin (/usr/lib/lv2/toneshaper.lv2), the
 CLAP plugin (/usr/lib/clap/toneshaper.clap) and the VST 3 plugin
 (/usr/lib/vst3/toneshaper.vst3), mono and stereo, each with an editor window.
EOF
(cd "$root" && find usr -type f | sort | xargs md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 755 {} +
settle "$root"
deb=$dist/toneshaper_${version}_amd64.deb
rm -f "$deb"
# A release is compressed hard (xz -9e: the smallest download, a minute of one core); a
# --from-tree package is only installed and thrown away by Scripts/test-package.sh, so it is
# compressed fast (the same files, the same checks: ~40 s less of every CI run).
if ((from_tree)); then xz_level=(-1) deb_level=(-z1); else xz_level=(-9e) deb_level=(); fi
dpkg-deb --root-owner-group -Zxz "${deb_level[@]}" --build "$root" "$deb" >/dev/null
say "Built $deb ($(stat -c %s "$deb") bytes; Depends: $depends)"

# --- The tarball --------------------------------------------------------------------------

name=toneshaper-$version-linux-x86_64
tree=$stage/tar/$name
say "Laying out the tarball: $name/"
TONESHAPER_BINARY=$binary DESTDIR=$stage/tar-root bash Scripts/install.sh /usr/local >"$stage/install-tar.log" 2>&1 ||
    { cat "$stage/install-tar.log" >&2; die "install.sh failed"; }
rm "$stage/tar-root/usr/local/share/toneshaper/install-manifest"
sed -i '1{/^#!/d}' "$stage/tar-root/usr/local/share/bash-completion/completions/toneshaper"
mkdir -p "$stage/tar"
mv "$stage/tar-root/usr/local" "$tree"
strip_all "$tree"
install -m 755 Scripts/package/tarball-install.sh "$tree/install.sh"
install -m 755 Scripts/package/tarball-uninstall.sh "$tree/uninstall.sh"
sed -e "s/@VERSION@/$version/g" Scripts/package/INSTALL >"$tree/INSTALL"
chmod 644 "$tree/INSTALL"
find "$tree" -type d -exec chmod 755 {} +
settle "$stage/tar"
tarball=$dist/$name.tar.xz
rm -f "$tarball"
tar -C "$stage/tar" --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
    --format=gnu -cf - "$name" | xz "${xz_level[@]}" -T1 >"$tarball"
say "Built $tarball ($(stat -c %s "$tarball") bytes)"

# --- Checks -------------------------------------------------------------------------------

newest() { objdump -T "$1" | grep -oE 'GLIBC_[0-9]+\.[0-9]+(\.[0-9]+)?' | sort -Vu | tail -n 1; }
for file in usr/bin/toneshaper usr/lib/lv2/toneshaper.lv2/toneshaper.so usr/lib/lv2/toneshaper.lv2/toneshaper_ui.so usr/lib/clap/toneshaper.clap \
    usr/lib/vst3/toneshaper.vst3/Contents/x86_64-linux/toneshaper.so; do
    say "  $file: newest glibc symbol $(newest "$root/$file")"
done
if grep -rlF "$src" "$root/usr" >/dev/null 2>&1 && ((!from_tree)); then
    die "the build path $src is inside: $(grep -rlF "$src" "$root/usr" | tr '\n' ' ')"
fi
if command -v lintian >/dev/null; then
    say "lintian $deb"
    lintian --fail-on error,warning --info "$deb" || die "lintian reports an error or a warning"
else
    say "lintian is not installed: skipped (Debian: apt-get install lintian)"
fi
(cd "$dist" && sha256sum "${deb##*/}" "${tarball##*/}")
