#!/usr/bin/env bash
# Installs what ToneShaper needs on a fresh Debian 12 / Ubuntu machine, then builds it
# (release). Safe to run again: apt is skipped when every package is already installed.
# Run as root, or as a user who may use sudo.
set -euo pipefail
cd "$(dirname "$0")/.."

# Libraries to build against, the JACK server, and the tools the tests and demo use
# (desktop-file-utils: the install test validates the desktop entry; chromium and
# chromium-driver: the browser test of the web editor; libcurl4-openssl-dev: the static
# link of Foundation's networking, which the web server package brings in;
# libavahi-client-dev: announcing the node over mDNS; avahi-utils, avahi-daemon, dbus and
# iproute2: its test, which Scripts/test-mdns.sh gives a private responder; lv2-dev: the
# LV2 headers the plugin is built against and lv2_validate; sordi: what lv2_validate runs;
# lilv-utils: lv2info and lv2bench; jalv: the plugin's tests in a real host; xvfb: a
# display for jalv.gtk3, whose start the quiet-host test reads; qtractor: its plugin
# scanner, the third-party CLAP loader that checks the CLAP plugin's own ABI declarations,
# and a running Qtractor session that plays the CLAP plugin on JACK transport;
# libx11-dev and libcairo2-dev: the editor window, LV2 and CLAP; xdotool: its tests' gestures;
# dpkg-dev, xz-utils, binutils and lintian: Scripts/package.sh; debootstrap: Scripts/test-package.sh;
# ardour: Ardour 7 without its window (ardour7-lua), a DAW the plugins' tests play them in;
# python3: the plugins' build scripts read the package graph with it, Scripts/embedded-graph.py).
packages=(libsndfile1-dev libjack-jackd2-dev liblo-dev jackd2 jack-capture liblo-tools sox desktop-file-utils chromium chromium-driver libcurl4-openssl-dev libavahi-client-dev avahi-utils avahi-daemon dbus iproute2 lv2-dev lilv-utils jalv sordi xvfb qtractor libx11-dev libcairo2-dev xdotool dpkg-dev xz-utils binutils lintian debootstrap ardour python3)

say() { printf '==> %s\n' "$*"; }

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

missing=()
for package in "${packages[@]}"; do
    installed "$package" || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
    say "System packages already installed: ${packages[*]}"
else
    if [[ $(id -u) -eq 0 ]]; then
        as_root=()
    elif command -v sudo >/dev/null; then
        as_root=(sudo)
    else
        echo "setup.sh: need root (or sudo) to install: ${missing[*]}" >&2
        exit 1
    fi
    # jackd2 asks whether to enable real-time priorities; answer "no" in advance so the
    # install never stops at a prompt (the node runs fine without them; see the Installing article in the DocC catalog).
    say "Preseeding jackd2: jackd/tweak_rt_limits = false"
    echo "jackd2 jackd/tweak_rt_limits boolean false" | "${as_root[@]}" debconf-set-selections
    say "apt-get update"
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
    say "apt-get install ${missing[*]}"
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

# Selenium (with websocket-client) drives Chromium in the web editor's browser test.
if python3 -c "import selenium, websocket" 2>/dev/null; then
    say "Python: selenium already installed"
else
    say "python3 -m pip install selenium"
    python3 -m pip install --quiet --disable-pip-version-check selenium
fi

# pedalboard (a scripted JUCE VST3 host) and mido load the VST3 plugin in its test
# (Tests/VST3Host/pedalboard_check.py).
if python3 -c "import pedalboard, mido" 2>/dev/null; then
    say "Python: pedalboard already installed"
else
    say "python3 -m pip install pedalboard mido"
    python3 -m pip install --quiet --disable-pip-version-check pedalboard mido
fi

if ! command -v swift >/dev/null; then
    echo "setup.sh: the Swift toolchain (6.3 or later) is not on PATH; install it from swift.org and run this again" >&2
    exit 1
fi
say "Swift: $(swift --version 2>&1 | head -n 1)"

# The Swift runtime and Foundation linked in statically: the node then maps only the parts
# it uses, which keeps its resident memory under 20 MB (the Speed article in the DocC catalog).
say "swift build -c release --static-swift-stdlib"
swift build -c release --static-swift-stdlib
say "Built $(swift build -c release --show-bin-path)/toneshaper"
