import Testing
import ToneShaperDSP
import ToneShaperModel
import ToneShaperParameters
import ToneShaperPlugin

/// The plugin's builder carries a document's tuning into its plans: the plan's key table is
/// the tuning's, a new tuning or (laid out from the root note) a new root owes a plan, and
/// the document saved keeps the tuning.
@Suite struct InstrumentTuningTests {
    static let nineteenEDO = "19-EDO\n19\n" + (1...18).map { "\(Double($0) * 1200 / 19)" }.joined(separator: "\n") + "\n2/1\n"
    /// Twelve keys on 69, the formal octave degree 19.
    static let twelveKeys = "12\n0\n127\n69\n69\n440.0\n19\n0\n2\n3\n5\n6\n8\n10\n11\n13\n14\n16\n17\n"

    static func shape(_ tuning: Tuning?) -> ToneShape {
        var shape = ToneShape.defaultShape
        shape.tuning = tuning
        return shape
    }

    static func plan(_ response: InstrumentResponse?) -> RenderPlan? {
        switch response {
        case .plan(let plan)?: return plan
        case .shape(let plan, _)?: return plan
        case nil: return nil
        }
    }

    @Test func theRootNoteMovesATuningLaidOutFromItAndTheDocumentKeepsIt() throws {
        let nineteen = try Tuning(scale: Self.nineteenEDO)
        var builder = InstrumentBuilder(shape: InstrumentShape(Self.shape(nineteen)), sampleRate: 48_000)
        let first = builder.firstPlan()
        let table = try #require(first.tuning)
        #expect(abs(table.semitones(81) - table.semitones(69) - 12 * 12.0 / 19) < 1e-9)
        // Root 60: the table is laid out from key 60 now, in a new plan.
        let moved = try #require(Self.plan(builder.handle(.set(.rootNote, 60))), "a new root owes a plan")
        let movedTable = try #require(moved.tuning)
        #expect(abs(movedTable.semitones(72) - movedTable.semitones(60) - 12 * 12.0 / 19) < 1e-9)
        #expect(abs(movedTable.semitones(69) - movedTable.semitones(60) - 9 * 12.0 / 19) < 1e-9, "laid out from 60 now")
        // A map fixes the layout: the root then moves no plan.
        _ = builder.setTuning(try Tuning(scale: Self.nineteenEDO, keyboardMap: Self.twelveKeys))
        #expect(Self.plan(builder.handle(.set(.rootNote, 62))) == nil)
        // Nothing else moves the tuning, and a document of the shape keeps it.
        let saved = ToneShape(played: builder.shape, document: Self.shape(nil))
        #expect(saved.tuning == (try Tuning(scale: Self.nineteenEDO, keyboardMap: Self.twelveKeys)))
        let untuned = try #require(Self.plan(builder.setTuning(nil)))
        #expect(untuned.tuning == nil)
        #expect(ToneShape(played: builder.shape, document: Self.shape(nineteen)).tuning == nil)
    }
}
