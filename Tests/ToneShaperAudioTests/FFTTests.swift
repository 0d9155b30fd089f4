import Foundation
import Testing
import ToneShaperAudio
import ToneShaperTestSupport

/// The one FFT (wave tables, the editor's spectrum) against the transform's definition,
/// summed directly.
@Suite struct FFTTests {
    /// sum over k of x[k] e^(sign 2 pi i j k / n), in the plainest way.
    static func direct(_ re: [Double], _ im: [Double], sign: Double) -> (re: [Double], im: [Double]) {
        let n = re.count
        var outRe = [Double](repeating: 0, count: n)
        var outIm = [Double](repeating: 0, count: n)
        for j in 0..<n {
            for k in 0..<n {
                let angle = sign * 2 * Double.pi * Double(j * k % n) / Double(n)
                outRe[j] += re[k] * cos(angle) - im[k] * sin(angle)
                outIm[j] += re[k] * sin(angle) + im[k] * cos(angle)
            }
        }
        return (outRe, outIm)
    }

    @Test func forwardAndInverseAreTheTransformsOfTheirDefinition() {
        var random = SplitMix64(seed: 31)
        for size in [2, 4, 8, 16, 64, 256] {
            let re = (0..<size).map { _ in Double(random.next() % 2001) / 1000 - 1 }
            let im = (0..<size).map { _ in Double(random.next() % 2001) / 1000 - 1 }
            let fft = FFT(size: size)
            for (sign, name) in [(-1.0, "forward"), (1.0, "inverse")] {
                var (r, i) = (re, im)
                r.withUnsafeMutableBufferPointer { r in
                    i.withUnsafeMutableBufferPointer { i in
                        if sign < 0 {
                            fft.forward(re: r.baseAddress!, im: i.baseAddress!)
                        } else {
                            fft.inverse(re: r.baseAddress!, im: i.baseAddress!)
                        }
                    }
                }
                let expected = Self.direct(re, im, sign: sign)
                let error = zip(r + i, expected.re + expected.im).map { abs($0 - $1) }.max() ?? 0
                #expect(error < 1e-10 * Double(size), "\(name), \(size) points: \(error)")
            }
        }
    }
}
