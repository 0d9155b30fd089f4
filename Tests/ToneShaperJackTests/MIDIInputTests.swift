import Foundation
import JackTimeline
import Testing
import ToneShaperTestSupport

#if canImport(Glibc)
    import Glibc
#endif

extension WithJackServer {
    /// The node played from MIDI, as a DAW or keyboard plays it, on JACK's timeline: the
    /// tests' own sender writes into `toneshaper:midi_in` at chosen frames, and their own
    /// recorder records `toneshaper:out` with the frame of every block, so each window is
    /// read at a known distance from the frame its event went out at (``Rig/take(_:tail:)``).
    @Suite struct MIDIInput {
        static let rate = 48_000.0

        /// A node playing a constant tone, ready (``NodeFixture``), with a MIDI sender before
        /// it and a recorder after it.
        final class Rig: @unchecked Sendable {
            let fixture: NodeFixture
            private var midiClient: MIDISender?
            private var recorderClient: TimelineRecorder?
            var server: PrivateJackServer { fixture.server }
            var node: NodeProcess { fixture.node }
            var midi: MIDISender { midiClient! }
            var recorder: TimelineRecorder { recorderClient! }

            init(frequency: Double = 440, amplitude: Double = 0.5, arguments: [String] = [], environment: [String: String] = [:]) async throws {
                fixture = try await NodeFixture(
                    tone: frequency, amplitude: amplitude, arguments: NodeFixture.quietArguments + arguments,
                    environment: { scratch in
                        ["XDG_DATA_HOME": scratch.url.path, "TONESHAPER_LIBRARY": scratch.url.appendingPathComponent("library").path]
                            .merging(environment) { $1 }
                    })
                midiClient = try MIDISender(serverName: fixture.server.name, connectTo: "toneshaper:midi_in")
                recorderClient = try fixture.timelineRecorder()
            }

            /// Clients first, then the server: a server stopped under live clients may not
            /// exit in time, and one killed leaves its entry in JACK's registry of servers
            /// (eight at most on a machine).
            func finish() async {
                midiClient = nil
                recorderClient = nil
                await fixture.finish()
            }

            deinit {
                midiClient = nil
                recorderClient = nil
            }

            /// A take on JACK's timeline: the recording starts; each batch of `events` goes
            /// out `seconds` after the recording's first frame (or later, if the test's
            /// thread was late: the frame it really went out at is what the take reports);
            /// the recording ends `tail` seconds after the last batch went out (after its
            /// start without events).
            func take(_ events: [(seconds: Double, messages: [[UInt8]])], tail: Double) async throws -> Take {
                do {
                    let first = try await recorder.start()
                    let tickets = events.map { midi.send($0.messages, atFrame: first &+ UInt32($0.seconds * MIDIInput.rate)) }
                    let sent = try await midi.delivered(tickets)
                    let last = sent.max { TimelineRecorder.distance(from: $0, to: $1) > 0 } ?? first
                    let recording = try await recorder.finish(atFrame: last &+ UInt32(tail * MIDIInput.rate))
                    #expect(recording.sampleRate == MIDIInput.rate)
                    return Take(recording: recording, sent: sent)
                } catch let error as TimelineError {
                    throw TimelineError("\(error.description)\njackd said:\n\(server.logTail())")
                }
            }

            /// `/state` as a dictionary (numbers as Double, names as String).
            func state() throws -> [String: String] {
                try #require(try OSCDatagram.state(port: try fixture.oscPort))
            }
        }

        /// A recording and the frames its events went out at.
        struct Take {
            let recording: TimelineRecording
            let sent: [UInt32]
            var samples: [Float] { recording.samples }
            var first: UInt32 { recording.firstFrame }

            /// The samples from `from` seconds after `frame` for `length` seconds, which
            /// the recording must hold whole.
            func window(after frame: UInt32, from: Double, length: Double) throws -> Range<Int> {
                let range = recording.indices(after: frame, from: from, length: length)
                guard range.count >= recording.frames(length) - 2 * 1_024 else {
                    let start = recording.frame(frame, plus: from)
                    let end = recording.frame(start, plus: length)
                    if TimelineRecorder.distance(from: recording.firstFrame, to: start) >= 0
                        && TimelineRecorder.distance(from: end, to: recording.endFrame) >= 0
                    {
                        // Inside the recording's span, short of samples: periods the recorder missed.
                        throw HostTooBusy("\(length) s from \(from) s after frame \(frame) lost periods (\(range.count) samples recorded)")
                    }
                    throw AnalysisWindowError("\(length) s from \(from) s after frame \(frame) is not in the recording (\(range))")
                }
                return range
            }

