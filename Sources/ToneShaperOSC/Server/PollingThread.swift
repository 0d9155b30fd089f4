import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A thread that sleeps in poll() on its sockets and on a wake-up pipe, so an idle node
/// costs no CPU on OSC (liblo's own server thread wakes every 10 ms to poll for nothing).
/// `stop()` writes to the pipe and returns once the thread's body has returned: after it,
/// nothing touches the sockets the body polled.
final class PollingThread: Sendable {
    /// Poll this descriptor for reading with the sockets: readable means stop.
    let wakeDescriptor: Int32
    private let wakeWriter: Int32
    private let finished = DispatchSemaphore(value: 0)

    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        wakeDescriptor = ends[0]
        wakeWriter = ends[1]
    }

    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [finished] in
            body()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Wakes the thread and waits for its body to return. Call once, after `start`.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
        finished.wait()
        close(wakeDescriptor)
        close(wakeWriter)
    }
}
