import ToneShaperDSP
import ToneShaperParameters

extension Kernel {
    /// Stage C: out[i] = wave(phase[i]) * scale(u[i]), in single precision (the output's).
    /// The sine reads its phase from the bits stage B kept of the fixed-point sum (`PhaseBits`:
    /// the top 24, all a Float holds); the other waves from the 64-bit sum, with each sample's
    /// step for anti-aliasing.
    @inline(__always)
    static func shape(
        plan: RenderPlan, count: Int, v: UnsafeMutablePointer<Double>, u: UnsafeMutablePointer<Float>,
        x: UnsafePointer<UInt64>, steps: UnsafePointer<UInt64>,
        phase: UnsafeMutablePointer<Double>, out: UnsafeMutablePointer<Float>
    ) {
        let antiAliased = plan.antiAliased
        if plan.wave.isFourier || (!antiAliased && plan.wave != .sine) {
            for i in 0..<count { phase[i] = PhaseIntegrator.cycles(x[i]) }
        }
        switch plan.wave {
        case .sine:
            // Stage B left 32 bits of each phase (`PhaseBits`), so this pass runs over 32-bit
            // lanes alone, eight to a 256-bit vector.
            let bits = UnsafeRawPointer(x)
            if plan.scale == .sine {
                // The benchmark's case: wave and scaling both sines, in the same pass.
                for i in 0..<count { out[i] = sinUnit(PhaseBits.floatPhase(bits, at: i)) * sineArch(u[i]) }
                return
            }
            for i in 0..<count { out[i] = sinUnit(PhaseBits.floatPhase(bits, at: i)) }
        case .square:
            if antiAliased {
                // In two passes, as the triangle: the exact distances to the corners from the
                // 64-bit phase (four to a vector), then the corners in Floats (eight).
                phase.withMemoryRebound(to: Float.self, capacity: 2 * count) { distances in
                    let fromRise = distances
                    let fromFall = distances + count
                    for i in 0..<count {
                        let inverse = FixedPointWaves.inverseStep(steps[i])
                        out[i] = floatPhase(x[i])
                        fromRise[i] = FixedPointWaves.samplesFrom(x[i], 0, inverse)
                        fromFall[i] = FixedPointWaves.samplesFrom(x[i], FixedPointWaves.half, inverse)
                    }
                    for i in 0..<count { out[i] = FixedPointWaves.square(out[i], fromRise[i], fromFall[i]) }
                }
            } else {
                for i in 0..<count { out[i] = Float(UnitWave.naiveSquare(phase[i])) }
            }
        case .triangle:
            if antiAliased {
                // As the sine: the 64-bit work (phase and step to Floats) in a pass of its own,
                // four to a vector, then the corners in Floats, eight to a vector. The step
                // goes into the phase array (unused by this wave), as Floats.
                phase.withMemoryRebound(to: Float.self, capacity: 2 * count) { dt in
                    for i in 0..<count {
                        out[i] = floatPhase(x[i])
                        dt[i] = FixedPointWaves.cyclesPerSample(steps[i])
                    }
                    for i in 0..<count { out[i] = FixedPointWaves.triangle(out[i], dt[i]) }
                }
            } else {
                for i in 0..<count { out[i] = Float(UnitWave.naiveTriangle(phase[i])) }
            }
        case .sawtooth:
            if antiAliased {
                phase.withMemoryRebound(to: Float.self, capacity: 2 * count) { fromWrap in
                    for i in 0..<count {
                        out[i] = floatPhase(x[i])
                        fromWrap[i] = FixedPointWaves.samplesFrom(x[i], 0, FixedPointWaves.inverseStep(steps[i]))
                    }
                    for i in 0..<count { out[i] = FixedPointWaves.sawtooth(out[i], fromWrap[i]) }
                }
            } else {
                for i in 0..<count { out[i] = Float(UnitWave.naiveSawtooth(phase[i])) }
            }
        case .squareFourier, .triangleFourier, .sawtoothFourier:
            // Band-limited tables (see FourierWavetables): per sample, the table of the
            // largest level whose partials all lie below Nyquist and within `fourierTerms`,
            // read by cubic B-spline at the phase. The same few operations whatever the
            // frequency or the number of terms; `UnitWave.fourier` is the formula it follows.
            if let tables = plan.fourierTables {
                tables.render(frequencies: v, phases: phase, count: count, nyquist: plan.nyquist, out: out)
            } else {
                for i in 0..<count { out[i] = 0 }
            }
        }
        switch plan.scale {
        case .none: break
        case .linear: for i in 0..<count { out[i] *= AmplitudeScaling.linear(u[i]) }
        case .sine: for i in 0..<count { out[i] *= sineArch(u[i]) }
        case .triangle: for i in 0..<count { out[i] *= AmplitudeScaling.triangle(u[i]) }
        case .parabolic: for i in 0..<count { out[i] *= AmplitudeScaling.parabolic(u[i]) }
        case .exponential, .twoStep, .wideTwoStep:
            let scale = plan.scale
            for i in 0..<count { out[i] *= Float(AmplitudeScaling.value(scale, at: Double(u[i]))) }
        }
    }

    /// The top 24 bits of a fixed-point phase as a Float in [0, 1) (all a Float holds there),
    /// through a 32-bit integer conversion, which vectorises.
    @inline(__always)
    static func floatPhase(_ x: UInt64) -> Float {
        Float(Int32(truncatingIfNeeded: (x >> 28) & 0xFF_FFFF)) * 0x1p-24
    }
}
