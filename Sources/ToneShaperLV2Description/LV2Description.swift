import ToneShaperLV2Layout
import ToneShaperModel
import ToneShaperParameters

/// The LV2 plugin's description, written from the code's own tables: the
/// bundle's `manifest.ttl`, `toneshaper.ttl` (both plugins, one control port per row of
/// ``ParameterTable/all``, placed by ``LV2PortLayout`` as the plugin's binary places them)
/// and `presets.ttl` (one preset per built-in document). The plugin itself imports the
/// table, so no Swift source is generated.
///
/// The committed files live in `Sources/ToneShaperLV2`; a test compares them with what
/// these properties write and rewrites them when run with `TONESHAPER_UPDATE_REFERENCE=1`.
public enum LV2Description {
    public static let monoURI = "\(LV2Identity.monoURI)"
    public static let stereoURI = "\(LV2Identity.stereoURI)"
    /// The state property: the whole document as JSON text (atom:String).
    public static let documentURI = "\(LV2Identity.documentURI)"
    /// The file parameter: patch:Set of it with an atom:Path loads a document.
    public static let fileURI = "\(LV2Identity.fileURI)"
    /// The tuning's file parameters: patch:Set of them with an atom:Path loads a Scala scale
    /// or keyboard map; the state keeps the text (in the document), not the path.
    public static let scaleFileURI = "\(LV2Identity.scaleFileURI)"
    public static let keyboardMapFileURI = "\(LV2Identity.keyboardMapFileURI)"
    public static let presetPrefix = "urn:toneshaper:preset:"
    /// The doap:Project both plugins belong to (lv2:project).
    public static let projectURI = "urn:toneshaper"
    public static let binary = "toneshaper.so"
    /// The editor window (ui:X11UI) and its shared object.
    public static let uiURI = "\(LV2Identity.uiURI)"
    public static let uiBinary = "\(LV2Identity.uiBinary)"
    /// The curve's points between the plugin and its editor window (patch:Set, an
    /// atom:Vector of atom:Double) and the playhead the plugin reports.
    public static let pointsURI = "\(LV2Identity.pointsURI)"
    public static let playheadURI = "\(LV2Identity.playheadURI)"
    /// The tuning playing, as the plugin tells its editor window (an atom:String).
    public static let tuningURI = "\(LV2Identity.tuningURI)"
    /// The lowest frequency the range ports show: their scale is logarithmic
    /// (pprops:logarithmic), which needs a minimum above 0. A saved project, preset or
    /// document below it plays as before: the plugin takes every value of the table's
    /// range (0 Hz included, heard as silence where the curve reaches it); only a host's
    /// knob stops at this minimum.
    public static let lowestShownFrequency = 1.0
    /// The bundle's files besides the shared object, as `files` names them.
    public static let descriptionFiles = ["manifest.ttl", "toneshaper.ttl", "presets.ttl"]
    /// lv2:minorVersion and lv2:microVersion (an even minor version is a release): the
    /// newest row's version (``LV2PortLayout/minorVersion``), never kept by hand.
    public static var minorVersion: Int { LV2PortLayout.minorVersion }
    public static var microVersion: Int { LV2PortLayout.microVersion }
    /// Who keeps the plugin, for hosts and lv2lint (foaf:mbox and foaf:homepage of the
    /// project's doap:maintainer): the address the project's commits are made under, and the
    /// project's page. `Scripts/package.sh` names the Debian package's maintainer and homepage
    /// by the same two (PackageVersionTests compares them).
    public static let maintainerName = "ToneShaper maintainers"
    public static let maintainerMailbox = "maintainers@users.noreply.a-seed-e8127782.example"
    public static let homepage = "https://a-seed-e8127782.example/toneshaper"
    /// The host options the plugin reads when the host offers opts:options: its largest
    /// block and the atom sequence's size (buf-size); it reads nothing else of them.
    public static let supportedOptions = ["bufsz:maxBlockLength", "bufsz:sequenceSize"]
    /// ISC, the licence of LV2 itself: permissive, short, fits a plugin others ship.
    public static let license = "http://opensource.org/licenses/isc"

