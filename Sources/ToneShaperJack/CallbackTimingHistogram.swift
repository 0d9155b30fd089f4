import CJack

/// How long each process callback took, as a histogram the audio thread fills without
/// locks or allocation, and the control side reads (relaxed, so a reading may be a period
/// behind) to report percentiles.
///
/// Buckets: 0.1 µs wide below 100 µs (where a 64-frame callback lives), 1 µs wide up to
/// 10 ms, then one overflow bucket.
final class CallbackTimingHistogram: @unchecked Sendable {
    static let fineWidth: UInt64 = 100  // ns
    static let fineLimit: UInt64 = 100_000  // ns
    static let coarseWidth: UInt64 = 1_000  // ns
    static let coarseLimit: UInt64 = 10_000_000  // ns
    static let fineCount = Int(fineLimit / fineWidth)
    static let coarseCount = Int((coarseLimit - fineLimit) / coarseWidth)
    static let bucketCount = fineCount + coarseCount + 1

    /// Written only by the audio thread (through `record`), read by anyone.
    let buckets: UnsafeMutablePointer<UInt64>

    init() {
        buckets = UnsafeMutablePointer<UInt64>.allocate(capacity: CallbackTimingHistogram.bucketCount)
        buckets.initialize(repeating: 0, count: CallbackTimingHistogram.bucketCount)
    }

    deinit { buckets.deallocate() }

    /// The middle of a bucket, in microseconds (the overflow bucket reports its start).
    static func microseconds(ofBucket index: Int) -> Double {
        if index < fineCount { return (Double(index) + 0.5) * Double(fineWidth) / 1000 }
        if index < fineCount + coarseCount {
            return (Double(fineLimit) + (Double(index - fineCount) + 0.5) * Double(coarseWidth)) / 1000
        }
        return Double(coarseLimit) / 1000
    }

    /// The callback times (µs) below which the given fractions of callbacks fall, and how
    /// many callbacks were counted.
    func percentiles(_ fractions: [Double]) -> (values: [Double], total: UInt64) {
        var counts = [UInt64](repeating: 0, count: CallbackTimingHistogram.bucketCount)
        var total: UInt64 = 0
        for i in 0..<CallbackTimingHistogram.bucketCount {
            counts[i] = toneshaper_load_relaxed_u64(buckets + i)
            total &+= counts[i]
        }
        guard total > 0 else { return (fractions.map { _ in 0 }, 0) }
        let values = fractions.map { fraction -> Double in
            // The smallest bucket whose running count reaches ceil(fraction * total).
            let wanted = max(1, UInt64((fraction * Double(total)).rounded(.up)))
            var running: UInt64 = 0
            for i in 0..<counts.count {
                running &+= counts[i]
                if running >= wanted { return CallbackTimingHistogram.microseconds(ofBucket: i) }
            }
            return CallbackTimingHistogram.microseconds(ofBucket: counts.count - 1)
        }
        return (values, total)
    }
}

// The audio thread's side, as plain functions: a class's static method would need the
// class's metadata, which the real-time proof does not allow.

/// The bucket of a callback that took `ns` nanoseconds.
#if REALTIME_PROOF
    @_noLocks @_noAllocation
#endif
@inline(__always)
func timingBucket(forNanoseconds ns: UInt64) -> Int {
    typealias H = CallbackTimingHistogram
    if ns < H.fineLimit { return Int(ns / H.fineWidth) }
    if ns < H.coarseLimit { return H.fineCount + Int((ns - H.fineLimit) / H.coarseWidth) }
    return H.bucketCount - 1
}

/// Audio thread only (single writer): counts one callback of `ns` nanoseconds.
#if REALTIME_PROOF
    @_noLocks @_noAllocation
#endif
@inline(__always)
func recordCallbackTime(_ ns: UInt64, into buckets: UnsafeMutablePointer<UInt64>) {
    RealtimeCalls.increment(buckets + timingBucket(forNanoseconds: ns))
}
