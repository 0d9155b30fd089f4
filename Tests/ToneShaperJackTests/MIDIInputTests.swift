import Foundation
import Testing
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

extension WithJackServer {
    /// The node played from MIDI, as a DAW or keyboard plays it: a test client of our own
    /// sends into `toneshaper:midi_in` while jack_capture records `toneshaper:out`.
    @Suite struct MIDIInput {
        static let rate = 48_000.0

        /// A node playing a constant tone, ready (``NodeFixture``), with a MIDI client
        /// connected to it.
        final class Rig: @unchecked Sendable {
            let fixture: NodeFixture
            private var midiClient: TestMIDIClient?
            var server: PrivateJackServer { fixture.server }
            var node: NodeProcess { fixture.node }
            var midi: TestMIDIClient { midiClient! }

            init(frequency: Double = 440, amplitude: Double = 0.5, arguments: [String] = []) async throws {
                fixture = try await NodeFixture(
                    tone: frequency, amplitude: amplitude, arguments: NodeFixture.quietArguments + arguments,
                    environment: { scratch in
                        ["XDG_DATA_HOME": scratch.url.path, "TONESHAPER_LIBRARY": scratch.url.appendingPathComponent("library").path]
                    })
                midiClient = try TestMIDIClient(server: fixture.server, connectTo: "toneshaper:midi_in")
            }

            /// Clients first, then the server: a server stopped under live clients may not
            /// exit in time, and one killed leaves its entry in JACK's registry of servers
            /// (eight at most on a machine).
            func finish() async {
                midiClient = nil
                await fixture.finish()
            }

            deinit { midiClient = nil }

            /// Records `seconds`; `events` are sent at their delays (seconds from the moment the
            /// recorder is connected, so from about the recording's start).
            func record(seconds: Double, _ events: [(Double, [[UInt8]])] = []) async throws -> [Float] {
                let recording = try await server.startRecording(node.ports[0], seconds: seconds, into: fixture.scratch.url)
                for (delay, messages) in events { midi.send(messages, after: delay) }
                let (samples, rate) = try await recording.value
                #expect(rate == MIDIInput.rate)
                return samples
            }

            /// `/state` as a dictionary (numbers as Double, names as String).
            func state() throws -> [String: String] {
                try #require(try OSCDatagram.state(port: try fixture.oscPort))
            }
        }

        static func seconds(_ s: Double) -> Int { Int(s * rate) }

        /// Runs `body` with a new rig, and always takes it down in order afterwards. A take
        /// the busy host spoilt (``HostTooBusy``) is played again from the start, with a new
        /// rig: these scenarios depend on what the node heard before.
        static func withRig(_ arguments: [String] = [], _ what: String = #function, _ body: (Rig) async throws -> Void) async throws {
            try await retryingOnBusyHost(what) { _ in
                let rig = try await Rig(arguments: arguments)
                do {
                    try await body(rig)
                } catch {
                    await rig.finish()
                    throw error
                }
                await rig.finish()
            }
        }

        /// The steady pitch in `range`, over its longest stretch free of the busy server's
        /// dropouts (``RecordingAnalysis``).
        static func pitch(_ samples: [Float], in range: Range<Int>) throws -> Double {
            try RecordingAnalysis(samples, sampleRate: rate, range: range).frequency(atLeast: min(range.count / 2, seconds(0.2)))
        }

        /// The stretches that sound: runs of samples between silences (exact zeros) of at
        /// least `silence` samples.
        static func soundingSegments(_ samples: [Float], silence: Int) -> [Range<Int>] {
            var segments: [Range<Int>] = []
            var start: Int?
            var zeros = 0
            for (n, x) in samples.enumerated() {
                if x == 0 {
                    zeros += 1
                    if zeros == silence, let s = start {
                        segments.append(s..<(n - silence + 1))
                        start = nil
                    }
                } else {
                    if start == nil { start = n }
                    zeros = 0
                }
            }
            if let s = start { segments.append(s..<(samples.count - zeros)) }
            return segments
        }

        /// A note held for `near` samples of wall clock must sound for about as long in the
        /// recording; much shorter means the server lost that much time (xruns), and the
        /// take says nothing about the node: ``HostTooBusy``.
        static func expectTimeline(_ lengths: [Int], near expected: Int) throws {
            if let short = lengths.first(where: { $0 > expected / 10 && $0 < expected * 6 / 10 }) {
                throw HostTooBusy("a note held 1 s sounds \(Double(short) / rate) s: the server lost time")
            }
        }

