import Foundation
import Testing
import ToneShaperParameters
import ToneShaperTestSupport

@testable import ToneShaperAudio
@testable import ToneShaperControl

#if canImport(Glibc)
    import Glibc
#endif

/// Plans cannot leak: every plan the controller builds comes back to it and is freed, however
/// many are swapped, whatever else fills the channel back; and the number alive at once is
/// bounded (`EngineController.maximumLivePlans`), with every list on the way sized for it.
@Suite struct PlanLifetimes {
    static let period = 64
    static let rate = 48_000.0
    static let waves = ["Square", "Triangle", "Sawtooth", "Sine"]

    static func clock(_ period: Int) -> PeriodClock {
        PeriodClock(startMicros: Double(period * PlanLifetimes.period) * 1_000_000 / rate, microsPerFrame: 1_000_000 / rate)
    }

    /// 100,000 plans swapped through the real controller and renderer while it plays: the
    /// control side sends new curves as fast as the bound lets it and frees what comes back,
    /// the audio side renders period after period and takes them (`PlanSwapRun`). The
    /// process's resident memory after the last swap is what it was after the first 10,000,
    /// and the controller holds one plan at the end (the one playing), none once the
    /// renderer is gone. Run in a process of its own (``ChildTest``), so that no other test
    /// running at the same time moves the resident memory.
    @Test func hundredThousandPlanSwapsWhilePlayingLeaveMemoryFlat() throws {
        let result = try ChildTest.run("planSwapsInAProcessOfItsOwn")
        print(result.output, terminator: "")
        #expect(result.exitedNormally && result.status == 0, "the child test failed: \(result.output)")
        let line = try #require(result.output.split(separator: "\n").first { $0.hasPrefix("plan swaps:") })
        var figures: [String: Double] = [:]
        for field in line.split(separator: " ") {
            let pair = field.split(separator: "=")
            if pair.count == 2, let value = Double(pair[1]) { figures[String(pair[0])] = value }
        }
        #expect(figures["swaps"] == 100_000, "every plan was taken: none stalled the controller")
        #expect(figures["lastPlanPlays"] == 1, "the last plan sent is the one playing")
        #expect((figures["peak"] ?? 0) > 0.1, "the audio side played throughout")
        #expect(figures["liveAtEnd"] == 1, "every plan but the one playing was handed back and freed")
        #expect(figures["liveWithoutRenderer"] == 0, "the renderer handed back its last plan when it went")
        let growth = (figures["residentAtEnd"] ?? .infinity) - (figures["residentAfterWarmUp"] ?? .infinity)
        #expect(growth < 2 * 1024 * 1024, "resident memory grew by \(growth / 1024) KB over 90,000 plan swaps")
    }

    @Test(.enabled(if: ChildTest.isRunning("planSwapsInAProcessOfItsOwn"), Comment(rawValue: ChildTest.skipReason)))
    func planSwapsInAProcessOfItsOwn() {
        PlanSwapRun.run(swaps: 100_000, warmUp: 10_000)
    }

