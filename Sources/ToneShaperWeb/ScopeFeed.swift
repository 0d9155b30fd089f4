import Foundation
import Synchronization
import ToneShaperAudio
import ToneShaperControl
import ToneShaperJSON

/// The node's output for the page's oscilloscope and spectrum, lent by the host. The host
/// opens its tap when the first page watches and closes it when the last one leaves.
public final class ScopeFeed: Sendable {
    public typealias Open = @Sendable () -> (read: @Sendable (Int) -> [Float], sampleRate: Double, close: @Sendable () -> Void)?

    private let open: Open
    private let state = Mutex<(watchers: Int, tap: (read: @Sendable (Int) -> [Float], sampleRate: Double, close: @Sendable () -> Void)?)>((0, nil))

    public init(open: @escaping Open) { self.open = open }

    /// One more watcher; false when no tap could be opened (no JACK server).
    func acquire() -> Bool {
        state.withLock { s in
            if s.tap == nil { s.tap = open() }
            guard s.tap != nil else { return false }
            s.watchers += 1
            return true
        }
    }

    func release() {
        let close: (@Sendable () -> Void)? = state.withLock { s in
            s.watchers = max(0, s.watchers - 1)
            guard s.watchers == 0, let tap = s.tap else { return nil }
            s.tap = nil
            return tap.close
        }
        close?()
    }

    /// The newest samples and the rate, if a tap is open.
    func latest(_ count: Int) -> (samples: [Float], sampleRate: Double)? {
        guard let tap = state.withLock({ $0.tap }) else { return nil }
        return (tap.read(count), tap.sampleRate)
    }

    /// Frames per second pushed to a page.
    static let framesPerSecond = 30.0
    static let analysisSize = 4096
    static let wavePoints = 512
    static let spectrumBins = 160

    /// One frame for the page: the wave from a rising zero crossing (so a steady tone
    /// stands still), and the spectrum in dB on a log-frequency axis from 20 Hz.
    static func frame(_ samples: [Float], sampleRate: Double) -> JSONValue {
        let n = samples.count
        let span = min(n / 2, wavePoints * 2)
        var start = n - span
        var i = n - span - 1
        while i > n / 4 {  // the latest rising crossing that leaves a whole window after it
            if samples[i] <= 0 && samples[i + 1] > 0 {
                start = i + 1
                break
            }
            i -= 1
        }
        let step = max(1, span / wavePoints)
        let wave = stride(from: start, to: min(n, start + span), by: step).map { JSONValue.number((Double(samples[$0]) * 10_000).rounded() / 10_000) }
        let magnitudes = Spectrum.magnitudes(samples.suffix(analysisSize))
        let nyquist = sampleRate / 2
        let low = 20.0
        let ratio = nyquist / low
        var bins: [JSONValue] = []
        for b in 0..<spectrumBins {
            let f0 = low * pow(ratio, Double(b) / Double(spectrumBins))
            let f1 = low * pow(ratio, Double(b + 1) / Double(spectrumBins))
            let k0 = Int(f0 / nyquist * Double(magnitudes.count))
            let k1 = max(k0 + 1, Int(f1 / nyquist * Double(magnitudes.count)))
            let peak = magnitudes[min(k0, magnitudes.count - 1)..<min(k1, magnitudes.count)].max() ?? 0
            bins.append(.number((20 * log10(max(peak, 1e-9)) * 10).rounded() / 10))
        }
        return .object([
            "scope": .object([
                "wave": .array(wave), "spectrum": .array(bins), "sampleRate": .number(sampleRate),
                "low": .number(low), "high": .number(nyquist), "seconds": .number(Double(span) / sampleRate),
            ])
        ])
    }
}

/// Magnitudes of a real signal's spectrum, Hann-windowed and scaled so a full-scale sine
/// reads about 0 dB.
enum Spectrum {
    static func magnitudes<C: Collection>(_ signal: C) -> [Double] where C.Element == Float {
        var size = 1
        while size * 2 <= signal.count { size *= 2 }
        guard size >= 16 else { return [0] }
        var re = [Double](repeating: 0, count: size)
        var im = [Double](repeating: 0, count: size)
        for (i, s) in signal.suffix(size).enumerated() {
            re[i] = Double(s) * (0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(size - 1)))
        }
        let fft = FFT(size: size)
        re.withUnsafeMutableBufferPointer { re in
            im.withUnsafeMutableBufferPointer { im in fft.forward(re: re.baseAddress!, im: im.baseAddress!) }
        }
        return (0..<size / 2).map { k in (re[k] * re[k] + im[k] * im[k]).squareRoot() * 4 / Double(size) }
    }
}
