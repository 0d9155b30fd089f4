import Foundation
import Testing
import ToneShaperTestSupport

@testable import ToneShaperFiles
@testable import toneshaper

/// The `toneshaper` executable built beside this test bundle, run as a user would.
struct Toneshaper {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var executable: String {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("toneshaper").path
    }

    /// Runs with an empty user library of its own and no TONESHAPER_SESSIONS, so the
    /// built-ins are found the way an installed binary finds them (walking up).
    static func run(_ arguments: [String], library: String, shellPrefix: String? = nil) throws -> Result {
        let process = Process()
        if let shellPrefix {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            let quoted = ([executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            process.arguments = ["-c", shellPrefix + "; exec " + quoted.joined(separator: " ")]
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["TONESHAPER_LIBRARY"] = library
        environment["TONESHAPER_SESSIONS"] = nil
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting, so a full pipe cannot block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}

@Suite struct CommandLineTests {
    @Test func executableIsBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: Toneshaper.executable), "build the package first: \(Toneshaper.executable)")
    }

    @Test func rendersABuiltInToFlac() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let output = dir.file("siren.flac")
        let result = try Toneshaper.run(["render", "siren", "--output", output, "--cycles", "2", "--sample-rate", "44100"], library: dir.path)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("Wrote \(output)"))
        #expect(result.stdout.contains("44100 Hz"))
        let info = try AudioFileReader.info(path: output)
        #expect(info.sampleRate == 44100)
        #expect(info.container == .flac)
        #expect(info.sampleFormat == .s24)
        #expect(info.frames == 2 * 4 * 44100)
        #expect(dir.contents() == ["siren.flac"])
    }

    @Test func rendersSecondsWithExplicitFormat() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let output = dir.file("chirp.audio")
        let result = try Toneshaper.run(
            ["render", "chirp", "-o", output, "--seconds", "0.5", "--format", "wav", "--sample-format", "s16"], library: dir.path)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let info = try AudioFileReader.info(path: output)
        #expect(info.container == .wav)
        #expect(info.sampleFormat == .s16)
        #expect(info.frames == 24000)
    }

    @Test func misspeltKeysAndShortCurvesAreWarnedAboutButRendered() throws {
        let dir = try TemporaryDirectory()
        try dir.write(
            "odd.toneshaper", #"{"points": [[0, 300], [1, 700]], "duration": 2, "minFrequency": 100, "maxFrequency": 800, "ampltude": 0.5}"#)
        let result = try Toneshaper.run(["render", dir.file("odd.toneshaper"), "-o", dir.file("odd.wav"), "--seconds", "0.1"], library: dir.path)
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: \(dir.file("odd.toneshaper")): unknown key \"ampltude\"; did you mean \"amplitude\"?"))
        #expect(result.stderr.contains("the points span 0...1 s of a 2 s cycle"))
    }

    @Test func badDocumentFailsReadablyAndWritesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("bad.toneshaper", "{ \"points\": [[0, 100], [0.9, 200]], \"duration\": 0.5, \"minFrequency\": 0, \"maxFrequency\": 1000 }")
        let result = try Toneshaper.run(["render", dir.file("bad.toneshaper"), "-o", dir.file("bad.wav")], library: dir.path)
        #expect(result.status != 0)
        #expect(result.stderr.contains("points: point 1"))
        #expect(result.stderr.contains("time 0.9 s is outside the cycle 0...0.5 s"))
        #expect(dir.contents() == ["bad.toneshaper"])
    }

    @Test func unknownNameFails() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try Toneshaper.run(["render", "no-such-shape", "-o", dir.file("x.wav")], library: dir.path)
        #expect(result.status != 0)
        #expect(result.stderr.contains("no-such-shape"))
        #expect(result.stderr.contains("toneshaper presets"))
        #expect(dir.contents().isEmpty)
    }

    @Test(arguments: [
        ["--cycles", "0"], ["--seconds", "0"], ["--seconds", "-1"], ["--cycles", "2", "--seconds", "1"],
        ["--sample-rate", "1000"], ["--sample-rate", "400000"], ["--format", "mp3"], ["--sample-format", "s8"],
    ])
    func badOptionsFail(options: [String]) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try Toneshaper.run(["render", "siren", "-o", dir.file("x.wav")] + options, library: dir.path)
        #expect(result.status != 0, "\(options) was accepted")
        #expect(!result.stderr.isEmpty)
        #expect(dir.contents().isEmpty)
    }

    @Test func impossibleCombinationsFailReadably() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let flac = try Toneshaper.run(["render", "siren", "-o", dir.file("x.flac"), "--sample-format", "f32"], library: dir.path)
        #expect(flac.status != 0)
        #expect(flac.stderr.contains("s24"))
        let unknown = try Toneshaper.run(["render", "siren", "-o", dir.file("x.mp3")], library: dir.path)
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("--format"))
        #expect(dir.contents().isEmpty)
    }

    @Test func unwritableOutputFailsReadably() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try Toneshaper.run(["render", "siren", "-o", dir.file("missing/x.wav")], library: dir.path)
        #expect(result.status != 0)
        #expect(result.stderr.contains("does not exist"))
        #expect(dir.contents().isEmpty)
    }

    /// A write that fails part way (here the file-size limit, standing in for a full disk)
    /// leaves neither the file nor its temporary.
    @Test func failingWriteLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try Toneshaper.run(
            ["render", "siren", "-o", dir.file("x.wav"), "--cycles", "4"], library: dir.path,
            shellPrefix: "trap '' XFSZ; ulimit -f 200")
        #expect(result.status != 0)
        #expect(result.stderr.contains("x.wav"))
        #expect(dir.contents().isEmpty)
    }

    @Test func aboveNyquistWarns() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try Toneshaper.run(
            ["render", "audible-sweep", "-o", dir.file("x.wav"), "--sample-rate", "8000", "--seconds", "0.1"], library: dir.path)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("Nyquist"))
    }

    @Test func presetsListsTheBuiltInsAndTheUsersOwn() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let plain = try Toneshaper.run(["presets"], library: dir.path)
        #expect(plain.status == 0, "stderr: \(plain.stderr)")
        #expect(plain.stdout.contains("siren"))
        #expect(!plain.stdout.contains("Your shapes"))

        try dir.write(
            "mine.toneshaper", "{ \"points\": [[0, 300]], \"duration\": 1, \"minFrequency\": 0, \"maxFrequency\": 1000, \"description\": \"my own\" }"
        )
        let withUser = try Toneshaper.run(["presets"], library: dir.path)
        #expect(withUser.status == 0)
        #expect(withUser.stdout.contains("Your shapes (\(dir.path))"))
        #expect(withUser.stdout.contains("mine"))
        #expect(withUser.stdout.contains("my own"))
    }

    /// Without TONESHAPER_LIBRARY: the shapes folder in $XDG_DATA_HOME, and the folder
    /// earlier versions saved into listed after it, marked read only.
    @Test func presetsListsTheOlderLibraryFolderAfterTheShapesFolder() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("toneshaper/library"), withIntermediateDirectories: true)
        try dir.write(
            "toneshaper/library/kept.toneshaper", "{ \"points\": [[0, 300]], \"duration\": 1, \"minFrequency\": 0, \"maxFrequency\": 1000 }")
        let result = try Toneshaper.run(["presets"], library: "", shellPrefix: "unset TONESHAPER_LIBRARY; export XDG_DATA_HOME='\(dir.path)'")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("Your shapes (\(dir.path)/toneshaper/shapes, then \(dir.path)/toneshaper/library)"), "\(result.stdout)")
        #expect(result.stdout.contains("(in the older library folder, read only)"), "\(result.stdout)")
    }
}

