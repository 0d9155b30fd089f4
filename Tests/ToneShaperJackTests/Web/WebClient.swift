import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTP client for the node's web side: URLSession for ordinary requests, and raw
/// bytes over TCP for the ones URLSession will not send (a forged Host, a lying
/// Content-Length).
struct WebClient {
    let base: String  // "http://127.0.0.1:PORT"

    var port: Int { Int(base.split(separator: ":").last ?? "") ?? 0 }

    func get(_ path: String) async throws -> (status: Int, body: Data) {
        try await send(URLRequest(url: URL(string: base + path)!))
    }

    func getJSON(_ path: String) async throws -> Any {
        let (status, body) = try await get(path)
        guard status == 200 else { throw JackTestError("GET \(path): \(status) \(String(decoding: body, as: UTF8.self))") }
        return try JSONSerialization.jsonObject(with: body)
    }

    func post(_ path: String, _ body: String) async throws -> (status: Int, json: [String: Any]) {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        let (status, data) = try await send(request)
        return (status, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    private func send(_ request: URLRequest) async throws -> (status: Int, body: Data) {
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Sends `text` as it is and returns the status line's code (0 if the server closed
    /// without one) with what came back.
    func raw(_ text: String, timeout: Double = 5) throws -> (status: Int, text: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw JackTestError("socket failed") }
        defer { close(fd) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw JackTestError("cannot connect to port \(port)") }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
            // One response is enough: stop once its body has arrived.
            let reply = String(decoding: received, as: UTF8.self)
            if let headerEnd = reply.range(of: "\r\n\r\n"),
                let lengthLine = reply[..<headerEnd.lowerBound].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }
                ),
                let length = Int(lengthLine.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)),
                reply.utf8.distance(from: reply.utf8.startIndex, to: headerEnd.upperBound) + length <= received.count
            {
                break
            }
        }
        let reply = String(decoding: received, as: UTF8.self)
        let status = reply.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, reply)
    }
}

extension NodeProcess {
    /// The editor URL printed on the "Editor: " line.
    var editorURL: String? {
        stdout.text.split(separator: "\n").first { $0.hasPrefix("Editor: ") }.map { String($0.dropFirst("Editor: ".count)) }
    }

    /// Waits for the Editor line too, and gives a client for the node's web side.
    func webClient(timeout: Double = 10) async throws -> WebClient {
        _ = await eventually(timeout: timeout) { editorURL != nil || !process.isRunning }
        guard let url = editorURL, let end = url.range(of: "/editor") else {
            throw JackTestError("no Editor line; stdout: \(stdout.text) stderr: \(stderr.text)")
        }
        return WebClient(base: String(url[..<end.lowerBound]))
    }
}