    /// Whether worker:schedule is a required feature. It is optional: without it the plugin
    /// plays, but refuses (and logs) the changes that need a plan built off the audio thread
    /// and document files; the engine must cope with a refused request anyway (a full
    /// queue). So a host without a worker (lv2bench) still runs it.
    public static let workerRequired = false

    /// How the plugin reads a control port's value.
    public enum PortKind: String, Sendable {
        /// Any number in the range.
        case real
        /// A whole number (lv2:integer).
        case integer
        /// 0 or 1 (lv2:toggled).
        case toggle
        /// An index into the names (lv2:enumeration).
        case choice
        /// Fourier terms: a count of partials, 0 = every partial below Nyquist.
        case terms
    }

    /// One control port: a row of the parameter table as LV2 sees it.
    public struct ControlPort: Sendable {
        public let index: Int
        public let symbol: String
        public let name: String
        public let comment: String
        /// Its row in ``ParameterTable/all``.
        public let row: Int
        public let minimum: Double
        public let maximum: Double
        public let defaultValue: Double
        public let kind: PortKind
        /// An LV2 units URI suffix (`hz` of units:hz), nil for none.
        public let unit: String?
        public let scalePoints: [(value: Double, label: String)]
        /// Added after the first release: lv2:connectionOptional, as lv2core asks of a port
        /// a host that saved a project before it came may not connect.
        public let optional: Bool
        /// A scale over decades (pprops:logarithmic): the row's presentation says.
        public let logarithmic: Bool
        /// Its port group (pg:group): the shape, the sound or MIDI.
        public let group: PortGroup
        /// pprops:displayPriority: the ports a host shows first when it has room for few.
        public let displayPriority: Int?
    }

    /// The port groups (pg:Group) a host without the editor window shows the ports in.
    public enum PortGroup: String, Sendable, CaseIterable {
        case shape, sound, midi

        public var uri: String { "urn:toneshaper:group:" + rawValue }
        public var name: String {
            switch self {
            case .shape: return ParameterGroup.shape.name
            case .sound: return ParameterGroup.sound.name
            case .midi: return ParameterGroup.playing.name
            }
        }

        /// The LV2 group of a row's group (the table's ``Presentation/group``); the URIs are
        /// released and stay.
        static func of(_ group: ParameterGroup) -> PortGroup {
            switch group {
            case .shape: return .shape
            case .sound: return .sound
            case .playing: return .midi
            }
        }
    }

    /// Every row of ``ParameterTable/all`` as a port of the mono plugin (`stereo` false) or
    /// the stereo one, in index order: the index from ``LV2PortLayout`` (the table's stable
    /// numbers and the version each row came in), the symbol the row's
    /// ``ParameterSpec/symbol``; neither is derived from the row's position or the option's
    /// spelling (a saved project names ports by index or symbol).
    public static func controlPorts(stereo: Bool) -> [ControlPort] {
        LV2PortLayout.ports(stereo: stereo).enumerated().compactMap { index, port in
            guard case .parameter(let row) = port else { return nil }
            return controlPort(row: row, index: index)
        }
    }

    /// The mono plugin's control ports (the symbols and rows are the stereo one's too).
    public static var controlPorts: [ControlPort] { controlPorts(stereo: false) }

