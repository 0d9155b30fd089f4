import Testing
import ToneShaperControl
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

/// The reference's own numbers (SPEC 7), reproduced exactly.
@Suite struct TrapezoidReferenceNumbers {
    let signal: [Double] = [4, 5, 2, 8, 6, 3, 1, 9, 5, 3, 4, 7, 8]
    let expected: [Double] = [0, 1.125, 2, 3.25, 5, 6.125, 6.625, 7.875, 9.625, 10.625, 11.5, 12.875, 14.75]

    @Test func wholeSignal() {
        #expect(TrapezoidIntegrator.partialIntegrals(signal, step: 0.25) == expected)
    }

    /// The reference splits into [4,5,2,8,6,3,1,9] and [9,5,3,4,7,8]: the second piece
    /// starts on the first's last sample, and starts from the first's last integral.
    @Test func splitSharingTheBoundarySample() {
        let first = TrapezoidIntegrator.partialIntegrals([4, 5, 2, 8, 6, 3, 1, 9], step: 0.25)
        let second = TrapezoidIntegrator.partialIntegrals([9, 5, 3, 4, 7, 8], step: 0.25)
            .map { $0 + first.last! }
        #expect(first + second.dropFirst() == expected)
    }

    /// The node's own form: the second piece carries (integral, sample) of the first.
    @Test func splitCarryingTheLastValue() {
        let first = TrapezoidIntegrator.partialIntegrals([4, 5, 2, 8, 6, 3, 1, 9], step: 0.25)
        let second = TrapezoidIntegrator.partialIntegrals([5, 3, 4, 7, 8], step: 0.25, carrying: (first.last!, 9))
        #expect(first + second == expected)
    }

    /// Simpson's rule as the reference applies it (composite Simpson to an even index; a
    /// trapezoid on the first interval, then Simpson, to an odd one) does not survive the
    /// split: the numbers of SPEC 7 that show why it is not used.
    @Test func simpsonDoesNotCarry() {
        func simpsonPartials(_ f: [Double], h: Double) -> [Double] {
            func simpson(_ from: Int, _ to: Int) -> Double {
                var sum = f[from] + f[to]
                for i in (from + 1)..<to { sum += ((i - from) % 2 == 1 ? 4 : 2) * f[i] }
                return sum * h / 3
            }
            return f.indices.map { i in
                if i == 0 { return 0 }
                if i % 2 == 0 { return simpson(0, i) }
                return (f[0] + f[1]) * h / 2 + (i > 1 ? simpson(1, i) : 0)
            }
        }
        func rounded4(_ xs: ArraySlice<Double>) -> [Double] { xs.map { ($0 * 10000).rounded() / 10000 } }
        let whole = simpsonPartials(signal, h: 0.25)
        #expect(rounded4(whole[8...]) == [10.5833, 9.7917, 12.3333, 11.9583, 15.6667])
        let first = simpsonPartials([4, 5, 2, 8, 6, 3, 1, 9], h: 0.25)
        let second = simpsonPartials([9, 5, 3, 4, 7, 8], h: 0.25).map { $0 + first.last! }
        let joined = first + second.dropFirst()
        #expect(rounded4(joined[8...]) == [8.875, 9.7917, 10.625, 11.9583, 13.9583])
    }
}

@Suite struct PiecewiseEqualsWhole {
    /// 10 s of random v in 20...22050 Hz at 48 kHz, integrated whole and over random
    /// partitions of 1...4096 samples, carrying (x, v) across: the phases agree.
    @Test func randomPartitions() {
        var rng = SplitMix64(seed: 0x70E5_4A9E)
        let rate = 48000.0
        let h = 0.5 / rate
        let v = (0..<480_000).map { _ in 20 + (22050 - 20) * rng.nextUnit() }
        var whole = PhaseIntegrator(firstFrequency: v[0], halfSamplePeriod: h)
        let wholePhases = v.map { whole.advance($0, halfSamplePeriod: h) }
        let unwrapped = TrapezoidIntegrator.partialIntegrals(v, step: 1 / rate)
        for trial in 0..<3 {
            var piece = PhaseIntegrator(firstFrequency: v[0], halfSamplePeriod: h)
            var carried: (integral: Double, sample: Double)? = nil
            var start = 0
            var maxPhaseDiff = 0.0
            var maxUnwrappedDiff = 0.0
            while start < v.count {
                let size = 1 + Int(rng.next() % 4096)
                let end = min(v.count, start + size)
                for i in start..<end {
                    let p = piece.advance(v[i], halfSamplePeriod: h)
                    maxPhaseDiff = max(maxPhaseDiff, abs(p - wholePhases[i]))
                }
                let chunk = TrapezoidIntegrator.partialIntegrals(Array(v[start..<end]), step: 1 / rate, carrying: carried)
                for (k, x) in chunk.enumerated() { maxUnwrappedDiff = max(maxUnwrappedDiff, abs(x - unwrapped[start + k])) }
                carried = (chunk.last!, v[end - 1])
                start = end
            }
            #expect(maxPhaseDiff < 1e-9, "trial \(trial): wrapped phase differs by \(maxPhaseDiff)")
            #expect(maxUnwrappedDiff < 1e-9, "trial \(trial): unwrapped x differs by \(maxUnwrappedDiff)")
        }
        // Wrapping into [0, 1) loses nothing: the wrapped phase is the unwrapped one mod 1.
        var worst = 0.0
        for i in stride(from: 0, to: v.count, by: 97) {
            let frac = unwrapped[i] - unwrapped[i].rounded(.down)
            var d = abs(frac - wholePhases[i])
            d = min(d, 1 - d)
            worst = max(worst, d)
        }
        #expect(worst < 1e-7, "wrapped vs unwrapped phase: \(worst) cycles")
    }

    /// The whole engine, rendered in one call or in random period sizes, gives the same
    /// samples bit for bit: what the JACK callback relies on.
    @Test func engineRenderIsPartitionIndependent() {
        var rng = SplitMix64(seed: 42)
        var shape = ToneShape.defaultShape
        shape.points = (0...40).map { CurvePoint(time: Double($0) * 0.05, frequency: 20 + 2000 * rng.nextUnit()) }
        shape.minFrequency = 0
        shape.maxFrequency = 2100
        shape.echoOffset = 0.37
        shape.echoVolume = 0.6
        shape.wave = .squareFourier
        shape.fourierTerms = .nyquist
        let frames = 200_000
        let whole = OfflineRenderer.render(shape, sampleRate: 48000, frames: frames)
        let controller = EngineController(shape: shape, sampleRate: 48000)
        var engine = controller.makeEngine()
        var pieces = [Float](repeating: .nan, count: frames)
        pieces.withUnsafeMutableBufferPointer { out in
            var done = 0
            while done < frames {
                let n = min(frames - done, 1 + Int(rng.next() % 4096))
                engine.render(into: out.baseAddress! + done, count: n)
                done += n
            }
        }
        #expect(whole == pieces)
    }
}