        /// The first and last samples that are not silent.
        static func soundingSpan(_ samples: [Float]) -> ClosedRange<Int>? {
            guard let first = samples.firstIndex(where: { $0 != 0 }), let last = samples.lastIndex(where: { $0 != 0 }) else { return nil }
            return first...last
        }

        @Test func droneNoteTransposesTheShape() async throws {
            try await Self.withRig { rig in
                let samples = try await rig.record(seconds: 3.5, [(1.5, [[0x90, 76, 100]])])
                // E5 over the root A4: 440 * 2^(7/12).
                let expected = 440 * pow(2, 7.0 / 12)
                let measured = try Self.pitch(samples, in: Self.seconds(2.4)..<Self.seconds(3.4))
                #expect(abs(measured - expected) < 0.1, "\(measured) Hz, expected \(expected) Hz")
                let before = try Self.pitch(samples, in: Self.seconds(0.2)..<Self.seconds(1.0))
                #expect(abs(before - 440) < 0.1, "the drawn pitch before the note: \(before) Hz")
            }
        }

        @Test func instrumentIsSilentAroundANoteAndVelocitySetsTheLevel() async throws {
            try await Self.withRig(["--instrument"]) { rig in
                let samples = try await rig.record(
                    seconds: 4.5,
                    [
                        (1.0, [[0x90, 81, 127]]), (2.0, [[0x80, 81, 0]]),
                        (2.5, [[0x90, 81, 64]]), (3.5, [[0x80, 81, 0]]),
                    ])
                // The notes are found in the recording, not at wall-clock times: a loaded dummy
                // server loses periods, and the recording's timeline then runs short of the
                // clock the events were sent by.
                let notes = Self.soundingSegments(samples, silence: Self.seconds(0.05))
                try Self.expectTimeline(notes.map(\.count), near: Self.seconds(1.0))
                #expect(notes.count == 2, "two notes, silent between them: sounding at \(notes)")
                guard notes.count == 2 else { return }
                #expect(notes[0].lowerBound > Self.seconds(0.4), "silence before the first note")
                #expect(notes[1].upperBound < samples.count - Self.seconds(0.4), "silence after the release")
                func middle(_ note: Range<Int>) -> Range<Int> { (note.lowerBound + note.count / 5)..<(note.upperBound - note.count / 5) }
                let (loud, soft) = (middle(notes[0]), middle(notes[1]))
                let pitch = try Self.pitch(samples, in: loud)
                #expect(abs(pitch - 880) < 0.1, "A5 plays \(pitch) Hz")
                let ratio = SignalAnalysis.rms(samples, range: soft) / SignalAnalysis.rms(samples, range: loud)
                #expect(abs(ratio - pow(64.0 / 127, 2)) < 0.02, "velocity 64 against 127: \(ratio)")
                #expect(SignalAnalysis.peak(samples) <= 0.5 + 1e-6)
            }
        }

        @Test func twoHeldNotesGiveTwoPeaks() async throws {
            try await Self.withRig(["--instrument"]) { rig in
                let samples = try await rig.record(seconds: 2, [(0.2, [[0x90, 69, 100], [0x90, 76, 100]])])
                // The median of 8192-sample pieces' spectra over the last 1.5 s: a piece a
                // server dropout smears does not move it (a chord does not repeat in a short
                // lag, so RecordingAnalysis cannot find the dropouts).
                let size = 8_192
                let spectrum = try SignalAnalysis.medianSpectrum(samples, range: (samples.count - Self.seconds(1.5))..<samples.count, size: size)
                let bin = Self.rate / Double(size)
                func level(_ hz: Double) -> Double { spectrum[Int((hz / bin).rounded())] }
                #expect(level(440) > 20 * level(550))
                #expect(level(440 * pow(2, 7.0 / 12)) > 20 * level(550))
            }
        }

        @Test func mappedControllerMovesTheParameterAndStateShowsIt() async throws {
            try await Self.withRig(["--midi-cc", "7=amplitude"]) { rig in
                rig.midi.send([[0xB0, 7, 127]], after: 0)
                let moved = await eventually(timeout: 3) { (try? rig.state()["amplitude"]) == "1.0" }
                #expect(moved, "/state: \(String(describing: try? rig.state()["amplitude"]))")
                // And MIDI learn over OSC: the next controller that moves.
                let port = try #require(rig.node.oscPort)
                // The /ok comes once learning is queued for the audio thread, which takes
                // it before the MIDI of any later period: no sleep needed.
                let ok = try #require(try OSCDatagram.request(OSCDatagram.message("/toneshaper/midi/learn", [.string("echo/volume")]), toPort: port))
                #expect(ok.count == 1, "/midi/learn refused: \(ok)")
                rig.midi.send([[0xB3, 21, 0]], after: 0)
                let learnt = await eventually(timeout: 3) { (try? rig.state()["echo/volume"]) == "0.0" }
                #expect(learnt, "/state: \(String(describing: try? rig.state()["echo/volume"]))")
            }
        }

