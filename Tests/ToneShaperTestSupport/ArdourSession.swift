import Foundation

/// Ardour 7 without its window: `ardour7-lua` (Debian's `ardour` package), Ardour's own
/// engine and session code driven by Lua, on a private JACK server.
///
/// It creates a session with one MIDI track ("Synth") whose instrument is the plugin, or
/// opens one it saved; the track monitors its input, so MIDI a test sends to
/// ``midiInput`` is played at once, and ``audioOutput`` is what the track plays (a test
/// records it on JACK's timeline). Parameters are set and read by their label, as a user
/// finds them in Ardour's generic editor. Every step is reported on standard output as
/// "key: value" and waited for (``RunningTool``); nothing waits a fixed time.
///
/// Ardour reads its configuration from `$HOME/.config/ardour7` and VST3 plugins from
/// `$HOME/.vst3`: each session gets a home of its own (`home`), so the test machine's own
/// Ardour settings and plugins play no part, and the plugin under test is the only one of
/// its name.
public final class ArdourSession {
    /// A plugin format Ardour 7 hosts, by the name its Lua binding gives it.
    public enum Format: String, Sendable {
        case lv2 = "LV2"
        case vst3 = "VST3"
    }

    public static var available: Bool { PrivateJackServer.available && TestTools.have("ardour7-lua") }

    /// The name of Ardour's JACK client, as the server knows it once the track is ready.
    public private(set) var client: String
    public let tool: RunningTool
    /// The server it plays on (``quit()`` waits there for its client to go).
    let jack: PrivateJackServer

    /// The track's MIDI input and its first audio output, as JACK names them.
    public var midiInput: String { "\(client):Synth/midi_in 1" }
    public var audioOutput: String { "\(client):Synth/audio_out 1" }

    /// Starts Ardour on `jack`: a new session in `folder` with a MIDI track playing the
    /// plugin named `pluginName` of `format` when `create`, else the session saved there.
    /// `values` are then set by label, in order. `environment` adds to Ardour's (LV2_PATH).
    /// Returns once Ardour reported the track ready.
    public init(
        jack: PrivateJackServer, folder: URL, home: URL, create: Bool, format: Format, pluginName: String, values: [(String, Double)] = [],
        environment: [String: String] = [:]
    ) throws {
        client = "ardour-\(jack.name)"
        self.jack = jack
        let script = folder.deletingLastPathComponent().appendingPathComponent("\(folder.lastPathComponent)-\(create ? "create" : "open").lua")
        try Self.script(folder: folder, create: create, format: format, pluginName: pluginName, values: values, rate: jack.rate)
            .write(to: script, atomically: true, encoding: .utf8)
        let env = jack.environment.merging(environment) { $1 }.merging(["HOME": home.path]) { $1 }
        tool = try RunningTool("ardour7-lua", ["-i", script.path], environment: env)
        try tool.waitFor("Ardour's session with the plugin") {
            if tool.stdout.contains("error: ") {
                throw TestToolError("ardour7-lua: \(tool.stdout.split(separator: "\n").filter { $0.hasPrefix("error: ") }.joined(separator: "; "))")
            }
            return !tool.reports("ready").isEmpty
        }
        client = try Self.clientWithTrack(on: jack, named: client)
    }

    /// The client of the Ardour just started whose track's ports are on the server, found
    /// there rather than assumed: JACK forgets the client of an Ardour that ended only when
    /// it notices its socket closed, and a client it still holds (with no ports left, so
    /// ``quit()`` cannot see it) makes JACK rename the next one (`…-01`); and on a loaded
    /// host the ports appeared only after Ardour had said the session was ready ("could not
    /// connect ard2-seq:out to ardour-…:Synth/midi_in 1", a CI run).
    private static func clientWithTrack(on jack: PrivateJackServer, named name: String) throws -> String {
        let input = ":Synth/midi_in 1"
        let output = ":Synth/audio_out 1"
        var found: String?
        let seen = jack.waitFor(
            {
                guard let ports = jack.ports() else { return false }
                found = ports.lazy.filter { $0.hasPrefix(name) && $0.hasSuffix(input) }.map { String($0.dropLast(input.count)) }
                    .first { ports.contains($0 + output) }
                return found != nil
            }, seconds: 120)
        guard seen, let found else {
            throw TestToolError("Ardour said its session was ready, but no client \(name)… had\(input) and\(output) on the server after 120 s")
        }
        return found
    }

