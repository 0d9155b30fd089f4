import ToneShaperDSP

/// The project's one FFT: a small radix-2 complex transform, for building the band-limited
/// wave tables off the audio thread and for the web editor's spectrum. Never used while
/// rendering. Twiddles come from `sin2pi` (error ~1e-14), so the transform is accurate far
/// beyond the single precision the tables are stored in.
public struct FFT: Sendable {
    public let size: Int
    /// cos and sin of 2 pi k / size for k < size / 2.
    private let cosines: [Double]
    private let sines: [Double]

    /// Twiddles for transforms of `size` points, a power of two of at least 2.
    public init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        let half = size / 2
        var c = [Double](repeating: 0, count: half)
        var s = [Double](repeating: 0, count: half)
        for k in 0..<half {
            let p = Double(k) / Double(size)
            s[k] = sin2pi(p)
            c[k] = sin2pi(p + 0.25)
        }
        cosines = c
        sines = s
    }

    /// In place, `size` points at `re` and `im`: x[j] <- sum over k of x[k] e^(+2 pi i j k /
    /// size) (the inverse transform, without the 1/size factor).
    public func inverse(re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>) {
        transform(re: re, im: im, sign: 1)
    }

    /// In place, `size` points at `re` and `im`: x[j] <- sum over k of x[k] e^(-2 pi i j k /
    /// size) (the forward transform, unscaled).
    public func forward(re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>) {
        transform(re: re, im: im, sign: -1)
    }

    /// The transform with e^(sign 2 pi i j k / size): +1 inverse, -1 forward.
    private func transform(re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>, sign: Double) {
        let n = size
        // Bit-reversal permutation.
        var j = 0
        for i in 0..<n - 1 {
            if i < j {
                swap(&re[i], &re[j])
                swap(&im[i], &im[j])
            }
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
        }
        // Butterflies, from length 2 up.
        cosines.withUnsafeBufferPointer { cosBuf in
            sines.withUnsafeBufferPointer { sinBuf in
                let cs = cosBuf.baseAddress!
                let sn = sinBuf.baseAddress!
                var length = 2
                while length <= n {
                    let half = length / 2
                    let step = n / length
                    var start = 0
                    while start < n {
                        var k = 0
                        while k < half {
                            let wr = cs[k * step]
                            let wi = sign * sn[k * step]
                            let a = start + k
                            let b = a + half
                            let tr = re[b] * wr - im[b] * wi
                            let ti = re[b] * wi + im[b] * wr
                            re[b] = re[a] - tr
                            im[b] = im[a] - ti
                            re[a] += tr
                            im[a] += ti
                            k += 1
                        }
                        start += length
                    }
                    length <<= 1
                }
            }
        }
    }
}
