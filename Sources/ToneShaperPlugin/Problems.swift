/// A kind of bad input a plugin format's shell refuses on the audio thread: each format has
/// its own list (an enum of `Int` raw values 0, 1, 2, ...), with the line logged for it.
/// The audio thread never logs (no host's log is for it): it counts each kind in
/// ``Problems``, and at the end of the block, when any was counted, hands the counts to the
/// work thread in one message, which logs one line per kind (``HeldProblems/take(_:now:host:)``).
/// So a host that floods the plugin with bad events gets at most one message per block
/// queued, and the sound goes on. Counts that could not be queued wait for the next block.
public protocol PluginProblem: RawRepresentable where RawValue == Int {
    /// How many kinds there are (raw values 0 ..< count).
    static var count: Int { get }
    /// The line logged for it, without the count.
    var message: StaticString { get }
}

/// Per-kind counts, in memory allocated when the instance is made. (The audio thread's
/// methods are proved free of locks and allocation where a shell's entry calls them.)
public struct Problems<Kind: PluginProblem> {
    /// The count of each kind, then (one past them) the count of every problem noted, so
    /// that a block with none (nearly every block) asks one number.
    public let counts: UnsafeMutablePointer<UInt32>

    public init() {
        counts = .allocate(capacity: Kind.count + 1)
        counts.initialize(repeating: 0, count: Kind.count + 1)
    }

    public func free() { counts.deallocate() }

    /// The bytes of a message with the counts of every kind (``HeldProblems/take(_:now:host:)``).
    public static var messageSize: Int { Kind.count * 4 }

    @inline(__always)
    public func note(_ problem: Kind) {
        counts[problem.rawValue] &+= 1
        counts[Kind.count] &+= 1
    }

    @inline(__always)
    public func any() -> Bool { counts[Kind.count] != 0 }

    public func clear() { counts.update(repeating: 0, count: Kind.count + 1) }

    /// At a block's end, when any was counted: the counts (``messageSize`` bytes) handed to
    /// `send`, which copies them onto the work thread's queue, then cleared; kept for the
    /// next block when `send` refuses them (a full queue).
    @inline(__always)
    public func handOff(_ send: (UnsafeRawBufferPointer) -> Bool) {
        guard any() else { return }
        if send(UnsafeRawBufferPointer(start: counts, count: Problems.messageSize)) { clear() }
    }
}

/// The work thread's side: counts not logged yet, and when each kind was last logged.
public struct HeldProblems<Kind: PluginProblem> {
    let counts: UnsafeMutablePointer<UInt32>
    let lastLogged: UnsafeMutablePointer<Double>

    public init() {
        counts = .allocate(capacity: Kind.count)
        counts.initialize(repeating: 0, count: Kind.count)
        lastLogged = .allocate(capacity: Kind.count)
        lastLogged.initialize(repeating: -.infinity, count: Kind.count)
    }

    public func free() {
        counts.deallocate()
        lastLogged.deallocate()
    }

    /// Takes a block's counts (``Problems/messageSize`` bytes, as ``Problems/counts`` holds
    /// them) and logs one line per kind; a kind logged less than a second before `now`
    /// (seconds on a monotonic clock) is held back and counted into its next line, so a host
    /// that sends the same bad input every block gets a line a second, with the count.
    public func take(_ payload: UnsafeRawBufferPointer, now: Double, host: some PluginHost) {
        guard payload.count == Kind.count * 4, let base = payload.baseAddress else { return }
        for index in 0..<Kind.count {
            counts[index] &+= base.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
            guard counts[index] != 0, now - lastLogged[index] >= 1, let problem = Kind(rawValue: index) else { continue }
            HeldProblems.log(problem, count: counts[index], host: host)
            counts[index] = 0
            lastLogged[index] = now
        }
    }

    /// Logs what is still held (the instance is going): nothing counted is lost.
    public func flush(host: some PluginHost) {
        for index in 0..<Kind.count where counts[index] != 0 {
            if let problem = Kind(rawValue: index) { HeldProblems.log(problem, count: counts[index], host: host) }
            counts[index] = 0
        }
    }

    private static func log(_ problem: Kind, count: UInt32, host: some PluginHost) {
        let text = String(decoding: UnsafeRawBufferPointer(start: problem.message.utf8Start, count: problem.message.utf8CodeUnitCount), as: UTF8.self)
        host.log(.warning, count > 1 ? text + " (" + String(count) + " times)" : text)
    }
}