    /// The case that once lost plans: the audio side's own changes fill the channel back
    /// (nobody collects for a while), new plans arrive up to the bound, and the renderer is
    /// destroyed. The slots kept for plans take every one of them back.
    @Test func aRendererDestroyedWithItsChannelBackFullOfReportsHandsBackEveryPlan() {
        let controller = EngineController(shape: steadyTone(440, amplitude: 0.5), sampleRate: PlanLifetimes.rate)
        do {
            var renderer = controller.makeRenderer(rampLength: PlanLifetimes.period)
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: PlanLifetimes.period)
            defer { buffer.deallocate() }
            var period = 0
            // A change made on the audio side every period, reported back every period.
            for _ in 0..<(2 * EngineController.channelCapacity) {
                renderer.applyAudioSideChange(.parameter(.amplitude, 0.2 + 0.1 * Double(period % 2)))
                renderer.renderPeriod(into: buffer, frames: PlanLifetimes.period, clock: PlanLifetimes.clock(period))
                period += 1
            }
            // New curves, each played through its cross-fade, until the bound refuses them.
            var sent = 0
            for i in 0..<(3 * EngineController.maximumLivePlans) {
                if (try? controller.set(.fidelity, to: .integer(100 + i))) != nil { sent += 1 }
                for _ in 0..<8 {
                    renderer.renderPeriod(into: buffer, frames: PlanLifetimes.period, clock: PlanLifetimes.clock(period))
                    period += 1
                }
            }
            let playing = renderer.engine.plan.fidelity
            #expect(sent == EngineController.maximumLivePlans - 1)
            #expect(controller.livePlanCount == EngineController.maximumLivePlans)
            #expect(playing == 100 + sent - 1, "the last plan sent plays")
        }
        controller.collectHandback()
        #expect(controller.livePlanCount == 0)
        // And with the plans back, a new audio side takes new curves again.
        let renderer = controller.makeRenderer()
        #expect(throws: Never.self) { try controller.set(.wave, to: .text("Triangle")) }
        #expect(controller.livePlanCount == 2)
        _ = renderer.pendingCount
    }

    /// The engine's list of retired plans: a plan is taken only while the list has room for
    /// the one it replaces, so it fills to its capacity and no further, and every plan the
    /// engine stopped reading is in it, none dropped.
    @Test func theEngineTakesPlansOnlyWhileItCanRetireTheOnesTheyReplace() {
        let storages = (1...(3 * RetiredPlans.capacity)).map { id in
            CurveStorage(shape: steadyTone(200 + Double(id), amplitude: 0.5), sampleRate: PlanLifetimes.rate, id: id)
        }
        var engine = ToneEngine(
            plan: storages[0].plan, minFrequency: 200, maxFrequency: 300, amplitude: 0.5, echoVolume: 0, rampLength: 64)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: PlanLifetimes.period)
        defer { buffer.deallocate() }
        var taken = [storages[0].id]
        for storage in storages.dropFirst() {
            if engine.apply(.replacePlan(storage.plan)) { taken.append(storage.id) }
            for _ in 0..<8 { engine.render(into: buffer, count: PlanLifetimes.period) }
        }
        #expect(taken.count == RetiredPlans.capacity + 1)
        let full = !engine.canAcceptPlan
        #expect(full)
        var held: [Int] = []
        engine.forEachHeldPlan { held.append($0) }
        #expect(held.sorted() == Array(taken.dropLast()), "every plan replaced waits to be handed back")
        while engine.takeRetiredPlan() != nil {}
        let free = engine.canAcceptPlan
        #expect(free)
        withExtendedLifetime(storages) {}
    }

    /// The bound is checked where plans arrive: a renderer sent more plans than
    /// `maximumLivePlans` (which the controller never does) stops the program rather than
    /// hold plans its channel back has no room for.
    @Test func aRendererSentMorePlansThanTheBoundStops() throws {
        let result = try ChildTest.run("moreRendererPlansThanTheBound")
        #expect(!result.exitedNormally, "the program went on with too many plans: \(result.output)")
    }

    @Test(.enabled(if: ChildTest.isRunning("moreRendererPlansThanTheBound"), Comment(rawValue: ChildTest.skipReason)))
    func moreRendererPlansThanTheBound() {
        let storages = (1...(EngineController.maximumLivePlans + 1)).map { id in
            CurveStorage(shape: steadyTone(200 + Double(id)), sampleRate: PlanLifetimes.rate, id: id)
        }
        let commands = SPSCChannel<TimedCommand>.make(capacity: EngineController.channelCapacity)
        let handback = SPSCChannel<AudioHandback>.make(capacity: EngineController.channelCapacity)
        let shape = steadyTone()
        var renderer = RealtimeRenderer(
            engine: ToneEngine(plan: storages[0].plan, minFrequency: 1000, maxFrequency: 1000, amplitude: 0.5, echoVolume: 0),
            performer: MIDIPerformer(settings: shape.performance, controllers: shape.midiMap, sampleRate: PlanLifetimes.rate),
            commands: commands.takeConsumer(), handback: handback.takeProducer(), parameters: ParameterTable.audioParameters)
        let producer = commands.takeProducer()
        for storage in storages.dropFirst() { producer.push(TimedCommand(.replacePlan(storage.plan))) }
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: PlanLifetimes.period)
        renderer.renderPeriod(into: buffer, frames: PlanLifetimes.period, clock: PlanLifetimes.clock(0))
        withExtendedLifetime(storages) {}
    }
}

