import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

extension WithJackServer {
    /// `toneshaper run` started by a session manager (NSM), driven through the real
    /// executable by the tests' own manager on a private JACK server.
    @Suite struct SessionManager {
        /// A node started as nsmd starts it: no arguments (unless given), NSM_URL set.
        static func start(
            _ manager: TestSessionManager, on server: PrivateJackServer, arguments: [String] = [],
            environment: [String: String] = [:]
        ) async throws -> NodeProcess {
            let node = try NodeProcess(arguments, server: server, environment: manager.environment.merging(environment) { $1 })
            let announce = try #require(await manager.expect("/nsm/server/announce"), "no announce; stderr: \(node.stderr.text)")
            // The browser editor is the optional GUI; without it (--no-http) there is none.
            let capabilities = arguments.contains("--no-http") ? ":switch:dirty:" : ":switch:dirty:optional-gui:"
            #expect(announce.strings.prefix(2) == ["toneshaper", capabilities])
            return node
        }

        static func clients(of server: PrivateJackServer) -> Set<String> {
            Set((server.connections() ?? [:]).keys.compactMap { $0.split(separator: ":").first.map(String.init) })
        }

        @Test func announcesWaitsForOpenThenPlaysUnderTheClientIDAndSavesWhenAsked() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            let manager = try TestSessionManager()
            let node = try await Self.start(manager, on: server)
            let announce = try #require(manager.received.last)
            #expect(announce.arguments.count == 6)
            if case .int(let major) = announce.arguments[3], case .int(let minor) = announce.arguments[4], case .int(let pid) = announce.arguments[5]
            {
                #expect((major, minor) == (1, 1))
                #expect(pid == node.process.processIdentifier)
            } else {
                Issue.record("announce arguments: \(announce)")
            }
            #expect(announce.strings[2].hasSuffix("toneshaper"))

            // Nothing in JACK before the open: checked once the node has answered a later
            // request (a save with no session open is refused), not after a sleep.
            try manager.welcome()
            #expect(try await manager.save()?.path == "/error", "no session is open yet")
            #expect(!Self.clients(of: server).contains { $0.hasPrefix("toneshaper") })

            let sessionPath = scratch.url.appendingPathComponent("toneshaper.nTEST").path
            let reply = try #require(try await manager.open(sessionPath, clientID: "toneshaper.nTEST"))
            #expect(reply.path == "/reply", "\(reply)")
            #expect(await manager.expect("/nsm/client/is_clean") != nil)
            try await node.waitUntilReady()
            #expect(node.ports == ["toneshaper.nTEST:out"])
            #expect(server.connections()?["toneshaper.nTEST:out"] == [], "connections are the session manager's")
            let oscPort = try #require(node.oscPort)
            #expect(oscPort != 9000)

            // A change over OSC makes the session dirty; a save makes it clean again.
            try OSCDatagram.send(OSCDatagram.message("/toneshaper/frequency/range", [.float(300), .float(600)]), toPort: oscPort)
            #expect(await manager.expect("/nsm/client/is_dirty") != nil)
            let saved = try #require(try await manager.save())
            #expect(saved.path == "/reply", "\(saved)")
            #expect(await manager.expect("/nsm/client/is_clean") != nil)
            let file = sessionPath + ".toneshaper"
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
            #expect(json["minFrequency"] as? Double == 300)
            #expect(json["maxFrequency"] as? Double == 600)
            let settings = try #require(json["toneshaperSession"] as? [String: Any])
            #expect(settings["jackClient"] as? String == "toneshaper.nTEST")
            #expect(settings["oscPort"] as? Int == oscPort)
            let editor = try #require(node.editorURL)
            #expect(settings["editorURL"] as? String == editor)
            #expect(settings["httpPort"] as? Int == (try await node.webClient()).port)

            // Session messages sent to the control port are not answered as unknown addresses.
            #expect(try OSCDatagram.request(OSCDatagram.message("/nsm/client/save", []), toPort: oscPort, timeout: 0.5) == nil)
            #expect(
                try OSCDatagram.request(OSCDatagram.message("/toneshaper/no-such-thing", []), toPort: oscPort) != nil,
                "other unknown addresses are still answered")

