import Testing
import ToneShaperAudio
import ToneShaperControl
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters

/// Every row reaches what plays it, with no list kept by hand: a ramped row of the sound is
/// the engine's (its `apply` takes it), a performance row the MIDI performer's (its settings
/// hold it), any other a new plan's. A row added to the table and bound nowhere fails here.
@Suite("Row bindings")
struct RowBindingTests {
    /// Ids are the rows' numbers for good: one row each, unique, within the room the audio
    /// side keeps values in.
    @Test func everyIdIsOneRowsNumberAndFitsTheValues() {
        #expect(ParameterTable.all.map(\.id).sorted { $0.rawValue < $1.rawValue } == ParameterID.allCases)
        #expect(Set(ParameterTable.all.map(\.number)).count == ParameterTable.all.count)
        for spec in ParameterTable.all {
            #expect(spec.number == Int(spec.id.rawValue) && spec.number < ParameterValues.capacity, "\(spec.documentKey)")
        }
        #expect(UnitWave.maximumPartials == ToneShapeLimits.maximumPartials, "the terms control spans the kernel's partials")
    }

    @Test func everyRampedRowOfTheSoundIsTheEngines() {
        var engine = EngineController(shape: .defaultShape, sampleRate: 48_000).makeEngine()
        for spec in ParameterTable.all where spec.change == .ramp && !spec.isPerformance {
            let value = spec.numericRange.map { ($0.lowerBound + $0.upperBound) / 2 } ?? 1
            let taken = engine.apply(.ramp(spec.id, value))
            #expect(taken, "\(spec.documentKey) is ramped, and the engine does not take it")
        }
        for spec in ParameterTable.all where spec.change == .newPlan || spec.isPerformance {
            let taken = engine.apply(.ramp(spec.id, 0))
            #expect(!taken, "\(spec.documentKey) is not the engine's to ramp")
        }
    }

    @Test func everyPerformanceRowReachesThePerformerFromTheShape() throws {
        var shape = ToneShape.defaultShape
        var expected = ParameterValues()
        for spec in ParameterTable.all where spec.isPerformance {
            let value: ParameterValue
            switch spec.kind {
            case .flag: value = .flag(true)
            case .integer(let r): value = .integer(r.upperBound)
            case .real(let r): value = .real(r.upperBound)
            case .choice(let names): value = .text(names[names.count - 1])
            case .terms: value = .integer(2)
            }
            shape = try shape.setting(spec.id, to: value)
            expected[spec.id] = spec.portValue(of: value)
        }
        let renderer = EngineController(shape: shape, sampleRate: 48_000).makeRenderer()
        for spec in ParameterTable.all where spec.isPerformance {
            #expect(renderer.performer.settings[spec.id] == expected[spec.id], "\(spec.documentKey)")
        }
    }
}
