import ToneShaperControl
import ToneShaperJSON
import ToneShaperModel
import ToneShaperParameters
import ToneShaperWire

/// The node's namespace as the OSCQuery proposal (Vidvox) describes it, derived from
/// `ControlAddress.all` and the parameter table: a new parameter appears here, and in the
/// page's controls, without a change to this file or the page.
struct OSCQueryNamespace: Sendable {
    /// The OSC prefix ("/toneshaper"); every address lives below it.
    let prefix: String

    /// Queries answered over OSC rather than being controls, left out of the namespace.
    private static let queries: Set<ControlCommand.Name> = [.state, .stats]

    /// A tree of path components; a node may both be an address and hold others
    /// (/amplitude and /amplitude/db).
    private final class Node {
        var children: [String: Node] = [:]
        var address: ControlAddress?
        func child(_ name: String) -> Node {
            if let node = children[name] { return node }
            let node = Node()
            children[name] = node
            return node
        }
    }

    private func tree() -> Node {
        let root = Node()
        let base = prefixComponents.reduce(root) { $0.child($1) }
        for address in ControlAddress.all {
            if case .command(let name) = address.target, OSCQueryNamespace.queries.contains(name) { continue }
            address.path.split(separator: "/").map(String.init).reduce(base) { $0.child($1) }.address = address
        }
        return root
    }

    private var prefixComponents: [String] { prefix.split(separator: "/").map(String.init) }

    /// The JSON of the node at `path` ("/", "/toneshaper/amplitude"), or nil if there is none.
    func node(at path: String, state: ControlState) -> JSONValue? {
        let components = path.split(separator: "/").map(String.init)
        var node = tree()
        for component in components {
            guard let next = node.children[component] else { return nil }
            node = next
        }
        return json(node, path: components, state: state)
    }

    /// The parameter a full path names, if it names one (for LISTEN).
    func parameter(at fullPath: String) -> ParameterSpec? {
        guard fullPath.hasPrefix(prefix + "/") else { return nil }
        return ParameterTable.spec(oscPath: String(fullPath.dropFirst(prefix.count + 1)))
    }

    func fullPath(of spec: ParameterSpec) -> String { prefix + "/" + spec.oscPath }

    private func json(_ node: Node, path: [String], state: ControlState) -> JSONValue {
        var object: [String: JSONValue] = ["FULL_PATH": .string("/" + path.joined(separator: "/"))]
        if let address = node.address {
            object["DESCRIPTION"] = .string(address.help + " (" + address.arguments + ")")
            for (key, value) in OSCQueryNamespace.attributes(of: address, state: state) { object[key] = value }
        } else {
            object["ACCESS"] = .number(0)
            if path.isEmpty { object["DESCRIPTION"] = .string("ToneShaper: a tone shape played as a JACK node") }
        }
        if !node.children.isEmpty {
            var contents: [String: JSONValue] = [:]
            for (name, child) in node.children { contents[name] = json(child, path: path + [name], state: state) }
            object["CONTENTS"] = .object(contents)
        }
        return .object(object)
    }

    /// TYPE, VALUE, RANGE, ACCESS and UNIT of an address (DESCRIPTION is added by the
    /// caller), read off the core's signature: a parameter can be read and written (its
    /// VALUE is the current one, its presentation is ``presentation(of:)``'s attributes), a
    /// command only written, save the tuning's files (``tuningText(_:_:)``), read back too.
    static func attributes(of address: ControlAddress, state: ControlState) -> [String: JSONValue] {
        var attributes: [String: JSONValue] = [:]
        switch address.target {
        case .parameter(let id):
            attributes["ACCESS"] = .number(3)
            let spec = ParameterTable.spec(id)
            attributes["VALUE"] = .array([jsonArgument(spec, spec.value(in: state.shape))])
            for (key, value) in presentation(of: spec) { attributes[key] = value }
        case .command(let name):
            if let text = tuningText(name, state) {
                // The tuning's files can be read back: the text playing ("" for none).
                attributes["ACCESS"] = .number(3)
                attributes["VALUE"] = .array([.string(text)])
            } else {
                attributes["ACCESS"] = .number(2)
            }
        }
        // Repeated (points), optional (buttons) or no arguments: no type string describes them.
        let arguments = address.signature.arguments
        guard address.signature.arity == .exact, !arguments.isEmpty else { return attributes }
        attributes["TYPE"] = .string(arguments.map(typeTag).joined())
        let ranges = arguments.map(range)
        if ranges.allSatisfy({ $0 != nil }) { attributes["RANGE"] = .array(ranges.compactMap { $0 }) }
        let units = arguments.map { unit($0.unit) }
        if units.allSatisfy({ $0 != nil }) { attributes["UNIT"] = .array(units.compactMap { $0 }.map(JSONValue.string)) }
        return attributes
    }

