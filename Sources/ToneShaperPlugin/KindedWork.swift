/// A host's own worker, for a format that has one (LV2's worker:schedule): it copies a
/// message of bytes for its work thread; false when its queue is full. Called on the audio thread.
public protocol HostWorker {
    func schedule(_ message: UnsafeRawBufferPointer) -> Bool
}

/// Where a shell's work goes when its host may have a worker (``HostWorker``) and may not:
/// a message of a kind and bytes, framed as one run of bytes (``KindedMessage``) in memory
/// allocated with the instance, goes to the host's worker, or, without one, to a
/// ``WorkThread`` of the plugin's own, which works it as the host's worker would and whose
/// answers a block takes at its start, as the host would hand them over between blocks.
/// Its audio thread's calls are inlinable, so that a shell's run() specializes them, and the
/// proof that they take no lock and allocate nothing is made there.
public struct KindedWork<Worker: HostWorker, Kind: RawRepresentable> where Kind.RawValue == UInt32 {
    /// nil when the host has no worker: the messages go to `ownThread`.
    public let worker: Worker?
    public let ownThread: WorkThread?
    /// Room for one message (a kind and at most `capacity - 4` bytes).
    public let scratch: UnsafeMutableRawPointer
    public let capacity: Int

    /// Over the host's `worker`, else a thread of the plugin's own (started by ``start(_:context:host:)``).
    public init(worker: Worker?, capacity: Int) {
        self.worker = worker
        ownThread = worker == nil ? WorkThread(slots: 64) : nil
        scratch = .allocate(byteCount: capacity, alignment: 8)
        self.capacity = capacity
    }

    /// The own thread (if any) started on `body(context)`, which serves it; the failure is logged.
    public func start(
        _ body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?, context: UnsafeMutableRawPointer, host: some PluginHost
    ) {
        guard let ownThread, !ownThread.start(body, context: context) else { return }
        host.log(
            .error, "the host offers no worker and the plugin's own work thread could not be started: changes that need a new plan are not heard")
    }

    /// The own thread (if any) stopped, then everything freed.
    public func free() {
        if let ownThread {
            ownThread.stop()
            ownThread.free()
        }
        scratch.deallocate()
    }

    /// Queues `payload` as a message of `kind`; false when it is too large or the queue is full.
    @inlinable
    public func schedule(_ kind: Kind, _ payload: UnsafeRawBufferPointer) -> Bool {
        guard let size = KindedMessage.write(kind.rawValue, payload, into: scratch, capacity: capacity) else { return false }
        let message = UnsafeRawBufferPointer(start: scratch, count: size)
        guard let worker else { return ownThread?.push(0, message) ?? false }
        return worker.schedule(message)
    }

    /// The own thread's answers, for a block to take at its start as the host's worker would
    /// hand them over (nil: the host's worker hands them over itself).
    @inlinable
    public var answers: MessageRing? { ownThread?.answers }

    /// What was pushed so far (a block notes it at its start, for ``finishBlock(pushedBefore:)``).
    @inlinable
    public func pushedCount() -> Int { ownThread?.pushedCount() ?? 0 }

    /// At a block's end: the own thread woken when anything was queued for it.
    @inlinable
    public func finishBlock(pushedBefore: Int) { ownThread?.finishBlock(pushedBefore: pushedBefore, offline: false) }

    /// On the own thread: an answer (copied) for the audio thread's next block; false when its queue is full.
    public func answer(_ message: UnsafeRawBufferPointer) -> Bool { ownThread?.answers.push(0, message) ?? false }
}
