# What Scripts/build-lv2.sh and Scripts/build-clap.sh link into every plugin so that it loads
# with glibc 2.31 (Debian 11) although built on a newer system (sourced by them, not run on
# its own). Sources/PluginCompat/glibc_compat.c says how.

# The oldest glibc the plugins must load with.
PLUGIN_GLIBC=2.31

# Compiles the shim into directory $1 and sets PLUGIN_COMPAT_LINK: its object and a
# -Wl,--wrap=NAME for each function it redirects to an older version.
plugin_compat() {
    local source=Sources/PluginCompat/glibc_compat.c name
    cc -std=gnu11 -O2 -fPIC -ffunction-sections -Wall -Wextra -Werror -ffile-prefix-map="$PWD"=. -c "$source" -o "$1/glibc_compat.o"
    PLUGIN_COMPAT_LINK=("$1/glibc_compat.o")
    for name in $(sed -n 's/^TONESHAPER_OLD(\([A-Za-z0-9_]*\),.*/\1/p' "$source"); do
        PLUGIN_COMPAT_LINK+=("-Wl,--wrap=$name")
    done
}

# Before glibc 2.34 the threads were in libpthread.so.0 (and dlopen in libdl.so.2), which a
# link on a newer system leaves out (-lpthread is empty there): what starts threads names
# it, so that an older system loads it. The MTS-ESP client (Sources/CMTSESP) calls dlopen.
PLUGIN_COMPAT_LIBS=(-Wl,--no-as-needed -l:libpthread.so.0 -l:libdl.so.2)

# Fails (prints the symbols) if shared object $1 needs a glibc symbol newer than PLUGIN_GLIBC.
plugin_compat_check() {
    local newer
    newer=$(objdump -T "$1" | awk -v limit="$PLUGIN_GLIBC" '
        match($0, /GLIBC_[0-9]+(\.[0-9]+)+/) {
            split(substr($0, RSTART + 6, RLENGTH - 6), v, "."); split(limit, l, ".")
            if (v[1] + 0 > l[1] + 0 || (v[1] + 0 == l[1] + 0 && v[2] + 0 > l[2] + 0)) print $NF " " substr($0, RSTART, RLENGTH)
        }')
    if [[ -n $newer ]]; then
        printf '%s needs glibc symbols newer than %s (add them to Sources/PluginCompat/glibc_compat.c):\n%s\n' "$1" "$PLUGIN_GLIBC" "$newer" >&2
        return 1
    fi
}
