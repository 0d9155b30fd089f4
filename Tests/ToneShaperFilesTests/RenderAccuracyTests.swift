import Foundation
import Testing
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

@testable import ToneShaperFiles

/// Renders go through the file and back, and the pitch heard follows the drawn curve.
@Suite struct RenderAccuracyTests {
    /// Measures the frequency in windows of `window` samples and compares it with the
    /// curve's value at each window's middle.
    private func checkFollowsCurve(
        _ samples: [Float], rate: Double, window: Int, skip: (Double) -> Bool = { _ in false },
        expected: (Double) -> Double
    ) throws {
        var checked = 0
        var start = 0
        while start + window <= samples.count {
            let middle = (Double(start) + Double(window) / 2) / rate
            defer { start += window }
            if skip(middle) { continue }
            let measured = try #require(SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: rate, range: start..<(start + window)))
            let want = expected(middle)
            #expect(abs(measured - want) / want < 0.01, "at \(middle) s: measured \(measured) Hz, curve says \(want) Hz")
            checked += 1
        }
        #expect(checked > 10)
    }

    @Test func linearSweepFollowsTheCurve() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 200), CurvePoint(time: 4, frequency: 800)],
            duration: 4, minFrequency: 200, maxFrequency: 800, wave: .sine, scale: .none, amplitude: 0.5)
        let path = dir.file("sweep.wav")
        try FileRenderer.render(
            shape, to: path, format: try AudioFileFormat(container: .wav, sampleFormat: .s24),
            sampleRate: 48000, frames: OfflineRenderer.frameCount(of: shape, length: .cycles(1), sampleRate: 48000))
        let read = try AudioFileReader.read(path: path)
        #expect(read.sampleRate == 48000)
        #expect(read.samples.count == 4 * 48000)
        try checkFollowsCurve(read.samples, rate: 48000, window: 2400) { 200 + 600 * $0 / 4 }
    }

    @Test func builtInSirenRisesAndFalls() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let library = DocumentLibrary(locations: LibraryLocations(userDirectory: dir.path, sessionsDirectory: repositorySessions))
        let shape = try library.load("siren")
        #expect(shape.points.map(\.frequency) == [600, 1400, 600])
        let path = dir.file("siren.flac")
        try FileRenderer.render(
            shape, to: path, format: try AudioFileFormat(container: .flac), sampleRate: 44100,
            frames: OfflineRenderer.frameCount(of: shape, length: .cycles(2), sampleRate: 44100))
        let read = try AudioFileReader.read(path: path)
        // The curve, repeated: up for 2 s, down for 2 s. Windows on a corner are skipped.
        try checkFollowsCurve(
            read.samples, rate: 44100, window: 2205,
            skip: { t in
                let u = t.truncatingRemainder(dividingBy: 2)
                return u < 0.05 || u > 1.95
            },
            expected: { t in
                let u = t.truncatingRemainder(dividingBy: 4)
                return u < 2 ? 600 + 400 * u : 1400 - 400 * (u - 2)
            })
    }
}