    private static func controlPort(row: Int, index: Int) -> ControlPort {
        let spec = ParameterTable.all[row]
        let defaults = spec.portValue(in: ToneShape.defaultShape)
        let name = spec.displayName
        // A frequency on a logarithmic scale starts at the lowest shown (its unit says it is one).
        let frequency = spec.unit == "Hz" && spec.presentation.logarithmic
        let port = { (low: Double, high: Double, kind: PortKind, points: [(value: Double, label: String)]) in
            ControlPort(
                index: index, symbol: spec.symbol, name: name, comment: spec.help, row: row, minimum: low, maximum: high,
                defaultValue: defaults, kind: kind, unit: unitName(spec.unit), scalePoints: points,
                optional: spec.addedIn != ParameterTable.firstRelease, logarithmic: spec.presentation.logarithmic,
                group: PortGroup.of(spec.presentation.group), displayPriority: spec.presentation.priority)
        }
        switch spec.kind {
        case .real(let range):
            return port(frequency ? max(range.lowerBound, lowestShownFrequency) : range.lowerBound, range.upperBound, .real, [])
        case .integer(let range): return port(Double(range.lowerBound), Double(range.upperBound), .integer, [])
        case .flag: return port(0, 1, .toggle, [])
        case .choice(let names):
            return port(0, Double(names.count - 1), .choice, names.enumerated().map { (Double($0.offset), $0.element) })
        case .terms: return port(0, Double(ToneShapeLimits.maximumPartials), .terms, [(0, "Nyquist (every partial below it)")])
        }
    }

    /// The audio outputs' indices (left or mono first).
    public static func audioPorts(stereo: Bool) -> [Int] {
        LV2PortLayout.ports(stereo: stereo).enumerated().compactMap { index, port in
            if case .audio = port { return index }
            return nil
        }
    }

    /// A shape's value of every control port, in the table's order (what a preset stores).
    public static func portValues(of shape: ToneShape) -> [Double] {
        ParameterTable.all.map { $0.portValue(in: shape) }
    }

    private static func unitName(_ unit: String) -> String? {
        switch unit {
        case "Hz": return "hz"
        case "s": return "s"
        case "ms": return "ms"
        case "semitones": return "semitone12TET"
        case "beats": return "beat"
        case "cents": return "cent"
        default: return nil
        }
    }

    // MARK: - Turtle

    private static let prefixes: [(String, String)] = [
        ("atom", "http://lv2plug.in/ns/ext/atom#"),
        ("bufsz", "http://lv2plug.in/ns/ext/buf-size#"),
        ("doap", "http://usefulinc.com/ns/doap#"),
        ("foaf", "http://xmlns.com/foaf/0.1/"),
        ("log", "http://lv2plug.in/ns/ext/log#"),
        ("lv2", "http://lv2plug.in/ns/lv2core#"),
        ("midi", "http://lv2plug.in/ns/ext/midi#"),
        ("opts", "http://lv2plug.in/ns/ext/options#"),
        ("patch", "http://lv2plug.in/ns/ext/patch#"),
        ("pg", "http://lv2plug.in/ns/ext/port-groups#"),
        ("pprops", "http://lv2plug.in/ns/ext/port-props#"),
        ("pset", "http://lv2plug.in/ns/ext/presets#"),
        ("rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"),
        ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
        ("rsz", "http://lv2plug.in/ns/ext/resize-port#"),
        ("state", "http://lv2plug.in/ns/ext/state#"),
        ("time", "http://lv2plug.in/ns/ext/time#"),
        ("ui", "http://lv2plug.in/ns/extensions/ui#"),
        ("units", "http://lv2plug.in/ns/extensions/units#"),
        ("urid", "http://lv2plug.in/ns/ext/urid#"),
        ("work", "http://lv2plug.in/ns/ext/worker#"),
    ]

    private static let header =
        "# Generated by toneshaper-lv2-ttl (Sources/ToneShaperLV2Description) from the parameter table; do not edit.\n"
        + "# Refresh: swift run toneshaper-lv2-ttl\n\n"

    private static func prefixLines(_ names: [String]) -> String {
        prefixes.filter { names.contains($0.0) }.map { "@prefix \($0.0): <\($0.1)> .\n" }.joined() + "\n"
    }