            // nsmd's quit: SIGTERM closes cleanly, without saving.
            try OSCDatagram.send(OSCDatagram.message("/toneshaper/amplitude", [.float(0.1)]), toPort: oscPort)
            #expect(await manager.expect("/nsm/client/is_dirty") != nil)
            let before = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(await node.stop(signal: SIGTERM) == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
            #expect(!Self.clients(of: server).contains("toneshaper.nTEST"))
        }

        @Test func aSavedSessionReopensToTheSameSound() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            let template = try scratch.constantTone(frequency: 440, amplitude: 0.5)
            let sessionPath = scratch.url.appendingPathComponent("toneshaper.nSND").path

            // First run: a new session starts from the document given on the command line
            // (stereo, as a wrapper script may ask), changes over OSC (wave and level), and
            // is saved.
            let manager = try TestSessionManager()
            let first = try await Self.start(manager, on: server, arguments: [template, "--stereo"])
            try manager.welcome()
            #expect(try await manager.open(sessionPath, clientID: "toneshaper.nSND")?.path == "/reply")
            try await first.waitUntilReady()
            let port = try #require(first.oscPort)
            try OSCDatagram.send(OSCDatagram.message("/toneshaper/wave", [.string("Triangle")]), toPort: port)
            try OSCDatagram.send(OSCDatagram.message("/toneshaper/amplitude", [.float(0.3)]), toPort: port)
            #expect(await manager.expect("/nsm/client/is_dirty") != nil)
            try await OSCDatagram.waitForPeriods(OSCDatagram.periods(0.2, of: server), port: port)  // the wave's cross-fade
            let before = try await server.recordSteady("toneshaper.nSND:out_1", seconds: 1.5, minimumClean: 8_192, into: scratch.url)
            #expect(try await manager.save()?.path == "/reply")
            let firstEditor = try #require(first.editorURL)
            #expect(await first.stop() == 0)

            // Second run, without the document or options: the session's file alone gives the
            // sound and the two ports.
            let manager2 = try TestSessionManager()
            let second = try await Self.start(manager2, on: server)
            try manager2.welcome()
            let reopened = try #require(try await manager2.open(sessionPath, clientID: "toneshaper.nSND"))
            #expect(reopened.path == "/reply" && reopened.strings.last?.contains("opened") == true, "\(reopened)")
            try await second.waitUntilReady()
            #expect(second.ports == ["toneshaper.nSND:out_1", "toneshaper.nSND:out_2"])
            #expect(second.oscPort == port, "the session's OSC port, free again, is taken again")
            _ = try await second.webClient()
            #expect(second.editorURL == firstEditor, "and so is its editor's port: a bookmark keeps working")
            let after = try await server.recordSteady("toneshaper.nSND:out_1", seconds: 1.5, minimumClean: 8_192, into: scratch.url)
            #expect(await second.stop() == 0)

            for (name, recording) in [("before", before), ("after", after)] {
                #expect(SignalAnalysis.allFinite(recording.samples))
                #expect(recording.samples.count > 60_000, "\(name)")
            }
            let f0 = try before.frequency(atLeast: 8_192)
            let f1 = try after.frequency(atLeast: 8_192)
            #expect(abs(f0 - 440) < 0.2 && abs(f1 - 440) < 0.2, "\(f0) Hz, \(f1) Hz")
            // A triangle at 0.3: RMS 0.3/√3, not the template's sine at 0.5.
            let r0 = try before.rms(atLeast: 8_192)
            let r1 = try after.rms(atLeast: 8_192)
            #expect(abs(r0 - 0.3 / 3.0.squareRoot()) < 0.01 && abs(r1 - r0) < 0.005, "RMS \(r0), \(r1)")
            let p0 = try before.harmonicProfile(of: 440, size: 8_192)
            let p1 = try after.harmonicProfile(of: 440, size: 8_192)
            #expect(p0[2] > 0.08 && p0[2] < 0.14, "a triangle's third harmonic is 1/9 of its fundamental: \(p0)")
            for k in p0.indices { #expect(abs(p0[k] - p1[k]) < 0.02, "harmonic \(k + 1): \(p0) vs \(p1)") }
        }

        static var haveWebSocketClient: Bool {
            (try? ExternalTools.run("python3", ["-c", "import websocket"]).status) == 0
        }

