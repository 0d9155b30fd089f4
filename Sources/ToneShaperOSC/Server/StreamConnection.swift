import ToneShaperWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One OSC-over-TCP client. Everything is non-blocking, so a client that stalls (sends
/// half a message, never reads its replies) holds only its own buffers, never the
/// receiving thread.
///
/// Framing as liblo reads it: OSC 1.0's 32-bit big-endian length before each packet, or
/// OSC 1.1's SLIP (RFC 1055), recognised from the first bytes. Replies use the client's
/// framing.
final class StreamConnection {
    enum Framing { case undecided, lengthPrefixed, slip }

    let fd: Int32
    let peer: SocketAddress
    private(set) var framing = Framing.undecided
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    private var sent = 0
    private(set) var lastActivity: Double

    /// A packet longer than this closes the connection (UDP cannot carry more either).
    static let maximumPacket = 65_536
    /// Replies waiting for a client that does not read; past this it is disconnected.
    static let maximumPendingOutput = 256 * 1024
    /// Read per wake-up (a few hundred small messages at most), so one chatty client
    /// cannot keep the thread from the others for long.
    static let readQuantum = 4096

    init(fd: Int32, peer: SocketAddress, now: Double) {
        self.fd = fd
        self.peer = peer
        lastActivity = now
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    /// Whether replies are waiting for the socket to become writable.
    var wantsToWrite: Bool { sent < output.count }

    /// Bytes of an incomplete packet held (for tests and diagnostics).
    var pendingInput: Int { input.count }

    enum ReadOutcome {
        /// Complete packets received (possibly none yet); the connection stays.
        case packets([[UInt8]])
        /// The client closed, or broke the framing: drop the connection (after the packets).
        case closed([[UInt8]], reason: String?)
    }

    /// Reads what has arrived and returns the complete packets in it.
    func read(now: Double) -> ReadOutcome {
        var buffer = [UInt8](repeating: 0, count: StreamConnection.readQuantum)
        var total = 0
        var closedReason: String?? = nil
        while total < StreamConnection.readQuantum {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                input += buffer[0..<n]
                total += n
                continue
            }
            if n == 0 {
                closedReason = .some(nil)
                break
            }
            if errno == EINTR { continue }
            if errno != EAGAIN && errno != EWOULDBLOCK { closedReason = .some(String(cString: strerror(errno))) }
            break
        }
        if total > 0 { lastActivity = now }
        var packets: [[UInt8]] = []
        let violation = extractPackets(into: &packets)
        if let violation { return .closed(packets, reason: violation) }
        if let closedReason { return .closed(packets, reason: closedReason) }
        return .packets(packets)
    }

    /// Frames `packet` for this client and sends as much as the socket takes now. False
    /// when the client has left too much unread: the caller then drops the connection.
    func queue(_ packet: [UInt8]) -> Bool {
        if sent > 0 && sent == output.count {
            output.removeAll(keepingCapacity: true)
            sent = 0
        }
        if framing == .slip {
            output += StreamConnection.slipEncoded(packet)
        } else {
            OSCPacket.appendWord(UInt32(packet.count), to: &output)
            output += packet
        }
        guard output.count - sent <= StreamConnection.maximumPendingOutput else { return false }
        return flush()
    }

    /// Sends pending replies; false if the connection failed.
    @discardableResult
    func flush() -> Bool {
        while sent < output.count {
            let n = output.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                sent += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
        }
        output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
        sent = 0
        return true
    }

    // MARK: Framing

    private static let slipEnd: UInt8 = 0xC0, slipEscape: UInt8 = 0xDB
    private static let slipEscapedEnd: UInt8 = 0xDC, slipEscapedEscape: UInt8 = 0xDD

    /// Moves complete packets from `input` to `packets`; a description of the problem if
    /// the stream cannot be OSC.
    private func extractPackets(into packets: inout [[UInt8]]) -> String? {
        if framing == .undecided {
            guard let first = input.first else { return nil }
            // liblo's rule: a stream that starts with END, '/' or '#' is SLIP; else a length.
            framing = (first == StreamConnection.slipEnd || first == UInt8(ascii: "/") || first == UInt8(ascii: "#")) ? .slip : .lengthPrefixed
        }
        switch framing {
        case .lengthPrefixed:
            var offset = 0
            while input.count - offset >= 4 {
                let length = input[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                guard length <= StreamConnection.maximumPacket else {
                    return "a packet of \(length) bytes is announced; at most \(StreamConnection.maximumPacket) are accepted"
                }
                guard input.count - offset - 4 >= length else { break }
                if length > 0 { packets.append(Array(input[offset + 4..<offset + 4 + length])) }
                offset += 4 + length
            }
            if offset > 0 { input.removeFirst(offset) }
        case .slip:
            while let end = input.firstIndex(of: StreamConnection.slipEnd) {
                let packet = StreamConnection.slipDecoded(input[..<end])
                input.removeFirst(end + 1)
                if !packet.isEmpty { packets.append(packet) }
            }
            if input.count > 2 * StreamConnection.maximumPacket {
                return "no SLIP packet end within \(2 * StreamConnection.maximumPacket) bytes"
            }
        case .undecided:
            break
        }
        return nil
    }

    static func slipDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var escaped = false
        for byte in bytes {
            if escaped {
                out.append(byte == slipEscapedEnd ? slipEnd : byte == slipEscapedEscape ? slipEscape : byte)
                escaped = false
            } else if byte == slipEscape {
                escaped = true
            } else {
                out.append(byte)
            }
        }
        return out
    }

    static func slipEncoded(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 2)
        for byte in bytes {
            switch byte {
            case slipEnd: out += [slipEscape, slipEscapedEnd]
            case slipEscape: out += [slipEscape, slipEscapedEscape]
            default: out.append(byte)
            }
        }
        out.append(slipEnd)
        return out
    }
}
