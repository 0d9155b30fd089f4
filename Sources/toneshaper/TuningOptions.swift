import ArgumentParser
import Foundation
import ToneShaperModel

/// `--tuning FILE.scl [--keyboard-map FILE.kbm]`: the MIDI keys' tuning, a Scala scale and
/// keyboard mapping, for `run` and `render` (`--scale` already names the amplitude scaling).
/// They replace the document's tuning; a refusal names the file and its line.
struct TuningOptions: ParsableArguments {
    @Option(
        name: .customLong("tuning"),
        help: ArgumentHelp(
            "Tune the MIDI keys to a Scala scale (.scl): key N plays the shape times f(N)/f(root) of the scale instead of 12-TET.",
            discussion:
                "Without --keyboard-map the scale starts on the root note (--root-note): root + k plays degree k. The document keeps it (key \"tuning\"). While the node runs, OSC /toneshaper/tuning/scale and /toneshaper/tuning/map take a file's text or, as one line, the path of a .scl or .kbm file on the node's machine; /toneshaper/tuning/reset goes back to 12-TET.",
            valueName: "file.scl"))
    var scalePath: String?

    @Option(
        name: .customLong("keyboard-map"),
        help: ArgumentHelp(
            "A Scala keyboard mapping (.kbm) for --tuning: which degree each key plays; keys mapped x are silent.",
            valueName: "file.kbm"))
    var keyboardMapPath: String?

    func validate() throws {
        if keyboardMapPath != nil && scalePath == nil {
            throw ValidationError("--keyboard-map maps the degrees of a scale: give the scale too, with --tuning FILE.scl")
        }
    }

    /// The tuning the options name, read and checked (nil: none given).
    func tuning() throws -> Tuning? {
        guard let scalePath else { return nil }
        let scale = try TuningOptions.read(scalePath, option: "--tuning")
        let map = try keyboardMapPath.map { try TuningOptions.read($0, option: "--keyboard-map") }
        do {
            return try Tuning(scale: scale, keyboardMap: map)
        } catch {
            let path = error.file == .scale ? scalePath : keyboardMapPath ?? ""
            let place = error.line > 0 ? "\(path):\(error.line)" : path
            let option = error.file == .scale ? "--tuning" : "--keyboard-map"
            throw ValidationError("\(option) \(place): \(error.problem)")
        }
    }

    /// `shape` with the tuning given, if any (else as it is).
    func apply(to shape: ToneShape) throws -> ToneShape {
        guard let tuning = try tuning() else { return shape }
        var result = shape
        result.tuning = tuning
        return result
    }

    /// A tuning file's text (Scala files are ASCII; other bytes pass as UTF-8 would).
    static func read(_ path: String, option: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else { throw ValidationError("\(option) \(path): no such file") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(filePath: path))
        } catch {
            throw ValidationError("\(option) \(path): cannot be read (\(error.localizedDescription))")
        }
        guard data.count <= 1 << 20 else {
            throw ValidationError("\(option) \(path): \(data.count) bytes is too large for a Scala file (at most 1 MiB)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