            /// The samples between two frames (with `margin` seconds left out at each end).
            func window(from start: UInt32, to end: UInt32, margin: Double = 0) -> Range<Int> {
                recording.indices(from: recording.frame(start, plus: margin), to: recording.frame(end, plus: -margin))
            }

            /// The sample at `frame` (a period the server skipped: ``HostTooBusy``).
            func index(_ frame: UInt32) throws -> Int {
                try recording.requireIndex(ofFrame: frame, "an event's frame")
            }

            /// The steady pitch in `range`: the median of 0.1 s pieces of its trusted,
            /// clean stretches (``RecordingAnalysis/medianFrequency(_:sampleRate:stretches:piece:minimumPieces:)``).
            func pitch(in range: Range<Int>) throws -> Double {
                try RecordingAnalysis.medianFrequency(
                    samples, sampleRate: rate, stretches: recording.trustedStretches(within: range), piece: MIDIInput.seconds(0.1))
            }
        }

        static func seconds(_ s: Double) -> Int { Int(s * rate) }

        /// Runs `body` with a new rig, and always takes it down in order afterwards. A take
        /// the busy host spoilt (``HostTooBusy``) is played again from the start, with a new
        /// rig: these scenarios depend on what the node heard before.
        static func withRig(
            _ arguments: [String] = [], environment: [String: String] = [:], _ what: String = #function, _ body: (Rig) async throws -> Void
        ) async throws {
            try await retryingOnBusyHost(what) { _ in
                let rig = try await Rig(arguments: arguments, environment: environment)
                do {
                    try await body(rig)
                } catch {
                    await rig.finish()
                    throw error
                }
                await rig.finish()
            }
        }

        /// The first and last samples of `range` that are not silent.
        static func soundingSpan(_ samples: [Float], in range: Range<Int>) -> ClosedRange<Int>? {
            guard let first = samples[range].firstIndex(where: { $0 != 0 }), let last = samples[range].lastIndex(where: { $0 != 0 }) else {
                return nil
            }
            return first...last
        }

        @Test func droneNoteTransposesTheShape() async throws {
            try await Self.withRig { rig in
                let take = try await rig.take([(1.5, [[0x90, 76, 100]])], tail: 2.0)
                let note = take.sent[0]
                // E5 over the root A4: 440 * 2^(7/12).
                let expected = 440 * pow(2, 7.0 / 12)
                let measured = try take.pitch(in: take.window(after: note, from: 0.9, length: 1.0))
                #expect(abs(measured - expected) < 0.1, "\(measured) Hz, expected \(expected) Hz; \(take.recording.keep(named: "drone-note"))")
                let before = try take.pitch(in: take.window(from: take.first, to: note, margin: 0.2))
                #expect(abs(before - 440) < 0.1, "the drawn pitch before the note: \(before) Hz; \(take.recording.keep(named: "drone-before"))")
            }
        }

