import Foundation

/// Judging a recording of a steady tone made on a busy machine with a non-real-time JACK
/// server.
///
/// When the dummy driver misses a deadline (an xrun), a whole period is lost or repeated
/// somewhere in the graph and the recording jumps: its phase moves, or a gap appears. Every
/// measurement that assumes a continuous signal (an FFT peak, zero crossings, a harmonic
/// profile) is then wrong by an amount that depends on where the jump falls: one lost
/// 64-frame period in a 32,768-sample window moves a 440 Hz peak to 438.4 Hz.
///
/// So a recording is cut into *clean stretches* first. A steady tone repeats itself: sample
/// n equals sample n - L for a lag L that is (very nearly) a whole number of its cycles.
/// Where that stops holding, by more than a few percent of the local level, the recording
/// breaks; the stretches between breaks are continuous, and the measurements are made on
/// them only. The fundamental comes from the recording itself (the median of short pieces'
/// zero crossings), never from what the test expects, so a wrong pitch is measured as a
/// wrong pitch and not mistaken for a broken recording.
///
/// A clean stretch too short to judge is ``HostTooBusy``: the test records again
/// (``retryingOnBusyHost(_:attempts:_:)``) and fails with that reason if every attempt was
/// spoilt. It never passes silently.
public struct RecordingAnalysis: Sendable {
    public let samples: [Float]
    public let sampleRate: Double
    /// The part of `samples` analysed.
    public let range: Range<Int>
    /// The tone's fundamental, from the median of short pieces' zero crossings (nil when
    /// the analysed part has no tone: silence or noise).
    public let fundamental: Double?
    /// The lag the repetition is checked over: a whole number of cycles, in samples.
    public let lag: Int?
    /// The first sample of each place where the recording breaks.
    public let breaks: [Int]
    /// The ranges between breaks, in order, each continuous.
    public let cleanStretches: [Range<Int>]

    /// How far (relative to the local level) a sample may differ from the one a lag before.
    public static let tolerance = 0.05

    public init(_ samples: [Float], sampleRate: Double, range: Range<Int>? = nil) {
        self.samples = samples
        self.sampleRate = sampleRate
        let range = (range ?? samples.indices).clamped(to: samples.indices)
        self.range = range
        let fundamental = Self.medianPieceFrequency(samples, sampleRate: sampleRate, range: range)
        self.fundamental = fundamental
        let lag = fundamental.flatMap { Self.wholeCycleLag(period: sampleRate / $0, maximum: min(Int(sampleRate / 20), range.count / 4)) }
        self.lag = lag
        guard let lag else {
            breaks = []
            cleanStretches = range.isEmpty ? [] : [range]
            return
        }
        // Flag the samples that do not repeat the one a lag before, against the local level
        // (the larger of the two samples' blocks' peaks), and cut the recording there. A
        // break at j flags samples from j on for about a lag (they are compared across it);
        // a cluster of flags closer than a lag is one break, and all of it is left out.
        let block = max(64, lag)
        var blockPeaks: [Float] = []
        var b = range.lowerBound
        while b < range.upperBound {
            var m: Float = 0
            for i in b..<min(b + block, range.upperBound) { m = max(m, abs(samples[i])) }
            blockPeaks.append(m)
            b += block
        }
        func localPeak(_ n: Int) -> Float {
            let k = (n - range.lowerBound) / block
            return max(blockPeaks[k], blockPeaks[max(0, k - 1)], blockPeaks[min(blockPeaks.count - 1, k + 1)])
        }
        var breaks: [Int] = []
        var stretches: [Range<Int>] = []
        var cleanFrom = range.lowerBound
        var lastFlag: Int?
        var n = range.lowerBound + lag
        while n < range.upperBound {
            let level = max(localPeak(n), localPeak(n - lag), 1e-4)
            if abs(samples[n] - samples[n - lag]) > Float(Self.tolerance) * level {
                if let last = lastFlag, n - last <= lag {
                    lastFlag = n
                } else {
                    breaks.append(n)
                    // A break in the first lag samples is only seen a lag later: a first
                    // stretch that short may hold it, and is left out.
                    let unsure = cleanFrom == range.lowerBound && n < range.lowerBound + 2 * lag
                    if n > cleanFrom && !unsure { stretches.append(cleanFrom..<n) }
                    lastFlag = n
                }
                cleanFrom = n + 1
            }
            n += 1
        }
        if range.upperBound > cleanFrom { stretches.append(cleanFrom..<range.upperBound) }
        self.breaks = breaks
        self.cleanStretches = stretches
    }

