import ToneShaperCore
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

    /// TYPE, VALUE, RANGE, ACCESS and UNIT of an address (DESCRIPTION is added by the caller).
    static func attributes(of address: ControlAddress, state: ControlState) -> [String: JSONValue] {
        switch address.target {
        case .parameter(let id):
            let spec = ParameterTable.spec(id)
            var attributes: [String: JSONValue] = ["ACCESS": .number(3)]
            let value = spec.value(in: state.shape)
            switch spec.kind {
            case .real(let range):
                attributes["TYPE"] = .string("f")
                attributes["RANGE"] = .array([.object(["MIN": .number(range.lowerBound), "MAX": .number(range.upperBound)])])
                attributes["VALUE"] = .array([JSONValue(value)])
            case .integer(let range):
                attributes["TYPE"] = .string("i")
                attributes["RANGE"] = .array([.object(["MIN": .number(Double(range.lowerBound)), "MAX": .number(Double(range.upperBound))])])
                attributes["VALUE"] = .array([JSONValue(value)])
            case .choice(let names):
                attributes["TYPE"] = .string("s")
                attributes["RANGE"] = .array([.object(["VALS": .array(names.map(JSONValue.string))])])
                attributes["VALUE"] = .array([JSONValue(value)])
            case .terms:
                // A count or the word "nyquist": a string carries both (the node reads "8" as 8).
                attributes["TYPE"] = .string("s")
                attributes["VALUE"] = .array([.string(value.description)])
            case .flag:
                attributes["TYPE"] = .string("T")
                attributes["VALUE"] = .array([JSONValue(value)])
            }
            if let unit = unit(spec.unit) { attributes["UNIT"] = .array([.string(unit)]) }
            return attributes
        case .command(let name):
            var attributes: [String: JSONValue] = ["ACCESS": .number(2)]
            switch name {
            case .frequencyRange:
                attributes["TYPE"] = .string("ff")
                attributes["UNIT"] = .array([.string("frequency.hz"), .string("frequency.hz")])
            case .echo: attributes["TYPE"] = .string("ff")
            case .amplitudeDecibels:
                attributes["TYPE"] = .string("f")
                attributes["RANGE"] = .array([.object(["MIN": .number(-120), "MAX": .number(0)])])
                attributes["UNIT"] = .array([.string("gain.db")])
            case .load, .save: attributes["TYPE"] = .string("s")
            case .midiMap: attributes["TYPE"] = .string("is")
            case .midiLearn: attributes["TYPE"] = .string("s")
            // Variadic (points) or no arguments (buttons): no type string describes them.
            case .points, .play, .stop, .clearSchedule, .state, .stats: break
            }
            return attributes
        }
    }

    /// The table's units in the unit names OSCQuery controllers know (ossia's).
    static func unit(_ unit: String) -> String? {
        switch unit {
        case "Hz": return "frequency.hz"
        case "s": return "time.second"
        default: return nil
        }
    }

    /// `?HOST_INFO`.
    static func hostInfo(name: String, oscPort: Int?) -> JSONValue {
        var info: [String: JSONValue] = [
            "NAME": .string(name),
            "EXTENSIONS": .object([
                "ACCESS": .bool(true), "VALUE": .bool(true), "RANGE": .bool(true), "DESCRIPTION": .bool(true),
                "UNIT": .bool(true), "LISTEN": .bool(true), "TAGS": .bool(false), "EXTENDED_TYPE": .bool(false),
                "CLIPMODE": .bool(false), "CRITICAL": .bool(false), "PATH_CHANGED": .bool(false),
            ]),
        ]
        if let oscPort {
            info["OSC_PORT"] = .number(Double(oscPort))
            info["OSC_TRANSPORT"] = .string("UDP")
        }
        return .object(info)
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
