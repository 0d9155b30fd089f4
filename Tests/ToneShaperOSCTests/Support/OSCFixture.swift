import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperWire

@testable import ToneShaperOSC

#if canImport(Glibc)
    import Glibc
#endif

/// A controller with no audio thread, an OSC server on a free loopback port, and a client
/// talking to it over real UDP: everything but JACK.
final class OSCFixture {
    let controller: EngineController
    let server: OSCControlServer
    let client: OSCClient
    /// The audio side, never run: what the controller sends waits in its channel.
    let audio: AudioSideBox

    init(
        _ configure: (inout OSCControlServer.Configuration) -> Void = { _ in },
        services: OSCHostServices = OSCHostServices(), documents: (any DocumentStore)? = nil,
        clientHost: String = "127.0.0.1"
    ) throws {
        controller = EngineController(shape: .defaultShape, sampleRate: 48_000, documents: documents)
        audio = AudioSideBox(controller.makeRenderer())
        var configuration = OSCControlServer.Configuration(port: 0)
        configure(&configuration)
        server = try OSCControlServer(controller: controller, configuration: configuration, services: services)
        try server.start()
        client = try OSCClient(host: clientHost, port: server.port)
    }

    deinit {
        server.stop()
    }

    /// Sends one message and returns the single reply (nil after `timeout`).
    func request(
        _ path: String, _ arguments: [OSCValue] = [], at tag: OSCTimeTag? = nil,
        timeout: Double = 2
    ) throws -> OSCMessage? {
        let replies = try client.request(path, arguments, at: tag, timeout: timeout)
        return replies.first
    }

    /// Everything the controller queued for the (absent) audio thread.
    func takeCommands() -> [TimedCommand] {
        audio.renderer.drainCommands()
    }
}

/// Holds a renderer (`~Copyable`) for a test.
final class AudioSideBox {
    var renderer: RealtimeRenderer
    init(_ renderer: consuming RealtimeRenderer) { self.renderer = renderer }
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(timeout: Double = 2, _ condition: () -> Bool) -> Bool {
    let deadline = monotonicSeconds() + timeout
    while monotonicSeconds() < deadline {
        if condition() { return true }
        usleep(2_000)
    }
    return condition()
}

extension OSCMessage {
    /// A key/value reply (`/state`, `/stats`) as a dictionary.
    var pairs: [String: OSCValue] {
        var result: [String: OSCValue] = [:]
        var i = 0
        while i + 1 < arguments.count {
            if case .string(let key) = arguments[i] { result[key] = arguments[i + 1] }
            i += 2
        }
        return result
    }
}

/// The first address of an interface that is up, of `family`, that `pick` accepts (it
/// returns the address as text, or nil to pass it over).
func firstInterfaceAddress(family: Int32, _ pick: (UnsafePointer<sockaddr>) -> String?) -> String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0 else { return nil }
    defer { freeifaddrs(list) }
    var cursor = list
    while let entry = cursor {
        defer { cursor = entry.pointee.ifa_next }
        guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(family),
            entry.pointee.ifa_flags & UInt32(IFF_UP) != 0
        else { continue }
        if let text = pick(address) { return text }
    }
    return nil
}

/// A non-loopback IPv4 address of this machine, if it has one (to send from a source the
/// default policy refuses).
func nonLoopbackIPv4Address() -> String? {
    firstInterfaceAddress(family: AF_INET) { address in
        let bits = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
        return bits >> 24 == 127 ? nil : IPAddress.v4(bits).description
    }
}

/// Sends raw bytes as one UDP datagram to a loopback port: for packets no OSC library
/// would build.
func sendRawDatagram(_ bytes: [UInt8], toPort port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let sent = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, 0, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
    return sent == bytes.count
}

/// An OSC string: the bytes, a NUL, padded to a multiple of four.
func oscString(_ s: String) -> [UInt8] {
    var bytes = Array(s.utf8) + [0]
    while bytes.count % 4 != 0 { bytes.append(0) }
    return bytes
}
