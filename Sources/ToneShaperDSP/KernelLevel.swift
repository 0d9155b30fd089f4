import CPUFeatures

/// The instruction-set levels the render kernel is compiled for. One binary holds the kernel
/// several times (the `ToneShaperKernel*` modules: one source, different compiler flags); a
/// level this CPU runs is chosen once, at start-up, and stamped into every `RenderPlan`.
///
/// The rule (`automatic`): the highest level the CPU runs, so v4 where it has AVX-512 (F, BW,
/// CD, DQ and VL, with the OS saving their registers), v3 where it has AVX2 and FMA, else the
/// baseline. `TONESHAPER_KERNEL` forces a level the CPU runs. v4 was measured against v3 on
/// both vendors' AVX-512 parts (`Scripts/bench.sh engine`, which shows every level side by
/// side): on an Intel Xeon (Sapphire Rapids) it was faster on 16 of 21 rows, by up to 30% on
/// the per-sample curve and 9-15% on the anti-aliased waves, and up to 3% slower on the
/// Fourier rows; on an AMD EPYC (Zen 4) faster on 19 of 21 (the triangle by 10%, the sine
/// with echo by 5%) and even on the other two (the Speed article, "Kernel levels").
///
/// - `baseline`: x86-64 as every 64-bit x86 CPU runs it (SSE2), or arm64.
/// - `v3`: x86-64-v3 (AVX2, FMA, BMI2; Intel Haswell and later, AMD Zen and later).
/// - `v4`: x86-64-v4 (v3 plus AVX-512 F/BW/CD/DQ/VL; Intel Skylake-SP and later Xeons, AMD Zen 4).
///   Compiled for 256-bit vectors as the compiler prefers for these CPUs: what it adds is
///   AVX-512's conversions between 64-bit integers and floats, masks and compares, not the
///   512-bit width, whose clock penalty on some Intel parts would cost more than it gives.
public enum KernelLevel: String, CaseIterable, Sendable, Comparable {
    case baseline
    case v3
    case v4

    /// The environment variable that forces a level: `TONESHAPER_KERNEL=baseline|v3|v4`.
    public static let environmentVariable = "TONESHAPER_KERNEL"

    /// The levels this binary holds and this CPU runs, lowest first.
    public static let available: [KernelLevel] = {
        #if arch(x86_64)
            var levels: [KernelLevel] = [.baseline]
            if toneshaper_cpu_has_x86_64_v3() != 0 { levels.append(.v3) }
            if toneshaper_cpu_has_x86_64_v4() != 0 { levels.append(.v4) }
            return levels
        #else
            return [.baseline]
        #endif
    }()

    /// `automatic`, unless `TONESHAPER_KERNEL` names another available level. Decided once,
    /// on first use (on the control side: plans are made there).
    public static let selected: KernelLevel = choose(forced: environmentValue()).level

    /// The level chosen when none is forced: the highest this CPU runs.
    public static var automatic: KernelLevel { available.last ?? .baseline }

    /// What `selected` is made of, and why: a forced level the CPU cannot run, or a name
    /// that is no level, falls back to `automatic` with a reason (shown by `selectionNote`).
    public static func choose(forced: String?) -> (level: KernelLevel, note: String) {
        let auto = automatic
        // Raw values, not the levels themselves, in the text: Embedded Swift has no
        // reflection to describe a value with.
        guard let forced, !forced.isEmpty else { return (auto, "\(auto.rawValue), chosen for this CPU") }
        guard let level = KernelLevel(rawValue: forced.lowercased()) else {
            return (auto, "\(auto.rawValue): \(environmentVariable)=\(forced) is not one of baseline, v3, v4")
        }
        guard available.contains(level) else {
            return (auto, "\(auto.rawValue): \(environmentVariable)=\(forced), but this CPU cannot run \(level.rawValue)")
        }
        return (level, "\(level.rawValue), forced by \(environmentVariable)")
    }

    /// One line saying which level runs and why, for logs and benchmarks.
    public static var selectionNote: String { choose(forced: environmentValue()).note }

    /// The processor's name as cpuid gives it ("" where it gives none).
    public static var processorName: String {
        var buffer = [CChar](repeating: 0, count: 64)
        toneshaper_cpu_brand(&buffer, Int32(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func environmentValue() -> String? {
        // Through the C module: Embedded Swift cannot import the C library's module.
        guard let value = toneshaper_environment_value(environmentVariable) else { return nil }
        return String(cString: value)
    }

    public static func < (a: KernelLevel, b: KernelLevel) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