    /// The text of the tuning file a command sets, as it plays ("" for none); nil for a
    /// command that sets no file.
    static func tuningText(_ name: ControlCommand.Name, _ state: ControlState) -> String? {
        switch name {
        case .tuningScale: return state.shape.tuning?.scaleText ?? ""
        case .tuningMap: return state.shape.tuning?.keyboardMapText ?? ""
        default: return nil
        }
    }

    /// The extra attributes of a parameter's node: the row's presentation, so that a client
    /// (the browser editor) labels, orders, steps and scales its controls as the plugin's
    /// editor and hosts do, knowing nothing of its own. OSCQuery clients ignore attributes
    /// they do not know; `?HOST_INFO` lists these among its EXTENSIONS.
    ///
    /// - NAME: the display name ("Min frequency").
    /// - GROUP: the group's name ("Shape", "Sound", "MIDI"); TAGS (OSCQuery's) holds it too.
    /// - GROUP_PLACE: the group's place among the groups, from 0.
    /// - EDITOR_PLACE: the place among the controls the editors show beside the curve, from
    ///   0; absent for a row they do not show.
    /// - PRIORITY: the display priority, most important highest; absent for none.
    /// - LOGARITHMIC: whether a bar over it is logarithmic.
    /// - STEP: the step of an entry field; absent for any value.
    static func presentation(of spec: ParameterSpec) -> [String: JSONValue] {
        let group = spec.presentation.group
        var attributes: [String: JSONValue] = [
            "NAME": .string(spec.displayName),
            "GROUP": .string(group.name),
            "GROUP_PLACE": .number(Double(ParameterGroup.allCases.firstIndex(of: group) ?? 0)),
            "TAGS": .array([.string(group.name)]),
            "LOGARITHMIC": .bool(spec.presentation.logarithmic),
        ]
        if let place = spec.presentation.editorPlace { attributes["EDITOR_PLACE"] = .number(Double(place)) }
        if let priority = spec.presentation.priority { attributes["PRIORITY"] = .number(Double(priority)) }
        if let step = spec.step { attributes["STEP"] = .number(step) }
        return attributes
    }

    /// The presentation's attributes (``presentation(of:)``), as `?HOST_INFO` lists them.
    static let presentationExtensions = ["NAME", "GROUP", "GROUP_PLACE", "EDITOR_PLACE", "PRIORITY", "LOGARITHMIC", "STEP"]

    /// An argument's OSC type tag. A count or the word "nyquist" is a string: it carries
    /// both (the node reads "8" as 8).
    private static func typeTag(_ argument: ControlArgument) -> String {
        switch argument.type {
        case .real: return "f"
        case .integer: return "i"
        case .flag: return "T"
        case .choice, .countOrNyquist, .text: return "s"
        }
    }

    /// An argument's RANGE entry: the numbers a control spans, or the names it offers.
    private static func range(_ argument: ControlArgument) -> JSONValue? {
        if case .choice(let names) = argument.type { return .object(["VALS": .array(names.map(JSONValue.string))]) }
        guard let span = argument.numericRange else { return nil }
        return .object(["MIN": .number(span.lowerBound), "MAX": .number(span.upperBound)])
    }

    /// The table's units in the unit names OSCQuery controllers know (ossia's).
    static func unit(_ unit: String) -> String? {
        switch unit {
        case "Hz": return "frequency.hz"
        case "s": return "time.second"
        case "dBFS": return "gain.db"
        default: return nil
        }
    }

    /// `?HOST_INFO`.
    static func hostInfo(name: String, oscPort: Int?) -> JSONValue {
        var extensions: [String: JSONValue] = [
            "ACCESS": .bool(true), "VALUE": .bool(true), "RANGE": .bool(true), "DESCRIPTION": .bool(true),
            "UNIT": .bool(true), "LISTEN": .bool(true), "TAGS": .bool(true), "EXTENDED_TYPE": .bool(false),
            "CLIPMODE": .bool(false), "CRITICAL": .bool(false), "PATH_CHANGED": .bool(false),
        ]
        for name in presentationExtensions { extensions[name] = .bool(true) }
        var info: [String: JSONValue] = ["NAME": .string(name), "EXTENSIONS": .object(extensions)]
        if let oscPort {
            info["OSC_PORT"] = .number(Double(oscPort))
            info["OSC_TRANSPORT"] = .string("UDP")
        }
        return .object(info)
    }

    /// A parameter's value as JSON, typed as the namespace declares it.
    static func jsonArgument(_ spec: ParameterSpec, _ value: ParameterValue) -> JSONValue {
        if case .terms = spec.kind { return .string(value.description) }
        return JSONValue(value)
    }

    /// A parameter's value as an OSC argument, typed as the namespace declares it.
    static func oscArgument(_ spec: ParameterSpec, _ value: ParameterValue) -> OSCValue {
        switch (spec.kind, value) {
        case (.terms, _): return .string(value.description)
        case (_, .real(let d)): return .float(Float(d))
        case (_, .integer(let i)): return .int32(Int32(clamping: i))
        case (_, .text(let s)): return .string(s)
        case (_, .flag(let b)): return .bool(b)
        }
    }
}