    /// The longest clean stretch (empty if there is none).
    public var longestCleanStretch: Range<Int> {
        cleanStretches.max { $0.count < $1.count } ?? range.lowerBound..<range.lowerBound
    }

    /// The longest clean stretch inside `within` (the analysed part by default), which must
    /// hold at least `minimum` samples; otherwise the host was too busy to judge.
    public func cleanStretch(within: Range<Int>? = nil, atLeast minimum: Int) throws -> Range<Int> {
        let window = (within ?? range).clamped(to: range)
        let best = cleanStretches.map { $0.clamped(to: window) }.max { $0.count < $1.count } ?? window.lowerBound..<window.lowerBound
        guard best.count >= minimum else {
            throw HostTooBusy(
                "no \(minimum) continuous samples in \(window) (longest \(best.count); breaks at \(breaks.prefix(12))"
                    + "\(breaks.count > 12 ? "…" : ""))")
        }
        return best
    }

    /// The tone's frequency over the longest clean stretch in `within`, from its zero
    /// crossings (exact for a tone whose fundamental dominates): the median of five, three or
    /// one equal pieces of at least 0.2 s each. A glitch the break detection cannot see (a
    /// period a late reader took from the next cycle, which moves no phase but can add or
    /// drop one crossing) then spoils one piece, not the measurement: over one stretch, a
    /// crossing too many in 0.6 s reads 1.6 Hz high.
    public func frequency(within: Range<Int>? = nil, atLeast minimum: Int) throws -> Double {
        let stretch = try cleanStretch(within: within, atLeast: minimum)
        let fit = stretch.count / Int(0.2 * sampleRate)
        let pieces = fit >= 5 ? 5 : (fit >= 3 ? 3 : 1)  // odd, so that the median is one piece's
        let length = stretch.count / pieces
        let values = (0..<pieces).compactMap { k in
            let start = stretch.lowerBound + k * length
            return SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: sampleRate, range: start..<(start + length))
        }
        guard values.count == pieces else {
            throw AnalysisWindowError("no zero crossings in \(stretch): no tone to measure")
        }
        return values.sorted()[values.count / 2]
    }

    /// The tone's frequency over several stretches of one recording, each known to hold no
    /// missing or repeated period (a timeline recording's trusted stretches): the clean parts
    /// of each (breaks found as above) are cut into pieces of `piece` samples, each piece's
    /// frequency is measured from its zero crossings, and the median is returned. A glitch
    /// no check can see spoils one piece, not the measurement. Fewer than `minimumPieces`
    /// pieces: the host was too busy to judge (``HostTooBusy``).
    public static func medianFrequency(
        _ samples: [Float], sampleRate: Double, stretches: [Range<Int>], piece: Int, minimumPieces: Int = 3
    ) throws -> Double {
        var values: [Double] = []
        for stretch in stretches where stretch.count >= piece {
            let analysis = RecordingAnalysis(samples, sampleRate: sampleRate, range: stretch)
            for clean in analysis.cleanStretches where clean.count >= piece {
                var start = clean.lowerBound
                while start + piece <= clean.upperBound {
                    if let f = SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: sampleRate, range: start..<(start + piece)) {
                        values.append(f)
                    }
                    start += piece
                }
            }
        }
        guard values.count >= minimumPieces else {
            throw HostTooBusy("\(values.count) clean pieces of \(piece) samples in \(stretches.prefix(6)), not \(minimumPieces)")
        }
        return values.sorted()[values.count / 2]
    }

    /// The root mean square over the longest clean stretch in `within`.
    public func rms(within: Range<Int>? = nil, atLeast minimum: Int) throws -> Double {
        SignalAnalysis.rms(samples, range: try cleanStretch(within: within, atLeast: minimum))
    }

    /// The magnitude spectrum of `size` samples (a power of two) from the middle of the
    /// longest clean stretch in `within`.
    public func spectrum(size: Int, within: Range<Int>? = nil) throws -> [Double] {
        let stretch = try cleanStretch(within: within, atLeast: size)
        return try SignalAnalysis.spectrum(samples, start: stretch.lowerBound + (stretch.count - size) / 2, size: size)
    }

    /// The first `count` harmonics' levels of `fundamental` against the fundamental's, from
    /// `size` clean samples: what the wave sounds like, whatever the phase it started at.
    public func harmonicProfile(of fundamental: Double, count: Int = 5, size: Int = 16_384, within: Range<Int>? = nil) throws -> [Double] {
        let magnitudes = try spectrum(size: size, within: within)
        let binHz = sampleRate / Double(size)
        let peaks = (1...count).map { k -> Double in
            let bin = Int((Double(k) * fundamental / binHz).rounded())
            return magnitudes[max(0, bin - 3)...min(magnitudes.count - 1, bin + 3)].max() ?? 0
        }
        return peaks.map { $0 / max(peaks[0], 1e-12) }
    }

    // MARK: Clicks

    /// Samples whose step from the previous one exceeds `limit`: for a sine of frequency f
    /// and amplitude a no step is steeper than 2 pi f a / rate, so anything above is a
    /// click, the node's or the server's.
    public func steps(above limit: Double) -> [Int] {
        var found: [Int] = []
        var i = max(range.lowerBound, 1)
        while i < range.upperBound {
            if abs(Double(samples[i]) - Double(samples[i - 1])) > limit { found.append(i) }
            i += 1
        }
        return found
    }

    /// How long after a recording's first sound its steps are not judged (seconds). The
    /// recorder has just connected, and the test's own check that it has (`jack_lsp`, a JACK
    /// client opened and closed every 10 ms until it sees the connection) keeps changing the
    /// server's graph meanwhile. A run on 2026-11-24, with 17 xruns, recorded two periods
    /// 8 ms in that were neither the tone nor a whole-period jump of it.
    public static let settlingSeconds = 0.1

    /// The steps above `limit` that are not a lost or repeated server period, for a sine of
    /// `frequency` at one of `amplitudes` with the server running `period` frames a cycle.
    /// A server's jump has a signature: on both sides the same sine at the same amplitude,
    /// its phase moved by a whole number of periods. A click made by the node (a gain or
    /// phase jump) does not look like that. Nor does the recording's start: a recorder
    /// whose port was connected a period late begins with exact silence, and its first
    /// step into the tone, or a step in the `settlingSeconds` after it, is not judged.
    public func unexplainedSteps(above limit: Double, frequency: Double, amplitudes: [Double], period: Int) -> [Int] {
        let window = 48
        let omega = 2 * Double.pi * frequency / sampleRate
        let firstSound = samples[range].firstIndex { $0 != 0 } ?? range.upperBound
        let settled = firstSound + Int(Self.settlingSeconds * sampleRate)
        return steps(above: limit).filter { j in
            guard j > settled else { return false }  // the recorder's connection, not the node
            guard j - window >= range.lowerBound, j + window <= range.upperBound else { return false }  // too near an edge to judge
            let before = fit(omega: omega, range: (j - window)..<j)
            let after = fit(omega: omega, range: j..<(j + window))
            let levelsAgree = [before.amplitude, after.amplitude].allSatisfy { a in
                amplitudes.contains { abs(a - $0) <= 0.03 * $0 }
            }
            let shift = after.phase - before.phase
            let wholePeriods = (1...16).flatMap { [$0, -$0] }.contains { k in
                abs(remainder(shift - omega * Double(period * k), 2 * Double.pi)) < 0.03
            }
            return !(levelsAgree && wholePeriods)
        }
    }

    /// What a test says about unexplained steps: where each lies, the fits on its two sides
    /// and the samples around it (the first few steps), so that a failure shows what the
    /// recording held there.
    public func describe(steps: [Int], frequency: Double) -> String {
        let omega = 2 * Double.pi * frequency / sampleRate
        let shown = steps.prefix(4).map { j -> String in
            let before = fit(omega: omega, range: max(range.lowerBound, j - 48)..<j)
            let after = fit(omega: omega, range: j..<min(range.upperBound, j + 48))
            let around = samples[max(range.lowerBound, j - 3)..<min(range.upperBound, j + 3)].map { String(format: "%.4f", $0) }
            return String(
                format: "%d (amplitude %.3f -> %.3f, phase %.3f -> %.3f rad; samples %@)", j, before.amplitude,
                after.amplitude, before.phase, after.phase, around.joined(separator: " "))
        }
        return "steps at " + shown.joined(separator: ", ") + (steps.count > 4 ? ", …" : "") + "; breaks at \(breaks.prefix(8))"
    }

    /// Least-squares fit of a sin(omega n) + b cos(omega n) over `range`: amplitude and
    /// phase of the sine, in absolute sample numbering.
    public func fit(omega: Double, range: Range<Int>) -> (amplitude: Double, phase: Double) {
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

    // MARK: The tone's own period

    /// The median of the zero-crossing frequencies of 2048-sample pieces: a piece an xrun
    /// spoils is an outlier and does not move it. Nil when too few pieces hold a tone.
    static func medianPieceFrequency(_ samples: [Float], sampleRate: Double, range: Range<Int>) -> Double? {
        let piece = 2048
        var values: [Double] = []
        var start = range.lowerBound
        while start + piece <= range.upperBound {
            if let f = SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: sampleRate, range: start..<(start + piece)),
                f > 5, f < sampleRate / 4
            {
                values.append(f)
            }
            start += piece
        }
        guard values.count >= 3 || (values.count >= 1 && range.count < 4 * piece) else { return nil }
        return values.sorted()[values.count / 2]
    }

    /// A lag of whole cycles whose phase error is below 0.005 rad (so a clean tone repeats
    /// it to within half a percent), as short as possible and at most `maximum` samples.
    static func wholeCycleLag(period: Double, maximum: Int) -> Int? {
        guard period >= 2, period.isFinite else { return nil }
        var k = 1
        while Double(k) * period <= Double(maximum) {
            let exact = Double(k) * period
            let lag = exact.rounded()
            if abs(exact - lag) / period * 2 * Double.pi < 0.005 { return Int(lag) }
            k += 1
        }
        // No lag that exact: the best one within reach.
        let candidates = (1...max(1, Int(Double(maximum) / period))).map { Double($0) * period }
        return candidates.min { abs($0 - $0.rounded()) < abs($1 - $1.rounded()) }.map { Int($0.rounded()) }
    }
}

/// The machine was too busy to judge a recording: no continuous stretch long enough. Not
/// the node's fault; the test records again (``retryingOnBusyHost(_:attempts:_:)``), and
/// fails with this reason only when every attempt was spoilt.
public struct HostTooBusy: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = "the host was too busy to judge: " + description }
}

/// A window that does not fit the recording: a failed expectation, never a crash.
public struct AnalysisWindowError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Runs `body` (record, then judge) up to `attempts` times while it throws ``HostTooBusy``,
/// saying so each time on standard output (`Scripts/test.sh` counts these lines); the last
/// attempt's reason fails the test. Any other error ends it at once.
public func retryingOnBusyHost<T>(_ what: String, attempts: Int = 4, _ body: (_ attempt: Int) async throws -> T) async throws -> T {
    for attempt in 1... {
        do {
            return try await body(attempt)
        } catch let busy as HostTooBusy where attempt < attempts {
            print("recording again: \(what): \(busy.description) (attempt \(attempt + 1) of \(attempts))")
        }
    }
    fatalError("unreachable")
}
