/// Every address a front end can reach, derived from the parameter table plus the
/// commands of `ControlCommand.Name`: the OSC address space, OSCQuery's namespace and a web
/// page's controls all come from here. An address is relative ("frequency/min"); OSC puts
/// its prefix in front.
public struct ControlAddress: Sendable {
    public enum Target: Hashable, Sendable {
        case parameter(ParameterID)
        case command(ControlCommand.Name)
    }

    public let path: String
    public let target: Target
    /// What the arguments are, for people ("value (Hz, 0...96000)").
    public let arguments: String
    public let help: String

    public static let all: [ControlAddress] = {
        var all = ParameterTable.all.map { spec in
            ControlAddress(path: spec.oscPath, target: .parameter(spec.id), arguments: describe(spec), help: spec.help)
        }
        let commands: [(ControlCommand.Name, String, String)] = [
            (.frequencyRange, "min max (Hz)", "Both ends of the range at once; the curve is remapped onto it"),
            (.echo, "offset volume", "Both echo values at once"),
            (.amplitudeDecibels, "dBFS (<= 0)", "Master gain in decibels; 0 dBFS is full scale"),
            (.points, "t0 f0 t1 f1 ... (s, Hz)", "Replace the curve (times sorted, within the duration); no arguments: reply the points"),
            (.load, "name", "Load a document by name: the user's library first, then the built-in sessions"),
            (.save, "name", "Save the current document into the user's library"),
            (.play, "[1]", "Start playing (fades in); a single 0 argument (a button release) is ignored"),
            (.stop, "[1]", "Stop playing (fades out); a single 0 argument (a button release) is ignored"),
            (.clearSchedule, "", "Forget every change scheduled for later (time-tagged bundles)"),
            (.state, "", "Reply every parameter, \"playing\" and the points"),
            (.stats, "", "Reply the audio callback's timing, xruns and periods"),
            (
                .midiMap, "cc parameter",
                "Map MIDI controller cc (0...119, not 64) to a parameter (its address, e.g. frequency/max); parameter none: unmap"
            ),
            (.midiLearn, "parameter", "Map the next MIDI controller that moves to the parameter (its address, e.g. frequency/max)"),
        ]
        all += commands.map { ControlAddress(path: $0.0.rawValue, target: .command($0.0), arguments: $0.1, help: $0.2) }
        return all
    }()

    private static let byPath: [String: ControlAddress] = {
        var map: [String: ControlAddress] = [:]
        for address in all {
            precondition(map[address.path] == nil, "address \(address.path) is declared twice")
            map[address.path] = address
        }
        return map
    }()

    /// The address at `path` (relative, no leading slash), if there is one.
    public static func named(_ path: String) -> ControlAddress? { byPath[path] }

    /// The request that `arguments` sent to this address mean, or why they mean nothing.
    public func request(_ arguments: [ParameterValue]) throws(ControlError) -> ControlRequest {
        switch target {
        case .parameter(let id):
            try expect(arguments, count: 1, ParameterTable.spec(id).kind.describeValues(unit: ParameterTable.spec(id).unit))
            return .command(.set(id, arguments[0]))
        case .command(let name):
            return try request(name, arguments)
        }
    }

