import ToneShaperDSP

// The real-time read path of the band-limited Fourier tables (see `FourierWavetables` for
// how they are built): compiled with the kernel, once per instruction-set level, because it
// is most of a Fourier wave's cost per sample.
//
// Per sample the cost does not depend on the frequency or the number of terms: the level
// is checked once per chunk of 64 samples (from the chunk's lowest and highest frequency)
// and four samples are read at a time.

extension WavetableLevel {
    /// The wave at phase p (cycles): the cubic B-spline through the table, read at p * L.
    ///
    /// Any finite p reads the periodic wave (the index is taken modulo L by masking the
    /// low bits of the 1.5 * 2^52 rounding); a non-finite p gives a garbage (possibly NaN)
    /// value but never reads outside the table, and never traps.
    @inline(__always)
    func value(at p: Double) -> Float {
        let x = p * length
        let rounded = (x - 0.5) + roundingShift  // floor(x), or x - 1 at an integer x (t = 1 then)
        let j = Int(truncatingIfNeeded: rounded.bitPattern) & mask
        let t = Float(x - (rounded - roundingShift))
        let c = coefficients + j
        let s = 1 - t
        let t2 = t * t
        let s2 = s * s
        let t3 = t2 * t
        let s3 = s2 * s
        // B-spline weights: (1-t)^3/6, 2/3 - t^2 + t^3/2, 2/3 - (1-t)^2 + (1-t)^3/2, t^3/6.
        let outer = (s3 * c[-1] + t3 * c[2]) * (1 / 6 as Float)
        let inner = (2 / 3 - t2 + 0.5 * t3) * c[0] + (2 / 3 - s2 + 0.5 * s3) * c[1]
        return outer + inner
    }

    /// out[i] = value(at: phases[i]) for i < count, four samples at a time: one unaligned
    /// 16-byte load fetches the four coefficients a sample needs, a 4 x 4 transpose puts
    /// them in lanes, and the weights are computed for four samples at once. The same
    /// operations in the same order as `value(at:)`, so the very same samples.
    @inline(__always)
    func render(phases: UnsafePointer<Double>, count: Int, out: UnsafeMutablePointer<Float>) {
        let scale = SIMD4<Double>(repeating: length)
        let base = UnsafeRawPointer(coefficients - 1)
        let phaseBytes = UnsafeRawPointer(phases)
        var i = 0
        while i + 4 <= count {
            let x: SIMD4<Double> = phaseBytes.loadUnaligned(fromByteOffset: i &* 8, as: SIMD4<Double>.self) * scale
            let (rounded, t) = WavetableLevel.split(x)
            let c0 = base.loadUnaligned(fromByteOffset: (Int(truncatingIfNeeded: rounded[0].bitPattern) & mask) &* 4, as: SIMD4<Float>.self)
            let c1 = base.loadUnaligned(fromByteOffset: (Int(truncatingIfNeeded: rounded[1].bitPattern) & mask) &* 4, as: SIMD4<Float>.self)
            let c2 = base.loadUnaligned(fromByteOffset: (Int(truncatingIfNeeded: rounded[2].bitPattern) & mask) &* 4, as: SIMD4<Float>.self)
            let c3 = base.loadUnaligned(fromByteOffset: (Int(truncatingIfNeeded: rounded[3].bitPattern) & mask) &* 4, as: SIMD4<Float>.self)
            let y = WavetableLevel.spline(t, c0, c1, c2, c3)
            UnsafeMutableRawPointer(out + i).storeBytes(of: y, as: SIMD4<Float>.self)
            i += 4
        }
        while i < count {
            out[i] = value(at: phases[i])
            i += 1
        }
    }

    /// Table positions x (four lanes) split as in `value(at:)`: the 1.5 * 2^52 rounding
    /// (whose low bits are the index) and the fraction t.
    @inline(__always)
    static func split(_ x: SIMD4<Double>) -> (rounded: SIMD4<Double>, t: SIMD4<Float>) {
        let magic = SIMD4<Double>(repeating: roundingShift)
        let rounded: SIMD4<Double> = (x - SIMD4<Double>(repeating: 0.5)) + magic
        let frac: SIMD4<Double> = x - (rounded - magic)
        return (rounded, SIMD4<Float>(Float(frac[0]), Float(frac[1]), Float(frac[2]), Float(frac[3])))
    }