        /// The optional GUI is the browser editor. The "browser" here is a page of the tests'
        /// own (`Tests/Browser/session_page.py`, started through `BROWSER` as xdg-open would
        /// start a browser) that speaks the editor page's WebSocket protocol.
        @Test(.enabled(if: haveWebSocketClient, "needs python3 with websocket-client (Scripts/setup.sh installs it)"))
        func showAndHideOpenAndCloseTheEditorAndAPageClosedByTheUserIsReported() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            let manager = try TestSessionManager()
            let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Browser/session_page.py").standardized.path
            let log = scratch.url.appendingPathComponent("browser.log").path
            let node = try await Self.start(manager, on: server, environment: ["BROWSER": "python3 \(page) %s \(log)"])
            let lines = { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
            #expect(await manager.expect("/nsm/client/gui_is_hidden") != nil, "an optional GUI starts hidden, and says so")

            // Before the session opens there is no editor to show.
            try manager.welcome()
            try manager.send("/nsm/client/show_optional_gui")
            #expect(await manager.expect("/nsm/client/gui_is_hidden") != nil)
            #expect(lines().isEmpty)

            #expect(try await manager.open(scratch.url.appendingPathComponent("toneshaper.nGUI").path, clientID: "toneshaper.nGUI")?.path == "/reply")
            try await node.waitUntilReady()
            _ = try await node.webClient()
            let editor = try #require(node.editorURL)

            // Show: the browser opens the editor's URL, and the page joins.
            try manager.send("/nsm/client/show_optional_gui")
            #expect(await manager.expect("/nsm/client/gui_is_shown") != nil)
            #expect(await eventually(timeout: 15) { lines().contains("state") }, "the page never got the state: \(lines()) \(node.stderr.text)")
            #expect(lines().first?.hasSuffix(" " + editor) == true, "\(lines())")
            // The page staying open says nothing more.
            #expect(await manager.nothing(to: "/nsm/client/gui_is_hidden", within: 0.5))

            // Hide: the page is asked to close, and closes.
            try manager.send("/nsm/client/hide_optional_gui")
            #expect(await manager.expect("/nsm/client/gui_is_hidden") != nil)
            #expect(await eventually(timeout: 10) { lines().contains { $0.hasPrefix("hide ") } }, "\(lines())")
            #expect(await manager.nothing(to: "/nsm/client/gui_is_shown", within: 0.5), "closing the page says nothing more")

            // Shown again, then closed by the user (the page's process ends): the manager hears it.
            try manager.send("/nsm/client/show_optional_gui")
            #expect(await manager.expect("/nsm/client/gui_is_shown") != nil)
            #expect(await eventually(timeout: 15) { lines().filter { $0.hasPrefix("pid ") }.count == 2 && lines().last == "state" }, "\(lines())")
            let pid = try #require(lines().last { $0.hasPrefix("pid ") }.flatMap { Int32($0.split(separator: " ")[1]) })
            kill(pid, SIGTERM)
            #expect(await manager.expect("/nsm/client/gui_is_hidden") != nil, "the user closed the last page")

            #expect(await node.stop(signal: SIGTERM) == 0)
        }

        @Test func switchOpensAnotherSessionWithoutRestarting() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            let template = try scratch.constantTone(frequency: 440, amplitude: 0.4)
            // Session B exists already, at 660 Hz.
            let other = try scratch.constantTone(frequency: 660, amplitude: 0.4)
            let pathB = scratch.url.appendingPathComponent("toneshaper.nBBBB").path
            try FileManager.default.moveItem(atPath: other, toPath: pathB + ".toneshaper")