/// The measurement of `hundredThousandPlanSwapsWhilePlayingLeaveMemoryFlat`, in a process
/// of its own: it prints one line of figures for the test to check.
///
/// The two sides take turns on one thread, as they would between two JACK periods: the
/// control side sends new curves until the bound refuses one, then the audio side renders
/// periods until it has taken them all (each after the cross-fade to the one before) and
/// the control side frees what came back. Turns on one thread rather than two threads
/// waiting for each other: with at most `maximumLivePlans` in flight, two threads hand over
/// every 7 swaps, and on a busy 2-core machine each hand-over waits out other processes'
/// time slices (24 – 39 s for the 100,000 swaps at a load of 7 – 9, against 5 – 11 s so).
enum PlanSwapRun {
    static func run(swaps: Int, warmUp: Int) {
        var shape = steadyTone(330, echoOffset: 0.25, echoVolume: 0.5, amplitude: 0.5)
        shape.fidelity = 1000
        let controller = EngineController(shape: shape, sampleRate: PlanLifetimes.rate)
        var renderer = controller.makeRenderer(rampLength: PlanLifetimes.period)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: PlanLifetimes.period)
        defer { buffer.deallocate() }
        var periods = 0
        var peak: Float = 0
        takeEveryPlan(&renderer, buffer, &periods, &peak)
        let residentAtStart = residentBytes()

        let began = ContinuousClock.now
        var done = 0
        var refused = 0
        var residentAfterWarmUp: Int?
        var lastFidelity = shape.fidelity
        while done < swaps {
            // The control side: new curves, each another wave and fidelity (a grid of its
            // size), until the bound refuses one.
            var sent = 0
            while done < swaps {
                let fidelity = 1000 + done % 97
                let wave = PlanLifetimes.waves[done % PlanLifetimes.waves.count]
                guard (try? controller.set([(.fidelity, .integer(fidelity)), (.wave, .text(wave))])) != nil else {
                    refused += 1
                    break
                }
                done += 1
                sent += 1
                lastFidelity = fidelity
            }
            // No curve taken at all: plans did not come back (a leak), and never will.
            if sent == 0 { break }
            // The audio side plays on and takes them; the control side frees what came back.
            takeEveryPlan(&renderer, buffer, &periods, &peak)
            controller.collectHandback()
            if done >= warmUp && residentAfterWarmUp == nil { residentAfterWarmUp = residentBytes() }
        }
        let seconds = (ContinuousClock.now - began) / .seconds(1)
        let residentWarm = residentAfterWarmUp ?? -1
        let liveAtEnd = controller.livePlanCount
        let residentAtEnd = residentBytes()
        let fidelityPlaying = renderer.engine.plan.fidelity
        _ = consume renderer
        controller.collectHandback()
        let liveWithoutRenderer = controller.livePlanCount
        print(
            "plan swaps: swaps=\(done) seconds=\(String(format: "%.2f", seconds)) refused=\(refused) periods=\(periods)",
            "peak=\(peak) lastPlanPlays=\(fidelityPlaying == lastFidelity ? 1 : 0) liveAtEnd=\(liveAtEnd)",
            "liveWithoutRenderer=\(liveWithoutRenderer) residentAtStart=\(residentAtStart)",
            "residentAfterWarmUp=\(residentWarm) residentAtEnd=\(residentAtEnd)")
        print(
            "resident memory: \(residentAtStart / 1024) KB at the start, \(residentWarm / 1024) KB after \(warmUp) swaps,",
            "\(residentAtEnd / 1024) KB after \(done) (\((residentAtEnd - residentWarm) / 1024) KB more)")
    }

    /// Renders periods until the renderer has taken every plan sent (each after the
    /// cross-fade to the one before), noting the loudest sample now and then.
    static func takeEveryPlan(
        _ renderer: inout RealtimeRenderer, _ buffer: UnsafeMutablePointer<Float>, _ periods: inout Int, _ peak: inout Float
    ) {
        var rendered = 0
        repeat {
            renderer.renderPeriod(into: buffer, frames: PlanLifetimes.period, clock: PlanLifetimes.clock(periods))
            periods += 1
            rendered += 1
            if periods % 7 == 0 { for i in 0..<PlanLifetimes.period { peak = max(peak, buffer[i].magnitude) } }
        } while (renderer.engine.isCrossfading || renderer.pendingCount > 0) && rendered < 10_000
    }

    /// The process's resident set, from /proc/self/statm (its second field, in pages).
    static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return -1 }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 256)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return -1 }
        let fields = String(decoding: bytes[0..<n], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
