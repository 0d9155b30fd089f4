import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters
import ToneShaperPlugin

/// The plugin's two halves (`InstrumentPlayer` on the audio thread, `InstrumentBuilder` on
/// the worker) play exactly what the node's controller and renderer play, take changes the
/// same way, and free every plan they build.
@Suite struct InstrumentHostTests {
    static let rate = 48_000.0
    static let period = 64

    /// The worker's and the audio thread's halves, joined as an LV2 host joins them (work
    /// done between periods, answers taken before the next).
    struct Plugin: ~Copyable {
        var builder: InstrumentBuilder
        var player: InstrumentPlayer
        var requests: [InstrumentRequest] = []

        init(_ shape: ToneShape) {
            builder = InstrumentBuilder(shape: InstrumentShape(shape), sampleRate: InstrumentHostTests.rate)
            player = InstrumentPlayer(shape: builder.shape, plan: builder.firstPlan())
        }

        mutating func work() {
            let pending = requests
            requests.removeAll()
            for request in pending { if let answer = builder.handle(request) { player.take(answer) } }
        }

        mutating func control(_ id: ParameterID, _ value: Double) {
            var asked: [InstrumentRequest] = []
            player.control(row: ParameterTable.audioParameters.index(of: id), value) { asked.append($0) }
            requests += asked
        }

