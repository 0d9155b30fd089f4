import Foundation
import Testing
import ToneShaperModel

@testable import toneshaper

/// `--tuning FILE.scl [--keyboard-map FILE.kbm]`: read into the shape, refused with the
/// file and line, as a user types it.
@Suite struct TuningCommandLineTests {
    static let nineteen = "! 19.scl\n19-EDO\n19\n" + (1...18).map { "\(Double($0) * 1200 / 19)" }.joined(separator: "\n") + "\n2/1\n"
    static let whiteKeys = "12\n0\n127\n60\n69\n440.0\n7\n0\nx\n1\nx\n2\n3\nx\n4\nx\n5\nx\n6\n"

    @Test func theOptionsSetTheShapesTuning() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("19.scl", Self.nineteen)
        try dir.write("white.kbm", Self.whiteKeys)
        let options = try TuningOptions.parse(["--tuning", dir.file("19.scl"), "--keyboard-map", dir.file("white.kbm")])
        let shape = try options.apply(to: .defaultShape)
        #expect(shape.tuning?.scaleText == Self.nineteen && shape.tuning?.keyboardMapText == Self.whiteKeys)
        #expect(try TuningOptions.parse([]).apply(to: .defaultShape).tuning == nil)
    }

    @Test func refusalsNameTheFileAndTheLine() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("bad.scl", "! bad\n19-EDO\n2\n0/1\n2/1\n")
        try dir.write("19.scl", Self.nineteen)
        try dir.write("bad.kbm", "12\n0\n127\n60\n69\nA440\n")
        let output = dir.file("out.wav")
        let badScale = try Toneshaper.run(["render", "siren", "-o", output, "--tuning", dir.file("bad.scl")], library: dir.path)
        #expect(badScale.status == 64 && badScale.stderr.contains("--tuning \(dir.file("bad.scl")):4: the ratio 0/1"), "\(badScale.stderr)")
        let badMap = try Toneshaper.run(
            ["render", "siren", "-o", output, "--tuning", dir.file("19.scl"), "--keyboard-map", dir.file("bad.kbm")], library: dir.path)
        #expect(badMap.status == 64 && badMap.stderr.contains("bad.kbm:6: expected the reference frequency"), "\(badMap.stderr)")
        let mapAlone = try Toneshaper.run(["render", "siren", "-o", output, "--keyboard-map", dir.file("bad.kbm")], library: dir.path)
        #expect(mapAlone.status == 64 && mapAlone.stderr.contains("give the scale too"))
        let missing = try Toneshaper.run(["render", "siren", "-o", output, "--tuning", dir.file("none.scl")], library: dir.path)
        #expect(missing.status == 64 && missing.stderr.contains("none.scl: no such file"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let good = try Toneshaper.run(["render", "siren", "-o", output, "--tuning", dir.file("19.scl")], library: dir.path)
        #expect(good.status == 0 && FileManager.default.fileExists(atPath: output), "\(good.stderr)")
    }
}
