import Foundation
import Synchronization
import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters

/// The audio side's copy of the parameter table (`AudioParameters`) and the controller
/// scaling both sides evaluate come from the table alone; a change of the audio side's that
/// the control side refuses is logged and set right.
@Suite("Audio parameters")
struct AudioParametersTests {
    let parameters = ParameterTable.audioParameters

    @Test func everyParameterHasOneRowAtItsIndex() {
        #expect(parameters.count == ParameterID.allCases.count)
        #expect(parameters.count == ParameterTable.all.count)
        for id in ParameterID.allCases {
            let row = parameters[parameters.index(of: id)]
            #expect(row.id == id)
            #expect(row.ramps == (ParameterTable.spec(id).change == .ramp))
            #expect(row.controller == ParameterTable.spec(id).controllerCurve)
        }
    }

    /// The scaling column fits each row's kind: a flag toggles, whole numbers and choices
    /// step, the count of terms has no controller.
    @Test func scalingFitsTheKind() {
        for spec in ParameterTable.all {
            switch spec.kind {
            case .flag: #expect(spec.controller == .toggle, "\(spec.id)")
            case .integer, .choice: #expect(spec.controller == .stepped, "\(spec.id)")
            case .terms: #expect(spec.controller == .none, "\(spec.id)")
            case .real: #expect(spec.controller != .toggle && spec.controller != .stepped && spec.controller != .none, "\(spec.id)")
            }
            #expect(MIDIControllerMap.canMap(spec.id) == (spec.controller != .none))
        }
    }

    /// Each parameter's value at controller values 0, 64 and 127, as the control side gives it
    /// (`MIDIControllerMap.value`), is what the audio side's row evaluates, within the range,
    /// and what the scaling always gave (the frequencies over 20 Hz...20 kHz, the echo offset
    /// over the cycle, the rest over the range).
    @Test func controllerValuesAgreeOnBothSides() throws {
        let shape = ToneShape.defaultShape
        let expected: [ParameterID: [Double]] = [
            .minFrequency: [20, 20 * pow(1000, 64.0 / 127), 20_000], .maxFrequency: [20, 20 * pow(1000, 64.0 / 127), 20_000],
            .echoOffset: [0, 64.0 / 127 * shape.duration, shape.duration], .amplitude: [0, 64.0 / 127, 1],
            .voices: [1, 33, 64], .rootNote: [0, 64, 127], .instrument: [0, 1, 1], .bendRange: [0, 48 * 64.0 / 127, 48],
            .wave: [0, Double(Int((Double(WaveType.allCases.count - 1) * 64.0 / 127).rounded())), Double(WaveType.allCases.count - 1)],
        ]
        for spec in ParameterTable.all where spec.controller != .none {
            let row = parameters.row(spec.id)
            for (k, cc) in [0, 64, 127].enumerated() {
                let control = try #require(MIDIControllerMap.value(of: spec.id, controllerValue: cc, shape: shape))
                let canonical = try spec.canonical(control)
                let audio = try #require(row.controller.value(UInt8(cc), cycle: shape.duration))
                #expect(Self.number(canonical, of: spec) == audio, "\(spec.id) at \(cc): control \(canonical), audio \(audio)")
                #expect(audio >= row.low && audio <= row.high && parameters.clamped(spec.id, audio) == audio, "\(spec.id) at \(cc)")
                if let values = expected[spec.id] {
                    #expect(abs(audio - values[k]) <= 1e-9 * max(1, abs(values[k])), "\(spec.id) at \(cc): \(audio), not \(values[k])")
                }
            }
        }
    }

    /// A canonical value as the number the audio side works with (a choice: its index).
    static func number(_ value: ParameterValue, of spec: ParameterSpec) -> Double {
        if case .choice(let names) = spec.kind, case .text(let name) = value { return Double(names.firstIndex(of: name) ?? -1) }
        return value.real
    }