    private func request(_ name: ControlCommand.Name, _ args: [ParameterValue]) throws(ControlError) -> ControlRequest {
        switch name {
        case .frequencyRange:
            try expect(args, count: 2, "min max in Hz")
            return .command(.setFrequencyRange(min: args[0], max: args[1]))
        case .echo:
            try expect(args, count: 2, "offset in s and volume 0...1")
            return .command(.setEcho(offset: args[0], volume: args[1]))
        case .amplitudeDecibels:
            try expect(args, count: 1, "a level in dBFS, 0 or below")
            return .command(.setAmplitudeDecibels(args[0]))
        case .points:
            if args.isEmpty { return .query(.points) }
            var flat: [Double] = []
            flat.reserveCapacity(args.count)
            for (i, value) in args.enumerated() {
                guard let d = value.numeric else {
                    throw ControlError(
                        .command(.points), "argument \(i + 1) (\(i % 2 == 0 ? "time" : "frequency")) must be a number, got \"\(value)\"")
                }
                flat.append(d)
            }
            return .command(.setPoints(flat))
        case .load, .save:
            try expect(args, count: 1, "a document name")
            guard case .text(let documentName) = args[0] else {
                throw ControlError(.command(name), "expects a document name (text), got \"\(args[0])\"")
            }
            try ControlAddress.checkDocumentName(documentName, name)
            return .command(name == .load ? .load(name: documentName) : .save(name: documentName))
        case .play, .stop:
            guard args.count <= 1 else {
                throw ControlError(.command(name), "expects no arguments (or one number, as a button sends), got \(args.count)")
            }
            if let value = args.first {
                do {
                    if try !value.buttonPress() { return .nothing }
                } catch {
                    throw ControlError(.command(name), error.problem)
                }
            }
            return .command(name == .play ? .play : .stop)
        case .clearSchedule:
            try expect(args, count: 0, "")
            return .command(.clearSchedule)
        case .state:
            try expect(args, count: 0, "")
            return .query(.state)
        case .stats:
            try expect(args, count: 0, "")
            return .query(.stats)
        case .midiMap:
            try expect(args, count: 2, "a controller number and a parameter address")
            guard let number = args[0].numeric, number == number.rounded(), MIDIControllerMap.isMappable(Int(exactly: number) ?? -1) else {
                throw ControlError(.command(name), "expects a controller number 0...119 other than 64 (the sustain pedal), got \"\(args[0])\"")
            }
            if case .text(let text) = args[1], text.lowercased() == "none" {
                return .command(.mapController(controller: Int(number), parameter: nil))
            }
            return .command(.mapController(controller: Int(number), parameter: try ControlAddress.mappableParameter(args[1], name)))
        case .midiLearn:
            try expect(args, count: 1, "a parameter address")
            return .command(.learnController(try ControlAddress.mappableParameter(args[0], name)))
        }
    }

    private func expect(_ args: [ParameterValue], count: Int, _ what: String) throws(ControlError) {
        guard args.count == count else {
            let subject: ControlError.Subject
            switch target {
            case .parameter(let id): subject = .parameter(id)
            case .command(let name): subject = .command(name)
            }
            let expected = count == 0 ? "no arguments" : "\(count) argument\(count == 1 ? "" : "s") (\(what))"
            throw ControlError(subject, "expects \(expected), got \(args.count)")
        }
    }

    /// A document name from a remote sender: a plain name, never a path, so a controller
    /// cannot make the node read or write files outside its libraries.
    static func checkDocumentName(_ name: String, _ command: ControlCommand.Name) throws(ControlError) {
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains(where: { $0 == "/" || $0 == "\\" || $0.isNewline || $0 == "\0" }) else {
            throw ControlError(
                .command(command), "\"\(name)\" is not a document name; use a plain name such as siren (no path, not starting with a dot)")
        }
    }

    /// A parameter a MIDI controller may move, named by its address (or document key).
    static func mappableParameter(_ value: ParameterValue, _ command: ControlCommand.Name) throws(ControlError) -> ParameterID {
        guard case .text(let text) = value, let id = MIDIControllerMap.parameter(named: text), MIDIControllerMap.canMap(id) else {
            let names = ParameterTable.all.filter { MIDIControllerMap.canMap($0.id) }.map(\.oscPath).joined(separator: ", ")
            throw ControlError(.command(command), "expects a parameter a controller can move (\(names)), got \"\(value)\"")
        }
        return id
    }

    static func describe(_ spec: ParameterSpec) -> String {
        let unit = spec.unit.isEmpty ? "" : "\(spec.unit), "
        switch spec.kind {
        case .real(let range): return "value (\(unit)\(ParameterKind.plain(range.lowerBound))...\(ParameterKind.plain(range.upperBound)))"
        case .integer(let range): return "N (\(range.lowerBound)...\(range.upperBound))"
        case .choice(let names): return "name or index 0...\(names.count - 1) (\(names.joined(separator: ", ")))"
        case .terms: return "count (>= 1) or \"nyquist\""
        case .flag: return "0 or 1"
        }
    }
}
