// swift-tools-version: 6.1
import PackageDescription

// The render kernel is compiled into one binary several times, once per x86-64 level
// (Sources/ToneShaperKernelV3 and V4 are symbolic links to Sources/ToneShaperKernelBaseline),
// and a level the CPU runs is chosen at start-up from cpuid (`KernelLevel`: the highest the
// CPU has, v4 with AVX-512; TONESHAPER_KERNEL=baseline|v3|v4 forces one). So `swift build -c release` gives the
// same binary on every machine, fast on every x86-64 CPU. The levels target the generic
// x86-64-vN CPUs (no tuning for one vendor): the binary is meant to be copied and packaged.
// The level goes to the compiler as the C importer's -march, which Swift's code generation
// follows (swiftc's own -target-cpu does not know the x86-64-vN names).
//
// The plugins' Embedded builds (Scripts/embedded-modules.sh) read these flags from the
// package graph too (a target's unsafeFlags and defines).
//
// The choice of levels is made where this manifest is compiled, that is for the host: a
// build for arm64 (natively) has the baseline level only.
//
// The compiler proves the render kernel free of allocation and locks (@_noAllocation,
// @_noLocks) only when it sees the whole module at once, as release builds do:
// REALTIME_PROOF turns the proof on there (Scripts/test.sh builds release, so CI checks it
// every run). The DSP is always optimised, so that its tests run fast.
let realtimeProof = SwiftSetting.define("REALTIME_PROOF", .when(configuration: .release))

struct KernelLevelTarget {
    let name: String
    let flags: [String]
    let fusedMultiplyAdd: Bool
}
#if arch(x86_64)
    let kernelLevels = [
        KernelLevelTarget(name: "ToneShaperKernelBaseline", flags: [], fusedMultiplyAdd: false),
        KernelLevelTarget(name: "ToneShaperKernelV3", flags: ["-Xcc", "-march=x86-64-v3"], fusedMultiplyAdd: true),
        KernelLevelTarget(name: "ToneShaperKernelV4", flags: ["-Xcc", "-march=x86-64-v4"], fusedMultiplyAdd: true),
    ]
#else
    // Elsewhere (arm64) one level: the architecture's own baseline, which has FMA and 128-bit vectors.
    let kernelLevels = [KernelLevelTarget(name: "ToneShaperKernelBaseline", flags: [], fusedMultiplyAdd: false)]
#endif

let kernelTargets: [Target] = kernelLevels.map { level in
    .target(
        name: level.name, dependencies: ["ToneShaperDSP", "ToneShaperParameters"],
        swiftSettings: [.unsafeFlags(["-O"] + level.flags), realtimeProof]
            + (level.fusedMultiplyAdd ? [.define("FUSED_MULTIPLY_ADD")] : []))
}

