import Foundation
import Synchronization
import Testing
import ToneShaperControl
import ToneShaperTestSupport
import ToneShaperWire

@testable import ToneShaperOSC

#if canImport(Glibc)
    import Glibc
#endif

/// OSC over TCP beside UDP on the same port, IPv6, and reply ports.
@Suite("Transports: TCP, IPv6, reply ports")
struct TransportTests {
    @Test("TCP on the same port as UDP: changes land, queries are answered on the connection")
    func tcpBesideUDP() throws {
        let fixture = try OSCFixture()
        #expect(fixture.server.tcpURL == "osc.tcp://127.0.0.1:\(fixture.server.port)/")
        let tcp = try OSCClient(host: "127.0.0.1", port: fixture.server.port, overTCP: true)
        let ok = try tcp.request("/toneshaper/amplitude", [.float(0.25)], timeout: 2)
        #expect(ok.first?.description == "/toneshaper/ok /toneshaper/amplitude")
        #expect(fixture.controller.shape.amplitude == 0.25)
        let state = try tcp.request("/toneshaper/state", timeout: 2)
        #expect(state.first?.path == "/toneshaper/state")
        let error = try tcp.request("/toneshaper/amplitude", [.float(7)], timeout: 2)
        #expect(error.first?.path == "/toneshaper/error")
        // UDP still answers on the same port.
        #expect(try fixture.request("/toneshaper/state")?.path == "/toneshaper/state")
    }

