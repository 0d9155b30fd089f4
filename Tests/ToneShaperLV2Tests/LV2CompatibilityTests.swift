import Testing
import ToneShaperControl
import ToneShaperLV2Description
import ToneShaperLV2Layout

/// What a saved DAW project holds on to, by lv2core's versioning rules: the plugins' URIs,
/// and each port's index and symbol (hosts save values and automation by one or the other:
/// Ardour by symbol, Qtractor by index). This test holds them as released and fails if any
/// changes. A port added later must come after every released port (the audio outputs
/// included), be `lv2:connectionOptional`, and the release that adds it moves
/// `lv2:minorVersion` on to the next even number; the manual's "The control core"
/// (`Sources/ToneShaperManual/ToneShaper.docc/ControlCore.md`) says how to add a parameter.
@Suite struct LV2CompatibilityTests {
    /// The plugins' URIs as released.
    static let releasedURIs = ["urn:toneshaper:instrument", "urn:toneshaper:instrument-stereo"]

    /// lv2:minorVersion of the release these ports come from.
    static let releasedMinorVersion = 2

    /// Every port as released (minor version 2), index and symbol, per plugin.
    static let releasedControlPorts = [
        "control", "notify", "min_frequency", "max_frequency", "wave", "scale", "echo_offset", "echo_volume", "amplitude",
        "duration", "fidelity", "fourier_terms", "anti_alias", "instrument", "root_note", "bend_range", "voices", "release",
        "one_shot", "transport", "beats",
    ]
    static let releasedPorts: [String: [String]] = [
        "urn:toneshaper:instrument": releasedControlPorts + ["out"],
        "urn:toneshaper:instrument-stereo": releasedControlPorts + ["out_left", "out_right"],
    ]

    /// A port as the plugin's Turtle declares it.
    struct Port: Equatable {
        var index: Int
        var symbol: String
        var optional: Bool
    }

    /// The ports of `uri` in the Turtle `LV2Description` writes (and the bundle commits,
    /// which `LV2DescriptionTests` ties to it), read back from the text.
    static func ports(of uri: String) throws -> (ports: [Port], minorVersion: Int) {
        let text = LV2Description.pluginDescription
        let start = try #require(text.range(of: "<\(uri)>\n"), "\(uri) is not described")
        let rest = text[start.upperBound...]
        let body = rest[..<(rest.range(of: "\n<urn:")?.lowerBound ?? rest.endIndex)]
        let minor = try #require(body.firstMatch(of: /lv2:minorVersion (\d+)/).flatMap { Int($0.1) })
        let ports = body.split(separator: "] , [").compactMap { block -> Port? in
            guard let index = block.firstMatch(of: /lv2:index (\d+)/).flatMap({ Int($0.1) }),
                let symbol = block.firstMatch(of: /lv2:symbol "([^"]+)"/).map({ String($0.1) })
            else { return nil }
            return Port(index: index, symbol: symbol, optional: block.contains("lv2:connectionOptional"))
        }
        return (ports, minor)
    }

    @Test func theReleasedPluginsAreStillDescribed() {
        #expect([LV2Description.monoURI, LV2Description.stereoURI] == Self.releasedURIs)
    }

    @Test(arguments: releasedURIs)
    func everyReleasedPortKeepsItsIndexAndSymbol(uri: String) throws {
        let (ports, _) = try Self.ports(of: uri)
        let released = try #require(Self.releasedPorts[uri])
        for (index, symbol) in released.enumerated() {
            let port = ports.first { $0.index == index }
            #expect(port?.symbol == symbol, "\(uri): port \(index) was \"\(symbol)\", is \(port.map { "\"\($0.symbol)\"" } ?? "gone")")
        }
        #expect(ports.map(\.index) == Array(0..<ports.count), "\(uri): port indices 0 to \(ports.count - 1), each once")
    }

    /// Ports added after the release: after every released one, optional, in a release with
    /// an even minor version above the released one.
    @Test(arguments: releasedURIs)
    func portsAddedLaterComeLastAndAreOptional(uri: String) throws {
        let (ports, minor) = try Self.ports(of: uri)
        let released = try #require(Self.releasedPorts[uri])
        let added = ports.filter { $0.index >= released.count }
        for port in added {
            #expect(port.optional, "\(uri): the added port \(port.symbol) must be lv2:connectionOptional")
            #expect(!released.contains(port.symbol), "\(uri): the added port \(port.symbol) takes a released symbol")
        }
        if added.isEmpty {
            #expect(minor == Self.releasedMinorVersion, "\(uri): no port added, yet the minor version moved to \(minor)")
        } else {
            #expect(
                minor > Self.releasedMinorVersion && minor % 2 == 0,
                "\(uri): ports added: the minor version must move to the next even number, not \(minor)")
        }
    }
}
