import ToneShaperWire

/// `<prefix>/reply-port P`: the port each sender wants its replies on. Controllers such as
/// TouchOSC send from one port and listen on another.
///
/// Keyed by the sender's IP address, not its source port: many senders (oscsend, a new
/// socket per message) change source port every time, and "replies to my machine go to
/// port P" is what the user set up in the controller. Bounded: past `capacity` senders the
/// one not heard from longest is forgotten, so a flood of forged sources cannot grow it.
struct ReplyPortTable {
    static let capacity = 64

    private var ports: [IPAddress: (port: Int, lastUsed: UInt64)] = [:]
    private var clock: UInt64 = 0

    /// The port replies to `sender` go to, if it chose one.
    mutating func port(for sender: IPAddress) -> Int? {
        guard var entry = ports[sender] else { return nil }
        clock += 1
        entry.lastUsed = clock
        ports[sender] = entry
        return entry.port
    }

    /// Sets (1...65535) or clears (0) a sender's reply port.
    mutating func set(_ port: Int, for sender: IPAddress) {
        if port == 0 {
            ports[sender] = nil
            return
        }
        clock += 1
        if ports[sender] == nil, ports.count >= ReplyPortTable.capacity,
            let oldest = ports.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
        {
            ports[oldest] = nil
        }
        ports[sender] = (port, clock)
    }

    var count: Int { ports.count }
}