        @Test func programChangeLoadsAShape() async throws {
            try await Self.withRig { rig in
                // The 8th built-in (from 0) in `toneshaper presets` order is siren.
                rig.midi.send([[0xC0, 7]], after: 0)
                let loaded = await eventually(timeout: 3) { (try? rig.state()["wave"]) != "Sine" || (try? rig.state()["duration"]) != "1.0" }
                #expect(loaded)
                let sessions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("Sessions/siren.toneshaper")
                let siren = try JSONSerialization.jsonObject(with: Data(contentsOf: sessions)) as? [String: Any]
                let duration = try #require(siren?["duration"] as? Double)
                #expect(try rig.state()["duration"].flatMap(Double.init).map { abs($0 - duration) < 1e-3 } == true)
            }
        }

        /// Random bytes, running status, sysex, truncated events, every channel, as many
        /// events a period as JACK's buffer takes (up to 10,000): the node goes on, the output
        /// stays finite and within the amplitude, and afterwards plays the drawn pitch again.
        @Test func hostileFloodLeavesTheOutputClean() async throws {
            try await Self.withRig { rig in
                var random = SplitMix64(seed: 42)
                var flood: [[UInt8]] = []
                for _ in 0..<10_000 {
                    switch random.next() % 5 {
                    case 0: flood.append([UInt8(random.next() % 0x80), UInt8(random.next() % 0x80)])  // running status
                    case 1: flood.append([0xF0] + (0..<20).map { _ in UInt8(random.next() % 0x80) } + [0xF7])
                    case 2: flood.append([0x90 | UInt8(random.next() % 16)])  // truncated
                    default:
                        // Any channel message on any channel, but program change: that loads
                        // another shape, which is no fault.
                        var status = UInt8(0x80 + random.next() % 0x70)
                        if status & 0xF0 == 0xC0 { status ^= 0x20 }
                        flood.append([status, UInt8(random.next() % 0x80), UInt8(random.next() % 0x80)])
                    }
                }
                // Afterwards: every note off and the bend centred on all 16 channels.
                var reset: [[UInt8]] = []
                for channel in UInt8(0)..<16 {
                    reset.append([0xB0 | channel, 123, 0])
                    reset.append([0xE0 | channel, 0, 64])
                    reset.append([0xB0 | channel, 64, 0])
                }
                let samples = try await rig.record(seconds: 3, [(0.5, flood), (0.6, flood), (1.5, reset)])
                #expect(SignalAnalysis.allFinite(samples))
                #expect(SignalAnalysis.peak(samples) <= 0.5 + 1e-6)
                #expect(rig.midi.written.load(ordering: .relaxed) > 1000, "the flood reached the node")
                let after = try Self.pitch(samples, in: Self.seconds(2.2)..<Self.seconds(2.9))
                #expect(abs(after - 440) < 0.1, "back to the drawn pitch: \(after) Hz")
                #expect(rig.node.process.isRunning)
                // (The node logs "MIDI flood: N events dropped" when a period brought more than it
                // reads; not asserted: a loaded dummy server may skip the node in that period.)
            }
        }

        /// `--midi-connect` and connections made by hand come back when the server does.
        @Test func midiConnectionsComeBackAfterAServerLoss() async throws {
            let server = try PrivateJackServer()
            let scratch = try ScratchDirectory()
            let document = try scratch.constantTone(frequency: 440, amplitude: 0.3)
            var keys: TestMIDIClient? = try TestMIDIClient(server: server, name: "keys", connectTo: nil)
            let node = try NodeProcess([document, "--osc-port", "0", "--no-auto-connect", "--midi-connect", "keys:out"], server: server)
            try await node.waitUntilReady()
            var pad: TestMIDIClient? = try TestMIDIClient(server: server, name: "pad", connectTo: "toneshaper:midi_in")
            #expect(
                server.connections()?["keys:out"] == ["toneshaper:midi_in"],
                "--midi-connect: \(String(describing: server.connections())) \(node.stderr.text)")
            try await Task.sleep(for: .milliseconds(300))  // the control loop notes the connections

