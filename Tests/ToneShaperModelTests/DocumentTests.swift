import Testing
import ToneShaperModel
import ToneShaperParameters

@Suite struct Documents {
    /// A document as the original app writes it: only its own keys.
    let original = """
        {"points":[[0,220],[0.25,440],[0.5,330]],"duration":0.5,"minFrequency":220,"maxFrequency":440,
         "componentType":"Triangle Fourier","scaleType":"Two Step","echoOffsetTimeSeconds":0.1,"echoVolume":0.5,"fidelity":4}
        """

    func decode(_ text: String) throws(DocumentError) -> ToneShape { try ToneShapeDocument.decode(text, source: "t.toneshaper") }

    func problem(_ text: String) -> String {
        do {
            _ = try decode(text)
            return "accepted"
        } catch { return error.description }
    }

    @Test func readsTheOriginalAppsDocuments() throws {
        let shape = try decode(original)
        #expect(shape.points == [CurvePoint(time: 0, frequency: 220), CurvePoint(time: 0.25, frequency: 440), CurvePoint(time: 0.5, frequency: 330)])
        #expect(shape.duration == 0.5 && shape.minFrequency == 220 && shape.maxFrequency == 440)
        #expect(shape.wave == .triangleFourier && shape.scale == .twoStep)
        #expect(shape.echoOffset == 0.1 && shape.echoVolume == 0.5 && shape.fidelity == 4)
        // This project's keys take their defaults.
        #expect(shape.amplitude == 0.25 && shape.fourierTerms == .count(3) && shape.antiAliased)
    }