        mutating func render(periods: Int, midi: [Int: [MIDIEvent]] = [:]) -> [Float] {
            var out: [Float] = []
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: InstrumentHostTests.period)
            defer { buffer.deallocate() }
            for p in 0..<periods {
                let events = midi[p] ?? []
                var asked: [InstrumentRequest] = []
                events.withUnsafeBufferPointer { player.render(into: buffer, frames: InstrumentHostTests.period, midi: $0) { asked.append($0) } }
                requests += asked
                out += UnsafeBufferPointer(start: buffer, count: InstrumentHostTests.period)
                work()
            }
            return out
        }
    }

    /// A legal value other than the default shape's, for every parameter: the node takes it
    /// (no relation is broken), and the plugin's control carries it. Naming every id, this
    /// fails to compile until a new row says what it moves to.
    static func movedValue(_ id: ParameterID) -> ParameterValue {
        switch id {
        case .minFrequency: return .real(100)
        case .maxFrequency: return .real(500)
        case .wave: return .text("Triangle")
        case .scale: return .text("Linear")
        case .echoOffset: return .real(0.5)
        case .echoVolume: return .real(0.5)
        case .amplitude: return .real(0.5)
        case .tune: return .real(-20)
        case .duration: return .real(3)
        case .fidelity: return .integer(400)
        case .fourierTerms: return .integer(5)
        case .antiAlias: return .flag(false)
        case .instrument: return .flag(true)
        case .rootNote: return .integer(60)
        case .bendRange: return .real(7)
        case .voices: return .integer(4)
        case .release: return .real(50)
        case .oneShot: return .flag(true)
        case .transport: return .flag(true)
        case .beats: return .real(4)
        case .glide: return .real(0.05)
        }
    }

    /// One planner for both hosts: moving any one parameter, the plugin's builder owes a new
    /// plan exactly when the model's `ShapeChange` says the node's controller needs one.
    @Test func theBuilderBuildsAPlanExactlyWhenTheNodesPlannerSaysSo() throws {
        let shape = ToneShape.defaultShape
        for spec in ParameterTable.all {
            let moved = try spec.canonical(Self.movedValue(spec.id))
            let node = ShapeChange(from: shape, to: try shape.setting(spec.id, to: moved))
            var builder = InstrumentBuilder(shape: InstrumentShape(shape), sampleRate: Self.rate)
            let first = builder.firstPlan()
            let answer = builder.handle(.set(spec.id, spec.portValue(of: moved)))
            var built = false
            if case .plan(let plan)? = answer {
                built = true
                _ = builder.handle(.release(storageID: plan.storageID))
            }
            _ = builder.handle(.release(storageID: first.storageID))
            #expect(built == node.needsNewPlan, "\(spec.symbol): the plugin built \(built), the node's planner says \(node.needsNewPlan)")
            #expect(node.ramps.contains { $0.0 == spec.id } == (spec.change == .ramp), "\(spec.symbol)")
        }
    }

    /// The node's path, for comparison.
    static func nodeRender(_ shape: ToneShape, periods: Int, midi: [Int: [MIDIEvent]] = [:]) -> [Float] {
        let controller = EngineController(shape: shape, sampleRate: rate)
        var renderer = controller.makeRenderer(rampLength: period)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: period)
        defer { buffer.deallocate() }
        var out: [Float] = []
        for p in 0..<periods {
            let events = midi[p] ?? []
            events.withUnsafeBufferPointer {
                renderer.renderPeriod(
                    into: buffer, frames: period, clock: PeriodClock(startMicros: 0, microsPerFrame: 1e6 / rate), midi: $0, transport: nil)
            }
            out += UnsafeBufferPointer(start: buffer, count: period)
            controller.collectHandback()
        }
        return out
    }

    static var instrumentShape: ToneShape {
        var shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 300), CurvePoint(time: 0.5, frequency: 450), CurvePoint(time: 1, frequency: 300)],
            duration: 1, minFrequency: 300, maxFrequency: 450, wave: .sawtoothFourier, scale: .none, amplitude: 0.4,
            fourierTerms: .nyquist)
        shape.performance.instrument = true
        shape.performance.release = 20
        return shape
    }

    static let notes: [Int: [MIDIEvent]] = [
        3: [MIDIEvent(frame: 17, size: 3, byte0: 0x90, byte1: 81, byte2: 100)],
        40: [MIDIEvent(frame: 5, size: 3, byte0: 0x90, byte1: 64, byte2: 90), MIDIEvent(frame: 40, size: 3, byte0: 0xE0, byte1: 0, byte2: 80)],
        90: [MIDIEvent(frame: 63, size: 3, byte0: 0x80, byte1: 81, byte2: 0)],
        120: [MIDIEvent(frame: 0, size: 3, byte0: 0x80, byte1: 64, byte2: 0)],
    ]

    @Test func thePluginPlaysWhatTheNodePlays() {
        for shape in [Self.instrumentShape, ToneShape.defaultShape] {
            var plugin = Plugin(shape)
            let ours = plugin.render(periods: 200, midi: Self.notes)
            let node = Self.nodeRender(shape, periods: 200, midi: Self.notes)
            #expect(ours == node)
            #expect(ours.contains { $0 != 0 })
        }
    }

    @Test func aPlanParameterChangeBuildsAPlanOffTheAudioThreadAndEveryPlanIsFreed() {
        var plugin = Plugin(ToneShape.defaultShape)
        _ = plugin.render(periods: 4)
        #expect(plugin.builder.livePlanCount == 1)
        // Every wave, twice over, a change per period: more changes than plans may be live.
        var out: [Float] = []
        for step in 0..<(2 * WaveType.allCases.count) {
            plugin.control(.wave, Double(step % WaveType.allCases.count))
            out += plugin.render(periods: 1)
            #expect(plugin.builder.livePlanCount <= PlanKeeper.maximumLive)
        }
        out += plugin.render(periods: 400)
        #expect(out.allSatisfy { $0.isFinite && abs($0) <= 0.25 + 1e-6 })
        #expect(plugin.builder.shape.value(.wave) == Double(WaveType.allCases.count - 1))
        #expect(plugin.builder.livePlanCount == 1, "every plan but the playing one came back and was freed")
    }

    /// A steady 440 Hz sine, no amplitude scaling: a change shows at once.
    static let steady = ToneShape(
        points: [CurvePoint(time: 0, frequency: 440)], duration: 1, minFrequency: 20, maxFrequency: 2000, scale: .none, amplitude: 0.25)

    @Test func aRampedParameterIsHeardWithinThePeriodAndTheBuilderFollows() {
        var plugin = Plugin(Self.steady)
        let before = plugin.render(periods: 8)
        plugin.control(.amplitude, 0.05)
        let after = plugin.render(periods: 8)
        let peak = { (x: ArraySlice<Float>) in x.map { abs($0) }.max() ?? 0 }
        #expect(peak(before[256...]) > 0.2)
        #expect(peak(after[64...]) <= 0.05 + 1e-6)
        #expect(plugin.builder.shape.value(.amplitude) == 0.05)
        #expect(plugin.builder.livePlanCount == 1)
    }

    @Test func portsThatStayPutDoNotUndoALoadedShape() {
        var plugin = Plugin(Self.steady)
        plugin.control(.amplitude, 0.25)
        _ = plugin.render(periods: 2)
        var loaded = Self.steady
        loaded.amplitude = 0.1
        if let answer = plugin.builder.replace(with: InstrumentShape(loaded)) { plugin.player.take(answer) }
        plugin.control(.amplitude, 0.25)  // the host reads the port again: unmoved
        let out = plugin.render(periods: 20)
        #expect((out[640...].map { abs($0) }.max() ?? 0) <= 0.1 + 1e-6)
        #expect((out[640...].map { abs($0) }.max() ?? 0) > 0.09)
        #expect(plugin.builder.shape.value(.amplitude) == 0.1)
    }

    @Test func valuesAreClampedAndTheShapeIsPlayedByItsRules() {
        var shape = InstrumentShape(ToneShape.defaultShape)
        let (lo, hi) = (shape.value(.minFrequency), shape.value(.maxFrequency))
        shape.set(.minFrequency, 1_000)  // above the maximum: played as the range's top, the port keeps its value
        #expect(shape.value(.minFrequency) == 1_000 && shape.value(.maxFrequency) == hi)
        #expect(shape.playedRange == .init(low: hi, high: 1_000))
        shape.set(.minFrequency, lo)
        #expect(shape.playedPoints == ToneShape.defaultShape.points, "back where it was: the curve as drawn")
        shape.set(.amplitude, 7)
        #expect(shape.value(.amplitude) == 1)
        shape.set(.amplitude, -.infinity)
        #expect(shape.value(.amplitude) == 0)
        shape.set(.echoOffset, 99)
        #expect(shape.playedEchoOffset == shape.value(.duration) && shape.curve.echoOffset == shape.value(.duration))
        shape.set(.fourierTerms, 0)
        #expect(shape.curve.fourierTerms == .nyquist)
        shape.set(.wave, 2.6)
        #expect(shape.curve.wave == WaveType.allCases[3])
        shape.set(.duration, 4)
        #expect(shape.points.last?.time == 4)
        // Toggles are on above 0 (lv2core), as the audio side reads them.
        shape.set(.antiAlias, 0.01)
        #expect(shape.value(.antiAlias) == 1)
        shape.set(.antiAlias, 0)
        #expect(shape.value(.antiAlias) == 0)
    }

    /// The rule a plugin plays its range ports by depends on their values alone: every
    /// order of the same moves, the ends passing each other on the way included, gives the
    /// same sound. Beside it, the node's rule refuses a minimum above the maximum; where
    /// the final values are ordered, the plugin sounds as the node does with that range.
    @Test func theRangePlayedDependsOnThePortValuesNotTheirOrder() {
        let moves: [(ParameterID, Double)] = [(.minFrequency, 500), (.maxFrequency, 350), (.minFrequency, 200), (.maxFrequency, 600)]
        var outputs: [[Float]] = []
        var shapes: [InstrumentShape] = []
        for order in [[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [3, 1, 2, 0], [1, 3, 0, 2]] {
            var plugin = Plugin(Self.instrumentShape)
            for k in order {
                plugin.control(moves[k].0, moves[k].1)
                _ = plugin.render(periods: 3)
            }
            // The final values: the last move of each port in this order.
            let lastMin = order.last { moves[$0].0 == .minFrequency }.map { moves[$0].1 }!
            let lastMax = order.last { moves[$0].0 == .maxFrequency }.map { moves[$0].1 }!
            #expect(plugin.builder.shape.playedRange == InstrumentShape.playedRange(lastMin, lastMax))
            outputs.append(plugin.render(periods: 40, midi: [0: [MIDIEvent(frame: 0, size: 3, byte0: 0x90, byte1: 69, byte2: 100)]]))
            shapes.append(plugin.builder.shape)
        }
        // Orders that end on the same two values sound the same; here they end on 200/600
        // or on 500/350 (played 350...500): compare each with the first of its kind.
        let finalRanges = shapes.map { $0.playedRange }
        for i in outputs.indices {
            guard let first = finalRanges.firstIndex(of: finalRanges[i]), first != i else { continue }
            #expect(outputs[i] == outputs[first], "order \(i) against order \(first), both playing \(finalRanges[i])")
            #expect(shapes[i].playedPoints == shapes[first].playedPoints)
        }
        // The node with the final range set as it accepts it (ordered) plays the same.
        for (i, range) in finalRanges.enumerated() {
            var node = Self.instrumentShape
            node.remapFrequencyRange(min: range.low, max: range.high)
            let played = Self.nodeRender(node, periods: 40, midi: [0: [MIDIEvent(frame: 0, size: 3, byte0: 0x90, byte1: 69, byte2: 100)]])
            let worst = zip(outputs[i], played).map { abs($0 - $1) }.max() ?? 0
            #expect(worst < 1e-4, "order \(i) against the node at \(range): \(worst)")
            #expect(outputs[i].contains { $0 != 0 })
        }
    }
}
