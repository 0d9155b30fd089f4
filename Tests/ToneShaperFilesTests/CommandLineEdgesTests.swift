import Foundation
import Testing
import ToneShaperControl
import ToneShaperModel

@testable import ToneShaperFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The command line's rough edges, tried as a new user would.
@Suite struct CommandLineEdgesTests {
    /// Runs the executable through bash, so that its standard output can go to a file.
    static func shell(_ command: String, library: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["TONESHAPER_LIBRARY"] = library
        environment["TS"] = Toneshaper.executable
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    @Test("1: send exits non-zero (69) when no node answers, for changes as for queries")
    func sendWithoutANode() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for arguments in [["/amplitude", "0.5"], ["/state"]] {
            let result = try Toneshaper.run(["send"] + arguments + ["--port", "9", "--wait", "0.2"], library: dir.path)
            #expect(result.status == 69)
            #expect(result.stderr.hasPrefix("toneshaper send: error: no reply from 127.0.0.1:9 within 0.2 s"))
        }
        #expect(try Toneshaper.run(["send", "/state", "--host", "::1", "--port", "9", "--wait", "0.2"], library: dir.path).status == 69)
        #expect(try Toneshaper.run(["send", "/state", "--host", "my-laptop"], library: dir.path).status == 64)
    }

    @Test("3: presets lists only names that load; other files are named on stderr")
    func presetsListsLoadableNames() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let siren = try String(contentsOfFile: repositorySessions + "/siren.toneshaper", encoding: .utf8)
        try dir.write("with space.toneshaper", siren)
        try dir.write("good.toneshaper", siren)
        let listing = try Toneshaper.run(["presets"], library: dir.path)
        #expect(listing.status == 0)
        #expect(listing.stdout.contains("good"))
        #expect(!listing.stdout.contains("with space"))
        #expect(listing.stderr.contains("with space.toneshaper is not listed"))
        #expect(listing.stderr.contains("with-space.toneshaper"))
        // What is listed loads.
        let render = try Toneshaper.run(["render", "good", "-o", dir.file("good.wav"), "--seconds", "0.1"], library: dir.path)
        #expect(render.status == 0, "\(render.stderr)")
    }

    @Test(
        "4 and 16: -o - writes WAV, FLAC and Ogg to standard output; -r sets the rate as in sox",
        arguments: ["wav", "flac", "ogg"])
    func renderToStandardOutput(format: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.file("out.\(format)")
        let result = try Self.shell("\"$TS\" render siren -o - --seconds 0.5 -r 44100 --format \(format) > '\(file)'", library: dir.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("wrote standard output: 0.5 s, 44100 Hz"))
        let info = try AudioFileReader.info(path: file)
        #expect(info.sampleRate == 44100)
        #expect(info.frames == 22050)
        #expect(!FileManager.default.fileExists(atPath: dir.file("-")))
        // Through a pipe too (a pipe cannot seek; the header must be complete anyway).
        let piped = try Self.shell("\"$TS\" render siren -o - --seconds 0.5 --format \(format) | cat > '\(file)'", library: dir.path)
        #expect(piped.status == 0)
        #expect(try AudioFileReader.info(path: file).frames == 24000)
    }

    @Test("5 and 6: one error style, the subcommand's usage for usage errors, one exit status per kind")
    func errorStyle() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let noServer = "JACK_DEFAULT_SERVER=ts-nobody-\(getpid())"
        let cases: [(command: String, status: Int32, starts: String, usage: Bool)] = [
            ("\"$TS\" render sirn -o '\(dir.file("a.wav"))'", 66, "toneshaper render: error: no tone shape named \"sirn\"", false),
            ("\(noServer) \"$TS\" run sirn", 66, "toneshaper run: error: no tone shape named \"sirn\"", false),
            (
                "\"$TS\" render siren -o '\(dir.file("a.wav"))' --seconds -1", 64,
                "toneshaper render: error: --seconds must be a number greater than 0", true
            ),
            ("\(noServer) \"$TS\" run siren --osc-port 70000", 64, "toneshaper run: error: OSC port 70000 is out of range", true),
            ("\(noServer) \"$TS\" run siren --osc-allow 300.1.1.1/33", 64, "toneshaper run: error: allow-list entry \"300.1.1.1/33\"", true),
            ("\"$TS\" render siren -o /nonexistent-dir/a.wav", 73, "toneshaper render: error: /nonexistent-dir/a.wav: the directory", false),
            ("\(noServer) \"$TS\" run siren --no-osc", 69, "toneshaper run: error: no JACK server is running", false),
        ]
        for c in cases {
            let result = try Self.shell(c.command, library: dir.path)
            #expect(result.status == c.status, "\(c.command): \(result.stderr)")
            #expect(result.stderr.hasPrefix(c.starts), "\(c.command): \(result.stderr)")
            let subcommand = c.starts.split(separator: ":")[0]
            #expect(result.stderr.contains("Usage: \(subcommand)") == c.usage, "\(c.command): \(result.stderr)")
            #expect(!result.stderr.contains("Error:"), "\(c.command): \(result.stderr)")
        }
        #expect(dir.contents().isEmpty)
    }

    @Test("5: a busy OSC port is named before JACK is touched, without liblo's noise")
    func busyPort() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let fd = socket(AF_INET6, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var off: Int32 = 0
        setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let port = Int(UInt16(bigEndian: address.sin6_port))
        // No JACK server under this name: had JACK been tried first, that would be the error.
        let result = try Self.shell("JACK_DEFAULT_SERVER=ts-nobody-\(getpid()) \"$TS\" run siren --osc-port \(port)", library: dir.path)
        #expect(result.status == 69)
        #expect(result.stderr == "toneshaper run: error: port \(port) is in use; use --osc-port 0 for any free port\n")
    }

    @Test("6: /load's not-found message offers no path; the command line's does")
    func notFoundWording() {
        let library = DocumentLibrary(locations: LibraryLocations(userDirectory: "/nonexistent", sessionsDirectory: repositorySessions))
        #expect(throws: LibraryError.self) { try library.load(named: "nosuch") }
        do { _ = try library.load(named: "nosuch") } catch { #expect(!error.description.contains("path")) }
        do { _ = try library.load("nosuch") } catch { #expect(error.description.contains("give a path")) }
    }

    @Test("10: float WAV has the 18-byte fmt chunk and a fact chunk, and sox reads it without a warning")
    func floatWaveHeader() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.file("f.wav")
        #expect(try Toneshaper.run(["render", "siren", "-o", file, "--seconds", "0.25"], library: dir.path).status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(Array(bytes[12..<16]) == Array("fmt ".utf8))
        #expect(bytes[16] == 18 && bytes[20] == 3 && bytes[36] == 0)  // fmt size, IEEE float, cbSize 0
        #expect(Array(bytes[38..<42]) == Array("fact".utf8))
        #expect(bytes.count == FloatWaveHeader.size + 12_000 * 4)
        let info = try AudioFileReader.info(path: file)
        #expect(info.frames == 12_000 && info.sampleFormat == .f32)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sox") {
            let sox = try Self.shell("sox '\(file)' -n", library: dir.path)
            #expect(sox.status == 0)
            #expect(sox.stderr.isEmpty, "\(sox.stderr)")
        }
    }

    @Test("11: rendering onto a symlink writes its target; an existing file keeps its mode")
    func symlinkAndMode() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("target.wav", "old")
        chmod(dir.file("target.wav"), 0o640)
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.wav"), withDestinationPath: "target.wav")
        let result = try Toneshaper.run(["render", "siren", "-o", dir.file("link.wav"), "--seconds", "0.1"], library: dir.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.file("link.wav")) == "target.wav")
        #expect(try AudioFileReader.info(path: dir.file("target.wav")).frames == 4800)
        var st = stat()
        stat(dir.file("target.wav"), &st)
        #expect(st.st_mode & 0o777 == 0o640)
        #expect(dir.contents() == ["link.wav", "target.wav"])
        // A dangling link creates the file it names.
        try FileManager.default.createSymbolicLink(atPath: dir.file("dangling.wav"), withDestinationPath: "new.wav")
        #expect(try Toneshaper.run(["render", "siren", "-o", dir.file("dangling.wav"), "--seconds", "0.1"], library: dir.path).status == 0)
        #expect(try AudioFileReader.info(path: dir.file("new.wav")).frames == 4800)
    }

    @Test("12: a saved copy is named as saved and its description marked as derived")
    func savedCopy() {
        var shape = ToneShape.defaultShape
        shape.name = "siren"
        shape.description = "A wailing siren"
        let copy = DocumentLibrary.savedCopy(of: shape, as: "my-siren")
        #expect(copy.name == "my-siren")
        #expect(copy.description == "Derived from \"siren\": A wailing siren")
        // A copy of the copy names its nearest original once.
        let again = DocumentLibrary.savedCopy(of: copy, as: "my-siren-2")
        #expect(again.description == "Derived from \"my-siren\": A wailing siren")
        // Saved under its own name: unchanged.
        #expect(DocumentLibrary.savedCopy(of: shape, as: "siren") == shape)
    }
}
