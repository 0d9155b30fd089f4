import ArgumentParser
import ToneShaperCore

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

    /// `map` with the `--midi-cc` mappings added.
    func controllerMap(over map: MIDIControllerMap) throws -> MIDIControllerMap {
        var result = map
        for text in controllers {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let cc = Int(parts[0]), MIDIControllerMap.isMappable(cc) else {
                throw ValidationError(
                    "--midi-cc \(text): write CC=PARAMETER with CC 0...119 other than 64 (the sustain pedal), e.g. 74=frequency/max")
            }
            if parts[1].lowercased() == "none" {
                result[cc] = nil
                continue
            }
            guard let id = MIDIControllerMap.parameter(named: parts[1]), MIDIControllerMap.canMap(id) else {
                let names = ParameterTable.all.filter { MIDIControllerMap.canMap($0.id) }.map(\.oscPath).joined(separator: ", ")
                throw ValidationError("--midi-cc \(text): \"\(parts[1])\" is not a parameter a controller can move; use one of \(names)")
            }
            result[cc] = id
        }
        return result
    }
}
