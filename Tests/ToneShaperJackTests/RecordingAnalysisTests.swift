import Foundation
import Testing

/// The recordings' judge must itself be right: it forgives a lost or repeated server
/// period, and nothing else.
@Suite struct RecordingAnalysisTests {
    static let rate = 48_000.0
    static let omega = 2 * Double.pi * 440 / rate

    /// A 440 Hz sine whose sample n is taken at position `position(n)`, times `gain(n)`.
    static func sine(_ count: Int, position: (Int) -> Double = { Double($0) }, gain: (Int) -> Double = { _ in 0.5 }) -> [Float] {
        (0..<count).map { Float(gain($0) * sin(omega * position($0))) }
    }

    static func analyse(_ samples: [Float]) -> RecordingAnalysis {
        RecordingAnalysis(samples, sampleRate: rate, clickLimit: 2 * Double.pi * 440 * 0.5 / rate * 1.05)
    }

    @Test func aRepeatedOrLostPeriodIsExplained() {
        let repeated = Self.sine(4_800) { n in Double(n >= 1_280 ? n - 64 : n) }
        let lost = Self.sine(4_800) { n in Double(n >= 2_560 ? n + 128 : n) }
        for samples in [repeated, lost] {
            let analysis = Self.analyse(samples)
            #expect(!analysis.jumps.isEmpty)
            #expect(analysis.unexplainedJumps(frequency: 440, amplitudes: [0.5], period: 64) == [])
        }
    }

    @Test func aGainOrPhaseJumpIsAClick() {
        let gain = Self.sine(4_800, gain: { $0 >= 2_000 ? 0.1 : 0.5 })
        let phase = Self.sine(4_800) { n in Double(n) + (n >= 2_000 ? 17.3 : 0) }
        for samples in [gain, phase] {
            let analysis = Self.analyse(samples)
            #expect(analysis.unexplainedJumps(frequency: 440, amplitudes: [0.5, 0.1], period: 64).count == analysis.jumps.count)
            #expect(!analysis.jumps.isEmpty)
        }
    }
}