        @Test func instrumentIsSilentAroundANoteAndVelocitySetsTheLevel() async throws {
            try await Self.withRig(["--instrument"]) { rig in
                let take = try await rig.take(
                    [
                        (1.0, [[0x90, 81, 127]]), (2.0, [[0x80, 81, 0]]),
                        (2.5, [[0x90, 81, 64]]), (3.5, [[0x80, 81, 0]]),
                    ], tail: 1.0)
                let samples = take.samples
                let (on1, off1, on2, off2) = (take.sent[0], take.sent[1], take.sent[2], take.sent[3])
                // Silent before the first note and between the notes, up to the frame each
                // note went out at; the release is over 0.1 s after a note-off.
                let silences = [
                    take.window(from: take.first, to: on1), take.window(from: take.recording.frame(off1, plus: 0.1), to: on2),
                    take.window(from: take.recording.frame(off2, plus: 0.1), to: take.recording.endFrame),
                ]
                for silence in silences {
                    #expect(silence.count > Self.seconds(0.3), "a silent window of \(silence.count) samples")
                    #expect(take.recording.trustedPeak(in: silence) == 0, "sound in \(silence)")
                }
                // Each note starts at the frame it was sent at: the first sample that sounds
                // lies within its attack's first samples (judged where the recorder copied
                // that period in time).
                for on in [on1, on2] {
                    let at = try take.index(on)
                    let span = try #require(Self.soundingSpan(samples, in: at..<(at + Self.seconds(0.5))), "no sound after the note-on")
                    if take.recording.stepIsTrusted(at: at) && take.recording.stepIsTrusted(at: span.lowerBound) {
                        #expect(span.lowerBound - at < 4, "the note at frame \(on) sounds from \(span.lowerBound - at) samples after it")
                    } else {
                        print("not judged: the onset of the note at frame \(on) lies in a period the recorder missed or recorded twice")
                    }
                }
                let loud = take.window(from: on1, to: off1, margin: 0.2)
                let soft = take.window(from: on2, to: off2, margin: 0.2)
                let pitch = try take.pitch(in: loud)
                #expect(abs(pitch - 880) < 0.1, "A5 plays \(pitch) Hz; \(take.recording.keep(named: "instrument"))")
                let ratio =
                    SignalAnalysis.rms(samples, range: take.recording.contiguousStretch(within: soft))
                    / SignalAnalysis.rms(samples, range: take.recording.contiguousStretch(within: loud))
                #expect(abs(ratio - pow(64.0 / 127, 2)) < 0.02, "velocity 64 against 127: \(ratio)")
                #expect(SignalAnalysis.peak(samples) <= 0.5 + 1e-6)
            }
        }

        @Test func twoHeldNotesGiveTwoPeaks() async throws {
            try await Self.withRig(["--instrument"]) { rig in
                let take = try await rig.take([(0.2, [[0x90, 69, 100], [0x90, 76, 100]])], tail: 2.0)
                // The median of 8192-sample pieces' spectra over 1.5 s from 0.4 s after the
                // chord: a piece a server dropout smears does not move it (a chord does not
                // repeat in a short lag, so RecordingAnalysis cannot find the dropouts).
                let size = 8_192
                let spectrum = try SignalAnalysis.medianSpectrum(
                    take.samples, range: take.window(after: take.sent[0], from: 0.4, length: 1.5), size: size)
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
                let take = try await rig.take([(0.5, flood), (0.6, flood), (1.5, reset)], tail: 1.4)
                let samples = take.samples
                #expect(SignalAnalysis.allFinite(samples))
                #expect(SignalAnalysis.peak(samples) <= 0.5 + 1e-6)
                #expect(rig.midi.written.load(ordering: .relaxed) > 1000, "the flood reached the node")
                let after = try take.pitch(in: take.window(after: take.sent[2], from: 0.7, length: 0.7))
                #expect(abs(after - 440) < 0.1, "back to the drawn pitch: \(after) Hz; \(take.recording.keep(named: "flood"))")
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
            var keys: MIDISender? = try MIDISender(serverName: server.name, name: "keys", connectTo: nil)
            let node = try NodeProcess(
                [document, "--osc-port", "0", "--no-auto-connect", "--midi-connect", "keys:out", "--log-level", "debug"], server: server)
            try await node.waitUntilReady()
            var pad: MIDISender? = try MIDISender(serverName: server.name, name: "pad", connectTo: "toneshaper:midi_in")
            #expect(
                server.connections()?["keys:out"] == ["toneshaper:midi_in"],
                "--midi-connect: \(String(describing: server.connections())) \(node.stderr.text)")
            // The control loop notes both connections (it says so at debug level) before the
            // server goes.
            #expect(
                await eventually(timeout: 120) {
                    node.stderr.text.split(separator: "\n").contains {
                        $0.contains("remembering MIDI connections:") && $0.contains("keys:out") && $0.contains("pad:out")
                    }
                }, "the node never noted both connections: \(node.stderr.text)")

            // The server goes with the clients still connected (closing a client first would
            // disconnect it, and the node rightly forgets a connection its peer dropped).
            server.stop()
            keys = nil
            pad = nil
            #expect(await eventually(timeout: 5) { node.stderr.text.contains("JACK server went away") })
            try server.start()
            keys = try MIDISender(serverName: server.name, name: "keys", connectTo: nil)
            pad = try MIDISender(serverName: server.name, name: "pad", connectTo: nil)
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

