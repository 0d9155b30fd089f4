import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal equivalent of the JACK tests' PrivateJackServer (which lives in that target):
/// a dummy-driver jackd under a name of the test's own, not real-time, killed when done;
/// child processes (jalv, jack_capture, jack_midiseq) started against it and stopped with it.
final class PrivateJack: @unchecked Sendable {
    private static let counter = Atomic<Int>(0)
    let name: String
    let rate: Int
    private var server: Process?
    private var children: [(process: Process, input: FileHandle)] = []

    var environment: [String: String] { ["JACK_DEFAULT_SERVER": name] }

    static var available: Bool { LV2Tools.have("jackd", "jack_lsp", "jack_connect", "jack_capture") }

    init(rate: Int = 48_000, period: Int = 256) throws {
        name = "lv2test-\(getpid())-\(PrivateJack.counter.wrappingAdd(1, ordering: .relaxed).newValue)"
        self.rate = rate
        let process = Process()
        process.executableURL = URL(fileURLWithPath: LV2Tools.path(of: "jackd") ?? "/usr/bin/jackd")
        process.arguments = ["-n", name, "--no-realtime", "-d", "dummy", "-r", String(rate), "-p", String(period)]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        server = process
        guard waitFor({ (try? self.ports()) != nil }, seconds: 10) else {
            stop()
            throw LV2TestError("jackd \(name) did not come up")
        }
    }

    deinit { stop() }

    /// `jack_lsp`: every port, or nil when the server does not answer.
    func ports() throws -> [String]? {
        let result = try LV2Tools.run("jack_lsp", [], environment: environment, timeout: 5)
        return result.status == 0 ? result.stdout.split(separator: "\n").map(String.init) : nil
    }

    func connect(_ from: String, _ to: String) throws {
        let result = try LV2Tools.run("jack_connect", [from, to], environment: environment, timeout: 5)
        guard result.status == 0 else { throw LV2TestError("jack_connect \(from) \(to): \(result.output)") }
    }

    /// Starts a client (jalv, jack_midiseq) with a standard input the test can write to.
    @discardableResult
    func start(_ tool: String, _ arguments: [String], environment extra: [String: String] = [:], output: URL? = nil) throws -> (
        process: Process, input: FileHandle
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: LV2Tools.path(of: tool) ?? tool)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment.merging(extra) { $1 }) { $1 }
        let input = Pipe()
        process.standardInput = input
        if let output {
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
            process.standardError = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        children.append((process, input.fileHandleForWriting))
        return (process, input.fileHandleForWriting)
    }

    /// Records `port` for `seconds` with jack_capture (mono float WAV); the samples.
    func record(_ port: String, seconds: Double) throws -> [Float] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lv2-capture-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try LV2Tools.run(
            "jack_capture", ["--channels", "1", "--port", port, "--recording-time", String(seconds), "--daemon", file.path],
            environment: environment, timeout: seconds + 15)
        guard result.status == 0 else { throw LV2TestError("jack_capture: \(result.output)") }
        return try Self.floatWave(file)
    }

    func stop() {
        // jalv reads its console on standard input: closed first, then SIGTERM, then SIGKILL.
        for (child, input) in children {
            try? input.close()
            guard child.isRunning else { continue }
            kill(child.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(3)
            while child.isRunning && Date() < deadline { usleep(10_000) }
            if child.isRunning { kill(child.processIdentifier, SIGKILL) }
            child.waitUntilExit()
        }
        children = []
        guard let server else { return }
        self.server = nil
        if server.isRunning {
            kill(server.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(3)
            while server.isRunning && Date() < deadline { usleep(10_000) }
            if server.isRunning { kill(server.processIdentifier, SIGKILL) }
        }
        server.waitUntilExit()
    }

    func waitFor(_ condition: () -> Bool, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return false
    }

    /// The first channel of a 32-bit float WAV file (what jack_capture writes).
    static func floatWave(_ url: URL) throws -> [Float] {
        let bytes = [UInt8](try Data(contentsOf: url))
        func u16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        func u32(_ i: Int) -> Int { u16(i) | u16(i + 2) << 16 }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8) else { throw LV2TestError("\(url.path): not a WAV file") }
        var offset = 12
        var channels = 1
        var isFloat = false
        while offset + 8 <= bytes.count {
            let size = min(u32(offset + 4), bytes.count - offset - 8)
            let body = offset + 8
            if bytes[offset..<offset + 4].elementsEqual("fmt ".utf8) {
                let format = u16(body)
                channels = u16(body + 2)
                isFloat = (format == 3 || (format == 0xFFFE && size >= 26 && u16(body + 24) == 3)) && u16(body + 14) == 32
            } else if bytes[offset..<offset + 4].elementsEqual("data".utf8) {
                guard isFloat else { throw LV2TestError("\(url.path): not 32-bit float") }
                return stride(from: body, to: body + size - 3, by: 4 * channels).map { Float(bitPattern: UInt32(u32($0))) }
            }
            offset = body + size + (size & 1)
        }
        throw LV2TestError("\(url.path): no data chunk")
    }
}
