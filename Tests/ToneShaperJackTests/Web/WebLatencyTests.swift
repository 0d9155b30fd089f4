import Foundation
import JackTimeline
import Synchronization
import Testing
import ToneShaperControl
import ToneShaperJack
import ToneShaperTestSupport
import ToneShaperWeb

#if canImport(Glibc)
    import Glibc
#endif

private func nanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

extension WithJackServer {
    /// What the editor must do: from a WebSocket message to the first sample that
    /// reflects it, at most one JACK period plus 15 ms. Measured with the real web server
    /// and node in one process (`Scripts/bench.sh web` prints the figures).
    @Suite struct WebLatency {
        @Test func webSocketMessageToSound() async throws {
            let period = 256
            let server = try PrivateJackServer(period: period)
            let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
            // When the first process callback found the change waiting (and so rendered it
            // from that period's first sample).
            let probe = RealtimeProbe()
            let node = JackNode(
                controller: controller,
                configuration: JackNodeConfiguration(clientName: "ts-web-latency", serverName: server.name, autoConnect: false, probe: probe))
            try node.start()
            defer { node.stop() }
            let web = try WebControlServer(
                controller: controller, configuration: WebConfiguration(port: 0, searchFreePort: false),
                services: WebHostServices(statistics: { node.stats() }))
            try await web.start()
            defer { web.stop() }
            let socket = try RawWebSocket(port: web.port)
            let periodMs = Double(period) / 48_000 * 1000

            // Kinds of edit: a ramped value, a new curve (a new plan), and a switch to a
            // Fourier wave with every partial below Nyquist (a plan with tables).
            let kinds: [(String, (Int) -> String)] = [
                ("amplitude", { i in "{\"address\":\"amplitude\",\"args\":[\(i % 2 == 0 ? 0.2 : 0.3)]}" }),
                ("points", { i in "{\"address\":\"points\",\"args\":[0,220,1,\(300 + i),2,220]}" }),
                ("wave (Fourier, nyquist)", { i in "{\"address\":\"wave\",\"args\":[\"\(i % 2 == 0 ? "Square Fourier" : "Sine")\"]}" }),
            ]
            try controller.set(.fourierTerms, to: .text("nyquist"))
            var report: [String] = []
            var medians: [Double] = []
            for (name, message) in kinds {
                var latencies: [Double] = []
                var refused: [String] = []
                var unobserved = 0
                for i in 0..<60 {
                    try await Task.sleep(for: .microseconds(6_000 + Int.random(in: 0..<6_000)))
                    probe.reset()
                    let sent = nanoseconds()
                    try socket.sendText(message(i))
                    // 5 s tells a change that never reaches the audio thread from a slow host.
                    let applied = await eventually(timeout: 5) { probe.commandSeenNanoseconds != nil }
                    let replies = socket.replies()
                    guard applied, let seen = probe.commandSeenNanoseconds else {
                        // A change the node refused (say, too many new curves waiting for the
                        // audio thread on a loaded host) was answered so: no lost change.
                        let refusals = replies.filter { $0.contains("\"error\"") }
                        refused += refusals
                        // Accepted, and the command channel, which only the audio thread
                        // drains, is empty: taken, in a period whose start the probe looked
                        // at just before the change arrived (a preempted callback widens
                        // that window on a loaded host). Taken, its latency unobserved.
                        if refusals.isEmpty && controller.queuedCommandCount == 0 { unobserved += 1 }
                        continue
                    }
                    latencies.append(Double(seen - sent) / 1e6)
                }
                latencies.sort()
                func at(_ q: Double) -> Double { latencies.isEmpty ? -1 : latencies[min(latencies.count - 1, Int(q * Double(latencies.count)))] }
                medians.append(at(0.5))
                report.append(
                    String(
                        format: "%@: p50 %.2f ms, p90 %.2f ms, max %.2f ms (%d of 60 applied)",
                        name, at(0.5), at(0.9), latencies.last ?? -1, latencies.count))
                if !refused.isEmpty { print("web latency: \(name): \(refused.count) refused by the node: \(refused)") }
                if unobserved > 0 { print("web latency: \(name): \(unobserved) taken by the audio thread, the moment unobserved") }
                #expect(
                    latencies.count + unobserved + refused.count == 60,
                    "\(name): \(60 - latencies.count - unobserved - refused.count) of 60 changes were neither refused nor taken by the audio thread")
                #expect(unobserved <= 3, "\(name): the probe missed \(unobserved) of 60")
                #expect(refused.count <= 6, "\(name): \(refused.count) of 60 refused: \(refused)")
            }
            print(
                String(
                    format: "web latency, WebSocket message to the callback that renders it (period %d frames = %.2f ms; goal <= %.2f ms):",
                    period, periodMs, periodMs + 15))
            for line in report { print("  " + line) }
            // The goal is a figure, printed here and measured by `Scripts/bench.sh web` on a
            // quiet host; on a shared 2-core test host a preempted thread can miss it
            // whatever the node does. What must hold anywhere is asserted above: every
            // change reached the audio thread.
            let missed = medians.filter { $0 > periodMs + 15 }.count
            print("web latency: \(medians.count - missed) of \(medians.count) kinds of edit met the goal on their median")
        }
    }
}

/// The smallest WebSocket client the measurement needs: a handshake, masked text frames
/// out, and whatever comes back read and dropped.
final class RawWebSocket {
    private let socket: LoopbackTCP
    private var fd: Int32 { socket.fd }

    init(port: Int) throws {
        socket = try LoopbackTCP(port: port)
        var noDelay: Int32 = 1
        setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        try socket.write(
            Array(
                "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                    .utf8))
        var reply = [UInt8]()
        var byte: UInt8 = 0
        while !(reply.count >= 4 && reply.suffix(4) == [13, 10, 13, 10]) {
            guard recv(fd, &byte, 1, 0) == 1 else { throw JackTestError("handshake closed") }
            reply.append(byte)
        }
        guard String(decoding: reply, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
            throw JackTestError("handshake refused: \(String(decoding: reply, as: UTF8.self))")
        }
        var nonBlocking = timeval(tv_sec: 0, tv_usec: 1)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &nonBlocking, socklen_t(MemoryLayout<timeval>.size))
    }

    func sendText(_ text: String) throws {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try socket.write(frame)
    }

    /// The text frames the server sent so far (acknowledgements, refusals), read without
    /// waiting; a server's frames are not masked.
    func replies() -> [String] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        var texts: [String] = []
        var i = 0
        while i + 2 <= bytes.count {
            var length = Int(bytes[i + 1] & 0x7F)
            var start = i + 2
            if length == 126, start + 2 <= bytes.count {
                length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                start += 2
            } else if length == 127, start + 8 <= bytes.count {
                length = bytes[start..<(start + 8)].reduce(0) { $0 << 8 | Int($1) }
                start += 8
            }
            guard start + length <= bytes.count else { break }
            if bytes[i] & 0x0F == 1 { texts.append(String(decoding: bytes[start..<(start + length)], as: UTF8.self)) }
            i = start + length
        }
        return texts
    }

    /// Reads and drops what the server sent (acknowledgements).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
    }
}
