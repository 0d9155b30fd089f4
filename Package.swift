// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The DSP core is compiled for the CPU of the machine that builds it (AVX2/AVX-512 and FMA
// where present), as audio software built from source usually is: the render kernel is
// several times faster than with the portable x86-64 baseline. TONESHAPER_PORTABLE=1 at
// build time gives a binary that runs on any CPU of the architecture.
let portable = Context.environment["TONESHAPER_PORTABLE"] != nil
// Fused multiply-add in the kernel's polynomials only where the CPU does it in one
// instruction: elsewhere each would be a call into libm's software fma.
let hostHasFMA: Bool = {
    #if os(Linux) && arch(x86_64)
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return false }
    return info.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").contains("fma") ?? false
    #else
    return true     // arm64 always has it
    #endif
}()
var coreSettings: [SwiftSetting] = [
    .unsafeFlags(portable ? ["-O"] : ["-O", "-target-cpu", "native"]),
    .define("REALTIME_PROOF", .when(configuration: .release)),
]
if !portable && hostHasFMA { coreSettings.append(.define("FUSED_MULTIPLY_ADD")) }

let package = Package(
    name: "ToneShaper",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "toneshaper", targets: ["toneshaper"]),
        .library(name: "ToneShaperCore", targets: ["ToneShaperCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The web editor's HTTP + WebSocket server (pure Swift, about 45 s of CI build).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // Pure DSP: documents, curve, integrator, waves, scalings, echo, renderer.
        // Always optimised, so the DSP tests run fast. The compiler proves the render
        // kernel free of allocation and locks (@_noAllocation, @_noLocks) only when it sees
        // the whole module at once, as release builds do: REALTIME_PROOF turns the proof on
        // there (Scripts/test.sh builds release, so CI checks it every run).
        .target(name: "ToneShaperCore", swiftSettings: coreSettings),

        // C libraries from Debian, wrapped as system-library modules.
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CJack", pkgConfig: "jack",
                       providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CLiblo", pkgConfig: "liblo",
                       providers: [.apt(["liblo-dev"])]),
        // No pkgConfig: avahi's .pc adds -D_REENTRANT, which SwiftPM refuses with a warning
        // on every build; the headers are in /usr/include and the module map links it.
        .systemLibrary(name: "CAvahi", providers: [.apt(["libavahi-client-dev"])]),

        // Adapters.
        .target(name: "ToneShaperFiles", dependencies: ["ToneShaperCore", "CSndFile"]),
        .target(name: "ToneShaperJack", dependencies: [
            "ToneShaperCore", "CJack",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "ToneShaperOSC", dependencies: [
            "ToneShaperCore", "CLiblo",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The browser editor and OSCQuery: HTTP + WebSocket in front of the controller. The
        // page is embedded in the binary, so an installed program needs no resource folder.
        .target(name: "ToneShaperWeb", dependencies: [
            "ToneShaperCore", "ToneShaperFiles", "ToneShaperOSC", "CAvahi",
            .product(name: "FlyingFox", package: "FlyingFox"),
            .product(name: "Logging", package: "swift-log"),
        ], resources: [
            .embedInCode("Page/editor.html"), .embedInCode("Page/editor.css"), .embedInCode("Page/editor.js"),
        ]),

        // The command line.
        .executableTarget(name: "toneshaper", dependencies: [
            "ToneShaperCore", "ToneShaperFiles", "ToneShaperJack", "ToneShaperOSC", "ToneShaperWeb",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Benchmarks of the engine (run: Scripts/bench.sh); measured, never asserted in tests.
        .executableTarget(name: "ToneShaperBench", dependencies: ["ToneShaperCore"]),

        // Signal measurements shared by the test targets (FFT, zero crossings, levels).
        .target(name: "ToneShaperTestSupport", path: "Tests/ToneShaperTestSupport"),
        // Interposes malloc in the test executable to count allocations on one thread.
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        .testTarget(name: "ToneShaperCoreTests", dependencies: ["ToneShaperCore", "ToneShaperTestSupport", "CAllocationCounter"]),
        .testTarget(name: "ToneShaperJackTests", dependencies: ["ToneShaperJack", "ToneShaperOSC", "ToneShaperWeb", "ToneShaperCore", "ToneShaperTestSupport", "toneshaper", "CAllocationCounter"]),
        .testTarget(name: "ToneShaperOSCTests", dependencies: ["ToneShaperOSC", "ToneShaperCore"]),
        .testTarget(name: "ToneShaperWebTests", dependencies: ["ToneShaperWeb", "ToneShaperCore", "ToneShaperTestSupport", "toneshaper"]),
        .testTarget(name: "ToneShaperFilesTests", dependencies: ["ToneShaperFiles", "ToneShaperCore", "ToneShaperTestSupport", "toneshaper"]),
    ]
)