    /// A number as a Turtle decimal or double: `96000.0`, `0.25`, `1e-06`.
    public static func turtleNumber(_ d: Double) -> String {
        if d == d.rounded() && abs(d) < 1e15 { return String(Int64(d)) + ".0" }
        return String(d)
    }

    /// A Turtle string literal; long ("""…""") when it holds a line break.
    static func turtleString(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return text.contains("\n") ? "\"\"\"" + escaped + "\"\"\"" : "\"" + escaped + "\""
    }

    /// A preset's URI and label from a built-in document's file name (without extension).
    public static func presetURI(_ name: String) -> String { presetPrefix + name }

    /// `manifest.ttl`: the two plugins and the presets, each pointing at its description.
    public static func manifest(presetNames: [String]) -> String {
        var text = header + prefixLines(["lv2", "pset", "rdfs", "ui"])
        for uri in [monoURI, stereoURI] {
            text += "<\(uri)>\n    a lv2:Plugin ;\n    lv2:binary <\(binary)> ;\n    rdfs:seeAlso <toneshaper.ttl> .\n\n"
        }
        text += "<\(uiURI)>\n    a ui:X11UI ;\n    ui:binary <\(uiBinary)> ;\n    rdfs:seeAlso <toneshaper.ttl> .\n\n"
        for name in presetNames {
            text +=
                "<\(presetURI(name))>\n    a pset:Preset ;\n    lv2:appliesTo <\(monoURI)> , <\(stereoURI)> ;\n    rdfs:seeAlso <presets.ttl> .\n\n"
        }
        return String(text.dropLast())
    }

    /// `toneshaper.ttl`: the file parameter and both plugins.
    public static var pluginDescription: String {
        var text = header + prefixLines(prefixes.map(\.0).filter { $0 != "pset" })
        text +=
            "<\(projectURI)>\n    a doap:Project ;\n    doap:name \"ToneShaper\" ;\n    doap:license <\(license)> ;\n"
            + "    doap:homepage <\(homepage)> ;\n"
            + "    doap:maintainer [\n        a foaf:Person ;\n        foaf:name \(turtleString(maintainerName)) ;\n"
            + "        foaf:mbox <mailto:\(maintainerMailbox)> ;\n        foaf:homepage <\(homepage)>\n    ] .\n\n"
        text += "<\(fileURI)>\n    a lv2:Parameter ;\n    rdfs:label \"Tone shape document\" ;\n    rdfs:range atom:Path .\n\n"
        text +=
            "<\(scaleFileURI)>\n    a lv2:Parameter ;\n    rdfs:label \"Tuning: Scala scale (.scl)\" ;\n"
            + "    rdfs:comment \"Tunes the MIDI keys to a Scala scale; the state keeps the file's text.\" ;\n"
            + "    rdfs:range atom:Path .\n\n"
        text +=
            "<\(keyboardMapFileURI)>\n    a lv2:Parameter ;\n    rdfs:label \"Tuning: keyboard map (.kbm)\" ;\n"
            + "    rdfs:comment \"Maps the MIDI keys onto the scale's degrees (load a scale first); the state keeps the file's text.\" ;\n"
            + "    rdfs:range atom:Path .\n\n"
        text +=
            "<\(documentURI)>\n    a rdf:Property ;\n    rdfs:label \"Tone shape document (JSON)\" ;\n"
            + "    rdfs:comment \"The plugin's state: the whole .toneshaper document as JSON text.\" ;\n    rdfs:range atom:String .\n\n"
        text +=
            "<\(pointsURI)>\n    a rdf:Property ;\n    rdfs:label \"Curve points\" ;\n"
            + "    rdfs:comment \"The curve between the plugin and its editor window: t0, f0, t1, f1, ... (seconds, Hz), at most \(PluginPoints.maximumSent) points a message.\" ;\n"
            + "    rdfs:range atom:Vector .\n\n"
        text +=
            "<\(playheadURI)>\n    a rdf:Property ;\n    rdfs:label \"Playhead\" ;\n"
            + "    rdfs:comment \"Where the cycle is now, 0 to 1.\" ;\n    rdfs:range atom:Float .\n\n"
        text +=
            "<\(tuningURI)>\n    a rdf:Property ;\n    rdfs:label \"Tuning playing\" ;\n"
            + "    rdfs:comment \"The tuning the MIDI keys play, for the editor window: a Scala scale in cents after a comment naming the keyboard map; empty for 12-TET.\" ;\n"
            + "    rdfs:range atom:String .\n\n"
        // Ardour's inline display has no schema in lv2-dev: its two URIs declared here.
        text += "<\(inlineDisplayInterface)>\n    a lv2:ExtensionData .\n\n<\(inlineDisplayQueueDraw)>\n    a lv2:Feature .\n\n"
        for group in PortGroup.allCases {
            text += "<\(group.uri)>\n    a pg:Group ;\n    lv2:symbol \"\(group.rawValue)\" ;\n    lv2:name \"\(group.name)\" .\n\n"
        }
        text +=
            "<\(uiURI)>\n    a ui:X11UI ;\n    lv2:requiredFeature urid:map ;\n"
            + "    lv2:optionalFeature ui:parent , ui:resize , ui:idleInterface , opts:options ;\n"
            + "    lv2:extensionData ui:idleInterface , ui:resize ;\n    opts:supportedOption ui:scaleFactor .\n\n"
        text += plugin(uri: monoURI, name: "ToneShaper", stereo: false, outputs: [("out", "Output")])
        text += "\n"
        text += plugin(uri: stereoURI, name: "ToneShaper (stereo)", stereo: true, outputs: [("out_left", "Left"), ("out_right", "Right")])
        return text
    }