        /// `jack_transport` drives `--transport`: silent while stopped, sounding while
        /// rolling. The recorder notes in every period whether the transport rolled, so the
        /// sound is judged against the periods that rolled, whenever `jack_transport` got to
        /// them; the test waits on the server's timeline (half a second stopped, half a
        /// second rolling), not on the wall clock.
        @Test func transportStartAndStopDriveTheNode() async throws {
            try await Self.withRig(["--transport"]) { rig in
                let transport = try TransportTool(server: rig.server)
                let recorder = rig.recorder
                let half = Int(0.5 * Self.rate)
                try await recorder.start()
                try await recorder.wait(untilRecorded: half)
                let playFrame = recorder.frameNow
                transport.send("play")
                guard await eventually(timeout: 10, { recorder.transportRolling }) else { throw JackTestError("jack_transport did not roll") }
                try await recorder.wait(untilRecorded: recorder.framesRecorded + half)
                transport.send("stop")
                guard await eventually(timeout: 10, { !recorder.transportRolling }) else { throw JackTestError("jack_transport did not stop") }
                let recording = try await recorder.finish(atFrame: recorder.frameNow &+ UInt32(half))
                transport.send("quit")
                let samples = recording.samples
                let rolled = recording.transportStretches(rolling: true)
                #expect(rolled.count == 1, "one stretch rolled: \(rolled), play sent at frame \(playFrame)")
                let rolling = try #require(rolled.first)
                #expect(rolling.count >= half, "rolled for \(rolling.count) samples")
                // Each transport change takes effect in the period the node sees it, with a
                // 5 ms fade (240 samples): that and two periods each side are left out.
                let edge = 240 + 2 * rig.server.period
                let before = 0..<(rolling.lowerBound - edge)
                let after = (rolling.upperBound + edge)..<samples.count
                #expect(before.count > 0 && recording.trustedPeak(in: before) == 0, "silent before the transport rolls")
                #expect(after.count > 0 && recording.trustedPeak(in: after) == 0, "silent once it stops")
                let sounding = (rolling.lowerBound + edge)..<(rolling.upperBound - edge)
                let quiet = recording.trustedStretches(within: sounding).flatMap { run in
                    stride(from: run.lowerBound, to: run.upperBound - rig.server.period, by: rig.server.period).filter {
                        SignalAnalysis.peak(samples, range: $0..<($0 + rig.server.period)) < 0.1
                    }
                }
                // A jump of the transport's position while rolling (the server lost periods)
                // is a relocation to the node: it fades out and in again there, as it should.
                let jumps = recording.transportJumps
                // (Fade out and in, 240 samples each, from the period that saw the jump.)
                let unexplained = quiet.filter { q in !jumps.contains { q >= $0 - 2 * rig.server.period && q < $0 + 480 + 2 * rig.server.period } }
                #expect(unexplained.isEmpty, "silent periods while rolling at \(unexplained.prefix(8)); the transport jumped at \(jumps.prefix(8))")
                let span = try #require(Self.soundingSpan(samples, in: 0..<samples.count), "never sounded")
                #expect(
                    abs(span.lowerBound - rolling.lowerBound) <= 2 * rig.server.period,
                    "sound from \(span.lowerBound), rolled from \(rolling.lowerBound)")
                #expect(abs(span.upperBound - rolling.upperBound) <= edge, "sound to \(span.upperBound), rolled to \(rolling.upperBound)")
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
                // Periods rendered while freewheeling, then after it: counted by the node, on
                // JACK's timeline (a busy host only makes them come later).
                _ = try ExternalTools.run("jack_freewheel", ["y"], environment: rig.server.environment, timeout: 5)
                try await OSCDatagram.waitForPeriods(OSCDatagram.periods(0.5, of: rig.server), port: port)
                _ = try ExternalTools.run("jack_freewheel", ["n"], environment: rig.server.environment, timeout: 5)
                try await OSCDatagram.waitForPeriods(OSCDatagram.periods(0.3, of: rig.server), port: port)
                let after = try #require(try OSCDatagram.stats(port: port))
                #expect((after["periods"] ?? 0) > (before["periods"] ?? 0))
                #expect(rig.node.process.isRunning)
                let take = try await rig.take([], tail: 1.0)
                let pitch = try take.pitch(in: take.window(after: take.first, from: 0.2, length: 0.7))
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