            let manager = try TestSessionManager()
            let node = try await Self.start(manager, on: server, arguments: [template])
            let pid = node.process.processIdentifier
            try manager.welcome()
            #expect(
                try await manager.open(scratch.url.appendingPathComponent("toneshaper.nAAAA").path, clientID: "toneshaper.nAAAA")?.path == "/reply")
            try await node.waitUntilReady()
            let port = try #require(node.oscPort)

            // Another id: a new JACK client under it, the old one gone, the other sound.
            #expect(try await manager.open(pathB, clientID: "toneshaper.nBBBB")?.path == "/reply")
            #expect(await manager.expect("/nsm/client/is_clean") != nil)
            let clients = Self.clients(of: server)
            #expect(clients.contains("toneshaper.nBBBB") && !clients.contains("toneshaper.nAAAA"), "\(clients)")
            let b = try await server.recordSteady("toneshaper.nBBBB:out", seconds: 1, minimumClean: 9_600, into: scratch.url)
            #expect(abs(try b.frequency(atLeast: 9_600) - 660) < 0.2)

            // Same id, a session with no file yet: the same client, starting from the template.
            let pathC = scratch.url.appendingPathComponent("c/toneshaper.nBBBB").path
            try FileManager.default.createDirectory(atPath: scratch.url.appendingPathComponent("c").path, withIntermediateDirectories: true)
            #expect(try await manager.open(pathC, clientID: "toneshaper.nBBBB")?.path == "/reply")
            try await OSCDatagram.waitForPeriods(OSCDatagram.periods(0.2, of: server), port: port)  // the new sound's cross-fade
            let c = try await server.recordSteady("toneshaper.nBBBB:out", seconds: 1, minimumClean: 9_600, into: scratch.url)
            #expect(abs(try c.frequency(atLeast: 9_600) - 440) < 0.2)
            #expect(node.process.isRunning && node.process.processIdentifier == pid)
            #expect(node.oscPort == port, "the control port stays")

            // Saves go to the session open now.
            #expect(try await manager.save()?.path == "/reply")
            #expect(FileManager.default.fileExists(atPath: pathC + ".toneshaper"))
            #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("toneshaper.nAAAA.toneshaper").path))
            #expect(await node.stop() == 0)
        }

        @Test func malformedOrHostileMessagesChangeNothing() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            let manager = try TestSessionManager()
            let node = try await Self.start(manager, on: server)
            try manager.welcome()

            // A stranger on the machine cannot open a session (nor make the node write files).
            let strangerPath = scratch.url.appendingPathComponent("stolen").path
            try manager.send(
                raw: OSCDatagram.message("/nsm/client/open", [.string(strangerPath), .string("x"), .string("evil")]), fromStranger: true)
            // Judged once the node has answered a later request of the manager's (a save
            // with no session open is refused): the stranger's open came before it.
            #expect(try await manager.save()?.path == "/error", "no session is open yet")
            #expect(!Self.clients(of: server).contains("evil"))

            let path = scratch.url.appendingPathComponent("toneshaper.nGOOD").path
            #expect(try await manager.open(path, clientID: "toneshaper.nGOOD")?.path == "/reply")
            try await node.waitUntilReady()
            #expect(try await manager.save()?.path == "/reply")
            let file = path + ".toneshaper"
            let saved = try Data(contentsOf: URL(fileURLWithPath: file))

            try manager.send(raw: OSCDatagram.message("/nsm/client/save", []), fromStranger: true)
            try manager.send(raw: Array("not OSC at all".utf8))
            try manager.send(raw: [0x2F, 0x6E, 0x73, 0x6D])  // "/nsm", truncated
            let refusals: [([OSCDatagram.Argument], Int32)] = [
                ([.string(path)], -1),  // too few arguments
                ([.string(path), .string("x"), .int(7)], -1),  // wrong type
                ([.string("relative/toneshaper.nX"), .string("x"), .string("toneshaper.nX")], -1),
                ([.string(scratch.url.path + "/../../tmp/x"), .string("x"), .string("toneshaper.nX")], -1),
                ([.string(path), .string("x"), .string("system:capture_1")], -1),  // not a JACK client name
                ([.string(scratch.url.path + "/missing/toneshaper.nX"), .string("x"), .string("toneshaper.nX")], -10),  // ERR_CREATE_FAILED
            ]
            for (arguments, code) in refusals {
                try manager.send("/nsm/client/open", arguments)
                let answer = try #require(await manager.answer(to: "/nsm/client/open"))
                #expect(answer.path == "/error", "\(answer)")
                if case .int(let c)? = answer.arguments.dropFirst().first { #expect(c == code) }
            }
            // A corrupt session file is refused with ERR_BAD_PROJECT; the open session stays.
            let corrupt = scratch.url.appendingPathComponent("toneshaper.nBAD").path
            try Data("{\"points\": [[0, 440]], \"duration\": ".utf8).write(to: URL(fileURLWithPath: corrupt + ".toneshaper"))
            let bad = try #require(try await manager.open(corrupt, clientID: "toneshaper.nBAD"))
            #expect(bad.path == "/error")
            if case .int(let c)? = bad.arguments.dropFirst().first { #expect(c == -9) }
            try manager.send("/nsm/client/save", [.int(1)])
            #expect(await manager.answer(to: "/nsm/client/save")?.path == "/error")

            let clients = Self.clients(of: server)
            #expect(clients.contains("toneshaper.nGOOD") && !clients.contains("toneshaper.nBAD") && !clients.contains("evil"), "\(clients)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == saved)
            #expect(!FileManager.default.fileExists(atPath: strangerPath + ".toneshaper"))
            #expect(!manager.received.contains { $0.path == "/nsm/client/is_dirty" })
            // And the node still answers its manager.
            #expect(try await manager.save()?.path == "/reply")
            #expect(await node.stop() == 0)
        }

        @Test func startedByNameAloneItAnnouncesAndARefusalEndsItWithoutJoiningJACK() async throws {
            let server = try PrivateJackServer()
            let manager = try TestSessionManager()
            // As nsmd runs X-NSM-Exec: the executable, no arguments at all.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ExternalTools.toneshaperBinary)
            process.arguments = []
            process.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }.merging(manager.environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            let announce = try #require(await manager.expect("/nsm/server/announce"))
            #expect(announce.strings.prefix(2) == ["toneshaper", ":switch:dirty:optional-gui:"])
            try manager.send("/error", [.string("/nsm/server/announce"), .int(-2), .string("incompatible API")])
            #expect(await eventually(timeout: 5) { !process.isRunning })
            process.waitUntilExit()
            #expect(process.terminationStatus == 1)
            #expect(!Self.clients(of: server).contains { $0.hasPrefix("toneshaper") })
        }
        @Test func withoutAJACKServerTheOpenFailsAndALaterOpenSucceeds() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            let manager = try TestSessionManager()
            let node = try await Self.start(manager, on: server)
            try manager.welcome()
            server.stop()
            let path = scratch.url.appendingPathComponent("toneshaper.nJACK").path
            let failed = try #require(try await manager.open(path, clientID: "toneshaper.nJACK"))
            #expect(failed.path == "/error" && failed.strings.last?.contains("JACK") == true, "\(failed)")
            #expect(try await manager.save()?.path == "/error", "no session is open")
            // Everything the node sent up to its answer to the save has been read by now.
            #expect(!manager.received.contains { $0.path == "/nsm/client/is_clean" }, "a failed open is not a clean session")
            #expect(node.process.isRunning)

            try server.start()
            #expect(try await manager.open(path, clientID: "toneshaper.nJACK")?.path == "/reply")
            try await node.waitUntilReady()
            #expect(Self.clients(of: server).contains("toneshaper.nJACK"))
            #expect(await node.stop() == 0)
        }
        @Test func twoInstancesInOneSessionNeverCollide() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            var nodes: [NodeProcess] = []
            var managers: [TestSessionManager] = []
            for id in ["toneshaper.nONE", "toneshaper.nTWO"] {
                let manager = try TestSessionManager()
                let node = try await Self.start(manager, on: server)
                try manager.welcome()
                #expect(try await manager.open(scratch.url.appendingPathComponent(id).path, clientID: id)?.path == "/reply")
                try await node.waitUntilReady()
                nodes.append(node)
                managers.append(manager)
            }
            #expect(nodes.map(\.ports) == [["toneshaper.nONE:out"], ["toneshaper.nTWO:out"]])
            let ports = nodes.compactMap(\.oscPort)
            #expect(ports.count == 2 && ports[0] != ports[1] && !ports.contains(9000), "\(ports)")
            // Each answers its own manager only: a change on one dirties one session.
            try OSCDatagram.send(OSCDatagram.message("/toneshaper/amplitude", [.float(0.1)]), toPort: ports[1])
            #expect(await managers[1].expect("/nsm/client/is_dirty") != nil)
            // The other kept its level, and its manager heard nothing up to its answer to a save.
            let other = try #require(try OSCDatagram.state(port: ports[0]))
            #expect(other["amplitude"] != nil && other["amplitude"] != String(Double(Float(0.1))), "\(other)")
            #expect(try await managers[0].save()?.path == "/reply")
            #expect(!managers[0].received.contains { $0.path == "/nsm/client/is_dirty" })
            for node in nodes { #expect(await node.stop() == 0) }
        }
    }
}
