import Foundation
import Testing
import ToneShaperParameters
import ToneShaperPlugin

/// What a VST 3 host saves projects by and must find again in every later version: the two
/// classes' ids (frozen in Sources/CVST3/entry.c), the ids of the parameters
/// VST 3 adds for MIDI, and the normalized values of the table's rows.
@Suite struct VST3IdentityTests {
    static let entry = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../Sources/CVST3/entry.c")

    /// FROZEN: the MD5 of the CLAP ids "org.toneshaper.instrument" and
    /// "org.toneshaper.instrument-stereo", as INLINE_UID's four words. Never change them.
    @Test func theClassIDsAreFrozen() throws {
        let text = try String(contentsOf: Self.entry, encoding: .utf8)
        #expect(text.contains("UID(0xF86493AA, 0xEECFBCDB, 0xB7CADF1A, 0x73D55927),  // ToneShaper (mono)"))
        #expect(text.contains("UID(0x920414C7, 0x3A90F826, 0x4F903663, 0xFEDFF65F),  // ToneShaper (stereo)"))
    }

    @Test func theMIDIParametersKeepTheirIDs() throws {
        #expect(MIDIParameters.programID == 0x8000)
        #expect(MIDIParameters.id(channel: 0, number: 1) == 0x10001, "the mod wheel on the first channel")
        #expect(MIDIParameters.id(channel: 15, number: 129) == 0x10F81, "pitch bend on the last channel")
        #expect(MIDIParameters.id(channel: 0, number: 128) == nil, "no channel pressure")
        #expect(MIDIParameters.id(channel: 16, number: 1) == nil)
        for index in 0..<MIDIParameters.count {
            #expect(MIDIParameters.index(of: MIDIParameters.id(index)) == index)
        }
        // Above every row's stable number, for good.
        #expect(ParameterTable.all.allSatisfy { UInt32($0.number) < MIDIParameters.programID })
        let bend = try #require(MIDIParameters.index(of: 0x10081))
        #expect(MIDIParameters.message(bend, 0.5) == (0xE0, 0, 64), "the centre")
        let sustain = try #require(MIDIParameters.index(of: 0x10240))
        #expect(MIDIParameters.message(sustain, 1) == (0xB2, 64, 127), "the sustain pedal on channel 3")
    }

    @Test func everyRowsNormalizedValueReadsBack() {
        for row in 0..<HostParameter.count {
            let range = HostParameter.range(row)
            for value in [range.lowerBound, HostParameter.defaultValue(row), range.upperBound] {
                let normalized = HostParameter.normalized(row, value)
                #expect(normalized >= 0 && normalized <= 1)
                #expect(abs(HostParameter.plain(row, normalized: normalized) - value) <= 1e-9 * max(1, abs(value)), "row \(row)")
            }
        }
    }
}
