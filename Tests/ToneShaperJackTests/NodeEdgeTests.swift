import Foundation
import JackTimeline
import Testing
import ToneShaperControl
import ToneShaperTestSupport

@testable import ToneShaperJack

#if canImport(Glibc)
    import Glibc
#endif

extension WithJackServer {
    /// The live node's rough edges, against the real executable (or, for
    /// `/stats`, the node in this process) and a private dummy server.
    @Suite struct NodeEdges {
        @Test("prints the UDP and TCP URLs; TCP and IPv6 (send --host ::1) reach the node; a stalled TCP client holds up no one")
        func oscTransports() async throws {
            let server = try PrivateJackServer()
            let node = try NodeProcess(["--no-auto-connect", "--osc-port", "0"], server: server)
            try await node.waitUntilReady()
            let port = try #require(node.oscPort)
            #expect(node.stdout.text.contains("OSC: osc.udp://127.0.0.1:\(port)/\nOSC: osc.tcp://127.0.0.1:\(port)/\n"))

            // A TCP client that sends half a message and stops.
            let stalled = try LoopbackTCP(port: port)
            try stalled.write([0, 0, 0, 64] + Array("/toneshaper/amp".utf8))
            let reply = try OSCDatagram.request(OSCDatagram.message("/toneshaper/amplitude", [.float(0.125)]), toPort: port)
            #expect(reply.map { "\($0)" } == "[ToneShaperJackTests.OSCDatagram.Argument.string(\"/toneshaper/amplitude\")]")

            for (host, transport) in [("::1", []), ("127.0.0.1", ["--tcp"])] {
                let sent = try ExternalTools.run(
                    ExternalTools.toneshaperBinary, ["send", "/state", "--host", host, "--port", String(port)] + transport)
                #expect(sent.status == 0)
                #expect(sent.output.hasPrefix("/toneshaper/state "), "\(host) \(transport): \(sent.output)")
                #expect(sent.output.contains("amplitude 0.125"))
            }
            _ = stalled
            #expect(await node.stop() == 0)
        }

        @Test("SIGTERM while the server is gone exits within 100 ms (measured), saving the copy named as saved")
        func sigtermWhileServerIsGone() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            let library = scratch.url.appendingPathComponent("library").path
            let node = try NodeProcess(
                ["siren", "--no-osc", "--save", "my-siren"], server: server,
                environment: ["TONESHAPER_LIBRARY": library])
            try await node.waitUntilReady(osc: false)
            server.kill9()
            #expect(await eventually(timeout: 5) { node.stderr.text.contains("JACK server went away") })
            // Into the reconnection attempts (every 0.25 s), at no particular phase.
            try await Task.sleep(for: .milliseconds(600 + Int.random(in: 0..<250)))
            let start = monotonicSeconds()
            kill(node.process.processIdentifier, SIGTERM)
            let exited = await eventually(timeout: 5) { !node.process.isRunning }
            let took = monotonicSeconds() - start
            print(String(format: "SIGTERM with the JACK server gone: exited after %.1f ms", took * 1000))
            #expect(exited)
            // The figure is printed above (about 10 ms on a quiet machine); the bound only
            // tells an exit from the old 4 s wait, on a machine busy with other tests.
            #expect(took < 2, "took \(took) s")
            node.process.waitUntilExit()
            #expect(node.process.terminationStatus == 0)

            let saved = try String(contentsOfFile: library + "/my-siren.toneshaper", encoding: .utf8)
            #expect(saved.contains("\"name\" : \"my-siren\"") || saved.contains("\"name\":\"my-siren\""), "\(saved)")
            #expect(saved.contains("Derived from \\\"siren\\\""), "\(saved)")
        }