    @Test(
        "liblo's own TCP client (oscsend osc.tcp://) drives the node",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/oscsend"), "needs liblo-tools"))
    func oscsendOverTCP() throws {
        let fixture = try OSCFixture()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/oscsend")
        process.arguments = ["osc.tcp://127.0.0.1:\(fixture.server.port)", "/toneshaper/amplitude", "f", "0.125"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(eventually { fixture.controller.shape.amplitude == 0.125 })
    }

    @Test("SLIP-framed TCP (OSC 1.1) is understood and answered in SLIP")
    func slipFraming() throws {
        let fixture = try OSCFixture()
        let socket = try LoopbackTCP(port: fixture.server.port)
        let message = try #require(OSCPacket.encode(OSCMessage(path: "/toneshaper/wave", arguments: [.string("Square")])))
        try socket.write([0xC0] + StreamConnection.slipEncoded(message))
        let reply = try #require(socket.read(timeout: 2))
        #expect(reply.last == 0xC0)
        let decoded = OSCPacket.decode(StreamConnection.slipDecoded(reply.dropLast()))
        #expect(decoded.first?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.wave == .square)
    }

    @Test("stalled TCP clients (silent, half a message, never reading) do not hold up a UDP controller")
    func stalledTCPClients() throws {
        let fixture = try OSCFixture()
        let port = fixture.server.port
        let silent = try LoopbackTCP(port: port)
        let half = try LoopbackTCP(port: port)
        // Announces 200 bytes and sends 12.
        try half.write([0, 0, 0, 200] + Array("/toneshaper/".utf8))

        // Floods queries and never reads a reply: the node must drop it, not wait for it.
        let deaf = try LoopbackTCP(port: port)
        let query = try #require(OSCPacket.encode(OSCMessage(path: "/toneshaper/state")))
        let framed = [UInt8(0), 0, 0, UInt8(query.count)] + query
        let flood = Array([[UInt8]](repeating: framed, count: 2_000).joined())
        let cutOff = Atomic<Bool>(false)
        let floodStart = monotonicSeconds()
        let flooding = Thread {
            for _ in 0..<400 {
                if (try? deaf.write(flood)) == nil {
                    cutOff.store(true, ordering: .releasing)
                    return
                }
            }
        }
        flooding.start()

        // Meanwhile a UDP controller's changes land and are answered promptly.
        var slowest = 0.0
        for i in 1...50 {
            let start = monotonicSeconds()
            let reply = try fixture.request("/toneshaper/amplitude", [.float(Float(i) / 100)], timeout: 2)
            slowest = max(slowest, monotonicSeconds() - start)
            #expect(reply?.path == "/toneshaper/ok")
        }
        #expect(fixture.controller.shape.amplitude == 0.5)
        print(String(format: "TCP stall: slowest of 50 UDP round trips with 3 stalled TCP clients: %.1f ms", slowest * 1000))
        // The deaf client is disconnected once its unread replies pass the limit: its
        // writes then fail.
        #expect(eventually(timeout: 20) { cutOff.load(ordering: .acquiring) })
        print(String(format: "TCP stall: the client that never reads was disconnected after %.1f s of flooding", monotonicSeconds() - floodStart))
        _ = silent
    }

    @Test("/reply-port sends this sender's replies to another port, 0 restores the source port")
    func replyPort() throws {
        let fixture = try OSCFixture()
        let listener = try UDPListener()
        let set = try fixture.request("/toneshaper/reply-port", [.int32(Int32(listener.port))])
        #expect(set == nil, "the ok goes to the new port, not the source")
        #expect(listener.receive(timeout: 2)?.description == "/toneshaper/ok /toneshaper/reply-port")

        try fixture.client.send("/toneshaper/state")
        #expect(listener.receive(timeout: 2)?.path == "/toneshaper/state")
        #expect(fixture.client.receive(timeout: 0.2).isEmpty)

        // The answer to the change goes where replies go after it: back to the source.
        #expect(try fixture.request("/toneshaper/reply-port", [.int32(0)])?.path == "/toneshaper/ok")
        #expect(listener.receive(timeout: 0.2) == nil)
        #expect(try fixture.request("/toneshaper/state")?.path == "/toneshaper/state")

        for bad: [OSCValue] in [[], [.int32(70_000)], [.string("x")], [.float(1.5)], [.int32(1), .int32(2)]] {
            let reply = try fixture.request("/toneshaper/reply-port", bad)
            #expect(reply?.path == "/toneshaper/error", "\(bad)")
        }
    }

    @Test("the reply-port table is bounded and forgets the sender heard from longest ago")
    func replyPortTableIsBounded() {
        var table = ReplyPortTable()
        for i in 0..<(ReplyPortTable.capacity + 10) { table.set(1000 + i, for: .v4(UInt32(i))) }
        #expect(table.count == ReplyPortTable.capacity)
        #expect(table.port(for: .v4(0)) == nil)
        #expect(table.port(for: .v4(UInt32(ReplyPortTable.capacity + 9))) == 1000 + ReplyPortTable.capacity + 9)
    }

    @Test("IPv6: a UDP and a TCP client over ::1 are answered", .enabled(if: ListeningSockets.ipv6Available(), "needs IPv6"))
    func ipv6Loopback() throws {
        let fixture = try OSCFixture()
        let udp = try OSCClient(host: "::1", port: fixture.server.port)
        #expect(try udp.request("/toneshaper/amplitude", [.float(0.375)], timeout: 2).first?.path == "/toneshaper/ok")
        #expect(fixture.controller.shape.amplitude == 0.375)
        let tcp = try OSCClient(host: "::1", port: fixture.server.port, overTCP: true)
        #expect(try tcp.request("/toneshaper/state", timeout: 2).first?.path == "/toneshaper/state")
    }

    @Test("IPv6 allow-list entries match IPv6 senders", .enabled(if: nonLoopbackIPv6Address() != nil, "needs a non-loopback IPv6 address"))
    func ipv6AllowList() throws {
        let address = try #require(nonLoopbackIPv6Address())
        let closed = try OSCFixture(clientHost: address)
        #expect(try closed.request("/toneshaper/state", timeout: 0.3) == nil)
        #expect(closed.server.counters.ignoredSenders == 1)

        let open = try OSCFixture({ $0.allow = ["fd00::/8", "2000::/3"] }, clientHost: address)
        #expect(try open.request("/toneshaper/state")?.path == "/toneshaper/state")
        let tcp = try OSCClient(host: address, port: open.server.port, overTCP: true)
        #expect(try tcp.request("/toneshaper/amplitude", [.float(0.4)], timeout: 2).first?.path == "/toneshaper/ok")
    }

    @Test("TCP clients beyond the limit push out the one idle longest")
    func connectionLimit() throws {
        let fixture = try OSCFixture()
        var sockets: [LoopbackTCP] = []
        for _ in 0..<OSCReceiveLoop.maximumConnections { sockets.append(try LoopbackTCP(port: fixture.server.port)) }
        // The server accepts in the order the connections came (the listening socket's queue),
        // so the newcomer is the one over the limit whenever the loop gets to it.
        let newcomer = try OSCClient(host: "127.0.0.1", port: fixture.server.port, overTCP: true)
        #expect(try newcomer.request("/toneshaper/state", timeout: 30).first?.path == "/toneshaper/state")
        #expect(eventually(timeout: 30) { sockets[0].isClosedByPeer() })
    }

    @Test("bytes that are not OSC are ignored and counted")
    func garbage() throws {
        let fixture = try OSCFixture()
        try fixture.client.sendPacket([1, 2, 3, 4, 5, 6, 7, 8])
        try fixture.client.sendPacket(Array("#bundle\0".utf8) + [0, 0, 0, 0, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xF0])
        #expect(eventually { fixture.server.counters.refused == 2 })
        #expect(try fixture.request("/toneshaper/state")?.path == "/toneshaper/state")
    }
}

/// A UDP socket on a free loopback port that collects OSC messages (a controller's
/// listening port).
final class UDPListener {
    let fd: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        port = ListeningSockets.localPort(of: fd) ?? 0
        guard port != 0 else { throw OSCConfigurationError("bind failed") }
    }

    deinit { close(fd) }

    func receive(timeout: Double) -> OSCMessage? {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0, let first = OSCPacket.decode(Array(buffer[0..<n])).first else { return nil }
        return OSCMessage(path: first.path, arguments: first.arguments ?? [])
    }
}

/// A global (non-loopback, non-link-local) IPv6 address of this machine, if it has one.
func nonLoopbackIPv6Address() -> String? {
    firstInterfaceAddress(family: AF_INET6) { address in
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
            var raw = pointer.pointee.sin6_addr
            _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
        }
        let string = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return string == "::1" || string.lowercased().hasPrefix("fe80") ? nil : string
    }
}
