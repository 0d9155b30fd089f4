#!/usr/bin/env bash
# Tests the packages Scripts/package.sh makes where no Swift is: in clean Debian roots made
# by debootstrap (--variant=minbase, from Debian's mirror), as a user who downloads them.
#
#   bash Scripts/test-package.sh                 # packages this working tree's builds first
#                                                # (Scripts/package.sh --from-tree), as CI does
#   bash Scripts/test-package.sh DEB TARBALL     # or tests the two files given
#
# Debian 12 (bookworm): `apt-get install ./toneshaper_*.deb` must pull in every dependency;
# then `toneshaper render` writes a WAV whose pitch is measured, `lv2info` lists the LV2
# plugin's ports, and the project's C test hosts (Tests/LV2Host, Tests/CLAPHost, compiled
# here, outside the root) play a note through the installed LV2 .so and .clap; `apt-get
# purge` (and autoremove) must leave the root's files as they were before the install.
# Debian 11 (bullseye): the tarball's install.sh for one user (~/.local, ~/.lv2, ~/.clap),
# the same hosts on the plugins there (glibc 2.31), every plugin object loaded with all its
# references bound (ldd -r), then uninstall.sh must leave HOME empty.
# The program needs glibc 2.35, so it is not run there.
#
# The roots are cached in /var/cache/toneshaper-tests/package-roots (TONESHAPER_PACKAGE_ROOTS
# names another place; made once a machine, with the few tools the test needs: lilv-utils),
# with the .deb files apt downloads; each run works on a copy, so the cache stays clean. The
# cache lives outside the checkout so that every fresh clone on a machine (CI's) reuses it:
# under .build/ each clone downloaded both roots again (about 2.5 minutes).
# /proc is mounted in the copy while the test runs and always unmounted.
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$PWD