    /// Four samples of the B-spline at once: sample k at fraction t[k] from the coefficients
    /// ck = (c[j-1], c[j], c[j+1], c[j+2]) of its own position j.
    @inline(__always)
    static func spline(
        _ t: SIMD4<Float>, _ c0: SIMD4<Float>, _ c1: SIMD4<Float>, _ c2: SIMD4<Float>,
        _ c3: SIMD4<Float>
    ) -> SIMD4<Float> {
        let twoThirds = SIMD4<Float>(repeating: 2 / 3)
        let half = SIMD4<Float>(repeating: 0.5)
        // Transpose: lane k of `before` is sample k's c[j-1], of `at` its c[j], and so on.
        let before = SIMD4<Float>(c0[0], c1[0], c2[0], c3[0])
        let at = SIMD4<Float>(c0[1], c1[1], c2[1], c3[1])
        let next = SIMD4<Float>(c0[2], c1[2], c2[2], c3[2])
        let after = SIMD4<Float>(c0[3], c1[3], c2[3], c3[3])
        let s: SIMD4<Float> = SIMD4<Float>(repeating: 1) - t
        let t2: SIMD4<Float> = t * t
        let s2: SIMD4<Float> = s * s
        let t3: SIMD4<Float> = t2 * t
        let s3: SIMD4<Float> = s2 * s
        let ends: SIMD4<Float> = s3 * before + t3 * after
        let middle: SIMD4<Float> = (twoThirds - t2 + half * t3) * at + (twoThirds - s2 + half * s3) * next
        return ends * SIMD4<Float>(repeating: 1 / 6) + middle
    }
}

extension FourierTablePlan {
    /// out[i] = the wave at phases[i] for a sample at frequency v[i], i < count: exactly
    /// `level(forFrequency: v[i], nyquist:).value(at: phases[i])`, but fast. The level
    /// number falls as v rises, so when the lowest and the highest v of a chunk get the
    /// same level, every sample of the chunk does, and the chunk is read from that one
    /// table four samples at a time; a chunk that straddles a level boundary (rare: the
    /// frequency must cross one of about 80 boundaries) chooses per sample.
    @inline(__always)
    func render(
        frequencies v: UnsafePointer<Double>, phases: UnsafePointer<Double>, count: Int,
        nyquist: Double, out: UnsafeMutablePointer<Float>
    ) {
        var start = 0
        while start < count {
            let n = min(FourierTablePlan.chunk, count - start)
            let f = v + start
            let p = phases + start
            let o = out + start
            // NaN (which no validated input produces) takes no part: it compares false.
            var lo = SIMD4<Double>(repeating: .infinity)
            var hi = SIMD4<Double>(repeating: -.infinity)
            var i = 0
            let bytes = UnsafeRawPointer(f)
            while i + 4 <= n {
                let x = bytes.loadUnaligned(fromByteOffset: i &* 8, as: SIMD4<Double>.self)
                lo.replace(with: x, where: x .< lo)
                hi.replace(with: x, where: x .> hi)
                i += 4
            }
            var low = min(min(lo[0], lo[1]), min(lo[2], lo[3]))
            var high = max(max(hi[0], hi[1]), max(hi[2], hi[3]))
            while i < n {
                let x = f[i]
                low = x < low ? x : low
                high = x > high ? x : high
                i += 1
            }
            let number = levelNumber(forFrequency: low, nyquist: nyquist)
            if number == levelNumber(forFrequency: high, nyquist: nyquist) {
                level(number: number).render(phases: p, count: n, out: o)
            } else {
                renderMixed(frequencies: f, phases: p, count: n, nyquist: nyquist, out: o)
            }
            start += n
        }
    }

    /// A chunk whose samples need different levels: each sample's own level, still four
    /// samples at a time.
    @inline(__always)
    func renderMixed(
        frequencies f: UnsafePointer<Double>, phases p: UnsafePointer<Double>, count n: Int,
        nyquist: Double, out o: UnsafeMutablePointer<Float>
    ) {
        var k = 0
        while k + 4 <= n {
            let a = level(forFrequency: f[k], nyquist: nyquist)
            let b = level(forFrequency: f[k + 1], nyquist: nyquist)
            let c = level(forFrequency: f[k + 2], nyquist: nyquist)
            let d = level(forFrequency: f[k + 3], nyquist: nyquist)
            let x = SIMD4<Double>(p[k], p[k + 1], p[k + 2], p[k + 3]) * SIMD4<Double>(a.length, b.length, c.length, d.length)
            let (rounded, t) = WavetableLevel.split(x)
            let c0 = UnsafeRawPointer(a.coefficients - 1 + (Int(truncatingIfNeeded: rounded[0].bitPattern) & a.mask))
                .loadUnaligned(as: SIMD4<Float>.self)
            let c1 = UnsafeRawPointer(b.coefficients - 1 + (Int(truncatingIfNeeded: rounded[1].bitPattern) & b.mask))
                .loadUnaligned(as: SIMD4<Float>.self)
            let c2 = UnsafeRawPointer(c.coefficients - 1 + (Int(truncatingIfNeeded: rounded[2].bitPattern) & c.mask))
                .loadUnaligned(as: SIMD4<Float>.self)
            let c3 = UnsafeRawPointer(d.coefficients - 1 + (Int(truncatingIfNeeded: rounded[3].bitPattern) & d.mask))
                .loadUnaligned(as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(o + k).storeBytes(of: WavetableLevel.spline(t, c0, c1, c2, c3), as: SIMD4<Float>.self)
            k += 4
        }
        while k < n {
            o[k] = level(forFrequency: f[k], nyquist: nyquist).value(at: p[k])
            k += 1
        }
    }
}
