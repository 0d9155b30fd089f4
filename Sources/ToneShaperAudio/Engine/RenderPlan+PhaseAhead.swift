import ToneShaperDSP
import ToneShaperParameters

// Where the echo voice's phase starts: control-side and engine arithmetic on a plan, kept
// with the core because it speaks in `FrequencyMap`s.
extension RenderPlan {
    /// The integral of the grid's interpolant from position 0 to `position`, in grid units.
    @inline(__always)
    func gridIntegral(to position: Double) -> Double {
        let i = Int(position)
        let f = position - Double(i)
        return cumulative[i] + f * grid[i] + 0.5 * f * f * (grid[i + 1] - grid[i])
    }

    /// The phase (in cycles, not wrapped) a voice gathers playing `count` samples of the
    /// cycle from sample `start` under `map`, for count < S: what puts the echo voice
    /// exactly "offset ahead" of the main one, echo(t) = main(t + offset) (SPEC 6).
    /// Arithmetic only, so it is safe on the audio thread.
    public func phaseAhead(from start: Int, by count: Int, map: FrequencyMap) -> Double {
        guard count > 0 else { return 0 }
        // Integral over samples of u, from sample a to sample b within one cycle.
        func within(_ a: Int, _ b: Int) -> Double {
            if gridStep == 0 { return grid[0] * Double(b - a) }
            return (gridIntegral(to: Double(b) * gridStep) - gridIntegral(to: Double(a) * gridStep)) / gridStep
        }
        let end = start + count
        var u: Double
        if end < cycleLength {
            u = within(start, end)
        } else {
            // Across the cycle's end: to the last sample, one trapezoid back to sample 0, on.
            let last = cycleLength - 1
            u = within(start, last) + 0.5 * (curveValue(at: last) + curveValue(at: 0)) + within(0, end - cycleLength)
        }
        return (map.offset * Double(count) + map.slope * u) / sampleRate
    }
}
