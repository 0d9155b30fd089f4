/// A value that moves linearly to a new target over a given number of samples, so that a
/// continuous parameter never jumps (SPEC 8).
public struct Ramp: Equatable, Sendable {
    @usableFromInline var current: Double
    @usableFromInline var goal: Double
    @usableFromInline var increment: Double = 0
    @usableFromInline var left: Int = 0

    public init(_ value: Double) {
        current = value
        goal = value
    }

    @inlinable public var value: Double { current }
    @inlinable public var target: Double { goal }
    /// Samples until the target is reached; 0 when still.
    @inlinable public var remaining: Int { left }
    @inlinable public var isMoving: Bool { left > 0 }

    public mutating func move(to newTarget: Double, over samples: Int) {
        goal = newTarget
        if samples <= 0 || newTarget == current {
            current = newTarget
            left = 0
            increment = 0
        } else {
            left = samples
            increment = (newTarget - current) / Double(samples)
        }
    }

    /// Takes the target at once (nothing has been heard yet that a jump could click in).
    public mutating func settle() { move(to: goal, over: 0) }

    /// The value `offset` samples from now (the target once the ramp is over).
    @inlinable @inline(__always)
    public func value(after offset: Int) -> Double {
        offset >= left ? goal : current + increment * Double(offset)
    }

    /// Moves `count` samples on.
    @inlinable @inline(__always)
    public mutating func advance(by count: Int) {
        if left == 0 { return }
        if count >= left {
            current = goal
            left = 0
            increment = 0
        } else {
            left -= count
            current += increment * Double(count)
        }
    }
}