        @Test("a connection made with jack_connect just before the server dies is restored")
        func connectionJustBeforeDeath() async throws {
            let server = try PrivateJackServer()
            let node = try NodeProcess(["--no-osc", "--no-auto-connect", "--log-level", "debug"], server: server)
            try await node.waitUntilReady(osc: false)
            let connected = try ExternalTools.run("jack_connect", ["toneshaper:out", "system:playback_2"], environment: server.environment)
            #expect(connected.status == 0)
            // "Just before": once the node says it remembers the connection (a loaded host
            // delays JACK's notification to its client thread; nothing can restore a
            // connection never heard of), not a moment later.
            #expect(
                await eventually(timeout: 120) { node.stderr.text.contains("remembering connections: toneshaper:out -> system:playback_2") },
                "the node never noted the connection: \(node.stderr.text)")
            server.kill9()
            #expect(await eventually(timeout: 5) { node.stderr.text.contains("JACK server went away") })
            try server.start()
            #expect(
                await eventually(timeout: 8) { server.connections()?["toneshaper:out"] == ["system:playback_2"] },
                "stderr: \(node.stderr.text)")
            #expect(await node.stop() == 0)
        }

        @Test("the connection log applies JACK's announcements in order")
        func connectionLogOrder() {
            let a = Connection(port: 0, peer: "system:playback_1")
            let b = Connection(port: 0, peer: "system:playback_2")
            let events: [ConnectionLog.Event] = [
                .init(connection: b, connected: true), .init(connection: a, connected: false),
                .init(connection: b, connected: true),
            ]
            #expect(ConnectionLog.apply(events, to: [a]) == [b])
            #expect(ConnectionLog.apply([.init(connection: a, connected: true), .init(connection: a, connected: false)], to: []) == [])
        }

        @Test("a second node with the same name says which name it got; log lines name their component once")
        func takenName() async throws {
            let server = try PrivateJackServer()
            let first = try NodeProcess(["--no-osc", "--no-auto-connect"], server: server)
            try await first.waitUntilReady(osc: false)
            let second = try NodeProcess(["--no-osc", "--no-auto-connect"], server: server)
            try await second.waitUntilReady(osc: false)
            #expect(second.ports == ["toneshaper-01:out"])
            // The log line comes on standard error, read on a thread of its own: it may land
            // after the ready line on standard output.
            let said = await eventually(timeout: 10) {
                second.stderr.text.contains("the JACK client name \"toneshaper\" is taken; this node is \"toneshaper-01\"")
            }
            #expect(said, "stderr: \(second.stderr.text)")
            #expect(await second.stop() == 0)
            #expect(await first.stop() == 0)
            let lines = second.stderr.text.split(separator: "\n")
            #expect(!lines.isEmpty)
            for line in lines {
                #expect(
                    line.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (trace|debug|info|notice|warning|error|critical) [a-z]+: .+/) != nil,
                    "\(line)")
                #expect(!line.contains("[ToneShaper") && !line.contains("osc: OSC"), "\(line)")
            }
        }

        @Test("--wait waits for a JACK server to appear instead of exiting; SIGTERM ends the wait")
        func waitsForAServer() async throws {
            let server = try PrivateJackServer()
            server.stop()
            let node = try NodeProcess(["--no-osc", "--no-auto-connect", "--wait", "-n", "patient"], server: server)
            #expect(await eventually(timeout: 5) { node.stderr.text.contains("waiting for one") })
            #expect(node.process.isRunning)
            try server.start()
            try await node.waitUntilReady(osc: false)
            #expect(node.ports == ["patient:out"])
            #expect(await node.stop() == 0)

            server.stop()
            let waiting = try NodeProcess(["--no-osc", "--wait"], server: server)
            #expect(await eventually(timeout: 5) { waiting.stderr.text.contains("waiting for one") })
            #expect(await waiting.stop(timeout: 2) == 0)
        }

        @Test("/stats timings start afresh with each JACK connection")
        func statsResetPerConnection() async throws {
            let server = try PrivateJackServer()
            let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
            let node = JackNode(
                controller: controller,
                configuration: JackNodeConfiguration(
                    clientName: "ts-stats", serverName: server.name, autoConnect: false))
            try node.start()
            defer { node.stop() }
            #expect(await eventually(timeout: 2) { node.stats().periods > 10 })
            // As if the old server had had one terrible callback.
            node.signals.maxCallbackNanoseconds.store(2_000_000_000, ordering: .relaxed)
            #expect(node.stats().max == 2_000_000)
            server.kill9()
            #expect(await eventually(timeout: 5) { !node.isConnected })
            try server.start()
            #expect(await eventually(timeout: 6) { node.isConnected })
            #expect(await eventually(timeout: 2) { node.stats().max > 0 })
            #expect(node.stats().max < 1_000_000, "max \(node.stats().max) µs")
        }
    }
}
