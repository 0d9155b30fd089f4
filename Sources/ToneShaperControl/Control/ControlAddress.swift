import ToneShaperModel
import ToneShaperParameters

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
    /// What the address takes: types, ranges, units.
    public let signature: ControlSignature
    public let help: String

    /// What the arguments are, for people ("value: number 0...96000 Hz").
    public var arguments: String { signature.description }

    public static let all: [ControlAddress] = {
        var all = ParameterTable.all.map { spec in
            ControlAddress(
                path: spec.oscPath, target: .parameter(spec.id), signature: ControlSignature([ControlArgument("value", parameter: spec.id)]),
                help: spec.help)
        }
        let document = ControlArgument("name", .text("a document name"))
        let commands: [(ControlCommand.Name, ControlSignature, String)] = [
            (
                .frequencyRange,
                ControlSignature([ControlArgument("min", parameter: .minFrequency), ControlArgument("max", parameter: .maxFrequency)]),
                "Both ends of the range at once; the curve is remapped onto it"
            ),
            (
                .echo, ControlSignature([ControlArgument("offset", parameter: .echoOffset), ControlArgument("volume", parameter: .echoVolume)]),
                "Both echo values at once"
            ),
            (
                .amplitudeDecibels, ControlSignature([ControlArgument("level", .real(-.infinity...0), unit: "dBFS", controlRange: -120...0)]),
                "Master gain in decibels; 0 dBFS is full scale"
            ),
            (
                .points,
                ControlSignature(
                    [
                        ControlArgument("time", .real(0...ToneShapeLimits.maximumDuration), unit: "s"),
                        ControlArgument("frequency", .real(FrequencyLimit.range), unit: "Hz"),
                    ], arity: .repeated),
                "Replace the curve (times sorted, within the duration), then optionally \"curvatures\" and one number -1...1 a segment (0 straight; without them moved points keep their bends); no arguments: reply the points"
            ),
            (.load, ControlSignature([document]), "Load a document by name: the user's shapes first, then the built-in sessions"),
            (.save, ControlSignature([document]), "Save the current document into the user's shapes folder"),
            (
                .play, ControlSignature([ControlArgument("press", .flag)], arity: .optional),
                "Start playing (fades in); a single 0 argument (a button release) is ignored"
            ),
            (
                .stop, ControlSignature([ControlArgument("press", .flag)], arity: .optional),
                "Stop playing (fades out); a single 0 argument (a button release) is ignored"
            ),
            (.clearSchedule, .none, "Forget every change scheduled for later (time-tagged bundles)"),
            (.state, .none, "Reply every parameter, \"playing\" and the points"),
            (.stats, .none, "Reply the audio callback's timing, xruns and periods"),
            (
                .midiMap,
                ControlSignature([
                    ControlArgument("cc", .integer(0...119)), ControlArgument("parameter", .text("a parameter's address, or none")),
                ]),
                "Map MIDI controller cc (0...119, not 64) to a parameter (its address, e.g. frequency/max); parameter none: unmap"
            ),
            (
                .midiLearn, ControlSignature([ControlArgument("parameter", .text("a parameter's address"))]),
                "Map the next MIDI controller that moves to the parameter (its address, e.g. frequency/max)"
            ),
            (
                .tuningScale, ControlSignature([ControlArgument("scl", .text("a .scl file's text, or its path"))]),
                "Tune the MIDI keys to a Scala scale: the .scl file's text (its lines), or the path of a .scl file on the node's machine (one line); any keyboard map stays"
            ),
            (
                .tuningMap, ControlSignature([ControlArgument("kbm", .text("a .kbm file's text, its path, or none"))]),
                "Map the keys onto the scale with a Scala keyboard mapping: the .kbm file's text (its lines), or the path of a .kbm file on the node's machine (one line); none: no map"
            ),
            (.tuningReset, .none, "Back to 12-TET: no scale, no keyboard map, no key MIDI tuning messages set"),
        ]
        all += commands.map { ControlAddress(path: $0.0.rawValue, target: .command($0.0), signature: $0.1, help: $0.2) }
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
            try checkCount(arguments)
            return .command(.set(id, arguments[0]))
        case .command(let name):
            return try request(name, arguments)
        }
    }

    private func request(_ name: ControlCommand.Name, _ args: [ParameterValue]) throws(ControlError) -> ControlRequest {
        // The points' pairs are counted before the curvatures that may follow them.
        try checkCount(name == .points ? Array(args.prefix { $0 != .text("curvatures") }) : args)
        switch name {
        case .frequencyRange:
            return .command(.setFrequencyRange(min: args[0], max: args[1]))
        case .echo:
            return .command(.setEcho(offset: args[0], volume: args[1]))
        case .amplitudeDecibels:
            return .command(.setAmplitudeDecibels(args[0]))
        case .points:
            if args.isEmpty { return .query(.points) }
            // t0 f0 t1 f1 ..., then, when the segments bend, "curvatures" c0 c1 ... (one a segment).
            let marker = args.firstIndex(of: .text("curvatures"))
            var flat: [Double] = []
            flat.reserveCapacity(args.count)
            for (i, value) in args[..<(marker ?? args.count)].enumerated() {
                guard let d = value.numeric else {
                    throw ControlError(
                        .command(.points),
                        "argument \(i + 1) (\(i % 2 == 0 ? "time" : "frequency")) must be a number (or \"curvatures\" before the segments' curvatures), got \"\(value)\""
                    )
                }
                flat.append(d)
            }
            guard let marker else { return .command(.setPoints(flat)) }
            var curvatures: [Double] = []
            for (i, value) in args[(marker + 1)...].enumerated() {
                guard let c = value.numeric else {
                    throw ControlError(.command(.points), "curvature \(i + 1) must be a number in -1...1, got \"\(value)\"")
                }
                curvatures.append(c)
            }
            return .command(.setPoints(flat, curvatures: curvatures))
        case .load, .save:
            guard case .text(let documentName) = args[0] else {
                throw ControlError(.command(name), "expects a document name (text), got \"\(args[0])\"")
            }
            try ControlAddress.checkDocumentName(documentName, name)
            return .command(name == .load ? .load(name: documentName) : .save(name: documentName))
        case .play, .stop:
            if let value = args.first {
                do {
                    if try !value.buttonPress() { return .nothing }
                } catch {
                    throw ControlError(.command(name), error.problem)
                }
            }
            return .command(name == .play ? .play : .stop)
        case .clearSchedule:
            return .command(.clearSchedule)
        case .state:
            return .query(.state)
        case .stats:
            return .query(.stats)
        case .midiMap:
            guard let number = args[0].numeric, number == number.rounded(), MIDIControllerMap.isMappable(Int(exactly: number) ?? -1) else {
                throw ControlError(.command(name), "expects a controller number 0...119 other than 64 (the sustain pedal), got \"\(args[0])\"")
            }
            if case .text(let text) = args[1], text.lowercased() == "none" {
                return .command(.mapController(controller: Int(number), parameter: nil))
            }
            return .command(.mapController(controller: Int(number), parameter: try ControlAddress.mappableParameter(args[1], name)))
        case .midiLearn:
            return .command(.learnController(try ControlAddress.mappableParameter(args[0], name)))
        case .tuningScale:
            return .command(.setTuningScale(try ControlAddress.tuningText(args[0], name, file: ".scl")))
        case .tuningMap:
            if case .text(let text) = args[0], text.lowercased() == "none" { return .command(.setTuningMap(nil)) }
            return .command(.setTuningMap(try ControlAddress.tuningText(args[0], name, file: ".kbm")))
        case .tuningReset:
            return .command(.resetTuning)
        }
    }

    /// The count of arguments against the signature, before anything else is read.
    private func checkCount(_ args: [ParameterValue]) throws(ControlError) {
        let declared = signature.arguments.count
        let expected: String
        switch signature.arity {
        case .exact:
            if args.count == declared { return }
            expected = declared == 0 ? "no arguments" : "\(declared) argument\(declared == 1 ? "" : "s") (\(signature))"
        case .optional:
            if args.isEmpty || args.count == declared { return }
            expected = "no arguments or \(declared) (\(signature.description.dropFirst().dropLast()))"
        case .repeated:
            if args.count % declared == 0 { return }
            let group =
                signature.description.hasSuffix(" repeated") ? String(signature.description.dropLast(" repeated".count)) : signature.description
            expected = "arguments in \(declared == 2 ? "pairs" : "groups of \(declared)") \(group)"
        }
        throw ControlError(subject, "expects \(expected), got \(args.count)")
    }

    /// What a refusal of this address is about.
    var subject: ControlError.Subject {
        switch target {
        case .parameter(let id): return .parameter(id)
        case .command(let name): return .command(name)
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

    /// A tuning file's text from a sender: the file's text itself, or the path of a file on
    /// the node's machine, told apart by line breaks (a Scala file has at least two lines, a
    /// path none). A path is read only when it names a regular file of the kind's extension
    /// (``TuningFile``), so a sender cannot make the node read other files.
    static func tuningText(_ value: ParameterValue, _ command: ControlCommand.Name, file: String) throws(ControlError) -> String {
        guard case .text(let text) = value else {
            throw ControlError(.command(command), "expects the text of a \(file) file (its lines) or its path, got \"\(value)\"")
        }
        guard TuningFile.isPath(text) else { return text }
        do throws(TuningFileRefusal) {
            return try TuningFile.read(text, fileExtension: file)
        } catch {
            throw ControlError(.command(command), error.description)
        }
    }

    /// A parameter a MIDI controller may move, named by its address (or document key).
    static func mappableParameter(_ value: ParameterValue, _ command: ControlCommand.Name) throws(ControlError) -> ParameterID {
        guard case .text(let text) = value, let id = MIDIControllerMap.parameter(named: text), MIDIControllerMap.canMap(id) else {
            let names = ParameterTable.all.filter { MIDIControllerMap.canMap($0.id) }.map(\.oscPath).joined(separator: ", ")
            throw ControlError(.command(command), "\"\(value)\" is not a parameter a controller can move; use one of \(names)")
        }
        return id
    }
}
