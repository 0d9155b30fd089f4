import Foundation
import JackTimeline
import Testing
import ToneShaperControl
import ToneShaperLV2Description
import ToneShaperTestSupport

/// The plugin in jalv, a real LV2 host, on a private dummy JACK server. MIDI comes from the
/// tests' own sender and the plugin is recorded by their own recorder, both on JACK's
/// timeline (JackTimeline), so every window is read at a known distance from the frame its
/// event went out at; jack_capture records where only a recording is needed.
extension WithJackServer {
    @Suite struct LV2JalvTests {
        static var available: Bool { PrivateJackServer.available && LV2Tools.have("jalv") }

        /// Starts jalv with `controls` (SYMBOL=VALUE) under a client name of its own; returns
        /// the name once its ports are up.
        static func startJalv(_ jack: PrivateJackServer, uri: String = LV2Tools.monoURI, controls: [String], output: URL? = nil) throws -> (
            name: String, input: FileHandle
        ) {
            try LV2Tools.prepare()
            let name = "ts-\(jack.name)"
            let (_, input) = try jack.startClient(
                "stdbuf", ["-o0", "-e0", "jalv", "-x", "-n", name] + controls.flatMap { ["-c", $0] } + [uri], environment: LV2Tools.lv2Path,
                output: output)
            let last = "\(name):\(uri == LV2Tools.monoURI ? "out" : "out_right")"
            guard jack.waitFor({ jack.ports()?.contains(last) == true }, seconds: 120) else {
                throw LV2TestError("jalv did not register \(last); ports: \(String(describing: jack.ports()))")
            }
            return (name, input)
        }

        /// How often `text` stands in the file at `url` (a console's answers, counted).
        static func count(of text: String, in url: URL) -> Int {
            ((try? String(contentsOf: url, encoding: .utf8)) ?? "").components(separatedBy: text).count - 1
        }

