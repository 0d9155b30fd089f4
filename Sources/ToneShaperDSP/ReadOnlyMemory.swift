/// The address of memory that is written once, before any plan pointing to it is handed to
/// another thread, and only read from then on, by any thread, until its owner frees it; the
/// owner waits for every plan that points to it to come back first (`CurveStorage` through
/// the renderer's channel back; `FourierWavetables` is held by every storage whose plan
/// reads it, so it outlives them all).
///
/// This is the one promise behind the plans' `Sendable` that the compiler takes on trust,
/// kept in this one type: `RenderPlan`, `FourierTablePlan` and `WavetableLevel` hold their
/// memory through it and are checked `Sendable` (and `BitwiseCopyable`) field by field, so a
/// field that could not cross threads, or that would retain on the audio thread, is refused.
/// The channel that publishes a plan orders the writes before it (a release store, an
/// acquire load), so a reader on the other side sees the memory as written.
@frozen
public struct ReadOnlyMemory<Pointee>: @unchecked Sendable, BitwiseCopyable {
    public let address: UnsafePointer<Pointee>

    @inlinable @inline(__always)
    public init(_ address: UnsafePointer<Pointee>) { self.address = address }
}