    private static func plugin(uri: String, name: String, stereo: Bool, outputs: [(symbol: String, name: String)]) -> String {
        var ports: [(index: Int, text: String)] = []
        ports.append(
            (
                0,
                """
                    a lv2:InputPort , atom:AtomPort ;
                        lv2:index 0 ;
                        lv2:symbol "control" ;
                        lv2:name "Control" ;
                        atom:bufferType atom:Sequence ;
                        atom:supports midi:MidiEvent , patch:Message , time:Position ;
                        lv2:designation lv2:control ;
                        rsz:minimumSize \(PluginPoints.messageBytes)
                """
            ))
        ports.append(
            (
                1,
                """
                    a lv2:OutputPort , atom:AtomPort ;
                        lv2:index 1 ;
                        lv2:symbol "notify" ;
                        lv2:name "Notify" ;
                        atom:bufferType atom:Sequence ;
                        atom:supports patch:Message ;
                        rsz:minimumSize \(PluginPoints.messageBytes)
                """
            ))
        for port in controlPorts(stereo: stereo) {
            var lines = [
                "    a lv2:InputPort , lv2:ControlPort ;",
                "        lv2:index \(port.index) ;",
                "        lv2:symbol \"\(port.symbol)\" ;",
                "        lv2:name \(turtleString(port.name)) ;",
                "        rdfs:comment \(turtleString(port.comment)) ;",
                "        lv2:default \(turtleNumber(port.defaultValue)) ;",
                "        lv2:minimum \(turtleNumber(port.minimum)) ;",
                "        lv2:maximum \(turtleNumber(port.maximum))",
            ]
            switch port.kind {
            case .real: break
            case .integer, .terms: lines[lines.count - 1] += " ;\n        lv2:portProperty lv2:integer"
            case .toggle: lines[lines.count - 1] += " ;\n        lv2:portProperty lv2:toggled"
            case .choice: lines[lines.count - 1] += " ;\n        lv2:portProperty lv2:integer , lv2:enumeration"
            }
            if port.optional { lines[lines.count - 1] += " ;\n        lv2:portProperty lv2:connectionOptional" }
            if port.logarithmic { lines[lines.count - 1] += " ;\n        lv2:portProperty pprops:logarithmic" }
            if let priority = port.displayPriority { lines[lines.count - 1] += " ;\n        pprops:displayPriority \(priority)" }
            lines[lines.count - 1] += " ;\n        pg:group <\(port.group.uri)>"
            if let unit = port.unit { lines[lines.count - 1] += " ;\n        units:unit units:\(unit)" }
            if !port.scalePoints.isEmpty {
                let points = port.scalePoints.map {
                    "[\n            rdfs:label \(turtleString($0.label)) ;\n            rdf:value \(turtleNumber($0.value))\n        ]"
                }
                lines[lines.count - 1] += " ;\n        lv2:scalePoint " + points.joined(separator: " , ")
            }
            ports.append((port.index, lines.joined(separator: "\n")))
        }
        for (index, output) in zip(audioPorts(stereo: stereo), outputs) {
            ports.append(
                (
                    index,
                    """
                        a lv2:OutputPort , lv2:AudioPort ;
                            lv2:index \(index) ;
                            lv2:symbol "\(output.symbol)" ;
                            lv2:name "\(output.name)"
                    """
                ))
        }
        return """
            <\(uri)>
                a lv2:InstrumentPlugin ;
                doap:name \(turtleString(name)) ;
                doap:license <\(license)> ;
                lv2:project <\(projectURI)> ;
                lv2:minorVersion \(minorVersion) ;
                lv2:microVersion \(microVersion) ;
                rdfs:comment "Plays tone shapes: a drawn frequency curve over a cycle, through a periodic wave. Load a .toneshaper document or pick a preset." ;
                lv2:requiredFeature \(workerRequired ? "urid:map , work:schedule" : "urid:map") ;
                lv2:optionalFeature \(workerRequired ? "" : "work:schedule , ")log:log , opts:options , bufsz:boundedBlockLength , lv2:hardRTCapable , <\(inlineDisplayQueueDraw)> ;
                lv2:extensionData state:interface , work:interface , <\(inlineDisplayInterface)> ;
                opts:supportedOption \(supportedOptions.joined(separator: " , ")) ;
                ui:ui <\(uiURI)> ;
                patch:writable <\(fileURI)> , <\(scaleFileURI)> , <\(keyboardMapFileURI)> ;
                lv2:port [
            \(ports.sorted { $0.index < $1.index }.map(\.text).joined(separator: "\n    ] , [\n"))
                ] .

            """
    }

