import ArgumentParser
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters

/// `run`'s MIDI options: the input port, its connections, the channel, controller mappings.
/// Notes, instrument mode and the rest are parameters of the table (`--instrument`,
/// `--root-note`, `--voices`, ...).
struct MIDIOptions: ParsableArguments {
    @Flag(name: .customLong("no-midi"), help: "No MIDI input port.")
    var noMIDI = false

    @Option(name: .customLong("midi-connect"), help: "Connect this JACK MIDI port to midi_in at start (repeatable).")
    var connect: [String] = []

    @Option(name: .customLong("midi-channel"), help: "Listen to MIDI channel 1...16 only, or all (default).")
    var channelText = "all"

    @Option(
        name: .customLong("midi-cc"),
        help: ArgumentHelp(
            "Map a MIDI controller to a parameter: CC=PARAMETER, e.g. 74=frequency/max (repeatable; PARAMETER none unmaps).",
            valueName: "cc=parameter"))
    var controllers: [String] = []

    /// The channel as the renderer counts it (0...15), nil for all.
    func channel() throws -> Int? {
        if channelText.lowercased() == "all" { return nil }
        guard let n = Int(channelText), (1...16).contains(n) else {
            throw ValidationError("--midi-channel \(channelText): give a channel 1...16, or all")
        }
        return n - 1
    }

    /// `shape` with the `--midi-cc` mappings added, each as the core's `midi/map` takes it:
    /// this reads the option's CC=PARAMETER syntax, the core checks and applies it.
    func apply(to shape: ToneShape) throws -> ToneShape {
        let map = ControlAddress.named(ControlCommand.Name.midiMap.rawValue)!
        var result = shape
        for text in controllers {
            let syntax = ValidationError(
                "--midi-cc \(text): write CC=PARAMETER with CC 0...119 other than 64 (the sustain pedal), e.g. 74=frequency/max")
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw syntax }
            let controller = ParameterValue.parsing(parts[0])
            // The controller number alone first, so that its refusal is said with the syntax.
            guard (try? map.request([controller, .text("none")])) != nil else { throw syntax }
            do {
                guard case .command(let command) = try map.request([controller, .text(parts[1])]),
                    case .mapController(let cc, let id) = command
                else { throw syntax }
                result = try result.settingController(cc, to: id)
            } catch let error as ControlError {
                throw ValidationError("--midi-cc \(text): \(error.problem)")
            }
        }
        return result
    }
}
