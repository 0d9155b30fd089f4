#!/usr/bin/env bash
# An mDNS responder for the test run, so the node's announcement (OSCQuery and OSC over
# avahi) is tested in CI too:
#   bash Scripts/test-mdns.sh start   # prints what it did; nothing when avahi-daemon runs already
#   bash Scripts/test-mdns.sh stop    # stops only what start started
# When no avahi-daemon answers and we are root (CI, containers), start starts a system
# D-Bus if there is none, and avahi-daemon inside a network namespace of its own whose only
# interface is loopback (multicast on): its mDNS packets never leave the machine, while the
# node and avahi-browse reach it over D-Bus, a Unix socket that no namespace hides.
# Not root, or no `ip`: nothing is started and the mDNS test says why it is skipped.
set -euo pipefail

state=${TONESHAPER_MDNS_STATE:-/tmp/toneshaper-test-mdns}
say() { printf '==> %s\n' "$*"; }

start() {
    if avahi-daemon -c 2>/dev/null; then
        say "mDNS: avahi-daemon is running already; the mDNS test uses it"
        return 0
    fi
    if [[ $(id -u) -ne 0 ]] || ! command -v ip >/dev/null || ! command -v avahi-daemon >/dev/null || ! command -v dbus-daemon >/dev/null; then
        say "mDNS: no avahi-daemon runs, and starting one needs root, ip, avahi-daemon and dbus-daemon: the mDNS test will be skipped"
        return 0
    fi
    rm -rf "$state"
    mkdir -p "$state"
    if ! dbus-send --system --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetId >/dev/null 2>&1; then
        # None answers: a socket or pid file left is stale (a bus killed without cleaning up).
        rm -f /run/dbus/system_bus_socket /run/dbus/pid
        mkdir -p /run/dbus
        dbus-daemon --system --fork --print-pid >"$state/dbus.pid"
        say "mDNS: started a system D-Bus for the run (pid $(cat "$state/dbus.pid"))"
    fi
    local namespace="toneshaper-mdns-$$"
    ip netns add "$namespace"
    echo "$namespace" >"$state/netns"
    ip -n "$namespace" link set lo multicast on
    ip -n "$namespace" link set lo up
    cat >"$state/avahi-daemon.conf" <<'EOF'
[server]
allow-interfaces=lo
use-ipv4=yes
use-ipv6=no
enable-dbus=yes
ratelimit-interval-usec=1000000
ratelimit-burst=1000
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
EOF
    ip netns exec "$namespace" avahi-daemon --daemonize --no-chroot --no-rlimits --file "$state/avahi-daemon.conf"
    # Running once it has its host name (a second or two of probing).
    for _ in $(seq 1 50); do
        if avahi-daemon -c 2>/dev/null && avahi-resolve-host-name -4 "$(hostname).local" >/dev/null 2>&1; then
            say "mDNS: started avahi-daemon for the run, in network namespace $namespace (loopback only)"
            return 0
        fi
        sleep 0.2
    done
    echo "test-mdns.sh: avahi-daemon did not come up in 10 s; the mDNS test will be skipped" >&2
    stop
}

stop() {
    [[ -d "$state" ]] || return 0
    if [[ -f "$state/netns" ]]; then
        avahi-daemon --kill 2>/dev/null || true
        ip netns del "$(cat "$state/netns")" 2>/dev/null || true
    fi
    if [[ -f "$state/dbus.pid" ]]; then
        kill "$(cat "$state/dbus.pid")" 2>/dev/null || true
        rm -f /run/dbus/system_bus_socket /run/dbus/pid
    fi
    rm -rf "$state"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
*)
    echo "usage: bash Scripts/test-mdns.sh start|stop" >&2
    exit 2
    ;;
esac
