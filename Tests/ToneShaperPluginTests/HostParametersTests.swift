import Testing
import ToneShaperParameters
import ToneShaperPlugin

/// The values a host sets by id (CLAP, VST3): checked, rounded where stepped, modulated on
/// top where allowed, held while not active; the text of every value reads back.
@Suite struct HostParametersTests {
    static func id(_ parameter: ParameterID) -> UInt32 { UInt32(ParameterTable.all.first { $0.id == parameter }!.number) }

    @Test func aValueIsCheckedKeptAndPlayedWithItsModulation() throws {
        let params = HostParameters()
        defer { params.free() }
        let amplitude = Self.id(.amplitude)
        let row = try #require(params.row(amplitude))
        // Not active: held for activation.
        #expect(try params.set(amplitude, 0.5, modulation: false, active: false) == nil)
        #expect(params.takePending().map(\.row) == [row])
        #expect(params.takePending().isEmpty, "taken once")
        let played = try params.set(amplitude, 0.2, modulation: true, active: true)
        #expect(played?.row == row && played?.value == 0.7)
        #expect(try params.set(amplitude, 0.9, modulation: true, active: true)?.value == 1, "kept in the range")
        #expect(params.values[row] == 0.5 && params.modulation[row] == 0.9)
        // Refusals change nothing.
        #expect(throws: HostParameters.Refusal.unknownID) { try params.set(9_999, 0.5, modulation: false, active: true) }
        #expect(throws: HostParameters.Refusal.notFinite) { try params.set(amplitude, .nan, modulation: false, active: true) }
        #expect(throws: HostParameters.Refusal.outOfRange) { try params.set(amplitude, 1.5, modulation: false, active: true) }
        #expect(params.values[row] == 0.5)
        let voices = Self.id(.voices)
        #expect(try params.set(voices, 3.4, modulation: false, active: true)?.value == 3, "a stepped value is rounded")
        if let unmodulatable = (0..<params.count).first(where: { !HostParameter.modulatable($0) }) {
            #expect(throws: HostParameters.Refusal.notModulatable) {
                try params.set(HostParameter.id(unmodulatable), 0, modulation: true, active: true)
            }
        }
    }

    @Test func everyValuesTextReadsBack() {
        for row in 0..<HostParameter.count {
            let range = HostParameter.range(row)
            for value in [range.lowerBound, HostParameter.defaultValue(row), range.upperBound] {
                let text = HostParameter.text(row, value)
                let back = text.flatMap { HostParameter.value(row, text: $0) }
                #expect(
                    back != nil && abs(back! - value) <= max(1e-5 * abs(value), 1e-9),
                    "row \(row): \(value) → \(text ?? "nil") → \(String(describing: back))")
            }
        }
    }
}