/// The tone-shape parameters as options, derived from the parameter table.
@Suite struct ParameterFlags {
    @Test func tableFlagsOverrideTheDocument() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let output = dir.file("flat.wav")
        // siren sweeps 600...1400 Hz; a zero-width range holds it at 300 Hz.
        let result = try Toneshaper.run(
            [
                "render", "siren", "-o", output, "--seconds", "1", "--min-frequency", "300",
                "--max-frequency=300", "--set", "amplitude=0.5", "--scale", "None", "--echo-volume", "0",
            ],
            library: dir.path)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let (samples, rate, _) = try AudioFileReader.read(path: output)
        let frequency = try #require(SignalAnalysis.zeroCrossingFrequency(samples, sampleRate: rate))
        #expect(abs(frequency - 300) < 0.5)
        // Amplitude 0.5, echo volume 0: (main + 0) / 2 at 0.5 peaks at 0.25.
        #expect(abs(SignalAnalysis.peak(samples) - 0.25) < 0.002)
    }

    @Test(arguments: [
        (["--wave", "wobble"], "--wave: unknown name \"wobble\""),
        (["--amplitude", "2"], "--amplitude: 2 is out of range 0...1"),
        (["--set", "loudness=3"], "no parameter called \"loudness\""),
        (["--fidelity", "2.5"], "--fidelity: expects a whole number, got \"2.5\""),
        (["--min-frequency", "900", "--max-frequency", "100"], "above maximum"),
    ])
    func badValuesAreRefusedReadably(options: [String], message: String) throws {
        try refusedReadably(options: options, message: message)
    }

    /// `run`'s MIDI options are checked before it looks for a JACK server.
    @Test(arguments: [
        (["--midi-cc", "64=amplitude"], "--midi-cc 64=amplitude: write CC=PARAMETER with CC 0...119 other than 64"),
        (["--midi-cc", "74=loudness"], "\"loudness\" is not a parameter a controller can move"),
        (["--midi-channel", "17"], "--midi-channel 17: give a channel 1...16, or all"),
        (["--voices", "65"], "--voices: 65 is out of range 1...64"),
        (["--instrument=maybe"], "--instrument: expects 0 or 1"),
    ])
    func badMIDIOptionsAreRefusedReadably(options: [String], message: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let result = try Toneshaper.run(["run", "--no-osc"] + options, library: dir.path, shellPrefix: "export JACK_DEFAULT_SERVER=ts-nobody-here")
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }

    /// A bare on/off option means on; a following argument that is not a value stays an argument.
    @Test func bareFlagMeansOn() {
        #expect(ParameterOptions.rewrite(["--instrument", "siren"]) == ["--set", "instrument=1", "siren"])
        #expect(ParameterOptions.rewrite(["--instrument", "off"]) == ["--set", "instrument=off"])
        #expect(ParameterOptions.rewrite(["--one-shot"]) == ["--set", "one-shot=1"])
        #expect(ParameterOptions.rewrite(["--voices", "4"]) == ["--set", "voices=4"])
    }

    private func refusedReadably(options: [String], message: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let output = dir.file("never.wav")
        let result = try Toneshaper.run(["render", "siren", "-o", output] + options, library: dir.path)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(dir.contents().isEmpty)
    }
}