let package = Package(
    name: "ToneShaper",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "toneshaper", targets: ["toneshaper"]),
        .library(name: "ToneShaperControl", targets: ["ToneShaperControl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The web editor's HTTP + WebSocket server (pure Swift, about 45 s of CI build).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: kernelTargets + projectTargets
)

// Every target but the kernel levels (typed, so that the compiler checks the list quickly).
var projectTargets: [Target] {
    [
        // cpuid and xgetbv, to choose the kernel's level.
        .target(name: "CPUFeatures"),
        // The MTS-ESP client's loader: the master's library (libMTS.so) opened at run time,
        // never linked; without it, nothing.
        .target(name: "CMTSESP"),
        // JSON read and written with the standard library alone (no Foundation), so that the
        // LV2 plugin (Embedded Swift) and the node share one reader and one writer of
        // documents. CNumberText: strtod and snprintf, which Embedded Swift cannot call itself.
        .target(name: "CNumberText"),
        .target(name: "ToneShaperJSON", dependencies: ["CNumberText"]),
        // The vocabulary, below everything that plays or keeps a shape: the parameter table
        // (ids, stable numbers and symbols, keys, addresses, options, kinds, units, controller
        // curves, presentation), the refusals, the curve's description, the limits. It
        // imports none of the engine; the engine, the model and every front end read it.
        .target(name: "ToneShaperParameters", dependencies: ["ToneShaperJSON"], swiftSettings: [.unsafeFlags(["-O"]), realtimeProof]),
        // The kernel's plain data and formulas: plans, voices, phase, waves, scalings, the
        // wave tables' read path, the level selection. Below the kernel levels and the engine.
        .target(
            name: "ToneShaperDSP", dependencies: ["CPUFeatures", "ToneShaperParameters"], swiftSettings: [.unsafeFlags(["-O"]), realtimeProof]),
        // The audio side every host links (the JACK node, offline render, the LV2 plugin):
        // the engine, its voices and mix, MIDI performance, the command schedule, the
        // lock-free channels, plan building. No Foundation, Dispatch, existentials, untyped
        // throws or Codable: it builds in Embedded Swift too (Scripts/embedded-check.sh).
        .target(
            name: "ToneShaperAudio",
            dependencies: ["ToneShaperDSP", "ToneShaperParameters", "CMTSESP"] + kernelLevels.map { .target(name: $0.name) },
            swiftSettings: [.unsafeFlags(["-O"]), realtimeProof]),
        // The model every host shares: the shape and its rules (the table's rows bound to it),
        // the document codec, the change planner, and the rule a plugin plays its port values
        // by. It knows nothing of the engine. Embedded Swift compiles it too.
        .target(
            name: "ToneShaperModel", dependencies: ["ToneShaperParameters", "ToneShaperJSON"],
            swiftSettings: [.unsafeFlags(["-O"]), realtimeProof]),
        // The format-neutral plugin core (the LV2 shell and any other format wrap it): one
        // plugin object generic over its host's services (work, answer, log). Its real-time
        // proof is made where it ships, in the plugins' Embedded builds (Scripts/build-lv2.sh
        // defines REALTIME_PROOF), which see every callee's body; a SwiftPM build of this
        // module sees the audio side's only through its interface, too little for the proof.
        .target(
            name: "ToneShaperPlugin",
            dependencies: ["ToneShaperModel", "ToneShaperAudio", "ToneShaperDSP", "ToneShaperParameters", "CPluginSupport"],
            swiftSettings: [.unsafeFlags(["-O"])]),
        // What every plugin shell needs of C (Embedded Swift imports no Glibc): a work
        // thread, a monotonic clock, reading a file, string equality. Header-only.
        .target(name: "CPluginSupport"),
        // The LV2 port layout (indices from the table's numbers and the version each row came
        // in), shared by the Turtle generator and the LV2 shell.
        .target(name: "ToneShaperLV2Layout", dependencies: ["ToneShaperParameters"]),
        // The plugins (Embedded Swift, no Swift runtime shipped). SwiftPM compiles them as it
        // compiles everything else; Scripts/build-lv2.sh and Scripts/build-clap.sh compile the
        // same targets in Embedded Swift and link them into the plugins, reading this graph
        // (`swift package dump-package`, Scripts/embedded-modules.sh): a shell is a target no
        // other target depends on (tests included), and a plugin is its shell and every
        // target below it.
        // Each shell's C (the format's ABI and the helpers Embedded Swift needs) is a C target
        // of its own, header-only (a source file because SwiftPM wants one).
        // The LV2 shell (Scripts/build-lv2.sh; its bundle's .ttl files in Bundle/).
        .target(
            name: "ToneShaperLV2",
            dependencies: ["ToneShaperPlugin", "ToneShaperLV2Layout", "ToneShaperModel", "ToneShaperParameters", "CLV2", "CPluginSupport"],
            exclude: ["Bundle"]),
        .target(name: "CLV2"),
        // The editor window, format-neutral behind EditorLink: Xlib and cairo (CEditor), so
        // only what shows a window links it (the LV2 UI, the CLAP plugin).
        .target(
            name: "ToneShaperEditor", dependencies: ["ToneShaperPlugin", "ToneShaperModel", "ToneShaperParameters", "CEditor", "CPluginSupport"]),
        .target(name: "CEditor", linkerSettings: [.linkedLibrary("X11"), .linkedLibrary("cairo")]),
        // The LV2 plugin's window (ui:X11UI), a shared object of its own (Scripts/build-lv2.sh).
        .target(
            name: "ToneShaperLV2UI",
            dependencies: [
                "ToneShaperEditor", "ToneShaperLV2Layout", "ToneShaperModel", "ToneShaperParameters", "CEditor", "CLV2UI", "CPluginSupport",
            ]),
        .target(name: "CLV2UI"),
        // The CLAP shell (Scripts/build-clap.sh). CCLAP's entry.c (clap_entry, the factory)
        // goes into the plugin alone, compiled by the script with the program's version.
        .target(
            name: "ToneShaperCLAP",
            dependencies: ["ToneShaperPlugin", "ToneShaperEditor", "ToneShaperModel", "ToneShaperParameters", "CCLAP", "CPluginSupport"]),
        .target(name: "CCLAP", exclude: ["entry.c"]),
        // The VST 3 shell (Scripts/build-vst3.sh). CVST3's entry.c (GetPluginFactory, ModuleEntry,
        // ModuleExit, the factory and the objects' interfaces) goes into the bundle alone,
        // compiled by the script with the program's version.
        .target(
            name: "ToneShaperVST3",
            dependencies: [
                "ToneShaperPlugin", "ToneShaperEditor", "ToneShaperModel", "ToneShaperParameters", "CVST3", "CPluginSupport",
            ]),
        .target(name: "CVST3", exclude: ["entry.c"]),
        // The node's control core: commands and their signatures, addresses, the state feed,
        // the controller that turns changes into commands for the audio side, offline render.
        .target(
            name: "ToneShaperControl",
            dependencies: ["ToneShaperModel", "ToneShaperAudio", "ToneShaperDSP", "ToneShaperParameters"],
            swiftSettings: [.unsafeFlags(["-O"]), realtimeProof]),

        // C libraries from Debian, wrapped as system-library modules.
        .systemLibrary(
            name: "CSndFile", pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(
            name: "CJack", pkgConfig: "jack",
            providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(
            name: "CLiblo", pkgConfig: "liblo",
            providers: [.apt(["liblo-dev"])]),
        // No pkgConfig: avahi's .pc adds -D_REENTRANT, which SwiftPM refuses with a warning
        // on every build; the headers are in /usr/include and the module map links it.
        .systemLibrary(name: "CAvahi", providers: [.apt(["libavahi-client-dev"])]),

        // Adapters.
        .target(name: "ToneShaperFiles", dependencies: ["ToneShaperJSON", "ToneShaperModel", "ToneShaperControl", "CSndFile"]),
        // The JACK host. Its process callback is under the real-time proof too, from the
        // callback down (the C calls it makes are audited in RealtimeCalls.swift).
        .target(
            name: "ToneShaperJack",
            dependencies: [
                "ToneShaperAudio",
                "ToneShaperControl", "CJack", "CFutex",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: [realtimeProof]),
        // The futex system calls that let the audio thread wake the control thread.
        .target(name: "CFutex"),
        // What OSC and the web side share on the wire: the access policy (who may control
        // the node) and the OSC packet codec (liblo's, plus bundles).
        .target(name: "ToneShaperWire", dependencies: ["CLiblo"]),
        .target(
            name: "ToneShaperOSC",
            dependencies: [
                "ToneShaperParameters",
                "ToneShaperControl", "ToneShaperWire", "CLiblo",
                .product(name: "Logging", package: "swift-log"),
            ]),

        // The browser editor and OSCQuery: HTTP + WebSocket in front of the controller. The
        // page is embedded in the binary, so an installed program needs no resource folder.
        .target(
            name: "ToneShaperWeb",
            dependencies: [
                "ToneShaperAudio", "ToneShaperJSON", "ToneShaperModel", "ToneShaperParameters",
                "ToneShaperControl", "ToneShaperFiles", "ToneShaperWire", "CAvahi",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [
                .embedInCode("Page/editor.html"), .embedInCode("Page/editor.css"), .embedInCode("Page/editor.js"),
                .embedInCode("Page/curve-view.js"), .embedInCode("Page/curve-editing.js"), .embedInCode("Page/curve-selection.js"),
                .embedInCode("Page/library.js"), .embedInCode("Page/tuning.js"),
            ]),

        // The command line.
        .executableTarget(
            name: "toneshaper",
            dependencies: [
                "ToneShaperAudio", "ToneShaperDSP", "ToneShaperLV2Layout", "ToneShaperModel", "ToneShaperParameters",
                "ToneShaperControl", "ToneShaperFiles", "ToneShaperJack", "ToneShaperOSC", "ToneShaperWeb", "ToneShaperWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // The LV2 bundle's description and the plugin's generated tables, written from the
        // parameter table (format knowledge kept out of the core), and the tool that writes
        // them into Sources/ToneShaperLV2, as DPF's lv2-ttl-generator does.
        .target(name: "ToneShaperLV2Description", dependencies: ["ToneShaperModel", "ToneShaperParameters", "ToneShaperLV2Layout"]),
        .executableTarget(name: "toneshaper-lv2-ttl", dependencies: ["ToneShaperLV2Description"]),

        // Benchmarks of the engine (run: Scripts/bench.sh); measured, never asserted in tests.
        .executableTarget(
            name: "ToneShaperBench",
            dependencies: ["ToneShaperAudio", "ToneShaperDSP", "ToneShaperJSON", "ToneShaperModel", "ToneShaperParameters", "ToneShaperControl"]),

        // Signal measurements shared by the test targets (FFT, zero crossings, levels), and
        // `ChildTest`, which runs one test in a process of its own.
        .target(name: "ToneShaperTestSupport", path: "Tests/ToneShaperTestSupport"),
        // The tests' own JACK clients on the server's timeline: a MIDI sender placing events
        // at frames, and a recorder stamping every block with its frame.
        .target(name: "JackTimeline", dependencies: ["CJack", "ToneShaperTestSupport"], path: "Tests/JackTimeline"),
        // Interposes malloc in the test executable to count allocations on one thread.
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        // A test target per module that has tests of its own; a file that needs several
        // modules is with the highest of them.
        .testTarget(name: "ToneShaperModelTests", dependencies: ["ToneShaperModel", "ToneShaperParameters"]),
        .testTarget(name: "ToneShaperAudioTests", dependencies: ["ToneShaperAudio", "ToneShaperParameters", "ToneShaperTestSupport"]),
        .testTarget(
            name: "ToneShaperPluginTests",
            dependencies: ["ToneShaperPlugin", "ToneShaperControl", "ToneShaperModel", "ToneShaperAudio", "ToneShaperParameters"]),
        .testTarget(
            name: "ToneShaperControlTests",
            dependencies: [
                "ToneShaperControl", "ToneShaperModel", "ToneShaperAudio", "ToneShaperDSP", "ToneShaperParameters", "ToneShaperTestSupport",
                "CAllocationCounter",
            ]
                + kernelLevels.map { .target(name: $0.name) }),
        .testTarget(
            name: "ToneShaperJackTests",
            dependencies: [
                "ToneShaperModel", "ToneShaperParameters",
                "ToneShaperJack", "ToneShaperOSC", "ToneShaperWeb", "ToneShaperWire", "ToneShaperControl", "ToneShaperTestSupport", "toneshaper",
                "JackTimeline",
                "CAllocationCounter",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]),
        .testTarget(
            name: "ToneShaperOSCTests",
            dependencies: [
                "ToneShaperAudio", "ToneShaperModel", "ToneShaperParameters", "ToneShaperOSC", "ToneShaperWire", "ToneShaperControl",
                "ToneShaperTestSupport",
            ]),
        .testTarget(
            name: "ToneShaperWebTests",
            dependencies: [
                "ToneShaperJSON", "ToneShaperParameters",
                "ToneShaperWeb", "ToneShaperWire", "ToneShaperControl", "ToneShaperTestSupport", "toneshaper",
                .product(name: "FlyingFox", package: "FlyingFox"),
            ]),
        .testTarget(name: "ToneShaperJSONTests", dependencies: ["ToneShaperModel", "ToneShaperJSON", "ToneShaperControl"]),
        // The LV2 plugin (linked by Scripts/build-lv2.sh, not by SwiftPM): its generated
        // description, and the plugin in real hosts (lv2_validate, lv2info, jalv, Tests/LV2Host).
        .testTarget(
            name: "ToneShaperLV2Tests",
            dependencies: [
                "ToneShaperAudio", "ToneShaperJSON", "ToneShaperLV2Layout", "ToneShaperModel", "ToneShaperParameters", "ToneShaperControl",
                "ToneShaperLV2Description",
                "ToneShaperTestSupport", "JackTimeline", "toneshaper-lv2-ttl",
                // The browser editor's OSCQuery namespace, for the presentation every front end reads (PresentationTests).
                "ToneShaperWeb",
            ]),
        // The CLAP plugin (linked by Scripts/build-clap.sh, not by SwiftPM) in the project's own
        // CLAP host (Tests/CLAPHost), beside the LV2 plugin and the node's offline renderer, and
        // in a running Qtractor session on a private JACK server (recorded on JACK's timeline).
        .testTarget(
            name: "ToneShaperCLAPTests", dependencies: ["ToneShaperParameters", "ToneShaperControl", "ToneShaperTestSupport", "JackTimeline"]),
        // The VST3 plugin (built by Scripts/build-vst3.sh, not by SwiftPM) in the project's own
        // VST3 host (Tests/VST3Host, its own declarations of the ABI), beside the CLAP plugin, and in pedalboard.
        .testTarget(
            name: "ToneShaperVST3Tests", dependencies: ["ToneShaperParameters", "ToneShaperControl", "ToneShaperTestSupport", "JackTimeline"]),
        .testTarget(
            name: "ToneShaperFilesTests",
            dependencies: ["ToneShaperModel", "ToneShaperParameters", "ToneShaperFiles", "ToneShaperControl", "ToneShaperTestSupport", "toneshaper"]),
    ]
}
