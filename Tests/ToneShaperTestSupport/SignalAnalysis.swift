import Foundation

/// Measurements on rendered or recorded audio, shared by the test targets.
public enum SignalAnalysis {
    /// Frequency from the positive-going zero crossings in `samples[range]`, interpolated
    /// between samples. Good for a tone whose fundamental dominates (sine, Fourier waves).
    public static func zeroCrossingFrequency(_ samples: [Float], sampleRate: Double, range: Range<Int>? = nil) -> Double? {
        let r = range ?? 0..<samples.count
        var crossings: [Double] = []
        var i = max(r.lowerBound, 1)
        while i < r.upperBound {
            let a = Double(samples[i - 1])
            let b = Double(samples[i])
            if a < 0 && b >= 0 { crossings.append(Double(i - 1) + a / (a - b)) }
            i += 1
        }
        guard crossings.count >= 2 else { return nil }
        return Double(crossings.count - 1) * sampleRate / (crossings.last! - crossings.first!)
    }

    /// Root mean square of `samples[range]`.
    public static func rms(_ samples: [Float], range: Range<Int>? = nil) -> Double {
        let r = range ?? 0..<samples.count
        guard !r.isEmpty else { return 0 }
        var sum = 0.0
        for i in r { sum += Double(samples[i]) * Double(samples[i]) }
        return (sum / Double(r.count)).squareRoot()
    }

    public static func peak(_ samples: [Float], range: Range<Int>? = nil) -> Double {
        let r = range ?? 0..<samples.count
        var m = 0.0
        for i in r { m = max(m, abs(Double(samples[i]))) }
        return m
    }

    /// The largest |x[n] - x[n-1]| in the range (a click shows as a jump far above the
    /// waveform's own steepest step, 2 pi f A / sampleRate for a sine).
    public static func maximumStep(_ samples: [Float], range: Range<Int>? = nil) -> Double {
        let r = range ?? 0..<samples.count
        var m = 0.0
        var i = max(r.lowerBound, 1)
        while i < r.upperBound {
            m = max(m, abs(Double(samples[i]) - Double(samples[i - 1])))
            i += 1
        }
        return m
    }

    public static func allFinite(_ samples: [Float]) -> Bool { samples.allSatisfy { $0.isFinite } }

    /// Magnitude spectrum of `samples[start..<start+size]` (size a power of two) under a
    /// Hann window, bins 0...size/2, normalised so a full-scale sine peaks near 1.
    /// A window that does not fit in `samples` is an error (a failed test), not a crash.
    public static func spectrum(_ samples: [Float], start: Int, size: Int) throws -> [Double] {
        guard size > 0 && size & (size - 1) == 0 else { throw AnalysisWindowError("spectrum size \(size) is not a power of two") }
        guard start >= 0, start + size <= samples.count else {
            throw AnalysisWindowError("spectrum window \(start)..<\(start + size) is outside the \(samples.count) samples recorded")
        }
        var re = [Double](repeating: 0, count: size)
        var im = [Double](repeating: 0, count: size)
        for i in 0..<size {
            let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(size))
            re[i] = Double(samples[start + i]) * w
        }
        fft(&re, &im)
        return (0...(size / 2)).map { k in (re[k] * re[k] + im[k] * im[k]).squareRoot() * 4 / Double(size) }
    }

    /// The frequency of the strongest bin above `minimumHz`, refined by parabolic interpolation.
    public static func dominantFrequency(_ samples: [Float], sampleRate: Double, start: Int, size: Int, minimumHz: Double = 10) throws -> Double {
        let mags = try spectrum(samples, start: start, size: size)
        let binHz = sampleRate / Double(size)
        var best = max(1, Int(minimumHz / binHz))
        for k in best..<(mags.count - 1) where mags[k] > mags[best] { best = k }
        guard best > 0, best < mags.count - 1 else { return Double(best) * binHz }
        let a = mags[best - 1]
        let b = mags[best]
        let c = mags[best + 1]
        let shift = 0.5 * (a - c) / (a - 2 * b + c)
        return (Double(best) + (shift.isFinite ? shift : 0)) * binHz
    }

    /// The median, bin by bin, of the magnitude spectra of consecutive `size`-sample pieces
    /// of `range`: a piece that a server xrun spoils (its peaks smeared) does not move it.
    /// For signals that do not repeat in a short lag (chords), where
    /// ``RecordingAnalysis`` cannot find the breaks.
    public static func medianSpectrum(_ samples: [Float], range: Range<Int>, size: Int) throws -> [Double] {
        var pieces: [[Double]] = []
        var start = range.lowerBound
        while start + size <= range.upperBound {
            pieces.append(try spectrum(samples, start: start, size: size))
            start += size
        }
        guard pieces.count >= 3 else {
            throw AnalysisWindowError("\(range) holds \(pieces.count) pieces of \(size) samples; a median needs 3")
        }
        return (0...(size / 2)).map { k in pieces.map { $0[k] }.sorted()[pieces.count / 2] }
    }

    /// In-place radix-2 FFT.
    public static func fft(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                re.swapAt(i, j)
                im.swapAt(i, j)
            }
        }
        var length = 2
        while length <= n {
            let angle = -2 * Double.pi / Double(length)
            let wr = cos(angle)
            let wi = sin(angle)
            var i = 0
            while i < n {
                var cr = 1.0
                var ci = 0.0
                for k in 0..<(length / 2) {
                    let a = i + k
                    let b = i + k + length / 2
                    let tr = re[b] * cr - im[b] * ci
                    let ti = re[b] * ci + im[b] * cr
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                    let ncr = cr * wr - ci * wi
                    ci = cr * wi + ci * wr
                    cr = ncr
                }
                i += length
            }
            length <<= 1
        }
    }
}