    /// Ardour's own VST3 scanner (out of process, as Ardour scans), run on `bundle` in
    /// `home`'s `.vst3`: Ardour lists only VST3 plugins its scanner has indexed (its cache in
    /// `home`), and ardour7-lua scans none by itself. Returns what the scanner printed.
    @discardableResult
    public static func scanVST3(bundle: URL, home: URL) throws -> String {
        let plugins = home.appendingPathComponent(".vst3")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        let link = plugins.appendingPathComponent(bundle.lastPathComponent)
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: bundle.standardizedFileURL)
        let scanner = "/usr/lib/ardour7/ardour-vst3-scanner"
        let result = try ToolResult.run(
            scanner, ["-v", "-f", link.path], environment: ["HOME": home.path, "LD_LIBRARY_PATH": "/usr/lib/ardour7"], timeout: 120)
        guard result.status == 0, result.output.contains("<VST3Info") else {
            throw TestToolError("Ardour's VST3 scanner did not index \(link.path):\n\(result.output.suffix(3000))")
        }
        return result.output
    }

    /// The name Ardour shows for the instrument (its processor's).
    public var pluginShown: String { tool.reports("plugin").first ?? "" }

    /// Sets the parameter labelled `label` (its plain value, as Ardour's generic editor shows it).
    public func set(_ label: String, _ value: Double) throws {
        let count = tool.reports("set").count
        try tool.send("set_param(\(Self.lua(label)), \(value))")
        try tool.waitForReport("set", count: count + 1)
    }

    /// The parameter labelled `label`'s value as Ardour reads it from the plugin.
    public func value(_ label: String) throws -> Double {
        let count = tool.reports("value").count
        try tool.send("report_param(\(Self.lua(label)))")
        let line = try tool.waitForReport("value", count: count + 1)
        guard let value = Double(line.split(separator: "=").last.map(String.init) ?? "") else {
            throw TestToolError("Ardour reported \(label) as \(line)")
        }
        return value
    }

    /// Saves the session (Ardour asks the plugin for its state), and returns when it is written.
    public func save() throws {
        let count = tool.reports("saved").count
        try tool.send("save()")
        try tool.waitForReport("saved", count: count + 1)
    }

    /// Closes the session and ends Ardour, and returns once JACK has forgotten its client.
    /// JACK drops the client of a process that ended when it notices the socket closed; an
    /// Ardour started on the same server before then gets a client renamed (`…-01`), whose
    /// ports are not where ``midiInput`` says (a reopening test then failed to connect).
    @discardableResult
    public func quit() throws -> ToolResult {
        try? tool.send("close_session(); os.exit(0)")
        let result = try tool.finish()
        let prefix = client + ":"
        let gone = jack.waitFor({ jack.ports().map { ports in !ports.contains { $0.hasPrefix(prefix) } } ?? false }, seconds: 120)
        guard gone else { throw TestToolError("Ardour's JACK client \(client) was still on the server 120 s after Ardour ended") }
        return result
    }

    private static func lua(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private static func script(folder: URL, create: Bool, format: Format, pluginName: String, values: [(String, Double)], rate: Int) -> String {
        let open =
            create
            ? """
            if create_session(\(lua(folder.path)), "toneshaper", \(rate)) == nil then fail("the session was not created") end
            local found = nil
            for p in ARDOUR.LuaAPI.list_plugins():iter() do
              if p.type == ARDOUR.PluginType.\(format.rawValue) and p.name == \(lua(pluginName)) then found = p end
            end
            if found == nil then fail("Ardour found no \(format.rawValue) plugin named \(pluginName)") end
            local tracks = Session:new_midi_track(ARDOUR.ChanCount(ARDOUR.DataType("midi"), 1), ARDOUR.ChanCount(ARDOUR.DataType("audio"), 2),
              true, found, nil, nil, 1, "Synth", ARDOUR.PresentationInfo.max_order, ARDOUR.TrackMode.Normal, true)
            track = tracks:front()
            """
            : """
            if load_session(\(lua(folder.path)), "toneshaper") == nil then fail("the session did not open") end
            track = Session:route_by_name("Synth"):to_track()
            if track:isnil() then fail("the session has no track Synth") end
            """
        let sets = values.map { "set_param(\(lua($0.0)), \($0.1))" }.joined(separator: "\n")
        return """
            function fail(what) print("error: " .. what); os.exit(1) end
            AudioEngine:set_backend("JACK", \(lua("ardour-")) .. os.getenv("JACK_DEFAULT_SERVER"), "")
            if AudioEngine:start(false) ~= 0 then fail("Ardour's engine did not start on JACK") end
            \(open)
            track:monitoring_control():set_value(ARDOUR.MonitorChoice.MonitorInput, PBD.GroupControlDisposition.NoGroup)
            proc = track:nth_plugin(0)
            if proc:isnil() then fail("the track has no plugin") end
            function param_index(label)
              local plugin = proc:to_insert():plugin(0)
              local n = 0
              for i = 0, plugin:parameter_count() - 1 do
                local id, _ = plugin:nth_parameter(i, true)
                if plugin:parameter_is_input(id) and plugin:parameter_is_control(id) then
                  if plugin:parameter_label(id) == label then return n end
                  n = n + 1
                end
              end
              fail("the plugin has no parameter " .. label)
            end
            function set_param(label, value)
              ARDOUR.LuaAPI.set_processor_param(proc, param_index(label), value)
              print("set: " .. label)
            end
            function report_param(label)
              print("value: " .. label .. "=" .. ARDOUR.LuaAPI.get_processor_param(proc, param_index(label), true))
            end
            function save()
              Session:save_state("", false, false, false, false, false)
              print("saved: 1")
            end
            \(sets)
            print("plugin: " .. proc:display_name())
            print("ready: 1")

            """
    }
}
