import ToneShaperParameters

/// Where a zoomed curve view draws its grid (and snaps to): lines no closer than the
/// spacing asked for, in time (seconds in 1-2-5 steps, or beats and their halves when the
/// shape follows the tempo) and in pitch (semitones in steps of 1, 2, 3, 6, 12, or a
/// tuning's degrees given as semitones above its root). Every function returns the lines
/// inside the visible span, in order.
public enum GridLines {
    /// The most lines a call returns (a span far wider than the step asked for).
    public static let maximumLines = 2000

    /// Times in `visible` at multiples of the smallest 1, 2 or 5 × 10^n seconds that is at
    /// least `minimumStep`.
    public static func times(visible: ClosedRange<Double>, minimumStep: Double) -> [Double] {
        guard minimumStep > 0, minimumStep.isFinite else { return [] }
        var decade = 1.0
        while decade > minimumStep { decade /= 10 }
        while decade * 10 <= minimumStep { decade *= 10 }
        let step = [1.0, 2, 5, 10].map { $0 * decade }.first { $0 >= minimumStep } ?? decade * 10
        return multiples(of: step, in: visible)
    }

    /// Times in `visible` at multiples of `beat` seconds times a power of two (…1/4, 1/2,
    /// 1, 2, 4… beats), the smallest at least `minimumStep`.
    public static func beats(visible: ClosedRange<Double>, beat: Double, minimumStep: Double) -> [Double] {
        guard beat > 0, beat.isFinite, minimumStep > 0, minimumStep.isFinite else { return [] }
        var step = beat
        while step / 2 >= minimumStep, step > beat / 1024 { step /= 2 }
        while step < minimumStep, step < beat * 1024 { step *= 2 }
        return multiples(of: step, in: visible)
    }

    /// Frequencies in `visible` at equal-tempered semitones from `reference` (A4), every 1,
    /// 2, 3, 6, 12, 24... semitones: the smallest step at least `minimumSemitones` apart.
    public static func semitones(visible: ClosedRange<Double>, minimumSemitones: Double, reference: Double = 440) -> [Double] {
        guard minimumSemitones > 0, minimumSemitones.isFinite, visible.lowerBound > 0, reference > 0 else { return [] }
        var step = 12.0
        for candidate in [1.0, 2, 3, 6, 12] where candidate >= minimumSemitones {
            step = candidate
            break
        }
        while step < minimumSemitones { step *= 2 }
        let low = 12 * ParameterSpec.log2(visible.lowerBound / reference)
        let high = 12 * ParameterSpec.log2(visible.upperBound / reference)
        return multiples(of: step, in: low...high).map { reference * FastPower.exp2($0 / 12) }.filter { visible.contains($0) }
    }

    /// Frequencies in `visible` at a tuning's degrees: `degrees` semitones above `root`
    /// (Hz) within one `period` (12 for an octave; a degree of 0 is the root), repeated
    /// every period up and down. When degrees would fall closer than `minimumSemitones`,
    /// only the periods' roots are drawn.
    public static func degrees(
        visible: ClosedRange<Double>, root: Double, degrees: [Double], period: Double = 12, minimumSemitones: Double = 0
    ) -> [Double] {
        guard root > 0, period > 0, period.isFinite, visible.lowerBound > 0 else { return [] }
        var within = Set(degrees.filter { $0.isFinite }.map { $0 - period * floorValue($0 / period) })
        within.insert(0)
        var sorted = within.sorted()
        var closest = period
        for k in sorted.indices { closest = min(closest, (k + 1 < sorted.count ? sorted[k + 1] : period) - sorted[k]) }
        if closest < minimumSemitones { sorted = [0] }
        let low = 12 * ParameterSpec.log2(visible.lowerBound / root)
        let high = 12 * ParameterSpec.log2(visible.upperBound / root)
        var lines: [Double] = []
        var start = floorValue(low / period)
        while start * period <= high, lines.count < maximumLines {
            for degree in sorted {
                let semitones = start * period + degree
                guard semitones >= low - 1e-9, semitones <= high + 1e-9 else { continue }
                lines.append(root * FastPower.exp2(semitones / 12))
            }
            start += 1
        }
        return lines
    }

    /// The multiples of `step` inside `span` (at most ``maximumLines``).
    static func multiples(of step: Double, in span: ClosedRange<Double>) -> [Double] {
        guard step > 0, span.lowerBound.isFinite, span.upperBound.isFinite else { return [] }
        var k = floorValue(span.lowerBound / step)
        if k * step < span.lowerBound - step * 1e-9 { k += 1 }
        var lines: [Double] = []
        while k * step <= span.upperBound + step * 1e-9, lines.count < maximumLines {
            lines.append(k * step)
            k += 1
        }
        return lines
    }

    /// The floor, without libm.
    static func floorValue(_ x: Double) -> Double {
        guard abs(x) < 1e15 else { return x }
        let whole = Double(Int64(x))
        return whole > x ? whole - 1 : whole
    }
}
