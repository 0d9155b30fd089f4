import FlyingFox
import Foundation
import ToneShaperWire

#if canImport(Glibc)
    import Glibc
#endif

/// Who may use the web server, checked on every request before anything else happens:
///
/// - the peer's address against the same allow list as OSC (`AccessPolicy`): loopback only
///   unless `--http-host`/`--http-allow` open more;
/// - the Host header names this machine by an address, `localhost` or its own host name,
///   never another name, so a web page elsewhere cannot reach the node through DNS
///   rebinding (its name resolving to 127.0.0.1);
/// - a browser's Origin (WebSocket handshakes, POSTs) is this server's own, so another
///   site open in the same browser cannot drive the node;
/// - a peer beyond loopback must give the random token printed in the editor's URL.
struct RequestGuard: Sendable {
    let policy: AccessPolicy
    /// Required from peers beyond loopback; nil when the server is loopback only.
    let token: String?
    let hostNames: Set<String>

    init(policy: AccessPolicy, token: String?) {
        self.policy = policy
        self.token = token
        var names: Set<String> = ["localhost"]
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            let name = String(cString: buffer).lowercased()
            names.insert(name)
            names.insert(name + ".local")
        }
        hostNames = names
    }

    struct Refusal: Error {
        let status: HTTPStatusCode
        let reason: String
    }

    /// Nil when the request may go on; else why not.
    func check(_ request: HTTPRequest) -> Refusal? {
        guard let peer = RequestGuard.peer(of: request), policy.permits(peer) else {
            return Refusal(status: .forbidden, reason: "this node accepts web control only from \(policy)")
        }
        guard let host = request.headers[.host], let hostName = RequestGuard.hostName(host),
            IPAddress(hostName) != nil || hostNames.contains(hostName.lowercased())
        else {
            return Refusal(
                status: .misdirectedRequest,
                reason: "the Host header must name this machine by its address or as localhost (DNS rebinding protection)")
        }
        if let origin = request.headers[HTTPHeader("Origin")], origin.lowercased() != "http://" + host.lowercased() {
            return Refusal(status: .forbidden, reason: "requests from other sites (Origin \(origin)) are refused")
        }
        if let token, !AddressRange.loopback.contains(where: { $0.contains(peer) }) {
            let given = request.query.first { $0.name == "token" }?.value ?? ""
            guard RequestGuard.same(given, token) else {
                return Refusal(
                    status: .unauthorized, reason: "a token is required from other machines; open the URL the node printed (…/editor?token=…)")
            }
        }
        return nil
    }

    /// The peer's address from the socket, never from a header a client can write.
    static func peer(of request: HTTPRequest) -> IPAddress? {
        switch request.remoteAddress {
        case .ip4(let ip, _), .ip6(let ip, _): return IPAddress(ip)?.unmapped
        case .unix, .none: return nil
        }
    }

    /// "127.0.0.1:9001" → "127.0.0.1"; "[::1]:9001" → "::1".
    static func hostName(_ host: String) -> String? {
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return nil }
            return String(host[host.index(after: host.startIndex)..<end])
        }
        let name = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return name.isEmpty ? nil : name
    }

    /// Compares in time independent of where the strings differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// 128 random bits as hex.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16).leftPadded(16) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
