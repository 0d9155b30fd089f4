import CAllocationCounter
import Foundation
import JackTimeline
import Testing
import ToneShaperControl
import ToneShaperJack
import ToneShaperModel
import ToneShaperTestSupport

extension WithJackServer {
    /// The node inside the test process, so the test can watch its process callback.
    @Suite struct NodeInProcess {
        /// Counts allocations on JACK's process thread, around everything the callback does.
        static func countingProbe() -> RealtimeProbe {
            RealtimeProbe(allocationCounter: .init(start: allocation_counter_start, stop: allocation_counter_stop))
        }

        @Test func processCallbackAllocatesNothingWhileTakingChanges() async throws {
            let server = try PrivateJackServer()
            // A rate other than the server's: the node must adopt the server's before playing.
            let controller = EngineController(shape: .defaultShape, sampleRate: 44_100)
            let probe = Self.countingProbe()
            let node = JackNode(
                controller: controller,
                configuration: JackNodeConfiguration(clientName: "ts-alloc", serverName: server.name, autoConnect: false, probe: probe))
            try node.start()
            defer { node.stop() }
            #expect(controller.sampleRate == 48_000)
            #expect(node.portNames == ["ts-alloc:out"])

            // Changes of every kind while it plays: ramps, new plans, time-tagged ones.
            let waves = ["Square", "Sawtooth Fourier", "Triangle", "Sine"]
            for i in 0..<24 {
                let now = wallClockSeconds()
                try controller.set(.amplitude, to: .real(0.1 + 0.01 * Double(i)), due: now + 0.005 * Double(i % 5))
                try controller.setFrequencyRange(min: 100 + Double(i), max: 600 + Double(i), due: i % 2 == 0 ? nil : now + 0.02)
                if i % 3 == 0 {
                    // The controller refuses a new curve while too many wait for the audio
                    // thread (EngineController.maximumLivePlans); on a busy machine, wait.
                    let wave = waves[(i / 3) % waves.count]
                    #expect(await eventually(timeout: 2) { (try? controller.set(.wave, to: .text(wave))) != nil })
                }
                if i == 10 { try controller.stop() }
                if i == 14 { try controller.play(due: now + 0.01) }
                try await Task.sleep(for: .milliseconds(25))
            }
            // Every change taken and sounded (the last is due 20 ms after it was sent), and
            // the periods counted: a slow machine takes longer, only a hang takes 10 s.
            #expect(
                await eventually(timeout: 10) {
                    controller.queuedCommandCount == 0 && controller.scheduledCount == 0 && probe.cycles > 200
                })

            let cycles = probe.cycles
            let stats = node.stats()  // counts each period before the probe does
            #expect(probe.allocations == 0)
            #expect(stats.periods >= cycles)
            #expect(stats.bufferSize == 64)
            #expect(stats.sampleRate == 48_000)
            #expect(stats.p50 > 0 && stats.p50 <= stats.p99 && stats.p99 <= stats.p999 && stats.p999 <= stats.max)
            // The control loop frees what the audio thread handed back.
            #expect(await eventually(timeout: 10) { controller.livePlanCount == 1 })
        }

        /// MIDI of every kind into the real process callback (instrument mode, transport
        /// followed, controllers mapped and learnt, a flood): nothing allocates there.
        @Test func processCallbackAllocatesNothingWhilePlayingMIDI() async throws {
            let server = try PrivateJackServer()
            var shape = ToneShape.defaultShape
            shape.performance.instrument = true
            shape.performance.transport = true
            shape.midiMap[7] = .amplitude
            shape.midiMap[21] = .wave
            let controller = EngineController(shape: shape, sampleRate: 48_000)
            let probe = Self.countingProbe()
            let node = JackNode(
                controller: controller,
                configuration: JackNodeConfiguration(clientName: "ts-midi-alloc", serverName: server.name, autoConnect: false, probe: probe))
            try node.start()
            defer { node.stop() }
            #expect(node.midiPortName == "ts-midi-alloc:midi_in")
            let midi = try MIDISender(serverName: server.name, name: "alloc-midi", connectTo: "ts-midi-alloc:midi_in")
            try controller.perform(.learnController(.echoVolume))
            for i in 0..<20 {
                let note = UInt8(40 + i)
                midi.send(
                    [
                        [0x90, note, 100], [0xB0, 7, UInt8(i * 6)], [0xE0, 0, UInt8(40 + i)], [0xB0, 64, i % 2 == 0 ? 127 : 0],
                        [0xB0, 30, UInt8(i)], [0xB0, 21, UInt8(i * 6)],
                    ], after: 0)
                midi.send([[0x80, note, 0], [0xF0, 1, 2, 3, 0xF7], [0x42, 0x42], [0x90]], after: 0.01)
                if i == 10 { midi.send((0..<2000).map { [0x90 | UInt8($0 % 16), UInt8($0 % 128), 1] }, after: 0) }
                if i == 15 { try controller.set(.instrument, to: .flag(false)) }
                try await Task.sleep(for: .milliseconds(25))
            }
            // Every event written into a period (or refused by a full buffer) and a period
            // run after the last of them; the learnt controller reported back and taken in.
            // A slow machine takes longer, only a hang takes 10 s.
            let events = 20 * 10 + 2000
            #expect(await eventually(timeout: 10) { midi.written.load(ordering: .relaxed) + midi.refused.load(ordering: .relaxed) == events })
            let cyclesAfterLastEvent = probe.cycles + 2
            #expect(await eventually(timeout: 10) { probe.cycles > max(200, cyclesAfterLastEvent) })
            #expect(await eventually(timeout: 10) { controller.shape.midiMap[7] == .echoVolume }, "learnt: the next controller that moved")
            #expect(probe.allocations == 0)
            withExtendedLifetime(midi) {}
        }

        @Test func noServerIsAClearError() throws {
            let controller = EngineController(shape: .defaultShape, sampleRate: 48_000)
            let node = JackNode(controller: controller, configuration: JackNodeConfiguration(serverName: "ts-test-nobody-\(getpid())"))
            #expect(throws: JackNodeError.noServer(serverName: "ts-test-nobody-\(getpid())")) { try node.start() }
            #expect(JackNodeError.noServer(serverName: "x").description.contains("no JACK server is running (server name \"x\")"))
        }
    }
}