    /// Ardour's inline display (a small picture of the curve in the mixer strip), declared
    /// here as its header is not in lv2-dev.
    public static let inlineDisplayInterface = "http://harrisonconsoles.com/lv2/inlinedisplay#interface"
    /// The host's feature by which the plugin asks for the picture to be drawn again.
    public static let inlineDisplayQueueDraw = "http://harrisonconsoles.com/lv2/inlinedisplay#queue_draw"

    /// `presets.ttl`: a preset per built-in document (its file name without the
    /// extension, and the shape it holds), with every control port's value and the
    /// document itself as the state.
    public static func presets(_ documents: [(name: String, shape: ToneShape)]) -> String {
        var text = header + prefixLines(["lv2", "pset", "rdfs", "state"])
        for (name, shape) in documents {
            let values = portValues(of: shape)
            let ports = controlPorts.map { port in
                "[\n        lv2:symbol \"\(port.symbol)\" ;\n        pset:value \(turtleNumber(values[port.row]))\n    ]"
            }
            let json = String(decoding: ToneShapeDocument.encode(shape), as: UTF8.self)
            text += """
                <\(presetURI(name))>
                    a pset:Preset ;
                    lv2:appliesTo <\(monoURI)> , <\(stereoURI)> ;
                    rdfs:label \(turtleString(shape.name ?? name)) ;
                    lv2:port \(ports.joined(separator: " , ")) ;
                    state:state [
                        <\(documentURI)> \(turtleString(json))
                    ] .


                """
        }
        return String(text.dropLast())
    }
}