            // The server goes with the clients still connected (closing a client first would
            // disconnect it, and the node rightly forgets a connection its peer dropped).
            server.stop()
            keys = nil
            pad = nil
            #expect(await eventually(timeout: 5) { node.stderr.text.contains("JACK server went away") })
            try server.start()
            keys = try TestMIDIClient(server: server, name: "keys", connectTo: nil)
            pad = try TestMIDIClient(server: server, name: "pad", connectTo: nil)
            let restored = await eventually(timeout: 8) {
                let graph = server.connections()
                return graph?["keys:out"] == ["toneshaper:midi_in"] && graph?["pad:out"] == ["toneshaper:midi_in"]
            }
            #expect(restored, "\(String(describing: server.connections())) \(node.stderr.text)")
            withExtendedLifetime((keys, pad)) {}  // the clients stay until the check is done
            keys = nil
            pad = nil
            await node.stop()
            server.stop()
        }

        /// `jack_transport` drives `--transport`: silent while stopped, sounding while rolling.
        @Test func transportStartAndStopDriveTheNode() async throws {
            try await Self.withRig(["--transport"]) { rig in
                let transport = try TransportTool(server: rig.server)
                let recording = try await rig.server.startRecording(rig.node.ports[0], seconds: 3.5, into: rig.fixture.scratch.url)
                try await Task.sleep(for: .milliseconds(1000))
                transport.send("play")
                try await Task.sleep(for: .milliseconds(1200))
                transport.send("stop")
                let samples = try await recording.value.samples
                transport.send("quit")
                let span = try #require(Self.soundingSpan(samples), "never sounded")
                #expect(span.lowerBound > Self.seconds(0.5), "silent before the transport rolls")
                #expect(span.upperBound < samples.count - Self.seconds(0.5), "silent once it stops")
                // Rolling for 1.2 s of wall clock; a loaded dummy server's recording may hold less.
                #expect(span.count > Self.seconds(0.5), "sounded while rolling")
            }
        }

        /// With jack_transport as timebase master, the cycle lasts `beats` beats at its tempo,
        /// and follows a tempo change.
        @Test func transportTempoSetsTheCycleInBeats() async throws {
            try await Self.withRig(["--transport", "--beats", "4"]) { rig in
                let transport = try TransportTool(server: rig.server)
                transport.send("master")
                transport.send("tempo 90")
                transport.send("play")
                func durationIs(_ seconds: Double) -> Bool {
                    guard let text = try? rig.state()["duration"], let duration = Double(text) else { return false }
                    return abs(duration - seconds) < 1e-3
                }
                let at90 = await eventually(timeout: 3) { durationIs(4 * 60 / 90.0) }
                #expect(at90, "duration \(String(describing: try? rig.state()["duration"])) at 90 bpm")
                transport.send("tempo 120")
                let at120 = await eventually(timeout: 3) { durationIs(2) }
                #expect(at120, "duration \(String(describing: try? rig.state()["duration"])) at 120 bpm")
                transport.send("stop")
                transport.send("quit")
            }
        }

        /// Freewheel on and off (`jack_freewheel`): the node renders on and keeps counting
        /// periods. (Which xruns are counted is `FreewheelAccountingTests`' business: on a
        /// loaded machine the dummy server's own xruns make a count here meaningless.)
        @Test func keepsRunningThroughFreewheel() async throws {
            try await Self.withRig { rig in
                let port = try #require(rig.node.oscPort)
                let before = try #require(try OSCDatagram.stats(port: port))
                _ = try ExternalTools.run("jack_freewheel", ["y"], environment: rig.server.environment, timeout: 5)
                try await Task.sleep(for: .milliseconds(500))
                _ = try ExternalTools.run("jack_freewheel", ["n"], environment: rig.server.environment, timeout: 5)
                try await Task.sleep(for: .milliseconds(300))
                let after = try #require(try OSCDatagram.stats(port: port))
                #expect((after["periods"] ?? 0) > (before["periods"] ?? 0))
                #expect(rig.node.process.isRunning)
                let samples = try await rig.record(seconds: 1)
                let pitch = try Self.pitch(samples, in: Self.seconds(0.2)..<Self.seconds(0.9))
                #expect(abs(pitch - 440) < 0.1)
            }
        }
    }
}

/// `jack_transport`, fed commands on its standard input as a user types them.
final class TransportTool: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()

    init(server: PrivateJackServer) throws {
        process.executableURL = URL(fileURLWithPath: ExternalTools.path(of: "jack_transport") ?? "/usr/bin/jack_transport")
        process.environment = ProcessInfo.processInfo.environment.merging(server.environment) { $1 }
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func send(_ command: String) {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
