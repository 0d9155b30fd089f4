import Foundation
import Synchronization
import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters

/// The output buffer holds nothing but finished samples, at every moment of a period.
///
/// Why it matters: a JACK port buffer is read by the clients connected to it, and when a
/// period runs late (an xrun) JACK2 lets a reader run on the last period while the writer
/// already makes the next one in the same buffer. A node that used its port buffer as scratch
/// (the voices' unscaled sum, then the output stage in place) showed that reader sums of up
/// to twice the full scale: the OSC fuzz test recorded peaks of 0.85 and 1.36 under an
/// amplitude of at most 0.5, each time with 200 and more server xruns.
@Suite("Output buffer")
struct OutputBufferTests {
    static let period = 64

    /// The buffer both threads see. Reads race with writes on purpose: that is what the test
    /// models. Aligned 32-bit loads and stores do not tear on the targets this runs on.
    final class SharedBuffer: @unchecked Sendable {
        let samples = UnsafeMutablePointer<Float>.allocate(capacity: OutputBufferTests.period)
        init() { samples.initialize(repeating: 0, count: OutputBufferTests.period) }
        deinit { samples.deallocate() }
    }

    /// Renders periods into one buffer on a thread of its own, `changes` moving the ramps,
    /// while this thread scans the buffer without pause; returns the largest sample seen.
    static func largestSampleSeenWhileRendering(
        _ shape: ToneShape, events: [MIDIEvent] = [], seconds: Double = 0.4,
        changes: @escaping @Sendable (EngineController, Int) -> Void
    ) -> (seen: Float, periods: Int) {
        let shared = SharedBuffer()
        let done = Atomic<Bool>(false)
        let periods = Atomic<Int>(0)
        let writer = Thread {
            let controller = EngineController(shape: shape, sampleRate: 48_000)
            var renderer = controller.makeRenderer(rampLength: OutputBufferTests.period)
            let clock = PeriodClock(startMicros: 0, microsPerFrame: 1e6 / 48_000)
            var p = 0
            while !done.load(ordering: .relaxed) {
                changes(controller, p)
                (p == 0 ? events : []).withUnsafeBufferPointer { midi in
                    renderer.renderPeriod(into: shared.samples, frames: OutputBufferTests.period, clock: clock, midi: midi, transport: nil)
                }
                p += 1
                periods.store(p, ordering: .releasing)
            }
        }
        writer.start()
        var largest: Float = 0
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            for _ in 0..<1000 {
                atomicMemoryFence(ordering: .acquiringAndReleasing)  // read the memory anew
                for k in 0..<OutputBufferTests.period { largest = max(largest, abs(shared.samples[k])) }
            }
        }
        done.store(true, ordering: .releasing)
        while !writer.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        return (largest, periods.load(ordering: .acquiring))
    }

    /// A loud chord with echo; the amplitude and the echo's volume move every few periods, so
    /// every pass goes through the sum of voices and the ramped output stage.
    @Test func aReaderDuringAnInstrumentPeriodSeesOnlyFinishedSamples() {
        var shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 220), CurvePoint(time: 1, frequency: 880)], duration: 0.5,
            minFrequency: 20, maxFrequency: 2000, scale: .none, echoVolume: 1, amplitude: 0.5)
        shape.performance.instrument = true
        shape.performance.voices = 16
        let chord = (0..<12).map { MIDIEvent(frame: 0, size: 3, byte0: 0x90, byte1: UInt8(48 + $0 * 2), byte2: 127) }
        let (seen, periods) = Self.largestSampleSeenWhileRendering(shape, events: chord) { controller, p in
            guard p % 3 == 0 else { return }
            try? controller.set(.amplitude, to: .real(p % 6 == 0 ? 0.5 : 0.25))
            try? controller.set(.echoVolume, to: .real(p % 9 == 0 ? 1 : 0.5))
        }
        print("output buffer (instrument): largest sample seen \(seen) over \(periods) periods")
        #expect(periods > 100)
        #expect(seen <= 0.5 + 1e-6, "a reader saw \(seen): more than the amplitude, so not a finished sample")
    }

    /// The drone, with its echo, while the amplitude moves: the ramped pass of the drone alone.
    @Test func aReaderDuringADronePeriodSeesOnlyFinishedSamples() {
        let shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 440)], duration: 1,
            minFrequency: 20, maxFrequency: 2000, scale: .none, echoVolume: 1, amplitude: 0.5)
        let (seen, periods) = Self.largestSampleSeenWhileRendering(shape) { controller, p in
            guard p % 3 == 0 else { return }
            try? controller.set(.amplitude, to: .real(p % 6 == 0 ? 0.5 : 0.45))
        }
        print("output buffer (drone): largest sample seen \(seen) over \(periods) periods")
        #expect(periods > 100)
        #expect(seen <= 0.5 + 1e-6, "a reader saw \(seen): more than the amplitude, so not a finished sample")
    }
}
