#!/usr/bin/env python3
"""The package graph as the Embedded builds read it (Scripts/embedded-modules.sh runs this).

Reads `swift package dump-package` JSON on standard input and prints, one module a line in
dependency order (every module after those it imports), the modules asked for:

  embedded-graph.py closure TARGET...   TARGET and every target below it
  embedded-graph.py shells              the shells: the Swift library targets no target
                                        depends on (test targets included)
  embedded-graph.py check               below the shells, what needs no system library:
                                        the modules Scripts/embedded-check.sh compiles

A line is `swift|NAME|FLAGS|SOURCES|IMPORTS` or `c|NAME|FLAGS|SOURCES|HEADERS|LIBRARIES|INCLUDE`
(each field's words separated by spaces): the extra compiler flags the target's settings
give for a release build on Linux (unsafeFlags, defines), but those every Embedded module
has already (EMBEDDED_COMMON in the environment, e.g. "-O -D REALTIME_PROOF"); its Swift
or C sources; a C target's public headers, the libraries it links (linkerSettings) and
its include folder; a Swift target's direct dependencies (what must be compiled before it,
so that modules that do not need each other compile at once). A setting or a target it cannot translate stops it: nothing is
dropped silently.
"""

import json
import os
import sys


def fail(message):
    sys.stderr.write(f"embedded-graph.py: {message}\n")
    sys.exit(1)


package = json.load(sys.stdin)
targets = {target["name"]: target for target in package["targets"]}
common = os.environ.get("EMBEDDED_COMMON", "").split()
# The common flags that stand alone (not -D and its name): an unsafe flag among them is left out.
common_flags = {flag for i, flag in enumerate(common) if flag != "-D" and (i == 0 or common[i - 1] != "-D")}


def directory(target):
    return target.get("path") or os.path.join("Sources", target["name"])


def files(target, suffixes, under=None):
    """The target's files with one of the suffixes (symbolic links followed, as SwiftPM
    follows them), less its exclusions, in the order `find | LC_ALL=C sort` gives."""
    root = directory(target)
    if target.get("sources") is not None:
        fail(f"{target['name']}: a target's sources: list is not read (its folder, less exclude:, is)")
    start = os.path.join(root, under) if under else root
    excluded = [os.path.normpath(os.path.join(root, path)) for path in target.get("exclude", [])]
    found = []
    for folder, folders, names in os.walk(start, followlinks=True):
        folders[:] = [name for name in folders if os.path.normpath(os.path.join(folder, name)) not in excluded]
        for name in names:
            path = os.path.join(folder, name)
            if name.endswith(suffixes) and os.path.normpath(path) not in excluded:
                found.append(path)
    return sorted(found, key=lambda path: path.encode())


def is_swift(target):
    return target["type"] in ("regular", "executable", "test") and bool(files(target, (".swift",)))


def dependencies(target, products_allowed=False):
    names = []
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        if kind == "product" and products_allowed:
            continue
        if kind == "product":
            fail(f"{target['name']} depends on product {value[0]}: the Embedded builds compile this package's targets only")
        names.append(value[0])
    return names


def applies(setting):
    """Whether a setting holds for the Embedded builds: release, Linux."""
    condition = setting.get("condition")
    if not condition:
        return True
    platforms = condition.get("platformNames") or []
    if platforms and "linux" not in platforms:
        return False
    return condition.get("config") in (None, "release")


def common_has_define(name):
    return any(common[i] == "-D" and common[i + 1] == name for i in range(len(common) - 1)) or f"-D{name}" in common


def flags(target, tool):
    """The extra compiler flags of the target's settings for `tool` (swift or c)."""
    result = []
    for setting in target["settings"]:
        if setting["tool"] != tool or not applies(setting):
            continue
        kind, value = next(iter(setting["kind"].items()))
        value = value["_0"] if isinstance(value, dict) else value
        if kind == "unsafeFlags":
            result += [flag for flag in value if flag not in common_flags]
        elif kind == "define":
            if not common_has_define(value):
                result += ["-D", value]
        elif kind == "headerSearchPath" and tool == "c":
            result += ["-I", os.path.join(directory(target), value)]
        else:
            fail(f"{target['name']}: the {tool} setting {kind} has no Embedded translation (add one in Scripts/embedded-graph.py)")
    return result


def libraries(target):
    result = []
    for setting in target["settings"]:
        if setting["tool"] != "linker" or not applies(setting):
            continue
        kind, value = next(iter(setting["kind"].items()))
        value = value["_0"] if isinstance(value, dict) else value
        if kind != "linkedLibrary":
            fail(f"{target['name']}: the linker setting {kind} has no Embedded translation")
        result.append(value)
    return result


def order(roots):
    """roots and every target below them, each after its dependencies."""
    seen, result = set(), []

    def visit(name, path):
        if name in path:
            fail("a dependency cycle: " + " -> ".join(path + [name]))
        if name in seen:
            return
        if name not in targets:
            fail(f"no target {name} in Package.swift")
        for dependency in dependencies(targets[name]):
            visit(dependency, path + [name])
        seen.add(name)
        result.append(name)

    for root in roots:
        visit(root, [])
    return result


def shells():
    used = {name for target in package["targets"] for name in dependencies(target, products_allowed=True)}
    return [
        target["name"] for target in package["targets"]
        if target["type"] == "regular" and target["name"] not in used and is_swift(target)
    ]


def line(name):
    target = targets[name]
    if target["type"] == "system":
        fail(f"{name} is a system library target: give the Embedded builds a C target (headers in include/, linkerSettings)")
    if target["type"] != "regular":
        fail(f"{name} is a {target['type']} target: the Embedded builds compile library targets only")
    if is_swift(target):
        fields = [" ".join(flags(target, "swift")), " ".join(files(target, (".swift",))), " ".join(dependencies(target))]
        return "|".join(["swift", name] + fields)
    include = target.get("publicHeadersPath") or "include"
    include_folder = os.path.normpath(os.path.join(directory(target), include))
    sources = [path for path in files(target, (".c",)) if not os.path.normpath(path).startswith(include_folder + os.sep)]
    headers = files(target, (".h",), under=include)
    if not headers:
        fail(f"{name}: no headers in {include_folder}")
    fields = [" ".join(flags(target, "c")), " ".join(sources), " ".join(headers), " ".join(libraries(target))]
    return "|".join(["c", name] + fields + [include_folder])


def main(arguments):
    if not arguments:
        fail("usage: embedded-graph.py closure TARGET... | shells | check")
    command, names = arguments[0], arguments[1:]
    if command == "closure" and names:
        modules = order(names)
    elif command == "shells":
        modules = shells()
    elif command == "check":
        every = shells()
        below = [name for name in order(every) if name not in every]
        # What links a system library (the editor window: Xlib, cairo) needs its headers: left out.
        modules = [
            name for name in below
            if is_swift(targets[name]) and not any(libraries(targets[under]) for under in order([name]))
        ]
        modules = order(modules)
    else:
        fail(f"unknown command {' '.join(arguments)}")
    for name in modules:
        print(line(name) if command != "shells" else name)


main(sys.argv[1:])