    @Test func absentKeysTakeTheSpecDefaults() throws {
        let shape = try decode(#"{"points":[[0,100]],"duration":1,"minFrequency":100,"maxFrequency":100}"#)
        #expect(shape.wave == .sine && shape.scale == .sine && shape.echoOffset == 0 && shape.echoVolume == 1 && shape.fidelity == 500)
    }

    @Test func namesMatchCaseInsensitively() throws {
        let shape = try decode(
            #"{"points":[[0,1]],"duration":1,"minFrequency":0,"maxFrequency":1,"componentType":"square fourier","scaleType":"WIDE TWO STEP","fourierTerms":"Nyquist"}"#
        )
        #expect(shape.wave == .squareFourier && shape.scale == .wideTwoStep && shape.fourierTerms == .nyquist)
    }

    @Test func saveAndLoadRoundTripKeepingUnknownKeys() throws {
        var text = original
        text.removeLast()
        text += #", "colorHint": {"r": 1}, "tags": ["a", 2, true, null]}"#
        let shape = try decode(text)
        #expect(shape.extraKeys["colorHint"] == .object(["r": .number(1)]))
        let again = try ToneShapeDocument.decode(ToneShapeDocument.encode(shape), source: "again")
        #expect(again == shape)
    }

    @Test func brokenDocumentsNameTheFileTheKeyAndTheProblem() {
        let base = #""duration":0.5,"minFrequency":100,"maxFrequency":900"#
        #expect(
            problem(#"{"points":[[0,100],[0.2,200],[0.4,300],[0.9,400]],\#(base)}"#)
                == "t.toneshaper: points: point 3: time 0.9 s is outside the cycle 0...0.5 s")
        #expect(problem("") == "t.toneshaper: the file is empty; a tone-shape document is a JSON object")
        #expect(problem(#"{"points":[[0,100]],"duration":0.5,"minFrequ"#).hasPrefix("t.toneshaper: not valid JSON"))
        #expect(problem("[1,2]").contains("expected a JSON object"))
        #expect(problem(#"{\#(base)}"#) == "t.toneshaper: points: is required (an array of [time, frequency] pairs) but missing")
        #expect(problem(#"{"points":[],\#(base)}"#).contains("points: must hold at least one"))
        #expect(
            problem(#"{"points":[[0,100]],"duration":"long","minFrequency":1,"maxFrequency":2}"#)
                == "t.toneshaper: duration: expects a number in s, got \"long\"")
        #expect(problem(#"{"points":[[0,100]],"duration":0,"minFrequency":1,"maxFrequency":2}"#).contains("duration: 0 is out of range"))
        #expect(
            problem(#"{"points":[[0,100]],"duration":1,"minFrequency":-1,"maxFrequency":2}"#).contains(
                "minFrequency: -1 is out of range 0...96000 Hz"))
        #expect(
            problem(#"{"points":[[0,100]],"duration":1,"minFrequency":5,"maxFrequency":2}"#).contains("minFrequency: 5 Hz is above the maximum 2 Hz"))
        #expect(problem(#"{"points":[[0,100]],\#(base),"fidelity":0}"#).contains("fidelity: 0 is out of range 1...2000000"))
        #expect(problem(#"{"points":[[0,100]],\#(base),"fidelity":2.5}"#).contains("fidelity"))
        #expect(problem(#"{"points":[[0,100]],\#(base),"componentType":"Wobble"}"#).contains("componentType: unknown name \"Wobble\""))
        // Choices by index and flags as 0/1 or "yes"/"no" are read as every front end reads them.
        #expect(problem(#"{"points":[[0,100]],\#(base),"scaleType":30}"#).contains("scaleType: expects a name or an index"))
        #expect(problem(#"{"points":[[0,100]],\#(base),"scaleType":[3]}"#).contains("scaleType: must be"))
        #expect(problem(#"{"points":[[0.3,100],[0.1,200]],\#(base)}"#).contains("points: point 1: time 0.1 s comes before"))
        #expect(problem(#"{"points":[[0,100,3]],\#(base)}"#).contains("points[0]: must be a [time, frequency] pair"))
        #expect(problem(#"{"points":[[0,"a"]],\#(base)}"#).contains("points[0]: must be a [time, frequency] pair of numbers"))
        #expect(problem(#"{"points":[[0,1e999]],\#(base)}"#) != "accepted")
        #expect(problem(#"{"points":[[0,100]],\#(base),"echoVolume":1.5}"#).contains("echoVolume: 1.5 is out of range 0...1"))
        #expect(problem(#"{"points":[[0,100]],\#(base),"echoOffsetTimeSeconds":0.6}"#).contains("echoOffsetTimeSeconds"))
        #expect(problem(#"{"points":[[0,100]],\#(base),"amplitude":2}"#).contains("amplitude"))
        #expect(problem(#"{"points":[[0,100]],\#(base),"fourierTerms":0}"#).contains("fourierTerms"))
        #expect(problem(#"{"points":[[0,100]],\#(base),"antiAlias":"maybe"}"#).contains("antiAlias: expects 0 or 1"))
        #expect(problem(#"{"points":[[0,100]],"duration":0.5,"minFrequency":100,"maxFrequency":200000}"#).contains("out of range 0...96000 Hz"))
        #expect(problem(#"{"points":[[0,100000]],\#(base)}"#).contains("points: point 0: frequency 100000 Hz is outside 0...96000 Hz"))
    }

    @Test func oversizedDocumentsAreRefusedBeforeParsing() {
        let huge = [UInt8](repeating: 0x20, count: ToneShapeDocument.maximumSize + 1)
        #expect(throws: DocumentError.self) { try ToneShapeDocument.decode(huge, source: "big") }
    }
}

@Suite struct Parameters {
    @Test func theTableDeclaresEachNameOnce() {
        let all = ParameterTable.all
        #expect(Set(all.map(\.id)).count == ParameterID.allCases.count)
        #expect(Set(all.map(\.oscPath)).count == all.count)
        #expect(Set(all.map(\.flag)).count == all.count)
        #expect(Set(all.map(\.documentKey)).count == all.count)
        // Every document key in the table is one the document reader knows.
        for spec in all { #expect(ToneShapeDocument.knownKeys.contains(spec.documentKey), "\(spec.documentKey)") }
        // And the value written under that key reads back as the same value.
        let shape = ToneShape.defaultShape
        let object = try? ToneShapeDocument.decode(ToneShapeDocument.encode(shape), source: "x")
        for spec in all { #expect(object?.parameterValue(spec.id) == shape.parameterValue(spec.id)) }
    }

    @Test func settingEveryParameter() throws {
        let s = ToneShape.defaultShape
        #expect(try s.setting(.minFrequency, to: .integer(50)).minFrequency == 50)
        #expect(try s.setting(.maxFrequency, to: .real(880)).maxFrequency == 880)
        #expect(try s.setting(.wave, to: .text("sawtooth-fourier")).wave == .sawtoothFourier)
        #expect(try s.setting(.wave, to: .integer(1)).wave == .square)
        #expect(try s.setting(.scale, to: .text("Exponential")).scale == .exponential)
        #expect(try s.setting(.echoOffset, to: .real(0.5)).echoOffset == 0.5)
        #expect(try s.setting(.echoVolume, to: .real(0.3)).echoVolume == 0.3)
        #expect(try s.setting(.amplitude, to: .integer(1)).amplitude == 1)
        #expect(try s.setting(.duration, to: .real(4)).duration == 4)
        #expect(try s.setting(.fidelity, to: .real(64)).fidelity == 64)
        #expect(try s.setting(.fourierTerms, to: .text("nyquist")).fourierTerms == .nyquist)
        #expect(try s.setting(.fourierTerms, to: .integer(9)).fourierTerms == .count(9))
        #expect(try s.setting(.antiAlias, to: .integer(0)).antiAliased == false)
    }

    @Test func refusedValuesLeaveTheShapeAlone() {
        let s = ToneShape.defaultShape
        let bad: [(ParameterID, ParameterValue)] = [
            (.amplitude, .real(.nan)), (.amplitude, .real(.infinity)), (.amplitude, .real(1.5)), (.amplitude, .text("loud")),
            (.minFrequency, .real(1000)), (.maxFrequency, .real(10)), (.echoOffset, .real(3)), (.echoVolume, .real(-0.1)),
            (.duration, .real(0)), (.fidelity, .real(2.5)), (.fidelity, .integer(0)), (.wave, .text("Wobble")), (.wave, .integer(7)),
            (.scale, .integer(-1)), (.fourierTerms, .integer(0)), (.antiAlias, .integer(2)), (.wave, .real(1.5)),
        ]
        for (id, value) in bad {
            #expect(throws: ControlError.self, "\(id) = \(value)") { _ = try s.setting(id, to: value) }
        }
    }

    @Test func rangeChangesRemapThePointsAffinely() throws {
        let s = try ToneShape.defaultShape.settingFrequencyRange(min: 1000, max: 2000)
        // 220 sat at (220 - 110) / (440 - 110) = 1/3 of the old range.
        #expect(abs(s.points[0].frequency - (1000 + 1000.0 / 3)) < 1e-9)
        #expect(abs(s.points[1].frequency - (1000 + 2000.0 / 3)) < 1e-9)  // 330 sat at 2/3
        #expect(throws: ControlError.self) { _ = try s.settingFrequencyRange(min: 10, max: 5) }
        #expect(throws: ControlError.self) { _ = try s.settingFrequencyRange(min: .nan, max: 5) }
    }

    @Test func durationChangesStretchThePoints() throws {
        let s = try ToneShape.defaultShape.setting(.duration, to: .real(1))
        #expect(s.points.map(\.time) == [0, 0.5, 1])
    }
}