        /// jalv loads both plugins, registers their ports, and plays finite samples.
        @Test(.enabled(if: available), arguments: [LV2Tools.monoURI, LV2Tools.stereoURI])
        func jalvLoadsThePlugin(uri: String) throws {
            let jack = try PrivateJackServer(prefix: "lv2test", period: 256)
            defer { jack.stop() }
            let (name, _) = try Self.startJalv(jack, uri: uri, controls: ["amplitude=0.3"])
            let ports = jack.ports() ?? []
            let outputs = uri == LV2Tools.monoURI ? ["\(name):out"] : ["\(name):out_left", "\(name):out_right"]
            for port in outputs + ["\(name):control"] { #expect(ports.contains(port), "\(port) missing from \(ports)") }
            let samples = try jack.record(outputs[0], seconds: 0.5).samples
            #expect(samples.count > 10_000)
            #expect(SignalAnalysis.allFinite(samples) && SignalAnalysis.peak(samples) <= 1)
        }

        /// A preset chosen in jalv sets every control to the document's values, and its state
        /// (the document as an atom:String) reaches the plugin's restore, which the shell checks.
        @Test(.enabled(if: available && LV2Tools.have("stdbuf")))
        func presetsApplyInJalv() throws {
            let jack = try PrivateJackServer(prefix: "lv2test", period: 256)
            defer { jack.stop() }
            let directory = try LV2Tools.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let log = directory.appendingPathComponent("jalv.log")
            let (_, input) = try Self.startJalv(jack, controls: [], output: log)
            let drone = try #require(try LV2DescriptionTests.builtInDocuments().first { $0.name == "drone" })
            let values = LV2Description.portValues(of: drone.shape)
            // jalv loads the presets' data when asked for the list.
            input.write(Data("presets\npreset urn:toneshaper:preset:drone\n".utf8))
            let expected = LV2Description.controlPorts.map { "\($0.symbol) = " + String(format: "%f", values[$0.row]) }
            // Asked for its controls again and again (a poll, each answer read as it comes) until
            // they show the preset's values, or the deadline passes.
            let applied = jack.waitFor(
                {
                    let lists = Self.count(of: "amplitude = ", in: log)
                    input.write(Data("controls\n".utf8))
                    let listed = jack.waitFor({ Self.count(of: "amplitude = ", in: log) > lists }, seconds: 30)
                    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                    return listed && expected.allSatisfy { text.contains($0) }
                }, seconds: 120)
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(applied, "jalv did not apply the drone preset's values; missing: \(expected.filter { !text.contains($0) })\n\(text.suffix(3000))")
            #expect(!text.contains("the state holds no document"), "a new instance restores its default state quietly:\n\(text.suffix(2000))")
            #expect(!text.contains("is not an atom:String") && !text.contains("does not end with its NUL"), "\(text.suffix(2000))")
        }

        /// Note 81 on a constant 300 Hz shape with root 69 plays 600 Hz within 0.1 Hz, from the
        /// frame the note went out at; silent before and after the note in instrument mode; an
        /// amplitude change typed on jalv's console is heard.
        @Test(.enabled(if: available))
        func note81On300HzPlays600Hz() async throws {
            let jack = try PrivateJackServer(prefix: "lv2test", period: 256)
            defer { jack.stop() }
            // The default shape's range set to 300...300 remaps every point to 300 Hz.
            let directory = try LV2Tools.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let log = directory.appendingPathComponent("jalv.log")
            let (name, input) = try Self.startJalv(
                jack, controls: ["min_frequency=300", "max_frequency=300", "instrument=1", "root_note=69", "scale=0", "amplitude=0.5"],
                output: log)
            // The test's own clients, closed (at the end of this function's scope) before the
            // server stops (the deferred jack.stop() runs after them).
            let midi = try MIDISender(serverName: jack.name, name: "lv2seq", connectTo: "\(name):control")
            let recorder = try TimelineRecorder(serverName: jack.name, name: "lv2rec")
            try recorder.connect(["\(name):out"])
            let rate = Double(jack.rate)
            func frames(_ seconds: Double) -> UInt32 { UInt32(seconds * rate) }
            // The dummy driver may lose a period now and then: the pitch is measured over the
            // longest clean stretch of the note (RecordingAnalysis), and a take with none long
            // enough is made again, saying so.
            let before = try await retryingOnBusyHost("jalv: note 81 on 300 Hz") { _ in
                let first = try await recorder.start()
                let tickets = [
                    midi.send([[0x90, 81, 100]], atFrame: first &+ frames(0.5)), midi.send([[0x80, 81, 0]], atFrame: first &+ frames(1.5)),
                ]
                let sent = try await midi.delivered(tickets)
                let (on, off) = (sent[0], sent[1])
                let recording = try await recorder.finish(atFrame: off &+ frames(1.0))
                let samples = recording.samples
                let silentBefore = recording.indices(from: first, to: on)
                #expect(silentBefore.count > 10_000 && recording.trustedPeak(in: silentBefore) < 1e-4, "sound before the note-on")
                // The note starts at its frame: the plugin applies MIDI at the event's frame.
                let at = try recording.requireIndex(ofFrame: on, "the note-on")
                let firstSound = try #require(samples[at...].firstIndex { abs($0) > 1e-6 }, "the note never sounded")
                if recording.stepIsTrusted(at: at) && recording.stepIsTrusted(at: firstSound) {
                    #expect(firstSound - at < 4, "the note at frame \(on) sounds from \(firstSound - at) samples after it")
                } else {
                    print("not judged: the note-on's period was missed or recorded twice by the recorder")
                }
                let note = recording.indices(from: on &+ frames(0.05), to: off &- frames(0.05))
                let sounding = recording.contiguousStretch(within: note)
                let frequency = try RecordingAnalysis.medianFrequency(
                    samples, sampleRate: rate, stretches: recording.trustedStretches(within: note), piece: Int(frames(0.1)), minimumPieces: 5)
                #expect(abs(frequency - 600) < 0.1, "note 81 played \(frequency) Hz")
                let after = recording.indices(from: off &+ frames(0.1), to: recording.endFrame)
                #expect(after.count > 10_000 && recording.trustedPeak(in: after) < 1e-4, "sound after the note-off")
                return SignalAnalysis.rms(samples, range: sounding)
            }

            // A control port change is heard: amplitude 0.5 -> 0.1 through jalv's console. The
            // console is read by jalv's own thread, so the change cannot be placed on the
            // timeline: it is found by its effect, within a bound after the frame it was typed
            // at, and the level is judged after it.
            let bound = 1.0
            let ratio = try await retryingOnBusyHost("jalv: amplitude 0.1 on the console") { attempt in
                if attempt > 1 {
                    // Back to 0.5, and on only once jalv lists it so (its console's answer).
                    let listed = Self.count(of: "amplitude = 0.500000", in: log)
                    input.write(Data("amplitude = 0.5\ncontrols\n".utf8))
                    guard jack.waitFor({ Self.count(of: "amplitude = 0.500000", in: log) > listed }, seconds: 120) else {
                        throw LV2TestError("jalv did not list amplitude 0.5 again")
                    }
                }
                let first = try await recorder.start()
                let on = try await midi.delivered([midi.send([[0x90, 81, 100]], atFrame: first &+ frames(0.2))])[0]
                try await recorder.wait(untilRecorded: Int(frames(1.0)))
                let typed = recorder.frameNow
                input.write(Data("amplitude = 0.1\n".utf8))
                let recording = try await recorder.finish(atFrame: typed &+ frames(2.0))
                midi.send([[0x80, 81, 0]], after: 0)
                let samples = recording.samples
                let typedAt = try recording.requireIndex(ofFrame: typed, "the frame the change was typed at")
                let loud = recording.contiguousStretch(within: recording.indices(from: on &+ frames(0.1), to: typed))
                let loudPeak = SignalAnalysis.peak(samples, range: loud)
                let window = Int(0.05 * rate)
                let change = try #require(
                    stride(from: typedAt, to: samples.count - window, by: 16).first {
                        SignalAnalysis.peak(samples, range: $0..<($0 + window)) < 0.6 * loudPeak
                    }, "the level never fell in the 2 s after the change was typed")
                let delay = Double(change - typedAt) / rate
                if delay > bound { throw HostTooBusy(String(format: "the change was heard %.2f s after it was typed, beyond %.1f s", delay, bound)) }
                let quiet = recording.contiguousStretch(within: (change + Int(0.1 * rate))..<samples.count)
                guard loud.count > 9_600, quiet.count > 9_600 else {
                    throw HostTooBusy("no 0.2 s without a missed period on both sides of the change (\(loud.count), \(quiet.count) samples)")
                }
                return SignalAnalysis.rms(samples, range: quiet) / SignalAnalysis.rms(samples, range: loud)
            }
            #expect(before > 0.1, "the note's level: rms \(before)")
            #expect(abs(ratio - 0.2) < 0.01, "amplitude 0.1 against 0.5 gave a level ratio of \(ratio)")
        }
    }
}