    /// Through the renderer: a mapped controller moves each `.ramp` parameter on the audio
    /// side, and the control side's state ends where its own evaluation says.
    @Test(arguments: ParameterTable.all.filter { $0.change == .ramp }.map(\.id))
    func mappedControllerLandsWhereTheControlSideSays(_ id: ParameterID) throws {
        var shape = MIDIPerformanceTests.steady()
        shape = try shape.settingFrequencyRange(min: 0, max: FrequencyLimit.maximum)  // any controller value fits
        let player = MIDIPerformanceTests.Player(shape)
        try player.controller.perform(.mapController(controller: 7, parameter: id))
        for cc: UInt8 in [0, 64, 127] {
            player.play([MIDIPerformanceTests.cc(7, cc)], periods: 2)
            player.controller.collectHandback()
            let want = try ParameterTable.spec(id).canonical(
                try #require(MIDIControllerMap.value(of: id, controllerValue: Int(cc), shape: player.controller.shape)))
            #expect(ParameterTable.spec(id).value(in: player.controller.shape) == want, "\(id) at \(cc)")
        }
    }

    /// A change the audio side made that the shape refuses (here a minimum above the maximum)
    /// is logged, and the audio side is sent the state's value back.
    @Test func refusedAudioSideChangeIsLoggedAndSetRight() throws {
        let lines = Mutex<[String]>([])
        let controller = EngineController(
            shape: MIDIPerformanceTests.steady(), sampleRate: MIDIPerformanceTests.rate,
            log: { line in lines.withLock { $0.append(line) } })
        var renderer = controller.makeRenderer(rampLength: 64)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { buffer.deallocate() }
        let clock = PeriodClock(startMicros: 0, microsPerFrame: 1e6 / MIDIPerformanceTests.rate)
        renderer.applyAudioSideChange(.parameter(.minFrequency, 3000))  // the maximum is 2000
        renderer.renderPeriod(into: buffer, frames: 64, clock: clock)
        controller.collectHandback()
        #expect(controller.shape.minFrequency == 20)
        #expect(lines.withLock { $0.count } == 1)
        #expect(lines.withLock { $0.first?.contains("frequency/min") ?? false })
        for _ in 0..<3 { renderer.renderPeriod(into: buffer, frames: 64, clock: clock) }
        #expect(renderer.engine.minFrequency.target == 20, "the audio side plays the state again")
    }

    /// A library whose second document does not read.
    struct LibraryWithABrokenDocument: DocumentStore {
        struct Unreadable: Error, CustomStringConvertible { var description: String { "not a tone shape document" } }
        func loadDocument(named name: String) throws -> ToneShape {
            guard name == "fine" else { throw Unreadable() }
            var shape = MIDIPerformanceTests.steady()
            shape.amplitude = 0.125
            return shape
        }
        func saveDocument(_ shape: ToneShape, named name: String) throws -> String { name }
        func documentNames() -> [String] { ["fine", "broken"] }
    }

    /// A program change whose document does not load is said in the log, with the reason,
    /// and leaves the sound as it is; a program that loads is taken, saying nothing.
    @Test func aProgramThatDoesNotLoadIsLoggedAndChangesNothing() throws {
        let lines = Mutex<[String]>([])
        let controller = EngineController(
            shape: MIDIPerformanceTests.steady(), sampleRate: MIDIPerformanceTests.rate, documents: LibraryWithABrokenDocument(),
            log: { line in lines.withLock { $0.append(line) } })
        var renderer = controller.makeRenderer(rampLength: 64)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { buffer.deallocate() }
        let clock = PeriodClock(startMicros: 0, microsPerFrame: 1e6 / MIDIPerformanceTests.rate)
        let before = controller.shape
        let program = { (n: UInt8) in
            [MIDIEvent(frame: 0, size: 2, byte0: 0xC0, byte1: n, byte2: 0)].withUnsafeBufferPointer {
                renderer.renderPeriod(into: buffer, frames: 64, clock: clock, midi: $0, transport: nil)
            }
            controller.collectHandback()
        }
        program(1)
        #expect(controller.shape == before)
        #expect(lines.withLock { $0 }.contains { $0.contains("MIDI program 1: broken did not load") && $0.contains("not a tone shape document") })
        program(0)
        #expect(controller.shape.amplitude == 0.125)
        #expect(lines.withLock { $0.count } == 1)
    }
}
