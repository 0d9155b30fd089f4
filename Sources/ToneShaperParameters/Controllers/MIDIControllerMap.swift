/// Which MIDI controller (CC 0...127) moves which parameter: document key `midiMap`
/// (`{"74": "maxFrequency"}`), `--midi-cc 74=frequency/max`, OSC `/midi/map 74 frequency/max`
/// and MIDI learn. One parameter may have several controllers; a controller moves one.
public struct MIDIControllerMap: Equatable, Sendable {
    public private(set) var entries: [Int: ParameterID] = [:]

    public init(_ entries: [Int: ParameterID] = [:]) {
        self.entries = entries.filter { MIDIControllerMap.isMappable($0.key) }
    }

    public subscript(controller: Int) -> ParameterID? {
        get { entries[controller] }
        set { if MIDIControllerMap.isMappable(controller) { entries[controller] = newValue } }
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// CC 64 is the sustain pedal and 120...127 are channel-mode messages (all notes off,
    /// reset): those keep their MIDI meaning and are never mapped.
    @inlinable
    public static func isMappable(_ controller: Int) -> Bool {
        (0...119).contains(controller) && controller != sustainController
    }
    public static let sustainController = 64
}
