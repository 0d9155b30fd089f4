import Foundation
import ToneShaperTestSupport

/// Reading a recording of a steady sine made on a busy machine with a non-real-time JACK
/// server. When the server misses a deadline (an xrun), a whole period is lost or repeated
/// somewhere in the graph and the recording jumps. Such a jump is the server's, not the
/// node's, and it has a signature: on both sides the signal is the same sine at the same
/// amplitude, only its phase has moved by a whole number of periods. A click made by the
/// node (a gain or phase jump) does not look like that, so the tests demand that every
/// jump be explained this way, and measure on the longest stretch without any.
struct RecordingAnalysis {
    let samples: [Float]
    let sampleRate: Double
    /// Samples whose step from the previous one exceeds the click limit.
    let jumps: [Int]

    init(_ samples: [Float], sampleRate: Double, clickLimit limit: Double) {
        self.samples = samples
        self.sampleRate = sampleRate
        var jumps: [Int] = []
        for i in samples.indices.dropFirst() where abs(Double(samples[i]) - Double(samples[i - 1])) > limit {
            jumps.append(i)
        }
        self.jumps = jumps
    }

    /// The longest range of samples with no jump inside.
    var longestCleanStretch: Range<Int> {
        var best = 0..<0
        var start = 0
        for j in jumps + [samples.count] {
            if j - start > best.count { best = start..<j }
            start = j
        }
        return best
    }

    func frequency(in range: Range<Int>) -> Double? {
        SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: sampleRate, range: range)
    }

    /// The jumps that are not a lost or repeated server period: for a sine of `frequency`
    /// at one of `amplitudes`, with the server running `period` frames a cycle.
    func unexplainedJumps(frequency: Double, amplitudes: [Double], period: Int) -> [Int] {
        let window = 48
        let omega = 2 * Double.pi * frequency / sampleRate
        return jumps.filter { j in
            guard j >= window, j + window <= samples.count else { return false }  // too near an edge to judge
            let before = fit(omega: omega, range: (j - window)..<j)
            let after = fit(omega: omega, range: j..<(j + window))
            let levelsAgree = [before.amplitude, after.amplitude].allSatisfy { a in
                amplitudes.contains { abs(a - $0) <= 0.03 * $0 }
            }
            // Phase moved by k whole periods of the server, k != 0?
            let shift = after.phase - before.phase
            let wholePeriods = (1...16).flatMap { [$0, -$0] }.contains { k in
                let expected = omega * Double(period * k)
                return abs(remainder(shift - expected, 2 * Double.pi)) < 0.03
            }
            return !(levelsAgree && wholePeriods)
        }
    }

    /// Least-squares fit of a sin(omega n) + b cos(omega n) over `range`: amplitude and
    /// phase of the sine, in absolute sample numbering.
    func fit(omega: Double, range: Range<Int>) -> (amplitude: Double, phase: Double) {
        var ss = 0.0
        var cc = 0.0
        var sc = 0.0
        var xs = 0.0
        var xc = 0.0
        for n in range {
            let s = sin(omega * Double(n))
            let c = cos(omega * Double(n))
            let x = Double(samples[n])
            ss += s * s
            cc += c * c
            sc += s * c
            xs += x * s
            xc += x * c
        }
        let det = ss * cc - sc * sc
        let a = (xs * cc - xc * sc) / det
        let b = (xc * ss - xs * sc) / det
        return ((a * a + b * b).squareRoot(), atan2(b, a))
    }
}
