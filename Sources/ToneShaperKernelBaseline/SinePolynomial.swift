// The kernel's single-precision sine lives with the kernel, not in ToneShaperDSP: whether
// its multiply-adds are fused is decided per instruction-set level (Package.swift defines
// FUSED_MULTIPLY_ADD for the levels that have FMA), which a shared module cannot do.

/// sin(2 pi p) for p in [0, 1) in single precision, error below 6e-7 (-124 dB): an odd
/// polynomial fitted (near-minimax) over the whole of [-pi, pi], so there is no folding
/// and no select, and loops over it vectorise at full width even on plain SSE2.
@inline(__always)
func sinUnit(_ p: Float) -> Float {
    let x = (p - 0.5) * (2 * Float.pi)  // sin(2 pi p) = -sin(x)
    let x2 = x * x
    var s: Float = 1.3451461569247259e-10
    s = horner(s, x2, -2.4676965266708353e-08)
    s = horner(s, x2, 2.75294538093851e-06)
    s = horner(s, x2, -0.0001984015533614497)
    s = horner(s, x2, 0.00833331039101189)
    s = horner(s, x2, -0.1666666458053284)
    s = horner(s, x2, 0.9999999944739341)
    return -(x * s)
}

/// s * x + c: one fused instruction on the levels with FMA (and on arm64, which always has
/// it), a multiply and an add elsewhere, never libm's software fma.
@inline(__always)
func horner(_ s: Float, _ x: Float, _ c: Float) -> Float {
    #if FUSED_MULTIPLY_ADD || arch(arm64)
        return c.addingProduct(s, x)
    #else
        return s * x + c
    #endif
}

/// sin(pi u) for u in [0, 1], the sine scaling's arch, in single precision, error below
/// 2e-7: as cos(pi (u - 1/2)), an even polynomial of degree 8 (near-minimax over the arch),
/// so a third of `sinUnit(u / 2)`'s work. 0 at u = 0, and never above 1.
@inline(__always)
func sineArch(_ u: Float) -> Float {
    let y = u - 0.5
    let z = y * y
    var s: Float = 0.2196968048810959
    s = horner(s, z, -1.3318802118301392)
    s = horner(s, z, 4.058412075042725)
    s = horner(s, z, -4.934792995452881)
    return horner(s, z, 0.9999999403953552)
}