say() { printf '==> %s\n' "$*"; }
fail() { printf 'test-package.sh: FAILED: %s\n' "$*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || fail "needs root (debootstrap, chroot, mount): run it with sudo"
for tool in debootstrap chroot mount cc python3; do
    command -v "$tool" >/dev/null || fail "$tool is missing (bash Scripts/setup.sh installs it)"
done
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
started=$SECONDS

if (($# == 2)); then
    deb=$(realpath "$1") tarball=$(realpath "$2")
elif (($# == 0)); then
    say "Scripts/package.sh --from-tree"
    bash Scripts/package.sh --from-tree
    deb=$(ls -t .build-pkg/tree-dist/toneshaper_*_amd64.deb | sed -n 1p)
    tarball=$(ls -t .build-pkg/tree-dist/toneshaper-*-linux-x86_64.tar.xz | sed -n 1p)
else
    fail "usage: test-package.sh [DEB TARBALL]"
fi
[[ -f $deb && -f $tarball ]] || fail "no package to test"
version=$(dpkg-deb -f "$deb" Version)

cache=${TONESHAPER_PACKAGE_ROOTS:-/var/cache/toneshaper-tests/package-roots}
work=$repository/.build/package-test
mounted=()
cleanup() {
    local point
    for point in "${mounted[@]+"${mounted[@]}"}"; do umount -l "$point" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
rm -rf "$work"
mkdir -p "$cache" "$work"

# in_root ROOT COMMAND...: runs a shell command line in the root, with a clean environment.
in_root() {
    local root=$1
    shift
    chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/bash -euo pipefail -c "$*"
}

# Sets root: a root of release $1, from the cache (made on the first run): a copy under
# $work, its /proc mounted, the apt archive shared with the cache's.
root_of() {
    local release=$1 base=$cache/$1
    root=$work/$1
    if [[ ! -f $base/.complete ]]; then
        say "debootstrap --variant=minbase $release (once; cached in $base)"
        rm -rf "$base"
        debootstrap --variant=minbase "$release" "$base" "$mirror" >"$cache/$release.log" 2>&1 ||
            { tail -n 30 "$cache/$release.log" >&2; fail "debootstrap $release"; }
        in_root "$base" "apt-get -q update && apt-get -qy install --no-install-recommends lilv-utils && apt-get clean" \
            >>"$cache/$release.log" 2>&1 || { tail -n 30 "$cache/$release.log" >&2; fail "installing lilv-utils in $release"; }
        touch "$base/.complete"
    fi
    cp -a "$base" "$root"
    mkdir -p "$cache/$release-archives/partial"
    mount --bind "$cache/$release-archives" "$root/var/cache/apt/archives"
    mounted=("$root/var/cache/apt/archives" "${mounted[@]+"${mounted[@]}"}")
    mount -t proc proc "$root/proc"
    mounted=("$root/proc" "${mounted[@]}")
}

unmount_root() {
    local point kept=()
    for point in "${mounted[@]+"${mounted[@]}"}"; do
        if [[ $point == "$1"/* ]]; then umount "$point"; else kept+=("$point"); fi
    done
    mounted=("${kept[@]+"${kept[@]}"}")
}

# The root's files, for the before-and-after comparison (apt's and dpkg's own records,
# logs and caches aside).
files_of() {
    (cd "$1" && find . -xdev \( -path ./proc -o -path ./tmp -o -path ./var/cache -o -path ./var/log -o -path ./var/lib/apt \
        -o -path ./var/lib/dpkg -o -path ./root -o -path ./.complete \) -prune -o -print | sort)
}

# The C test hosts, compiled here (the roots have no compiler) with the plugins' glibc shim,
# so that they run with glibc 2.31 too.
say "Compiling the test hosts (Tests/LV2Host/lv2host.c, Tests/CLAPHost/claphost.c)"
source Scripts/plugin-compat.sh
mkdir -p "$work/hosts"
plugin_compat "$work/hosts"
cc -O1 -o "$work/hosts/lv2host" Tests/LV2Host/lv2host.c "${PLUGIN_COMPAT_LINK[@]}" -ldl -lm -lpthread "${PLUGIN_COMPAT_LIBS[@]}" -l:libdl.so.2
cc -O1 -std=gnu11 -o "$work/hosts/claphost" Tests/CLAPHost/claphost.c "${PLUGIN_COMPAT_LINK[@]}" \
    -ldl -lm -lpthread -lX11 "${PLUGIN_COMPAT_LIBS[@]}" -l:libdl.so.2
for host in lv2host claphost; do
    plugin_compat_check "$work/hosts/$host" || fail "$host would not run with glibc $PLUGIN_GLIBC"
done

# The pitch of a mono 16-bit WAV by its zero crossings, in Hz.
pitch_of() {
    python3 - "$1" <<'PY'
import struct, sys, wave
w = wave.open(sys.argv[1])
assert w.getsampwidth() == 2, "not 16-bit"
n, channels, rate = w.getnframes(), w.getnchannels(), w.getframerate()
data = struct.unpack("<%dh" % (n * channels), w.readframes(n))[::channels]
crossings = [i for i in range(1, len(data)) if data[i - 1] < 0 <= data[i]]
print("%.2f" % ((len(crossings) - 1) * rate / (crossings[-1] - crossings[0])))
PY
}

# Plays a note through the plugins installed at $2 (LV2 bundle folder) and $3 (.clap) in
# root $1, with the hosts copied in; checks that it sounds and nothing is out of range.
play_plugins() {
    local root=$1 bundle=$2 clap=$3 report
    cp "$work/hosts/lv2host" "$work/hosts/claphost" "$root/tmp/"
    report=$(in_root "$root" "/tmp/lv2host --so $bundle/toneshaper.so --uri urn:toneshaper:instrument --frames 48000 --note 0:69:100 --out /tmp/lv2.raw") ||
        fail "lv2host on $bundle/toneshaper.so: $report"
    grep -qx 'nonfinite: 0' <<<"$report" && grep -qx 'out_of_range: 0' <<<"$report" || fail "lv2host: $report"
    grep -Eq '^first_nonzero: [0-9]+$' <<<"$report" || fail "the LV2 plugin played nothing: $report"
    say "  LV2: $(grep -E '^(peak|first_nonzero|log_errors):' <<<"$report" | tr '\n' ' ')"
    report=$(in_root "$root" "/tmp/claphost --clap $clap --frames 48000 --note 0:69:100 --out /tmp/clap.raw") ||
        fail "claphost on $clap: $report"
    grep -qx 'nonfinite: 0' <<<"$report" && grep -qx 'out_of_range: 0' <<<"$report" || fail "claphost: $report"
    grep -Eq '^first_nonzero: [0-9]+$' <<<"$report" || fail "the CLAP plugin played nothing: $report"
    say "  CLAP: $(grep -E '^(peak|first_nonzero):' <<<"$report" | tr '\n' ' ')"
}

# --- Debian 12: the package ---------------------------------------------------------------

say "Debian 12 (bookworm): apt-get install ./${deb##*/}"
root_of bookworm
before=$(files_of "$root")
cp "$deb" "$root/tmp/"
in_root "$root" "! command -v swift >/dev/null && ! command -v swiftc >/dev/null" || fail "the root has Swift"
in_root "$root" "apt-get -q update >/dev/null && apt-get -qy install --no-install-recommends /tmp/${deb##*/}" >"$work/apt-install.log" 2>&1 ||
    { tail -n 30 "$work/apt-install.log" >&2; fail "apt-get install ./${deb##*/}"; }
say "  installed with its dependencies: $(grep -c '^Setting up ' "$work/apt-install.log") packages set up"
[[ $(in_root "$root" "toneshaper --version") == "$version" ]] || fail "toneshaper --version is not $version"
in_root "$root" "cd /tmp && toneshaper render siren -o siren.wav --cycles 1 && toneshaper render siren -o a440.wav --seconds 1 \
    --min-frequency 440 --max-frequency 440 --wave Sine --sample-format s16" || fail "toneshaper render"
[[ -s $root/tmp/siren.wav ]] || fail "toneshaper render siren wrote nothing"
pitch=$(pitch_of "$root/tmp/a440.wav")
python3 -c "import sys; sys.exit(abs($pitch - 440) > 1)" || fail "the siren held at 440 Hz plays at $pitch Hz"
say "  toneshaper render: siren.wav ($(stat -c %s "$root/tmp/siren.wav") bytes); held at 440 Hz it plays at $pitch Hz"
ports=$(in_root "$root" "lv2info urn:toneshaper:instrument") || fail "lv2info urn:toneshaper:instrument"
port_count=$(grep -c '^[[:space:]]*Port [0-9]*:' <<<"$ports") || true
grep -q 'Symbol:[[:space:]]*out$' <<<"$ports" && ((port_count > 10)) || fail "lv2info lists no ports: $ports"
say "  lv2info urn:toneshaper:instrument: $port_count ports, $(grep -m 1 'Author Email:' <<<"$ports" | xargs)"
play_plugins "$root" /usr/lib/lv2/toneshaper.lv2 /usr/lib/clap/toneshaper.clap
rm -f "$root"/tmp/*
in_root "$root" "apt-get -qy purge toneshaper && apt-get -qy autoremove --purge" >"$work/apt-remove.log" 2>&1 ||
    { tail -n 30 "$work/apt-remove.log" >&2; fail "apt-get purge toneshaper"; }
after=$(files_of "$root")
[[ $before == "$after" ]] || fail "apt-get purge and autoremove left the root changed:
$(diff <(echo "$before") <(echo "$after") || true)"
say "  apt-get purge toneshaper, autoremove --purge: the root's files are as before the install"
unmount_root "$root"

# --- Debian 11: the tarball, for one user -------------------------------------------------

say "Debian 11 (bullseye): ${tarball##*/}, ./install.sh for one user"
root_of bullseye
in_root "$root" "apt-get -q update >/dev/null && apt-get -qy install --no-install-recommends libcairo2 libx11-6" >"$work/apt-bullseye.log" 2>&1 ||
    { tail -n 30 "$work/apt-bullseye.log" >&2; fail "apt-get install libcairo2 libx11-6 in bullseye"; }
in_root "$root" "useradd -m -s /bin/bash player"
tar -xJf "$tarball" -C "$root/tmp"
folder=$(basename "$tarball" .tar.xz)
in_root "$root" "chown -R player: /tmp/$folder"
as_player() { in_root "$root" "su player -s /bin/bash -c '$*'"; }
as_player "cd /tmp/$folder && ./install.sh" || fail "the tarball's install.sh"
home=$root/home/player
for file in .local/bin/toneshaper .lv2/toneshaper.lv2/toneshaper.so .lv2/toneshaper.lv2/toneshaper_ui.so .lv2/toneshaper.lv2/manifest.ttl \
    .clap/toneshaper.clap .local/share/man/man1/toneshaper.1 .local/share/applications/toneshaper.desktop; do
    [[ -f $home/$file ]] || fail "the tarball's install.sh did not install ~/$file"
done
grep -qx 'Exec=/home/player/.local/bin/toneshaper run' "$home/.local/share/applications/toneshaper.desktop" ||
    fail "the menu entry does not name ~/.local/bin/toneshaper"
ports=$(as_player "lv2info urn:toneshaper:instrument") || fail "lv2info in bullseye"
grep -q 'Symbol:[[:space:]]*out$' <<<"$ports" || fail "lv2info lists no ports in bullseye: $ports"
say "  lv2info finds the plugin in ~/.lv2 ($(grep -c '^[[:space:]]*Port [0-9]*:' <<<"$ports") ports)"
play_plugins "$root" /home/player/.lv2/toneshaper.lv2 /home/player/.clap/toneshaper.clap
# Each shared object loaded with every reference bound (the editor window's too, which no
# host here opens): a glibc symbol too new, or a library missing, is reported by ldd -r.
for object in .lv2/toneshaper.lv2/toneshaper.so .lv2/toneshaper.lv2/toneshaper_ui.so .clap/toneshaper.clap; do
    report=$(in_root "$root" "ldd -r /home/player/$object 2>&1")
    ! grep -Eq 'not found|undefined symbol|version .GLIBC' <<<"$report" || fail "~/$object does not load in bullseye: $report"
done
say "  ldd -r: the LV2 plugin, its editor window and the CLAP plugin load with glibc $(in_root "$root" "ldd --version" | sed -n '1s/.* //p')"
as_player "cd /tmp/$folder && ./uninstall.sh" || fail "the tarball's uninstall.sh"
left=$(cd "$home" && find . -mindepth 1 ! -name '.bash*' ! -name .profile ! -path './.cache*' | sort)
[[ -z $left ]] || fail "uninstall.sh left in HOME: $left"
say "  ./uninstall.sh: nothing left in HOME"
unmount_root "$root"

say "Packages tested in clean Debian 12 and 11 roots ($((SECONDS - started)) s)"
