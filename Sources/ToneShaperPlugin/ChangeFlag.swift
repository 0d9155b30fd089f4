import Synchronization

/// A flag one thread raises and another takes (the curve changed, for a redraw; parameters
/// moved behind the host's back, for a rescan), in memory allocated with the instance:
/// raising, looking and taking are lock-free, and the audio thread may do any of them.
public struct ChangeFlag {
    let flag: UnsafeMutablePointer<Atomic<Bool>>

    public init(raised: Bool = false) {
        flag = .allocate(capacity: 1)
        flag.initialize(to: Atomic(raised))
    }

    public func free() {
        flag.deinitialize(count: 1)
        flag.deallocate()
    }

    @inline(__always)
    public func raise() { flag.pointee.store(true, ordering: .releasing) }

    @inline(__always)
    public var isRaised: Bool { flag.pointee.load(ordering: .acquiring) }

    /// Whether it was raised; it is lowered.
    @inline(__always)
    public func take() -> Bool { flag.pointee.exchange(false, ordering: .acquiringAndReleasing) }
}
